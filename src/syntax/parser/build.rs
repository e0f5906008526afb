//! Pest's pairs into the AST. Each function takes a pair of one known rule; the grammar
//! guarantees the shape of its children, so a mismatch is a bug in cgl and becomes an
//! internal diagnostic, never a panic. Operator precedence is assigned here, by a Pratt
//! parser.

use std::sync::LazyLock;

use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};

use super::Rule;
use crate::diag::{Code, Diag, DiagResult, FileId, Span};
use crate::syntax::ast::*;

static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    PrattParser::new()
        .op(Op::infix(Rule::or_op, Assoc::Left))
        .op(Op::infix(Rule::and_op, Assoc::Left))
        .op(Op::prefix(Rule::not_op))
        .op(Op::infix(Rule::in_op, Assoc::Left)
            | Op::infix(Rule::not_in_op, Assoc::Left)
            | Op::infix(Rule::is_op, Assoc::Left)
            | Op::infix(Rule::eq_op, Assoc::Left)
            | Op::infix(Rule::ne_op, Assoc::Left)
            | Op::infix(Rule::lt_op, Assoc::Left)
            | Op::infix(Rule::le_op, Assoc::Left)
            | Op::infix(Rule::gt_op, Assoc::Left)
            | Op::infix(Rule::ge_op, Assoc::Left))
        .op(Op::infix(Rule::range_op, Assoc::Left) | Op::infix(Rule::range_incl_op, Assoc::Left))
        .op(Op::infix(Rule::bitor_op, Assoc::Left))
        .op(Op::infix(Rule::xor_op, Assoc::Left))
        .op(Op::infix(Rule::bitand_op, Assoc::Left))
        .op(Op::infix(Rule::add_op, Assoc::Left) | Op::infix(Rule::sub_op, Assoc::Left))
        // `+-1/2` is the switch of 1/2, as in CGSuite: looser than `*` and `/`.
        .op(Op::prefix(Rule::switch_op))
        .op(Op::infix(Rule::mul_op, Assoc::Left)
            | Op::infix(Rule::div_op, Assoc::Left)
            | Op::infix(Rule::floor_div_op, Assoc::Left)
            | Op::infix(Rule::rem_op, Assoc::Left))
        .op(Op::prefix(Rule::neg))
        .op(Op::infix(Rule::pow_op, Assoc::Right))
        .op(Op::postfix(Rule::call_args)
            | Op::postfix(Rule::bracket_args)
            | Op::postfix(Rule::field))
});

pub(super) fn next<'i>(pairs: &mut Pairs<'i, Rule>) -> DiagResult<Pair<'i, Rule>> {
    pairs.next().ok_or_else(|| {
        Box::new(Diag::internal(
            "the parser produced fewer nodes than the grammar promises",
        ))
    })
}

fn unexpected(pair: &Pair<'_, Rule>) -> Box<Diag> {
    Box::new(Diag::internal(format!(
        "unexpected grammar node {:?}",
        pair.as_rule()
    )))
}

/// The span of the literal `9223372036854775808` when `error` is its "too large" and it is
/// what the `-` of `op` negates: then the two are `-9223372036854775808`, `i64::MIN`, which
/// fits. Not when something that binds tighter than `-` follows the literal (`**`, a call,
/// an index, a field): then the literal alone is an operand, and too large.
fn negated_min(op: &Pair<'_, Rule>, error: &Diag) -> Option<Span> {
    if error.code != Code::SyntaxIntOverflow {
        return None;
    }
    let span = error.labels.first()?.span;
    let text = op.as_span().get_input();
    let (start, end) = (span.start as usize, span.end as usize);
    let between = text.get(op.as_span().end()..start)?;
    let digits = text.get(start..end)?.replace('_', "");
    let after = text.get(end..)?.trim_start();
    let tighter = after.starts_with("**")
        || after.starts_with(['(', '['])
        || (after.starts_with('.') && !after.starts_with(".."));
    (between.trim().is_empty() && digits == "9223372036854775808" && !tighter).then_some(span)
}

pub(super) struct Ctx {
    pub(super) file: FileId,
    /// Where the text the pairs were parsed from starts in the file.
    pub(super) offset: usize,
}

/// The end of the last code character in `text[start..end]`: the end without the whitespace
/// and comments a rule swallowed. Works backwards from the end, so it costs what it strips
/// (plus one line when a `//` comment may end the span), not the length of the span.
fn code_end(text: &str, start: usize, end: usize) -> usize {
    let bytes = text.as_bytes();
    let mut end = end.min(bytes.len());
    loop {
        let mut crossed_newline = end == bytes.len();
        while end > start && bytes[end - 1].is_ascii_whitespace() {
            crossed_newline |= bytes[end - 1] == b'\n';
            end -= 1;
        }
        if end >= start + 2 && &bytes[end - 2..end] == b"*/" {
            if let Some(open) = text.get(start..end - 2).and_then(|t| t.rfind("/*")) {
                end = start + open;
                continue;
            }
        }
        // A line comment ends at a newline (or at the end of the text): only then can the
        // span end in one, and only on its last line.
        if crossed_newline {
            let line_start = text[start..end]
                .rfind('\n')
                .map_or(start, |i| start + i + 1);
            if let Some(comment) = line_comment_start(&text[line_start..end]) {
                end = line_start + comment;
                continue;
            }
        }
        return end;
    }
}

/// Where a `//` comment starts in one line, ignoring `//` inside strings.
fn line_comment_start(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

impl Ctx {
    /// The pair's span without trailing whitespace and comments: pest lets a rule that ends
    /// in an optional repetition (`move x for ...`) swallow the whitespace before the repetition
    /// it did not find.
    fn span(&self, pair: &Pair<'_, Rule>) -> Span {
        let s = pair.as_span();
        let end = code_end(s.get_input(), s.start(), s.end());
        Span::new(self.file, s.start() + self.offset, end + self.offset)
    }

    fn ident(&self, pair: Pair<'_, Rule>) -> Ident {
        Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        }
    }

    pub(super) fn item(&self, pair: Pair<'_, Rule>) -> DiagResult<Item> {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut inner = pair.into_inner();
        let _keyword = next(&mut inner)?;
        Ok(match rule {
            Rule::import_item => {
                let string = next(&mut inner)?;
                let alias = match inner.next() {
                    Some(alias) => {
                        let mut words = alias.into_inner();
                        let _as = next(&mut words)?;
                        Some(self.ident(next(&mut words)?))
                    }
                    None => None,
                };
                Item::Import {
                    path: self.string_value(string)?,
                    alias,
                    span,
                }
            }
            Rule::const_item => {
                let name = self.ident(next(&mut inner)?);
                Item::Const {
                    name,
                    value: self.expr(next(&mut inner)?)?,
                }
            }
            Rule::fn_item => {
                let name = self.ident(next(&mut inner)?);
                let params = next(&mut inner)?
                    .into_inner()
                    .map(|p| self.ident(p))
                    .collect();
                Item::Fn {
                    name,
                    params,
                    body: self.expr(next(&mut inner)?)?,
                }
            }
            Rule::expect_item => {
                let mut first = next(&mut inner)?;
                let mut grade = None;
                if first.as_rule() == Rule::expect_grade {
                    grade = Some(self.grade(first)?);
                    first = next(&mut inner)?;
                }
                Item::Expect {
                    expr: self.expr(first)?,
                    grade,
                    span,
                }
            }
            Rule::print_item => Item::Print {
                expr: self.expr(next(&mut inner)?)?,
                span,
            },
            Rule::game_item => Item::Game(self.game(inner, span)?),
            _ => {
                return Err(Box::new(Diag::internal(format!(
                    "unexpected item {rule:?}"
                ))))
            }
        })
    }

    fn game(&self, mut inner: Pairs<'_, Rule>, span: Span) -> DiagResult<GameDef> {
        let name = self.ident(next(&mut inner)?);
        let mut params = Vec::new();
        let mut clauses = Vec::new();
        for pair in inner {
            match pair.as_rule() {
                Rule::game_params => {
                    for param in pair.into_inner() {
                        let mut p = param.into_inner();
                        let pname = self.ident(next(&mut p)?);
                        let default = p.next().map(|e| self.expr(e)).transpose()?;
                        params.push((pname, default));
                    }
                }
                _ => clauses.push(self.clause(pair)?),
            }
        }
        Ok(GameDef {
            name,
            params,
            clauses,
            span,
        })
    }

    fn clause(&self, pair: Pair<'_, Rule>) -> DiagResult<GameClause> {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut inner = pair.into_inner();
        Ok(match rule {
            Rule::position_clause => {
                let _kw = next(&mut inner)?;
                let pattern = next(&mut next(&mut inner)?.into_inner())?;
                GameClause::Position(match pattern.as_rule() {
                    Rule::position_fields => {
                        let pspan = self.span(&pattern);
                        let mut fields = Vec::new();
                        for field in pattern.into_inner() {
                            let mut f = field.into_inner();
                            let pat = self.pattern(next(&mut f)?)?;
                            let default = f.next().map(|e| self.expr(e)).transpose()?;
                            fields.push((pat, default));
                        }
                        PositionPattern::Fields(fields, pspan)
                    }
                    _ => PositionPattern::Single(self.pattern(pattern)?),
                })
            }
            Rule::start_clause => {
                let _kw = next(&mut inner)?;
                GameClause::Start(self.expr(next(&mut inner)?)?)
            }
            Rule::compound_clause => {
                let _kw = next(&mut inner)?;
                GameClause::Compound(self.expr(next(&mut inner)?)?)
            }
            Rule::play_clause => {
                let _kw = next(&mut inner)?;
                let conv = next(&mut next(&mut inner)?.into_inner())?;
                let convention = match conv.as_rule() {
                    Rule::kw_misere => Convention::Misere,
                    _ => Convention::Normal,
                };
                GameClause::Play(convention, span)
            }
            Rule::loopy_clause => GameClause::Loopy(span),
            Rule::player_clause => {
                let _kw = next(&mut inner)?;
                let name = self.ident(next(&mut inner)?);
                let _in = next(&mut inner)?;
                GameClause::Player(name, self.expr(next(&mut inner)?)?)
            }
            Rule::payoff_clause => {
                let _kw = next(&mut inner)?;
                let amount = self.expr(next(&mut inner)?)?;
                let cond = match inner.next() {
                    Some(_if) => Some(self.expr(next(&mut inner)?)?),
                    None => None,
                };
                GameClause::Payoff(amount, cond, span)
            }
            Rule::table_clause => {
                let _kw = next(&mut inner)?;
                GameClause::Table(self.expr(next(&mut inner)?)?)
            }
            Rule::show_clause => {
                let _kw = next(&mut inner)?;
                GameClause::Show(self.expr(next(&mut inner)?)?)
            }
            Rule::terminal_clause | Rule::draw_clause => {
                let _kw = next(&mut inner)?;
                let _if = next(&mut inner)?;
                let cond = self.expr(next(&mut inner)?)?;
                if rule == Rule::terminal_clause {
                    GameClause::Terminal(cond)
                } else {
                    GameClause::Draw(cond)
                }
            }
            Rule::move_clause => {
                let mut side = Side::Both;
                let mut first = next(&mut inner)?;
                if first.as_rule() == Rule::side {
                    side = match next(&mut first.into_inner())?.as_rule() {
                        Rule::kw_left => Side::Left,
                        _ => Side::Right,
                    };
                    first = next(&mut inner)?;
                }
                debug_assert_eq!(first.as_rule(), Rule::kw_move);
                let target = self.expr(next(&mut inner)?)?;
                let clauses = self.comp_clauses(inner)?;
                GameClause::Move(MoveRule {
                    side,
                    target,
                    clauses,
                    span,
                })
            }
            _ => {
                return Err(Box::new(Diag::internal(format!(
                    "unexpected clause {rule:?}"
                ))))
            }
        })
    }

    fn pattern(&self, pair: Pair<'_, Rule>) -> DiagResult<Pattern> {
        let pair = if pair.as_rule() == Rule::pattern {
            next(&mut pair.into_inner())?
        } else {
            pair
        };
        Ok(match pair.as_rule() {
            Rule::ident => Pattern::Bind(self.ident(pair)),
            Rule::wildcard => Pattern::Wildcard(self.span(&pair)),
            Rule::tuple_pattern => {
                let span = self.span(&pair);
                let parts = pair
                    .into_inner()
                    .map(|p| self.pattern(p))
                    .collect::<DiagResult<_>>()?;
                Pattern::Tuple(parts, span)
            }
            _ => return Err(unexpected(&pair)),
        })
    }

    fn comp_clauses(&self, pairs: Pairs<'_, Rule>) -> DiagResult<Vec<CompClause>> {
        let mut clauses = Vec::new();
        for pair in pairs {
            clauses.push(self.comp_clause(pair)?);
        }
        Ok(clauses)
    }

    fn comp_clause(&self, pair: Pair<'_, Rule>) -> DiagResult<CompClause> {
        match pair.as_rule() {
            Rule::comp_for => {
                let mut gens = Vec::new();
                for generator in pair.into_inner().skip(1) {
                    gens.push(self.generator(generator)?);
                }
                Ok(CompClause::For(gens))
            }
            Rule::comp_if => {
                let mut inner = pair.into_inner();
                let _kw = next(&mut inner)?;
                Ok(CompClause::If(self.expr(next(&mut inner)?)?))
            }
            _ => Err(unexpected(&pair)),
        }
    }

    fn generator(&self, pair: Pair<'_, Rule>) -> DiagResult<(Pattern, Expr)> {
        let mut inner = pair.into_inner();
        let pattern = self.pattern(next(&mut inner)?)?;
        let _in = next(&mut inner)?;
        Ok((pattern, self.expr(next(&mut inner)?)?))
    }

    /// `3 points hide "hint":` before an expectation's expression.
    fn grade(&self, pair: Pair<'_, Rule>) -> DiagResult<Grade> {
        let mut grade = Grade::default();
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::int => {
                    let span = self.span(&part);
                    let digits = part.as_str().replace('_', "");
                    grade.points = digits.parse::<u32>().map_err(|_| {
                        Box::new(
                            Diag::error(Code::SyntaxIntOverflow, "too many points")
                                .label(span, "does not fit in 32 bits")
                                .help(format!("points range from 0 to {}", u32::MAX)),
                        )
                    })?;
                }
                Rule::kw_hide => grade.hide = true,
                Rule::string => grade.feedback = Some(self.string_value(part)?),
                _ => {}
            }
        }
        Ok(grade)
    }

    fn string_value(&self, pair: Pair<'_, Rule>) -> DiagResult<String> {
        let span = self.span(&pair);
        let raw = next(&mut pair.into_inner())?.as_str();
        let mut out = String::with_capacity(raw.len());
        let mut chars = raw.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('\\') => out.push('\\'),
                Some('"') => out.push('"'),
                other => {
                    return Err(Box::new(
                        Diag::error(Code::SyntaxBadEscape, "unknown escape in string")
                            .label(
                                span,
                                format!("`\\{}` is not an escape", other.unwrap_or(' ')),
                            )
                            .help("the escapes are \\n, \\t, \\\\ and \\\""),
                    ))
                }
            }
        }
        Ok(out)
    }

    pub(super) fn expr(&self, pair: Pair<'_, Rule>) -> DiagResult<Expr> {
        debug_assert!(matches!(pair.as_rule(), Rule::expr | Rule::brace_item));
        PRATT
            .map_primary(|p| self.primary(p))
            .map_prefix(|op, rhs| {
                if op.as_rule() == Rule::neg {
                    if let Some(span) = rhs.as_ref().err().and_then(|d| negated_min(&op, d)) {
                        let span = self.span(&op).to(span);
                        return Ok(Expr {
                            kind: ExprKind::Int(i64::MIN),
                            span,
                        });
                    }
                }
                let rhs = rhs?;
                let span = self.span(&op).to(rhs.span);
                let op = match op.as_rule() {
                    Rule::neg => UnaryOp::Neg,
                    Rule::switch_op => UnaryOp::Switch,
                    _ => UnaryOp::Not,
                };
                // Fold `-<literal>` into a literal (`- -9223372036854775808` stays a negation,
                // which overflows when evaluated).
                if let (UnaryOp::Neg, ExprKind::Int(n)) = (op, &rhs.kind) {
                    if let Some(neg) = n.checked_neg() {
                        return Ok(Expr {
                            kind: ExprKind::Int(neg),
                            span,
                        });
                    }
                }
                Ok(Expr {
                    kind: ExprKind::Unary(op, Box::new(rhs)),
                    span,
                })
            })
            .map_postfix(|lhs, op| {
                let lhs = lhs?;
                let span = lhs.span.to(self.span(&op));
                self.postfix(lhs, op, span)
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let span = lhs.span.to(rhs.span);
                if let Some(d) = self.juxtaposed(&op, &lhs) {
                    return Err(d);
                }
                let op = binary_op(op.as_rule()).ok_or_else(|| unexpected(&op))?;
                Ok(Expr {
                    kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                    span,
                })
            })
            .parse(pair.into_inner())
    }

    /// `2*3`, `1/2*3`, `v*2`, `2^3` written without spaces: CGSuite's notation for
    /// `2 + *3`, `1/2 + *3`, `v + *2`, `2 + ^3`, which cgl would read as a product or an
    /// XOR. Pasted from CGSuite it would be silently wrong, so it is an error.
    fn juxtaposed(&self, op: &Pair<'_, Rule>, lhs: &Expr) -> Option<Box<Diag>> {
        let symbol = match op.as_rule() {
            Rule::mul_op => '*',
            Rule::xor_op => '^',
            _ => return None,
        };
        let text = op.as_span().get_input().as_bytes();
        let (start, end) = (op.as_span().start(), op.as_span().end());
        let before = *text.get(start.checked_sub(1)?)?;
        let after = *text.get(end)?;
        let downs = matches!(&lhs.kind, ExprKind::Name(n) if n.bytes().all(|b| b == b'v'));
        let left_ok = before.is_ascii_digit() || (symbol == '*' && downs && before == b'v');
        if !left_ok || !after.is_ascii_digit() {
            return None;
        }
        let span = self.span(op);
        let word = |b: &u8| b.is_ascii_digit() || *b == b'v' || *b == b'/';
        let from = start - text[..start].iter().rev().take_while(|b| word(b)).count();
        let to = end
            + text[end..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
        let lhs_text = String::from_utf8_lossy(&text[from..start]);
        let rhs_text = String::from_utf8_lossy(&text[end..to]);
        let sum = format!("{lhs_text} + {symbol}{rhs_text}");
        let product = if symbol == '*' {
            format!("a product: `{lhs_text} * {rhs_text}`")
        } else {
            format!("an XOR: `{lhs_text} ^ {rhs_text}`")
        };
        Some(Box::new(
            Diag::error(
                Code::SyntaxJuxtaposition,
                format!("`{symbol}` between a number and a digit, without spaces, is ambiguous"),
            )
            .label(span, format!("CGSuite reads this as `{sum}`"))
            .help(format!(
                "write the game value with its parts added, `{sum}`, or with spaces {product}"
            )),
        ))
    }

    fn postfix(&self, lhs: Expr, op: Pair<'_, Rule>, span: Span) -> DiagResult<Expr> {
        let kind = match op.as_rule() {
            Rule::call_args => {
                let pairs: Vec<Pair<'_, Rule>> = op.into_inner().collect();
                match pairs.as_slice() {
                    [first, tail] if tail.as_rule() == Rule::generator_tail => {
                        let body = self.expr(first.clone())?;
                        let clauses = self.comp_clauses(tail.clone().into_inner())?;
                        ExprKind::CallGen(Box::new(lhs), Box::new(body), clauses)
                    }
                    _ => {
                        let args = pairs
                            .into_iter()
                            .map(|p| self.expr(p))
                            .collect::<DiagResult<Vec<_>>>()?;
                        ExprKind::Call(Box::new(lhs), args)
                    }
                }
            }
            Rule::bracket_args => {
                let mut args = Vec::new();
                for arg in op.into_inner() {
                    let inner = next(&mut arg.into_inner())?;
                    if inner.as_rule() == Rule::named_arg {
                        let mut n = inner.into_inner();
                        let name = self.ident(next(&mut n)?);
                        args.push(BracketArg {
                            name: Some(name),
                            value: self.expr(next(&mut n)?)?,
                        });
                    } else {
                        args.push(BracketArg {
                            name: None,
                            value: self.expr(inner)?,
                        });
                    }
                }
                ExprKind::Bracket(Box::new(lhs), args)
            }
            Rule::field => {
                let fspan = self.span(&op);
                let name = next(&mut op.into_inner())?;
                let field = if name.as_rule() == Rule::int {
                    FieldName::Index(name.as_str().replace('_', "").parse().map_err(|_| {
                        Box::new(
                            Diag::error(Code::SyntaxBadField, "tuple field index is too large")
                                .label(fspan, "here")
                                .help("tuple fields are numbered from 0"),
                        )
                    })?)
                } else {
                    FieldName::Name(name.as_str().to_string())
                };
                ExprKind::Field(Box::new(lhs), field, fspan)
            }
            _ => return Err(unexpected(&op)),
        };
        Ok(Expr { kind, span })
    }

    fn primary(&self, pair: Pair<'_, Rule>) -> DiagResult<Expr> {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::int => {
                let digits = pair.as_str().replace('_', "");
                match digits.parse::<i64>() {
                    Ok(n) => ExprKind::Int(n),
                    Err(_) => {
                        return Err(Box::new(
                            Diag::error(Code::SyntaxIntOverflow, "integer literal is too large")
                                .label(span, "does not fit in 64 bits")
                                .help(format!("integers range from {} to {}", i64::MIN, i64::MAX)),
                        ))
                    }
                }
            }
            Rule::string => ExprKind::Str(self.string_value(pair)?),
            Rule::kw_true => ExprKind::Bool(true),
            Rule::kw_false => ExprKind::Bool(false),
            Rule::kw_none => ExprKind::None,
            Rule::ident => ExprKind::Name(pair.as_str().to_string()),
            Rule::star => match pair.into_inner().next() {
                None => ExprKind::Star(None),
                Some(p) if p.as_rule() == Rule::int => {
                    ExprKind::Star(Some(Box::new(self.primary(p)?)))
                }
                Some(p) => {
                    let inner = next(&mut p.into_inner())?;
                    ExprKind::Star(Some(Box::new(self.expr(inner)?)))
                }
            },
            Rule::ups => ExprKind::Ups(pair.as_str().to_string()),
            Rule::if_expr => {
                let mut inner = pair.into_inner();
                let _if = next(&mut inner)?;
                let cond = self.expr(next(&mut inner)?)?;
                let _then = next(&mut inner)?;
                let then = self.expr(next(&mut inner)?)?;
                let _else = next(&mut inner)?;
                let otherwise = self.expr(next(&mut inner)?)?;
                ExprKind::If(Box::new(cond), Box::new(then), Box::new(otherwise))
            }
            Rule::quantifier => {
                let mut inner = pair.into_inner();
                let kw = next(&mut inner)?;
                let quantifier = if kw.as_rule() == Rule::kw_forall {
                    Quantifier::Forall
                } else {
                    Quantifier::Exists
                };
                let mut gens = Vec::new();
                let mut clauses = Vec::new();
                let mut body = None;
                for p in inner {
                    match p.as_rule() {
                        Rule::generator => gens.push(self.generator(p)?),
                        Rule::comp_if => {
                            clauses.push(CompClause::For(std::mem::take(&mut gens)));
                            clauses.push(self.comp_clause(p)?);
                        }
                        _ => body = Some(self.expr(p)?),
                    }
                }
                if !gens.is_empty() {
                    clauses.push(CompClause::For(gens));
                }
                let body =
                    body.ok_or_else(|| Box::new(Diag::internal("quantifier without body")))?;
                ExprKind::Quantified(quantifier, clauses, Box::new(body))
            }
            Rule::paren_expr => {
                let mut exprs = Vec::new();
                let mut commas = 0;
                for p in pair.into_inner() {
                    if p.as_rule() == Rule::tuple_comma {
                        commas += 1;
                    } else {
                        exprs.push(self.expr(p)?);
                    }
                }
                if exprs.len() == 1 && commas == 0 {
                    let mut inner = exprs
                        .pop()
                        .ok_or_else(|| Box::new(Diag::internal("empty paren")))?;
                    inner.span = span;
                    return Ok(inner);
                }
                ExprKind::Tuple(exprs)
            }
            Rule::set_expr
                if pair
                    .clone()
                    .into_inner()
                    .any(|p| p.as_rule() == Rule::game_bar) =>
            {
                let mut items = Vec::new();
                for p in pair.into_inner() {
                    items.push(if p.as_rule() == Rule::game_bar {
                        BraceItem::Bars(p.as_str().len(), self.span(&p))
                    } else {
                        BraceItem::Option(self.expr(p)?)
                    });
                }
                return game_literal(items, span);
            }
            Rule::list_expr | Rule::set_expr => {
                let is_list = pair.as_rule() == Rule::list_expr;
                let pairs: Vec<Pair<'_, Rule>> = pair.into_inner().collect();
                match pairs.as_slice() {
                    [first, tail] if tail.as_rule() == Rule::repeat_tail => {
                        let value = self.expr(first.clone())?;
                        let count = self.expr(next(&mut tail.clone().into_inner())?)?;
                        ExprKind::Repeat(Box::new(value), Box::new(count))
                    }
                    [first, tail] if tail.as_rule() == Rule::generator_tail => {
                        let body = Box::new(self.expr(first.clone())?);
                        let clauses = self.comp_clauses(tail.clone().into_inner())?;
                        if is_list {
                            ExprKind::ListComp(body, clauses)
                        } else {
                            ExprKind::SetComp(body, clauses)
                        }
                    }
                    _ => {
                        let items = pairs
                            .into_iter()
                            .map(|p| self.expr(p))
                            .collect::<DiagResult<_>>()?;
                        if is_list {
                            ExprKind::List(items)
                        } else {
                            ExprKind::Set(items)
                        }
                    }
                }
            }
            _ => return Err(unexpected(&pair)),
        };
        Ok(Expr { kind, span })
    }
}

/// An element of a game literal's braces: an option or a run of bars.
enum BraceItem {
    Option(Expr),
    Bars(usize, Span),
}

/// The game of a brace body with bars, split as CGSuite does at its one longest run of bars:
/// `{a || b | c}` is `{a | {b | c}}`; a side with bars in it is one nested game.
fn game_literal(mut items: Vec<BraceItem>, span: Span) -> DiagResult<Expr> {
    let longest = items
        .iter()
        .filter_map(|i| match i {
            BraceItem::Bars(n, _) => Some(*n),
            BraceItem::Option(_) => None,
        })
        .max()
        .unwrap_or(0);
    let splits: Vec<(usize, Span)> = items
        .iter()
        .enumerate()
        .filter_map(|(k, i)| match i {
            BraceItem::Bars(n, s) if *n == longest => Some((k, *s)),
            _ => None,
        })
        .collect();
    let (at, _) = match splits.as_slice() {
        [one] => *one,
        _ => {
            let bars = "|".repeat(longest);
            let mut d = Diag::error(
                Code::SyntaxGameBars,
                format!("`{bars}` appears more than once at the same level of a game"),
            );
            for (_, s) in &splits {
                d = d.label(*s, "here");
            }
            return Err(Box::new(d.help(format!(
                "one run of bars splits a game into Left and Right; write the nested games in \
                 braces, e.g. `{{a {bars} {{b {bars} c}}}}`"
            ))));
        }
    };
    let right = items.split_off(at + 1);
    items.pop();
    let side = |part: Vec<BraceItem>| -> DiagResult<Vec<Expr>> {
        if part.iter().any(|i| matches!(i, BraceItem::Bars(..))) {
            let item_span = |i: &BraceItem| match i {
                BraceItem::Option(e) => e.span,
                BraceItem::Bars(_, s) => *s,
            };
            let start = part.first().map(item_span);
            let end = part.last().map(item_span);
            let inner = match (start, end) {
                (Some(a), Some(b)) => a.to(b),
                _ => span,
            };
            Ok(vec![game_literal(part, inner)?])
        } else {
            Ok(part
                .into_iter()
                .filter_map(|i| match i {
                    BraceItem::Option(e) => Some(e),
                    BraceItem::Bars(..) => None,
                })
                .collect())
        }
    };
    let left = side(items)?;
    let right = side(right)?;
    Ok(Expr {
        kind: ExprKind::GameLit(left, right),
        span,
    })
}

pub(super) fn binary_op(rule: Rule) -> Option<BinaryOp> {
    Some(match rule {
        Rule::or_op => BinaryOp::Or,
        Rule::and_op => BinaryOp::And,
        Rule::in_op => BinaryOp::In,
        Rule::not_in_op => BinaryOp::NotIn,
        Rule::is_op => BinaryOp::Is,
        Rule::eq_op => BinaryOp::Eq,
        Rule::ne_op => BinaryOp::Ne,
        Rule::lt_op => BinaryOp::Lt,
        Rule::le_op => BinaryOp::Le,
        Rule::gt_op => BinaryOp::Gt,
        Rule::ge_op => BinaryOp::Ge,
        Rule::range_op => BinaryOp::Range,
        Rule::range_incl_op => BinaryOp::RangeIncl,
        Rule::bitor_op => BinaryOp::BitOr,
        Rule::xor_op => BinaryOp::Xor,
        Rule::bitand_op => BinaryOp::BitAnd,
        Rule::add_op => BinaryOp::Add,
        Rule::sub_op => BinaryOp::Sub,
        Rule::mul_op => BinaryOp::Mul,
        Rule::div_op => BinaryOp::Div,
        Rule::floor_div_op => BinaryOp::FloorDiv,
        Rule::rem_op => BinaryOp::Rem,
        Rule::pow_op => BinaryOp::Pow,
        _ => return None,
    })
}
