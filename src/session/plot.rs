//! Pictures of tables: the rows of a `:table` or `:grid` (or of `cgl plot`'s ranges,
//! [`Session::tabulate`]) turned into a [`Plot`] (a sequence with its period marked, or a
//! grid), and a plot drawn as SVG or PNG within the session's stop. `cgl plot` and the page
//! of `cgl serve` both draw through here.

use super::{Rows, Session};
use crate::diag::{Code, Diag, Span};
use crate::eval::builtins;
use crate::plot::{self, Axis, Cell, DrawError, Grid, Mark, Plot, Sequence};
use crate::value::{Outcome, Value};

/// Longest label of a picture (an axis value, a node of `cgl dot`), in characters.
const LONGEST_LABEL: usize = 60;

/// `text` cut to [`LONGEST_LABEL`] characters with `…`: a label of a picture, which a value
/// printed long would make as wide.
pub fn short_label(text: String) -> String {
    if text.chars().count() <= LONGEST_LABEL {
        return text;
    }
    let cut: String = text.chars().take(LONGEST_LABEL - 1).collect();
    format!("{cut}…")
}

fn usage(span: Span, message: impl Into<String>, label: &str, help: &str) -> Vec<Diag> {
    vec![Diag::error(Code::PlotUsage, message)
        .label(span, label)
        .help(help)]
}

/// The mark of a boolean or an outcome, or `None` for a value that has no mark.
fn mark(value: &Value) -> Option<Mark> {
    Some(match value {
        Value::Bool(true) | Value::Outcome(Outcome::P) => Mark::Black,
        Value::Bool(false) | Value::Outcome(Outcome::N) => Mark::White,
        Value::Outcome(Outcome::D) => Mark::Draw,
        Value::Outcome(Outcome::L) => Mark::Left,
        Value::Outcome(Outcome::R) => Mark::Right,
        _ => return None,
    })
}

/// The cells of values, or a diagnostic at `span` for the first that cannot be drawn.
fn cells(session: &Session, values: &[&Value], span: Span) -> Result<Vec<Cell>, Vec<Diag>> {
    values
        .iter()
        .map(|v| match v {
            Value::Int(i) => Ok(Cell::Int(*i)),
            v => mark(v).map(Cell::Mark).ok_or_else(|| {
                usage(
                    span,
                    format!(
                        "cannot draw {}: a plot draws booleans, outcomes and integers",
                        v.a_type_name()
                    ),
                    &format!("this is {}", session.show_short(v)),
                    "plot a number or a truth about it instead, e.g. `len(...)` or `p is P`",
                )
            }),
        })
        .collect()
}

/// The legend's words for the marks met: `P`/`N`/`D` for outcomes, `true`/`false` for
/// booleans.
fn mark_names(values: &[&Value]) -> Vec<(Mark, String)> {
    let bools = values.iter().any(|v| matches!(v, Value::Bool(_)));
    let outcomes = values.iter().any(|v| matches!(v, Value::Outcome(_)));
    let name = |b: &str, o: &str| match (bools, outcomes) {
        (true, true) => format!("{b} or {o}"),
        (true, false) => b.to_string(),
        _ => o.to_string(),
    };
    vec![
        (Mark::Black, name("true", "P")),
        (Mark::White, name("false", "N")),
        (Mark::Draw, "D".to_string()),
        (Mark::Left, "L".to_string()),
        (Mark::Right, "R".to_string()),
    ]
}

impl Session {
    /// The plot of tabulated rows: over one variable (`y_name` none) a sequence, over two a
    /// grid. A value that cannot be drawn (not a boolean, an outcome or an integer) is a
    /// diagnostic at `span`.
    pub fn plot_rows(
        &self,
        title: &str,
        (x_name, y_name): (String, Option<String>),
        rows: &Rows,
        span: Span,
    ) -> Result<Plot, Vec<Diag>> {
        let body_span = span;
        // An axis label is cut short: a value printed long would make the picture as wide.
        let label = |v: &Value| short_label(self.show_short(v));
        let x_labels: Vec<String> = rows.iter().map(|(x, _)| label(x)).collect();
        let values: Vec<&Value> = rows
            .iter()
            .flat_map(|(_, c)| c.iter().map(|(_, v)| v))
            .collect();
        let names = mark_names(&values);
        let x = Axis {
            name: x_name,
            labels: x_labels,
        };
        match y_name {
            Some(y_name) => {
                let y_labels: Vec<String> = rows
                    .first()
                    .map(|(_, c)| c.iter().map(|(y, _)| label(y)).collect())
                    .unwrap_or_default();
                let mut columns = Vec::new();
                for (_, c) in rows {
                    let vs: Vec<&Value> = c.iter().map(|(_, v)| v).collect();
                    columns.push(cells(self, &vs, body_span)?);
                }
                Ok(Plot::Grid(Grid {
                    title: title.to_string(),
                    x,
                    y: Axis {
                        name: y_name,
                        labels: y_labels,
                    },
                    cells: columns,
                    mark_names: names,
                }))
            }
            None => {
                let cells = cells(self, &values, body_span)?;
                let owned: Vec<Value> = values.iter().map(|v| (*v).clone()).collect();
                let period = builtins::period(&owned)
                    .map(|(a, b)| (a, b, 0))
                    .or_else(|| {
                        let ints: Option<Vec<i64>> = cells
                            .iter()
                            .map(|c| match c {
                                Cell::Int(i) => Some(*i),
                                _ => None,
                            })
                            .collect();
                        ints.and_then(|xs| builtins::saltus_period(&xs))
                    });
                Ok(Plot::Sequence(Sequence {
                    title: title.to_string(),
                    x,
                    values: cells,
                    period,
                    mark_names: names,
                }))
            }
        }
    }

    /// A plot drawn as SVG (or PNG, when `png`), stopped by the session's stop.
    pub fn plot_image(&self, plot: &Plot, png: bool) -> Result<Vec<u8>, Vec<Diag>> {
        let stop = self.stop();
        let stopped = || stop.check().is_err();
        let drawn = plot
            .layout(&stopped)
            .map_err(DrawError::from)
            .and_then(|layout| {
                if png {
                    plot::png::write(&layout, &stopped)
                } else {
                    Ok(plot::svg::write(&layout, &stopped)?.into_bytes())
                }
            });
        drawn.map_err(|e| match e {
            // The stop's own diagnostic: the timeout, or the interrupt.
            DrawError::Stopped => vec![*stop
                .check()
                .err()
                .unwrap_or_else(|| Box::new(Diag::internal("drawing stopped without a reason")))],
            DrawError::Encoding(e) => vec![Diag::internal(format!("cannot encode the image: {e}"))],
        })
    }
}
