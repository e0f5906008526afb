//! The formatter's tokens: the light lexer's tokens ([`crate::syntax::lex`], comments
//! included) with its operator runs cut into the grammar's operators (`..=`, `**`, `==`, a run
//! of bars, ...), game values (`*`, `*3`, `^3*2`, `↑`) made whole tokens where the AST says
//! they are, and each token's role: what it is in the structure of the file (an item's or
//! clause's first token, a game's braces) and what decides the blanks around it (a keyword,
//! a prefix operator, a call's parenthesis). Every token of the text is here once, in order:
//! the formatter changes only the blanks between them.

use std::collections::BTreeMap;

use crate::syntax::lex::{is_keyword, Lexer, Tok};

/// What kind of text a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Class {
    /// A name, number or keyword.
    Word,
    /// A string literal.
    Str,
    /// `(`, `[`, `{`.
    Open,
    /// `)`, `]`, `}`.
    Close,
    /// An operator or punctuation: `+`, `..=`, `,`, `:`, a run of bars.
    Op,
    /// A game value the grammar reads as one token: `*`, `*3`, `^`, `^3*2`, `↑`.
    Atom,
    /// `±`, or any other character.
    Other,
    /// `// ...` to the end of its line.
    LineComment,
    /// `/* ... */`.
    BlockComment,
}

/// A token's place in the structure of the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Structure {
    /// Inside an item or clause.
    #[default]
    Inside,
    /// The first token of a top-level item (`game` says whether it defines a game).
    Item {
        /// A `game` definition.
        game: bool,
    },
    /// The first token of a clause of a game body.
    Clause,
    /// The `{` of a game body.
    GameOpen,
    /// The `}` of a game body.
    GameClose,
    /// A game's name, or the `(` of its parameters: kept on the line of `game`.
    Header,
}

/// A game value that is one token, found in the AST.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AtomKind {
    /// `*` alone: a `(` after it is a call of `*`, so a blank stays between them.
    BareStar,
    /// The `*` of `*(e)`, written against its parenthesis.
    StarParen,
    /// `*3`, `^`, `^^*`, `^3*2`, `↑`, ...
    Whole,
}

/// A token with its role.
#[derive(Clone, Debug)]
pub(super) struct Token {
    pub class: Class,
    pub start: usize,
    pub end: usize,
    /// Line breaks between the end of the token before (or the start of the text) and this one.
    pub breaks: usize,
    pub structure: Structure,
    /// A word that is a keyword here: a reserved word (not `true`, `false`, `none`, nor a
    /// field's name), or the contextual keyword of a clause (`position`, `left move`).
    pub keyword: bool,
    /// A prefix operator: `-`, `+-`, `±` before an operand (`not` is a keyword).
    pub prefix: bool,
    /// The `(` or `[` of a call, an index, a variant or a parameter list, after what it
    /// applies to.
    pub postfix: bool,
    /// A game value token's kind.
    pub atom: Option<AtomKind>,
    /// The `/` of a fraction of two numbers, `1/2`, written without blanks as CGSuite writes
    /// game values.
    pub fraction: bool,
}

impl Token {
    /// The token's text.
    pub fn text<'t>(&self, text: &'t str) -> &'t str {
        &text[self.start..self.end]
    }

    /// Whether it is a comment.
    pub fn is_comment(&self) -> bool {
        matches!(self.class, Class::LineComment | Class::BlockComment)
    }

    /// Whether an operand can end with it, so that a `-` after it subtracts and a `(` after
    /// it calls.
    fn ends_operand(&self) -> bool {
        match self.class {
            Class::Word => !self.keyword,
            Class::Str | Class::Close | Class::Atom => true,
            _ => false,
        }
    }
}

/// The grammar's operators of more than one character, longest first where one begins
/// another. A `+` followed by `-` stays two tokens here; before an operand they are joined
/// into the switch `+-` (see [`roles`]).
const OPERATORS: &[&str] = &["..=", "..", "**", "==", "!=", "<=", ">="];

/// The tokens of `text` (which parses), comments included, with the atoms of `atoms` (their
/// start, end and kind) as single tokens. Roles other than the atoms' are left unset.
pub(super) fn tokens(text: &str, atoms: &BTreeMap<usize, (usize, AtomKind)>) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::new();
    let mut pos = 0;
    let mut push = |class: Class, start: usize, end: usize, pos: &mut usize| {
        let atom = atoms.get(&start).map(|(_, kind)| *kind);
        out.push(Token {
            class,
            start,
            end,
            breaks: text[*pos..start].matches('\n').count(),
            structure: Structure::Inside,
            keyword: false,
            prefix: false,
            postfix: false,
            atom: atom.filter(|_| class == Class::Atom),
            fraction: false,
        });
        *pos = end;
    };
    for t in Lexer::with_comments(text) {
        if t.end <= pos {
            continue;
        }
        let start = t.start.max(pos);
        match t.kind {
            Tok::Punct | Tok::Other => {
                let mut j = start;
                while j < t.end {
                    if let Some(&(end, _)) = atoms.get(&j) {
                        push(Class::Atom, j, end, &mut pos);
                        j = end;
                        continue;
                    }
                    let rest = &text[j..t.end];
                    let len = if rest.starts_with('|') {
                        rest.bytes().take_while(|b| *b == b'|').count()
                    } else {
                        OPERATORS
                            .iter()
                            .find(|op| rest.starts_with(**op))
                            .map_or_else(
                                || rest.chars().next().map_or(1, char::len_utf8),
                                |op| op.len(),
                            )
                    };
                    let class = if rest.is_ascii() {
                        Class::Op
                    } else {
                        Class::Other
                    };
                    push(class, j, j + len, &mut pos);
                    j += len;
                }
            }
            kind => {
                let class = match kind {
                    Tok::Word => Class::Word,
                    Tok::Str | Tok::UnclosedStr => Class::Str,
                    Tok::Open => Class::Open,
                    Tok::Close => Class::Close,
                    Tok::Comment if text[start..].starts_with("//") => Class::LineComment,
                    Tok::Comment => Class::BlockComment,
                    Tok::Punct | Tok::Other => Class::Op,
                };
                push(class, start, t.end, &mut pos);
            }
        }
    }
    out
}

/// Sets the roles that follow from the tokens themselves, once the structure's (items,
/// clauses, clause keywords) are set: keywords, prefix operators (an operator where an
/// operand begins), postfix brackets (a bracket right after an operand), fractions (a `/`
/// between two numbers, comments not between them). Joins a `+` and the `-` right after it,
/// before an operand, into the switch `+-`.
pub(super) fn roles(text: &str, tokens: &mut Vec<Token>) {
    let mut k = 0;
    let mut prev: Option<usize> = None;
    // The `-` of each `+-`, joined to its `+`.
    let mut joined = vec![false; tokens.len()];
    while k < tokens.len() {
        if tokens[k].is_comment() {
            k += 1;
            continue;
        }
        let after_operand = prev.is_some_and(|p| tokens[p].ends_operand());
        let after_dot = prev.is_some_and(|p| tokens[p].text(text) == ".");
        let t = &mut tokens[k];
        let word = &text[t.start..t.end];
        match t.class {
            Class::Word => {
                let reserved = is_keyword(word) && !matches!(word, "true" | "false" | "none");
                t.keyword = !after_dot && (t.keyword || reserved);
            }
            Class::Op if !after_operand && matches!(word, "-" | "+") => t.prefix = true,
            Class::Other if !after_operand && word == "±" => t.prefix = true,
            Class::Open if after_operand && matches!(word, "(" | "[") => t.postfix = true,
            _ => {}
        }
        if t.prefix && word == "+" {
            let end = t.end;
            if let Some(minus) = tokens.get(k + 1).filter(|m| m.start == end) {
                let minus_end = minus.end;
                tokens[k].end = minus_end;
                joined[k + 1] = true;
                prev = Some(k);
                k += 2;
                continue;
            }
        }
        prev = Some(k);
        k += 1;
    }
    let mut keep = joined.iter().map(|j| !j);
    tokens.retain(|_| keep.next().unwrap_or(true));
    let number = |t: Option<&Token>| {
        t.is_some_and(|t| {
            t.class == Class::Word && t.text(text).starts_with(|c: char| c.is_ascii_digit())
        })
    };
    for k in 1..tokens.len() {
        if tokens[k].text(text) == "/" && number(tokens.get(k - 1)) && number(tokens.get(k + 1)) {
            tokens[k].fraction = true;
        }
    }
}

/// The position of the first character of what starts at `at` once blanks, comments and
/// opening parentheses are skipped: where an expression's own text begins when its span
/// includes the parentheses that group it.
pub(super) fn after_open_parens(text: &str, mut at: usize) -> usize {
    let bytes = text.as_bytes();
    while at < bytes.len() {
        match bytes[at] {
            b' ' | b'\t' | b'\r' | b'\n' | b'(' => at += 1,
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                at = text[at..].find('\n').map_or(bytes.len(), |n| at + n);
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => {
                at = text[at + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |n| at + 2 + n + 2);
            }
            _ => break,
        }
    }
    at
}
