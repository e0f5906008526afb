//! The text of `:help` and `:help TOPIC`.

use crate::api::command::{lookup, COMMANDS};

const INTRO: &str = "\
Type an expression to see its value, or a statement of the .game language:
  grundy(Kayles(10))            let x = Nim(3) + Nim(5)       winning_moves(x)
  game G { position n  move n - k for k in 1..=2 if k <= n }
  fn f(n) = ...   const C = ...   expect ...   print ...   import \"file.game\"
An entry may span lines while a bracket is open (the prompt is then `...>`).
";

const KEYS: &str = "\
Keys: Tab completes commands, games, built-ins and names; Up and Down walk the history
(saved in ~/.local/share/cgl/history); Ctrl-C cancels the line, or stops a long
computation; Ctrl-D leaves.
";

/// Topics other than the commands.
const TOPICS: &[(&str, &str)] = &[
    (
        "let",
        "let NAME = EXPR evaluates EXPR now and binds NAME for later entries; a later `let`,
`game`, `fn` or `const` of the same name shadows it. `let x = x + 1` uses the old x.
",
    ),
    (
        "language",
        "The language is described in spec/language.md: statements (game, fn, const, expect,
print, import), games (position, move, terminal if, draw if, start, compound, play
misere, loopy, payoff, show: how a position is drawn), values, operators, comprehensions
and the built-ins below.
",
    ),
    (
        "builtins",
        "Analyses: outcome grundy remoteness (ks) moves winning_moves line reachable period
saltus_period; score optimal_moves (payoff games)
Take-and-break codes: octal(code) hex(code) (games: octal(\"0.77\")(5) is a row of Kayles)
octal_moves(code, n) octal_values(code, n) octal_period(code) period(octal(code))
misere_quotient(code, n) misere_outcome(code, heaps)
Sets and numbers: mex lego len count popcount bits v2 gcd abs min max sum any all
Lists: sorted reversed list enumerate zip set str
Pictures: grid(cells, width, symbols) join(xs, sep) picture(p)
Positions: split misere normal; compounds x + y (sum), x & y (conjunctive),
x | y (selective). Constants: N P D disjunctive conjunctive selective.
",
    ),
    ("keys", KEYS),
];

/// Details of each command.
fn details(command: &str) -> &'static str {
    match command {
        "load" => {
            "Loads a .game file: its games, functions and constants come into scope (its
expects do not run; `cgl check` runs them). Loading a file again re-reads everything,
as :reload does.
"
        }
        "reload" => {
            "Starts afresh: reads the loaded files again, then replays the definitions
and lets typed here, in order. Those that no longer work are dropped, with the reason.
"
        }
        "explain" => {
            "For a position: its outcome, Grundy value and remoteness, then each option
with its outcome, Grundy value and remoteness; the mex set (the options' Grundy
values) and the lego set (their remoteness values); and the winning moves.
For a partizan position: its class (L, R, N, P) and why, its value (canonical
form) with its stops and temperature, and Left's and Right's options with
their values and classes.
A game with a `show` clause has the position and its options drawn.
Example: :explain Kayles(4)
"
        }
        "table" => {
            "Tabulates an expression over a range, ten values to a row (a row per period
when a period is spotted), and reports the period: preperiod and period as in
period(xs), or, for integers with none, the arithmetic period and its saltus as in
saltus_period(xs). Example: :table grundy(Kayles(n)) for n in 0..100
:table octal(\"0.77\") shows a take-and-break game's heaps with the period the
periodicity theorem proves, and the heap it is proved at; :table G of a strategic
game, its payoffs.
"
        }
        "grid" => {
            "A 2-D table: rows for the first variable, columns for the second, whose range
may depend on the first. true and false are drawn as ■ and ·; on a colour terminal
zero, P and true are bold green and each positive value has a colour of its own.
Example: :grid grundy(Wythoff(a, b)) for a in 0..8, b in 0..8
"
        }
        "play" => {
            "Play against the computer from a position; you move first (`:play computer P`:
the computer does). Choose a move by its number or type the position; `undo`
takes back your last move, `hint` shows the winning moves, `quit` leaves. The
computer wins as fast as it can and, when it cannot win, loses as late as it can.
In a partizan game you first choose your side, `left` or `right`.
A game with a `show` clause has the board drawn, and its options side by side.
"
        }
        "time" => {
            "Evaluates an expression and shows the time it took and how many positions
were added to the game graph.
"
        }
        "type" => "Shows the type of a value; for a position, its game(s) and convention.\n",
        "games" => {
            "Lists the games in scope: parameters with defaults, the fields of a
position, the number of move rules, misère play, compound mode and start.
"
        }
        "stats" => {
            "Shows what the session's game graph costs: its positions (game positions and
compounds), the moves stored, its estimated memory and the bytes per position; then
how long the last entry took, and how many names are bound.
"
        }
        "quit" => "Leaves cgl (so does Ctrl-D).\n",
        _ => "",
    }
}

/// The help text for a topic, or the overview.
pub fn help(topic: Option<&str>) -> String {
    let Some(topic) = topic else {
        let mut out = String::from(INTRO);
        out.push_str("Commands:\n");
        let synopses: Vec<String> = COMMANDS
            .iter()
            .map(|(name, _, args, _)| format!(":{name} {args}").trim_end().to_string())
            .collect();
        // One column past the longest synopsis, so that each description stands apart.
        let width = synopses.iter().map(String::len).max().unwrap_or(0) + 1;
        for (synopsis, (_, _, _, what)) in synopses.iter().zip(COMMANDS) {
            out.push_str(&format!("  {synopsis:<width$}{what}\n"));
        }
        out.push_str(KEYS);
        out.push_str(
            "More: :help COMMAND, :help let, :help language, :help builtins, :help keys\n",
        );
        return out;
    };
    let topic = topic.trim();
    if let Some(command) = lookup(topic) {
        let (name, aliases, args, what) = COMMANDS
            .iter()
            .find(|(n, ..)| *n == command)
            .copied()
            .unwrap_or(("", &[], "", ""));
        let mut out = format!(":{name} {args}").trim_end().to_string();
        if !aliases.is_empty() {
            let others: Vec<String> = aliases.iter().map(|a| format!(":{a}")).collect();
            out.push_str(&format!("  (also {})", others.join(", ")));
        }
        out.push_str(&format!("\n{what}\n{}", details(name)));
        return out;
    }
    if let Some((_, text)) = TOPICS.iter().find(|(t, _)| *t == topic) {
        return text.to_string();
    }
    format!(
        "no help on `{topic}`; topics: the commands ({}), let, language, builtins, keys\n",
        COMMANDS
            .iter()
            .map(|(n, ..)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    )
}
