//! Pictures: a game's `show` clause run on a position, and the built-ins that draw
//! (`picture`, `grid`, `join`). The layout itself is `eval::picture`.

// The interpreter's types, helpers and imports (`mod.rs`): these files are parts of one
// `impl Interp`, split by job.
use super::*;
use crate::eval::picture::{self, GridError};

impl<'a> Interp<'a> {
    /// The picture of a position: its game's `show` clause evaluated on it; for a compound,
    /// its parts' pictures side by side (a part without one as its printed form), joined by
    /// the compound's operator. `None` when no part's game has a `show` clause, or for a
    /// value that is not a position. The clause runs as a rule does, without the analyses.
    /// `span` is what a picture too large for a string points at.
    pub fn picture(&mut self, value: &Value, span: Span) -> DiagResult<Option<String>> {
        let Value::Pos(position) = value else {
            return Ok(None);
        };
        let host = self.host.take();
        let drawn = self.term_picture(&position.term, position.convention, span);
        self.host = host;
        drawn
    }

    fn term_picture(
        &mut self,
        term: &PosTerm,
        convention: Convention,
        span: Span,
    ) -> DiagResult<Option<String>> {
        self.tick()?;
        if !crate::stack::enough() {
            return Err(out_of_stack(span));
        }
        match term {
            PosTerm::Atom(inst, data) => self.atom_picture(inst.id(), data, span),
            PosTerm::Compound(kind, parts) => {
                let mut drawn = Vec::with_capacity(parts.len());
                for part in parts.iter() {
                    drawn.push(self.term_picture(part, convention, span)?);
                }
                if drawn.iter().all(Option::is_none) {
                    return Ok(None);
                }
                let blocks: Vec<String> = drawn
                    .into_iter()
                    .zip(parts.iter())
                    .map(|(d, part)| {
                        d.unwrap_or_else(|| self.show(&Value::pos(part.clone(), convention)))
                    })
                    .collect();
                let text = picture::beside(&blocks, &format!(" {} ", kind.symbol()));
                self.sized(text.len(), span, "string")?;
                Ok(Some(text))
            }
        }
    }

    fn atom_picture(
        &mut self,
        inst: InstanceId,
        data: &Value,
        span: Span,
    ) -> DiagResult<Option<String>> {
        let program = self.world.program;
        let game = &program.games[self.world.games.info(inst).game.0 as usize];
        let Some(show) = &game.show else {
            return Ok(None);
        };
        let drawing = |this: &Self, mut d: Box<Diag>| {
            let atom = PosTerm::Atom(this.world.games.instance(inst), data.clone());
            let position = Value::pos(atom, Convention::Normal);
            d.notes.push(format!(
                "while drawing {} with the `show` clause of `{}`",
                this.show(&position),
                game.name
            ));
            d.labels.push(crate::diag::Label {
                span,
                message: "drawn for this".into(),
            });
            d
        };
        let mut frame = self
            .position_frame(inst, PositionData::Value(data))
            .map_err(|d| drawing(self, d))?;
        let value = self
            .eval(show, frame.full())
            .map_err(|d| drawing(self, d))?;
        match value {
            Value::Str(ref s) => Ok(Some(s.to_string())),
            other => Err(drawing(
                self,
                Box::new(
                    Diag::error(
                        Code::EvalPicture,
                        format!(
                            "a `show` clause must give a string, but this is {}",
                            other.a_type_name()
                        ),
                    )
                    .label(show.span, format!("this is {}", self.show(&other)))
                    .help(
                        "build the picture as a string: `grid(b, 3, \".XO\")`, \
                         `join([str(x) for x in xs], \" \")`, or `str(n)`",
                    ),
                ),
            )),
        }
    }

    /// `picture(p)`: the picture of a position, or its printed form when it has none.
    pub(super) fn picture_builtin(&mut self, value: &Value, span: Span) -> DiagResult<Value> {
        if !matches!(value, Value::Pos(_)) {
            return Err(type_error(
                span,
                format!(
                    "`picture` needs a position, but this is {} ({})",
                    value.a_type_name(),
                    self.show(value)
                ),
                &crate::eval::position_help(
                    self.world.program,
                    self.world.games,
                    value,
                    "make a position by calling a game: `picture(TicTacToe.start)`",
                ),
            ));
        }
        let text = match self.picture(value, span)? {
            Some(text) => text,
            None => {
                let limit = usize::try_from(self.world.limits.max_collection).unwrap_or(usize::MAX);
                display_bounded(value, &*self.world.games, limit).0
            }
        };
        self.sized(text.len(), span, "string")?;
        Ok(Value::Str(text.into()))
    }

    /// `grid(cells, width, symbols)`: a board as text (see [`picture::grid`]). Cells are
    /// integers or booleans (`false` the first symbol, `true` the second).
    pub(super) fn grid_builtin(&mut self, args: &[Value], spans: [Span; 3]) -> DiagResult<Value> {
        let mut cells = Vec::new();
        for item in self.items(&args[0], spans[0])? {
            cells.push(match item {
                Value::Bool(b) => i64::from(b),
                other => int(&other, spans[0], "each cell of `grid`")?,
            });
        }
        let width = int(&args[1], spans[1], "the width of `grid`")?;
        let Value::Str(symbols) = &args[2] else {
            return Err(type_error(
                spans[2],
                format!(
                    "`grid` needs its symbols as a string, but this is {}",
                    args[2].a_type_name()
                ),
                "give one character per cell value: `grid(b, 3, \".XO\")` draws 0 as `.`, 1 as `X`, 2 as `O`",
            ));
        };
        let symbols: Vec<char> = symbols.chars().collect();
        let text = picture::grid(&cells, width, &symbols).map_err(|e| match e {
            GridError::Width(w) => Box::new(
                Diag::error(
                    Code::EvalDomain,
                    format!("a grid cannot have rows of {w} cells"),
                )
                .label(spans[1], "this width")
                .help("the width is the number of cells in a row: 1 or more"),
            ),
            GridError::Ragged { cells, width } => Box::new(
                Diag::error(
                    Code::EvalDomain,
                    format!("{cells} cells do not fill rows of {width}"),
                )
                .label(spans[0], format!("{cells} cells"))
                .label(spans[1], format!("rows of {width}"))
                .help("the number of cells must be a multiple of the width"),
            ),
            GridError::NoSymbol {
                index,
                value,
                symbols,
            } => Box::new(
                Diag::error(
                    Code::EvalIndex,
                    format!("cell {index} is {value}, which has no symbol"),
                )
                .label(
                    spans[2],
                    format!(
                        "{symbols} symbols, for the values 0 to {}",
                        symbols.saturating_sub(1)
                    ),
                )
                .help("give a symbol for every value a cell can hold, the one for 0 first"),
            ),
        })?;
        self.sized(text.len(), spans[0], "string")?;
        Ok(Value::Str(text.into()))
    }

    /// `join(xs, sep)`: the items of `xs`, strings as they are and other values as they
    /// print, with `sep` between them.
    pub(super) fn join_builtin(&mut self, args: &[Value], spans: [Span; 2]) -> DiagResult<Value> {
        let Value::Str(sep) = &args[1] else {
            return Err(type_error(
                spans[1],
                format!(
                    "`join` needs a string to put between the items, but this is {}",
                    args[1].a_type_name()
                ),
                "write `join(xs, \" \")`, or `join(rows, \"\\n\")` for lines",
            ));
        };
        let limit = usize::try_from(self.world.limits.max_collection).unwrap_or(usize::MAX);
        let mut text = String::new();
        for (i, item) in self.items(&args[0], spans[0])?.enumerate() {
            if i > 0 {
                text.push_str(sep);
            }
            match &item {
                Value::Str(s) => text.push_str(s),
                other => text.push_str(&display_bounded(other, &*self.world.games, limit).0),
            }
            // Checked as it grows, so a long join stops at the limit, not after it.
            self.sized(text.len(), spans[0], "string")?;
        }
        Ok(Value::Str(text.into()))
    }
}
