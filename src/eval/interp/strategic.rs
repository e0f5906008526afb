//! Strategic-form games: building a game's payoff table from its declaration, and the
//! built-ins that analyse it (the algorithms are `crate::strategic`'s).

// The interpreter's types, helpers and imports (`mod.rs`): these files are parts of one
// `impl Interp`, split by job.
use super::*;
use crate::lower::ir::StrategicPayoff;
use crate::num::Rational;
use crate::strategic::{self, Dominance, Dominator, Mixed, StrategicError, Q};

/// The most profiles a strategic game's table may have.
pub const MAX_PROFILES: usize = 1_000_000;

fn strategic_error(span: Span, message: String, label: &str, help: &str) -> Box<Diag> {
    Box::new(
        Diag::error(Code::EvalStrategic, message)
            .label(span, label.to_string())
            .help(help.to_string()),
    )
}

/// The bytes a payoff table of `profiles` profiles takes: a payoff per player and profile,
/// and the strategies' values.
fn table_bytes(profiles: usize, strategies: &[Vec<Value>]) -> usize {
    let payoffs = profiles
        .saturating_mul(strategies.len())
        .saturating_mul(std::mem::size_of::<Rational>());
    let values: usize = strategies
        .iter()
        .flatten()
        .map(|v| std::mem::size_of::<Value>().saturating_add(v.heap_bytes()))
        .fold(0, usize::saturating_add);
    payoffs.saturating_add(values)
}

/// The payoff table of `game` (`bytes` for its `profiles` profiles) would take the tables
/// over `--max-memory` (`most`), with `held` taken by those built before.
fn too_much_memory(
    game: &crate::lower::ir::Game,
    profiles: usize,
    bytes: usize,
    held: usize,
    most: usize,
) -> Box<Diag> {
    let kib = |b: usize| b.div_ceil(1 << 10);
    let before = if held > 0 {
        format!(", after {} KiB of tables built before", kib(held))
    } else {
        String::new()
    };
    Box::new(
        Diag::error(
            Code::GraphTooMuchMemory,
            format!(
                "the payoff tables of strategic games would take more than {} MiB (`{}`'s: {profiles} profiles, {} KiB{before})",
                most >> 20,
                game.name,
                kib(bytes),
            ),
        )
        .label(game.span, "this game's payoff table")
        .help("use fewer strategies (or fewer instances of the game), or allow more memory with --max-memory (MiB)"),
    )
}

impl<'a> Interp<'a> {
    /// The payoff table of the strategic game `v`, built on first use.
    pub fn strategic_table(
        &mut self,
        v: &Value,
        span: Span,
        what: &str,
    ) -> DiagResult<Rc<StrategicTable>> {
        let inst = match v {
            Value::Game(inst)
                if self.world.program.games[self.world.games.info(inst.id()).game.0 as usize]
                    .strategic
                    .is_some() =>
            {
                inst.id()
            }
            other => {
                return Err(type_error(
                    span,
                    format!("{what} needs a strategic game, but this is {} ({})", other.a_type_name(), self.show(other)),
                    "declare one with `player` clauses and a `payoff` or `table` clause (spec/language.md §8, *Strategic-form games*)",
                ))
            }
        };
        if let Some(t) = self.world.games.strategic.get(&inst) {
            return Ok(t.clone());
        }
        let table = Rc::new(self.build_table(inst)?);
        self.world.games.strategic.insert(inst, table.clone());
        Ok(table)
    }

    fn build_table(&mut self, inst: InstanceId) -> DiagResult<StrategicTable> {
        let program = self.world.program;
        let info = self.world.games.info(inst);
        let game = &program.games[info.game.0 as usize];
        let Some(def) = &game.strategic else {
            return Err(Box::new(Diag::internal(
                "a payoff table of a game of moves",
            )));
        };
        let mut frame = vec![Value::None; game.frame_size];
        for (slot, p) in frame.iter_mut().zip(info.params.iter()) {
            *slot = p.clone();
        }
        let mut strategies = Vec::new();
        for (name, expr, _) in &def.players {
            let value = self.eval(expr, &mut frame)?;
            let items = self.collect(&value, expr.span)?;
            if items.is_empty() {
                return Err(strategic_error(
                    expr.span,
                    format!("player `{name}` has no strategies"),
                    "this is empty",
                    "give every player at least one strategy",
                ));
            }
            let mut seen = std::collections::BTreeSet::new();
            for item in &items {
                if !seen.insert(item.clone()) {
                    return Err(strategic_error(
                        expr.span,
                        format!("player `{name}` has the strategy {} twice", self.show(item)),
                        "strategies must differ",
                        "a strategy is named by its value; remove the repeat",
                    ));
                }
            }
            strategies.push(items);
        }
        let counts: Vec<usize> = strategies.iter().map(Vec::len).collect();
        let n = counts.len();
        let profiles = counts
            .iter()
            .try_fold(1usize, |acc, &c| acc.checked_mul(c))
            .filter(|&p| p <= MAX_PROFILES);
        let Some(profiles) = profiles else {
            return Err(strategic_error(
                game.span,
                format!(
                    "the strategic game `{}` has more than {MAX_PROFILES} profiles",
                    game.name
                ),
                "this game",
                "use fewer strategies",
            ));
        };
        let bytes = table_bytes(profiles, &strategies);
        let held = self.world.games.strategic_bytes;
        if let Some(most) = self.world.games.max_table_bytes {
            if held.saturating_add(bytes) > most {
                return Err(too_much_memory(game, profiles, bytes, held, most));
            }
        }
        let mut payoffs = Vec::with_capacity(profiles * n);
        match &def.payoff {
            StrategicPayoff::Function(expr) => {
                let base = game.params.len();
                let mut profile = vec![0usize; n];
                for index in 0..profiles {
                    if index % 1024 == 1023 {
                        self.world.stop.check()?;
                    }
                    let mut rest = index;
                    for i in (0..n).rev() {
                        profile[i] = rest % counts[i];
                        rest /= counts[i];
                        frame[base + i] = strategies[i][profile[i]].clone();
                    }
                    let value = self.eval(expr, &mut frame)?;
                    self.payoff_cell(&value, n, expr.span, &mut payoffs, &|| {
                        let shown: Vec<String> = (0..n)
                            .map(|i| display_short(&strategies[i][profile[i]], &*self.world.games))
                            .collect();
                        format!("at ({})", shown.join(", "))
                    })?;
                }
            }
            StrategicPayoff::Table(expr) => {
                let value = self.eval(expr, &mut frame)?;
                // Walk the nested lists: one level per player.
                let mut stack: Vec<(Value, usize)> = vec![(value, 0)];
                while let Some((v, depth)) = stack.pop() {
                    if depth == n {
                        self.payoff_cell(&v, n, expr.span, &mut payoffs, &|| {
                            "in the table".to_string()
                        })?;
                        continue;
                    }
                    let items = match &v {
                        Value::List(items) | Value::Tuple(items) if items.len() == counts[depth] => items.clone(),
                        other => {
                            return Err(strategic_error(
                                expr.span,
                                format!(
                                    "the table needs {} {} at level {} (one per strategy of `{}`), but found {}",
                                    counts[depth],
                                    if depth == n - 1 { "payoff cells" } else { "rows" },
                                    depth + 1,
                                    def.players[depth].0,
                                    self.show(other)
                                ),
                                "this table",
                                "nest one list per player, in order: rows for the first player, each a list of cells for the second; a cell is a tuple of every player's payoff",
                            ))
                        }
                    };
                    for item in items.iter().rev() {
                        stack.push((item.clone(), depth + 1));
                    }
                }
            }
        }
        let names = def.players.iter().map(|(name, ..)| name.clone()).collect();
        let Some(table) = strategic::Game::new(names, counts, payoffs) else {
            return Err(Box::new(Diag::internal("a payoff table of the wrong size")));
        };
        self.world.games.strategic_bytes = held + bytes;
        Ok(StrategicTable {
            game: table,
            strategies,
        })
    }

    /// Appends one profile's payoffs (a tuple of `n` numbers, or one number for one player).
    fn payoff_cell(
        &self,
        v: &Value,
        n: usize,
        span: Span,
        out: &mut Vec<Rational>,
        at: &dyn Fn() -> String,
    ) -> DiagResult<()> {
        let items: Vec<Value> = match v {
            Value::Tuple(items) | Value::List(items) => items.to_vec(),
            single if n == 1 => vec![single.clone()],
            other => vec![other.clone()],
        };
        if items.len() != n {
            return Err(strategic_error(
                span,
                format!(
                    "a payoff cell needs {n} numbers, one per player, but this is {} {}",
                    self.show(v),
                    at()
                ),
                "these payoffs",
                "give a tuple of every player's payoff, in the order of the `player` clauses",
            ));
        }
        for item in items {
            out.push(match item {
                Value::Int(i) => Rational::int(i),
                Value::Rational(r) => r,
                Value::Wide(_) => {
                    return Err(strategic_error(
                        span,
                        format!(
                            "a payoff must be a 64-bit fraction, but this is {} {}",
                            self.show(&item),
                            at()
                        ),
                        "these payoffs",
                        "scale the payoffs: a positive factor or a shift changes no equilibrium",
                    ))
                }
                other => {
                    return Err(strategic_error(
                        span,
                        format!(
                            "a payoff must be a number, but this is {} {}",
                            self.show(&other),
                            at()
                        ),
                        "these payoffs",
                        "payoffs are integers or fractions",
                    ))
                }
            });
        }
        Ok(())
    }

    /// The strategic-form built-ins.
    pub(super) fn strategic_builtin(
        &mut self,
        b: Builtin,
        args: &[Value],
        exprs: &[Expr],
        span: Span,
    ) -> DiagResult<Value> {
        let arg_span = |i: usize| exprs.get(i).map_or(span, |e| e.span);
        let what = format!("`{}`", b.name());
        let table = self.strategic_table(&args[0], arg_span(0), &what)?;
        let g = &table.game;
        let stop = self.world.stop;
        let stopped = || stop.check().is_err();
        let fail =
            |this: &Self, e: StrategicError| this.strategic_refusal(e, b, &table, arg_span(0));
        let strategy = |player: usize, s: usize| table.strategies[player][s].clone();
        let profile = |p: &[usize]| {
            Value::tuple(p.iter().enumerate().map(|(i, &s)| strategy(i, s)).collect())
        };
        let per_player = |lists: Vec<Vec<usize>>| {
            Value::tuple(
                lists
                    .into_iter()
                    .enumerate()
                    .map(|(i, l)| Value::list(l.into_iter().map(|s| strategy(i, s)).collect()))
                    .collect(),
            )
        };
        Ok(match b {
            Builtin::Players => Value::list(
                g.players
                    .iter()
                    .map(|p| Value::Str(Rc::from(p.as_str())))
                    .collect(),
            ),
            Builtin::Strategies => Value::tuple(
                table
                    .strategies
                    .iter()
                    .map(|s| Value::list(s.clone()))
                    .collect(),
            ),
            Builtin::PureNash => {
                let found = g.pure_equilibria(&stopped).map_err(|e| fail(self, e))?;
                Value::list(found.iter().map(|p| profile(p)).collect())
            }
            Builtin::ParetoOptimal => {
                let found = g.pareto_optimal(&stopped).map_err(|e| fail(self, e))?;
                Value::list(found.iter().map(|p| profile(p)).collect())
            }
            Builtin::Nfg => {
                let labels: Vec<Vec<String>> = table
                    .strategies
                    .iter()
                    .map(|s| {
                        s.iter()
                            .map(|v| match v {
                                Value::Str(text) => text.to_string(),
                                other => self.show(other),
                            })
                            .collect()
                    })
                    .collect();
                let title = self.show(&args[0]);
                Value::Str(Rc::from(strategic::nfg::write(g, &title, &labels)))
            }
            Builtin::StrictlyDominated | Builtin::WeaklyDominated => {
                let found = g
                    .dominated(
                        b == Builtin::StrictlyDominated,
                        &g.all_strategies(),
                        &stopped,
                    )
                    .map_err(|e| fail(self, e))?;
                per_player(
                    found
                        .into_iter()
                        .map(|l| l.into_iter().map(|(s, _)| s).collect())
                        .collect(),
                )
            }
            Builtin::MixedDominated => {
                let found = g
                    .mixed_dominated(&g.all_strategies(), &stopped)
                    .map_err(|e| fail(self, e))?;
                let mut players = Vec::new();
                for (i, list) in found.into_iter().enumerate() {
                    let mut items = Vec::new();
                    for (s, mixture) in list {
                        items.push(Value::tuple(vec![
                            strategy(i, s),
                            mixed_value(&mixture, span)?,
                        ]));
                    }
                    players.push(Value::list(items));
                }
                Value::tuple(players)
            }
            Builtin::IteratedElimination => {
                let kind = match args.get(1) {
                    None => Dominance::Strict,
                    Some(Value::Str(k)) if &**k == "strict" => Dominance::Strict,
                    Some(Value::Str(k)) if &**k == "weak" => Dominance::Weak,
                    Some(Value::Str(k)) if &**k == "mixed" => Dominance::Mixed,
                    Some(other) => {
                        return Err(Box::new(
                            Diag::error(Code::EvalDomain, format!("`iterated_elimination` eliminates by \"strict\", \"weak\" or \"mixed\" dominance, not {}", self.show(other)))
                                .label(arg_span(1), "this kind")
                                .help("\"strict\" (the default): strictly dominated by a pure strategy; \"weak\": weakly dominated by a pure strategy; \"mixed\": strictly dominated by a mixture of the player's other strategies"),
                        ))
                    }
                };
                let (steps, alive) = g
                    .iterated_elimination(kind, &stopped)
                    .map_err(|e| fail(self, e))?;
                let mut shown = Vec::new();
                for (i, s, by) in steps {
                    let by = match by {
                        Dominator::Pure(t) => strategy(i, t),
                        Dominator::Mixture(m) => mixed_value(&m, span)?,
                    };
                    shown.push(Value::tuple(vec![
                        Value::Str(Rc::from(g.players[i].as_str())),
                        strategy(i, s),
                        by,
                    ]));
                }
                Value::tuple(vec![Value::list(shown), per_player(alive)])
            }
            Builtin::VertexEnumeration => {
                let found = g
                    .vertex_enumeration(strategic::MAX_VERTEX_BASES, &stopped)
                    .map_err(|e| fail(self, e))?;
                equilibria_value(&found.equilibria, span)?
            }
            Builtin::EquilibriumComponents => {
                let found = g
                    .vertex_enumeration(strategic::MAX_VERTEX_BASES, &stopped)
                    .map_err(|e| fail(self, e))?;
                let mut out = Vec::new();
                for component in &found.components {
                    let members: Vec<_> = component
                        .iter()
                        .map(|&k| found.equilibria[k].clone())
                        .collect();
                    out.push(equilibria_value(&members, span)?);
                }
                Value::list(out)
            }
            Builtin::BestResponses => {
                let mixed = self.mixed_profile(&table, &args[1], arg_span(1))?;
                per_player(g.best_responses_mixed(&mixed))
            }
            Builtin::ExpectedPayoff => {
                let mixed = self.mixed_profile(&table, &args[1], arg_span(1))?;
                let pay = g.expected_payoffs(&mixed);
                Value::tuple(
                    pay.iter()
                        .map(|x| number(x, span))
                        .collect::<DiagResult<_>>()?,
                )
            }
            Builtin::MinimaxValue | Builtin::MinimaxStrategies => {
                let solution = g.solve_zero_sum(&stopped).map_err(|e| fail(self, e))?;
                if b == Builtin::MinimaxValue {
                    number(&solution.value, span)?
                } else {
                    Value::tuple(vec![
                        mixed_value(&solution.row, span)?,
                        mixed_value(&solution.column, span)?,
                    ])
                }
            }
            Builtin::Equilibria => equilibria_value(
                &g.support_enumeration(&stopped).map_err(|e| fail(self, e))?,
                span,
            )?,
            Builtin::LemkeHowson => {
                equilibria_value(&g.lemke_howson(&stopped).map_err(|e| fail(self, e))?, span)?
            }
            Builtin::Nash => {
                let found = g.nash(&stopped).map_err(|e| fail(self, e))?;
                Value::tuple(vec![
                    Value::Str(Rc::from(found.method.name())),
                    Value::Bool(found.method != strategic::NashMethod::LemkeHowson),
                    equilibria_value(&found.equilibria, span)?,
                ])
            }
            _ => {
                return Err(Box::new(Diag::internal(
                    "a built-in dispatched as strategic",
                )))
            }
        })
    }

    /// A profile argument: per player, one of its strategies (pure) or a list of
    /// probabilities, one per strategy, summing to 1.
    fn mixed_profile(
        &self,
        table: &StrategicTable,
        v: &Value,
        span: Span,
    ) -> DiagResult<Vec<Mixed>> {
        let g = &table.game;
        let bad = |message: String| {
            Box::new(
                Diag::error(Code::EvalProfile, message)
                    .label(span, "this profile")
                    .help(format!(
                        "give a tuple with one entry per player ({}): a strategy, or a list of probabilities, one per strategy, that sum to 1",
                        g.players.join(", ")
                    )),
            )
        };
        let entries = match v {
            Value::Tuple(items) | Value::List(items) if items.len() == g.n() => items.clone(),
            other => {
                return Err(bad(format!(
                    "a profile of {} players needs {} entries, but this is {}",
                    g.n(),
                    g.n(),
                    self.show(other)
                )))
            }
        };
        let mut out = Vec::new();
        for (i, entry) in entries.iter().enumerate() {
            let count = g.counts[i];
            if let Some(s) = table.strategies[i].iter().position(|x| x == entry) {
                let mut m = vec![Q::from_integer(0.into()); count];
                m[s] = Q::from_integer(1.into());
                out.push(m);
                continue;
            }
            let probabilities = match entry {
                Value::List(items) if items.len() == count => items
                    .iter()
                    .map(|x| match x {
                        Value::Int(n) => Some(strategic::q(Rational::int(*n))),
                        Value::Rational(r) => Some(strategic::q(*r)),
                        Value::Wide(q) => Some((**q).clone()),
                        _ => None,
                    })
                    .collect::<Option<Vec<Q>>>(),
                _ => None,
            };
            let Some(m) = probabilities else {
                return Err(bad(format!(
                    "{} is neither a strategy of `{}` nor a list of {count} probabilities",
                    self.show(entry),
                    g.players[i]
                )));
            };
            let total: Q = m.iter().sum();
            if m.iter().any(|p| *p < Q::from_integer(0.into()))
                || total != Q::from_integer(1.into())
            {
                return Err(bad(format!(
                    "the probabilities {} of `{}` are not a distribution (they sum to {total})",
                    self.show(entry),
                    g.players[i]
                )));
            }
            out.push(m);
        }
        Ok(out)
    }

    /// The diagnostic of an analysis that gave no answer.
    fn strategic_refusal(
        &self,
        e: StrategicError,
        b: Builtin,
        table: &StrategicTable,
        span: Span,
    ) -> Box<Diag> {
        let g = &table.game;
        let name = b.name();
        match e {
            StrategicError::NotTwoPlayers(n) => Box::new(
                Diag::error(Code::EvalTwoPlayers, format!("`{name}` is for games of two players, and this one has {n}"))
                    .label(span, "this game")
                    .help("for any number of players, `pure_nash` lists the pure equilibria, `best_responses` checks a profile, and the dominance analyses and `iterated_elimination` apply"),
            ),
            StrategicError::NotZeroSum(p) => {
                let shown: Vec<String> = p.iter().enumerate().map(|(i, &s)| self.show(&table.strategies[i][s])).collect();
                let pays: Vec<String> = g.payoffs(&p).iter().map(ToString::to_string).collect();
                Box::new(
                    Diag::error(Code::EvalNotZeroSum, format!("`{name}` needs a zero-sum game, but at ({}) the payoffs ({}) do not sum to 0", shown.join(", "), pays.join(", ")))
                        .label(span, "this game")
                        .help("for a general-sum game of two players, `nash` finds the equilibria (and says by which method)"),
                )
            }
            StrategicError::Degenerate { player, support } => {
                let shown: Vec<String> = support.iter().map(|&s| self.show(&table.strategies[player][s])).collect();
                let what = format!("a mix of `{}`'s strategies {{{}}} has more pure best responses than strategies", g.players[player], shown.join(", "));
                Box::new(
                    Diag::error(Code::EvalDegenerate, format!("`{name}` needs a nondegenerate game, and this one is degenerate: {what}"))
                        .label(span, "this game")
                        .note("the equilibria of a degenerate game may form a continuum, which support enumeration cannot list".to_string())
                        .help("`vertex_enumeration` lists every extreme equilibrium of any two-player game and `equilibrium_components` groups them into the connected components of the equilibria; `nash` runs vertex enumeration on a degenerate game, and Lemke–Howson where that is too large"),
                )
            }
            StrategicError::TooLarge(systems) => Box::new(
                Diag::error(Code::EvalSupportTooLarge, format!("support enumeration of a {}×{} game would solve {systems} linear systems, more than {}", g.counts[0], g.counts[1], strategic::MAX_SUPPORT_SYSTEMS))
                    .label(span, "this game")
                    .help("`vertex_enumeration` lists every extreme equilibrium of a larger game; `lemke_howson` finds some equilibria of any game fast (not necessarily all); `nash` runs the first, and the second where that is too large"),
            ),
            StrategicError::TooManyBases(budget) => Box::new(
                Diag::error(Code::EvalSupportTooLarge, format!("vertex enumeration of a {}×{} game met more than {budget} bases of a best-response polytope", g.counts[0], g.counts[1]))
                    .label(span, "this game")
                    .help("`lemke_howson` finds some equilibria of a large game fast (not necessarily all); `pure_nash` lists the pure ones"),
            ),
            StrategicError::LpTooLarge(cells) => Box::new(
                Diag::error(Code::EvalLpTooLarge, format!("the linear program for a dominating mixture would have {cells} entries (the player's other strategies times the others' profiles), more than {}", strategic::MAX_LP_CELLS))
                    .label(span, "this game")
                    .help("`strictly_dominated` and `weakly_dominated` look for a dominating pure strategy, which needs no linear program, and so do `iterated_elimination(G)` and `iterated_elimination(G, \"weak\")`"),
            ),
            StrategicError::TableauTooLarge(cells) => {
                let method = match b {
                    Builtin::LemkeHowson | Builtin::Nash => "Lemke–Howson's tableaux",
                    _ => "the simplex tableau",
                };
                Box::new(
                    Diag::error(Code::EvalLpTooLarge, format!("{method} of a {}×{} game would have {cells} entries, more than {}", g.counts[0], g.counts[1], strategic::MAX_TABLEAU_CELLS))
                        .label(span, "this game")
                        .help("`pure_nash` lists the pure equilibria of any game, and the dominance analyses and `iterated_elimination` may make the game small enough"),
                )
            }
            StrategicError::Stopped => match self.world.stop.check() {
                Err(d) => d,
                Ok(()) => Box::new(Diag::internal("a strategic analysis stopped without a reason")),
            },
            StrategicError::Internal(what) => Box::new(Diag::internal(what)),
        }
    }
}

/// The most characters of an exact answer a diagnostic quotes.
const QUOTED: usize = 400;

/// An exact number as a value, a fraction of any size; one the language cannot hold (an
/// integer past 64 bits, a fraction past the size limit) is an overflow whose note quotes it.
fn number(x: &Q, span: Span) -> DiagResult<Value> {
    Value::fraction(x.clone()).map_err(|_| {
        let mut exact = x.to_string();
        if exact.len() > QUOTED {
            exact.truncate(QUOTED);
            exact.push_str("...");
        }
        Box::new(
            Diag::error(
                Code::EvalOverflow,
                "an exact answer does not fit the language's numbers",
            )
            .label(span, "the result is too large for a value")
            .note(format!("exactly, it is {exact}"))
            .help("a value of the language is a 64-bit integer or a fraction of at most 2^20 bits; a game with smaller payoffs has answers that fit"),
        )
    })
}

fn mixed_value(m: &Mixed, span: Span) -> DiagResult<Value> {
    Ok(Value::list(
        m.iter()
            .map(|x| number(x, span))
            .collect::<DiagResult<_>>()?,
    ))
}

fn equilibria_value(found: &[(Mixed, Mixed)], span: Span) -> DiagResult<Value> {
    let mut out = Vec::new();
    for (x, y) in found {
        out.push(Value::tuple(vec![
            mixed_value(x, span)?,
            mixed_value(y, span)?,
        ]));
    }
    Ok(Value::list(out))
}
