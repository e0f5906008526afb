//! Hashing values: structural, with a digest remembered per shared node past the first
//! [`PLAIN_NODES`] nodes.

use std::hash::{Hash, Hasher};
use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHasher};

use super::{Value, PLAIN_NODES};

/// One hash of a value: the first [`PLAIN_NODES`] nodes (in preorder) are fed to the hasher
/// as they are; each node met after them is fed as its digest, a structural hash remembered
/// per node. Equal values have the same preorder, so they feed the same things.
struct HashWalk {
    plain: u32,
    digests: FxHashMap<usize, u64>,
}

impl HashWalk {
    fn feed<H: Hasher>(&mut self, v: &Value, state: &mut H) {
        state.write_u8(v.rank());
        match v {
            Value::None => {}
            Value::Bool(b) => b.hash(state),
            Value::Int(n) => n.hash(state),
            Value::Rational(r) => r.hash(state),
            Value::Form(g) => g.hash(state),
            Value::Str(s) => s.hash(state),
            Value::Range(a, b) => {
                a.hash(state);
                b.hash(state);
            }
            Value::Outcome(o) => o.hash(state),
            Value::Mode(m) => m.hash(state),
            Value::Game(g) => g.hash(state),
            Value::Pos(p) => p.hash(state),
            Value::Set(items) => {
                if self.plain == 0 {
                    state.write_u64(self.digest(v));
                    return;
                }
                self.plain -= 1;
                state.write_usize(items.len());
                for item in items.iter() {
                    super::deep(item, || self.feed(item, state));
                }
            }
            Value::Tuple(items) | Value::List(items) | Value::Split(items) => {
                if self.plain == 0 {
                    state.write_u64(self.digest(v));
                    return;
                }
                self.plain -= 1;
                state.write_usize(items.len());
                for item in items.iter() {
                    super::deep(item, || self.feed(item, state));
                }
            }
        }
    }

    /// A structural hash of `v`, remembered for each node.
    fn digest(&mut self, v: &Value) -> u64 {
        let key = match v {
            Value::Set(items) => Rc::as_ptr(items) as usize,
            Value::Tuple(items) | Value::List(items) | Value::Split(items) => {
                Rc::as_ptr(items) as *const Value as usize
            }
            scalar => {
                let mut h = FxHasher::default();
                let mut walk = HashWalk {
                    plain: 0,
                    digests: FxHashMap::default(),
                };
                walk.feed(scalar, &mut h);
                return h.finish();
            }
        };
        if let Some(d) = self.digests.get(&key) {
            return *d;
        }
        let mut h = FxHasher::default();
        h.write_u8(v.rank());
        match v {
            Value::Set(items) => {
                h.write_usize(items.len());
                for item in items.iter() {
                    h.write_u64(super::deep(item, || self.digest(item)));
                }
            }
            _ => {
                let items = v.seq().map_or(&[][..], |items| &items[..]);
                h.write_usize(items.len());
                for item in items {
                    h.write_u64(super::deep(item, || self.digest(item)));
                }
            }
        }
        let d = h.finish();
        self.digests.insert(key, d);
        d
    }
}

impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mut walk = HashWalk {
            plain: PLAIN_NODES,
            digests: FxHashMap::default(),
        };
        walk.feed(self, state);
    }
}
