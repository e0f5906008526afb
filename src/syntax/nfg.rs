//! Gambit's strategic-game files (`.nfg`) read as a `game` of the language: `import
//! "e02.nfg" as Selten` gives the AST of a game with one `player` clause per player and one
//! `table` clause, every span inside the `.nfg` file, so that the rest of the pipeline (and
//! its diagnostics) treats it as any strategic game.
//!
//! Both versions of the format are read (Gambit's documentation, "The strategic game (.nfg)
//! file format"): the *payoff version* (`{ "P1" "P2" } { 3 2 }`, then every profile's payoffs)
//! and the *outcome version* (the strategies' labels, a list of outcomes, then one outcome
//! index per profile, 0 the null outcome). Profiles come with the first player's strategy
//! varying fastest. Numbers are exact: integers, fractions (`1/3`) and decimals (`0.1` is
//! 1/10, `2.5e3` is 2500). A player whose labels are missing, empty or repeated gets the
//! strategies "1", "2", ... (as Gambit numbers them); a player without a name is "Player k".

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use super::ast::{self, BinaryOp, Expr, ExprKind, GameClause, GameDef, Ident, Item};
use crate::diag::{Code, Diag, DiagResult, FileId, Span};

/// The most profiles an `.nfg` file may give (a strategic game's table holds at most as many).
pub const MAX_PROFILES: usize = 1_000_000;

/// The `.nfg` text of `file` as a file defining one strategic game named `name`.
pub fn parse(file: FileId, text: &str, name: &str) -> DiagResult<ast::File> {
    let tokens = lex(file, text)?;
    let mut reader = Reader {
        file,
        text,
        tokens,
        at: 0,
    };
    let game = reader.game(name)?;
    Ok(ast::File {
        items: vec![Item::Game(game)],
    })
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Text(String),
    Number(String),
    Open,
    Close,
    Comma,
    Word(String),
}

struct Reader<'t> {
    file: FileId,
    text: &'t str,
    tokens: Vec<(Tok, Span)>,
    at: usize,
}

fn bad(span: Span, message: impl Into<String>, label: &str, help: &str) -> Box<Diag> {
    Box::new(
        Diag::error(Code::LoadNfg, message)
            .label(span, label.to_string())
            .help(help.to_string()),
    )
}

const FORMAT_HELP: &str =
    "an .nfg file starts `NFG 1 R \"title\" { \"Player 1\" \"Player 2\" }`, then \
     either each player's number of strategies `{ 2 2 }` and every profile's payoffs, or each \
     player's strategy labels `{ { \"a\" \"b\" } { \"c\" \"d\" } }`, the outcomes and one outcome \
     number per profile (Gambit's documentation, \"Game representation formats\")";

/// The tokens of the text: quoted labels (`\"` a quote inside), numbers, braces, commas and
/// other words, each with its span.
fn lex(file: FileId, text: &str) -> DiagResult<Vec<(Tok, Span)>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let tok = match c {
            b'{' => {
                i += 1;
                Tok::Open
            }
            b'}' => {
                i += 1;
                Tok::Close
            }
            b',' => {
                i += 1;
                Tok::Comma
            }
            b'"' => {
                i += 1;
                let mut label = String::new();
                let mut closed = false;
                while let Some(ch) = text[i..].chars().next() {
                    i += ch.len_utf8();
                    match ch {
                        '"' => {
                            closed = true;
                            break;
                        }
                        '\\' if text[i..].starts_with('"') => {
                            label.push('"');
                            i += 1;
                        }
                        ch => label.push(ch),
                    }
                }
                if !closed {
                    return Err(bad(
                        Span::new(file, start, start + 1),
                        "this label is never closed",
                        "opened here",
                        "close the label with `\"` (a quote inside a label is written `\\\"`)",
                    ));
                }
                Tok::Text(label)
            }
            _ => {
                while i < bytes.len()
                    && !bytes[i].is_ascii_whitespace()
                    && !b"{},\"".contains(&bytes[i])
                {
                    i += 1;
                }
                let word = &text[start..i];
                if word.starts_with(|c: char| c.is_ascii_digit() || "+-.".contains(c)) {
                    Tok::Number(word.to_string())
                } else {
                    Tok::Word(word.to_string())
                }
            }
        };
        out.push((tok, Span::new(file, start, i)));
    }
    Ok(out)
}

impl Reader<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at).map(|(t, _)| t)
    }

    /// The span of the next token, or of the file's end.
    fn here(&self) -> Span {
        self.tokens.get(self.at).map_or(
            Span::new(self.file, self.text.len(), self.text.len()),
            |(_, s)| *s,
        )
    }

    fn next(&mut self, what: &str) -> DiagResult<(Tok, Span)> {
        let Some(token) = self.tokens.get(self.at).cloned() else {
            return Err(bad(
                self.here(),
                format!("the file ends where {what} should be"),
                "the file ends here",
                FORMAT_HELP,
            ));
        };
        self.at += 1;
        Ok(token)
    }

    /// An error if the file ends after `done` of the `needed` items of the body.
    fn not_yet_ended(&self, done: usize, needed: usize, items: &str, why: &str) -> DiagResult<()> {
        if self.at < self.tokens.len() {
            return Ok(());
        }
        let last = self.tokens.last().map_or(self.here(), |(_, s)| *s);
        Err(bad(
            last,
            format!("the file ends after {done} of its {needed} {items} ({why})"),
            "the last one",
            "profiles are listed with the first player's strategy varying fastest; give every one of them",
        ))
    }

    fn unexpected(&self, span: Span, what: &str) -> Box<Diag> {
        let found = &self.text[span.start as usize..span.end as usize];
        bad(
            span,
            format!("expected {what}, found `{found}`"),
            &format!("{what} here"),
            FORMAT_HELP,
        )
    }

    fn expect(&mut self, tok: Tok, what: &str) -> DiagResult<Span> {
        let (t, span) = self.next(what)?;
        if t == tok {
            Ok(span)
        } else {
            Err(self.unexpected(span, what))
        }
    }

    fn label(&mut self, what: &str) -> DiagResult<(String, Span)> {
        match self.next(what)? {
            (Tok::Text(s), span) => Ok((s, span)),
            (_, span) => Err(self.unexpected(span, what)),
        }
    }

    /// Labels up to a closing brace (the opening one read).
    fn labels(&mut self, what: &str) -> DiagResult<(Vec<(String, Span)>, Span)> {
        let mut labels = Vec::new();
        loop {
            match self.next(what)? {
                (Tok::Text(s), span) => labels.push((s, span)),
                (Tok::Close, span) => return Ok((labels, span)),
                (_, span) => return Err(self.unexpected(span, what)),
            }
        }
    }

    fn number(&mut self, what: &str) -> DiagResult<(BigRational, Span)> {
        match self.next(what)? {
            (Tok::Number(s), span) => {
                Ok((number(&s).ok_or_else(|| self.unexpected(span, what))?, span))
            }
            (_, span) => Err(self.unexpected(span, what)),
        }
    }

    fn game(&mut self, name: &str) -> DiagResult<GameDef> {
        let header = self.here();
        match self.next("`NFG`")? {
            (Tok::Word(w), _) if w == "NFG" => {}
            (Tok::Word(w), span) if w == "EFG" => {
                return Err(bad(
                    span,
                    "this is an extensive game (.efg), not a strategic one",
                    "EFG",
                    "cgl reads strategic games (.nfg); save the game's strategic form from Gambit (File > Export > .nfg)",
                ))
            }
            (_, span) => return Err(self.unexpected(span, "`NFG` (the start of a strategic game file)")),
        }
        match self.next("the version `1`")? {
            (Tok::Number(v), _) if v == "1" => {}
            (_, span) => {
                return Err(bad(
                    span,
                    "only version 1 of the .nfg format exists",
                    "the version",
                    "write `NFG 1 R` at the start",
                ))
            }
        }
        match self.next("`R`")? {
            (Tok::Word(w), _) if w == "R" || w == "D" => {}
            (_, span) => return Err(self.unexpected(span, "`R`")),
        }
        let (_title, _) = self.label("the game's title (a quoted label)")?;
        self.expect(Tok::Open, "`{` and the players' names")?;
        let (names, players_end) = self.labels("a player's name")?;
        if names.is_empty() {
            return Err(bad(
                players_end,
                "the game has no players",
                "the list of players ends here",
                "name each player: `{ \"Player 1\" \"Player 2\" }`",
            ));
        }
        let n = names.len();
        self.expect(Tok::Open, "`{` and the players' strategies")?;
        let mut strategies: Vec<(Vec<String>, Span)> = Vec::new();
        if self.peek() == Some(&Tok::Open) {
            while self.peek() == Some(&Tok::Open) {
                let open = self.next("`{`")?.1;
                let (labels, close) = self.labels("a strategy's label")?;
                let span = open.to(close);
                if labels.is_empty() {
                    return Err(bad(
                        span,
                        "a player without strategies",
                        "no labels here",
                        "give every player at least one strategy",
                    ));
                }
                strategies.push((labels.into_iter().map(|(s, _)| s).collect(), span));
            }
            self.expect(Tok::Close, "`}` after the strategies")?;
        } else {
            loop {
                match self.next("a number of strategies")? {
                    (Tok::Close, _) => break,
                    (Tok::Number(s), span) => match s.parse::<usize>() {
                        // (At most as many as a game has profiles: the labels are built.)
                        Ok(k) if k > 0 && k <= MAX_PROFILES => {
                            strategies.push(((1..=k).map(|i| i.to_string()).collect(), span))
                        }
                        Ok(k) if k > MAX_PROFILES => {
                            return Err(bad(
                                span,
                                format!("{k} strategies: a game has at most {MAX_PROFILES} profiles"),
                                "too many strategies",
                                "cgl's strategic games have at most 1,000,000 profiles; use fewer strategies",
                            ))
                        }
                        _ => {
                            return Err(bad(
                                span,
                                format!("`{s}` is not a number of strategies"),
                                "a positive whole number here",
                                "give each player's number of strategies: `{ 3 2 }`",
                            ))
                        }
                    },
                    (_, span) => return Err(self.unexpected(span, "a number of strategies")),
                }
            }
        }
        if strategies.len() != n {
            let span = strategies.last().map_or(players_end, |(_, s)| *s);
            return Err(bad(
                span,
                format!("{n} players, but strategies for {}", strategies.len()),
                "the last player's strategies",
                "give every player, in order, their strategies",
            ));
        }
        let profiles = strategies
            .iter()
            .try_fold(1usize, |acc, (s, _)| acc.checked_mul(s.len()))
            .filter(|&p| p <= MAX_PROFILES)
            .ok_or_else(|| {
                bad(
                    header,
                    format!("the game has more than {MAX_PROFILES} profiles"),
                    "this game",
                    "cgl's strategic games have at most 1,000,000 profiles; use fewer strategies",
                )
            })?;
        // The optional comment.
        if let Some(Tok::Text(_)) = self.peek() {
            self.at += 1;
        }
        let body_start = self.here();
        // Either prologue may go with either body: outcomes `{ ... }`, or payoffs.
        let cells: Vec<Vec<Expr>> = if self.peek() == Some(&Tok::Open) {
            self.outcome_cells(n, profiles)?
        } else {
            let mut cells = Vec::with_capacity(profiles);
            for done in 0..profiles {
                let mut cell = Vec::with_capacity(n);
                for k in 0..n {
                    self.not_yet_ended(
                        done * n + k,
                        profiles * n,
                        "payoffs",
                        &format!("one per player for each of the {profiles} profiles"),
                    )?;
                    let (q, span) = self.number("a payoff")?;
                    cell.push(self.literal(&q, span)?);
                }
                cells.push(cell);
            }
            cells
        };
        if self.at < self.tokens.len() {
            let span = self.here();
            return Err(bad(
                span,
                format!("more than the {profiles} profiles' payoffs"),
                "this is past the last profile",
                "give exactly one payoff per player for each profile (the product of the numbers of strategies)",
            ));
        }
        let body = body_start.to(self.tokens.last().map_or(body_start, |(_, s)| *s));
        let counts: Vec<usize> = strategies.iter().map(|(s, _)| s.len()).collect();
        let mut clauses = Vec::with_capacity(n + 1);
        for (k, ((player, span), (labels, labels_span))) in
            names.iter().zip(&strategies).enumerate()
        {
            let player = if player.is_empty() {
                format!("Player {}", k + 1)
            } else {
                player.clone()
            };
            let labels = distinct_or_numbered(labels);
            let list = labels
                .into_iter()
                .map(|s| Expr {
                    kind: ExprKind::Str(s),
                    span: *labels_span,
                })
                .collect();
            clauses.push(GameClause::Player(
                Ident {
                    name: player,
                    span: *span,
                },
                Expr {
                    kind: ExprKind::List(list),
                    span: *labels_span,
                },
            ));
        }
        clauses.push(GameClause::Table(nest(cells, &counts, body)));
        Ok(GameDef {
            name: Ident {
                name: name.to_string(),
                span: header,
            },
            params: Vec::new(),
            clauses,
            span: header.to(body),
        })
    }

    /// The outcome version's body: the outcomes, then one outcome number per profile.
    fn outcome_cells(&mut self, n: usize, profiles: usize) -> DiagResult<Vec<Vec<Expr>>> {
        self.expect(Tok::Open, "`{` and the list of outcomes")?;
        let mut outcomes: Vec<Vec<Expr>> = Vec::new();
        loop {
            match self.next("an outcome `{ \"name\" payoffs }` or `}`")? {
                (Tok::Close, _) => break,
                (Tok::Open, open) => {
                    self.label("the outcome's name (a quoted label)")?;
                    let mut payoffs = Vec::with_capacity(n);
                    loop {
                        match self.peek() {
                            Some(Tok::Comma) => self.at += 1,
                            Some(Tok::Close) => {
                                let close = self.next("`}`")?.1;
                                if payoffs.len() != n {
                                    return Err(bad(
                                        open.to(close),
                                        format!("this outcome has {} payoffs, but the game has {n} players", payoffs.len()),
                                        "this outcome",
                                        "give one payoff per player, in the players' order",
                                    ));
                                }
                                break;
                            }
                            _ => {
                                let (q, span) = self.number("a payoff")?;
                                payoffs.push(self.literal(&q, span)?);
                            }
                        }
                    }
                    outcomes.push(payoffs);
                }
                (_, span) => return Err(self.unexpected(span, "an outcome `{ \"name\" payoffs }`")),
            }
        }
        let mut cells = Vec::with_capacity(profiles);
        for done in 0..profiles {
            self.not_yet_ended(done, profiles, "outcome numbers", "one for each profile")?;
            let (t, span) = self.next("an outcome number")?;
            let index = match t {
                Tok::Number(s) => s.parse::<usize>().ok(),
                _ => None,
            };
            let cell = match index {
                Some(0) => vec![Expr { kind: ExprKind::Int(0), span }; n],
                Some(i) if i <= outcomes.len() => outcomes[i - 1].clone(),
                _ => {
                    return Err(bad(
                        span,
                        format!(
                            "`{}` is not an outcome number (the file lists {} outcome{})",
                            &self.text[span.start as usize..span.end as usize],
                            outcomes.len(),
                            if outcomes.len() == 1 { "" } else { "s" }
                        ),
                        "here",
                        "each profile names an outcome by its place in the list, from 1; 0 is the null outcome (every payoff 0)",
                    ))
                }
            };
            cells.push(cell);
        }
        Ok(cells)
    }

    /// An exact number as an expression: an integer, or `num / den`.
    fn literal(&self, q: &BigRational, span: Span) -> DiagResult<Expr> {
        let fits = |b: &BigInt| b.to_i64();
        let (Some(num), Some(den)) = (fits(q.numer()), fits(q.denom())) else {
            let found = &self.text[span.start as usize..span.end as usize];
            return Err(Box::new(
                Diag::error(Code::LoadNfg, format!("the payoff `{found}` is not a 64-bit fraction"))
                    .label(span, "too large, or too fine")
                    .note(format!("exactly, it is {q}"))
                    .help("cgl's numbers are fractions of 64-bit integers; scale the game's payoffs down (equilibria do not change when every payoff of a player is multiplied by the same positive number)"),
            ));
        };
        let int = |v: i64| Expr {
            kind: ExprKind::Int(v),
            span,
        };
        Ok(if den == 1 {
            int(num)
        } else {
            Expr {
                kind: ExprKind::Binary(BinaryOp::Div, Box::new(int(num)), Box::new(int(den))),
                span,
            }
        })
    }
}

/// The labels if they are distinct and not empty, else "1", "2", ...
fn distinct_or_numbered(labels: &[String]) -> Vec<String> {
    let distinct = labels
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .len()
        == labels.len();
    if distinct && labels.iter().all(|l| !l.is_empty()) {
        labels.to_vec()
    } else {
        (1..=labels.len()).map(|i| i.to_string()).collect()
    }
}

/// The profiles' cells (first player fastest) as the nested lists of a `table` clause
/// (first player outermost).
fn nest(cells: Vec<Vec<Expr>>, counts: &[usize], span: Span) -> Expr {
    let n = counts.len();
    // stride[i]: how far apart in `cells` two profiles are that differ by one in player i.
    let mut stride = vec![1usize; n];
    for i in 1..n {
        stride[i] = stride[i - 1] * counts[i - 1];
    }
    fn build(
        cells: &[Vec<Expr>],
        counts: &[usize],
        stride: &[usize],
        depth: usize,
        base: usize,
        span: Span,
    ) -> Expr {
        if depth == counts.len() {
            return Expr {
                kind: ExprKind::Tuple(cells[base].clone()),
                span,
            };
        }
        let items = (0..counts[depth])
            .map(|s| {
                build(
                    cells,
                    counts,
                    stride,
                    depth + 1,
                    base + s * stride[depth],
                    span,
                )
            })
            .collect();
        Expr {
            kind: ExprKind::List(items),
            span,
        }
    }
    build(&cells, counts, &stride, 0, 0, span)
}

/// An exact number as Gambit writes it: `-3`, `2/3`, `0.25`, `.5`, `1.5e-3`, `+7`.
pub(crate) fn number(s: &str) -> Option<BigRational> {
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let (negative, digits) = match mantissa.as_bytes().first() {
        Some(b'-') => (true, &mantissa[1..]),
        Some(b'+') => (false, &mantissa[1..]),
        _ => (false, mantissa),
    };
    let all_digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let mut q = if let Some((n, d)) = digits.split_once('/') {
        if exponent.is_some() || !all_digits(n) || !all_digits(d) {
            return None;
        }
        let d: BigInt = d.parse().ok()?;
        if d.is_zero() {
            return None;
        }
        BigRational::new(n.parse().ok()?, d)
    } else {
        let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
        if (whole.is_empty() && frac.is_empty())
            || !(whole.is_empty() || all_digits(whole))
            || !(frac.is_empty() || all_digits(frac))
        {
            return None;
        }
        let num: BigInt = format!("0{whole}{frac}").parse().ok()?;
        BigRational::new(
            num,
            BigInt::from(10u32).pow(u32::try_from(frac.len()).ok()?),
        )
    };
    if let Some(e) = exponent {
        let e: i32 = e.parse().ok()?;
        if e.unsigned_abs() > 400 {
            return None;
        }
        let scale = BigRational::from_integer(BigInt::from(10u32).pow(e.unsigned_abs()));
        q = if e >= 0 { q * scale } else { q / scale };
    }
    Some(if negative { -q } else { q })
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::{One, Signed};

    fn q(s: &str) -> String {
        number(s).map_or("none".into(), |q| q.to_string())
    }

    #[test]
    fn numbers_are_read_exactly() {
        assert_eq!(q("-3"), "-3");
        assert_eq!(q("2/3"), "2/3");
        assert_eq!(q("-4/6"), "-2/3");
        assert_eq!(q("0.25"), "1/4");
        assert_eq!(q(".5"), "1/2");
        assert_eq!(q("1.5e-3"), "3/2000");
        assert_eq!(q("2.5E3"), "2500");
        assert_eq!(q("+7"), "7");
        for bad in ["", "-", "1/0", "1/2/3", "1..2", "1e", "abc", "1.5/2", "e5"] {
            assert_eq!(q(bad), "none", "{bad}");
        }
        assert!(number("1").is_some_and(|q| q.is_one()));
        assert!(number("-1").is_some_and(|q| q.is_negative()));
    }
}
