//! Completion: what may be written at a place of a buffer. The keywords, the game clauses'
//! words and the built-ins are always offered; with the last session the buffer loaded in
//! (of its text now or of an older one, as a buffer being typed seldom loads), also the
//! games, functions and constants in scope in the file (its own and imported ones) and the
//! variables that the place can see. An editor's server and a web page ask the same way.

use serde::Serialize;

use super::lookup::{builtin_help, kind_of};
use super::shift::Shift;
use super::Session;
use crate::lower::{BoundKind, Global};
use crate::syntax::lex::{is_word_char, CLAUSE_WORDS, KEYWORDS};

/// What a completion is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CompletionKind {
    /// A keyword, or a word that opens a game's clause.
    Keyword,
    /// A built-in function.
    Builtin,
    /// A built-in constant.
    BuiltinConstant,
    /// A game of the file or of an import.
    Game,
    /// A function of the file or of an import.
    Function,
    /// A constant of the file or of an import.
    Constant,
    /// A parameter of the game or function around the place.
    Parameter,
    /// A field of the position of the game around the place.
    Field,
    /// Another variable the place sees (a comprehension's, a rule's, a player).
    Variable,
}

/// One thing that may be written at the place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Completion {
    /// The word.
    pub label: String,
    /// What it is.
    pub kind: CompletionKind,
    /// One line about it: a built-in's call, a definition's first line, a variable's kind.
    pub detail: String,
    /// More about it, if there is more: a built-in's description, where a name is defined.
    pub documentation: Option<String>,
}

/// Where the word that ends at byte `offset` of `text` starts: what is being typed is
/// `text[start..offset]` (empty after a blank or a bracket).
pub fn word_start(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    text[..offset]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word_char(*c))
        .last()
        .map_or(offset, |(i, _)| i)
}

/// What may be written at byte `offset` of `text` (a buffer's text now), whose beginning
/// matches the word being typed there (ignoring case): the variables the place sees
/// (innermost first), the names in scope in the file, the built-ins and their constants, and
/// the keywords, each once. `checked` is the last session the buffer loaded in and its file
/// there; the place is looked up in the text it loaded.
pub fn completions(
    text: &str,
    offset: usize,
    checked: Option<(&Session, usize)>,
) -> Vec<Completion> {
    let start = word_start(text, offset);
    let typed = text[start..offset.clamp(start, text.len())].to_lowercase();
    let mut out: Vec<Completion> = Vec::new();
    let mut offer = |c: Completion| {
        if c.label.to_lowercase().starts_with(&typed) && !out.iter().any(|o| o.label == c.label) {
            out.push(c);
        }
    };
    if let Some((session, file)) = checked {
        let loaded = session.text(file);
        let at = Shift::between(&loaded, text).back(start);
        for c in variables(session, file, at) {
            offer(c);
        }
        for c in globals(session, file) {
            offer(c);
        }
    }
    for (name, ..) in crate::eval::builtins::BUILTINS {
        let (detail, documentation) = match builtin_help(name) {
            Some((call, text)) => (call, Some(text)),
            None => (format!("{name}(…)"), None),
        };
        offer(Completion {
            label: name.to_string(),
            kind: CompletionKind::Builtin,
            detail,
            documentation,
        });
    }
    for name in crate::eval::builtins::CONSTANT_NAMES {
        offer(Completion {
            label: name.to_string(),
            kind: CompletionKind::BuiltinConstant,
            detail: "built-in constant".into(),
            documentation: builtin_help(name).map(|(_, text)| text),
        });
    }
    for word in KEYWORDS.iter().chain(CLAUSE_WORDS) {
        offer(Completion {
            label: word.to_string(),
            kind: CompletionKind::Keyword,
            detail: "keyword".into(),
            documentation: None,
        });
    }
    out
}

/// The variables that byte `at` of the loaded file `file` sees, innermost first.
fn variables(session: &Session, file: usize, at: usize) -> Vec<Completion> {
    let lowered = &session.files[file].lowered;
    let mut seen: Vec<_> = lowered
        .bindings
        .iter()
        .filter(|b| b.scope.start as usize <= at && at <= b.scope.end as usize)
        .collect();
    // The innermost scope starts last; within one, the later binding hides the earlier.
    seen.sort_by_key(|b| std::cmp::Reverse((b.scope.start, b.span.start)));
    seen.into_iter()
        .map(|b| {
            let (kind, detail) = match b.kind {
                BoundKind::Parameter => (CompletionKind::Parameter, "parameter"),
                BoundKind::Field => (CompletionKind::Field, "position field"),
                BoundKind::Variable => (CompletionKind::Variable, "variable"),
            };
            Completion {
                label: session.sources.snippet(b.span).to_string(),
                kind,
                detail: detail.into(),
                documentation: Some(session.signature(b.scope)),
            }
        })
        .collect()
}

/// The games, functions and constants in scope in the loaded file `file`, its own first.
fn globals(session: &Session, file: usize) -> Vec<Completion> {
    let lowered = &session.files[file].lowered;
    let own = lowered.exports.keys();
    let imported = lowered
        .scope
        .keys()
        .filter(|n| !lowered.exports.contains_key(*n));
    own.chain(imported)
        .filter_map(|name| {
            let global: Global = *lowered.scope.get(name)?;
            let span = session.defined_at(global)?;
            let defined_in = session.sources.get(span.file).map(|s| s.name.clone());
            let here = span.file == session.files[file].file;
            Some(Completion {
                label: name.clone(),
                kind: match kind_of(global) {
                    super::DefinitionKind::Game => CompletionKind::Game,
                    super::DefinitionKind::Function => CompletionKind::Function,
                    _ => CompletionKind::Constant,
                },
                detail: session.signature(span),
                documentation: defined_in
                    .filter(|_| !here)
                    .map(|f| format!("defined in `{f}`")),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::SessionConfig;

    fn labels(found: &[Completion]) -> Vec<&str> {
        found.iter().map(|c| c.label.as_str()).collect()
    }

    #[test]
    fn words_names_and_variables_by_prefix() {
        assert_eq!(word_start("expect gru", 10), 7);
        assert_eq!(word_start("f(", 2), 2);
        let found = completions("expect gru", 10, None);
        assert_eq!(labels(&found), ["grundy"]);
        assert!(found[0].detail.starts_with("grundy("), "{found:?}");
        assert!(found[0]
            .documentation
            .as_deref()
            .unwrap()
            .contains("Grundy"));
        assert!(labels(&completions("ter", 3, None)).contains(&"terminal"));

        let text = "game Kayles(s = 2) { position n  move n - k for k in 1..=s if k <= n }\nfn twice(x) = 2 * x\nexpect grundy(Kayles(3)) == 0\n";
        let mut session = Session::new(SessionConfig::default());
        let file = session.load_source("k.game", text).unwrap();
        let checked = Some((&session, file));
        // In the rule: its variable, the position's field and the game's parameter.
        let at = text.find("k <= n").unwrap();
        let found = completions(text, at, checked);
        let names = labels(&found);
        assert_eq!(&names[..3], ["k", "n", "s"], "{names:?}");
        assert_eq!(found[1].kind, CompletionKind::Field);
        assert_eq!(found[2].kind, CompletionKind::Parameter);
        assert!(names.contains(&"Kayles") && names.contains(&"twice"));
        assert!(!names.contains(&"x"), "{names:?}");
        // A newer text that does not load: the names are still there, by the older one.
        let typed = text.replace("== 0\n", "== 0\nexpect Kay");
        let found = completions(&typed, typed.len(), checked);
        assert_eq!(labels(&found), ["Kayles"]);
        assert!(found[0].detail.starts_with("game Kayles"));
        let typed = text.replace("2 * x", "2 * x + tw");
        let at = typed.find("tw").unwrap() + 2;
        assert_eq!(labels(&completions(&typed, at, checked)), ["twice"]);
        let at = typed.find("x +").unwrap() + 1;
        assert!(labels(&completions(&typed, at, checked)).contains(&"x"));
    }
}
