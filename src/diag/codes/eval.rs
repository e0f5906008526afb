//! The codes of evaluation: running the program went wrong.
//!
//! One layer's entries of the catalogue (see [`super`]): the macro adds them to the entries
//! it is given and passes all on to the next layer's macro, the last one `codes!`.

macro_rules! eval_codes {
    ([$next:ident $(, $rest:ident)*] $($done:tt)*) => { $next! { [$($rest),*] $($done)*
    // ---- evaluation: running the program went wrong (the expectation fails, exit 1)
    EvalStrategic = "cgl::eval::strategic",
        "a strategic game's strategies or payoffs are not what its declaration promises",
        r"
        Every player needs at least one strategy, all different; the table nests one list
        per player (rows for the first, cells for the second, ...) with one entry per
        strategy; each cell, or each value of `payoff`, is a tuple of every player's payoff,
        in the order of the `player` clauses, and every payoff is a number. A game has at
        most 1,000,000 profiles.

            table [[(1, 1), (0, 0)], [(0, 0), (1, 1)]]    // rows for Row, cells for Col
        ";
    EvalProfile = "cgl::eval::profile",
        "a profile given to a strategic analysis does not fit the game",
        r#"
        A profile is a tuple with one entry per player: one of that player's strategies, or
        a mixed strategy, a list of probabilities (one per strategy, in declaration order,
        none negative, summing to 1).

            best_responses(RPS, ("Rock", [1/2, 1/2, 0]))
        "#;
    EvalTwoPlayers = "cgl::eval::two_players",
        "an analysis of two-player games got a game of another number of players",
        r"
        The value, the optimal strategies and the mixed equilibria (`minimax_value`,
        `minimax_strategies`, `equilibria`, `lemke_howson`, `vertex_enumeration`,
        `equilibrium_components`, `nash`) are computed for games of exactly two players. For
        any number of players `pure_nash` lists the pure equilibria, `best_responses` and
        `expected_payoff` check a mixed profile, and dominance (`strictly_dominated`,
        `weakly_dominated`, `mixed_dominated`, `iterated_elimination`) applies.
        ";
    EvalNotZeroSum = "cgl::eval::not_zero_sum",
        "the value and optimal strategies need a zero-sum game",
        r"
        `minimax_value` and `minimax_strategies` solve the linear program of a two-player
        game whose payoffs sum to zero at every profile; the message names a profile where
        they do not. For a general-sum game use `nash` or `equilibria`.
        ";
    EvalDegenerate = "cgl::eval::degenerate",
        "support enumeration refused a degenerate game",
        r"
        A two-player game is degenerate when a mixed strategy of k strategies has more than
        k pure best responses (a tie, such as a column player indifferent between two columns
        against one row). Its equilibria may form a continuum, which support enumeration
        cannot list; cgl refuses rather than give an incomplete list.
        `vertex_enumeration` (as Gambit's `enummixed`) lists every extreme equilibrium of any
        two-player game, `equilibrium_components` their connected components, and `nash`
        runs vertex enumeration when support enumeration refuses (Lemke–Howson, whose
        lexicographic pivots reach an equilibrium of any game, where that is too large).
        `pure_nash` lists the pure equilibria of any game.
        ";
    EvalSupportTooLarge = "cgl::eval::support_too_large",
        "support enumeration would solve too many linear systems, or vertex enumeration meet too many bases",
        r"
        Support enumeration solves a linear system for every pair of supports of one size,
        and vertex enumeration one for every choice of tight inequalities of a best-response
        polytope; both grow exponentially with the number of strategies, and cgl refuses
        beyond 1,000,000 systems (about 10×10 for either). `lemke_howson` finds some
        equilibria fast (not necessarily all), and `nash` runs it when support enumeration
        is too large.
        ";
    EvalLpTooLarge = "cgl::eval::lp_too_large",
        "a linear program (a dominating mixture's) or a simplex or Lemke–Howson tableau would be too large",
        r#"
        A strategy is strictly dominated by a mixture when the zero-sum game of the
        player's other strategies against the others' profiles, paying the difference with
        the strategy's payoff, has a positive value: a linear program with one entry per
        strategy and profile. cgl solves it exactly up to 200,000 entries.
        `strictly_dominated`, `weakly_dominated`, `iterated_elimination(G)` and
        `iterated_elimination(G, "weak")` look for dominating pure strategies, which needs
        no linear program. The simplex method of `minimax_value` and Lemke–Howson pivot on
        tableaux of exact fractions with a row per strategy (of one player, or of both);
        cgl refuses a tableau of more than 2,500,000 entries (a zero-sum game is first
        tried as its column player sees it, whose tableau has a row per column).
        "#;
    EvalType = "cgl::eval::type",
        "a value of the wrong type: an operator, built-in, field or rule got what it cannot use",
        r"
        Values are integers, booleans, strings, tuples, lists, sets, positions, games and
        outcomes, and each operation takes some of them: `+` adds integers or joins lists and
        positions, `grundy` needs a position, `if` needs a boolean, a field `.n` needs a
        position or tuple that has it. The labels say what each operand was.

            expect Nim(3) + 1 == 4           // a position and an integer

        Convert or pick the value you meant; `:type EXPR` in the REPL shows a value's type.
        ";
    EvalNotDyadic = "cgl::eval::not_dyadic",
        "a game value built from or combined with a rational whose denominator is not a power of two",
        r"
        Short games' numbers are the dyadic rationals (`1/2`, `3/8`, `-5/4`): a game literal's
        option, a nimber's index or an operand of `+`, `-` or a comparison with a game value
        cannot be `1/3`. Rationals alone (`1/3 + 1/6`) are fine.

            expect {0 | 1/3} == 1/2

        Use a dyadic number, or keep the rational apart from the game values.
        ";
    EvalNotAllSmall = "cgl::eval::not_all_small",
        "`atomic_weight` of a game that is not all-small",
        r"
        The atomic weight is defined for all-small games (every position, as long as one
        player can move, lets both move: `*`, `^`, `{0 | ^*}`), whose values are
        infinitesimal at every level. Numbers and hot games such as `{1 | -1}` have none.

            expect atomic_weight({1 | -1}) == 0

        Check `is_infinitesimal(g)` first, or compute the atomic weight of an all-small part.
        ";
    EvalOverflow = "cgl::eval::overflow",
        "integer arithmetic left the 64-bit range, or a fraction past 2^20 bits",
        r"
        cgl integers are signed 64-bit numbers and arithmetic is checked: a result beyond
        9223372036854775807 (or below its negative) is an error, never a wrapped value. In a
        move rule it usually means a position grows without bound.

            expect 2 ** 64 > 0

        Keep the numbers smaller, or check that the rule makes positions smaller.
        ";
    EvalDivisionByZero = "cgl::eval::division_by_zero",
        "`/`, `div` or `%` by zero",
        r"
        Division (`/`, exact), floor division (`div`, as Python's `//`) and remainder are not
        defined for a divisor of 0. The label points at the divisor.

        Guard the division: `if d != 0 then n div d else 0`, or a guard `if d > 0` on the move.
        ";
    EvalIndex = "cgl::eval::index",
        "an index or tuple field outside the list, tuple or string",
        r"
        `xs[i]` needs `0 <= i < len(xs)`, a slice `xs[a..b]` needs `0 <= a` and `b <= len(xs)`,
        `set(xs, i, v)` needs an index the list has, and `t.k` a field the tuple has. Indices
        are numbered from 0.

            expect [1, 2, 3][3] == 3         // the list has 3 items: 0, 1, 2

        Check the bounds first, e.g. with a guard `if i < len(xs)`.
        ";
    EvalPattern = "cgl::eval::pattern",
        "a value cannot be unpacked into a tuple pattern",
        r"
        A pattern `(a, b)` in a generator or binding takes a tuple or list of exactly as many
        items as it has names.

            expect [a for (a, b) in [1, 2]] == [1]     // 1 is not a pair

        Iterate over pairs (`zip(xs, ys)`, `enumerate(xs)`), or bind one name.
        ";
    EvalPositionShape = "cgl::eval::position_shape",
        "a position or a move target does not have the shape of the game's `position` pattern",
        r"
        The `position` clause fixes the shape of a game's positions: `position (a, b)` is a
        pair, `position ((x, y), turn)` a pair whose first part is a pair. A position made
        with `G(...)`, or the target of a move rule, must have that shape.

            game Pairs { position (a, b)  move a - 1 if a > 0 }    // the target must be a pair

        Write the target with every field: `move (a - 1, b) if a > 0`.
        ";
    EvalMissingParam = "cgl::eval::missing_param",
        "a game is used without a value for a parameter that has no default",
        r"
        A parameter declared without a default, `game Take(k)`, must be given whenever the
        game is used: `Take[k = 2](5)` or `Take[2](5)`. `Take(5)` leaves it without a value.

        Give the value in a variant, or declare a default: `game Take(k = 1)`.
        ";
    EvalUnknownParam = "cgl::eval::unknown_param",
        "a variant names a parameter that the game does not declare (found while running)",
        r"
        Like `cgl::resolve::unknown_param`, but for a game that is only known when the program
        runs: a constant, parameter or function argument that holds a game.

            const G = Nim
            expect G[size = 3](1) is N      // `Nim` has no parameter `size`

        Use one of the parameters the game declares.
        ";
    EvalArity = "cgl::eval::arity",
        "a position or variant of a game given too many or too few values (found while running)",
        r"
        Like `cgl::resolve::arity`, but for a game that is only known when the program runs
        (a constant, parameter or argument that holds a game): `G(...)` needs one value per
        field of the game's `position` pattern (fields with defaults may be left out), and
        `G[...]` at most one positional value per parameter.

            const G = Nim
            expect G(1, 2) is N             // a position of `Nim` has 1 field
        ";
    EvalNoStart = "cgl::eval::no_start",
        "`G.start` is used, but the game has no `start` clause",
        r"
        `G.start` is the position a game declares with `start ...`. A game without that
        clause has no start position to give.

        Add `start <position>` to the game, or make a position directly: `G(...)`.
        ";
    EvalRecursion = "cgl::eval::recursion",
        "calls nest more than 2,000 deep: a function, or a game defined through itself",
        r"
        User-function calls may nest at most 2,000 deep, so that a recursion that never ends
        is an error rather than a crash. A game whose `start`, parameter defaults or
        `compound` use the game again (`start G[k = k + 1].start`) counts against the same
        limit.

            fn f(n) = f(n + 1)               // never reaches a base case

        Check that the recursion reaches its base case; for deep but finite recursions,
        compute bottom-up with a comprehension or a game (the analyses need no recursion).
        ";
    EvalConstCycle = "cgl::eval::const_cycle",
        "a constant depends on itself",
        r"
        A constant is computed once, the first time it is used; one whose value needs itself,
        directly or through other constants, has no value.

            const A = B + 1
            const B = A * 2

        Break the cycle; for a recursive definition, use a function with a base case.
        ";
    EvalTooLarge = "cgl::eval::too_large",
        "a range, list, set or repetition of more than 50,000,000 items",
        r"
        Collections built or iterated (a range `0..n`, a comprehension, `[x; n]`) hold at
        most 50,000,000 items, so that a mistake cannot take all the machine's memory; a
        repetition count must also not be negative.

            expect len([0; 100000000]) > 0

        Use a smaller range, or check the bound that grew too large.
        ";
    EvalEmpty = "cgl::eval::empty",
        "`min`, `max` or `lego` of an empty collection",
        r"
        `min` and `max` pick an item and `lego` picks from remoteness values: none of them is
        defined when there is nothing to pick from (e.g. the options of a terminal position).

            expect min([k for k in 0..0]) == 0

        Check that the collection has items, e.g. `if len(xs) > 0 then min(xs) else 0`.
        ";
    EvalDomain = "cgl::eval::domain",
        "a built-in function outside the values it is defined for, e.g. `v2(0)`",
        r"
        Some built-ins are partial: `v2(n)`, the exponent of the largest power of two that
        divides `n`, is not defined for 0 (every power of two divides it).

            expect v2(0) == 0

        Guard the call: `if n > 0 then v2(n) else ...`.
        ";
    EvalNegativePower = "cgl::eval::negative_power",
        "`a ** b` with a negative exponent",
        r"
        cgl has only integers, so `a ** b` is defined for `b >= 0`: `2 ** -1` would be a
        fraction.

        Use an exponent of 0 or more.
        ";
    EvalNoPeriod = "cgl::eval::no_period",
        "`period(xs)` found no period in the values",
        r"
        `period` finds the period of a sequence only when the period repeats at least twice
        after the preperiod, within the values given. Too few values, or a sequence that is
        not periodic (yet), has none.

            expect period([n * n for n in 0..10]) == (0, 1)

        Compute more values, e.g. `period([grundy(G(n)) for n in 0..500])`.
        ";
    EvalOctalCode = "cgl::eval::octal_code",
        "a take-and-break built-in given a text that is no take-and-break code",
        r#"
        A take-and-break code is a digit, a point and digits, `d0.d1d2...`: digit `di`, read
        in binary, says into how many non-empty heaps a heap may be left when `i` tokens are
        taken (1: none, 2: one, 4: two, 8: three, in hexadecimal). The digit before the point
        may only split (0, 4, 8 or 12).

            expect octal_values("077", 10) == []

        Write the point: Kayles is `"0.77"`, Dawson's Kayles `"0.07"`.
        "#;
    EvalMixedConvention = "cgl::eval::mixed_convention",
        "a compound of misère and normal-play positions",
        r"
        Misère play (the player who cannot move wins) applies to a whole game: the parts of a
        compound are played under one convention, so `misere(Nim(1)) + Nim(2)` has no
        meaning.

        Make the whole compound misère: `misere(Nim(1) + Nim(2))`.
        ";
    EvalNoPayoff = "cgl::eval::no_payoff",
        "a terminal position of a payoff game where no `payoff` clause applies",
        r"
        A game with `payoff` clauses must say what every terminal position pays: the first
        clause whose condition holds gives it. This position has no moves and none of the
        conditions holds.

            game G { position n  payoff n if n > 5  move n - 1 if n > 0 }   // G(0) pays?

        Add a clause for the remaining ends, e.g. a last `payoff 0` without a condition.
        ";
    EvalPicture = "cgl::eval::picture",
        "a game's `show` clause gave something other than a string",
        r"
        A `show` clause says how a position is drawn as text: the REPL's `:play`,
        `:explain` and `cgl eval --show` print it, and `picture(p)` returns it. Its value
        must be a string, built from the position's fields.

            game T {
                position b
                show b                       // a list, not a string
            }

        Build the string: `grid(cells, width, symbols)` draws a list of cells as a board,
        `join(xs, sep)` joins items, `str(n)` prints a number.
        ";
    EvalAnalysisInRules = "cgl::eval::analysis_in_rules",
        "an analysis (`grundy`, `outcome`, ...) called inside a game's rules",
        r"
        A game's rules say what the moves are; they must not analyse positions, since the
        analyses are what explores those rules (a rule that asks for `grundy` would re-enter
        the exploration it is part of).

            game G { position n  move n - 1 if grundy(Nim(n)) > 0 }

        Describe the moves directly, or compute such values outside the game.
        ";
    } };
}
