//! What a file defines and what the name at a place in it is: the lookups behind an editor's
//! outline, hover, go-to-definition and find-references. Lowering notes every name it
//! resolves ([`crate::lower::Reference`]) and every variable it binds
//! ([`crate::lower::Bound`]); this module answers from those notes and the files' exports,
//! and describes built-ins by their rows in the language reference.

use serde::Serialize;

use std::path::Path;

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

/// A game, function, constant, variable or built-in, named so that another session (of
/// another file that imports the same one) can find it too: globals by their file and name,
/// variables by where they are bound.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Symbol {
    /// Its name.
    pub name: String,
    /// What it is.
    pub kind: DefinitionKind,
    /// Where it is defined or bound (`None` for a built-in); its `file` names the file as
    /// diagnostics do.
    pub definition: Option<Place>,
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

    /// The game, function, constant, variable or built-in named at byte `offset` of the
    /// loaded file `index`: at a use of it, where it is defined or where it is bound.
    pub fn symbol_at(&self, index: usize, offset: usize) -> Option<Symbol> {
        if let Some(at) = self.name_at(index, offset) {
            return Some(Symbol {
                name: at.name,
                kind: at.kind,
                definition: at.definition,
            });
        }
        let lowered = &self.files[index].lowered;
        let within = |span: &Span| span.start as usize <= offset && offset <= span.end as usize;
        let mut locator = Locator::default();
        if let Some((name, (global, span))) = lowered.exports.iter().find(|(_, (_, s))| within(s)) {
            return Some(Symbol {
                name: name.clone(),
                kind: kind_of(*global),
                definition: locator.place(*span, &self.sources),
            });
        }
        let bound = lowered.bindings.iter().find(|b| within(&b.span))?;
        Some(Symbol {
            name: self.sources.snippet(bound.span).to_string(),
            kind: DefinitionKind::Variable,
            definition: locator.place(bound.span, &self.sources),
        })
    }

    /// Every place in the loaded file `index` that names `symbol` (found in this session or
    /// another), in source order; with `declaration`, where it is defined or bound too, if
    /// that is in this file.
    pub fn uses(&self, index: usize, symbol: &Symbol, declaration: bool) -> Vec<Place> {
        let loaded = &self.files[index];
        let here = self.sources.get(loaded.file).map(|s| s.name.as_str());
        let in_file = |place: &Place| here.is_some_and(|h| Path::new(h) == Path::new(&place.file));
        let mut spans: Vec<Span> = Vec::new();
        match (&symbol.kind, &symbol.definition) {
            (DefinitionKind::Builtin, _) => spans.extend(
                loaded
                    .lowered
                    .references
                    .iter()
                    .filter(|r| matches!(r.target, Target::Builtin(b) if b == symbol.name))
                    .map(|r| r.span),
            ),
            (DefinitionKind::Variable, Some(bound)) if in_file(bound) => {
                let bound = bound.start as u32;
                spans.extend(
                    loaded
                        .lowered
                        .references
                        .iter()
                        .filter(|r| matches!(r.target, Target::Local(b) if b.start == bound))
                        .map(|r| r.span),
                );
                if declaration {
                    spans.extend(
                        loaded
                            .lowered
                            .bindings
                            .iter()
                            .filter(|b| b.span.start == bound)
                            .map(|b| b.span),
                    );
                }
            }
            (DefinitionKind::Variable, _) => {}
            (_, Some(defined)) => {
                // The same global in this session: the one its file exports under its name.
                let global = self.files.iter().find_map(|f| {
                    let name = &self.sources.get(f.file)?.name;
                    if Path::new(name) != Path::new(&defined.file) {
                        return None;
                    }
                    f.lowered.exports.get(&symbol.name).copied()
                });
                if let Some((global, span)) = global {
                    spans.extend(
                        loaded
                            .lowered
                            .references
                            .iter()
                            .filter(|r| r.target == Target::Global(global))
                            .map(|r| r.span),
                    );
                    if declaration && span.file == loaded.file {
                        spans.push(span);
                    }
                }
            }
            (_, None) => {}
        }
        spans.sort_unstable_by_key(|s| (s.start, s.end));
        spans.dedup();
        let mut locator = Locator::default();
        spans
            .into_iter()
            .filter_map(|s| locator.place(s, &self.sources))
            .collect()
    }

    /// The loaded files, by index, named as diagnostics name them.
    pub fn loaded_files(&self) -> Vec<String> {
        self.files
            .iter()
            .map(|f| {
                self.sources
                    .get(f.file)
                    .map(|s| s.name.clone())
                    .unwrap_or_default()
            })
            .collect()
    }

    /// The text of the loaded file `index`, as it was loaded.
    pub fn text(&self, index: usize) -> std::sync::Arc<str> {
        self.sources
            .get(self.files[index].file)
            .map(|s| s.text.clone())
            .unwrap_or_else(|| "".into())
    }

    /// Where a game, function or constant is defined, in whichever loaded file defines it.
    pub(super) fn defined_at(&self, global: Global) -> Option<Span> {
        self.files.iter().find_map(|f| {
            f.lowered
                .exports
                .values()
                .find(|(g, _)| *g == global)
                .map(|(_, span)| *span)
        })
    }

    /// The line of the source that `span` starts on, trimmed and cut short.
    pub(super) fn signature(&self, span: Span) -> String {
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

pub(super) fn kind_of(global: Global) -> DefinitionKind {
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
    let (head, _, text) = builtin_row(name)?;
    Some(format!("{head}: {text}"))
}

/// A built-in's call as the language reference writes it (`grundy(p)`, or the name alone
/// for a constant), and what its row says of it.
pub fn builtin_help(name: &str) -> Option<(String, String)> {
    let (_, call, text) = builtin_row(name)?;
    Some((call.trim_matches('`').to_string(), text.to_string()))
}

/// The row of the language reference that describes a built-in: its head (every name the
/// row describes), the part of the head that is this one, and its description.
fn builtin_row(name: &str) -> Option<(&'static str, &'static str, &'static str)> {
    let call = format!("`{name}(");
    let bare = format!("`{name}`");
    REFERENCE.lines().find_map(|line| {
        let row = line.strip_prefix("| ")?;
        let (head, rest) = row.split_once(" | ")?;
        let this = head
            .split(", ")
            .find(|h| h.starts_with(&call) || *h == bare || h.starts_with(&format!("{bare} ")))?;
        let call = this.split_once("` ").map_or(this, |(c, _)| c);
        Some((head, call, rest.trim_end_matches(" |").trim()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::SessionConfig;

    #[test]
    fn a_symbol_and_its_uses() {
        let text = "game Nim { position n  move k for k in 0..n }\nfn g(p) = grundy(p)\nexpect g(Nim(2)) == grundy(Nim(2))\n";
        let mut session = Session::new(SessionConfig::default());
        let file = session.load_source("nim.game", text).unwrap();
        let starts = |places: Vec<Place>| places.iter().map(|p| p.start).collect::<Vec<_>>();
        let all = |word: &str| text.match_indices(word).map(|(i, _)| i).collect::<Vec<_>>();
        // From the definition or from a use, the same game.
        let nim = session.symbol_at(file, 6).unwrap();
        assert_eq!((nim.name.as_str(), nim.kind), ("Nim", DefinitionKind::Game));
        assert_eq!(session.symbol_at(file, all("Nim")[2]), Some(nim.clone()));
        assert_eq!(starts(session.uses(file, &nim, true)), all("Nim"));
        assert_eq!(starts(session.uses(file, &nim, false)), all("Nim")[1..]);
        // A parameter, from where it is bound; a built-in, by name.
        let p = session
            .symbol_at(file, text.find("(p)").unwrap() + 1)
            .unwrap();
        assert_eq!(p.kind, DefinitionKind::Variable);
        assert_eq!(starts(session.uses(file, &p, true)).len(), 2);
        let grundy = session.symbol_at(file, all("grundy")[1]).unwrap();
        assert_eq!(starts(session.uses(file, &grundy, true)), all("grundy"));
        assert_eq!(session.loaded_files(), ["nim.game"]);
        assert_eq!(&*session.text(file), text);
    }
}
