//! Equality and order of values: structural, remembering the pairs of shared nodes found
//! equal, so a walk is bounded by memory, not printed size.

use std::cmp::Ordering;
use std::rc::Rc;

use rustc_hash::FxHashSet;

use crate::num::Rational;

use super::{Value, PLAIN_NODES};

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
            (Value::Pos(x), Value::Pos(y)) => x == y,
            (Value::Rational(x), Value::Rational(y)) => x == y,
            (Value::Form(x), Value::Form(y)) => x == y,
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
            (Value::Game(x), Value::Game(y)) => x.cmp(y),
            (Value::Pos(x), Value::Pos(y)) => x.cmp(y),
            (Value::Rational(x), Value::Rational(y)) => x.cmp(y),
            (Value::Rational(x), Value::Int(y)) => x.cmp(&Rational::int(*y)),
            (Value::Int(x), Value::Rational(y)) => Rational::int(*x).cmp(y),
            // By id: a deterministic order for sets, not the order of games (`<=` is that).
            (Value::Form(x), Value::Form(y)) => x.cmp(y),
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
