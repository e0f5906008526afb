//! Rust baselines for the benchmark workloads (issue 6), and the suite that names them.
//!
//! Each workload has two solvers besides cgl, both answering exactly what cgl prints for the
//! workload's query ([`suite::cgl_query`]), so the answers compare as strings:
//!
//! - `hand`: a tight hand-written solver — dense arrays indexed by an encoding of the
//!   position (a heap size, a base-3 board, the rank of a Young diagram), a reused bitset for
//!   the mex, one shared stack for the options of the positions being solved;
//! - `map`: a straightforward generic solver — a std `HashMap` from positions (integers,
//!   tuples, `Vec`s) to values, a `Vec` of options allocated per position, recursion.
//!
//! Both run the same algorithm as cgl: backward induction over every option of every
//! position (an outcome search may stop at the first option that decides it); no closed
//! formulas. W7, a loopy game, is solved by retrograde analysis (a queue of decided positions
//! and a counter of undecided options per position), as cgl solves it.
//!
//! W8, the canonical value of a Domineering rectangle, has a hand-written solver over cgl's
//! own value table (`cgl::cgt`, so it measures what cgl adds on top of that engine) and, as
//! its second peer, pycgt 0.2.0 run in Python (`domineering::pycgt`), not a hash-map solver.
//! W9, the equilibria of a random bimatrix game, has cgl's strategic library called
//! directly as `hand` and nashpy in Python as its peer (`bimatrix::nashpy`).
//! Apart from those two tables of cgl this module uses only std, so the integration tests can include it
//! with `#[path]` (tests/bench_answers.rs).

pub mod add_or_take;
pub mod bimatrix;
pub mod chomp;
pub mod common;
pub mod domineering;
pub mod grundy_game;
pub mod kayles;
pub mod suite;
pub mod tictactoe;
pub mod wythoff;
pub mod yardstick;
