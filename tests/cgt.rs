//! The value core (`cgl::cgt`) against published values and an independent brute force.
//!
//! - Domineering (Left places vertical dominoes, Right horizontal; a small move generator
//!   here, splitting the board into its connected regions): 2×2 = `+-1`, 2×3 = `{2|-1/2}`
//!   (mean 3/4, temperature 5/4), 2×4 = `Miny(2)`, 3×3 = `+-1`, 4×4 as CGSuite prints it,
//!   4×5 = `1`. Timing them belongs to the benchmark suite: W8 (`cargo bench --bench
//!   workloads -- --only W8`) times 4×4, 4×5 and 5×5 (`0`) with a hand-written solver of
//!   this algorithm over the same table, beside cgl and pycgt.
//! - Red-Blue Hackenbush stalks (a generator here): B_k (a blue edge under k red ones) is
//!   2^-k, B1 + B2 + B3 = 7/8, blue-red-red = 1/4, and Berlekamp's sign-expansion rule on
//!   every stalk up to length 6.
//! - A brute force over plain game trees (no canonical forms): outcome by searching who wins
//!   moving first, `G >= H` by playing `G - H` with Right first. On random small games the
//!   table's order, equality, outcomes and sums must agree with it.

use std::collections::HashMap;
use std::rc::Rc;

use cgl::cgt::{Dyadic, GameId, Outcome, Side, ValueTable};

// ------------------------------------------------------------------ Domineering

/// A Domineering region: `rows × cols` cells, bit `r * cols + c` set where the cell is free.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Board {
    rows: u32,
    cols: u32,
    free: u64,
}

impl Board {
    fn full(rows: u32, cols: u32) -> Board {
        Board {
            rows,
            cols,
            free: (1u64 << (rows * cols)) - 1,
        }
    }

    fn bit(&self, r: u32, c: u32) -> u64 {
        1u64 << (r * self.cols + c)
    }

    /// The boards after one move: Left covers (r, c) and (r+1, c), Right (r, c) and (r, c+1).
    fn moves(&self, side: Side) -> Vec<Board> {
        let mut out = Vec::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                let (dr, dc) = match side {
                    Side::Left => (1, 0),
                    Side::Right => (0, 1),
                };
                if r + dr >= self.rows || c + dc >= self.cols {
                    continue;
                }
                let m = self.bit(r, c) | self.bit(r + dr, c + dc);
                if self.free & m == m {
                    out.push(Board {
                        free: self.free & !m,
                        ..*self
                    });
                }
            }
        }
        out
    }

    /// The connected regions of free cells, each cut to its bounding box (a flood fill on
    /// the bit mask).
    fn regions(&self) -> Vec<Board> {
        let cols = self.cols;
        let row_mask = (1u64 << cols) - 1;
        let mut not_first_col = 0u64;
        for r in 0..self.rows {
            not_first_col |= (row_mask & !1) << (r * cols);
        }
        let not_last_col = not_first_col >> 1;
        let mut left = self.free;
        let mut out = Vec::new();
        while left != 0 {
            let mut region = left & left.wrapping_neg();
            loop {
                let grown = (region
                    | (region << cols)
                    | (region >> cols)
                    | ((region & not_last_col) << 1)
                    | ((region & not_first_col) >> 1))
                    & left;
                if grown == region {
                    break;
                }
                region = grown;
            }
            left &= !region;
            // The bounding box: rows from the lowest and highest bits, columns from the
            // union of the rows.
            let r0 = region.trailing_zeros() / cols;
            let r1 = (63 - region.leading_zeros()) / cols;
            let mut colset = 0u64;
            for r in r0..=r1 {
                colset |= (region >> (r * cols)) & row_mask;
            }
            let c0 = colset.trailing_zeros();
            let width = 64 - colset.leading_zeros() - c0;
            let mut free = 0u64;
            for r in r0..=r1 {
                let row = ((region >> (r * cols)) & row_mask) >> c0;
                free |= row << ((r - r0) * width);
            }
            out.push(Board {
                rows: r1 - r0 + 1,
                cols: width,
                free,
            });
        }
        out
    }
}

/// Canonical values of Domineering boards, memoised by region.
struct Domineering {
    /// Regions (cut to their bounding boxes) by value.
    memo: rustc_hash::FxHashMap<Board, GameId>,
    /// Boards as the moves leave them, before splitting.
    boards: rustc_hash::FxHashMap<Board, GameId>,
}

impl Domineering {
    fn new() -> Domineering {
        Domineering {
            memo: Default::default(),
            boards: Default::default(),
        }
    }

    /// The value of a board: the sum of its regions' values.
    fn value(&mut self, t: &mut ValueTable, b: Board) -> GameId {
        if let Some(&v) = self.boards.get(&b) {
            return v;
        }
        let mut sum = t.zero();
        for region in b.regions() {
            let v = self.region(t, region);
            sum = t.add(sum, v).unwrap();
        }
        self.boards.insert(b, sum);
        sum
    }

    fn region(&mut self, t: &mut ValueTable, b: Board) -> GameId {
        if let Some(&v) = self.memo.get(&b) {
            return v;
        }
        let left: Vec<GameId> = b
            .moves(Side::Left)
            .into_iter()
            .map(|m| self.value(t, m))
            .collect();
        let right: Vec<GameId> = b
            .moves(Side::Right)
            .into_iter()
            .map(|m| self.value(t, m))
            .collect();
        let v = t.game(&left, &right).unwrap();
        self.memo.insert(b, v);
        v
    }

    /// The value of the empty `rows × cols` board.
    fn rectangle(&mut self, t: &mut ValueTable, rows: u32, cols: u32) -> GameId {
        self.value(t, Board::full(rows, cols))
    }
}

#[test]
fn domineering_rectangles() {
    let mut t = ValueTable::new();
    let mut dom = Domineering::new();
    let mut show = |t: &mut ValueTable, r: u32, c: u32| {
        let v = dom.rectangle(t, r, c);
        (v, t.show(v))
    };
    assert_eq!(show(&mut t, 1, 1).1, "0");
    assert_eq!(show(&mut t, 2, 1).1, "1");
    assert_eq!(show(&mut t, 1, 2).1, "-1");
    assert_eq!(show(&mut t, 2, 2).1, "+-1");
    let (g, s) = show(&mut t, 2, 3);
    assert_eq!(s, "{2|-1/2}");
    assert_eq!(t.mean(g).unwrap(), Dyadic::from_fraction(3, 4).unwrap());
    assert_eq!(
        t.temperature(g).unwrap(),
        Dyadic::from_fraction(5, 4).unwrap()
    );
    assert_eq!(show(&mut t, 2, 4).1, "Miny(2)");
    assert_eq!(show(&mut t, 3, 3).1, "+-1");
    assert_eq!(show(&mut t, 4, 4).1, "+-{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}");
    assert_eq!(show(&mut t, 4, 5).1, "1");
    // Transposing a board swaps the players.
    for (r, c) in [(2, 3), (2, 4), (3, 4), (3, 5)] {
        let (g, _) = show(&mut t, r, c);
        let (h, _) = show(&mut t, c, r);
        assert_eq!(t.neg(g).unwrap(), h, "{r}x{c}");
    }
}

// ------------------------------------------------------------------ Red-Blue Hackenbush

/// The value of a stalk, edges from the ground up (`true` blue): cutting an edge removes it
/// and everything above, Blue (Left) cutting blue edges and Red (Right) red ones.
fn stalk(t: &mut ValueTable, edges: &[bool]) -> GameId {
    let mut values = vec![t.zero()];
    for n in 1..=edges.len() {
        let (mut left, mut right) = (vec![], vec![]);
        for (i, &blue) in edges[..n].iter().enumerate() {
            if blue {
                left.push(values[i]);
            } else {
                right.push(values[i]);
            }
        }
        let v = t.game(&left, &right).unwrap();
        values.push(v);
    }
    values[edges.len()]
}

/// Berlekamp's sign expansion: the first run of one colour counts ±1 an edge; after the
/// first change of colour each edge counts half the one below it, + for blue, - for red.
fn sign_expansion(edges: &[bool]) -> Dyadic {
    let Some(&first) = edges.first() else {
        return Dyadic::ZERO;
    };
    let run = edges.iter().take_while(|&&e| e == first).count();
    let unit = if first {
        Dyadic::ONE
    } else {
        Dyadic::MINUS_ONE
    };
    let mut v = unit.mul_int(run as i64).unwrap();
    let mut w = Dyadic::ONE;
    for &e in &edges[run..] {
        w = w.half().unwrap();
        v = if e {
            v.checked_add(w)
        } else {
            v.checked_sub(w)
        }
        .unwrap();
    }
    v
}

#[test]
fn hackenbush_stalks() {
    let mut t = ValueTable::new();
    // B_k: a blue edge with k red edges above is 2^-k.
    for k in 0..8u32 {
        let mut edges = vec![true];
        edges.extend(std::iter::repeat_n(false, k as usize));
        let g = stalk(&mut t, &edges);
        assert_eq!(t.as_number(g), Some(Dyadic::new(1, k).unwrap()), "B_{k}");
    }
    let b = |t: &mut ValueTable, k: usize| {
        let mut e = vec![true];
        e.extend(std::iter::repeat_n(false, k));
        stalk(t, &e)
    };
    let (b1, b2, b3) = (b(&mut t, 1), b(&mut t, 2), b(&mut t, 3));
    let s = t.add(b1, b2).unwrap();
    let s = t.add(s, b3).unwrap();
    assert_eq!(t.show(s), "7/8");
    // B_k + B_k = B_(k-1).
    let s = t.add(b2, b2).unwrap();
    assert_eq!(s, b1);
    let brr = stalk(&mut t, &[true, false, false]);
    assert_eq!(t.show(brr), "1/4");
    // Every stalk up to length 6.
    for len in 0..=6 {
        for bits in 0..(1u32 << len) {
            let edges: Vec<bool> = (0..len).map(|i| bits & (1 << i) != 0).collect();
            let g = stalk(&mut t, &edges);
            assert_eq!(t.as_number(g), Some(sign_expansion(&edges)), "{edges:?}");
        }
    }
}

// ------------------------------------------------------------------ the brute force

/// A game as a plain tree of options, with no canonical form.
#[derive(Debug)]
struct Tree {
    left: Vec<Rc<Tree>>,
    right: Vec<Rc<Tree>>,
}

/// A sum of trees, some of them negated (`true`): a position of the brute force.
type Parts<'a> = Vec<(&'a Tree, bool)>;

/// Whether the player to move (`left` or not) wins the sum `parts`, by searching every line
/// (remembering positions already searched, by the trees' addresses).
fn wins(parts: &Parts, left: bool) -> bool {
    wins_memo(parts, left, &mut HashMap::new())
}

type Seen = HashMap<(Vec<(*const Tree, bool)>, bool), bool>;

fn wins_memo(parts: &Parts, left: bool, seen: &mut Seen) -> bool {
    let key = (
        parts
            .iter()
            .map(|&(t, n)| (t as *const Tree, n))
            .collect::<Vec<_>>(),
        left,
    );
    if let Some(&w) = seen.get(&key) {
        return w;
    }
    let mut win = false;
    'search: for (i, &(tree, negated)) in parts.iter().enumerate() {
        // Left's moves in a negated tree are Right's moves in the tree.
        let moves = if left != negated {
            &tree.left
        } else {
            &tree.right
        };
        for option in moves {
            let mut next = parts.clone();
            next[i] = (option, negated);
            if !wins_memo(&next, !left, seen) {
                win = true;
                break 'search;
            }
        }
    }
    seen.insert(key, win);
    win
}

/// `G >= H` by playing `G - H` with Right moving first: Left must win.
fn brute_ge(g: &Tree, h: &Tree) -> bool {
    !wins(&vec![(g, false), (h, true)], false)
}

/// The outcome of a sum by search.
fn brute_outcome(parts: &Parts) -> Outcome {
    match (wins(parts, true), wins(parts, false)) {
        (true, true) => Outcome::N,
        (true, false) => Outcome::L,
        (false, true) => Outcome::R,
        (false, false) => Outcome::P,
    }
}

/// A seeded xorshift generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random tree of depth at most `depth` (one to three options a side, or none),
/// reusing earlier trees from `pool` now and then.
fn random_tree(rng: &mut Rng, depth: u32, pool: &mut Vec<Rc<Tree>>) -> Rc<Tree> {
    if depth == 0 || rng.below(8) == 0 {
        return Rc::new(Tree {
            left: vec![],
            right: vec![],
        });
    }
    if !pool.is_empty() && rng.below(4) == 0 {
        return pool[rng.below(pool.len() as u64) as usize].clone();
    }
    let side = |rng: &mut Rng, pool: &mut Vec<Rc<Tree>>| {
        (0..1 + rng.below(3))
            .map(|_| random_tree(rng, depth - 1, pool))
            .collect::<Vec<_>>()
    };
    let left = side(rng, pool);
    let right = side(rng, pool);
    let t = Rc::new(Tree { left, right });
    pool.push(t.clone());
    t
}

/// The tree's canonical form, built bottom-up through `ValueTable::game`.
fn value_of(t: &mut ValueTable, tree: &Tree) -> GameId {
    let left: Vec<GameId> = tree.left.iter().map(|o| value_of(t, o)).collect();
    let right: Vec<GameId> = tree.right.iter().map(|o| value_of(t, o)).collect();
    t.game(&left, &right).unwrap()
}

#[test]
fn brute_force_agrees() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut t = ValueTable::new();
    let mut pool = Vec::new();
    let trees: Vec<Rc<Tree>> = (0..1200)
        .map(|k| random_tree(&mut rng, 3 + k % 2, &mut pool))
        .collect();
    let ids: Vec<GameId> = trees.iter().map(|tr| value_of(&mut t, tr)).collect();
    // The sample is not all zeros and stars: many values, of every outcome.
    let distinct: std::collections::HashSet<GameId> = ids.iter().copied().collect();
    println!("{} distinct values", distinct.len());
    assert!(
        distinct.len() >= 100,
        "only {} distinct values",
        distinct.len()
    );
    for o in [Outcome::L, Outcome::R, Outcome::N, Outcome::P] {
        assert!(
            ids.iter().filter(|&&g| t.outcome(g).unwrap() == o).count() >= 50,
            "few {o} games"
        );
    }
    for (tree, &g) in trees.iter().zip(&ids) {
        assert_eq!(
            t.outcome(g).unwrap(),
            brute_outcome(&vec![(tree, false)]),
            "{tree:?}"
        );
        let n = t.neg(g).unwrap();
        assert_eq!(t.sub(g, g).unwrap(), t.zero());
        assert_eq!(t.neg(n).unwrap(), g);
        // Printing reads back as the same value.
        let shown = t.show(g);
        assert_eq!(t.parse(&shown).unwrap(), g, "{shown}");
    }
    for k in 0..1500 {
        let (i, j, l) = (
            rng.below(ids.len() as u64) as usize,
            rng.below(ids.len() as u64) as usize,
            rng.below(ids.len() as u64) as usize,
        );
        let (g, h, m) = (ids[i], ids[j], ids[l]);
        let (gt, ht, mt) = (&*trees[i], &*trees[j], &*trees[l]);
        let ge = brute_ge(gt, ht);
        let le = brute_ge(ht, gt);
        assert_eq!(t.ge(g, h).unwrap(), ge, "{k}: {gt:?} >= {ht:?}");
        assert_eq!(t.le(g, h).unwrap(), le, "{k}: {gt:?} <= {ht:?}");
        assert_eq!(g == h, ge && le, "{k}: equal ids iff equal games");
        let s = t.add(g, h).unwrap();
        assert_eq!(s, t.add(h, g).unwrap(), "sum commutes");
        assert_eq!(
            t.outcome(s).unwrap(),
            brute_outcome(&vec![(gt, false), (ht, false)]),
            "outcome of a sum"
        );
        let s3 = t.add(s, m).unwrap();
        let hm = t.add(h, m).unwrap();
        assert_eq!(s3, t.add(g, hm).unwrap(), "sum associates");
        if k % 5 == 0 {
            // The sum compared with a third game, by search over the three trees.
            assert_eq!(
                t.ge(s, m).unwrap(),
                !wins(&vec![(gt, false), (ht, false), (mt, true)], false)
            );
        }
    }
}

/// Laws of the analyses on random canonical forms: mean is additive, temperature of a sum is
/// at most the larger one, the walls are the stops of the cooled game, the reduced form is
/// infinitesimally close, atomic weight is additive on all-small games.
#[test]
fn analysis_laws() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut t = ValueTable::new();
    let mut pool = Vec::new();
    let ids: Vec<GameId> = (0..300)
        .map(|_| {
            let tree = random_tree(&mut rng, 3, &mut pool);
            value_of(&mut t, &tree)
        })
        .collect();
    let temps: Vec<Dyadic> = [
        (-1, 1),
        (-1, 2),
        (0, 1),
        (1, 4),
        (1, 2),
        (1, 1),
        (3, 2),
        (2, 1),
        (3, 1),
    ]
    .iter()
    .map(|&(n, d)| Dyadic::from_fraction(n, d).unwrap())
    .collect();
    for &g in &ids {
        let th = t.thermograph(g).unwrap();
        for &temp in &temps {
            let c = t.cool(g, temp).unwrap();
            let (ls, rs) = t.stops(c).unwrap();
            assert_eq!(
                ls,
                th.left.value_at(temp).unwrap(),
                "{} cooled by {temp}",
                t.show(g)
            );
            assert_eq!(
                rs,
                th.right.value_at(temp).unwrap(),
                "{} cooled by {temp}",
                t.show(g)
            );
        }
        let r = t.reduced(g).unwrap();
        let diff = t.sub(g, r).unwrap();
        assert!(t.is_infinitesimal(diff).unwrap(), "{} - rcf", t.show(g));
        assert_eq!(t.reduced(r).unwrap(), r);
        let (ls, rs) = t.stops(g).unwrap();
        assert!(ls >= rs || t.is_number(g), "stops of {}", t.show(g));
    }
    for k in 0..400 {
        let g = ids[rng.below(ids.len() as u64) as usize];
        let h = ids[rng.below(ids.len() as u64) as usize];
        let s = t.add(g, h).unwrap();
        let (mg, mh, ms) = (t.mean(g).unwrap(), t.mean(h).unwrap(), t.mean(s).unwrap());
        assert_eq!(
            ms,
            mg.checked_add(mh).unwrap(),
            "{k}: mean of {} + {}",
            t.show(g),
            t.show(h)
        );
        let (tg, th, ts) = (
            t.temperature(g).unwrap(),
            t.temperature(h).unwrap(),
            t.temperature(s).unwrap(),
        );
        assert!(
            ts <= tg.max(th),
            "{k}: temperature of {} + {}",
            t.show(g),
            t.show(h)
        );
        let bs = t.birthday(s).unwrap();
        assert!(bs <= t.birthday(g).unwrap() + t.birthday(h).unwrap());
        if t.is_all_small(g).unwrap() && t.is_all_small(h).unwrap() {
            assert!(t.is_all_small(s).unwrap());
            let (wg, wh, ws) = (
                t.atomic_weight(g).unwrap(),
                t.atomic_weight(h).unwrap(),
                t.atomic_weight(s).unwrap(),
            );
            let w = t.add(wg, wh).unwrap();
            assert_eq!(ws, w, "{k}: aw({}) + aw({})", t.show(g), t.show(h));
        }
    }
}
