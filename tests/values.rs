//! The value language against two references, on random small game literals:
//!
//! - `cgl::cgt` directly: the text of a literal is also CGSuite notation, so the canonical
//!   form engine reads it itself; sums, negatives and the order must agree with what the
//!   expression language computes from the same text;
//! - an independent brute force that knows nothing of canonical forms: a literal is a game
//!   tree (each atom expanded into its definition, `^ = {0 | *}`), and `G >= H` is decided by
//!   playing `G - H` with Right moving first, outcomes by plain game-tree search.
//!
//! And printing: every value printed reads back, as a cgl expression, as the same value.

use cgl::cgt::{Style, ValueTable};
use cgl::session::{Session, SessionConfig};
use proptest::prelude::*;

/// A game tree: Left's and Right's options.
#[derive(Clone, Debug)]
struct Tree {
    left: Vec<Tree>,
    right: Vec<Tree>,
}

fn tree(left: Vec<Tree>, right: Vec<Tree>) -> Tree {
    Tree { left, right }
}

fn zero() -> Tree {
    tree(vec![], vec![])
}

/// A random literal: its text and its tree.
#[derive(Clone, Debug)]
struct Lit {
    text: String,
    tree: Tree,
}

/// The atoms, written as cgl (and CGSuite) write them, with their definitions as trees.
fn atoms() -> Vec<Lit> {
    let star = tree(vec![zero()], vec![zero()]);
    let one = tree(vec![zero()], vec![]);
    let up = tree(vec![zero()], vec![star.clone()]);
    let down = tree(vec![star.clone()], vec![zero()]);
    let star2 = tree(vec![zero(), star.clone()], vec![zero(), star.clone()]);
    let half = tree(vec![zero()], vec![one.clone()]);
    let minus_one = tree(vec![], vec![zero()]);
    let two = tree(vec![one.clone()], vec![]);
    let up_star = tree(vec![zero(), star.clone()], vec![zero()]);
    [
        ("0", zero()),
        ("1", one),
        ("-1", minus_one),
        ("2", two),
        ("1/2", half),
        ("*", star),
        ("*2", star2),
        ("^", up),
        ("v", down),
        ("^*", up_star),
    ]
    .into_iter()
    .map(|(text, tree)| Lit {
        text: text.to_string(),
        tree,
    })
    .collect()
}

fn lit() -> impl Strategy<Value = Lit> {
    let leaf = prop::sample::select(atoms());
    leaf.prop_recursive(3, 10, 3, |inner| {
        (
            prop::collection::vec(inner.clone(), 0..=2),
            prop::collection::vec(inner, 0..=2),
        )
            .prop_map(|(l, r)| {
                let side = |xs: &[Lit]| {
                    xs.iter()
                        .map(|x| x.text.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                Lit {
                    text: format!("{{{} | {}}}", side(&l), side(&r)),
                    tree: tree(
                        l.iter().map(|x| x.tree.clone()).collect(),
                        r.iter().map(|x| x.tree.clone()).collect(),
                    ),
                }
            })
    })
}

/// A component of a sum, negated or not: its options by side are read off the tree.
#[derive(Clone)]
struct Part<'t> {
    tree: &'t Tree,
    negated: bool,
}

impl<'t> Part<'t> {
    fn options(&self, left: bool) -> &'t [Tree] {
        // The Left options of -G are the negatives of G's Right options.
        if left != self.negated {
            &self.tree.left
        } else {
            &self.tree.right
        }
    }
}

/// Whether the player (`left` or not) to move first in the sum of `parts` wins.
fn first_wins(parts: &[Part<'_>], left: bool) -> bool {
    for (i, p) in parts.iter().enumerate() {
        for option in p.options(left) {
            let mut next = parts.to_vec();
            next[i] = Part {
                tree: option,
                negated: p.negated,
            };
            if !first_wins(&next, !left) {
                return true;
            }
        }
    }
    false
}

/// `G >= H`: Left wins `G - H` when Right moves first.
fn brute_ge(g: &Tree, h: &Tree) -> bool {
    let parts = [
        Part {
            tree: g,
            negated: false,
        },
        Part {
            tree: h,
            negated: true,
        },
    ];
    !first_wins(&parts, false)
}

/// The outcome class of `G` by search: L, R, N or P.
fn brute_outcome(g: &Tree) -> &'static str {
    let parts = [Part {
        tree: g,
        negated: false,
    }];
    match (first_wins(&parts, true), first_wins(&parts, false)) {
        (true, false) => "L",
        (false, true) => "R",
        (true, true) => "N",
        (false, false) => "P",
    }
}

fn eval(s: &mut Session, expr: &str) -> String {
    match s.eval_text(expr, &[]) {
        Ok(v) => s.show(&v),
        Err(d) => panic!("`{expr}` fails: {d:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The order and outcomes of the value language are those of play.
    #[test]
    fn comparisons_and_outcomes_agree_with_play(g in lit(), h in lit()) {
        let mut s = Session::new(SessionConfig::default());
        let (a, b) = (&g.text, &h.text);
        let ge = eval(&mut s, &format!("{a} >= {b}")) == "true";
        let le = eval(&mut s, &format!("{a} <= {b}")) == "true";
        prop_assert_eq!(ge, brute_ge(&g.tree, &h.tree), "{} >= {}", a, b);
        prop_assert_eq!(le, brute_ge(&h.tree, &g.tree), "{} <= {}", a, b);
        let eq = eval(&mut s, &format!("{a} == {b}")) == "true";
        prop_assert_eq!(eq, ge && le, "{} == {}", a, b);
        let confused = eval(&mut s, &format!("confused({a}, {b})")) == "true";
        prop_assert_eq!(confused, !ge && !le);
        prop_assert_eq!(eval(&mut s, &format!("outcome({a})")), brute_outcome(&g.tree));
        // Sums by play too: G + H - H == G.
        prop_assert_eq!(eval(&mut s, &format!("{a} + {b} - {b} == {a}")), "true");
    }

    /// Sums, negatives and the order are cgt's, and every printed value reads back.
    #[test]
    fn arithmetic_agrees_with_cgt_and_printing_round_trips(g in lit(), h in lit()) {
        let mut s = Session::new(SessionConfig::default());
        let mut t = ValueTable::new();
        let (a, b) = (&g.text, &h.text);
        let x = t.parse(a).unwrap();
        let y = t.parse(b).unwrap();
        let sum = t.add(x, y).unwrap();
        let diff = t.sub(x, y).unwrap();
        let neg = t.neg(x).unwrap();
        prop_assert_eq!(eval(&mut s, &format!("{a} + {b}")), t.show_with(sum, Style::Explicit));
        prop_assert_eq!(eval(&mut s, &format!("{a} - {b}")), t.show_with(diff, Style::Explicit));
        prop_assert_eq!(eval(&mut s, &format!("-{a}")), t.show_with(neg, Style::Explicit));
        prop_assert_eq!(eval(&mut s, &format!("{a} < {b}")) == "true", t.lt(x, y).unwrap());
        // cgl's printing reads back in cgl and in cgt; CGSuite's own printing in cgt.
        for (expr, id) in [(a.clone(), x), (format!("{a} + {b}"), sum)] {
            let shown = eval(&mut s, &expr);
            prop_assert_eq!(eval(&mut s, &format!("({shown}) == ({expr})")), "true", "{}", shown);
            prop_assert_eq!(t.parse(&shown).unwrap(), id, "{} read back by cgt", shown);
        }
        let cgsuite = t.show(sum);
        prop_assert_eq!(t.parse(&cgsuite).unwrap(), sum);
    }
}

/// Published values and CGSuite's answers, written in the value language.
#[test]
fn known_values() {
    let mut s = Session::new(SessionConfig::default());
    for (expr, want) in [
        ("{0 | 1}", "1/2"),
        ("{2 | -1/2}", "{2|-1/2}"),
        ("temperature({2 | -1/2})", "5/4"),
        ("mean({2 | -1/2})", "3/4"),
        ("{0 || 0 | -2}", "Tiny(2)"),
        ("{2 | 0 || 0}", "Miny(2)"),
        ("^ + ^ + *", "^^*"),
        ("{0 | ^*}", "^^"),
        ("{1 | -1}", "+-1"),
        ("{1/2 | -1/2}", "+-1/2"),
        ("1/2 + *", "1/2+*"),
        ("v + *", "-^*"),
        ("3 * v", "-^3"),
        ("{0, * | 0, *}", "*2"),
        ("{3 || 2 | 1}", "{3||2|1}"),
        ("2 + Tiny(2)", "2+Tiny(2)"),
        ("7 / 2", "7/2"),
        ("-6 / 4", "-3/2"),
    ] {
        assert_eq!(eval(&mut s, expr), want, "{expr}");
        // Printing reads back as the same value.
        assert_eq!(
            eval(&mut s, &format!("({want}) == ({expr})")),
            "true",
            "{want}"
        );
    }
}
