//! Dense ranks of sorted lists (issue 19): a game whose rules keep its positions sorted
//! lists of at most `k` cells in `lo..=hi` (Chomp's rows; `eval::compiled::sorted_domain`
//! infers it) numbers them `0..C(k + m, k)` in the combinatorial number system, with no
//! hashing and no key stored, where the ranks of [`super::Ranks`] (`m^k` of them) would be
//! far too many and would not hold lists of other lengths anyway.
//!
//! A list is first turned into `k` codes that do not increase: its cells from the greatest
//! (the first of a non-increasing list, the last of a non-decreasing one), each as
//! `c - lo + 1`, padded with zeros to `k` (so a shorter list and a longer one never meet,
//! whatever the cells), or, when every list has exactly `k` cells, each as `c - lo` with no
//! padding. Codes `v_0 >= v_1 >= ... >= v_{k-1} >= 0` up to `top` have the rank
//! `Σ C(v_i + k - 1 - i, k - i)`: `a_i = v_i + k - 1 - i` is a strictly decreasing sequence,
//! a `k`-subset of `0..top + k`, whose rank in that system is a bijection onto
//! `0..C(top + k, k)`.
//!
//! A list that is not sorted, too long (or not of `k` cells), or has a cell outside
//! `lo..=hi` has no rank: ranking checks every cell, so a position the inference missed is
//! never given another one's rank.

/// Most cells a list may have.
const MAX_LEN: usize = 256;
/// Most entries of the table of terms (`k · (top + 1)`).
const MAX_TERMS: usize = 1 << 16;

/// Which way the lists are sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Each cell at most the one before (Chomp's rows, from the bottom up).
    NonIncreasing,
    /// Each cell at least the one before.
    NonDecreasing,
}

/// The ranks of sorted lists of at most (or exactly) `len` cells in `lo..=hi`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SortedRanks {
    len: usize,
    lo: i64,
    hi: i64,
    /// Every list has exactly `len` cells (else at most `len`, padded with code 0).
    fixed: bool,
    order: Order,
    /// The greatest code: `hi - lo + 1`, or `hi - lo` when fixed.
    top: usize,
    /// `terms[i * (top + 1) + v] = C(v + len - 1 - i, len - i)`: what code `v` at place `i`
    /// adds to the rank.
    terms: Vec<u32>,
    /// `C(top + len, len)`.
    count: u64,
}

impl SortedRanks {
    /// The ranks of lists sorted by `order`, of exactly `len` cells if `fixed` (else at most
    /// `len`), with cells in `lo..=hi`, if there are at most `u32::MAX` of them (and the
    /// table of terms is small).
    pub fn new(len: usize, lo: i64, hi: i64, fixed: bool, order: Order) -> Option<SortedRanks> {
        // `lo - 1` is the padding's shift.
        if hi < lo || len > MAX_LEN || (!fixed && lo == i64::MIN) {
            return None;
        }
        let m = usize::try_from(hi.checked_sub(lo)?.checked_add(1)?).ok()?;
        let top = if fixed { m - 1 } else { m };
        let row = top.checked_add(1)?;
        if row.checked_mul(len.max(1))? > MAX_TERMS {
            return None;
        }
        // Pascal's triangle up to `top + len` over `len + 1` columns, saturating: every term
        // is at most the count, which must fit a `u32`.
        let n = top + len;
        let mut binom = vec![vec![0u64; len + 1]; n + 1];
        for a in 0..=n {
            binom[a][0] = 1;
            for b in 1..=len.min(a) {
                binom[a][b] = binom[a - 1][b - 1].saturating_add(binom[a - 1][b]);
            }
        }
        let count = binom[n][len];
        if count > u64::from(u32::MAX) {
            return None;
        }
        let mut terms = Vec::with_capacity(row * len);
        for i in 0..len {
            for v in 0..row {
                // At most `C(top + len - 1, len) < count`.
                terms.push(binom[v + len - 1 - i][len - i] as u32);
            }
        }
        Some(SortedRanks {
            len,
            lo,
            hi,
            fixed,
            order,
            top,
            terms,
            count,
        })
    }

    /// Most cells of a list (exactly this many when [`SortedRanks::is_fixed`]).
    pub fn cells(&self) -> usize {
        self.len
    }

    /// Whether every list has exactly [`SortedRanks::cells`] cells.
    pub fn is_fixed(&self) -> bool {
        self.fixed
    }

    /// The least and greatest cell.
    pub fn bounds(&self) -> (i64, i64) {
        (self.lo, self.hi)
    }

    /// Which way the lists are sorted.
    pub fn order(&self) -> Order {
        self.order
    }

    /// How many ranks there are.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The rank of this list, if it is sorted, of the right length and its cells in bounds.
    #[inline]
    pub fn of_ints(&self, cells: &[i64]) -> Option<u32> {
        self.of_kept(cells, |_| true)
    }

    /// [`SortedRanks::of_ints`] of the list of those of `cells` that `keep` keeps, in order,
    /// ranked as they are read (the list is not built).
    #[inline]
    pub fn of_kept(&self, cells: &[i64], keep: impl Fn(i64) -> bool) -> Option<u32> {
        match self.order {
            Order::NonIncreasing => self.of_codes(cells.iter().copied().filter(|c| keep(*c))),
            Order::NonDecreasing => self.of_codes(cells.iter().rev().copied().filter(|c| keep(*c))),
        }
    }

    /// [`SortedRanks::of_ints`] of `len` cells that may not be integers (`None`).
    pub fn of(&self, len: usize, cells: impl Iterator<Item = Option<i64>>) -> Option<u32> {
        if len > self.len {
            return None;
        }
        let mut buf = [0i64; MAX_LEN];
        for (slot, c) in buf.iter_mut().zip(cells) {
            *slot = c?;
        }
        self.of_ints(&buf[..len])
    }

    /// The rank of the cells given from the greatest.
    #[inline]
    fn of_codes(&self, cells: impl Iterator<Item = i64>) -> Option<u32> {
        // A cell's code less the least code (`lo`'s; code 0 of a list that is not fixed is
        // padding) is `c - lo`, in `0..=top - least` for `c` in `lo..=hi`.
        let least = usize::from(!self.fixed);
        let row = self.top + 1;
        // Place `i`'s terms start at `i * row`; `at` is that plus the least code, so a
        // place past the last (a list too long) is past the end of the terms.
        let (mut rank, mut prev, mut at) = (0u32, (self.top - least) as u64, least);
        for c in cells {
            // In bounds and at most the code before, in one comparison: a cell below `lo`
            // wraps past every code (its distance below `lo` plus the distance from `hi`
            // up to `i64::MAX` is more than `top`).
            let code = c.wrapping_sub(self.lo) as u64;
            if code > prev {
                return None;
            }
            // `code + least <= top < row`: past the terms exactly when past the last place.
            rank += *self.terms.get(at + code as usize)?;
            prev = code;
            at += row;
        }
        if self.fixed && at != self.len * row {
            return None;
        }
        // Padding with code 0 adds `C(len - 1 - i, len - i) = 0`; the sum is below the count.
        Some(rank)
    }

    /// The list of rank `rank` (below the count), into `out` (cleared first).
    pub fn unrank(&self, rank: u32, out: &mut Vec<i64>) {
        out.clear();
        let shift = if self.fixed { self.lo } else { self.lo - 1 };
        let row = self.top + 1;
        let (mut rest, mut prev) = (rank, self.top);
        for i in 0..self.len {
            let terms = &self.terms[i * row..i * row + prev + 1];
            // The greatest code whose term fits what is left (terms grow with the code, the
            // first is 0).
            let code = terms.partition_point(|t| *t <= rest).saturating_sub(1);
            if code == 0 && !self.fixed {
                break;
            }
            rest -= terms[code];
            prev = code;
            out.push(code as i64 + shift);
        }
        if self.order == Order::NonDecreasing {
            out.reverse();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every list of at most (or exactly) `len` cells in `lo..=hi` sorted by `order`, by brute
    /// force: all lists of those cells, kept when sorted.
    fn all_sorted(len: usize, lo: i64, hi: i64, fixed: bool, order: Order) -> Vec<Vec<i64>> {
        let mut out = Vec::new();
        let lens = if fixed { len..=len } else { 0..=len };
        for n in lens {
            let m = (hi - lo + 1) as usize;
            for mut x in 0..m.pow(n as u32) {
                let mut cells = Vec::new();
                for _ in 0..n {
                    cells.push(lo + (x % m) as i64);
                    x /= m;
                }
                let sorted = cells.windows(2).all(|w| match order {
                    Order::NonIncreasing => w[0] >= w[1],
                    Order::NonDecreasing => w[0] <= w[1],
                });
                if sorted {
                    out.push(cells);
                }
            }
        }
        out
    }

    #[test]
    fn sorted_lists_rank_onto_the_count_and_back() {
        for order in [Order::NonIncreasing, Order::NonDecreasing] {
            for fixed in [false, true] {
                for len in 0..=5 {
                    for (lo, hi) in [(0, 0), (1, 3), (0, 4), (-2, 1), (5, 7)] {
                        let ranks = SortedRanks::new(len, lo, hi, fixed, order).unwrap();
                        let lists = all_sorted(len, lo, hi, fixed, order);
                        assert_eq!(ranks.count(), lists.len() as u64, "{len} {lo}..={hi}");
                        let mut seen = vec![false; lists.len()];
                        let mut out = Vec::new();
                        for cells in &lists {
                            let rank = ranks.of_ints(cells).unwrap() as usize;
                            assert!(rank < lists.len() && !seen[rank], "{cells:?}");
                            seen[rank] = true;
                            ranks.unrank(rank as u32, &mut out);
                            assert_eq!(&out, cells);
                            let items = cells.iter().map(|c| Some(*c));
                            assert_eq!(ranks.of(cells.len(), items), Some(rank as u32));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn lists_that_are_not_sorted_or_in_bounds_have_no_rank() {
        let down = SortedRanks::new(4, 1, 5, false, Order::NonIncreasing).unwrap();
        assert_eq!(down.count(), 126, "C(4 + 5, 4)");
        assert_eq!(down.of_ints(&[]), Some(0));
        assert_eq!(down.of_ints(&[3, 4]), None);
        assert_eq!(down.of_ints(&[5, 5, 0]), None);
        assert_eq!(down.of_ints(&[6]), None);
        assert_eq!(down.of_ints(&[5, 5, 5, 5, 5]), None);
        assert_eq!(down.of_ints(&[i64::MIN]), None);
        assert_eq!(down.of_ints(&[i64::MAX, 1]), None);
        assert_eq!(down.of(2, [Some(2), None].into_iter()), None);
        assert_eq!(down.of_ints(&[5, 5, 5, 5]), Some(125));
        let up = SortedRanks::new(3, 0, 2, true, Order::NonDecreasing).unwrap();
        assert_eq!(up.of_ints(&[0, 1]), None, "fixed: exactly three cells");
        assert_eq!(up.of_ints(&[2, 1, 1]), None);
        assert_eq!(up.of_ints(&[1, 1, 2]).map(|_| ()), Some(()));
    }

    /// Every list of at most `len` cells in `lo..=hi`, sorted or not.
    fn all_lists(len: usize, lo: i64, hi: i64) -> Vec<Vec<i64>> {
        let mut out = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..len {
            let mut next = Vec::new();
            for cells in &last {
                for c in lo..=hi {
                    let mut longer: Vec<i64> = cells.clone();
                    longer.push(c);
                    next.push(longer);
                }
            }
            out.extend(next.iter().cloned());
            last = next;
        }
        out
    }

    #[test]
    fn a_list_has_a_rank_exactly_when_it_is_one_of_the_sorted_lists() {
        // Brute force: the lists one cell longer and one step out of bounds each side, ranked
        // whole and filtered as they are read (`of_kept` against `of_ints` of the filtered
        // list), and at the ends of the integers, where the codes would overflow.
        for order in [Order::NonIncreasing, Order::NonDecreasing] {
            for fixed in [false, true] {
                for (len, lo, hi) in [(3, 1, 3), (2, -1, 1), (3, 0, 2)] {
                    let ranks = SortedRanks::new(len, lo, hi, fixed, order).unwrap();
                    let sorted = all_sorted(len, lo, hi, fixed, order);
                    for cells in all_lists(len + 1, lo - 1, hi + 1) {
                        let rank = ranks.of_ints(&cells);
                        assert_eq!(rank.is_some(), sorted.contains(&cells), "{cells:?}");
                        for t in lo - 1..=hi + 1 {
                            let kept: Vec<i64> = cells.iter().copied().filter(|c| *c > t).collect();
                            assert_eq!(ranks.of_kept(&cells, |c| c > t), ranks.of_ints(&kept));
                        }
                    }
                }
            }
            for (lo, hi) in [(i64::MAX - 2, i64::MAX), (i64::MIN + 1, i64::MIN + 3)] {
                for fixed in [false, true] {
                    let ranks = SortedRanks::new(2, lo, hi, fixed, order).unwrap();
                    let sorted = all_sorted(2, lo, hi, fixed, order);
                    let edges = [i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX - 1, i64::MAX];
                    let mut cells: Vec<i64> = (lo..=hi).chain(edges).collect();
                    cells.sort_unstable();
                    cells.dedup();
                    for a in &cells {
                        for b in &cells {
                            let list = vec![*a, *b];
                            let rank = ranks.of_ints(&list);
                            assert_eq!(rank.is_some(), sorted.contains(&list), "{list:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_hand_written_numbering_of_chomp_boards() {
        // Rows non-increasing padded with zeros to R: `Σ C(l_i + R - 1 - i, R - i)`, below
        // `C(R + C, R)` (benches/baselines/chomp.rs).
        let ranks = SortedRanks::new(12, 1, 12, false, Order::NonIncreasing).unwrap();
        assert_eq!(ranks.count(), 2_704_156);
        let rows = [12, 12, 9, 4, 4, 1];
        let mut want = 0u64;
        for i in 0..12 {
            let l = rows.get(i).copied().unwrap_or(0);
            let (n, k) = (l + 11 - i as u64, 12 - i as u64);
            let binom = (0..k).fold(1u64, |b, j| b * (n - j) / (j + 1));
            want += if n < k { 0 } else { binom };
        }
        assert_eq!(ranks.of_ints(&rows.map(|r| r as i64)), Some(want as u32));
        assert_eq!(ranks.of_ints(&[12; 12]), Some(2_704_155));
    }

    #[test]
    fn too_many_ranks_are_refused() {
        assert!(SortedRanks::new(3, 2, 1, false, Order::NonIncreasing).is_none());
        assert!(SortedRanks::new(40, 1, 40, false, Order::NonIncreasing).is_none());
        assert!(SortedRanks::new(3, i64::MIN, i64::MAX, true, Order::NonIncreasing).is_none());
        assert!(SortedRanks::new(MAX_LEN + 1, 0, 0, true, Order::NonIncreasing).is_none());
        // C(17 + 17, 17) = 2,333,606,220 fits; C(18 + 18, 18) does not.
        assert!(SortedRanks::new(17, 1, 17, false, Order::NonIncreasing).is_some());
        assert!(SortedRanks::new(18, 1, 18, false, Order::NonIncreasing).is_none());
        let last = SortedRanks::new(17, 1, 17, false, Order::NonIncreasing).unwrap();
        let mut out = Vec::new();
        last.unrank((last.count() - 1) as u32, &mut out);
        assert_eq!(out, vec![17; 17]);
        assert_eq!(last.of_ints(&out), Some((last.count() - 1) as u32));
    }
}
