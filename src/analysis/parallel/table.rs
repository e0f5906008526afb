//! The parallel solver's table of positions: sharded by hash, each shard its own hash table
//! behind its own lock, so threads that touch different shards never wait for each other
//! (with `2^s` shards for `t` threads, two threads meet on a shard with probability about
//! `t / 2^s`; the shards grow with the threads, see [`Table::new`]).

use std::sync::{Mutex, MutexGuard};

use hashbrown::HashTable;

use super::key::Key;

/// A position claimed by a thread that has not finished it yet.
pub(super) const ACTIVE: u32 = u32::MAX - 1;
/// A drawn position (no remoteness).
pub(super) const DRAW: u32 = u32::MAX;
/// Remoteness values from here up are not kept (as the session's remoteness memo).
pub(super) const MAX_REMOTENESS: u32 = u32::MAX - 3;

/// What a position's entry says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Seen {
    /// It was not there: the caller has claimed it.
    New,
    /// Claimed by a thread, not finished.
    Active,
    /// Solved: its remoteness code (or [`DRAW`]).
    Done(u32),
}

type Shard = HashTable<(Key, u32)>;

/// Positions by key, with their state: [`ACTIVE`], or a remoteness, or [`DRAW`].
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
