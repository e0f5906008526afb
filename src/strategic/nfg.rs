//! A strategic game written as Gambit's `.nfg` file, the outcome version (it keeps the
//! strategies' labels): one outcome per profile, listed in Gambit's order, the first
//! player's strategy varying fastest. `crate::syntax::nfg` reads it back (and the payoff
//! version).

use std::fmt::Write;

use super::Game;

/// `text` as a quoted Gambit label (a quote inside is `\"`).
fn label(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\\\""))
}

/// The `.nfg` text of `game`, titled `title`, its strategies labelled `labels` (one list per
/// player).
pub fn write(game: &Game, title: &str, labels: &[Vec<String>]) -> String {
    let mut out = String::new();
    let players: Vec<String> = game.players.iter().map(|p| label(p)).collect();
    let _ = writeln!(out, "NFG 1 R {} {{ {} }}", label(title), players.join(" "));
    out.push_str("\n{\n");
    for strategies in labels {
        let shown: Vec<String> = strategies.iter().map(|s| label(s)).collect();
        let _ = writeln!(out, "{{ {} }}", shown.join(" "));
    }
    out.push_str("}\n\"\"\n\n{\n");
    let n = game.n();
    let profiles = game.profile_count();
    let mut profile = vec![0usize; n];
    for index in 0..profiles {
        let mut rest = index;
        for (slot, &count) in profile.iter_mut().zip(&game.counts) {
            *slot = rest % count;
            rest /= count;
        }
        let payoffs: Vec<String> = game
            .payoffs(&profile)
            .iter()
            .map(ToString::to_string)
            .collect();
        let _ = writeln!(out, "{{ \"\" {} }}", payoffs.join(", "));
    }
    out.push_str("}\n");
    let numbers: Vec<String> = (1..=profiles).map(|i| i.to_string()).collect();
    out.push_str(&numbers.join(" "));
    out.push('\n');
    out
}
