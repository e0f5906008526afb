//! Boards as bit masks: `regions(m, w)` (the connected components of a board's cells) and
//! `normalize(m, w, mirrors)` (one representative of a board up to translation and
//! mirroring). A board `w` cells wide holds cell (row r, column c) in bit `r * w + c`. Both
//! engines call these, so the interpreter and the compiled fragment agree on every result.

/// Why a call was refused, for the caller's diagnostic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GridError {
    /// The mask is negative.
    Negative,
    /// The width is not in `1..=63`.
    Width,
    /// The mirrors are not in `0..=3`.
    Mirrors,
}

/// The widest board: a mask has 63 bits.
pub const MAX_WIDTH: i64 = 63;

fn checked(m: i64, w: i64) -> Result<(u64, u32), GridError> {
    if m < 0 {
        return Err(GridError::Negative);
    }
    if !(1..=MAX_WIDTH).contains(&w) {
        return Err(GridError::Width);
    }
    Ok((m as u64, w as u32))
}

/// The cells of a 63-bit board `w` wide in column 0 (`first`) and in column `w - 1`.
fn edge_columns(w: u32) -> (u64, u64) {
    let mut first = 0u64;
    let mut i = 0;
    while i < 64 {
        first |= 1 << i;
        i += w;
    }
    (first, first << (w - 1))
}

/// The connected components (cells sharing a side) of the set bits of `m` on a board `w`
/// cells wide, each a mask, in the order of their lowest cell.
pub fn regions(m: i64, w: i64) -> Result<Vec<i64>, GridError> {
    let (m, w) = checked(m, w)?;
    let (first, last) = edge_columns(w);
    let (may_left, may_right) = (!first, !last);
    let mut out = Vec::new();
    let mut rest = m;
    while rest != 0 {
        let mut x = rest & rest.wrapping_neg();
        loop {
            let y = (x | (x & may_left) >> 1 | (x & may_right) << 1 | x >> w | x << w) & m;
            if y == x {
                break;
            }
            x = y;
        }
        out.push(x as i64);
        rest &= !x;
    }
    Ok(out)
}

/// The board `m` (on a board `w` wide) moved to the top left corner, up past its empty
/// rows and left past its empty columns; with `mirrors` 1, also mirrored left to right, 2
/// top to bottom, 3 both ways (and turned half round): the least of those images, each
/// moved to the corner. 0 stays 0.
pub fn normalize(m: i64, w: i64, mirrors: i64) -> Result<i64, GridError> {
    let (m, w) = checked(m, w)?;
    if !(0..=3).contains(&mirrors) {
        return Err(GridError::Mirrors);
    }
    if m == 0 {
        return Ok(0);
    }
    let (first, _) = edge_columns(w);
    let top = m.trailing_zeros() / w;
    let bottom = (63 - m.leading_zeros()) / w;
    let mut left = 0;
    while m & (first << left) == 0 {
        left += 1;
    }
    let mut right = w - 1;
    while m & (first << right) == 0 {
        right -= 1;
    }
    let corner = m >> (top * w + left);
    if mirrors == 0 {
        return Ok(corner as i64);
    }
    let (height, width) = (bottom - top + 1, right - left + 1);
    let row_mask = (1u64 << width) - 1;
    let row = |r: u32| (corner >> (r * w)) & row_mask;
    let flip_row = |x: u64| x.reverse_bits() >> (64 - width);
    let mut best = corner;
    let mut image = |lr: bool, ud: bool| {
        let mut x = 0u64;
        for r in 0..height {
            let bits = if lr { flip_row(row(r)) } else { row(r) };
            let to = if ud { height - 1 - r } else { r };
            x |= bits << (to * w);
        }
        best = best.min(x);
    };
    if mirrors & 1 != 0 {
        image(true, false);
    }
    if mirrors & 2 != 0 {
        image(false, true);
    }
    if mirrors == 3 {
        image(true, true);
    }
    Ok(best as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cells of a board drawn as rows of `#` (set) and `.`.
    fn board(rows: &[&str]) -> (i64, i64) {
        let w = rows[0].len() as i64;
        let mut m = 0;
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch == '#' {
                    m |= 1 << (r as i64 * w + c as i64);
                }
            }
        }
        (m, w)
    }

    /// Components by a plain search over cells, for comparison.
    fn brute_regions(m: i64, w: i64) -> Vec<i64> {
        let mut seen = 0i64;
        let mut out = Vec::new();
        for s in 0..63 {
            if m & (1 << s) == 0 || seen & (1 << s) != 0 {
                continue;
            }
            let mut region = 0i64;
            let mut stack = vec![s];
            while let Some(i) = stack.pop() {
                if !(0..63).contains(&i) || m & (1 << i) == 0 || region & (1 << i) != 0 {
                    continue;
                }
                region |= 1 << i;
                if i % w != 0 {
                    stack.push(i - 1);
                }
                if i % w != w - 1 {
                    stack.push(i + 1);
                }
                stack.push(i - w);
                stack.push(i + w);
            }
            seen |= region;
            out.push(region);
        }
        out
    }

    #[test]
    fn regions_agree_with_a_plain_search() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let w = (x % 9 + 1) as i64;
            let m = (x >> 8) as i64 & ((1 << (w * (x as i64 % 5 + 1)).min(62)) - 1);
            assert_eq!(
                regions(m, w).unwrap(),
                brute_regions(m, w),
                "m {m:#b} w {w}"
            );
        }
    }

    #[test]
    fn regions_do_not_wrap_round_the_edges() {
        let (m, w) = board(&["#..#", "#..#"]);
        assert_eq!(regions(m, w).unwrap().len(), 2);
        let (m, w) = board(&["##.", "..#", "##."]);
        assert_eq!(regions(m, w).unwrap().len(), 3);
    }

    #[test]
    fn normalize_moves_to_the_corner_and_takes_the_least_mirror_image() {
        let (m, w) = board(&["....", ".##.", "..#."]);
        let (c, _) = board(&["##..", ".#..", "...."]);
        assert_eq!(normalize(m, w, 0).unwrap(), c);
        let (lr, _) = board(&["##..", "#...", "...."]);
        let (ud, _) = board(&[".#..", "##..", "...."]);
        let (both, _) = board(&["#...", "##..", "...."]);
        assert_eq!(normalize(m, w, 1).unwrap(), c.min(lr));
        assert_eq!(normalize(m, w, 2).unwrap(), c.min(ud));
        assert_eq!(normalize(m, w, 3).unwrap(), c.min(lr).min(ud).min(both));
        assert_eq!(normalize(0, 3, 3).unwrap(), 0);
    }

    #[test]
    fn bad_arguments_are_refused() {
        assert_eq!(regions(-1, 3), Err(GridError::Negative));
        assert_eq!(regions(1, 0), Err(GridError::Width));
        assert_eq!(regions(1, 64), Err(GridError::Width));
        assert_eq!(normalize(1, 3, 4), Err(GridError::Mirrors));
    }
}
