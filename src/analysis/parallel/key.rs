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
    /// The key of a list of cells, if it packs.
    pub(super) fn of(cells: &[i64]) -> Option<Key> {
        let nibbles = cells.len() <= MAX_NIBBLES && cells.iter().all(|c| (0..16).contains(c));
        let (width, flag) = if nibbles {
            (4, 0)
        } else if cells.len() <= MAX_BYTES && cells.iter().all(|c| (0..256).contains(c)) {
            (8, BYTES_FLAG)
        } else {
            return None;
        };
        let mut v: u128 = flag | (cells.len() as u128) << LEN_SHIFT;
        for (i, c) in cells.iter().enumerate() {
            v |= (*c as u128) << (i as u32 * width);
        }
        Some(Key {
            lo: v as u64,
            hi: (v >> 64) as u64,
        })
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
    }
}
