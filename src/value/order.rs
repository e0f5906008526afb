//! Equality and order of values and positions: structural, remembering the pairs of shared
//! nodes found equal, so a walk is bounded by memory, not printed size; past the plain nodes,
//! two nodes whose remembered digests differ ([`super::hash`]) are unequal at once.

use std::cmp::Ordering;
use std::rc::Rc;

use rustc_hash::FxHashSet;

use crate::num::Rational;

use super::hash::{known_digest, seq_address};
use super::{Instance, PosTerm, Position, Value, PLAIN_NODES};

/// One equality or order comparison: the plain budget left, and the pairs of shared nodes
/// found equal so far (by address; both values are borrowed for the whole walk).
struct CmpWalk {
    plain: u32,
    equal: FxHashSet<(usize, usize)>,
}

impl CmpWalk {
    fn new() -> CmpWalk {
        CmpWalk {
            plain: PLAIN_NODES,
            equal: FxHashSet::default(),
        }
    }

    /// Whether two collections at the addresses `key`, of equal lengths or not, hold equal
    /// items: the same node is equal to itself, and an equal pair is remembered past the
    /// plain nodes.
    fn eq_items<'v>(
        &mut self,
        key: (usize, usize),
        same_len: bool,
        mut items: impl Iterator<Item = (&'v Value, &'v Value)>,
    ) -> bool {
        if key.0 == key.1 {
            return true;
        }
        if !same_len {
            return false;
        }
        let Some(remember) = self.enter(key) else {
            return true;
        };
        if remember && digests_differ(key) {
            return false;
        }
        let same = items.all(|(a, b)| super::deep(a, || self.eq(a, b)));
        if same && remember {
            self.equal.insert(key);
        }
        same
    }

    /// Whether the pair of nodes at these addresses is known equal; counts a plain node.
    /// `Some(remember)` to compare them, remembering the answer when `remember`.
    fn enter(&mut self, key: (usize, usize)) -> Option<bool> {
        if self.plain > 0 {
            self.plain -= 1;
            return Some(false);
        }
        if self.equal.contains(&key) {
            return None;
        }
        Some(true)
    }

    fn eq(&mut self, a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Int(x), Value::Int(y)) => x == y,
            (Value::None, Value::None) => true,
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::Str(x), Value::Str(y)) => x == y,
            (Value::Range(a, b), Value::Range(c, d)) => a == c && b == d,
            (Value::Outcome(x), Value::Outcome(y)) => x == y,
            (Value::Mode(x), Value::Mode(y)) => x == y,
            (Value::Game(x), Value::Game(y)) => x == y,
            (Value::Pos(x), Value::Pos(y)) => self.eq_pos(x, y),
            (Value::Rational(x), Value::Rational(y)) => x == y,
            (Value::Wide(x), Value::Wide(y)) => x == y,
            (Value::Form(x), Value::Form(y)) => x == y,
            (Value::Infinite(x), Value::Infinite(y)) => x == y,
            (Value::Set(x), Value::Set(y)) => {
                let key = (Rc::as_ptr(x) as usize, Rc::as_ptr(y) as usize);
                self.eq_items(key, x.len() == y.len(), x.iter().zip(y.iter()))
            }
            (Value::Tuple(x), Value::Tuple(y))
            | (Value::List(x), Value::List(y))
            | (Value::Split(x), Value::Split(y)) => {
                let key = (
                    Rc::as_ptr(x) as *const Value as usize,
                    Rc::as_ptr(y) as *const Value as usize,
                );
                self.eq_items(key, x.len() == y.len(), x.iter().zip(y.iter()))
            }
            _ => false,
        }
    }

    fn cmp(&mut self, a: &Value, b: &Value) -> Ordering {
        match (a, b) {
            (Value::Int(x), Value::Int(y)) => x.cmp(y),
            (Value::None, Value::None) => Ordering::Equal,
            (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
            (Value::Str(x), Value::Str(y)) => x.cmp(y),
            (Value::Range(a, b), Value::Range(c, d)) => (a, b).cmp(&(c, d)),
            (Value::Outcome(x), Value::Outcome(y)) => x.cmp(y),
            (Value::Mode(x), Value::Mode(y)) => x.cmp(y),
            (Value::Game(x), Value::Game(y)) => self.cmp_instance(x, y),
            (Value::Pos(x), Value::Pos(y)) => self.cmp_pos(x, y),
            (Value::Rational(x), Value::Rational(y)) => x.cmp(y),
            (Value::Rational(x), Value::Int(y)) => x.cmp(&Rational::int(*y)),
            (Value::Int(x), Value::Rational(y)) => Rational::int(*x).cmp(y),
            (Value::Wide(x), y) if y.rank() == 2 => (**x).cmp(&y.as_big()),
            (x, Value::Wide(y)) if x.rank() == 2 => x.as_big().cmp(y),
            // CGSuite's print order, by structure: not the order of games (`<=` is that).
            (Value::Form(x), Value::Form(y)) => super::with_forms(|t| t.form_order(*x, *y)),
            (Value::Infinite(x), Value::Infinite(y)) => x.cmp(y),
            (Value::Set(x), Value::Set(y)) => {
                if Rc::ptr_eq(x, y) {
                    return Ordering::Equal;
                }
                let key = (Rc::as_ptr(x) as usize, Rc::as_ptr(y) as usize);
                let Some(remember) = self.enter(key) else {
                    return Ordering::Equal;
                };
                self.items(x.iter(), y.iter(), x.len(), y.len(), key, remember)
            }
            (Value::Tuple(x), Value::Tuple(y))
            | (Value::List(x), Value::List(y))
            | (Value::Split(x), Value::Split(y)) => {
                if Rc::ptr_eq(x, y) {
                    return Ordering::Equal;
                }
                let key = (
                    Rc::as_ptr(x) as *const Value as usize,
                    Rc::as_ptr(y) as *const Value as usize,
                );
                let Some(remember) = self.enter(key) else {
                    return Ordering::Equal;
                };
                self.items(x.iter(), y.iter(), x.len(), y.len(), key, remember)
            }
            _ => a.rank().cmp(&b.rank()),
        }
    }

    /// Equality of two positions: their terms, then their conventions.
    fn eq_pos(&mut self, x: &Rc<Position>, y: &Rc<Position>) -> bool {
        let key = (Rc::as_ptr(x) as usize, Rc::as_ptr(y) as usize);
        if key.0 == key.1 {
            return true;
        }
        if x.convention != y.convention {
            return false;
        }
        let Some(remember) = self.enter(key) else {
            return true;
        };
        if remember && digests_differ(key) {
            return false;
        }
        let same = self.eq_term(&x.term, &y.term);
        if same && remember {
            self.equal.insert(key);
        }
        same
    }

    fn eq_term(&mut self, a: &PosTerm, b: &PosTerm) -> bool {
        match (a, b) {
            (PosTerm::Atom(i, x), PosTerm::Atom(j, y)) => {
                i == j && super::deep(x, || self.eq(x, y))
            }
            (PosTerm::Compound(k, x), PosTerm::Compound(l, y)) => {
                if k != l || x.len() != y.len() {
                    return false;
                }
                let key = (
                    Rc::as_ptr(x) as *const PosTerm as usize,
                    Rc::as_ptr(y) as *const PosTerm as usize,
                );
                if key.0 == key.1 {
                    return true;
                }
                let Some(remember) = self.enter(key) else {
                    return true;
                };
                if remember && digests_differ(key) {
                    return false;
                }
                let same = x
                    .iter()
                    .zip(y.iter())
                    .all(|(p, q)| crate::stack::grow(|| self.eq_term(p, q)));
                if same && remember {
                    self.equal.insert(key);
                }
                same
            }
            _ => false,
        }
    }

    /// The order of two positions: by term, then by convention (the order of the fields).
    fn cmp_pos(&mut self, x: &Rc<Position>, y: &Rc<Position>) -> Ordering {
        if Rc::ptr_eq(x, y) {
            return Ordering::Equal;
        }
        let key = (Rc::as_ptr(x) as usize, Rc::as_ptr(y) as usize);
        let Some(remember) = self.enter(key) else {
            return Ordering::Equal;
        };
        let o = self
            .cmp_term(&x.term, &y.term)
            .then(x.convention.cmp(&y.convention));
        if o == Ordering::Equal && remember {
            self.equal.insert(key);
        }
        o
    }

    /// The order of two instances: the same one is equal to itself; others by the game's
    /// declaration index, then the parameters, then (for instances of two sessions' tables
    /// only, where one game and one list of parameters may have two ids) the id.
    fn cmp_instance(&mut self, a: &Instance, b: &Instance) -> Ordering {
        if a.same(b) {
            return Ordering::Equal;
        }
        let (a, b) = (a.key(), b.key());
        a.game.cmp(&b.game).then_with(|| {
            let (x, y) = (&a.params, &b.params);
            let key = (seq_address(x), seq_address(y));
            let o = if key.0 == key.1 {
                Ordering::Equal
            } else if let Some(remember) = self.enter(key) {
                self.items(x.iter(), y.iter(), x.len(), y.len(), key, remember)
            } else {
                Ordering::Equal
            };
            o.then(a.id.0.cmp(&b.id.0))
        })
    }

    /// The order of two terms: atoms before compounds; atoms by instance, then data;
    /// compounds by kind, then their parts lexicographically, then the number of parts.
    fn cmp_term(&mut self, a: &PosTerm, b: &PosTerm) -> Ordering {
        match (a, b) {
            (PosTerm::Atom(i, x), PosTerm::Atom(j, y)) => {
                if i.same(j) {
                    super::deep(x, || self.cmp(x, y))
                } else {
                    self.cmp_instance(i, j)
                }
            }
            (PosTerm::Atom(..), PosTerm::Compound(..)) => Ordering::Less,
            (PosTerm::Compound(..), PosTerm::Atom(..)) => Ordering::Greater,
            (PosTerm::Compound(k, x), PosTerm::Compound(l, y)) => {
                let o = k.cmp(l);
                if o != Ordering::Equal || Rc::ptr_eq(x, y) {
                    return o;
                }
                let key = (
                    Rc::as_ptr(x) as *const PosTerm as usize,
                    Rc::as_ptr(y) as *const PosTerm as usize,
                );
                let Some(remember) = self.enter(key) else {
                    return Ordering::Equal;
                };
                for (p, q) in x.iter().zip(y.iter()) {
                    let o = crate::stack::grow(|| self.cmp_term(p, q));
                    if o != Ordering::Equal {
                        return o;
                    }
                }
                let o = x.len().cmp(&y.len());
                if o == Ordering::Equal && remember {
                    self.equal.insert(key);
                }
                o
            }
        }
    }

    /// Lexicographic order of two nodes' items, then their lengths.
    fn items<'v>(
        &mut self,
        xs: impl Iterator<Item = &'v Value>,
        ys: impl Iterator<Item = &'v Value>,
        xlen: usize,
        ylen: usize,
        key: (usize, usize),
        remember: bool,
    ) -> Ordering {
        for (a, b) in xs.zip(ys) {
            let o = super::deep(a, || self.cmp(a, b));
            if o != Ordering::Equal {
                return o;
            }
        }
        let o = xlen.cmp(&ylen);
        if o == Ordering::Equal && remember {
            self.equal.insert(key);
        }
        o
    }
}

/// Whether the digests remembered for the two nodes at `key` differ (then their values
/// differ); false when either is not remembered.
fn digests_differ(key: (usize, usize)) -> bool {
    match (known_digest(key.0), known_digest(key.1)) {
        (Some(a), Some(b)) => a != b,
        _ => false,
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Int(x), Value::Int(y)) => x == y,
            _ => CmpWalk::new().eq(self, other),
        }
    }
}

impl Eq for Value {}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        match (self, other) {
            (Value::Int(x), Value::Int(y)) => x.cmp(y),
            _ => CmpWalk::new().cmp(self, other),
        }
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.convention == other.convention && CmpWalk::new().eq_term(&self.term, &other.term)
    }
}

impl Eq for Position {}

impl PartialOrd for Position {
    fn partial_cmp(&self, other: &Position) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Position {
    fn cmp(&self, other: &Position) -> Ordering {
        CmpWalk::new()
            .cmp_term(&self.term, &other.term)
            .then(self.convention.cmp(&other.convention))
    }
}

impl PartialEq for PosTerm {
    fn eq(&self, other: &PosTerm) -> bool {
        CmpWalk::new().eq_term(self, other)
    }
}

impl Eq for PosTerm {}

impl PartialOrd for PosTerm {
    fn partial_cmp(&self, other: &PosTerm) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PosTerm {
    fn cmp(&self, other: &PosTerm) -> Ordering {
        CmpWalk::new().cmp_term(self, other)
    }
}

impl PartialOrd for Instance {
    fn partial_cmp(&self, other: &Instance) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Instance {
    fn cmp(&self, other: &Instance) -> Ordering {
        CmpWalk::new().cmp_instance(self, other)
    }
}
