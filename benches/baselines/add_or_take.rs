//! W7: the loopy add-or-take game, `[outcome(AddOrTake[C = N](n)) for n in [1, 0, 2, 3, N]]`,
//! solved from heap 1 (which reaches every heap `0..=N`) by retrograde analysis.

use std::collections::{HashMap, VecDeque};

/// The options of heap `n` in rule order: take 1, take 2, add 1.
fn options(n: usize, c: usize) -> impl Iterator<Item = usize> {
    let take = (1..=2).filter(move |k| *k <= n).map(move |k| n - k);
    let add = (0 < n && n < c).then_some(n + 1);
    take.chain(add)
}

fn printed(outcomes: impl Iterator<Item = u8>) -> String {
    let items: Vec<&str> = outcomes
        .map(|o| match o {
            1 => "N",
            2 => "P",
            _ => "D",
        })
        .collect();
    format!("[{}]", items.join(", "))
}

fn asked(c: usize) -> [usize; 5] {
    [1, 0, 2, 3, c]
}

/// Hand-written: heaps `0..=N` in arrays; the predecessor lists in one arena (offsets by
/// heap), a counter of undecided options per heap, a FIFO queue of decided heaps.
pub fn hand(c: usize) -> String {
    let n = c + 1;
    let mut count = vec![0u32; n + 1];
    let mut undecided = vec![0u32; n];
    for (p, left) in undecided.iter_mut().enumerate() {
        for q in options(p, c) {
            count[q + 1] += 1;
            *left += 1;
        }
    }
    for i in 0..n {
        count[i + 1] += count[i];
    }
    let mut fill = count.clone();
    let mut preds = vec![0u32; count[n] as usize];
    for p in 0..n {
        for q in options(p, c) {
            preds[fill[q] as usize] = p as u32;
            fill[q] += 1;
        }
    }
    // 0 undecided, 1 N, 2 P.
    let mut outcome = vec![0u8; n];
    let mut queue = Vec::with_capacity(n);
    for p in 0..n {
        if undecided[p] == 0 {
            outcome[p] = 2;
            queue.push(p as u32);
        }
    }
    let mut i = 0;
    while i < queue.len() {
        let q = queue[i] as usize;
        i += 1;
        for &p in &preds[count[q] as usize..count[q + 1] as usize] {
            let p = p as usize;
            if outcome[p] != 0 {
                continue;
            }
            if outcome[q] == 2 {
                outcome[p] = 1;
                queue.push(p as u32);
            } else {
                undecided[p] -= 1;
                if undecided[p] == 0 {
                    outcome[p] = 2;
                    queue.push(p as u32);
                }
            }
        }
    }
    printed(asked(c).into_iter().map(|h| outcome[h]))
}

/// Hash map: the reachable heaps found by a search from heap 1, predecessor lists in a
/// `HashMap` of `Vec`s, counters and outcomes in `HashMap`s.
pub fn map(c: usize) -> String {
    let mut succ: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut todo = VecDeque::from([1usize]);
    while let Some(p) = todo.pop_front() {
        if succ.contains_key(&p) {
            continue;
        }
        let opts: Vec<usize> = options(p, c).collect();
        todo.extend(opts.iter().copied());
        succ.insert(p, opts);
    }
    let mut preds: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut undecided: HashMap<usize, usize> = HashMap::new();
    // In order of heap, so that the queue does not depend on hashing.
    let mut heaps: Vec<usize> = succ.keys().copied().collect();
    heaps.sort_unstable();
    let mut queue: VecDeque<usize> = VecDeque::new();
    for &p in &heaps {
        let opts = &succ[&p];
        undecided.insert(p, opts.len());
        if opts.is_empty() {
            queue.push_back(p);
        }
        for &q in opts {
            preds.entry(q).or_default().push(p);
        }
    }
    let mut outcome: HashMap<usize, u8> = HashMap::new();
    for p in &queue {
        outcome.insert(*p, 2);
    }
    while let Some(q) = queue.pop_front() {
        let lost = outcome[&q] == 2;
        for &p in preds.get(&q).map_or(&[][..], Vec::as_slice) {
            if outcome.contains_key(&p) {
                continue;
            }
            let left = undecided.entry(p).or_default();
            *left -= 1;
            if lost || *left == 0 {
                outcome.insert(p, if lost { 1 } else { 2 });
                queue.push_back(p);
            }
        }
    }
    printed(
        asked(c)
            .into_iter()
            .map(|h| outcome.get(&h).copied().unwrap_or(0)),
    )
}
