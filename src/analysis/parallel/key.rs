//! A position of the parallel solver as plain data: a list of small cells packed in 128 bits
//! (up to 30 cells below 16, four bits each, or up to 15 cells below 256, a byte each), so
//! that threads can share it where a `Value` (an `Rc`) cannot go.

/// A packed list of cells: bits 0..120 the cells, 120..125 the length, 126 set when the
/// cells are bytes rather than nibbles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Key {
    lo: u64,
    hi: u64,
}

/// Cells a key holds at most: four bits each, and a byte each.
const MAX_NIBBLES: usize = 30;
const MAX_BYTES: usize = 15;
const LEN_SHIFT: u32 = 120;
const BYTES_FLAG: u128 = 1 << 126;

impl Key {
    /// The key of a list of cells, if it packs: read in one pass as nibbles (the cells'
    /// bits or-ed together say whether they all are), and again as bytes if they are not.
    #[inline]
    pub(super) fn of(cells: &[i64]) -> Option<Key> {
        let len = cells.len();
        if len <= MAX_NIBBLES {
            let (low, high) = cells.split_at(len.min(16));
            let (mut lo, mut hi, mut all) = (0u64, 0u64, 0i64);
            for (i, c) in low.iter().enumerate() {
                all |= *c;
                lo |= (*c as u64 & 0xf) << (4 * i);
            }
            for (i, c) in high.iter().enumerate() {
                all |= *c;
                hi |= (*c as u64 & 0xf) << (4 * i);
            }
            // Or-ed together, cells that are all in 0..16 stay there, and only they do.
            if (0..16).contains(&all) {
                return Some(Key::packed(lo, hi, len, 0));
            }
        }
        if len > MAX_BYTES || !cells.iter().all(|c| (0..256).contains(c)) {
            return None;
        }
        let (low, high) = cells.split_at(len.min(8));
        let (mut lo, mut hi) = (0u64, 0u64);
        for (i, c) in low.iter().enumerate() {
            lo |= (*c as u64) << (8 * i);
        }
        for (i, c) in high.iter().enumerate() {
            hi |= (*c as u64) << (8 * i);
        }
        Some(Key::packed(lo, hi, len, BYTES_FLAG))
    }

    /// The key of these cell words, length and flag.
    #[inline]
    fn packed(lo: u64, hi: u64, len: usize, flag: u128) -> Key {
        let top = (flag | (len as u128) << LEN_SHIFT) >> 64;
        Key {
            lo,
            hi: hi | top as u64,
        }
    }

    /// The key's two words, low first: the high word's top bit is never set (a table can
    /// mark an occupied slot with it).
    #[inline]
    pub(super) fn words(self) -> (u64, u64) {
        (self.lo, self.hi)
    }

    /// The key of two words [`Key::words`] gave.
    #[inline]
    pub(super) fn of_words(lo: u64, hi: u64) -> Key {
        Key { lo, hi }
    }

    /// The cells, into `out` (cleared first).
    pub(super) fn cells(self, out: &mut Vec<i64>) {
        let v = u128::from(self.lo) | u128::from(self.hi) << 64;
        let len = ((v >> LEN_SHIFT) & 31) as u32;
        let (width, mask) = if v & BYTES_FLAG != 0 {
            (8, 0xff)
        } else {
            (4, 0xf)
        };
        out.clear();
        out.extend((0..len).map(|i| ((v >> (i * width)) & mask) as i64));
    }

    /// The key in 56 bits, if it is of at most [`Key::NARROW_CELLS`] cells below 16: the
    /// cells' nibbles, and above them the length plus one (so never 0).
    #[inline]
    pub(super) fn narrow(self) -> Option<u64> {
        let len = self.len();
        let nibbles = self.hi & (BYTES_FLAG >> 64) as u64 == 0;
        (nibbles && len <= Self::NARROW_CELLS).then(|| (len as u64 + 1) << 52 | self.lo)
    }

    /// The key [`Key::narrow`] gave these 56 bits.
    #[inline]
    pub(super) fn of_narrow(bits: u64) -> Key {
        let len = (bits >> 52) - 1;
        Key::packed(bits & ((1 << 52) - 1), 0, len as usize, 0)
    }

    /// Most cells of a key [`Key::narrow`] takes.
    pub(super) const NARROW_CELLS: usize = 13;

    /// How many cells it holds.
    pub(super) fn len(self) -> usize {
        ((self.hi >> (LEN_SHIFT - 64)) & 31) as usize
    }

    /// A well-mixed hash (the shard and the bucket are taken from different bits of it).
    #[inline]
    pub(super) fn hash(self) -> u64 {
        let mut x = self.lo ^ self.hi.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        x ^= x >> 30;
        x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 27;
        x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::Key;

    #[test]
    fn keys_give_their_cells_back_and_differ_where_the_lists_differ() {
        let lists: Vec<Vec<i64>> = vec![
            vec![],
            vec![0],
            vec![0, 0],
            vec![15; 30],
            vec![16],
            vec![255; 15],
            vec![1, 2, 3],
            vec![3, 2, 1],
        ];
        let mut out = Vec::new();
        for (i, a) in lists.iter().enumerate() {
            let k = Key::of(a).unwrap();
            k.cells(&mut out);
            assert_eq!(&out, a);
            assert_eq!(k.len(), a.len());
            for b in &lists[i + 1..] {
                assert_ne!(k, Key::of(b).unwrap(), "{a:?} {b:?}");
            }
        }
        assert!(Key::of(&[0; 31]).is_none());
        assert!(Key::of(&[16; 16]).is_none());
        assert!(Key::of(&[256]).is_none());
        assert!(Key::of(&[-1]).is_none());
        assert!(Key::of(&[3, -1]).is_none());
        assert!(Key::of(&[255; 16]).is_none());
        assert!(Key::of(&[0; 15].iter().chain(&[256]).copied().collect::<Vec<_>>()).is_none());
    }

    /// The packing of the first version of `Key::of`: every cell at `i * width` of one
    /// 128-bit word, the length at bit 120, the flag of bytes at 126.
    fn reference(cells: &[i64]) -> Option<u128> {
        let nibbles = cells.len() <= 30 && cells.iter().all(|c| (0..16).contains(c));
        let bytes = cells.len() <= 15 && cells.iter().all(|c| (0..256).contains(c));
        let (width, flag) = match (nibbles, bytes) {
            (true, _) => (4, 0),
            (false, true) => (8, 1u128 << 126),
            _ => return None,
        };
        let mut v = flag | (cells.len() as u128) << 120;
        for (i, c) in cells.iter().enumerate() {
            v |= (*c as u128) << (i as u32 * width);
        }
        Some(v)
    }

    #[test]
    fn keys_pack_as_one_word_of_cells_would_at_every_length() {
        let mut out = Vec::new();
        for len in 0..=31usize {
            for top in [1i64, 15, 16, 200, 255, 256, -1] {
                let cells: Vec<i64> = (0..len as i64).map(|i| (i * 7 + top) % 257 - 1).collect();
                let mut cells = cells.clone();
                if let Some(last) = cells.last_mut() {
                    *last = top;
                }
                let got = Key::of(&cells).map(|k| {
                    let (lo, hi) = k.words();
                    assert_eq!(hi >> 63, 0, "{cells:?}");
                    assert_eq!(Key::of_words(lo, hi), k);
                    k.cells(&mut out);
                    assert_eq!(out, cells);
                    u128::from(lo) | u128::from(hi) << 64
                });
                assert_eq!(got, reference(&cells), "{cells:?}");
                if let Some(k) = Key::of(&cells) {
                    let narrow = cells.len() <= 13 && cells.iter().all(|c| (0..16).contains(c));
                    assert_eq!(k.narrow().is_some(), narrow, "{cells:?}");
                    if let Some(bits) = k.narrow() {
                        assert!(bits != 0 && bits >> 56 == 0);
                        assert_eq!(Key::of_narrow(bits), k);
                    }
                }
            }
        }
    }
}
