//! Diagnostics as data: what a [`Diag`] says, with its spans turned into places (file, 1-based
//! lines and columns, byte offsets), ready for an editor, a web page or a notebook to show in
//! its own way. [`crate::diag::render`] draws the same diagnostic for a terminal.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Code, Diag, FileId, Severity, SourceMap, Span};

/// Where something is: the file as the user named it, 1-based lines and columns (columns
/// count characters) of its first character and of the character after it, and the same two
/// points as byte offsets into the source text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
    /// Byte offset of the start.
    pub start: usize,
    /// Byte offset of the end (exclusive).
    pub end: usize,
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
        let (start, end) = (span.start as usize, span.end as usize);
        let (line, column) = line_col(text, starts, start);
        let (end_line, end_column) = line_col(text, starts, end);
        Some(Place {
            file: source.name.clone(),
            line,
            column,
            end_line,
            end_column,
            start: start.min(text.len()),
            end: end.min(text.len()),
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

/// A diagnostic as data. Serialised (JSON), the code is its stable name
/// (`cgl::resolve::unknown_name`) and the severity `"error"` or `"warning"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// The stable code.
    #[serde(serialize_with = "code_name", deserialize_with = "code_of_name")]
    pub code: Code,
    /// Error or warning.
    #[serde(
        serialize_with = "severity_name",
        deserialize_with = "severity_of_name"
    )]
    pub severity: Severity,
    /// The headline.
    pub message: String,
    /// Where the primary label points, if anywhere.
    pub place: Option<Place>,
    /// The labels, the primary one first: place and text.
    pub labels: Vec<(Place, String)>,
    /// Notes.
    pub notes: Vec<String>,
    /// How to fix it.
    pub help: Option<String>,
}

impl Diagnostic {
    /// The data of a diagnostic whose spans are in `sources`.
    pub fn of(diag: &Diag, sources: &SourceMap, locator: &mut Locator) -> Diagnostic {
        Diagnostic {
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
        }
    }

    /// A diagnostic that is about no place in a source (a path that does not exist).
    pub fn plain(code: Code, message: String, help: Option<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: super::bounded(message),
            place: None,
            labels: Vec::new(),
            notes: Vec::new(),
            help: help.map(super::bounded),
        }
    }

    /// Every diagnostic of a list, located once.
    pub fn all(diags: &[Diag], sources: &SourceMap) -> Vec<Diagnostic> {
        let mut locator = Locator::default();
        diags
            .iter()
            .map(|d| Diagnostic::of(d, sources, &mut locator))
            .collect()
    }
}

/// The name of a severity in serialised diagnostics.
pub fn severity_text(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn code_name<S: Serializer>(code: &Code, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(code.name())
}

fn code_of_name<'de, D: Deserializer<'de>>(d: D) -> Result<Code, D::Error> {
    let name = String::deserialize(d)?;
    Code::from_name(&name)
        .filter(|c| c.name() == name)
        .ok_or_else(|| serde::de::Error::custom(format!("unknown diagnostic code `{name}`")))
}

fn severity_name<S: Serializer>(severity: &Severity, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(severity_text(*severity))
}

fn severity_of_name<'de, D: Deserializer<'de>>(d: D) -> Result<Severity, D::Error> {
    match String::deserialize(d)?.as_str() {
        "error" => Ok(Severity::Error),
        "warning" => Ok(Severity::Warning),
        other => Err(serde::de::Error::custom(format!(
            "unknown severity `{other}`"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert_eq!((place.start, place.end), (start, text.len()));
        }
    }
}
