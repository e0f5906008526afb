//! Move generation: running a position's rules (compiled where they can be), `terminal if` and `draw if`, the parts of a split.

// The interpreter's types, helpers and imports (`mod.rs`): these files are parts of one
// `impl Interp`, split by job.
use super::*;
use crate::eval::compiled::reached::{mark, Reached};
use crate::eval::compiled::Batching;

impl<'a> Interp<'a> {
    /// Whether compiled code whose inlined calls nest `call_depth` deep may run here: compiled
    /// forms are on, and the interpreter would allow calls that deep from here.
    pub(super) fn may_run_compiled(&self, call_depth: usize) -> bool {
        self.world.limits.compiled_rules
            && self.depth as usize + call_depth <= self.world.limits.max_call_depth as usize
    }

    /// Whether any of a game's conditions holds, in order; compiled ones run compiled
    /// (the interpreter evaluates one that hands over, and raises its error).
    pub(super) fn any_true(
        &mut self,
        conds: &[Expr],
        compiled: &[Option<CompiledCond>],
        frame: &mut PositionFrame<'_>,
        what: &str,
    ) -> DiagResult<bool> {
        for (i, cond) in conds.iter().enumerate() {
            let fast = compiled
                .get(i)
                .and_then(Option::as_ref)
                .filter(|c| self.may_run_compiled(c.call_depth()));
            if let Some(c) = fast {
                match c.eval(
                    frame.inputs(),
                    self.world.limits.max_collection,
                    self.world.stop,
                ) {
                    Ok(true) => return Ok(true),
                    Ok(false) => continue,
                    Err(Interrupt::Error(e)) => return Err(e),
                    Err(Interrupt::Fallback) => mark(Reached::Fallback),
                }
            }
            let v = self.eval(cond, frame.full())?;
            if boolean(&v, cond.span, what)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The options of a position of `inst` in rule order, each with the index of the rule
    /// that made it, and whether a `terminal if` clause holds. A list of integers that fits
    /// the position pattern is not built as a value: its items are appended to `ints` and
    /// the option names their range, so the caller can find the position by its packed
    /// cells.
    ///
    /// `live` says the position is known not to be terminal (see [`Interp::scan_options`]).
    pub fn options_packed(
        &mut self,
        inst: InstanceId,
        data: PositionData<'_>,
        live: bool,
        out: &mut Vec<(OptionTarget, u32)>,
        ints: &mut Vec<i64>,
    ) -> DiagResult<bool> {
        let values_fit = self.any_value_fits(inst);
        self.scan_options(
            inst,
            data,
            Batching::One,
            live,
            &mut |this, target, rule, span| {
                let option = match target {
                    Emitted::IntList(items) if values_fit => {
                        let start = ints.len();
                        ints.extend_from_slice(items);
                        OptionTarget::IntList(start..ints.len())
                    }
                    target => {
                        OptionTarget::Term(this.target_term(inst, target.into_value(), span)?)
                    }
                };
                out.push((option, rule));
                Ok(ControlFlow::Continue(()))
            },
        )
    }

    /// Whether a position of `inst` has an option: `None` when a `terminal if` clause holds,
    /// else whether its first option exists. The first option is checked as
    /// [`Interp::options_packed`] would check it, without building it where it is integers that fit
    /// the position pattern.
    pub fn has_options(
        &mut self,
        inst: InstanceId,
        data: PositionData<'_>,
    ) -> DiagResult<Option<bool>> {
        // A heap of a take-and-break game may have millions of options: they are counted.
        if let (Some(code), PositionData::Value(Value::Int(n))) = (self.heap_code(inst), &data) {
            let n = usize::try_from(*n).unwrap_or(0);
            return Ok(Some(code.option_count(n) > 0));
        }
        let values_fit = self.any_value_fits(inst);
        let tuple_len = self.int_tuple_len(inst);
        let mut any = false;
        let forced = self.scan_options(
            inst,
            data,
            Batching::One,
            false,
            &mut |this, target, _rule, span| {
                let checked = match &target {
                    Emitted::Value(Value::Int(_)) | Emitted::IntSplit(_) | Emitted::IntList(_) => {
                        values_fit
                    }
                    Emitted::IntTuple(items) => tuple_len == Some(items.len()),
                    _ => false,
                };
                if !checked {
                    this.target_term(inst, target.into_value(), span)?;
                }
                any = true;
                Ok(ControlFlow::Break(()))
            },
        )?;
        Ok((!forced).then_some(any))
    }

    /// Runs `visit` on the value of every move target of a position of `inst`, in rule order,
    /// with the rule's index and the target's span; stops when `visit` breaks. Nothing is
    /// built per option beyond the target value itself. Returns whether a `terminal if`
    /// clause holds (then there are no options).
    ///
    /// With [`Batching::Blocks`], the options that a compiled rule's innermost loop computes
    /// together come as one [`Emitted::Block`]; the visitor takes the block apart (and with
    /// [`Batching::Affine`], a loop whose options are affine in its variable as one
    /// [`Emitted::Affine`]). With `live`, the caller
    /// knows the position is not terminal (the graph learnt it when the position was
    /// interned): its `terminal if` conditions, which are pure, are not evaluated again.
    pub fn scan_options(
        &mut self,
        inst: InstanceId,
        data: PositionData<'_>,
        batch: Batching,
        live: bool,
        visit: &mut ScanVisit<'_, 'a>,
    ) -> DiagResult<bool> {
        let program = self.world.program;
        let game_id = self.world.games.info(inst).game;
        let game = &program.games[game_id.0 as usize];
        let compiled = self.world.compiled.game(game_id);
        let mut frame = self.position_frame(inst, data)?;
        if !live
            && self.any_true(
                &game.terminal,
                &compiled.terminal,
                &mut frame,
                "`terminal if`",
            )?
        {
            return Ok(true);
        }
        for (rule_idx, (rule, compiled)) in game.rules.iter().zip(&compiled.rules).enumerate() {
            let rule_idx = rule_idx as u32;
            let span = rule.target.span;
            // Targets already visited by the compiled rule before it handed over.
            let mut visited: u64 = 0;
            if let Some(compiled) = compiled
                .as_ref()
                .filter(|c| self.may_run_compiled(c.call_depth()))
            {
                let stop = self.world.stop;
                let max = self.world.limits.max_collection;
                let mut emit = |v: Emitted<'_>| {
                    visited += v.count();
                    visit(self, v, rule_idx, span)
                };
                match compiled.run(frame.inputs(), max, stop, batch, &mut emit) {
                    Ok(flow) if flow.is_break() => break,
                    Ok(_) => continue,
                    Err(Interrupt::Error(e)) => return Err(e),
                    // An input is not an integer, or the rule raises an error: the interpreter
                    // runs it (again), skipping what was visited, and raises that error.
                    Err(Interrupt::Fallback) => mark(Reached::Fallback),
                }
            }
            let flow = self.for_each(&rule.clauses, frame.full(), &mut |this, frame| {
                let value = this.eval(&rule.target, frame)?;
                if visited > 0 {
                    visited -= 1;
                    return Ok(ControlFlow::Continue(()));
                }
                visit(this, Emitted::Value(value), rule_idx, span)
            })?;
            if flow.is_break() {
                break;
            }
        }
        Ok(false)
    }

    /// The positions of a disjunctive sum that a move target of `inst` stands for, appended to
    /// `out` as (instance, data) pairs, with the checks `Interp::target_term` makes. False
    /// when the target is, or contains, a compound of another kind (a `split` of a game whose
    /// mode is not disjunctive, a conjunctive or selective position): the caller must then use
    /// `target_term`. The empty game adds nothing.
    pub fn disjunctive_parts(
        &mut self,
        inst: InstanceId,
        target: Emitted<'_>,
        span: Span,
        out: &mut Vec<(InstanceId, Value)>,
    ) -> DiagResult<bool> {
        match target {
            Emitted::Value(value) => self.disjunctive_value(inst, value, span, out),
            Emitted::Split(parts) => self.disjunctive_split(inst, parts, span, out),
            Emitted::Block(_) | Emitted::Affine(_) => Err(Box::new(Diag::internal(
                "a block of options reached a visitor that does not take blocks",
            ))),
            Emitted::SetCell(..) | Emitted::Kept { .. } => Err(Box::new(Diag::internal(
                "a cell of an option reached a visitor that does not take cells",
            ))),
            data @ (Emitted::IntTuple(_) | Emitted::IntList(_)) => {
                self.disjunctive_value(inst, data.into_value(), span, out)
            }
            Emitted::IntSplit(parts) => {
                if parts.len() > 1 && self.world.games.info(inst).mode != CompoundKind::Disjunctive
                {
                    return Ok(false);
                }
                for n in parts {
                    let data = Value::Int(*n);
                    self.check_target_data(inst, &data, span)?;
                    out.push((inst, data));
                }
                Ok(true)
            }
        }
    }

    pub(super) fn disjunctive_split(
        &mut self,
        inst: InstanceId,
        parts: &[Value],
        span: Span,
        out: &mut Vec<(InstanceId, Value)>,
    ) -> DiagResult<bool> {
        if parts.len() > 1 && self.world.games.info(inst).mode != CompoundKind::Disjunctive {
            return Ok(false);
        }
        for part in parts {
            if !self.disjunctive_value(inst, part.clone(), span, out)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    pub(super) fn disjunctive_value(
        &mut self,
        inst: InstanceId,
        value: Value,
        span: Span,
        out: &mut Vec<(InstanceId, Value)>,
    ) -> DiagResult<bool> {
        match value {
            Value::Pos(ref p) => Ok(flatten_disjunctive(&p.term, out)),
            Value::Split(ref parts) => self.disjunctive_split(inst, parts, span, out),
            data => {
                self.check_target_data(inst, &data, span)?;
                out.push((inst, data));
                Ok(true)
            }
        }
    }

    /// Whether a `split` of several parts makes a disjunctive sum in `inst`'s game.
    pub fn splits_disjunctively(&self, inst: InstanceId) -> bool {
        self.world.games.info(inst).mode == CompoundKind::Disjunctive
    }

    /// Whether every value (an integer, a list, ...) fits `inst`'s position pattern
    /// (`position n`, `position b`).
    pub fn any_value_fits(&self, inst: InstanceId) -> bool {
        let game = &self.world.program.games[self.world.games.info(inst).game.0 as usize];
        matches!(
            game.position,
            PositionShape::Single(Pattern::Bind(..) | Pattern::Wildcard(_))
        )
    }

    /// The length of tuples of integers that fit `inst`'s position pattern, when every such
    /// tuple does (`position (a, b)`, `position (x, y, h = 3)`).
    pub fn int_tuple_len(&self, inst: InstanceId) -> Option<usize> {
        let game = &self.world.program.games[self.world.games.info(inst).game.0 as usize];
        let plain = |p: &Pattern| matches!(p, Pattern::Bind(..) | Pattern::Wildcard(_));
        match &game.position {
            PositionShape::Single(Pattern::Tuple(items, _)) if items.iter().all(plain) => {
                Some(items.len())
            }
            PositionShape::Fields(fields) if fields.iter().all(|(p, _)| plain(p)) => {
                Some(fields.len())
            }
            _ => None,
        }
    }

    /// An error unless `data` has the shape of `inst`'s position pattern.
    pub(super) fn check_target_data(
        &self,
        inst: InstanceId,
        data: &Value,
        span: Span,
    ) -> DiagResult<()> {
        let info = self.world.games.info(inst);
        let game = &self.world.program.games[info.game.0 as usize];
        if fits_shape(&game.position, data) {
            return Ok(());
        }
        let pattern = game.position.pattern();
        Err(Box::new(
            Diag::error(Code::EvalPositionShape, format!("move target {} does not fit the position pattern of `{}`", self.show(data), game.name))
                .label(span, "this target")
                .label(pattern.span(), "the pattern")
                .help("a target must have the shape of the `position` pattern (a tuple with the same number of fields)"),
        ))
    }

    /// Whether a terminal position of `inst` is a draw (`draw if`).
    pub fn is_draw(&mut self, inst: InstanceId, data: PositionData<'_>) -> DiagResult<bool> {
        let program = self.world.program;
        let game_id = self.world.games.info(inst).game;
        let game = &program.games[game_id.0 as usize];
        if game.draw.is_empty() {
            return Ok(false);
        }
        let compiled = &self.world.compiled.game(game_id).draw;
        let mut frame = self.position_frame(inst, data)?;
        self.any_true(&game.draw, compiled, &mut frame, "`draw if`")
    }

    /// What a terminal position of a payoff game pays the player to move there: the amount
    /// of the first `payoff` clause whose condition holds, an integer or a rational.
    pub fn payoff(&mut self, inst: InstanceId, data: PositionData<'_>) -> DiagResult<Value> {
        let program = self.world.program;
        let game = &program.games[self.world.games.info(inst).game.0 as usize];
        let mut frame = self.position_frame(inst, data)?;
        for clause in &game.payoffs {
            if let Some(cond) = &clause.cond {
                let v = self.eval(cond, frame.full())?;
                if !boolean(&v, cond.span, "`payoff ... if`")? {
                    continue;
                }
            }
            let amount = self.eval(&clause.amount, frame.full())?;
            return match amount {
                Value::Int(_) | Value::Rational(_) => Ok(amount),
                Value::Wide(_) => Err(type_error(
                    clause.amount.span,
                    format!(
                        "a payoff must be a 64-bit fraction, but this is {}",
                        self.show(&amount)
                    ),
                    "scores are exact 64-bit fractions; keep the payoffs smaller",
                )),
                other => Err(type_error(
                    clause.amount.span,
                    format!(
                        "a payoff must be a number, but this is {} ({})",
                        other.a_type_name(),
                        self.show(&other)
                    ),
                    "a payoff is an integer or a rational: what the player to move at the end receives",
                )),
            };
        }
        let shown = self.show(&Value::pos(
            crate::eval::value::PosTerm::Atom(self.world.games.instance(inst), data.to_value()),
            game.convention,
        ));
        let mut diag = Diag::error(
            Code::EvalNoPayoff,
            format!(
                "{shown} is terminal, but no `payoff` clause of `{}` applies to it",
                game.name
            ),
        )
        .help("add a clause for the remaining ends, e.g. a last `payoff 0` without a condition");
        for clause in &game.payoffs {
            diag = diag.label(clause.span, "does not apply");
        }
        Err(Box::new(diag))
    }

    // ------------------------------------------------------------------ built-ins

    /// The outcome of a position, for `p is X`.
    pub fn outcome_of(&mut self, position: &Value, span: Span) -> DiagResult<Value> {
        if values::is_game_value(position) {
            return values::outcome(self.world.stop, position, span);
        }
        if !matches!(position, Value::Pos(_)) {
            return Err(type_error(
                span,
                format!(
                    "`is` needs a position or a game value on its left, but this is {} ({})",
                    position.a_type_name(),
                    self.show(position)
                ),
                "write `p is P` for a position `p`, such as `Nim(3) is N`",
            ));
        }
        self.analyse(Builtin::Outcome, position, None, span)
    }
}
