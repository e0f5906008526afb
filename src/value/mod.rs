//! Runtime values: checked integers, exact rationals, game values, collections, outcomes,
//! games and positions.
//!
//! Every value is immutable and cheap to clone (`Rc` inside). Equality, order and hashing are
//! structural and deterministic; sets are ordered, so printing never depends on hash order.
//!
//! A value may share its parts (`[x, x]`), so its printed size can be exponential in its
//! memory (`fn g(n) = if n == 0 then [0] else dup(g(n - 1))`). Every walk of a value is
//! bounded by its memory, not its printed size: equality and order remember the pairs of
//! shared nodes they found equal, hashing feeds each node past the first [`PLAIN_NODES`] of
//! a walk as its digest, remembered for the thread per shared node (so small values touch no
//! memo, and a position one list deeper than one hashed before costs [`PLAIN_NODES`] steps),
//! the heap estimate counts a shared node once, and printing stops after [`MAX_SHOWN`]
//! bytes. Positions held in values are nodes of these walks like lists are. Every walk
//! either keeps a stack of its own or grows the native one ([`crate::stack::grow`]), and
//! dropping never recurses, so no depth of nesting overflows the stack.
//!
//! The files: this one the types, constructors and the heap estimate; `instance.rs` the
//! `Instance` handle a value or atom holds (the graph keeps bare ids and rebuilds handles from
//! `GameTable::instance`); `order.rs` equality and order; `hash.rs` hashing (a node past the
//! plain ones, or 12 levels deep, is fed as its digest); `display.rs` printing, cut at 1 MiB,
//! at 4 KiB in diagnostics. Lowering folds literals into values, which is why this layer sits
//! below `lower`.

use std::collections::BTreeSet;
use std::fmt;
use std::rc::Rc;

use rustc_hash::FxHashSet;

use crate::cgt::{CgtError, GameId, ValueTable};
use crate::num::{Fraction, Rational, Unfit};
use crate::syntax::ast::Convention;

mod display;
mod hash;
mod instance;
mod order;

pub use instance::{Instance, InstanceId};

pub use hash::{forget_digests, remembered_digests};

pub use display::{
    display, display_bounded, display_short, InstanceNames, MAX_SHOWN, SHOWN_IN_DIAGNOSTICS,
};

/// The class of a position under optimal play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// The next player (the one to move) wins.
    N,
    /// The previous player wins.
    P,
    /// Neither can force a win: a draw.
    D,
    /// Left wins whoever starts (partizan games only).
    L,
    /// Right wins whoever starts (partizan games only).
    R,
}

/// How the parts of a compound are played together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CompoundKind {
    /// Move in exactly one part; over when every part is over (`x + y`).
    Disjunctive,
    /// Move in every part; over as soon as one part is over (`x & y`).
    Conjunctive,
    /// Move in any non-empty set of parts; over when every part is over (`x | y`).
    Selective,
}

impl CompoundKind {
    /// The operator that builds this compound.
    pub fn symbol(self) -> &'static str {
        match self {
            CompoundKind::Disjunctive => "+",
            CompoundKind::Conjunctive => "&",
            CompoundKind::Selective => "|",
        }
    }

    /// The name of the mode constant.
    pub fn name(self) -> &'static str {
        match self {
            CompoundKind::Disjunctive => "disjunctive",
            CompoundKind::Conjunctive => "conjunctive",
            CompoundKind::Selective => "selective",
        }
    }
}

/// A position of one game, or a compound of positions. Equality, order and hashing are
/// structural, as a value's are (`order.rs`, `hash.rs`); a term nested deeply is dropped
/// without recursion.
#[derive(Clone, Debug)]
pub enum PosTerm {
    /// A position of a game instance: the instance and the position's data.
    Atom(Instance, Value),
    /// A compound: parts flattened (no part has the same kind) and sorted, so that equal
    /// multisets compare equal. No parts: the empty game, written `split()`.
    Compound(CompoundKind, Rc<[PosTerm]>),
}

impl PosTerm {
    /// The empty game (nothing left to play).
    pub fn empty() -> PosTerm {
        PosTerm::Compound(CompoundKind::Disjunctive, Rc::from(Vec::new()))
    }

    /// Builds a compound in canonical form: nested parts of the same kind are flattened, parts
    /// are sorted, and a compound of one part is that part.
    pub fn compound(kind: CompoundKind, parts: impl IntoIterator<Item = PosTerm>) -> PosTerm {
        let mut flat = Vec::new();
        for part in parts {
            match &part {
                PosTerm::Compound(k, inner) if *k == kind => flat.extend(inner.iter().cloned()),
                // The empty game is neutral in every kind of compound but the conjunctive
                // one, where it ends the game at once.
                PosTerm::Compound(_, inner) if inner.is_empty() => {
                    if kind == CompoundKind::Conjunctive {
                        flat.push(part);
                    }
                }
                _ => flat.push(part),
            }
        }
        flat.sort();
        if flat.len() == 1 {
            if let Some(only) = flat.pop() {
                return only;
            }
        }
        if flat.is_empty() {
            return PosTerm::empty();
        }
        PosTerm::Compound(kind, Rc::from(flat))
    }

    /// The term with every compound in the canonical form of [`PosTerm::compound`], as a
    /// compound built part by part without it (a move target's `split`) is.
    pub fn normalized(&self) -> PosTerm {
        match self {
            PosTerm::Atom(..) => self.clone(),
            PosTerm::Compound(kind, parts) => PosTerm::compound(
                *kind,
                parts
                    .iter()
                    .map(|p| crate::stack::grow(|| p.normalized()))
                    .collect::<Vec<_>>(),
            ),
        }
    }

    /// Every instance that appears in the term, in order (a walk with a stack of its own, so
    /// compounds nested a million deep cost no native stack).
    pub fn instances(&self, out: &mut Vec<InstanceId>) {
        let mut stack = vec![self];
        while let Some(t) = stack.pop() {
            match t {
                PosTerm::Atom(i, _) => out.push(i.id()),
                PosTerm::Compound(_, parts) => stack.extend(parts.iter().rev()),
            }
        }
    }

    /// The first instance that appears in the term, if any (without listing the others).
    pub fn first_instance(&self) -> Option<InstanceId> {
        let mut stack = vec![self];
        while let Some(t) = stack.pop() {
            match t {
                PosTerm::Atom(i, _) => return Some(i.id()),
                PosTerm::Compound(_, parts) => stack.extend(parts.iter().rev()),
            }
        }
        None
    }
}

/// A position as a value: what is played, and under which convention. Ordered by term, then
/// convention.
#[derive(Clone, Debug)]
pub struct Position {
    /// The position or compound.
    pub term: PosTerm,
    /// Normal or misère play of the whole.
    pub convention: Convention,
}

impl Position {
    /// Whether it is played misère (the player who cannot move wins).
    pub fn is_misere(&self) -> bool {
        self.convention == Convention::Misere
    }
}

/// The convention of a compound of `parts`, or `None` when they disagree. A part that
/// belongs to no game (the empty game `split()`, a compound of empty games) has no
/// convention of its own, and prints without one (`Pz(2) & split()` in a misère game): it
/// takes the convention of the parts that belong to a game. When no part does, the compound
/// is misère if a part is: a normal-play empty game may be a bare `split()`, while a misère
/// one came from `misere(...)` or from misère parts that were over and dropped
/// (`Pz(1) | Im(0) | split()` of misère games `Pz` and `Im` with no move there). No parts:
/// normal play.
pub fn joint_convention(parts: &[&Position]) -> Option<Convention> {
    let first = parts.first().map_or(Convention::Normal, |p| p.convention);
    if parts.iter().all(|p| p.convention == first) {
        return Some(first);
    }
    let mut games = parts.iter().filter(|p| p.term.first_instance().is_some());
    let Some(one) = games.next() else {
        return Some(Convention::Misere);
    };
    games
        .all(|p| p.convention == one.convention)
        .then_some(one.convention)
}

/// A cgl value. Equality, order and hashing are structural (see the module documentation).
#[derive(Clone, Debug)]
pub enum Value {
    /// `none`.
    None,
    /// `true`, `false`.
    Bool(bool),
    /// A 64-bit integer; arithmetic on it is checked.
    Int(i64),
    /// A string.
    Str(Rc<str>),
    /// An exact fraction that is not an integer, such as `3/4` (an integral result is always
    /// an `Int`: build numbers with [`Value::number`]).
    Rational(Rational),
    /// A fraction whose numerator or denominator does not fit in 64 bits (never an integer:
    /// build numbers from big rationals with [`Value::fraction`]).
    Wide(Rc<num_rational::BigRational>),
    /// `(a, b)`.
    Tuple(Rc<[Value]>),
    /// `[a, b]`.
    List(Rc<[Value]>),
    /// `{a, b}`, ordered.
    Set(Rc<BTreeSet<Value>>),
    /// `a..b` as the half-open range `[start, end)`.
    Range(i64, i64),
    /// `N`, `P`, `D`.
    Outcome(Outcome),
    /// `disjunctive`, `conjunctive`, `selective`.
    Mode(CompoundKind),
    /// A game (with its parameters), such as `Kayles` or `Subtraction[S = {2, 4, 7}]`.
    Game(Instance),
    /// A position or compound of positions.
    Pos(Rc<Position>),
    /// `split(...)` of position data, before the game it belongs to is known.
    Split(Rc<[Value]>),
    /// A short partizan game value that is not a number, such as `*`, `^` or `{2 | -1/2}`:
    /// its canonical form in this thread's form table ([`with_forms`]). A value that is a
    /// number is always an `Int` or a `Rational` (build game values with [`Value::form`]), so
    /// equal values have one representation and ids compare canonical forms.
    Form(GameId),
    /// A loopy nimber `∞{0, 1}` (Smith): a position of a loopy impartial game from which
    /// neither player can force a win or an end, with the finite values of its options.
    Infinite(Rc<BTreeSet<u64>>),
}

thread_local! {
    /// The canonical forms of the game values of this thread (values are `Rc`-based and never
    /// cross threads, so neither do their ids).
    static FORMS: std::cell::RefCell<ValueTable> = std::cell::RefCell::new(ValueTable::new());
}

/// Runs `f` on this thread's table of canonical forms. `f` must not call `with_forms`
/// itself (nor print a `Value::Form`, which reads the table).
pub fn with_forms<R>(f: impl FnOnce(&mut ValueTable) -> R) -> R {
    FORMS.with(|t| f(&mut t.borrow_mut()))
}

impl Value {
    /// The integer, if the value is one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(n) => Some(*n),
            _ => None,
        }
    }

    /// A list value.
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::from(items))
    }

    /// A tuple value.
    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(Rc::from(items))
    }

    /// A number as a value: an `Int` when it is integral, else a `Rational`.
    pub fn number(r: Rational) -> Value {
        if r.is_integer() {
            Value::Int(r.numer())
        } else {
            Value::Rational(r)
        }
    }

    /// An exact big rational as a value: an `Int`, a `Rational` or a `Wide` fraction, or why
    /// it is none (an integer past 64 bits, a fraction past the size limit).
    pub fn fraction(q: num_rational::BigRational) -> Result<Value, Unfit> {
        Ok(match Fraction::of(q)? {
            Fraction::Fits(r) => Value::number(r),
            Fraction::Wide(q) => Value::Wide(Rc::new(q)),
        })
    }

    /// A number (`Int`, `Rational` or `Wide`) as a big rational; zero for anything else
    /// (callers check that it is a number).
    pub fn as_big(&self) -> num_rational::BigRational {
        match self {
            Value::Int(n) => Rational::int(*n).big(),
            Value::Rational(r) => r.big(),
            Value::Wide(q) => (**q).clone(),
            _ => num_rational::BigRational::default(),
        }
    }

    /// The fraction `num / den` written in decimal (as [`crate::session::Data`] gives a wide
    /// one), if both parse, `den` is not zero and the result fits the language.
    pub fn fraction_text(num: &str, den: &str) -> Option<Value> {
        let (num, den): (num_bigint::BigInt, num_bigint::BigInt) =
            (num.parse().ok()?, den.parse().ok()?);
        if num_traits::Zero::is_zero(&den) {
            return None;
        }
        Value::fraction(num_rational::BigRational::new(num, den)).ok()
    }

    /// A game value of the form table as a value: a number becomes an `Int` or a `Rational`,
    /// anything else a `Form`.
    pub fn form(id: GameId) -> Result<Value, CgtError> {
        match with_forms(|t| t.as_number(id)) {
            Some(x) => {
                let den = 1i64
                    .checked_shl(x.exponent())
                    .filter(|d| *d > 0)
                    .ok_or(CgtError::Overflow)?;
                Rational::new(x.numerator(), den)
                    .map(Value::number)
                    .ok_or(CgtError::Overflow)
            }
            None => Ok(Value::Form(id)),
        }
    }

    /// A position value.
    pub fn pos(term: PosTerm, convention: Convention) -> Value {
        Value::Pos(Rc::new(Position { term, convention }))
    }

    /// The type's name with its article ("an int", "a list"), for error messages.
    pub fn a_type_name(&self) -> String {
        let name = self.type_name();
        match name {
            "none" => "none".to_string(),
            "int" | "outcome" => format!("an {name}"),
            _ => format!("a {name}"),
        }
    }

    /// The name of the value's type, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::None => "none",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Rational(_) | Value::Wide(_) => "rational",
            Value::Str(_) => "string",
            Value::Tuple(_) => "tuple",
            Value::List(_) => "list",
            Value::Set(_) => "set",
            Value::Range(..) => "range",
            Value::Outcome(_) => "outcome",
            Value::Mode(_) => "compound mode",
            Value::Game(_) => "game",
            Value::Pos(_) => "position",
            Value::Split(_) => "split",
            Value::Form(_) => "game value",
            Value::Infinite(_) => "loopy nimber",
        }
    }
}

/// Nodes (lists, tuples, sets, splits) a walk of a value visits plainly before it starts to
/// remember shared nodes; below it, no memo is built.
pub const PLAIN_NODES: u32 = 256;

impl Value {
    /// The order of the kinds of value (as the variants are declared).
    fn rank(&self) -> u8 {
        match self {
            Value::None => 0,
            Value::Bool(_) => 1,
            // Integers and rationals are one kind: they compare by size.
            Value::Int(_) | Value::Rational(_) | Value::Wide(_) => 2,
            Value::Str(_) => 3,
            Value::Tuple(_) => 4,
            Value::List(_) => 5,
            Value::Set(_) => 6,
            Value::Range(..) => 7,
            Value::Outcome(_) => 8,
            Value::Mode(_) => 9,
            Value::Game(_) => 10,
            Value::Pos(_) => 11,
            Value::Split(_) => 12,
            Value::Form(_) => 13,
            Value::Infinite(_) => 14,
        }
    }

    /// The heap memory the value holds (its boxed lists, tuples, sets and strings),
    /// estimated; a node shared within the value is counted once.
    pub fn heap_bytes(&self) -> usize {
        self.heap_bytes_seen(&mut FxHashSet::default())
    }

    /// [`Value::heap_bytes`], with `seen` kept across calls: a node that an earlier call
    /// counted is not counted again, so positions that share their parts (a list position
    /// grown by `[xs]` each move) cost their memory, not the sum of their sizes. A node held
    /// once (`Rc::strong_count` 1) cannot be met again and is not remembered (one held once
    /// then, shared later, is counted twice at most). The addresses stay valid while the
    /// values counted are alive (the graph holds its positions). Positions held in the value
    /// are counted with their data. Walked with a stack of its own, so a value nested a
    /// million deep costs no native stack.
    pub fn heap_bytes_seen(&self, seen: &mut FxHashSet<usize>) -> usize {
        const VALUE: usize = std::mem::size_of::<Value>();
        const TERM: usize = std::mem::size_of::<PosTerm>();
        /// What is left to count: a value, or a position's term.
        enum Part<'v> {
            Value(&'v Value),
            Term(&'v PosTerm),
        }
        // Whether a node not held elsewhere is new (a shared one is counted once).
        let mut new = |key: usize, count: usize| count == 1 || seen.insert(key);
        let mut total = 0;
        let mut stack = vec![Part::Value(self)];
        while let Some(part) = stack.pop() {
            match part {
                Part::Value(v) => match v {
                    Value::Tuple(items) | Value::List(items) | Value::Split(items) => {
                        if !new(hash::seq_address(items), Rc::strong_count(items)) {
                            continue;
                        }
                        total += 16 + items.len() * VALUE;
                        stack.extend(items.iter().filter(|i| holds_heap(i)).map(Part::Value));
                    }
                    Value::Set(items) => {
                        if !new(Rc::as_ptr(items) as usize, Rc::strong_count(items)) {
                            continue;
                        }
                        total += 48 + items.len() * (VALUE + 8);
                        stack.extend(items.iter().filter(|i| holds_heap(i)).map(Part::Value));
                    }
                    Value::Str(text) => total += 16 + text.len(),
                    Value::Wide(q) => {
                        total += 64 + ((q.numer().bits() + q.denom().bits()) / 8) as usize
                    }
                    Value::Pos(p) => {
                        if !new(Rc::as_ptr(p) as usize, Rc::strong_count(p)) {
                            continue;
                        }
                        total += 16 + std::mem::size_of::<Position>();
                        stack.push(Part::Term(&p.term));
                    }
                    _ => {}
                },
                Part::Term(PosTerm::Atom(_, data)) => stack.push(Part::Value(data)),
                Part::Term(PosTerm::Compound(_, parts)) => {
                    let key = Rc::as_ptr(parts) as *const PosTerm as usize;
                    if !new(key, Rc::strong_count(parts)) {
                        continue;
                    }
                    total += 16 + parts.len() * TERM;
                    stack.extend(parts.iter().map(Part::Term));
                }
            }
        }
        total
    }
}

/// Whether a value holds heap memory of its own (a node or a string).
fn holds_heap(v: &Value) -> bool {
    matches!(
        v,
        Value::Tuple(_)
            | Value::List(_)
            | Value::Split(_)
            | Value::Set(_)
            | Value::Str(_)
            | Value::Wide(_)
            | Value::Pos(_)
    )
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// Runs one level of a walk into `v`: on a fresh stack segment when `v` nests and the thread's
/// stack is nearly used ([`crate::stack::grow`]), so comparing or hashing a value nested a
/// million deep does not overflow it.
#[inline]
pub(super) fn deep<R>(v: &Value, f: impl FnOnce() -> R) -> R {
    match v {
        Value::Tuple(_) | Value::List(_) | Value::Split(_) | Value::Set(_) | Value::Pos(_) => {
            crate::stack::grow(f)
        }
        _ => f(),
    }
}

/// Dropping a value nested deeply (a list a million lists deep, or positions held in lists
/// held in positions ...) does not recurse once per level: the nested parts of a node held
/// only here go to a stack of the drop's own first.
impl Drop for Value {
    #[inline]
    fn drop(&mut self) {
        if nests(self) {
            let mut stack = Vec::new();
            take_nested(self, &mut stack);
            drop_all(stack);
        }
    }
}

/// A compound's parts are dropped as a value's are (compounds of alternating kinds nest one
/// level deeper with each move of a game whose position holds one).
impl Drop for PosTerm {
    #[inline]
    fn drop(&mut self) {
        if matches!(self, PosTerm::Compound(_, parts) if !parts.is_empty()) {
            let mut stack = Vec::new();
            take_term(self, &mut stack);
            drop_all(stack);
        }
    }
}

thread_local! {
    /// The parts of [`placeholder`], shared so that leaving one allocates nothing.
    static NO_PARTS: Rc<[PosTerm]> = Rc::from(Vec::new());
}

/// A term that holds nothing, left where a part was taken out to be dropped: the empty game
/// (its parts shared while the thread's table of them lives).
fn placeholder() -> PosTerm {
    let parts = NO_PARTS
        .try_with(Rc::clone)
        .unwrap_or_else(|_| Rc::from(Vec::new()));
    PosTerm::Compound(CompoundKind::Disjunctive, parts)
}

/// Something whose nested parts a drop takes out before it goes.
enum Owned {
    Value(Value),
    Term(PosTerm),
}

/// Drops what a drop took out: the nested parts of each first, from the same stack; each
/// part taken out leaves a scalar behind, so the thing itself then drops without recursing.
#[inline(never)]
fn drop_all(mut stack: Vec<Owned>) {
    while let Some(mut owned) = stack.pop() {
        match &mut owned {
            Owned::Value(v) => take_nested(v, &mut stack),
            Owned::Term(t) => take_term(t, &mut stack),
        }
    }
}

/// Whether a value holds a node that may nest.
fn nests(v: &Value) -> bool {
    matches!(
        v,
        Value::Tuple(_) | Value::List(_) | Value::Split(_) | Value::Set(_) | Value::Pos(_)
    )
}

/// Moves the nested items (lists, tuples, sets, positions) of `v`'s node to `stack` if `v`
/// holds the node alone (otherwise it is not dropped now).
fn take_nested(v: &mut Value, stack: &mut Vec<Owned>) {
    match v {
        Value::Tuple(items) | Value::List(items) | Value::Split(items) => {
            // Only a node held here alone is dropped now.
            if let Some(items) = Rc::get_mut(items) {
                for item in items.iter_mut().filter(|i| nests(i)) {
                    stack.push(Owned::Value(std::mem::replace(item, Value::None)));
                }
            }
        }
        Value::Set(items) => {
            if let Some(set) = Rc::get_mut(items) {
                if set.iter().any(nests) {
                    stack.extend(std::mem::take(set).into_iter().map(Owned::Value));
                }
            }
        }
        Value::Pos(p) => {
            if let Some(p) = Rc::get_mut(p) {
                take_part(&mut p.term, stack);
            }
        }
        _ => {}
    }
}

/// Moves what may nest in a part (of a compound or a position) to `stack`: an atom's data
/// (the atom stays, holding `none`), or the part itself if it is a compound with parts.
fn take_part(part: &mut PosTerm, stack: &mut Vec<Owned>) {
    match part {
        PosTerm::Atom(_, data) => {
            if nests(data) {
                stack.push(Owned::Value(std::mem::replace(data, Value::None)));
            }
        }
        PosTerm::Compound(_, parts) => {
            if !parts.is_empty() {
                stack.push(Owned::Term(std::mem::replace(part, placeholder())));
            }
        }
    }
}

/// Moves the nested parts of a term (an atom's data, a compound's parts held here alone) to
/// `stack`.
fn take_term(t: &mut PosTerm, stack: &mut Vec<Owned>) {
    match t {
        PosTerm::Atom(_, data) => {
            if nests(data) {
                stack.push(Owned::Value(std::mem::replace(data, Value::None)));
            }
        }
        PosTerm::Compound(_, parts) => {
            if let Some(parts) = Rc::get_mut(parts) {
                for part in parts.iter_mut() {
                    take_part(part, stack);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering;
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};

    /// The order values had when it was derived: a plain walk of the whole tree.
    fn naive_cmp(a: &Value, b: &Value) -> Ordering {
        let seq = |x: &[Value], y: &[Value]| {
            for (p, q) in x.iter().zip(y) {
                let o = naive_cmp(p, q);
                if o != Ordering::Equal {
                    return o;
                }
            }
            x.len().cmp(&y.len())
        };
        match (a, b) {
            (Value::Int(x), Value::Int(y)) => x.cmp(y),
            (Value::Str(x), Value::Str(y)) => x.cmp(y),
            (Value::List(x), Value::List(y)) | (Value::Tuple(x), Value::Tuple(y)) => seq(x, y),
            (Value::Set(x), Value::Set(y)) => {
                let x: Vec<Value> = x.iter().cloned().collect();
                let y: Vec<Value> = y.iter().cloned().collect();
                seq(&x, &y)
            }
            _ => a.rank().cmp(&b.rank()),
        }
    }

    /// Lists, tuples and sets in the value, each shared one counted as often as it appears.
    fn nodes(v: &Value) -> usize {
        match v {
            Value::List(items) | Value::Tuple(items) => 1 + items.iter().map(nodes).sum::<usize>(),
            Value::Set(items) => 1 + items.iter().map(nodes).sum::<usize>(),
            _ => 0,
        }
    }

    fn hash_of(v: &Value) -> u64 {
        let mut h = DefaultHasher::new();
        v.hash(&mut h);
        h.finish()
    }

    /// A small deterministic generator (xorshift), so the test needs no crate.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// A random value of at most `depth` levels: its parts are drawn from `pool` (values made
    /// before, so shared) or made afresh, so that values are built both with and without
    /// sharing.
    fn random(rng: &mut Rng, pool: &mut Vec<Value>, depth: u32) -> Value {
        let v = match (depth, rng.next(6)) {
            (0, _) | (_, 0) => Value::Int(rng.next(3) as i64),
            (_, 1) if !pool.is_empty() => pool[rng.next(pool.len() as u64) as usize].clone(),
            (_, 1) => Value::Str(["a", "b", ""][rng.next(3) as usize].into()),
            (_, k) => {
                let n = rng.next(5) as usize;
                let items: Vec<Value> = (0..n).map(|_| random(rng, pool, depth - 1)).collect();
                match k {
                    2 | 3 => Value::list(items),
                    4 => Value::tuple(items),
                    _ => Value::Set(Rc::new(items.into_iter().collect())),
                }
            }
        };
        pool.push(v.clone());
        v
    }

    /// The same value with no part shared.
    fn unshared(v: &Value) -> Value {
        match v {
            Value::List(items) => Value::list(items.iter().map(unshared).collect()),
            Value::Tuple(items) => Value::tuple(items.iter().map(unshared).collect()),
            Value::Set(items) => Value::Set(Rc::new(items.iter().map(unshared).collect())),
            other => other.clone(),
        }
    }

    #[test]
    fn equality_order_and_hash_agree_with_a_plain_walk() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut pool = Vec::new();
        let mut big = 0;
        for _ in 0..3000 {
            let a = random(&mut rng, &mut pool, 7);
            let b = if rng.next(3) == 0 {
                unshared(&a)
            } else {
                random(&mut rng, &mut pool, 7)
            };
            let want = naive_cmp(&a, &b);
            assert_eq!(a.cmp(&b), want, "{a:?} vs {b:?}");
            assert_eq!(b.cmp(&a), want.reverse());
            assert_eq!(a == b, want == Ordering::Equal);
            if want == Ordering::Equal {
                assert_eq!(hash_of(&a), hash_of(&b), "{a:?}");
                big += usize::from(nodes(&a) > 2 * PLAIN_NODES as usize);
            }
            if pool.len() > 200 {
                pool.drain(..100);
            }
        }
        // Some equal pairs were past the plain budget, so the memo paths were taken.
        assert!(big > 0, "no large equal pair was drawn");
    }

    fn doubled(n: u32, leaf: i64) -> Value {
        let mut v = Value::list(vec![Value::Int(leaf)]);
        for _ in 0..n {
            v = Value::list(vec![v.clone(), v]);
        }
        v
    }

    #[test]
    fn shared_values_of_exponential_size_compare_and_hash_at_once() {
        let (a, b, c) = (doubled(60, 0), doubled(60, 0), doubled(60, 1));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.cmp(&c), Ordering::Less);
        assert_eq!(hash_of(&a), hash_of(&b));
        // Shared nodes count once: 61 lists.
        assert_eq!(a.heap_bytes(), 16 + 24 + 60 * (16 + 2 * 24));
        // The same shape unshared, past the plain budget, hashes the same.
        let small = doubled(12, 3);
        assert_eq!(hash_of(&small), hash_of(&unshared(&small)));
        assert_eq!(small, unshared(&small));
    }

    struct NoNames;
    impl InstanceNames for NoNames {
        fn instance_label(&self, _: InstanceId) -> &str {
            "G"
        }
        fn instance_convention(&self, _: InstanceId) -> Convention {
            Convention::Normal
        }
    }

    #[test]
    fn printing_stops_at_its_limit_and_says_so() {
        let (text, cut) = display_bounded(&doubled(50, 0), &NoNames, 1000);
        // Past the limit, each of the 50 open lists is closed with `…]`.
        assert!(cut && text.len() < 1000 + 50 * 6, "{}", text.len());
        assert_eq!(text.matches('[').count(), text.matches(']').count());
        let (text, cut) = display_bounded(&doubled(2, 7), &NoNames, 1000);
        assert_eq!((text.as_str(), cut), ("[[[7], [7]], [[7], [7]]]", false));
        let long = Value::Str("é".repeat(1000).into());
        let (text, cut) = display_bounded(&long, &NoNames, 101);
        assert!(
            cut && text.starts_with("\"é") && text.ends_with("é…\""),
            "{text}"
        );
    }
}
