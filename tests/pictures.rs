//! Pictures of positions (issue 18): a game's `show` clause as `:play`, `:explain`, REPL
//! values, `cgl eval --show` and failed expectations use it; games without one print as
//! before. The REPL is driven through a pty once (`script`, from util-linux: no crate needed
//! for one test, and it gives the REPL a real terminal, which the banner proves), otherwise
//! through a pipe.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::{assert_no_crash, cgl, root, wait_with_timeout};

/// Runs `cgl repl ARGS` with `input` piped to it; returns (exit code, stdout, stderr).
fn piped_repl(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cgl"))
        .arg("repl")
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env("COLUMNS", "80")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the cgl binary runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    stdin.write_all(input.as_bytes()).expect("input written");
    drop(stdin);
    wait_with_timeout(child, Duration::from_secs(120), "cgl repl")
}

/// The nine first moves of tic-tac-toe as `:play` draws them, under their numbers.
const NINE_BOARDS: &str = "\
options:
  1       2       3       4       5       6       7       8       9
  X . .   . X .   . . X   . . .   . . .   . . .   . . .   . . .   . . .
  . . .   . . .   . . .   X . .   . X .   . . X   . . .   . . .   . . .
  . . .   . . .   . . .   . . .   . . .   . . .   X . .   . X .   . . X
";

#[test]
fn play_draws_the_board_and_its_options_piped() {
    let (code, out, err) = piped_repl(
        &["examples/tictactoe.game"],
        ":play TicTacToe.start\n5\nquit\n",
    );
    assert_no_crash("play", &err);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "your move from TicTacToe([0, 0, 0, 0, 0, 0, 0, 0, 0]) (9 options):\n    . . .\n    . . .\n    . . .\n"
        ),
        "{out}"
    );
    assert!(out.contains(NINE_BOARDS), "{out}");
    // The computer answers the centre in a corner (the only replies that hold the draw),
    // and the board after its reply is drawn: X in the centre, O in the first corner.
    assert!(
        out.contains("computer: TicTacToe([2, 0, 0, 0, 1, 0, 0, 0, 0])"),
        "{out}"
    );
    assert!(out.contains("    O . .\n    . X .\n    . . .\n"), "{out}");
    // No option is listed as a line of text any more.
    assert!(!out.contains("  1. TicTacToe"), "{out}");
}

/// `:play TicTacToe.start` on a terminal: the REPL runs on a pty made by `script`, the
/// banner shows it took the interactive path, and the boards appear.
#[cfg(target_os = "linux")]
#[test]
fn play_draws_boards_on_a_terminal() {
    let cgl = env!("CARGO_BIN_EXE_cgl");
    let mut child = Command::new("script")
        .args(["-q", "-e", "-c"])
        .arg(format!("{cgl} repl examples/tictactoe.game"))
        .arg("/dev/null")
        .current_dir(root())
        .env("COLUMNS", "80")
        .env("TERM", "xterm")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("`script` (util-linux) runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    stdin
        .write_all(b":play TicTacToe.start\n5\nquit\n:quit\n")
        .expect("input written");
    drop(stdin);
    let (code, out, err) = wait_with_timeout(child, Duration::from_secs(120), "script cgl repl");
    assert_no_crash("play on a pty", &err);
    assert_eq!(code, 0, "{out}\n{err}");
    // A pty turns "\n" into "\r\n".
    let out = out.replace('\r', "");
    assert!(
        out.contains("type an expression, a statement, or :help"),
        "not run on a terminal: {out}"
    );
    assert!(out.contains(NINE_BOARDS), "{out}");
    assert!(out.contains("    O . .\n    . X .\n    . . .\n"), "{out}");
    assert!(
        out.contains("left the game at TicTacToe([2, 1, 0, 0, 1, 0, 0, 0, 0])")
            || out.contains("left the game at TicTacToe([2, 0, 0, 0, 1, 0, 0, 0, 0])"),
        "{out}"
    );
}

#[test]
fn explain_and_values_draw_positions() {
    let input = "\
:explain Chomp([2, 2])
line(Chomp([2, 1]))
Chomp([3, 1])
moves(Chomp([1]))
";
    let (code, out, err) = piped_repl(&["examples/chomp.game"], input);
    assert_no_crash("explain", &err);
    assert_eq!(code, 0, "{err}");
    let expected = "\
Chomp([2, 2]) is N: the player to move wins
  grundy 2, remoteness 3
    ■ ■
    x ■
3 options:
  #  option         outcome  grundy  remoteness
  1  Chomp([1, 1])  N        1       1
  2  Chomp([2])     N        1       1
  3  Chomp([2, 1])  P        0       2           wins
the options drawn (number and outcome):
  1 N   2 N   3 P
  ■           ■
  x     x ■   x ■
mex {0, 1} = 2: the Grundy value
";
    assert!(out.contains(expected), "{out}");
    // `line`: the positions of the line numbered from 0, bottoms aligned.
    assert!(
        out.contains(
            "[Chomp([2, 1]), Chomp([1, 1]), Chomp([1])]\n  0     1   2\n  ■     ■\n  x ■   x   x\n"
        ),
        "{out}"
    );
    // A position alone: its picture under it.
    assert!(out.contains("Chomp([3, 1])\n    ■\n    x ■ ■\n"), "{out}");
    // An empty list has nothing to draw.
    assert!(out.contains("[]\n"), "{out}");
}

#[test]
fn games_without_show_print_as_before() {
    // The same entries on a game without `show` print exactly what they did: no picture
    // lines (the REPL transcript snapshot of tests/repl.rs checks whole sessions).
    let (_, out, err) = piped_repl(
        &["examples/kayles.game"],
        "Kayles(3)\nmoves(Kayles(4))\n:play Kayles(1)\n1\n",
    );
    assert_no_crash("kayles", &err);
    assert_eq!(
        out,
        "loaded examples/kayles.game: Kayles, mirror\n\
         Kayles(3)\n\
         [Kayles(3), Kayles(1) + Kayles(2), Kayles(2), Kayles(1) + Kayles(1)]\n\
         playing Kayles(1); you move first.\n\
         Choose an option by its number, or type the position; also `undo`, `hint`, `quit`.\n\
         your move from Kayles(1) (1 option):\n  \
         1. split()\n\
         you: split()\n\
         game over after 1 move at split() (nothing left): the computer cannot move, so you win.\n"
    );
    // `cgl eval --show` of a value without pictures is `cgl eval`'s output, byte for byte.
    for expr in ["Kayles(5)", "moves(Kayles(4))", "[1, 2]", "\"a\\nb\""] {
        let plain = cgl(&["eval", "-f", "examples/kayles.game", expr]);
        let shown = cgl(&["eval", "--show", "-f", "examples/kayles.game", expr]);
        assert_eq!(plain, shown, "{expr}");
    }
}

#[test]
fn eval_show_draws_the_value() {
    let (code, out, err) = cgl(&[
        "eval",
        "--show",
        "-f",
        "examples/tictactoe.game",
        "TicTacToe([1, 2, 0, 0, 1, 0, 0, 0, 0])",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "TicTacToe([1, 2, 0, 0, 1, 0, 0, 0, 0])\nX O .\n. X .\n. . .\n"
    );
    let (code, out, _) = cgl(&[
        "eval",
        "--show",
        "-f",
        "examples/chomp.game",
        "winning_moves(Chomp([3, 3]))",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out, "[Chomp([3, 2])]\n0\n■ ■\nx ■ ■\n");
}

#[test]
fn a_failing_show_is_a_diagnostic_everywhere() {
    let dir = crate::common::temp_dir("pictures");
    let file = dir.join("bad.game");
    std::fs::write(
        &file,
        "game Bad {\n    position n\n    show n\n    move k for k in 0..n\n}\n\
         game Worse {\n    position n\n    show [\"x\"][n]\n    move k for k in 0..n\n}\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let (code, out, err) = cgl(&["eval", "--show", "-f", path, "Bad(2)"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("cgl::eval::picture"), "{err}");
    assert!(err.contains("while drawing Bad(2)"), "{err}");
    assert_no_crash("bad show", &err);
    let (code, _, err) = cgl(&["eval", "--show", "-f", path, "moves(Worse(3))"]);
    assert_eq!(code, 1);
    assert!(err.contains("cgl::eval::index"), "{err}");
    assert!(err.contains("while drawing Worse(1)"), "{err}");
    // In the REPL: the diagnostic, and the session goes on.
    let (code, out, err) = piped_repl(&[path], ":play Bad(2)\nBad(1)\n:explain Worse(1)\n1 + 1\n");
    assert_no_crash("repl bad show", &err);
    assert_eq!(code, 1);
    assert!(err.matches("cgl::eval::picture").count() >= 2, "{err}");
    assert!(err.contains("cgl::eval::index"), "{err}");
    assert!(out.ends_with("2\n"), "{out}");
    // A show that fails is reported in the note of a failed expectation, not raised.
    std::fs::write(
        dir.join("expect.game"),
        "game Bad {\n    position n\n    show n\n    move k for k in 0..n\n}\nexpect Bad(2) is P\n",
    )
    .unwrap();
    let (code, _, err) = cgl(&["check", dir.join("expect.game").to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("cgl::check::failed"), "{err}");
    assert!(
        err.contains("the position could not be drawn: a `show` clause must give a string"),
        "{err}"
    );
}

#[test]
fn a_huge_picture_is_cut_where_it_is_shown() {
    let dir = crate::common::temp_dir("pictures_huge");
    let file = dir.join("huge.game");
    std::fs::write(
        &file,
        "game Tall {\n    position n\n    show join([str(i) for i in 0..n], \"\\n\")\n    move k for k in 0..n\n}\n\
         game Wide {\n    position n\n    show join([\"x\" for _ in 0..n], \"\")\n    move k for k in 0..n\n}\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let (code, out, err) = cgl(&["eval", "--show", "-f", path, "Tall(1000)"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    // The value, 60 lines of the picture, and the line that says how many were cut.
    assert_eq!(lines.len(), 1 + 60 + 1, "{out}");
    assert_eq!(lines[61], "… (940 more lines)");
    // `picture` itself gives the whole string.
    let (_, out, _) = cgl(&["eval", "-f", path, "len(picture(Tall(1000)))"]);
    let whole: usize = (0..1000)
        .map(|i: usize| i.to_string().len() + 1)
        .sum::<usize>()
        - 1;
    assert_eq!(out.trim(), whole.to_string());
    let (_, out, _) = cgl(&["eval", "--show", "-f", path, "Wide(100000)"]);
    let picture = out.lines().nth(1).unwrap();
    assert_eq!(picture.chars().count(), 160);
    assert!(picture.ends_with('…'));
    // Past `--max-items` bytes the picture is an error, as any string is.
    let (code, _, err) = cgl(&[
        "eval",
        "--max-items",
        "1000",
        "--show",
        "-f",
        path,
        "Wide(5000)",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("cgl::eval::too_large"), "{err}");
}

#[test]
fn a_second_show_clause_is_a_duplicate() {
    let dir = crate::common::temp_dir("pictures_dup");
    let file = dir.join("dup.game");
    std::fs::write(
        &file,
        "game G {\n    position n\n    show \"a\"\n    show \"b\"\n    move k for k in 0..n\n}\n",
    )
    .unwrap();
    let (code, _, err) = cgl(&["check", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cgl::resolve::duplicate_clause"), "{err}");
    assert!(err.contains("two `show` clauses"), "{err}");
}
