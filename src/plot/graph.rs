//! A game graph laid out and drawn as SVG, for a browser that has no Graphviz: positions in
//! layers by their distance from the start (a move down a layer or more is drawn straight, a
//! move back up or across, which only a loopy game has, as a curve), each layer ordered by
//! the mean place of its neighbours (a few sweeps down and up, as layered drawing does), the
//! nodes and moves styled as `dot::write` styles them.

use std::fmt::Write;

use super::dot::{By, Edge, Node};
use super::svg::escape;

/// Pixels a character of the monospace font takes across, and a line down.
const CHAR_W: f64 = 8.4;
const LINE_H: f64 = 17.0;
const PAD: f64 = 8.0;
const GAP_X: f64 = 18.0;
const GAP_Y: f64 = 48.0;
const MARGIN: f64 = 16.0;
const TITLE_H: f64 = 28.0;
/// How far right of its nodes a move back up bows.
const BOW: f64 = 40.0;
/// Sweeps of the ordering by neighbours' places.
const SWEEPS: usize = 6;

/// The lines a node shows: its picture or printed form, then its outcome and value.
fn lines(node: &Node) -> Vec<String> {
    let mut out: Vec<String> = match &node.picture {
        Some(p) => p.lines().map(str::to_string).collect(),
        None => vec![node.label.clone()],
    };
    let facts: Vec<&str> = [Some(node.outcome.as_str()), node.value.as_deref()]
        .into_iter()
        .flatten()
        .filter(|s| !s.is_empty())
        .collect();
    if !facts.is_empty() {
        out.push(facts.join(", "));
    }
    out
}

/// Each node's layer: the longest path to it from node 0 over the moves that are not back
/// moves (those that close a cycle, found by a depth-first walk from node 0), so that every
/// other move goes down at least one layer. A node no move reaches (none in a graph walked
/// from the start) goes in layer 0.
fn layers(count: usize, edges: &[Edge]) -> Vec<usize> {
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); count];
    for e in edges {
        next[e.from].push(e.to);
    }
    // Depth-first from 0: the order nodes finish in, reversed, is a topological order of
    // the moves that are not back moves; a back move goes to a node still on the stack.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let mut mark = vec![Mark::New; count];
    let mut finished = Vec::with_capacity(count);
    let mut back = std::collections::HashSet::new();
    for root in 0..count {
        if mark[root] != Mark::New {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        mark[root] = Mark::Open;
        while let Some(&mut (n, ref mut i)) = stack.last_mut() {
            if let Some(&m) = next[n].get(*i) {
                *i += 1;
                match mark[m] {
                    Mark::New => {
                        mark[m] = Mark::Open;
                        stack.push((m, 0));
                    }
                    Mark::Open => {
                        back.insert((n, m));
                    }
                    Mark::Done => {}
                }
            } else {
                mark[n] = Mark::Done;
                finished.push(n);
                stack.pop();
            }
        }
    }
    let mut layer = vec![0usize; count];
    for &n in finished.iter().rev() {
        for &m in &next[n] {
            if !back.contains(&(n, m)) {
                layer[m] = layer[m].max(layer[n] + 1);
            }
        }
    }
    layer
}

/// The nodes of each layer in drawing order, after sweeps that sort each layer by the mean
/// place of its neighbours in the layer above (going down) or below (going up).
fn order(layer: &[usize], edges: &[Edge]) -> Vec<Vec<usize>> {
    let depth = layer.iter().copied().max().map_or(0, |d| d + 1);
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); depth];
    for (n, &l) in layer.iter().enumerate() {
        rows[l].push(n);
    }
    let mut place = vec![0.0f64; layer.len()];
    let set_places = |rows: &[Vec<usize>], place: &mut [f64]| {
        for row in rows {
            for (i, &n) in row.iter().enumerate() {
                place[n] = i as f64;
            }
        }
    };
    set_places(&rows, &mut place);
    for sweep in 0..SWEEPS {
        let down = sweep % 2 == 0;
        let range: Vec<usize> = if down {
            (1..depth).collect()
        } else {
            (0..depth.saturating_sub(1)).rev().collect()
        };
        for l in range {
            let neighbour_layer = if down { l - 1 } else { l + 1 };
            let mut key = vec![(0.0f64, 0usize); layer.len()];
            for e in edges {
                let (here, there) = if down { (e.to, e.from) } else { (e.from, e.to) };
                if layer[here] == l && layer[there] == neighbour_layer {
                    key[here].0 += place[there];
                    key[here].1 += 1;
                }
            }
            let mean = |n: usize| {
                let (sum, k) = key[n];
                if k == 0 {
                    place[n]
                } else {
                    sum / k as f64
                }
            };
            let mut row = rows[l].clone();
            row.sort_by(|&a, &b| mean(a).total_cmp(&mean(b)).then(a.cmp(&b)));
            rows[l] = row;
            set_places(&rows, &mut place);
        }
    }
    rows
}

/// The SVG document of a game graph titled `title`; node 0 is the start, drawn with a
/// double border.
pub fn write(title: &str, nodes: &[Node], edges: &[Edge]) -> String {
    let text: Vec<Vec<String>> = nodes.iter().map(lines).collect();
    let size: Vec<(f64, f64)> = text
        .iter()
        .map(|ls| {
            let widest = ls.iter().map(|l| l.chars().count()).max().unwrap_or(1);
            (
                widest as f64 * CHAR_W + 2.0 * PAD,
                ls.len() as f64 * LINE_H + PAD,
            )
        })
        .collect();
    let layer = layers(nodes.len(), edges);
    let rows = order(&layer, edges);
    let row_width = |row: &Vec<usize>| {
        row.iter().map(|&n| size[n].0).sum::<f64>() + GAP_X * row.len().saturating_sub(1) as f64
    };
    let widest = rows.iter().map(row_width).fold(0.0, f64::max);
    let title_w = title.chars().count() as f64 * 7.5;
    // Room on the right for the curves of moves back up.
    let bows = if edges.iter().any(|e| layer[e.to] <= layer[e.from]) {
        BOW + 8.0
    } else {
        0.0
    };
    let inner = widest.max(title_w) + 2.0 * MARGIN;
    let width = inner + bows;
    // Each node's top-left corner.
    let mut at = vec![(0.0f64, 0.0f64); nodes.len()];
    let mut y = MARGIN + TITLE_H;
    for row in &rows {
        let mut x = (inner - row_width(row)) / 2.0;
        let tallest = row.iter().map(|&n| size[n].1).fold(0.0, f64::max);
        for &n in row {
            at[n] = (x, y + (tallest - size[n].1) / 2.0);
            x += size[n].0 + GAP_X;
        }
        y += tallest + GAP_Y;
    }
    let height = y - GAP_Y + MARGIN;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"game-graph\" width=\"{width:.0}\" \
         height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" \
         font-family=\"DejaVu Sans Mono, monospace\" font-size=\"14\" data-nodes=\"{}\" data-moves=\"{}\">",
        nodes.len(),
        edges.len()
    );
    out.push_str(
        "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" \
         markerUnits=\"userSpaceOnUse\" markerWidth=\"9\" markerHeight=\"9\" orient=\"auto-start-reverse\">\
         <path d=\"M0,0 L10,5 L0,10 z\" fill=\"#555\"/></marker></defs>\n",
    );
    let _ = writeln!(
        out,
        "<rect width=\"{width:.0}\" height=\"{height:.0}\" fill=\"white\"/>\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-family=\"DejaVu Sans, sans-serif\">{}</text>",
        width / 2.0,
        MARGIN + 14.0,
        escape(title)
    );
    for e in edges {
        let (fx, fy) = at[e.from];
        let (tx, ty) = at[e.to];
        let (fw, fh) = size[e.from];
        let (tw, th) = size[e.to];
        let colour = match e.by {
            By::Either if e.winning => "black",
            by => by.colour(),
        };
        let (class, width) = if e.winning {
            (format!("{} winning", e.by.class()), 2.5)
        } else {
            (e.by.class().to_string(), 1.2)
        };
        let style = format!("class=\"{class}\" stroke=\"{colour}\" stroke-width=\"{width}\"");
        let path = if layer[e.to] > layer[e.from] {
            format!(
                "M{:.1},{:.1} L{:.1},{:.1}",
                fx + fw / 2.0,
                fy + fh,
                tx + tw / 2.0,
                ty
            )
        } else {
            // Across or back up: out of one side and into the other's, bowed outward.
            let (sx, sy) = (fx + fw, fy + fh / 2.0);
            let (ex, ey) = (tx + tw, ty + th / 2.0);
            let bow = sx.max(ex) + BOW;
            if e.from == e.to {
                format!(
                    "M{sx:.1},{:.1} C{bow:.1},{:.1} {bow:.1},{:.1} {sx:.1},{:.1}",
                    sy - 5.0,
                    sy - 25.0,
                    sy + 25.0,
                    sy + 5.0
                )
            } else {
                format!("M{sx:.1},{sy:.1} C{bow:.1},{sy:.1} {bow:.1},{ey:.1} {ex:.1},{ey:.1}")
            }
        };
        let _ = writeln!(
            out,
            "<path d=\"{path}\" fill=\"none\" {style} marker-end=\"url(#arrow)\" \
             data-from=\"{}\" data-to=\"{}\"/>",
            e.from, e.to
        );
    }
    for (n, node) in nodes.iter().enumerate() {
        let (x, y) = at[n];
        let (w, h) = size[n];
        let (fill, ink) = match node.outcome.as_str() {
            "P" => ("black", "white"),
            "D" => ("#cccccc", "black"),
            "L" => ("#d6e4f7", "black"),
            "R" => ("#f7d9d6", "black"),
            _ => ("white", "black"),
        };
        let _ = writeln!(
            out,
            "<g class=\"node\" data-index=\"{n}\" data-outcome=\"{}\"><title>{}</title>",
            escape(&node.outcome),
            escape(&node.label)
        );
        if n == 0 {
            let _ = writeln!(
                out,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"8\" fill=\"none\" stroke=\"black\"/>",
                x - 3.0,
                y - 3.0,
                w + 6.0,
                h + 6.0
            );
        }
        let _ = writeln!(
            out,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" rx=\"6\" fill=\"{fill}\" stroke=\"black\"/>"
        );
        for (i, line) in text[n].iter().enumerate() {
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"{ink}\" xml:space=\"preserve\">{}</text>",
                x + PAD,
                y + PAD / 2.0 + LINE_H * (i as f64 + 0.8),
                escape(line)
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(label: &str, outcome: &str) -> Node {
        Node {
            label: label.to_string(),
            picture: None,
            outcome: outcome.to_string(),
            value: None,
        }
    }

    #[test]
    fn layers_are_distances_from_the_start_and_a_move_up_is_a_curve() {
        let nodes = [node("a", "N"), node("b", "P"), node("c", "N")];
        let edges = [
            Edge {
                from: 0,
                to: 1,
                by: By::Either,
                winning: true,
            },
            Edge {
                from: 1,
                to: 2,
                by: By::Either,
                winning: false,
            },
            Edge {
                from: 2,
                to: 0,
                by: By::Either,
                winning: false,
            },
        ];
        assert_eq!(layers(3, &edges), vec![0, 1, 2]);
        let svg = write("a", &nodes, &edges);
        assert!(svg.contains("data-nodes=\"3\" data-moves=\"3\""), "{svg}");
        assert_eq!(svg.matches("class=\"move winning\"").count(), 1);
        // Down a layer: a straight line; back up to the start: a curve.
        assert!(svg.contains("data-from=\"0\" data-to=\"1\""));
        let back = svg
            .lines()
            .find(|l| l.contains("data-from=\"2\" data-to=\"0\""))
            .unwrap();
        assert!(back.contains(" C"), "{back}");
        // The P-position is filled black with white text.
        assert!(svg.contains("fill=\"black\" stroke=\"black\"/>\n<text x=\""));
    }

    #[test]
    fn a_layer_is_ordered_by_its_parents_places() {
        // 0 -> 1, 2; 1 -> 4; 2 -> 3: the sweeps put 4 (under 1) before 3 (under 2).
        let edges = [
            Edge {
                from: 0,
                to: 1,
                by: By::Either,
                winning: false,
            },
            Edge {
                from: 0,
                to: 2,
                by: By::Either,
                winning: false,
            },
            Edge {
                from: 1,
                to: 4,
                by: By::Either,
                winning: false,
            },
            Edge {
                from: 2,
                to: 3,
                by: By::Either,
                winning: false,
            },
        ];
        let layer = layers(5, &edges);
        let rows = order(&layer, &edges);
        assert_eq!(rows, vec![vec![0], vec![1, 2], vec![4, 3]]);
    }
}
