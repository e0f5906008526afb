//! One memory budget (`--max-memory`, or a call's `Budget::memory`) shared by everything that
//! grows with the input: the game graph, the table of game values and the values evaluation
//! builds. Each part notes what it holds where it already measures itself; a part about to
//! grow asks [`Account::room`] first, so that no part takes the whole budget while another
//! holds it too, and a value that doubles is refused before it is built, not after.
//!
//! Pure and below every layer that uses it (`cgt`, `eval`, `graph`); the session sets the
//! limit and hands the same account to the graph and to the stop that evaluation carries.

use std::sync::atomic::{AtomicUsize, Ordering};

/// A part of the budget that notes what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The game graph's estimate (`GameGraph::estimated_bytes`).
    Graph,
    /// The thread's table of game values (`ValueTable::estimated_bytes`).
    Forms,
}

/// The limit, and what each part noted it holds. All relaxed: a reading may lag a part's
/// growth by one of its checks, which each part makes often.
#[derive(Debug)]
pub struct Account {
    limit: AtomicUsize,
    held: [AtomicUsize; 2],
}

impl Default for Account {
    fn default() -> Account {
        Account {
            limit: AtomicUsize::new(usize::MAX),
            held: [AtomicUsize::new(0), AtomicUsize::new(0)],
        }
    }
}

impl Account {
    /// The most bytes; `usize::MAX` for no limit.
    pub fn limit(&self) -> usize {
        self.limit.load(Ordering::Relaxed)
    }

    /// Sets the most bytes.
    pub fn set_limit(&self, bytes: usize) {
        self.limit.store(bytes, Ordering::Relaxed);
    }

    /// Notes that `part` holds `bytes` now.
    #[inline]
    pub fn note(&self, part: Part, bytes: usize) {
        self.held[part as usize].store(bytes, Ordering::Relaxed);
    }

    /// What `part` noted last.
    pub fn held(&self, part: Part) -> usize {
        self.held[part as usize].load(Ordering::Relaxed)
    }

    /// What the parts other than `part` hold.
    pub fn besides(&self, part: Part) -> usize {
        let all = self
            .held(Part::Graph)
            .saturating_add(self.held(Part::Forms));
        all.saturating_sub(self.held(part))
    }

    /// The bytes left for `part`: the limit, less what the other parts hold.
    pub fn room_for(&self, part: Part) -> usize {
        self.limit().saturating_sub(self.besides(part))
    }

    /// The bytes left for a new value: the limit, less what every part holds.
    pub fn room(&self) -> usize {
        self.limit().saturating_sub(
            self.held(Part::Graph)
                .saturating_add(self.held(Part::Forms)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_share_one_limit() {
        let a = Account::default();
        assert_eq!(a.room(), usize::MAX);
        a.set_limit(100);
        a.note(Part::Graph, 30);
        a.note(Part::Forms, 50);
        assert_eq!(a.room(), 20);
        assert_eq!(a.room_for(Part::Graph), 50);
        assert_eq!(a.room_for(Part::Forms), 70);
        a.note(Part::Forms, 200);
        assert_eq!(a.room(), 0);
        assert_eq!(a.room_for(Part::Graph), 0);
    }
}
