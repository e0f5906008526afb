//! The shape of a parsed file: the AST printed without its spans, one item a line, as
//! S-expressions. Two texts that parse to the same shape mean the same program, wherever
//! their blanks, line breaks and comments fall; the formatter checks its output with it, and
//! the tests compare a file with its formatted text by it. Grouping parentheses leave no
//! trace in the AST, so `(a + b)` and `a + b` have the same shape. Pure; it recurses over
//! the nesting of expressions, which the parser bounds.

use std::fmt::Write;

use super::ast::*;

/// The AST of `file` without spans: one line per item.
pub fn shape(file: &File) -> String {
    let mut out = String::new();
    for item in &file.items {
        item_shape(&mut out, item);
        out.push('\n');
    }
    out
}

/// The shape of one expression, as [`shape`] prints it.
pub fn expr_shape(expr: &Expr) -> String {
    let mut out = String::new();
    e(&mut out, expr);
    out
}

fn item_shape(out: &mut String, item: &Item) {
    match item {
        Item::Import { path, .. } => {
            let _ = write!(out, "(import {path:?})");
        }
        Item::Const { name, value } => {
            let _ = write!(out, "(const {} ", name.name);
            e(out, value);
            out.push(')');
        }
        Item::Fn { name, params, body } => {
            let _ = write!(out, "(fn {} (", name.name);
            let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
            out.push_str(&names.join(" "));
            out.push_str(") ");
            e(out, body);
            out.push(')');
        }
        Item::Game(game) => {
            let _ = write!(out, "(game {} (", game.name.name);
            for (k, (name, default)) in game.params.iter().enumerate() {
                if k > 0 {
                    out.push(' ');
                }
                defaulted(out, &name.name, default.as_ref());
            }
            out.push(')');
            for clause in &game.clauses {
                out.push(' ');
                clause_shape(out, clause);
            }
            out.push(')');
        }
        Item::Expect {
            expr, grade: None, ..
        } => tagged(out, "expect", &[expr]),
        Item::Expect {
            expr,
            grade: Some(grade),
            ..
        } => {
            let tag = format!(
                "expect {} {} {:?}",
                grade.points, grade.hide, grade.feedback
            );
            tagged(out, &tag, &[expr]);
        }
        Item::Print { expr, .. } => tagged(out, "print", &[expr]),
    }
}

/// `name` or `(name = default)`.
fn defaulted(out: &mut String, name: &str, default: Option<&Expr>) {
    match default {
        None => out.push_str(name),
        Some(d) => {
            let _ = write!(out, "({name} = ");
            e(out, d);
            out.push(')');
        }
    }
}

fn clause_shape(out: &mut String, clause: &GameClause) {
    match clause {
        GameClause::Position(PositionPattern::Single(p)) => {
            out.push_str("(position ");
            pattern(out, p);
            out.push(')');
        }
        GameClause::Position(PositionPattern::Fields(fields, _)) => {
            out.push_str("(position-fields");
            for (p, default) in fields {
                out.push_str(" (");
                pattern(out, p);
                if let Some(d) = default {
                    out.push_str(" = ");
                    e(out, d);
                }
                out.push(')');
            }
            out.push(')');
        }
        GameClause::Start(x) => tagged(out, "start", &[x]),
        GameClause::Compound(x) => tagged(out, "compound", &[x]),
        GameClause::Play(c, _) => {
            let _ = write!(out, "(play {c:?})");
        }
        GameClause::Terminal(x) => tagged(out, "terminal", &[x]),
        GameClause::Draw(x) => tagged(out, "draw", &[x]),
        GameClause::Loopy(_) => out.push_str("(loopy)"),
        GameClause::Show(x) => tagged(out, "show", &[x]),
        GameClause::Move(rule) => {
            let _ = write!(out, "(move {:?} ", rule.side);
            e(out, &rule.target);
            comp_clauses(out, &rule.clauses);
            out.push(')');
        }
        GameClause::Player(name, x) => {
            let _ = write!(out, "(player {} ", name.name);
            e(out, x);
            out.push(')');
        }
        GameClause::Payoff(x, cond, _) => {
            out.push_str("(payoff ");
            e(out, x);
            if let Some(c) = cond {
                out.push_str(" if ");
                e(out, c);
            }
            out.push(')');
        }
        GameClause::Table(x) => tagged(out, "table", &[x]),
    }
}

fn pattern(out: &mut String, p: &Pattern) {
    match p {
        Pattern::Bind(name) => out.push_str(&name.name),
        Pattern::Wildcard(_) => out.push('_'),
        Pattern::Tuple(parts, _) => {
            out.push_str("(tuple");
            for part in parts {
                out.push(' ');
                pattern(out, part);
            }
            out.push(')');
        }
    }
}

fn comp_clauses(out: &mut String, clauses: &[CompClause]) {
    for clause in clauses {
        match clause {
            CompClause::For(gens) => {
                out.push_str(" (for");
                for (p, x) in gens {
                    out.push_str(" (");
                    pattern(out, p);
                    out.push(' ');
                    e(out, x);
                    out.push(')');
                }
                out.push(')');
            }
            CompClause::If(x) => {
                out.push(' ');
                tagged(out, "if", &[x]);
            }
        }
    }
}

/// `(tag x y ...)`.
fn tagged(out: &mut String, tag: &str, parts: &[&Expr]) {
    out.push('(');
    out.push_str(tag);
    for part in parts {
        out.push(' ');
        e(out, part);
    }
    out.push(')');
}

/// `(tag x...)` over a list.
fn listed(out: &mut String, tag: &str, items: &[Expr]) {
    let parts: Vec<&Expr> = items.iter().collect();
    tagged(out, tag, &parts);
}

fn e(out: &mut String, x: &Expr) {
    crate::stack::grow(|| expr_kind(out, &x.kind));
}

fn expr_kind(out: &mut String, kind: &ExprKind) {
    match kind {
        ExprKind::Int(n) => {
            let _ = write!(out, "{n}");
        }
        ExprKind::Str(s) => {
            let _ = write!(out, "{s:?}");
        }
        ExprKind::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        ExprKind::None => out.push_str("none"),
        ExprKind::Name(n) => out.push_str(n),
        ExprKind::Unary(op, x) => tagged(out, &format!("{op:?}"), &[x]),
        ExprKind::Binary(op, l, r) => tagged(out, &format!("{op:?}"), &[l, r]),
        ExprKind::If(c, a, b) => tagged(out, "if", &[c, a, b]),
        ExprKind::Tuple(items) => listed(out, "tuple", items),
        ExprKind::List(items) => listed(out, "list", items),
        ExprKind::Set(items) => listed(out, "set", items),
        ExprKind::Repeat(x, n) => tagged(out, "repeat", &[x, n]),
        ExprKind::ListComp(body, clauses) | ExprKind::SetComp(body, clauses) => {
            let tag = if matches!(kind, ExprKind::ListComp(..)) {
                "list-comp"
            } else {
                "set-comp"
            };
            let _ = write!(out, "({tag} ");
            e(out, body);
            comp_clauses(out, clauses);
            out.push(')');
        }
        ExprKind::Quantified(q, clauses, body) => {
            let _ = write!(out, "({q:?}");
            comp_clauses(out, clauses);
            out.push(' ');
            e(out, body);
            out.push(')');
        }
        ExprKind::Call(f, args) => {
            out.push_str("(call ");
            e(out, f);
            for a in args {
                out.push(' ');
                e(out, a);
            }
            out.push(')');
        }
        ExprKind::CallGen(f, body, clauses) => {
            out.push_str("(call-gen ");
            e(out, f);
            out.push(' ');
            e(out, body);
            comp_clauses(out, clauses);
            out.push(')');
        }
        ExprKind::Bracket(x, args) => {
            out.push_str("(bracket ");
            e(out, x);
            for a in args {
                out.push(' ');
                match &a.name {
                    Some(name) => defaulted(out, &name.name, Some(&a.value)),
                    None => e(out, &a.value),
                }
            }
            out.push(')');
        }
        ExprKind::Field(x, name, _) => {
            out.push_str("(field ");
            e(out, x);
            let _ = write!(out, " {name:?})");
        }
        ExprKind::GameLit(left, right) => {
            out.push_str("(game-value ");
            listed(out, "left", left);
            out.push(' ');
            listed(out, "right", right);
            out.push(')');
        }
        ExprKind::Star(None) => out.push_str("(star)"),
        ExprKind::Star(Some(x)) => tagged(out, "star", &[x]),
        ExprKind::Ups(text) => {
            let _ = write!(out, "(ups {text})");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::FileId;
    use crate::syntax::parse_file;

    fn of(text: &str) -> String {
        shape(&parse_file(FileId(0), text).unwrap())
    }

    #[test]
    fn blanks_comments_and_grouping_leave_no_trace() {
        assert_eq!(
            of("expect (1 + 2) * 3 == 9 // yes"),
            of("expect\n  (  (1+2)*3 )==9")
        );
        assert_eq!(
            of("expect [x for x in 0..3 if x > 0] == [1, 2]"),
            "(expect (Eq (list-comp x (for (x (Range 0 3))) (if (Gt x 0))) (list 1 2)))\n"
        );
        assert_ne!(of("expect 1 + 2 * 3"), of("expect (1 + 2) * 3"));
        assert_ne!(of("expect *(3)"), of("expect * (3)"));
        assert_eq!(
            of("game G(a = 1) { position n  left move n - 1 if n > 0 }"),
            "(game G ((a = 1)) (position n) (move Left (Sub n 1) (if (Gt n 0))))\n"
        );
    }
}
