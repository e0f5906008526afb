//! Runtime values: checked integers, collections, outcomes, games and positions.
//!
//! Every value is immutable and cheap to clone (`Rc` inside). Equality, order and hashing are
//! structural and deterministic; sets are ordered, so printing never depends on hash order.

use std::collections::BTreeSet;
use std::fmt::{self, Write as _};
use std::rc::Rc;

use crate::syntax::ast::Convention;

/// The class of a position under optimal play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// The next player (the one to move) wins.
    N,
    /// The previous player wins.
    P,
    /// Neither can force a win: a draw.
    D,
}

/// How the parts of a compound are played together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CompoundKind {
    /// Move in exactly one part; over when every part is over (`x + y`).
    Disjunctive,
    /// Move in every part; over as soon as one part is over (`x & y`).
    Conjunctive,
    /// Move in any non-empty set of parts; over when every part is over (`x | y`).
    Selective,
}

impl CompoundKind {
    /// The operator that builds this compound.
    pub fn symbol(self) -> &'static str {
        match self {
            CompoundKind::Disjunctive => "+",
            CompoundKind::Conjunctive => "&",
            CompoundKind::Selective => "|",
        }
    }

    /// The name of the mode constant.
    pub fn name(self) -> &'static str {
        match self {
            CompoundKind::Disjunctive => "disjunctive",
            CompoundKind::Conjunctive => "conjunctive",
            CompoundKind::Selective => "selective",
        }
    }
}

/// A game instance: a game with its parameter values. Index into [`super::GameTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct InstanceId(pub u32);

/// A position of one game, or a compound of positions.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PosTerm {
    /// A position of a game instance: the instance and the position's data.
    Atom(InstanceId, Value),
    /// A compound: parts flattened (no part has the same kind) and sorted, so that equal
    /// multisets compare equal. No parts: the empty game, written `split()`.
    Compound(CompoundKind, Rc<[PosTerm]>),
}

impl PosTerm {
    /// The empty game (nothing left to play).
    pub fn empty() -> PosTerm {
        PosTerm::Compound(CompoundKind::Disjunctive, Rc::from(Vec::new()))
    }

    /// Builds a compound in canonical form: nested parts of the same kind are flattened, parts
    /// are sorted, and a compound of one part is that part.
    pub fn compound(kind: CompoundKind, parts: impl IntoIterator<Item = PosTerm>) -> PosTerm {
        let mut flat = Vec::new();
        for part in parts {
            match part {
                PosTerm::Compound(k, inner) if k == kind || inner.is_empty() => {
                    if k == kind {
                        flat.extend(inner.iter().cloned());
                    } else {
                        // The empty game is neutral in every kind of compound but the
                        // conjunctive one, where it ends the game at once.
                        if kind == CompoundKind::Conjunctive {
                            flat.push(PosTerm::Compound(k, inner));
                        }
                    }
                }
                other => flat.push(other),
            }
        }
        flat.sort();
        if flat.len() == 1 {
            if let Some(only) = flat.pop() {
                return only;
            }
        }
        if flat.is_empty() {
            return PosTerm::empty();
        }
        PosTerm::Compound(kind, Rc::from(flat))
    }

    /// Every instance that appears in the term.
    pub fn instances(&self, out: &mut Vec<InstanceId>) {
        match self {
            PosTerm::Atom(i, _) => out.push(*i),
            PosTerm::Compound(_, parts) => parts.iter().for_each(|p| p.instances(out)),
        }
    }
}

/// A position as a value: what is played, and under which convention.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// The position or compound.
    pub term: PosTerm,
    /// Normal or misère play of the whole.
    pub convention: Convention,
}

/// A cgl value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// `none`.
    None,
    /// `true`, `false`.
    Bool(bool),
    /// A 64-bit integer; arithmetic on it is checked.
    Int(i64),
    /// A string.
    Str(Rc<str>),
    /// `(a, b)`.
    Tuple(Rc<[Value]>),
    /// `[a, b]`.
    List(Rc<[Value]>),
    /// `{a, b}`, ordered.
    Set(Rc<BTreeSet<Value>>),
    /// `a..b` as the half-open range `[start, end)`.
    Range(i64, i64),
    /// `N`, `P`, `D`.
    Outcome(Outcome),
    /// `disjunctive`, `conjunctive`, `selective`.
    Mode(CompoundKind),
    /// A game (with its parameters), such as `Kayles` or `Subtraction[S = {2, 4, 7}]`.
    Game(InstanceId),
    /// A position or compound of positions.
    Pos(Rc<Position>),
    /// `split(...)` of position data, before the game it belongs to is known.
    Split(Rc<[Value]>),
}

impl Value {
    /// A list value.
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::from(items))
    }

    /// A tuple value.
    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(Rc::from(items))
    }

    /// A position value.
    pub fn pos(term: PosTerm, convention: Convention) -> Value {
        Value::Pos(Rc::new(Position { term, convention }))
    }

    /// The type's name with its article ("an int", "a list"), for error messages.
    pub fn a_type_name(&self) -> String {
        let name = self.type_name();
        match name {
            "none" => "none".to_string(),
            "int" | "outcome" => format!("an {name}"),
            _ => format!("a {name}"),
        }
    }

    /// The name of the value's type, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::None => "none",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Str(_) => "string",
            Value::Tuple(_) => "tuple",
            Value::List(_) => "list",
            Value::Set(_) => "set",
            Value::Range(..) => "range",
            Value::Outcome(_) => "outcome",
            Value::Mode(_) => "compound mode",
            Value::Game(_) => "game",
            Value::Pos(_) => "position",
            Value::Split(_) => "split",
        }
    }
}

/// What printing a value needs to know about game instances.
pub trait InstanceNames {
    /// The instance's display name, such as `Subtraction[S = {2, 4, 7}]`.
    fn instance_label(&self, id: InstanceId) -> &str;
    /// The convention positions of the instance are played under by default.
    fn instance_convention(&self, id: InstanceId) -> Convention;
    /// Default values of the instance's position fields (trailing fields that equal their
    /// defaults are not printed).
    fn field_defaults(&self, _id: InstanceId) -> &[Option<Value>] {
        &[]
    }
}

/// Formats a value the way cgl prints it (`[0, 1, 2]`, `(71, 12)`, `Nim(6) + Nim(20)`).
pub fn display(value: &Value, names: &dyn InstanceNames) -> String {
    let mut out = String::new();
    write_value(&mut out, value, names);
    out
}

fn write_seq<'a>(
    out: &mut String,
    open: &str,
    items: impl Iterator<Item = &'a Value>,
    close: &str,
    names: &dyn InstanceNames,
) {
    out.push_str(open);
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_value(out, item, names);
    }
    out.push_str(close);
}

/// Writes a value; values nest without a bound of their own, so each level has stack
/// enough ([`crate::stack::grow`]).
fn write_value(out: &mut String, value: &Value, names: &dyn InstanceNames) {
    crate::stack::grow(|| write_value_here(out, value, names));
}

fn write_value_here(out: &mut String, value: &Value, names: &dyn InstanceNames) {
    match value {
        Value::None => out.push_str("none"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(n) => {
            let _ = write!(out, "{n}");
        }
        Value::Str(s) => {
            let _ = write!(out, "{s:?}");
        }
        Value::Tuple(items) => write_seq(
            out,
            "(",
            items.iter(),
            if items.len() == 1 { ",)" } else { ")" },
            names,
        ),
        Value::List(items) => write_seq(out, "[", items.iter(), "]", names),
        Value::Set(items) => write_seq(out, "{", items.iter(), "}", names),
        Value::Range(a, b) => {
            let _ = write!(out, "{a}..{b}");
        }
        Value::Outcome(o) => {
            let _ = write!(out, "{o:?}");
        }
        Value::Mode(m) => out.push_str(m.name()),
        Value::Game(id) => out.push_str(names.instance_label(*id)),
        Value::Pos(p) => write_position(out, p, names),
        Value::Split(parts) => write_seq(out, "split(", parts.iter(), ")", names),
    }
}

fn write_position(out: &mut String, position: &Position, names: &dyn InstanceNames) {
    let mut instances = Vec::new();
    position.term.instances(&mut instances);
    // The empty game belongs to no game: it is natural under normal play.
    let natural = if instances.is_empty() {
        position.convention == Convention::Normal
    } else {
        instances
            .iter()
            .all(|i| names.instance_convention(*i) == position.convention)
    };
    if natural {
        write_term(out, &position.term, names, false);
        return;
    }
    out.push_str(match position.convention {
        Convention::Normal => "normal(",
        Convention::Misere => "misere(",
    });
    write_term(out, &position.term, names, false);
    out.push(')');
}

fn write_term(out: &mut String, term: &PosTerm, names: &dyn InstanceNames, nested: bool) {
    match term {
        PosTerm::Atom(id, data) => {
            out.push_str(names.instance_label(*id));
            match data {
                Value::Tuple(fields) if !fields.is_empty() => {
                    let defaults = names.field_defaults(*id);
                    let mut shown = fields.len();
                    while shown > 0
                        && defaults
                            .get(shown - 1)
                            .is_some_and(|d| d.as_ref() == Some(&fields[shown - 1]))
                    {
                        shown -= 1;
                    }
                    write_seq(out, "(", fields[..shown].iter(), ")", names)
                }
                other => {
                    out.push('(');
                    write_value(out, other, names);
                    out.push(')');
                }
            }
        }
        PosTerm::Compound(kind, parts) => {
            if parts.is_empty() {
                out.push_str("split()");
                return;
            }
            if nested {
                out.push('(');
            }
            for (i, part) in parts.iter().enumerate() {
                if i > 0 {
                    let _ = write!(out, " {} ", kind.symbol());
                }
                write_term(out, part, names, true);
            }
            if nested {
                out.push(')');
            }
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}
