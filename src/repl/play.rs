//! `:play P`: the user against the computer. The computer's choice is `api::choose_move`, a
//! pure function of what it knows of each option; the rest reads moves and prints the game.

use std::io::Write;

use super::editor::{Lines, Read};
use super::explain::outcome;
use super::Errors;
use crate::api::builtins::Builtin;
use crate::api::choose_move;
use crate::api::Side;
use crate::api::{gallery, indent};
use crate::api::{Bindings, Session};
use crate::api::{Code, Diag, Span};
use crate::api::{Outcome, PosTerm, Value};

/// Who is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    User,
    Computer,
}

impl Player {
    fn name(self) -> &'static str {
        match self {
            Player::User => "you",
            Player::Computer => "the computer",
        }
    }

    fn wins(self) -> &'static str {
        match self {
            Player::User => "you win",
            Player::Computer => "the computer wins",
        }
    }

    fn ahead(self) -> &'static str {
        match self {
            Player::User => "you come out ahead",
            Player::Computer => "the computer comes out ahead",
        }
    }

    fn other(self) -> Player {
        match self {
            Player::User => Player::Computer,
            Player::Computer => Player::User,
        }
    }
}

const HOW: &str = "Choose an option by its number, or type the position; \
                   also `undo`, `hint`, `quit`.";

/// What a game of `:play` runs in: the REPL's session, the names bound at the prompt (a
/// position typed out is evaluated with them), and the name of the entry's source.
pub struct Game<'r> {
    /// The session.
    pub session: &'r mut Session,
    /// The names bound at the prompt.
    pub scope: &'r Bindings,
    /// What the positions typed during the game are called in diagnostics.
    pub source_name: &'r str,
}

/// Plays from `start` until the game ends or the user leaves.
pub fn play(
    repl: Game<'_>,
    start: Value,
    span: Span,
    computer_first: bool,
    lines: &mut dyn Lines,
    out: &mut dyn Write,
    _err: &mut dyn Write,
) -> Result<(), Errors> {
    let Value::Pos(pos) = &start else {
        return Err(vec![Diag::error(
            Code::ReplNotPosition,
            format!(
                "`:play` needs a position, but this is {} ({})",
                start.a_type_name(),
                repl.session.show(&start)
            ),
        )
        .label(span, "not a position")
        .help(repl.session.position_help(
            &start,
            "make a position by calling a game: `:play Kayles(6)`",
        ))]);
    };
    let misere = pos.is_misere();
    // A payoff game is played for its score: the computer follows `line`, and the end says
    // what it pays.
    let scored = match repl.session.analyse(Builtin::Score, &start, span) {
        Ok(_) => true,
        Err(d) if d.code == Code::AnalysisNotPayoff => false,
        Err(d) => return Err(vec![*d]),
    };
    let first = if computer_first {
        Player::Computer
    } else {
        Player::User
    };
    let _ = writeln!(
        out,
        "playing {}; {} first.\n{HOW}",
        repl.session.show(&start),
        if computer_first {
            "the computer moves"
        } else {
            "you move"
        }
    );
    // A partizan game: the user takes a side, the computer the other.
    let user_side = if repl.session.is_partizan(&start) {
        match ask_side(lines, out) {
            Some(side) => Some(side),
            None => {
                let _ = writeln!(out, "left the game at {}", repl.session.show(&start));
                return Ok(());
            }
        }
    } else {
        None
    };
    let side_of = |mover: Player| {
        user_side.map(|side| match mover {
            Player::User => side,
            Player::Computer => other(side),
        })
    };
    let mut trail = vec![start];
    let one = |e: Box<Diag>| vec![*e];
    loop {
        let here = trail.last().cloned().unwrap_or(Value::None);
        let mover = if (trail.len() - 1) % 2 == 0 {
            first
        } else {
            first.other()
        };
        let moves = repl
            .session
            .play_options(&here, side_of(mover), span)
            .map_err(one)?;
        if moves.is_empty() && scored {
            let pays = repl
                .session
                .analyse(Builtin::Score, &here, span)
                .map_err(one)?;
            let o = outcome(repl.session, &here, span).map_err(one)?;
            let result = match o {
                Outcome::N => mover.ahead().to_string(),
                Outcome::P => mover.other().ahead().to_string(),
                _ => "it is even".to_string(),
            };
            let _ = writeln!(
                out,
                "game over after {} move{} at {}: its payoff to {} (who cannot move) is {}, so {result}.",
                trail.len() - 1,
                if trail.len() == 2 { "" } else { "s" },
                repl.session.show(&here),
                mover.name(),
                repl.session.show(&pays),
            );
            if let Some(picture) = repl.session.picture(&here, span).map_err(one)? {
                let _ = writeln!(out, "{}", indent(&picture, "    "));
            }
            return Ok(());
        }
        if let (true, Some(side)) = (moves.is_empty(), side_of(mover)) {
            let (winner, rule) = if misere {
                (mover, "misère play: who cannot move wins")
            } else {
                (mover.other(), "normal play: who cannot move loses")
            };
            let _ = writeln!(
                out,
                "game over after {} move{} at {}: {} ({}) cannot move ({rule}), so {}.",
                trail.len() - 1,
                if trail.len() == 2 { "" } else { "s" },
                repl.session.show(&here),
                mover.name(),
                side_name(side),
                winner.wins()
            );
            return Ok(());
        }
        if moves.is_empty() {
            let o = outcome(repl.session, &here, span).map_err(one)?;
            let result = match o {
                Outcome::P => mover.other().wins(),
                Outcome::N => mover.wins(),
                Outcome::D => "it is a draw",
                Outcome::L => "Left wins",
                Outcome::R => "Right wins",
            };
            let why = match (o, misere) {
                (Outcome::D, _) => format!("{} is a draw", repl.session.show(&here)),
                (_, true) => format!("{} cannot move, which wins under misère play", mover.name()),
                (_, false) => format!("{} cannot move", mover.name()),
            };
            let mut at = repl.session.show(&here);
            if matches!(&here, Value::Pos(p) if p.term == PosTerm::empty()) {
                at.push_str(" (nothing left)");
            }
            let _ = writeln!(
                out,
                "game over after {} move{} at {at}: {why}, so {result}.",
                trail.len() - 1,
                if trail.len() == 2 { "" } else { "s" },
            );
            if let Some(picture) = repl.session.picture(&here, span).map_err(one)? {
                let _ = writeln!(out, "{}", indent(&picture, "    "));
            }
            return Ok(());
        }
        if mover == Player::Computer && scored {
            let line = repl
                .session
                .analyse(Builtin::Line, &here, span)
                .map_err(one)?;
            let next = match &line {
                Value::List(items) if items.len() > 1 => items[1].clone(),
                _ => moves[0].clone(),
            };
            let _ = writeln!(out, "computer: {}", repl.session.show(&next));
            trail.push(next);
            continue;
        }
        if mover == Player::Computer {
            // What each option means for the computer, as the page's play reads it.
            let mut facts = Vec::with_capacity(moves.len());
            for m in &moves {
                facts.push(
                    repl.session
                        .option_facts(m, side_of(mover), span)
                        .map_err(one)?,
                );
            }
            let choice = choose_move(&facts).unwrap_or(0);
            let next = moves[choice].clone();
            let _ = writeln!(out, "computer: {}", repl.session.show(&next));
            trail.push(next);
            continue;
        }
        let pictures = Pictures::of(repl.session, &here, &moves, span).map_err(one)?;
        list(&repl, &here, &moves, &pictures, out);
        let next: Option<Value> = loop {
            let _ = out.flush();
            let line = match lines.read("move> ") {
                Read::Line(line) => line,
                Read::Interrupted => continue,
                Read::Eof => {
                    let _ = writeln!(out, "left the game at {}", repl.session.show(&here));
                    return Ok(());
                }
            };
            let input = line.trim();
            match input {
                "" => continue,
                "quit" | "q" | ":quit" | ":q" | "exit" => {
                    let _ = writeln!(out, "left the game at {}", repl.session.show(&here));
                    return Ok(());
                }
                "moves" | "?" | "help" | ":help" => {
                    let _ = writeln!(out, "{HOW}");
                    list(&repl, &here, &moves, &pictures, out);
                    continue;
                }
                "undo" | "u" => {
                    // Back to the user's previous turn: take back the computer's reply and
                    // the user's move before it.
                    if trail.len() >= 3 {
                        trail.truncate(trail.len() - 2);
                        let _ = writeln!(out, "took back your last move");
                        break None;
                    }
                    let _ = writeln!(out, "nothing to undo");
                    continue;
                }
                "hint" if scored => {
                    let best = repl
                        .session
                        .analyse(Builtin::OptimalMoves, &here, span)
                        .map_err(one)?;
                    let score = repl
                        .session
                        .analyse(Builtin::Score, &here, span)
                        .map_err(one)?;
                    let numbers: Vec<String> = moves
                        .iter()
                        .enumerate()
                        .filter(|(_, m)| matches!(&best, Value::List(b) if b.contains(m)))
                        .map(|(i, _)| (i + 1).to_string())
                        .collect();
                    let _ = writeln!(
                        out,
                        "hint: optimal moves: {} (they secure you {})",
                        numbers.join(", "),
                        repl.session.show(&score)
                    );
                    continue;
                }
                "hint" => {
                    let mut winning = Vec::new();
                    for (i, m) in moves.iter().enumerate() {
                        let fact = repl.session.option_facts(m, user_side, span).map_err(one)?;
                        if fact.outcome == Outcome::P {
                            winning.push((i + 1).to_string());
                        }
                    }
                    if winning.is_empty() {
                        let _ = writeln!(
                            out,
                            "hint: no move wins from here; every move leaves the computer a winning position"
                        );
                    } else {
                        let _ = writeln!(out, "hint: winning moves: {}", winning.join(", "));
                    }
                    continue;
                }
                _ => {}
            }
            if let Ok(k) = input.parse::<usize>() {
                match k.checked_sub(1).and_then(|i| moves.get(i)) {
                    Some(m) => break Some(m.clone()),
                    None => {
                        let _ = writeln!(out, "no option {k}: choose 1 to {}", moves.len());
                        continue;
                    }
                }
            }
            // A position typed out.
            let file = repl.session.add_source(repl.source_name, input);
            match repl
                .session
                .eval_part(file, input, &(0..input.len()), repl.scope)
            {
                // Printed forms are canonical, so they compare `split()` with the empty game.
                Ok(value) => match moves
                    .iter()
                    .find(|m| repl.session.show(m) == repl.session.show(&value))
                {
                    Some(m) => break Some(m.clone()),
                    None => {
                        let _ = writeln!(
                            out,
                            "{} is not a move from {}. {HOW}",
                            repl.session.show(&value),
                            repl.session.show(&here)
                        );
                    }
                },
                Err(_) => {
                    let _ = writeln!(out, "`{input}` is not an option. {HOW}");
                }
            }
        };
        if let Some(next) = next {
            let _ = writeln!(out, "you: {}", repl.session.show(&next));
            trail.push(next);
        }
    }
}

/// Asks which side the user takes in a partizan game; `None` when the input ends.
fn ask_side(lines: &mut dyn Lines, out: &mut dyn Write) -> Option<Side> {
    let _ = writeln!(
        out,
        "a partizan game: Left and Right have different moves. Which side do you take?"
    );
    loop {
        let _ = out.flush();
        match lines.read("side (left or right)> ") {
            Read::Line(line) => match line.trim().to_ascii_lowercase().as_str() {
                "left" | "l" => {
                    let _ = writeln!(out, "you play Left, the computer Right.");
                    return Some(Side::Left);
                }
                "right" | "r" => {
                    let _ = writeln!(out, "you play Right, the computer Left.");
                    return Some(Side::Right);
                }
                "quit" | "q" | ":quit" | ":q" | "exit" => return None,
                _ => {
                    let _ = writeln!(out, "type `left` or `right`");
                }
            },
            Read::Interrupted => continue,
            Read::Eof => return None,
        }
    }
}

fn other(side: Side) -> Side {
    match side {
        Side::Left => Side::Right,
        Side::Right => Side::Left,
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Left => "Left",
        Side::Right => "Right",
    }
}

/// The pictures of a position and its options, when its game has a `show` clause.
struct Pictures {
    here: String,
    /// Each option labelled by its number.
    options: Vec<(String, String)>,
}

impl Pictures {
    fn of(
        session: &mut Session,
        here: &Value,
        moves: &[Value],
        span: Span,
    ) -> Result<Option<Pictures>, Box<Diag>> {
        let Some(picture) = session.picture(here, span)? else {
            return Ok(None);
        };
        let mut options = Vec::with_capacity(moves.len());
        for (i, m) in moves.iter().enumerate() {
            let drawn = match session.picture(m, span)? {
                Some(p) => p,
                None => session.show(m),
            };
            options.push(((i + 1).to_string(), drawn));
        }
        Ok(Some(Pictures {
            here: picture,
            options,
        }))
    }
}

/// Lists the options the user may choose from: numbered lines of their printed forms, or,
/// when the game draws its positions, the position's picture and the options' pictures
/// side by side under their numbers.
fn list(
    repl: &Game<'_>,
    here: &Value,
    moves: &[Value],
    pictures: &Option<Pictures>,
    out: &mut dyn Write,
) {
    let _ = writeln!(
        out,
        "your move from {} ({} option{}):",
        repl.session.show(here),
        moves.len(),
        if moves.len() == 1 { "" } else { "s" }
    );
    if let Some(pictures) = pictures {
        let _ = writeln!(out, "{}", indent(&pictures.here, "    "));
        let _ = writeln!(out, "options:");
        let shown = gallery(&pictures.options, super::columns().saturating_sub(2));
        let _ = writeln!(out, "{}", indent(&shown, "  "));
        return;
    }
    let width = moves.len().to_string().len();
    for (i, m) in moves.iter().enumerate() {
        let _ = writeln!(out, "  {:>width$}. {}", i + 1, repl.session.show(m));
    }
}
