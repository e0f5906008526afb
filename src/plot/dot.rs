//! A game graph as Graphviz DOT: a node a position, labelled with its printed form, its
//! outcome and its value; P-positions filled black (as the LEGO thesis draws them); a move
//! to a P-position (a winning move) bold.

use std::fmt::Write;

/// A position of the graph.
#[derive(Clone, Debug)]
pub struct Node {
    /// Its printed form (cut short by the caller if long).
    pub label: String,
    /// `N`, `P`, `D`, or empty if it has none.
    pub outcome: String,
    /// Its value in words (`grundy 2`), if it has one.
    pub value: Option<String>,
}

/// A move.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    /// From this node (an index into the nodes).
    pub from: usize,
    /// To this one.
    pub to: usize,
    /// A winning move (to a P-position).
    pub winning: bool,
}

/// A string as a DOT quoted string: `"` and `\` escaped, line breaks as DOT's `\n`, other
/// control characters dropped.
pub fn quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The DOT text of a graph; node 0 is the start, drawn with a double border.
pub fn write(title: &str, nodes: &[Node], edges: &[Edge]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph {} {{", quote(title));
    let _ = writeln!(out, "  label={};", quote(title));
    let _ = writeln!(out, "  labelloc=t;");
    let _ = writeln!(
        out,
        "  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"monospace\"];"
    );
    for (i, node) in nodes.iter().enumerate() {
        let mut label = node.label.clone();
        let facts: Vec<&str> = [Some(node.outcome.as_str()), node.value.as_deref()]
            .into_iter()
            .flatten()
            .filter(|s| !s.is_empty())
            .collect();
        if !facts.is_empty() {
            label.push('\n');
            label.push_str(&facts.join(", "));
        }
        let mut attrs = vec![
            format!("label={}", quote(&label)),
            format!("class={}", quote(&node.outcome)),
        ];
        match node.outcome.as_str() {
            "P" => attrs.push("fillcolor=black, fontcolor=white".to_string()),
            "D" => attrs.push("fillcolor=gray80".to_string()),
            _ => {}
        }
        if i == 0 {
            attrs.push("peripheries=2".to_string());
        }
        let _ = writeln!(out, "  n{i} [{}];", attrs.join(", "));
    }
    for e in edges {
        if e.winning {
            let _ = writeln!(
                out,
                "  n{} -> n{} [style=bold, penwidth=2.5, class=\"winning\"];",
                e.from, e.to
            );
        } else {
            let _ = writeln!(out, "  n{} -> n{} [color=gray50];", e.from, e.to);
        }
    }
    let _ = writeln!(out, "}}");
    out
}
