//! W5: Wythoff's P-positions `[(a, b) for a in 0..N, b in 0..N if Wythoff(a, b) is P]`.

use std::collections::HashMap;

use super::common::list;

/// Hand-written: a dense `N × N` table of "is P", filled in increasing `(a, b)`; a position
/// is P when none of its options (in cgl's rule order: from `a`, from `b`, from both) is,
/// stopping at the first P option.
pub fn hand(n: usize) -> String {
    let mut p = vec![false; n * n];
    let mut found = Vec::new();
    for a in 0..n {
        for b in 0..n {
            let is_p = !((1..=a).any(|k| p[(a - k) * n + b])
                || (1..=b).any(|k| p[a * n + b - k])
                || (1..=a.min(b)).any(|k| p[(a - k) * n + b - k]));
            p[a * n + b] = is_p;
            if is_p {
                found.push(format!("({a}, {b})"));
            }
        }
    }
    list(found)
}

/// Hash map: a memoised recursive function over `(a, b)` tuples; the options of a position
/// collected in a `Vec`, stopping at the first P option.
pub fn map(n: usize) -> String {
    let n = n as u32;
    let mut memo = HashMap::new();
    let mut found = Vec::new();
    for a in 0..n {
        for b in 0..n {
            if is_p(a, b, &mut memo) {
                found.push(format!("({a}, {b})"));
            }
        }
    }
    list(found)
}

fn is_p(a: u32, b: u32, memo: &mut HashMap<(u32, u32), bool>) -> bool {
    if let Some(&p) = memo.get(&(a, b)) {
        return p;
    }
    let mut options = Vec::new();
    for k in 1..=a {
        options.push((a - k, b));
    }
    for k in 1..=b {
        options.push((a, b - k));
    }
    for k in 1..=a.min(b) {
        options.push((a - k, b - k));
    }
    let p = !options.iter().any(|&(x, y)| is_p(x, y, memo));
    memo.insert((a, b), p);
    p
}
