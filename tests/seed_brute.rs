//! Seed games against brute force written here, independently of cgl's graph: Kayles sums
//! (normal and misère: outcome, Grundy value, remoteness) and the conjunctive LEGO game
//! (remoteness), each solved on explicit states by a memoised recursion over hand-coded rules.

use std::collections::HashMap;

use cgl::graph::GraphConfig;
use cgl::session::{Session, SessionConfig};

/// A session with the examples loaded; `explicit` forces the product graph.
fn session(file: &str, explicit: bool) -> (Session, usize) {
    let config = SessionConfig {
        graph: GraphConfig {
            explicit,
            ..GraphConfig::default()
        },
        ..SessionConfig::default()
    };
    let mut session = Session::new(config);
    let index = session
        .load_path(std::path::Path::new(file))
        .unwrap_or_else(|d| {
            panic!(
                "{file}: {:?}",
                d.iter().map(|d| &d.message).collect::<Vec<_>>()
            )
        });
    (session, index)
}

fn eval(session: &mut Session, index: usize, expr: &str) -> String {
    match session.eval_text(expr, &[index]) {
        Ok(v) => session.show(&v),
        Err(d) => format!("error: {}", d[0].message),
    }
}

/// Kayles on a multiset of rows: knock down one pin or two adjacent pins of one row.
struct Kayles {
    misere: bool,
    outcome: HashMap<Vec<u8>, char>,
    grundy: HashMap<Vec<u8>, u64>,
    remoteness: HashMap<Vec<u8>, u64>,
}

impl Kayles {
    fn new(misere: bool) -> Kayles {
        Kayles {
            misere,
            outcome: HashMap::new(),
            grundy: HashMap::new(),
            remoteness: HashMap::new(),
        }
    }

    fn moves(rows: &[u8]) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for (r, &n) in rows.iter().enumerate() {
            let rest: Vec<u8> = rows
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != r)
                .map(|(_, v)| *v)
                .collect();
            let mut push = |a: u8, b: u8| {
                let mut next = rest.clone();
                next.extend([a, b].into_iter().filter(|x| *x > 0));
                next.sort_unstable();
                out.push(next);
            };
            for i in 0..n {
                push(i, n - 1 - i);
            }
            for i in 0..n.saturating_sub(1) {
                push(i, n - 2 - i);
            }
        }
        out
    }

    fn outcome(&mut self, rows: &[u8]) -> char {
        if let Some(o) = self.outcome.get(rows) {
            return *o;
        }
        let moves = Kayles::moves(rows);
        let o = if moves.is_empty() {
            if self.misere {
                'N'
            } else {
                'P'
            }
        } else if moves.iter().any(|m| self.outcome(m) == 'P') {
            'N'
        } else {
            'P'
        };
        self.outcome.insert(rows.to_vec(), o);
        o
    }

    fn grundy(&mut self, rows: &[u8]) -> u64 {
        if let Some(g) = self.grundy.get(rows) {
            return *g;
        }
        let values: Vec<u64> = Kayles::moves(rows).iter().map(|m| self.grundy(m)).collect();
        let g = (0..).find(|v| !values.contains(v)).unwrap();
        self.grundy.insert(rows.to_vec(), g);
        g
    }

    fn remoteness(&mut self, rows: &[u8]) -> u64 {
        if let Some(r) = self.remoteness.get(rows) {
            return *r;
        }
        let values: Vec<u64> = Kayles::moves(rows)
            .iter()
            .map(|m| self.remoteness(m))
            .collect();
        let r = if values.is_empty() {
            u64::from(self.misere)
        } else {
            let even = values.iter().filter(|v| *v % 2 == 0).min();
            1 + even
                .copied()
                .unwrap_or_else(|| *values.iter().max().unwrap())
        };
        self.remoteness.insert(rows.to_vec(), r);
        r
    }
}

fn kayles_sum(rows: &[u8]) -> String {
    rows.iter()
        .map(|n| format!("Kayles({n})"))
        .collect::<Vec<_>>()
        .join(" + ")
}

#[test]
fn kayles_sums_match_brute_force() {
    let (mut theorems, ti) = session("examples/kayles.game", false);
    let (mut explicit, ei) = session("examples/kayles.game", true);
    let mut normal = Kayles::new(false);
    let mut misere = Kayles::new(true);
    let mut cases: Vec<Vec<u8>> = Vec::new();
    for a in 1..=7u8 {
        for b in a..=7 {
            cases.push(vec![a, b]);
        }
    }
    for a in 1..=4u8 {
        for b in a..=4 {
            for c in b..=4 {
                cases.push(vec![a, b, c]);
            }
        }
    }
    for rows in cases {
        let sum = kayles_sum(&rows);
        let expected = [
            ("outcome", normal.outcome(&rows).to_string()),
            ("grundy", normal.grundy(&rows).to_string()),
            ("remoteness", normal.remoteness(&rows).to_string()),
        ];
        for (analysis, want) in &expected {
            let expr = format!("{analysis}({sum})");
            assert_eq!(&eval(&mut theorems, ti, &expr), want, "{expr} (theorems)");
            assert_eq!(&eval(&mut explicit, ei, &expr), want, "{expr} (explicit)");
        }
        for (analysis, want) in [
            ("outcome", misere.outcome(&rows).to_string()),
            ("remoteness", misere.remoteness(&rows).to_string()),
        ] {
            let expr = format!("{analysis}(misere({sum}))");
            assert_eq!(eval(&mut theorems, ti, &expr), want, "{expr}");
        }
    }
}

/// The conjunctive LEGO game, unbounded: every rectangle must take a brick (split in two along
/// a side); the game ends as soon as some rectangle is 1×1.
fn lego_conjunctive_remoteness(rects: &[(u8, u8)], memo: &mut HashMap<Vec<(u8, u8)>, u64>) -> u64 {
    if let Some(r) = memo.get(rects) {
        return *r;
    }
    let options = |&(a, b): &(u8, u8)| -> Vec<[(u8, u8); 2]> {
        let mut out: Vec<[(u8, u8); 2]> = (1..a).map(|a1| [(a1, b), (a - a1, b)]).collect();
        out.extend((1..b).map(|b1| [(a, b1), (a, b - b1)]));
        out
    };
    let per_rect: Vec<Vec<[(u8, u8); 2]>> = rects.iter().map(options).collect();
    let r = if per_rect.iter().any(Vec::is_empty) {
        0
    } else {
        let mut values = Vec::new();
        let mut counters = vec![0usize; rects.len()];
        'product: loop {
            let mut next: Vec<(u8, u8)> = per_rect
                .iter()
                .zip(&counters)
                .flat_map(|(opts, i)| opts[*i])
                .collect();
            next.sort_unstable();
            values.push(lego_conjunctive_remoteness(&next, memo));
            for k in 0..rects.len() {
                counters[k] += 1;
                if counters[k] < per_rect[k].len() {
                    continue 'product;
                }
                counters[k] = 0;
            }
            break;
        }
        let even = values.iter().filter(|v| *v % 2 == 0).min();
        1 + even
            .copied()
            .unwrap_or_else(|| *values.iter().max().unwrap())
    };
    memo.insert(rects.to_vec(), r);
    r
}

#[test]
fn conjunctive_lego_matches_brute_force() {
    let (mut theorems, ti) = session("examples/lego.game", false);
    let mut memo = HashMap::new();
    for a in 1..=4u8 {
        for b in 1..=4u8 {
            let want = lego_conjunctive_remoteness(&[(a, b)], &mut memo).to_string();
            let expr = format!("remoteness(Lego[mode = conjunctive]({a}, {b}))");
            assert_eq!(eval(&mut theorems, ti, &expr), want, "{expr}");
        }
    }
}
