//! Take-and-break games by code (Winning Ways ch. 4; Flammenkamp's tables; CGSuite's
//! `TakeAndBreak`): the Grundy sequence of a heap game given by its octal or hexadecimal code,
//! and its period proved by the octal game periodicity theorem.
//!
//! A code `d0.d1d2...` says, digit `di` read in binary, into how many non-empty heaps a heap
//! may be left when `i` tokens are taken from it: bit 1 none (the whole heap taken), bit 2 one,
//! bit 4 two, bit 8 three (hexadecimal codes only). `0.77` is Kayles, `0.07` Dawson's Kayles,
//! `0.137` Dawson's chess, `4.0...` splits a heap without taking.
//!
//! The sequence is computed with the sparse-space method (Winning Ways, "Sparse space spells
//! speed"; Flammenkamp): a value is *rare* when its number of one bits is even, *common*
//! otherwise. Two heaps' values xor to a common value only when exactly one is rare, so the
//! common values a two-heap split reaches are all found among the splits with a rare part,
//! which costs the rare positions, not the heap; a rare value is looked for among all splits,
//! and is usually found at once. Where rare values die out, each value costs about their
//! number. Once a period is proved, the rest of the sequence is the period repeated.
//!
//! The periodicity theorem (Guy and Smith): for an octal game whose moves take at most `t`
//! tokens, if `G(n + p) = G(n)` for every `n` with `e <= n < 2e + p + t`, then for every
//! `n >= e`. It is checked at doubling heap sizes; [`Period::proved_at`] is the largest heap
//! the check needs, `2e + 2p + t - 1`. It speaks of splits into at most two heaps: a code with
//! three-heap splits gets values, not a proof.

use std::fmt;

/// The most digits after the point a code may have.
pub const MAX_DIGITS: usize = 64;
/// The largest heap of a sequence: its values fit a list of ordinary size.
pub const MAX_HEAP: usize = 1 << 22;
/// The largest heap of a code with three-heap splits, whose values cost the square of the heap.
pub const MAX_HEAP_THREE: usize = 2000;
/// The largest heap a period is looked for to.
pub const MAX_PERIOD_HEAP: usize = 1 << 26;
/// How far `octal_period` looks without a bound given.
pub const DEFAULT_PERIOD_HEAP: usize = 1 << 20;

/// A take-and-break code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Code {
    /// `rules[i]`: the digit for taking `i` tokens.
    rules: Vec<u8>,
}

/// Why a text is no code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeError(pub String);

impl fmt::Display for CodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A period proved by the periodicity theorem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    /// The preperiod: `G(n + period) = G(n)` for every `n >= preperiod`, and not for
    /// `preperiod - 1`.
    pub preperiod: usize,
    /// The least period from the preperiod on.
    pub period: usize,
    /// The largest heap whose value the proof needs.
    pub proved_at: usize,
}

/// The heap where a period is first looked for; then at each doubling.
const FIRST_CHECK: usize = 64;

impl Code {
    /// Reads `0.77`, `.07`, `4.0`, `0.F`: a digit, a point, digits; hexadecimal digits mean
    /// splits into three heaps.
    pub fn parse(text: &str) -> Result<Code, CodeError> {
        let bad = |why: &str| CodeError(format!("`{text}` is no take-and-break code: {why}"));
        let (whole, fraction) = text
            .split_once('.')
            .ok_or_else(|| bad("it has no point (Kayles is \"0.77\")"))?;
        let whole = if whole.is_empty() { "0" } else { whole };
        let digit = |c: char| c.to_digit(16).map(|d| d as u8);
        let mut rules = Vec::with_capacity(fraction.len() + 1);
        if whole.chars().count() != 1 {
            return Err(bad("it has one digit before the point"));
        }
        for c in whole.chars().chain(fraction.chars()) {
            rules.push(digit(c).ok_or_else(|| bad(&format!("`{c}` is no digit")))?);
        }
        if rules[0] & 3 != 0 {
            return Err(bad(
                "the digit before the point may only split a heap (4, 8 or 12): taking no token \
                 and leaving the heap whole, or nothing, is no move",
            ));
        }
        if fraction.len() > MAX_DIGITS {
            return Err(bad(&format!("it has more than {MAX_DIGITS} digits")));
        }
        while rules.len() > 1 && rules.last() == Some(&0) {
            rules.pop();
        }
        Ok(Code { rules })
    }

    /// The code as Flammenkamp writes it: `0.77`.
    pub fn show(&self) -> String {
        // Every digit in hexadecimal, the one before the point too (`C.1`, not `12.1`).
        let digit = |d: &u8| {
            char::from_digit(u32::from(*d), 16)
                .unwrap_or('?')
                .to_ascii_uppercase()
        };
        let digits: String = self.rules[1..].iter().map(digit).collect();
        format!(
            "{}.{}",
            digit(&self.rules[0]),
            if digits.is_empty() { "0" } else { &digits }
        )
    }

    /// The most tokens a move takes.
    pub fn max_take(&self) -> usize {
        self.rules.len() - 1
    }

    /// Whether some move leaves three heaps (a hexadecimal digit).
    pub fn splits_in_three(&self) -> bool {
        self.rules.iter().any(|d| d & 8 != 0)
    }

    /// Every move from a heap of `h`, as the heaps it leaves (each of at least one token, in
    /// increasing order), each once: `[]` where the whole heap is taken.
    pub fn options(&self, h: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::with_capacity(self.option_count(h));
        let _ = self.each_option::<()>(h, &mut |parts| {
            out.push(parts.to_vec());
            Ok(())
        });
        out
    }

    /// Calls `f` with every move from a heap of `h`, as [`Code::options`] lists them, until
    /// it fails (a deadline, a full list).
    pub fn each_option<E>(
        &self,
        h: usize,
        f: &mut dyn FnMut(&[usize]) -> Result<(), E>,
    ) -> Result<(), E> {
        // Every option of one take leaves parts summing to the same `h - take`, and each
        // shape is visited once, so no option is visited twice.
        for (take, &d) in self.rules.iter().enumerate() {
            if d == 0 || take > h {
                continue;
            }
            let m = h - take;
            if d & 1 != 0 && m == 0 {
                f(&[])?;
            }
            if d & 2 != 0 && m >= 1 {
                f(&[m])?;
            }
            if d & 4 != 0 {
                for a in 1..=m / 2 {
                    f(&[a, m - a])?;
                }
            }
            if d & 8 != 0 {
                for a in 1..=m / 3 {
                    for b in a..=(m - a) / 2 {
                        f(&[a, b, m - a - b])?;
                    }
                }
            }
        }
        Ok(())
    }

    /// How many options a heap of `h` has ([`Code::options`]' length), without listing them.
    pub fn option_count(&self, h: usize) -> usize {
        let mut count = 0;
        for (take, &d) in self.rules.iter().enumerate() {
            if d == 0 || take > h {
                continue;
            }
            let m = h - take;
            count += usize::from(d & 1 != 0 && m == 0) + usize::from(d & 2 != 0 && m >= 1);
            if d & 4 != 0 {
                count += m / 2;
            }
            if d & 8 != 0 {
                // Partitions of m into three parts: the nearest integer to m²/12.
                count += (m * m + 6) / 12;
            }
        }
        count
    }

    /// `G(0)..=G(n)`, calling `check` now and then (a deadline, a cancel).
    pub fn values<E>(
        &self,
        n: usize,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Vec<u32>, E> {
        Ok(self.compute(n, false, check)?.0)
    }

    /// The period proved from the values up to `most`, or none there.
    pub fn period<E>(
        &self,
        most: usize,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Option<Period>, E> {
        Ok(self.compute(most, true, check)?.1)
    }

    /// `G(0)..=G(n)` and the period proved by heap `n`, if one is (past its proof the
    /// values are the period repeated).
    pub fn sequence<E>(
        &self,
        n: usize,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<(Vec<u32>, Option<Period>), E> {
        self.compute(n, false, check)
    }

    /// The largest heap whose value [`Code::values`] computes: [`MAX_HEAP_THREE`] for a code
    /// that splits heaps in three, [`MAX_HEAP`] otherwise.
    pub fn max_heap(&self) -> usize {
        if self.splits_in_three() {
            MAX_HEAP_THREE
        } else {
            MAX_HEAP
        }
    }

    /// The values to `n` and the period proved by then; with `stop_at_proof`, the values
    /// only as far as the proof.
    fn compute<E>(
        &self,
        n: usize,
        stop_at_proof: bool,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<(Vec<u32>, Option<Period>), E> {
        let mut g: Vec<u32> = Vec::with_capacity(n.saturating_add(1).min(1 << 26));
        let mut rare: Vec<usize> = Vec::new();
        let mut reached = Bits::default();
        let mut proved: Option<Period> = None;
        let mut next_check = FIRST_CHECK;
        let three = self.splits_in_three();
        for h in 0..=n {
            if let Some(p) = proved {
                g.push(g[h - p.period]);
                continue;
            }
            // A rare value not reached costs a scan of the heap: check often.
            if h.is_multiple_of(64) || three {
                check()?;
            }
            let v = self.mex_at(h, &g, &rare, &mut reached);
            if is_rare(v) {
                rare.push(h);
            }
            g.push(v);
            if !three && (h == next_check || h == n) {
                next_check = next_check.saturating_mul(2);
                proved = prove(&g, self.max_take(), check)?;
                if proved.is_some() && stop_at_proof {
                    break;
                }
            }
        }
        Ok((g, proved))
    }

    /// `G(h)`, from the values below it and the rare positions among them.
    fn mex_at(&self, h: usize, g: &[u32], rare: &[usize], reached: &mut Bits) -> u32 {
        reached.clear();
        let mut two = Vec::new();
        for (take, &d) in self.rules.iter().enumerate() {
            if d == 0 || take > h {
                continue;
            }
            let m = h - take;
            if d & 1 != 0 && m == 0 {
                reached.set(0);
            }
            if d & 2 != 0 && m >= 1 {
                reached.set(g[m]);
            }
            if d & 4 != 0 && m >= 2 {
                // Every split with a rare part: all the common values splits reach.
                for &r in rare.iter().take_while(|&&r| r < m) {
                    if r >= 1 {
                        reached.set(g[r] ^ g[m - r]);
                    }
                }
                two.push(m);
            }
            if d & 8 != 0 && m >= 3 {
                for a in 1..m {
                    for b in 1..m - a {
                        reached.set(g[a] ^ g[b] ^ g[m - a - b]);
                    }
                }
            }
        }
        let mut v = 0u32;
        loop {
            if !reached.get(v) {
                // A common value not yet reached is reached by no split; a rare one may be
                // by two common (or two rare) parts: look.
                let found = is_rare(v)
                    && two
                        .iter()
                        .any(|&m| (1..=m / 2).any(|a| g[a] ^ g[m - a] == v));
                if !found {
                    return v;
                }
            }
            v += 1;
        }
    }
}

/// Whether a value is rare: an even number of one bits.
fn is_rare(v: u32) -> bool {
    v.count_ones().is_multiple_of(2)
}

/// The least period the periodicity theorem proves from `g`, for moves of at most `t` tokens.
fn prove<E>(
    g: &[u32],
    t: usize,
    check: &mut dyn FnMut() -> Result<(), E>,
) -> Result<Option<Period>, E> {
    let last = g.len() - 1;
    for p in 1..=last / 2 {
        if p.is_multiple_of(256) {
            check()?;
        }
        // The last n with G(n + p) != G(n); the preperiod is one past it.
        let e = (p..=last)
            .rev()
            .find(|&i| g[i] != g[i - p])
            .map_or(0, |i| i - p + 1);
        let need = 2 * e + 2 * p + t;
        if need <= last + 1 {
            return Ok(Some(Period {
                preperiod: e,
                period: p,
                proved_at: need - 1,
            }));
        }
    }
    Ok(None)
}

/// A set of small values, as bits.
#[derive(Default)]
struct Bits(Vec<u64>);

impl Bits {
    fn clear(&mut self) {
        self.0.iter_mut().for_each(|w| *w = 0);
    }

    fn set(&mut self, v: u32) {
        let (w, b) = ((v / 64) as usize, v % 64);
        if w >= self.0.len() {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1 << b;
    }

    fn get(&self, v: u32) -> bool {
        let (w, b) = ((v / 64) as usize, v % 64);
        self.0.get(w).is_some_and(|x| x & (1 << b) != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Grundy values by the definition: every move, every split.
    fn brute(code: &str, n: usize) -> Vec<u32> {
        let rules: Vec<u8> = {
            let (w, f) = code.split_once('.').unwrap();
            w.chars()
                .chain(f.chars())
                .map(|c| c.to_digit(16).unwrap() as u8)
                .collect()
        };
        let mut g = vec![0u32; n + 1];
        for h in 0..=n {
            let mut seen = std::collections::BTreeSet::new();
            for (take, &d) in rules.iter().enumerate() {
                if take > h {
                    continue;
                }
                let m = h - take;
                if d & 1 != 0 && m == 0 {
                    seen.insert(0);
                }
                if d & 2 != 0 && m >= 1 {
                    seen.insert(g[m]);
                }
                if d & 4 != 0 {
                    for a in 1..m {
                        seen.insert(g[a] ^ g[m - a]);
                    }
                }
                if d & 8 != 0 {
                    for a in 1..m {
                        for b in 1..m.saturating_sub(a) {
                            seen.insert(g[a] ^ g[b] ^ g[m - a - b]);
                        }
                    }
                }
            }
            g[h] = (0..).find(|v| !seen.contains(v)).unwrap();
        }
        g
    }

    fn values(code: &str, n: usize) -> Vec<u32> {
        Code::parse(code)
            .unwrap()
            .values(n, &mut || Ok::<(), ()>(()))
            .unwrap()
    }

    #[test]
    fn the_sparse_space_method_agrees_with_the_definition() {
        for code in [
            "0.77", "0.07", "0.137", "0.16", "0.6", "0.51", "4.07", "0.3F", "0.F", "0.123",
            "0.007", "0.4", "0.156", "0.34", "8.0",
        ] {
            assert_eq!(values(code, 300), brute(code, 300), "{code}");
        }
    }

    #[test]
    fn published_periods_are_proved() {
        let period = |code: &str| {
            Code::parse(code)
                .unwrap()
                .period(1 << 20, &mut || Ok::<(), ()>(()))
                .unwrap()
        };
        // Kayles: period 12 from 71 (Winning Ways, ch. 4).
        let k = period("0.77").unwrap();
        assert_eq!((k.preperiod, k.period), (71, 12));
        assert_eq!(k.proved_at, 2 * 71 + 2 * 12 + 2 - 1);
        // Dawson's Kayles: period 34.
        assert_eq!(period("0.07").unwrap().period, 34);
        // Subtraction games: take 1 (0.3), take 1 or 2 (0.33).
        assert_eq!(period("0.3").map(|p| (p.preperiod, p.period)), Some((0, 2)));
        assert_eq!(
            period("0.33").map(|p| (p.preperiod, p.period)),
            Some((0, 3))
        );
    }

    #[test]
    fn codes_are_read_and_refused() {
        assert_eq!(Code::parse(".77").unwrap().show(), "0.77");
        assert_eq!(Code::parse("0.770").unwrap().show(), "0.77");
        assert_eq!(Code::parse("0.f").unwrap().show(), "0.F");
        assert!(Code::parse("077").is_err());
        assert!(Code::parse("1.7").is_err());
        assert!(Code::parse("0.7x").is_err());
        assert!(Code::parse("00.7").is_err());
    }
}
