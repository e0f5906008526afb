//! The quotient built heap by heap, as Siegel's MisereSolver builds it (learnt from its
//! description in Plambeck and Siegel, 2008, and from reading MisereSolver; written anew).
//!
//! A *pretension* is a finite commutative monoid, a P-portion and an element for each heap.
//! It is right when every sum of heaps is a P-position exactly when its element is in the
//! P-portion; by induction on sums that holds when every sum satisfies the rule of misère
//! play against its options' elements (in the P-portion exactly when it is not empty and no
//! option's element is). The sums are searched in an order where a sum's options come before
//! it, so the first sum breaking the rule is wrong and its true outcome is what the rule says
//! (its options are all right). The search is finite: what a sum's further heaps can do
//! depends only on its element and the set of its options' elements, so a state met before
//! is not searched again.
//!
//! The quotient of heaps `< n` is extended to heap `n` by the first element it may pretend to
//! be that leaves no failing sum (a *conservative extension*). Where none does, the monoid
//! grows: a trial with a new generator `z`, `z^2 = z^4`, its P-portion marked sum by sum in
//! the search's order by the rule, reduced (elements no sum added tells apart are one). While
//! a sum fails, the heaps of the first failing sum are given generators of their own, free
//! up to the exponents the failure needs, the rest of the monoid kept; the first subset of
//! them that makes the failure right is the next trial.
//!
//! Every monoid here is an automaton: element 0 the identity, each live heap acting on the
//! elements by multiplication by its element. A monoid made of sums' elements is commutative
//! and associative by construction, so actions are all it needs.

use std::collections::VecDeque;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::{Bound, QuotientError, MAX_PROOF_STATES, MAX_TRIAL};

/// The most trials for one heap (Siegel's converge: each one's first failing sum comes
/// later than the one before's).
const MAX_TRIALS: usize = 10_000;

/// The bytes a searched state is counted as beside its set: the table's entry, the box.
const STATE_BYTES: usize = 48;

/// A finite commutative monoid as the automaton of its elements: `act[j][x]` is `x` times
/// the element of the `j`-th live heap; every element is reached from the identity, 0.
#[derive(Clone, Debug)]
pub(super) struct Monoid {
    pub(super) act: Vec<Vec<u32>>,
    /// Whether each element is in the P-portion.
    pub(super) p: Vec<bool>,
}

impl Monoid {
    /// The one-element monoid (only the empty sum, an N-position).
    fn trivial() -> Monoid {
        Monoid {
            act: Vec::new(),
            p: vec![false],
        }
    }

    pub(super) fn order(&self) -> usize {
        self.p.len()
    }

    /// `x` times the element of a sum of live heaps, given by their letters.
    pub(super) fn run(&self, x: u32, word: &[usize]) -> u32 {
        word.iter().fold(x, |x, &j| self.act[j][x as usize])
    }

    /// A word reaching each element, by a breadth-first search from the identity.
    pub(super) fn words(&self) -> Vec<Vec<usize>> {
        let mut words: Vec<Option<Vec<usize>>> = vec![None; self.order()];
        words[0] = Some(Vec::new());
        let mut queue = VecDeque::from([0u32]);
        while let Some(x) = queue.pop_front() {
            for (j, act) in self.act.iter().enumerate() {
                let y = act[x as usize] as usize;
                if words[y].is_none() {
                    let mut w = words[x as usize].clone().unwrap_or_default();
                    w.push(j);
                    words[y] = Some(w);
                    queue.push_back(y as u32);
                }
            }
        }
        words.into_iter().map(Option::unwrap_or_default).collect()
    }

    /// The monoid an automaton's elements reachable from 0 make, with letter `j` acting as
    /// `act(j, _)` does there; it calls `check` now and then.
    fn reachable<E>(
        order: usize,
        act: &dyn Fn(usize, u32) -> u32,
        letters: usize,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Monoid, QuotientError<E>> {
        let mut index = vec![u32::MAX; order];
        let mut elems = vec![0u32];
        index[0] = 0;
        let mut i = 0;
        while i < elems.len() {
            if i % 16_384 == 16_383 {
                check()?;
            }
            let x = elems[i];
            for j in 0..letters {
                let y = act(j, x) as usize;
                if index[y] == u32::MAX {
                    index[y] = elems.len() as u32;
                    elems.push(y as u32);
                }
            }
            i += 1;
        }
        let act = (0..letters)
            .map(|j| elems.iter().map(|&x| index[act(j, x) as usize]).collect())
            .collect();
        Ok(Monoid {
            act,
            p: vec![false; elems.len()],
        })
    }

    /// The monoid with elements no sum added tells apart made one (Moore's refinement from
    /// the P-portion): the least monoid with this P-portion.
    fn reduced<E>(
        &self,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Monoid, QuotientError<E>> {
        let order = self.order();
        let mut class: Vec<u32> = self.p.iter().map(|&p| u32::from(p)).collect();
        let mut count = 0;
        loop {
            check()?;
            let mut index = HashMap::default();
            let next: Vec<u32> = (0..order)
                .map(|x| {
                    let key: Vec<u32> = std::iter::once(class[x])
                        .chain(self.act.iter().map(|a| class[a[x] as usize]))
                        .collect();
                    let n = index.len() as u32;
                    *index.entry(key).or_insert(n)
                })
                .collect();
            let classes = index.len();
            class = next;
            if classes == count {
                break;
            }
            count = classes;
        }
        // Renumber so that the identity's class is 0.
        let mut renumber = vec![u32::MAX; count];
        let mut n = 0;
        let mut rep = Vec::with_capacity(count);
        for (x, &c) in class.iter().enumerate() {
            let c = c as usize;
            if renumber[c] == u32::MAX {
                renumber[c] = n;
                rep.push(x);
                n += 1;
            }
        }
        Ok(Monoid {
            act: self
                .act
                .iter()
                .map(|a| {
                    rep.iter()
                        .map(|&x| renumber[class[a[x] as usize] as usize])
                        .collect()
                })
                .collect(),
            p: rep.iter().map(|&x| self.p[x]).collect(),
        })
    }

    /// The index of a letter's element: the least `i` with `x^i = x^(i+p)` for some `p > 0`.
    fn index(&self, j: usize) -> usize {
        let mut seen = HashMap::default();
        let mut y = 0u32;
        for k in 0.. {
            if let Some(&i) = seen.get(&y) {
                return i;
            }
            seen.insert(y, k);
            y = self.act[j][y as usize];
        }
        unreachable!("a finite monoid's powers repeat")
    }

    /// This monoid times cyclic monoids `C(period, index)`, one for each freed letter, as
    /// `(letter, index, period)`; the other letters act here as `letter[j]` does in this
    /// monoid (`None`: as the identity). Elements: this monoid's, then each cycle's exponent,
    /// mixed radix; only those reached from the identity are kept.
    fn times_cycles<E>(
        &self,
        letters: &[Option<usize>],
        freed: &[(usize, u32, u32)],
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Monoid, QuotientError<E>> {
        let base = self.order() as u32;
        let sizes: Vec<u32> = freed.iter().map(|&(_, i, p)| i + p).collect();
        let order = sizes
            .iter()
            .try_fold(self.order(), |n, &s| n.checked_mul(s as usize))
            .filter(|&n| n <= MAX_TRIAL)
            .ok_or(QuotientError::TooLarge(Bound::Trial))?;
        let stride: Vec<u32> = sizes
            .iter()
            .scan(base, |s, &n| {
                let here = *s;
                *s *= n;
                Some(here)
            })
            .collect();
        let act = |j: usize, e: u32| -> u32 {
            match freed.iter().position(|&(f, ..)| f == j) {
                Some(k) => {
                    let (_, index, period) = freed[k];
                    let c = e / stride[k] % sizes[k];
                    let next = if c + 1 == index + period {
                        index
                    } else {
                        c + 1
                    };
                    e - c * stride[k] + next * stride[k]
                }
                None => {
                    let b = e % base;
                    letters[j].map_or(e, |i| e - b + self.act[i][b as usize])
                }
            }
        };
        Monoid::reachable(order, &act, letters.len(), check)
    }
}
/// What the search looks for.
enum Mode {
    /// Each element's first sum: puts the element in the P-portion or not by the rule, and
    /// keeps the sum (the least reaching it). The sums after a state reach only elements an
    /// earlier state of the same element reached, so states are told apart by element only.
    Mark {
        marks: Vec<Option<bool>>,
        least: Vec<Option<Vec<u32>>>,
    },
    /// The first sum not in the P-portion, not empty, none of whose options is. A state whose
    /// set of options' elements contains an earlier one's (of the same element) fails only
    /// where that one does, and later, unless the earlier set is empty (the empty sum's):
    /// per element, only the minimal sets are kept. With a bound, only the sums before it
    /// are searched.
    NFailure(Option<Vec<u32>>),
}

/// A set of elements, sorted, with its signature (a bit for each element mod 64).
type Signed = (u64, Box<[u32]>);

/// The search of sums in order: exponents of the largest heap first, each from 0 up, so a
/// sum's options (one heap replaced by smaller ones) come before it.
struct Search<'a> {
    m: &'a Monoid,
    /// Each letter's options, as words of letters.
    options: &'a [Vec<Vec<usize>>],
    mode: Mode,
    /// The elements of the states searched (marking), by the number of letters still free.
    elements: Vec<HashSet<u32>>,
    /// The minimal sets of the states searched (failures), likewise, each with its
    /// signature.
    minimal: Vec<HashMap<u32, Vec<Signed>>>,
    /// The sum being searched: each letter's exponent.
    exps: Vec<u32>,
    states: usize,
    bytes: usize,
    max_bytes: usize,
    /// Whether the search has reached its bound.
    stopped: bool,
}

impl Search<'_> {
    fn run<E>(
        m: &Monoid,
        options: &[Vec<Vec<usize>>],
        mode: Mode,
        max_bytes: usize,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<(Option<Vec<u32>>, Mode), QuotientError<E>> {
        let k = options.len();
        let mut search = Search {
            m,
            options,
            mode,
            elements: vec![HashSet::default(); k],
            minimal: vec![HashMap::default(); k],
            exps: vec![0; k],
            states: 0,
            bytes: 0,
            max_bytes,
            stopped: false,
        };
        let failure = search.visit(k, 0, Box::new([]), check)?;
        Ok((failure, search.mode))
    }

    /// Whether the state was searched before (so were the states after it with more of
    /// letter `j`); keeps it if not.
    fn seen(&mut self, j: usize, x: u32, t: &[u32]) -> bool {
        if let Mode::Mark { .. } = self.mode {
            self.bytes += 16;
            return !self.elements[j].insert(x);
        }
        // A set's signature has a bit for each element mod 64: a subset's is a subset.
        let sig = t.iter().fold(0u64, |s, &y| s | 1 << (y % 64));
        // The empty set (the empty sum's) covers no other: a sum with options and no P
        // option fails where the empty sum, with none, does not.
        let within = |(small_sig, small): (u64, &[u32]), (big_sig, big): (u64, &[u32])| {
            small_sig & !big_sig == 0
                && small.len() <= big.len()
                && (!small.is_empty() || big.is_empty())
                && subset(small, big)
        };
        let kept = self.minimal[j].entry(x).or_default();
        if kept.iter().any(|(s, old)| within((*s, old), (sig, t))) {
            return true;
        }
        kept.retain(|(s, old)| !within((sig, t), (*s, old)));
        kept.push((sig, t.into()));
        self.bytes += STATE_BYTES + 4 * t.len();
        false
    }

    /// The sums with the exponents of letters `free..` as they are, at state `(x, t)`: `x`
    /// the sum's element, `t` the set of its options' elements.
    fn visit<E>(
        &mut self,
        free: usize,
        x: u32,
        t: Box<[u32]>,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Option<Vec<u32>>, QuotientError<E>> {
        if self.stopped {
            return Ok(None);
        }
        if free == 0 {
            if let Mode::NFailure(Some(bound)) = &self.mode {
                // Sums come in order: from here on, none is before the bound.
                if sum_order(&self.exps, bound).is_ge() {
                    self.stopped = true;
                    return Ok(None);
                }
            }
            return Ok(self.at_sum(x, &t).then(|| self.exps.clone()));
        }
        let j = free - 1;
        let (mut x, mut t) = (x, t);
        while !self.seen(j, x, &t) {
            self.states += 1;
            if self.states.is_multiple_of(512) {
                check()?;
            }
            if self.states > MAX_PROOF_STATES {
                return Err(QuotientError::TooLarge(Bound::Proof));
            }
            if self.bytes > self.max_bytes {
                return Err(QuotientError::TooLarge(Bound::Memory(self.max_bytes)));
            }
            if let Some(f) = self.visit(j, x, t.clone(), check)? {
                return Ok(Some(f));
            }
            // One more of this heap: the options' elements times it, and its own options.
            let act = &self.m.act[j];
            let mut next: Vec<u32> = t.iter().map(|&y| act[y as usize]).collect();
            next.extend(self.options[j].iter().map(|o| self.m.run(x, o)));
            next.sort_unstable();
            next.dedup();
            x = act[x as usize];
            t = next.into_boxed_slice();
            self.exps[j] += 1;
        }
        self.exps[j] = 0;
        Ok(None)
    }

    /// At a sum of element `x` whose options' elements are `t`: whether it fails.
    fn at_sum(&mut self, x: u32, t: &[u32]) -> bool {
        let x = x as usize;
        match &mut self.mode {
            Mode::Mark { marks, least } => {
                if marks[x].is_none() {
                    marks[x] =
                        Some(!t.is_empty() && t.iter().all(|&y| marks[y as usize] == Some(false)));
                    least[x] = Some(self.exps.clone());
                }
                false
            }
            Mode::NFailure(_) => {
                !self.m.p[x] && !t.is_empty() && t.iter().all(|&y| !self.m.p[y as usize])
            }
        }
    }
}

/// Whether the sorted `small` is a subset of the sorted `big`.
fn subset(small: &[u32], big: &[u32]) -> bool {
    let mut big = big.iter();
    small.iter().all(|s| big.any(|b| b == s))
}

/// The order of the search on sums given by exponents: the largest letter's first.
fn sum_order(a: &[u32], b: &[u32]) -> std::cmp::Ordering {
    a.iter().rev().cmp(b.iter().rev())
}

/// Each element's mark by the rule at its least sum, and that sum (each letter's exponent).
type LeastSums = (Vec<bool>, Vec<Vec<u32>>);

/// The quotient built heap by heap.
pub(super) struct Solver {
    /// Each live heap's options, as words of letters (live heaps, by letter).
    options: Vec<Vec<Vec<usize>>>,
    /// The monoid of the heaps so far, right and reduced: the quotient.
    pub(super) q: Monoid,
    max_bytes: usize,
}

impl Solver {
    pub(super) fn new(max_bytes: usize) -> Solver {
        Solver {
            options: Vec::new(),
            q: Monoid::trivial(),
            max_bytes,
        }
    }

    /// Whether some sum is in the P-portion with an option in it: `y` times a heap and `y`
    /// times one of the heap's options both in it, for the heap's letter `j`.
    fn p_failures<'a>(&'a self, m: &'a Monoid) -> impl Iterator<Item = (u32, usize)> + 'a {
        (0..m.order() as u32).flat_map(move |y| {
            (0..self.options.len()).filter_map(move |j| {
                let fails = m.p[m.act[j][y as usize] as usize]
                    && self.options[j].iter().any(|o| m.p[m.run(y, o) as usize]);
                fails.then_some((y, j))
            })
        })
    }

    /// Whether the monoid is wrong about some sum (the check of a candidate, which needs no
    /// least sums).
    fn fails<E>(
        &self,
        m: &Monoid,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<bool, QuotientError<E>> {
        if m.p[0] || self.p_failures(m).next().is_some() {
            return Ok(true);
        }
        let mode = Mode::NFailure(None);
        let (n_failure, _) = Search::run(m, &self.options, mode, self.max_bytes, check)?;
        Ok(n_failure.is_some())
    }

    /// The first sum the monoid is wrong about, as each letter's exponent.
    fn failure<E>(
        &self,
        m: &Monoid,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Option<Vec<u32>>, QuotientError<E>> {
        if m.p[0] {
            return Ok(Some(vec![0; self.options.len()]));
        }
        // The least sum in the P-portion with an option in it is `y`'s least sum and the heap.
        let (_, least) = self.least_sums(m, check)?;
        let first = self
            .p_failures(m)
            .map(|(y, j)| {
                let mut w = least[y as usize].clone();
                w[j] += 1;
                w
            })
            .min_by(|a, b| sum_order(a, b));
        // An N-failure counts only before it.
        let mode = Mode::NFailure(first.clone());
        let (n_failure, _) = Search::run(m, &self.options, mode, self.max_bytes, check)?;
        Ok(n_failure.or(first))
    }

    /// The marking search: each element's mark by the rule at its least sum, and that sum.
    fn least_sums<E>(
        &self,
        m: &Monoid,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<LeastSums, QuotientError<E>> {
        let mode = Mode::Mark {
            marks: vec![None; m.order()],
            least: vec![None; m.order()],
        };
        let (_, mode) = Search::run(m, &self.options, mode, self.max_bytes, check)?;
        let Mode::Mark { marks, least } = mode else {
            return Err(QuotientError::Bug("the marking search changed its mode"));
        };
        let unreached = || QuotientError::Bug("an element no sum reaches");
        let marks = marks
            .into_iter()
            .map(|m| m.ok_or_else(unreached))
            .collect::<Result<_, _>>()?;
        let least = least
            .into_iter()
            .map(|m| m.ok_or_else(unreached))
            .collect::<Result<_, _>>()?;
        Ok((marks, least))
    }

    /// The monoid with its P-portion marked by the rule and then reduced.
    fn marked<E>(
        &self,
        mut m: Monoid,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Monoid, QuotientError<E>> {
        m.p = self.least_sums(&m, check)?.0;
        m.reduced(check)
    }

    /// Extends the quotient to one more heap, live (with these options, as heaps' letters).
    pub(super) fn push<E>(
        &mut self,
        options: Vec<Vec<usize>>,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<(), QuotientError<E>> {
        let j = self.options.len();
        self.options.push(options);
        let q = &self.q;
        let words = q.words();
        // A conservative extension: an element of the quotient the heap pretends to be.
        let is_p = self.options[j].iter().all(|o| !q.p[q.run(0, o) as usize]);
        for (x, word) in words.iter().enumerate() {
            if q.p[x] != is_p {
                continue;
            }
            check()?;
            let mut m = q.clone();
            m.act
                .push((0..q.order() as u32).map(|y| q.run(y, word)).collect());
            if !self.fails(&m, check)? {
                self.q = m;
                return Ok(());
            }
        }
        // The trial: the quotient times a new generator z, z^2 = z^4 (C(2, 2)).
        let letters: Vec<Option<usize>> = (0..=j).map(|i| (i < j).then_some(i)).collect();
        let trial = q.times_cycles(&letters, &[(j, 2, 2)], check)?;
        let mut trial = self.marked(trial, check)?;
        let mut trials = 0;
        while let Some(failure) = self.failure(&trial, check)? {
            check()?;
            trials += 1;
            if trials > MAX_TRIALS {
                return Err(QuotientError::Bug("the trials for a heap do not converge"));
            }
            trial = self.recalibrate(&trial, &failure, check)?;
        }
        self.q = trial;
        Ok(())
    }

    /// A trial that gets the failure right: the heaps of a subset of the failure's (fewest
    /// first) given generators of their own, free to the exponents the failure has.
    fn recalibrate<E>(
        &self,
        trial: &Monoid,
        failure: &[u32],
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Monoid, QuotientError<E>> {
        let word: Vec<usize> = failure
            .iter()
            .enumerate()
            .flat_map(|(j, &e)| std::iter::repeat_n(j, e as usize))
            .collect();
        let should_be_p = !trial.p[trial.run(0, &word) as usize];
        let involved: Vec<usize> = (0..failure.len()).filter(|&j| failure[j] > 0).collect();
        for size in 1..=involved.len() {
            for subset in subsets(&involved, size) {
                check()?;
                // The rest of the monoid: what the other heaps' elements make.
                let kept: Vec<usize> = (0..failure.len()).filter(|j| !subset.contains(j)).collect();
                let base = Monoid::reachable(
                    trial.order(),
                    &|i, x| trial.act[kept[i]][x as usize],
                    kept.len(),
                    check,
                )?;
                let letters: Vec<Option<usize>> = (0..failure.len())
                    .map(|j| kept.iter().position(|&k| k == j))
                    .collect();
                // Each freed heap a cyclic monoid C(period, index) of its own, its index at
                // least the failure's exponent less one.
                let freed: Vec<(usize, u32, u32)> = subset
                    .iter()
                    .map(|&j| {
                        let index = trial.index(j).max(failure[j] as usize - 1);
                        let period = if index >= 8 { 2 * ((index - 4) / 2) } else { 2 };
                        (j, index as u32, period as u32)
                    })
                    .collect();
                let m = base.times_cycles(&letters, &freed, check)?;
                let m = self.marked(m, check)?;
                if m.p[m.run(0, &word) as usize] == should_be_p {
                    return Ok(m);
                }
            }
        }
        Err(QuotientError::Bug(
            "no trial gets the first failing sum right",
        ))
    }
}

/// The subsets of `items` of `size` elements, in lexicographic order.
fn subsets(items: &[usize], size: usize) -> Vec<Vec<usize>> {
    if size == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        for mut rest in subsets(&items[i + 1..], size - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}
