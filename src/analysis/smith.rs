//! Loopy Grundy values (Smith 1966; Fraenkel and Yesha): the generalised Sprague–Grundy
//! function of a position from which play can cycle. A position's value is a nimber `n`, or
//! `∞` with the set `K` of its options' finite values (printed `inf(0, 1)`; Winning Ways
//! writes `∞₀₁`). A position of value 0 is lost, of a nimber above 0 won, of `∞_K` won if
//! `0 ∈ K` and a draw otherwise; in sums, `n + m = n ⊕ m`, `n + ∞_K = ∞_(K ⊕ n)`, and the sum
//! of two infinite values is a draw.
//!
//! The labelling, stage by stage for `i = 0, 1, 2, ...`: while some unlabelled position has
//! no option labelled `i` and each of its options that is unlabelled or `∞` has an option
//! labelled `i`, label it `i`; then label `∞` every unlabelled position with no option
//! labelled `i`; go on while unlabelled positions remain. The positions reachable from the
//! root are explored once (`retro::explore`); each stage is a fixed point found by passes
//! over them, so the cost is at most stages × passes × moves, with the deadline checked.

use std::collections::BTreeSet;

use super::kind::refuse_scored_end;
use super::{retro, Analyzer};
use crate::diag::{Code, Diag, DiagResult};
use crate::eval::World;
use crate::graph::TermId;

/// A loopy Grundy value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Nimber {
    /// A nimber: the position is as a Nim heap of that size.
    Finite(u64),
    /// `∞_K`: the finite values of its options.
    Infinite(BTreeSet<u64>),
}

/// A label not given yet.
const UNLABELLED: u64 = u64::MAX;
/// The label `∞`.
const INFINITE: u64 = u64::MAX - 1;

/// The loopy Grundy value of `root` (normal play).
pub(super) fn nimber(an: &mut Analyzer, w: &mut World<'_>, root: TermId) -> DiagResult<Nimber> {
    let local = retro::explore(an, w, root, |_, _| None::<()>)?;
    let n = local.nodes.len();
    for (p, &t) in local.nodes.iter().enumerate() {
        if local.options(p).is_empty() {
            if an.graph.info(t).draw {
                return Err(Box::new(
                    Diag::error(
                        Code::AnalysisGrundyDraw,
                        "a declared draw is reachable, so there is no Grundy value",
                    )
                    .help("Grundy values, loopy ones too, exist for games without `draw if`; use `outcome(p)` instead"),
                ));
            }
            refuse_scored_end(an, w, t)?;
        }
    }
    let mut label = vec![UNLABELLED; n];
    let mut left = n;
    let mut stage: u64 = 0;
    let mut steps: u32 = 0;
    while left > 0 {
        // has_i[p]: some option of p is labelled `stage`.
        let mut has_i = vec![false; n];
        loop {
            let mut changed = false;
            for p in 0..n {
                steps = steps.wrapping_add(1);
                if steps.is_multiple_of(4096) {
                    an.graph.check_stop(w.stop)?;
                }
                if label[p] != UNLABELLED || has_i[p] {
                    continue;
                }
                let fits = local.options(p).iter().all(|&q| {
                    let q = q as usize;
                    !(label[q] == UNLABELLED || label[q] == INFINITE) || has_i[q]
                });
                if fits {
                    label[p] = stage;
                    left -= 1;
                    changed = true;
                    for &pred in local.preds(p) {
                        has_i[pred as usize] = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        for p in 0..n {
            if label[p] == UNLABELLED && !has_i[p] {
                label[p] = INFINITE;
                left -= 1;
            }
        }
        stage += 1;
    }
    Ok(match label[0] {
        INFINITE => Nimber::Infinite(
            local
                .options(0)
                .iter()
                .map(|&q| label[q as usize])
                .filter(|&l| l != INFINITE)
                .collect(),
        ),
        g => Nimber::Finite(g),
    })
}
