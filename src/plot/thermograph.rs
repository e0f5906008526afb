//! A thermograph as SVG: temperature upward from -1, value along the bottom with the
//! positive values on the left (as Winning Ways and CGSuite draw it, Left's side on the
//! left); the left wall in Left's blue, the right wall in Right's red, the mast above the
//! temperature in black.

use std::fmt::Write;

use super::svg::escape;

/// The walls of a thermograph: each a list of `(temperature, value)` breakpoints in
/// increasing temperature from -1, the wall linear between them and vertical after the last.
#[derive(Clone, Debug, PartialEq)]
pub struct Walls {
    /// The left wall.
    pub left: Vec<(f64, f64)>,
    /// The right wall.
    pub right: Vec<(f64, f64)>,
    /// Where the walls meet.
    pub temperature: f64,
    /// The mast's value.
    pub mean: f64,
}

const WIDTH: f64 = 360.0;
const HEIGHT: f64 = 300.0;
const MARGIN: f64 = 44.0;
const LEFT_BLUE: &str = "#1f5fbf";
const RIGHT_RED: &str = "#c0392b";

/// A number as a short label: an integer plain, else up to three decimals.
fn label(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').to_string()
    }
}

/// A step between ticks that gives at most about eight of them over `span`.
fn tick_step(span: f64) -> f64 {
    let mut step = 0.25;
    while span / step > 8.0 {
        step *= 2.0;
    }
    step
}

/// The SVG document of a thermograph, titled `title` (the game value's printed form).
pub fn write(title: &str, walls: &Walls) -> String {
    let top = walls.temperature.max(0.0) + 1.0;
    let values = walls.left.iter().chain(&walls.right).map(|&(_, v)| v);
    let (lo, hi) = values.fold((walls.mean, walls.mean), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let (lo, hi) = (lo - 0.5, hi + 0.5);
    let plot_w = WIDTH - 2.0 * MARGIN;
    let plot_h = HEIGHT - 2.0 * MARGIN;
    // Positive values on the left.
    let x = |v: f64| MARGIN + (hi - v) / (hi - lo) * plot_w;
    let y = |t: f64| MARGIN + (top - t) / (top + 1.0) * plot_h;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"thermograph\" width=\"{WIDTH}\" \
         height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"DejaVu Sans, sans-serif\" \
         font-size=\"12\" data-temperature=\"{}\" data-mean=\"{}\">",
        walls.temperature, walls.mean
    );
    let _ = writeln!(
        out,
        "<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"white\"/>"
    );
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"18\" text-anchor=\"middle\" font-size=\"13\">thermograph of {}</text>",
        WIDTH / 2.0,
        escape(title)
    );
    // The axes: temperature 0 across, value 0 up (where it is in view), with ticks.
    let _ = writeln!(
        out,
        "<line x1=\"{MARGIN}\" y1=\"{y0:.1}\" x2=\"{x1:.1}\" y2=\"{y0:.1}\" stroke=\"#999\"/>",
        y0 = y(0.0),
        x1 = WIDTH - MARGIN
    );
    let step = tick_step(hi - lo);
    let mut v = (lo / step).ceil() * step;
    while v <= hi {
        let _ = writeln!(
            out,
            "<line x1=\"{px:.1}\" y1=\"{b:.1}\" x2=\"{px:.1}\" y2=\"{b2:.1}\" stroke=\"#999\"/>\
             <text x=\"{px:.1}\" y=\"{ty:.1}\" text-anchor=\"middle\">{}</text>",
            label(v),
            px = x(v),
            b = HEIGHT - MARGIN,
            b2 = HEIGHT - MARGIN + 4.0,
            ty = HEIGHT - MARGIN + 16.0
        );
        v += step;
    }
    let step = tick_step(top + 1.0);
    let mut t = (-1.0f64 / step).ceil() * step;
    while t <= top {
        let _ = writeln!(
            out,
            "<text x=\"{tx:.1}\" y=\"{py:.1}\" text-anchor=\"end\">{}</text>",
            label(t),
            tx = MARGIN - 6.0,
            py = y(t) + 4.0
        );
        t += step;
    }
    let _ = writeln!(
        out,
        "<text x=\"12\" y=\"{}\" transform=\"rotate(-90 12 {})\" text-anchor=\"middle\">temperature</text>",
        HEIGHT / 2.0,
        HEIGHT / 2.0
    );
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">value (Left ← positive)</text>",
        WIDTH / 2.0,
        HEIGHT - 8.0
    );
    for (wall, colour, class) in [
        (&walls.left, LEFT_BLUE, "left-wall"),
        (&walls.right, RIGHT_RED, "right-wall"),
    ] {
        // Up to the temperature: the mast above it is drawn once, in black.
        let mut points: Vec<(f64, f64)> = wall
            .iter()
            .copied()
            .filter(|&(t, _)| t <= walls.temperature)
            .collect();
        points.push((walls.temperature, walls.mean));
        let path: Vec<String> = points
            .iter()
            .map(|&(t, v)| format!("{:.1},{:.1}", x(v), y(t)))
            .collect();
        let _ = writeln!(
            out,
            "<polyline class=\"{class}\" points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2.5\"/>",
            path.join(" ")
        );
    }
    let _ = writeln!(
        out,
        "<line class=\"mast\" x1=\"{mx:.1}\" y1=\"{a:.1}\" x2=\"{mx:.1}\" y2=\"{b:.1}\" stroke=\"black\" stroke-width=\"2.5\"/>",
        mx = x(walls.mean),
        a = y(walls.temperature),
        b = y(top)
    );
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\">t = {}, mean {}</text>",
        x(walls.mean) + 6.0,
        y(top) + 12.0,
        label(walls.temperature),
        label(walls.mean)
    );
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_switch_has_its_walls_meeting_at_its_temperature_over_its_mean() {
        // {3 | -1}: walls vertical at 3 and -1 up to t = 2, where they meet at 1.
        let walls = Walls {
            left: vec![(-1.0, 3.0), (2.0, 1.0)],
            right: vec![(-1.0, -1.0), (2.0, 1.0)],
            temperature: 2.0,
            mean: 1.0,
        };
        let svg = write("{3|-1}", &walls);
        assert!(
            svg.contains("data-temperature=\"2\" data-mean=\"1\""),
            "{svg}"
        );
        assert!(svg.contains("class=\"left-wall\""), "{svg}");
        assert!(svg.contains("thermograph of {3|-1}"), "{svg}");
        // Left's wall (at 3, positive) lies left of Right's (at -1).
        let first_x = |class: &str| -> f64 {
            let at = svg.find(&format!("class=\"{class}\" points=\"")).unwrap();
            let rest = &svg[at + class.len() + 17..];
            rest.split(',').next().unwrap().parse().unwrap()
        };
        assert!(first_x("left-wall") < first_x("right-wall"), "{svg}");
    }
}
