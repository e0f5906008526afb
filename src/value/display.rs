//! Printing values the way cgl shows them, bounded by the output (a value whose parts are
//! shared prints as fast as a small one).

use std::fmt::Write as _;

use crate::syntax::ast::Convention;

use super::{with_forms, InstanceId, PosTerm, Position, Value};

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

/// The most bytes a printed value takes: past them, the rest of each list, set, tuple,
/// string or compound is written `…` (see [`display_bounded`]).
pub const MAX_SHOWN: usize = 1 << 20;

/// Formats a value the way cgl prints it (`[0, 1, 2]`, `(71, 12)`, `Nim(6) + Nim(20)`), cut
/// after [`MAX_SHOWN`] bytes.
pub fn display(value: &Value, names: &dyn InstanceNames) -> String {
    display_bounded(value, names, MAX_SHOWN).0
}

/// The most bytes of a value a diagnostic shows.
pub const SHOWN_IN_DIAGNOSTICS: usize = 4096;

/// Formats a value for a diagnostic's message, label or note: as [`display`] does, cut after
/// [`SHOWN_IN_DIAGNOSTICS`] bytes.
pub fn display_short(value: &Value, names: &dyn InstanceNames) -> String {
    display_bounded(value, names, SHOWN_IN_DIAGNOSTICS).0
}

/// Formats a value as [`display`] does, cut after about `limit` bytes: once that much is
/// written, the rest of each open list, set, tuple, string or compound is written `…` and
/// it is closed. Also says whether it was cut. The work is bounded by the output, so a value
/// whose parts are shared (exponential when printed) prints as fast as a small one.
pub fn display_bounded(value: &Value, names: &dyn InstanceNames, limit: usize) -> (String, bool) {
    let mut out = Out {
        text: String::new(),
        limit,
        cut: false,
    };
    write_value(&mut out, value, names);
    (out.text, out.cut)
}

/// A value being printed, up to a limit.
struct Out {
    text: String,
    limit: usize,
    cut: bool,
}

/// Bytes past the limit that closing brackets, separators and `…` may take once a value is
/// cut (enough to close a value nested 150 deep): a value nested 100,000 deep prints as its
/// first bytes, not with 100,000 closers.
const CLOSE_ROOM: usize = 1024;

impl Out {
    /// True, with `…` written, once the limit is reached.
    fn full(&mut self) -> bool {
        if self.text.len() < self.limit {
            return false;
        }
        if self.text.len() < self.limit + CLOSE_ROOM {
            self.text.push('…');
        }
        self.cut = true;
        true
    }

    /// Writes a closing bracket or a separator, unless the value is cut well past its limit.
    fn close(&mut self, s: &str) {
        if self.text.len() < self.limit + CLOSE_ROOM {
            self.text.push_str(s);
        }
    }
}

fn write_seq<'a>(
    out: &mut Out,
    open: &str,
    items: impl Iterator<Item = &'a Value>,
    close: &str,
    names: &dyn InstanceNames,
) {
    out.close(open);
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.close(", ");
        }
        if out.full() {
            break;
        }
        write_value(out, item, names);
    }
    out.close(close);
}

/// Writes a value; values nest without a bound of their own, so each level has stack
/// enough ([`crate::stack::grow`]).
fn write_value(out: &mut Out, value: &Value, names: &dyn InstanceNames) {
    if out.full() {
        return;
    }
    crate::stack::grow(|| write_value_here(out, value, names));
}

fn write_value_here(out: &mut Out, value: &Value, names: &dyn InstanceNames) {
    match value {
        Value::None => out.text.push_str("none"),
        Value::Bool(b) => out.text.push_str(if *b { "true" } else { "false" }),
        Value::Int(n) => {
            let _ = write!(out.text, "{n}");
        }
        Value::Rational(r) => {
            let _ = write!(out.text, "{r}");
        }
        Value::Wide(q) => {
            let _ = write!(out.text, "{q}");
        }
        Value::Infinite(k) => {
            let values: Vec<String> = k.iter().map(u64::to_string).collect();
            let _ = write!(out.text, "inf({})", values.join(", "));
        }
        Value::Form(g) => {
            let room = out.limit.saturating_sub(out.text.len());
            let (shown, cut) =
                with_forms(|t| t.show_bounded(*g, crate::cgt::Style::Explicit, room));
            out.text.push_str(&shown);
            out.cut |= cut;
        }
        Value::Str(s) => {
            let room = out.limit.saturating_sub(out.text.len());
            if s.len() <= room {
                let _ = write!(out.text, "{s:?}");
            } else {
                let mut end = room;
                while !s.is_char_boundary(end) {
                    end -= 1;
                }
                let _ = write!(out.text, "{:?}", &s[..end]);
                out.text.pop();
                out.text.push_str("…\"");
                out.cut = true;
            }
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
            let _ = write!(out.text, "{a}..{b}");
        }
        Value::Outcome(o) => {
            let _ = write!(out.text, "{o:?}");
        }
        Value::Mode(m) => out.text.push_str(m.name()),
        Value::Game(i) => out.text.push_str(names.instance_label(i.id())),
        Value::Pos(p) => write_position(out, p, names),
        Value::Split(parts) => write_seq(out, "split(", parts.iter(), ")", names),
    }
}

fn write_position(out: &mut Out, position: &Position, names: &dyn InstanceNames) {
    let mut instances = Vec::new();
    position.term.instances(&mut instances);
    let first = instances.first().map(|i| names.instance_convention(*i));
    if !instances
        .iter()
        .all(|i| Some(names.instance_convention(*i)) == first)
    {
        // Games of both conventions: each part of a game whose convention is not the
        // position's is wrapped, so that the parts combine when the text is read back
        // (`misere(Nim(1)) + M(2)` for a misère `M`; `misere(Nim(1) + M(2))` would combine
        // a normal-play part with a misère one).
        write_term(out, &position.term, names, false, Some(position.convention));
        return;
    }
    // The empty game belongs to no game: it is natural under normal play.
    if first.unwrap_or(Convention::Normal) == position.convention {
        write_term(out, &position.term, names, false, None);
        return;
    }
    write_convention(out, position.convention);
    write_term(out, &position.term, names, false, None);
    out.close(")");
}

fn write_convention(out: &mut Out, convention: Convention) {
    out.text.push_str(match convention {
        Convention::Normal => "normal(",
        Convention::Misere => "misere(",
    });
}

/// Writes a term: nothing once the limit is reached (a position held in a position ... a
/// million deep prints as its first bytes, in time bounded by them). With `wrap`, a
/// position of a game whose convention is not that one is written in `misere(...)` or
/// `normal(...)`.
fn write_term(
    out: &mut Out,
    term: &PosTerm,
    names: &dyn InstanceNames,
    nested: bool,
    wrap: Option<Convention>,
) {
    if out.full() {
        return;
    }
    match term {
        PosTerm::Atom(id, data) => {
            let wrapped = wrap.filter(|c| names.instance_convention(id.id()) != *c);
            if let Some(c) = wrapped {
                write_convention(out, c);
            }
            out.text.push_str(names.instance_label(id.id()));
            match data {
                Value::Tuple(fields) if !fields.is_empty() => {
                    let defaults = names.field_defaults(id.id());
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
                    out.close("(");
                    write_value(out, other, names);
                    out.close(")");
                }
            }
            if wrapped.is_some() {
                out.close(")");
            }
        }
        PosTerm::Compound(kind, parts) => {
            if parts.is_empty() {
                out.text.push_str("split()");
                return;
            }
            if nested {
                out.text.push('(');
            }
            for (i, part) in parts.iter().enumerate() {
                if i > 0 {
                    out.close(&format!(" {} ", kind.symbol()));
                }
                if out.full() {
                    break;
                }
                crate::stack::grow(|| write_term(out, part, names, true, wrap));
            }
            if nested {
                out.close(")");
            }
        }
    }
}
