//! The codes of the drivers and the limits they keep: `cgl check`, the REPL, plots, resource
//! limits, internal errors and `cgl explain` itself.
//!
//! One layer's entries of the catalogue (see [`super`]): the macro adds them to the entries
//! it is given and passes all on to the next layer's macro, the last one `codes!`.

macro_rules! driver_codes {
    ([$next:ident $(, $rest:ident)*] $($done:tt)*) => { $next! { [$($rest),*] $($done)*
    // ---- cgl check
    CheckFailed = "cgl::check::failed",
        "an `expect` evaluated to false",
        r"
        The expectation ran without error and was false. The diagnostic shows what it
        evaluated to: both sides of a comparison, the outcome of `p is X`, the first
        counterexample of a `forall`, the false part of an `and`.

        Either the game or the expectation is wrong: compare the values shown with the ones
        you expected (`cgl eval -f file.game EXPR` prints any value).
        ";
    CheckNotBoolean = "cgl::check::not_boolean",
        "an `expect` evaluated to something other than true or false",
        r"
        `expect` takes a condition. A value such as `grundy(Nim(3))` alone is not one.

            expect grundy(Nim(3))            // is 3, not true or false
            expect grundy(Nim(3)) == 3       // fixed

        Write a comparison, or use `print` to show a value.
        ";
    CheckCrashed = "cgl::check::crashed",
        "the process checking one of several files ended without its report",
        r"
        With two or more files, `cgl check` checks each in a process of its own, so that a
        file whose process dies takes only its own report with it. This one's process died
        (killed by a signal, an abort, an exit without its report) or wrote a report that
        cannot be read; the diagnostic says how it ended and quotes the last lines it wrote
        on stderr. The file counts as not checked; the other files are checked as usual.

        A process killed by SIGKILL was most likely stopped by the system for using too much
        memory: lower `--max-memory` or check fewer files at once (`--jobs`). Anything else
        is a bug in cgl: please report it, with the file.
        ";
    CheckEmptyFile = "cgl::check::empty_file",
        "a warning: a checked file defines nothing and expects nothing",
        r"
        `cgl check` passes a file that is empty or holds only comments, but warns: in a
        class's CI it is more likely a hand-in gone wrong than a finished exercise. A file
        with definitions and no `expect` (a library that others import) gets no warning.

        Check that it is the file you meant to hand in.
        ";

    // ---- cgl grade and cgl seal
    GradeUnsealable = "cgl::grade::unsealable",
        "an exercise of a key cannot be sealed: it is not a comparison of a question with an answer",
        r"
        `cgl seal` keeps each exercise's question (the left side) and a salted hash of its
        answer (the right side, evaluated with the key and its imports), so an exercise must
        be `expect N points: QUESTION == ANSWER` or `expect N points: POSITION is OUTCOME`.
        A `forall`, an `and` or another shape has no one answer to hash.

        Write the exercise as a comparison of one value: `expect 2 points: [grundy(G(n)) for n
        in 0..10] == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]` instead of a `forall`; split an `and`
        into two exercises.
        ";
    GradeWrong = "cgl::grade::wrong",
        "a sealed exercise's answer differs from the key's",
        r"
        The submission's value of the exercise's question does not print as the key's
        answer does (the sealed key holds only a salted hash of the answer, so the answer
        itself is not shown). The feedback says what the submission's value is.

        Work out the question again, by hand or at the REPL (`:explain`).
        ";
    GradeBadSealedKey = "cgl::grade::bad_sealed_key",
        "a sealed key that cannot be read",
        r"
        `cgl grade` reads a key ending in `.sealed` as the JSON document `cgl seal` writes
        (format `cgl-sealed-key`, version 1). This one is not that: another file, a damaged
        one, or one from a later version of cgl.

        Seal the key again with `cgl seal KEY -o KEY.sealed`.
        ";

    // ---- cgl certify and cgl verify
    CertificateRefused = "cgl::certificate::refused",
        "a certificate cannot be made, or does not prove its claim",
        r"
        `cgl certify` proves an impartial position's outcome (each P-position with all its
        options, each N-position with one winning move, each draw with all its options, a
        rank falling along every move used) or its Grundy value (every position with all its
        options, each value the mex of theirs); a partizan position, a cycle under a Grundy
        value or too many positions is refused. `cgl verify` checks a certificate position by
        position with the game's rules alone and refuses it at the first position whose
        entry does not hold: a position that is not one of the game's as cgl writes it,
        options that are not its moves, an outcome or Grundy value its options contradict, a
        rank that does not fall.

        A certificate that does not verify was changed, or made for other rules: make it
        again with `cgl certify` from the game file it is about.
        ";

    // ---- the REPL
    ReplUnknownCommand = "cgl::repl::unknown_command",
        "a REPL line starts with `:` but names no command",
        r"
        Lines starting with `:` are REPL commands (`:load`, `:explain`, `:table`, ...). The
        help suggests the command you probably meant.

        `:help` lists the commands.
        ";
    ReplUsage = "cgl::repl::usage",
        "a REPL command with missing or extra arguments",
        r"
        The command exists, but its arguments do not fit: `:explain` without a position,
        `:table EXPR` without `for n in A..B`, `:grid` with one range instead of two.

            :table grundy(Kayles(n)) for n in 0..50

        The help shows how the command is written; `:help COMMAND` explains it.
        ";
    ReplLet = "cgl::repl::let",
        "a REPL `let` that is not `let name = expression`",
        r"
        `let` binds a name to a value for later entries: `let x = Nim(3) + Nim(5)`. It needs
        a name (letters, digits, `_`), then `=`, then an expression.

        Write `let name = expression`.
        ";
    ReplNotPosition = "cgl::repl::not_position",
        "`:explain` or `:play` given a value that is not a position",
        r"
        `:explain P` and `:play P` work on a position (or compound) of a game, not on a
        number, a game or another value.

            :explain Kayles(4)

        Make a position by calling a game.
        ";
    ReplTooLarge = "cgl::repl::too_large",
        "`:table` or `:grid` asked for too many values to show",
        r"
        `:table` and `:grid` show at most 100,000 values, so that a mistyped range does not
        flood the terminal (or run for hours). The ranges given ask for more.

        Use smaller ranges; to test a long sequence, use `period([...])` or an `expect`.
        ";

    // ---- pictures: cgl plot, cgl dot
    PlotUsage = "cgl::plot::usage",
        "`cgl plot` or `cgl dot` was given something it cannot draw",
        r"
        `cgl plot EXPR --x NAME=RANGE [--y NAME=RANGE]` draws the value of EXPR for each value
        of the ranges: booleans and outcomes as marks (`true` and `P` black), integers on a
        colour scale. A range is `NAME=` and a collection (`a=1..=50`); the ranges do not
        depend on each other. Any other value (a list, a position) has no picture, and
        `cgl dot` needs a position.

            cgl plot -f examples/nim.game 'grundy(Nim(a) + Nim(b))' --x a=0..16 --y b=0..16

        Plot a number or a truth about the value instead: `len(moves(p))`, `p is P`.
        ";
    PlotTooLarge = "cgl::plot::too_large",
        "the picture would have more cells or positions than its cap",
        r"
        `cgl plot` draws at most `--max-cells` cells (250,000 unless told otherwise) and 5,000
        values along an axis; `cgl dot` writes at most `--max-nodes` positions (2,000 unless
        told otherwise), since a larger graph is more than Graphviz draws readably. The
        ranges or the game graph asked for more, and nothing was computed past the count.

        Use smaller ranges or a smaller position, or raise the cap.
        ";

    // ---- stopping
    LimitTimeout = "cgl::limit::timeout",
        "a computation ran past `--timeout`",
        r"
        With `--timeout SECONDS`, cgl stops a file (for `check`) or a command (for `run`,
        `eval`) that runs longer. The expectation being evaluated fails with this code, and
        the file's later expectations are reported as not checked.

        Analyse smaller positions, make the rules cheaper (`--stats` shows which run
        compiled), or allow more time: `--timeout 60`.
        ";
    LimitInterrupted = "cgl::limit::interrupted",
        "a REPL computation stopped with Ctrl-C",
        r"
        Ctrl-C during a computation in the REPL stops it; the session goes on, with the
        definitions and bindings it had.

        Nothing to fix: this is what was asked for.
        ";

    // ---- bugs in cgl
    Internal = "cgl::internal",
        "a bug in cgl, not in the file",
        r"
        cgl reached a state it should never reach (a crash while checking a file is caught
        and reported so). Nothing in the file is wrong as far as this diagnostic can tell.

        Please report it with the file and the command that caused it.
        ";

    // ---- cgl explain
    ExplainUnknownCode = "cgl::explain::unknown_code",
        "`cgl explain CODE` was given a name that is not a diagnostic code",
        r"
        `cgl explain` knows the codes that cgl reports, such as `cgl::graph::cycle` (the
        `cgl::` may be left out). The help suggests a close code when there is one.

        `cgl explain` with no code lists them all.
        ";
    } };
}
