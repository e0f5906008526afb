//! Every bundled example passes `cgl check`, with and without the theorems where that is
//! affordable, and the whole folder has the expectations the seed library promises.

use crate::common::cgl;

#[test]
fn every_example_passes() {
    let (code, stdout, stderr) = cgl(&["check", "examples"]);
    assert_eq!(code, 0, "cgl check examples failed:\n{stdout}\n{stderr}");
    let last = stdout.lines().last().unwrap_or_default();
    let passed: usize = last.split_whitespace().next().unwrap().parse().unwrap();
    assert!(last.ends_with(" passed, 0 failed"), "{last}");
    assert!(passed >= 250, "only {passed} expectations in examples/");
}

#[test]
fn kayles_sequence_and_period_from_the_command_line() {
    let (code, stdout, _) = cgl(&[
        "eval",
        "-f",
        "examples/kayles.game",
        "period([grundy(Kayles(n)) for n in 0..=300])",
    ]);
    assert_eq!((code, stdout.trim()), (0, "(71, 12)"));
    let (code, stdout, _) = cgl(&[
        "eval",
        "-f",
        "examples/kayles.game",
        "[grundy(Kayles(n)) for n in 0..=12]",
    ]);
    assert_eq!(
        (code, stdout.trim()),
        (0, "[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]")
    );
}

#[test]
fn kayles_2000_is_quick() {
    let started = std::time::Instant::now();
    let (code, stdout, stderr) =
        cgl(&["eval", "-f", "examples/kayles.game", "grundy(Kayles(2000))"]);
    assert_eq!(code, 0, "{stderr}");
    // Kayles has period 12 from 71 on: g(2000) = g(2000 - 12k) for 2000 - 12k >= 71.
    let (_, reference, _) = cgl(&[
        "eval",
        "-f",
        "examples/kayles.game",
        "grundy(Kayles(2000 - 12 * 150))",
    ]);
    assert_eq!(stdout.trim(), reference.trim());
    assert!(
        started.elapsed().as_secs() < 60,
        "Kayles(2000) took {:?}",
        started.elapsed()
    );
}

#[test]
fn small_examples_agree_under_explicit() {
    // The product graph explodes on Kayles and LEGO; these files are small enough for it.
    for file in [
        "examples/nim.game",
        "examples/subtraction.game",
        "examples/sums.game",
        "examples/compounds.game",
        "examples/chessboard_coins.game",
        "examples/maze.game",
        "examples/misere.game",
        "examples/hackenbush.game",
    ] {
        let (code, stdout, stderr) = cgl(&["check", "--explicit", file]);
        assert_eq!(code, 0, "{file} under --explicit:\n{stdout}\n{stderr}");
    }
}

#[test]
fn a_million_moves_deep_does_not_overflow_the_stack() {
    let dir = crate::common::temp_dir("deep-chain");
    std::fs::write(
        dir.join("chain.game"),
        "game Chain {\n    position n\n    move n - 1 if n > 0\n}\n",
    )
    .unwrap();
    let (code, stdout, stderr) = crate::common::cgl_in(
        &dir,
        &[
            "eval",
            "-f",
            "chain.game",
            "(outcome(Chain(1000000)), remoteness(Chain(999999)))",
        ],
    );
    assert_eq!((code, stdout.trim()), (0, "(P, 999999)"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
