//! A take-and-break game by code as a table: its heaps' Grundy values with the period the
//! periodicity theorem proves, for the REPL's `:table octal("0.77")` (and any shell that
//! shows a code's sequence).

use super::{Rows, Session};
use crate::cgt::octal::Code;
use crate::diag::DiagResult;
use crate::value::Value;

/// How far a table looks for a proof: milliseconds for the codes of the tables; a code
/// proved later (0.16, at heap 509,621) says so and is left to `octal_period(code, most)`.
pub const TABLE_PROOF_HEAP: usize = 1 << 16;
/// The most heaps a table shows.
const TABLE_HEAPS: usize = 200;

/// The heaps of one code: their values, and the period proved from them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapTable {
    /// What is tabulated: `grundy(octal("0.77")(n)) for n in 0..168`.
    pub title: String,
    /// The code, as `octal_period` prints it (`"0.77"`).
    pub code: String,
    /// `G(0), G(1), ...`: to the heap the proof needs, at most 200 heaps.
    pub values: Vec<u32>,
    /// `(preperiod, period, proved_at)`, when proved by [`TABLE_PROOF_HEAP`].
    pub proved: Option<(usize, usize, usize)>,
    /// Whether a move splits a heap in three, of which the theorem does not speak.
    pub splits_in_three: bool,
}

impl HeapTable {
    /// What the table says of its period: proved (with the heap the proof needs), not
    /// proved by [`TABLE_PROOF_HEAP`], or beyond the theorem.
    pub fn proof(&self) -> String {
        match self.proved {
            Some((pre, p, at)) => format!(
                "period {p}, from n = {pre} (preperiod {pre}), proved by the periodicity theorem from the values to heap {at}"
            ),
            None if self.splits_in_three => "no period proved: the periodicity theorem does not speak of codes that split a heap in three".to_string(),
            None => format!(
                "no period proved to heap {TABLE_PROOF_HEAP}; octal_period(\"{}\", most) looks further",
                self.code
            ),
        }
    }

    /// The heaps as rows of a table by `n` (`Session::tabulate`'s shape).
    pub fn rows(&self) -> Rows {
        (0i64..)
            .zip(&self.values)
            .map(|(n, v)| {
                (
                    Value::Int(n),
                    vec![(Value::None, Value::Int(i64::from(*v)))],
                )
            })
            .collect()
    }
}

impl Session {
    /// The table of `value` when it is a take-and-break game by code (`octal("0.77")`).
    pub fn heap_table(&self, value: &Value) -> Option<DiagResult<HeapTable>> {
        let Value::Game(inst) = value else {
            return None;
        };
        let code = (self.instances()).heap_code(self.program().take_and_break, inst.id())?;
        Some(self.heap_table_of(&code, &self.show(value)))
    }

    fn heap_table_of(&self, code: &Code, game: &str) -> DiagResult<HeapTable> {
        let stop = self.stop();
        let splits_in_three = code.splits_in_three();
        let proved = if splits_in_three {
            None
        } else {
            code.period(TABLE_PROOF_HEAP, &mut || stop.check())?
        };
        let shown = proved.map_or(100, |p| p.proved_at + 1).min(TABLE_HEAPS);
        let values = code.values(shown - 1, &mut || stop.check())?;
        Ok(HeapTable {
            title: format!("grundy({game}(n)) for n in 0..{}", values.len()),
            code: code.show(),
            values,
            proved: proved.map(|p| (p.preperiod, p.period, p.proved_at)),
            splits_in_three,
        })
    }
}
