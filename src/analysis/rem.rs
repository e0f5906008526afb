//! Remoteness, the Kalmár–Steinhaus function (003): the value ([`Rem`]), how the memo keeps
//! it ([`RemCode`], [`RemMemo`], four bytes a slot), and the rules that make it from the
//! options' values (`lego`, and the selective compound's), which the depth-first search
//! (`impartial.rs`) and `reachable`'s search (`reach.rs`) both apply. Retrograde analysis
//! (`retro.rs`) and the parallel solver (`parallel/`) write the same codes.

use super::solve::{MemoTable, Slot};
use crate::diag::{Diag, DiagResult};
use crate::eval::value::Outcome;
use crate::graph::TermInfo;
use crate::syntax::ast::Convention;

/// Remoteness: `Some(r)` (even iff P), or `None` for a draw.
pub type Rem = Option<u64>;

/// A remoteness as the memo keeps it, in 4 bytes: `r`, or `u32::MAX` for a draw. A
/// remoteness is the length of a play, so below the number of positions (`u32` ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RemCode(pub(super) u32);

impl RemCode {
    pub(super) const DRAW: RemCode = RemCode(u32::MAX);
    /// Remoteness values from here up are not kept (`RemMemo` needs three codes).
    const MAX: u32 = u32::MAX - 3;

    pub(super) fn get(self) -> Rem {
        (self != RemCode::DRAW).then_some(u64::from(self.0))
    }

    pub(super) fn of(r: Rem) -> DiagResult<RemCode> {
        match r {
            None => Ok(RemCode::DRAW),
            Some(r) => match u32::try_from(r) {
                Ok(code) if code < RemCode::MAX => Ok(RemCode(code)),
                _ => Err(Box::new(Diag::internal(format!(
                    "a remoteness of {r} is past what the memo can hold"
                )))),
            },
        }
    }
}

/// The remoteness memo: a slot in 4 bytes, not the 8 of a `Slot<RemCode>` (a large board has
/// millions of positions): 0 unknown, 1 on the search stack, 2 a draw, `r + 3` remoteness `r`.
#[derive(Clone, Debug, Default)]
pub struct RemMemo(Vec<u32>);

impl RemMemo {
    /// The memo's size in bytes.
    pub fn bytes(&self) -> usize {
        std::mem::size_of_val(self.0.as_slice())
    }
}

impl MemoTable<RemCode> for RemMemo {
    fn slot(&self, i: usize) -> Slot<RemCode> {
        match self.0.get(i).copied().unwrap_or(0) {
            0 => Slot::Unknown,
            1 => Slot::Active,
            2 => Slot::Done(RemCode::DRAW),
            code => Slot::Done(RemCode(code - 3)),
        }
    }

    fn put(&mut self, i: usize, value: Slot<RemCode>) {
        if self.0.len() <= i {
            self.0.resize(i + 1, 0);
        }
        self.0[i] = match value {
            Slot::Unknown => 0,
            Slot::Active => 1,
            Slot::Done(RemCode::DRAW) => 2,
            // Below `RemCode::MAX` (see `RemCode::of`), so no overflow.
            Slot::Done(RemCode(r)) => r + 3,
        };
    }
}

/// The outcome that a remoteness gives: even is P, odd N, none a draw.
pub(super) fn parity(r: Rem) -> Outcome {
    match r {
        None => Outcome::D,
        Some(r) if r % 2 == 0 => Outcome::P,
        Some(_) => Outcome::N,
    }
}

/// The selective rule for two remoteness values: `a + b`, minus 1 when both are odd.
pub fn selective_rule(a: u64, b: u64) -> u64 {
    if a % 2 == 1 && b % 2 == 1 {
        a + b - 1
    } else {
        a + b
    }
}

/// `κ(p) = 1 + lego { κ(q) : p -> q }` from the options' values; at an end of play 0 under
/// normal play, 1 under misère play, none at a declared draw.
pub(super) fn lego_rule(info: TermInfo, conv: Convention, values: &[RemCode]) -> Rem {
    if values.is_empty() {
        return if info.draw {
            None
        } else if conv == Convention::Normal {
            Some(0)
        } else {
            Some(1)
        };
    }
    let known = values.iter().filter_map(|v| v.get());
    let least_even = known.clone().filter(|v| *v % 2 == 0).min();
    if let Some(e) = least_even {
        return Some(e + 1);
    }
    if values.contains(&RemCode::DRAW) {
        return None;
    }
    known.max().map(|m| m + 1)
}
