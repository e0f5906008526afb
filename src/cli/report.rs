//! What `cgl check` found, as data, and the four ways of writing it: for people (`human`),
//! for programs (`json`), for CI dashboards (`junit`) and for GitHub Actions (`github`).
//!
//! A [`FileReport`] holds only strings and numbers, so it can be built on a worker thread
//! (where the file's `Session` lives and dies) and written on the main thread. Every writer
//! gets the reports in the order of the input, so the output does not depend on which worker
//! finished first, and none of them writes times or anything else that varies between runs
//! (except the figures of `--stats`, whose times do).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Write;

use clap::ValueEnum;
use quick_xml::escape::partial_escape;
use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::name::QName;
use quick_xml::Writer as XmlWriter;
use serde::Serialize;
use serde_json::ser::CharEscape;

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
/// {...}}`, one record per line, each written as soon as its file is done. Records are
/// objects with a `kind` of `file` or `expect` (the structs below, serialised by serde_json in
/// field order); spec/language.md §10 lists the fields.
struct Json {
    records: usize,
    /// Whether file records carry a `stats` object (`--stats`).
    stats: bool,
}

/// The opening of the document, up to the first record.
const JSON_HEAD: &str = "{\"format\":\"cgl-check\",\"version\":1,\"records\":[";

impl Json {
    fn record(&mut self, out: &mut dyn Write, record: &impl Serialize) {
        let sep = if self.records == 0 { "" } else { ",\n" };
        self.records += 1;
        let _ = write!(out, "{sep}{}", json(record));
    }
}

impl Reporter for Json {
    fn file(&mut self, report: &FileReport, out: &mut dyn Write, _err: &mut dyn Write) {
        if self.records == 0 {
            let _ = writeln!(out, "{JSON_HEAD}");
        }
        let file = FileRecord {
            kind: "file",
            file: &report.path,
            status: report.status(),
            passed: report.passed(),
            failed: report.failed(),
            skipped: report.skipped(),
            diagnostics: report
                .errors
                .iter()
                .chain(&report.warnings)
                .map(ProblemJson::of)
                .collect(),
            stats: self.stats.then(|| report.stats.as_ref().map(StatsJson::of)),
        };
        self.record(out, &file);
        for expect in &report.expects {
            let mut record = ExpectRecord {
                kind: "expect",
                file: &report.path,
                line: expect.place.line,
                column: expect.place.column,
                end_line: expect.place.end_line,
                end_column: expect.place.end_column,
                text: &expect.text,
                status: "pass",
                code: None,
                message: None,
                value: None,
                operator: None,
                actual: None,
                expected: None,
                diagnostic: None,
            };
            match &expect.status {
                ExpectStatus::Passed => {}
                ExpectStatus::Failed(problem, values) => {
                    record.status = "fail";
                    record.code = Some(problem.code.name());
                    record.message = Some(&problem.message);
                    record.value = values.value.as_deref();
                    record.operator = values.operator;
                    record.actual = values.actual.as_deref();
                    record.expected = values.expected.as_deref();
                    record.diagnostic = Some(ProblemJson::of(problem));
                }
                ExpectStatus::Skipped => {
                    record.status = "skipped";
                    record.code = Some(crate::eval::TIMEOUT.name());
                    record.message =
                        Some("not checked: the file ran out of time before this expectation");
                }
            }
            self.record(out, &record);
        }
    }

    fn finish(&mut self, totals: &Totals, out: &mut dyn Write, _err: &mut dyn Write) {
        if self.records == 0 {
            let _ = write!(out, "{JSON_HEAD}");
        }
        let summary = SummaryJson {
            files: totals.files,
            passed: totals.passed,
            failed: totals.failed,
            skipped: totals.skipped,
            not_checked: totals.not_checked,
            exit_code: totals.exit_code(),
        };
        let _ = writeln!(out, "\n],\"summary\":{}}}", json(&summary));
    }
}

/// A `file` record.
#[derive(Serialize)]
struct FileRecord<'a> {
    kind: &'static str,
    file: &'a str,
    status: &'static str,
    passed: usize,
    failed: usize,
    skipped: usize,
    diagnostics: Vec<ProblemJson<'a>>,
    /// Only with `--stats`; `null` for a path that was not read.
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<Option<StatsJson>>,
}

/// An `expect` record; the fields after `status` are there only when known.
#[derive(Serialize)]
struct ExpectRecord<'a> {
    kind: &'static str,
    file: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    text: &'a str,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    operator: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    actual: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    diagnostic: Option<ProblemJson<'a>>,
}

/// The totals at the end of the document.
#[derive(Serialize)]
struct SummaryJson {
    files: usize,
    passed: usize,
    failed: usize,
    skipped: usize,
    not_checked: usize,
    exit_code: u8,
}

/// The `stats` object of a file record: times in microseconds, then the graph's size.
#[derive(Serialize)]
struct StatsJson {
    parse_lower_us: usize,
    evaluation_us: usize,
    evaluated: usize,
    rules: usize,
    rules_compiled: usize,
    conditions: usize,
    conditions_compiled: usize,
    positions: usize,
    game_positions: usize,
    compounds: usize,
    moves: usize,
    memory_bytes: usize,
    memory_estimate_bytes: usize,
    /// `null` when there are no positions.
    bytes_per_position: Option<usize>,
    /// Terms found by a dense table, a packed key, a hash of their value.
    indexed_dense: usize,
    indexed_packed: usize,
    indexed_hashed: usize,
}

impl StatsJson {
    fn of(stats: &Stats) -> StatsJson {
        let micros = |d: std::time::Duration| usize::try_from(d.as_micros()).unwrap_or(usize::MAX);
        let graph = &stats.graph;
        StatsJson {
            parse_lower_us: micros(stats.load),
            evaluation_us: micros(stats.eval),
            evaluated: stats.work.count(),
            rules: stats.compiled.of_rules,
            rules_compiled: stats.compiled.rules,
            conditions: stats.compiled.of_conditions,
            conditions_compiled: stats.compiled.conditions,
            positions: graph.positions,
            game_positions: graph.atoms,
            compounds: graph.compounds,
            moves: graph.moves,
            memory_bytes: graph.bytes,
            memory_estimate_bytes: graph.estimate,
            bytes_per_position: graph.bytes_per_position(),
            indexed_dense: graph.index.dense,
            indexed_packed: graph.index.packed,
            indexed_hashed: graph.index.hashed,
        }
    }
}

/// A diagnostic object: the primary place (if any) flattened into `file`, `line`, `column`.
#[derive(Serialize)]
struct ProblemJson<'a> {
    code: &'static str,
    severity: &'static str,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
    labels: Vec<LabelJson<'a>>,
    notes: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<&'a str>,
    rendered: &'a str,
}

impl<'a> ProblemJson<'a> {
    fn of(problem: &'a Problem) -> ProblemJson<'a> {
        let place = problem.place.as_ref();
        ProblemJson {
            code: problem.code.name(),
            severity: match problem.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
            message: &problem.message,
            file: place.map(|p| p.file.as_str()),
            line: place.map(|p| p.line),
            column: place.map(|p| p.column),
            labels: problem
                .labels
                .iter()
                .map(|(place, message)| LabelJson {
                    file: &place.file,
                    line: place.line,
                    column: place.column,
                    end_line: place.end_line,
                    end_column: place.end_column,
                    message,
                })
                .collect(),
            notes: &problem.notes,
            help: problem.help.as_deref(),
            rendered: &problem.rendered,
        }
    }
}

/// A label of a diagnostic object.
#[derive(Serialize)]
struct LabelJson<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    message: &'a str,
}

/// A value as compact JSON (RFC 8259), every control character below U+0020 that has no
/// two-letter escape in our output written `\u00XX`.
fn json(value: &impl Serialize) -> String {
    let mut bytes = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut bytes, JsonFormat);
    // Our records are strings and numbers only; serialising them cannot fail.
    if value.serialize(&mut serializer).is_err() {
        return "null".to_string();
    }
    String::from_utf8(bytes).unwrap_or_default()
}

/// serde_json's compact format, except that backspace and form feed are written as
/// `\u0008` and `\u000c` (as version 1 of the format always wrote them) rather than `\b`
/// and `\f`: the same JSON, the same bytes as before.
struct JsonFormat;

impl serde_json::ser::Formatter for JsonFormat {
    fn write_char_escape<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        char_escape: CharEscape,
    ) -> std::io::Result<()> {
        let char_escape = match char_escape {
            CharEscape::Backspace => CharEscape::AsciiControl(0x08),
            CharEscape::FormFeed => CharEscape::AsciiControl(0x0c),
            other => other,
        };
        serde_json::ser::CompactFormatter.write_char_escape(writer, char_escape)
    }
}

/// JUnit XML, as Jenkins, GitLab and most CI dashboards read it: `<testsuites>` with a
/// `<testsuite>` per file and a `<testcase>` per `expect` (named `line L: TEXT`); a failed
/// expectation has a `<failure>` whose text is the rendered diagnostic, a skipped one a
/// `<skipped>`, and a file that could not be checked is a suite with one `<testcase>` holding
/// an `<error>`. No times, so that the output is the same on every run. Written by quick-xml
/// (indented by two spaces) at the end, because the root element carries the totals.
#[derive(Default)]
struct Junit {
    reports: Vec<FileReport>,
}

impl Reporter for Junit {
    fn file(&mut self, report: &FileReport, _out: &mut dyn Write, _err: &mut dyn Write) {
        self.reports.push(report.clone());
    }

    fn finish(&mut self, totals: &Totals, out: &mut dyn Write, _err: &mut dyn Write) {
        let mut xml = XmlWriter::new_with_indent(Vec::new(), b' ', 2);
        // Writing to a Vec cannot fail.
        let _ = junit(&mut xml, totals, &self.reports);
        let mut bytes = xml.into_inner();
        bytes.push(b'\n');
        let _ = out.write_all(&bytes);
    }
}

/// The whole JUnit document.
fn junit(
    xml: &mut XmlWriter<Vec<u8>>,
    totals: &Totals,
    reports: &[FileReport],
) -> std::io::Result<()> {
    xml.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let tests = totals.passed + totals.failed + totals.skipped + totals.not_checked;
    xml.write_event(Event::Start(element(
        "testsuites",
        &[
            ("name", "cgl check".to_string()),
            ("tests", tests.to_string()),
            ("failures", totals.failed.to_string()),
            ("errors", totals.not_checked.to_string()),
            ("skipped", totals.skipped.to_string()),
        ],
    )))?;
    for report in reports {
        junit_suite(xml, report)?;
    }
    xml.write_event(Event::End(BytesEnd::new("testsuites")))
}

/// One `<testsuite>`: a file's expectations, or the errors that kept it from being checked.
fn junit_suite(xml: &mut XmlWriter<Vec<u8>>, report: &FileReport) -> std::io::Result<()> {
    let name = report.path.clone();
    let counts = if report.checked() {
        (report.expects.len(), report.failed(), 0, report.skipped())
    } else {
        (1, 0, 1, 0)
    };
    xml.write_event(Event::Start(element(
        "testsuite",
        &[
            ("name", name.clone()),
            ("tests", counts.0.to_string()),
            ("failures", counts.1.to_string()),
            ("errors", counts.2.to_string()),
            ("skipped", counts.3.to_string()),
        ],
    )))?;
    if !report.checked() {
        let case = [
            ("name", name.clone()),
            ("classname", name.clone()),
            ("file", name),
        ];
        xml.write_event(Event::Start(element("testcase", &case)))?;
        for problem in &report.errors {
            junit_problem(xml, "error", problem)?;
        }
        xml.write_event(Event::End(BytesEnd::new("testcase")))?;
        return xml.write_event(Event::End(BytesEnd::new("testsuite")));
    }
    for expect in &report.expects {
        let case = [
            (
                "name",
                format!("line {}: {}", expect.place.line, one_line(&expect.text)),
            ),
            ("classname", name.clone()),
            ("file", name.clone()),
            ("line", expect.place.line.to_string()),
        ];
        match &expect.status {
            ExpectStatus::Passed => xml.write_event(Event::Empty(element("testcase", &case)))?,
            ExpectStatus::Failed(problem, _) => {
                xml.write_event(Event::Start(element("testcase", &case)))?;
                junit_problem(xml, "failure", problem)?;
                xml.write_event(Event::End(BytesEnd::new("testcase")))?;
            }
            ExpectStatus::Skipped => {
                xml.write_event(Event::Start(element("testcase", &case)))?;
                let message = [(
                    "message",
                    "not checked: the file ran out of time".to_string(),
                )];
                xml.write_event(Event::Empty(element("skipped", &message)))?;
                xml.write_event(Event::End(BytesEnd::new("testcase")))?;
            }
        }
    }
    xml.write_event(Event::End(BytesEnd::new("testsuite")))
}

/// `<failure>` or `<error>`: the message and code as attributes, the rendered diagnostic as
/// text.
fn junit_problem(
    xml: &mut XmlWriter<Vec<u8>>,
    tag: &str,
    problem: &Problem,
) -> std::io::Result<()> {
    let attributes = [
        ("message", problem.message.clone()),
        ("type", problem.code.name().to_string()),
    ];
    xml.write_event(Event::Start(element(tag, &attributes)))?;
    xml.write_event(Event::Text(BytesText::from_escaped(partial_escape(
        xml_chars(&problem.rendered),
    ))))?;
    xml.write_event(Event::End(BytesEnd::new(tag)))
}

/// A start (or empty) element with its attributes in the order given. quick-xml's own
/// attribute escaping leaves line breaks and tabs as they are, which a reader turns into
/// spaces; they are written as character references, so that a multi-line message survives.
fn element<'a>(tag: &'a str, attributes: &[(&str, String)]) -> BytesStart<'a> {
    let mut start = BytesStart::new(tag);
    for (key, value) in attributes {
        let value = partial_escape(xml_chars(value))
            .replace('"', "&quot;")
            .replace('\n', "&#10;")
            .replace('\t', "&#9;");
        start.push_attribute(Attribute {
            key: QName(key),
            value: Cow::Owned(value),
        });
    }
    start
}

/// An expression written over several lines, on one line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Text with the characters that XML 1.0 forbids even escaped (control characters other
/// than tab and line breaks, U+FFFE, U+FFFF) replaced by U+FFFD.
fn xml_chars(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            c if u32::from(c) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => '\u{fffd}',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_escape_what_json_requires() {
        assert_eq!(
            json(&"a\"b\\c\nd\u{1}\u{8}\u{c}é/"),
            "\"a\\\"b\\\\c\\nd\\u0001\\u0008\\u000cé/\""
        );
    }

    #[test]
    fn xml_escapes_markup_and_drops_forbidden_characters() {
        assert_eq!(
            partial_escape(xml_chars("a < b && c > d\u{1b} 'q' \"q\"")),
            "a &lt; b &amp;&amp; c &gt; d\u{fffd} 'q' \"q\""
        );
        let start = element("e", &[("m", "say \"hi\"\nnow\tit's <x>".to_string())]);
        let mut xml = XmlWriter::new(Vec::new());
        xml.write_event(Event::Empty(start)).unwrap();
        assert_eq!(
            String::from_utf8(xml.into_inner()).unwrap(),
            "<e m=\"say &quot;hi&quot;&#10;now&#9;it's &lt;x&gt;\"/>"
        );
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
