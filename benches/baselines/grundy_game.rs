//! W2: Grundy's game values `[grundy(GrundyGame(n)) for n in 1..=N]`.

use std::collections::{HashMap, HashSet};

use super::common::{list, Mex};

/// Hand-written: the values in an array, filled in increasing heap size; the options of `m`
/// (heaps `i` and `m - i`, `i < m - i`) go into a reused mex bitset.
pub fn hand(n: usize) -> String {
    let mut g = vec![0u32; n + 1];
    let mut mex = Mex::new();
    for m in 1..=n {
        mex.clear();
        let mut i = 1;
        while 2 * i < m {
            mex.insert(g[i] ^ g[m - i]);
            i += 1;
        }
        g[m] = mex.least();
    }
    list(g.iter().skip(1))
}

/// Hash map: a memoised recursive function; each option is a `Vec` of heaps, the mex found
/// with a `HashSet`.
pub fn map(n: usize) -> String {
    let mut memo = HashMap::new();
    let values: Vec<u64> = (1..=n as u64).map(|h| grundy(h, &mut memo)).collect();
    list(values)
}

fn grundy(n: u64, memo: &mut HashMap<u64, u64>) -> u64 {
    if let Some(&g) = memo.get(&n) {
        return g;
    }
    let mut options: Vec<Vec<u64>> = Vec::new();
    for i in 1..n {
        if 2 * i < n {
            options.push(vec![i, n - i]);
        }
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
