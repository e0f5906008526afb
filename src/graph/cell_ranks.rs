//! Dense ranks of lists of cells (issue 19): a game instance whose rules can only ever write
//! `m` values into a list of `k` cells (`eval::compiled::cell_domain` infers them) numbers
//! its positions `0..m^k` by `Σ code(c_i)·m^i`, with no hashing and no key stored, where
//! `m^k` fits a `u32`. The graph's dense tables (`dense.rs`) and the analyses' rank table
//! (`analysis::parallel`) rank positions alike; [`super::SortedRanks`] is the other kind.

/// Cells of a list whose ranks [`Ranks::of_ints`] sums from a table of powers (all of them
/// but where `m` is 1: `m^len` fits a `u32`).
const POWERS: usize = 32;

/// The ranks of lists of `len` cells whose values lie in a domain of `m` values from 0 to
/// 255: `Σ code(c_i)·m^i`, each below `m^len`, which is at most `u32::MAX`. The graph's dense
/// tables and the analyses' rank table (`analysis::parallel`) rank positions alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranks {
    /// The cells of a position.
    len: usize,
    /// `code + 1` of each value of the domain, by value (0: not in the domain; the last
    /// entry stands for every value past 255).
    code: [u8; 257],
    /// `m^i` for the first [`POWERS`] cells.
    pow: [u32; POWERS],
    /// How many values the domain has.
    m: u64,
    /// `m^len`.
    count: u64,
}

impl Ranks {
    /// The ranks of `len` cells in `domain` (sorted values from 0 to 255, at most 255 of
    /// them), if there are at most `u32::MAX`.
    pub fn new(len: usize, domain: &[i64]) -> Option<Ranks> {
        let m = domain.len() as u64;
        if m == 0 || m > 255 {
            return None;
        }
        let mut code = [0u8; 257];
        for (i, v) in domain.iter().enumerate() {
            code[usize::try_from(*v).ok().filter(|v| *v < 256)?] = i as u8 + 1;
        }
        let mut pow = [0u32; POWERS];
        let mut count: u64 = 1;
        for i in 0..len {
            if let Some(p) = pow.get_mut(i) {
                *p = count as u32;
            }
            count = count.checked_mul(m).filter(|r| *r <= u64::from(u32::MAX))?;
        }
        Some(Ranks {
            len,
            code,
            pow,
            m,
            count,
        })
    }

    /// The cells of a position.
    pub fn cells(&self) -> usize {
        self.len
    }

    /// How many values a cell takes.
    pub fn m(&self) -> u64 {
        self.m
    }

    /// How many ranks there are: `m^len`.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The domain's values, by code.
    pub fn values(&self) -> Vec<i64> {
        let mut values = vec![0; self.m as usize];
        for (v, code) in self.code.iter().enumerate() {
            if *code > 0 {
                values[*code as usize - 1] = v as i64;
            }
        }
        values
    }

    /// The rank of these `len` cells (`None` for one that is not an integer), if they are
    /// `self.len()` cells of the domain.
    #[inline]
    pub fn of(&self, len: usize, cells: impl Iterator<Item = Option<i64>>) -> Option<u32> {
        if len != self.len {
            return None;
        }
        let (mut rank, mut unit) = (0u64, 1u64);
        for c in cells {
            rank += u64::from(self.code_of(c?)?) * unit;
            unit = unit.wrapping_mul(self.m);
        }
        // Below `m^len`, which fits a `u32`: no overflow.
        Some(rank as u32)
    }

    /// [`Ranks::of`] a list of integers: `Σ code(c_i)·m^i` from the table of powers, each
    /// term apart from the others and no branch but the last (the solver ranks every option
    /// of every position it meets), or one cell after another past [`POWERS`] cells.
    #[inline]
    pub fn of_ints(&self, cells: &[i64]) -> Option<u32> {
        if cells.len() != self.len {
            return None;
        }
        if let Some(pow) = self.pow.get(..cells.len()) {
            let (mut rank, mut outside) = (0u64, false);
            for (c, p) in cells.iter().zip(pow) {
                let code = self.code[usize::try_from(*c).map_or(256, |c| c.min(256))];
                outside |= code == 0;
                rank += u64::from(code.wrapping_sub(1)) * u64::from(*p);
            }
            // Below `m^len`, which fits a `u32`, when every cell is in the domain.
            return (!outside).then_some(rank as u32);
        }
        let mut rank = 0u64;
        for c in cells.iter().rev() {
            rank = rank * self.m + u64::from(self.code_of(*c)?);
        }
        Some(rank as u32)
    }

    /// The rank of the list of `rank` (whose cell `i` holds `old`) with cell `i` set to
    /// `v`, if `v` is in the domain: `rank + (code(v) - code(old))·m^i`, as
    /// [`Ranks::of_ints`] would rank the list.
    #[inline]
    pub fn with_cell(&self, rank: u32, old: i64, (i, v): (usize, i64)) -> Option<u32> {
        let (new, old) = (self.code_of(v)?, self.code_of(old)?);
        if i >= self.len {
            return None;
        }
        // Past the table of powers the domain has one value (`m^len` fits a `u32`), and
        // the rank does not move.
        let pow = u64::from(self.pow.get(i).copied().unwrap_or(0));
        let rank = u64::from(rank) + u64::from(new) * pow - u64::from(old) * pow;
        Some(rank as u32)
    }

    /// The code of a value of the domain, from 0.
    #[inline]
    fn code_of(&self, c: i64) -> Option<u8> {
        let code = *self.code.get(usize::try_from(c).ok()?)?;
        code.checked_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Moving a rank by one cell's change gives the rank of the changed list, for every
    /// list of a few domains (one of them a single value) and every change, in the domain
    /// or not.
    #[test]
    fn a_rank_moved_by_one_cell_is_the_rank_of_the_changed_list() {
        for (len, domain) in [
            (3, vec![0, 1, 2]),
            (4, vec![0, 5, 9]),
            (2, vec![3]),
            (5, vec![0, 1]),
        ] {
            let ranks = Ranks::new(len, &domain).unwrap();
            let values: Vec<i64> = domain.iter().copied().chain([-1, 4, 256]).collect();
            for n in 0..ranks.count() {
                // The `n`-th list, its cells the digits of `n` in base `m`.
                let cells: Vec<i64> = (0..len)
                    .map(|i| domain[(n / ranks.m().pow(i as u32) % ranks.m()) as usize])
                    .collect();
                let rank = ranks.of_ints(&cells).unwrap();
                for i in 0..len {
                    for &v in &values {
                        let mut changed = cells.clone();
                        changed[i] = v;
                        assert_eq!(
                            ranks.with_cell(rank, cells[i], (i, v)),
                            ranks.of_ints(&changed),
                            "{cells:?}, cell {i} to {v}"
                        );
                    }
                }
                assert_eq!(ranks.with_cell(rank, cells[0], (len, domain[0])), None);
            }
        }
    }

    #[test]
    fn both_orders_of_ranking_agree() {
        let ranks = Ranks::new(4, &[0, 1, 5]).unwrap();
        assert_eq!(ranks.count(), 81);
        for cells in [[0, 0, 0, 0], [5, 1, 0, 5], [1, 1, 1, 5], [5, 5, 5, 5]] {
            let forward = ranks.of(4, cells.iter().map(|c| Some(*c)));
            assert_eq!(forward, ranks.of_ints(&cells));
            assert!(forward.unwrap() < 81);
        }
        assert_eq!(ranks.of_ints(&[0, 2, 0, 0]), None);
        assert_eq!(ranks.of_ints(&[0, 256, 0, 0]), None);
        assert_eq!(ranks.of_ints(&[-1, 0, 0, 0]), None);
        assert_eq!(ranks.of_ints(&[i64::MAX, 0, 0, i64::MIN]), None);
        // Past the table of powers (a domain of one value): one cell after another.
        let one = Ranks::new(40, &[3]).unwrap();
        assert_eq!(one.of_ints(&[3; 40]), Some(0));
        assert_eq!(one.of_ints(&[[3; 39].as_slice(), &[0]].concat()), None);
        assert!(
            Ranks::new(32, &[0, 1]).is_none(),
            "2^32 ranks do not fit a u32"
        );
        let wide = Ranks::new(31, &[0, 1]).unwrap();
        let mut cells = [1; 31];
        cells[0] = 0;
        assert_eq!(wide.of_ints(&cells), Some((u32::MAX >> 1) - 1));
        assert_eq!(
            wide.of(31, cells.iter().map(|c| Some(*c))),
            Some((u32::MAX >> 1) - 1)
        );
        assert_eq!(ranks.of_ints(&[0, 0, 0]), None);
        assert!(
            Ranks::new(21, &[0, 1, 2]).is_none(),
            "3^21 ranks do not fit a u32"
        );
    }
}
