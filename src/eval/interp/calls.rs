//! Built-in calls, and the analyses, which go to the host.

// The interpreter's types, helpers and imports (`mod.rs`): these files are parts of one
// `impl Interp`, split by job.
use super::*;
use crate::cgt::{misere, octal};
use crate::lower::builtins::Radix;

impl<'a> Interp<'a> {
    pub(super) fn analyse(
        &mut self,
        builtin: Builtin,
        arg: &Value,
        side: Option<crate::cgt::Side>,
        span: Span,
    ) -> DiagResult<Value> {
        let Value::Pos(position) = arg else {
            return Err(type_error(
                span,
                format!(
                    "`{}` needs a position, but this is {} ({})",
                    builtin.name(),
                    arg.a_type_name(),
                    self.show(arg)
                ),
                &crate::eval::position_help(
                    self.world.program,
                    self.world.games,
                    arg,
                    "make a position by calling a game: `Kayles(5)`",
                ),
            ));
        };
        let Some(host) = self.host.as_deref_mut() else {
            return Err(Box::new(
                Diag::error(Code::EvalAnalysisInRules, format!("`{}` cannot be used inside a game's rules", builtin.name()))
                    .label(span, "called while generating moves")
                    .help("rules must say what the moves are, not analyse positions; compute such values outside the game"),
            ));
        };
        let position = position.clone();
        host.analyse(&mut self.world, builtin, &position, side)
            .map_err(|mut d| {
                if d.labels.is_empty() {
                    d.labels.push(crate::diag::Label {
                        span,
                        message: "while analysing this".into(),
                    });
                }
                d
            })
    }

    pub(super) fn builtin(
        &mut self,
        b: Builtin,
        mut args: Vec<Value>,
        exprs: &[Expr],
        span: Span,
    ) -> DiagResult<Value> {
        let arg_span = |i: usize| exprs.get(i).map_or(span, |e| e.span);
        if let Builtin::GameValue(name) = b {
            let args: Vec<(Value, Span)> = args
                .into_iter()
                .enumerate()
                .map(|(i, v)| (v, arg_span(i)))
                .collect();
            return values::call(self.world.stop, name, &args, span);
        }
        // The outcome class of a game value is read off its form.
        if b == Builtin::Outcome && values::is_game_value(&args[0]) {
            return values::outcome(self.world.stop, &args[0], arg_span(0));
        }
        if b.is_analysis() {
            let side = match args.get(1) {
                None => None,
                Some(v) => Some(side_of(b, v, arg_span(1))?),
            };
            return self.analyse(b, &args[0], side, arg_span(0));
        }
        if b.is_strategic() {
            return self.strategic_builtin(b, &args, exprs, span);
        }
        let ints = |this: &Self, v: &Value, s: Span| -> DiagResult<Vec<u64>> {
            let mut out = Vec::new();
            for item in this.items(v, s)? {
                // The message is built only for the item that is not an integer.
                let n = match item {
                    Value::Int(n) => n,
                    other => int(&other, s, &format!("`{}`", b.name()))?,
                };
                out.push(u64::try_from(n).map_err(|_| {
                    type_error(
                        s,
                        format!("`{}` needs non-negative integers, but got {n}", b.name()),
                        "remove the negative numbers",
                    )
                })?);
            }
            Ok(out)
        };
        Ok(match b {
            Builtin::Mex => {
                let mex = builtins::mex(&ints(self, &args[0], arg_span(0))?);
                Value::Int(i64::try_from(mex).map_err(|_| overflow(span))?)
            }
            Builtin::Lego => match builtins::lego(ints(self, &args[0], arg_span(0))?) {
                Some(v) => Value::Int(v as i64),
                None => {
                    return Err(Box::new(
                        Diag::error(Code::EvalEmpty, "`lego` of an empty collection")
                            .label(arg_span(0), "this is empty")
                            .help("lego picks from the remoteness values of the options; a terminal position has none"),
                    ))
                }
            },
            Builtin::Len | Builtin::Count => {
                let v = &args[0];
                match v {
                    Value::Str(s) => Value::Int(arith::count(s.chars().count()).map_err(|_| overflow(span))?),
                    Value::Range(a, c) => Value::Int(arith::range_len(*a, *c).map_err(|_| range_too_long(*a, *c, arg_span(0)))?),
                    // The length of a sequence or set, without copying its items.
                    Value::List(items) | Value::Tuple(items) if b == Builtin::Len => Value::Int(arith::count(items.len()).map_err(|_| overflow(span))?),
                    Value::Set(items) if b == Builtin::Len => Value::Int(arith::count(items.len()).map_err(|_| overflow(span))?),
                    _ => {
                        let items = self.collect(v, arg_span(0))?;
                        if b == Builtin::Count && items.iter().all(|i| matches!(i, Value::Bool(_))) && !items.is_empty() {
                            Value::Int(arith::count(items.iter().filter(|i| **i == Value::Bool(true)).count()).map_err(|_| overflow(span))?)
                        } else {
                            Value::Int(arith::count(items.len()).map_err(|_| overflow(span))?)
                        }
                    }
                }
            }
            Builtin::Popcount => Value::Int(nonneg(&args[0], arg_span(0), "popcount")?.count_ones() as i64),
            Builtin::Bits => Value::Int(64 - nonneg(&args[0], arg_span(0), "bits")?.leading_zeros() as i64),
            Builtin::Regions | Builtin::Normalize => {
                let what = format!("`{}`", b.name());
                let m = int(&args[0], arg_span(0), &what)?;
                let w = int(&args[1], arg_span(1), &what)?;
                let result = if b == Builtin::Regions {
                    grid::regions(m, w).map(|rs| Value::list(rs.into_iter().map(Value::Int).collect()))
                } else {
                    let mirrors = match args.get(2) {
                        Some(v) => int(v, arg_span(2), "`normalize`")?,
                        None => 0,
                    };
                    grid::normalize(m, w, mirrors).map(Value::Int)
                };
                match result {
                    Ok(v) => v,
                    Err(e) => return Err(grid_error(e, b.name(), [arg_span(0), arg_span(1), arg_span(2.min(args.len() - 1))])),
                }
            }
            Builtin::V2 => {
                // The help says what is valid: a positive number (`v2(0)` is an error too).
                let n = int(&args[0], arg_span(0), "`v2`")?;
                if n < 0 {
                    return Err(type_error(
                        arg_span(0),
                        format!("`v2` needs a positive integer, but got {n}"),
                        "v2(n) is the exponent of 2 in n, for n >= 1: `v2(12) == 2`",
                    ));
                }
                if n == 0 {
                    return Err(Box::new(
                        Diag::error(Code::EvalDomain, "`v2(0)` is undefined")
                            .label(arg_span(0), "this is 0")
                            .help("every power of two divides 0; v2(n) needs n >= 1: `v2(12) == 2`"),
                    ));
                }
                Value::Int(i64::from(n.trailing_zeros()))
            }
            Builtin::Gcd => {
                let (mut x, mut y) = (int(&args[0], arg_span(0), "gcd")?.unsigned_abs(), int(&args[1], arg_span(1), "gcd")?.unsigned_abs());
                while y != 0 {
                    (x, y) = (y, x % y);
                }
                Value::Int(i64::try_from(x).map_err(|_| overflow(span))?)
            }
            Builtin::Abs if matches!(args[0], Value::Rational(_) | Value::Wide(_)) => {
                fraction(num_traits::Signed::abs(&values::big(&args[0])), span)?
            }
            Builtin::Abs => Value::Int(arith::abs(int(&args[0], arg_span(0), "abs")?).map_err(|_| overflow(span))?),
            Builtin::Sorted => {
                let items = self.collect(&args[0], arg_span(0))?;
                // Integers and rationals are one kind here, as for `min` and `max`: numbers.
                let kind = |v: &Value| if values::is_number(v) { std::mem::discriminant(&Value::Int(0)) } else { std::mem::discriminant(v) };
                let first_type = items.first().map(kind);
                if items.iter().any(|v| Some(kind(v)) != first_type) {
                    return Err(type_error(arg_span(0), "`sorted` needs items of one type".to_string(), "sort numbers with numbers, strings with strings"));
                }
                let stop = self.world.stop;
                builtins::sorted(items, &mut || stop.check())?
            }
            Builtin::Reversed => {
                let mut items = self.collect(&args[0], arg_span(0))?;
                items.reverse();
                Value::list(items)
            }
            Builtin::List => Value::list(self.collect(&args[0], arg_span(0))?),
            Builtin::Chars => match &args[0] {
                // Unicode scalar values, as `len`, `s[i]` and `s[a..b]` count them.
                Value::Str(text) => {
                    self.sized(text.chars().count(), span, "list")?;
                    Value::list(text.chars().map(|c| Value::Str(c.to_string().into())).collect())
                }
                other => {
                    return Err(type_error(
                        arg_span(0),
                        format!("`chars` needs a string, but this is {}", other.a_type_name()),
                        "`str(x)` makes a string of any value: `chars(str(x))`",
                    ))
                }
            },
            Builtin::Enumerate => Value::list(
                self.items(&args[0], arg_span(0))?
                    .enumerate()
                    .map(|(i, v)| Value::tuple(vec![Value::Int(i as i64), v]))
                    .collect(),
            ),
            Builtin::Zip => {
                let xs = self.collect(&args[0], arg_span(0))?;
                let ys = self.collect(&args[1], arg_span(1))?;
                Value::list(xs.into_iter().zip(ys).map(|(x, y)| Value::tuple(vec![x, y])).collect())
            }
            Builtin::SetAt => {
                let i = int(&args[1], arg_span(1), "set")?;
                let value = args.pop().unwrap_or(Value::None);
                match &args[0] {
                    Value::List(items) | Value::Tuple(items) => {
                        let idx = usize::try_from(i).ok().filter(|i| *i < items.len()).ok_or_else(|| {
                            Box::new(
                                Diag::error(Code::EvalIndex, format!("index {i} is out of range"))
                                    .label(arg_span(1), format!("the list has {} items", items.len()))
                                    .help("indices run from 0 to len - 1"),
                            )
                        })?;
                        let mut new: Vec<Value> = items.to_vec();
                        new[idx] = value;
                        if matches!(args[0], Value::Tuple(_)) { Value::tuple(new) } else { Value::list(new) }
                    }
                    other => return Err(type_error(arg_span(0), format!("`set` needs a list, not {}", other.a_type_name()), "write `set(list, index, value)`")),
                }
            }
            Builtin::Min | Builtin::Max => {
                let items = if args.len() == 1 { self.collect(&args[0], arg_span(0))? } else { args };
                // Integers and rationals are one kind here: they compare as numbers.
                let kind = |v: &Value| if values::is_number(v) { std::mem::discriminant(&Value::Int(0)) } else { std::mem::discriminant(v) };
                let first_type = items.first().map(kind);
                if items.iter().any(|v| Some(kind(v)) != first_type) {
                    return Err(type_error(span, format!("`{}` needs items of one type", b.name()), "compare numbers with numbers"));
                }
                if items.iter().any(|v| matches!(v, Value::Form(_))) {
                    return Err(type_error(span, format!("`{}` of game values that are not numbers", b.name()), "game values are only partially ordered; compare them with `<=` or `confused`"));
                }
                let pick = if b == Builtin::Min { items.into_iter().min() } else { items.into_iter().max() };
                pick.ok_or_else(|| {
                    Box::new(
                        Diag::error(Code::EvalEmpty, format!("`{}` of an empty collection", b.name()))
                            .label(span, "nothing to choose from")
                            .help("check that the collection has items, e.g. with `len(xs) > 0`"),
                    )
                })?
            }
            Builtin::Sum => {
                // Exact: only a total that does not fit is an overflow. Integers add up in 128
                // bits and rationals in a big fraction, whatever their order; game values
                // that are not numbers are added to that total at the end, as `+` adds them.
                let mut ints = arith::Sum::default();
                let mut fractions: Option<crate::num::RationalSum> = None;
                let mut forms = Vec::new();
                for item in self.items(&args[0], arg_span(0))? {
                    match item {
                        Value::Int(n) => ints.add(n),
                        Value::Rational(r) => fractions.get_or_insert_with(Default::default).add(r),
                        Value::Wide(ref q) => fractions.get_or_insert_with(Default::default).add_big(q),
                        other if values::is_game_value(&other) => forms.push(other),
                        other => {
                            int(&other, arg_span(0), "sum")?;
                        }
                    }
                }
                let mut acc = match fractions {
                    None => Value::Int(ints.total().map_err(|_| overflow(span))?),
                    Some(mut fractions) => {
                        fractions.add_int(ints.wide());
                        fraction(fractions.exact(), span)?
                    }
                };
                for form in forms {
                    acc = self.apply_binary(BinaryOp::Add, acc, form, arg_span(0), arg_span(0), span)?;
                }
                acc
            }
            Builtin::Any | Builtin::All => {
                let want = b == Builtin::Any;
                let mut result = !want;
                for item in self.items(&args[0], arg_span(0))? {
                    if boolean(&item, arg_span(0), b.name())? == want {
                        result = want;
                        break;
                    }
                }
                Value::Bool(result)
            }
            Builtin::Str => Value::Str(match &args[0] {
                Value::Str(s) => s.clone(),
                other => {
                    let limit = usize::try_from(self.world.limits.max_collection).unwrap_or(usize::MAX);
                    let (text, cut) = display_bounded(other, &*self.world.games, limit);
                    if cut {
                        return Err(Box::new(
                            Diag::error(Code::EvalTooLarge, format!("the printed form of this value is longer than the limit of {limit} bytes"))
                                .label(arg_span(0), "this value")
                                .help("--max-items sets how many bytes a string may hold; make a string of a part of the value"),
                        ));
                    }
                    self.sized(text.len(), span, "string")?;
                    text.into()
                }
            }),
            Builtin::Join => return self.join_builtin(&args, [arg_span(0), arg_span(1)]),
            Builtin::Grid => return self.grid_builtin(&args, [arg_span(0), arg_span(1), arg_span(2)]),
            Builtin::Picture => return self.picture_builtin(&args[0], arg_span(0)),
            Builtin::Split => {
                let parts: Vec<Value> = match args.as_slice() {
                    [Value::List(items)] => items.to_vec(),
                    _ => args,
                };
                if self.host.is_none() {
                    // Inside a game's rules: the parts (data or positions) become a compound
                    // in the game's own mode, once the target is read (`target_term`).
                    Value::Split(Rc::from(parts))
                } else if parts.iter().all(|p| matches!(p, Value::Pos(_))) {
                    let positions: Vec<&Position> = parts.iter().filter_map(|p| match p {
                        Value::Pos(pos) => Some(&**pos),
                        _ => None,
                    }).collect();
                    let Some(convention) = joint_convention(&positions) else {
                        return Err(Box::new(
                            Diag::error(Code::EvalMixedConvention, "cannot combine a misère position with a normal-play one")
                                .label(span, "in this split")
                                .help("misère play applies to a whole game: write `misere(split(...))`"),
                        ));
                    };
                    let terms: Vec<PosTerm> = positions.iter().map(|p| p.term.clone()).collect();
                    let term = self.compound_term(CompoundKind::Disjunctive, terms, span)?;
                    Value::pos(term, convention)
                } else {
                    // Outside rules there is no game to give position data a meaning.
                    return Err(type_error(
                        span,
                        "`split` outside a game's rules takes positions, such as `split(Nim(1), Nim(2))`".to_string(),
                        "inside a `move` rule, parts may be position data of the game; elsewhere make positions by calling a game",
                    ));
                }
            }
            Builtin::Period if self.is_take_and_break(&args[0]) => {
                // A take-and-break game's period is proved, not observed.
                let code = self.octal_code(&args[0], arg_span(0))?;
                let p = self.proved_period(&code, octal::DEFAULT_PERIOD_HEAP, arg_span(0))?;
                Value::tuple(vec![Value::Int(p.preperiod as i64), Value::Int(p.period as i64)])
            }
            Builtin::Period => {
                let items = self.collect(&args[0], arg_span(0))?;
                let stop = &self.world.stop;
                match builtins::period_checked(&items, &mut || stop.check())? {
                    Some((pre, per)) => Value::tuple(vec![Value::Int(pre as i64), Value::Int(per as i64)]),
                    None => {
                        let mut diag = Diag::error(Code::EvalNoPeriod, format!("no period found in {} values", items.len()))
                            .label(arg_span(0), "this sequence")
                            .help("a period counts only when it repeats at least twice after the preperiod; compute more values");
                        // Values that grow by a fixed step each period (Lasker's Nim) have an
                        // arithmetic period instead: say so.
                        let ints: Option<Vec<i64>> = items.iter().map(|v| if let Value::Int(i) = v { Some(*i) } else { None }).collect();
                        if let Some(ints) = ints {
                            if let Some((pre, per, saltus)) = builtins::saltus_period_checked(&ints, &mut || stop.check())? {
                                diag = diag.note(format!(
                                    "the values are arithmetic-periodic: from index {pre} on, each value is the one {per} before plus {saltus} (`saltus_period` gives ({pre}, {per}, {saltus}))"
                                ));
                            }
                        }
                        return Err(Box::new(diag));
                    }
                }
            }
            Builtin::Inf => {
                let mut k = std::collections::BTreeSet::new();
                for (i, v) in args.iter().enumerate() {
                    let n = int(v, arg_span(i), "`inf`")?;
                    k.insert(u64::try_from(n).map_err(|_| {
                        Box::new(
                            Diag::error(Code::EvalDomain, format!("`inf` takes nimbers, 0 or more, not {n}"))
                                .label(arg_span(i), "this value")
                                .help("`inf(0, 1)` is the loopy value ∞ whose options' finite values are 0 and 1"),
                        )
                    })?);
                }
                Value::Infinite(std::rc::Rc::new(k))
            }
            Builtin::OctalPeriod => {
                let code = self.octal_code(&args[0], arg_span(0))?;
                let most = match args.get(1) {
                    Some(v) => self.octal_heap(v, arg_span(1), octal::MAX_PERIOD_HEAP)?,
                    None => octal::DEFAULT_PERIOD_HEAP,
                };
                let p = self.proved_period(&code, most, arg_span(0))?;
                Value::tuple(vec![Value::Int(p.preperiod as i64), Value::Int(p.period as i64), Value::Int(p.proved_at as i64)])
            }
            Builtin::TakeAndBreak(radix) => self.take_and_break(radix, &args[0], arg_span(0))?,
            Builtin::OctalMoves => {
                let code = self.octal_code(&args[0], arg_span(0))?;
                let n = self.octal_heap(&args[1], arg_span(1), octal::MAX_HEAP)?;
                let count = code.option_count(n);
                self.sized(count, span, "list")?;
                let heap = |k: &usize| Value::Int(*k as i64);
                let mut options = Vec::with_capacity(count);
                let stop = &self.world.stop;
                code.each_option(n, &mut |parts| {
                    // A heap of thousands split in three has millions of options.
                    if options.len() % (1 << 16) == 0 {
                        stop.check()?;
                    }
                    options.push(match parts {
                        [] => Value::Int(0),
                        [m] => heap(m),
                        _ => Value::Split(parts.iter().map(heap).collect()),
                    });
                    Ok::<(), Box<Diag>>(())
                })?;
                Value::list(options)
            }
            Builtin::OctalValues => {
                let code = self.octal_code(&args[0], arg_span(0))?;
                let most = code.max_heap();
                let n = self.octal_heap(&args[1], arg_span(1), most)?;
                let stop = &self.world.stop;
                let values = code.values(n, &mut || stop.check())?;
                Value::list(values.into_iter().map(|v| Value::Int(i64::from(v))).collect())
            }
            Builtin::MisereQuotient => {
                let n = self.octal_heap(&args[1], arg_span(1), misere::MAX_HEAP)?;
                let q = self.misere_quotient(&args[0], n, arg_span(0))?;
                let word = |x: &u32| Value::Str(q.show(*x).into());
                Value::tuple(vec![
                    Value::Int(q.order() as i64),
                    Value::Str(q.presentation().into()),
                    Value::list(q.p_portion().iter().map(word).collect()),
                    Value::list(q.pretend.iter().map(word).collect()),
                ])
            }
            Builtin::MisereOutcome => {
                let mut heaps = Vec::new();
                for item in self.items(&args[1], arg_span(1))? {
                    heaps.push(self.octal_heap(&item, arg_span(1), misere::MAX_HEAP)?);
                }
                let n = heaps.iter().copied().max().unwrap_or(0);
                let q = self.misere_quotient(&args[0], n, arg_span(0))?;
                let x = q.element(&heaps).ok_or_else(|| Box::new(Diag::internal("a heap past its quotient")))?;
                Value::Outcome(if q.p[x as usize] { crate::value::Outcome::P } else { crate::value::Outcome::N })
            }
            Builtin::SaltusPeriod => {
                let mut xs = Vec::new();
                for item in self.items(&args[0], arg_span(0))? {
                    xs.push(int(&item, arg_span(0), "saltus_period")?);
                }
                let stop = &self.world.stop;
                match builtins::saltus_period_checked(&xs, &mut || stop.check())? {
                    Some((pre, per, saltus)) => {
                        Value::tuple(vec![Value::Int(pre as i64), Value::Int(per as i64), Value::Int(saltus)])
                    }
                    None => {
                        return Err(Box::new(
                            Diag::error(Code::EvalNoPeriod, format!("no arithmetic period found in {} values", xs.len()))
                                .label(arg_span(0), "this sequence")
                                .help("an arithmetic period counts only when its differences repeat over three periods, and ten values, after the preperiod; compute more values"),
                        ))
                    }
                }
            }
            Builtin::Misere | Builtin::Normal => match &args[0] {
                Value::Pos(p) => Value::pos(p.term.clone(), if b == Builtin::Misere { Convention::Misere } else { Convention::Normal }),
                other => return Err(type_error(arg_span(0), format!("`{}` needs a position, not {}", b.name(), other.a_type_name()), &crate::eval::position_help(self.world.program, self.world.games, other, "make a position by calling a game: `Nim(3)`"))),
            },
            Builtin::GameValue(_) | Builtin::Outcome | Builtin::Grundy | Builtin::Remoteness | Builtin::Moves | Builtin::WinningMoves | Builtin::Line
            | Builtin::Score | Builtin::OptimalMoves | Builtin::Reachable | Builtin::Value => {
                return Err(Box::new(Diag::internal("analysis dispatched as a pure built-in")))
            }
            Builtin::Players | Builtin::Strategies | Builtin::PureNash | Builtin::BestResponses | Builtin::StrictlyDominated
            | Builtin::WeaklyDominated | Builtin::IteratedElimination | Builtin::ParetoOptimal | Builtin::Nfg | Builtin::ExpectedPayoff
            | Builtin::MinimaxValue | Builtin::MinimaxStrategies | Builtin::Equilibria | Builtin::LemkeHowson | Builtin::Nash
            | Builtin::MixedDominated | Builtin::VertexEnumeration | Builtin::EquilibriumComponents => {
                return Err(Box::new(Diag::internal("strategic analysis dispatched as a pure built-in")))
            }
        })
    }
}

/// The heaps of a sum of positions of one heap game: `None` where a part is of another
/// game, not a number, or the compound is not a disjunctive sum.
fn heap_parts(term: &crate::value::PosTerm, game: &crate::value::Instance) -> Option<Vec<usize>> {
    use crate::value::{CompoundKind, PosTerm};
    let heap = |t: &PosTerm| match t {
        PosTerm::Atom(inst, Value::Int(k)) if inst == game => usize::try_from(*k).ok(),
        _ => None,
    };
    match term {
        PosTerm::Compound(CompoundKind::Disjunctive, parts) => parts.iter().map(heap).collect(),
        atom => heap(atom).map(|k| vec![k]),
    }
}

/// The side an analysis's second argument names: `left` (`L`) or `right` (`R`).
fn side_of(b: Builtin, v: &Value, span: Span) -> DiagResult<crate::cgt::Side> {
    match v {
        Value::Outcome(crate::value::Outcome::L) => Ok(crate::cgt::Side::Left),
        Value::Outcome(crate::value::Outcome::R) => Ok(crate::cgt::Side::Right),
        other => Err(type_error(
            span,
            format!(
                "the second argument of `{}` is a side, `left` or `right`, but this is {}",
                b.name(),
                other.a_type_name()
            ),
            "write `left` or `right`: whose moves, or who moves first",
        )),
    }
}

impl Interp<'_> {
    /// `octal(code)`, `hex(code)`: the instance of the take-and-break game of the code, its
    /// parameter the code as `Code::show` writes it (so `octal(".77") == octal("0.77")`).
    fn take_and_break(&mut self, radix: Radix, v: &Value, span: Span) -> DiagResult<Value> {
        let code = self.octal_code(v, span)?;
        if radix == Radix::Octal && code.splits_in_three() {
            return Err(Box::new(
                Diag::error(
                    Code::EvalOctalCode,
                    format!(
                        "{} is no octal code: a digit past 7 splits a heap in three",
                        code.show()
                    ),
                )
                .label(span, "this code")
                .help(format!(
                    "write a code with digits past 7 as hexadecimal: `hex(\"{}\")`",
                    code.show()
                )),
            ));
        }
        let game =
            self.world.program.take_and_break.ok_or_else(|| {
                Box::new(Diag::internal("the prelude's TakeAndBreak is not loaded"))
            })?;
        let inst = self.instance(game, vec![Some(Value::Str(code.show().into()))], span)?;
        Ok(Value::Game(self.world.games.instance(inst)))
    }

    /// Whether a value is a game `octal(code)` or `hex(code)`.
    fn is_take_and_break(&self, v: &Value) -> bool {
        matches!(v, Value::Game(inst) if Some(self.world.games.info(inst.id()).game) == self.world.program.take_and_break)
    }

    /// The period of a take-and-break code proved by the periodicity theorem from its values
    /// up to heap `most`: refused for a code that splits heaps in three, or none proved.
    fn proved_period(
        &self,
        code: &octal::Code,
        most: usize,
        span: Span,
    ) -> DiagResult<octal::Period> {
        if code.splits_in_three() {
            return Err(Box::new(
                Diag::error(Code::EvalDomain, format!("the periodicity theorem does not speak of {}, whose moves split heaps in three", code.show()))
                    .label(span, "a hexadecimal code")
                    .help("look for a period in its values instead: `period(octal_values(code, 1000))` (observed, not proved)"),
            ));
        }
        let stop = &self.world.stop;
        code.period(most, &mut || stop.check())?.ok_or_else(|| {
            Box::new(
                Diag::error(Code::EvalNoPeriod, format!("no period of {} is proved by heap {most}", code.show()))
                    .label(span, "this game")
                    .help(format!("look further, `octal_period(\"{}\", {})` (up to {}), or at the values: many octal games have no known period", code.show(), most.saturating_mul(4).min(octal::MAX_PERIOD_HEAP), octal::MAX_PERIOD_HEAP)),
            )
        })
    }

    /// The take-and-break code a string argument writes, or that of a game `octal(code)`.
    fn octal_code(&self, v: &Value, span: Span) -> DiagResult<octal::Code> {
        if let Value::Game(inst) = v {
            if let Some(code) = self.heap_code(inst.id()) {
                return Ok(code);
            }
        }
        let Value::Str(text) = v else {
            return Err(type_error(
                span,
                format!(
                    "a take-and-break code is a string, but this is {}",
                    v.a_type_name()
                ),
                "write the code in quotes: Kayles is `\"0.77\"`",
            ));
        };
        octal::Code::parse(text).map_err(|e| {
            Box::new(
                Diag::error(Code::EvalOctalCode, e.to_string())
                    .label(span, "this code")
                    .help("a code is a digit, a point and digits, each a sum of 1 (take the whole heap), 2 (leave one heap), 4 (two) and 8 (three): Kayles is \"0.77\""),
            )
        })
    }

    /// The misère quotient of the sums of heaps up to `n` of a take-and-break code or a heap
    /// game, remembered for the session.
    fn misere_quotient(
        &mut self,
        game: &Value,
        n: usize,
        span: Span,
    ) -> DiagResult<std::rc::Rc<misere::Quotient>> {
        /// What the first argument names.
        enum HeapGame {
            Code(octal::Code),
            Rules(crate::value::Instance),
        }
        let game = match game {
            Value::Game(inst) if !self.is_take_and_break(game) => HeapGame::Rules(inst.clone()),
            other => HeapGame::Code(self.octal_code(other, span)?),
        };
        let name = match &game {
            HeapGame::Code(code) => code.show(),
            HeapGame::Rules(inst) => self.world.games.info(inst.id()).label.clone(),
        };
        let key = (name, n);
        if let Some(q) = self.world.games.quotients.get(&key) {
            return Ok(q.clone());
        }
        let options = match &game {
            HeapGame::Code(code) => (0..=n).map(|h| code.options(h)).collect(),
            HeapGame::Rules(inst) => self.heap_options(inst, n, span)?,
        };
        let stop = &self.world.stop;
        let max_bytes = self.world.games.max_table_bytes.unwrap_or(usize::MAX);
        let q = match misere::quotient(&key.0, &options, max_bytes, &mut || stop.check()) {
            Ok(q) => std::rc::Rc::new(q),
            Err(misere::QuotientError::Stopped(e)) => return Err(e),
            Err(misere::QuotientError::TooLarge(bound)) => {
                let help = match bound {
                    misere::Bound::Memory(_) => "allow more memory with --max-memory, or ask for fewer heaps",
                    misere::Bound::Heaps => "ask for at most 255 heaps",
                    _ => "ask for fewer heaps: the quotient is built heap by heap, each step proved by a search of the states sums can be in, and a quotient that grows fast (Dawson's Kayles has 360 elements at heap 30) soon needs too many",
                };
                return Err(Box::new(
                    Diag::error(
                        Code::EvalTooLarge,
                        format!(
                            "the misère quotient of {} to heap {n} is out of reach: {}",
                            key.0,
                            bound.describe()
                        ),
                    )
                    .label(span, "this game")
                    .help(help),
                ));
            }
            Err(misere::QuotientError::Bug(what)) => {
                return Err(Box::new(Diag::internal(format!(
                    "misère quotient of {}: {what}",
                    key.0
                ))))
            }
            Err(misere::QuotientError::NotSmaller { heap, part }) => {
                return Err(Box::new(
                    Diag::error(
                        Code::EvalDomain,
                        format!(
                            "a move of {} from a heap of {heap} leaves a heap of {part}",
                            key.0
                        ),
                    )
                    .label(span, "this game")
                    .help("a misère quotient is of heap games whose moves leave smaller heaps"),
                ))
            }
        };
        let table = &mut self.world.games.quotients;
        if table.len() >= crate::eval::games::MAX_QUOTIENTS {
            table.clear();
        }
        table.insert(key, q.clone());
        Ok(q)
    }

    /// The moves of a heap game's heaps `G(0)..=G(n)`, each as the heaps of the sum it
    /// leaves: what `moves` gives, each option a heap, a sum of heaps or the empty game.
    fn heap_options(
        &mut self,
        game: &crate::value::Instance,
        n: usize,
        span: Span,
    ) -> DiagResult<Vec<Vec<Vec<usize>>>> {
        let label = self.world.games.info(game.id()).label.clone();
        let mut out = Vec::with_capacity(n + 1);
        for h in 0..=n {
            let heap = self.make_position(game.id(), vec![Value::Int(h as i64)], span)?;
            let moves = self.analyse(Builtin::Moves, &heap, None, span)?;
            let mut options = Vec::new();
            for option in self.items(&moves, span)? {
                let parts = match &option {
                    Value::Pos(p) => heap_parts(&p.term, game),
                    _ => None,
                };
                let Some(parts) = parts else {
                    return Err(Box::new(
                        Diag::error(Code::EvalDomain, format!("a move of {label}({h}) leads to {}, which is not a sum of heaps of {label}", self.show(&option)))
                            .label(span, "this game")
                            .help("a misère quotient is of heap games: a position is one number, `position n`, and a move leaves a heap, a `split` of heaps (a disjunctive sum) or nothing"),
                    ));
                };
                options.push(parts);
            }
            out.push(options);
        }
        Ok(out)
    }

    /// A heap size from 0 to `most`.
    fn octal_heap(&self, v: &Value, span: Span, most: usize) -> DiagResult<usize> {
        let n = int(v, span, "a heap size")?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= most)
            .ok_or_else(|| {
                Box::new(
                    Diag::error(
                        Code::EvalTooLarge,
                        format!("a heap of {n} is outside 0 to {most}"),
                    )
                    .label(span, "this heap")
                    .help(format!(
                        "take-and-break sequences here run to heaps of {most}"
                    )),
                )
            })
    }
}

/// The diagnostic of a refused `regions` or `normalize` call: which argument, and why.
fn grid_error(e: grid::GridError, name: &str, spans: [Span; 3]) -> Box<Diag> {
    let (at, message, help) = match e {
        grid::GridError::Negative => (
            0,
            format!("`{name}` needs a board as a non-negative bit mask"),
            "give a mask of 0 or more: bit r * w + c is the cell in row r, column c".to_string(),
        ),
        grid::GridError::Width => (
            1,
            format!("`{name}` needs a width from 1 to {}", grid::MAX_WIDTH),
            "a board is a bit mask of at most 63 cells".to_string(),
        ),
        grid::GridError::Mirrors => (
            2,
            format!("`{name}` takes mirrors 0 to 3"),
            "0: none, 1: left to right, 2: top to bottom, 3: both".to_string(),
        ),
    };
    Box::new(
        Diag::error(Code::EvalDomain, message)
            .label(spans[at], "this argument")
            .help(help),
    )
}
