//! The tests' second method: the quotient as the automaton learnt from outcomes (L*), proved
//! for every sum. It solves sums by their options, so its time grows exponentially with the
//! heaps (Kayles to 24: 12 s), and is kept only to check `solve.rs` against.

use std::collections::{HashMap, VecDeque};

use super::outcomes::{Outcomes, Sum};
use super::{Bound, Quotient, QuotientError, MAX_ORDER, MAX_PROOF_STATES};

/// The same quotient learnt from the outcomes of sums (L*) and proved: the tests' second
/// method.
pub(super) fn learnt_quotient<E>(
    name: &str,
    options: &[Vec<Vec<usize>>],
    max_bytes: usize,
    check: &mut dyn FnMut() -> Result<(), E>,
) -> Result<Quotient, QuotientError<E>> {
    let n = super::heaps_of(options)?;
    let mut learner = Learner::new(options, max_bytes);
    learner.close(check)?;
    loop {
        let counterexample = match learner.commutation_failure(check)? {
            Some(w) => w,
            None => {
                let times = learner.products();
                match learner.product_failure(&times, check)? {
                    Some(w) => w,
                    None => match learner.proof_failure(&times, check)? {
                        Some(w) => w,
                        None => return Ok(learner.quotient(name, n, &times)),
                    },
                }
            }
        };
        learner.learn_from(&counterexample, check)?;
    }
}

/// The automaton being learnt: classes by their representatives, told apart by test sums.
pub(super) struct Learner {
    outcomes: Outcomes,
    /// The live heap sizes, the automaton's letters.
    letters: Vec<u8>,
    /// The test sums; the first is the empty sum (the outcome itself).
    tests: Vec<Sum>,
    /// Each class's representative, its heaps in the order they were added.
    access: Vec<Vec<u8>>,
    /// Each class's outcomes with each test added.
    rows: Vec<Vec<bool>>,
    /// `after[s][j]`: the outcomes of the representative of `s` with letter `j` added.
    after: Vec<Vec<Vec<bool>>>,
    /// `delta[s][j]`: the class the representative of `s` with letter `j` is in.
    delta: Vec<Vec<u32>>,
    /// The class of each row.
    index: HashMap<Vec<bool>, u32>,
}

impl Learner {
    pub(super) fn new(heap_options: &[Vec<Vec<usize>>], max_bytes: usize) -> Learner {
        let outcomes = Outcomes::new(heap_options, max_bytes);
        let letters = (0..heap_options.len())
            .filter(|&h| outcomes.live(h))
            .map(|h| h as u8)
            .collect();
        Learner {
            outcomes,
            letters,
            tests: vec![Box::from([])],
            access: Vec::new(),
            rows: Vec::new(),
            after: Vec::new(),
            delta: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// The outcome of a representative with more heaps added.
    fn outcome<E>(
        &mut self,
        heaps: &[u8],
        more: &[u8],
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<bool, QuotientError<E>> {
        let sum = self.outcomes.sum(heaps.iter().chain(more).copied());
        let Learner {
            outcomes,
            letters,
            rows,
            delta,
            ..
        } = self;
        // The automaton so far guesses which options are P, so that the search tries them
        // first: a sum is N once one option is P, so a good guess spares most of its options.
        let guess = |heaps: &[u8]| {
            let mut s = 0usize;
            for h in heaps {
                let Ok(j) = letters.binary_search(h) else {
                    continue;
                };
                match delta.get(s).and_then(|moves| moves.get(j)) {
                    Some(&t) => s = t as usize,
                    None => return false,
                }
            }
            rows.get(s).is_some_and(|r| r[0])
        };
        outcomes.is_p(sum, &guess, check)
    }

    /// The outcomes of a sum with each test added.
    fn row<E>(
        &mut self,
        heaps: &[u8],
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Vec<bool>, QuotientError<E>> {
        let tests = self.tests.clone();
        tests
            .iter()
            .map(|t| self.outcome(heaps, t, check))
            .collect()
    }

    /// A new class with this representative and row.
    fn add_class<E>(
        &mut self,
        access: Vec<u8>,
        row: Vec<bool>,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<u32, QuotientError<E>> {
        if self.rows.len() >= MAX_ORDER {
            return Err(QuotientError::TooLarge(Bound::Order));
        }
        let id = self.rows.len() as u32;
        let mut after = Vec::with_capacity(self.letters.len());
        for j in 0..self.letters.len() {
            let mut heaps = access.clone();
            heaps.push(self.letters[j]);
            after.push(self.row(&heaps, check)?);
        }
        self.index.insert(row.clone(), id);
        self.access.push(access);
        self.rows.push(row);
        self.after.push(after);
        self.delta.push(Vec::new());
        Ok(id)
    }

    /// Makes the table closed: every class's move by every letter leads to a class.
    pub(super) fn close<E>(
        &mut self,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<(), QuotientError<E>> {
        if self.rows.is_empty() {
            let row = self.row(&[], check)?;
            self.add_class(Vec::new(), row, check)?;
        }
        let mut s = 0;
        while s < self.rows.len() {
            let mut moves = Vec::with_capacity(self.letters.len());
            for j in 0..self.letters.len() {
                let row = self.after[s][j].clone();
                let t = match self.index.get(&row) {
                    Some(&t) => t,
                    None => {
                        let mut access = self.access[s].clone();
                        access.push(self.letters[j]);
                        self.add_class(access, row, check)?
                    }
                };
                moves.push(t);
            }
            self.delta[s] = moves;
            s += 1;
        }
        Ok(())
    }

    /// Adds a test sum: every row gets its outcome, and the table is closed again.
    fn add_test<E>(
        &mut self,
        test: Sum,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<(), QuotientError<E>> {
        self.tests.push(test.clone());
        for s in 0..self.rows.len() {
            let access = self.access[s].clone();
            let v = self.outcome(&access, &test, check)?;
            self.rows[s].push(v);
            for j in 0..self.letters.len() {
                let mut heaps = access.clone();
                heaps.push(self.letters[j]);
                let v = self.outcome(&heaps, &test, check)?;
                self.after[s][j].push(v);
            }
        }
        self.index = self
            .rows
            .iter()
            .enumerate()
            .map(|(s, r)| (r.clone(), s as u32))
            .collect();
        self.close(check)
    }

    /// The letter of a heap size.
    fn letter(&self, h: u8) -> Option<usize> {
        self.letters.binary_search(&h).ok()
    }

    /// The class the automaton reaches from `from` reading the live heaps of `heaps`.
    fn run(&self, from: u32, heaps: &[u8]) -> u32 {
        heaps.iter().fold(from, |s, &h| match self.letter(h) {
            Some(j) => self.delta[s as usize][j],
            None => s,
        })
    }

    /// Whether the automaton is wrong about a sum.
    fn wrong<E>(
        &mut self,
        heaps: &[u8],
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<bool, QuotientError<E>> {
        let said = self.rows[self.run(0, heaps) as usize][0];
        Ok(self.outcome(heaps, &[], check)? != said)
    }

    /// The first of these sums the automaton is wrong about.
    fn first_wrong<E>(
        &mut self,
        candidates: Vec<Vec<u8>>,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Option<Vec<u8>>, QuotientError<E>> {
        for w in candidates {
            if self.wrong(&w, check)? {
                return Ok(Some(w));
            }
        }
        Ok(None)
    }

    /// A sum the automaton is wrong about where two of its moves do not commute: the two
    /// orders of the moves lead to classes that some test tells apart, but the sum has one
    /// outcome, so one of the four readings is wrong.
    pub(super) fn commutation_failure<E>(
        &mut self,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Option<Vec<u8>>, QuotientError<E>> {
        let k = self.letters.len();
        for s in 0..self.rows.len() {
            for a in 0..k {
                for b in a + 1..k {
                    let ab = self.delta[self.delta[s][a] as usize][b];
                    let ba = self.delta[self.delta[s][b] as usize][a];
                    if ab == ba {
                        continue;
                    }
                    let (ra, rb) = (&self.rows[ab as usize], &self.rows[ba as usize]);
                    let Some(t) = (0..ra.len()).find(|&t| ra[t] != rb[t]) else {
                        continue;
                    };
                    let test = self.tests[t].to_vec();
                    let (la, lb) = (self.letters[a], self.letters[b]);
                    let with = |mut base: Vec<u8>, more: &[u8]| {
                        base.extend_from_slice(more);
                        base
                    };
                    let candidates = vec![
                        with(with(self.access[s].clone(), &[la, lb]), &test),
                        with(with(self.access[s].clone(), &[lb, la]), &test),
                        with(self.access[ab as usize].clone(), &test),
                        with(self.access[ba as usize].clone(), &test),
                    ];
                    if let Some(w) = self.first_wrong(candidates, check)? {
                        return Ok(Some(w));
                    }
                }
            }
        }
        Ok(None)
    }

    /// The product of two classes: the class the first reaches reading the second's
    /// representative, for every pair.
    pub(super) fn products(&self) -> Vec<u32> {
        let order = self.rows.len();
        let mut times = Vec::with_capacity(order * order);
        for x in 0..order as u32 {
            for y in 0..order {
                times.push(self.run(x, &self.access[y]));
            }
        }
        times
    }

    /// A sum the automaton is wrong about where reading a class's representative is not
    /// reading any sum of that class: `x·(y·h)` and `(x·y)·h` are classes some test tells
    /// apart, so one of the readings below is wrong.
    pub(super) fn product_failure<E>(
        &mut self,
        times: &[u32],
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Option<Vec<u8>>, QuotientError<E>> {
        let order = self.rows.len();
        for x in 0..order {
            check()?;
            for y in 0..order {
                for j in 0..self.letters.len() {
                    let yh = self.delta[y][j] as usize;
                    let q1 = times[x * order + yh];
                    let q2 = self.delta[times[x * order + y] as usize][j];
                    if q1 == q2 {
                        continue;
                    }
                    let (r1, r2) = (&self.rows[q1 as usize], &self.rows[q2 as usize]);
                    let Some(t) = (0..r1.len()).find(|&t| r1[t] != r2[t]) else {
                        continue;
                    };
                    let test = &self.tests[t];
                    let join = |parts: &[&[u8]]| parts.concat();
                    let h = [self.letters[j]];
                    let (ax, ay, ayh) = (&self.access[x], &self.access[y], &self.access[yh]);
                    let candidates = vec![
                        join(&[ax, ayh, test]),
                        join(&[ax, ay, &h, test]),
                        join(&[&self.access[q1 as usize], test]),
                        join(&[&self.access[q2 as usize], test]),
                        join(&[ayh, ax, test]),
                        join(&[ay, &h, ax, test]),
                    ];
                    if let Some(w) = self.first_wrong(candidates, check)? {
                        return Ok(Some(w));
                    }
                }
            }
        }
        Ok(None)
    }

    /// A sum the automaton is wrong about, if there is one, given that it is a monoid (its
    /// moves commute and reading a class is reading any sum of it). Two checks cover every
    /// sum: an accepted sum `X + h` must have no accepted option `X + o` (`o` an option of
    /// the heap `h`), which depends only on the class of `X`, and every class is some `X`'s;
    /// and a sum that is not empty and not accepted must have an accepted option. That
    /// depends on the sum's class and the set of its options' classes, which adding a heap
    /// maps to the next such pair; the search over pairs keeps, per class, only the sets
    /// that contain no other found for it (a sum with more options' classes fails only if
    /// one with fewer does, and so do their sums with anything).
    pub(super) fn proof_failure<E>(
        &mut self,
        times: &[u32],
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Option<Vec<u8>>, QuotientError<E>> {
        let order = self.rows.len();
        let letters = self.letters.clone();
        let accepts: Vec<bool> = self.rows.iter().map(|r| r[0]).collect();
        let heap_class: Vec<u32> = (0..letters.len()).map(|j| self.delta[0][j]).collect();
        // The classes of each heap's options.
        let heap_options: Vec<Vec<u32>> = letters
            .iter()
            .map(|&h| {
                let mut v: Vec<u32> = self.outcomes.options[h as usize]
                    .iter()
                    .map(|o| self.run(0, o))
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            })
            .collect();
        let times_at = |x: u32, y: u32| times[x as usize * order + y as usize];
        // Accepted sums with an accepted option.
        for x in 0..order as u32 {
            for (j, options) in heap_options.iter().enumerate() {
                if accepts[times_at(x, heap_class[j]) as usize]
                    && options.iter().any(|&o| accepts[times_at(x, o) as usize])
                {
                    let mut witness = self.access[x as usize].clone();
                    witness.push(letters[j]);
                    return self.witness_failure(witness, check);
                }
            }
        }
        // Sums not accepted, not empty, without an accepted option.
        let words = order.div_ceil(64);
        let mut minimal: Vec<Vec<Vec<u64>>> = vec![Vec::new(); order];
        let mut found: Vec<(u32, Vec<u64>, u32, u32)> = vec![(0, vec![0; words], u32::MAX, 0)];
        let mut queue = VecDeque::from([0usize]);
        while let Some(i) = queue.pop_front() {
            if i.is_multiple_of(256) {
                check()?;
            }
            let (x, set) = (found[i].0, found[i].1.clone());
            let nonempty = set.iter().any(|&w| w != 0);
            let some_accepted = (0..order).any(|y| set[y / 64] >> (y % 64) & 1 == 1 && accepts[y]);
            if nonempty && !accepts[x as usize] && !some_accepted {
                let mut witness = Vec::new();
                let mut at = i;
                while found[at].2 != u32::MAX {
                    witness.push(letters[found[at].3 as usize]);
                    at = found[at].2 as usize;
                }
                return self.witness_failure(witness, check);
            }
            for j in 0..letters.len() {
                let next_x = times_at(x, heap_class[j]);
                let mut next = vec![0u64; words];
                for y in 0..order as u32 {
                    if set[y as usize / 64] >> (y % 64) & 1 == 1 {
                        let z = times_at(y, heap_class[j]) as usize;
                        next[z / 64] |= 1 << (z % 64);
                    }
                }
                for &o in &heap_options[j] {
                    let z = times_at(x, o) as usize;
                    next[z / 64] |= 1 << (z % 64);
                }
                let contains =
                    |big: &[u64], small: &[u64]| big.iter().zip(small).all(|(b, s)| s & !b == 0);
                let kept = &mut minimal[next_x as usize];
                if kept.iter().any(|old| contains(&next, old)) {
                    continue;
                }
                kept.retain(|old| !contains(old, &next));
                kept.push(next.clone());
                if found.len() >= MAX_PROOF_STATES {
                    return Err(QuotientError::TooLarge(Bound::Proof));
                }
                found.push((next_x, next, i as u32, j as u32));
                queue.push_back(found.len() - 1);
            }
        }
        Ok(None)
    }

    /// The sum or one of its options that the automaton is wrong about: the checks found the
    /// sum's outcome inconsistent with its options' as the automaton gives them.
    fn witness_failure<E>(
        &mut self,
        witness: Vec<u8>,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Option<Vec<u8>>, QuotientError<E>> {
        let mut candidates = vec![witness.clone()];
        let sum = self.outcomes.sum(witness);
        candidates.extend(self.outcomes.children(&sum).iter().map(|c| c.to_vec()));
        match self.first_wrong(candidates, check)? {
            Some(w) => Ok(Some(w)),
            None => Err(QuotientError::Bug(
                "a failed check whose sum and options the automaton all gets right",
            )),
        }
    }

    /// Learns from a sum the automaton is wrong about (Rivest and Schapire): along the sum's
    /// reading there is a step where swapping the heaps read so far for their class's
    /// representative changes the outcome; the heaps after it are a test that splits a class.
    pub(super) fn learn_from<E>(
        &mut self,
        w: &[u8],
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<(), QuotientError<E>> {
        let w: Vec<u8> = w
            .iter()
            .copied()
            .filter(|&h| self.letter(h).is_some())
            .collect();
        let mut states = vec![0u32];
        for &h in &w {
            let s = *states.last().unwrap_or(&0);
            states.push(self.run(s, &[h]));
        }
        // `v(i)`: the outcome of the representative of the class after `i` heaps, with the
        // rest of the sum added; `v(0)` is the truth, `v(len)` what the automaton says.
        let mut v = |me: &mut Learner, i: usize| {
            let access = me.access[states[i] as usize].clone();
            me.outcome(&access, &w[i..], check)
        };
        let (mut lo, mut hi) = (0, w.len());
        let at_lo = v(self, lo)?;
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if v(self, mid)? == at_lo {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let test = self.outcomes.sum(w[hi..].iter().copied());
        if self.tests.contains(&test) {
            // A test already told these apart: the table would have had them apart.
            return Err(QuotientError::Bug("a counterexample that splits no class"));
        }
        self.add_test(test, check)
    }

    /// The quotient the proved automaton is.
    pub(super) fn quotient(&self, name: &str, n: usize, times: &[u32]) -> Quotient {
        let heap_class = |h: usize| self.letter(h as u8).map_or(0, |j| self.delta[0][j]);
        let accepts: Vec<bool> = self.rows.iter().map(|r| r[0]).collect();
        super::present::presented(name, n, times, &heap_class, &accepts)
    }
}
