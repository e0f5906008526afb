//! The codes of the game graph and the analyses on it.
//!
//! One layer's entries of the catalogue (see [`super`]): the macro adds them to the entries
//! it is given and passes all on to the next layer's macro, the last one `codes!`.

macro_rules! analysis_codes {
    ([$next:ident $(, $rest:ident)*] $($done:tt)*) => { $next! { [$($rest),*] $($done)*
    // ---- the game graph (the expectation fails, exit 1)
    GraphCycle = "cgl::graph::cycle",
        "the moves lead from a position back to itself, so play need not end",
        r"
        The analyses are backward induction over the positions, which must form a DAG: every
        play must end. A sequence of moves that returns to a position it came from is a
        cycle; the message names the positions of the cycle and the labels the rules that
        make each move.

            game Back { position n  move n + 1 if n < 3  move n - 1 if n > 0 }

        Make every move decrease something (a heap, the empty cells of a board, a counter of
        moves left in the position), or end the loop with `terminal if` / `draw if`. If play
        may really return to a position (a token on a graph with cycles), declare the game
        `loopy`: its positions are then won, lost or drawn by infinite play.
        ";
    GraphPartizanOption = "cgl::graph::partizan_option",
        "a move of an impartial game's position reaches a position of a partizan game",
        r"
        A game is partizan when one of its rules is `left move` or `right move`; its plain
        `move` rules are both players'. A game with only plain rules is impartial, and its
        analyses (Grundy values, outcomes N and P) take one set of moves for both players, so
        they cannot follow a move into a partizan game, whose players' moves differ.

        Give the outer game a `left move` or `right move` rule too, so that it is analysed as
        partizan, or combine the positions with `+` instead of moving from one into the other:

            expect outcome(Nim(1) + Cutcake(2, 1)) == L      // * + 1 = 1*
        ";
    GraphTooManyPositions = "cgl::graph::too_many_positions",
        "an analysis needs more positions than `--max-positions` allows (no limit by default)",
        r"
        One session keeps at most `--max-positions` positions and compounds (when given;
        by default only `--max-memory` bounds them); a compound's
        explicit product with more moves from one position than that also counts. The query
        that went over fails, the graph is emptied, and later, smaller queries still run.

        Analyse a smaller position, describe the game with fewer positions (a compound of
        smaller parts instead of one big position), or raise the limit:
        `cgl check --max-positions 20000000 file.game`.
        ";
    GraphTooMuchMemory = "cgl::graph::too_much_memory",
        "the game graph's estimated memory would exceed `--max-memory` (default: half the free memory)",
        r"
        cgl estimates the memory of the game graph (180 bytes a position, plus list data,
        plus 4 bytes a stored move) and stops a query that would take it over `--max-memory`
        MiB, before the machine runs out. By default the limit is half the memory the
        machine has available when cgl starts, split between the files `cgl check` runs at
        once. The graph is emptied, and later queries still run.

        Analyse a smaller position, allow more memory (`--max-memory 8192`), or keep fewer
        moves in memory (`--max-stored-moves`).
        ";
    GraphTooManyParts = "cgl::graph::too_many_parts",
        "a selective compound of more than 16 parts would have to be expanded explicitly",
        r"
        The explicit product of a selective compound `x | y | ...` has a move for every
        non-empty set of parts, 2^parts - 1 of them from one position, so cgl expands at most
        16 parts. It is expanded only where no theorem applies (misère play, draws, or
        `--explicit`).

        Use fewer parts, or analyse under normal play without `--explicit`, where the
        remoteness theorem needs no expansion.
        ";

    // ---- analyses that are not defined for the position (the expectation fails, exit 1)
    AnalysisGrundyMisere = "cgl::analysis::grundy_misere",
        "`grundy` of a misère position",
        r"
        Sprague-Grundy values describe normal play (the player who cannot move loses); they
        do not add up under misère play, so cgl does not give one for a misère position.

        Use `outcome(p)` or `remoteness(p)`, which are defined under both conventions.
        ";
    AnalysisGrundyDraw = "cgl::analysis::grundy_draw",
        "`grundy` of a position from which a draw can be reached",
        r"
        Grundy values exist for games in which every play ends in a win or a loss. When a
        declared draw (`draw if`) can be reached from the position, it has none.

        Use `outcome(p)`, which is `D` for draws, or `remoteness(p)` where the outcome is not
        `D`.
        ";
    AnalysisGrundyLoopy = "cgl::analysis::grundy_loopy",
        "a nimber was needed of a loopy position whose loopy Grundy value is infinite",
        r"
        A game declared `loopy` may return to a position, so play can go on for ever. There
        `grundy(p)` is Smith's loopy Grundy value: a nimber, or `inf(...)` where neither
        player can force the end. An analysis that needs a nimber (`value(p)`, a game value
        made of the position) has none for an infinite one.

            game AddOrTake {
                position n
                loopy
                move n - k for k in 1..=2 if k <= n
                move n + 1 if 0 < n and n < 10
            }
            expect value(AddOrTake(3)) == *

        Use `grundy(p)`, which is `inf()` there, or `outcome(p)`.
        ";
    AnalysisGrundyPartizan = "cgl::analysis::grundy_partizan",
        "`grundy` of a partizan position",
        r"
        Grundy values are the values of impartial games, where both players have the same
        moves. A position of a game with `left move` or `right move` rules (or a sum with such
        a part) has a partizan value instead, its canonical form.

        Use `value(p)` (an impartial position's value is its nimber, `*n`) or `outcome(p)`.
        ";
    AnalysisNeedsSide = "cgl::analysis::needs_side",
        "`moves`, `winning_moves`, `line` or `remoteness` of a partizan position without a side",
        r"
        Left and Right have different moves in a partizan position, so these analyses need to
        know whose moves (or who moves first). Give the side as a second argument, `left` or
        `right`:

            expect len(moves(Cutcake(2, 1), left)) == 1
            expect winning_moves(p, right) == []
        ";
    AnalysisPartizanDraw = "cgl::analysis::partizan_draw",
        "a draw is reachable from a partizan position",
        r"
        cgl analyses partizan games whose plays all end with a player unable to move: a
        declared draw (`draw if`) is not an outcome class of partizan play (L, R, N, P), and a
        game with draws has no canonical form.

        Remove the `draw if` clause from the partizan game, or analyse an impartial game.
        ";
    AnalysisPartizanLoopy = "cgl::analysis::partizan_loopy",
        "play can cycle from a partizan position",
        r"
        Outcomes and values of partizan games are found by searching a finite game tree; a
        loopy partizan game (its play can return to a position) has neither a canonical form
        nor a finite search. cgl solves loopy impartial games only (retrograde analysis).

        Make the partizan game end (a counter, a shrinking board), or analyse a loopy
        impartial game.
        ";
    AnalysisValueMisere = "cgl::analysis::value_misere",
        "`value` of a misère position",
        r"
        Canonical forms and their sums describe normal play, where the player who cannot move
        loses; under misère play game values do not add, and there is no canonical-form
        theory of the kind `value` computes.

        Use `outcome(p)`, which searches a misère position's game tree (L, R, N or P), or
        `value(normal(p))` for the normal-play value.
        ";
    AnalysisValueCompound = "cgl::analysis::value_compound",
        "`value` of a conjunctive or selective compound",
        r"
        Canonical forms add up over disjunctive sums (`+`, the default `split`), where a
        player moves in one part. Conjunctive and selective compounds, where a player moves
        in every part or in several, have no such algebra.

        Use `outcome(p)`, which searches the compound's own moves (and those of a sum with
        such a compound as a part).
        ";
    AnalysisValueLimit = "cgl::analysis::value_limit",
        "a game value is too large for cgl's value table",
        r"
        Canonical forms are kept in one table per thread, of at most 50,000,000 forms, whose
        numbers have `i64` numerators and denominators of at most 2^62, and whose nimbers are
        at most *1024. A value past these bounds is refused rather than rounded.

        Analyse a smaller position.
        ";
    AnalysisRemotenessDraw = "cgl::analysis::remoteness_draw",
        "`remoteness` of a position that is a draw",
        r"
        Remoteness counts the moves to the end of a won or lost game, when the winner hurries
        and the loser delays; a position whose outcome is `D` has no such end.

        Check `outcome(p) != D` first, e.g. `expect outcome(p) == D or remoteness(p) < 10`.
        ";
    AnalysisNotPayoff = "cgl::analysis::not_payoff",
        "`score` of a position of a game without `payoff` clauses",
        r"
        A score is the negamax of the payoffs at the ends of play, so it needs a game whose
        terminal positions carry payoffs. Games without them are won or lost: ask
        `outcome(p)`.

        To score normal play, declare that every end pays the player to move there -1 (the
        player who cannot move loses one unit): `payoff -1`.
        ";
    AnalysisPayoffCompound = "cgl::analysis::payoff_compound",
        "a compound (a sum, a conjunctive or selective compound, a `split`) with a part of a payoff game",
        r"
        A compound ends when its parts do, but a payoff game's payoff belongs to the end of
        its own play: which part's payoff the compound would pay, or whether they add, is a
        choice (scoring play) that cgl does not make. Compounds of payoff games are refused.

        Write the combined game as one game whose position holds both parts and whose
        `payoff` says what the end pays.
        ";
    AnalysisPayoffMixed = "cgl::analysis::payoff_mixed",
        "play reaches positions both of a payoff game and of a game without payoffs",
        r"
        A payoff game's positions are scored and other games' are won or lost, so a game that
        moves into the other kind (`move Nim(3)` in a payoff game, or the reverse) has ends
        that mean two different things.

        Give both games `payoff` clauses (normal play is `payoff -1`), or neither.
        ";
    AnalysisPayoffGame = "cgl::analysis::payoff_game",
        "`grundy`, `remoteness`, `value` or misère play asked of a position of a payoff game",
        r"
        A payoff game's positions have a score (the negamax of its payoffs), and their
        outcome is its sign; Grundy values, remoteness, canonical-form values and the misère
        convention are about winning and losing by the last move, which payoffs replace.

        Use `score(p)`, `outcome(p)`, `optimal_moves(p)` and `line(p)`.
        ";
    } };
}
