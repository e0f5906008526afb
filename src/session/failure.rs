//! What a failed comparison in an `expect` says beyond its two sides: where two long
//! sequences part.

use super::Session;
use crate::eval::value::Value;

/// Sequences with at least this many items are long: a failed comparison of two says where
/// they differ.
const LONG_SEQUENCE: usize = 8;

/// Both sides of a failed comparison, as a diagnostic shows them, and where two long
/// sequences differ ([`Session::first_difference`]).
pub(super) struct Sides {
    pub(super) left: String,
    pub(super) right: String,
    pub(super) difference: Option<String>,
}

impl Session {
    /// Where two long sequences (lists, or tuples) that are not equal part: the first index
    /// whose items differ and the two items there, or where the shorter one ends. `None` for
    /// other values and for sequences short enough to compare by eye (fewer than
    /// [`LONG_SEQUENCE`] items each).
    pub(super) fn first_difference(&self, left: &Value, right: &Value) -> Option<String> {
        let (a, b) = match (left, right) {
            (Value::List(a), Value::List(b)) => (a, b),
            (Value::Tuple(a), Value::Tuple(b)) => (a, b),
            _ => return None,
        };
        if a.len().max(b.len()) < LONG_SEQUENCE {
            return None;
        }
        match a.iter().zip(b.iter()).position(|(x, y)| x != y) {
            Some(i) => Some(format!(
                "they differ first at index {i}: {} on the left, {} on the right",
                self.show_short(&a[i]),
                self.show_short(&b[i])
            )),
            None if a.len() != b.len() => {
                let (longer, side) = if a.len() > b.len() {
                    (a, "left")
                } else {
                    (b, "right")
                };
                let shorter = a.len().min(b.len());
                Some(format!(
                    "the left has {} items and the right {}; the first {shorter} agree, then \
                     the {side} goes on with {}",
                    a.len(),
                    b.len(),
                    self.show_short(&longer[shorter])
                ))
            }
            None => None,
        }
    }
}
