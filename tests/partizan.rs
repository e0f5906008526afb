//! Partizan games against an independent brute force. Random short partizan games (positions
//! `0..n`, each option of a position below it, some moves Left's, some Right's, some both
//! players') are written as `.game` text and analysed by cgl; the brute force plays the same
//! rules directly in Rust: outcome classes by plain game-tree search (who wins moving
//! first), and `G >= H` by playing `G - H` with Right moving first (Left must win). cgl's
//! `outcome`, `value` and its value table are checked against it.

use std::collections::HashMap;

use cgl::cgt::GameId;
use cgl::graph::GraphConfig;
use cgl::session::{Session, SessionConfig};
use cgl::value::{with_forms, Value};

/// A small deterministic generator (xorshift64*): no crate, the same games every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One random game: per position, Left's, Right's and both players' option lists.
struct Rules {
    left: Vec<Vec<usize>>,
    right: Vec<Vec<usize>>,
    both: Vec<Vec<usize>>,
}

impl Rules {
    fn random(rng: &mut Rng, n: usize) -> Rules {
        let pick = |p: usize, rng: &mut Rng, per_mille: u64| -> Vec<usize> {
            (0..p).filter(|_| rng.below(1000) < per_mille).collect()
        };
        let mut rules = Rules {
            left: Vec::new(),
            right: Vec::new(),
            both: Vec::new(),
        };
        for p in 0..n {
            rules.left.push(pick(p, rng, 450));
            rules.right.push(pick(p, rng, 450));
            rules.both.push(pick(p, rng, 120));
        }
        rules
    }

    /// The player's options of position `p` (a `both` move counts for either).
    fn options(&self, p: usize, left: bool) -> Vec<usize> {
        let own = if left { &self.left[p] } else { &self.right[p] };
        let mut out: Vec<usize> = own.iter().chain(&self.both[p]).copied().collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The game as cgl text, named `name`.
    fn text(&self, name: &str) -> String {
        let table = |lists: &[Vec<usize>]| {
            let rows: Vec<String> = lists
                .iter()
                .map(|l| {
                    let items: Vec<String> = l.iter().map(usize::to_string).collect();
                    format!("[{}]", items.join(", "))
                })
                .collect();
            format!("[{}]", rows.join(", "))
        };
        format!(
            "game {name} {{\n    position n\n    left move m for m in {}[n]\n    right move m for m in {}[n]\n    move m for m in {}[n]\n}}\n",
            table(&self.left),
            table(&self.right),
            table(&self.both)
        )
    }
}

/// A component of a sum for the brute force: a game, a position, and whether it is negated
/// (`-H`: Left plays H's Right moves and Right H's Left moves).
#[derive(Clone, Copy)]
struct Part {
    game: usize,
    negated: bool,
}

/// Plain game-tree search over sums of components.
struct Brute<'g> {
    games: &'g [Rules],
    misere: bool,
    memo: HashMap<(Vec<usize>, bool), bool>,
}

impl Brute<'_> {
    /// Whether the player (`left`) wins moving first from the positions `state` of `parts`.
    fn wins(&mut self, parts: &[Part], state: &[usize], left: bool) -> bool {
        let key = (state.to_vec(), left);
        if let Some(w) = self.memo.get(&key) {
            return *w;
        }
        let mut any_move = false;
        let mut wins = false;
        'search: for (i, part) in parts.iter().enumerate() {
            let side = left != part.negated;
            for o in self.games[part.game].options(state[i], side) {
                any_move = true;
                let mut next = state.to_vec();
                next[i] = o;
                if !self.wins(parts, &next, !left) {
                    wins = true;
                    break 'search;
                }
            }
        }
        let wins = if any_move { wins } else { self.misere };
        self.memo.insert(key, wins);
        wins
    }

    /// The outcome class of a sum, as cgl prints it.
    fn class(&mut self, parts: &[Part], state: &[usize]) -> &'static str {
        match (
            self.wins(parts, state, true),
            self.wins(parts, state, false),
        ) {
            (true, true) => "N",
            (true, false) => "L",
            (false, true) => "R",
            (false, false) => "P",
        }
    }
}

/// Fresh search memo per question (the parts differ between questions).
fn class_of(games: &[Rules], misere: bool, parts: &[Part], state: &[usize]) -> &'static str {
    Brute {
        games,
        misere,
        memo: HashMap::new(),
    }
    .class(parts, state)
}

/// `G >= H`: Left wins `G - H` when Right moves first.
fn ge(games: &[Rules], g: (usize, usize), h: (usize, usize)) -> bool {
    let parts = [
        Part {
            game: g.0,
            negated: false,
        },
        Part {
            game: h.0,
            negated: true,
        },
    ];
    !Brute {
        games,
        misere: false,
        memo: HashMap::new(),
    }
    .wins(&parts, &[g.1, h.1], false)
}

fn plain(game: usize) -> Part {
    Part {
        game,
        negated: false,
    }
}

const GAMES: usize = 1000;
const MAX_POSITIONS: usize = 5;

fn random_games(seed: u64) -> Vec<Rules> {
    let mut rng = Rng(seed);
    (0..GAMES)
        .map(|_| {
            let n = 2 + rng.below(MAX_POSITIONS as u64 - 1) as usize;
            Rules::random(&mut rng, n)
        })
        .collect()
}

fn session(games: &[Rules], explicit: bool) -> (Session, usize) {
    let mut session = Session::new(SessionConfig {
        graph: GraphConfig {
            explicit,
            ..GraphConfig::default()
        },
        ..SessionConfig::default()
    });
    let text: String = games
        .iter()
        .enumerate()
        .map(|(i, g)| g.text(&format!("G{i}")))
        .collect();
    let file = session
        .load_source("random_partizan.game", &text)
        .unwrap_or_else(|e| panic!("the random games load: {e:?}"));
    (session, file)
}

fn eval(session: &mut Session, file: usize, expr: &str) -> Value {
    session
        .eval_text(expr, &[file])
        .unwrap_or_else(|e| panic!("{expr}: {e:?}"))
}

/// The values of many expressions, evaluated a few hundred at a time as one list (each
/// evaluation sets up the file's scope, which costs more than these small analyses).
fn eval_all(session: &mut Session, file: usize, exprs: &[String]) -> Vec<Value> {
    let mut out = Vec::with_capacity(exprs.len());
    for chunk in exprs.chunks(200) {
        match eval(session, file, &format!("[{}]", chunk.join(", "))) {
            Value::List(ref items) => out.extend(items.iter().cloned()),
            other => panic!("not a list: {other:?}"),
        }
    }
    out
}

/// [`eval_all`], each value as cgl prints it.
fn show_all(session: &mut Session, file: usize, exprs: &[String]) -> Vec<String> {
    let values = eval_all(session, file, exprs);
    values.iter().map(|v| session.show(v)).collect()
}

/// The canonical form of a value `value(...)` returned.
fn form_of(v: &Value) -> GameId {
    with_forms(|t| match v {
        Value::Form(id) => *id,
        Value::Int(n) => t.integer(*n).unwrap(),
        Value::Rational(r) => t.parse(&r.to_string()).unwrap(),
        other => panic!("not a game value: {other:?}"),
    })
}

#[test]
fn outcome_classes_match_a_game_tree_search() {
    let games = random_games(0x9E37_79B9_7F4A_7C15);
    let (mut s, file) = session(&games, false);
    for misere in [false, true] {
        let mut asked = Vec::new();
        let mut exprs = Vec::new();
        for (i, g) in games.iter().enumerate() {
            for p in 0..g.left.len() {
                asked.push((i, p));
                exprs.push(if misere {
                    format!("outcome(misere(G{i}({p})))")
                } else {
                    format!("outcome(G{i}({p}))")
                });
            }
        }
        let got = show_all(&mut s, file, &exprs);
        for ((i, p), got) in asked.into_iter().zip(got) {
            let want = class_of(&games, misere, &[plain(i)], &[p]);
            assert_eq!(
                got,
                want,
                "misère {misere}: G{i}({p}) of\n{}",
                games[i].text("G")
            );
        }
    }
}

#[test]
fn values_compare_as_the_games_do() {
    let games = random_games(0xD1B5_4A32_D192_ED03);
    let (mut s, file) = session(&games, false);
    let mut rng = Rng(7);
    let mut equal_pairs = 0;
    let pick = |rng: &mut Rng| {
        let g = rng.below(GAMES as u64) as usize;
        (g, rng.below(games[g].left.len() as u64) as usize)
    };
    let pairs: Vec<_> = (0..1500)
        .map(|_| (pick(&mut rng), pick(&mut rng)))
        .collect();
    let atom = |(g, p): (usize, usize)| format!("G{g}({p})");
    let ask = |f: &dyn Fn(String, String) -> String| -> Vec<String> {
        pairs.iter().map(|(g, h)| f(atom(*g), atom(*h))).collect()
    };
    let values = eval_all(
        &mut s,
        file,
        &ask(&|g, h| format!("[value({g}), value({h})]")),
    );
    let sums = eval_all(&mut s, file, &ask(&|g, h| format!("value({g} + {h})")));
    let classes = show_all(&mut s, file, &ask(&|g, h| format!("outcome({g} + {h})")));
    let miseres = show_all(
        &mut s,
        file,
        &ask(&|g, h| format!("outcome(misere({g} + {h}))")),
    );
    for (k, (g, h)) in pairs.iter().copied().enumerate() {
        let Value::List(two) = &values[k] else {
            panic!("not a pair of values")
        };
        let (fg, fh) = (form_of(&two[0]), form_of(&two[1]));
        let (g_ge_h, h_ge_g) = (ge(&games, g, h), ge(&games, h, g));
        // Canonical forms are equal iff the games are (G >= H and H >= G).
        assert_eq!(fg == fh, g_ge_h && h_ge_g, "{} vs {}", atom(g), atom(h));
        equal_pairs += usize::from(fg == fh);
        with_forms(|t| {
            // The order of values is the order of games.
            assert_eq!(t.ge(fg, fh).unwrap(), g_ge_h, "{} >= {}", atom(g), atom(h));
            // The class read off the form is the searched one.
            let class = t.outcome(fg).unwrap().to_string();
            assert_eq!(class, class_of(&games, false, &[plain(g.0)], &[g.1]));
            // Sums commute and associate; G - G = 0.
            let sum = t.add(fg, fh).unwrap();
            assert_eq!(sum, t.add(fh, fg).unwrap());
            assert_eq!(t.sub(fg, fg).unwrap(), t.zero());
            let three = t.add(sum, fg).unwrap();
            let fh_fg = t.add(fh, fg).unwrap();
            assert_eq!(three, t.add(fg, fh_fg).unwrap());
        });
        // The value of a sum is the sum of the values, and its class the searched one.
        let both = format!("{} + {}", atom(g), atom(h));
        let vsum = form_of(&sums[k]);
        assert_eq!(vsum, with_forms(|t| t.add(fg, fh).unwrap()), "{both}");
        let parts = [plain(g.0), plain(h.0)];
        assert_eq!(
            classes[k],
            class_of(&games, false, &parts, &[g.1, h.1]),
            "{both}"
        );
        let misere = class_of(&games, true, &parts, &[g.1, h.1]);
        assert_eq!(miseres[k], misere, "misère {both}");
    }
    // Random small games are often equal (0, *, 1, -1, ...): both branches are exercised.
    assert!(equal_pairs > 50, "only {equal_pairs} equal pairs");
}

#[test]
fn explicit_sums_have_the_summed_values() {
    let games = random_games(0x2545_F491_4F6C_DD1D);
    let (mut summed, file) = session(&games, false);
    let (mut explicit, efile) = session(&games, true);
    let mut rng = Rng(11);
    let sums: Vec<Vec<(usize, usize)>> = (0..300)
        .map(|_| {
            (0..3)
                .map(|_| {
                    let g = rng.below(GAMES as u64) as usize;
                    (g, rng.below(games[g].left.len() as u64) as usize)
                })
                .collect()
        })
        .collect();
    let written: Vec<String> = sums
        .iter()
        .map(|parts| {
            let parts: Vec<String> = parts.iter().map(|(g, p)| format!("G{g}({p})")).collect();
            parts.join(" + ")
        })
        .collect();
    let values: Vec<String> = written.iter().map(|w| format!("value({w})")).collect();
    let a = eval_all(&mut summed, file, &values);
    let b = eval_all(&mut explicit, efile, &values);
    let outcomes: Vec<String> = written.iter().map(|w| format!("outcome({w})")).collect();
    let classes = show_all(&mut explicit, efile, &outcomes);
    for (k, parts) in sums.iter().enumerate() {
        assert_eq!(form_of(&a[k]), form_of(&b[k]), "{}", written[k]);
        let brute_parts: Vec<Part> = parts.iter().map(|(g, _)| plain(*g)).collect();
        let state: Vec<usize> = parts.iter().map(|(_, p)| *p).collect();
        let want = class_of(&games, false, &brute_parts, &state);
        assert_eq!(classes[k], want, "{}", written[k]);
    }
}

#[test]
fn sides_follow_the_rules() {
    let games = random_games(0x0123_4567_89AB_CDEF);
    let (mut s, file) = session(&games, false);
    let mut asked = Vec::new();
    let mut exprs = Vec::new();
    for (i, g) in games.iter().enumerate().take(300) {
        for p in 0..g.left.len() {
            for (side, left) in [("left", true), ("right", false)] {
                asked.push((i, p, left));
                // cgl lists options in rule order (the side's rule, then the plain one):
                // compare them sorted.
                exprs.push(format!(
                    "[sorted([str(q) for q in moves(G{i}({p}), {side})]), \
                     sorted([str(q) for q in winning_moves(G{i}({p}), {side})])]"
                ));
            }
        }
    }
    let got = eval_all(&mut s, file, &exprs);
    for ((i, p, left), got) in asked.into_iter().zip(got) {
        let Value::List(ref two) = got else {
            panic!("not a pair")
        };
        let shown = |options: Vec<usize>| {
            let items: Vec<String> = options.iter().map(|o| format!("\"G{i}({o})\"")).collect();
            format!("[{}]", items.join(", "))
        };
        let options = games[i].options(p, left);
        assert_eq!(
            s.show(&two[0]),
            shown(options.clone()),
            "G{i}({p}) left {left}"
        );
        // A winning move leaves the opponent, moving first, lost.
        let winning: Vec<usize> = options
            .into_iter()
            .filter(|o| {
                let mut b = Brute {
                    games: &games,
                    misere: false,
                    memo: HashMap::new(),
                };
                !b.wins(&[plain(i)], &[*o], !left)
            })
            .collect();
        assert_eq!(s.show(&two[1]), shown(winning), "G{i}({p}) left {left}");
    }
}
