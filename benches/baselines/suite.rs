//! The workloads of the suite: their sizes, the cgl query of each, and the baselines'
//! answers to it.

use super::{add_or_take, bimatrix, chomp, domineering, grundy_game, kayles, tictactoe, wythoff};

/// The workloads, in the order of the table.
pub const WORKLOADS: [&str; 9] = ["W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9"];

/// The sizes of a workload: the full suite's, or the quick ones (`--quick`, the tests).
pub fn sizes(workload: &str, quick: bool) -> &'static [&'static str] {
    match (workload, quick) {
        ("W1", false) => &["2000", "5000", "20000"],
        ("W1", true) => &["300"],
        ("W2", false) => &["5000", "20000"],
        ("W2", true) => &["500"],
        ("W3", _) if quick => &["3x3"],
        // `4x4-param`: the same game, its lines a parameter (benches/games/tictactoe4_param.game).
        ("W3", _) => &["3x3", "4x4", "4x4-param"],
        ("W4", false) => &["10x10", "12x12"],
        ("W4", true) => &["6x6"],
        ("W5", false) => &["1000"],
        ("W5", true) => &["100"],
        ("W6", false) => &["1", "200"],
        ("W6", true) => &["1"],
        ("W7", false) => &["1000000"],
        ("W7", true) => &["1000"],
        ("W8", false) => &["4x4", "4x5", "5x5"],
        ("W8", true) => &["3x3"],
        // 12: past support enumeration's systems, so `nash` runs vertex enumeration.
        ("W9", false) => &["6", "8", "10", "12"],
        ("W9", true) => &["4"],
        _ => &[],
    }
}

/// A query to cgl: the `.game` source to load and the expression whose printed value is the
/// answer.
#[derive(Clone, Debug)]
pub struct CglQuery {
    /// The file name to load the source under.
    pub file: &'static str,
    /// The `.game` source (from benches/games/, or generated: W9's random game).
    pub source: std::borrow::Cow<'static, str>,
    /// The expression to evaluate in its scope.
    pub expr: String,
}

const KAYLES: &str = include_str!("../games/kayles.game");
const GRUNDY_GAME: &str = include_str!("../games/grundy_game.game");
const TICTACTOE: &str = include_str!("../games/tictactoe.game");
const TICTACTOE4: &str = include_str!("../games/tictactoe4.game");
const TICTACTOE4_PARAM: &str = include_str!("../games/tictactoe4_param.game");
const CHOMP: &str = include_str!("../games/chomp.game");
const ADD_OR_TAKE: &str = include_str!("../games/add_or_take.game");
const WYTHOFF: &str = include_str!("../games/wythoff.game");
const DOMINEERING: &str = include_str!("../games/domineering.game");

fn number(size: &str) -> Result<usize, String> {
    size.parse()
        .map_err(|_| format!("size {size:?} is not a number"))
}

fn rectangle(size: &str) -> Result<(usize, usize), String> {
    let (r, c) = size
        .split_once('x')
        .ok_or_else(|| format!("size {size:?} is not R x C"))?;
    Ok((number(r)?, number(c)?))
}

fn board(size: &str) -> Result<tictactoe::Board, String> {
    match size {
        "3x3" => Ok(tictactoe::Board::new(3)),
        "4x4" | "4x4-param" => Ok(tictactoe::Board::new(4)),
        _ => Err(format!(
            "no tic-tac-toe board {size:?} (3x3, 4x4 or 4x4-param)"
        )),
    }
}

/// The cgl query of a workload at a size (W6 runs the `cgl` binary instead: none).
pub fn cgl_query(workload: &str, size: &str) -> Result<CglQuery, String> {
    let q = |file, source: &'static str, expr: String| {
        Ok(CglQuery {
            file,
            source: source.into(),
            expr,
        })
    };
    match workload {
        "W1" => {
            let n = number(size)?;
            q(
                "kayles.game",
                KAYLES,
                format!("[grundy(Kayles(n)) for n in 0..{n}]"),
            )
        }
        "W2" => {
            let n = number(size)?;
            q(
                "grundy_game.game",
                GRUNDY_GAME,
                format!("[grundy(GrundyGame(n)) for n in 1..={n}]"),
            )
        }
        "W3" => {
            board(size)?;
            let (file, source) = match size {
                "3x3" => ("tictactoe.game", TICTACTOE),
                "4x4" => ("tictactoe4.game", TICTACTOE4),
                _ => ("tictactoe4_param.game", TICTACTOE4_PARAM),
            };
            let s = "TicTacToe.start";
            let expr = format!(
                "(reachable({s}), outcome({s}), if {s} is D then -1 else remoteness({s}), \
                 [outcome(m) for m in moves({s})], \
                 [[if q is D then -1 else remoteness(q) for q in moves(m)] for m in moves({s})])"
            );
            q(file, source, expr)
        }
        "W4" => {
            let (r, c) = rectangle(size)?;
            let s = format!("Chomp([{c}; {r}])");
            let expr = format!(
                "(reachable({s}), outcome({s}), remoteness({s}), [outcome(m) for m in moves({s})])"
            );
            q("chomp.game", CHOMP, expr)
        }
        "W5" => {
            let n = number(size)?;
            q(
                "wythoff.game",
                WYTHOFF,
                format!("[(a, b) for a in 0..{n}, b in 0..{n} if Wythoff(a, b) is P]"),
            )
        }
        "W7" => {
            let n = number(size)?;
            q(
                "add_or_take.game",
                ADD_OR_TAKE,
                format!("[outcome(AddOrTake[C = {n}](h)) for h in [1, 0, 2, 3, {n}]]"),
            )
        }
        "W8" => {
            let (r, c) = rectangle(size)?;
            q(
                "domineering.game",
                DOMINEERING,
                format!("value(rect({r}, {c}))"),
            )
        }
        "W9" => Ok(CglQuery {
            file: "bimatrix.game",
            source: bimatrix::cgl_source(number(size)?).into(),
            expr: "nash(G).2".into(),
        }),
        _ => Err(format!("no cgl query for workload {workload}")),
    }
}

/// cgl's printed answer in the form the workload's answers compare in: as printed, but
/// W9's exact probabilities as decimals (its peer, nashpy, computes in floating point).
pub fn cgl_shown(workload: &str, shown: String) -> Result<String, String> {
    match workload {
        "W9" => bimatrix::canonical(&shown),
        _ => Ok(shown),
    }
}

/// A baseline solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Baseline {
    /// The tight hand-written solver.
    Hand,
    /// The generic hash-map solver.
    Map,
    /// W3 and W4 only: the hand-written solver's algorithm over a hashed table of positions
    /// packed into one word instead of a dense numbering (the floor of hashing).
    Packed,
}

/// A baseline's answer to a workload at a size, printed as cgl prints the query's value.
pub fn answer(workload: &str, size: &str, baseline: Baseline) -> Result<String, String> {
    let hand = baseline == Baseline::Hand;
    match workload {
        "W3" if baseline == Baseline::Packed => tictactoe::packed(&board(size)?),
        "W4" if baseline == Baseline::Packed => {
            let (r, c) = rectangle(size)?;
            chomp::packed(r, c)
        }
        _ if baseline == Baseline::Packed => Err(format!("no packed baseline for {workload}")),
        "W1" if hand => Ok(kayles::hand(number(size)?)),
        "W1" => Ok(kayles::map(number(size)?)),
        "W2" if hand => Ok(grundy_game::hand(number(size)?)),
        "W2" => Ok(grundy_game::map(number(size)?)),
        "W3" if hand => tictactoe::hand(&board(size)?),
        "W3" => tictactoe::map(&board(size)?),
        "W4" if hand => {
            let (r, c) = rectangle(size)?;
            chomp::hand(r, c)
        }
        "W4" => {
            let (r, c) = rectangle(size)?;
            chomp::map(r, c)
        }
        "W5" if hand => Ok(wythoff::hand(number(size)?)),
        "W5" => Ok(wythoff::map(number(size)?)),
        "W7" if hand => Ok(add_or_take::hand(number(size)?)),
        "W7" => Ok(add_or_take::map(number(size)?)),
        "W8" if hand => {
            let (r, c) = rectangle(size)?;
            domineering::hand(r, c)
        }
        "W8" => {
            let (r, c) = rectangle(size)?;
            domineering::pycgt(r, c).map(|run| run.answer)
        }
        "W9" if hand => bimatrix::hand(number(size)?),
        "W9" => bimatrix::nashpy(number(size)?).map(|run| run.answer),
        _ => Err(format!("no baseline for workload {workload}")),
    }
}
