//! The misère outcomes of sums of heaps, by their options, remembered by multiset.

use rustc_hash::FxHashMap;

use super::{Bound, QuotientError};

/// The bytes a solved sum is counted as beside its heaps: its box, its entry in the table.
const SOLVED_BYTES: usize = 80;

/// The tokens from which a sum's options are tried in the order the guess gives.
const GUIDED_TOKENS: usize = 24;

/// A sum of heaps: the heaps that have a move, in increasing order.
pub(super) type Sum = Box<[u8]>;

/// The misère outcomes of sums, by their options, remembered.
pub(super) struct Outcomes {
    /// Each heap's options, as the live heaps they leave.
    pub(super) options: Vec<Vec<Vec<u8>>>,
    /// Whether each sum solved so far is a P-position.
    solved: FxHashMap<Sum, bool>,
    /// The bytes `solved` takes, about, and the most it may.
    bytes: usize,
    max_bytes: usize,
}

impl Outcomes {
    /// The solver of sums of heaps with these options (`heap_options[h]`, each part smaller
    /// than `h`).
    pub(super) fn new(heap_options: &[Vec<Vec<usize>>], max_bytes: usize) -> Outcomes {
        let mut options: Vec<Vec<Vec<u8>>> = Vec::with_capacity(heap_options.len());
        for opts in heap_options {
            // Heaps below `h` are known: keep only the parts that have a move (a heap with
            // none is the empty game in any sum).
            let live = |part: &usize| options.get(*part).is_some_and(|o| !o.is_empty());
            let opts: Vec<Vec<u8>> = opts
                .iter()
                .map(|o| o.iter().filter(|p| live(p)).map(|&p| p as u8).collect())
                .collect();
            options.push(opts);
        }
        Outcomes {
            options,
            solved: FxHashMap::default(),
            bytes: 0,
            max_bytes,
        }
    }

    /// Whether the heap has a move.
    pub(super) fn live(&self, h: usize) -> bool {
        !self.options[h].is_empty()
    }

    /// The sum of some heaps, live ones only, in order.
    pub(super) fn sum(&self, heaps: impl IntoIterator<Item = u8>) -> Sum {
        let mut v: Vec<u8> = heaps
            .into_iter()
            .filter(|&h| self.live(h as usize))
            .collect();
        v.sort_unstable();
        v.into_boxed_slice()
    }

    /// The options of a sum.
    pub(super) fn children(&self, sum: &[u8]) -> Vec<Sum> {
        let mut out = Vec::new();
        for (i, &h) in sum.iter().enumerate() {
            if i > 0 && sum[i - 1] == h {
                continue;
            }
            for o in &self.options[h as usize] {
                let rest = sum[..i].iter().chain(&sum[i + 1..]).copied();
                let mut v: Vec<u8> = rest.chain(o.iter().copied()).collect();
                v.sort_unstable();
                out.push(v.into_boxed_slice());
            }
        }
        out
    }

    /// The options of a sum, those guessed P first where the sum is large enough for the
    /// guess to pay (a small sum's options are soon solved anyway).
    fn guided_children(&self, sum: &[u8], guess: &dyn Fn(&[u8]) -> bool) -> Vec<Sum> {
        let children = self.children(sum);
        if sum.iter().map(|&h| usize::from(h)).sum::<usize>() < GUIDED_TOKENS {
            return children;
        }
        let (mut first, rest): (Vec<Sum>, Vec<Sum>) = children.into_iter().partition(|c| guess(c));
        first.extend(rest);
        first
    }

    /// Whether the sum (live heaps, in order) is a P-position under misère play: not empty
    /// (the player to move at the empty sum has won) and every option an N-position. A search
    /// with a stack of its own, stopping at the first option that is P; `guess` says which options to try first.
    pub(super) fn is_p<E>(
        &mut self,
        start: Sum,
        guess: &dyn Fn(&[u8]) -> bool,
        check: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<bool, QuotientError<E>> {
        if let Some(&v) = self.solved.get(&start) {
            return Ok(v);
        }
        let first = self.guided_children(&start, guess);
        let mut stack: Vec<(Sum, Vec<Sum>, usize)> = vec![(start, first, 0)];
        loop {
            let Some((sum, children, next)) = stack.last_mut() else {
                return Ok(false);
            };
            let mut decided = None;
            while *next < children.len() {
                match self.solved.get(&children[*next]) {
                    Some(true) => {
                        decided = Some(false);
                        break;
                    }
                    Some(false) => *next += 1,
                    None => break,
                }
            }
            if decided.is_none() && *next == children.len() {
                decided = Some(!sum.is_empty());
            }
            match decided {
                Some(v) => {
                    let Some((sum, _, _)) = stack.pop() else {
                        return Ok(v);
                    };
                    self.bytes += sum.len() + SOLVED_BYTES;
                    if self.bytes > self.max_bytes {
                        return Err(QuotientError::TooLarge(Bound::Memory(self.max_bytes)));
                    }
                    if self.solved.len().is_multiple_of(4096) {
                        check()?;
                    }
                    self.solved.insert(sum, v);
                    if stack.is_empty() {
                        return Ok(v);
                    }
                }
                None => {
                    let child = children[*next].clone();
                    let grand = self.guided_children(&child, guess);
                    stack.push((child, grand, 0));
                }
            }
        }
    }
}
