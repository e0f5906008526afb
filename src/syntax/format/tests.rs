//! Before and after: one case per rule of the layout, and the fixed point.

use super::format_source;
use crate::diag::FileId;

fn fmt(text: &str) -> String {
    let out = format_source(FileId(0), text).unwrap_or_else(|d| panic!("{text}: {d:?}"));
    let again = format_source(FileId(0), &out).unwrap();
    assert_eq!(again, out, "not a fixed point:\n{text}");
    out
}

#[test]
fn a_game_on_one_line_gets_a_line_per_clause() {
    assert_eq!(
        fmt("game Nim { position n  move k for k in 0..n }"),
        "game Nim {\n    position n\n    move k for k in 0..n\n}\n"
    );
    assert_eq!(fmt("game G\n{\n}"), "game G {}\n");
    assert_eq!(
        fmt("game  G ( a=1 ,b )  {\n\n  left move a-1 if a>0\n\n\n  right move(a,b)\n\n}"),
        "game G(a = 1, b) {\n    left move a - 1 if a > 0\n\n    right move (a, b)\n}\n"
    );
}

#[test]
fn blanks_around_operators_and_after_commas() {
    assert_eq!(
        fmt("expect [x*2 for x in 0..=n-1 if x%2==0]==[0,4]"),
        "expect [x * 2 for x in 0..=n - 1 if x % 2 == 0] == [0, 4]\n"
    );
    assert_eq!(
        fmt("expect  f( - x , not(y) , -  -1,+-1 , a +-b)"),
        "expect f(-x, not (y), - -1, +-1, a + -b)\n"
    );
    assert_eq!(
        fmt("expect forall a in xs , b in ys:p(a,b)and G[ S = 1 ]( a ).0"),
        "expect forall a in xs, b in ys: p(a, b) and G[S = 1](a).0\n"
    );
    assert_eq!(
        fmt("expect {2|-1 / 2} == 3 /4 and a/2 == x / 4 and 1/ /* half */ 2 == 1/2"),
        "expect {2 | -1/2} == 3/4 and a / 2 == x / 4 and 1 / /* half */ 2 == 1/2\n"
    );
    assert_eq!(
        fmt("expect [ 0 ; 3 ]==[0,0,0,]"),
        "expect [0; 3] == [0, 0, 0,]\n"
    );
    assert_eq!(
        fmt("expect {0||0|-2}=={ | }  and  * (3) != *(3) and ^*3+*2==^ * 2"),
        "expect {0 || 0 | -2} == {|} and * (3) != *(3) and ^*3 + *2 == ^ * 2\n"
    );
    assert_eq!(
        fmt("const X=(1,)\nfn f( a,b )=if a then-b else(a)\nimport   \"x.game\""),
        "const X = (1,)\nfn f(a, b) = if a then -b else (a)\nimport \"x.game\"\n"
    );
}

#[test]
fn the_authors_line_breaks_stay_and_continuation_lines_are_indented() {
    assert_eq!(
        fmt("expect [1, 2]\n== [1,\n2]"),
        "expect [1, 2]\n    == [1,\n        2]\n"
    );
    assert_eq!(
        fmt("const LINES = [\n[0, 1], [1, 2],\n  [2, 3]\n  ]\nfn f(x) =\n x\n  + 1"),
        "const LINES = [\n    [0, 1], [1, 2],\n    [2, 3]\n]\nfn f(x) =\n    x\n    + 1\n"
    );
    assert_eq!(
        fmt("game G {\nmove f(a,\nb)\n  for a in xs\n}"),
        "game G {\n    move f(a,\n           b)\n        for a in xs\n}\n"
    );
    // Items after a bracket that does not end its line line up after it.
    assert_eq!(
        fmt("expect f([1,\n2],\n 3)"),
        "expect f([1,\n          2],\n         3)\n"
    );
    // A quantifier's body after a `:` that ends a line is one level deeper.
    assert_eq!(
        fmt("expect forall a in xs\nif a > 0:\np(a)\n== q(a)\nexpect [forall b in ys:\nb]"),
        "expect forall a in xs\n    if a > 0:\n        p(a)\n            == q(a)\n\
         expect [forall b in ys:\n            b]\n"
    );
    assert_eq!(
        fmt("expect [x\nfor x in xs]"),
        "expect [x\n        for x in xs]\n"
    );
}

#[test]
fn blank_lines_one_at_most_and_around_games() {
    assert_eq!(
        fmt("\n\nexpect 1\n\n\n\nexpect 2\nexpect 3\n\n\n"),
        "expect 1\n\nexpect 2\nexpect 3\n"
    );
    assert_eq!(
        fmt("const A = 1\n// the game\ngame G { loopy }\nexpect 1"),
        "const A = 1\n\n// the game\ngame G {\n    loopy\n}\n\nexpect 1\n"
    );
    assert_eq!(
        fmt("expect [\n\n1,\n\n2\n\n]"),
        "expect [\n    1,\n\n    2\n]\n"
    );
}

#[test]
fn comments_stay_where_they_are() {
    let before = "// head\n\ngame G {   // the game\n    position n // a heap\n  \
                  move n - 1 if n > 0    // one\n  // own line\n\n  move n - 2 if n > 1 /* two */\n  \
                  // last\n}\nexpect /* inline */ 1 == 1 // end   \n/* block\n   kept */\n";
    let after = "// head\n\ngame G {                 // the game\n    position n           // a heap\n    \
                 move n - 1 if n > 0  // one\n    // own line\n\n    move n - 2 if n > 1 /* two */\n    \
                 // last\n}\n\nexpect /* inline */ 1 == 1  // end\n/* block\n   kept */\n";
    assert_eq!(fmt(before), after);
    assert_eq!(
        fmt("const A = [1, // one\n  22] // two\nconst B = 333 // three\n\nconst C = 4 // four"),
        "const A = [1,   // one\n           22]  // two\nconst B = 333   // three\n\nconst C = 4  // four\n"
    );
    assert_eq!(fmt("// only\n\n\n// comments"), "// only\n\n// comments\n");
    assert_eq!(fmt(""), "");
    assert_eq!(fmt("\u{feff}expect 1\r\n"), "expect 1\n");
}

#[test]
fn a_text_that_does_not_parse_gets_its_syntax_error() {
    let errors = format_source(FileId(0), "expect (1 +").unwrap_err();
    assert!(
        errors[0].code.name().starts_with("cgl::syntax::"),
        "{errors:?}"
    );
    let errors = format_source(FileId(0), "game G { move }").unwrap_err();
    assert!(
        errors[0].code.name().starts_with("cgl::syntax::"),
        "{errors:?}"
    );
}
