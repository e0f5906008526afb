//! Random small directed graphs written as cgl games, and the session helpers that ask about
//! them: shared by the property tests of loopy games (`loopy.rs`) and payoff games
//! (`payoff.rs`), whose game `G` has position `n` move along the edges of node `n`.

use cgl::session::{Session, SessionConfig};
use proptest::prelude::*;

/// The successors of each of `k` nodes: up to three each, among all nodes (self-loops and
/// cycles allowed) or, when `acyclic`, among the lower-numbered ones.
pub fn successors(k: usize, acyclic: bool) -> Vec<BoxedStrategy<Vec<usize>>> {
    (0..k)
        .map(move |i| {
            let bound = if acyclic { i } else { k };
            proptest::collection::btree_set(0..bound.max(1), 0..=bound.min(3))
                .prop_map(move |s| {
                    s.into_iter()
                        .filter(|j| !acyclic || *j < i)
                        .collect::<Vec<_>>()
                })
                .boxed()
        })
        .collect::<Vec<_>>()
}

/// Whether every edge goes to a lower-numbered node (so the graph has no cycle).
pub fn is_acyclic(succ: &[Vec<usize>]) -> bool {
    succ.iter()
        .enumerate()
        .all(|(i, s)| s.iter().all(|j| *j < i))
}

/// The successor lists as a cgl list of lists, `[[1, 2], [], [0]]`.
pub fn edges(succ: &[Vec<usize>]) -> String {
    let lists: Vec<String> = succ
        .iter()
        .map(|s| {
            let items: Vec<String> = s.iter().map(|n| n.to_string()).collect();
            format!("[{}]", items.join(", "))
        })
        .collect();
    format!("[{}]", lists.join(", "))
}

/// The printed value of an expression in the file, or `error CODES`.
pub fn eval(s: &mut Session, file: usize, text: &str) -> String {
    match s.eval_text(text, &[file]) {
        Ok(v) => s.show(&v),
        Err(d) => format!(
            "error {}",
            d.iter()
                .map(|d| d.code.name())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A session with the source loaded, and the file's index.
pub fn load(source: &str) -> (Session, usize) {
    let mut s = Session::new(SessionConfig::default());
    let file = match s.load_source("random.game", source) {
        Ok(f) => f,
        Err(d) => panic!("does not load: {:?}\n{source}", d[0].message),
    };
    (s, file)
}

/// The node numbers in a printed list of positions `[G(1), G(0)]`.
pub fn nodes_in(printed: &str) -> Vec<usize> {
    printed
        .split("G(")
        .skip(1)
        .map(|p| p.split(')').next().unwrap().parse().unwrap())
        .collect()
}

/// Proptest's settings: `cases` cases, unless `PROPTEST_CASES` says otherwise.
pub fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}
