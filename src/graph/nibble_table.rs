//! The nibble index's table: the ids of the positions kept as a `NibbleKey`, by the key's
//! hash, in groups of one cache line each (twelve one-byte tags and twelve ids together).
//!
//! A look-up reads one line of the table and then the record of the one id whose tag
//! matches (the key is kept in the term's record, not twice): two cache misses where a
//! table with its tags and ids apart takes three. [`NibbleTable::candidate`] splits the
//! look-up so that a caller can issue the reads of many keys before it waits for any.
//! Terms are never removed, so a group fills from its first slot on, and a key is in the
//! first group of its probe sequence that has room, or before it.
//!
//! The table is kept between 3/5 and 9/10 full (a group's slots share one line, so a full
//! group costs its overflow the next line, often fetched with it): it grows by half, to any
//! number of groups (a hash picks its group by a multiplication, not a mask), and is built
//! again from the terms' records, its old groups let go first, so that it never holds two
//! copies at once.

/// Slots of a group.
const SLOTS: usize = 12;

/// One cache line: `len` slots in use, each a tag (never 0) and an id.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Group {
    tags: [u8; SLOTS],
    len: u32,
    ids: [u32; SLOTS],
}

/// Bytes of a group.
pub(super) const GROUP_BYTES: usize = std::mem::size_of::<Group>();

/// The hash's tag: its low byte, never 0 (the tag of an empty slot). The group is picked by
/// the high bits.
#[inline]
fn tag_of(hash: u64) -> u8 {
    (hash as u8).max(1)
}

/// Bit `8i + 7` set for each of the low eight bytes of `x` that may be 0: every zero byte is
/// flagged, and a byte above a zero one may be flagged too (the caller checks candidates).
#[inline]
fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(0x0101_0101_0101_0101) & !x & 0x8080_8080_8080_8080
}

impl Group {
    /// The slots whose tag may be `tag`, a bit each (slot `i` at bit `i`), only slots in use.
    #[inline]
    fn matches(&self, tag: u8) -> u32 {
        let splat = u64::from(tag) * 0x0101_0101_0101_0101;
        let [a, b, c, d, e, f, g, h, i, j, k, l] = self.tags;
        let lo = u64::from_le_bytes([a, b, c, d, e, f, g, h]);
        let hi = u64::from(u32::from_le_bytes([i, j, k, l]));
        // The four high bytes of `hi ^ splat` are `tag`, never 0: never flagged.
        // One bit a byte (`8i + 7`) gathered into bit `i` of the top byte.
        let bits = |m: u64| ((m >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
        let all = bits(zero_bytes(lo ^ splat)) | bits(zero_bytes(hi ^ splat)) << 8;
        all & ((1u32 << self.len) - 1)
    }

    fn is_full(&self) -> bool {
        self.len as usize == SLOTS
    }
}

/// The table: groups, grown by half at 9/10 full.
#[derive(Debug, Default)]
pub(super) struct NibbleTable {
    groups: Vec<Group>,
    /// Ids kept.
    len: usize,
}

impl NibbleTable {
    /// The bytes of the table.
    pub(super) fn bytes(&self) -> usize {
        self.groups.len() * GROUP_BYTES
    }

    /// The first group of the probe sequence of `hash`: its high bits scaled to the groups.
    #[inline]
    fn first_group(&self, hash: u64) -> usize {
        ((u128::from(hash) * self.groups.len() as u128) >> 64) as usize
    }

    /// The first group of `hash`'s probe sequence, with its number of slots in use: a read
    /// of the group's line that nothing waits on, for a caller that looks up many keys and
    /// reads every key's line before it uses any ([`NibbleTable::candidate`]).
    #[inline]
    pub(super) fn touch(&self, hash: u64) -> (usize, u32) {
        let g = self.first_group(hash);
        (g, self.groups.get(g).map_or(0, |group| group.len))
    }

    /// The id of the first slot of group `g` (the first of `hash`, from
    /// [`NibbleTable::touch`]) whose tag matches the hash's, and whether that settles the
    /// look-up when the id's key differs (no other candidate in the group, and the group
    /// has room, so the key is nowhere else).
    #[inline]
    pub(super) fn candidate(&self, g: usize, hash: u64) -> (Option<u32>, bool) {
        let Some(group) = self.groups.get(g) else {
            return (None, true);
        };
        let m = group.matches(tag_of(hash));
        let id = (m != 0).then(|| group.ids[m.trailing_zeros() as usize]);
        (id, m & m.wrapping_sub(1) == 0 && !group.is_full())
    }

    /// The id whose key is the one `eq` accepts, if kept; `hash` is that key's hash.
    pub(super) fn find(&self, hash: u64, mut eq: impl FnMut(u32) -> bool) -> Option<u32> {
        if self.groups.is_empty() {
            return None;
        }
        let tag = tag_of(hash);
        let mut g = self.first_group(hash);
        // At most 9/10 full: some group has room, so the probe ends.
        loop {
            let group = &self.groups[g];
            let mut m = group.matches(tag);
            while m != 0 {
                let id = group.ids[m.trailing_zeros() as usize];
                if eq(id) {
                    return Some(id);
                }
                m &= m - 1;
            }
            if !group.is_full() {
                return None;
            }
            g = self.next(g);
        }
    }

    /// The group after `g`, the first after the last.
    #[inline]
    fn next(&self, g: usize) -> usize {
        if g + 1 == self.groups.len() {
            0
        } else {
            g + 1
        }
    }

    /// Keeps `id` (not kept yet) under `hash`. `kept` gives every id kept so far with its
    /// hash, for when the table grows and is built again.
    pub(super) fn insert<I: Iterator<Item = (u32, u64)>>(
        &mut self,
        hash: u64,
        id: u32,
        kept: impl FnOnce() -> I,
    ) {
        if (self.len + 1) * 10 > self.groups.len() * SLOTS * 9 {
            self.grow(kept());
        }
        self.place(hash, id);
        self.len += 1;
    }

    /// Puts `id` in the first group of its probe sequence with room.
    fn place(&mut self, hash: u64, id: u32) {
        let mut g = self.first_group(hash);
        while self.groups[g].is_full() {
            g = self.next(g);
        }
        let group = &mut self.groups[g];
        let slot = group.len as usize;
        group.tags[slot] = tag_of(hash);
        group.ids[slot] = id;
        group.len += 1;
    }

    /// Makes the groups half as many again (16 at first), then places every id in them.
    #[cold]
    fn grow(&mut self, kept: impl Iterator<Item = (u32, u64)>) {
        let size = (self.groups.len() * 3 / 2).max(16);
        // The old groups go first (their memory is reused, its pages already mapped): the
        // ids are placed again from `kept`.
        self.groups.clear();
        self.groups.resize(size, Group::default());
        self.len = 0;
        for (id, hash) in kept {
            self.place(hash, id);
            self.len += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_is_one_cache_line() {
        assert_eq!(GROUP_BYTES, 64);
    }

    /// A hash whose tag and high bits are chosen, to force collisions.
    fn hash(tag: u8, high: u64) -> u64 {
        high << 40 | u64::from(tag)
    }

    #[test]
    fn matches_flags_the_slots_of_a_tag_in_use_only() {
        let mut group = Group::default();
        for (i, tag) in [1u8, 5, 1, 0x80, 0xff, 1, 2, 3, 1, 9, 1, 1]
            .iter()
            .enumerate()
        {
            group.tags[i] = *tag;
            group.ids[i] = i as u32;
        }
        for len in 0..=12u32 {
            group.len = len;
            for tag in 1..=255u8 {
                let want = (0..len as usize)
                    .filter(|i| group.tags[*i] == tag)
                    .fold(0, |m, i| m | 1 << i);
                // Candidates may be spurious, never missing.
                assert_eq!(group.matches(tag) & want, want, "tag {tag} len {len}");
            }
        }
    }

    #[test]
    fn every_id_is_found_through_collisions_overflow_and_growth() {
        let mut table = NibbleTable::default();
        // Ids hash to few groups and tags: groups overflow into the next ones, and those
        // past the last into the first.
        let hash_of = |id: u32| hash((id % 3) as u8, (1 << 24) - 1 - u64::from(id % 5));
        for id in 0..2000u32 {
            assert_eq!(table.find(hash_of(id), |i| i == id), None);
            table.insert(hash_of(id), id, || (0..id).map(|i| (i, hash_of(i))));
            assert_eq!(table.find(hash_of(id), |i| i == id), Some(id));
            assert!(table.len * 10 <= table.groups.len() * SLOTS * 9);
        }
        for id in 0..2000u32 {
            assert_eq!(table.find(hash_of(id), |i| i == id), Some(id));
            let (g, _) = table.touch(hash_of(id));
            let (candidate, settled) = table.candidate(g, hash_of(id));
            if settled && candidate != Some(id) {
                panic!("the candidate of {id} settles a look-up wrongly");
            }
        }
        assert_eq!(table.find(hash_of(5000), |i| i == 5000), None);
        assert!(table.bytes() >= 2000 * GROUP_BYTES / SLOTS);
    }

    #[test]
    fn an_empty_table_finds_nothing() {
        let table = NibbleTable::default();
        assert_eq!(table.find(7, |_| true), None);
        assert_eq!(table.touch(7), (0, 0));
        assert_eq!(table.candidate(0, 7), (None, true));
    }
}
