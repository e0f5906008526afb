//! Pest's errors as diagnostics: what was expected, in words ([`describe`] names every grammar
//! rule), and a help that guesses what was meant.
//!
//! `describe` is an exhaustive match over the grammar's rules, so a new rule does not compile
//! until it has a readable name.

use pest::error::InputLocation;

use super::Rule;
use crate::diag::{Code, Diag, FileId, Span};
use crate::syntax::lex::KEYWORDS;

#[cold]
pub(super) fn syntax_error(file: FileId, text: &str, error: pest::error::Error<Rule>) -> Box<Diag> {
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
        Diag::error(Code::SyntaxUnexpected, message)
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

/// Words that open game clauses.
const CLAUSE_WORDS: &[&str] = &[
    "position", "move", "start", "terminal", "draw", "play", "compound", "left", "right", "loopy",
    "player", "payoff", "table", "show",
];

/// Characters that can appear in cgl outside strings and comments.
fn is_cgl_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c.is_whitespace() || "_()[]{},;:.+-*/%^&|<>=!\"↑↓⇑⇓±".contains(c)
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
                `compound`, `play`, `loopy`, `payoff` and `show` clauses (a strategic game: \
                `player` clauses, then `payoff` or `table`)"
            .to_string();
    }
    if let Some(help) = other_language_operator(text, pos) {
        return help.to_string();
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

/// The help for an operator of C-like languages at `pos` (`&&`, `||`, `!`), which cgl writes
/// as a word. The parser stops at the second character of `&&` and `||` (the first is cgl's
/// integer and/or), and at `!` itself.
fn other_language_operator(text: &str, pos: usize) -> Option<&'static str> {
    let rest = text.get(pos..).unwrap_or("");
    let before = text.get(..pos).unwrap_or("");
    let doubled = |c: char| {
        rest.starts_with(c) && (before.ends_with(c) || rest[c.len_utf8()..].starts_with(c))
    };
    if doubled('&') {
        Some("cgl writes `and` for `&&`: `a and b` (a single `&` is integer and, set intersection and the conjunctive compound)")
    } else if doubled('|') {
        Some("cgl writes `or` for `||`: `a or b` (a single `|` is integer or, set union and the selective compound)")
    } else if rest.starts_with('!') && !rest.starts_with("!=") {
        Some("cgl writes `not` for `!`: `not a` (and `!=` for \"not equal\")")
    } else {
        None
    }
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
        Rule::kw_div | Rule::floor_div_op => "an operator",
        Rule::kw_forall => "`forall`",
        Rule::kw_exists => "`exists`",
        Rule::kw_true | Rule::kw_false => "a boolean",
        Rule::kw_none => "`none`",
        Rule::kw_points | Rule::kw_hide | Rule::expect_grade => "`points`",
        Rule::kw_position | Rule::position_clause => "a game clause",
        Rule::kw_move | Rule::move_clause => "a game clause",
        Rule::kw_start | Rule::start_clause => "a game clause",
        Rule::kw_terminal | Rule::terminal_clause => "a game clause",
        Rule::kw_draw | Rule::draw_clause => "a game clause",
        Rule::kw_play | Rule::play_clause => "a game clause",
        Rule::kw_loopy | Rule::loopy_clause => "a game clause",
        Rule::kw_player | Rule::player_clause => "a game clause",
        Rule::kw_payoff | Rule::payoff_clause => "a game clause",
        Rule::kw_table | Rule::table_clause => "a game clause",
        Rule::kw_show | Rule::show_clause => "a game clause",
        Rule::kw_compound | Rule::compound_clause => "a game clause",
        Rule::kw_left | Rule::kw_right | Rule::side => "a game clause",
        Rule::kw_misere | Rule::kw_normal | Rule::convention => "`misere` or `normal`",
        Rule::file | Rule::item => "a statement",
        Rule::import_as | Rule::as_word => "`as` and a name",
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
        Rule::neg | Rule::not_op | Rule::switch_op => "an expression",
        Rule::star | Rule::star_paren | Rule::ups => "an expression",
        Rule::game_bar => "`|`",
        Rule::brace_item | Rule::brace_after | Rule::game_rest | Rule::brace_infix => {
            "an expression"
        }
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
