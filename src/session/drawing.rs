//! What the drawings of a position and of a game value show, as plain data for
//! `crate::plot` to draw: the graph of moves from a position (`cgl dot`, the page's `:dot`)
//! and a game value's thermograph (the page draws one beside each game value).

use std::collections::BTreeMap;

use super::plot::short_label;
use super::Session;
use crate::cgt::Side;
use crate::diag::{Code, Diag, Span};
use crate::eval::builtins::Builtin;
use crate::plot::dot::{By, Edge, Node};
use crate::plot::thermograph::Walls;
use crate::value::Value;

/// Most positions a graph of moves has by default (`cgl dot --max-nodes`, the REPL's `:dot`).
pub const DOT_NODES: usize = 2_000;

/// The largest picture drawn in a node: a board up to 12 lines of 40 characters; a larger
/// one is left to the printed form.
const NODE_PICTURE: (usize, usize) = (12, 40);

/// Whether a position's picture is short enough to be a node's label.
fn fits_a_node(picture: &str) -> bool {
    let (lines, width) = NODE_PICTURE;
    !picture.is_empty()
        && picture.lines().count() <= lines
        && picture.lines().all(|l| l.chars().count() <= width)
}

/// The graph of moves from a position: node 0 the start, the others in the order a
/// breadth-first walk meets them.
#[derive(Clone, Debug)]
pub struct MovesGraph {
    /// The positions, with their outcome, value and picture.
    pub nodes: Vec<Node>,
    /// The moves.
    pub edges: Vec<Edge>,
}

impl Session {
    /// Every position reachable from `start` (at most `max_nodes`; `what` and `raise` name
    /// the command and its flag in the diagnostic past that), each with its outcome, its
    /// Grundy value or remoteness, and its picture where short.
    pub fn moves_graph(
        &mut self,
        start: &Value,
        span: Span,
        max_nodes: usize,
        what: &str,
        raise: &str,
    ) -> Result<MovesGraph, Vec<Diag>> {
        if !matches!(start, Value::Pos(_)) {
            return Err(vec![Diag::error(
                Code::PlotUsage,
                format!(
                    "`{what}` draws the graph from a position, not {}",
                    start.a_type_name()
                ),
            )
            .label(span, format!("this is {}", self.show_short(start)))
            .help(self.position_help(
                start,
                "make a position by calling a game, e.g. `Chomp([3, 3])`",
            ))]);
        }
        let one = |d: Box<Diag>| vec![*d];
        let Reached { order, moves } = self
            .reachable(std::slice::from_ref(start), span, max_nodes)
            .map_err(|e| match e {
                Unwalked::Failed(d) => d,
                Unwalked::TooMany => vec![Diag::error(
                    Code::PlotTooLarge,
                    format!(
                        "the game graph from this position has more than {max_nodes} positions"
                    ),
                )
                .label(span, "from here")
                .help(format!("draw a smaller position, or raise {raise}"))],
            })?;
        let partizan = self.is_partizan(start);
        let mut nodes = Vec::with_capacity(order.len());
        for p in &order {
            self.stop().check().map_err(one)?;
            let outcome = self.analyse(Builtin::Outcome, p, span).map_err(one)?;
            let outcome = self.show(&outcome);
            // The Grundy value where it is defined (normal play, no draws), else a partizan
            // game's value, else the remoteness, else none (a draw).
            let value = match self.analyse(Builtin::Grundy, p, span) {
                Ok(v) => Some(format!("grundy {}", self.show(&v))),
                Err(_) if partizan => self
                    .analyse(Builtin::Value, p, span)
                    .ok()
                    .map(|v| format!("value {}", short_label(self.show(&v)))),
                Err(_) => self
                    .analyse(Builtin::Remoteness, p, span)
                    .ok()
                    .map(|v| format!("remoteness {}", self.show(&v))),
            };
            let picture = self
                .picture(p, span)
                .map_err(one)?
                .filter(|p| fits_a_node(p));
            nodes.push(Node {
                label: short_label(self.show_short(p)),
                picture,
                outcome,
                value,
            });
        }
        // A Grundy value or remoteness cut short by the deadline reads as none above: the
        // graph is given only if the deadline has not passed.
        self.stop().check().map_err(one)?;
        let edges = moves
            .into_iter()
            .map(|(from, to, by)| {
                // A move wins that leaves the other player, to move, lost.
                let there = nodes[to].outcome.as_str();
                let winning = match by {
                    By::Either => there == "P",
                    By::Left => matches!(there, "P" | "L"),
                    By::Right => matches!(there, "P" | "R"),
                };
                Edge {
                    from,
                    to,
                    by,
                    winning,
                }
            })
            .collect();
        Ok(MovesGraph { nodes, edges })
    }

    /// The walls of the thermograph of a game value that is not a number (a number's
    /// thermograph is its mast alone); `None` for any other value.
    pub fn thermograph_walls(
        &mut self,
        value: &Value,
        span: Span,
    ) -> Result<Option<Walls>, Box<Diag>> {
        if !matches!(value, Value::Form(_)) {
            return Ok(None);
        }
        let number = self.analyse(Builtin::GameValue("is_number"), value, span)?;
        if number == Value::Bool(true) {
            return Ok(None);
        }
        let drawn = self.analyse(Builtin::GameValue("thermograph"), value, span)?;
        let wall = |w: &Value| -> Option<Vec<(f64, f64)>> {
            let Value::List(points) = w else { return None };
            points
                .iter()
                .map(|p| match p {
                    Value::Tuple(tv) if tv.len() == 2 => Some((real(&tv[0])?, real(&tv[1])?)),
                    _ => None,
                })
                .collect()
        };
        let walls = match &drawn {
            Value::Tuple(lr) if lr.len() == 2 => wall(&lr[0]).zip(wall(&lr[1])),
            _ => None,
        };
        let (left, right) =
            walls.ok_or_else(|| Box::new(Diag::internal("a thermograph that is not two walls")))?;
        let temperature = self.analyse(Builtin::GameValue("temperature"), value, span)?;
        let mean = self.analyse(Builtin::GameValue("mean"), value, span)?;
        Ok(Some(Walls {
            left,
            right,
            temperature: real(&temperature).unwrap_or(0.0),
            mean: real(&mean).unwrap_or(0.0),
        }))
    }
}

/// The positions reachable from some starts, breadth first (the starts first), and the moves
/// between them: (from, to, who may make it), indices into `order`.
pub(super) struct Reached {
    pub order: Vec<Value>,
    pub moves: Vec<(usize, usize, By)>,
}

/// Why a walk stopped short.
pub(super) enum Unwalked {
    /// An analysis failed (a limit, an error of a rule).
    Failed(Vec<Diag>),
    /// More positions than asked for.
    TooMany,
}

impl Session {
    /// Every position reachable from `starts`, at most `most` of them. A partizan game's
    /// moves are Left's and Right's (as the first start's game says), told apart.
    pub(super) fn reachable(
        &mut self,
        starts: &[Value],
        span: Span,
        most: usize,
    ) -> Result<Reached, Unwalked> {
        let fail = |d: Box<Diag>| Unwalked::Failed(vec![*d]);
        let partizan = starts.first().is_some_and(|s| self.is_partizan(s));
        let movers: &[(By, Option<Side>)] = if partizan {
            &[(By::Left, Some(Side::Left)), (By::Right, Some(Side::Right))]
        } else {
            &[(By::Either, None)]
        };
        let mut index: BTreeMap<Value, usize> = BTreeMap::new();
        let mut order: Vec<Value> = Vec::new();
        for s in starts {
            if !index.contains_key(s) {
                if order.len() == most {
                    return Err(Unwalked::TooMany);
                }
                index.insert(s.clone(), order.len());
                order.push(s.clone());
            }
        }
        let mut moves = Vec::new();
        let mut next = 0;
        while next < order.len() {
            self.stop().check().map_err(fail)?;
            let here = order[next].clone();
            for &(by, side) in movers {
                for q in self.play_options(&here, side, span).map_err(fail)? {
                    let to = match index.get(&q) {
                        Some(&i) => i,
                        None => {
                            if order.len() == most {
                                return Err(Unwalked::TooMany);
                            }
                            index.insert(q.clone(), order.len());
                            order.push(q);
                            order.len() - 1
                        }
                    };
                    moves.push((next, to, by));
                }
            }
            next += 1;
        }
        Ok(Reached { order, moves })
    }
}

/// A number's value as a float, for drawing.
fn real(v: &Value) -> Option<f64> {
    match v {
        Value::Int(n) => Some(*n as f64),
        Value::Rational(r) => Some(r.numer() as f64 / r.denom() as f64),
        Value::Wide(q) => num_traits::ToPrimitive::to_f64(&**q),
        _ => None,
    }
}
