//! Move rules compiled once, at lowering, for the common case where every variable a rule
//! reads holds an integer or a list of integers: `move split(i, n - 1 - i) for i in 0..n`,
//! `move (a - k, b) for k in 1..=a`, guards such as `if 2 * i < n`, and (in `lists.rs`) boards
//! and rows: `move set(b, i, turn(b)) for i in 0..9 if b[i] == 0`, with user functions
//! inlined. Such a rule runs over unboxed `i64` registers and integer lists, with no
//! allocation per option, instead of walking the IR per option.
//!
//! The compiled form means exactly what the interpreter does with the same rule: the same
//! order of evaluation, the same checked arithmetic, the same range limits. Where the
//! interpreter would raise an error (overflow, division by zero, a range too long), the
//! compiled rule stops with [`Interrupt::Fallback`] and the caller re-runs the rule in the
//! interpreter, which raises the error with its diagnostic. Rules outside the fragment (sets,
//! strings, positions, nested lists, recursive functions) are not compiled and are
//! interpreted.
//!
//! The files, by stage: `compile.rs` (the fragment check and the translation of scalar
//! expressions) and `compile_lists.rs` (lists, generators, folds, inlined calls); `run.rs`
//! (evaluation a value at a time, the buffers of a run, the rule driver) and `lists.rs`
//! (lists, generators and folds at run time); `lanes.rs` (blocks of 256 values); `prog.rs`
//! (flat lane programs of comprehensions and folds), `select.rs` (their fused selects) and
//! `fused.rs` (a filter of a computed list in one pass); `rows.rs` (families of rows and the
//! quantifiers over them); `hoist.rs` (loop-invariant parts computed once a run, and calls
//! on arguments fixed for a run shared); `conds.rs` (`terminal if` and `draw if`
//! conditions, one by one and a game's all together); `cells.rs` (targets that set one cell
//! of the position, for a visitor that ranks them from the position's rank); `table.rs` (the
//! side table by game).
//!
//! `reached.rs` marks which of these paths a process took, for the differential sweeps' report
//! (`CGL_PATHS`). A compiled tree nests at most 256 levels (`MAX_NESTING`) and runs only with
//! the stack a run may take to spare (`RUN_STACK`), else the interpreter runs the rule and
//! checks the stack at each level. `CompiledGames` is `Sync` (a compile-time check), so the
//! parallel solver's threads share the compiled forms.

mod cells;
mod compile;
mod compile_lists;
mod conds;
mod cross;
mod domain;
mod fused;
mod gen_blocks;
mod hoist;
mod lanes;
mod lists;
mod prog;
pub mod reached;
mod rows;
mod run;
mod select;
mod table;

use std::rc::Rc;

use self::reached::{mark, Reached};
use self::{compile::*, lanes::*, lists::*, prog::*, rows::*, run::*};
pub use conds::{compile_condition, compile_ends, CompiledCond, CompiledEnds};
pub use domain::{cell_domain, position_ranges, sorted_domain, SortedDomain};
pub use prog::Keep;
pub use run::InputFrame;
pub use table::{CompiledGame, CompiledGames};

use super::arith::IntOp;
use super::value::Value;
use crate::diag::Diag;
use crate::lower::ir::{Clause, Expr, Program};
use crate::syntax::ast::BinaryOp;

/// An integer expression over registers.
#[derive(Debug, Clone)]
enum IntExpr {
    Lit(i64),
    Reg(u32),
    Neg(Box<IntExpr>),
    Abs(Box<IntExpr>),
    Bin(IntOp, Box<IntExpr>, Box<IntExpr>),
    If(Box<BoolExpr>, Box<IntExpr>, Box<IntExpr>),
    Min(Vec<IntExpr>),
    Max(Vec<IntExpr>),
    /// `min(xs)` (true) or `max(xs)` of one list of integers.
    ExtremeList(bool, Box<ListExpr>),
    /// A built-in of integers to an integer: `popcount`, `bits`, `normalize`.
    Call(IntFn, Vec<IntExpr>),
    /// `xs[i]`.
    Index(Box<ListExpr>, Box<IntExpr>),
    /// `len(xs)` (and `count(xs)` of integers).
    Len(Box<ListExpr>),
    /// `sum(xs)`.
    SumList(Box<ListExpr>),
    /// `count(...)`, `sum(...)`, `len(...)` of a comprehension.
    Fold(Box<Fold>),
    /// An inlined call.
    Let(Vec<Binding>, Box<IntExpr>),
    /// An inlined call whose arguments are variables or literals, remembered: called again
    /// with the same arguments in the same run, its body is not evaluated again.
    Memo(lists::MemoKey, Vec<Binding>, Box<IntExpr>),
}

/// A built-in from integers to an integer, computed as the interpreter computes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum IntFn {
    Popcount,
    Bits,
    /// `normalize(m, w)` or `normalize(m, w, mirrors)`.
    Normalize,
}

/// A boolean expression over registers.
#[derive(Debug, Clone)]
enum BoolExpr {
    Lit(bool),
    /// A boolean register.
    Reg(u32),
    Cmp(BinaryOp, IntExpr, IntExpr),
    /// `a == b` of booleans (`!=` when the flag is set).
    Same(bool, Box<BoolExpr>, Box<BoolExpr>),
    Not(Box<BoolExpr>),
    And(Box<BoolExpr>, Box<BoolExpr>),
    Or(Box<BoolExpr>, Box<BoolExpr>),
    /// `x in xs` (`not in` when the flag is set).
    In(bool, IntExpr, Box<ListExpr>),
    /// `(a, b) == (c, d)` or `!=`.
    TupleCmp(BinaryOp, Vec<IntExpr>, Vec<IntExpr>),
    /// `exists` (true) or `forall` (false).
    Quant(bool, Box<Gen>, Box<BoolExpr>),
    /// The commonest quantifier over a board, `forall i in line: b[i] == p`, as one loop.
    IndexedQuant(Box<rows::IndexedQuant>),
    /// A quantifier over a constant's rows of an `IndexedQuant` over each row: a board game's
    /// `exists line in LINES: forall i in line: b[i] == p`.
    LinesQuant(Box<rows::LinesQuant>),
    /// An inlined call.
    Let(Vec<Binding>, Box<BoolExpr>),
    /// A remembered inlined call (see [`IntExpr::Memo`]).
    Memo(lists::MemoKey, Vec<Binding>, Box<BoolExpr>),
}

/// A move target: position data (an integer, a tuple of them or a list of them) or a
/// `split` of targets.
#[derive(Debug, Clone)]
enum Target {
    Int(IntExpr),
    Tuple(Vec<IntExpr>),
    List(ListExpr),
    Split(Vec<Target>),
    /// `split(xs)` of one list argument: its items are the parts.
    SplitList(ListExpr),
    /// A call of a user function whose body is a `split` or a tuple, inlined.
    Let(Vec<Binding>, Box<Target>),
}

/// A move rule in compiled form.
#[derive(Debug, Clone)]
pub struct CompiledRule {
    /// The rule's clauses: for the `for` clauses, `GenClause::Range` and `Items`/`Rows`.
    steps: Vec<GenClause>,
    target: Target,
    /// What a run of the rule starts with.
    shape: RunShape,
    /// The index of the last `for` step when it is a range followed only by guards: the
    /// loop that runs as one loop (in blocks when `int_parts` is set).
    last_for: Option<usize>,
    /// The target's integers, when it is built of integers only and the innermost loop runs
    /// in blocks: its value, its tuple's items or its split's parts.
    int_parts: Option<Vec<IntExpr>>,
    /// What the integers make.
    int_shape: LaneShape,
    /// The target, when it is a comprehension over a list that runs for a block of the
    /// innermost loop's values at once (see `cross.rs`).
    cross: Option<Box<cross::Cross>>,
    /// The list register whose one cell the target sets, when the target is `set(b, i, v)`
    /// of an input list `b` that the rule never binds (see `cells.rs`).
    set_cell: Option<u32>,
}

/// The shape of a target built from integers only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaneShape {
    /// One integer (position data).
    Int,
    /// A tuple of integers (position data).
    Tuple,
    /// A `split` of integers.
    Split,
}

/// How a visitor takes the options of a compiled rule's innermost loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Batching {
    /// One at a time.
    One,
    /// A block of lanes at a time ([`Emitted::Block`]).
    Blocks,
    /// Blocks, and a loop without guards left whose target's integers are all affine in its
    /// variable as one [`Emitted::Affine`], its integers not computed.
    Affine,
}

/// The options of an innermost loop without guards left whose target's integers are each
/// affine in its variable (`split(i, n - 1 - i) for i in 0..n`): option `j` (of `len`) has
/// integer `p` equal to `first + slope * j`, which overflows nowhere.
pub struct AffineRun<'r> {
    shape: LaneShape,
    /// `(first, slope)` per integer of the target.
    parts: &'r [(i64, i64)],
    len: usize,
}

impl AffineRun<'_> {
    /// What each option's integers make.
    pub fn shape(&self) -> LaneShape {
        self.shape
    }

    /// `(first, slope)` of each integer of the target.
    pub fn parts(&self) -> &[(i64, i64)] {
        self.parts
    }

    /// How many options.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none (never: an empty loop emits nothing).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Option `j`'s integers, into `out` (cleared first).
    pub fn option(&self, j: usize, out: &mut Vec<i64>) {
        out.clear();
        // Within the run, each part lies between its ends, which fit.
        out.extend(
            self.parts
                .iter()
                .map(|&(first, slope)| (i128::from(first) + i128::from(slope) * j as i128) as i64),
        );
    }
}

/// A block of options of one rule, as its innermost loop computes them: for each lane the
/// guards let through, the target's integers (one column each).
pub struct Block<'b> {
    shape: LaneShape,
    columns: &'b [Vec<i64>],
    width: usize,
    keep: &'b [bool],
}

impl Block<'_> {
    /// What each lane's integers make.
    pub fn shape(&self) -> LaneShape {
        self.shape
    }

    /// How many integers a lane has.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The columns of the lanes' integers.
    pub fn columns(&self) -> &[Vec<i64>] {
        &self.columns[..self.width]
    }

    /// Which lanes the guards let through.
    pub fn keep(&self) -> &[bool] {
        self.keep
    }

    /// The lanes the guards let through, in order.
    pub fn lanes(&self) -> impl Iterator<Item = usize> + '_ {
        self.keep
            .iter()
            .enumerate()
            .filter(|(_, k)| **k)
            .map(|(i, _)| i)
    }

    /// The target of one lane, given its integers.
    pub fn lane<'p>(&self, parts: &'p [i64]) -> Emitted<'p> {
        match self.shape {
            LaneShape::Int => Emitted::Value(Value::Int(parts[0])),
            LaneShape::Tuple => Emitted::IntTuple(parts),
            LaneShape::Split => Emitted::IntSplit(parts),
        }
    }
}

/// Why a compiled rule stopped before its end.
pub enum Interrupt {
    /// The interpreter must run the rule: an input is not an integer, or evaluation would
    /// raise an error that the interpreter reports.
    Fallback,
    /// An error from the caller's visitor, or the stop condition.
    Error(Box<Diag>),
}

/// Compiles a move rule, if it lies in the fragment. `program` gives the functions and
/// constants the rule may use (inlined); without it, calls are not compiled.
pub fn compile_rule(
    clauses: &[Clause],
    target: &Expr,
    frame_size: usize,
    program: Option<&Program>,
) -> Option<CompiledRule> {
    Compiler::two_passes(program, frame_size, |c| c.rule(clauses, target))
}

/// A move target as a compiled rule emits it: a value, or the parts of a top-level `split`
/// (kept in a reused buffer rather than allocated per option).
pub enum Emitted<'t> {
    /// The target's value.
    Value(Value),
    /// `split(parts...)`.
    Split(&'t [Value]),
    /// `split(parts...)` where every part is an integer.
    IntSplit(&'t [i64]),
    /// A tuple of integers (position data).
    IntTuple(&'t [i64]),
    /// A list of integers (position data).
    IntList(&'t [i64]),
    /// A block of options (only to visitors that asked for blocks).
    Block(&'t Block<'t>),
    /// A loop's options, affine in its variable (only to visitors that asked for them,
    /// [`Batching::Affine`]).
    Affine(&'t AffineRun<'t>),
    /// The position's list, given packed ([`InputFrame::packed`]), with cell `.0` set to
    /// `.1` (only to visitors that asked for cells, [`CompiledRule::run_cells`]).
    SetCell(usize, i64),
    /// Options that are lists of integers, not built: for each row of `len` cells of `rows`
    /// (`len` at least 1), the list of its cells that `keep` keeps, in order (only to visitors
    /// that asked for cells, [`CompiledRule::run_cells`], which may rank a row as they
    /// filter it).
    Kept {
        /// The rows, one after the other.
        rows: &'t [i64],
        /// The cells of a row.
        len: usize,
        /// The filter's test.
        keep: Keep,
    },
}

impl Emitted<'_> {
    /// The target's value, as the interpreter computes it.
    pub fn into_value(self) -> Value {
        match self {
            Emitted::Value(v) => v,
            Emitted::Split(parts) => Value::Split(Rc::from(parts)),
            Emitted::IntSplit(parts) => {
                Value::Split(parts.iter().map(|n| Value::Int(*n)).collect())
            }
            Emitted::IntTuple(items) => {
                Value::Tuple(items.iter().map(|n| Value::Int(*n)).collect())
            }
            Emitted::IntList(items) => Value::List(items.iter().map(|n| Value::Int(*n)).collect()),
            // Blocks and cells reach only visitors that take them apart themselves.
            Emitted::Block(_)
            | Emitted::Affine(_)
            | Emitted::SetCell(..)
            | Emitted::Kept { .. } => Value::None,
        }
    }

    /// How many options this is.
    pub fn count(&self) -> u64 {
        match self {
            Emitted::Block(block) => block.keep.iter().filter(|k| **k).count() as u64,
            Emitted::Affine(run) => run.len as u64,
            Emitted::Kept { rows, len, .. } => (rows.len() / len) as u64,
            _ => 1,
        }
    }
}
