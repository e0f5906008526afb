//! A laid-out picture as SVG text: one `<rect>` a cell (with its indices and value in `data-`
//! attributes, so that a program can read the picture back), lines, and text.

use std::fmt::Write;

use super::{Anchor, Layout, Rgb, Shape, Stopped, BACKGROUND, CHECK_EVERY};

/// Text with XML's five special characters escaped, and control characters dropped (XML 1.0
/// cannot hold most of them).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// The SVG document of a layout, unless `stop` says to stop first.
pub fn write(layout: &Layout, stop: &dyn Fn() -> bool) -> Result<String, Stopped> {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"DejaVu Sans Mono, monospace\" font-size=\"18\">",
        w = layout.width,
        h = layout.height
    );
    let _ = writeln!(
        out,
        "<rect width=\"{}\" height=\"{}\" fill=\"{}\"/>",
        layout.width,
        layout.height,
        hex(BACKGROUND)
    );
    let _ = writeln!(out, "<g shape-rendering=\"crispEdges\">");
    for (i, shape) in layout.shapes.iter().enumerate() {
        if i % CHECK_EVERY == 0 && stop() {
            return Err(Stopped);
        }
        match shape {
            Shape::Rect {
                x,
                y,
                w,
                h,
                fill,
                cell,
            } => {
                let _ = write!(
                    out,
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"{}\"",
                    hex(*fill)
                );
                if let Some((i, j, text)) = cell {
                    let _ = write!(
                        out,
                        " class=\"cell\" data-x=\"{i}\" data-y=\"{j}\" data-value=\"{}\"><title>{}</title></rect>",
                        escape(text),
                        escape(text)
                    );
                    let _ = writeln!(out);
                } else {
                    let _ = writeln!(out, "/>");
                }
            }
            Shape::Line { from, to, colour } => {
                // Half a pixel in, so that a one-pixel line covers one row of pixels.
                let _ = writeln!(
                    out,
                    "<line x1=\"{}.5\" y1=\"{}.5\" x2=\"{}.5\" y2=\"{}.5\" stroke=\"{}\" stroke-width=\"1\"/>",
                    from.0,
                    from.1,
                    to.0,
                    to.1,
                    hex(*colour)
                );
            }
            Shape::Text {
                x,
                y,
                text,
                anchor,
                vertical,
            } => {
                let anchor = match anchor {
                    Anchor::Start => "start",
                    Anchor::Middle => "middle",
                    Anchor::End => "end",
                };
                let turn = if *vertical {
                    format!(" transform=\"rotate(-90 {x} {y})\"")
                } else {
                    String::new()
                };
                let _ = writeln!(
                    out,
                    "<text x=\"{x}\" y=\"{y}\" text-anchor=\"{anchor}\" fill=\"#282828\"{turn}>{}</text>",
                    escape(text)
                );
            }
        }
    }
    let _ = writeln!(out, "</g>");
    let _ = writeln!(out, "</svg>");
    Ok(out)
}
