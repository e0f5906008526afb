//! Misère quotients of take-and-break games (Plambeck and Siegel, "Misère quotients for
//! impartial games", 2008; Siegel's MisereSolver): the commutative monoid that tells the
//! misère outcome of every sum of heaps of at most `n` tokens.
//!
//! Two sums of heaps are equivalent when adding any third sum gives both the same misère
//! outcome; the classes multiply as sums add, and the *P-portion* is the classes of the sums
//! the previous player wins. The quotient is built heap by heap (`solve.rs`, Siegel's
//! method): each heap pretends to be an element of the quotient of the smaller heaps where
//! one fits, and otherwise the monoid grows by a generator and is recalibrated until no sum
//! fails. Each step is *proved* for every sum, not only the ones tried: a search over the
//! finitely many states sums can be in (an element and the set of its options' elements)
//! finds the first sum, in an order where options come first, whose element breaks the rule
//! of misère play (P exactly when not empty and no option is P), or shows there is none; by
//! induction on sums the monoid then gives every sum its true outcome, and elements no sum
//! tells apart are merged, so it is the quotient. It is printed as the literature prints it
//! (`present.rs`): generators `a, b, c, ...` (the heaps whose classes are not products of
//! smaller heaps'), each element as its least monomial (by degree, then more of the earlier
//! generators), the relations that rewrite the least monomials that are not least to them,
//! the P-portion and the pretending function (each heap's element).
//!
//! The tests hold two independent checks: a brute force of sums by their options, and the
//! quotient learnt another way (`learn.rs`, `outcomes.rs`: Angluin's L* over the outcomes of
//! sums solved by their options, with a proof of its own), which agrees to heap 12 on a dozen
//! codes but needs exponential time past that.

#[cfg(test)]
mod learn;
#[cfg(test)]
use learn::learnt_quotient;
#[cfg(test)]
mod outcomes;
mod present;
mod solve;
#[cfg(test)]
mod tests;

/// The largest heap a quotient is computed for.
pub const MAX_HEAP: usize = 255;
/// The most elements a quotient may have.
pub const MAX_ORDER: usize = 5000;
/// The most elements a trial monoid may have before it is reduced.
pub const MAX_TRIAL: usize = 1 << 21;
/// The most states a search of sums may visit.
pub const MAX_PROOF_STATES: usize = 2_000_000;

/// Why no quotient was given.
#[derive(Debug)]
pub enum QuotientError<E> {
    /// The check said to stop (a deadline, a cancel).
    Stopped(E),
    /// The computation went past one of the bounds above.
    TooLarge(Bound),
    /// A step of the learning found what its theory says cannot be: a bug in cgl.
    Bug(&'static str),
    /// A move from a heap leaves a heap as large (the sums would not be well founded).
    NotSmaller {
        /// The heap moved in.
        heap: usize,
        /// The heap its move leaves.
        part: usize,
    },
}

/// Which bound a computation went past.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No heaps, or heaps past [`MAX_HEAP`].
    Heaps,
    /// More than [`MAX_ORDER`] elements.
    Order,
    /// More than [`MAX_TRIAL`] elements in a trial monoid on the way to it.
    Trial,
    /// The searches would take more than the bytes allowed.
    Memory(usize),
    /// More than [`MAX_PROOF_STATES`] states visited by a search of sums.
    Proof,
}

impl Bound {
    /// What went past its bound, in words.
    pub fn describe(self) -> String {
        match self {
            Bound::Heaps => format!("heaps run from 0 to at most {MAX_HEAP}"),
            Bound::Order => {
                format!("the quotient has more than {MAX_ORDER} elements")
            }
            Bound::Trial => {
                format!("a trial monoid on the way to it has more than {MAX_TRIAL} elements")
            }
            Bound::Memory(bytes) => format!(
                "its searches of sums would take more than {} MiB",
                bytes >> 20
            ),
            Bound::Proof => {
                format!("a search of its sums needs more than {MAX_PROOF_STATES} states")
            }
        }
    }
}

impl<E> From<E> for QuotientError<E> {
    fn from(e: E) -> Self {
        QuotientError::Stopped(e)
    }
}

/// A misère quotient of the sums of heaps of at most [`Quotient::heaps`] tokens. Elements are
/// numbered in the order of their least monomials; element 0 is the identity (the empty sum).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quotient {
    /// The game's name: its code, as `octal::Code::show` writes it, or the game's.
    pub name: String,
    /// The largest heap.
    pub heaps: usize,
    /// The heap sizes whose classes generate it, in increasing order (named `a`, `b`, ...).
    pub generators: Vec<usize>,
    /// Each element's least monomial: its exponent of each generator.
    pub monomials: Vec<Vec<u32>>,
    /// `times[x * order + y]`: the product of elements `x` and `y`.
    times: Vec<u32>,
    /// Whether each element is in the P-portion.
    pub p: Vec<bool>,
    /// The element of each heap, `0..=heaps`.
    pub pretend: Vec<u32>,
    /// The relations: a monomial (exponents) and the element it equals.
    pub relations: Vec<(Vec<u32>, u32)>,
}

impl Quotient {
    /// The number of elements.
    pub fn order(&self) -> usize {
        self.p.len()
    }

    /// The product of two elements.
    pub fn times(&self, x: u32, y: u32) -> u32 {
        self.times[x as usize * self.order() + y as usize]
    }

    /// The element of a sum of heaps (each at most [`Quotient::heaps`]); `None` past it.
    pub fn element(&self, heaps: &[usize]) -> Option<u32> {
        heaps
            .iter()
            .try_fold(0, |x, &h| self.pretend.get(h).map(|&y| self.times(x, y)))
    }

    /// The name of each generator: `a`, `b`, ..., `z`, then `g27`, `g28`, ...
    fn generator_name(&self, i: usize) -> String {
        match u8::try_from(i).ok().filter(|&i| i < 26) {
            Some(i) => char::from(b'a' + i).to_string(),
            None => format!("g{}", i + 1),
        }
    }

    /// A monomial as the literature writes it: `ab^2`, `1` for the identity.
    pub fn show_monomial(&self, exps: &[u32]) -> String {
        let sep = if self.generators.len() > 26 { " " } else { "" };
        let parts: Vec<String> = exps
            .iter()
            .enumerate()
            .filter(|(_, &e)| e > 0)
            .map(|(i, &e)| {
                let g = self.generator_name(i);
                if e == 1 {
                    g
                } else {
                    format!("{g}^{e}")
                }
            })
            .collect();
        if parts.is_empty() {
            "1".to_string()
        } else {
            parts.join(sep)
        }
    }

    /// An element by its least monomial.
    pub fn show(&self, x: u32) -> String {
        self.show_monomial(&self.monomials[x as usize])
    }

    /// The presentation: `<a, b | a^2 = 1, b^3 = b>`.
    pub fn presentation(&self) -> String {
        let gens: Vec<String> = (0..self.generators.len())
            .map(|i| self.generator_name(i))
            .collect();
        let rels: Vec<String> = self
            .relations
            .iter()
            .map(|(m, x)| format!("{} = {}", self.show_monomial(m), self.show(*x)))
            .collect();
        if rels.is_empty() {
            format!("<{}>", gens.join(", "))
        } else {
            format!("<{} | {}>", gens.join(", "), rels.join(", "))
        }
    }

    /// The elements of the P-portion, in element order.
    pub fn p_portion(&self) -> Vec<u32> {
        (0..self.order() as u32)
            .filter(|&x| self.p[x as usize])
            .collect()
    }
}

/// The misère quotient of the sums of heaps `0..=n` of a heap game: `options[h]` lists the
/// moves from a heap of `h`, each as the heaps it leaves, every one smaller than `h` (as
/// `octal::Code::options` gives them); `n` is at most [`MAX_HEAP`]. Its searches take at most
/// about `max_bytes`; it calls `check` now and then.
pub fn quotient<E>(
    name: &str,
    options: &[Vec<Vec<usize>>],
    max_bytes: usize,
    check: &mut dyn FnMut() -> Result<(), E>,
) -> Result<Quotient, QuotientError<E>> {
    let n = heaps_of(options)?;
    // The live heaps (those with a move) are the letters; a heap without one is the empty sum.
    let mut letter: Vec<Option<usize>> = Vec::with_capacity(n + 1);
    let mut solver = solve::Solver::new(max_bytes);
    for opts in options {
        if opts.is_empty() {
            letter.push(None);
            continue;
        }
        let words = opts
            .iter()
            .map(|o| o.iter().filter_map(|&part| letter[part]).collect())
            .collect();
        solver.push(words, check)?;
        letter.push(Some(solver.q.act.len() - 1));
    }
    let q = &solver.q;
    let words = q.words();
    let order = q.order();
    if order > MAX_ORDER {
        return Err(QuotientError::TooLarge(Bound::Order));
    }
    if order.saturating_mul(order).saturating_mul(4) > max_bytes {
        return Err(QuotientError::TooLarge(Bound::Memory(max_bytes)));
    }
    let mut times = Vec::with_capacity(order * order);
    for x in 0..order as u32 {
        for w in &words {
            times.push(q.run(x, w));
        }
    }
    let heap_class = |h: usize| letter[h].map_or(0, |j| q.act[j][0]);
    Ok(present::presented(name, n, &times, &heap_class, &q.p))
}

/// The largest heap, after checking that every move leaves smaller heaps.
pub(super) fn heaps_of<E>(options: &[Vec<Vec<usize>>]) -> Result<usize, QuotientError<E>> {
    for (h, opts) in options.iter().enumerate() {
        if let Some(&part) = opts.iter().flatten().find(|&&p| p >= h) {
            return Err(QuotientError::NotSmaller { heap: h, part });
        }
    }
    if options.is_empty() || options.len() > MAX_HEAP + 1 {
        return Err(QuotientError::TooLarge(Bound::Heaps));
    }
    Ok(options.len() - 1)
}
