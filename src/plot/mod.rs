//! Pictures of values in files: a 2-D grid of an expression over two ranges, and a sequence
//! over one, as SVG (`svg.rs`) or PNG (`png.rs`, rasterised here with a 5 × 7 pixel font,
//! `font.rs`), and a game graph as Graphviz DOT (`dot.rs`). Pure: the CLI evaluates the
//! values and hands them over as plain data (labels are text already); nothing here knows
//! values, games or sessions.
//!
//! Both image formats draw one [`Layout`] (`layout.rs` makes it), so a cell is at the same
//! pixels in both; text is given the room the PNG's font takes at [`TEXT_SCALE`].
//!
//! `layout.rs` lays a picture out as shapes in pixels (cells, lines, text, the legend; marks
//! black, white and grey, integers on a viridis scale), every margin measured from the texts it
//! holds in the PNG font's metrics; `svg.rs` writes each cell as a `rect` with `data-`
//! attributes and real text; `png.rs` rasterises rectangles, lines and the 5 × 7 font (its
//! glyphs pictures compiled to bit rows) for the `png` crate to encode. Layout, SVG,
//! rasterising and encoding take a `stop: &dyn Fn() -> bool` (the session's stop, asked every
//! `CHECK_EVERY` shapes or rows) and give `Stopped`, which the caller turns into the stop's
//! diagnostic.

pub mod dot;
mod font;
pub mod graph;
mod layout;
pub mod png;
pub mod svg;
pub mod thermograph;

/// What a cell shows: a mark (booleans and outcomes) or an integer on a colour scale.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// No value (the plot has none here).
    Missing,
    /// A boolean or an outcome.
    Mark(Mark),
    /// An integer (a Grundy value, a remoteness).
    Int(i64),
}

/// The marks: P-positions (and `true`) black on white, as the LEGO thesis draws them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// `true`, or `P`: black.
    Black,
    /// `false`, or `N`: white.
    White,
    /// `D` (a draw): grey.
    Draw,
    /// `L` (Left wins): blue.
    Left,
    /// `R` (Right wins): red.
    Right,
}

/// A colour.
pub type Rgb = [u8; 3];

/// The background and the colour of a missing cell.
pub const BACKGROUND: Rgb = [255, 255, 255];
const MISSING: Rgb = [225, 225, 225];
/// The colour of text, frames and ticks.
const INK: Rgb = [40, 40, 40];
const GRID_LINE: Rgb = [190, 190, 190];
const PERIOD_MARK: Rgb = [214, 39, 40];
const PREPERIOD_SHADE: Rgb = [255, 236, 200];

impl Mark {
    /// Its colour.
    pub fn colour(self) -> Rgb {
        match self {
            Mark::Black => [0, 0, 0],
            Mark::White => [255, 255, 255],
            Mark::Draw => [160, 160, 160],
            Mark::Left => [66, 133, 244],
            Mark::Right => [219, 68, 55],
        }
    }
}

/// An axis: the variable's name and the label of each value, first value first (at the left,
/// or at the bottom).
#[derive(Clone, Debug)]
pub struct Axis {
    /// The variable.
    pub name: String,
    /// One label a value.
    pub labels: Vec<String>,
}

/// A 2-D grid: `cells[x][y]`, x along the horizontal axis, y up the vertical one, the origin
/// (the first values) at the bottom left.
#[derive(Clone, Debug)]
pub struct Grid {
    /// The title (the expression).
    pub title: String,
    /// The horizontal axis.
    pub x: Axis,
    /// The vertical axis.
    pub y: Axis,
    /// The cells, a column of `y.labels.len()` cells for each x value.
    pub cells: Vec<Vec<Cell>>,
    /// What a mark means, for the legend (`P`, or `true`), in the order of [`Mark`].
    pub mark_names: Vec<(Mark, String)>,
}

/// A sequence: one value per `x` label, with its period if one was found.
#[derive(Clone, Debug)]
pub struct Sequence {
    /// The title (the expression).
    pub title: String,
    /// The axis of the values' index.
    pub x: Axis,
    /// The values.
    pub values: Vec<Cell>,
    /// `(preperiod, period, saltus)`, saltus 0 for a plain period.
    pub period: Option<(usize, usize, i64)>,
    /// What a mark means, as in [`Grid::mark_names`].
    pub mark_names: Vec<(Mark, String)>,
}

/// A picture to draw.
#[derive(Clone, Debug)]
pub enum Plot {
    /// Over two ranges.
    Grid(Grid),
    /// Over one.
    Sequence(Sequence),
}

/// The colour of an integer on the scale from `lo` to `hi` (viridis, dark to light).
pub fn scale_colour(v: i64, lo: i64, hi: i64) -> Rgb {
    const STOPS: [Rgb; 10] = [
        [68, 1, 84],
        [72, 40, 120],
        [62, 74, 137],
        [49, 104, 142],
        [38, 130, 142],
        [31, 158, 137],
        [53, 183, 121],
        [109, 205, 89],
        [180, 222, 44],
        [253, 231, 37],
    ];
    if hi <= lo {
        return STOPS[0];
    }
    // In i128: `hi - lo` may not fit in an i64.
    let t = (i128::from(v) - i128::from(lo)) as f64 / (i128::from(hi) - i128::from(lo)) as f64;
    let t = t.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let i = (t.floor() as usize).min(STOPS.len() - 2);
    let f = t - i as f64;
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    [mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2])]
}

/// A legend entry: a swatch and its text.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    /// The swatch's colour.
    pub colour: Rgb,
    /// What it stands for.
    pub text: String,
}

/// Most integer values listed one by one in a legend; past this, a scale from least to
/// greatest with a few values between.
const MOST_LISTED: usize = 16;

/// The legend of some cells: each mark present, then the integers (each one, or a scale of
/// a few).
pub fn legend<'a>(
    cells: impl Iterator<Item = &'a Cell>,
    names: &[(Mark, String)],
) -> Vec<LegendEntry> {
    let mut marks = std::collections::BTreeSet::new();
    let mut ints = std::collections::BTreeSet::new();
    let mut missing = false;
    for c in cells {
        match c {
            Cell::Mark(m) => {
                marks.insert(*m);
            }
            Cell::Int(i) => {
                ints.insert(*i);
            }
            Cell::Missing => missing = true,
        }
    }
    let mut out: Vec<LegendEntry> = marks
        .iter()
        .map(|m| LegendEntry {
            colour: m.colour(),
            text: names
                .iter()
                .find(|(n, _)| n == m)
                .map_or_else(|| format!("{m:?}"), |(_, t)| t.clone()),
        })
        .collect();
    if let (Some(&lo), Some(&hi)) = (ints.first(), ints.last()) {
        let listed: Vec<i64> = if ints.len() <= MOST_LISTED {
            ints.iter().copied().collect()
        } else {
            // Least, greatest and evenly spaced values between (on the scale, not all met).
            let steps = (MOST_LISTED - 1) as i128;
            let mut v: Vec<i64> = (0..=steps)
                .map(|k| (i128::from(lo) + (i128::from(hi) - i128::from(lo)) * k / steps) as i64)
                .collect();
            v.dedup();
            v
        };
        out.extend(listed.into_iter().map(|v| LegendEntry {
            colour: scale_colour(v, lo, hi),
            text: v.to_string(),
        }));
    }
    if missing {
        out.push(LegendEntry {
            colour: MISSING,
            text: "no value".to_string(),
        });
    }
    out
}

/// The colour of a cell among cells whose integers run from `lo` to `hi`.
pub fn cell_colour(cell: &Cell, (lo, hi): (i64, i64)) -> Rgb {
    match cell {
        Cell::Missing => MISSING,
        Cell::Mark(m) => m.colour(),
        Cell::Int(v) => scale_colour(*v, lo, hi),
    }
}

/// The least and greatest integers among cells (`(0, 0)` if none).
pub fn int_range<'a>(cells: impl Iterator<Item = &'a Cell>) -> (i64, i64) {
    let ints: Vec<i64> = cells
        .filter_map(|c| match c {
            Cell::Int(i) => Some(*i),
            _ => None,
        })
        .collect();
    match (ints.iter().min(), ints.iter().max()) {
        (Some(&lo), Some(&hi)) => (lo, hi),
        _ => (0, 0),
    }
}

/// One thing to draw, in pixels; the SVG writer and the rasteriser both draw a list of them.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A filled rectangle; `cell` names the grid cell (x, y index) it draws, if any.
    Rect {
        /// Left.
        x: u32,
        /// Top.
        y: u32,
        /// Width.
        w: u32,
        /// Height.
        h: u32,
        /// Fill.
        fill: Rgb,
        /// The cell it draws: indices and the value's text.
        cell: Option<(usize, usize, String)>,
    },
    /// A line, one pixel wide (horizontal or vertical in practice).
    Line {
        /// Start.
        from: (u32, u32),
        /// End.
        to: (u32, u32),
        /// Colour.
        colour: Rgb,
    },
    /// Text; `anchor` says which point `(x, y)` is: its start, middle or end, on the baseline.
    Text {
        /// Where.
        x: u32,
        /// Baseline.
        y: u32,
        /// The text.
        text: String,
        /// Start, middle or end.
        anchor: Anchor,
        /// Turned a quarter anticlockwise (the vertical axis's name).
        vertical: bool,
    },
}

/// Where text hangs from its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The text starts there.
    Start,
    /// It is centred there.
    Middle,
    /// It ends there.
    End,
}

/// A picture laid out: its size and its shapes, in drawing order.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The shapes.
    pub shapes: Vec<Shape>,
}

/// Text is drawn at this many image pixels a font pixel.
pub const TEXT_SCALE: u32 = 2;

/// The width in pixels of `text` drawn in the PNG's font (the SVG's text is narrower).
pub fn text_width(text: &str) -> u32 {
    font::width(text).saturating_mul(TEXT_SCALE)
}

impl Plot {
    /// Lays the picture out, unless `stop` says to stop first.
    pub fn layout(&self, stop: &dyn Fn() -> bool) -> Result<Layout, Stopped> {
        match self {
            Plot::Grid(g) => g.layout(stop),
            Plot::Sequence(s) => s.layout(stop),
        }
    }
}

/// Drawing stopped because the caller's `stop` said so (its deadline passed, Ctrl-C): the
/// caller knows why. Every drawing loop asks `stop` (every [`CHECK_EVERY`] shapes, cells or
/// rows of pixels), so a picture of any size is drawn within `--timeout`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// Why a picture was not drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrawError {
    /// The caller's `stop` said to stop.
    Stopped,
    /// The image encoder failed, in its words.
    Encoding(String),
}

impl From<Stopped> for DrawError {
    fn from(_: Stopped) -> DrawError {
        DrawError::Stopped
    }
}

/// How many shapes, cells or rows of pixels are drawn between two questions to `stop`.
pub(crate) const CHECK_EVERY: usize = 1024;
