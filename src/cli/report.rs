//! What `cgl check` found, as data, and the four ways of writing it: for people (`human`),
//! for programs (`json`), for CI dashboards (`junit`) and for GitHub Actions (`github`).
//!
//! A [`FileReport`] holds only strings and numbers, so it can be built on a worker thread
//! (where the file's `Session` lives and dies) and written on the main thread. Every writer
//! gets the reports in the order of the input, so the output does not depend on which worker
//! finished first, and none of them writes times or anything else that varies between runs
//! (except the figures of `--stats`, whose times do).

use std::collections::BTreeMap;
use std::io::Write;

use clap::ValueEnum;

use crate::diag::{render, Code, Diag, FileId, RenderStyle, Severity, SourceMap, Span};
use crate::session::FailedValues;
use crate::stats::Stats;

/// The output format of `cgl check`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One line per file on stdout, diagnostics on stderr, then `N passed, M failed`.
    #[default]
    Human,
    /// One JSON document on stdout: a record per file and per expectation.
    Json,
    /// JUnit XML on stdout: a testsuite per file, a testcase per expectation.
    Junit,
    /// The human format, plus a GitHub Actions `::error` annotation per problem on stdout.
    Github,
}

/// Where something is: the file as the user named it, and 1-based lines and columns
/// (columns count characters) of its first character and of the character after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The file, as shown in diagnostics.
    pub file: String,
    /// Line of the start.
    pub line: usize,
    /// Column of the start.
    pub column: usize,
    /// Line of the end.
    pub end_line: usize,
    /// Column of the end (exclusive).
    pub end_column: usize,
}

/// Turns spans into places. Keeps the line starts of each source it has seen, so that a file
/// with 10,000 expectations is not scanned from its start 20,000 times
/// ([`SourceMap::line_col`] scans).
#[derive(Debug, Default)]
pub struct Locator {
    line_starts: BTreeMap<FileId, Vec<usize>>,
}

impl Locator {
    /// The place of a span, if its source is known.
    pub fn place(&mut self, span: Span, sources: &SourceMap) -> Option<Place> {
        let source = sources.get(span.file)?;
        let text: &str = &source.text;
        let starts = self.line_starts.entry(span.file).or_insert_with(|| {
            std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        });
        let (line, column) = line_col(text, starts, span.start as usize);
        let (end_line, end_column) = line_col(text, starts, span.end as usize);
        Some(Place {
            file: source.name.clone(),
            line,
            column,
            end_line,
            end_column,
        })
    }
}

/// 1-based line and column (in characters) of a byte offset, as [`SourceMap::line_col`]
/// counts them.
fn line_col(text: &str, line_starts: &[usize], offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let line = line_starts.partition_point(|&start| start <= offset).max(1);
    let start = line_starts.get(line - 1).copied().unwrap_or(0);
    let column = text.get(start..offset).map_or(0, |s| s.chars().count()) + 1;
    (line, column)
}

/// A diagnostic, flattened to text, with its rendering.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The stable code (`cgl::check::failed`).
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// The headline.
    pub message: String,
    /// Where the primary label points, if anywhere.
    pub place: Option<Place>,
    /// The labels: place and text.
    pub labels: Vec<(Place, String)>,
    /// Notes.
    pub notes: Vec<String>,
    /// How to fix it.
    pub help: Option<String>,
    /// The diagnostic as `cgl` draws it (without colour unless the style asks for it).
    pub rendered: String,
}

impl Problem {
    /// Flattens a diagnostic, rendering it in `style`.
    pub fn of(
        diag: &Diag,
        sources: &SourceMap,
        style: RenderStyle,
        locator: &mut Locator,
    ) -> Problem {
        Problem {
            code: diag.code,
            severity: diag.severity,
            message: diag.message.clone(),
            place: diag.primary_span().and_then(|s| locator.place(s, sources)),
            labels: diag
                .labels
                .iter()
                .filter_map(|l| Some((locator.place(l.span, sources)?, l.message.clone())))
                .collect(),
            notes: diag.notes.clone(),
            help: diag.help.clone(),
            rendered: render(diag, sources, style),
        }
    }

    /// A problem that is not about a place in a source: a path that does not exist, a crash.
    /// `rendered` is the whole text the human format prints for it.
    pub fn plain(code: Code, message: String, help: Option<String>, rendered: String) -> Problem {
        Problem {
            code,
            severity: Severity::Error,
            message,
            place: None,
            labels: Vec::new(),
            notes: Vec::new(),
            help,
            rendered,
        }
    }
}

/// How one `expect` went.
#[derive(Clone, Debug)]
pub enum ExpectStatus {
    /// It held.
    Passed,
    /// It was false, or evaluating it failed: the problem says why; the values say what it
    /// evaluated to, where that is known.
    Failed(Box<Problem>, FailedValues),
    /// Not evaluated: the file ran out of time on an earlier expectation.
    Skipped,
}

/// One `expect` of a file.
#[derive(Clone, Debug)]
pub struct ExpectReport {
    /// Where its expression is.
    pub place: Place,
    /// Its expression, as written.
    pub text: String,
    /// How it went.
    pub status: ExpectStatus,
}

/// Everything `cgl check` learnt about one input path.
#[derive(Clone, Debug)]
pub struct FileReport {
    /// The path as the user named it (or as found below a named folder).
    pub path: String,
    /// Why the file could not be checked (not found, unreadable, syntax, names, a crash);
    /// empty when it was checked.
    pub errors: Vec<Problem>,
    /// Things worth knowing that fail nothing (an empty file).
    pub warnings: Vec<Problem>,
    /// Its expectations in source order (none if it could not be checked).
    pub expects: Vec<ExpectReport>,
    /// What checking it cost, with `--stats` (`None` without it, and for a file that was not
    /// read: not found, crashed, given up on).
    pub stats: Option<Stats>,
}

impl FileReport {
    /// A report for a file that could not be checked.
    pub fn not_checked(path: String, errors: Vec<Problem>) -> FileReport {
        FileReport {
            path,
            errors,
            warnings: Vec::new(),
            expects: Vec::new(),
            stats: None,
        }
    }

    fn count(&self, pred: fn(&ExpectStatus) -> bool) -> usize {
        self.expects.iter().filter(|e| pred(&e.status)).count()
    }

    /// Expectations that held.
    pub fn passed(&self) -> usize {
        self.count(|s| matches!(s, ExpectStatus::Passed))
    }

    /// Expectations that failed.
    pub fn failed(&self) -> usize {
        self.count(|s| matches!(s, ExpectStatus::Failed(..)))
    }

    /// Expectations not evaluated (the file ran out of time).
    pub fn skipped(&self) -> usize {
        self.count(|s| matches!(s, ExpectStatus::Skipped))
    }

    /// Whether the file was checked at all.
    pub fn checked(&self) -> bool {
        self.errors.is_empty()
    }

    fn status(&self) -> &'static str {
        if !self.checked() {
            "error"
        } else if self.failed() + self.skipped() > 0 {
            "fail"
        } else {
            "ok"
        }
    }
}

/// Counts over all files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Input files (and paths that were not found).
    pub files: usize,
    /// Expectations that held.
    pub passed: usize,
    /// Expectations that failed.
    pub failed: usize,
    /// Expectations not evaluated because their file ran out of time.
    pub skipped: usize,
    /// Files that could not be checked.
    pub not_checked: usize,
}

impl Totals {
    /// Adds one file.
    pub fn add(&mut self, report: &FileReport) {
        self.files += 1;
        self.passed += report.passed();
        self.failed += report.failed();
        self.skipped += report.skipped();
        self.not_checked += usize::from(!report.checked());
    }

    /// The exit code: 2 if a file could not be checked, else 1 if an expectation failed (or
    /// was not evaluated), else 0.
    pub fn exit_code(&self) -> u8 {
        if self.not_checked > 0 {
            2
        } else if self.failed + self.skipped > 0 {
            1
        } else {
            0
        }
    }

    /// The last line of the human format. A file that could not be checked counts as one
    /// failure, and so does an expectation that was not evaluated.
    fn summary(&self) -> String {
        format!(
            "{} passed, {} failed",
            self.passed,
            self.failed + self.skipped + self.not_checked
        )
    }
}

/// Writes reports in one format. `file` is called once per input, in input order; `finish`
/// once at the end.
pub trait Reporter {
    /// Writes (or keeps) one file's report.
    fn file(&mut self, report: &FileReport, out: &mut dyn Write, err: &mut dyn Write);
    /// Writes what comes after the last file.
    fn finish(&mut self, totals: &Totals, out: &mut dyn Write, err: &mut dyn Write);
}

/// The writer for a format; with `stats`, JSON file records carry a `stats` object (the
/// other formats leave the figures to the caller, who writes them to stderr).
pub fn reporter(format: Format, stats: bool) -> Box<dyn Reporter> {
    match format {
        Format::Human => Box::new(Human { github: false }),
        Format::Github => Box::new(Human { github: true }),
        Format::Json => Box::new(Json { records: 0, stats }),
        Format::Junit => Box::new(Junit::default()),
    }
}

/// Output errors (a closed pipe) are ignored: there is nobody left to tell.
struct Human {
    github: bool,
}

impl Reporter for Human {
    fn file(&mut self, report: &FileReport, out: &mut dyn Write, err: &mut dyn Write) {
        for problem in report.errors.iter().chain(&report.warnings) {
            let _ = writeln!(err, "{}", problem.rendered);
        }
        for expect in &report.expects {
            if let ExpectStatus::Failed(problem, _) = &expect.status {
                let _ = writeln!(err, "{}", problem.rendered);
            }
        }
        let skipped = report.skipped();
        if skipped > 0 {
            let (noun, verb) = if skipped == 1 {
                ("expectation", "was")
            } else {
                ("expectations", "were")
            };
            let _ = writeln!(
                err,
                "note: {skipped} more {noun} in {} {verb} not checked: the file ran out of time\n",
                report.path,
            );
        }
        if report.checked() {
            let failed = report.failed() + skipped;
            let status = if failed == 0 { "ok   " } else { "FAIL " };
            let _ = writeln!(
                out,
                "{status} {} ({} passed, {failed} failed)",
                report.path,
                report.passed()
            );
        } else {
            let _ = writeln!(out, "error {} (could not be checked)", report.path);
        }
        if self.github {
            github_annotations(report, out);
        }
    }

    fn finish(&mut self, totals: &Totals, out: &mut dyn Write, _err: &mut dyn Write) {
        let _ = writeln!(out, "{}", totals.summary());
    }
}

/// GitHub Actions workflow commands: `::error file=F,line=L,col=C,...::message`. Each problem
/// points where its diagnostic points (for a failed expectation, into the `expect`), or at
/// the file when it has no place. See the "workflow commands" page of the GitHub Actions docs
/// for the escaping.
fn github_annotations(report: &FileReport, out: &mut dyn Write) {
    let mut annotate = |problem: &Problem, fallback: Option<&Place>, prefix: &str| {
        let level = match problem.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut props = Vec::new();
        match problem.place.as_ref().or(fallback) {
            Some(place) => {
                props.push(format!("file={}", github_property(&place.file)));
                props.push(format!("line={}", place.line));
                props.push(format!("col={}", place.column));
                props.push(format!("endLine={}", place.end_line));
                props.push(format!("endColumn={}", place.end_column));
            }
            None => props.push(format!("file={}", github_property(&report.path))),
        }
        props.push(format!("title={}", github_property(problem.code.name())));
        let mut message = format!("{prefix}{}", problem.message);
        for (_, label) in problem.labels.iter().filter(|(_, l)| !l.is_empty()) {
            message.push_str(&format!("\n{label}"));
        }
        for note in &problem.notes {
            message.push_str(&format!("\nnote: {note}"));
        }
        if let Some(help) = &problem.help {
            message.push_str(&format!("\nhelp: {help}"));
        }
        let _ = writeln!(
            out,
            "::{level} {}::{}",
            props.join(","),
            github_data(&message)
        );
    };
    for problem in report.errors.iter().chain(&report.warnings) {
        annotate(problem, None, "");
    }
    for expect in &report.expects {
        match &expect.status {
            ExpectStatus::Failed(problem, _) => {
                let prefix = format!("`expect {}`: ", one_line(&expect.text));
                annotate(problem, Some(&expect.place), &prefix);
            }
            ExpectStatus::Skipped => {
                let problem = Problem::plain(
                    crate::eval::TIMEOUT,
                    "not checked: the file ran out of time before this expectation".to_string(),
                    Some("allow more time with --timeout".to_string()),
                    String::new(),
                );
                annotate(&problem, Some(&expect.place), "");
            }
            ExpectStatus::Passed => {}
        }
    }
}

fn github_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn github_property(text: &str) -> String {
    github_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// One JSON document: `{"format": "cgl-check", "version": 1, "records": [...], "summary":
/// {...}}`, one record per line. Records are objects with a `kind` of `file` or `expect`.
/// spec/language.md §10 lists the fields.
struct Json {
    records: usize,
    /// Whether file records carry a `stats` object (`--stats`).
    stats: bool,
}

impl Json {
    fn record(&mut self, out: &mut dyn Write, fields: &JsonObject) {
        let sep = if self.records == 0 { "" } else { ",\n" };
        self.records += 1;
        let _ = write!(out, "{sep}{}", fields.finish());
    }
}

impl Reporter for Json {
    fn file(&mut self, report: &FileReport, out: &mut dyn Write, _err: &mut dyn Write) {
        if self.records == 0 {
            let _ = writeln!(
                out,
                "{{\"format\":\"cgl-check\",\"version\":1,\"records\":["
            );
        }
        let mut file = JsonObject::new();
        file.str("kind", "file")
            .str("file", &report.path)
            .str("status", report.status())
            .num("passed", report.passed())
            .num("failed", report.failed())
            .num("skipped", report.skipped());
        let diagnostics: Vec<String> = report
            .errors
            .iter()
            .chain(&report.warnings)
            .map(|p| json_problem(p).finish())
            .collect();
        file.raw("diagnostics", &format!("[{}]", diagnostics.join(",")));
        if self.stats {
            let stats = report
                .stats
                .as_ref()
                .map_or_else(|| "null".to_string(), json_stats);
            file.raw("stats", &stats);
        }
        self.record(out, &file);
        for expect in &report.expects {
            let mut record = JsonObject::new();
            record
                .str("kind", "expect")
                .str("file", &report.path)
                .num("line", expect.place.line)
                .num("column", expect.place.column)
                .num("end_line", expect.place.end_line)
                .num("end_column", expect.place.end_column)
                .str("text", &expect.text);
            match &expect.status {
                ExpectStatus::Passed => {
                    record.str("status", "pass");
                }
                ExpectStatus::Failed(problem, values) => {
                    record
                        .str("status", "fail")
                        .str("code", problem.code.name())
                        .str("message", &problem.message)
                        .opt("value", values.value.as_deref())
                        .opt("operator", values.operator)
                        .opt("actual", values.actual.as_deref())
                        .opt("expected", values.expected.as_deref())
                        .raw("diagnostic", &json_problem(problem).finish());
                }
                ExpectStatus::Skipped => {
                    record
                        .str("status", "skipped")
                        .str("code", crate::eval::TIMEOUT.name())
                        .str(
                            "message",
                            "not checked: the file ran out of time before this expectation",
                        );
                }
            }
            self.record(out, &record);
        }
    }

    fn finish(&mut self, totals: &Totals, out: &mut dyn Write, _err: &mut dyn Write) {
        if self.records == 0 {
            let _ = write!(
                out,
                "{{\"format\":\"cgl-check\",\"version\":1,\"records\":["
            );
        }
        let mut summary = JsonObject::new();
        summary
            .num("files", totals.files)
            .num("passed", totals.passed)
            .num("failed", totals.failed)
            .num("skipped", totals.skipped)
            .num("not_checked", totals.not_checked)
            .num("exit_code", usize::from(totals.exit_code()));
        let _ = writeln!(out, "\n],\"summary\":{}}}", summary.finish());
    }
}

/// The `stats` object of a file record: times in microseconds, then the graph's size.
fn json_stats(stats: &Stats) -> String {
    let micros = |d: std::time::Duration| usize::try_from(d.as_micros()).unwrap_or(usize::MAX);
    let graph = &stats.graph;
    let mut object = JsonObject::new();
    object
        .num("parse_lower_us", micros(stats.load))
        .num("evaluation_us", micros(stats.eval))
        .num("evaluated", stats.work.count())
        .num("rules", stats.compiled.of_rules)
        .num("rules_compiled", stats.compiled.rules)
        .num("conditions", stats.compiled.of_conditions)
        .num("conditions_compiled", stats.compiled.conditions)
        .num("positions", graph.positions)
        .num("game_positions", graph.atoms)
        .num("compounds", graph.compounds)
        .num("moves", graph.moves)
        .num("memory_bytes", graph.bytes)
        .num("memory_estimate_bytes", graph.estimate)
        .raw(
            "bytes_per_position",
            &graph
                .bytes_per_position()
                .map_or_else(|| "null".to_string(), |b| b.to_string()),
        );
    object.finish()
}

fn json_problem(problem: &Problem) -> JsonObject {
    let mut object = JsonObject::new();
    object
        .str("code", problem.code.name())
        .str(
            "severity",
            match problem.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
        )
        .str("message", &problem.message);
    if let Some(place) = &problem.place {
        object
            .str("file", &place.file)
            .num("line", place.line)
            .num("column", place.column);
    }
    let labels: Vec<String> = problem
        .labels
        .iter()
        .map(|(place, message)| {
            let mut label = JsonObject::new();
            label
                .str("file", &place.file)
                .num("line", place.line)
                .num("column", place.column)
                .num("end_line", place.end_line)
                .num("end_column", place.end_column)
                .str("message", message);
            label.finish()
        })
        .collect();
    let notes: Vec<String> = problem.notes.iter().map(|n| json_string(n)).collect();
    object
        .raw("labels", &format!("[{}]", labels.join(",")))
        .raw("notes", &format!("[{}]", notes.join(",")))
        .opt("help", problem.help.as_deref())
        .str("rendered", &problem.rendered);
    object
}

/// A JSON object written field by field, in the order given (so output is stable).
struct JsonObject {
    text: String,
}

impl JsonObject {
    fn new() -> JsonObject {
        JsonObject {
            text: String::from("{"),
        }
    }

    fn raw(&mut self, key: &str, value: &str) -> &mut JsonObject {
        if self.text.len() > 1 {
            self.text.push(',');
        }
        self.text.push_str(&json_string(key));
        self.text.push(':');
        self.text.push_str(value);
        self
    }

    fn str(&mut self, key: &str, value: &str) -> &mut JsonObject {
        self.raw(key, &json_string(value))
    }

    fn num(&mut self, key: &str, value: usize) -> &mut JsonObject {
        self.raw(key, &value.to_string())
    }

    /// A string field, left out when there is no value.
    fn opt(&mut self, key: &str, value: Option<&str>) -> &mut JsonObject {
        if let Some(value) = value {
            self.str(key, value);
        }
        self
    }

    fn finish(&self) -> String {
        format!("{}}}", self.text)
    }
}

/// A JSON string literal (RFC 8259): quotes, backslashes and control characters escaped.
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// JUnit XML, as Jenkins, GitLab and most CI dashboards read it: `<testsuites>` with a
/// `<testsuite>` per file and a `<testcase>` per `expect` (named `line L: TEXT`); a failed
/// expectation has a `<failure>` whose text is the rendered diagnostic, a skipped one a
/// `<skipped>`, and a file that could not be checked is a suite with one `<testcase>` holding
/// an `<error>`. No times, so that the output is the same on every run. Written at the end,
/// because the root element carries the totals.
#[derive(Default)]
struct Junit {
    suites: String,
}

impl Reporter for Junit {
    fn file(&mut self, report: &FileReport, _out: &mut dyn Write, _err: &mut dyn Write) {
        let name = xml_attr(&report.path);
        let s = &mut self.suites;
        if !report.checked() {
            s.push_str(&format!(
                "  <testsuite name=\"{name}\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n"
            ));
            s.push_str(&format!(
                "    <testcase name=\"{name}\" classname=\"{name}\" file=\"{name}\">\n"
            ));
            for problem in &report.errors {
                s.push_str(&format!(
                    "      <error message=\"{}\" type=\"{}\">{}</error>\n",
                    xml_attr(&problem.message),
                    xml_attr(problem.code.name()),
                    xml_text(&problem.rendered)
                ));
            }
            s.push_str("    </testcase>\n  </testsuite>\n");
            return;
        }
        s.push_str(&format!(
            "  <testsuite name=\"{name}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n",
            report.expects.len(),
            report.failed(),
            report.skipped()
        ));
        for expect in &report.expects {
            let case = format!("line {}: {}", expect.place.line, one_line(&expect.text));
            s.push_str(&format!(
                "    <testcase name=\"{}\" classname=\"{name}\" file=\"{name}\" line=\"{}\"",
                xml_attr(&case),
                expect.place.line
            ));
            match &expect.status {
                ExpectStatus::Passed => s.push_str("/>\n"),
                ExpectStatus::Failed(problem, _) => s.push_str(&format!(
                    ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
                    xml_attr(&problem.message),
                    xml_attr(problem.code.name()),
                    xml_text(&problem.rendered)
                )),
                ExpectStatus::Skipped => s.push_str(
                    ">\n      <skipped message=\"not checked: the file ran out of time\"/>\n    </testcase>\n",
                ),
            }
        }
        s.push_str("  </testsuite>\n");
    }

    fn finish(&mut self, totals: &Totals, out: &mut dyn Write, _err: &mut dyn Write) {
        let _ = write!(
            out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <testsuites name=\"cgl check\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">\n\
             {}</testsuites>\n",
            totals.passed + totals.failed + totals.skipped + totals.not_checked,
            totals.failed,
            totals.not_checked,
            totals.skipped,
            self.suites
        );
    }
}

/// An expression written over several lines, on one line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Text content: `&`, `<`, `>` escaped, and characters XML 1.0 forbids even escaped
/// (control characters other than tab and line breaks) replaced.
fn xml_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if u32::from(c) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// An attribute value: as text, plus quotes, and line breaks kept as character references.
fn xml_attr(text: &str) -> String {
    xml_text(text)
        .replace('"', "&quot;")
        .replace('\n', "&#10;")
        .replace('\r', "&#13;")
        .replace('\t', "&#9;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_escape_what_json_requires() {
        assert_eq!(
            json_string("a\"b\\c\nd\u{1}é"),
            "\"a\\\"b\\\\c\\nd\\u0001é\""
        );
    }

    #[test]
    fn xml_escapes_markup_and_drops_forbidden_characters() {
        assert_eq!(
            xml_text("a < b && c > d\u{1b}"),
            "a &lt; b &amp;&amp; c &gt; d\u{fffd}"
        );
        assert_eq!(xml_attr("say \"hi\"\nnow"), "say &quot;hi&quot;&#10;now");
    }

    #[test]
    fn places_agree_with_the_source_map() {
        let mut sources = SourceMap::default();
        let text = "ab\nçd€\n\nx";
        let file = sources.add("t.game", text);
        let mut locator = Locator::default();
        for start in 0..=text.len() {
            if !text.is_char_boundary(start) {
                continue;
            }
            let span = Span::new(file, start, text.len());
            let place = locator.place(span, &sources).unwrap();
            assert_eq!(
                (place.line, place.column),
                sources.line_col(span),
                "at {start}"
            );
            assert_eq!((place.end_line, place.end_column), (4, 2));
        }
    }

    #[test]
    fn github_escapes_data_and_properties() {
        assert_eq!(github_data("50%\nmore"), "50%25%0Amore");
        assert_eq!(github_property("a:b,c"), "a%3Ab%2Cc");
    }
}
