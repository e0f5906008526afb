//! A game graph as Graphviz DOT: a node a position, labelled with its picture (its game's
//! `show` clause, where short; lines left-justified, in a monospace font) or else its printed
//! form, its outcome and its value, the printed form also as the node's tooltip; P-positions filled black (as the LEGO thesis draws them); a move
//! to a P-position (a winning move) bold.

use std::fmt::Write;

/// A position of the graph.
#[derive(Clone, Debug)]
pub struct Node {
    /// Its printed form (cut short by the caller if long).
    pub label: String,
    /// Its picture, when it has one short enough to draw in a node.
    pub picture: Option<String>,
    /// `N`, `P`, `D`, or empty if it has none.
    pub outcome: String,
    /// Its value in words (`grundy 2`), if it has one.
    pub value: Option<String>,
}

/// Who may make a move: either player (an impartial game), or Left or Right alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// Either player.
    Either,
    /// Left (drawn blue).
    Left,
    /// Right (drawn red).
    Right,
}

impl By {
    /// The colour of a move by this player that does not win.
    pub fn colour(self) -> &'static str {
        match self {
            By::Either => "#888888",
            By::Left => "#1f5fbf",
            By::Right => "#c0392b",
        }
    }

    /// The move's class: `move`, `move left` or `move right`.
    pub fn class(self) -> &'static str {
        match self {
            By::Either => "move",
            By::Left => "move left",
            By::Right => "move right",
        }
    }
}

/// A move.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    /// From this node (an index into the nodes).
    pub from: usize,
    /// To this one.
    pub to: usize,
    /// Who may make it.
    pub by: By,
    /// A winning move: to a P-position, or in a partizan game to one its mover wins
    /// moving second.
    pub winning: bool,
}

/// A string as a DOT quoted string: `"` and `\` escaped, line breaks as DOT's `\n`, other
/// control characters dropped.
pub fn quote(text: &str) -> String {
    format!("\"{}\"", escape(text, "\\n"))
}

/// The inside of a DOT quoted string, each line break written as `newline` (`\n` centres
/// the line before it, `\l` left-justifies it).
fn escape(text: &str, newline: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str(newline),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A node's label: its picture's lines left-justified (so that a board's columns line up)
/// or its printed form, then the facts on a line of their own.
fn label(node: &Node) -> String {
    let facts: Vec<&str> = [Some(node.outcome.as_str()), node.value.as_deref()]
        .into_iter()
        .flatten()
        .filter(|s| !s.is_empty())
        .collect();
    let facts = facts.join(", ");
    match &node.picture {
        Some(picture) => format!("\"{}\\l{}\"", escape(picture, "\\l"), escape(&facts, "\\n")),
        None if facts.is_empty() => quote(&node.label),
        None => quote(&format!("{}\n{facts}", node.label)),
    }
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
        let mut attrs = vec![
            format!("label={}", label(node)),
            format!("tooltip={}", quote(&node.label)),
            format!("class={}", quote(&node.outcome)),
        ];
        match node.outcome.as_str() {
            "P" => attrs.push("fillcolor=black, fontcolor=white".to_string()),
            "D" => attrs.push("fillcolor=gray80".to_string()),
            "L" => attrs.push("fillcolor=\"#d6e4f7\"".to_string()),
            "R" => attrs.push("fillcolor=\"#f7d9d6\"".to_string()),
            _ => {}
        }
        if i == 0 {
            attrs.push("peripheries=2".to_string());
        }
        let _ = writeln!(out, "  n{i} [{}];", attrs.join(", "));
    }
    for e in edges {
        // Impartial moves grey, or bold where they win; Left's blue, Right's red.
        let attrs = match (e.by, e.winning) {
            (By::Either, true) => "style=bold, penwidth=2.5, class=\"winning\"".to_string(),
            (By::Either, false) => "color=gray50".to_string(),
            (by, true) => format!(
                "color=\"{}\", style=bold, penwidth=2.5, class=\"{} winning\"",
                by.colour(),
                by.class()
            ),
            (by, false) => format!("color=\"{}\", class=\"{}\"", by.colour(), by.class()),
        };
        let _ = writeln!(out, "  n{} -> n{} [{attrs}];", e.from, e.to);
    }
    let _ = writeln!(out, "}}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(picture: Option<&str>) -> Node {
        Node {
            label: "Chomp([2, 1])".to_string(),
            picture: picture.map(str::to_string),
            outcome: "P".to_string(),
            value: Some("grundy 0".to_string()),
        }
    }

    #[test]
    fn a_picture_is_the_label_left_justified_and_the_position_its_tooltip() {
        let text = write("t", &[node(Some("■\nx ■"))], &[]);
        assert!(
            text.contains(
                "n0 [label=\"■\\lx ■\\lP, grundy 0\", tooltip=\"Chomp([2, 1])\", class=\"P\""
            ),
            "{text}"
        );
        let text = write("t", &[node(None)], &[]);
        assert!(
            text.contains("n0 [label=\"Chomp([2, 1])\\nP, grundy 0\", tooltip=\"Chomp([2, 1])\""),
            "{text}"
        );
        // Quotes and backslashes in a picture stay inside the string.
        let text = write("t", &[node(Some("\"\\"))], &[]);
        assert!(text.contains("label=\"\\\"\\\\\\lP, grundy 0\""), "{text}");
    }
}
