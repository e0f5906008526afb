//! The parser's output for small inputs, as trees and as error messages.

use super::{mask, parse_expr, parse_expr_part, parse_file};
use crate::diag::FileId;
use crate::syntax::ast::*;

/// The expression as an s-expression, spans dropped, so tests state the tree's shape.
fn sexpr(e: &Expr) -> String {
    let list = |items: &[Expr]| items.iter().map(sexpr).collect::<Vec<_>>().join(" ");
    match &e.kind {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Str(s) => format!("{s:?}"),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::None => "none".into(),
        ExprKind::Name(n) => n.clone(),
        ExprKind::Unary(op, x) => format!("({op:?} {})", sexpr(x)),
        ExprKind::Binary(op, l, r) => format!("({} {} {})", op.symbol(), sexpr(l), sexpr(r)),
        ExprKind::If(c, t, f) => format!("(if {} {} {})", sexpr(c), sexpr(t), sexpr(f)),
        ExprKind::Tuple(items) => format!("(tuple {})", list(items)),
        ExprKind::List(items) => format!("[{}]", list(items)),
        ExprKind::Set(items) => format!("{{{}}}", list(items)),
        ExprKind::Repeat(v, n) => format!("[{}; {}]", sexpr(v), sexpr(n)),
        ExprKind::ListComp(b, c) => format!("[{} for{}]", sexpr(b), clauses(c)),
        ExprKind::SetComp(b, c) => format!("{{{} for{}}}", sexpr(b), clauses(c)),
        ExprKind::Quantified(q, c, b) => format!("({q:?}{} : {})", clauses(c), sexpr(b)),
        ExprKind::Call(f, args) => format!("(call {} {})", sexpr(f), list(args)),
        ExprKind::CallGen(f, b, c) => {
            format!("(call {} {} for{})", sexpr(f), sexpr(b), clauses(c))
        }
        ExprKind::Bracket(b, args) => {
            let args: Vec<String> = args
                .iter()
                .map(|a| match &a.name {
                    Some(n) => format!("{}={}", n.name, sexpr(&a.value)),
                    None => sexpr(&a.value),
                })
                .collect();
            format!("(bracket {} {})", sexpr(b), args.join(" "))
        }
        ExprKind::Field(b, FieldName::Index(i), _) => format!("(. {} {i})", sexpr(b)),
        ExprKind::Field(b, FieldName::Name(n), _) => format!("(. {} {n})", sexpr(b)),
        ExprKind::GameLit(l, r) => format!("<{} | {}>", list(l), list(r)),
        ExprKind::Star(None) => "*".into(),
        ExprKind::Star(Some(n)) => format!("(* {})", sexpr(n)),
        ExprKind::Ups(t) => format!("`{t}`"),
    }
}

fn clauses(cs: &[CompClause]) -> String {
    cs.iter()
        .map(|c| match c {
            CompClause::For(gens) => gens
                .iter()
                .map(|(p, e)| format!(" {} in {}", pattern(p), sexpr(e)))
                .collect::<String>(),
            CompClause::If(e) => format!(" if {}", sexpr(e)),
        })
        .collect()
}

fn pattern(p: &Pattern) -> String {
    match p {
        Pattern::Bind(i) => i.name.clone(),
        Pattern::Wildcard(_) => "_".into(),
        Pattern::Tuple(items, _) => {
            format!(
                "({})",
                items.iter().map(pattern).collect::<Vec<_>>().join(" ")
            )
        }
    }
}

fn parse(text: &str) -> String {
    match parse_expr(FileId(0), text) {
        Ok(e) => sexpr(&e),
        Err(d) => format!("error: {}", d.message),
    }
}

#[test]
fn precedence() {
    assert_eq!(parse("1 + 2 * 3"), "(+ 1 (* 2 3))");
    assert_eq!(parse("a ^ b == 0"), "(== (^ a b) 0)");
    assert_eq!(parse("k in 0..n - 1"), "(in k (.. 0 (- n 1)))");
    assert_eq!(parse("not a == b and c"), "(and (Not (== a b)) c)");
    assert_eq!(parse("-2 ** 2"), "(Neg (** 2 2))");
    assert_eq!(parse("2 ** 3 ** 2"), "(** 2 (** 3 2))");
    assert_eq!(parse("x + y & z | w"), "(| (& (+ x y) z) w)");
    assert_eq!(parse("0 not in board"), "(not in 0 board)");
    assert_eq!(parse("p is P or q is N"), "(or (is p P) (is q N))");
}

#[test]
fn game_values() {
    assert_eq!(parse("{0 | 1}"), "<0 | 1>");
    assert_eq!(parse("{|}"), "< | >");
    assert_eq!(parse("{a, b | }"), "<a b | >");
    assert_eq!(parse("{0 || 0 | -2}"), "<0 | <0 | -2>>");
    assert_eq!(parse("{3 | 2 || 1}"), "<<3 | 2> | 1>");
    assert_eq!(parse("{a | b ||| c || d | e}"), "<<a | b> | <c | <d | e>>>");
    assert_eq!(parse("{(a | b)}"), "{(| a b)}");
    assert!(parse("{a | b + 1 for x in 0..3}").starts_with("error"));
    assert_eq!(parse("{x for x in a | b}"), "{x for x in (| a b)}");
    assert_eq!(parse("* + *3 * *(n)"), "(+ * (* (* 3) (* n)))");
    assert_eq!(parse("a ^ ^* + ^3*2"), "(^ a (+ `^*` `^3*2`))");
    assert_eq!(parse("+-1/2 + 1"), "(+ (Switch (/ 1 2)) 1)");
    assert_eq!(parse("a +- b"), "(+ a (Neg b))");
    assert_eq!(parse("2 * 3 + 2*x"), "(+ (* 2 3) (* 2 x))");
    assert!(parse("2*3").starts_with("error: `*` between a number"));
    assert!(parse("v*2").starts_with("error"));
    assert!(parse("{0 | 1 | 2}").starts_with("error: `|` appears more than once"));
    assert_eq!(parse("7 div 2 * 3"), "(* (div 7 2) 3)");
}

#[test]
fn postfix_and_brackets() {
    assert_eq!(parse("G[S = {2, 4}](10)"), "(call (bracket G S={2 4}) 10)");
    assert_eq!(parse("xs[i == j]"), "(bracket xs (== i j))");
    assert_eq!(parse("p.2 + G.start"), "(+ (. p 2) (. G start))");
    assert_eq!(parse("(1,)"), "(tuple 1)");
    assert_eq!(parse("(1)"), "1");
    assert_eq!(parse("()"), "(tuple )");
    assert_eq!(parse("[0; 9]"), "[0; 9]");
}

#[test]
fn comprehensions_and_quantifiers() {
    assert_eq!(
        parse("[if r >= i then j else w for (r, w) in enumerate(rows), j in 0..w if j > 0]"),
        "[(if (>= r i) j w) for (r w) in (call enumerate rows) j in (.. 0 w) if (> j 0)]"
    );
    assert_eq!(parse("sum(x for x in xs)"), "(call sum x for x in xs)");
    assert_eq!(
        parse("forall a in 1..=3, b in xs: a + b > 0"),
        "(Forall a in (..= 1 3) b in xs : (> (+ a b) 0))"
    );
    assert_eq!(parse("{x % 3 for x in xs}"), "{(% x 3) for x in xs}");
}

#[test]
fn literals() {
    assert_eq!(parse("1_000"), "1000");
    assert_eq!(parse("-9223372036854775807"), "-9223372036854775807");
    assert_eq!(
        parse("9223372036854775808"),
        "error: integer literal is too large"
    );
    assert_eq!(parse(r#""a\"b""#), r#""a\"b""#);
}

#[test]
fn errors_name_what_was_expected() {
    assert_eq!(parse("1 +"), "error: syntax error: expected an expression");
    assert_eq!(parse("(1, 2"), "error: `(` is never closed");
    assert_eq!(parse("[1, 2)"), "error: `)` does not close `[`");
    assert_eq!(parse("1)"), "error: `)` closes nothing");
    assert_eq!(parse("\"(\" + \"]\""), "(+ \"(\" \"]\")");
    assert_eq!(
        parse("f(1 2)"),
        "error: syntax error: expected `for` or an operator"
    );
    let deep = format!("{}1{}", "(".repeat(300), ")".repeat(300));
    assert_eq!(parse(&deep), "error: brackets are nested too deeply");
}

#[test]
fn files_and_game_clauses() {
    let text = "game G(k = 2) {\n position (a, b = k)\n terminal if a == 0\n move (a - 1, b) if a > 0\n left move (a, b)\n}\nexpect G(1) is N\n";
    let file = parse_file(FileId(0), text).unwrap();
    assert_eq!(file.items.len(), 2);
    let Item::Game(game) = &file.items[0] else {
        panic!("not a game")
    };
    assert_eq!(game.params.len(), 1);
    assert_eq!(game.clauses.len(), 4);
    assert!(matches!(&game.clauses[3], GameClause::Move(m) if m.side == Side::Left));
}

#[test]
fn parts_parse_in_place() {
    let text = "let x = f(\"é\")";
    let value = 7..text.len();
    let masked = mask(text, &value);
    assert_eq!(masked.len(), text.len());
    assert_eq!(masked.trim(), "f(\"é\")");
    assert_eq!(&masked[value.clone()], &text[value.clone()]);
    let expr = parse_expr_part(FileId(0), text, &value).unwrap();
    assert_eq!(sexpr(&expr), "(call f \"é\")");
    assert_eq!((expr.span.start, expr.span.end), (8, text.len() as u32));
}
