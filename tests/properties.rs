//! Property tests of the analyses.
//!
//! Small random finite games are written as cgl source (positions `0..K`, K <= 7, each with
//! plain options and "split" options into two smaller positions, sometimes into none, one or
//! three; some positions declared draws, some terminal by `terminal if`), and single positions and compounds of two or three of them (`+`, `&`, `|`, nested,
//! with variants of the split mode, under normal and misère play) are analysed three ways:
//!
//! 1. a `Session` with the default configuration (the theorems for compounds; the streaming
//!    solver where the game declares no draws),
//! 2. a `Session` with `GraphConfig { explicit: true, .. }` (explicit product graphs),
//! 3. a brute force written here straight from the definitions, over plain trees of positions,
//!    without any of cgl's canonicalisation (no flattening, no dropping of finished parts).
//!
//! All three must agree on outcome, Grundy value and remoteness (and on which of them is an
//! error); the theorems are checked as laws on the agreed values, and `winning_moves` and
//! `line` against them. Failures print the .game source and the expression, so a case can be
//! replayed with `cgl eval -f random.game 'outcome(...)'`.
//!
//! `PROPTEST_CASES` sets the number of random cases per property (default 128).
//!
//! Deterministic tests: 3-heap Nim sums against a brute force, the misère Nim rule, a chain a
//! million moves long on a default-sized stack, position limits that give errors, and the
//! stack that deep user recursion needs. The `regression_*` tests are cases where cgl is wrong
//! today; they fail until the engine is fixed.

use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

use cgl::graph::GraphConfig;
use cgl::session::{Session, SessionConfig};
use proptest::prelude::*;
use proptest::sample::subsequence;
use proptest::test_runner::TestCaseError;

// ------------------------------------------------------------------ the random games

/// A compound kind (also a game's split mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Kind {
    Dis,
    Con,
    Sel,
}

const KINDS: [Kind; 3] = [Kind::Dis, Kind::Con, Kind::Sel];

impl Kind {
    fn op(self) -> &'static str {
        match self {
            Kind::Dis => "+",
            Kind::Con => "&",
            Kind::Sel => "|",
        }
    }

    fn mode(self) -> &'static str {
        match self {
            Kind::Dis => "disjunctive",
            Kind::Con => "conjunctive",
            Kind::Sel => "selective",
        }
    }
}

/// A random game `R`: positions `0..e.len()`.
#[derive(Clone)]
struct Spec {
    /// Plain options of each position (smaller positions).
    e: Vec<Vec<usize>>,
    /// Split options of each position: pairs of smaller positions.
    s: Vec<Vec<(usize, usize)>>,
    /// Splits of other sizes, `split(list)`: into no part (`split()`, the empty game), one
    /// part (the part itself), or three.
    t: Vec<Vec<Vec<usize>>>,
    /// Positions declared draws (only matters where they are terminal).
    draws: Vec<usize>,
    /// Positions declared terminal by `terminal if` (their moves are ignored).
    stop: Vec<usize>,
}

fn list<T>(items: &[T], f: impl Fn(&T) -> String) -> String {
    items.iter().map(f).collect::<Vec<_>>().join(", ")
}

impl Spec {
    fn source(&self) -> String {
        let e = list(&self.e, |opts| {
            format!("[{}]", list(opts, |m| m.to_string()))
        });
        let s = list(&self.s, |opts| {
            format!("[{}]", list(opts, |(a, b)| format!("({a}, {b})")))
        });
        let t = list(&self.t, |opts| {
            format!(
                "[{}]",
                list(opts, |parts| format!(
                    "[{}]",
                    list(parts, |p| p.to_string())
                ))
            )
        });
        let d = list(&self.draws, |n| n.to_string());
        let stop = list(&self.stop, |n| n.to_string());
        // Without draws the game has no `draw if` at all: then no position can reach a draw,
        // and the streaming solver (not the general one) answers Grundy values and outcomes.
        let draw_clause = if self.draws.is_empty() {
            ""
        } else {
            "    draw if n in DRAWS\n"
        };
        format!(
            "const E = [{e}]\n\
             const S = [{s}]\n\
             const T = [{t}]\n\
             const DRAWS = {{{d}}}\n\
             const STOP = {{{stop}}}\n\
             game Rg(mode = disjunctive) {{\n\
             \x20   position n\n\
             \x20   compound mode\n\
             \x20   move m for m in E[n]\n\
             \x20   move split(a, b) for (a, b) in S[n]\n\
             \x20   move split(parts) for parts in T[n]\n\
             \x20   terminal if n in STOP\n\
             {draw_clause}\
             }}\n"
        )
    }
}

/// An expression: a position of `R` (in the variant with that split mode) or a compound.
#[derive(Clone)]
enum Expr {
    Pos(Kind, usize),
    Comp(Kind, Box<Expr>, Box<Expr>),
}

impl Expr {
    fn text(&self) -> String {
        match self {
            Expr::Pos(Kind::Dis, n) => format!("Rg({n})"),
            Expr::Pos(k, n) => format!("Rg[mode = {}]({n})", k.mode()),
            Expr::Comp(k, a, b) => format!("({} {} {})", a.text(), k.op(), b.text()),
        }
    }

    fn state(&self) -> State {
        match self {
            Expr::Pos(k, n) => State::Atom(*k, *n),
            Expr::Comp(k, a, b) => comp(*k, vec![a.state(), b.state()]),
        }
    }
}

impl fmt::Debug for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// One position to analyse: an expression, under normal or misère play.
#[derive(Clone)]
struct Query {
    expr: Expr,
    misere: bool,
}

impl Query {
    fn text(&self) -> String {
        if self.misere {
            format!("misere({})", self.expr.text())
        } else {
            self.expr.text()
        }
    }
}

impl fmt::Debug for Query {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

#[derive(Clone)]
struct Case {
    spec: Spec,
    queries: Vec<Query>,
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "\n--- game source ---\n{}--- expressions ---",
            self.spec.source()
        )?;
        for q in &self.queries {
            writeln!(f, "{}", q.text())?;
        }
        Ok(())
    }
}

type PositionRules = (Vec<usize>, Vec<(usize, usize)>, Vec<Vec<usize>>);

fn position_strategy(n: usize) -> BoxedStrategy<PositionRules> {
    if n == 0 {
        return Just((Vec::new(), Vec::new(), Vec::new())).boxed();
    }
    let plain = subsequence((0..n).collect::<Vec<_>>(), 0..=n);
    // Two smaller parts whose sizes add up to less than n (so a position falls apart into at
    // most n + 1 parts), sometimes to n (more parts, larger products; the budget of the
    // brute force bounds those).
    let pair = prop_oneof![
        3 => (0..n).prop_flat_map(move |a| (Just(a), 0..n - a)),
        1 => (0..n).prop_flat_map(move |a| (Just(a), 0..(n + 1 - a).min(n))),
    ];
    let splits = prop::collection::vec(pair, 0..=2);
    // Zero to three parts, their sizes adding up to less than n.
    let other = prop::collection::vec(0..n, 0..=3).prop_map(move |mut parts| {
        while parts.iter().sum::<usize>() >= n {
            parts.pop();
        }
        parts
    });
    let others = prop_oneof![3 => Just(Vec::new()), 1 => prop::collection::vec(other, 1)];
    (plain, splits, others).boxed()
}

fn expr_strategy(k: usize) -> impl Strategy<Value = Expr> {
    let kind = prop::sample::select(KINDS.to_vec());
    let leaf = (kind.clone(), 0..k).prop_map(|(m, n)| Expr::Pos(m, n));
    let two = (kind.clone(), leaf.clone(), leaf.clone())
        .prop_map(|(op, a, b)| Expr::Comp(op, Box::new(a), Box::new(b)));
    let three = (kind.clone(), kind, two.clone(), leaf.clone(), any::<bool>()).prop_map(
        |(op, inner, x, y, left)| {
            let x = match x {
                Expr::Comp(_, a, b) => Expr::Comp(inner, a, b),
                other => other,
            };
            if left {
                Expr::Comp(op, Box::new(x), Box::new(y))
            } else {
                Expr::Comp(op, Box::new(y), Box::new(x))
            }
        },
    );
    prop_oneof![1 => leaf, 3 => two, 3 => three]
}

fn case_strategy() -> impl Strategy<Value = Case> {
    (2usize..=7)
        .prop_flat_map(|k| {
            let positions: Vec<_> = (0..k).map(position_strategy).collect();
            let draws = prop_oneof![
                2 => Just(Vec::new()),
                1 => subsequence((0..k).collect::<Vec<_>>(), 1..=k.min(3)),
            ];
            let stop = prop_oneof![
                3 => Just(Vec::new()),
                1 => subsequence((1..k).collect::<Vec<_>>(), 1..=(k - 1).min(2)),
            ];
            let queries = prop::collection::vec(
                (expr_strategy(k), prop::bool::weighted(0.3))
                    .prop_map(|(expr, misere)| Query { expr, misere }),
                3..=6,
            );
            (positions, draws, stop, queries)
        })
        .prop_map(|(positions, draws, stop, queries)| Case {
            spec: Spec {
                e: positions.iter().map(|p| p.0.clone()).collect(),
                s: positions.iter().map(|p| p.1.clone()).collect(),
                t: positions.iter().map(|p| p.2.clone()).collect(),
                draws,
                stop,
            },
            queries,
        })
}

// ------------------------------------------------------------------ the brute force

/// A state: a position of `R` (with the split mode of its variant), or a compound of states,
/// exactly as the moves produce them (parts sorted, since they commute; nothing else changed).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum State {
    Atom(Kind, usize),
    Comp(Kind, Vec<State>),
}

fn comp(kind: Kind, mut parts: Vec<State>) -> State {
    parts.sort();
    State::Comp(kind, parts)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum O {
    N,
    P,
    D,
}

/// The brute force gave up: the state space is larger than its budget.
#[derive(Debug)]
struct TooBig;

/// Most states whose moves the brute force generates for one case, and most moves in all.
/// Queries beyond it are skipped (rarely: the generated games are small).
const STATE_BUDGET: usize = 20_000;
const MOVE_BUDGET: usize = 400_000;

struct Brute<'a> {
    spec: &'a Spec,
    moves: HashMap<State, Rc<Vec<State>>>,
    outcome: [HashMap<State, O>; 2],
    rem: [HashMap<State, Option<u64>>; 2],
    grundy: HashMap<State, u64>,
    reach: HashMap<State, bool>,
    work: usize,
}

/// Every choice of one option per `Some` part (other parts stay), as states of `kind`.
fn product(
    kind: Kind,
    parts: &[State],
    chosen: &[Option<Rc<Vec<State>>>],
    out: &mut Vec<State>,
) -> Result<(), TooBig> {
    let size = chosen
        .iter()
        .flatten()
        .fold(1usize, |n, o| n.saturating_mul(o.len()));
    if size.saturating_add(out.len()) > MOVE_BUDGET {
        return Err(TooBig);
    }
    fn go(
        kind: Kind,
        parts: &[State],
        chosen: &[Option<Rc<Vec<State>>>],
        acc: &mut Vec<State>,
        out: &mut Vec<State>,
    ) {
        let i = acc.len();
        if i == parts.len() {
            out.push(comp(kind, acc.clone()));
            return;
        }
        match &chosen[i] {
            None => {
                acc.push(parts[i].clone());
                go(kind, parts, chosen, acc, out);
                acc.pop();
            }
            Some(opts) => {
                for o in opts.iter() {
                    acc.push(o.clone());
                    go(kind, parts, chosen, acc, out);
                    acc.pop();
                }
            }
        }
    }
    go(kind, parts, chosen, &mut Vec::new(), out);
    Ok(())
}

impl<'a> Brute<'a> {
    fn new(spec: &'a Spec) -> Brute<'a> {
        Brute {
            spec,
            moves: HashMap::new(),
            outcome: [HashMap::new(), HashMap::new()],
            rem: [HashMap::new(), HashMap::new()],
            grundy: HashMap::new(),
            reach: HashMap::new(),
            work: 0,
        }
    }

    fn moves(&mut self, s: &State) -> Result<Rc<Vec<State>>, TooBig> {
        if let Some(m) = self.moves.get(s) {
            return Ok(m.clone());
        }
        if self.moves.len() >= STATE_BUDGET || self.work >= MOVE_BUDGET {
            return Err(TooBig);
        }
        let mut out = Vec::new();
        match s {
            // `terminal if`: no moves, whatever the rules say.
            State::Atom(_, n) if self.spec.stop.contains(n) => {}
            State::Atom(mode, n) => {
                for &a in &self.spec.e[*n] {
                    out.push(State::Atom(*mode, a));
                }
                for &(a, b) in &self.spec.s[*n] {
                    out.push(comp(
                        *mode,
                        vec![State::Atom(*mode, a), State::Atom(*mode, b)],
                    ));
                }
                for parts in &self.spec.t[*n] {
                    out.push(if parts.is_empty() {
                        // `split()` is the empty game in every mode: nothing left to play.
                        State::Comp(Kind::Dis, Vec::new())
                    } else {
                        comp(
                            *mode,
                            parts.iter().map(|p| State::Atom(*mode, *p)).collect(),
                        )
                    });
                }
            }
            State::Comp(kind, parts) => {
                let mut opts = Vec::new();
                for p in parts {
                    opts.push(self.moves(p)?);
                }
                match kind {
                    // Exactly one part moves.
                    Kind::Dis => {
                        for (i, o) in opts.iter().enumerate() {
                            let chosen: Vec<_> = (0..parts.len())
                                .map(|j| (j == i).then(|| o.clone()))
                                .collect();
                            product(*kind, parts, &chosen, &mut out)?;
                        }
                    }
                    // Every part moves; none can once one has ended.
                    Kind::Con => {
                        if opts.iter().all(|o| !o.is_empty()) {
                            let chosen: Vec<_> = opts.iter().map(|o| Some(o.clone())).collect();
                            product(*kind, parts, &chosen, &mut out)?;
                        }
                    }
                    // Any non-empty set of the parts that can move.
                    Kind::Sel => {
                        let live: Vec<usize> =
                            (0..parts.len()).filter(|i| !opts[*i].is_empty()).collect();
                        for mask in 1u32..(1 << live.len()) {
                            let mut chosen: Vec<Option<Rc<Vec<State>>>> = vec![None; parts.len()];
                            for (bit, &i) in live.iter().enumerate() {
                                if mask & (1 << bit) != 0 {
                                    chosen[i] = Some(opts[i].clone());
                                }
                            }
                            product(*kind, parts, &chosen, &mut out)?;
                        }
                    }
                }
            }
        }
        self.work += out.len();
        // Repeated options change none of the values.
        out.sort();
        out.dedup();
        let out = Rc::new(out);
        self.moves.insert(s.clone(), out.clone());
        Ok(out)
    }

    /// Whether a terminal state is a draw: a declared draw position, or a compound with a
    /// terminal part that is a draw.
    fn is_draw(&mut self, s: &State) -> Result<bool, TooBig> {
        Ok(match s {
            State::Atom(_, n) => self.spec.draws.contains(n),
            State::Comp(_, parts) => {
                let mut any = false;
                for p in parts {
                    if self.moves(p)?.is_empty() && self.is_draw(p)? {
                        any = true;
                    }
                }
                any
            }
        })
    }

    fn outcome(&mut self, s: &State, misere: bool) -> Result<O, TooBig> {
        if let Some(o) = self.outcome[misere as usize].get(s) {
            return Ok(*o);
        }
        let moves = self.moves(s)?;
        let o = if moves.is_empty() {
            if self.is_draw(s)? {
                O::D
            } else if misere {
                O::N
            } else {
                O::P
            }
        } else {
            let mut values = Vec::new();
            for m in moves.iter() {
                values.push(self.outcome(m, misere)?);
            }
            if values.contains(&O::P) {
                O::N
            } else if values.contains(&O::D) {
                O::D
            } else {
                O::P
            }
        };
        self.outcome[misere as usize].insert(s.clone(), o);
        Ok(o)
    }

    fn remoteness(&mut self, s: &State, misere: bool) -> Result<Option<u64>, TooBig> {
        if let Some(r) = self.rem[misere as usize].get(s) {
            return Ok(*r);
        }
        let moves = self.moves(s)?;
        let r = if moves.is_empty() {
            if self.is_draw(s)? {
                None
            } else {
                Some(misere as u64)
            }
        } else {
            let mut values = Vec::new();
            for m in moves.iter() {
                values.push(self.remoteness(m, misere)?);
            }
            if let Some(e) = values.iter().flatten().filter(|r| *r % 2 == 0).min() {
                Some(e + 1)
            } else if values.contains(&None) {
                None
            } else {
                values.iter().flatten().max().map(|m| m + 1)
            }
        };
        self.rem[misere as usize].insert(s.clone(), r);
        Ok(r)
    }

    /// Whether a draw (a terminal draw state) can be reached by moves from `s`.
    fn draw_reachable(&mut self, s: &State) -> Result<bool, TooBig> {
        if let Some(r) = self.reach.get(s) {
            return Ok(*r);
        }
        let moves = self.moves(s)?;
        let r = if moves.is_empty() {
            self.is_draw(s)?
        } else {
            let mut any = false;
            for m in moves.iter() {
                if self.draw_reachable(m)? {
                    any = true;
                    break;
                }
            }
            any
        };
        self.reach.insert(s.clone(), r);
        Ok(r)
    }

    /// The Grundy value (normal play; call only where no draw is reachable).
    fn grundy(&mut self, s: &State) -> Result<u64, TooBig> {
        if let Some(g) = self.grundy.get(s) {
            return Ok(*g);
        }
        let moves = self.moves(s)?;
        let mut values = Vec::new();
        for m in moves.iter() {
            values.push(self.grundy(m)?);
        }
        let g = (0..).find(|v| !values.contains(v)).unwrap_or(0);
        self.grundy.insert(s.clone(), g);
        Ok(g)
    }
}

// ------------------------------------------------------------------ running cgl

fn session(explicit: bool) -> Session {
    Session::new(SessionConfig {
        graph: GraphConfig {
            explicit,
            ..GraphConfig::default()
        },
        ..SessionConfig::default()
    })
}

/// Evaluates an expression: `Ok(printed value)` or `Err(diagnostic codes)`.
fn eval(s: &mut Session, file: usize, text: &str) -> Result<String, String> {
    match s.eval_text(text, &[file]) {
        Ok(v) => Ok(s.show(&v)),
        Err(diags) => Err(diags
            .iter()
            .map(|d| d.code.name())
            .collect::<Vec<_>>()
            .join(", ")),
    }
}

fn load(s: &mut Session, name: &str, source: &str) -> usize {
    match s.load_source(name, source) {
        Ok(i) => i,
        Err(diags) => panic!(
            "{name} does not load: {}\n{source}",
            diags
                .iter()
                .map(|d| format!("{}: {}", d.code, d.message))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    }
}

fn ok(v: impl ToString) -> Result<String, String> {
    Ok(v.to_string())
}

fn err(code: &str) -> Result<String, String> {
    Err(code.to_string())
}

/// The brute force's values of a query (which cgl's must equal).
#[derive(Clone, Copy, Debug)]
struct Vals {
    outcome: O,
    rem: Option<u64>,
    /// `None` where Grundy values do not apply (misère, or a draw reachable).
    grundy: Option<u64>,
    draw_reachable: bool,
    terminal: bool,
}

/// Which analyses a property test compares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    /// Outcome and remoteness (and `winning_moves`, `line`).
    OutcomeRemoteness,
    /// Grundy values.
    Grundy,
}

struct Runner<'a> {
    case: &'a Case,
    check: Check,
    brute: Brute<'a>,
    sessions: Vec<(&'static str, Session, usize)>,
}

impl<'a> Runner<'a> {
    fn new(case: &'a Case, check: Check) -> Runner<'a> {
        let source = case.spec.source();
        let mut sessions = Vec::new();
        for (label, explicit, explore_first) in [
            ("default (theorems)", false, false),
            ("explicit", true, false),
            ("default, every position explored first", false, true),
        ] {
            let mut s = session(explicit);
            let file = load(&mut s, "random.game", &source);
            if explore_first {
                // The graph then keeps every position's moves, and the streaming solver
                // values positions from them instead of running the rules.
                for n in 0..case.spec.e.len() {
                    for kind in KINDS {
                        let _ = eval(
                            &mut s,
                            file,
                            &format!("reachable({})", Expr::Pos(kind, n).text()),
                        );
                    }
                }
            }
            sessions.push((label, s, file));
        }
        Runner {
            case,
            check,
            brute: Brute::new(&case.spec),
            sessions,
        }
    }

    /// Every single position of every variant, under both conventions, then the case's
    /// random queries.
    fn run(&mut self) -> Result<(), TestCaseError> {
        let case = self.case;
        for kind in KINDS {
            for n in 0..case.spec.e.len() {
                for misere in [false, true] {
                    self.check(&Query {
                        expr: Expr::Pos(kind, n),
                        misere,
                    })?;
                }
            }
        }
        for q in &case.queries {
            self.check(q)?;
        }
        Ok(())
    }

    fn fail(&self, what: &str, detail: String) -> TestCaseError {
        TestCaseError::fail(format!(
            "{what}\n{detail}\n--- game source (random.game) ---\n{}",
            self.case.spec.source()
        ))
    }

    fn brute_vals(&mut self, q: &Query) -> Result<Vals, TooBig> {
        let st = q.expr.state();
        let outcome = self.brute.outcome(&st, q.misere)?;
        let rem = self.brute.remoteness(&st, q.misere)?;
        let draw_reachable = self.brute.draw_reachable(&st)?;
        let grundy = if q.misere || draw_reachable {
            None
        } else {
            Some(self.brute.grundy(&st)?)
        };
        let terminal = self.brute.moves(&st)?.is_empty();
        Ok(Vals {
            outcome,
            rem,
            grundy,
            draw_reachable,
            terminal,
        })
    }

    /// Evaluates `text` in both sessions; each must give `expected`.
    fn expect(
        &mut self,
        what: &str,
        text: &str,
        expected: Result<String, String>,
    ) -> Result<(), TestCaseError> {
        let mut got = Vec::new();
        for (label, s, file) in &mut self.sessions {
            got.push((*label, eval(s, *file, text)));
        }
        if got.iter().all(|(_, g)| *g == expected) {
            return Ok(());
        }
        let mut detail = format!("expression: {text}\n  expected (brute force): {expected:?}\n");
        for (label, g) in &got {
            detail.push_str(&format!("  cgl, {label} session: {g:?}\n"));
        }
        Err(self.fail(what, detail))
    }

    /// Compares the sessions with the brute force on a query and on its parts, and checks the
    /// laws that relate them. Returns the brute force's values (`None`: over budget).
    fn check(&mut self, q: &Query) -> Result<Option<Vals>, TestCaseError> {
        let Ok(v) = self.brute_vals(q) else {
            return Ok(None);
        };
        let x = q.text();
        if (v.outcome == O::D) != v.rem.is_none() {
            return Err(self.fail("the brute force is inconsistent", format!("{x}: {v:?}")));
        }
        match self.check {
            Check::OutcomeRemoteness => {
                self.expect(
                    "outcome differs",
                    &format!("outcome({x})"),
                    ok(format!("{:?}", v.outcome)),
                )?;
                let rem = match v.rem {
                    Some(r) => ok(r),
                    None => err("cgl::analysis::remoteness_draw"),
                };
                self.expect("remoteness differs", &format!("remoteness({x})"), rem)?;
                // Winning moves exist exactly at N positions that are not over (misère play),
                // and lead to P positions.
                let winning = v.outcome == O::N && !v.terminal;
                self.expect(
                    "winning_moves vs outcome",
                    &format!("len(winning_moves({x})) > 0"),
                    ok(winning),
                )?;
                self.expect(
                    "winning_moves vs outcome",
                    &format!("forall m in winning_moves({x}): outcome(m) == P"),
                    ok(true),
                )?;
                // The optimal line is as long as the remoteness says (under misère play the
                // terminal position counts one more); from a draw it ends in a drawn position.
                match v.rem {
                    Some(r) => {
                        let moves = r - u64::from(q.misere);
                        self.expect(
                            "line vs remoteness",
                            &format!("len(line({x}))"),
                            ok(moves + 1),
                        )?;
                    }
                    None => {
                        self.expect(
                            "line from a draw",
                            &format!("outcome(line({x})[len(line({x})) - 1])"),
                            ok("D"),
                        )?;
                    }
                }
            }
            Check::Grundy => {
                let expected = if q.misere {
                    err("cgl::analysis::grundy_misere")
                } else if v.draw_reachable {
                    err("cgl::analysis::grundy_draw")
                } else {
                    ok(v.grundy.unwrap_or(0))
                };
                self.expect("grundy differs", &format!("grundy({x})"), expected)?;
            }
        }
        self.single_laws(q, &v)?;
        if let Expr::Comp(kind, a, b) = &q.expr {
            let qa = Query {
                expr: (**a).clone(),
                misere: q.misere,
            };
            let qb = Query {
                expr: (**b).clone(),
                misere: q.misere,
            };
            if let (Some(va), Some(vb)) = (self.check(&qa)?, self.check(&qb)?) {
                self.laws(q, *kind, &v, &va, &vb)?;
            }
        }
        Ok(Some(v))
    }

    fn single_laws(&self, q: &Query, v: &Vals) -> Result<(), TestCaseError> {
        let x = q.text();
        if let Some(r) = v.rem {
            if (r % 2 == 0) != (v.outcome == O::P) {
                return Err(self.fail(
                    "law: remoteness even iff P",
                    format!("{x}: remoteness {r}, outcome {:?}", v.outcome),
                ));
            }
        }
        if let Some(g) = v.grundy {
            if (g == 0) != (v.outcome == O::P) {
                return Err(self.fail(
                    "law: P iff Grundy value 0",
                    format!("{x}: grundy {g}, outcome {:?}", v.outcome),
                ));
            }
        }
        Ok(())
    }

    /// The theorems for a compound `x op y` whose parts reach no draw, under normal play.
    fn laws(
        &self,
        q: &Query,
        kind: Kind,
        v: &Vals,
        a: &Vals,
        b: &Vals,
    ) -> Result<(), TestCaseError> {
        if q.misere || a.draw_reachable || b.draw_reachable {
            return Ok(());
        }
        let x = q.text();
        let (Some(ra), Some(rb), Some(r)) = (a.rem, b.rem, v.rem) else {
            return Err(self.fail("no remoteness without draws", x));
        };
        match (kind, self.check) {
            (Kind::Dis, Check::Grundy) => {
                let (Some(ga), Some(gb), Some(g)) = (a.grundy, b.grundy, v.grundy) else {
                    return Err(self.fail("no Grundy value without draws", x));
                };
                if g != ga ^ gb {
                    return Err(self.fail(
                        "law: grundy(x + y) == grundy(x) ^ grundy(y)",
                        format!("{x}: {g} != {ga} ^ {gb}"),
                    ));
                }
            }
            (Kind::Con, Check::OutcomeRemoteness) if r != ra.min(rb) => {
                return Err(self.fail(
                    "law: remoteness(x & y) == min",
                    format!("{x}: {r} != min({ra}, {rb})"),
                ));
            }
            (Kind::Sel, Check::OutcomeRemoteness) => {
                let all_p = a.outcome == O::P && b.outcome == O::P;
                if (v.outcome == O::P) != all_p {
                    return Err(self.fail(
                        "law: x | y is P iff every part is P",
                        format!(
                            "{x}: {:?}, parts {:?} and {:?}",
                            v.outcome, a.outcome, b.outcome
                        ),
                    ));
                }
                let rule = if ra % 2 == 1 && rb % 2 == 1 {
                    ra + rb - 1
                } else {
                    ra + rb
                };
                if r != rule {
                    return Err(self.fail(
                        "law: remoteness(x | y) == a + b, - 1 if both odd",
                        format!("{x}: {r}, parts {ra} and {rb}"),
                    ));
                }
            }
            _ => {}
        }
        Ok(())
    }
}

fn proptest_config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(128);
    ProptestConfig {
        cases,
        max_shrink_iters: 2048,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(proptest_config())]

    /// Outcome and remoteness: the theorems, the explicit graph and the brute force agree on
    /// single positions of every variant and on random compounds; remoteness is even iff P,
    /// `x & y` has the least remoteness of its parts, `x | y` is P iff both parts are, with
    /// remoteness a + b (- 1 if both odd); `winning_moves` and `line` fit.
    #[test]
    fn outcome_and_remoteness_agree_with_brute_force(case in case_strategy()) {
        Runner::new(&case, Check::OutcomeRemoteness).run()?;
    }

    /// Grundy values: the theorems, the explicit graph and the brute force agree (an error
    /// exactly under misère play or where a draw is reachable); the value is 0 iff P, and XORs
    /// over `x + y`.
    #[test]
    fn grundy_agrees_with_brute_force(case in case_strategy()) {
        Runner::new(&case, Check::Grundy).run()?;
    }
}

// ------------------------------------------------------------------ deterministic tests

const NIM: &str = "
game Nim { position n  move n - k for k in 1..=n }
game MNim { position n  play misere  move n - k for k in 1..=n }
game Chain { position n  move n - 1 if n > 0 }
";

/// Brute force for a sum of Nim heaps: (outcome P?, Grundy value, remoteness), normal play.
fn nim_brute(heaps: Vec<u64>, memo: &mut HashMap<Vec<u64>, (bool, u64, u64)>) -> (bool, u64, u64) {
    let mut key = heaps.clone();
    key.sort();
    if let Some(v) = memo.get(&key) {
        return *v;
    }
    let mut options = Vec::new();
    for i in 0..heaps.len() {
        for take in 1..=heaps[i] {
            let mut next = heaps.clone();
            next[i] -= take;
            options.push(nim_brute(next, memo));
        }
    }
    let v = if options.is_empty() {
        (true, 0, 0)
    } else {
        let p = !options.iter().any(|o| o.0);
        let g = (0..)
            .find(|g| !options.iter().any(|o| o.1 == *g))
            .unwrap_or(0);
        let even = options.iter().map(|o| o.2).filter(|r| r % 2 == 0).min();
        let r = match even {
            Some(e) => e + 1,
            None => options.iter().map(|o| o.2).max().unwrap_or(0) + 1,
        };
        (p, g, r)
    };
    memo.insert(key, v);
    v
}

#[test]
fn nim_sums_of_three_heaps() {
    let mut memo = HashMap::new();
    for explicit in [false, true] {
        let mut s = session(explicit);
        let file = load(&mut s, "nim.game", NIM);
        for a in 0..=5u64 {
            for b in 0..=5u64 {
                for c in 0..=5u64 {
                    let (p, g, r) = nim_brute(vec![a, b, c], &mut memo);
                    assert_eq!(
                        g,
                        a ^ b ^ c,
                        "the brute force contradicts Bouton at {a}, {b}, {c}"
                    );
                    assert_eq!(p, g == 0);
                    let x = format!("Nim({a}) + Nim({b}) + Nim({c})");
                    let outcome = if p { "P" } else { "N" };
                    assert_eq!(
                        eval(&mut s, file, &format!("outcome({x})")),
                        Ok(outcome.to_string()),
                        "{x}, explicit: {explicit}"
                    );
                    assert_eq!(
                        eval(&mut s, file, &format!("grundy({x})")),
                        Ok(g.to_string()),
                        "{x}, explicit: {explicit}"
                    );
                    assert_eq!(
                        eval(&mut s, file, &format!("remoteness({x})")),
                        Ok(r.to_string()),
                        "{x}, explicit: {explicit}"
                    );
                }
            }
        }
    }
}

#[test]
fn misere_nim_rule() {
    for explicit in [false, true] {
        let mut s = session(explicit);
        let file = load(&mut s, "nim.game", NIM);
        for count in 1..=3usize {
            let mut heaps = vec![0u64; count];
            loop {
                let small = heaps.iter().all(|h| *h <= 1);
                let p = if small {
                    heaps.iter().filter(|h| **h == 1).count() % 2 == 1
                } else {
                    heaps.iter().fold(0, |a, h| a ^ h) == 0
                };
                let expected = Ok(if p { "P" } else { "N" }.to_string());
                let parts = |game: &str| {
                    heaps
                        .iter()
                        .map(|h| format!("{game}({h})"))
                        .collect::<Vec<_>>()
                        .join(" + ")
                };
                for text in [
                    format!("outcome(misere({}))", parts("Nim")),
                    format!("outcome({})", parts("MNim")),
                ] {
                    assert_eq!(
                        eval(&mut s, file, &text),
                        expected,
                        "{text}, explicit: {explicit}"
                    );
                }
                // Remoteness is even iff P under misère play too.
                let r = eval(
                    &mut s,
                    file,
                    &format!("remoteness(misere({}))", parts("Nim")),
                );
                let r: u64 = r
                    .expect("misère Nim has a remoteness")
                    .parse()
                    .expect("an integer");
                assert_eq!(
                    r.is_multiple_of(2),
                    p,
                    "remoteness parity of misère {heaps:?}"
                );
                // Next heap configuration (odometer over 0..=4).
                let mut i = 0;
                while i < count && heaps[i] == 4 {
                    heaps[i] = 0;
                    i += 1;
                }
                if i == count {
                    break;
                }
                heaps[i] += 1;
            }
        }
    }
}

/// A chain a million moves long, analysed by the library on a thread with the default 2 MiB
/// stack (not the CLI's big one): the analyses must not recurse over the game graph.
#[test]
fn million_move_chain_on_a_small_stack() {
    let worker = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let mut s = session(false);
            let file = load(&mut s, "nim.game", NIM);
            let outcome = eval(&mut s, file, "outcome(Chain(1000000))");
            let rem = eval(&mut s, file, "remoteness(Chain(1000000))");
            let grundy = eval(&mut s, file, "grundy(Chain(1000000))");
            let conj = eval(&mut s, file, "remoteness(Chain(1000000) & Chain(999999))");
            (outcome, rem, grundy, conj)
        })
        .expect("spawn a thread");
    let (outcome, rem, grundy, conj) = worker.join().expect("the analysis does not crash");
    assert_eq!(outcome, Ok("P".to_string()));
    assert_eq!(rem, Ok("1000000".to_string()));
    assert_eq!(grundy, Ok("0".to_string()));
    assert_eq!(conj, Ok("999999".to_string()));
}

fn limited(max_positions: usize, explicit: bool) -> Session {
    Session::new(SessionConfig {
        graph: GraphConfig {
            max_positions,
            explicit,
            ..GraphConfig::default()
        },
        ..SessionConfig::default()
    })
}

#[test]
fn position_limit_is_an_error_not_a_crash() {
    let mut s = limited(200, false);
    let file = load(&mut s, "nim.game", NIM);
    assert_eq!(
        eval(&mut s, file, "outcome(Chain(150))"),
        Ok("P".to_string())
    );
    // Too many positions: an error, and the session goes on with what it already has.
    assert_eq!(
        eval(&mut s, file, "outcome(Chain(1000))"),
        Err("cgl::graph::too_many_positions".to_string())
    );
    assert_eq!(
        eval(&mut s, file, "outcome(Chain(150))"),
        Ok("P".to_string())
    );
    assert_eq!(
        eval(&mut s, file, "remoteness(Chain(149))"),
        Ok("149".to_string())
    );
    // A product too large for the limit, under the theorems and explicitly.
    for explicit in [false, true] {
        let mut s = limited(1000, explicit);
        let file = load(&mut s, "nim.game", NIM);
        assert_eq!(
            eval(&mut s, file, "outcome(Nim(3) + Nim(5))"),
            Ok("N".to_string())
        );
        assert_eq!(
            eval(&mut s, file, "grundy(Nim(40) & Nim(40))"),
            Err("cgl::graph::too_many_positions".to_string())
        );
        assert_eq!(
            eval(&mut s, file, "outcome(misere(Nim(50) + Nim(50)))"),
            Err("cgl::graph::too_many_positions".to_string())
        );
        // What was solved before stays usable.
        assert_eq!(
            eval(&mut s, file, "outcome(Nim(3) + Nim(5))"),
            Ok("N".to_string())
        );
    }
    // The position count is what the limit bounds.
    let mut s = limited(50, false);
    let file = load(&mut s, "nim.game", NIM);
    assert_eq!(
        eval(&mut s, file, "outcome(Chain(40))"),
        Ok("P".to_string())
    );
    assert!(s.graph().len() <= 50);
    assert!(eval(&mut s, file, "outcome(Chain(60))").is_err());
    assert!(
        s.graph().len() <= 50,
        "the graph holds {} terms",
        s.graph().len()
    );
}

#[test]
fn cli_max_positions_is_an_error_not_a_crash() {
    let dir = std::env::temp_dir().join(format!("cgl-props-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let file = dir.join("chain.game");
    std::fs::write(&file, NIM).expect("write the game");
    let path = file.to_string_lossy().into_owned();
    let (code, out, err) = crate::common::cgl(&[
        "eval",
        "-f",
        &path,
        "--max-positions",
        "100",
        "outcome(Chain(1000))",
    ]);
    assert_eq!(code, 1, "stdout: {out}\nstderr: {err}");
    assert!(err.contains("more than 100 positions"), "stderr: {err}");
    let (code, out, err) = crate::common::cgl(&[
        "eval",
        "-f",
        &path,
        "--max-positions",
        "2000",
        "outcome(Chain(1000))",
    ]);
    assert_eq!((code, out.trim()), (0, "P"), "stderr: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ------------------------------------------------------------------ regressions
//
// Cases where cgl disagrees with the definitions. These fail until the engine is fixed.

/// A conjunctive compound ends as soon as one part ends, so a draw that one part could reach
/// on its own may be unreachable in the compound. `Fuse(5) & Nim(1)` has one move, to
/// `Nim(0) & Fuse(4)`, which is over (P, not a draw): Grundy value 1. cgl refuses with
/// `grundy_draw`, because its draw check looks into the parts of a compound rather than at
/// the compound's own moves (`Draws`, analysis/impartial.rs). Found by
/// `grundy_agrees_with_brute_force`.
#[test]
fn regression_grundy_where_only_a_part_of_a_conjunctive_compound_reaches_a_draw() {
    let source = "
game Nim { position n  move n - k for k in 1..=n }
game Fuse { position n  move n - 1 if n > 0  draw if n == 0 }
";
    for explicit in [false, true] {
        let mut s = session(explicit);
        let file = load(&mut s, "fuse.game", source);
        // What cgl already gets right: no draw is reachable.
        assert_eq!(eval(&mut s, file, "outcome(Fuse(5) & Nim(1))"), ok("N"));
        assert_eq!(
            eval(&mut s, file, "moves(Fuse(5) & Nim(1))"),
            // Nim is declared first, so its part comes first (spec/language.md §5).
            ok("[Nim(0) & Fuse(4)]")
        );
        assert_eq!(eval(&mut s, file, "outcome(Fuse(5) & Nim(0))"), ok("P"));
        // So the Grundy values exist.
        assert_eq!(
            eval(&mut s, file, "grundy(Fuse(5) & Nim(0))"),
            ok(0),
            "explicit: {explicit}"
        );
        assert_eq!(
            eval(&mut s, file, "grundy(Fuse(5) & Nim(1))"),
            ok(1),
            "explicit: {explicit}"
        );
        assert_eq!(
            eval(&mut s, file, "grundy((Fuse(5) & Nim(1)) + Nim(1))"),
            ok(0),
            "explicit: {explicit}"
        );
        // A draw that is reachable stays an error.
        assert_eq!(
            eval(&mut s, file, "grundy(Fuse(5) & Nim(5))"),
            err("cgl::analysis::grundy_draw")
        );
    }
}

/// `move split(p, q)` makes a compound in the game's `compound` mode (language notes), also
/// when the parts are written as positions (`split(C(n - 1), C(n - 1))`, `split(Nim(2),
/// Nim(2))`) rather than as position data. cgl builds a disjunctive sum whenever every part
/// is a position value (eval::interp, `Builtin::Split`), so `C(1)` below moves to
/// `Nim(2) + Nim(2)` (P) instead of `Nim(2) & Nim(2)` (N), and comes out N instead of P.
#[test]
fn regression_split_of_positions_is_played_in_the_game_mode() {
    let source = "
game Nim { position n  move n - k for k in 1..=n }
game C { position n  compound conjunctive  move split(Nim(2), Nim(2)) if n == 1 }
game K(mode = conjunctive) { position n  compound mode  move split(K[mode = mode](n - 1), K[mode = mode](n - 1)) if n > 0 }
game Lc(mode = conjunctive) { position n  compound mode  move split(n - 1, n - 1) if n > 0 }
";
    for explicit in [false, true] {
        let mut s = session(explicit);
        let file = load(&mut s, "split.game", source);
        assert_eq!(eval(&mut s, file, "outcome(Nim(2) & Nim(2))"), ok("N"));
        assert_eq!(eval(&mut s, file, "moves(Lc(2))"), ok("[Lc(1) & Lc(1)]"));
        // Lc(3) -> Lc(2) & Lc(2) (remoteness min(2, 2) = 2) -> remoteness 3.
        assert_eq!(eval(&mut s, file, "remoteness(Lc(3))"), ok(3));
        assert_eq!(
            eval(&mut s, file, "moves(C(1))"),
            ok("[Nim(2) & Nim(2)]"),
            "explicit: {explicit}"
        );
        assert_eq!(
            eval(&mut s, file, "outcome(C(1))"),
            ok("P"),
            "explicit: {explicit}"
        );
        assert_eq!(
            eval(&mut s, file, "moves(K(2))"),
            ok("[K(1) & K(1)]"),
            "explicit: {explicit}"
        );
        // K and Lc are the same game, written two ways.
        for mode in ["disjunctive", "conjunctive", "selective"] {
            for n in 0..=4 {
                for analysis in ["outcome", "remoteness"] {
                    let k = eval(&mut s, file, &format!("{analysis}(K[mode = {mode}]({n}))"));
                    let l = eval(&mut s, file, &format!("{analysis}(Lc[mode = {mode}]({n}))"));
                    assert_eq!(
                        k, l,
                        "{analysis} of K and Lc[mode = {mode}]({n}), explicit: {explicit}"
                    );
                }
            }
        }
    }
}

/// The language notes: "the empty game prints as `split()`". cgl prints `normal(split())`
/// (a position with no games in it is never "natural" in `write_position`).
#[test]
fn regression_the_empty_game_prints_as_split() {
    let mut s = session(false);
    let file = load(
        &mut s,
        "empty.game",
        "game E { position n  move split() if n == 1 }",
    );
    assert_eq!(eval(&mut s, file, "outcome(E(1))"), ok("N"));
    assert_eq!(eval(&mut s, file, "moves(E(1))"), ok("[split()]"));
}

// ------------------------------------------------------------------ the stack

/// Evaluation (not the analyses) recurses over user functions, bounded by
/// `Limits::max_call_depth` (2000). On a 2 MiB stack the library overflows (the process
/// aborts) at a depth of about 700, before the limit; the CLI runs in a 512 MiB thread. So a
/// library user needs a big stack for deep recursion: 16 MiB is enough for the limit.
#[test]
fn call_depth_limit_is_an_error_on_a_big_enough_stack() {
    let worker = std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(|| {
            let mut s = session(false);
            let file = load(
                &mut s,
                "f.game",
                "fn f(n) = if n == 0 then 0 else 1 + f(n - 1)",
            );
            (eval(&mut s, file, "f(1999)"), eval(&mut s, file, "f(5000)"))
        })
        .expect("spawn a thread");
    let (deep, too_deep) = worker.join().expect("no stack overflow");
    assert_eq!(deep, ok(1999));
    assert_eq!(too_deep, err("cgl::eval::recursion"));
}
