//! Diagnostics: source spans, the map of loaded sources, and the one diagnostic type that
//! every phase reports with. Only [`render`] knows how miette draws them; `data.rs` turns
//! them into plain data ([`Diagnostic`]) for programs.

mod codes;
mod data;
mod render;
mod suggest;

use std::fmt;
use std::sync::Arc;

pub use codes::Code;
pub use data::{severity_text, Diagnostic, Locator, Place};
pub use render::{render, render_all, RenderStyle};
pub use suggest::did_you_mean;

/// Identifies one loaded source text (a file, an `eval` expression, a REPL line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A byte range in one source text. `Copy`, so the AST and IR carry it freely.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// The source the range is in.
    pub file: FileId,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from byte offsets.
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// One loaded source: its display name and text.
#[derive(Clone, Debug)]
pub struct Source {
    /// Path or pseudo-name shown in diagnostics.
    pub name: String,
    /// The whole text.
    pub text: Arc<str>,
}

/// Every source loaded into a session, indexed by [`FileId`].
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    sources: Vec<Source>,
}

impl SourceMap {
    /// Adds a source and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> FileId {
        self.sources.push(Source {
            name: name.into(),
            text: text.into(),
        });
        FileId((self.sources.len() - 1) as u32)
    }

    /// The text of the source last added under `name`.
    pub fn text_of(&self, name: &str) -> Option<Arc<str>> {
        let source = self.sources.iter().rev().find(|s| s.name == name)?;
        Some(source.text.clone())
    }

    /// The source behind an id.
    pub fn get(&self, id: FileId) -> Option<&Source> {
        self.sources.get(id.0 as usize)
    }

    /// The text a span covers (empty if the span is out of range).
    pub fn snippet(&self, span: Span) -> &str {
        self.get(span.file)
            .and_then(|s| s.text.get(span.start as usize..span.end as usize))
            .unwrap_or("")
    }

    /// 1-based line and column of a span's start.
    pub fn line_col(&self, span: Span) -> (usize, usize) {
        let Some(source) = self.get(span.file) else {
            return (0, 0);
        };
        let before = source.text.get(..span.start as usize).unwrap_or("");
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }
}

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The file cannot be checked, or an expectation failed.
    Error,
    /// Worth knowing; nothing failed.
    Warning,
}

/// A labelled place in the source.
#[derive(Clone, Debug)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What to say there.
    pub message: String,
}

/// One diagnostic of any phase: a stable code, a message, labelled spans, notes and a help line.
///
/// Built with the `#[cold]` constructors and the chaining methods, so reporting code reads as
/// `Diag::error(Code::ResolveUnknownName, "...").label(span, "...").help("...")`.
#[derive(Clone, Debug)]
pub struct Diag {
    /// Stable code, `cgl::<phase>::<what>`, from the catalogue; tests and users match on it.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// The headline.
    pub message: String,
    /// Labelled spans; the first is the primary one.
    pub labels: Vec<Label>,
    /// Extra lines of context (shown under the snippet).
    pub notes: Vec<String>,
    /// How to fix it.
    pub help: Option<String>,
}

/// Bytes of a quoted part of a diagnostic's text (a name, a path, a token between
/// backticks) past which [`bounded`] cuts it. A value a diagnostic quotes is already cut at
/// 4 KiB by its printer and closed with a few brackets, so values stay whole.
const QUOTE_MAX: usize = 6 << 10;

/// Bytes of a quoted part that [`bounded`] keeps when it cuts it, as much as of a value.
const QUOTE_KEPT: usize = 4 << 10;

/// Bytes of any one text of a diagnostic (its message, a label, a note, the help) past which
/// [`bounded`] cuts it: room for two values of 4 KiB, a picture and their words.
const TEXT_MAX: usize = 64 << 10;

/// `text` with every part between backticks longer than [`QUOTE_MAX`] bytes cut to its first
/// [`QUOTE_KEPT`] bytes, `…` and its length in characters, and the whole cut after
/// [`TEXT_MAX`] bytes: whatever a message quotes (a name a megabyte long), it stays small.
/// Every text that enters a [`Diag`] passes here.
pub fn bounded(text: String) -> String {
    if text.len() <= QUOTE_MAX {
        return text;
    }
    let mut out = String::with_capacity(TEXT_MAX.min(text.len()));
    for (i, part) in text.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        // Odd parts are between backticks.
        if i % 2 == 1 && part.len() > QUOTE_MAX {
            out.push_str(&cut(part));
        } else {
            out.push_str(part);
        }
    }
    if out.len() > TEXT_MAX {
        let all = out.len();
        out.truncate(head(&out, TEXT_MAX).len());
        out.push_str(&format!("… ({all} bytes in all)"));
    }
    out
}

/// `text` whole if it has at most [`QUOTE_MAX`] bytes, else its first [`QUOTE_KEPT`] bytes,
/// `…` and its length in characters: a name or path as a message quotes it.
pub fn cut(text: &str) -> String {
    if text.len() <= QUOTE_MAX {
        return text.to_string();
    }
    format!(
        "{}… ({} characters)",
        head(text, QUOTE_KEPT),
        text.chars().count()
    )
}

/// The longest start of `text` of at most `bytes` bytes that ends at a character.
fn head(text: &str, bytes: usize) -> &str {
    let mut end = bytes.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

impl Diag {
    /// A new error. Codes come from the catalogue in `codes/`: a new one is one entry there
    /// (ARCHITECTURE.md, *Where a change goes*).
    #[cold]
    pub fn error(code: Code, message: impl Into<String>) -> Diag {
        Diag {
            code,
            severity: Severity::Error,
            message: bounded(message.into()),
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    /// A bug in cgl rather than in the user's file.
    #[cold]
    pub fn internal(message: impl Into<String>) -> Diag {
        Diag::error(
            Code::Internal,
            format!("internal error: {}", message.into()),
        )
        .help("this is a bug in cgl; please report it with the file that caused it")
    }

    /// Adds a labelled span.
    pub fn label(mut self, span: Span, message: impl Into<String>) -> Diag {
        self.labels.push(Label {
            span,
            message: bounded(message.into()),
        });
        self
    }

    /// Adds a note line.
    pub fn note(mut self, note: impl Into<String>) -> Diag {
        self.notes.push(bounded(note.into()));
        self
    }

    /// Sets the help line.
    pub fn help(mut self, help: impl Into<String>) -> Diag {
        self.help = Some(bounded(help.into()));
        self
    }

    /// The primary span, if any.
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.first().map(|l| l.span)
    }
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A result whose error is one diagnostic.
pub type DiagResult<T> = Result<T, Box<Diag>>;
