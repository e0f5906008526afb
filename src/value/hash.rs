//! Hashing values and positions: structural, bounded by the value's memory and, for a value
//! that shares its parts with values hashed before, by a constant.
//!
//! A hash feeds the first [`PLAIN_NODES`] nodes of a walk (in preorder) to the hasher as they
//! are, and each node met after them as its *digest*, a structural hash of the node alone.
//! Equal values have the same preorder, so they feed the same things, whatever they share.
//! The digest of a node that is shared (held more than once) is remembered in a table of the
//! thread's, which keeps the node alive while it holds it (so its address names it and no
//! other) and lets it go once nothing else holds it. So a position one list deeper than a
//! position hashed before (`move (n - 1, [xs])`) is hashed in [`PLAIN_NODES`] steps, not in
//! steps as many as its depth, and a value of exponential printed size (`[x, x]` nested 60
//! deep) in steps as many as its nodes.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHasher};

use super::{PosTerm, Position, Value, PLAIN_NODES};

/// A node whose digest is remembered, held so that its address stays its own.
enum Kept {
    Seq(Rc<[Value]>),
    Set(Rc<BTreeSet<Value>>),
    Pos(Rc<Position>),
    Parts(Rc<[PosTerm]>),
}

impl Kept {
    fn strong(&self) -> usize {
        match self {
            Kept::Seq(n) => Rc::strong_count(n),
            Kept::Set(n) => Rc::strong_count(n),
            Kept::Pos(n) => Rc::strong_count(n),
            Kept::Parts(n) => Rc::strong_count(n),
        }
    }

    /// The addresses of the nodes this node holds directly.
    fn children(&self, out: &mut Vec<usize>) {
        match self {
            Kept::Seq(items) => out.extend(items.iter().filter_map(node_address)),
            Kept::Set(items) => out.extend(items.iter().filter_map(node_address)),
            Kept::Pos(p) => term_children(&p.term, out),
            Kept::Parts(parts) => parts.iter().for_each(|t| term_children(t, out)),
        }
    }
}

fn term_children(t: &PosTerm, out: &mut Vec<usize>) {
    match t {
        PosTerm::Atom(_, data) => out.extend(node_address(data)),
        PosTerm::Compound(_, parts) => out.push(parts_address(parts)),
    }
}

/// The address of the node a value holds, if it holds one.
pub(super) fn node_address(v: &Value) -> Option<usize> {
    match v {
        Value::Tuple(items) | Value::List(items) | Value::Split(items) => Some(seq_address(items)),
        Value::Set(items) => Some(Rc::as_ptr(items) as usize),
        Value::Pos(p) => Some(Rc::as_ptr(p) as usize),
        _ => None,
    }
}

pub(super) fn seq_address(items: &Rc<[Value]>) -> usize {
    Rc::as_ptr(items) as *const Value as usize
}

fn parts_address(parts: &Rc<[PosTerm]>) -> usize {
    Rc::as_ptr(parts) as *const PosTerm as usize
}

/// The remembered digests of this thread's shared nodes, by address.
struct Digests {
    known: FxHashMap<usize, (Kept, u64)>,
    /// Size at which the nodes nothing else holds are let go.
    sweep_at: usize,
}

/// Fewest remembered digests at which a sweep runs.
const FIRST_SWEEP: usize = 1024;

thread_local! {
    static DIGESTS: RefCell<Digests> = RefCell::new(Digests {
        known: FxHashMap::default(),
        sweep_at: FIRST_SWEEP,
    });
}

impl Digests {
    fn remember(&mut self, key: usize, node: Kept, digest: u64) {
        if self.known.len() >= self.sweep_at {
            self.sweep();
        }
        self.known.insert(key, (node, digest));
    }

    /// Lets go of the nodes that only this table holds, and of the nodes that they alone
    /// held; then waits until the table has doubled. Amortised constant time a digest.
    fn sweep(&mut self) {
        let mut free: Vec<usize> = self
            .known
            .iter()
            .filter(|(_, (node, _))| node.strong() == 1)
            .map(|(key, _)| *key)
            .collect();
        let mut children = Vec::new();
        while let Some(key) = free.pop() {
            let Some((node, _)) = self.known.remove(&key) else {
                continue;
            };
            children.clear();
            node.children(&mut children);
            // Dropping a node touches no digest table.
            drop(node);
            for child in &children {
                if self.known.get(child).is_some_and(|(n, _)| n.strong() == 1) {
                    free.push(*child);
                }
            }
        }
        self.known.shrink_to_fit();
        self.sweep_at = (2 * self.known.len()).max(FIRST_SWEEP);
    }
}

/// Lets go of the remembered digests of nodes that nothing else holds now (a graph does it
/// when it is dropped, so the positions of a file checked before cost nothing after it).
pub fn forget_digests() {
    // Not while the thread is ending (its table may be gone), nor while it is in use.
    let _ = DIGESTS.try_with(|d| {
        if let Ok(mut d) = d.try_borrow_mut() {
            if !d.known.is_empty() {
                d.sweep();
            }
        }
    });
}

/// The digests remembered now (for tests and the memory they take).
pub fn remembered_digests() -> usize {
    DIGESTS
        .try_with(|d| d.try_borrow().map_or(0, |d| d.known.len()))
        .unwrap_or(0)
}

/// The remembered digest of the node at `key`, if any.
pub(super) fn known_digest(key: usize) -> Option<u64> {
    DIGESTS
        .try_with(|d| {
            d.try_borrow()
                .ok()
                .and_then(|d| d.known.get(&key).map(|(_, h)| *h))
        })
        .ok()
        .flatten()
}

/// Computes digests, remembering those of shared nodes in the thread's table (or, when the
/// table is in use or gone, as the thread ends, in one of its own).
fn with_digests(f: impl FnOnce(&mut Digests) -> u64) -> u64 {
    let mut f = Some(f);
    let slot = &mut f;
    let ran = DIGESTS
        .try_with(|d| {
            let mut d = d.try_borrow_mut().ok()?;
            slot.take().map(|f| f(&mut d))
        })
        .ok()
        .flatten();
    // `f` is still here whenever the thread's table did not run it.
    ran.or_else(|| {
        f.map(|f| {
            f(&mut Digests {
                known: FxHashMap::default(),
                sweep_at: usize::MAX,
            })
        })
    })
    .unwrap_or_default()
}

impl Digests {
    /// The digest of any value: a scalar's hash, or a node's digest with the value's kind.
    fn value(&mut self, v: &Value) -> u64 {
        let mut h = FxHasher::default();
        h.write_u8(v.rank());
        match v {
            Value::Tuple(items) | Value::List(items) | Value::Split(items) => {
                h.write_u64(self.seq(items))
            }
            Value::Set(items) => h.write_u64(self.set(items)),
            Value::Pos(p) => h.write_u64(self.pos(p)),
            scalar => feed_scalar(scalar, &mut h),
        }
        h.finish()
    }

    /// Looks the digest of a node up, or makes it with `make` and remembers it when the node
    /// is shared.
    fn node(
        &mut self,
        key: usize,
        shared: bool,
        keep: impl FnOnce() -> Kept,
        make: impl FnOnce(&mut Digests) -> u64,
    ) -> u64 {
        if let Some((_, d)) = self.known.get(&key) {
            return *d;
        }
        let d = crate::stack::grow(|| make(self));
        if shared {
            self.remember(key, keep(), d);
        }
        d
    }

    fn seq(&mut self, items: &Rc<[Value]>) -> u64 {
        self.node(
            seq_address(items),
            Rc::strong_count(items) > 1,
            || Kept::Seq(items.clone()),
            |ds| ds.items(items.len(), items.iter()),
        )
    }

    fn set(&mut self, items: &Rc<BTreeSet<Value>>) -> u64 {
        self.node(
            Rc::as_ptr(items) as usize,
            Rc::strong_count(items) > 1,
            || Kept::Set(items.clone()),
            |ds| ds.items(items.len(), items.iter()),
        )
    }

    /// The digest of a list's, tuple's or set's `len` items.
    fn items<'v>(&mut self, len: usize, items: impl Iterator<Item = &'v Value>) -> u64 {
        let mut h = FxHasher::default();
        h.write_usize(len);
        for item in items {
            h.write_u64(self.value(item));
        }
        h.finish()
    }

    fn pos(&mut self, p: &Rc<Position>) -> u64 {
        self.node(
            Rc::as_ptr(p) as usize,
            Rc::strong_count(p) > 1,
            || Kept::Pos(p.clone()),
            |ds| {
                let mut h = FxHasher::default();
                p.convention.hash(&mut h);
                h.write_u64(ds.term(&p.term));
                h.finish()
            },
        )
    }

    fn term(&mut self, t: &PosTerm) -> u64 {
        let mut h = FxHasher::default();
        match t {
            PosTerm::Atom(inst, data) => {
                h.write_u8(0);
                inst.hash(&mut h);
                h.write_u64(self.value(data));
            }
            PosTerm::Compound(kind, parts) => {
                h.write_u8(1);
                kind.hash(&mut h);
                h.write_u64(self.parts(parts));
            }
        }
        h.finish()
    }

    fn parts(&mut self, parts: &Rc<[PosTerm]>) -> u64 {
        self.node(
            parts_address(parts),
            Rc::strong_count(parts) > 1,
            || Kept::Parts(parts.clone()),
            |ds| {
                let mut h = FxHasher::default();
                h.write_usize(parts.len());
                for part in parts.iter() {
                    h.write_u64(ds.term(part));
                }
                h.finish()
            },
        )
    }
}

/// Feeds a value that holds no node.
fn feed_scalar<H: Hasher>(v: &Value, state: &mut H) {
    match v {
        Value::None => {}
        Value::Bool(b) => b.hash(state),
        Value::Int(n) => n.hash(state),
        Value::Rational(r) => r.hash(state),
        Value::Wide(q) => q.hash(state),
        Value::Form(g) => g.hash(state),
        Value::Infinite(k) => k.hash(state),
        Value::Str(s) => s.hash(state),
        Value::Range(a, b) => {
            a.hash(state);
            b.hash(state);
        }
        Value::Outcome(o) => o.hash(state),
        Value::Mode(m) => m.hash(state),
        Value::Game(g) => g.hash(state),
        Value::Tuple(_) | Value::List(_) | Value::Split(_) | Value::Set(_) | Value::Pos(_) => {}
    }
}

/// Depth from which a walk feeds each node as its digest, however few nodes it has met: a
/// value nested deeper than this is rarely small, and one nested one level deeper than a
/// value hashed before (the next position of a game that wraps its list each move) is then
/// hashed in this many steps, its digest found from the one remembered before.
const PLAIN_DEPTH: u32 = 12;

/// One hash of a value: the plain nodes left before nodes are fed as digests, and the
/// nesting depth of the node being fed.
struct HashWalk {
    plain: u32,
    depth: u32,
}

impl HashWalk {
    fn new() -> HashWalk {
        HashWalk {
            plain: PLAIN_NODES,
            depth: 0,
        }
    }

    /// Counts a node; false (fed as its digest) once the plain ones are used up or the walk
    /// is [`PLAIN_DEPTH`] deep. Both depend only on the value, not on what it shares.
    fn plain(&mut self) -> bool {
        if self.plain == 0 || self.depth >= PLAIN_DEPTH {
            return false;
        }
        self.plain -= 1;
        true
    }

    /// Feeds the items of a node one level deeper.
    fn nested(&mut self, f: impl FnOnce(&mut HashWalk)) {
        self.depth += 1;
        f(self);
        self.depth -= 1;
    }

    fn feed<H: Hasher>(&mut self, v: &Value, state: &mut H) {
        state.write_u8(v.rank());
        match v {
            Value::Set(items) => {
                if !self.plain() {
                    state.write_u64(with_digests(|d| d.set(items)));
                    return;
                }
                state.write_usize(items.len());
                self.nested(|w| {
                    for item in items.iter() {
                        super::deep(item, || w.feed(item, state));
                    }
                });
            }
            Value::Tuple(items) | Value::List(items) | Value::Split(items) => {
                if !self.plain() {
                    state.write_u64(with_digests(|d| d.seq(items)));
                    return;
                }
                state.write_usize(items.len());
                self.nested(|w| {
                    for item in items.iter() {
                        super::deep(item, || w.feed(item, state));
                    }
                });
            }
            Value::Pos(p) => {
                if !self.plain() {
                    state.write_u64(with_digests(|d| d.pos(p)));
                    return;
                }
                self.nested(|w| w.feed_position(p, state));
            }
            scalar => feed_scalar(scalar, state),
        }
    }

    fn feed_position<H: Hasher>(&mut self, p: &Position, state: &mut H) {
        p.convention.hash(state);
        self.feed_term(&p.term, state);
    }

    fn feed_term<H: Hasher>(&mut self, t: &PosTerm, state: &mut H) {
        match t {
            PosTerm::Atom(inst, data) => {
                state.write_u8(0);
                inst.hash(state);
                super::deep(data, || self.feed(data, state));
            }
            PosTerm::Compound(kind, parts) => {
                state.write_u8(1);
                kind.hash(state);
                if !self.plain() {
                    state.write_u64(with_digests(|d| d.parts(parts)));
                    return;
                }
                state.write_usize(parts.len());
                self.nested(|w| {
                    for part in parts.iter() {
                        crate::stack::grow(|| w.feed_term(part, state));
                    }
                });
            }
        }
    }
}

impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        HashWalk::new().feed(self, state);
    }
}

impl Hash for Position {
    fn hash<H: Hasher>(&self, state: &mut H) {
        HashWalk::new().feed_position(self, state);
    }
}

impl Hash for PosTerm {
    fn hash<H: Hasher>(&self, state: &mut H) {
        HashWalk::new().feed_term(self, state);
    }
}
