//! W4: Chomp solved inside an `R × C` rectangle, from the full bar `[C; R]`.
//!
//! The answer is cgl's `(reachable(S), outcome(S), remoteness(S), [outcome(m) for m in
//! moves(S)])`: the remoteness makes both sides solve every position below the start. A
//! position is the list of row lengths from the bottom up (non-increasing, empty rows
//! dropped); biting square `(i, j)`, `(i, j) != (0, 0)`, cuts every row from `i` up to at most
//! `j` squares.

use std::collections::HashMap;

use super::common::{combine, list, solve_dense, solve_packed, Memo, Terminal, Val};

/// Hand-written: a position (rows padded with zeros to `R`) is numbered by its rank in the
/// combinatorial number system, `Σ_i C(l_i + R - 1 - i, R - i)`, a dense id below
/// `C(R + C, R)`; a bite changes the rank by the terms of the rows it cuts. Solved by
/// [`solve_dense`].
pub fn hand(rows: usize, cols: usize) -> Result<String, String> {
    let binom = |n: usize, k: usize| -> u64 {
        let mut b = 1u64;
        for t in 0..k.min(n.saturating_sub(k)) {
            b = b * (n - t) as u64 / (t + 1) as u64;
        }
        if k > n {
            0
        } else {
            b
        }
    };
    // f[i * (cols + 1) + l]: the rank term of row i (from the bottom) when it has l squares
    let width = cols + 1;
    let mut f = vec![0u32; rows * width];
    for i in 0..rows {
        for l in 0..=cols {
            f[i * width + l] = binom(l + rows - 1 - i, rows - i) as u32;
        }
    }
    let ids = usize::try_from(binom(rows + cols, rows)).map_err(|e| e.to_string())?;
    if ids > u32::MAX as usize {
        return Err("too many positions for 32-bit ids".into());
    }
    let mut len = vec![0usize; rows];
    // the rank of a position, less the rank terms of its rows from i up
    let mut expand = |id: u32, out: &mut Vec<u32>| {
        // unrank: greedily the longest row first
        let mut rest = id;
        let mut upper = cols;
        for (i, l) in len.iter_mut().enumerate() {
            let row = &f[i * width..=i * width + cols];
            let mut x = upper;
            while row[x] > rest {
                x -= 1;
            }
            *l = x;
            rest -= row[x];
            upper = x;
        }
        // The bites of column j cut the rows longer than j, rows 0..k; biting (i, j) cuts
        // rows i..k, so going down from i = k - 1 the rank decreases by a running sum.
        let before = out.len();
        let mut k = rows;
        for j in 0..len[0] {
            while len[k - 1] <= j {
                k -= 1;
            }
            let mut next = id;
            for i in (0..k).rev() {
                next -= f[i * width + len[i]] - f[i * width + j];
                if (i, j) != (0, 0) {
                    out.push(next);
                }
            }
        }
        if out.len() == before {
            Terminal::Lost
        } else {
            Terminal::No
        }
    };
    let start: u32 = (0..rows).map(|i| f[i * width + cols]).sum();
    let solved = solve_dense(ids, start, &mut expand)?;
    // The moves from the full bar in cgl's order (row by row, then column by column).
    let mut options = Vec::new();
    for i in 0..rows {
        for j in 0..cols {
            if (i, j) != (0, 0) {
                let bitten: u32 = (i..rows)
                    .map(|r| f[r * width + cols] - f[r * width + j])
                    .sum();
                options.push(start - bitten);
            }
        }
    }
    answer(&solved, solved.reached, start, options)
}

/// The workload's answer from a solved table: the positions reached, the start's outcome and
/// remoteness, and its options' outcomes (`options`, in cgl's order).
fn answer<M: Memo>(
    solved: &M,
    reached: usize,
    start: M::Key,
    options: Vec<M::Key>,
) -> Result<String, String> {
    let outcomes = options
        .into_iter()
        .map(|m| Ok(solved.solved(m)?.outcome()))
        .collect::<Result<Vec<_>, String>>()?;
    let v = solved.solved(start)?;
    Ok(format!(
        "({}, {}, {}, {})",
        reached,
        v.outcome(),
        v.rem_or_minus_one(),
        list(outcomes)
    ))
}

/// Packed: a position is its row lengths, four bits a row from the bottom up, in one word,
/// solved in the fastest hashed table these baselines have ([`super::common::Packed`]); a
/// bite clears and sets the bits of the rows it cuts. It measures what hashing costs a
/// solver that has no dense numbering of the positions (cgl's case on Chomp: its positions
/// are lists of up to R numbers up to C, (C + 1)^R of them, of which the non-increasing
/// ones, C(R + C, R), are reachable).
pub fn packed(rows: usize, cols: usize) -> Result<String, String> {
    if rows > 14 || cols > 15 {
        return Err(format!(
            "{rows} x {cols}: at most 14 rows of at most 15 squares pack"
        ));
    }
    let row = |key: u64, i: usize| (key >> (4 * i)) & 15;
    let cut = |key: u64, i: usize, j: u64| {
        // rows from i up cut to at most j (they are non-increasing: stop at the first that
        // is short enough)
        let mut next = key;
        for r in i..rows {
            if row(key, r) <= j {
                break;
            }
            next = (next & !(15 << (4 * r))) | (j << (4 * r));
        }
        next
    };
    let expand = |key: u64, out: &mut Vec<u64>| {
        let before = out.len();
        for i in 0..rows {
            let w = row(key, i);
            for j in u64::from(i == 0)..w {
                out.push(cut(key, i, j));
            }
        }
        if out.len() == before {
            Terminal::Lost
        } else {
            Terminal::No
        }
    };
    let start: u64 = (0..rows).map(|i| (cols as u64) << (4 * i)).sum();
    let solved = solve_packed(start, expand)?;
    let options = (0..rows)
        .flat_map(|i| (u64::from(i == 0)..cols as u64).map(move |j| (i, j)))
        .map(|(i, j)| cut(start, i, j))
        .collect();
    answer(&solved, solved.reached, start, options)
}

/// Hash map: a memoised recursive function from positions (`Vec` of row lengths) to
/// values; the options of a position collected in a `Vec` of positions.
pub fn map(rows: usize, cols: usize) -> Result<String, String> {
    let start = vec![cols as u32; rows];
    let mut memo: HashMap<Vec<u32>, Val> = HashMap::new();
    let v = solve_map(&start, &mut memo);
    let mut outcomes = Vec::new();
    for m in moves(&start) {
        let mv = memo.get(&m).ok_or("position not solved")?;
        outcomes.push(mv.outcome());
    }
    Ok(format!(
        "({}, {}, {}, {})",
        memo.len(),
        v.outcome(),
        v.rem_or_minus_one(),
        list(outcomes)
    ))
}

fn moves(rows: &[u32]) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    for (i, &w) in rows.iter().enumerate() {
        for j in 0..w {
            if (i, j) == (0, 0) {
                continue;
            }
            let next: Vec<u32> = rows
                .iter()
                .enumerate()
                .map(|(r, &l)| if r >= i { l.min(j) } else { l })
                .filter(|&l| l > 0)
                .collect();
            out.push(next);
        }
    }
    out
}

fn solve_map(rows: &Vec<u32>, memo: &mut HashMap<Vec<u32>, Val>) -> Val {
    if let Some(&v) = memo.get(rows) {
        return v;
    }
    let options = moves(rows);
    let v = if options.is_empty() {
        Val::Rem(0)
    } else {
        let mut values = Vec::new();
        for m in &options {
            values.push(solve_map(m, memo));
        }
        combine(values)
    };
    memo.insert(rows.clone(), v);
    v
}
