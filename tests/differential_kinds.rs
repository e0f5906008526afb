//! A differential checker of the kinds of answer beyond impartial win and loss: random small
//! games, partizan (`left move`, `right move`) and impartial, some `play misere`, some with a
//! `compound` mode, whose moves go to positions of the game, to positions of games declared
//! before it, into `split(...)` of such parts and into the empty game `split()`; asked about
//! their positions and about sums, `&` and `|` compounds of them under either convention.
//! Independent ways of getting each answer must agree:
//!
//! - a brute force written here, a game-tree search over a model of the games that the
//!   generator keeps beside their text (`Model`), gives every start's outcome class, its
//!   Grundy value where it is impartial under normal play, and each side's options and
//!   winning options, which cgl's `moves` and `winning_moves` must equal as sets;
//! - `outcome(value(s))` is the searched class, an impartial start's value is the nimber of
//!   its Grundy value, and the value of a sum is the sum of its parts' values;
//! - the same printed answers on one and two threads, with the solver's stores off
//!   (`CGL_STORE=off`) and with `--explicit` (every compound through its explicit product);
//! - every printed start, option and value reads back: `cgl eval` of the printed text in the
//!   same file gives an equal value, printed the same;
//! - `value` of a misère start is `cgl::analysis::value_misere`, and of a start with a
//!   conjunctive or selective compound of partizan positions below it (in a part of a sum, or
//!   an option of a position) `cgl::analysis::value_compound`.
//!
//! A case whose file does not load, or whose query fails other than by a budget, fails: only
//! a budget (`--max-positions 20000`, a selective compound of too many parts) skips a case,
//! and the tally counts it. No answer is compared when it is printed only in part (`…`).
//!
//! The suite runs a cheap fixed slice and two cases of the sweep; `.ci/run` runs the sweep
//! for a bounded time (`CGL_KINDS_SECONDS`) from a seed that changes from run to run (see
//! `sweep.rs`); by hand, `CGL_KINDS_CASES=3000 CGL_KINDS_SEED=1 cargo test --release --test
//! integration -- --exact differential_kinds::differential_kinds_sweep --nocapture`. A case
//! that fails is written to `target/differential_kinds/` with what failed.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use crate::common::{assert_no_crash, root, temp_dir};
use crate::sweep::{run, PathCounts, Rng, Runs, Seeds, BUDGETS};

/// The kind of a compound.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
enum Kind {
    Sum,
    Conj,
    Sel,
}

impl Kind {
    fn op(self) -> &'static str {
        match self {
            Kind::Sum => " + ",
            Kind::Conj => " & ",
            Kind::Sel => " | ",
        }
    }

    fn mode(self) -> &'static str {
        match self {
            Kind::Sum => "disjunctive",
            Kind::Conj => "conjunctive",
            Kind::Sel => "selective",
        }
    }
}

/// A position of the model: a game's position, or a compound (no parts: the empty game).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
enum Term {
    Atom(usize, usize),
    Comp(Kind, Vec<Term>),
}

fn empty() -> Term {
    Term::Comp(Kind::Sum, Vec::new())
}

/// A part of a `split`, or a move's target: position data of the game, or a position of an
/// earlier game.
#[derive(Clone, Copy, Debug)]
enum Piece {
    Own(usize),
    Other(usize, usize),
    /// `split()`, a part of a `split` (in a conjunctive game, it ends play at once).
    Empty,
}

/// A move's target.
#[derive(Clone, Debug)]
enum Opt {
    Piece(Piece),
    /// `split(parts)`; no parts is `split()`.
    Split(Vec<Piece>),
}

/// A generated game: positions `0..size`, each with Left's, Right's and both players'
/// options (an impartial game has only the last).
struct Game {
    name: String,
    partizan: bool,
    misere: bool,
    mode: Kind,
    /// `compound disjunctive` written although it is the default.
    mode_written: bool,
    size: usize,
    /// Per list (left, right, both), the options per position.
    lists: [Vec<Vec<Opt>>; 3],
    /// Per list, whether its own integer options are written as one table rule.
    tables: [bool; 3],
}

const SIDES: [&str; 3] = ["left move", "right move", "move"];

impl Game {
    fn piece_text(&self, games: &[Game], piece: Piece) -> String {
        match piece {
            Piece::Own(m) => m.to_string(),
            Piece::Other(h, q) => format!("{}({q})", games[h].name),
            Piece::Empty => "split()".to_string(),
        }
    }

    /// The game as cgl text.
    fn text(&self, games: &[Game]) -> String {
        let mut s = format!("game {} {{\n    position n\n", self.name);
        if self.misere {
            s.push_str("    play misere\n");
        }
        if self.mode != Kind::Sum || self.mode_written {
            let _ = writeln!(s, "    compound {}", self.mode.mode());
        }
        for (li, list) in self.lists.iter().enumerate() {
            let side = SIDES[li];
            if self.tables[li] {
                let rows: Vec<String> = list
                    .iter()
                    .map(|opts| {
                        let own: Vec<String> = opts
                            .iter()
                            .filter_map(|o| match o {
                                Opt::Piece(Piece::Own(m)) => Some(m.to_string()),
                                _ => None,
                            })
                            .collect();
                        format!("[{}]", own.join(", "))
                    })
                    .collect();
                if rows.iter().any(|r| r != "[]") {
                    let _ = writeln!(s, "    {side} m for m in [{}][n]", rows.join(", "));
                }
            }
            for (p, opts) in list.iter().enumerate() {
                for o in opts {
                    let target = match o {
                        Opt::Piece(Piece::Own(_)) if self.tables[li] => continue,
                        Opt::Piece(piece) => self.piece_text(games, *piece),
                        Opt::Split(parts) => {
                            let parts: Vec<String> =
                                parts.iter().map(|x| self.piece_text(games, *x)).collect();
                            format!("split({})", parts.join(", "))
                        }
                    };
                    let _ = writeln!(s, "    {side} {target} if n == {p}");
                }
            }
        }
        s.push_str("}\n");
        s
    }
}

/// The model of a case's games: their moves, played on terms.
struct Model {
    games: Vec<Game>,
    /// Work left before the model gives up on a case (too big to search here).
    budget: std::cell::Cell<usize>,
}

impl Model {
    fn spend(&self, n: usize) -> bool {
        let left = self.budget.get().saturating_sub(n);
        self.budget.set(left);
        left > 0
    }

    fn piece(&self, g: usize, piece: Piece) -> Term {
        match piece {
            Piece::Own(m) => Term::Atom(g, m),
            Piece::Other(h, q) => Term::Atom(h, q),
            Piece::Empty => empty(),
        }
    }

    /// Whether cgl takes the term to be over, as it drops such parts from sums and selective
    /// compounds: a position with no move for either player; a sum or selective compound
    /// whose parts all are; a conjunctive compound one of whose parts is. A known gap, kept
    /// here as cgl has it (it changes no outcome): a partizan conjunctive compound whose
    /// parts all have moves, but none for Left in one part and none for Right in another,
    /// has no move either, yet cgl keeps it in a sum (`(Q(1) & R(1)) + Q(1)`, for a `Q`
    /// with Left's moves only and an `R` with Right's, is not `Q(1)`, and its `value` is
    /// refused): the graph knows whether a position has moves, not whether each side has.
    fn over(&self, t: &Term) -> bool {
        match t {
            Term::Atom(..) => self.options(t, true).is_empty() && self.options(t, false).is_empty(),
            Term::Comp(_, parts) if parts.is_empty() => true,
            Term::Comp(Kind::Conj, parts) => parts.iter().any(|p| self.over(p)),
            Term::Comp(_, parts) => parts.iter().all(|p| self.over(p)),
        }
    }

    /// A compound as cgl's game graph keeps it: parts of the same kind flattened and
    /// sorted, parts that are over dropped from a sum or a selective compound, and a
    /// compound of one part that part. None of it changes who wins.
    fn compound(&self, kind: Kind, parts: Vec<Term>) -> Term {
        let mut flat = Vec::new();
        for p in parts {
            match p {
                Term::Comp(k, inner) if k == kind => flat.extend(inner),
                p => flat.push(p),
            }
        }
        if kind != Kind::Conj {
            flat.retain(|p| !self.over(p));
        }
        flat.sort();
        if flat.len() == 1 {
            return flat.pop().unwrap_or_else(empty);
        }
        if flat.is_empty() {
            return empty();
        }
        Term::Comp(kind, flat)
    }

    /// A start as cgl evaluates it, all the way down.
    fn normal_form(&self, t: &Term) -> Term {
        match t {
            Term::Atom(..) => t.clone(),
            Term::Comp(_, parts) if parts.is_empty() => empty(),
            Term::Comp(k, parts) => {
                self.compound(*k, parts.iter().map(|p| self.normal_form(p)).collect())
            }
        }
    }

    fn opt(&self, g: usize, o: &Opt) -> Term {
        match o {
            Opt::Piece(p) => self.piece(g, *p),
            Opt::Split(parts) if parts.is_empty() => empty(),
            Opt::Split(parts) => self.compound(
                self.games[g].mode,
                parts.iter().map(|p| self.piece(g, *p)).collect(),
            ),
        }
    }

    /// The options of `t` for Left (`left`) or Right.
    fn options(&self, t: &Term, left: bool) -> Vec<Term> {
        if !self.spend(1) {
            return Vec::new();
        }
        match t {
            Term::Atom(g, p) => {
                let game = &self.games[*g];
                let lists: &[usize] = match (game.partizan, left) {
                    (false, _) => &[2],
                    (true, true) => &[0, 2],
                    (true, false) => &[1, 2],
                };
                lists
                    .iter()
                    .flat_map(|li| game.lists[*li][*p].iter())
                    .map(|o| self.opt(*g, o))
                    .collect()
            }
            Term::Comp(Kind::Sum, parts) => {
                let mut out = Vec::new();
                for (i, part) in parts.iter().enumerate() {
                    for o in self.options(part, left) {
                        let mut next = parts.clone();
                        next[i] = o;
                        out.push(self.compound(Kind::Sum, next));
                    }
                }
                out
            }
            Term::Comp(kind, parts) => {
                if parts.is_empty() {
                    return Vec::new();
                }
                let each: Vec<Vec<Term>> = parts.iter().map(|p| self.options(p, left)).collect();
                if *kind == Kind::Conj && each.iter().any(Vec::is_empty) {
                    return Vec::new();
                }
                // Per part: the options it may take, and, in a selective compound, staying.
                let choices: Vec<Vec<Option<Term>>> = each
                    .into_iter()
                    .map(|opts| {
                        let mut c: Vec<Option<Term>> = opts.into_iter().map(Some).collect();
                        if *kind == Kind::Sel {
                            c.push(None);
                        }
                        c
                    })
                    .collect();
                let total: usize = choices.iter().map(Vec::len).product();
                if !self.spend(total) {
                    return Vec::new();
                }
                let mut out = Vec::new();
                let mut index = vec![0usize; parts.len()];
                'all: loop {
                    let moved = index.iter().zip(&choices).any(|(i, c)| c[*i].is_some());
                    if moved {
                        let next: Vec<Term> = index
                            .iter()
                            .zip(&choices)
                            .zip(parts)
                            .map(|((i, c), part)| c[*i].clone().unwrap_or_else(|| part.clone()))
                            .collect();
                        out.push(self.compound(*kind, next));
                    }
                    for k in 0..index.len() {
                        index[k] += 1;
                        if index[k] < choices[k].len() {
                            continue 'all;
                        }
                        index[k] = 0;
                    }
                    break;
                }
                out
            }
        }
    }

    fn partizan(&self, t: &Term) -> bool {
        match t {
            Term::Atom(g, _) => self.games[*g].partizan,
            Term::Comp(_, parts) => parts.iter().any(|p| self.partizan(p)),
        }
    }

    /// The conventions the term's games are played under by default (misère: true).
    fn naturals(&self, t: &Term, out: &mut BTreeSet<bool>) {
        match t {
            Term::Atom(g, _) => {
                out.insert(self.games[*g].misere);
            }
            Term::Comp(_, parts) => parts.iter().for_each(|p| self.naturals(p, out)),
        }
    }

    /// Whether cgl's `value` of the (normal-form) term has a canonical form to find: not
    /// when a conjunctive or selective compound of partizan positions is a part of it or of
    /// an option below it.
    fn has_value(&self, t: &Term, memo: &mut HashMap<Term, bool>) -> bool {
        if !self.partizan(t) {
            return true;
        }
        if let Some(v) = memo.get(t) {
            return *v;
        }
        let v = match t {
            Term::Comp(Kind::Sum, parts) => parts.iter().all(|p| self.has_value(p, memo)),
            Term::Comp(..) => false,
            Term::Atom(..) => {
                let mut all = self.options(t, true);
                all.extend(self.options(t, false));
                all.iter().all(|o| self.has_value(o, memo))
            }
        };
        memo.insert(t.clone(), v);
        v
    }

    /// The term as cgl text under the convention `misere`: as a user writes it, the games
    /// played by their own convention plain, the whole in `misere(...)` or `normal(...)`
    /// when its games are all of the other, each part that differs so wrapped when they
    /// are mixed.
    fn text(&self, t: &Term, misere: bool) -> String {
        let mut nat = BTreeSet::new();
        self.naturals(t, &mut nat);
        let wrap = |m: bool, s: String| {
            if m {
                format!("misere({s})")
            } else {
                format!("normal({s})")
            }
        };
        match nat.len() {
            0 if misere => wrap(true, self.plain(t, None, false)),
            0 => self.plain(t, None, false),
            1 if nat.contains(&misere) => self.plain(t, None, false),
            1 => wrap(misere, self.plain(t, None, false)),
            _ => self.plain(t, Some(misere), false),
        }
    }

    fn plain(&self, t: &Term, per_atom: Option<bool>, nested: bool) -> String {
        match t {
            Term::Atom(g, p) => {
                let game = &self.games[*g];
                let s = format!("{}({p})", game.name);
                match per_atom {
                    Some(m) if m != game.misere => {
                        format!("{}({s})", if m { "misere" } else { "normal" })
                    }
                    _ => s,
                }
            }
            Term::Comp(_, parts) if parts.is_empty() => "split()".to_string(),
            Term::Comp(k, parts) => {
                let inner: Vec<String> = parts
                    .iter()
                    .map(|p| self.plain(p, per_atom, true))
                    .collect();
                let s = inner.join(k.op());
                if nested {
                    format!("({s})")
                } else {
                    s
                }
            }
        }
    }
}

/// Game-tree search of the model under one convention.
struct Brute<'m> {
    model: &'m Model,
    misere: bool,
    wins: HashMap<(Term, bool), bool>,
    grundy: HashMap<Term, u64>,
}

impl Brute<'_> {
    /// Whether the player (`left`) wins moving first from `t`.
    fn wins(&mut self, t: &Term, left: bool) -> bool {
        let key = (t.clone(), left);
        if let Some(w) = self.wins.get(&key) {
            return *w;
        }
        let options = self.model.options(t, left);
        let w = if options.is_empty() {
            self.misere
        } else {
            options.iter().any(|o| !self.wins(o, !left))
        };
        self.wins.insert(key, w);
        w
    }

    fn class(&mut self, t: &Term) -> &'static str {
        match (self.wins(t, true), self.wins(t, false)) {
            (true, true) => "N",
            (true, false) => "L",
            (false, true) => "R",
            (false, false) => "P",
        }
    }

    /// The options of `side` after which that side wins.
    fn winning(&mut self, t: &Term, left: bool) -> Vec<Term> {
        self.model
            .options(t, left)
            .into_iter()
            .filter(|o| !self.wins(o, !left))
            .collect()
    }

    /// The Grundy value of an impartial term under normal play.
    fn grundy(&mut self, t: &Term) -> u64 {
        if let Some(g) = self.grundy.get(t) {
            return *g;
        }
        let values: BTreeSet<u64> = self
            .model
            .options(t, true)
            .iter()
            .map(|o| self.grundy(o))
            .collect();
        let g = (0..).find(|v| !values.contains(v)).unwrap_or(0);
        self.grundy.insert(t.clone(), g);
        g
    }
}

/// The nimber `*g` as cgl prints it.
fn nimber(g: u64) -> String {
    match g {
        0 => "0".to_string(),
        1 => "*".to_string(),
        g => format!("*{g}"),
    }
}

/// A start: its text, its term (as generated, and in normal form), its convention.
struct Start {
    text: String,
    term: Term,
    misere: bool,
    partizan: bool,
    has_value: bool,
}

/// A generated case: the file, the query asked in every engine and what the model says.
pub struct Case {
    pub source: String,
    /// `(A, B, C, D, E, F, G, H)`: outcomes, values, outcomes of the values, checks of
    /// sums' values, checks of options against the model, options printed, Grundy values,
    /// starts printed.
    pub query: String,
    /// The expressions of F, B and H, in order: each printed item must read back.
    read_back: [Vec<String>; 3],
    /// What the model says A, C and G print, and how many checks D and E hold.
    classes: String,
    value_classes: String,
    grundies: String,
    checks: [usize; 2],
    /// B's items whose value the model knows (impartial starts: their nimber).
    nimbers: Vec<Option<String>>,
    /// A `value` query that must fail, and the code it must fail with.
    refused: Option<(String, &'static str)>,
}

fn piece(r: &mut Rng, p: usize, targets: &[usize], games: &[Game]) -> Option<Piece> {
    if p > 0 && (targets.is_empty() || r.chance(75)) {
        Some(Piece::Own(r.below(p)))
    } else if targets.is_empty() {
        None
    } else {
        let h = *r.pick_of(targets);
        Some(Piece::Other(h, r.below(games[h].size)))
    }
}

fn option(r: &mut Rng, p: usize, targets: &[usize], games: &[Game]) -> Option<Opt> {
    match r.below(20) {
        0 => Some(Opt::Split(Vec::new())),
        1..=5 => {
            let k = if r.chance(10) { 3 } else { 2 };
            let parts: Option<Vec<Piece>> = (0..k)
                .map(|i| {
                    if i > 0 && r.chance(8) {
                        Some(Piece::Empty)
                    } else {
                        piece(r, p, targets, games)
                    }
                })
                .collect();
            parts.map(Opt::Split)
        }
        _ => piece(r, p, targets, games).map(Opt::Piece),
    }
}

fn games(r: &mut Rng) -> Vec<Game> {
    let count = 2 + r.below(3);
    let mut games: Vec<Game> = Vec::new();
    for i in 0..count {
        let partizan = r.chance(65);
        let misere = r.chance(25);
        let mode = match r.below(4) {
            0 | 1 => Kind::Sum,
            2 => Kind::Conj,
            _ => Kind::Sel,
        };
        let size = 3 + r.below(3);
        // An impartial game's moves may not lead into a partizan game.
        let targets: Vec<usize> = (0..i).filter(|h| partizan || !games[*h].partizan).collect();
        let mut lists: [Vec<Vec<Opt>>; 3] = Default::default();
        for p in 0..size {
            for (li, list) in lists.iter_mut().enumerate() {
                let mut opts = Vec::new();
                let n = match (partizan, li) {
                    (false, 2) => 1 + r.below(3),
                    (false, _) => 0,
                    (true, 2) => usize::from(r.chance(20)),
                    (true, _) => r.below(3),
                };
                for _ in 0..n {
                    if let Some(o) = option(r, p, &targets, &games) {
                        opts.push(o);
                    }
                }
                list.push(opts);
            }
        }
        // A partizan game has a side rule (without one, cgl reads it as impartial).
        if partizan && lists[0].iter().chain(&lists[1]).all(Vec::is_empty) {
            lists[r.below(2)][size - 1].push(Opt::Piece(Piece::Own(r.below(size - 1))));
        }
        let tables = [r.chance(40), r.chance(40), r.chance(40)];
        games.push(Game {
            name: format!("{}{i}", if partizan { "Pz" } else { "Im" }),
            partizan,
            misere,
            mode,
            mode_written: r.chance(20),
            size,
            lists,
            tables,
        });
    }
    games
}

fn atom(r: &mut Rng, games: &[Game]) -> Term {
    let g = r.below(games.len());
    let size = games[g].size;
    // Mostly the larger positions: more play below them.
    let p = if r.chance(70) {
        size - 1 - r.below(2)
    } else {
        r.below(size)
    };
    Term::Atom(g, p)
}

fn kind(r: &mut Rng) -> Kind {
    match r.below(3) {
        0 => Kind::Sum,
        1 => Kind::Conj,
        _ => Kind::Sel,
    }
}

/// A start as generated (not in normal form: cgl is to canonicalise it).
fn start_term(r: &mut Rng, games: &[Game]) -> Term {
    match r.below(12) {
        0..=3 => atom(r, games),
        4..=8 => {
            let parts = (0..2 + usize::from(r.chance(20)))
                .map(|_| match r.below(20) {
                    0 => empty(),
                    1..=3 => Term::Comp(kind(r), vec![atom(r, games), atom(r, games)]),
                    _ => atom(r, games),
                })
                .collect();
            Term::Comp(kind(r), parts)
        }
        // A sum with a `&` or `|` part.
        _ => {
            let k = if r.chance(50) { Kind::Conj } else { Kind::Sel };
            Term::Comp(
                Kind::Sum,
                vec![
                    Term::Comp(k, vec![atom(r, games), atom(r, games)]),
                    atom(r, games),
                ],
            )
        }
    }
}

/// The case of seed `seed`, or `None` when its model is too big to search here.
fn try_case(seed: u64) -> Option<Case> {
    let mut r = Rng::new(seed);
    let games = games(&mut r);
    let mut source = String::new();
    for g in &games {
        source.push_str(&g.text(&games));
    }
    let model = Model {
        games,
        budget: std::cell::Cell::new(300_000),
    };
    let mut terms: Vec<(Term, bool)> = Vec::new();
    for _ in 0..3 + r.below(3) {
        let t = start_term(&mut r, &model.games);
        let mut nat = BTreeSet::new();
        model.naturals(&t, &mut nat);
        let natural = nat.first().copied().unwrap_or(false);
        let misere = if r.chance(25) { !natural } else { natural };
        terms.push((t, misere));
    }
    // A sum of two starts under normal play: values add.
    let normal: Vec<&Term> = terms.iter().filter(|(_, m)| !m).map(|(t, _)| t).collect();
    if normal.len() >= 2 && r.chance(70) {
        let a = normal[r.below(normal.len())].clone();
        let b = normal[r.below(normal.len())].clone();
        terms.push((Term::Comp(Kind::Sum, vec![a, b]), false));
    }
    let mut memo = HashMap::new();
    let starts: Vec<Start> = terms
        .into_iter()
        .map(|(term, misere)| {
            let nf = model.normal_form(&term);
            Start {
                text: model.text(&term, misere),
                partizan: model.partizan(&nf),
                has_value: model.has_value(&nf, &mut memo),
                term,
                misere,
            }
        })
        .collect();
    let mut brutes = [false, true].map(|misere| Brute {
        model: &model,
        misere,
        wins: HashMap::new(),
        grundy: HashMap::new(),
    });
    let mut a = Vec::new();
    let mut b = Vec::new();
    let mut c = Vec::new();
    let mut d = Vec::new();
    let mut e = Vec::new();
    let mut f = Vec::new();
    let mut g = Vec::new();
    let mut classes = Vec::new();
    let mut value_classes = Vec::new();
    let mut grundies = Vec::new();
    let mut nimbers = Vec::new();
    let mut refused = None;
    let set = |ts: &[Term], misere: bool| {
        let items: BTreeSet<String> = ts
            .iter()
            .map(|t| format!("({})", model.text(t, misere)))
            .collect();
        format!("{{{}}}", items.into_iter().collect::<Vec<_>>().join(", "))
    };
    for s in &starts {
        let nf = model.normal_form(&s.term);
        let brute = &mut brutes[usize::from(s.misere)];
        let class = brute.class(&nf);
        a.push(format!("outcome({})", s.text));
        classes.push(class);
        if !s.misere && s.has_value {
            b.push(format!("value({})", s.text));
            c.push(format!("outcome(value({}))", s.text));
            value_classes.push(class);
            if !s.partizan {
                let n = brute.grundy(&nf);
                nimbers.push(Some(nimber(n)));
                g.push(format!("grundy({})", s.text));
                grundies.push(n.to_string());
            } else {
                nimbers.push(None);
            }
            if let Term::Comp(Kind::Sum, parts) = &s.term {
                let parts_nf: Vec<Term> = parts.iter().map(|p| model.normal_form(p)).collect();
                if parts.len() >= 2 && parts_nf.iter().all(|p| model.has_value(p, &mut memo)) {
                    let values: Vec<String> = parts
                        .iter()
                        .map(|p| format!("value({})", model.text(p, false)))
                        .collect();
                    d.push(format!("value({}) == {}", s.text, values.join(" + ")));
                }
            }
        } else if refused.is_none() {
            let code = if s.misere {
                "cgl::analysis::value_misere"
            } else {
                "cgl::analysis::value_compound"
            };
            refused = Some((format!("value({})", s.text), code));
        }
        let sides: &[(&str, bool)] = if s.partizan {
            &[(", left", true), (", right", false)]
        } else {
            &[("", true)]
        };
        for (side, left) in sides {
            let options = model.options(&nf, *left);
            let winning = brute.winning(&nf, *left);
            e.push(format!(
                "{{q for q in moves({}{side})}} == {}",
                s.text,
                set(&options, s.misere)
            ));
            e.push(format!(
                "{{q for q in winning_moves({}{side})}} == {}",
                s.text,
                set(&winning, s.misere)
            ));
            f.push(format!("moves({}{side})", s.text));
        }
    }
    if model.budget.get() == 0 {
        return None;
    }
    let h: Vec<String> = starts.iter().map(|s| s.text.clone()).collect();
    let list = |xs: &[String]| format!("[{}]", xs.join(", "));
    let query = format!(
        "({}, {}, {}, {}, {}, {}, {}, {})",
        list(&a),
        list(&b),
        list(&c),
        list(&d),
        list(&e),
        list(&f),
        list(&g),
        list(&h)
    );
    Some(Case {
        source,
        query,
        read_back: [f, b, h],
        classes: format!("[{}]", classes.join(", ")),
        value_classes: format!("[{}]", value_classes.join(", ")),
        grundies: list(&grundies),
        checks: [d.len(), e.len()],
        nimbers,
        refused,
    })
}

/// The case of seed `seed`: the first of its attempts whose model is small enough.
pub fn case(seed: u64) -> Case {
    (0..)
        .find_map(|attempt| try_case(seed.wrapping_mul(64).wrapping_add(attempt)))
        .expect("some attempt is small")
}

/// The items of a printed list or tuple, at its top level (`None` if it is not one).
fn items(s: &str) -> Option<Vec<String>> {
    let s = s.trim();
    let open = s.chars().next()?;
    let close = match open {
        '[' => ']',
        '(' => ')',
        _ => return None,
    };
    if !s.ends_with(close) {
        return None;
    }
    let inner = &s[1..s.len() - 1];
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut in_string = false;
    let mut escaped = false;
    let mut current = String::new();
    for ch in inner.chars() {
        if in_string {
            current.push(ch);
            if escaped {
                escaped = false;
            } else if ch == '\\' {
                escaped = true;
            } else if ch == '"' {
                in_string = false;
            }
            continue;
        }
        match ch {
            '"' => in_string = true,
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(current.trim().to_string());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(ch);
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_string());
    }
    Some(out)
}

/// An engine: a name, the options and the environment.
type Engine = (
    &'static str,
    &'static [&'static str],
    &'static [(&'static str, &'static str)],
);

/// The engines compared, the reference first.
const ENGINES: &[Engine] = &[
    ("threads1", &["--threads", "1"], &[]),
    ("threads2", &["--threads", "2"], &[]),
    ("store_off", &["--threads", "2"], &[("CGL_STORE", "off")]),
    ("explicit", &["--explicit", "--threads", "1"], &[]),
];

/// Diagnostics that skip a case: budgets, which one engine may hit where another does not.
fn budget(stderr: &str) -> bool {
    BUDGETS.iter().any(|b| stderr.contains(b)) || stderr.contains("cgl::graph::too_many_parts")
}

/// What a sweep saw.
#[derive(Default, Debug)]
pub struct Tally {
    pub cases: usize,
    pub runs: usize,
    /// Cases skipped because an engine hit a budget.
    pub budgets: usize,
    pub starts: usize,
    pub partizan: usize,
    pub misere: usize,
    pub values: usize,
    pub refusals: usize,
    pub failing: Vec<u64>,
    /// The compiled paths the cases went through.
    pub paths: PathCounts,
}

/// Checks one case; returns what failed (empty: nothing).
fn check(case: &Case, file: &Path, tally: &mut Tally, runs: &mut Runs) -> String {
    let mut report = String::new();
    let outs: Vec<_> = ENGINES
        .iter()
        .map(|(_, args, env)| run(file, &case.query, args, env, runs))
        .collect();
    tally.runs += outs.len();
    for out in &outs {
        assert_no_crash(&case.source, &out.2);
    }
    if outs.iter().any(|o| budget(&o.2)) {
        tally.budgets += 1;
        return report;
    }
    let base = &outs[0];
    if base.0 != 0 {
        let _ = writeln!(report, "the query failed (exit {}):\n{}", base.0, base.2);
        return report;
    }
    for (i, out) in outs.iter().enumerate().skip(1) {
        if out != base {
            let _ = writeln!(
                report,
                "--- {} ---\n{base:?}\n--- {} ---\n{out:?}\n",
                ENGINES[0].0, ENGINES[i].0
            );
        }
    }
    let printed = base.1.trim();
    if printed.contains('…') {
        let _ = writeln!(report, "the answer is printed only in part: {printed}");
        return report;
    }
    let Some(parts) = items(printed).filter(|p| p.len() == 8) else {
        let _ = writeln!(report, "not the 8 lists asked: {printed}");
        return report;
    };
    let mut expect = |what: &str, got: &str, want: &str| {
        if got != want {
            let _ = writeln!(report, "{what}: cgl {got}, the model {want}");
        }
    };
    expect("outcomes", &parts[0], &case.classes);
    expect("outcomes of the values", &parts[2], &case.value_classes);
    expect("Grundy values", &parts[6], &case.grundies);
    for (k, n) in case.checks.iter().enumerate() {
        let want = format!("[{}]", vec!["true"; *n].join(", "));
        let what = ["values of sums", "options against the model"][k];
        expect(what, &parts[3 + k], &want);
    }
    let values = items(&parts[1]).unwrap_or_default();
    for (v, n) in values.iter().zip(&case.nimbers) {
        if let Some(n) = n {
            expect("an impartial value", v, n);
        }
    }
    tally.values += values.len();
    // Every printed option, value and start reads back, equal and printed the same.
    let printed_lists = [
        items(&parts[5]).unwrap_or_default(),
        values,
        items(&parts[7]).unwrap_or_default(),
    ];
    let mut equal = Vec::new();
    let mut again = Vec::new();
    for (exprs, shown) in case.read_back.iter().zip(&printed_lists) {
        if exprs.len() != shown.len() {
            let _ = writeln!(report, "{} items printed for {exprs:?}", shown.len());
            return report;
        }
        for (x, p) in exprs.iter().zip(shown) {
            equal.push(format!("({x}) == ({p})"));
            again.push(p.clone());
        }
    }
    if !equal.is_empty() {
        let query = format!("([{}], [{}])", equal.join(", "), again.join(", "));
        let want = format!(
            "([{}], [{}])",
            vec!["true"; equal.len()].join(", "),
            again.join(", ")
        );
        let out = run(file, &query, &["--threads", "1"], &[], runs);
        tally.runs += 1;
        assert_no_crash(&case.source, &out.2);
        if out.0 != 0 || out.1.trim() != want {
            let _ = writeln!(
                report,
                "the printed answers do not read back:\nquery {query}\nwant {want}\ngot {out:?}"
            );
        }
    }
    if let Some((query, code)) = &case.refused {
        let out = run(file, query, &["--threads", "1"], &[], runs);
        tally.runs += 1;
        tally.refusals += 1;
        assert_no_crash(&case.source, &out.2);
        if out.0 == 0 || !out.2.contains(code) {
            let _ = writeln!(report, "{query} is not refused with {code}: {out:?}");
        }
    }
    report
}

/// Checks the cases of seeds `seeds`, in a sweep that ends at `until` if it has an end; a
/// case that fails is written, with what failed, into `keep` if given (else the sweep
/// panics at it).
pub fn sweep(
    seeds: impl Iterator<Item = u64>,
    until: Option<Instant>,
    keep: Option<&Path>,
) -> Tally {
    // Sweeps run at once in one process: each its own folder.
    static SWEEPS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = SWEEPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = temp_dir(&format!("differential_kinds-{n}"));
    let mut tally = Tally::default();
    for seed in seeds {
        let case = case(seed);
        let file = dir.join(format!("k{seed}.game"));
        std::fs::write(&file, &case.source).expect("write a game");
        tally.cases += 1;
        tally.starts += items(&case.classes).map_or(0, |a| a.len());
        tally.partizan += usize::from(case.source.contains("left move"));
        tally.misere +=
            usize::from(case.query.contains("misere") || case.source.contains("misere"));
        let mut runs = Runs::new(until);
        let report = check(&case, &file, &mut tally, &mut runs);
        tally.paths.count(&runs.reached);
        if report.is_empty() {
            continue;
        }
        tally.failing.push(seed);
        let text = format!("seed {seed}\nquery {}\n\n{report}", case.query);
        match keep {
            Some(keep) => {
                std::fs::create_dir_all(keep).expect("create the folder of failures");
                std::fs::write(keep.join(format!("k{seed}.game")), &case.source)
                    .expect("write a game");
                std::fs::write(keep.join(format!("k{seed}.txt")), text).expect("write a report");
            }
            None => panic!("{}\n{text}", case.source),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    tally
}

/// A cheap fixed slice of the sweep: eight cases of about 60 ms each (seed 4 is left out,
/// whose case takes 0.3 s).
#[test]
fn value_kinds_agree_every_way() {
    let tally = sweep([0, 1, 2, 3, 5, 6, 7, 9].into_iter(), None, None);
    assert!(tally.failing.is_empty(), "{tally:?}");
    assert_eq!(tally.budgets, 0, "{tally:?}");
}

/// The sweep: `CGL_KINDS_CASES` cases from seed `CGL_KINDS_SEED`, or as many as start
/// within `CGL_KINDS_SECONDS` (from a seed of the clock's unless one is given), as `.ci/run`
/// runs it; in the suite, two cases. As `differential::differential_sweep`, it prints its
/// start first and, at the end, the paths its cases went through and how to replay them.
#[test]
fn differential_kinds_sweep() {
    let seeds = Seeds::from_env(
        "differential_kinds::differential_kinds_sweep",
        ["CGL_KINDS_SEED", "CGL_KINDS_CASES", "CGL_KINDS_SECONDS"],
        1000,
        2,
    );
    println!("{}", seeds.banner());
    let keep = root().join("target/differential_kinds");
    let t = sweep(seeds.iter(), seeds.until, Some(&keep));
    let summary = format!(
        "{} cases ({} starts, {} partizan, {} misère, {} values, {} refusals), {} runs, \
         {} skipped at a budget, {} fail",
        t.cases,
        t.starts,
        t.partizan,
        t.misere,
        t.values,
        t.refusals,
        t.runs,
        t.budgets,
        t.failing.len()
    );
    let out = seeds.report(&summary, t.cases, &t.paths, &t.failing, |seed| {
        keep.join(format!("k{seed}.txt"))
    });
    print!("{out}");
    assert!(t.failing.is_empty(), "{} cases fail", t.failing.len());
}

/// A session with `source` loaded, `--explicit` or not; every expression of `exprs`
/// printed, or its error's code.
fn answers(source: &str, explicit: bool, exprs: &[&str]) -> Vec<String> {
    use cgl::graph::GraphConfig;
    use cgl::session::{Session, SessionConfig};
    let mut s = Session::new(SessionConfig {
        graph: GraphConfig {
            explicit,
            ..GraphConfig::default()
        },
        ..SessionConfig::default()
    });
    let file = s
        .load_source("kinds.game", source)
        .unwrap_or_else(|d| panic!("does not load: {:?}", d[0].message));
    exprs
        .iter()
        .map(|e| match s.eval_text(e, &[file]) {
            Ok(v) => s.show(&v),
            Err(d) => d[0].code.name().to_string(),
        })
        .collect()
}

/// Left takes 1, Right takes 2.
const PZ: &str = "game Pz {
    position n
    left move n - 1 if n >= 1
    right move n - 2 if n >= 2
}
";

/// The class of a partizan sum was read off its value, so a sum with a part that has none
/// (a `&` or `|` compound of partizan positions, or a position whose moves lead to one) was
/// refused with `value_compound`; `--explicit`, which searches the sum, answered. Such a sum
/// is now searched: `Pz(2) & Pz(1)` is L (Left moves to `Pz(1) & Pz(0)`, where Right has no
/// move; Right has none to begin with), and adding `Pz(1)` (1) keeps it L.
#[test]
fn a_sum_with_a_conjunctive_part_has_a_searched_outcome() {
    let source = format!(
        "{PZ}game Twin {{
    position n
    compound conjunctive
    left move split(n - 1, n - 1) if n >= 1
    right move n - 1 if n >= 1
}}
"
    );
    let exprs = [
        "outcome((Pz(2) & Pz(1)) + Pz(1))",
        "outcome(Pz(2) & Pz(1))",
        "outcome((Pz(3) | Pz(2)) + Pz(1) + Pz(2))",
        "outcome(Twin(2) + Pz(2))",
        "outcome(Twin(3) + Pz(3) + Pz(1))",
        "value((Pz(2) & Pz(1)) + Pz(1))",
        "value(Twin(2) + Pz(2))",
        "value(Pz(2) + Pz(1))",
    ];
    let summed = answers(&source, false, &exprs);
    let explicit = answers(&source, true, &exprs);
    assert_eq!(summed, explicit);
    assert_eq!(summed[0], "L");
    assert_eq!(summed[1], "L");
    assert_eq!(&summed[5..7], ["cgl::analysis::value_compound"; 2]);
    assert_eq!(summed[7], "{2|1}");
}

/// `split()`, the empty game, belongs to no game and prints without a convention, so a
/// misère game's option `Pz(3) & split()` printed as such; read back, the normal-play
/// `split()` met the misère `Pz(3)` and was `mixed_convention`. The empty game now takes
/// the other part's convention.
#[test]
fn the_empty_game_takes_the_other_parts_convention() {
    let source = "game Pz {
    position n
    play misere
    compound conjunctive
    left move n - 1 if n >= 1
    right move n - 2 if n >= 2
    left move split(n, split()) if n == 3
}
";
    let got = answers(
        source,
        false,
        &[
            "moves(Pz(3), left)",
            "moves(Pz(3), left) == [Pz(2), Pz(3) & split()]",
            "split() & Pz(3) == Pz(3) & split()",
            "split(Pz(2), split()) == Pz(2)",
            "outcome(Pz(3) & split())",
            "misere(split()) & split()",
            "split() + misere(split())",
        ],
    );
    assert_eq!(
        got,
        [
            "[Pz(2), Pz(3) & split()]",
            "true",
            "true",
            "true",
            // No move for either player, and misère: the player to move wins.
            "N",
            // Empty games only: misère if one is (a normal-play one may be a bare
            // `split()`, with no convention to keep).
            "misere(split() & split())",
            "misere(split())",
        ]
    );
}

/// A position whose games are of both conventions (a misère game that moves into a sum with
/// a normal-play game) printed as `misere(M(2) + Nim(3))`, which does not read back: inside
/// it `M(2) + Nim(3)` combines a misère position with a normal-play one. Each part of the
/// other convention is now wrapped instead: `M(2) + misere(Nim(3))`.
#[test]
fn positions_of_games_of_both_conventions_read_back() {
    let source = "game M {
    position n
    play misere
    move split(n - 1, Nim(n)) if n >= 1
}
game Nim {
    position n
    move k for k in 0..n
}
";
    let got = answers(
        source,
        false,
        &[
            "moves(M(3))",
            "moves(M(3)) == [M(2) + misere(Nim(3))]",
            "normal(M(2) + misere(Nim(3)))",
            "normal(M(2)) + Nim(3) == normal(M(2) + misere(Nim(3)))",
            "misere(Nim(1) + Nim(2))",
        ],
    );
    assert_eq!(
        got,
        [
            "[M(2) + misere(Nim(3))]",
            "true",
            "normal(M(2)) + Nim(3)",
            "true",
            "misere(Nim(1) + Nim(2))",
        ]
    );
}

/// `a + b` reduced a compound of one part to that part before the game graph dropped the
/// parts that are over, so the grouping of written parts showed: `Nim(0) + Nim(0) + Nim(0)`
/// was `Nim(0)` (`Nim(0) + Nim(0)` is `split()`, and `split() + Nim(0)` was `Nim(0)`), and
/// not equal to `split(Nim(0), Nim(0), Nim(0))`, which was `split()`; a sum of partizan
/// positions with no moves stayed partizan, and `moves` of it needed a side. A move
/// target's `split` did the same: `split(0, split())` was the position 0, and `split(0, 0)`
/// `split()`, two options for one game.
#[test]
fn a_compound_is_the_same_however_its_parts_are_grouped() {
    let source = format!(
        "{PZ}game Nim {{
    position n
    move k for k in 0..n
}}
game Drop {{
    position n
    move split(n - 1, split()) if n >= 1
    move split(n - 1, 0) if n >= 1
}}
"
    );
    let got = answers(
        &source,
        false,
        &[
            "Nim(0) + Nim(0) + Nim(0) == split(Nim(0), Nim(0), Nim(0))",
            "Nim(0) + Nim(0) + Nim(0)",
            "Nim(0) + split()",
            "Nim(0) | (Nim(0) | Nim(0))",
            "(Pz(0) + Pz(0)) + Pz(0) == Pz(0) + (Pz(0) + Pz(0))",
            "moves(Pz(0) + Pz(0) + Pz(0))",
            "Nim(0) & split()",
            "Pz(3) + Pz(0) + Nim(0)",
            "Nim(0)",
            "moves(Drop(1))",
            "moves(Drop(2))",
        ],
    );
    assert_eq!(
        got,
        [
            "true",
            "split()",
            "split()",
            "split()",
            "true",
            "[]",
            "Nim(0) & split()",
            "Pz(3)",
            "Nim(0)",
            "[split()]",
            "[Drop(1)]",
        ]
    );
}
