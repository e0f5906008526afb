//! Heaps of take-and-break games by code (`octal("0.77")(n)`, the prelude's `TakeAndBreak`):
//! their Grundy values, and so their normal-play outcomes, are read off the code's sequence
//! (`cgt::octal`: the sparse-space method, the period repeated once it is proved) instead of
//! searched position by position, so that a heap of a million tokens costs what its sequence
//! does, not its million options each. A sum of heaps is valued by the solvers' own theorem
//! (the XOR of its parts'), each part asking here.
//!
//! Every solver that values impartial atoms asks [`grundy`] first: the depth-first
//! recurrences (`impartial.rs`), the streaming search (`stream/`), and the draw searches,
//! which learn from [`is_heap`] that nothing below a heap draws. Misère play, remoteness and
//! the optimal line search the heap's options as for any game.

use std::collections::hash_map::Entry;

use rustc_hash::FxHashMap;

use super::Analyzer;
use crate::cgt::octal::{Code, Period};
use crate::diag::{Code as DiagCode, Diag, DiagResult};
use crate::eval::value::{InstanceId, Value};
use crate::eval::World;
use crate::graph::{Term, TermId};

/// The sequences of the take-and-break instances met so far, by instance.
#[derive(Debug, Default)]
pub struct Sequences {
    by_instance: FxHashMap<InstanceId, Sequence>,
    /// The bytes the values take together.
    bytes: usize,
}

/// One code's values so far, and its period once proved.
#[derive(Debug)]
struct Sequence {
    code: Code,
    values: Vec<u32>,
    period: Option<Period>,
}

/// The heap a sequence is first computed to: small heaps cost microseconds, and most codes'
/// periods are proved below it.
const FIRST_HEAPS: usize = 1 << 10;

impl Sequences {
    /// The bytes the values take (the memos count them with the tables by value).
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

impl Sequence {
    /// `G(n)`, if computed or implied by the proved period.
    fn get(&self, n: usize) -> Option<u32> {
        if let Some(&v) = self.values.get(n) {
            return Some(v);
        }
        let p = self.period?;
        // The values reach past the proof, so a heap past them repeats one within it.
        Some(self.values[p.preperiod + (n - p.preperiod) % p.period])
    }
}

/// Whether `t` is a heap of a take-and-break game by code.
pub(super) fn is_heap(an: &mut Analyzer, w: &World<'_>, t: TermId) -> bool {
    heap_of(an, w, t).is_some()
}

/// The heap `t` is, with its instance, when it is one of a take-and-break game by code.
/// Asked of every term the impartial solvers value: a term of another game costs the look-up
/// of its instance's game, nothing more.
fn heap_of(an: &mut Analyzer, w: &World<'_>, t: TermId) -> Option<(InstanceId, usize)> {
    let inst = an.graph.atom_instance(t)?;
    if Some(w.games.info(inst).game) != w.program.take_and_break {
        return None;
    }
    // Small heaps sit in the graph's dense table, large ones boxed.
    let n = match an.graph.int_atom(t) {
        Some((_, n)) => n,
        None => match an.graph.term(t) {
            Term::Atom(_, Value::Int(n)) => n,
            _ => return None,
        },
    };
    if let Entry::Vacant(e) = an.memos.sequences.by_instance.entry(inst) {
        let code = w.games.heap_code(w.program.take_and_break, inst)?;
        e.insert(Sequence {
            code,
            values: Vec::new(),
            period: None,
        });
    }
    Some((inst, usize::try_from(n).ok()?))
}

/// The Grundy value of `t` when it is a heap of a take-and-break game by code, computing
/// the code's sequence as far as needed (doubling, so a run of growing heaps costs the
/// sequence once); `None` for any other term.
pub(super) fn grundy(an: &mut Analyzer, w: &World<'_>, t: TermId) -> DiagResult<Option<u64>> {
    let Some((inst, n)) = heap_of(an, w, t) else {
        return Ok(None);
    };
    let sequences = &mut an.memos.sequences;
    let Some(seq) = sequences.by_instance.get_mut(&inst) else {
        return Ok(None);
    };
    if let Some(v) = seq.get(n) {
        return Ok(Some(u64::from(v)));
    }
    let most = seq.code.max_heap();
    if n > most {
        return Err(Box::new(
            Diag::error(
                DiagCode::EvalTooLarge,
                format!(
                    "the Grundy values of {} are computed to heaps of {most}, not {n}",
                    seq.code.show()
                ),
            )
            .help("a code that splits heaps in three costs the square of the heap: ask of smaller heaps"),
        ));
    }
    let to = n.max(seq.values.len() * 2).max(FIRST_HEAPS).min(most);
    let stop = w.stop;
    let (values, period) = seq.code.sequence(to, &mut || stop.check())?;
    sequences.bytes -= seq.values.len() * 4;
    sequences.bytes += values.len() * 4;
    seq.values = values;
    seq.period = period;
    let v = seq.get(n).map(u64::from);
    an.graph.set_value_table_bytes(an.memos.value_table_bytes());
    Ok(v)
}
