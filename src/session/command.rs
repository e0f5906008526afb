//! What the user typed at the REPL's prompt (or into the query box of `cgl serve`'s page), read
//! without evaluating anything: whether an entry is complete (or
//! needs a continuation line), what kind of entry it is, and the meta-commands with the byte
//! ranges of their arguments. Pure functions, unit-tested below.

use std::ops::Range;

use crate::diag::Code;
use crate::syntax::lex::{is_identifier, is_keyword, lex, Tok, STATEMENT_KEYWORDS};

/// A meta-command (`:name ...`). Arguments are byte ranges into the entry, so that the
/// expressions in them are parsed in place and diagnostics point into the typed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `:help [topic]`.
    Help(Option<String>),
    /// `:load FILE`.
    Load(String),
    /// `:reload`.
    Reload,
    /// `:games`.
    Games,
    /// `:type EXPR`.
    Type(Range<usize>),
    /// `:time EXPR`.
    Time(Range<usize>),
    /// `:stats`.
    Stats,
    /// `:quit`.
    Quit,
    /// `:explain EXPR`.
    Explain(Range<usize>),
    /// `:dot P`: the game graph from P (DOT text in the REPL, a drawing on the page).
    Dot(Range<usize>),
    /// `:table EXPR for n in A..B`.
    Table {
        /// The expression tabulated.
        expr: Range<usize>,
        /// The variable and what it ranges over.
        var: Generator,
    },
    /// `:table G` or `:table G for PLAYER`: a strategic game's payoffs for one player.
    PayoffTable {
        /// The game.
        expr: Range<usize>,
        /// The player named, if any.
        player: Option<Range<usize>>,
    },
    /// `:grid EXPR for a in A..B, b in C..D`.
    Grid {
        /// The expression tabulated.
        expr: Range<usize>,
        /// The row variable.
        rows: Generator,
        /// The column variable (its range may use the row variable).
        cols: Generator,
    },
    /// `:play [computer] EXPR`.
    Play {
        /// The start position.
        expr: Range<usize>,
        /// Whether the computer moves first (`:play computer P`).
        computer_first: bool,
    },
}

/// `name in source` in `:table` and `:grid`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generator {
    /// The variable.
    pub name: Range<usize>,
    /// The collection it ranges over.
    pub source: Range<usize>,
}

/// A mistake in a meta-command: what is wrong, where, and how to write it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError {
    /// Stable code (`cgl::repl::...`).
    pub code: Code,
    /// The headline.
    pub message: String,
    /// Where (a byte range of the entry).
    pub at: Range<usize>,
    /// How to fix it.
    pub help: String,
}

/// The meta-commands: name, aliases, the argument they take, and what they do (for `:help`
/// and completion).
pub const COMMANDS: &[(&str, &[&str], &str, &str)] = &[
    (
        "help",
        &["h", "?"],
        "[topic]",
        "this help, or help on a command or topic",
    ),
    (
        "load",
        &["l"],
        "FILE",
        "load a .game file: its games, functions and constants",
    ),
    (
        "reload",
        &["r"],
        "",
        "read the loaded files again; keep the bindings that still work",
    ),
    (
        "games",
        &[],
        "",
        "the games in scope, their parameters and positions",
    ),
    ("type", &["t"], "EXPR", "the type of a value"),
    (
        "time",
        &[],
        "EXPR",
        "evaluate, with the time taken and the positions explored",
    ),
    (
        "stats",
        &[],
        "",
        "the game graph's size and memory; the last entry's time",
    ),
    (
        "explain",
        &["e"],
        "P",
        "a position's options, their values, and which moves win; a strategic game's table and equilibria",
    ),
    (
        "dot",
        &[],
        "P",
        "the game graph from P as Graphviz DOT (the page of cgl serve draws it)",
    ),
    (
        "table",
        &[],
        "EXPR for n in A..B | G [for PLAYER]",
        "a sequence of values, with its period; a take-and-break game's proved period; a strategic game's payoffs",
    ),
    (
        "grid",
        &[],
        "EXPR for a in A..B, b in C..D",
        "a 2-D table; zeros and P stand out",
    ),
    (
        "play",
        &[],
        "[computer] P",
        "play against the computer from P (you move first)",
    ),
    ("quit", &["q", "exit"], "", "leave (Ctrl-D does too)"),
];

/// Finds a command by name or alias.
pub fn lookup(name: &str) -> Option<&'static str> {
    COMMANDS
        .iter()
        .find(|(n, aliases, ..)| *n == name || aliases.contains(&name))
        .map(|(n, ..)| *n)
}

/// What kind of entry the user typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// Only blanks and comments.
    Empty,
    /// A meta-command (`:...`).
    Command,
    /// `let name = expr`.
    Let,
    /// Statements: `game`, `fn`, `const`, `import`, `expect`, `print`, `show`.
    Statements,
    /// An expression to evaluate and print.
    Expr,
}

/// Classifies an entry by its first token.
pub fn classify(entry: &str) -> EntryKind {
    let lexed = lex(entry);
    let Some(first) = lexed.tokens.first() else {
        return EntryKind::Empty;
    };
    let text = &entry[first.start..first.end];
    match first.kind {
        Tok::Punct if text.starts_with(':') => EntryKind::Command,
        Tok::Word if text == "let" => EntryKind::Let,
        Tok::Word if STATEMENT_KEYWORDS.contains(&text) => EntryKind::Statements,
        _ => EntryKind::Expr,
    }
}

/// Whether an entry is unfinished, so the REPL asks for another line: a bracket or a block
/// comment is still open, or the last token cannot end an expression (`=`, `+`, `,`, `and`,
/// `in`, ...). A closing bracket with nothing to close makes the entry complete: the parser
/// then reports it.
pub fn needs_more(entry: &str) -> bool {
    let lexed = lex(entry);
    if lexed.open_comment {
        return true;
    }
    if lexed.stray_close {
        return false;
    }
    if lexed.depth > 0 {
        return true;
    }
    match lexed.tokens.last() {
        Some(t) if t.kind == Tok::Punct => {
            // A `:` alone is the start of a command (complete, if wrong); after something
            // else it opens a quantifier's body, as in `forall x in xs:`.
            let text = &entry[t.start..t.end];
            let alone = lexed.tokens.len() == 1;
            text != ";" && !(alone && matches!(text, ":" | "?"))
        }
        Some(t) if t.kind == Tok::Word => matches!(
            &entry[t.start..t.end],
            "and"
                | "or"
                | "not"
                | "in"
                | "is"
                | "if"
                | "then"
                | "else"
                | "for"
                | "forall"
                | "exists"
        ),
        _ => false,
    }
}

/// Whether a line, typed while an entry is unfinished, starts a meta-command instead: the
/// unfinished entry is then given up on (a stray bracket must not swallow `:quit`).
pub fn starts_command(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with(':') && t[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '?')
}

/// `let name = expr`: the name's range and the expression's range.
pub fn parse_let(entry: &str) -> Result<(Range<usize>, Range<usize>), CommandError> {
    let lexed = lex(entry);
    let bad = |at: Range<usize>, message: &str| CommandError {
        code: Code::ReplLet,
        message: message.to_string(),
        at,
        help: "write `let name = expression`, e.g. `let x = Nim(3) + Nim(5)`".to_string(),
    };
    let whole = entry.trim_end().len();
    let tokens = &lexed.tokens;
    let Some(let_kw) = tokens.first() else {
        return Err(bad(0..whole, "expected `let`"));
    };
    let Some(name) = tokens.get(1) else {
        return Err(bad(let_kw.start..let_kw.end, "`let` needs a name"));
    };
    let name_text = &entry[name.start..name.end];
    if name.kind != Tok::Word || !is_identifier(name_text) {
        return Err(bad(name.start..name.end, "`let` needs a name here"));
    }
    if is_keyword(name_text) {
        return Err(bad(
            name.start..name.end,
            &format!("`{name_text}` is a keyword, not a name"),
        ));
    }
    match tokens.get(2) {
        Some(eq) if eq.kind == Tok::Punct && &entry[eq.start..eq.end] == "=" => {
            let start = eq.end;
            if entry[start..].trim().is_empty() {
                return Err(bad(eq.start..eq.end, "`let` needs a value after `=`"));
            }
            Ok((name.start..name.end, start..entry.len()))
        }
        Some(other) => Err(bad(other.start..other.end, "expected `=` here")),
        None => Err(bad(name.start..name.end, "expected `=` after the name")),
    }
}

/// Parses a meta-command entry (it starts with `:`).
pub fn parse_command(entry: &str) -> Result<Command, CommandError> {
    let colon = entry.find(':').unwrap_or(0);
    let name_start = colon + 1;
    let name_len = entry[name_start..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '?'))
        .unwrap_or(entry.len() - name_start);
    let name_end = name_start + name_len;
    let name = &entry[name_start..name_end];
    let rest = trimmed(entry, name_end..entry.len());
    let Some(command) = lookup(name) else {
        let names = COMMANDS.iter().map(|(n, ..)| *n);
        let help = match crate::diag::did_you_mean(name, names) {
            Some(close) => format!("did you mean `:{close}`? `:help` lists the commands"),
            None => "`:help` lists the commands".to_string(),
        };
        let message = if name.is_empty() {
            "expected a command name after `:`".to_string()
        } else {
            format!("unknown command `:{name}`")
        };
        return Err(CommandError {
            code: Code::ReplUnknownCommand,
            message,
            at: colon..name_end.max(colon + 1),
            help,
        });
    };
    let usage = |message: String| {
        let (_, _, args, _) = COMMANDS
            .iter()
            .find(|(n, ..)| *n == command)
            .copied()
            .unwrap_or(("", &[], "", ""));
        let synopsis = if args.is_empty() {
            format!(":{command}")
        } else {
            format!(":{command} {args}")
        };
        CommandError {
            code: Code::ReplUsage,
            message,
            at: if rest.is_empty() {
                colon..name_end
            } else {
                rest.clone()
            },
            help: format!("write `{synopsis}`"),
        }
    };
    let none = |c: Command| {
        if rest.is_empty() {
            Ok(c)
        } else {
            Err(usage(format!("`:{command}` takes no argument")))
        }
    };
    let needs = |what: &str| usage(format!("`:{command}` needs {what}"));
    match command {
        "help" => {
            Ok(Command::Help((!rest.is_empty()).then(|| {
                entry[rest.clone()].trim_start_matches(':').to_string()
            })))
        }
        "load" => {
            if rest.is_empty() {
                return Err(needs("a file"));
            }
            let path = entry[rest.clone()].trim();
            let path = path
                .strip_prefix('"')
                .and_then(|p| p.strip_suffix('"'))
                .unwrap_or(path);
            Ok(Command::Load(path.to_string()))
        }
        "reload" => none(Command::Reload),
        "games" => none(Command::Games),
        "stats" => none(Command::Stats),
        "quit" => none(Command::Quit),
        "type" | "time" | "explain" | "dot" => {
            if rest.is_empty() {
                return Err(needs(if matches!(command, "explain" | "dot") {
                    "a position"
                } else {
                    "an expression"
                }));
            }
            Ok(match command {
                "type" => Command::Type(rest),
                "time" => Command::Time(rest),
                "dot" => Command::Dot(rest),
                _ => Command::Explain(rest),
            })
        }
        "play" => {
            if rest.is_empty() {
                return Err(needs("a position"));
            }
            let lexed = lex(&entry[rest.clone()]);
            let first = lexed.tokens.first();
            let computer = first.is_some_and(|t| {
                t.kind == Tok::Word
                    && &entry[rest.start + t.start..rest.start + t.end] == "computer"
                    && lexed.tokens.len() > 1
            });
            if computer {
                let after = rest.start + first.map_or(0, |t| t.end);
                Ok(Command::Play {
                    expr: trimmed(entry, after..rest.end),
                    computer_first: true,
                })
            } else {
                Ok(Command::Play {
                    expr: rest,
                    computer_first: false,
                })
            }
        }
        "table" | "grid" => {
            if rest.is_empty() {
                return Err(needs("an expression and `for`"));
            }
            let text = &entry[rest.clone()];
            let lexed = lex(text);
            let Some(for_kw) =
                lexed.tokens.iter().rev().find(|t| {
                    t.depth == 0 && t.kind == Tok::Word && &text[t.start..t.end] == "for"
                })
            else {
                if command == "table" {
                    return Ok(Command::PayoffTable {
                        expr: rest,
                        player: None,
                    });
                }
                return Err(usage(format!("`:{command}` needs `for` and a range")));
            };
            let expr = trimmed(entry, rest.start..rest.start + for_kw.start);
            // `:table G for PLAYER`: one word after `for`, no `in`.
            let after = trimmed(entry, rest.start + for_kw.end..rest.end);
            let word = &entry[after.clone()];
            if command == "table"
                && !word.is_empty()
                && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                return Ok(Command::PayoffTable {
                    expr,
                    player: Some(after),
                });
            }
            if expr.is_empty() {
                return Err(usage(format!(
                    "`:{command}` needs an expression before `for`"
                )));
            }
            let gens_start = rest.start + for_kw.end;
            // Split the generators at top-level commas.
            let mut parts = Vec::new();
            let mut start = gens_start;
            for t in &lexed.tokens {
                if t.start >= for_kw.end && t.depth == 0 && &text[t.start..t.end] == "," {
                    parts.push(start..rest.start + t.start);
                    start = rest.start + t.end;
                }
            }
            parts.push(start..rest.end);
            let want = if command == "table" { 1 } else { 2 };
            if parts.len() != want {
                return Err(usage(format!(
                    "`:{command}` needs {} after `for`",
                    if want == 1 {
                        "one variable (`n in A..B`)"
                    } else {
                        "two variables (`a in A..B, b in C..D`)"
                    }
                )));
            }
            let mut gens = Vec::new();
            for part in parts {
                gens.push(parse_generator(entry, part).map_err(usage)?);
            }
            let mut gens = gens.into_iter();
            match (command, gens.next(), gens.next()) {
                ("table", Some(var), _) => Ok(Command::Table { expr, var }),
                (_, Some(rows), Some(cols)) => Ok(Command::Grid { expr, rows, cols }),
                _ => Err(usage(format!("`:{command}` needs a range"))),
            }
        }
        _ => Err(usage(format!("unknown command `:{command}`"))),
    }
}

/// `name in source` inside `range` of `entry`.
fn parse_generator(entry: &str, range: Range<usize>) -> Result<Generator, String> {
    let text = &entry[range.clone()];
    let lexed = lex(text);
    let mut tokens = lexed.tokens.iter();
    let (Some(name), Some(in_kw)) = (tokens.next(), tokens.next()) else {
        return Err(format!("expected `name in range`, found `{}`", text.trim()));
    };
    let name_text = &text[name.start..name.end];
    if name.kind != Tok::Word || !is_identifier(name_text) || is_keyword(name_text) {
        return Err(format!("expected a variable name, found `{name_text}`"));
    }
    if &text[in_kw.start..in_kw.end] != "in" {
        return Err(format!("expected `in` after `{name_text}`"));
    }
    let source = trimmed(entry, range.start + in_kw.end..range.end);
    if source.is_empty() {
        return Err(format!("expected a range after `{name_text} in`"));
    }
    Ok(Generator {
        name: range.start + name.start..range.start + name.end,
        source,
    })
}

/// `range` without the blanks at its ends.
fn trimmed(text: &str, range: Range<usize>) -> Range<usize> {
    let part = &text[range.clone()];
    let start = range.start + (part.len() - part.trim_start().len());
    let end = range.end - (part.len() - part.trim_end().len());
    start..end.max(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(entry: &str, r: &Range<usize>) -> String {
        entry[r.clone()].to_string()
    }

    #[test]
    fn complete_and_incomplete_entries() {
        for complete in [
            "grundy(Kayles(10))",
            "let x = 3",
            "game G { position n move n - 1 for k in 0..1 if n > 0 }",
            ":quit",
            ":",
            "f(x))",
            "\"unterminated",
            "// a comment with ( in it",
            "\"a ( in a string\"",
            "/* done */ 1",
            "x ]",
        ] {
            assert!(!needs_more(complete), "{complete:?} is complete");
        }
        for incomplete in [
            "game G {",
            "game G {\n  position n\n",
            "[1, 2,",
            "let x =",
            "1 +",
            "xs and",
            "/* open comment",
            "f(\"a ) in a string\"",
            "move x for k in",
            ":table grundy(Kayles(n)) for n in 0..",
            "forall x in 0..3:",
        ] {
            assert!(needs_more(incomplete), "{incomplete:?} needs more");
        }
    }

    #[test]
    fn entries_are_classified_by_their_first_token() {
        assert_eq!(classify("  :help"), EntryKind::Command);
        assert_eq!(classify("let x = 1"), EntryKind::Let);
        assert_eq!(classify("letter(1)"), EntryKind::Expr);
        assert_eq!(classify("game G { }"), EntryKind::Statements);
        assert_eq!(classify("// note\nexpect 1 == 1"), EntryKind::Statements);
        assert_eq!(classify("import \"a.game\""), EntryKind::Statements);
        assert_eq!(classify("grundy(Nim(3))"), EntryKind::Expr);
        assert_eq!(classify("   // only a comment"), EntryKind::Empty);
        assert_eq!(classify(""), EntryKind::Empty);
        assert_eq!(classify("\u{1}\u{fffd}"), EntryKind::Expr);
    }

    #[test]
    fn let_entries() {
        let e = "let x = Nim(3) + Nim(5)";
        let (name, value) = parse_let(e).unwrap();
        assert_eq!(
            (part(e, &name), part(e, &value)),
            ("x".into(), " Nim(3) + Nim(5)".into())
        );
        for bad in [
            "let",
            "let 3 = 4",
            "let x",
            "let x == 3",
            "let x =   ",
            "let if = 1",
        ] {
            let err = parse_let(bad).unwrap_err();
            assert_eq!(err.code, Code::ReplLet, "{bad}");
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse_command(":quit"), Ok(Command::Quit));
        assert_eq!(parse_command(":q"), Ok(Command::Quit));
        assert_eq!(parse_command("  :stats  "), Ok(Command::Stats));
        assert_eq!(parse_command(":games"), Ok(Command::Games));
        assert_eq!(parse_command(":reload"), Ok(Command::Reload));
        assert_eq!(parse_command(":help"), Ok(Command::Help(None)));
        assert_eq!(
            parse_command(":help :table"),
            Ok(Command::Help(Some("table".into())))
        );
        assert_eq!(parse_command(":?"), Ok(Command::Help(None)));
        assert_eq!(
            parse_command(":load examples/kayles.game"),
            Ok(Command::Load("examples/kayles.game".into()))
        );
        assert_eq!(
            parse_command(":load \"my games/a.game\""),
            Ok(Command::Load("my games/a.game".into()))
        );
    }

    #[test]
    fn expression_arguments_keep_their_place() {
        let e = ":explain  Kayles(4) ";
        let Ok(Command::Explain(r)) = parse_command(e) else {
            panic!("not explain")
        };
        assert_eq!(part(e, &r), "Kayles(4)");
        let e = ":time grundy(Kayles(50))";
        let Ok(Command::Time(r)) = parse_command(e) else {
            panic!("not time")
        };
        assert_eq!(part(e, &r), "grundy(Kayles(50))");
        let e = ":dot Chomp([2, 2])";
        let Ok(Command::Dot(r)) = parse_command(e) else {
            panic!("not dot")
        };
        assert_eq!(part(e, &r), "Chomp([2, 2])");
        let e = ":play computer Nim(3) + Nim(5)";
        let Ok(Command::Play {
            expr,
            computer_first: true,
        }) = parse_command(e)
        else {
            panic!("not play")
        };
        assert_eq!(part(e, &expr), "Nim(3) + Nim(5)");
        // `computer` alone is a name, not the option.
        let e = ":play computer";
        assert!(matches!(
            parse_command(e),
            Ok(Command::Play {
                computer_first: false,
                ..
            })
        ));
    }

    #[test]
    fn tables_and_grids() {
        let e = ":table grundy(Kayles(n)) for n in 0..40";
        let Ok(Command::Table { expr, var }) = parse_command(e) else {
            panic!("not a table")
        };
        assert_eq!(part(e, &expr), "grundy(Kayles(n))");
        assert_eq!(part(e, &var.name), "n");
        assert_eq!(part(e, &var.source), "0..40");
        // A comprehension inside the expression: the last top-level `for` counts.
        let e = ":table sum(x for x in 0..n) for n in [1, 2, 3]";
        let Ok(Command::Table { expr, var }) = parse_command(e) else {
            panic!("not a table")
        };
        assert_eq!(part(e, &expr), "sum(x for x in 0..n)");
        assert_eq!(part(e, &var.source), "[1, 2, 3]");
        let e = ":grid grundy(Lego(a, b)) for a in 1..=6, b in min(a, 3)..=6";
        let Ok(Command::Grid { expr, rows, cols }) = parse_command(e) else {
            panic!("not a grid")
        };
        assert_eq!(part(e, &expr), "grundy(Lego(a, b))");
        assert_eq!(
            (part(e, &rows.name), part(e, &rows.source)),
            ("a".into(), "1..=6".into())
        );
        assert_eq!(
            (part(e, &cols.name), part(e, &cols.source)),
            ("b".into(), "min(a, 3)..=6".into())
        );
    }

    #[test]
    fn command_mistakes() {
        let err = parse_command(":explian Kayles(4)").unwrap_err();
        assert_eq!(err.code, Code::ReplUnknownCommand);
        assert!(err.help.contains(":explain"), "{}", err.help);
        assert_eq!(err.at, 0..8);
        for (bad, code) in [
            (":", Code::ReplUnknownCommand),
            (":quit now", Code::ReplUsage),
            (":explain", Code::ReplUsage),
            (":load", Code::ReplUsage),
            (":table grundy(Nim(n)) for", Code::ReplUsage),
            (":table for n in 0..3", Code::ReplUsage),
            (":table x for n in 0..3, m in 0..3", Code::ReplUsage),
            (":grid x for n in 0..3", Code::ReplUsage),
            (":grid x for 3 in 0..3, b in 1..2", Code::ReplUsage),
            (":table x for n of 0..3", Code::ReplUsage),
            (":table x for n in", Code::ReplUsage),
        ] {
            let err = parse_command(bad).unwrap_err();
            assert_eq!(err.code, code, "{bad}: {err:?}");
            assert!(err.at.end <= bad.len(), "{bad}: {err:?}");
        }
    }

    #[test]
    fn lexing_never_fails() {
        for junk in [
            "\u{0}\u{7f}(((",
            "\"\\",
            "/*",
            "*/",
            "\u{1F600}:;?",
            "a\"b\"c",
        ] {
            let _ = needs_more(junk);
            let _ = classify(junk);
            let _ = parse_command(junk);
            let _ = parse_let(junk);
        }
    }
}
