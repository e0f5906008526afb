//! Which of the compiled engine's specialised paths a process has run: one bit a path, set
//! the first time the path is taken and never cleared. The differential sweeps
//! (`tests/differential.rs`, `tests/differential_kinds.rs`) ask `cgl` for it with
//! `CGL_PATHS=FILE` (written by `src/main.rs` as the process ends) and report how many of
//! their games went through each path, so that a sweep shows what it compared, not only
//! that it agreed.
//!
//! A mark is taken where a path is entered (once a run, a block or a loop), never inside a
//! lane loop; it is a relaxed load of one shared word, and a write only the first time, so
//! it costs nothing measurable and no thread waits on another. Nothing printed depends on it.

use std::sync::atomic::{AtomicU32, Ordering};

/// A specialised path of the compiled engine (and of the graph's tables built from its
/// inferred domains).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reached {
    /// A move rule ran compiled ([`super::CompiledRule::run`], `run_cells`).
    Rule,
    /// A `terminal if` or `draw if` condition ran compiled on its own (`CompiledCond`).
    Condition,
    /// A game's conditions ran together in one run (`CompiledEnds`, `conds.rs`).
    Ends,
    /// Leading affine guards cut an innermost range before it ran (`lanes.rs`, `narrow`).
    Narrow,
    /// An innermost range ran a block of lanes at a time (`lanes.rs`, `CompiledRule::blocks`).
    Blocks,
    /// An innermost range with a target affine in its variable handed over whole, its
    /// integers not computed (`Emitted::Affine`, the streaming solver's heap splits).
    Affine,
    /// A comprehension or fold ran as lane programs over a list's items (`prog.rs`,
    /// `gen_blocks.rs`).
    Lanes,
    /// A select fused with its comparison and arms (`select.rs`, `select_cmp`).
    Select,
    /// A filter of a computed list in one pass (`fused.rs`).
    Fused,
    /// An innermost loop's values crossed with a list's items in one lane program
    /// (`cross.rs`).
    Cross,
    /// The loop around the innermost one run with it as one (`cross.rs`,
    /// `CompiledRule::flat`).
    Flat,
    /// Filtered rows handed over unbuilt, to be ranked as they are filtered
    /// (`Emitted::Kept`).
    Kept,
    /// A target that sets one cell, handed over as that cell (`cells.rs`, `Emitted::SetCell`).
    Cells,
    /// An innermost loop's first guard `b[i] op y` tested in place (`rows.rs`, `CellTest`).
    CellTest,
    /// A loop-invariant part, or a call on arguments fixed for the run, computed once a run
    /// (`hoist.rs`).
    Hoist,
    /// A quantifier over a board's indexed cells as one loop (`rows.rs`, `IndexedQuant`,
    /// `LinesQuant`).
    Quantifier,
    /// A game's list positions in a dense table by their inferred cell domain (`domain.rs`,
    /// `graph/dense.rs`).
    Dense,
    /// Sorted list positions ranked densely (`domain/sorted.rs`, `graph/sorted_ranks.rs`).
    Sorted,
    /// Integer or pair positions in a box table by their inferred ranges
    /// (`domain/ranges.rs`, `graph/index.rs`).
    Box,
    /// A compiled rule or condition handed over to the interpreter (`Interrupt::Fallback`).
    Fallback,
}

/// Every path, in the order of the report, with its name there and what it is.
pub const ALL: [(Reached, &str, &str); 20] = [
    (Reached::Rule, "rule", "a move rule ran compiled"),
    (
        Reached::Condition,
        "condition",
        "a terminal/draw condition ran compiled alone",
    ),
    (
        Reached::Ends,
        "ends",
        "a game's conditions ran together (conds.rs)",
    ),
    (
        Reached::Narrow,
        "narrow",
        "affine guards cut an innermost range (lanes.rs)",
    ),
    (
        Reached::Blocks,
        "blocks",
        "an innermost range in blocks of lanes (lanes.rs)",
    ),
    (
        Reached::Affine,
        "affine",
        "an affine innermost range handed over whole",
    ),
    (
        Reached::Lanes,
        "lanes",
        "a comprehension or fold as lane programs (prog.rs)",
    ),
    (
        Reached::Select,
        "select",
        "a fused select kernel (select.rs)",
    ),
    (
        Reached::Fused,
        "fused",
        "a filter of a computed list in one pass (fused.rs)",
    ),
    (
        Reached::Cross,
        "cross",
        "loop values crossed with a list's items (cross.rs)",
    ),
    (
        Reached::Flat,
        "flat",
        "two loops run as one (cross.rs, flat)",
    ),
    (
        Reached::Kept,
        "kept",
        "filtered rows ranked unbuilt (Emitted::Kept)",
    ),
    (
        Reached::Cells,
        "cells",
        "a one-cell target ranked from its cell (cells.rs)",
    ),
    (
        Reached::CellTest,
        "celltest",
        "a first guard b[i] op y tested in place (rows.rs)",
    ),
    (
        Reached::Hoist,
        "hoist",
        "an invariant part computed once a run (hoist.rs)",
    ),
    (
        Reached::Quantifier,
        "quantifier",
        "a quantifier over cells as one loop (rows.rs)",
    ),
    (
        Reached::Dense,
        "dense",
        "list positions in a dense table (domain.rs)",
    ),
    (
        Reached::Sorted,
        "sorted",
        "sorted lists ranked densely (domain/sorted.rs)",
    ),
    (
        Reached::Box,
        "box",
        "integer or pair positions in a box table (ranges.rs)",
    ),
    (
        Reached::Fallback,
        "fallback",
        "compiled code handed over to the interpreter",
    ),
];

/// The paths taken so far, a bit each (bit `Reached as u32`).
static REACHED: AtomicU32 = AtomicU32::new(0);

/// Notes that `path` was taken: a load, and a write only the first time.
#[inline]
pub fn mark(path: Reached) {
    let bit = 1u32 << path as u32;
    if REACHED.load(Ordering::Relaxed) & bit == 0 {
        REACHED.fetch_or(bit, Ordering::Relaxed);
    }
}

/// Whether `path` has been taken in this process.
pub fn taken(path: Reached) -> bool {
    REACHED.load(Ordering::Relaxed) & (1u32 << path as u32) != 0
}

/// Every path, a line each: its name, 1 if taken (else 0), and what it is.
pub fn report() -> String {
    ALL.iter()
        .map(|(path, name, what)| format!("{name} {} {what}\n", u8::from(taken(*path))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_is_listed_once_in_order() {
        for (i, (path, name, _)) in ALL.iter().enumerate() {
            assert_eq!(*path as usize, i, "{name}");
            assert!(!name.contains(' '), "{name}");
        }
        mark(Reached::Fallback);
        assert!(taken(Reached::Fallback));
        assert!(report().lines().any(|l| l.starts_with("fallback 1 ")));
        assert_eq!(report().lines().count(), ALL.len());
    }
}
