//! The language's words and a light lexer: just enough to find brackets, strings, comments,
//! words and operator runs without parsing. It never fails. The parser's precheck counts
//! brackets with it before pest runs, the REPL uses it to tell a finished entry from an
//! unfinished one, to read meta-commands and to complete names, and the formatter
//! (`syntax::format`) reads the comments it yields on request ([`Lexer::with_comments`]). `grammar/cgl.pest` is the
//! authority; a test below checks that [`KEYWORDS`] says what its `keyword` rule says.

use std::ops::Range;

/// The reserved words: never names (the grammar's `keyword` rule).
pub const KEYWORDS: &[&str] = &[
    "game", "fn", "const", "import", "expect", "print", "show", "if", "then", "else", "for", "in",
    "not", "and", "or", "forall", "exists", "true", "false", "none", "is", "div",
];

/// The words that start a statement of a file (the keywords of the grammar's `*_item` rules).
pub const STATEMENT_KEYWORDS: &[&str] =
    &["game", "fn", "const", "import", "expect", "print", "show"];

/// The grammar's contextual words: they open a game's clauses (`position`, `move`, ...) or
/// name its conventions (`misere`), and are names elsewhere (the grammar's `kw_*` rules that
/// are not [`KEYWORDS`]).
pub const CLAUSE_WORDS: &[&str] = &[
    "position", "move", "start", "terminal", "draw", "play", "compound", "left", "right", "misere",
    "normal", "loopy", "player", "payoff", "table", "point", "points", "hide",
];

/// Whether a word is reserved.
pub fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

/// Whether a character can be part of a word (a name, keyword or number).
pub fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A name's shape: a letter or `_`, then letters, digits and `_` (keywords included).
pub fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(is_word_char)
}

/// Token kinds of the light lexer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A name, keyword or number.
    Word,
    /// A string literal.
    Str,
    /// A string literal not closed on its line (the token ends at the line's end).
    UnclosedStr,
    /// `(`, `[`, `{`.
    Open,
    /// `)`, `]`, `}`.
    Close,
    /// A run of operator characters (`==`, `..=`, `:`); a `,` is always a run of its own.
    Punct,
    /// Any other character, whole.
    Other,
    /// A `//` comment (to the end of its line, the newline left out) or a closed `/* */`
    /// comment; only from [`Lexer::with_comments`].
    Comment,
}

/// A token: its kind, its byte range, and the bracket depth before it (for a bracket: the
/// depth outside it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: Tok,
    /// Where it starts.
    pub start: usize,
    /// Where it ends.
    pub end: usize,
    /// Brackets open before it.
    pub depth: usize,
}

impl Token {
    /// Its byte range.
    pub fn range(&self) -> Range<usize> {
        self.start..self.end
    }

    /// Its text in `text` (the text it was lexed from).
    pub fn text<'t>(&self, text: &'t str) -> &'t str {
        &text[self.start..self.end]
    }
}

/// Characters that form operator runs.
const PUNCT: &[u8] = b"+-*/%^&|=!<>.,:;?";

/// What each byte is, looked up rather than tested in turn (the precheck lexes whole files).
const CLASS: [u8; 256] = {
    let mut class = [OTHER; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() || b == b'_' {
            class[c] = WORD;
        }
        c += 1;
    }
    let mut i = 0;
    while i < PUNCT.len() {
        class[PUNCT[i] as usize] = OPERATOR;
        i += 1;
    }
    class
};
const OTHER: u8 = 0;
const WORD: u8 = 1;
const OPERATOR: u8 = 2;

fn is_word_byte(b: u8) -> bool {
    CLASS[b as usize] == WORD
}

fn is_punct_byte(b: u8) -> bool {
    CLASS[b as usize] == OPERATOR
}

/// The tokens of a text, one at a time; blanks and comments are skipped (comments are
/// yielded by [`Lexer::with_comments`]). After the last one, [`Lexer::open_comment`] tells
/// whether a block comment was left open.
pub struct Lexer<'t> {
    text: &'t str,
    at: usize,
    depth: usize,
    open_comment: Option<usize>,
    stray_close: bool,
    comments: bool,
}

impl<'t> Lexer<'t> {
    /// A lexer at the start of `text`.
    pub fn new(text: &'t str) -> Lexer<'t> {
        Lexer {
            text,
            at: 0,
            depth: 0,
            open_comment: None,
            stray_close: false,
            comments: false,
        }
    }

    /// A lexer at the start of `text` that yields comments too, as [`Tok::Comment`] tokens
    /// (a block comment left open still ends the tokens, unyielded).
    pub fn with_comments(text: &'t str) -> Lexer<'t> {
        Lexer {
            comments: true,
            ..Lexer::new(text)
        }
    }

    /// Where a block comment that never ends starts, once the lexer has reached it (it ends
    /// the tokens).
    pub fn open_comment(&self) -> Option<usize> {
        self.open_comment
    }

    /// Brackets open so far (a closing bracket with none open counts for nothing).
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Whether a closing bracket came with no bracket open.
    pub fn stray_close(&self) -> bool {
        self.stray_close
    }
}

impl Iterator for Lexer<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        let bytes = self.text.as_bytes();
        let mut i = self.at;
        while i < bytes.len() {
            let c = bytes[i];
            let start = i;
            let kind = match c {
                b' ' | b'\t' | b'\r' | b'\n' => {
                    i += 1;
                    continue;
                }
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                    if !self.comments {
                        continue;
                    }
                    Tok::Comment
                }
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    match self.text[i + 2..].find("*/") {
                        Some(end) => i += 2 + end + 2,
                        None => {
                            self.open_comment = Some(i);
                            i = bytes.len();
                            continue;
                        }
                    }
                    if !self.comments {
                        continue;
                    }
                    Tok::Comment
                }
                b'"' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                    if i < bytes.len() && bytes[i] == b'"' {
                        i += 1;
                        Tok::Str
                    } else {
                        i = i.min(bytes.len());
                        Tok::UnclosedStr
                    }
                }
                b'(' | b'[' | b'{' => {
                    i += 1;
                    Tok::Open
                }
                b')' | b']' | b'}' => {
                    i += 1;
                    Tok::Close
                }
                _ if is_word_byte(c) => {
                    i += 1;
                    while i < bytes.len() && is_word_byte(bytes[i]) {
                        i += 1;
                    }
                    Tok::Word
                }
                _ if is_punct_byte(c) => {
                    i += 1;
                    if c != b',' {
                        while i < bytes.len()
                            && bytes[i] != b','
                            && is_punct_byte(bytes[i])
                            && !(bytes[i] == b'/' && matches!(bytes.get(i + 1), Some(b'/' | b'*')))
                        {
                            i += 1;
                        }
                    }
                    Tok::Punct
                }
                _ => {
                    // Any other character, whole (never split inside UTF-8).
                    i += self.text[i..].chars().next().map_or(1, char::len_utf8);
                    Tok::Other
                }
            };
            self.at = i;
            let token = Token {
                kind,
                start,
                end: i,
                depth: self.depth,
            };
            match kind {
                Tok::Open => self.depth += 1,
                Tok::Close if self.depth == 0 => self.stray_close = true,
                Tok::Close => self.depth -= 1,
                _ => {}
            }
            return Some(token);
        }
        self.at = bytes.len();
        None
    }
}

/// A whole text lexed.
#[derive(Debug, Default)]
pub struct Lexed {
    /// Its tokens, in order.
    pub tokens: Vec<Token>,
    /// Brackets still open at the end.
    pub depth: usize,
    /// A block comment still open at the end.
    pub open_comment: bool,
    /// A closing bracket with no opening one.
    pub stray_close: bool,
}

/// Lexes a whole text.
pub fn lex(text: &str) -> Lexed {
    let mut lexer = Lexer::new(text);
    let tokens = lexer.by_ref().collect();
    Lexed {
        tokens,
        depth: lexer.depth(),
        open_comment: lexer.open_comment().is_some(),
        stray_close: lexer.stray_close(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The body of the rule `name` in the grammar: from its `=` to the end of its braces.
    fn rule<'g>(grammar: &'g str, name: &str) -> &'g str {
        let start = grammar
            .lines()
            .scan(0, |offset, line| {
                let here = *offset;
                *offset += line.len() + 1;
                Some((here, line))
            })
            .find(|(_, line)| {
                line.strip_prefix(name)
                    .is_some_and(|rest| rest.trim_start().starts_with('='))
            })
            .map(|(offset, _)| offset)
            .unwrap_or_else(|| panic!("no rule `{name}` in the grammar"));
        let body = &grammar[start..];
        let open = body.find('{').expect("a rule has braces");
        let mut depth = 0;
        for (i, c) in body.char_indices().skip(open) {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return &body[open..=i];
                    }
                }
                _ => {}
            }
        }
        panic!("rule `{name}` does not end")
    }

    /// The quoted literals of a rule's body, in order.
    fn literals(body: &str) -> Vec<String> {
        body.split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    }

    const GRAMMAR: &str = include_str!("../../grammar/cgl.pest");

    #[test]
    fn keywords_are_the_grammars() {
        let mut grammar = literals(rule(GRAMMAR, "keyword"));
        let mut ours: Vec<String> = KEYWORDS.iter().map(|k| k.to_string()).collect();
        grammar.sort();
        ours.sort();
        assert_eq!(
            ours, grammar,
            "KEYWORDS and grammar/cgl.pest's `keyword` differ"
        );
    }

    #[test]
    fn clause_words_are_the_grammars_other_kw_rules() {
        let mut grammar: Vec<String> = GRAMMAR
            .lines()
            .filter(|l| l.starts_with("kw_"))
            .flat_map(literals)
            .filter(|w| !is_keyword(w))
            .collect();
        let mut ours: Vec<String> = CLAUSE_WORDS.iter().map(|k| k.to_string()).collect();
        grammar.sort();
        ours.sort();
        assert_eq!(
            ours, grammar,
            "CLAUSE_WORDS and grammar/cgl.pest's kw_* rules differ"
        );
    }

    #[test]
    fn statement_keywords_are_those_of_the_items() {
        let items = rule(GRAMMAR, "item");
        let mut words = Vec::new();
        for item in items
            .trim_matches(|c| c == '{' || c == '}')
            .split('|')
            .map(str::trim)
        {
            let body = rule(GRAMMAR, item);
            let first = body
                .trim_start_matches('{')
                .split_whitespace()
                .next()
                .expect("an item rule has a first part");
            assert!(first.starts_with("kw_"), "{item} starts with {first}");
            words.extend(literals(rule(GRAMMAR, first)));
        }
        let mut ours: Vec<String> = STATEMENT_KEYWORDS.iter().map(|k| k.to_string()).collect();
        words.sort();
        ours.sort();
        assert_eq!(ours, words);
        assert!(STATEMENT_KEYWORDS.iter().all(|w| is_keyword(w)));
    }

    fn kinds(text: &str) -> Vec<(Tok, &str, usize)> {
        Lexer::new(text)
            .map(|t| (t.kind, t.text(text), t.depth))
            .collect()
    }

    #[test]
    fn tokens() {
        use Tok::*;
        assert_eq!(
            kinds("f(x, \"a)\") // (\n/* [ */ ..= é"),
            [
                (Word, "f", 0),
                (Open, "(", 0),
                (Word, "x", 1),
                (Punct, ",", 1),
                (Str, "\"a)\"", 1),
                (Close, ")", 1),
                (Punct, "..=", 0),
                (Other, "é", 0),
            ]
        );
        assert_eq!(
            kinds("\"open\n)"),
            [(UnclosedStr, "\"open", 0), (Close, ")", 0)]
        );
        assert_eq!(kinds("\"a\\\"b\""), [(Str, "\"a\\\"b\"", 0)]);
        assert_eq!(
            kinds("a ,, b"),
            [
                (Word, "a", 0),
                (Punct, ",", 0),
                (Punct, ",", 0),
                (Word, "b", 0)
            ]
        );
        assert_eq!(kinds("+//c"), [(Punct, "+", 0)]);
    }

    #[test]
    fn comments_on_request() {
        let text = "a // one\n/* two */ b /* open";
        let comments: Vec<(Tok, &str)> = Lexer::with_comments(text)
            .map(|t| (t.kind, t.text(text)))
            .collect();
        assert_eq!(
            comments,
            [
                (Tok::Word, "a"),
                (Tok::Comment, "// one"),
                (Tok::Comment, "/* two */"),
                (Tok::Word, "b")
            ]
        );
        assert_eq!(kinds(text).len(), 2);
    }

    #[test]
    fn the_end_of_the_text() {
        let mut lexer = Lexer::new("( /* never closed");
        assert_eq!(lexer.by_ref().count(), 1);
        assert_eq!(lexer.open_comment(), Some(2));
        assert_eq!(lexer.depth(), 1);
        let lexed = lex(") (");
        assert!(lexed.stray_close && !lexed.open_comment);
        assert_eq!(lexed.depth, 1);
        for junk in ["\"\\", "\"\\é", "/*/", "*/", "\u{0}\u{7f}", "\u{1F600}:;?"] {
            let lexed = lex(junk);
            for t in &lexed.tokens {
                assert!(junk.is_char_boundary(t.start) && junk.is_char_boundary(t.end));
            }
        }
    }

    #[test]
    fn words() {
        assert!(is_identifier("_x1") && is_identifier("game"));
        assert!(!is_identifier("1x") && !is_identifier("") && !is_identifier("é"));
        assert!(is_keyword("forall") && !is_keyword("position"));
    }
}
