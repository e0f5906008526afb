//! Values as data: a cgl value turned into plain Rust data (and JSON, by serde) that a web
//! page, an editor or a notebook can take apart, where [`Session::show`] gives its text.

use serde::Serialize;

use super::Session;
use crate::diag::{Diag, Diagnostic, Span};
use crate::eval::builtins::Builtin;
use crate::value::Value;

/// A value as data. Serialised, each is an object with a `kind` (`"int"`, `"list"`, ...)
/// and, but for `none`, a `value`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Data {
    /// `none`.
    None,
    /// `true` or `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A fraction in lowest terms, its denominator above 1.
    Rational {
        /// The numerator.
        numerator: i64,
        /// The denominator.
        denominator: i64,
    },
    /// A fraction whose numerator or denominator does not fit in 64 bits, both written in
    /// decimal (its denominator above 1).
    Wide {
        /// The numerator.
        numerator: String,
        /// The denominator.
        denominator: String,
    },
    /// A string.
    Str(String),
    /// An outcome class: `"N"`, `"P"`, `"D"`, `"L"` or `"R"`.
    Outcome(String),
    /// A compound mode: `"disjunctive"`, `"conjunctive"`, `"selective"`.
    Mode(String),
    /// A tuple.
    Tuple(Vec<Data>),
    /// A list.
    List(Vec<Data>),
    /// A set, in cgl's order.
    Set(Vec<Data>),
    /// The half-open range `start..end`.
    Range {
        /// The first integer.
        start: i64,
        /// One past the last.
        end: i64,
    },
    /// A game with its parameters, as cgl names it (`Subtraction[S = {1, 2}]`).
    Game(String),
    /// A position or a compound of positions, as cgl writes it (`Nim(3) + Nim(5)`).
    Position(String),
    /// A canonical form that is not a number (`*`, `^`, `{2 | -1/2}`).
    Form(String),
    /// `split(...)` of position data.
    Split(Vec<Data>),
    /// A loopy nimber `inf(0, 1)`: the finite values of its options.
    Infinite(Vec<u64>),
}

/// One equilibrium of a strategic game: each player's mixed strategy, the probability of each
/// of their strategies in declaration order (an integer or a rational).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Equilibrium {
    /// Per player, the probability of each strategy.
    pub strategies: Vec<Vec<Data>>,
}

/// The equilibria of a two-player strategic game, as `nash` finds them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Equilibria {
    /// How they were found (`"support enumeration"`, `"vertex enumeration"`,
    /// `"lemke-howson"`).
    pub method: String,
    /// Whether the list is every equilibrium (or every extreme one, for vertex enumeration).
    pub complete: bool,
    /// The players' names.
    pub players: Vec<String>,
    /// Each player's strategies, as cgl writes them.
    pub labels: Vec<Vec<String>>,
    /// The equilibria.
    pub equilibria: Vec<Equilibrium>,
}

impl Session {
    /// Diagnostics of this session's sources as data (lines, columns and byte offsets).
    pub fn diagnostics(&self, diags: &[Diag]) -> Vec<Diagnostic> {
        Diagnostic::all(diags, &self.sources)
    }

    /// A value as data.
    pub fn data(&self, value: &Value) -> Data {
        // A value may nest a million deep: each level runs on a stack that has room for it.
        let one = |v: &Value| crate::stack::grow(|| self.data(v));
        let all = |items: &[Value]| items.iter().map(one).collect();
        match value {
            Value::None => Data::None,
            Value::Bool(b) => Data::Bool(*b),
            Value::Int(n) => Data::Int(*n),
            Value::Rational(r) => Data::Rational {
                numerator: r.numer(),
                denominator: r.denom(),
            },
            Value::Wide(q) => Data::Wide {
                numerator: q.numer().to_string(),
                denominator: q.denom().to_string(),
            },
            Value::Str(s) => Data::Str(s.to_string()),
            Value::Outcome(o) => Data::Outcome(o.to_string()),
            Value::Mode(m) => Data::Mode(m.name().to_string()),
            Value::Tuple(items) => Data::Tuple(all(items)),
            Value::List(items) => Data::List(all(items)),
            Value::Set(items) => Data::Set(items.iter().map(one).collect()),
            Value::Infinite(k) => Data::Infinite(k.iter().copied().collect()),
            Value::Range(start, end) => Data::Range {
                start: *start,
                end: *end,
            },
            Value::Game(_) => Data::Game(self.show(value)),
            Value::Pos(_) => Data::Position(self.show(value)),
            Value::Form(_) => Data::Form(self.show(value)),
            Value::Split(items) => Data::Split(all(items)),
        }
    }

    /// The equilibria of a two-player strategic game, found as `nash(G)` finds them; `None`
    /// if the value is not a strategic game. Errors point at `span`.
    pub fn equilibria(
        &mut self,
        game: &Value,
        span: Span,
    ) -> Option<Result<Equilibria, Box<Diag>>> {
        let table = match self.strategic_table(game, span)? {
            Ok(table) => table,
            Err(d) => return Some(Err(d)),
        };
        let found = match self.analyse(Builtin::Nash, game, span) {
            Ok(found) => found,
            Err(d) => return Some(Err(d)),
        };
        let labels = table
            .strategies
            .iter()
            .map(|s| s.iter().map(|v| self.show(v)).collect())
            .collect();
        let players = table.game.players.clone();
        Some(
            self.equilibria_of(&found)
                .map(|(method, complete, equilibria)| Equilibria {
                    method,
                    complete,
                    players,
                    labels,
                    equilibria,
                })
                .ok_or_else(|| Box::new(Diag::internal("`nash` gave no (method, complete, list)"))),
        )
    }

    /// `nash`'s `(method, complete, [(x, y), ...])` taken apart.
    fn equilibria_of(&self, found: &Value) -> Option<(String, bool, Vec<Equilibrium>)> {
        let Value::Tuple(parts) = found else {
            return None;
        };
        let [Value::Str(method), Value::Bool(complete), Value::List(list)] = &parts[..] else {
            return None;
        };
        let equilibria = list
            .iter()
            .map(|profile| match profile {
                Value::Tuple(players) => Some(Equilibrium {
                    strategies: players
                        .iter()
                        .map(|mixed| match self.data(mixed) {
                            Data::List(p) => Some(p),
                            _ => None,
                        })
                        .collect::<Option<_>>()?,
                }),
                _ => None,
            })
            .collect::<Option<_>>()?;
        Some((method.to_string(), *complete, equilibria))
    }
}

/// A text picture (a game's `show` clause, [`Session::picture`]) as an SVG image: one line of
/// monospaced text per line of the picture, sized to fit it.
pub fn picture_svg(picture: &str) -> String {
    const CHAR_W: usize = 10;
    const LINE_H: usize = 20;
    let lines: Vec<&str> = picture.lines().collect();
    let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) * CHAR_W + 2 * CHAR_W;
    let height = lines.len() * LINE_H + LINE_H;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text font-family=\"monospace\" font-size=\"16\" xml:space=\"preserve\">\n"
    );
    for (i, line) in lines.iter().enumerate() {
        svg.push_str(&format!(
            "<tspan x=\"{CHAR_W}\" y=\"{}\">{}</tspan>\n",
            (i + 1) * LINE_H,
            crate::plot::svg::escape(line)
        ));
    }
    svg.push_str("</text>\n</svg>\n");
    svg
}
