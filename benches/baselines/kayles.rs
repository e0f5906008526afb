//! W1: Kayles Grundy values `[grundy(Kayles(n)) for n in 0..N]`.

use std::collections::{HashMap, HashSet};

use super::common::{list, Mex};

/// Hand-written: the values in an array, filled in increasing heap size; each heap's options
/// (rows `i` and `n - 1 - i`, or `i` and `n - 2 - i`; the pairs `(i, j)` and `(j, i)` are the
/// same option, so each pair is taken once) go into a reused mex bitset.
pub fn hand(n: usize) -> String {
    let mut g = vec![0u32; n];
    let mut mex = Mex::new();
    for m in 1..n {
        mex.clear();
        // one pin: i + j = m - 1
        for i in 0..=(m - 1) / 2 {
            mex.insert(g[i] ^ g[m - 1 - i]);
        }
        // two pins: i + j = m - 2
        if m >= 2 {
            for i in 0..=(m - 2) / 2 {
                mex.insert(g[i] ^ g[m - 2 - i]);
            }
        }
        g[m] = mex.least();
    }
    list(g)
}

/// Hash map: a memoised recursive function; each option is a `Vec` of heaps whose value is
/// the XOR of theirs, the mex found with a `HashSet`.
pub fn map(n: usize) -> String {
    let mut memo = HashMap::new();
    let values: Vec<u64> = (0..n as u64).map(|h| grundy(h, &mut memo)).collect();
    list(values)
}

fn grundy(n: u64, memo: &mut HashMap<u64, u64>) -> u64 {
    if let Some(&g) = memo.get(&n) {
        return g;
    }
    let mut options: Vec<Vec<u64>> = Vec::new();
    for i in 0..n {
        options.push(vec![i, n - 1 - i]);
    }
    for i in 0..n.saturating_sub(1) {
        options.push(vec![i, n - 2 - i]);
    }
    let mut seen = HashSet::new();
    for parts in &options {
        let mut x = 0;
        for &p in parts {
            x ^= grundy(p, memo);
        }
        seen.insert(x);
    }
    let g = (0..).find(|g| !seen.contains(g)).unwrap_or(0);
    memo.insert(n, g);
    g
}
