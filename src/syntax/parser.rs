//! The pest parser and the conversion of its pairs into the AST.
//!
//! Each `*_node` function takes a pair of one known rule; the grammar guarantees the shape of
//! its children, so a mismatch is a bug in cgl and becomes an internal diagnostic, never a panic.

use std::sync::LazyLock;

use pest::error::InputLocation;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser as _;

use super::ast::*;
use crate::diag::{Diag, DiagResult, FileId, Span};

#[derive(pest_derive::Parser)]
#[grammar = "grammar/cgl.pest"]
struct CglParser;

/// Brackets nested deeper than this are refused before pest sees the text, so that deeply
/// nested input is a diagnostic and never a stack overflow.
const MAX_NESTING: usize = 200;

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
        .op(Op::infix(Rule::mul_op, Assoc::Left)
            | Op::infix(Rule::div_op, Assoc::Left)
            | Op::infix(Rule::rem_op, Assoc::Left))
        .op(Op::prefix(Rule::neg))
        .op(Op::infix(Rule::pow_op, Assoc::Right))
        .op(Op::postfix(Rule::call_args)
            | Op::postfix(Rule::bracket_args)
            | Op::postfix(Rule::field))
});

/// Parses a whole `.game` file.
pub fn parse_file(file: FileId, text: &str) -> DiagResult<File> {
    check_nesting(file, text)?;
    let mut pairs = CglParser::parse(Rule::file, text).map_err(|e| syntax_error(file, text, e))?;
    let ctx = Ctx { file };
    let file_pair = next(&mut pairs)?;
    let mut items = Vec::new();
    for pair in file_pair.into_inner() {
        if pair.as_rule() == Rule::EOI {
            break;
        }
        check_operator_depth(file, &pair)?;
        items.push(ctx.item(pair)?);
    }
    Ok(File { items })
}

/// Parses one expression (the argument of `cgl eval`, a REPL line).
pub fn parse_expr(file: FileId, text: &str) -> DiagResult<Expr> {
    check_nesting(file, text)?;
    let mut pairs =
        CglParser::parse(Rule::expr_input, text).map_err(|e| syntax_error(file, text, e))?;
    let ctx = Ctx { file };
    let input = next(&mut pairs)?;
    check_operator_depth(file, &input)?;
    let mut inner = input.into_inner();
    ctx.expr(next(&mut inner)?)
}

/// Operators chained without brackets (`not not ... x`, `1 + 1 + ...`) nest the expression
/// tree as deeply as brackets do, and every later stage recurses over that tree.
const MAX_OPERATOR_DEPTH: usize = 10_000;

/// Refuses a statement whose expressions nest deeper than [`MAX_OPERATOR_DEPTH`], counting
/// each chained operator as one level; recursion here follows the pairs, which the bracket
/// limit bounds.
fn check_operator_depth(file: FileId, item: &Pair<'_, Rule>) -> DiagResult<()> {
    fn depth(pair: &Pair<'_, Rule>) -> usize {
        let mut operators = 0;
        let mut deepest = 0;
        for child in pair.clone().into_inner() {
            if binary_op(child.as_rule()).is_some()
                || matches!(
                    child.as_rule(),
                    Rule::neg | Rule::not_op | Rule::if_expr | Rule::quantifier
                )
            {
                operators += 1;
            }
            deepest = deepest.max(depth(&child));
        }
        operators + deepest
    }
    let found = depth(item);
    if found > MAX_OPERATOR_DEPTH {
        let span = item.as_span();
        let start = span.start();
        let end = (start + 1).min(span.end());
        return Err(Box::new(
            Diag::error(
                "cgl::syntax::too_deep",
                format!("an expression is nested {found} operators deep"),
            )
            .label(Span::new(file, start, end), "in this statement")
            .help(format!(
                "cgl accepts at most {MAX_OPERATOR_DEPTH} chained operators in one statement; \
                 build long expressions with comprehensions (`sum(...)`, `all(...)`) or functions"
            )),
        ));
    }
    Ok(())
}

/// Checks the brackets before pest runs: too deep a nesting, a closing bracket that does not
/// match, and a bracket never closed each get a diagnostic that points at the bracket, which
/// reads better than pest's list of what else could have come. Strings and comments are
/// skipped.
fn check_nesting(file: FileId, text: &str) -> DiagResult<()> {
    let bytes = text.as_bytes();
    let mut open: Vec<(u8, usize)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let opened = i;
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                if i >= bytes.len() {
                    return Err(Box::new(
                        Diag::error("cgl::syntax::unterminated", "unterminated comment")
                            .label(
                                Span::new(file, opened, opened + 2),
                                "this comment never ends",
                            )
                            .help("close it with `*/`"),
                    ));
                }
                i += 1;
            }
            b'"' => {
                let opened = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                if i >= bytes.len() || bytes[i] != b'"' {
                    return Err(Box::new(
                        Diag::error("cgl::syntax::unterminated", "unterminated string")
                            .label(
                                Span::new(file, opened, opened + 1),
                                "this string never ends",
                            )
                            .help("close it with `\"` on the same line"),
                    ));
                }
            }
            c @ (b'(' | b'[' | b'{') => {
                open.push((c, i));
                if open.len() > MAX_NESTING {
                    return Err(Box::new(
                        Diag::error("cgl::syntax::too_deep", "brackets are nested too deeply")
                            .label(Span::new(file, i, i + 1), "nesting limit reached here")
                            .help(format!(
                                "cgl accepts at most {MAX_NESTING} nested brackets; \
                                 name the inner parts with `const` or `fn`"
                            )),
                    ));
                }
            }
            c @ (b')' | b']' | b'}') => {
                let want = match c {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                match open.pop() {
                    Some((o, _)) if o == want => {}
                    Some((o, at)) => {
                        return Err(Box::new(
                            Diag::error(
                                "cgl::syntax::unbalanced",
                                format!("`{}` does not close `{}`", c as char, o as char),
                            )
                            .label(Span::new(file, i, i + 1), "this bracket")
                            .label(Span::new(file, at, at + 1), "closes this one")
                            .help(format!(
                                "close `{}` with `{}` first",
                                o as char,
                                closing(o)
                            )),
                        ))
                    }
                    None => {
                        return Err(Box::new(
                            Diag::error(
                                "cgl::syntax::unbalanced",
                                format!("`{}` closes nothing", c as char),
                            )
                            .label(Span::new(file, i, i + 1), "no bracket is open here")
                            .help("remove it, or add the opening bracket it belongs to"),
                        ))
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    if let Some((o, at)) = open.pop() {
        return Err(Box::new(
            Diag::error(
                "cgl::syntax::unbalanced",
                format!("`{}` is never closed", o as char),
            )
            .label(Span::new(file, at, at + 1), "opened here")
            .help(format!("add `{}` where it should end", closing(o))),
        ));
    }
    Ok(())
}

fn closing(open: u8) -> char {
    match open {
        b'(' => ')',
        b'[' => ']',
        _ => '}',
    }
}

#[cold]
fn syntax_error(file: FileId, text: &str, error: pest::error::Error<Rule>) -> Box<Diag> {
    let text_len = text.len();
    let (start, end) = match error.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((s, e)) => (s, e),
    };
    let expected = match &error.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<&str> = positives.iter().filter_map(|r| describe(*r)).collect();
            // Everything that can start an expression reads better as one word.
            const STARTS_EXPRESSION: &[&str] = &[
                "`if`",
                "`none`",
                "`not`",
                "a boolean",
                "a name",
                "a number",
                "a string",
                "`forall`",
                "`exists`",
            ];
            if names.contains(&"an expression") || names.contains(&"a number") {
                names.retain(|n| !STARTS_EXPRESSION.contains(n));
                names.push("an expression");
            }
            // Likewise every way an expression can continue.
            const CONTINUES_EXPRESSION: &[&str] = &[
                "`(`", "`.`", "`[`", "`and`", "`in`", "`is`", "`not`", "`or`",
            ];
            if names.contains(&"an operator") {
                names.retain(|n| !CONTINUES_EXPRESSION.contains(n));
            }
            names.sort_unstable();
            names.dedup();
            names
        }
        pest::error::ErrorVariant::CustomError { .. } => Vec::new(),
    };
    let bad_char = text
        .get(start..)
        .and_then(|t| t.chars().next())
        .filter(|c| !is_cgl_char(*c));
    let message = if let Some(c) = bad_char {
        format!("unexpected character `{c}`")
    } else if expected.is_empty() {
        "syntax error".to_string()
    } else {
        format!("syntax error: expected {}", join_or(&expected))
    };
    // Give the label a width, so it is drawn: the character at the error, or the last one
    // when the error is at the end of the input.
    let (start, end, what) = if end > start {
        (start, end, "unexpected here")
    } else if start < text_len {
        let width = text
            .get(start..)
            .and_then(|t| t.chars().next())
            .map_or(1, char::len_utf8);
        (start, start + width, "unexpected here")
    } else {
        let last = text.char_indices().last().map_or(0, |(i, _)| i);
        (last, text_len, "the input ends here")
    };
    Box::new(
        Diag::error("cgl::syntax::unexpected", message)
            .label(Span::new(file, start, end), what)
            .help(match bad_char {
                Some(c) if c.is_alphabetic() => {
                    "names use ASCII letters, digits and `_` only".to_string()
                }
                Some(_) => "remove it; spec/language.md lists the operators cgl knows".to_string(),
                None => syntax_help(text, start, &expected),
            }),
    )
}

/// Keywords that can never be names.
const KEYWORDS: &[&str] = &[
    "game", "fn", "const", "import", "expect", "print", "show", "if", "then", "else", "for", "in",
    "not", "and", "or", "forall", "exists", "true", "false", "none", "is",
];

/// Words that open game clauses.
const CLAUSE_WORDS: &[&str] = &[
    "position", "move", "start", "terminal", "draw", "play", "compound", "left", "right", "loopy",
];

/// Characters that can appear in cgl outside strings and comments.
fn is_cgl_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c.is_whitespace() || "_()[]{},;:.+-*/%^&|<>=!\"".contains(c)
}

/// The word starting at `pos`, if any.
fn word_at(text: &str, pos: usize) -> &str {
    let rest = text.get(pos..).unwrap_or("");
    let len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    &rest[..len]
}

fn syntax_help(text: &str, pos: usize, expected: &[&str]) -> String {
    let word = word_at(text, pos);
    let rest = text.get(pos..).unwrap_or("");
    if KEYWORDS.contains(&word) && expected.contains(&"a name") {
        return format!("`{word}` is a keyword and cannot be used as a name; choose another name");
    }
    if expected.contains(&"a game clause") {
        if let Some(s) = crate::diag::did_you_mean(word, CLAUSE_WORDS.iter().copied()) {
            return format!("did you mean `{s}`?");
        }
        return "a game body holds `position`, `move`, `start`, `terminal if`, `draw if`, \
                `compound`, `play` and `loopy` clauses"
            .to_string();
    }
    if rest.starts_with('=') && !rest.starts_with("==") {
        return "to compare two values write `==`; a single `=` only gives a value in `const`, \
                defaults and variants"
            .to_string();
    }
    if !word.is_empty() && expected.contains(&"a statement") {
        if let Some(s) = crate::diag::did_you_mean(word, KEYWORDS.iter().copied()) {
            return format!(
                "did you mean `{s}`? A file holds `game`, `fn`, `const`, `expect`, \
                            `print` and `import` statements"
            );
        }
    }
    "see spec/language.md for the syntax of each statement".to_string()
}

fn join_or(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

/// A readable name for each rule that can appear in "expected ..." (None: not worth naming).
/// Exhaustive on purpose: a new grammar rule does not compile until it is named here.
fn describe(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "end of input",
        Rule::WHITESPACE | Rule::COMMENT | Rule::ident_char | Rule::keyword => return None,
        Rule::game_clause => "a game clause",
        Rule::prefix_op | Rule::primary | Rule::literal => "an expression",
        Rule::infix_op => "an operator",
        Rule::postfix_op => "`(`, `[` or `.`",
        Rule::ident | Rule::field_name => "a name",
        Rule::int => "a number",
        Rule::string | Rule::string_inner => "a string",
        Rule::kw_game => "a statement",
        Rule::kw_fn => "a statement",
        Rule::kw_const => "a statement",
        Rule::kw_import => "a statement",
        Rule::kw_expect => "a statement",
        Rule::kw_print => "a statement",
        Rule::kw_if => "`if`",
        Rule::kw_then => "`then`",
        Rule::kw_else => "`else`",
        Rule::kw_for => "`for`",
        Rule::kw_in => "`in`",
        Rule::kw_not => "`not`",
        Rule::kw_and | Rule::and_op => "`and`",
        Rule::kw_or | Rule::or_op => "`or`",
        Rule::kw_is | Rule::is_op => "`is`",
        Rule::kw_forall => "`forall`",
        Rule::kw_exists => "`exists`",
        Rule::kw_true | Rule::kw_false => "a boolean",
        Rule::kw_none => "`none`",
        Rule::kw_position | Rule::position_clause => "a game clause",
        Rule::kw_move | Rule::move_clause => "a game clause",
        Rule::kw_start | Rule::start_clause => "a game clause",
        Rule::kw_terminal | Rule::terminal_clause => "a game clause",
        Rule::kw_draw | Rule::draw_clause => "a game clause",
        Rule::kw_play | Rule::play_clause => "a game clause",
        Rule::kw_loopy | Rule::loopy_clause => "a game clause",
        Rule::kw_compound | Rule::compound_clause => "a game clause",
        Rule::kw_left | Rule::kw_right | Rule::side => "a game clause",
        Rule::kw_misere | Rule::kw_normal | Rule::convention => "`misere` or `normal`",
        Rule::file | Rule::item => "a statement",
        Rule::import_item
        | Rule::const_item
        | Rule::fn_item
        | Rule::expect_item
        | Rule::print_item
        | Rule::game_item => "a statement",
        Rule::expr_input | Rule::expr | Rule::paren_expr | Rule::if_expr | Rule::quantifier => {
            "an expression"
        }
        Rule::list_expr | Rule::set_expr => "an expression",
        Rule::fn_params | Rule::game_params | Rule::game_param => "a parameter",
        Rule::position_pattern | Rule::position_fields | Rule::position_field => "a pattern",
        Rule::pattern | Rule::tuple_pattern | Rule::wildcard => "a pattern",
        Rule::neg | Rule::not_op => "an expression",
        Rule::not_in_op | Rule::in_op => "an operator",
        Rule::eq_op | Rule::ne_op | Rule::le_op | Rule::ge_op | Rule::lt_op | Rule::gt_op => {
            "an operator"
        }
        Rule::range_incl_op | Rule::range_op | Rule::pow_op | Rule::bitor_op | Rule::xor_op => {
            "an operator"
        }
        Rule::bitand_op | Rule::add_op | Rule::sub_op | Rule::mul_op | Rule::div_op => {
            "an operator"
        }
        Rule::rem_op => "an operator",
        Rule::call_args => "`(`",
        Rule::generator_tail => "`for`",
        Rule::bracket_args | Rule::bracket_arg | Rule::named_arg => "`[`",
        Rule::field => "`.`",
        Rule::tuple_comma => "`,`",
        Rule::repeat_tail => "`;`",
        Rule::comp_for => "`for`",
        Rule::comp_if => "`if`",
        Rule::generator => "a generator (`x in xs`)",
    })
}

fn next<'i>(pairs: &mut Pairs<'i, Rule>) -> DiagResult<Pair<'i, Rule>> {
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

struct Ctx {
    file: FileId,
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
        Span::new(self.file, s.start(), end)
    }

    fn ident(&self, pair: Pair<'_, Rule>) -> Ident {
        Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        }
    }

    fn item(&self, pair: Pair<'_, Rule>) -> DiagResult<Item> {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut inner = pair.into_inner();
        let _keyword = next(&mut inner)?;
        Ok(match rule {
            Rule::import_item => {
                let string = next(&mut inner)?;
                Item::Import {
                    path: self.string_value(string)?,
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
            Rule::expect_item => Item::Expect {
                expr: self.expr(next(&mut inner)?)?,
                span,
            },
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
                        Diag::error("cgl::syntax::bad_escape", "unknown escape in string")
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

    fn expr(&self, pair: Pair<'_, Rule>) -> DiagResult<Expr> {
        debug_assert_eq!(pair.as_rule(), Rule::expr);
        PRATT
            .map_primary(|p| self.primary(p))
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let span = self.span(&op).to(rhs.span);
                let op = if op.as_rule() == Rule::neg {
                    UnaryOp::Neg
                } else {
                    UnaryOp::Not
                };
                // Fold `-<literal>` into a literal.
                if let (UnaryOp::Neg, ExprKind::Int(n)) = (op, &rhs.kind) {
                    return Ok(Expr {
                        kind: ExprKind::Int(-n),
                        span,
                    });
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
                let op = binary_op(op.as_rule()).ok_or_else(|| unexpected(&op))?;
                Ok(Expr {
                    kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                    span,
                })
            })
            .parse(pair.into_inner())
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
                            Diag::error("cgl::syntax::bad_field", "tuple field index is too large")
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
                            Diag::error(
                                "cgl::syntax::int_overflow",
                                "integer literal is too large",
                            )
                            .label(span, "does not fit in 64 bits")
                            .help(format!(
                                "integers range from {} to {}",
                                i64::MIN,
                                i64::MAX
                            )),
                        ))
                    }
                }
            }
            Rule::string => ExprKind::Str(self.string_value(pair)?),
            Rule::kw_true => ExprKind::Bool(true),
            Rule::kw_false => ExprKind::Bool(false),
            Rule::kw_none => ExprKind::None,
            Rule::ident => ExprKind::Name(pair.as_str().to_string()),
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

fn binary_op(rule: Rule) -> Option<BinaryOp> {
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
        Rule::rem_op => BinaryOp::Rem,
        Rule::pow_op => BinaryOp::Pow,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
