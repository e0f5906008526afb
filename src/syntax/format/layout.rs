//! Tokens into lines: where lines break, how deep each is indented, the blanks between
//! tokens on a line, the blank lines kept, and the column of the comments at the ends of
//! lines. The rules are those of the module doc of `format/mod.rs`.

use super::tokens::{AtomKind, Class, Structure, Token};

/// Blanks per level of indentation.
const INDENT: usize = 4;
/// Blanks at least between the code of a line and the `//` comment at its end.
const COMMENT_GAP: usize = 2;

/// A line of the output.
struct Line {
    indent: usize,
    /// Its code (and the block comments among it).
    text: String,
    /// A `//` comment at its end, aligned with those of the lines next to it.
    comment: Option<String>,
    /// A line of a block comment after its first (and what follows the comment on it):
    /// written as the comment has it, without indentation.
    raw: bool,
}

/// A bracket open in an expression (or the body of a quantifier after a `:` that ends a
/// line): how deep the lines inside it go.
struct Level {
    /// The indentation of the line it opened on, where a closing bracket that starts a line
    /// goes.
    opened: usize,
    /// The indentation of a line that starts one of its items: one level deeper than `opened`
    /// when the bracket ends its line, else the column right after the bracket.
    inner: usize,
    /// Whether a line that continues an expression inside it, rather than starting an item,
    /// goes one level deeper still (when the bracket ends its line).
    deeper: bool,
    /// Opened by a quantifier's `:`: it ends with the bracket around it.
    soft: bool,
}

struct Layout<'t> {
    text: &'t str,
    tokens: &'t [Token],
    lines: Vec<Line>,
    /// Whether a blank line goes before each token wherever it starts a line: around a game.
    forced: Vec<bool>,
    /// The indentation of items or clauses here: 0, or one level in a game's body.
    base: usize,
    /// The brackets open in the item or clause, innermost last.
    levels: Vec<Level>,
    /// For each token, the next one that is not a comment.
    next_code: Vec<Option<usize>>,
    /// The token before, comments included.
    prev: Option<usize>,
    /// The last token before that is not a comment.
    prev_code: Option<usize>,
    /// A `//` comment ended the last line: what follows starts another.
    after_line_comment: bool,
}

/// The formatted text of `tokens` (the tokens of `text`, with their roles).
pub(super) fn layout(text: &str, tokens: &[Token]) -> String {
    let mut layout = Layout {
        text,
        tokens,
        lines: Vec::new(),
        forced: forced_blanks(tokens),
        next_code: next_code(tokens),
        base: 0,
        levels: Vec::new(),
        prev: None,
        prev_code: None,
        after_line_comment: false,
    };
    for (k, token) in tokens.iter().enumerate() {
        if token.is_comment() {
            layout.comment(k);
        } else {
            layout.code(k);
            layout.prev_code = Some(k);
        }
        layout.prev = Some(k);
    }
    render(&layout.lines)
}

/// For each token, the index of the next token that is not a comment.
fn next_code(tokens: &[Token]) -> Vec<Option<usize>> {
    let mut next = vec![None; tokens.len()];
    let mut after = None;
    for k in (0..tokens.len()).rev() {
        next[k] = after;
        if !tokens[k].is_comment() {
            after = Some(k);
        }
    }
    next
}

/// The tokens before which a blank line goes when they start a line: a game definition is
/// set apart from what comes before it (with the comments right above it, which belong to
/// it) and after it (after a comment at the end of its last line).
fn forced_blanks(tokens: &[Token]) -> Vec<bool> {
    let mut forced = vec![false; tokens.len()];
    for (k, t) in tokens.iter().enumerate() {
        match t.structure {
            Structure::Item { game: true } => {
                let mut first = k;
                while first > 0
                    && tokens[first - 1].is_comment()
                    && (tokens[first - 1].breaks > 0 || first == 1)
                    && tokens[first].breaks == 1
                {
                    first -= 1;
                }
                forced[first] = true;
            }
            Structure::GameClose => {
                let mut next = k + 1;
                if tokens
                    .get(next)
                    .is_some_and(|n| n.is_comment() && n.breaks == 0)
                {
                    next += 1;
                }
                if let Some(f) = forced.get_mut(next) {
                    *f = true;
                }
            }
            _ => {}
        }
    }
    forced
}

impl Layout<'_> {
    fn code(&mut self, k: usize) {
        let t = &self.tokens[k];
        let first = self.lines.is_empty();
        let after_game_open = self
            .prev
            .is_some_and(|p| self.tokens[p].structure == Structure::GameOpen);
        let newline = first
            || self.after_line_comment
            || match t.structure {
                Structure::Item { .. } | Structure::Clause => true,
                Structure::GameClose => !after_game_open,
                Structure::GameOpen | Structure::Header => false,
                Structure::Inside => t.breaks > 0,
            };
        if newline {
            let indent = if first { 0 } else { self.indent_of(k, false) };
            let blank = self.blank_before(k);
            self.start_line(indent, blank);
        } else if self.spaced(k) {
            self.append(" ");
        }
        self.append(t.text(self.text));
        if matches!(t.structure, Structure::Item { .. } | Structure::Clause) {
            self.levels.clear();
        }
        let (indent, width) = self.lines.last().map_or((0, 0), |l| (l.indent, width(l)));
        let ends_line = self.ends_line(k);
        match (t.class, t.structure) {
            (Class::Open, Structure::GameOpen) => self.base = INDENT,
            (Class::Close, Structure::GameClose) => self.base = 0,
            (Class::Open, _) => self.levels.push(Level {
                opened: indent,
                inner: if ends_line { indent + INDENT } else { width },
                deeper: ends_line,
                soft: false,
            }),
            (Class::Close, _) => {
                while self.levels.last().is_some_and(|l| l.soft) {
                    self.levels.pop();
                }
                self.levels.pop();
            }
            (Class::Op, _) if ends_line && t.text(self.text) == ":" => {
                let around = self.levels.last().map_or(0, |l| l.inner);
                self.levels.push(Level {
                    opened: indent,
                    inner: indent.max(around) + INDENT,
                    deeper: true,
                    soft: true,
                });
            }
            _ => {}
        }
    }

    /// Whether a line break follows token `k` (after the block comments on its line, or as
    /// the end of a `//` comment).
    fn ends_line(&self, k: usize) -> bool {
        self.tokens[k + 1..]
            .iter()
            .find(|t| t.class != Class::BlockComment || t.breaks > 0)
            .is_some_and(|t| t.breaks > 0 || t.class == Class::LineComment)
    }

    fn comment(&mut self, k: usize) {
        let t = &self.tokens[k];
        let body = t.text(self.text).trim_end();
        let line_comment = t.class == Class::LineComment;
        if self.lines.is_empty() || t.breaks > 0 {
            let indent = self.next_code[k].map_or(0, |j| self.indent_of(j, true));
            let blank = self.blank_before(k);
            self.start_line(indent, blank);
        } else if !line_comment {
            self.append(" ");
        }
        if !line_comment {
            self.append_block(body);
        } else if let Some(line) = self.lines.last_mut().filter(|l| !l.text.is_empty()) {
            line.comment = Some(body.to_string());
        } else {
            self.append(body);
        }
        self.after_line_comment = line_comment;
    }

    /// How deep the line that token `k` starts is indented. For a comment on its own line
    /// before `k` (`for_comment`), as deep as the code it stands above: one level inside a
    /// bracket or a game that `k` closes.
    fn indent_of(&self, k: usize, for_comment: bool) -> usize {
        let t = &self.tokens[k];
        match t.structure {
            Structure::Item { .. } | Structure::GameOpen => 0,
            Structure::Clause => INDENT,
            Structure::GameClose if for_comment => INDENT,
            Structure::GameClose => 0,
            Structure::Inside | Structure::Header if t.class == Class::Close => {
                match self.levels.iter().rev().find(|l| !l.soft) {
                    Some(l) if for_comment => l.inner,
                    Some(l) => l.opened,
                    None => self.base + INDENT,
                }
            }
            Structure::Inside | Structure::Header => match self.levels.last() {
                Some(l) if l.deeper => l.inner + self.continued(),
                Some(l) => l.inner,
                None => self.base + INDENT,
            },
        }
    }

    /// One more level for a line that continues an expression, rather than starting an item
    /// (after an opening bracket or a comma) or a quantifier's body (after its `:`).
    fn continued(&self) -> usize {
        match self.prev_code.map(|p| &self.tokens[p]) {
            Some(p) if p.class == Class::Open || matches!(p.text(self.text), "," | ":") => 0,
            Some(_) => INDENT,
            None => 0,
        }
    }

    /// Whether a blank line goes before token `k`, which starts a line: where the author
    /// left one or more, or around a game, but never first, right after an opening bracket
    /// or before a closing one.
    fn blank_before(&self, k: usize) -> bool {
        let t = &self.tokens[k];
        let after_open = self
            .prev
            .is_some_and(|p| self.tokens[p].class == Class::Open);
        !self.lines.is_empty()
            && (t.breaks >= 2 || self.forced[k])
            && !after_open
            && t.class != Class::Close
    }

    /// Whether a blank goes between token `k` and the one before it on its line.
    fn spaced(&self, k: usize) -> bool {
        let t = &self.tokens[k];
        let Some(a) = self.prev.map(|p| &self.tokens[p]) else {
            return false;
        };
        let dot =
            |x: &Token| x.class == Class::Op && matches!(x.text(self.text), "." | ".." | "..=");
        if a.is_comment() {
            true
        } else if t.class == Class::Close
            || a.class == Class::Open
            || (t.class == Class::Op && matches!(t.text(self.text), "," | ";" | ":"))
            || dot(a)
            || dot(t)
            || a.fraction
            || t.fraction
            || a.atom == Some(AtomKind::StarParen)
        {
            false
        } else if a.prefix {
            // `- -x` rather than `--x`.
            t.prefix
        } else if t.postfix {
            // `* (x)` calls `*`; `*(x)` is a nimber.
            a.atom == Some(AtomKind::BareStar)
        } else {
            true
        }
    }

    fn start_line(&mut self, indent: usize, blank: bool) {
        if blank {
            self.lines.push(Line {
                indent: 0,
                text: String::new(),
                comment: None,
                raw: false,
            });
        }
        self.lines.push(Line {
            indent,
            text: String::new(),
            comment: None,
            raw: false,
        });
        self.after_line_comment = false;
    }

    fn append(&mut self, s: &str) {
        if self.lines.is_empty() {
            self.start_line(0, false);
        }
        if let Some(line) = self.lines.last_mut() {
            line.text.push_str(s);
        }
    }

    /// A block comment: its first line where it is, the others as they are.
    fn append_block(&mut self, body: &str) {
        let mut parts = body.split('\n');
        if let Some(first) = parts.next() {
            self.append(first.trim_end());
        }
        for part in parts {
            self.lines.push(Line {
                indent: 0,
                text: part.trim_end().to_string(),
                comment: None,
                raw: true,
            });
        }
    }
}

/// The width of a line, in characters, without its `//` comment.
fn width(l: &Line) -> usize {
    if l.raw {
        l.text.chars().count()
    } else {
        l.indent + l.text.chars().count()
    }
}

/// The text of the lines: indented, each run of lines that end in a `//` comment with their
/// comments in one column (two blanks after the longest code), no blanks at the ends of lines,
/// a newline after each.
fn render(lines: &[Line]) -> String {
    let mut column = vec![0; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        if lines[i].comment.is_none() {
            i += 1;
            continue;
        }
        let run = lines[i..]
            .iter()
            .take_while(|l| l.comment.is_some())
            .count();
        let widest = lines[i..i + run].iter().map(width).max().unwrap_or(0);
        for c in &mut column[i..i + run] {
            *c = widest + COMMENT_GAP;
        }
        i += run;
    }
    let mut out = String::new();
    for (line, column) in lines.iter().zip(column) {
        let mut s = String::new();
        if !line.raw {
            s.push_str(&" ".repeat(line.indent));
        }
        s.push_str(&line.text);
        if let Some(comment) = &line.comment {
            let pad = column.saturating_sub(width(line)).max(1);
            s.push_str(&" ".repeat(pad));
            s.push_str(comment);
        }
        out.push_str(s.trim_end());
        out.push('\n');
    }
    let start = out.len() - out.trim_start_matches('\n').len();
    let trimmed = out[start..].trim_end_matches('\n');
    if trimmed.is_empty() {
        String::new()
    } else {
        format!("{trimmed}\n")
    }
}
