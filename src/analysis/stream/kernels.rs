//! The streaming solver's inner loops over the dense tables of values: the mex as a bitset,
//! and the gathers of a block's or an affine run's options whose parts' Grundy values the
//! table by value holds.

use crate::eval::compiled::{AffineRun, Block};

/// The smallest natural number not in a set, over a reused bitset.
#[derive(Default)]
pub(super) struct Mex {
    words: Vec<u64>,
}

impl Mex {
    pub(super) fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }

    /// Inserts `v`. Every value counts, however large (no cut-off that a game with very
    /// many options could pass): a Grundy value `g` means options of every value below `g`,
    /// so more than `g` positions in the graph, and an option's value is a part's value or
    /// a XOR of them (below twice the largest), so these bits take far less memory than the
    /// positions behind them.
    #[inline]
    pub(super) fn insert(&mut self, v: u64) {
        let Ok(word) = usize::try_from(v / 64) else {
            return;
        };
        let bit = v % 64;
        if self.words.len() <= word {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1 << bit;
    }

    /// Inserts every `v` whose bit is set in `words` (bit `v % 64` of word `v / 64`).
    pub(super) fn insert_words(&mut self, words: &[u64]) {
        let used = words.iter().rposition(|w| *w != 0).map_or(0, |i| i + 1);
        if self.words.len() < used {
            self.words.resize(used, 0);
        }
        for (mine, w) in self.words.iter_mut().zip(&words[..used]) {
            *mine |= w;
        }
    }

    pub(super) fn value(&self) -> u64 {
        for (i, w) in self.words.iter().enumerate() {
            if *w != u64::MAX {
                return i as u64 * 64 + u64::from(w.trailing_ones());
            }
        }
        self.words.len() as u64 * 64
    }
}

/// Runs `insert` on the value of every lane of a block of `split` options whose parts'
/// values `known` gives, and records in `slow` the lanes with a part not known.
#[inline(always)]
pub(super) fn gather(
    block: &Block<'_>,
    known: &impl Fn(i64) -> Option<u64>,
    slow: &mut Vec<usize>,
    mut insert: impl FnMut(u64),
) {
    match block.columns() {
        // Two heaps, the commonest split: one pass without an inner loop.
        [xs, ys] => {
            for lane in block.lanes() {
                match (known(xs[lane]), known(ys[lane])) {
                    (Some(x), Some(y)) => insert(x ^ y),
                    _ => slow.push(lane),
                }
            }
        }
        columns => {
            for lane in block.lanes() {
                let x = columns
                    .iter()
                    .try_fold(0, |x, column| known(column[lane]).map(|v| x ^ v));
                match x {
                    Some(x) => insert(x),
                    None => slow.push(lane),
                }
            }
        }
    }
}

/// Gives `insert` the XOR of the parts' Grundy values of each option of `run`, and says
/// whether every part has one in `values` (the dense table by value: `u64::MAX` for a
/// position not solved yet). When it says no, what was inserted means nothing. Two parts
/// that run up and down (`i` and `n - 1 - i`) read two slices, one of them backwards.
pub(super) fn affine_xors(
    values: &[u64],
    run: &AffineRun<'_>,
    mut insert: impl FnMut(u64),
) -> bool {
    let len = run.len();
    let Some(last_lane) = (len as i64).checked_sub(1) else {
        return true;
    };
    // The parts' ends lie in the table (they fit: the run overflows nowhere).
    let inside = run.parts().iter().all(|&(first, slope)| {
        let last = i128::from(first) + i128::from(slope) * i128::from(last_lane);
        i128::from(first).min(last) >= 0 && i128::from(first).max(last) < values.len() as i128
    });
    if !inside {
        return false;
    }
    // Every value read ORed: a Grundy value is below the number of positions, so only
    // `u64::MAX` (no value yet) has the top bit.
    let mut seen = 0u64;
    match *run.parts() {
        [(up, 1), (down, -1)] => {
            let xs = &values[up as usize..][..len];
            let ys = &values[(down - last_lane) as usize..=down as usize];
            for (x, y) in xs.iter().zip(ys.iter().rev()) {
                seen |= x | y;
                insert(x ^ y);
            }
        }
        ref parts => {
            for j in 0..=last_lane {
                let mut v = 0;
                for &(first, slope) in parts {
                    let x = values[(first + slope * j) as usize];
                    seen |= x;
                    v ^= x;
                }
                insert(v);
            }
        }
    }
    seen >> 63 == 0
}
