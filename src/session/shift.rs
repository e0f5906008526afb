//! How a text a session loaded maps onto the text of the same buffer now, after edits: the
//! part both begin with and the part both end with stay, the rest between them changed. An
//! editor asks about the text now while the last session that loaded holds an older text
//! (the buffer does not load as it is being typed); completion and highlighting find their
//! places in the older text this way.

/// The common beginning and end of two texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shift {
    /// Bytes both texts begin with.
    prefix: usize,
    /// Where the common end starts in the older text.
    old_tail: usize,
    /// Where it starts in the newer one.
    new_tail: usize,
}

impl Shift {
    /// How `old` maps onto `new`.
    pub(super) fn between(old: &str, new: &str) -> Shift {
        let (a, b) = (old.as_bytes(), new.as_bytes());
        let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        let most = a.len().min(b.len()) - prefix;
        let suffix = a
            .iter()
            .rev()
            .zip(b.iter().rev())
            .take(most)
            .take_while(|(x, y)| x == y)
            .count();
        Shift {
            prefix,
            old_tail: a.len() - suffix,
            new_tail: b.len() - suffix,
        }
    }

    /// Where the bytes `start..end` of the older text are in the newer one, if they are in a
    /// part that did not change.
    pub(super) fn forward(&self, start: usize, end: usize) -> Option<(usize, usize)> {
        if end <= self.prefix {
            Some((start, end))
        } else if start >= self.old_tail {
            Some((
                start - self.old_tail + self.new_tail,
                end - self.old_tail + self.new_tail,
            ))
        } else {
            None
        }
    }

    /// Where byte `at` of the newer text was in the older one (in the changed part: where
    /// the change starts).
    pub(super) fn back(&self, at: usize) -> usize {
        if at <= self.prefix {
            at
        } else if at >= self.new_tail {
            at - self.new_tail + self.old_tail
        } else {
            self.prefix
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unchanged_parts_map_and_changed_ones_do_not() {
        let old = "game A { position n }\nexpect A(1) is N\n";
        let new = "game A { position n }\nexpect gru\nexpect A(1) is N\n";
        let shift = Shift::between(old, new);
        let a = old.rfind("A(1)").unwrap();
        let moved = new.rfind("A(1)").unwrap();
        assert_eq!(shift.forward(a, a + 1), Some((moved, moved + 1)));
        assert_eq!(shift.forward(5, 6), Some((5, 6)));
        let typed = new.find("gru").unwrap();
        assert_eq!(shift.back(typed + 3), old.find("expect").unwrap() + 7);
        assert_eq!(shift.back(moved), a);
        let same = Shift::between(old, old);
        assert_eq!(same.forward(3, 9), Some((3, 9)));
        assert_eq!(same.back(old.len()), old.len());
        let shorter = Shift::between("aaaa", "aa");
        assert_eq!(shorter.back(2), 2);
        assert_eq!(shorter.forward(0, 2), Some((0, 2)));
    }
}
