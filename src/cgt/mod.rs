//! Combinatorial game theory values: canonical forms of short partizan games.
//!
//! Self-contained (pure data and algorithms, no IO, nothing else of the crate):
//!
//! - [`Dyadic`]: exact dyadic rationals with checked arithmetic and the simplest-number rule;
//! - [`ValueTable`]: hash-consed canonical forms, one [`GameId`] per value, built from
//!   option lists ([`ValueTable::game`]) and combined by memoised sum, negation and order;
//! - analyses on values (`analysis.rs`): stops, mean, temperature, thermographs
//!   ([`Thermograph`]), cooling and heating, birthday, atomic weight, reduced canonical form;
//! - take-and-break games by code ([`octal`]): Grundy sequences and proved periods, and their
//!   misère quotients ([`misere`]);
//! - [`Budget`]: the deadline, stop flag and memory cap the table's recursions check;
//! - CGSuite's notation: [`ValueTable::show`] prints it, [`ValueTable::parse`] reads it back.
//!
//! Conventions follow CGSuite (and Siegel, *Combinatorial Game Theory*): Left is positive
//! (Blue in Red-Blue Hackenbush; vertical in Domineering), the temperature of a number
//! `m/2^j` is `-1/2^j` (of an integer `-1`), and thermographs are defined for `t >= -1`.
//!
//! ```
//! use cgl::cgt::ValueTable;
//!
//! let mut t = ValueTable::new();
//! let g = t.parse("{2 | -1/2}").unwrap();
//! assert_eq!(t.show(g), "{2|-1/2}");
//! assert_eq!(t.mean(g).unwrap().to_string(), "3/4");
//! assert_eq!(t.temperature(g).unwrap().to_string(), "5/4");
//! ```
//!
//! Inside the table (`table.rs`; the construction, domination, reversibility and interning in
//! `table/canonical.rs`): `game(left, right)` canonicalises any option ids, memoised by its
//! option lists; numbers are stored as their value and their options made on demand; forms
//! equal to `x + n·^ + *m` carry that triple, which speeds sums and printing; `le` (number
//! avoidance against numbers), `add` and `neg` are memoised. Thermographs' walls are
//! piecewise-linear `Trajectory`s with dyadic breakpoints (`thermo.rs`). `order.rs`'s
//! `form_order` is CGSuite's order of options, memoised by pairs, which printed option lists
//! and sets of forms follow, so none depends on the order the table made its forms in. Printing
//! is cut at a length (a form's tree may be exponentially larger than its entries). Recursion
//! goes as deep as a game's birthday, each level through `budget::deeper` (a fresh stack
//! segment when the thread's is nearly used); the layers above pass `eval::Stop::budget()` to
//! `ValueTable::with_budget` around every call, and every 1,024 steps a recursion checks it and
//! the table's memory against its cap (`set_max_bytes`, the session's `--max-memory`). The
//! errors `Timeout`, `Interrupted` and `Memory` become the usual diagnostics through
//! `eval::cgt_stop`.

mod analysis;
mod budget;
mod dyadic;
pub mod misere;
pub mod octal;
mod order;
mod parse;
mod print;
mod table;
#[cfg(test)]
mod tests;
mod thermo;

pub use budget::{Budget, CHECK_EVERY};
pub use dyadic::{Dyadic, MAX_EXP};
pub use octal::{Code as OctalCode, Period as OctalPeriod};
pub use parse::ParseError;
pub use print::Style;
pub use table::{
    GameId, Nus, Outcome, Relation, Side, ValueTable, DEFAULT_MAX_VALUES, MAX_NIMBER, MAX_UPS,
};
pub use thermo::{Piece, Thermograph, Trajectory};

/// Why a value could not be computed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CgtError {
    /// A number's numerator or denominator does not fit (numerators are `i64`,
    /// denominators at most `2^62`).
    Overflow,
    /// A fraction whose denominator is not a power of two.
    NotDyadic,
    /// A simplest number between two bounds that are not in order.
    EmptyInterval,
    /// The table would hold more canonical forms than its limit (or a nimber above
    /// [`MAX_NIMBER`]).
    Limit,
    /// Atomic weight of a game that is not all-small.
    NotAllSmall,
    /// The computation ran past the [`Budget`]'s deadline (the time it allowed).
    Timeout(std::time::Duration),
    /// The [`Budget`]'s flag was raised (Ctrl-C).
    Interrupted,
    /// The table's memory would pass the [`Budget`]'s cap (in bytes).
    Memory(usize),
    /// A case the theory says cannot happen; a bug in cgl.
    Internal(&'static str),
}

impl std::fmt::Display for CgtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CgtError::Overflow => f.write_str("a number is too large or too finely divided"),
            CgtError::NotDyadic => f.write_str("the denominator is not a power of two"),
            CgtError::EmptyInterval => f.write_str("no number lies between the bounds"),
            CgtError::Limit => f.write_str("the value table is full"),
            CgtError::NotAllSmall => f.write_str("atomic weight needs an all-small game"),
            CgtError::Timeout(budget) => write!(f, "took longer than {budget:?}"),
            CgtError::Interrupted => f.write_str("interrupted"),
            CgtError::Memory(bytes) => write!(
                f,
                "the table of game values would take more than {} MiB",
                bytes >> 20
            ),
            CgtError::Internal(what) => write!(f, "internal error: {what}"),
        }
    }
}

impl std::error::Error for CgtError {}
