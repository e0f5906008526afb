//! Misère quotients of take-and-break games (Plambeck and Siegel, "Misère quotients for
//! impartial games", 2008; Siegel's MisereSolver): the commutative monoid that tells the
//! misère outcome of every sum of heaps of at most `n` tokens.
//!
//! Two sums of heaps are equivalent when adding any third sum gives both the same misère
//! outcome; the classes multiply as sums add, and the *P-portion* is the classes of the sums
//! the previous player wins. Because sums are commutative, the classes are the states of the
//! least automaton that reads a sum heap by heap and accepts its P-positions, and the quotient
//! is learnt as such an automaton is (Angluin's L*, with Rivest and Schapire's way of reading
//! a counterexample): representatives of the classes found so far, the sums told apart by the
//! outcomes of a set of test sums added to them, a move by each heap. The outcomes come from
//! a solver of sums by their options, remembered by multiset.
//!
//! A learnt automaton is then *proved* right for every sum, not only the ones tested: its
//! moves by two heaps must commute, and a sum must be accepted exactly when it is not empty
//! and no option of it is accepted. The second condition is about infinitely many sums, but
//! it depends only on a sum's class and, for each heap size in it, the class of the sum
//! without one such heap; so a search over these finitely many tuples (each reached with a
//! witness sum) checks it for every sum at once, and by induction on sums the automaton gives
//! every sum its true outcome. Where a check fails, the witness or one of its options is a sum
//! the automaton gets wrong: a counterexample, which splits a class, and the learning goes on.
//! Its states are then pairwise told apart by true outcomes, so they are the quotient, which
//! is printed as the literature prints it: generators `a, b, c, ...` (the heaps whose classes
//! are not products of smaller heaps'), each element as its least monomial (by degree, then
//! more of the earlier generators), the relations that rewrite the least monomials that are
//! not least to them, the P-portion and the pretending function (each heap's element).
//!
//! The files: `outcomes.rs` the solver of sums; `learn.rs` the table, the checks, the
//! counterexamples and the quotient read off the proved automaton; `tests.rs` against a brute
//! force of its own.

mod learn;
mod outcomes;
#[cfg(test)]
mod tests;

use learn::Learner;

/// The largest heap a quotient is computed for.
pub const MAX_HEAP: usize = 255;
/// The most elements a quotient may have.
pub const MAX_ORDER: usize = 5000;
/// The most tuples the proof may search.
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
    /// The sums solved would take more than the bytes allowed.
    Memory(usize),
    /// More than [`MAX_PROOF_STATES`] tuples searched by the proof.
    Proof,
}

impl Bound {
    /// What went past its bound, in words.
    pub fn describe(self) -> String {
        match self {
            Bound::Heaps => format!("heaps run from 0 to at most {MAX_HEAP}"),
            Bound::Order => format!("the quotient has more than {MAX_ORDER} elements"),
            Bound::Memory(bytes) => format!(
                "the sums of heaps it solves would take more than {} MiB",
                bytes >> 20
            ),
            Bound::Proof => {
                format!("its proof needs more than {MAX_PROOF_STATES} classes of sums")
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
/// `octal::Code::options` gives them); `n` is at most [`MAX_HEAP`]. The sums it solves take
/// at most about `max_bytes`; it calls `check` now and then.
pub fn quotient<E>(
    name: &str,
    options: &[Vec<Vec<usize>>],
    max_bytes: usize,
    check: &mut dyn FnMut() -> Result<(), E>,
) -> Result<Quotient, QuotientError<E>> {
    for (h, opts) in options.iter().enumerate() {
        if let Some(&part) = opts.iter().flatten().find(|&&p| p >= h) {
            return Err(QuotientError::NotSmaller { heap: h, part });
        }
    }
    if options.is_empty() || options.len() > MAX_HEAP + 1 {
        return Err(QuotientError::TooLarge(Bound::Heaps));
    }
    let n = options.len() - 1;
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
