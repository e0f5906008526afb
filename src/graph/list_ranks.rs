//! The ranks of a game instance's list positions, of either kind: lists of `k` cells in a
//! domain of `m` values ([`Ranks`], `m^k` ranks), or sorted lists of at most `k` cells in
//! an interval ([`SortedRanks`], `C(k + m, k)` ranks). The graph's dense tables and the
//! analyses' rank table (`analysis::parallel`) take either.

use super::cell_ranks::Ranks;
use super::sorted_ranks::SortedRanks;

/// How the list positions of an instance are ranked.
// Ranked by value, not boxed: every option of every position the solver meets is ranked.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListRanks {
    /// Every cell in a domain: `Σ code(c_i)·m^i`.
    Cells(Ranks),
    /// Sorted lists, by the combinatorial number system.
    Sorted(SortedRanks),
}

impl ListRanks {
    /// The rank of a list of integers, if it is one of the ranked lists.
    #[inline]
    pub fn of_ints(&self, cells: &[i64]) -> Option<u32> {
        match self {
            ListRanks::Cells(r) => r.of_ints(cells),
            ListRanks::Sorted(r) => r.of_ints(cells),
        }
    }

    /// [`ListRanks::of_ints`] of `len` cells that may not be integers (`None`).
    #[inline]
    pub fn of(&self, len: usize, cells: impl Iterator<Item = Option<i64>>) -> Option<u32> {
        match self {
            ListRanks::Cells(r) => r.of(len, cells),
            ListRanks::Sorted(r) => r.of(len, cells),
        }
    }

    /// How many ranks there are.
    pub fn count(&self) -> u64 {
        match self {
            ListRanks::Cells(r) => r.count(),
            ListRanks::Sorted(r) => r.count(),
        }
    }

    /// Most cells of a ranked list.
    pub fn most_cells(&self) -> usize {
        match self {
            ListRanks::Cells(r) => r.cells(),
            ListRanks::Sorted(r) => r.cells(),
        }
    }

    /// Whether these are the ranks of sorted lists.
    pub fn is_sorted(&self) -> bool {
        matches!(self, ListRanks::Sorted(_))
    }
}
