//! How many evaluations run at once: a counting semaphore with a queue that can be seen
//! (`/api/status` says how many run and how many wait) and left (a waiting client that goes
//! away gives its place up; one that waits longer than [`MOST_WAIT`] is told the server is
//! busy).

use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The longest a request waits for a free evaluation before it is answered 503.
pub const MOST_WAIT: Duration = Duration::from_secs(60);

/// The evaluations running and waiting.
#[derive(Debug, Default)]
struct Counts {
    running: usize,
    waiting: usize,
}

/// At most `limit` evaluations at once.
#[derive(Debug)]
pub struct Slots {
    limit: usize,
    counts: Mutex<Counts>,
    freed: Condvar,
}

/// A place among the running evaluations, given back when dropped.
pub struct Slot<'s>(&'s Slots);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut counts = self.0.lock();
        counts.running = counts.running.saturating_sub(1);
        drop(counts);
        self.0.freed.notify_one();
    }
}

/// Why no place was had.
#[derive(Debug, PartialEq, Eq)]
pub enum NoSlot {
    /// The client went away while it waited.
    Gone,
    /// It waited [`MOST_WAIT`].
    Busy,
}

impl Slots {
    /// Room for `limit` evaluations at once (at least one).
    pub fn new(limit: usize) -> Slots {
        Slots {
            limit: limit.max(1),
            counts: Mutex::default(),
            freed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Counts> {
        self.counts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// How many evaluations may run at once.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// How many run, and how many wait.
    pub fn counts(&self) -> (usize, usize) {
        let c = self.lock();
        (c.running, c.waiting)
    }

    /// Waits for a place; `gone` is asked now and then whether the client is still there.
    pub fn acquire(&self, gone: &dyn Fn() -> bool) -> Result<Slot<'_>, NoSlot> {
        let started = Instant::now();
        let mut counts = self.lock();
        if counts.running < self.limit {
            counts.running += 1;
            return Ok(Slot(self));
        }
        counts.waiting += 1;
        let result = loop {
            let (next, _) = self
                .freed
                .wait_timeout(counts, Duration::from_millis(100))
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            counts = next;
            if counts.running < self.limit {
                counts.running += 1;
                break Ok(());
            }
            if started.elapsed() > MOST_WAIT {
                break Err(NoSlot::Busy);
            }
            drop(counts);
            let left = gone();
            counts = self.lock();
            if left {
                break Err(NoSlot::Gone);
            }
        };
        counts.waiting = counts.waiting.saturating_sub(1);
        drop(counts);
        result.map(|()| Slot(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_is_given_back_and_a_waiter_gets_it() {
        let slots = Slots::new(1);
        let first = slots.acquire(&|| false).unwrap();
        assert_eq!(slots.counts(), (1, 0));
        std::thread::scope(|s| {
            let waiter = s.spawn(|| slots.acquire(&|| false).map(|_| ()));
            while slots.counts().1 == 0 {
                std::thread::sleep(Duration::from_millis(5));
            }
            drop(first);
            assert_eq!(waiter.join().unwrap(), Ok(()));
        });
        assert_eq!(slots.counts(), (0, 0));
        let _held = slots.acquire(&|| false).unwrap();
        assert_eq!(slots.acquire(&|| true).err(), Some(NoSlot::Gone));
        assert_eq!(slots.counts(), (1, 0));
    }
}
