//! One open buffer: its text, checked in a session of its own under a budget that a newer
//! text cancels, and the answers about it (diagnostics, hover, definition, outline) in the
//! protocol's terms. It keeps the last session its text loaded in, for what can be answered
//! from an older text (completion, highlighting) while the text now does not load.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lsp_types::{
    Diagnostic as LspDiagnostic, DiagnosticRelatedInformation, DiagnosticSeverity,
    DocumentSymbolResponse, Hover, HoverContents, Location, MarkupContent, MarkupKind,
    NumberOrString, Position, Range, SymbolInformation, SymbolKind, TextEdit, Uri,
};

use super::position::{file_path, file_uri, offset, range};
use crate::api::{
    format_source, Budget, Cancel, Code, DefinitionKind, Diagnostic, Gave, RunOptions, Session,
    SessionConfig, Severity, SourceMap, TIMEOUT,
};

/// What checking one buffer may take: editors check on every keystroke.
const SECONDS: f64 = 2.0;
const MEMORY: usize = 512 << 20;

/// The largest buffer checked: far above any hand-written game; a larger one (a generated
/// table) gets one diagnostic that says so, instead of a check on every keystroke that the
/// budget would cut anyway.
pub const MOST_BUFFER: usize = 4 << 20;

/// How long a change waits for a newer one before its text is checked.
const DEBOUNCE: Duration = Duration::from_millis(150);
/// The longest a change waits while newer ones keep coming.
const MOST_WAIT: Duration = Duration::from_millis(600);

/// An open buffer.
pub struct Document {
    /// Its address.
    pub uri: Uri,
    /// The editor's version of its text.
    pub version: i32,
    /// Its text now.
    pub text: String,
    /// The file it is, where imports are read beside it.
    pub path: PathBuf,
    /// The last session its text loaded in, and its file there.
    checked: Option<(Session, usize)>,
    /// Whether `checked` loaded the text now.
    fresh: bool,
    /// When to check the text now (`None`: it was checked).
    pub due: Option<Instant>,
    /// When the oldest change not yet checked came.
    waiting: Option<Instant>,
}

impl Document {
    /// A buffer just opened: checked at once.
    pub fn open(uri: Uri, version: i32, text: String) -> Document {
        let path = file_path(uri.as_str()).unwrap_or_else(|| PathBuf::from(uri.as_str()));
        let now = Instant::now();
        Document {
            uri,
            version,
            text,
            path,
            checked: None,
            fresh: false,
            due: Some(now),
            waiting: Some(now),
        }
    }

    /// New text: checked once no newer text came for a moment.
    pub fn change(&mut self, version: i32, text: String) {
        let now = Instant::now();
        let since = *self.waiting.get_or_insert(now);
        self.version = version;
        self.text = text;
        self.fresh = false;
        self.due = Some((now + DEBOUNCE).min(since + MOST_WAIT));
    }

    /// Whether its text is waiting to be checked, and its session is not of that text.
    pub fn stale(&self) -> bool {
        self.due.is_some() && !self.fresh
    }

    /// The session of its text now, if it loaded.
    pub fn fresh(&self) -> Option<(&Session, usize)> {
        self.checked
            .as_ref()
            .filter(|_| self.fresh)
            .map(|(s, f)| (s, *f))
    }

    /// The last session its text loaded in (perhaps an older text).
    pub fn last(&self) -> Option<(&Session, usize)> {
        self.checked.as_ref().map(|(s, f)| (s, *f))
    }

    /// Forgets its session (after a panic during a check: its state is not to be trusted);
    /// the next change builds one afresh from the text.
    pub fn drop_session(&mut self) {
        self.checked = None;
        self.fresh = false;
        self.due = None;
        self.waiting = None;
    }

    /// Checks the text now: loads it, runs its `expect` lines, and returns every
    /// diagnostic, or `None` if `cancel` stopped the check (a newer text came).
    pub fn check(&mut self, cancel: &Cancel) -> Option<Vec<LspDiagnostic>> {
        self.due = None;
        self.waiting = None;
        if fault(&self.path) {
            faulty("the check");
        }
        if self.text.len() > MOST_BUFFER {
            self.fresh = false;
            return Some(vec![self.too_large()]);
        }
        let mut config = SessionConfig::default();
        config.graph.max_memory = MEMORY;
        let mut session = Session::new(config);
        let budget = Budget::new().seconds(SECONDS).memory(MEMORY).cancel(cancel);
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
        self.fresh = loaded.is_some();
        if let Some(file) = loaded {
            self.checked = Some((session, file));
        }
        if cancel.is_cancelled() {
            return None;
        }
        let name = crate::api::shown(&self.path);
        Some(found.iter().map(|d| self.to_lsp(d, &name)).collect())
    }

    /// The one diagnostic of a buffer too large to check.
    fn too_large(&self) -> LspDiagnostic {
        LspDiagnostic {
            range: Range::default(),
            severity: Some(DiagnosticSeverity::WARNING),
            code: Some(NumberOrString::String(
                Code::LoadTooLarge.name().to_string(),
            )),
            source: Some("cgl".into()),
            message: format!(
                "this buffer has {} bytes, more than the {} MiB that cgl lsp checks; \
                 `cgl check` checks it (up to --max-file-size)",
                self.text.len(),
                MOST_BUFFER >> 20
            ),
            ..LspDiagnostic::default()
        }
    }

    /// The one diagnostic of a check that panicked (a bug in cgl).
    pub fn crashed(why: &str) -> LspDiagnostic {
        LspDiagnostic {
            range: Range::default(),
            severity: Some(DiagnosticSeverity::ERROR),
            code: Some(NumberOrString::String(Code::Internal.name().to_string())),
            source: Some("cgl".into()),
            message: format!(
                "cgl failed while checking this buffer ({why}); this is a bug in cgl, please \
                 report it. The next change checks it again"
            ),
            ..LspDiagnostic::default()
        }
    }

    /// The hover text of the name at `at`.
    pub fn hover(&self, at: Position) -> Option<Hover> {
        if fault(&self.path) {
            faulty("a hover");
        }
        let (session, file) = self.fresh()?;
        let name = session.name_at(file, offset(&self.text, at))?;
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
        let (session, file) = self.fresh()?;
        let place = session.name_at(file, offset(&self.text, at))?.definition?;
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

    /// The edits that put the text in `cgl fmt`'s layout: one edit of the whole text, none
    /// when it is already; a text that does not parse says why (its first syntax error).
    pub fn formatting(&self) -> Result<Vec<TextEdit>, String> {
        let mut sources = SourceMap::default();
        let file = sources.add(self.path.display().to_string(), self.text.as_str());
        match format_source(file, &self.text) {
            Ok(formatted) if formatted == self.text => Ok(Vec::new()),
            Ok(formatted) => Ok(vec![TextEdit {
                range: range(&self.text, 0, self.text.len()),
                new_text: formatted,
            }]),
            Err(diags) => Err(match diags.first() {
                Some(d) => format!(
                    "the buffer does not parse, so it is not formatted: {}",
                    d.message
                ),
                None => "the buffer is not formatted".to_string(),
            }),
        }
    }

    /// The file's games, functions and constants.
    pub fn symbols(&self) -> DocumentSymbolResponse {
        let Some((session, file)) = self.fresh() else {
            return DocumentSymbolResponse::Flat(Vec::new());
        };
        #[allow(deprecated)] // `deprecated` is a field the type still requires
        let symbols = session
            .definitions(file)
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

/// A failure on purpose, for the test that a panic does not end the server (spec §10, *The
/// language server*): with `CGL_TEST_FAULT=panic:NAME`, checking or hovering over a buffer
/// whose file is named NAME panics, as a bug in cgl would.
fn fault(path: &Path) -> bool {
    let Ok(asked) = std::env::var("CGL_TEST_FAULT") else {
        return false;
    };
    asked
        .strip_prefix("panic:")
        .is_some_and(|name| path.file_name().is_some_and(|f| f == name))
}

/// Panics, for [`fault`].
#[allow(clippy::panic)] // the panic is the point: a test of what catches it
fn faulty(what: &str) {
    panic!("test fault: {what} panics (CGL_TEST_FAULT)");
}
