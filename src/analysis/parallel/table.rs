//! The parallel solver's table of positions: sharded by hash, each shard its own hash table
//! behind its own lock, so threads that touch different shards never wait for each other
//! (with `2^s` shards for `t` threads, two threads meet on a shard with probability about
//! `t / 2^s`; the shards grow with the threads, see [`Table::new`]).

use std::sync::{Mutex, MutexGuard};

use hashbrown::HashTable;

use super::key::Key;
use super::store::{Seen, Store, ACTIVE};
use crate::graph::BYTES_PER_POSITION;

type Shard = HashTable<(Key, u32)>;

/// Positions by key, with their state: [`ACTIVE`], or a remoteness, or
/// [`DRAW`](super::store::DRAW).
#[derive(Debug)]
pub(super) struct Table {
    shards: Box<[Mutex<Shard>]>,
    mask: u64,
}

impl Table {
    /// A table for `threads` threads: 64 shards a thread, so that two threads rarely want the
    /// same lock at once however many there are.
    pub(super) fn new(threads: usize) -> Table {
        let count = (threads.max(1) * 64).next_power_of_two();
        Table {
            shards: (0..count).map(|_| Mutex::new(HashTable::new())).collect(),
            mask: count as u64 - 1,
        }
    }

    #[inline]
    fn shard(&self, hash: u64) -> MutexGuard<'_, Shard> {
        // The bucket uses the hash's low bits and its top seven: the shard takes the middle.
        let at = ((hash >> 32) & self.mask) as usize;
        // A thread that panicked while holding a lock left the table as it was between two
        // operations (each is one insert or store): go on with it.
        self.shards[at]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Claims `key` unless it is there already; says what it found.
    #[inline]
    pub(super) fn claim(&self, key: Key, hash: u64) -> Seen {
        let mut shard = self.shard(hash);
        match shard.entry(hash, |(k, _)| *k == key, |(k, _)| k.hash()) {
            hashbrown::hash_table::Entry::Occupied(e) => match e.get().1 {
                ACTIVE => Seen::Active,
                code => Seen::Done(code),
            },
            hashbrown::hash_table::Entry::Vacant(e) => {
                e.insert((key, ACTIVE));
                Seen::New
            }
        }
    }

    /// What the table says of `key`, `None` if it is not there.
    #[inline]
    pub(super) fn get(&self, key: Key, hash: u64) -> Option<Seen> {
        let shard = self.shard(hash);
        shard
            .find(hash, |(k, _)| *k == key)
            .map(|(_, code)| match *code {
                ACTIVE => Seen::Active,
                code => Seen::Done(code),
            })
    }

    /// Records the solved `key`'s code (the same from whichever thread solves it).
    #[inline]
    pub(super) fn finish(&self, key: Key, hash: u64, code: u32) {
        let mut shard = self.shard(hash);
        match shard.entry(hash, |(k, _)| *k == key, |(k, _)| k.hash()) {
            hashbrown::hash_table::Entry::Occupied(mut e) => e.get_mut().1 = code,
            hashbrown::hash_table::Entry::Vacant(e) => {
                e.insert((key, code));
            }
        }
    }

    /// Drops the positions claimed but not finished (after a run that stopped), keeping the
    /// solved ones.
    pub(super) fn forget_active(&mut self) {
        for shard in self.shards.iter_mut() {
            shard
                .get_mut()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .retain(|(_, code)| *code != ACTIVE);
        }
    }

    /// The positions in the table.
    pub(super) fn len(&self) -> usize {
        (0..self.shards.len())
            .map(|i| {
                self.shards[i]
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .len()
            })
            .sum()
    }

    /// The memory its buckets take (a bucket and a control byte each).
    pub(super) fn bytes(&self) -> usize {
        let buckets: usize = (0..self.shards.len())
            .map(|i| {
                let shard = self.shards[i]
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                match shard.capacity() {
                    0 => 0,
                    c => (c * 8 / 7).next_power_of_two(),
                }
            })
            .sum();
        buckets * (std::mem::size_of::<(Key, u32)>() + 1)
            + self.shards.len() * std::mem::size_of::<Mutex<Shard>>()
    }
}

impl Store for Table {
    type Id = Key;

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

    #[inline]
    fn finish(&self, key: Key, code: u32) {
        Table::finish(self, key, key.hash(), code);
    }

    #[inline]
    fn position_bytes(&self, key: Key) -> usize {
        BYTES_PER_POSITION + key.len()
    }
}
