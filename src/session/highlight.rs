//! Highlighting by meaning: the light lexer's tokens (keywords, strings, numbers, comments,
//! operators), and for names what lowering resolved them to (a game, a function, a constant,
//! a parameter, a variable, a built-in), where they are defined and where they are bound. A
//! buffer that does not load as it is now is highlighted with the last session it loaded in:
//! the names in its unchanged parts as that session resolved them, the others by name.

use std::collections::HashMap;

use serde::Serialize;

use super::lookup::kind_of;
use super::shift::Shift;
use super::{DefinitionKind, Session};
use crate::eval::builtins::{BUILTINS, CONSTANT_NAMES};
use crate::lower::{BoundKind, Global, Target};
use crate::syntax::lex::{is_keyword, Lexer, Tok, CLAUSE_WORDS};

/// What a piece of text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HighlightKind {
    /// A keyword, or a word that opens a game's clause.
    Keyword,
    /// A string literal.
    String,
    /// A number.
    Number,
    /// A comment.
    Comment,
    /// An operator.
    Operator,
    /// A function: the file's, an import's or a built-in.
    Function,
    /// A game.
    Type,
    /// A constant or a variable (a built-in constant too).
    Variable,
    /// A parameter of a game or function.
    Parameter,
}

/// One highlighted piece of a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Highlight {
    /// Its first byte.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
    /// What it is.
    pub kind: HighlightKind,
    /// Where a name is defined or bound (not a use of it).
    pub declaration: bool,
    /// A built-in function or constant.
    pub builtin: bool,
}

/// The highlighted pieces of `text` (a buffer's text now), in order, none overlapping; a
/// comment may span lines. `checked` is the last session the buffer loaded in and its file
/// there.
pub fn highlights(text: &str, checked: Option<(&Session, usize)>) -> Vec<Highlight> {
    let names = checked
        .map(|(s, f)| Names::of(s, f, text))
        .unwrap_or_default();
    let mut out = Vec::new();
    let mut lexer = Lexer::new(text);
    let mut gap = 0;
    for token in lexer.by_ref() {
        comments(text, gap, token.start, &mut out);
        gap = token.end;
        let word = token.text(text);
        let plain = |kind| Highlight {
            start: token.start,
            end: token.end,
            kind,
            declaration: false,
            builtin: false,
        };
        let found = match token.kind {
            Tok::Str | Tok::UnclosedStr => Some(plain(HighlightKind::String)),
            Tok::Punct if word != "," && word != ";" => Some(plain(HighlightKind::Operator)),
            Tok::Other if "↑↓⇑⇓±".contains(word) => Some(plain(HighlightKind::Operator)),
            Tok::Word if word.starts_with(|c: char| c.is_ascii_digit()) => {
                Some(plain(HighlightKind::Number))
            }
            Tok::Word => names.at.get(&token.start).copied().or_else(|| {
                if is_keyword(word) || CLAUSE_WORDS.contains(&word) {
                    Some(plain(HighlightKind::Keyword))
                } else if BUILTINS.iter().any(|(n, ..)| *n == word) {
                    Some(Highlight {
                        builtin: true,
                        ..plain(HighlightKind::Function)
                    })
                } else if CONSTANT_NAMES.contains(&word) {
                    Some(Highlight {
                        builtin: true,
                        ..plain(HighlightKind::Variable)
                    })
                } else {
                    names.by_name.get(word).map(|kind| plain(*kind))
                }
            }),
            _ => None,
        };
        out.extend(found.filter(|h| h.end == token.end));
    }
    comments(text, gap, text.len(), &mut out);
    out
}

/// The comments in `text[from..to]`, a part between two tokens (blanks and comments only).
fn comments(text: &str, from: usize, to: usize, out: &mut Vec<Highlight>) {
    let mut at = from;
    while let Some(i) = text[at..to].find('/') {
        let start = at + i;
        let rest = &text[start..to];
        let end = if rest.starts_with("//") {
            rest.find('\n').map_or(to, |n| start + n)
        } else if let Some(body) = rest.strip_prefix("/*") {
            body.find("*/").map_or(to, |n| start + 2 + n + 2)
        } else {
            start + 1
        };
        if end > start + 1 {
            out.push(Highlight {
                start,
                end,
                kind: HighlightKind::Comment,
                declaration: false,
                builtin: false,
            });
        }
        at = end;
    }
}

/// What the last session that loaded knows of the names of a text.
#[derive(Default)]
struct Names {
    /// Where each name it resolved, defined or bound starts in the text now (the ones in
    /// its unchanged parts).
    at: HashMap<usize, Highlight>,
    /// The games, functions and constants in scope, by name, for the other places.
    by_name: HashMap<String, HighlightKind>,
}

impl Names {
    fn of(session: &Session, file: usize, text: &str) -> Names {
        let lowered = &session.files[file].lowered;
        let shift = Shift::between(&session.text(file), text);
        let global = |g: Global| match kind_of(g) {
            DefinitionKind::Game => HighlightKind::Type,
            DefinitionKind::Function => HighlightKind::Function,
            _ => HighlightKind::Variable,
        };
        let bound: HashMap<u32, BoundKind> = lowered
            .bindings
            .iter()
            .map(|b| (b.span.start, b.kind))
            .collect();
        let local = |start: u32| match bound.get(&start) {
            Some(BoundKind::Parameter) => HighlightKind::Parameter,
            _ => HighlightKind::Variable,
        };
        let mut at = HashMap::new();
        let mut note = |start: u32, end: u32, kind, declaration, builtin| {
            if let Some((start, end)) = shift.forward(start as usize, end as usize) {
                let h = Highlight {
                    start,
                    end,
                    kind,
                    declaration,
                    builtin,
                };
                at.insert(start, h);
            }
        };
        for r in &lowered.references {
            let (kind, builtin) = match r.target {
                Target::Global(g) => (global(g), false),
                Target::Local(b) => (local(b.start), false),
                Target::Builtin(name) if CONSTANT_NAMES.contains(&name) => {
                    (HighlightKind::Variable, true)
                }
                Target::Builtin(_) => (HighlightKind::Function, true),
            };
            note(r.span.start, r.span.end, kind, false, builtin);
        }
        for (g, span) in lowered.exports.values() {
            note(span.start, span.end, global(*g), true, false);
        }
        for b in &lowered.bindings {
            note(b.span.start, b.span.end, local(b.span.start), true, false);
        }
        let by_name = lowered
            .scope
            .iter()
            .map(|(name, g)| (name.clone(), global(*g)))
            .collect();
        Names { at, by_name }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::SessionConfig;

    fn kinds<'t>(
        text: &'t str,
        checked: Option<(&Session, usize)>,
    ) -> Vec<(&'t str, HighlightKind, bool)> {
        highlights(text, checked)
            .into_iter()
            .map(|h| (&text[h.start..h.end], h.kind, h.declaration))
            .collect()
    }

    #[test]
    fn tokens_and_names() {
        use HighlightKind::*;
        let text = "// Nim\ngame Nim(s = 2) { position n  move n - k for k in 1..=s }\n/* a\nb */ fn f(x) = grundy(Nim(x)) + \"s\"\nexpect f(3) == P\n";
        let mut session = Session::new(SessionConfig::default());
        let file = session.load_source("n.game", text).unwrap();
        let found = kinds(text, Some((&session, file)));
        let expect = [
            ("// Nim", Comment, false),
            ("game", Keyword, false),
            ("Nim", Type, true),
        ];
        assert_eq!(found[..3], expect, "{found:?}");
        for item in [
            ("s", Parameter, true),
            ("2", Number, false),
            ("position", Keyword, false),
            ("n", Variable, true),
            ("k", Variable, false),
            ("s", Parameter, false),
            ("/* a\nb */", Comment, false),
            ("f", Function, true),
            ("x", Parameter, true),
            ("grundy", Function, false),
            ("Nim", Type, false),
            ("+", Operator, false),
            ("\"s\"", String, false),
            ("P", Variable, false),
            ("..=", Operator, false),
        ] {
            assert!(found.contains(&item), "{item:?} in {found:?}");
        }
        // A newer text that does not load: names by the older one, or by name.
        let typed = text.replace("expect f(3)", "expect f(3) + Nim(");
        let found = kinds(&typed, Some((&session, file)));
        assert_eq!(found.iter().filter(|f| f.0 == "Nim").count(), 3);
        assert!(found.iter().filter(|f| f.0 == "Nim").all(|f| f.1 == Type));
        let found = kinds("expect grundy(Foo) /* open", None);
        assert_eq!(
            found,
            [
                ("expect", Keyword, false),
                ("grundy", Function, false),
                ("/* open", Comment, false)
            ]
        );
    }
}
