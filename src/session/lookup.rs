//! What a file defines and what the name at a place in it is: the lookups behind an editor's
//! outline, hover and go-to-definition. Lowering notes every name it resolves
//! ([`crate::lower::Reference`]); this module answers from those notes and the files'
//! exports, and describes built-ins by their rows in the language reference.

use serde::Serialize;

use super::Session;
use crate::diag::{Locator, Place, Span};
use crate::lower::{Global, Target};

/// What kind of thing a definition is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DefinitionKind {
    /// `game`.
    Game,
    /// `fn`.
    Function,
    /// `const` (or the REPL's `let`).
    Constant,
    /// A variable: a parameter, a pattern's name, a comprehension's variable.
    Variable,
    /// A built-in function or constant.
    Builtin,
}

/// A game, function or constant a file defines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Definition {
    /// Its name.
    pub name: String,
    /// Game, function or constant.
    pub kind: DefinitionKind,
    /// Where its name is written in the definition.
    pub place: Place,
    /// The first line of the definition, as written (cut at 200 characters).
    pub signature: String,
}

/// The name at a place in a file, and what it names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NameAt {
    /// The name.
    pub name: String,
    /// What it is.
    pub kind: DefinitionKind,
    /// Where the name under the cursor is written.
    pub place: Place,
    /// Where it is defined (`None` for a built-in).
    pub definition: Option<Place>,
    /// What a hover shows: the definition's first line, or the built-in's description.
    pub description: String,
}

/// Longest signature kept, in characters.
const MOST_SIGNATURE: usize = 200;

impl Session {
    /// The games, functions and constants the loaded file `index` defines, in source order.
    pub fn definitions(&self, index: usize) -> Vec<Definition> {
        let mut locator = Locator::default();
        self.files[index]
            .lowered
            .exports
            .iter()
            .filter_map(|(name, (global, span))| {
                Some(Definition {
                    name: name.clone(),
                    kind: kind_of(*global),
                    place: locator.place(*span, &self.sources)?,
                    signature: self.signature(*span),
                })
            })
            .collect()
    }

    /// The name written at byte `offset` of the loaded file `index` (at its first character,
    /// inside it or just after it), and what it names; `None` where no name is.
    pub fn name_at(&self, index: usize, offset: usize) -> Option<NameAt> {
        let loaded = &self.files[index];
        let refs = &loaded.lowered.references;
        // References are in source order and never overlap: the last one that starts at or
        // before `offset`, if it reaches it.
        let at = refs.partition_point(|r| r.span.start as usize <= offset);
        let found = refs[..at]
            .last()
            .filter(|r| offset <= r.span.end as usize)?;
        let mut locator = Locator::default();
        let place = locator.place(found.span, &self.sources)?;
        let name = self.sources.snippet(found.span).to_string();
        let (kind, definition, description) = match found.target {
            Target::Global(global) => {
                let span = self.defined_at(global);
                let description = span.map(|s| self.signature(s)).unwrap_or_default();
                (kind_of(global), span, description)
            }
            Target::Local(bound) => (
                DefinitionKind::Variable,
                Some(bound),
                format!("variable `{name}`"),
            ),
            Target::Builtin(builtin) => (
                DefinitionKind::Builtin,
                None,
                builtin_description(builtin)
                    .unwrap_or_else(|| format!("`{builtin}`, a built-in of cgl")),
            ),
        };
        Some(NameAt {
            name,
            kind,
            place,
            definition: definition.and_then(|s| locator.place(s, &self.sources)),
            description,
        })
    }

    /// Where a game, function or constant is defined, in whichever loaded file defines it.
    fn defined_at(&self, global: Global) -> Option<Span> {
        self.files.iter().find_map(|f| {
            f.lowered
                .exports
                .values()
                .find(|(g, _)| *g == global)
                .map(|(_, span)| *span)
        })
    }

    /// The line of the source that `span` starts on, trimmed and cut short.
    fn signature(&self, span: Span) -> String {
        let Some(source) = self.sources.get(span.file) else {
            return String::new();
        };
        let text: &str = &source.text;
        let start = (span.start as usize).min(text.len());
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let line = text[line_start..line_end].trim();
        match line.char_indices().nth(MOST_SIGNATURE) {
            Some((cut, _)) => format!("{}…", &line[..cut]),
            None => line.to_string(),
        }
    }
}

fn kind_of(global: Global) -> DefinitionKind {
    match global {
        Global::Game(_) => DefinitionKind::Game,
        Global::Fn(_) => DefinitionKind::Function,
        Global::Const(_) => DefinitionKind::Constant,
    }
}

/// The language reference, whose tables describe every built-in.
const REFERENCE: &str = include_str!("../../spec/language.md");

/// A built-in's row in the language reference: "`grundy(p)`: the Sprague–Grundy value".
pub fn builtin_description(name: &str) -> Option<String> {
    let call = format!("`{name}(");
    let bare = format!("`{name}`");
    REFERENCE.lines().find_map(|line| {
        let row = line.strip_prefix("| ")?;
        let (head, rest) = row.split_once(" | ")?;
        let named = head
            .split(", ")
            .any(|h| h.starts_with(&call) || h == bare || h.starts_with(&format!("{bare} ")));
        named.then(|| format!("{head}: {}", rest.trim_end_matches(" |").trim()))
    })
}
