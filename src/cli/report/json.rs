//! The report for programs (`json`): one document, a record per line, written by serde_json.

use std::io::Write;

use serde::Serialize;
use serde_json::ser::CharEscape;

use super::{ExpectStatus, FileReport, Problem, Reporter, Totals};
use crate::api::stats::{GameIndex, Stats};
use crate::api::Severity;

/// One JSON document: `{"format": "cgl-check", "version": 1, "records": [...], "summary":
/// {...}}`, one record per line, each written as soon as its file is done. Records are
/// objects with a `kind` of `file` or `expect` (the structs below, serialised by serde_json in
/// field order); spec/language.md §10 lists the fields.
pub(super) struct Json {
    pub(super) records: usize,
    /// Whether file records carry a `stats` object (`--stats`).
    pub(super) stats: bool,
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
                    record.code = Some(crate::api::TIMEOUT.name());
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
    /// The same for each game instance's positions, with the bytes a position.
    games: Vec<GameJson>,
}

/// A game instance's entry in `games`: the `--stats` block's indented row.
#[derive(Serialize)]
struct GameJson {
    /// The instance as its positions print (not cut short).
    name: String,
    positions: usize,
    indexed_dense: usize,
    indexed_packed: usize,
    indexed_hashed: usize,
    /// What its positions take in the graph, moves aside.
    bytes: usize,
    /// Its dense table ranks sorted lists (`dense (sorted)`).
    dense_sorted: bool,
    /// `bytes` over `positions`; `null` when it has none.
    bytes_per_position: Option<usize>,
}

impl GameJson {
    fn of(game: &GameIndex) -> GameJson {
        let index = &game.index;
        let positions = index.dense + index.packed + index.hashed;
        GameJson {
            name: game.name.clone(),
            positions,
            indexed_dense: index.dense,
            indexed_packed: index.packed,
            indexed_hashed: index.hashed,
            bytes: game.bytes,
            dense_sorted: game.sorted,
            bytes_per_position: game.bytes.checked_div(positions),
        }
    }
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
            games: graph.games.iter().map(GameJson::of).collect(),
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
}
