//! Lays a [`Grid`] or a [`Sequence`] out as shapes in pixels: the title (wrapped), the cells,
//! the frame, the axes' ticks and labels, the vertical axis's name and the legend. Every
//! margin is measured from the texts it holds (in the PNG's font at [`TEXT_SCALE`]), so that
//! no text overlaps another or is cut at the picture's edge, whatever the plot's size.

use super::font;
use super::{
    cell_colour, int_range, legend, text_width, Anchor, Axis, Cell, Grid, Layout, LegendEntry,
    Mark, Sequence, Shape, Stopped, CHECK_EVERY, GRID_LINE, INK, PERIOD_MARK, PREPERIOD_SHADE,
    TEXT_SCALE,
};

/// Pixels of text above its baseline, and below it.
const ASCENT: u32 = font::ASCENT * TEXT_SCALE;
const DESCENT: u32 = font::DESCENT * TEXT_SCALE;
/// From one title line's baseline to the next one's.
const LINE: u32 = ASCENT + DESCENT + 6;
/// Empty pixels around the picture's content.
const PAD: u32 = 10;
/// Pixels between texts that must not touch (labels along an axis, a label and its tick).
const GAP: u32 = 8;
/// Length of an axis tick, outside the frame.
const TICK: u32 = 5;
/// A legend swatch's side, and a legend row's height.
const SWATCH: u32 = 14;
const LEGEND_ROW: u32 = ASCENT + DESCENT + 4;
/// Most characters a title line holds, and most lines (the last one cut with `...`).
const TITLE_CHARS: usize = 80;
const TITLE_LINES: usize = 4;
/// The width of the vertical axis's name turned on its side.
const NAME_COLUMN: u32 = ASCENT + DESCENT;

/// The side of a cell for `n` cells along the longer axis: the picture's grid is about 600
/// pixels, a cell 2 to 24.
fn cell_side(n: usize) -> u32 {
    (600 / n.max(1) as u32).clamp(2, 24)
}

/// Which of `n` values, `side` pixels apart, get a label when each label takes `need` pixels
/// along the axis: every `k`th, the first always.
fn label_step(n: usize, side: u32, need: u32) -> usize {
    (need.div_ceil(side.max(1)) as usize).clamp(1, n.max(1))
}

/// The title cut into lines of at most [`TITLE_CHARS`] characters, at a space where one is
/// near; past [`TITLE_LINES`] lines the rest is left out and the last line ends in `...`.
fn title_lines(title: &str) -> Vec<String> {
    let mut rest: Vec<char> = title.chars().collect();
    let mut lines = Vec::new();
    while !rest.is_empty() {
        if rest.len() <= TITLE_CHARS {
            lines.push(rest.iter().collect());
            break;
        }
        if lines.len() + 1 == TITLE_LINES {
            let mut last: String = rest[..TITLE_CHARS - 3].iter().collect();
            last.push_str("...");
            lines.push(last);
            break;
        }
        let cut = rest[..=TITLE_CHARS]
            .iter()
            .rposition(|&c| c == ' ')
            .filter(|&i| i > TITLE_CHARS / 2)
            .unwrap_or(TITLE_CHARS);
        lines.push(
            rest[..cut]
                .iter()
                .collect::<String>()
                .trim_end()
                .to_string(),
        );
        let next = rest[cut..].iter().position(|&c| c != ' ').unwrap_or(0);
        rest.drain(..cut + next);
    }
    lines
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

/// The horizontal axis's labels under `n` values `side` pixels apart: which are written
/// (every `step`th), and how far the written ones and the axis's name reach past the plot's
/// left and right edges (labels are centred under their values, the name under the plot).
struct XAxis {
    step: usize,
    over_left: u32,
    over_right: u32,
}

impl XAxis {
    fn measure(axis: &Axis, side: u32) -> XAxis {
        let n = axis.labels.len();
        let widest = axis.labels.iter().map(|l| text_width(l)).max().unwrap_or(0);
        let step = label_step(n, side, widest + 12);
        let plot_width = side * n as u32;
        let name_over = (text_width(&axis.name) / 2).saturating_sub(plot_width / 2);
        let mut over_left = name_over;
        let mut over_right = name_over;
        for (i, label) in axis.labels.iter().enumerate().step_by(step) {
            let centre = side * i as u32 + side / 2;
            let half = text_width(label) / 2 + 1;
            over_left = over_left.max(half.saturating_sub(centre));
            over_right = over_right.max((centre + half).saturating_sub(plot_width));
        }
        XAxis {
            step,
            over_left,
            over_right,
        }
    }

    /// Ticks, labels and the name under a plot whose bottom left corner is `(left, bottom)`.
    fn push(&self, shapes: &mut Vec<Shape>, axis: &Axis, (left, bottom): (u32, u32), side: u32) {
        for (i, label) in axis.labels.iter().enumerate().step_by(self.step) {
            let cx = left + side * i as u32 + side / 2;
            shapes.push(Shape::Line {
                from: (cx, bottom),
                to: (cx, bottom + TICK),
                colour: INK,
            });
            shapes.push(Shape::Text {
                x: cx,
                y: bottom + TICK + X_LABEL_DROP + ASCENT,
                text: label.clone(),
                anchor: Anchor::Middle,
                vertical: false,
            });
        }
        shapes.push(Shape::Text {
            x: left + side * axis.labels.len() as u32 / 2,
            y: bottom + X_NAME_BASELINE,
            text: axis.name.clone(),
            anchor: Anchor::Middle,
            vertical: false,
        });
    }
}

/// Pixels between a tick's end and the top of its label (clear of a value label left of the
/// plot's lowest row).
const X_LABEL_DROP: u32 = 5;
/// From the plot's bottom edge to the horizontal axis's name's baseline, and to the end of
/// the room below the plot.
const X_NAME_BASELINE: u32 = TICK + X_LABEL_DROP + ASCENT + DESCENT + GAP + ASCENT;
const BELOW: u32 = X_NAME_BASELINE + DESCENT + PAD;

/// The title's lines, left-aligned at `left`; returns the y just under them.
fn push_title(shapes: &mut Vec<Shape>, lines: &[String], left: u32) -> u32 {
    for (k, line) in lines.iter().enumerate() {
        shapes.push(Shape::Text {
            x: left,
            y: PAD + ASCENT + LINE * k as u32,
            text: line.clone(),
            anchor: Anchor::Start,
            vertical: false,
        });
    }
    PAD + LINE * lines.len() as u32
}

/// The widest legend entry's width.
fn legend_width(entries: &[LegendEntry]) -> u32 {
    let text = entries
        .iter()
        .map(|e| text_width(&e.text))
        .max()
        .unwrap_or(0);
    SWATCH + 6 + text
}

/// The legend: a swatch and its text per entry, from `(left, top)` down; returns the y just
/// under it.
fn push_legend(shapes: &mut Vec<Shape>, entries: &[LegendEntry], left: u32, top: u32) -> u32 {
    let mut y = top;
    for e in entries {
        shapes.push(Shape::Rect {
            x: left,
            y,
            w: SWATCH,
            h: SWATCH,
            fill: e.colour,
            cell: None,
        });
        // A white swatch needs an outline to be seen.
        push_frame(shapes, (left, y), (left + SWATCH, y + SWATCH), GRID_LINE);
        // The text's capitals as tall as the swatch, beside it.
        shapes.push(Shape::Text {
            x: left + SWATCH + 6,
            y: y + SWATCH,
            text: e.text.clone(),
            anchor: Anchor::Start,
            vertical: false,
        });
        y += LEGEND_ROW;
    }
    y
}

/// A rectangle's outline, from its top left to its bottom right corner.
fn push_frame(
    shapes: &mut Vec<Shape>,
    (left, top): (u32, u32),
    (right, bottom): (u32, u32),
    colour: super::Rgb,
) {
    for (from, to) in [
        ((left, top), (right, top)),
        ((left, bottom), (right, bottom)),
        ((left, top), (left, bottom)),
        ((right, top), (right, bottom)),
    ] {
        shapes.push(Shape::Line { from, to, colour });
    }
}

/// A value label left of the plot, right-aligned before its tick, centred on `cy`.
fn push_y_label(shapes: &mut Vec<Shape>, left: u32, cy: u32, text: String) {
    shapes.push(Shape::Line {
        from: (left - TICK, cy),
        to: (left, cy),
        colour: INK,
    });
    shapes.push(Shape::Text {
        x: left - TICK - GAP / 2,
        y: cy + ASCENT / 2,
        text,
        anchor: Anchor::End,
        vertical: false,
    });
}

/// Where the plot's left edge goes: past the vertical axis's name (`name_column` wide, 0 for
/// none), the value labels (`labels` wide, 0 for none) and what the horizontal axis's labels
/// reach left of it.
fn plot_left(name_column: u32, labels: u32, x_over: u32) -> u32 {
    let before = PAD
        + if name_column > 0 {
            name_column + GAP
        } else {
            0
        };
    let labels = if labels > 0 {
        labels + GAP / 2 + TICK
    } else {
        0
    };
    before + labels.max(x_over + GAP)
}

impl Grid {
    pub(super) fn layout(&self, stop: &dyn Fn() -> bool) -> Result<Layout, Stopped> {
        let (nx, ny) = (self.x.labels.len(), self.y.labels.len());
        let side = cell_side(nx.max(ny));
        let (gw, gh) = (side * nx as u32, side * ny as u32);
        let x_axis = XAxis::measure(&self.x, side);
        let y_step = label_step(ny, side, ASCENT + DESCENT + 4);
        let y_labels = self
            .y
            .labels
            .iter()
            .step_by(y_step)
            .map(|l| text_width(l))
            .max()
            .unwrap_or(0);
        let left = plot_left(NAME_COLUMN, y_labels, x_axis.over_left);
        let mut shapes = Vec::new();
        let title = title_lines(&self.title);
        let top = push_title(&mut shapes, &title, left) + GAP;
        // The vertical name centred beside the plot, unless it is taller than the plot and
        // would pass the top of the picture.
        let name_length = text_width(&self.y.name);
        let name_centre = (top + gh / 2).max(PAD + name_length / 2);
        let range = int_range(self.cells.iter().flatten());
        for (xi, column) in self.cells.iter().enumerate() {
            if stop() {
                return Err(Stopped);
            }
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
        let (right, bottom) = (left + gw, top + gh);
        push_frame(&mut shapes, (left, top), (right, bottom), INK);
        x_axis.push(&mut shapes, &self.x, (left, bottom), side);
        for (i, label) in self.y.labels.iter().enumerate().step_by(y_step) {
            let cy = top + side * (ny - 1 - i) as u32 + side / 2;
            push_y_label(&mut shapes, left, cy, label.clone());
        }
        shapes.push(Shape::Text {
            x: PAD + ASCENT,
            y: name_centre,
            text: self.y.name.clone(),
            anchor: Anchor::Middle,
            vertical: true,
        });
        let entries = legend(self.cells.iter().flatten(), &self.mark_names);
        let legend_left = right + (x_axis.over_right + GAP).max(20);
        let legend_bottom = push_legend(&mut shapes, &entries, legend_left, top);
        let title_right = left + title.iter().map(|l| text_width(l)).max().unwrap_or(0);
        Ok(Layout {
            width: (legend_left + legend_width(&entries)).max(title_right) + PAD,
            height: (bottom + BELOW)
                .max(legend_bottom + PAD)
                .max(name_centre + name_length / 2 + PAD),
            shapes,
        })
    }
}

impl Sequence {
    /// The title, with the period found.
    fn full_title(&self) -> String {
        let mut title = self.title.clone();
        if let Some((pre, p, s)) = self.period {
            let from = self.x.labels.get(pre).cloned().unwrap_or_default();
            title.push_str(&if s == 0 {
                format!(": period {p} from {} = {from}", self.x.name)
            } else {
                format!(": period {p}, saltus {s}, from {} = {from}", self.x.name)
            });
        }
        title
    }

    pub(super) fn layout(&self, stop: &dyn Fn() -> bool) -> Result<Layout, Stopped> {
        let n = self.values.len();
        let side = cell_side(n).max(3);
        let gw = side * n as u32;
        let ints = self.values.iter().any(|c| matches!(c, Cell::Int(_)));
        // Integers are points over a value axis 240 pixels high; marks a strip of cells.
        let gh = if ints { 240 } else { side.max(16) };
        let range = int_range(self.values.iter());
        let (lo, hi) = range;
        let value_labels: Vec<i64> = match ints {
            true if lo < hi => vec![lo, hi],
            true => vec![lo],
            false => Vec::new(),
        };
        let x_axis = XAxis::measure(&self.x, side);
        let labels_width = value_labels
            .iter()
            .map(|v| text_width(&v.to_string()))
            .max()
            .unwrap_or(0);
        let left = plot_left(0, labels_width, x_axis.over_left);
        let mut shapes = Vec::new();
        let title = title_lines(&self.full_title());
        let top = push_title(&mut shapes, &title, left) + GAP;
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
        let y_of = |v: i64| -> u32 {
            if hi <= lo {
                return top + gh / 2;
            }
            let t =
                (i128::from(v) - i128::from(lo)) as f64 / (i128::from(hi) - i128::from(lo)) as f64;
            top + gh - 4 - (t * f64::from(gh - 8)).round() as u32
        };
        for (i, cell) in self.values.iter().enumerate() {
            if i % CHECK_EVERY == 0 && stop() {
                return Err(Stopped);
            }
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
                    to: (x, bottom + TICK),
                    colour: PERIOD_MARK,
                });
                at += every;
            }
        }
        push_frame(&mut shapes, (left, top), (right, bottom), INK);
        x_axis.push(&mut shapes, &self.x, (left, bottom), side);
        for v in value_labels {
            push_y_label(&mut shapes, left, y_of(v), v.to_string());
        }
        let mut entries = legend(self.values.iter(), &self.mark_names);
        if let Some((pre, ..)) = self.period {
            entries.push(LegendEntry {
                colour: PERIOD_MARK,
                text: "a period starts".to_string(),
            });
            if pre > 0 {
                entries.push(LegendEntry {
                    colour: PREPERIOD_SHADE,
                    text: "preperiod".to_string(),
                });
            }
        }
        let legend_left = right + (x_axis.over_right + GAP).max(20);
        let legend_bottom = push_legend(&mut shapes, &entries, legend_left, top);
        let title_right = left + title.iter().map(|l| text_width(l)).max().unwrap_or(0);
        Ok(Layout {
            width: (legend_left + legend_width(&entries)).max(title_right) + PAD,
            height: (bottom + BELOW).max(legend_bottom + PAD),
            shapes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_wrap_at_spaces_and_end_cut() {
        assert_eq!(title_lines(""), Vec::<String>::new());
        assert_eq!(title_lines("a b"), vec!["a b"]);
        let words = "word ".repeat(30);
        let lines = title_lines(words.trim_end());
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|l| l.chars().count() <= TITLE_CHARS));
        assert_eq!(lines.join(" "), words.trim_end());
        let long = "x".repeat(TITLE_CHARS * TITLE_LINES + 1);
        let lines = title_lines(&long);
        assert_eq!(lines.len(), TITLE_LINES);
        assert!(lines.iter().all(|l| l.chars().count() == TITLE_CHARS));
        assert!(lines[TITLE_LINES - 1].ends_with("..."));
    }
}
