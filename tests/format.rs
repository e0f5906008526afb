//! `cgl fmt` and the formatter behind it (`cgl::api::format_source`, the rules in the module
//! doc of `src/syntax/format/mod.rs`): on every `.game` file of the repository and every
//! `game` block of the spec and the README, formatting is a fixed point, keeps the AST
//! (compared without spans, by `cgl::syntax::shape`) and every comment; hand-written cases
//! show each rule; generated expressions with their blanks chosen at random, and the files
//! above with their blanks and comments shuffled, keep their meaning; the command line
//! rewrites, checks and reads stdin as documented.

use std::path::{Path, PathBuf};

use cgl::api::{format_source, FileId};
use cgl::syntax::ast::File;
use cgl::syntax::format::comments;
use cgl::syntax::shape::shape;

use crate::common::cgl_stdin as piped;
use crate::common::{cgl_in, root, temp_dir};
use crate::spec::blocks;

/// Parses as the session does, on a stack deep enough for the deepest nesting allowed.
fn parse_file(file: FileId, text: &str) -> cgl::diag::DiagResult<File> {
    cgl::stack::with_phase_stack(|| cgl::syntax::parse_file(file, text))
}

fn fmt(text: &str) -> String {
    format_source(FileId(0), text).unwrap_or_else(|d| panic!("{text}\n{:?}", d[0].message))
}

/// Formats `text` (which parses) and checks the promises: the result parses to the same
/// shape, has the same comments, and formats to itself.
fn check_formats(name: &str, text: &str) -> String {
    let before = parse_file(FileId(0), text).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    let out = format_source(FileId(0), text).unwrap_or_else(|d| panic!("{name}: {}", d[0].message));
    let after = parse_file(FileId(0), &out).unwrap_or_else(|d| panic!("{name}: {d:?}\n{out}"));
    assert_eq!(
        shape(&before),
        shape(&after),
        "{name}: the meaning changed:\n{out}"
    );
    assert_eq!(
        comments(text),
        comments(&out),
        "{name}: the comments changed:\n{out}"
    );
    assert_eq!(
        fmt(&out),
        out,
        "{name}: formatting again changes it:\n{out}"
    );
    assert!(out.is_empty() || out.ends_with('\n'), "{name}");
    for (i, line) in out.lines().enumerate() {
        assert_eq!(line, line.trim_end(), "{name}:{}: blanks at the end", i + 1);
    }
    out
}

/// Every `.game` file below `dir`, sorted.
fn game_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            game_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "game") {
            out.push(path);
        }
    }
}

/// The repository's `.game` files and the `game` blocks of the spec and the README, by name.
fn corpus() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for dir in ["examples", "benches/games", "tests"] {
        game_files(&root().join(dir), &mut files);
    }
    let mut texts: Vec<(String, String)> = files
        .iter()
        .map(|p| (p.display().to_string(), std::fs::read_to_string(p).unwrap()))
        .collect();
    for doc in ["spec/language.md", "spec/tutorial.md", "README.md"] {
        let markdown = std::fs::read_to_string(root().join(doc)).unwrap();
        for block in blocks(&markdown) {
            if block.info.starts_with("game") {
                texts.push((format!("{doc}:{}", block.line), block.text));
            }
        }
    }
    texts
}

#[test]
fn formatting_every_file_and_spec_block_keeps_its_meaning_and_comments() {
    let mut formatted = 0;
    for (name, text) in corpus() {
        match parse_file(FileId(0), &text) {
            Ok(_) => {
                check_formats(&name, &text);
                formatted += 1;
            }
            // A file that does not parse gets the parser's diagnostic, and nothing else.
            Err(d) => {
                let errors = format_source(FileId(0), &text).unwrap_err();
                assert_eq!(errors.len(), 1, "{name}");
                assert_eq!((errors[0].code, &errors[0].message), (d.code, &d.message));
            }
        }
    }
    assert!(formatted > 150, "only {formatted} texts formatted");
}

/// The folders that `.ci/run` checks with `cgl fmt --check` are formatted.
#[test]
fn the_repositorys_games_are_formatted() {
    let mut files = Vec::new();
    for dir in ["examples", "benches/games"] {
        game_files(&root().join(dir), &mut files);
    }
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            fmt(&text) == text,
            "{} is not formatted: run `cgl fmt {}`",
            path.display(),
            path.display()
        );
    }
}

/// The example of spec/language.md's section on `cgl fmt`: its `text` block formats to the
/// `game` block after it.
#[test]
fn the_spec_shows_what_cgl_fmt_does() {
    let spec = std::fs::read_to_string(root().join("spec/language.md")).unwrap();
    let section = &spec[spec.find("### The layout: `cgl fmt`").unwrap()..];
    let shown = blocks(section);
    let before = shown.iter().find(|b| b.info == "text").unwrap();
    let after = shown.iter().find(|b| b.info == "game").unwrap();
    assert_eq!(fmt(&before.text), after.text);
}

// ---------------------------------------------------------------- one case per rule

#[test]
fn each_item_and_clause_starts_a_line() {
    assert_eq!(
        fmt("game Nim { position n  move k for k in 0..n } expect Nim(3) is N"),
        "game Nim {\n    position n\n    move k for k in 0..n\n}\n\nexpect Nim(3) is N\n"
    );
    assert_eq!(fmt("game G\n{\n}"), "game G {}\n");
    assert_eq!(
        fmt("game\nG ( a=1 ,b )\n{\n\n  left move a-1 if a>0\n\n\n  right move(a,b)\n\n}"),
        "game G(a = 1, b) {\n    left move a - 1 if a > 0\n\n    right move (a, b)\n}\n"
    );
    assert_eq!(
        fmt("game S {player A in [1,2] player B in[3]payoff(A,B)}"),
        "game S {\n    player A in [1, 2]\n    player B in [3]\n    payoff (A, B)\n}\n"
    );
}

#[test]
fn blanks_around_operators_after_commas_and_none_inside_brackets() {
    assert_eq!(
        fmt("expect [x*2 for x in 0..=n-1 if x%2==0]==[0,4]"),
        "expect [x * 2 for x in 0..=n - 1 if x % 2 == 0] == [0, 4]\n"
    );
    assert_eq!(
        fmt("expect  f( - x , not(y) , -  -1,+-1 , a +-b, ± 2)"),
        "expect f(-x, not (y), - -1, +-1, a + -b, ±2)\n"
    );
    assert_eq!(
        fmt("expect forall a in xs , b in ys:p(a,b)and G[ S = 1 ]( a ).0 . 1"),
        "expect forall a in xs, b in ys: p(a, b) and G[S = 1](a).0.1\n"
    );
    assert_eq!(
        fmt("expect [ 0 ; 3 ]==[0,0,0,]and( 1 , )!=()"),
        "expect [0; 3] == [0, 0, 0,] and (1,) != ()\n"
    );
    assert_eq!(
        fmt("expect {0||0|-2}=={ | }  and  * (3) != *(3) and ^*3+*2==^ * 2 and ↑ + ↓ == 0"),
        "expect {0 || 0 | -2} == {|} and * (3) != *(3) and ^*3 + *2 == ^ * 2 and ↑ + ↓ == 0\n"
    );
    assert_eq!(
        fmt("expect {2|-1 / 2} == 3 /4 and a/2 == x / 4 and 1/ /* half */ 2 == 1/2"),
        "expect {2 | -1/2} == 3/4 and a / 2 == x / 4 and 1 / /* half */ 2 == 1/2\n"
    );
    assert_eq!(
        fmt("const X=(1,)\nfn f( a,b )=if a then-b else(a)\nimport   \"x.game\"\nprint x"),
        "const X = (1,)\nfn f(a, b) = if a then -b else (a)\nimport \"x.game\"\nprint x\n"
    );
}

#[test]
fn the_authors_line_breaks_stay_and_nothing_is_wrapped() {
    // A line that continues an item is one level deeper.
    assert_eq!(
        fmt("expect [1, 2]\n== [1, 2]\nfn f(x) =\n x\n  + 1"),
        "expect [1, 2]\n    == [1, 2]\nfn f(x) =\n    x\n    + 1\n"
    );
    // Inside a bracket that ends its line, one level deeper than its line; a line that
    // continues an expression there, one more; the closing bracket as the opening one.
    assert_eq!(
        fmt("const LINES = [\n[0, 1], [1, 2],\n  [2, 3]\n+ [3, 4]\n  ]"),
        "const LINES = [\n    [0, 1], [1, 2],\n    [2, 3]\n        + [3, 4]\n]\n"
    );
    // Inside a bracket that does not end its line, right after it.
    assert_eq!(
        fmt("expect f([1,\n2],\n 3)\ngame G {\nmove f(a,\nb)\n  for a in xs\n}"),
        "expect f([1,\n          2],\n         3)\n\ngame G {\n    move f(a,\n           b)\n        \
         for a in xs\n}\n"
    );
    // A quantifier's body after a `:` that ends a line is one level deeper, to the end of
    // the bracket it is in.
    assert_eq!(
        fmt("expect forall a in xs\nif a > 0:\np(a)\n== q(a)\nexpect [forall b in ys:\nb]"),
        "expect forall a in xs\n    if a > 0:\n        p(a)\n            == q(a)\n\
         expect [forall b in ys:\n            b]\n"
    );
    let long = format!("expect [{}]\n", vec!["1000"; 60].join(", "));
    assert_eq!(fmt(&long), long);
}

#[test]
fn one_blank_line_at_most_and_one_around_a_game() {
    assert_eq!(
        fmt("\n\nexpect 1\n\n\n\nexpect 2\nexpect 3\n\n\n"),
        "expect 1\n\nexpect 2\nexpect 3\n"
    );
    assert_eq!(
        fmt("const A = 1\n// the game\ngame G { loopy }\nexpect 1"),
        "const A = 1\n\n// the game\ngame G {\n    loopy\n}\n\nexpect 1\n"
    );
    assert_eq!(
        fmt("expect [\n\n1,\n\n\n2\n\n]"),
        "expect [\n    1,\n\n    2\n]\n"
    );
}

#[test]
fn comments_stay_where_they_are() {
    let before = "// head\n\ngame G {   // the game\n    position n // a heap\n  \
                  move n - 1 if n > 0    // one\n  // own line\n\n  move n - 2 if n > 1 /* two */\n  \
                  // last\n}\nexpect /* inline */ 1 == 1 // end   \n/* block  \n   kept */\n";
    let after = "// head\n\ngame G {                 // the game\n    position n           \
                 // a heap\n    move n - 1 if n > 0  // one\n    // own line\n\n    \
                 move n - 2 if n > 1 /* two */\n    // last\n}\n\n\
                 expect /* inline */ 1 == 1  // end\n/* block\n   kept */\n";
    assert_eq!(fmt(before), after);
    // The `//` comments of consecutive lines in a column, two blanks after the longest code.
    assert_eq!(
        fmt(
            "const A = [ // numbers\n1, // one\n  22] // two\nconst B = 333 // three\n\n\
             const C = 4 // four"
        ),
        "const A = [    // numbers\n    1,         // one\n    22]        // two\n\
         const B = 333  // three\n\nconst C = 4  // four\n"
    );
    assert_eq!(fmt("// only\n\n\n// comments"), "// only\n\n// comments\n");
    assert_eq!(
        fmt("expect f(1, // why\n  2)"),
        "expect f(1,  // why\n         2)\n"
    );
}

#[test]
fn the_ends_of_the_file_and_of_its_lines() {
    assert_eq!(fmt(""), "");
    assert_eq!(fmt(" \n\n"), "");
    assert_eq!(
        fmt("\u{feff}expect 1\r\nexpect 2   \t"),
        "expect 1\nexpect 2\n"
    );
}

#[test]
fn a_text_that_does_not_parse_is_not_formatted() {
    for text in ["expect (1 +", "game G { move }", "expect 2*3", "fn f(x = 1"] {
        let errors = format_source(FileId(0), text).unwrap_err();
        assert!(
            errors[0].code.name().starts_with("cgl::syntax::"),
            "{text}: {:?}",
            errors[0].code
        );
    }
}

// ---------------------------------------------------------------- generated inputs

/// A small deterministic generator (xorshift64*), so that a failure replays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

/// Blanks: none, a blank, several, a line break, a blank line.
fn gap(rng: &mut Rng) -> &'static str {
    rng.pick(&["", "", " ", " ", "  ", "\n", "\n    ", "\n\n"])
}

/// Blanks that are never empty.
fn blank(rng: &mut Rng) -> &'static str {
    rng.pick(&[" ", " ", "  ", "\n", "\n  ", "\n\n "])
}

/// A random expression, written with random blanks wherever the grammar allows none (and
/// at least one where it needs it: around words, and where two operators would run into
/// one). Not every one parses; those are skipped.
fn expression(rng: &mut Rng, depth: usize) -> String {
    const LEAVES: &[&str] = &[
        "x",
        "n",
        "0",
        "7",
        "1_000",
        "true",
        "none",
        "\"s\"",
        "*",
        "*3",
        "^",
        "^*",
        "^3*2",
        "↑",
        "⇓",
        "v",
        "9223372036854775807",
        "1/2",
        "-3/4",
        "xs",
    ];
    if depth == 0 || rng.below(4) == 0 {
        return rng.pick(LEAVES).to_string();
    }
    let a = expression(rng, depth - 1);
    let b = expression(rng, depth - 1);
    let c = expression(rng, depth - 1);
    let (g1, g2, g3) = (gap(rng), gap(rng), gap(rng));
    match rng.below(16) {
        0..=3 => {
            // Symbols that never run into what follows may touch their operands.
            let glued = [
                "+", "-", "==", "!=", "<=", ">=", "<", ">", "..", "..=", "%", "&",
            ];
            let spaced = [
                "*", "/", "**", "^", "|", "div", "and", "or", "in", "not in", "is",
            ];
            let safe = a.ends_with(|ch: char| ch.is_ascii_alphanumeric() || ch == ')');
            if rng.below(2) == 0 && safe {
                let op = glued[rng.below(glued.len())];
                format!("({a}{g1}{op}{g2}{b})")
            } else {
                let op = spaced[rng.below(spaced.len())];
                format!("({a}{}{op}{}{b})", blank(rng), blank(rng))
            }
        }
        4 => format!("{}{g1}({a})", rng.pick(&["-", "+-", "±"])),
        5 => format!("not{}({a})", blank(rng)),
        6 => format!("f({g1}{a}{g2},{g3}{b}{})", gap(rng)),
        7 => format!("G[{g1}S{g2}={g3}{a}]({b})"),
        8 => format!("[{g1}{a}{g2},{g3}{b}{},]", gap(rng)),
        9 => format!("[{g1}{a}{g2};{g3}{b}]"),
        10 => format!(
            "[{g1}{a}{}for{}(p, _){}in{}{b}{}if{}{c}]",
            blank(rng),
            blank(rng),
            blank(rng),
            blank(rng),
            blank(rng),
            blank(rng)
        ),
        11 => format!("{{{g1}{a}{g2}|{g3}{b}{}||{}{c}}}", blank(rng), blank(rng)),
        12 => format!("({a}){g1}.{g2}{}", rng.pick(&["0", "1", "name", "start"])),
        13 => format!(
            "if{}{a}{}then{}{b}{}else{}{c}",
            blank(rng),
            blank(rng),
            blank(rng),
            blank(rng),
            blank(rng)
        ),
        14 => format!(
            "({}{}x{}in{}{a}{g1}:{g2}{b})",
            rng.pick(&["forall", "exists"]),
            blank(rng),
            blank(rng),
            blank(rng)
        ),
        _ => format!("*({g1}{a}{g2}){g3}+{}({b},{g1})", blank(rng)),
    }
}

#[test]
fn generated_expressions_keep_their_meaning() {
    let mut rng = Rng(crate::common::env_or("CGL_FMT_SEED", 0x5eed_f0a7));
    let cases = crate::common::env_or("CGL_FMT_CASES", 3000);
    let mut parsed = 0;
    for case in 0..cases {
        let text = format!("expect {}\n", expression(&mut rng, 4));
        if parse_file(FileId(0), &text).is_ok() {
            check_formats(&format!("case {case}: {text}"), &text);
            parsed += 1;
        }
    }
    assert!(
        parsed > cases / 3,
        "only {parsed} generated expressions parse"
    );
}

/// The corpus with the blanks between its tokens changed at random (only where it has some:
/// blanks are never added between two tokens that touch, which may be one token to the
/// grammar, such as `*3`) and comments put into some of them.
#[test]
fn shuffled_blanks_and_comments_keep_the_meaning() {
    let mut rng = Rng(0x00c0_ffee);
    for (name, text) in corpus() {
        if parse_file(FileId(0), &text).is_err() {
            continue;
        }
        let mut shuffled = String::new();
        let mut at = 0;
        let mut after_line_comment = false;
        for token in cgl::syntax::lex::Lexer::with_comments(&text) {
            let between = &text[at..token.start];
            if after_line_comment {
                // The line break that ends a `//` comment stays.
                shuffled.push_str(rng.pick(&["\n", "\n  ", "\n\n\n"]));
            } else if !between.is_empty() {
                shuffled.push_str(match rng.below(8) {
                    0 => " /* c */ ",
                    1 => " // c\n",
                    2 => "\n\n\n",
                    _ => blank(&mut rng),
                });
            }
            after_line_comment = token.text(&text).starts_with("//");
            shuffled.push_str(token.text(&text));
            at = token.end;
        }
        shuffled.push('\n');
        // A comment between `-` and 9223372036854775808 makes the literal too large alone.
        if parse_file(FileId(0), &shuffled).is_err() {
            continue;
        }
        let before = parse_file(FileId(0), &text).unwrap();
        let out = check_formats(&format!("{name} (shuffled)"), &shuffled);
        assert_eq!(
            shape(&before),
            shape(&parse_file(FileId(0), &out).unwrap()),
            "{name}"
        );
    }
}

// ---------------------------------------------------------------- the command line

#[test]
fn cgl_fmt_rewrites_files_in_place_and_says_which() {
    let dir = temp_dir("fmt-rewrite");
    std::fs::create_dir_all(dir.join("games/deeper")).unwrap();
    std::fs::write(dir.join("games/b.game"), "expect 1+1==2\n").unwrap();
    std::fs::write(dir.join("games/a.game"), "expect 1 + 1 == 2\n").unwrap();
    std::fs::write(dir.join("games/deeper/c.game"), "const  C=3").unwrap();
    std::fs::write(dir.join("games/notes.txt"), "not a game").unwrap();

    let (code, out, err) = cgl_in(&dir, &["fmt", "--check", "games"]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            1,
            "would reformat games/b.game\nwould reformat games/deeper/c.game\n",
            ""
        )
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("games/b.game")).unwrap(),
        "expect 1+1==2\n"
    );

    let (code, out, err) = cgl_in(&dir, &["fmt", "games"]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            0,
            "formatted games/b.game\nformatted games/deeper/c.game\n",
            ""
        )
    );
    let read = |p: &str| std::fs::read_to_string(dir.join(p)).unwrap();
    assert_eq!(read("games/b.game"), "expect 1 + 1 == 2\n");
    assert_eq!(read("games/deeper/c.game"), "const C = 3\n");
    assert_eq!(read("games/notes.txt"), "not a game");
    let left: Vec<_> = std::fs::read_dir(dir.join("games"))
        .unwrap()
        .flatten()
        .collect();
    assert_eq!(left.len(), 4, "no temporary file is left behind");

    let (code, out, err) = cgl_in(&dir, &["fmt", "--check", "games", "games/a.game"]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
}

#[test]
fn cgl_fmt_reports_a_syntax_error_as_cgl_check_does() {
    let dir = temp_dir("fmt-errors");
    std::fs::write(dir.join("bad.game"), "expect (1 +\n").unwrap();
    std::fs::write(dir.join("ugly.game"), "expect  1\n").unwrap();
    let (code, out, err) = cgl_in(&dir, &["fmt", "bad.game", "ugly.game", "missing.game"]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(
        out,
        "error bad.game (could not be formatted)\nformatted ugly.game\n\
         error missing.game (could not be formatted)\n"
    );
    let (_, _, check_err) = cgl_in(&dir, &["check", "bad.game"]);
    assert!(check_err.starts_with("cgl::syntax::"), "{check_err}");
    assert!(err.starts_with(&check_err), "{err}\n---\n{check_err}");
    assert!(
        err.contains("no such file or folder: missing.game"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("bad.game")).unwrap(),
        "expect (1 +\n"
    );
}

#[test]
fn cgl_fmt_dash_reads_stdin_and_writes_stdout() {
    assert_eq!(
        piped(&["fmt", "-"], "game G{position n move n-1 if n>0}"),
        (
            0,
            "game G {\n    position n\n    move n - 1 if n > 0\n}\n".to_string(),
            String::new()
        )
    );
    assert_eq!(
        piped(&["fmt", "--check", "-"], "expect 1\n"),
        (0, String::new(), String::new())
    );
    assert_eq!(
        piped(&["fmt", "--check", "-"], "expect 1 "),
        (1, "would reformat <stdin>\n".to_string(), String::new())
    );
    let (code, out, err) = piped(&["fmt", "-"], "expect [1,");
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("<stdin>:1:8") && err.contains("cgl::syntax::"),
        "{err}"
    );
}
