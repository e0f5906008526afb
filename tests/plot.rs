//! `cgl plot` and `cgl dot`: the pictures are read back (the SVG parsed with roxmltree, the
//! PNG decoded, the DOT parsed by a small parser below) and compared with values computed
//! independently (`cgl eval` of the same cells, a closed formula, a brute force).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::common::{assert_no_crash, cgl, temp_dir};

const LEGO: &str = "remoteness(Lego[limit = 3, mode = conjunctive](a, b))";

/// A cell of the SVG: its rectangle and its value's text.
#[derive(Debug)]
struct SvgCell {
    x: u32,
    y: u32,
    w: u32,
    h: u32,
    fill: String,
    value: String,
}

fn attr_u32(node: &roxmltree::Node, name: &str) -> u32 {
    node.attribute(name)
        .unwrap_or_else(|| panic!("no {name}"))
        .parse()
        .unwrap_or_else(|_| panic!("{name} is not a number"))
}

/// The SVG's cells by (x index, y index), its texts, and its legend (swatch colour by text).
type SvgRead = (
    BTreeMap<(usize, usize), SvgCell>,
    Vec<String>,
    BTreeMap<String, String>,
);

/// Reads an SVG picture back.
fn read_svg(text: &str) -> SvgRead {
    let doc = roxmltree::Document::parse(text).expect("the SVG is XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let mut cells = BTreeMap::new();
    let mut swatches = Vec::new();
    let mut texts = Vec::new();
    let mut text_at = Vec::new();
    for node in doc.descendants().filter(|n| n.is_element()) {
        match node.tag_name().name() {
            "rect" if node.attribute("class") == Some("cell") => {
                let key = (
                    node.attribute("data-x").unwrap().parse().unwrap(),
                    node.attribute("data-y").unwrap().parse().unwrap(),
                );
                let cell = SvgCell {
                    x: attr_u32(&node, "x"),
                    y: attr_u32(&node, "y"),
                    w: attr_u32(&node, "width"),
                    h: attr_u32(&node, "height"),
                    fill: node.attribute("fill").unwrap().to_string(),
                    value: node.attribute("data-value").unwrap().to_string(),
                };
                assert!(cells.insert(key, cell).is_none(), "cell {key:?} twice");
            }
            "rect" if node.attribute("width") == Some("14") => {
                swatches.push((
                    attr_u32(&node, "x"),
                    attr_u32(&node, "y"),
                    node.attribute("fill").unwrap().to_string(),
                ));
            }
            "text" => {
                let t = node.text().unwrap_or("").to_string();
                text_at.push((attr_u32(&node, "x"), attr_u32(&node, "y"), t.clone()));
                texts.push(t);
            }
            _ => {}
        }
    }
    // A legend entry: a 14-pixel swatch, its text 20 pixels right and 14 down (its capitals as tall as the swatch).
    let mut legend = BTreeMap::new();
    for (x, y, fill) in swatches {
        if let Some((_, _, t)) = text_at
            .iter()
            .find(|(tx, ty, _)| *tx == x + 20 && *ty == y + 14)
        {
            legend.insert(t.clone(), fill);
        }
    }
    (cells, texts, legend)
}

fn hex(rgb: &[u8]) -> String {
    format!("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2])
}

/// Decodes a PNG: (width, height, RGB pixels).
pub fn read_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).expect("one frame");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn eval_list(file: &str, expr: &str) -> Vec<String> {
    let (code, out, err) = cgl(&["eval", "-f", file, expr]);
    assert_eq!(code, 0, "{err}");
    out.trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(", ")
        .map(str::to_string)
        .collect()
}

/// The thesis's picture: the Kalmár–Steinhaus function of conjunctive LEGO with height limit
/// 3 over 1..=50 × 1..=50, as SVG and PNG. The cells' values are those `cgl eval` gives and
/// those of 003 Thm 46's closed form; the PNG's pixels at each sampled cell are the colour of
/// that value's legend entry; the first values are at the bottom left.
#[test]
fn lego_remoteness_plot_draws_the_thesis_picture() {
    let dir = temp_dir("plot-lego");
    let (svg_path, png_path) = (dir.join("lego.svg"), dir.join("lego.png"));
    for path in [&svg_path, &png_path] {
        let (code, out, err) = cgl(&[
            "plot",
            "-f",
            "examples/lego.game",
            LEGO,
            "--x",
            "a=1..=50",
            "--y",
            "b=1..=50",
            "-o",
            path.to_str().unwrap(),
        ]);
        assert_no_crash("plot", &err);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, "", "with -o nothing goes to stdout");
    }
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let (cells, texts, legend) = read_svg(&svg);
    assert_eq!(cells.len(), 2500);
    for i in 0..50 {
        for j in 0..50 {
            assert!(cells.contains_key(&(i, j)), "cell ({i}, {j}) is missing");
        }
    }
    // Origin bottom left: (a, b) = (1, 1) is the lowest, leftmost cell; a grows to the right
    // and b upwards.
    let first = &cells[&(0, 0)];
    assert!(cells.values().all(|c| c.x >= first.x && c.y <= first.y));
    assert!(cells[&(1, 0)].x > first.x && cells[&(1, 0)].y == first.y);
    assert!(cells[&(0, 1)].y < first.y && cells[&(0, 1)].x == first.x);
    // Axes labelled: the variables, the first value, the title.
    for t in ["a", "b", "1", LEGO] {
        assert!(texts.iter().any(|x| x == t), "no text `{t}` in {texts:?}");
    }
    // Every value met has its legend entry, of its cells' colour.
    for c in cells.values() {
        assert_eq!(legend.get(&c.value), Some(&c.fill), "legend of {}", c.value);
    }
    // Sampled cells against `cgl eval` and the closed form.
    let samples: Vec<(usize, usize)> = vec![
        (1, 1),
        (1, 50),
        (50, 1),
        (50, 50),
        (2, 3),
        (3, 2),
        (4, 7),
        (7, 8),
        (8, 14),
        (14, 15),
        (15, 25),
        (26, 41),
        (42, 42),
        (25, 26),
        (33, 17),
        (10, 40),
        (41, 42),
        (49, 12),
    ];
    let pairs: Vec<String> = samples.iter().map(|(a, b)| format!("({a}, {b})")).collect();
    let list = pairs.join(", ");
    let by_eval = eval_list(
        "examples/lego.game",
        &format!("[{} for (a, b) in [{list}]]", LEGO),
    );
    let by_formula = eval_list(
        "examples/lego.game",
        &format!("[kappa_conj(3, a, b) for (a, b) in [{list}]]"),
    );
    assert_eq!(by_eval, by_formula, "the analysis and 003 Thm 46 differ");
    let (width, height, pixels) = read_png(&png_path);
    let root = roxmltree::Document::parse(&svg).unwrap();
    let svg_el = root.root_element();
    assert_eq!(svg_el.attribute("width"), Some(width.to_string().as_str()));
    assert_eq!(
        svg_el.attribute("height"),
        Some(height.to_string().as_str())
    );
    for ((a, b), want) in samples.iter().zip(&by_eval) {
        let cell = &cells[&(a - 1, b - 1)];
        assert_eq!(&cell.value, want, "SVG cell ({a}, {b})");
        let (cx, cy) = (cell.x + cell.w / 2, cell.y + cell.h / 2);
        let at = (cy as usize * width as usize + cx as usize) * 3;
        let colour = hex(&pixels[at..at + 3]);
        assert_eq!(
            Some(&colour),
            legend.get(want),
            "PNG pixel of cell ({a}, {b}) = {want}"
        );
    }
    // The squares of 003 §5 show: the values differ across a square's edge (8 | 7).
    assert_ne!(cells[&(7, 7)].fill, cells[&(6, 6)].fill);
    let _ = std::fs::remove_dir_all(&dir);
}

/// P-positions black on white: `is P` over the unbounded conjunctive game is black exactly
/// where a and b have the same binary length (003 Cor 29), and the PNG agrees pixel for pixel
/// at each cell's centre.
#[test]
fn boolean_plot_marks_p_positions_black() {
    let dir = temp_dir("plot-bool");
    let png_path = dir.join("p.png");
    let svg_path = dir.join("p.svg");
    for path in [&png_path, &svg_path] {
        let (code, _, err) = cgl(&[
            "plot",
            "-f",
            "examples/lego.game",
            "Lego[mode = conjunctive](a, b) is P",
            "--x",
            "a=1..=20",
            "--y",
            "b=1..=20",
            "-o",
            path.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
    }
    let (cells, _, legend) = read_svg(&std::fs::read_to_string(&svg_path).unwrap());
    assert_eq!(legend.get("true").map(String::as_str), Some("#000000"));
    assert_eq!(legend.get("false").map(String::as_str), Some("#ffffff"));
    let bits = |n: usize| usize::BITS - n.leading_zeros();
    let (width, _, pixels) = read_png(&png_path);
    for a in 1..=20usize {
        for b in 1..=20usize {
            let cell = &cells[&(a - 1, b - 1)];
            let p = bits(a) == bits(b);
            assert_eq!(cell.value, p.to_string(), "({a}, {b})");
            let at = ((cell.y + cell.h / 2) as usize * width as usize
                + (cell.x + cell.w / 2) as usize)
                * 3;
            let want: &[u8] = if p { &[0, 0, 0] } else { &[255, 255, 255] };
            assert_eq!(&pixels[at..at + 3], want, "({a}, {b})");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A sequence plot marks the period it detects: Lasker's Nim's arithmetic period (4, saltus
/// 4, from n = 1) is in the title, and a period line starts at n = 1 and every 4 after.
#[test]
fn sequence_plot_marks_the_period() {
    let (code, svg, err) = cgl(&[
        "plot",
        "-f",
        "examples/lasker.game",
        "grundy(Lasker(n))",
        "--x",
        "n=0..40",
    ]);
    assert_eq!(code, 0, "{err}");
    let (cells, texts, legend) = read_svg(&svg);
    assert_eq!(cells.len(), 40);
    assert!(
        texts
            .iter()
            .any(|t| t == "grundy(Lasker(n)): period 4, saltus 4, from n = 1"),
        "{texts:?}"
    );
    assert!(legend.contains_key("a period starts") && legend.contains_key("preperiod"));
    let values: Vec<String> = (0..40).map(|i| cells[&(i, 0)].value.clone()).collect();
    assert_eq!(
        values,
        eval_list("examples/lasker.game", "[lasker(n) for n in 0..40]")
    );
    // The period lines: red, vertical, at the left edges of cells 1, 5, 9, ...
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let starts: Vec<String> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "line" && n.attribute("stroke") == Some("#d62728"))
        .map(|n| n.attribute("x1").unwrap().to_string())
        .collect();
    let side = cells[&(1, 0)].x - cells[&(0, 0)].x;
    let left = cells[&(0, 0)].x - (side - cells[&(0, 0)].w) / 2;
    let want: Vec<String> = (1..40)
        .step_by(4)
        .map(|i| format!("{}.5", left + side * i))
        .collect();
    assert_eq!(starts, want);
}

/// Every refusal is a diagnostic with its code and exit 2, before anything long runs: too
/// many cells, an axis too long, a malformed axis, a value with no picture; a plot past
/// `--timeout` stops with `cgl::limit::timeout`.
#[test]
fn plot_refusals_are_diagnostics() {
    let plot = |extra: &[&str]| {
        let mut args = vec!["plot", "-f", "examples/lego.game"];
        args.extend_from_slice(extra);
        cgl(&args)
    };
    let cases: Vec<(Vec<&str>, &str, i32)> = vec![
        (
            vec![
                LEGO,
                "--x",
                "a=1..=50",
                "--y",
                "b=1..=50",
                "--max-cells",
                "100",
            ],
            "cgl::plot::too_large",
            2,
        ),
        (vec!["a", "--x", "a=0..100000"], "cgl::plot::too_large", 2),
        (vec!["a", "--x", "1..5"], "cgl::plot::usage", 2),
        (vec!["a", "--x", "2a=1..5"], "cgl::plot::usage", 2),
        (vec!["a", "--x", "a=5"], "cgl::plot::usage", 2),
        (
            vec!["moves(Lego(a, 2))", "--x", "a=1..5"],
            "cgl::plot::usage",
            2,
        ),
        (vec!["zz", "--x", "a=1..5"], "cgl::resolve::unknown_name", 1),
        (
            vec!["a / (a - 3)", "--x", "a=1..5"],
            "cgl::eval::division_by_zero",
            1,
        ),
        (
            vec![
                "remoteness(Lego(a, b))",
                "--x",
                "a=1..=200",
                "--y",
                "b=1..=200",
                "--timeout",
                "0.5",
            ],
            "cgl::limit::timeout",
            1,
        ),
    ];
    for (args, code, exit) in cases {
        let started = std::time::Instant::now();
        let (got, out, err) = plot(&args);
        assert_no_crash("plot", &err);
        assert_eq!(got, exit, "{args:?}: {err}");
        assert!(err.contains(code), "{args:?}: {err}");
        assert_eq!(out, "", "{args:?}");
        assert!(
            started.elapsed().as_secs() < 30,
            "{args:?} took {:?}",
            started.elapsed()
        );
    }
    let (code, _, err) = cgl(&["plot", "a", "--x", "a=0..3", "-o", "/nonexistent-dir/x.svg"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot write /nonexistent-dir/x.svg"), "{err}");
}

// ---------------------------------------------------------------- DOT

/// A DOT graph read back: nodes with their attributes, edges with theirs.
#[derive(Debug, Default)]
struct DotGraph {
    nodes: BTreeMap<String, BTreeMap<String, String>>,
    edges: Vec<(String, String, BTreeMap<String, String>)>,
}

/// DOT's tokens, for the part of the language `cgl dot` writes: identifiers, quoted strings
/// (with `\"`, `\\` and `\n` escapes, and `\l`, a left-justified line break, read as `\n`),
/// `{ } [ ] = ; ,` and `->`.
fn tokens(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '"' {
            let mut s = String::from("\"");
            i += 1;
            loop {
                match chars.get(i) {
                    None => panic!("an unterminated string"),
                    Some('"') => break,
                    Some('\\') => {
                        match chars.get(i + 1) {
                            Some('n' | 'l') => s.push('\n'),
                            Some(&e) => s.push(e),
                            None => panic!("a string ends in a backslash"),
                        }
                        i += 2;
                    }
                    Some(&ch) => {
                        s.push(ch);
                        i += 1;
                    }
                }
            }
            i += 1;
            out.push(s);
        } else if c == '-' && chars.get(i + 1) == Some(&'>') {
            out.push("->".to_string());
            i += 2;
        } else if "{}[]=;,".contains(c) {
            out.push(c.to_string());
            i += 1;
        } else if c.is_alphanumeric() || c == '_' || c == '.' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '.')
            {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
        } else {
            panic!("unexpected character {c:?} in DOT");
        }
    }
    out
}

fn unquote(t: &str) -> String {
    t.strip_prefix('"').unwrap_or(t).to_string()
}

fn parse_dot(text: &str) -> DotGraph {
    let t = tokens(text);
    let mut i = 0;
    assert_eq!(t[i], "digraph");
    i += 1;
    if t[i] != "{" {
        i += 1; // the graph's name
    }
    assert_eq!(t[i], "{");
    i += 1;
    let attrs = |i: &mut usize| -> BTreeMap<String, String> {
        let mut map = BTreeMap::new();
        if t[*i] != "[" {
            return map;
        }
        *i += 1;
        while t[*i] != "]" {
            let key = unquote(&t[*i]);
            assert_eq!(t[*i + 1], "=", "an attribute needs a value");
            map.insert(key, unquote(&t[*i + 2]));
            *i += 3;
            if t[*i] == "," {
                *i += 1;
            }
        }
        *i += 1;
        map
    };
    let mut g = DotGraph::default();
    while t[i] != "}" {
        let id = unquote(&t[i]);
        i += 1;
        if t[i] == "=" {
            i += 2; // a graph attribute
        } else if t[i] == "->" {
            let to = unquote(&t[i + 1]);
            i += 2;
            let a = attrs(&mut i);
            g.edges.push((id, to, a));
        } else {
            let a = attrs(&mut i);
            if id != "node" && id != "edge" && id != "graph" {
                assert!(g.nodes.insert(id, a).is_none(), "a node twice");
            }
        }
        assert_eq!(t[i], ";", "a statement ends with `;`");
        i += 1;
    }
    assert_eq!(i, t.len() - 1, "text after the graph");
    g
}

/// Chomp's moves by brute force, from the rules in words (000): bite square (i, j), which
/// cuts every row from i up to at most j squares; the poisoned square (0, 0) is never bitten.
fn chomp_moves(rows: &[usize]) -> BTreeSet<Vec<usize>> {
    let mut out = BTreeSet::new();
    for i in 0..rows.len() {
        for j in 0..rows[i] {
            if (i, j) == (0, 0) {
                continue;
            }
            let next: Vec<usize> = rows
                .iter()
                .enumerate()
                .map(|(r, &l)| if r >= i { l.min(j) } else { l })
                .filter(|&l| l > 0)
                .collect();
            out.insert(next);
        }
    }
    out
}

fn chomp_is_p(rows: &[usize], memo: &mut BTreeMap<Vec<usize>, bool>) -> bool {
    if let Some(&p) = memo.get(rows) {
        return p;
    }
    let p = chomp_moves(rows).iter().all(|q| !chomp_is_p(q, memo));
    memo.insert(rows.to_vec(), p);
    p
}

fn rows_of(label: &str) -> Vec<usize> {
    let first = label.lines().next().unwrap();
    let inner = first
        .strip_prefix("Chomp([")
        .and_then(|s| s.strip_suffix("])"))
        .unwrap_or_else(|| panic!("{first}"));
    inner.split(", ").map(|n| n.parse().unwrap()).collect()
}

/// `cgl dot` of the 2 × 3 Chomp bar (000 Fig. 1) parses back into its game graph: the nine
/// positions, each position's moves as the rules in words give them, the P-positions of the
/// figure ([1], [2, 1], [3, 2], the figure's three E's) filled black, and bold edges exactly
/// the moves to them.
#[test]
fn dot_of_chomp_parses_back_with_the_figure_p_positions() {
    let (code, out, err) = cgl(&["dot", "-f", "examples/chomp.game", "Chomp([3, 3])"]);
    assert_no_crash("dot", &err);
    assert_eq!(code, 0, "{err}");
    let g = parse_dot(&out);
    let by_id: BTreeMap<&String, Vec<usize>> = g
        .nodes
        .iter()
        .map(|(id, a)| (id, rows_of(&a["tooltip"])))
        .collect();
    let positions: BTreeSet<Vec<usize>> = by_id.values().cloned().collect();
    let mut memo = BTreeMap::new();
    // Brute force: everything reachable from [3, 3].
    let mut reach = BTreeSet::new();
    let mut todo = vec![vec![3, 3]];
    while let Some(p) = todo.pop() {
        if reach.insert(p.clone()) {
            todo.extend(chomp_moves(&p));
        }
    }
    assert_eq!(positions, reach);
    assert_eq!(positions.len(), 9);
    let figure_p: BTreeSet<Vec<usize>> = [vec![1], vec![2, 1], vec![3, 2]].into_iter().collect();
    let black: BTreeSet<Vec<usize>> = g
        .nodes
        .iter()
        .filter(|(_, a)| a.get("fillcolor").map(String::as_str) == Some("black"))
        .map(|(id, _)| by_id[id].clone())
        .collect();
    assert_eq!(black, figure_p);
    let brute_p: BTreeSet<Vec<usize>> = reach
        .iter()
        .filter(|p| chomp_is_p(p, &mut memo))
        .cloned()
        .collect();
    assert_eq!(black, brute_p);
    for (id, a) in &g.nodes {
        let p = figure_p.contains(&by_id[id]);
        assert_eq!(a["class"], if p { "P" } else { "N" });
        // The label is Chomp's picture (rows of squares, the top row first, the poisoned
        // square an x), then the facts.
        let rows = &by_id[id];
        let mut lines: Vec<&str> = a["label"].lines().collect();
        let facts = lines.pop().unwrap();
        assert!(
            facts.starts_with(if p { "P, grundy 0" } else { "N, grundy " }),
            "{a:?}"
        );
        let widths: Vec<usize> = lines.iter().rev().map(|l| l.split(' ').count()).collect();
        assert_eq!(&widths, rows, "{a:?}");
        assert!(lines.last().unwrap().starts_with('x'), "{a:?}");
    }
    // The edges are the moves; bold exactly when they go to a P-position.
    for (id, rows) in &by_id {
        let out_edges: BTreeSet<Vec<usize>> = g
            .edges
            .iter()
            .filter(|(f, _, _)| f == *id)
            .map(|(_, t, _)| by_id[t].clone())
            .collect();
        assert_eq!(out_edges, chomp_moves(rows), "moves of {rows:?}");
    }
    for (_, to, a) in &g.edges {
        assert_eq!(
            a.get("style").map(String::as_str) == Some("bold"),
            figure_p.contains(&by_id[to])
        );
    }
    // The start is node 0, with a double border.
    assert_eq!(by_id[&"n0".to_string()], vec![3, 3]);
    assert_eq!(
        g.nodes["n0"].get("peripheries").map(String::as_str),
        Some("2")
    );
}

/// Past `--max-nodes`, a diagnostic and no output; a value that is not a position too.
/// `cgl dot` honours `--timeout` while it explores, values and labels the graph: Chomp 12 × 12
/// has 2,704,155 positions, minutes of work with the node cap raised past them; it stops with
/// `cgl::limit::timeout`, writes nothing, and exits 1 within seconds of the deadline.
#[test]
fn dot_stops_at_the_deadline() {
    let started = std::time::Instant::now();
    let (code, out, err) = cgl(&[
        "dot",
        "-f",
        "examples/chomp.game",
        "Chomp([12; 12])",
        "--max-nodes",
        "3000000",
        "--timeout",
        "1",
    ]);
    let took = started.elapsed();
    assert_no_crash("dot --timeout", &err);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("cgl::limit::timeout"), "{err}");
    assert_eq!(out, "");
    assert!(took.as_secs() < 6, "{took:?} with --timeout 1");
}

#[test]
fn dot_refusals_are_diagnostics() {
    let (code, out, err) = cgl(&[
        "dot",
        "-f",
        "examples/chomp.game",
        "Chomp([3, 3])",
        "--max-nodes",
        "5",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("cgl::plot::too_large") && err.contains("more than 5 positions"),
        "{err}"
    );
    assert_eq!(out, "");
    let (code, _, err) = cgl(&["dot", "-f", "examples/chomp.game", "[3, 3]"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cgl::plot::usage"), "{err}");
    // A draw game: outcomes D, no Grundy value, still a graph.
    let (code, out, err) = cgl(&["dot", "-f", "examples/loopy.game", "Token(6)"]);
    assert_no_crash("dot loopy", &err);
    assert_eq!(code, 0, "{err}");
    let g = parse_dot(&out);
    assert!(
        g.nodes
            .values()
            .any(|a| a["class"] == "D" && a["fillcolor"] == "gray80"),
        "{out}"
    );
}

/// Drawing asks its stop as it goes (`--timeout`, Ctrl-C): laying out, writing the SVG,
/// rasterising and encoding the PNG each stop at the first question answered yes, whichever
/// it is, and ask at least once every 1,024 shapes, so a large picture is cut short too.
#[test]
fn drawing_stops_when_asked() {
    use cgl::plot::{self as draw, Axis, Cell, DrawError, Grid, Plot, Stopped};
    use std::cell::Cell as Counter;
    let n = 300;
    let axis = |name: &str| Axis {
        name: name.to_string(),
        labels: (0..n).map(|i| i.to_string()).collect(),
    };
    let picture = Plot::Grid(Grid {
        title: "a + b".to_string(),
        x: axis("a"),
        y: axis("b"),
        cells: (0..n)
            .map(|a| (0..n).map(|b| Cell::Int((a + b) as i64)).collect())
            .collect(),
        mark_names: Vec::new(),
    });
    let layout = picture.layout(&|| false).expect("laid out");
    let shapes = layout.shapes.len();
    // A drawing step, run with a stop: whether it stopped.
    type Step<'a> = &'a dyn Fn(&dyn Fn() -> bool) -> bool;
    let steps: [(&str, Step); 3] = [
        ("layout", &|stop| {
            matches!(picture.layout(stop), Err(Stopped))
        }),
        ("svg", &|stop| {
            matches!(draw::svg::write(&layout, stop), Err(Stopped))
        }),
        ("png", &|stop| {
            matches!(draw::png::write(&layout, stop), Err(DrawError::Stopped))
        }),
    ];
    for (name, step) in steps {
        // How often the step asks when never told to stop.
        let asked = Counter::new(0);
        assert!(!step(&|| {
            asked.set(asked.get() + 1);
            false
        }));
        let asked = asked.get();
        let least = if name == "layout" { n } else { shapes / 1024 };
        assert!(
            asked >= least,
            "{name}: {asked} questions for {shapes} shapes"
        );
        // Told to stop at a question (a sample of them): it stops there, asking no more.
        for at in (1..=asked).step_by(asked / 20 + 1) {
            let count = Counter::new(0);
            let stopped = step(&|| {
                count.set(count.get() + 1);
                count.get() >= at
            });
            assert!(stopped, "{name}: not stopped at question {at}");
            assert_eq!(count.get(), at, "{name}: asked again after stop at {at}");
        }
    }
}

/// `cgl plot` past `--timeout` while a large plot is made stops with the usual timeout
/// diagnostic, writes nothing, and does so at once; and an axis of values printed long
/// (20,000 items each) has its labels cut, so the picture is not 720,000 pixels wide.
#[test]
fn a_large_plot_stops_at_its_deadline_and_long_labels_are_cut() {
    let dir = temp_dir("plot-deadline");
    let out = dir.join("big.png");
    let out_arg = out.to_str().unwrap();
    let started = std::time::Instant::now();
    let (code, stdout, stderr) = cgl(&[
        "plot",
        "a + b",
        "--x",
        "a=1..=2000",
        "--y",
        "b=1..=2000",
        "--max-cells",
        "4000000",
        "--timeout",
        "0.05",
        "-o",
        out_arg,
    ]);
    let took = started.elapsed();
    assert_no_crash("plot --timeout", &stderr);
    assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
    assert!(stderr.contains("cgl::limit::timeout"), "{stderr}");
    assert!(!out.exists(), "a plot past its deadline was written");
    assert!(took.as_secs_f64() < 0.9, "{took:?}");
    let (code, _, stderr) = cgl(&[
        "plot",
        "len(x)",
        "--x",
        "x=[[0; 20000]]",
        "--y",
        "y=[[1; 20000]]",
        "-o",
        out_arg,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (width, height, _) = read_png(&out);
    assert!(width < 2_000 && height < 2_000, "{width} x {height}");
    let _ = std::fs::remove_dir_all(&dir);
}
