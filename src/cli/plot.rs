//! `cgl plot` and `cgl dot`: evaluate what a picture shows through the session, and hand it
//! to `crate::api::plot` as plain data to draw.

use std::path::{Path, PathBuf};

use crate::api::plot::{dot, Plot};
use crate::api::Value;
use crate::api::{Bindings, ParsedExpr, Session, TableVar};
use crate::api::{Code, Diag, Span};

/// Most values along one axis of a plot (a picture wider than this is unreadable anyway).
pub const MOST_PER_AXIS: usize = 5_000;

/// The image formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ImageFormat {
    /// Scalable vector graphics (text).
    Svg,
    /// A PNG image.
    Png,
}

impl ImageFormat {
    /// The format asked for, else the output's extension's, else SVG.
    pub fn choose(asked: Option<ImageFormat>, output: Option<&Path>) -> ImageFormat {
        asked.unwrap_or_else(|| {
            match output
                .and_then(|p| p.extension())
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase)
                .as_deref()
            {
                Some("png") => ImageFormat::Png,
                _ => ImageFormat::Svg,
            }
        })
    }
}

/// What `cgl plot` was asked.
pub struct PlotRequest<'a> {
    /// The expression.
    pub expr: &'a str,
    /// `NAME=RANGE` of the horizontal axis.
    pub x: &'a str,
    /// `NAME=RANGE` of the vertical axis, for a grid.
    pub y: Option<&'a str>,
    /// Most cells.
    pub max_cells: usize,
}

/// The names of the loaded files, as `cgl eval -f` sees them.
fn scope_of(session: &Session, files: &[usize]) -> Bindings {
    let mut scope = Bindings::new();
    for &i in files {
        for b in session.file_names(i) {
            scope.bind(b);
        }
    }
    scope
}

fn usage(span: Span, message: impl Into<String>, label: &str, help: &str) -> Vec<Diag> {
    vec![Diag::error(Code::PlotUsage, message)
        .label(span, label)
        .help(help)]
}

/// An axis given as `NAME=RANGE` (the text of `--x` or `--y`): its variable, checked, and
/// the number of values its range has.
fn axis_var(
    session: &mut Session,
    flag: &str,
    text: &str,
    scope: &Bindings,
) -> Result<(TableVar, usize), Vec<Diag>> {
    let file = session.add_source(flag, text.to_string());
    let whole = Span::new(file, 0, text.len());
    let Some(eq) = text.find('=') else {
        return Err(usage(
            whole,
            format!("{flag} needs a variable and a range, such as `a=1..=50`"),
            "no `=` here",
            "write NAME=RANGE: the name the expression uses, `=`, and a collection",
        ));
    };
    let name = text[..eq].trim();
    let name_start = text.find(name).unwrap_or(0).min(eq);
    let name_span = Span::new(file, name_start, name_start + name.len());
    let is_name = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !is_name {
        return Err(usage(
            if name.is_empty() { whole } else { name_span },
            format!("`{name}` is not a variable name"),
            "a name goes here",
            "write NAME=RANGE, e.g. `a=1..=50`",
        ));
    }
    let source = ParsedExpr::parse(file, text, &(eq + 1..text.len()))?;
    let range_span = source.span();
    let count = match session.eval_parsed(&source, scope)? {
        Value::Range(a, b) => usize::try_from(crate::api::range_count(a, b)).unwrap_or(usize::MAX),
        Value::List(ref items) | Value::Tuple(ref items) => items.len(),
        Value::Set(ref items) => items.len(),
        other => {
            return Err(usage(
                range_span,
                format!(
                    "{flag}'s range is {}, not a collection",
                    other.a_type_name()
                ),
                "this is not a collection",
                "a range is a collection of values, e.g. `1..=50` or `[1, 2, 4, 8]`",
            ))
        }
    };
    if count > MOST_PER_AXIS {
        return Err(vec![Diag::error(
            Code::PlotTooLarge,
            format!("{flag} has {count} values, more than the {MOST_PER_AXIS} an axis may have"),
        )
        .label(range_span, "this ranges too far")
        .help("use a smaller range")]);
    }
    let var = TableVar {
        name: name.to_string(),
        span: name_span,
        source,
    };
    Ok((var, count))
}

/// Evaluates what `cgl plot` draws.
pub fn plot(
    session: &mut Session,
    files: &[usize],
    request: &PlotRequest<'_>,
) -> Result<Plot, Vec<Diag>> {
    let scope = scope_of(session, files);
    let file = session.add_source("<expression>", request.expr.to_string());
    let body = ParsedExpr::parse(file, request.expr, &(0..request.expr.len()))?;
    let body_span = body.span();
    let (xv, nx) = axis_var(session, "--x", request.x, &scope)?;
    let x_name = xv.name.clone();
    let yv = match request.y {
        Some(y) => Some(axis_var(session, "--y", y, &scope)?),
        None => None,
    };
    let ny = yv.as_ref().map_or(1, |(_, n)| *n);
    let total = nx.saturating_mul(ny);
    if total > request.max_cells {
        return Err(vec![Diag::error(
            Code::PlotTooLarge,
            format!(
                "the plot would have {total} cells, more than --max-cells {}",
                request.max_cells
            ),
        )
        .label(body_span, format!("evaluated {nx} × {ny} times"))
        .help("use smaller ranges, or raise --max-cells")]);
    }
    // Asked of the memory budget before any cell is computed.
    let room = session.stop().account().room();
    if total.saturating_mul(CELL_BYTES) > room {
        return Err(vec![Diag::error(
            Code::GraphTooMuchMemory,
            format!(
                "the plot's {total} cells would need about {} MiB, more than the {} MiB of \
                 --max-memory left",
                total.saturating_mul(CELL_BYTES).div_ceil(1 << 20),
                room >> 20
            ),
        )
        .label(body_span, format!("evaluated {nx} × {ny} times"))
        .help(
            "use smaller ranges, or allow more memory with --max-memory (MiB)",
        )]);
    }
    let y_name = yv.as_ref().map(|(v, _)| v.name.clone());
    let rows = session.tabulate(body, xv, yv.map(|(v, _)| v), &scope)?;
    session.plot_rows(request.expr, (x_name, y_name), &rows, body_span)
}

/// The image file of a plot.
pub fn image(session: &Session, plot: &Plot, format: ImageFormat) -> Result<Vec<u8>, Vec<Diag>> {
    session.plot_image(plot, format == ImageFormat::Png)
}

/// The bytes a plot's cell takes until its picture is written: its value and its place in
/// the rows, its shape in the layout, and its element in the SVG (about 160 bytes) or its
/// pixels in the PNG.
const CELL_BYTES: usize = 512;

/// The DOT text of the game graph from the position `expr` evaluates to: every position
/// reachable, at most `max_nodes` of them.
pub fn dot_graph(
    session: &mut Session,
    files: &[usize],
    expr: &str,
    max_nodes: usize,
) -> Result<String, Vec<Diag>> {
    let scope = scope_of(session, files);
    let file = session.add_source("<expression>", expr.to_string());
    let parsed = ParsedExpr::parse(file, expr, &(0..expr.len()))?;
    let span = parsed.span();
    let start = session.eval_parsed(&parsed, &scope)?;
    let graph = session.moves_graph(&start, span, max_nodes, "cgl dot", "--max-nodes")?;
    Ok(dot::write(expr, &graph.nodes, &graph.edges))
}

/// Writes `bytes` to `output`, or to `out` without one.
pub fn emit(
    bytes: &[u8],
    output: Option<&PathBuf>,
    out: &mut dyn std::io::Write,
) -> Result<(), String> {
    match output {
        Some(path) => std::fs::write(path, bytes).map_err(|e| {
            format!(
                "cannot write {}: {}",
                crate::api::shown(path),
                super::io_error_text(&e)
            )
        }),
        None => out
            .write_all(bytes)
            .map_err(|e| format!("cannot write the output: {}", super::io_error_text(&e))),
    }
}
