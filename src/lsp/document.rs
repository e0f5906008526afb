//! One open buffer: its text, checked in a session of its own under a budget, and the
//! answers about it (diagnostics, hover, definition, outline) in the protocol's terms, whose
//! positions count lines from 0 and characters in UTF-16 code units.

use std::path::{Path, PathBuf};

use lsp_types::{
    Diagnostic as LspDiagnostic, DiagnosticRelatedInformation, DiagnosticSeverity,
    DocumentSymbolResponse, Hover, HoverContents, Location, MarkupContent, MarkupKind,
    NumberOrString, Position, Range, SymbolInformation, SymbolKind, Uri,
};

use crate::api::{
    Budget, DefinitionKind, Diagnostic, Gave, RunOptions, Session, SessionConfig, Severity, TIMEOUT,
};

/// What checking one buffer may take: editors check on every keystroke.
const SECONDS: f64 = 2.0;
const MEMORY: usize = 512 << 20;

/// An open buffer.
pub struct Document {
    /// Its address.
    pub uri: Uri,
    /// The editor's version of its text.
    pub version: i32,
    text: String,
    /// The file it is, where imports are read beside it.
    path: PathBuf,
    /// The session it was checked in, and its file there, if it loaded.
    checked: Option<(Session, usize)>,
}

impl Document {
    /// A buffer just opened.
    pub fn open(uri: Uri, version: i32, text: String) -> Document {
        let path = file_path(uri.as_str()).unwrap_or_else(|| PathBuf::from(uri.as_str()));
        Document {
            uri,
            version,
            text,
            path,
            checked: None,
        }
    }

    /// The same buffer with new text.
    pub fn changed(self, version: i32, text: String) -> Document {
        Document {
            version,
            text,
            checked: None,
            ..self
        }
    }

    /// Checks the buffer afresh: loads it, runs its `expect` lines, and returns every
    /// diagnostic.
    pub fn check(&mut self) -> Vec<LspDiagnostic> {
        let mut config = SessionConfig::default();
        config.graph.max_memory = MEMORY;
        let mut session = Session::new(config);
        let budget = Budget::new().seconds(SECONDS).memory(MEMORY);
        let (path, text) = (self.path.clone(), self.text.clone());
        let (loaded, found) = session.within(&budget, |s| match s.load_buffer(&path, &text) {
            Err(errors) => (None, s.diagnostics(&errors)),
            Ok(file) => {
                let mut failed = Vec::new();
                let options = RunOptions {
                    skip_after_timeout: true,
                    ..RunOptions::default()
                };
                s.run_statements(file, options, &mut |_, ran| {
                    if let Gave::Failed(d) = ran.outcome {
                        failed.push(*d);
                    }
                });
                (Some(file), s.diagnostics(&failed))
            }
        });
        let name = crate::api::shown(&self.path);
        let out = found.iter().map(|d| self.to_lsp(d, &name)).collect();
        self.checked = loaded.map(|file| (session, file));
        out
    }

    /// The hover text of the name at `at`.
    pub fn hover(&self, at: Position) -> Option<Hover> {
        let (session, file) = self.checked.as_ref()?;
        let name = session.name_at(*file, offset(&self.text, at))?;
        let value = match name.kind {
            DefinitionKind::Builtin | DefinitionKind::Variable => name.description,
            _ => format!("```cgl\n{}\n```", name.description),
        };
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            }),
            range: Some(range(&self.text, name.place.start, name.place.end)),
        })
    }

    /// Where the name at `at` is defined.
    pub fn definition(&self, at: Position) -> Option<Location> {
        let (session, file) = self.checked.as_ref()?;
        let place = session.name_at(*file, offset(&self.text, at))?.definition?;
        let text = session
            .sources
            .text_of(&place.file)
            .unwrap_or(self.text.as_str().into());
        let uri = if place.file == crate::api::shown(&self.path) {
            self.uri.clone()
        } else {
            file_uri(Path::new(&place.file))?
        };
        Some(Location {
            uri,
            range: range(&text, place.start, place.end),
        })
    }

    /// The file's games, functions and constants.
    pub fn symbols(&self) -> DocumentSymbolResponse {
        let Some((session, file)) = &self.checked else {
            return DocumentSymbolResponse::Flat(Vec::new());
        };
        #[allow(deprecated)] // `deprecated` is a field the type still requires
        let symbols = session
            .definitions(*file)
            .into_iter()
            .map(|d| SymbolInformation {
                name: d.name,
                kind: match d.kind {
                    DefinitionKind::Game => SymbolKind::CLASS,
                    DefinitionKind::Function => SymbolKind::FUNCTION,
                    _ => SymbolKind::CONSTANT,
                },
                tags: None,
                deprecated: None,
                location: Location {
                    uri: self.uri.clone(),
                    range: range(&self.text, d.place.start, d.place.end),
                },
                container_name: None,
            })
            .collect();
        DocumentSymbolResponse::Flat(symbols)
    }

    /// A diagnostic in the protocol's terms. One that points into another file (an import)
    /// is shown at the start of this one, naming that file.
    fn to_lsp(&self, d: &Diagnostic, name: &str) -> LspDiagnostic {
        let here = d.place.as_ref().filter(|p| p.file == name);
        let mut message = d.message.clone();
        if let (None, Some(p)) = (here, &d.place) {
            message = format!("{}:{}:{}: {message}", p.file, p.line, p.column);
        }
        for note in &d.notes {
            message.push_str(&format!("\nnote: {note}"));
        }
        if let Some(help) = &d.help {
            message.push_str(&format!("\nhelp: {help}"));
        }
        let related: Vec<DiagnosticRelatedInformation> = d
            .labels
            .iter()
            .filter(|(p, _)| p.file == name)
            .map(|(p, text)| DiagnosticRelatedInformation {
                location: Location {
                    uri: self.uri.clone(),
                    range: range(&self.text, p.start, p.end),
                },
                message: text.clone(),
            })
            .collect();
        LspDiagnostic {
            range: here.map_or_else(Range::default, |p| range(&self.text, p.start, p.end)),
            severity: Some(if d.severity == Severity::Warning || d.code == TIMEOUT {
                DiagnosticSeverity::WARNING
            } else {
                DiagnosticSeverity::ERROR
            }),
            code: Some(NumberOrString::String(d.code.name().to_string())),
            source: Some("cgl".into()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            ..LspDiagnostic::default()
        }
    }
}

/// The protocol's position of byte `at` of `text`.
fn position(text: &str, at: usize) -> Position {
    let at = floor_boundary(text, at);
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    Position {
        line: text[..line_start].matches('\n').count() as u32,
        character: text[line_start..at].encode_utf16().count() as u32,
    }
}

/// The protocol's range of bytes `start..end` of `text`.
fn range(text: &str, start: usize, end: usize) -> Range {
    Range {
        start: position(text, start),
        end: position(text, end),
    }
}

/// The byte of `text` at a protocol position (the end of the line or of the text when the
/// position is past it).
fn offset(text: &str, at: Position) -> usize {
    let mut start = 0;
    for _ in 0..at.line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line = &text[start..];
    let line = &line[..line.find('\n').unwrap_or(line.len())];
    let mut units = 0;
    for (i, c) in line.char_indices() {
        if units >= at.character as usize {
            return start + i;
        }
        units += c.len_utf16();
    }
    start + line.len()
}

/// The largest char boundary of `text` at or before `at`.
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The path of a `file://` URI, percent-decoded; `None` for another scheme.
fn file_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                out.push((hex(h)? * 16 + hex(l)?) as u8);
                i += 3;
            }
            (b, ..) => {
                out.push(b);
                i += 1;
            }
        }
    }
    Some(PathBuf::from(String::from_utf8(out).ok()?))
}

/// The `file://` URI of a path, percent-encoding what a URI may not hold.
fn file_uri(path: &Path) -> Option<Uri> {
    let mut uri = String::from("file://");
    for b in path.to_str()?.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                uri.push(b as char)
            }
            _ => uri.push_str(&format!("%{b:02X}")),
        }
    }
    uri.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_come_back() {
        let text = "ab\n€𝄞x\n\nend";
        for at in (0..=text.len()).filter(|i| text.is_char_boundary(*i)) {
            assert_eq!(offset(text, position(text, at)), at, "at {at}");
        }
        // `𝄞` is two UTF-16 units: `x` is at character 3 of line 1.
        let x = text.find('x').unwrap();
        assert_eq!(
            position(text, x),
            Position {
                line: 1,
                character: 3
            }
        );
        assert_eq!(
            offset(
                text,
                Position {
                    line: 9,
                    character: 0
                }
            ),
            text.len()
        );
        assert_eq!(
            offset(
                text,
                Position {
                    line: 0,
                    character: 99
                }
            ),
            2
        );
    }

    #[test]
    fn file_uris_and_paths() {
        let path = Path::new("/tmp/a b/ü.game");
        let uri = file_uri(path).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%BC.game");
        assert_eq!(file_path(uri.as_str()).unwrap(), path);
        assert_eq!(file_path("untitled:Untitled-1"), None);
    }
}
