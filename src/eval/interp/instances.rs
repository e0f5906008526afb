//! Game instances and positions: variants, parameters, `start`, position frames.

// The interpreter's types, helpers and imports (`mod.rs`): these files are parts of one
// `impl Interp`, split by job.
use super::*;

impl<'a> Interp<'a> {
    pub(super) fn default_instance(&mut self, game: GameId) -> DiagResult<InstanceId> {
        if let Some(id) = self.world.games.default_instances.get(&game) {
            return Ok(*id);
        }
        let n = self.world.program.games[game.0 as usize].params.len();
        let id = self.instance(
            game,
            vec![None; n],
            self.world.program.games[game.0 as usize].span,
        )?;
        self.world.games.default_instances.insert(game, id);
        Ok(id)
    }

    /// A variant of `game_id`: of its defaults (`base` is `None`), or of the instance `base`,
    /// whose parameters all count as given.
    pub(super) fn variant(
        &mut self,
        game_id: GameId,
        base: Option<InstanceId>,
        args: Vec<(Option<String>, Value, Span)>,
        span: Span,
    ) -> DiagResult<Value> {
        if Some(game_id) == self.world.program.take_and_break {
            // Its one parameter is the code, normalised and checked by `octal`/`hex` only.
            let shown = base.map_or_else(
                || "octal(code)".to_string(),
                |b| self.world.games.info(b).label.clone(),
            );
            return Err(Box::new(
                Diag::error(Code::EvalUnknownParam, format!("`{shown}` has no parameters to set"))
                    .label(span, "here")
                    .help("a take-and-break game is made from its code: write the one you mean, `octal(\"0.7\")` or `hex(\"0.F\")`"),
            ));
        }
        let game = &self.world.program.games[game_id.0 as usize];
        let mut params: Vec<Option<Value>> = match base {
            Some(inst) => self
                .world
                .games
                .info(inst)
                .params
                .iter()
                .cloned()
                .map(Some)
                .collect(),
            None => vec![None; game.params.len()],
        };
        let mut positional = 0;
        for (name, value, aspan) in args {
            let idx = match name {
                Some(name) => game
                    .params
                    .iter()
                    .position(|p| p.name == name)
                    .ok_or_else(|| {
                        Box::new(
                            Diag::error(
                                Code::EvalUnknownParam,
                                format!("game `{}` has no parameter `{name}`", game.name),
                            )
                            .label(aspan, "unknown parameter")
                            .help("use one of the parameters the game declares"),
                        )
                    })?,
                None => {
                    positional += 1;
                    positional - 1
                }
            };
            if idx >= params.len() {
                return Err(Box::new(
                    Diag::error(
                        Code::EvalArity,
                        format!("game `{}` has only {} parameters", game.name, params.len()),
                    )
                    .label(aspan, "one too many")
                    .help("name the parameters: `G[p = value]`"),
                ));
            }
            params[idx] = Some(value);
        }
        let inst = self.instance(game_id, params, span)?;
        Ok(Value::Game(self.world.games.instance(inst)))
    }

    /// The instance of `game` with these parameters (missing ones take their defaults).
    pub fn instance(
        &mut self,
        game_id: GameId,
        given: Vec<Option<Value>>,
        span: Span,
    ) -> DiagResult<InstanceId> {
        self.within_game(game_id, span, |this| {
            this.instance_unguarded(game_id, given, span)
        })
    }

    pub(super) fn instance_unguarded(
        &mut self,
        game_id: GameId,
        given: Vec<Option<Value>>,
        span: Span,
    ) -> DiagResult<InstanceId> {
        let program = self.world.program;
        let game = &program.games[game_id.0 as usize];
        let mut frame = vec![Value::None; game.frame_size];
        let mut params = Vec::with_capacity(game.params.len());
        for (i, (param, value)) in game.params.iter().zip(given).enumerate() {
            let v = match (value, &param.default) {
                (Some(v), _) => v,
                (None, Some(default)) => self.eval(default, &mut frame)?,
                (None, None) => {
                    return Err(Box::new(
                        Diag::error(
                            Code::EvalMissingParam,
                            format!("game `{}` needs a value for `{}`", game.name, param.name),
                        )
                        .label(span, "used here without it")
                        .label(param.span, "this parameter has no default")
                        .help(format!("give it: `{}[{} = ...]`", game.name, param.name)),
                    ))
                }
            };
            frame[i] = v.clone();
            params.push(v);
        }
        let params: Rc<[Value]> = Rc::from(params);
        if let Some(id) = self.world.games.find(game_id, &params) {
            return Ok(id);
        }
        let mode = match &game.compound {
            None => CompoundKind::Disjunctive,
            Some(e) => match self.eval(e, &mut frame)? {
                Value::Mode(m) => m,
                other => return Err(type_error(
                    e.span,
                    format!("`compound` needs a mode, but this is {}", self.show(&other)),
                    "write `compound disjunctive`, `compound conjunctive` or `compound selective`",
                )),
            },
        };
        let field_defaults = match &game.position {
            PositionShape::Fields(fields) => {
                let mut out = Vec::new();
                for (_, default) in fields {
                    out.push(match default {
                        Some(e) => Some(self.eval(e, &mut frame)?),
                        None => None,
                    });
                }
                out
            }
            PositionShape::Single(_) => Vec::new(),
        };
        let mut label = game.name.clone();
        if Some(game_id) == program.take_and_break {
            label = take_and_break_label(&params);
        }
        let mut shown = Vec::new();
        let mut default_frame = vec![Value::None; game.frame_size];
        for (i, param) in game.params.iter().enumerate() {
            let default = match &param.default {
                Some(e) => self.eval(e, &mut default_frame).ok(),
                None => None,
            };
            if default.as_ref() != Some(&params[i]) {
                shown.push(format!("{} = {}", param.name, self.show(&params[i])));
            }
            default_frame[i] = params[i].clone();
        }
        if !shown.is_empty() && Some(game_id) != program.take_and_break {
            label = format!("{}[{}]", label, shown.join(", "));
        }
        Ok(self.world.games.insert(InstanceInfo {
            game: game_id,
            params,
            mode,
            convention: game.convention,
            label,
            field_defaults,
        }))
    }

    pub(super) fn make_position(
        &mut self,
        inst: InstanceId,
        args: Vec<Value>,
        span: Span,
    ) -> DiagResult<Value> {
        let info = self.world.games.info(inst);
        if Some(info.game) == self.world.program.take_and_break {
            return self.heap_position(inst, args, span);
        }
        let game = &self.world.program.games[info.game.0 as usize];
        let (lo, hi) = game.position.arity();
        if args.len() < lo || args.len() > hi {
            return Err(Box::new(
                Diag::error(
                    Code::EvalArity,
                    format!(
                        "a position of `{}` has {} fields, but {} {} given",
                        game.name,
                        if lo == hi {
                            lo.to_string()
                        } else {
                            format!("{lo} to {hi}")
                        },
                        args.len(),
                        if args.len() == 1 { "was" } else { "were" }
                    ),
                )
                .label(span, "here")
                .help("give one value per field of the game's `position` pattern"),
            ));
        }
        let data = match &game.position {
            PositionShape::Single(Pattern::Tuple(..)) => Value::tuple(args),
            PositionShape::Single(_) => args.into_iter().next().unwrap_or(Value::None),
            PositionShape::Fields(_) => {
                let mut fields = args;
                for default in info.field_defaults.iter().skip(fields.len()) {
                    fields.push(default.clone().unwrap_or(Value::None));
                }
                Value::tuple(fields)
            }
        };
        let pattern = game.position.pattern();
        if !Self::matches(&pattern, &data) {
            return Err(Box::new(
                Diag::error(
                    Code::EvalPositionShape,
                    format!(
                        "{} does not fit the position pattern of `{}`",
                        self.show(&data),
                        game.name
                    ),
                )
                .label(span, "this position")
                .label(pattern.span(), "the pattern")
                .help("nested tuples in the pattern need tuples of the same size"),
            ));
        }
        let atom = PosTerm::Atom(self.world.games.instance(inst), data);
        Ok(Value::pos(atom, info.convention))
    }

    /// The code of `inst` when it is a take-and-break game by code (`octal("0.77")`).
    pub(super) fn heap_code(&self, inst: InstanceId) -> Option<crate::cgt::octal::Code> {
        (self.world.games).heap_code(self.world.program.take_and_break, inst)
    }

    /// A heap of a take-and-break game by code, `octal("0.77")(5)`: one number of tokens,
    /// 0 to the largest heap whose values are computed.
    fn heap_position(&self, inst: InstanceId, args: Vec<Value>, span: Span) -> DiagResult<Value> {
        let info = self.world.games.info(inst);
        let most = crate::cgt::octal::MAX_HEAP as i64;
        match args.as_slice() {
            [Value::Int(n)] if (0..=most).contains(n) => {
                let atom = PosTerm::Atom(self.world.games.instance(inst), Value::Int(*n));
                Ok(Value::pos(atom, info.convention))
            }
            [Value::Int(n)] => Err(Box::new(
                Diag::error(
                    Code::EvalTooLarge,
                    format!("a heap of {n} is outside 0 to {most}"),
                )
                .label(span, "this heap")
                .help(format!("a heap of {} has 0 to {most} tokens", info.label)),
            )),
            _ => Err(Box::new(
                Diag::error(
                    Code::EvalType,
                    format!("a heap of {} is one number of tokens", info.label),
                )
                .label(span, "here")
                .help(format!("give the heap's size: `{}(5)`", info.label)),
            )),
        }
    }

    pub(super) fn start_position(&mut self, inst: InstanceId, span: Span) -> DiagResult<Value> {
        let game = self.world.games.info(inst).game;
        self.within_game(game, span, |this| this.start_position_unguarded(inst, span))
    }

    /// Evaluates a game's own clauses (`start`, parameter defaults, `compound`) one level
    /// deeper: they may name the game again (`start G[k = k + 1].start`), and each level
    /// counts against the call-depth limit, as a call does, so that such a definition ends
    /// in a diagnostic instead of overflowing the stack.
    pub(super) fn within_game<T>(
        &mut self,
        game: GameId,
        span: Span,
        f: impl FnOnce(&mut Self) -> DiagResult<T>,
    ) -> DiagResult<T> {
        if self.depth >= self.world.limits.max_call_depth {
            let name = &self.world.program.games[game.0 as usize].name;
            return Err(Box::new(
                Diag::error(
                    Code::EvalRecursion,
                    format!("game `{name}` is defined in terms of itself too deeply"),
                )
                .label(span, "needed here")
                .label(self.world.program.games[game.0 as usize].span, "this game")
                .help(format!(
                    "its `start`, a parameter's default or its `compound` uses the game again, \
                     {} levels deep; make sure that chain ends",
                    self.world.limits.max_call_depth
                )),
            ));
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        result
    }

    pub(super) fn start_position_unguarded(
        &mut self,
        inst: InstanceId,
        span: Span,
    ) -> DiagResult<Value> {
        let info = self.world.games.info(inst);
        let game = &self.world.program.games[info.game.0 as usize];
        if Some(info.game) == self.world.program.take_and_break {
            let label = &info.label;
            return Err(Box::new(
                Diag::error(
                    Code::EvalNoStart,
                    format!("`{label}` has no start: its positions are heaps"),
                )
                .label(span, "`.start` used here")
                .help(format!(
                    "give a heap: `{label}(5)` is a heap of five tokens"
                )),
            ));
        }
        let Some(start) = &game.start else {
            return Err(Box::new(
                Diag::error(
                    Code::EvalNoStart,
                    format!("game `{}` has no `start` clause", game.name),
                )
                .label(span, "`.start` used here")
                .label(game.span, "this game")
                .help("add `start <position>` to the game, or give a position: `G(...)`"),
            ));
        };
        let mut frame = vec![Value::None; game.frame_size];
        for (slot, p) in frame.iter_mut().zip(info.params.iter()) {
            *slot = p.clone();
        }
        let start_span = start.span;
        let value = self.eval(start, &mut frame)?;
        self.target_term(inst, value, start_span)
            .map(|t| Value::pos(t.normalized(), self.world.games.info(inst).convention))
    }

    /// Turns the value of a move target (or `start`) into a position term of `inst`'s game:
    /// position data, a position of any game, or a `split(...)` of either, its compound as
    /// written (not in canonical form: see [`PosTerm::normalized`]).
    pub(super) fn target_term(
        &mut self,
        inst: InstanceId,
        value: Value,
        span: Span,
    ) -> DiagResult<PosTerm> {
        match value {
            Value::Pos(ref p) => Ok(p.term.clone()),
            Value::Split(ref parts) => {
                let mode = self.world.games.info(inst).mode;
                let mut terms = Vec::with_capacity(parts.len());
                for part in parts.iter() {
                    terms.push(self.target_term(inst, part.clone(), span)?);
                }
                // As written: the graph interns an option's compound whole, dropping the
                // parts that are over before a compound of one part becomes that part, so
                // `split(0, split())` of a position 0 with no move is `split()`, as
                // `split(0, 0)` is (reduced here first, it was the position 0).
                Ok(PosTerm::Compound(mode, Rc::from(terms)))
            }
            data => {
                self.check_target_data(inst, &data, span)?;
                Ok(PosTerm::Atom(self.world.games.instance(inst), data))
            }
        }
    }

    /// The frame in which a game's clauses run for one position: parameters and position
    /// fields bound. A list of integers bound to one variable (`position b`) stays apart
    /// for the compiled forms until the interpreter needs it.
    pub(super) fn position_frame<'d>(
        &mut self,
        inst: InstanceId,
        data: PositionData<'d>,
    ) -> DiagResult<PositionFrame<'d>> {
        let info = self.world.games.info(inst);
        let game = &self.world.program.games[info.game.0 as usize];
        let mut values = vec![Value::None; game.frame_size];
        for (slot, p) in values.iter_mut().zip(info.params.iter()) {
            *slot = p.clone();
        }
        let data = match (data, &game.position) {
            (PositionData::Ints(items), PositionShape::Single(Pattern::Bind(slot, _))) => {
                return Ok(PositionFrame {
                    values,
                    pending: Some((*slot, items)),
                });
            }
            (data, _) => data.to_value(),
        };
        let pattern = game.position.pattern();
        self.bind(&pattern, data, &mut values)?;
        Ok(PositionFrame {
            values,
            pending: None,
        })
    }
}

/// How `octal(code)` and `hex(code)` print: as they are written, `octal("0.77")`, the code
/// as `octal::Code::show` writes it, `hex` where a move splits a heap in three.
fn take_and_break_label(params: &[Value]) -> String {
    let code = match params.first() {
        Some(Value::Str(code)) => code.to_string(),
        _ => "?".to_string(),
    };
    let hex = crate::cgt::octal::Code::parse(&code).is_ok_and(|c| c.splits_in_three());
    format!("{}(\"{code}\")", if hex { "hex" } else { "octal" })
}
