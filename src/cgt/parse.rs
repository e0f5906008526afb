//! Reading CGSuite's notation of short games (what [`ValueTable::show`] prints, and more).
//!
//! ```text
//! expr    := term (("+" | "-" | "+-") term)*          a +- b is a + (+-b)
//! term    := "-" term | ("+-" | "±") switch | atom
//! switch  := "{" options "}" (no bars: +-{a,b} = {a,b | -a,-b}) | term
//! atom    := ["-"] nus [tiny] | tiny | "{" body "}" | "(" expr ")"
//! nus     := [int ["/" int]] [ups] ["*" [int]]         at least one part: 3/4, ^*, v3*2, 1*
//! ups     := ("^" | "↑" | "v" | "↓") [int] | "^^"... | "⇑" | "vv"... | "⇓"
//! tiny    := ("Tiny" | "Miny") "(" expr ")"             x Tiny(g) is x + {0||0|-g}
//! body    := options separated by "," and runs of "|": the longest run splits, so
//!            {a||b|c} is {a | {b|c}}; a side with bars in it is one game
//! ```
//!
//! Numbers are integers and fractions with a power-of-two denominator; the result is the
//! canonical form's id in the table.

use std::fmt;

use super::dyadic::Dyadic;
use super::table::{GameId, ValueTable};
use super::CgtError;

/// Nested braces and parentheses deeper than this are an error, not a stack overflow.
const MAX_DEPTH: usize = 200;

/// A notation error: where (byte offset) and what.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    /// Byte offset into the text.
    pub offset: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for ParseError {}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tok {
    Int(i64),
    Slash,
    Plus,
    Minus,
    PlusMinus,
    Star,
    Up(u32),
    Down(u32),
    LBrace,
    RBrace,
    Bars(usize),
    Comma,
    LParen,
    RParen,
    Tiny,
    Miny,
}

fn lex(text: &str) -> Result<Vec<(Tok, usize)>, ParseError> {
    let err = |offset: usize, message: String| ParseError { offset, message };
    let mut toks = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let tok = match c {
            c if c.is_whitespace() => continue,
            '0'..='9' => {
                let mut n: i64 = i64::from(c as u8 - b'0');
                while let Some(&(_, d)) = chars.peek() {
                    let Some(v) = d.to_digit(10) else { break };
                    chars.next();
                    n = n
                        .checked_mul(10)
                        .and_then(|n| n.checked_add(i64::from(v)))
                        .ok_or_else(|| err(i, "this integer is too large".into()))?;
                }
                Tok::Int(n)
            }
            '/' => Tok::Slash,
            '+' => {
                if chars.peek().map(|&(_, d)| d) == Some('-') {
                    chars.next();
                    Tok::PlusMinus
                } else {
                    Tok::Plus
                }
            }
            '±' => Tok::PlusMinus,
            '-' | '−' => Tok::Minus,
            '*' => Tok::Star,
            '^' => {
                let mut n = 1;
                while chars.peek().map(|&(_, d)| d) == Some('^') {
                    chars.next();
                    n += 1;
                }
                Tok::Up(n)
            }
            '↑' => Tok::Up(1),
            '⇑' => Tok::Up(2),
            '↓' => Tok::Down(1),
            '⇓' => Tok::Down(2),
            '{' => Tok::LBrace,
            '}' => Tok::RBrace,
            '(' => Tok::LParen,
            ')' => Tok::RParen,
            ',' => Tok::Comma,
            '|' => {
                let mut n = 1;
                while chars.peek().map(|&(_, d)| d) == Some('|') {
                    chars.next();
                    n += 1;
                }
                Tok::Bars(n)
            }
            c if c.is_alphabetic() => {
                let mut word = String::from(c);
                while let Some(&(_, d)) = chars.peek() {
                    if !d.is_alphabetic() {
                        break;
                    }
                    word.push(d);
                    chars.next();
                }
                match word.as_str() {
                    w if w.chars().all(|c| c == 'v') => Tok::Down(
                        u32::try_from(w.len()).map_err(|_| err(i, "too many downs".into()))?,
                    ),
                    "Tiny" => Tok::Tiny,
                    "Miny" => Tok::Miny,
                    _ => return Err(err(i, format!("unknown name `{word}`"))),
                }
            }
            _ => return Err(err(i, format!("unexpected character `{c}`"))),
        };
        toks.push((tok, i));
    }
    Ok(toks)
}

/// One element of a brace body: an option (or nothing) or a separator.
enum Item {
    Opt(GameId),
    Comma(usize),
    Bars(usize, usize),
}

struct Parser<'t> {
    table: &'t mut ValueTable,
    toks: Vec<(Tok, usize)>,
    pos: usize,
    end: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<Tok> {
        self.toks.get(self.pos).map(|&(t, _)| t)
    }

    fn offset(&self) -> usize {
        self.toks.get(self.pos).map_or(self.end, |&(_, o)| o)
    }

    fn fail<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            offset: self.offset(),
            message: message.into(),
        })
    }

    fn value<T>(&self, r: Result<T, CgtError>) -> Result<T, ParseError> {
        r.map_err(|e| ParseError {
            offset: self.offset(),
            message: e.to_string(),
        })
    }

    fn expect(&mut self, tok: Tok, what: &str) -> Result<(), ParseError> {
        if self.peek() == Some(tok) {
            self.pos += 1;
            Ok(())
        } else {
            self.fail(format!("expected {what}"))
        }
    }

    fn nest(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.fail(format!("nested more than {MAX_DEPTH} deep"));
        }
        Ok(())
    }

    fn expr(&mut self) -> Result<GameId, ParseError> {
        let mut acc = self.term()?;
        loop {
            let op = self.peek();
            if !matches!(op, Some(Tok::Plus | Tok::Minus | Tok::PlusMinus)) {
                return Ok(acc);
            }
            self.pos += 1;
            let rhs = match op {
                Some(Tok::PlusMinus) => self.switch()?,
                _ => self.term()?,
            };
            acc = match op {
                Some(Tok::Minus) => {
                    let r = self.table.sub(acc, rhs);
                    self.value(r)
                }?,
                _ => {
                    let r = self.table.add(acc, rhs);
                    self.value(r)
                }?,
            };
        }
    }

    fn term(&mut self) -> Result<GameId, ParseError> {
        match self.peek() {
            // A minus sign on a number literal belongs to the number: -1/2^ is -1/2 + ^,
            // and -1Miny(2) is -1 + Miny(2), as printed.
            Some(Tok::Minus) if matches!(self.toks.get(self.pos + 1), Some((Tok::Int(_), _))) => {
                self.pos += 1;
                self.number_atom(true)
            }
            Some(Tok::Minus) => {
                self.pos += 1;
                self.nest()?;
                let g = self.term()?;
                self.depth -= 1;
                {
                    let r = self.table.neg(g);
                    self.value(r)
                }
            }
            Some(Tok::PlusMinus) => {
                self.pos += 1;
                self.switch()
            }
            _ => self.atom(),
        }
    }

    /// After `+-`: `{a, b}` (a list) or any term `g`, giving `{a, b | -a, -b}` or `{g | -g}`.
    fn switch(&mut self) -> Result<GameId, ParseError> {
        self.nest()?;
        let left = if self.peek() == Some(Tok::LBrace) {
            self.pos += 1;
            let items = self.body()?;
            self.expect(Tok::RBrace, "`}`")?;
            if items.iter().any(|i| matches!(i, Item::Bars(..))) {
                vec![self.build(&items)?]
            } else {
                self.list(&items)?
            }
        } else {
            vec![self.term()?]
        };
        self.depth -= 1;
        let mut right = Vec::with_capacity(left.len());
        for &g in &left {
            right.push({
                let r = self.table.neg(g);
                self.value(r)
            }?);
        }
        {
            let r = self.table.game(&left, &right);
            self.value(r)
        }
    }

    fn atom(&mut self) -> Result<GameId, ParseError> {
        match self.peek() {
            Some(Tok::LBrace) => {
                let start = self.offset();
                self.pos += 1;
                self.nest()?;
                let items = self.body()?;
                self.expect(Tok::RBrace, "`}` or `|`")?;
                self.depth -= 1;
                if !items.iter().any(|i| matches!(i, Item::Bars(..))) {
                    return Err(ParseError {
                        offset: start,
                        message: "a game needs a `|` between its Left and Right options".into(),
                    });
                }
                self.build(&items)
            }
            Some(Tok::LParen) => {
                self.pos += 1;
                self.nest()?;
                let g = self.expr()?;
                self.expect(Tok::RParen, "`)`")?;
                self.depth -= 1;
                Ok(g)
            }
            Some(Tok::Tiny | Tok::Miny) => self.tiny(),
            Some(Tok::Int(_) | Tok::Up(_) | Tok::Down(_) | Tok::Star) => self.number_atom(false),
            _ => self.fail("expected a game"),
        }
    }

    /// A nus, negated number part first if `negative`, then perhaps `Tiny(..)`/`Miny(..)`.
    fn number_atom(&mut self, negative: bool) -> Result<GameId, ParseError> {
        let g = self.nus(negative)?;
        if matches!(self.peek(), Some(Tok::Tiny | Tok::Miny)) {
            let t = self.tiny()?;
            let r = self.table.add(g, t);
            return self.value(r);
        }
        Ok(g)
    }

    /// `Tiny(g)` = `{0||0|-g}`, `Miny(g)` = `{g|0||0}`.
    fn tiny(&mut self) -> Result<GameId, ParseError> {
        let tiny = self.peek() == Some(Tok::Tiny);
        self.pos += 1;
        self.expect(Tok::LParen, "`(`")?;
        self.nest()?;
        let g = self.expr()?;
        self.expect(Tok::RParen, "`)`")?;
        self.depth -= 1;
        let z = self.table.zero();
        let t = &mut *self.table;
        let r = (|| {
            if tiny {
                let ng = t.neg(g)?;
                let inner = t.game(&[z], &[ng])?;
                t.game(&[z], &[inner])
            } else {
                let inner = t.game(&[g], &[z])?;
                t.game(&[inner], &[z])
            }
        })();
        self.value(r)
    }

    /// `[int ["/" int]] [ups] ["*" [int]]`, the number negated if `negative`.
    fn nus(&mut self, negative: bool) -> Result<GameId, ParseError> {
        let mut number = Dyadic::ZERO;
        if let Some(Tok::Int(n)) = self.peek() {
            self.pos += 1;
            number = Dyadic::int(n);
            if self.peek() == Some(Tok::Slash) {
                self.pos += 1;
                let Some(Tok::Int(d)) = self.peek() else {
                    return self.fail("expected a denominator");
                };
                number = self.value(Dyadic::from_fraction(n, d))?;
                self.pos += 1;
            }
        }
        if negative {
            number = self.value(number.checked_neg())?;
        }
        let mut ups: i64 = 0;
        if let Some(Tok::Up(k) | Tok::Down(k)) = self.peek() {
            let sign = if matches!(self.peek(), Some(Tok::Up(_))) {
                1
            } else {
                -1
            };
            self.pos += 1;
            let mut count = i64::from(k);
            if k == 1 {
                if let Some(Tok::Int(c)) = self.peek() {
                    self.pos += 1;
                    count = c;
                }
            }
            ups = sign * count;
        }
        let mut nim: i64 = 0;
        if self.peek() == Some(Tok::Star) {
            self.pos += 1;
            nim = 1;
            if let Some(Tok::Int(c)) = self.peek() {
                self.pos += 1;
                nim = c;
            }
        }
        let ups = i32::try_from(ups).or_else(|_| self.fail("too many ups"))?;
        let nim = u32::try_from(nim).or_else(|_| self.fail("this nimber is too large"))?;
        {
            let r = self.table.nus(super::Nus { number, ups, nim });
            self.value(r)
        }
    }

    /// The items of a brace body, up to (not including) the closing brace.
    fn body(&mut self) -> Result<Vec<Item>, ParseError> {
        let mut items = Vec::new();
        loop {
            match self.peek() {
                Some(Tok::Comma) => {
                    items.push(Item::Comma(self.offset()));
                    self.pos += 1;
                }
                Some(Tok::Bars(n)) => {
                    items.push(Item::Bars(n, self.offset()));
                    self.pos += 1;
                }
                Some(Tok::RBrace) | None => return Ok(items),
                _ => {
                    let g = self.expr()?;
                    items.push(Item::Opt(g));
                    if !matches!(self.peek(), Some(Tok::Comma | Tok::Bars(_) | Tok::RBrace)) {
                        return self.fail("expected `,`, `|` or `}`");
                    }
                }
            }
        }
    }

    /// The game of items with bars: split at the unique longest run of bars.
    fn build(&mut self, items: &[Item]) -> Result<GameId, ParseError> {
        let longest = items
            .iter()
            .filter_map(|i| {
                if let Item::Bars(n, _) = i {
                    Some(*n)
                } else {
                    None
                }
            })
            .max()
            .unwrap_or(0);
        let splits: Vec<usize> = items
            .iter()
            .enumerate()
            .filter_map(|(k, i)| matches!(i, Item::Bars(n, _) if *n == longest).then_some(k))
            .collect();
        if splits.len() != 1 {
            let at = items.iter().rev().find_map(|i| {
                if let Item::Bars(_, o) = i {
                    Some(*o)
                } else {
                    None
                }
            });
            return Err(ParseError {
                offset: at.unwrap_or(self.end),
                message: format!(
                    "`{}` appears twice at the same level; add braces",
                    "|".repeat(longest)
                ),
            });
        }
        let (l, r) = items.split_at(splits[0]);
        let r = &r[1..];
        let left = self.side(l)?;
        let right = self.side(r)?;
        {
            let r = self.table.game(&left, &right);
            self.value(r)
        }
    }

    fn side(&mut self, items: &[Item]) -> Result<Vec<GameId>, ParseError> {
        if items.iter().any(|i| matches!(i, Item::Bars(..))) {
            Ok(vec![self.build(items)?])
        } else {
            self.list(items)
        }
    }

    /// A comma-separated list of options (possibly empty).
    fn list(&self, items: &[Item]) -> Result<Vec<GameId>, ParseError> {
        let err = |offset: usize, message: &str| ParseError {
            offset,
            message: message.into(),
        };
        let mut out = Vec::new();
        let mut last_comma = None;
        for item in items {
            match *item {
                Item::Opt(g) => {
                    out.push(g);
                    last_comma = None;
                }
                Item::Comma(at) if last_comma.is_none() && !out.is_empty() => last_comma = Some(at),
                Item::Comma(at) => return Err(err(at, "an empty option before `,`")),
                Item::Bars(_, at) => return Err(err(at, "expected an option")),
            }
        }
        if let Some(at) = last_comma {
            return Err(err(at, "an empty option after `,`"));
        }
        Ok(out)
    }
}

impl ValueTable {
    /// Reads a game written in CGSuite's notation (see the module doc) into the table.
    pub fn parse(&mut self, text: &str) -> Result<GameId, ParseError> {
        let toks = lex(text)?;
        let mut p = Parser {
            table: self,
            toks,
            pos: 0,
            end: text.len(),
            depth: 0,
        };
        if p.peek().is_none() {
            return p.fail("expected a game");
        }
        let g = p.expr()?;
        if p.peek().is_some() {
            return p.fail("unexpected text after the game");
        }
        Ok(g)
    }
}
