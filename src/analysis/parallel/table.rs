//! The parallel solver's table of positions by packed key: sharded by hash, each shard an
//! open-addressing array of slots that are atomics, read without a lock and written under
//! the shard's lock.
//!
//! A position's options are read (`peek`) as one batch, by plain loads that do not wait on
//! one another, so that their cache misses overlap: that is most of the table's work (a
//! position is claimed and finished once, but met as an option of tens of others). Those
//! reads go through a thread's [`View`], its own handle on each shard's array: a shard
//! that grows gets a new array under its lock, and a view reads the old one until it sees
//! the shard's count of growths move, and takes the new one. An old array is never wrong,
//! only behind: an entry it lacks or has as claimed is then claimed or read again under the
//! lock, which is exact (codes only go from claimed to solved, and a solved code is final).
//! Claims and finishes take the shard's lock: with `2^s` shards for `t` threads, two
//! threads meet on one with probability about `t / 2^s`, and the shards grow with the
//! threads (see [`Table::new`]).

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use super::key::Key;
use super::store::{Opt, Seen, Store, ACTIVE};
use crate::graph::BYTES_PER_POSITION;

/// Set in a slot's high word when it holds a key (never set in a key's own, see
/// [`Key::words`]): an empty slot's is 0.
const OCCUPIED: u64 = 1 << 63;
/// The slots a shard starts with.
const FIRST_SLOTS: usize = 16;

/// One position: its key's words (the high one published last, with [`OCCUPIED`]) and its
/// code ([`ACTIVE`], a remoteness, or [`DRAW`](super::store::DRAW)).
#[derive(Debug, Default)]
struct Slot {
    hi: AtomicU64,
    lo: AtomicU64,
    code: AtomicU32,
}

type Slots = Arc<[Slot]>;

/// A shard as its lock holds it: its current array and how many slots are used (kept
/// below three quarters, so that a probe always ends at an empty slot).
#[derive(Debug)]
struct Shard {
    slots: Slots,
    len: usize,
}

/// Positions by key, with their state.
#[derive(Debug)]
pub(super) struct Table {
    shards: Box<[Mutex<Shard>]>,
    /// How many times each shard grew (written under its lock): a view's array of a shard
    /// is current while this is what it was when the view took it.
    grown: Box<[AtomicU32]>,
    mask: u64,
}

/// A thread's handle on the table's arrays, for reads without a lock.
pub(super) struct View {
    slots: Vec<Slots>,
    grown: Vec<u32>,
    /// A batch's first reads: each option's shard, slot and the slot's high word (the
    /// slot `STALE` where the view's array of the shard is behind).
    firsts: Vec<(usize, usize, u64)>,
}

/// In [`View::firsts`]: the shard grew since the view took its array.
const STALE: usize = usize::MAX;

fn empty_slots(n: usize) -> Slots {
    (0..n).map(|_| Slot::default()).collect()
}

/// Where `key` (of hash `hash`) is in `slots`, or the empty slot where its probe ended.
/// Safe against writers of the same array: a slot's key is written once, its high word
/// last, and at least a quarter of the slots stay empty.
#[inline]
fn probe(slots: &[Slot], key: Key, hash: u64) -> Result<usize, usize> {
    let at = hash as usize & (slots.len() - 1);
    probe_from(slots, key, at, slots[at].hi.load(Ordering::Acquire))
}

/// [`probe`] from the slot `at` where it starts, whose high word `first` was read already.
#[inline]
fn probe_from(slots: &[Slot], key: Key, mut at: usize, first: u64) -> Result<usize, usize> {
    let (lo, hi) = key.words();
    let hi = hi | OCCUPIED;
    let mask = slots.len() - 1;
    let mut h = first;
    loop {
        if h == 0 {
            return Err(at);
        }
        if h == hi && slots[at].lo.load(Ordering::Relaxed) == lo {
            return Ok(at);
        }
        at = (at + 1) & mask;
        h = slots[at].hi.load(Ordering::Acquire);
    }
}

/// Writes `key` with `code` into the empty slot `at` (under the shard's lock): the key's
/// high word last, so that a reader that sees it sees the rest.
#[inline]
fn put(slots: &[Slot], at: usize, key: Key, code: u32) {
    let (lo, hi) = key.words();
    let slot = &slots[at];
    slot.lo.store(lo, Ordering::Relaxed);
    slot.code.store(code, Ordering::Relaxed);
    slot.hi.store(hi | OCCUPIED, Ordering::Release);
}

/// The keys and codes of the occupied slots.
fn entries(slots: &[Slot]) -> impl Iterator<Item = (Key, u32)> + '_ {
    slots
        .iter()
        .filter_map(|s| match s.hi.load(Ordering::Acquire) {
            0 => None,
            hi => Some((
                Key::of_words(s.lo.load(Ordering::Relaxed), hi & !OCCUPIED),
                s.code.load(Ordering::Acquire),
            )),
        })
}

/// A shard's entries in a new array of `n` slots.
fn rebuilt(entries: impl Iterator<Item = (Key, u32)>, n: usize) -> Slots {
    let slots = empty_slots(n);
    for (key, code) in entries {
        if let Err(at) = probe(&slots, key, key.hash()) {
            put(&slots, at, key, code);
        }
    }
    slots
}

impl Shard {
    fn new() -> Shard {
        Shard {
            slots: empty_slots(FIRST_SLOTS),
            len: 0,
        }
    }

    /// Whether one more entry would fill it past three quarters.
    fn full(&self) -> bool {
        (self.len + 1) * 4 > self.slots.len() * 3
    }

    /// Inserts the new `key` (not in the shard) with `code`, growing the shard first if it
    /// is full (then `grown` counts one more).
    fn insert(&mut self, key: Key, hash: u64, code: u32, grown: &AtomicU32) {
        if self.full() {
            self.slots = rebuilt(entries(&self.slots), self.slots.len() * 2);
            grown.fetch_add(1, Ordering::Release);
        }
        if let Err(at) = probe(&self.slots, key, hash) {
            put(&self.slots, at, key, code);
            self.len += 1;
        }
    }
}

/// A code, if it is a solved one.
#[inline]
fn solved(code: u32) -> Option<u32> {
    (code != ACTIVE).then_some(code)
}

fn seen(code: u32) -> Seen {
    match code {
        ACTIVE => Seen::Active,
        code => Seen::Done(code),
    }
}

impl Table {
    /// A table for `threads` threads: 64 shards a thread, so that two threads rarely want the
    /// same lock at once however many there are.
    pub(super) fn new(threads: usize) -> Table {
        let count = (threads.max(1) * 64).next_power_of_two();
        Table {
            shards: (0..count).map(|_| Mutex::new(Shard::new())).collect(),
            grown: (0..count).map(|_| AtomicU32::new(0)).collect(),
            mask: count as u64 - 1,
        }
    }

    /// The shard of a hash: the slot uses its low bits, the shard the ones from 32 up.
    #[inline]
    fn shard_of(&self, hash: u64) -> usize {
        ((hash >> 32) & self.mask) as usize
    }

    #[inline]
    fn lock(&self, at: usize) -> MutexGuard<'_, Shard> {
        // A thread that panicked while holding a lock left the shard as it was between two
        // operations (each writes whole slots, and grows before it inserts): go on with it.
        self.shards[at]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Claims `key` unless it is there already; says what it found.
    pub(super) fn claim(&self, key: Key, hash: u64) -> Seen {
        let at = self.shard_of(hash);
        let mut shard = self.lock(at);
        match probe(&shard.slots, key, hash) {
            Ok(i) => seen(shard.slots[i].code.load(Ordering::Acquire)),
            Err(_) => {
                shard.insert(key, hash, ACTIVE, &self.grown[at]);
                Seen::New
            }
        }
    }

    /// What the table says of `key`, `None` if it is not there.
    pub(super) fn get(&self, key: Key, hash: u64) -> Option<Seen> {
        let shard = self.lock(self.shard_of(hash));
        let i = probe(&shard.slots, key, hash).ok()?;
        Some(seen(shard.slots[i].code.load(Ordering::Acquire)))
    }

    /// Records the solved `key`'s code (the same from whichever thread solves it).
    pub(super) fn finish(&self, key: Key, hash: u64, code: u32) {
        let at = self.shard_of(hash);
        let mut shard = self.lock(at);
        match probe(&shard.slots, key, hash) {
            Ok(i) => shard.slots[i].code.store(code, Ordering::Release),
            Err(_) => shard.insert(key, hash, code, &self.grown[at]),
        }
    }

    /// A thread's view of the arrays as they are now.
    pub(super) fn view(&self) -> View {
        let (mut slots, mut grown) = (Vec::new(), Vec::new());
        for at in 0..self.shards.len() {
            let shard = self.lock(at);
            slots.push(Arc::clone(&shard.slots));
            grown.push(self.grown[at].load(Ordering::Acquire));
        }
        let firsts = Vec::new();
        View {
            slots,
            grown,
            firsts,
        }
    }

    /// Takes the shard's array again if it grew since the view took it.
    #[inline]
    fn refresh(&self, view: &mut View, at: usize) {
        if self.grown[at].load(Ordering::Acquire) != view.grown[at] {
            let shard = self.lock(at);
            view.slots[at] = Arc::clone(&shard.slots);
            view.grown[at] = self.grown[at].load(Ordering::Acquire);
        }
    }

    /// `key`'s code if it is solved, as the view's array of its shard says (taken again
    /// first if the shard grew since).
    #[inline]
    pub(super) fn peek(&self, view: &mut View, key: Key, hash: u64) -> Option<u32> {
        let at = self.shard_of(hash);
        self.refresh(view, at);
        let slots = &view.slots[at];
        let i = probe(slots, key, hash).ok()?;
        solved(slots[i].code.load(Ordering::Acquire))
    }

    /// The codes of the solved options, as [`Table::peek`] reads them, in two passes: each
    /// option's first slot read, in a loop without branches to wait on, so that the misses
    /// of a position's options overlap; then each probe from there (mostly that slot).
    pub(super) fn peek_all(&self, view: &mut View, opts: &mut [Opt<Key>]) {
        let mut firsts = std::mem::take(&mut view.firsts);
        firsts.clear();
        for o in opts.iter() {
            let hash = o.id.hash();
            let at = self.shard_of(hash);
            if self.grown[at].load(Ordering::Acquire) != view.grown[at] {
                firsts.push((at, STALE, 0));
                continue;
            }
            let slots = &view.slots[at];
            let i = hash as usize & (slots.len() - 1);
            firsts.push((at, i, slots[i].hi.load(Ordering::Acquire)));
        }
        // A shard met stale in the first pass stays so for the rest of it (its count of
        // growths only moves on): every option of it is read in full here, after the view
        // takes its array again, and the others from the array their first read was of.
        for (o, &(at, i, first)) in opts.iter_mut().zip(&firsts) {
            o.code = if i == STALE {
                self.peek(view, o.id, o.id.hash())
            } else {
                let slots = &view.slots[at];
                probe_from(slots, o.id, i, first)
                    .ok()
                    .and_then(|j| solved(slots[j].code.load(Ordering::Acquire)))
            }
            .unwrap_or(ACTIVE);
        }
        view.firsts = firsts;
    }

    /// Drops the positions claimed but not finished (after a run that stopped), keeping the
    /// solved ones.
    pub(super) fn forget_active(&mut self) {
        for shard in self.shards.iter_mut() {
            let shard = shard
                .get_mut()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let kept: Vec<(Key, u32)> = entries(&shard.slots)
                .filter(|(_, code)| *code != ACTIVE)
                .collect();
            shard.len = kept.len();
            shard.slots = rebuilt(kept.into_iter(), shard.slots.len());
        }
    }

    /// The positions in the table.
    pub(super) fn len(&self) -> usize {
        (0..self.shards.len()).map(|at| self.lock(at).len).sum()
    }

    /// The memory its arrays take.
    pub(super) fn bytes(&self) -> usize {
        let slots: usize = (0..self.shards.len())
            .map(|at| self.lock(at).slots.len())
            .sum();
        slots * std::mem::size_of::<Slot>()
            + self.shards.len() * (std::mem::size_of::<Mutex<Shard>>() + 4)
    }
}

impl Store for Table {
    type Id = Key;
    type View = View;

    #[inline]
    fn id(&self, cells: &[i64]) -> Option<Key> {
        Key::of(cells)
    }

    #[inline]
    fn cells(&self, key: Key, out: &mut Vec<i64>) {
        key.cells(out);
    }

    #[inline]
    fn mix(key: Key) -> u64 {
        key.hash()
    }

    #[inline]
    fn claim(&self, key: Key) -> Seen {
        Table::claim(self, key, key.hash())
    }

    #[inline]
    fn get(&self, key: Key) -> Option<Seen> {
        Table::get(self, key, key.hash())
    }

    fn view(&self) -> View {
        Table::view(self)
    }

    #[inline]
    fn peek(&self, view: &mut View, key: Key) -> Option<u32> {
        Table::peek(self, view, key, key.hash())
    }

    #[inline]
    fn peek_all(&self, view: &mut View, opts: &mut [Opt<Key>]) {
        Table::peek_all(self, view, opts);
    }

    #[inline]
    fn finish(&self, key: Key, code: u32) {
        Table::finish(self, key, key.hash(), code);
    }

    #[inline]
    fn position_bytes(&self, key: Key) -> usize {
        BYTES_PER_POSITION + key.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::parallel::store::DRAW;

    fn key(n: u64) -> Key {
        let cells: Vec<i64> = (0..12).map(|i| ((n >> (4 * i)) & 0xf) as i64).collect();
        Key::of(&cells).unwrap()
    }

    #[test]
    fn claims_finishes_and_views_agree_as_shards_grow() {
        let table = Table::new(2);
        let mut view = table.view();
        let mut stale = table.view();
        let n = 20_000u64;
        for i in 0..n {
            let k = key(i.wrapping_mul(0x9e37_79b9) & 0xffff_ffff_ffff);
            assert_eq!(Store::claim(&table, k), Seen::New);
            assert_eq!(Store::claim(&table, k), Seen::Active);
            assert_eq!(Store::peek(&table, &mut view, k), None);
            if i % 3 > 0 {
                let code = if i % 3 == 1 { (i % 50) as u32 } else { DRAW };
                Store::finish(&table, k, code);
                assert_eq!(Store::peek(&table, &mut view, k), Some(code));
                assert_eq!(Store::get(&table, k), Some(Seen::Done(code)));
            }
        }
        assert_eq!(table.len(), n as usize);
        // A view that never looked since the start takes every grown shard again.
        for i in 0..n {
            let k = key(i.wrapping_mul(0x9e37_79b9) & 0xffff_ffff_ffff);
            let want = match i % 3 {
                0 => None,
                1 => Some((i % 50) as u32),
                _ => Some(DRAW),
            };
            assert_eq!(Store::peek(&table, &mut stale, k), want);
        }
        // In batches, from a view as stale as the first one was, and from a current one.
        let mut stale = View {
            slots: (0..table.shards.len())
                .map(|_| empty_slots(FIRST_SLOTS))
                .collect(),
            grown: vec![0; table.shards.len()],
            firsts: Vec::new(),
        };
        for batch in (0..n).collect::<Vec<_>>().chunks(97) {
            let mut opts: Vec<Opt<Key>> = batch
                .iter()
                .map(|i| Opt {
                    id: key(i.wrapping_mul(0x9e37_79b9) & 0xffff_ffff_ffff),
                    code: ACTIVE,
                })
                .collect();
            let mut again = opts.clone();
            table.peek_all(&mut stale, &mut opts);
            table.peek_all(&mut view, &mut again);
            for (o, i) in opts.iter().zip(batch) {
                let want = match i % 3 {
                    0 => ACTIVE,
                    1 => (i % 50) as u32,
                    _ => DRAW,
                };
                assert_eq!(o.code, want);
            }
            assert!(opts.iter().zip(&again).all(|(a, b)| a.code == b.code));
        }
        let absent = key(0xffff_ffff_ffff);
        assert_eq!(Store::get(&table, absent), None);
        let mut table = table;
        table.forget_active();
        assert_eq!(table.len(), (n - n.div_ceil(3)) as usize);
        assert_eq!(Store::get(&table, key(0)), None);
    }

    #[test]
    fn threads_claim_each_key_once() {
        let table = Table::new(4);
        let news = AtomicU64::new(0);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let (table, news) = (&table, &news);
                s.spawn(move || {
                    let mut view = table.view();
                    for i in 0..5_000u64 {
                        let k = key((i * 7 + t) % 5_000 + 1);
                        if Store::peek(table, &mut view, k).is_none() {
                            match Store::claim(table, k) {
                                Seen::New => {
                                    news.fetch_add(1, Ordering::Relaxed);
                                    Store::finish(table, k, 3);
                                }
                                Seen::Active | Seen::Done(_) => {}
                            }
                        }
                    }
                });
            }
        });
        assert_eq!(news.into_inner(), 5_000);
        assert_eq!(table.len(), 5_000);
    }
}
