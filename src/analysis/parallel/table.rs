//! The parallel solver's table of positions by packed key: sharded by hash, each shard two
//! open-addressing arrays of atomics, read without a lock and written under the shard's
//! lock. A key of a few small cells (most games', see [`Key::narrow`]) is one word with
//! its code in the low byte (a code that needs more is kept aside in the shard, the byte
//! says so); any other key is a slot of three words.
//!
//! A position's options are read (`peek`) as one batch, by plain loads that do not wait on
//! one another, so that their cache misses overlap: that is most of the table's work (a
//! position is claimed and finished once, but met as an option of tens of others). Those
//! reads go through a thread's [`View`], its own handle on each shard's arrays: a shard
//! that grows gets a new array under its lock, and a view reads the old one until it sees
//! the shard's count of growths move, and takes the new one. An old array is never wrong,
//! only behind: an entry it lacks or has as claimed is then claimed or read again under the
//! lock, which is exact (codes only go from claimed to solved, and a solved code is final).
//! Claims and finishes take the shard's lock: with `2^s` shards for `t` threads, two
//! threads meet on one with probability about `t / 2^s`, and the shards grow with the
//! threads (see [`Table::new`]).

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use rustc_hash::FxHashMap;

use super::key::Key;
use super::store::{Opt, Seen, Store, ACTIVE, DRAW};
use crate::graph::BYTES_PER_POSITION;

/// Set in a wide slot's high word when it holds a key (never set in a key's own, see
/// [`Key::words`]): an empty slot's is 0.
const OCCUPIED: u64 = 1 << 63;
/// The slots (and words) a shard's arrays start with.
const FIRST_SLOTS: usize = 16;

/// A narrow entry's code byte: a remoteness up to `MAX_IN_WORD`, or one of these.
const MAX_IN_WORD: u32 = 252;
const WORD_DRAW: u64 = 253;
/// The code is in the shard's `spill`.
const WORD_SPILLED: u64 = 254;
const WORD_ACTIVE: u64 = 255;

/// A wide position: its key's words (the high one published last, with [`OCCUPIED`]) and
/// its code ([`ACTIVE`], a remoteness, or [`DRAW`]).
#[derive(Debug, Default)]
struct Slot {
    hi: AtomicU64,
    lo: AtomicU64,
    code: AtomicU32,
}

type Slots = Arc<[Slot]>;
/// Narrow positions: the key's 56 bits over the code byte, 0 where empty.
type Words = Arc<[AtomicU64]>;

/// A shard as its lock holds it: its current arrays and how much of each is used (kept
/// below three quarters, so that a probe always ends at an empty slot), and the codes of
/// narrow entries too large for their byte.
#[derive(Debug)]
struct Shard {
    wide: Slots,
    wide_len: usize,
    words: Words,
    words_len: usize,
    spill: FxHashMap<u64, u32>,
}

/// Positions by key, with their state.
#[derive(Debug)]
pub(super) struct Table {
    shards: Box<[Mutex<Shard>]>,
    /// How many times each shard grew (written under its lock): a view's arrays of a shard
    /// are current while this is what it was when the view took them.
    grown: Box<[AtomicU32]>,
    mask: u64,
}

/// A thread's handle on the table's arrays, for reads without a lock.
pub(super) struct View {
    wide: Vec<Slots>,
    words: Vec<Words>,
    grown: Vec<u32>,
    /// A batch's first reads: each option's shard, slot and what the slot held (the slot
    /// `STALE` where the view's arrays of the shard are behind).
    firsts: Vec<(usize, usize, u64)>,
}

/// In [`View::firsts`]: the shard grew since the view took its arrays.
const STALE: usize = usize::MAX;

fn empty<T: Default>(n: usize) -> Arc<[T]> {
    (0..n).map(|_| T::default()).collect()
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

/// Where the narrow key `narrow` is in `words` with the word found there, or the empty
/// word where its probe ended.
#[inline]
fn probe_word(words: &[AtomicU64], narrow: u64, hash: u64) -> Result<(usize, u64), usize> {
    let at = hash as usize & (words.len() - 1);
    probe_word_from(words, narrow, at, words[at].load(Ordering::Acquire))
}

/// [`probe_word`] from the word `at`, whose value `first` was read already.
#[inline]
fn probe_word_from(
    words: &[AtomicU64],
    narrow: u64,
    mut at: usize,
    first: u64,
) -> Result<(usize, u64), usize> {
    let mask = words.len() - 1;
    let mut w = first;
    loop {
        if w == 0 {
            return Err(at);
        }
        if w >> 8 == narrow {
            return Ok((at, w));
        }
        at = (at + 1) & mask;
        w = words[at].load(Ordering::Acquire);
    }
}

/// A narrow word's code where the byte holds it (`None` for a spilled one).
#[inline]
fn word_code(w: u64) -> Option<u32> {
    match w & 0xff {
        WORD_ACTIVE => Some(ACTIVE),
        WORD_DRAW => Some(DRAW),
        WORD_SPILLED => None,
        r => Some(r as u32),
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

/// Whether one more entry in an array of `slots` with `len` used would fill it past three
/// quarters.
fn full(len: usize, slots: usize) -> bool {
    (len + 1) * 4 > slots * 3
}

impl Shard {
    fn new() -> Shard {
        Shard {
            wide: empty(FIRST_SLOTS),
            wide_len: 0,
            words: empty(FIRST_SLOTS),
            words_len: 0,
            spill: FxHashMap::default(),
        }
    }

    /// `key`'s code, `None` if it is not there.
    fn get(&self, key: Key, hash: u64) -> Option<u32> {
        match key.narrow() {
            Some(narrow) => {
                let (_, w) = probe_word(&self.words, narrow, hash).ok()?;
                // A spilled code is put aside before its word says so, under this lock.
                Some(word_code(w).unwrap_or_else(|| self.spilled(narrow)))
            }
            None => {
                let i = probe(&self.wide, key, hash).ok()?;
                Some(self.wide[i].code.load(Ordering::Acquire))
            }
        }
    }

    /// The spilled code of a narrow key: put aside before its word says so, under the
    /// shard's lock, so always there (were it not, the key would read as claimed, and the
    /// run would end with nothing kept rather than a wrong code).
    fn spilled(&self, narrow: u64) -> u32 {
        self.spill.get(&narrow).copied().unwrap_or(ACTIVE)
    }

    /// Sets `key`'s code, adding it if it is not there (growing its array first if that
    /// is full: then `grown` counts one more).
    fn set(&mut self, key: Key, hash: u64, code: u32, grown: &AtomicU32) {
        if let Some(narrow) = key.narrow() {
            let byte = match code {
                ACTIVE => WORD_ACTIVE,
                DRAW => WORD_DRAW,
                r if r <= MAX_IN_WORD => u64::from(r),
                r => {
                    self.spill.insert(narrow, r);
                    WORD_SPILLED
                }
            };
            let word = narrow << 8 | byte;
            let at = match probe_word(&self.words, narrow, hash) {
                Ok((at, _)) => at,
                Err(at) if !full(self.words_len, self.words.len()) => {
                    self.words_len += 1;
                    at
                }
                Err(_) => {
                    self.grow_words(grown);
                    self.words_len += 1;
                    probe_word(&self.words, narrow, hash).map_or_else(|at| at, |(at, _)| at)
                }
            };
            self.words[at].store(word, Ordering::Release);
            return;
        }
        match probe(&self.wide, key, hash) {
            Ok(at) => self.wide[at].code.store(code, Ordering::Release),
            Err(at) => {
                let at = if full(self.wide_len, self.wide.len()) {
                    self.grow_wide(grown);
                    probe(&self.wide, key, hash).unwrap_or_else(|at| at)
                } else {
                    at
                };
                let (lo, hi) = key.words();
                let slot = &self.wide[at];
                slot.lo.store(lo, Ordering::Relaxed);
                slot.code.store(code, Ordering::Relaxed);
                // The high word last: a reader that sees it sees the rest.
                slot.hi.store(hi | OCCUPIED, Ordering::Release);
                self.wide_len += 1;
            }
        }
    }

    /// The narrow entries in a new array twice as large.
    fn grow_words(&mut self, grown: &AtomicU32) {
        let words: Words = empty(self.words.len() * 2);
        for w in self.words.iter().map(|w| w.load(Ordering::Acquire)) {
            if w != 0 {
                let hash = Key::of_narrow(w >> 8).hash();
                if let Err(at) = probe_word(&words, w >> 8, hash) {
                    words[at].store(w, Ordering::Relaxed);
                }
            }
        }
        self.words = words;
        grown.fetch_add(1, Ordering::Release);
    }

    /// The wide entries in a new array twice as large.
    fn grow_wide(&mut self, grown: &AtomicU32) {
        let wide: Slots = empty(self.wide.len() * 2);
        for (key, code) in self.wide_entries() {
            if let Err(at) = probe(&wide, key, key.hash()) {
                let (lo, hi) = key.words();
                wide[at].lo.store(lo, Ordering::Relaxed);
                wide[at].code.store(code, Ordering::Relaxed);
                wide[at].hi.store(hi | OCCUPIED, Ordering::Relaxed);
            }
        }
        self.wide = wide;
        grown.fetch_add(1, Ordering::Release);
    }

    fn wide_entries(&self) -> impl Iterator<Item = (Key, u32)> + '_ {
        self.wide
            .iter()
            .filter_map(|s| match s.hi.load(Ordering::Acquire) {
                0 => None,
                hi => Some((
                    Key::of_words(s.lo.load(Ordering::Relaxed), hi & !OCCUPIED),
                    s.code.load(Ordering::Acquire),
                )),
            })
    }

    /// Every entry with its code.
    fn entries(&self) -> impl Iterator<Item = (Key, u32)> + '_ {
        let narrow = self.words.iter().filter_map(|w| {
            let w = w.load(Ordering::Acquire);
            (w != 0).then(|| {
                let code = word_code(w).unwrap_or_else(|| self.spilled(w >> 8));
                (Key::of_narrow(w >> 8), code)
            })
        });
        narrow.chain(self.wide_entries())
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
        // operations (each writes whole entries, and grows before it adds): go on with it.
        self.shards[at]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Claims `key` unless it is there already; says what it found.
    pub(super) fn claim(&self, key: Key, hash: u64) -> Seen {
        let at = self.shard_of(hash);
        let mut shard = self.lock(at);
        match shard.get(key, hash) {
            Some(code) => seen(code),
            None => {
                shard.set(key, hash, ACTIVE, &self.grown[at]);
                Seen::New
            }
        }
    }

    /// What the table says of `key`, `None` if it is not there.
    pub(super) fn get(&self, key: Key, hash: u64) -> Option<Seen> {
        self.lock(self.shard_of(hash)).get(key, hash).map(seen)
    }

    /// Records the solved `key`'s code (the same from whichever thread solves it).
    pub(super) fn finish(&self, key: Key, hash: u64, code: u32) {
        let at = self.shard_of(hash);
        self.lock(at).set(key, hash, code, &self.grown[at]);
    }

    /// A thread's view of the arrays as they are now.
    pub(super) fn view(&self) -> View {
        let mut view = View {
            wide: Vec::new(),
            words: Vec::new(),
            grown: Vec::new(),
            firsts: Vec::new(),
        };
        for at in 0..self.shards.len() {
            let shard = self.lock(at);
            view.wide.push(Arc::clone(&shard.wide));
            view.words.push(Arc::clone(&shard.words));
            view.grown.push(self.grown[at].load(Ordering::Acquire));
        }
        view
    }

    /// Takes the shard's arrays again if it grew since the view took them.
    #[inline]
    fn refresh(&self, view: &mut View, at: usize) {
        if self.grown[at].load(Ordering::Acquire) != view.grown[at] {
            let shard = self.lock(at);
            view.wide[at] = Arc::clone(&shard.wide);
            view.words[at] = Arc::clone(&shard.words);
            view.grown[at] = self.grown[at].load(Ordering::Acquire);
        }
    }

    /// `key`'s code if it is solved, as the view's arrays of its shard say (taken again
    /// first if the shard grew since); a spilled code is not read here.
    #[inline]
    pub(super) fn peek(&self, view: &mut View, key: Key, hash: u64) -> Option<u32> {
        let at = self.shard_of(hash);
        self.refresh(view, at);
        match key.narrow() {
            Some(narrow) => {
                let (_, w) = probe_word(&view.words[at], narrow, hash).ok()?;
                solved(word_code(w)?)
            }
            None => {
                let slots = &view.wide[at];
                let i = probe(slots, key, hash).ok()?;
                solved(slots[i].code.load(Ordering::Acquire))
            }
        }
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
            let first = if o.id.narrow().is_some() {
                let words = &view.words[at];
                let i = hash as usize & (words.len() - 1);
                (at, i, words[i].load(Ordering::Acquire))
            } else {
                let slots = &view.wide[at];
                let i = hash as usize & (slots.len() - 1);
                (at, i, slots[i].hi.load(Ordering::Acquire))
            };
            firsts.push(first);
        }
        // A shard met stale in the first pass stays so for the rest of it (its count of
        // growths only moves on): every option of it is read in full here, after the view
        // takes its arrays again, and the others from the array their first read was of.
        for (o, &(at, i, first)) in opts.iter_mut().zip(&firsts) {
            o.code = if i == STALE {
                self.peek(view, o.id, o.id.hash())
            } else if let Some(narrow) = o.id.narrow() {
                probe_word_from(&view.words[at], narrow, i, first)
                    .ok()
                    .and_then(|(_, w)| solved(word_code(w)?))
            } else {
                let slots = &view.wide[at];
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
        for (shard, grown) in self.shards.iter_mut().zip(self.grown.iter()) {
            let shard = shard
                .get_mut()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let mut kept = Shard::new();
            for (key, code) in shard.entries().filter(|(_, code)| *code != ACTIVE) {
                kept.set(key, key.hash(), code, grown);
            }
            *shard = kept;
        }
    }

    /// The positions in the table.
    pub(super) fn len(&self) -> usize {
        (0..self.shards.len())
            .map(|at| {
                let shard = self.lock(at);
                shard.wide_len + shard.words_len
            })
            .sum()
    }

    /// The memory its arrays take.
    pub(super) fn bytes(&self) -> usize {
        let arrays: usize = (0..self.shards.len())
            .map(|at| {
                let shard = self.lock(at);
                let spilled = match shard.spill.capacity() {
                    0 => 0,
                    c => (c * 8 / 7).next_power_of_two() * (std::mem::size_of::<(u64, u32)>() + 1),
                };
                shard.wide.len() * std::mem::size_of::<Slot>() + shard.words.len() * 8 + spilled
            })
            .sum();
        arrays + self.shards.len() * (std::mem::size_of::<Mutex<Shard>>() + 4)
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

    /// Distinct keys of each kind: 12 nibbles (narrow), 20 nibbles and 9 bytes (wide), of
    /// the 48 bits of `n`.
    fn key(kind: usize, n: u64) -> Key {
        let cells: Vec<i64> = match kind {
            0 => (0..12).map(|i| ((n >> (4 * i)) & 0xf) as i64).collect(),
            1 => (0..20)
                .map(|i| ((n >> (4 * (i % 16))) & 0xf) as i64)
                .collect(),
            _ => (0..9)
                .map(|i| {
                    if i < 6 {
                        ((n >> (8 * i)) & 0xff) as i64
                    } else {
                        255
                    }
                })
                .collect(),
        };
        let k = Key::of(&cells).unwrap();
        assert_eq!(k.narrow().is_some(), kind == 0);
        k
    }

    /// The code the test gives the `i`th key: none (left claimed), a small or a large
    /// remoteness (a narrow one's is spilled), or a draw.
    fn code(i: u64) -> Option<u32> {
        match i % 4 {
            0 => None,
            1 => Some((i % 50) as u32),
            2 => Some(300 + (i % 7) as u32),
            _ => Some(DRAW),
        }
    }

    #[test]
    fn claims_finishes_and_views_agree_as_shards_grow() {
        for kind in 0..3 {
            let table = Table::new(2);
            let mut view = table.view();
            let n = 20_000u64;
            let keys: Vec<Key> = (0..n)
                .map(|i| key(kind, i.wrapping_mul(0x9e37_79b9) & 0xffff_ffff_ffff))
                .collect();
            for (i, k) in (0..n).zip(&keys) {
                assert_eq!(Store::claim(&table, *k), Seen::New);
                assert_eq!(Store::claim(&table, *k), Seen::Active);
                assert_eq!(Store::peek(&table, &mut view, *k), None);
                if let Some(c) = code(i) {
                    Store::finish(&table, *k, c);
                    let spilled = kind == 0 && c > MAX_IN_WORD && c != DRAW;
                    let peeked = Store::peek(&table, &mut view, *k);
                    assert_eq!(peeked, (!spilled).then_some(c));
                    assert_eq!(Store::get(&table, *k), Some(Seen::Done(c)));
                    assert_eq!(Store::claim(&table, *k), Seen::Done(c));
                }
            }
            assert_eq!(table.len(), n as usize);
            // In batches, from a view as stale as can be (every shard grew since), and
            // from a current one.
            let mut stale = View {
                wide: (0..table.shards.len())
                    .map(|_| empty(FIRST_SLOTS))
                    .collect(),
                words: (0..table.shards.len())
                    .map(|_| empty(FIRST_SLOTS))
                    .collect(),
                grown: vec![0; table.shards.len()],
                firsts: Vec::new(),
            };
            for batch in (0..n).collect::<Vec<_>>().chunks(97) {
                let mut opts: Vec<Opt<Key>> = batch
                    .iter()
                    .map(|i| Opt {
                        id: keys[*i as usize],
                        code: ACTIVE,
                    })
                    .collect();
                let mut again = opts.clone();
                table.peek_all(&mut stale, &mut opts);
                table.peek_all(&mut view, &mut again);
                for ((o, a), i) in opts.iter().zip(&again).zip(batch) {
                    let want = match code(*i) {
                        Some(c) if kind == 0 && c > MAX_IN_WORD && c != DRAW => ACTIVE,
                        Some(c) => c,
                        None => ACTIVE,
                    };
                    assert_eq!((o.code, a.code), (want, want));
                }
            }
            let absent = key(kind, 0xffff_ffff_ffff);
            assert_eq!(Store::get(&table, absent), None);
            let mut table = table;
            table.forget_active();
            assert_eq!(table.len(), (n - n.div_ceil(4)) as usize);
            for (i, k) in (0..n).zip(&keys) {
                assert_eq!(Store::get(&table, *k), code(i).map(Seen::Done));
            }
        }
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
                        let k = key(((i + t) % 2) as usize, (i * 7 + t) % 5_000 + 1);
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
        assert_eq!(news.into_inner(), table.len() as u64);
    }
}
