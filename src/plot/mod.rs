//! Pictures of values in files: a 2-D grid of an expression over two ranges, and a sequence
//! over one, as SVG (`svg.rs`) or PNG (`png.rs`, rasterised here with a small pixel font,
//! `font.rs`), and a game graph as Graphviz DOT (`dot.rs`). Pure: the CLI evaluates the
//! values and hands them over as plain data (labels are text already); nothing here knows
//! values, games or sessions.
//!
//! Both image formats draw one [`Layout`], so a cell is at the same pixels in both.

pub mod dot;
mod font;
pub mod png;
pub mod svg;

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

const MARGIN_LEFT: u32 = 70;
const MARGIN_TOP: u32 = 40;
const MARGIN_BOTTOM: u32 = 55;
const LEGEND_WIDTH: u32 = 150;
/// Pixels a text character takes, roughly (for spacing labels).
const CHAR_WIDTH: u32 = 8;
const LEGEND_ROW: u32 = 18;

/// The side of a cell for `n` cells along the longer axis: the picture's grid is about 600
/// pixels, a cell 2 to 24.
fn cell_side(n: usize) -> u32 {
    (600 / n.max(1) as u32).clamp(2, 24)
}

/// Which labels of `n` to write, `side` pixels apart, so that labels `chars` wide do not
/// touch: every `k`th, the first always.
fn label_step(n: usize, side: u32, chars: usize) -> usize {
    let need = (chars as u32 * CHAR_WIDTH + 6).max(1);
    (need.div_ceil(side.max(1)) as usize).max(1).min(n.max(1))
}

impl Plot {
    /// Lays the picture out.
    pub fn layout(&self) -> Layout {
        match self {
            Plot::Grid(g) => g.layout(),
            Plot::Sequence(s) => s.layout(),
        }
    }
}

fn push_legend(shapes: &mut Vec<Shape>, entries: &[LegendEntry], left: u32, top: u32) -> u32 {
    let mut y = top;
    for e in entries {
        shapes.push(Shape::Rect {
            x: left,
            y,
            w: 14,
            h: 14,
            fill: e.colour,
            cell: None,
        });
        // A white swatch needs an outline to be seen.
        for (from, to) in [
            ((left, y), (left + 14, y)),
            ((left, y + 14), (left + 14, y + 14)),
            ((left, y), (left, y + 14)),
            ((left + 14, y), (left + 14, y + 14)),
        ] {
            shapes.push(Shape::Line {
                from,
                to,
                colour: GRID_LINE,
            });
        }
        shapes.push(Shape::Text {
            x: left + 20,
            y: y + 12,
            text: e.text.clone(),
            anchor: Anchor::Start,
            vertical: false,
        });
        y += LEGEND_ROW;
    }
    y
}

/// The title, at the top left above the plot.
fn title_text(text: String) -> Shape {
    Shape::Text {
        x: MARGIN_LEFT,
        y: 22,
        text,
        anchor: Anchor::Start,
        vertical: false,
    }
}

/// The text a cell stands for (the SVG's `data-value`): its integer, or its mark's name.
fn cell_text(cell: &Cell, mark_names: &[(Mark, String)]) -> String {
    match cell {
        Cell::Missing => String::new(),
        Cell::Int(v) => v.to_string(),
        Cell::Mark(m) => mark_names
            .iter()
            .find(|(n, _)| n == m)
            .map_or_else(|| format!("{m:?}"), |(_, t)| t.clone()),
    }
}

/// A rectangle's outline in ink, from its top left to its bottom right corner.
fn push_frame(shapes: &mut Vec<Shape>, (left, top): (u32, u32), (right, bottom): (u32, u32)) {
    for (from, to) in [
        ((left, top), (right, top)),
        ((left, bottom), (right, bottom)),
        ((left, top), (left, bottom)),
        ((right, top), (right, bottom)),
    ] {
        shapes.push(Shape::Line {
            from,
            to,
            colour: INK,
        });
    }
}

/// The horizontal axis under a plot whose bottom left corner is `(left, bottom)`, `side`
/// pixels a value and `width` wide: a tick and a label for every value that has room, and the
/// variable's name centred below.
fn push_x_axis(
    shapes: &mut Vec<Shape>,
    axis: &Axis,
    (left, bottom): (u32, u32),
    side: u32,
    width: u32,
) {
    let chars = axis
        .labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(1);
    let step = label_step(axis.labels.len(), side, chars);
    for (i, label) in axis.labels.iter().enumerate().step_by(step) {
        let cx = left + side * i as u32 + side / 2;
        shapes.push(Shape::Line {
            from: (cx, bottom),
            to: (cx, bottom + 4),
            colour: INK,
        });
        shapes.push(Shape::Text {
            x: cx,
            y: bottom + 17,
            text: label.clone(),
            anchor: Anchor::Middle,
            vertical: false,
        });
    }
    shapes.push(Shape::Text {
        x: left + width / 2,
        y: bottom + 40,
        text: axis.name.clone(),
        anchor: Anchor::Middle,
        vertical: false,
    });
}

impl Grid {
    fn layout(&self) -> Layout {
        let (nx, ny) = (self.x.labels.len(), self.y.labels.len());
        let side = cell_side(nx.max(ny));
        let (gw, gh) = (side * nx as u32, side * ny as u32);
        let left = MARGIN_LEFT;
        let top = MARGIN_TOP;
        let entries = legend(self.cells.iter().flatten(), &self.mark_names);
        let legend_height = LEGEND_ROW * entries.len() as u32 + 30;
        let width = left + gw + 20 + LEGEND_WIDTH;
        let height = (top + gh + MARGIN_BOTTOM).max(top + legend_height);
        let mut shapes = vec![title_text(self.title.clone())];
        let range = int_range(self.cells.iter().flatten());
        for (xi, column) in self.cells.iter().enumerate() {
            for (yi, cell) in column.iter().enumerate() {
                let text = cell_text(cell, &self.mark_names);
                shapes.push(Shape::Rect {
                    x: left + side * xi as u32,
                    // The origin at the bottom: the first y value is the lowest row.
                    y: top + side * (ny - 1 - yi) as u32,
                    w: side,
                    h: side,
                    fill: cell_colour(cell, range),
                    cell: Some((xi, yi, text)),
                });
            }
        }
        // The frame.
        let (right, bottom) = (left + gw, top + gh);
        push_frame(&mut shapes, (left, top), (right, bottom));
        // Ticks and labels: x below, y on the left.
        push_x_axis(&mut shapes, &self.x, (left, bottom), side, gw);
        let step = label_step(ny, side, 1).max(2.min(ny));
        for (i, label) in self.y.labels.iter().enumerate().step_by(step) {
            let cy = top + side * (ny - 1 - i) as u32 + side / 2;
            shapes.push(Shape::Line {
                from: (left - 4, cy),
                to: (left, cy),
                colour: INK,
            });
            shapes.push(Shape::Text {
                x: left - 7,
                y: cy + 4,
                text: label.clone(),
                anchor: Anchor::End,
                vertical: false,
            });
        }

        shapes.push(Shape::Text {
            x: 18,
            y: top + gh / 2,
            text: self.y.name.clone(),
            anchor: Anchor::Middle,
            vertical: true,
        });
        push_legend(&mut shapes, &entries, right + 20, top);
        Layout {
            width,
            height,
            shapes,
        }
    }
}

impl Sequence {
    fn layout(&self) -> Layout {
        let n = self.values.len();
        let side = cell_side(n).max(3);
        let gw = side * n as u32;
        let left = MARGIN_LEFT;
        let top = MARGIN_TOP;
        let entries = legend(self.values.iter(), &self.mark_names);
        let ints = self.values.iter().any(|c| matches!(c, Cell::Int(_)));
        // Integers are points over a value axis 240 pixels high; marks a strip of cells.
        let gh = if ints { 240 } else { side.max(16) };
        let legend_height = LEGEND_ROW * entries.len() as u32 + 30;
        let width = left + gw + 20 + LEGEND_WIDTH;
        let height = (top + gh + MARGIN_BOTTOM + 20).max(top + legend_height);
        let mut title = self.title.clone();
        if let Some((pre, p, s)) = self.period {
            let from = self.x.labels.get(pre).cloned().unwrap_or_default();
            title.push_str(&if s == 0 {
                format!(": period {p} from {} = {from}", self.x.name)
            } else {
                format!(": period {p}, saltus {s}, from {} = {from}", self.x.name)
            });
        }
        let mut shapes = vec![title_text(title)];
        let (right, bottom) = (left + gw, top + gh);
        // The preperiod shaded, then a line where each period starts.
        if let Some((pre, _, _)) = self.period {
            if pre > 0 {
                shapes.push(Shape::Rect {
                    x: left,
                    y: top,
                    w: side * pre as u32,
                    h: gh,
                    fill: PREPERIOD_SHADE,
                    cell: None,
                });
            }
        }
        let range = int_range(self.values.iter());
        let (lo, hi) = range;
        let y_of = |v: i64| -> u32 {
            if hi <= lo {
                return top + gh / 2;
            }
            let t =
                (i128::from(v) - i128::from(lo)) as f64 / (i128::from(hi) - i128::from(lo)) as f64;
            top + gh - 4 - (t * f64::from(gh - 8)).round() as u32
        };
        for (i, cell) in self.values.iter().enumerate() {
            let x = left + side * i as u32;
            let text = cell_text(cell, &self.mark_names);
            match cell {
                Cell::Int(v) => {
                    let cy = y_of(*v);
                    let dot = side.clamp(3, 8);
                    shapes.push(Shape::Rect {
                        x: x + side / 2 - dot / 2,
                        y: cy.saturating_sub(dot / 2),
                        w: dot,
                        h: dot,
                        fill: cell_colour(cell, range),
                        cell: Some((i, 0, text)),
                    });
                }
                _ => shapes.push(Shape::Rect {
                    x,
                    y: top,
                    w: side,
                    h: gh,
                    fill: cell_colour(cell, range),
                    cell: Some((i, 0, text)),
                }),
            }
        }
        if let Some((pre, p, _)) = self.period {
            // Lines at least 6 pixels apart: every k-th period when periods are short.
            let every = p.max(1) * (6usize.div_ceil(p.max(1) * side as usize)).max(1);
            let mut at = pre;
            while at < n {
                let x = left + side * at as u32;
                shapes.push(Shape::Line {
                    from: (x, top),
                    to: (x, bottom + 8),
                    colour: PERIOD_MARK,
                });
                at += every;
            }
        }
        push_frame(&mut shapes, (left, top), (right, bottom));
        push_x_axis(&mut shapes, &self.x, (left, bottom), side, gw);
        if ints {
            for v in [lo, hi] {
                shapes.push(Shape::Text {
                    x: left - 7,
                    y: y_of(v) + 4,
                    text: v.to_string(),
                    anchor: Anchor::End,
                    vertical: false,
                });
            }
        }

        let mut legend_entries = entries;
        if self.period.is_some() {
            legend_entries.push(LegendEntry {
                colour: PERIOD_MARK,
                text: "a period starts".to_string(),
            });
            if self.period.is_some_and(|(pre, ..)| pre > 0) {
                legend_entries.push(LegendEntry {
                    colour: PREPERIOD_SHADE,
                    text: "preperiod".to_string(),
                });
            }
        }
        push_legend(&mut shapes, &legend_entries, right + 20, top);
        Layout {
            width,
            height,
            shapes,
        }
    }
}
