//! The catalogue of diagnostic codes: every code cgl can report, with a one-line summary
//! (spec/language.md §11 lists the same lines) and the explanation `cgl explain CODE` prints.
//!
//! A [`Code`] is the only way to name a diagnostic's code, so a code cannot be invented at a
//! call site: [`super::Diag::error`] takes a `Code`. To add one, add one entry to the
//! `codes!` list below (variant, name, summary, explanation); the tests then ask for a fail
//! file in tests/fail/ that produces it (or a reason in `tests/diagnostics.rs` why none can)
//! and for its line in spec/language.md.

use std::fmt;

/// Defines [`Code`] from its entries: `Variant = "cgl::phase::what", "summary", "explanation";`.
macro_rules! codes {
    ($($variant:ident = $name:literal, $summary:literal, $explanation:literal;)*) => {
        /// A diagnostic code: a stable name (`cgl::<phase>::<what>`) that tests, scripts and
        /// `cgl explain` match on.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $(
                #[doc = $summary]
                $variant,
            )*
        }

        impl Code {
            /// Every code, in catalogue order (grouped by phase).
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// The stable name, e.g. `cgl::graph::cycle`.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            /// What the code means, in one line.
            pub const fn summary(self) -> &'static str {
                match self {
                    $(Code::$variant => $summary,)*
                }
            }

            /// The explanation as written in the catalogue (indented; see [`Code::explain`]).
            const fn raw_explanation(self) -> &'static str {
                match self {
                    $(Code::$variant => $explanation,)*
                }
            }
        }
    };
}

impl Code {
    /// The code with this name; the `cgl::` prefix may be left out.
    pub fn from_name(name: &str) -> Option<Code> {
        let full = if name.starts_with("cgl::") {
            name.to_string()
        } else {
            format!("cgl::{name}")
        };
        Code::ALL.iter().copied().find(|c| c.name() == full)
    }

    /// The phase a code belongs to: `syntax` in `cgl::syntax::unexpected`, `internal` in
    /// `cgl::internal`.
    pub fn phase(self) -> &'static str {
        let rest = self.name().trim_start_matches("cgl::");
        rest.split("::").next().unwrap_or(rest)
    }

    /// The explanation `cgl explain` prints: what the code means, a typical cause, how to fix
    /// it and often an example, in plain text lines (the catalogue's indentation removed).
    pub fn explain(self) -> String {
        dedent(self.raw_explanation())
    }
}

/// A code debugs as its name in quotes, as a string code did: `"cgl::graph::cycle"`.
impl fmt::Debug for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.name(), f)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Text without its first and last blank lines and without the indentation its lines share.
fn dedent(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let first = lines.iter().position(|l| !l.trim().is_empty());
    let last = lines.iter().rposition(|l| !l.trim().is_empty());
    let (Some(first), Some(last)) = (first, last) else {
        return String::new();
    };
    let lines = &lines[first..=last];
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out = String::new();
    for line in lines {
        out.push_str(line.get(indent..).unwrap_or("").trim_end());
        out.push('\n');
    }
    out
}

codes! {
    // ---- syntax: the text is not a cgl program (the file cannot be checked, exit 2)
    SyntaxUnexpected = "cgl::syntax::unexpected",
        "the parser met something it cannot use at this point, or the text ended early",
        r"
        The parser read the file up to a token (or the end of the text) that cannot come next:
        a misspelt keyword, a missing operand or `then`, `=` where `==` was meant, a keyword
        used as a name, a character that is not part of the language.

        The label points at the first place that does not parse; the help says what could
        come there. Fix that place first: later errors are often caused by it.

            expect Nim(3) = N        // `=` is not a comparison
            expect Nim(3) is N       // fixed
        ";
    SyntaxUnbalanced = "cgl::syntax::unbalanced",
        "a bracket is closed by the wrong kind, closes nothing, or is never closed",
        r"
        Every `(`, `[` and `{` needs its own closing bracket, in order. cgl checks this before
        parsing, so the label points at the bracket itself: one closed by the wrong kind
        (`(1, 2]`), a closing bracket with nothing open, or an opening bracket that is never
        closed (often a game's `{` missing its `}` at the end of the file).

        Add or fix the bracket the labels point at.
        ";
    SyntaxTooDeep = "cgl::syntax::too_deep",
        "brackets nested more than 200 deep, or more than 10,000 operators in one statement",
        r"
        cgl limits how deeply one statement nests, so that no input can overflow the parser's
        stack: at most 200 nested brackets, and at most 10,000 operators chained or nested
        (`1 + 1 + ... + 1`, `not not ... x`, `if ... else if ...`).

        Such a statement is almost always generated. Name the inner parts with `const` or
        `fn`, or build long sums and conjunctions with comprehensions:

            expect sum([k for k in 1..=20000]) == 200010000
        ";
    SyntaxUnterminated = "cgl::syntax::unterminated",
        "a string or a block comment is never closed",
        r#"
        A string literal must end with `"` on the line it starts on, and a `/*` comment needs
        its `*/`. The label points at where the string or comment starts.

        Close it, or escape a quote inside a string as `\"`.
        "#;
    SyntaxIntOverflow = "cgl::syntax::int_overflow",
        "an integer literal does not fit in 64 bits",
        r"
        cgl integers are signed 64-bit numbers, from -9223372036854775808 to
        9223372036854775807, and never wrap. A literal outside that range is an error before
        anything runs.

        Use a smaller number; a game whose positions need larger numbers cannot be
        described in cgl yet.
        ";
    SyntaxBadEscape = "cgl::syntax::bad_escape",
        r#"a backslash escape that cgl does not know (it knows `\n`, `\t`, `\\` and `\"`)"#,
        r#"
        Inside a string, a backslash starts an escape, and cgl knows four: `\n` (line break),
        `\t` (tab), `\\` (a backslash) and `\"` (a quote). Any other (`\d`, `\u{..}`) is an
        error.

        Write a literal backslash as `\\`.
        "#;
    SyntaxGameBars = "cgl::syntax::game_bars",
        "a game literal with two runs of bars of the same length at its top level",
        r"
        In `{a | b}` the bar splits Left's options from Right's; more bars write nested games
        as CGSuite does, the longest run splitting first: `{0 || 0 | -2}` is
        `{0 | {0 | -2}}`. Two runs of the same length at the same level (`{0 | 1 | 2}`) say
        nothing about which game holds which.

            expect {0 | 1 | 2} == 0

        Put the nested game in braces (`{0 | {1 | 2}}`), or use a longer run of bars.
        ";
    SyntaxJuxtaposition = "cgl::syntax::juxtaposition",
        "`2*3`, `1/2*3`, `v*2` or `2^3` without spaces: CGSuite's sums, not cgl's products",
        r"
        CGSuite writes `2 + *3` as `2*3` and `2 + ^3` as `2^3`; in a cgl expression those
        would be a product and an XOR. So that a value pasted from CGSuite is never silently
        another one, `*` or `^` between a number (or `v`) and a digit with no spaces around it
        is an error. cgl prints such values with their parts added: `2+*3`.

            expect 2*3 == 6

        Write `2 * 3` for the product, `2 + *3` for the game value.
        ";
    SyntaxBadField = "cgl::syntax::bad_field",
        "a tuple field index (`t.N`) is too large to be a field",
        r"
        `t.0`, `t.1`, ... read the fields of a tuple. An index too large for the machine's
        word (`t.99999999999999999999`) cannot name a field of any tuple.

        Fields are numbered from 0; use the index of a field the tuple has, or `t[i]`.
        ";

    // ---- loading files and imports (exit 2)
    LoadUnreadable = "cgl::load::unreadable",
        "a file cannot be read: not found, a folder, not permitted, or not UTF-8 text",
        r#"
        A file named on the command line, or by an `import`, could not be read: it does not
        exist, it is a folder, it may not be read, or its bytes are not UTF-8 text. A path on
        the command line is relative to the current folder; an import is relative to the
        folder of the file that imports it.

            import "helpers/nim.game"    // looked for next to this file

        Check the path and the file's encoding (save it as UTF-8).
        "#;
    LoadBinary = "cgl::load::binary",
        "a file holds a NUL byte or another control character: binary, or unsafe to show",
        r"
        A .game file may hold printable characters, tabs and line breaks only. A NUL byte
        means a binary file (a compiled program, an image) was given by mistake; another
        control character (an escape sequence) would reach the terminal when a diagnostic
        quotes the line; a bidirectional override makes the text show in another order than
        cgl reads it. The message says where the character is.

        Check that it is the file you meant, and remove the character.
        ";
    LoadTooLarge = "cgl::load::too_large",
        "a file is larger than the file-size limit",
        r"
        cgl reads a file (named on the command line or imported) only up to --max-file-size
        MiB (16 by default, 1 with `cgl check --confine`), so that a huge or endless file
        (/dev/zero, a log) cannot fill the memory. The message says the file's size, or that
        it kept growing while it was read.

        Split the file into smaller ones that import each other, or raise the limit with
        --max-file-size.
        ";
    LoadNotGame = "cgl::load::not_game",
        "an import names a file that is not a .game file",
        r#"
        `import` reads .game files only, and refuses any other path before reading it, so
        that no other file's contents (a password file, a key) can be quoted into a
        diagnostic or a CI log.

            import "/etc/passwd"

        Import the .game file that defines what you need.
        "#;
    LoadConfined = "cgl::load::confined",
        "a file or import leads outside the folder that `cgl check --confine` allows",
        r#"
        With `cgl check --confine DIR`, every file checked must lie inside DIR, and an
        import may not use an absolute path, `..`, or a symbolic link that leads outside.
        cgl refuses such a file or import before reading anything, and does not say where a
        link leads.

            import "../secret/answers.game"

        Copy what the file needs into the confined folder and import it from there.
        "#;
    LoadImportCycle = "cgl::load::import_cycle",
        "files import each other in a cycle",
        r"
        A file imports itself, directly or through other files, so none of them can be loaded
        first. The note shows the chain of imports that closes the cycle.

        Move what the files share into another file that each of them imports, and import
        in one direction only.
        ";

    // ---- names and other mistakes found before anything runs (exit 2)
    ResolveUnknownName = "cgl::resolve::unknown_name",
        "a name that no game, function, constant, variable or built-in defines",
        r"
        Every name must be defined in the file, imported, bound by a pattern or generator in
        scope, or be a built-in. The help suggests a close name when there is one (a typo,
        a different capitalisation).

            expect grundy(Kayle(4)) == 1     // did you mean `Kayles`?

        Fix the spelling, define the name, or import the file that defines it.
        ";
    ResolveType = "cgl::resolve::type",
        "an operator is given a literal of the wrong type, e.g. `1 - true`",
        r#"
        Some mistakes are visible without running anything: an arithmetic operator (`-`, `*`,
        `/`, `div`, `%`, `**`, `^`, `..`) with a literal that is not an integer, or `and`, `or`,
        `not` with a literal that is not a boolean.

            expect 3 - true == 2             // `-` needs integers

        Use a value of the right type. Mistakes that only show when the program runs are
        `cgl::eval::type`.
        "#;
    ResolveUnknownParam = "cgl::resolve::unknown_param",
        "`G[p = ...]` names a parameter that the game does not declare",
        r"
        A variant of a game sets its parameters by name, `G[p = value]`, and the name must be
        one that the game declares in `game G(p = default, ...)`. The help lists the
        parameters, or suggests the one you probably meant.

            game Take(k = 1) { position n  move n - k if n >= k }
            expect Take[kk = 2](4) is P       // did you mean `k`?
        ";
    ResolveArity = "cgl::resolve::arity",
        "a function, built-in, game or variant is given the wrong number of arguments",
        r"
        A call must pass as many arguments as the function declares (a built-in may accept a
        range, e.g. `min(xs)` or `min(a, b)`); a game called as a position, `G(...)`, takes one
        argument per field of its `position` pattern (fields with defaults may be left out);
        a variant `G[...]` takes at most as many positional values as the game has
        parameters.

            fn f(a, b) = a + b
            expect f(1) == 1                 // `f` takes 2 arguments
        ";
    ResolveDuplicate = "cgl::resolve::duplicate",
        "a game, function or constant is defined twice, or defined and also imported",
        r"
        Names defined at the top of a file (games, functions, constants) are one namespace,
        so each may be defined once, and not also be imported from another file.

        Rename one of the definitions, or drop the import.
        ";
    ResolveDuplicateBinding = "cgl::resolve::duplicate_binding",
        "one pattern, parameter list or comprehension binds the same name twice",
        r"
        A pattern such as `position (a, a)`, the parameters of one function or game
        (`fn f(a, a)`), or the generators of one comprehension or move rule
        (`for a in xs, a in ys`) would bind one name to two values.

            move (a, b - 1) for (a, a) in pairs     // `a` is bound twice

        Use a different name for each variable (`_` for a field you do not need).
        ";
    ResolveDuplicateClause = "cgl::resolve::duplicate_clause",
        "a game has two clauses of a kind it may have only once",
        r"
        A game has at most one `position`, `start`, `compound` and `play` clause (move rules
        and `terminal if`/`draw if` conditions may be repeated). Two of a kind is usually a
        copy-and-paste left-over.

        Keep the one you mean.
        ";
    ResolveNoPosition = "cgl::resolve::no_position",
        "a game has no `position` clause",
        r"
        The `position` clause names the fields of a position (`position n`,
        `position (a, b)`, `position (cells, turn)`); without it the move rules have nothing
        to refer to, so cgl reports nothing else about the game.

            game Nim {
                position n
                move k for k in 0..n
            }
        ";
    ResolveDefaultOrder = "cgl::resolve::default_order",
        "a position field without a default follows one with a default",
        r"
        Fields with defaults, `position (n, k = 2)`, may be left out when a position is made,
        `G(5)`. That only works from the end, so every field after one with a default needs a
        default too.

            position (k = 2, n)       // wrong
            position (n, k = 2)       // put the fields with defaults last
        ";
    ResolveShadowsBuiltin = "cgl::resolve::shadows_builtin",
        "a definition (or a REPL `let`) uses the name of a built-in",
        r"
        The names of built-in functions and constants (`grundy`, `mex`, `min`, `N`, `P`, ...)
        cannot be redefined, so that every file means the same by them.

            fn mex(xs) = 0                   // choose another name

        Choose another name.
        ";
    ResolveImportConflict = "cgl::resolve::import_conflict",
        "two imported files define the same name differently",
        r#"
        Two imports bring two different definitions of one name into the file, so cgl cannot
        tell which one a use means. (The same file imported twice, directly or through
        another import, is fine.)

        Rename the definition in one of the imported files, or import only one of them.
        "#;
    ResolveFnValue = "cgl::resolve::fn_value",
        "a function is used as a value instead of being called",
        r"
        Functions (user-defined and built-in) are not values in cgl: they can only be called.
        A function's name without arguments is usually a forgotten `(...)`.

            fn double(n) = 2 * n
            expect double == 4               // call it: `double(2) == 4`
        ";
    ResolveStrategic = "cgl::resolve::strategic",
        "a strategic game's clauses do not fit together, or it is called for a position",
        r#"
        A strategic-form game has `player NAME in STRATEGIES` clauses (one per player, in
        order) and one `payoff` or `table` clause, and nothing else: it has no positions, so
        `position`, `move`, `start` and the other clauses of a game of moves do not belong in
        it, and `G(...)` makes no position of it. Analyse the game itself.

            game PD {
                player Row in ["C", "D"]
                player Col in ["C", "D"]
                table [[(-1, -1), (-3, 0)], [(0, -3), (-2, -2)]]
            }
            expect pure_nash(PD) == [("D", "D")]
        "#;
    ResolvePayoffConflict = "cgl::resolve::payoff_conflict",
        "a payoff game also declares `draw if`, `play misere` or a one-sided move",
        r"
        In a game with `payoff` clauses every terminal position pays a number to the player
        to move there; that number decides how play ends, so a declared draw or the misère
        convention has nothing left to say.

            game G { position n  payoff -1  draw if n == 5  move n - 1 if n > 0 }

        Write a drawn end as `payoff 0 if n == 5`, and misère play (the player who cannot
        move wins) as `payoff 1`. Payoff games are impartial: scores of partizan play
        (`left move`, `right move`) are not supported, so write `move ...`.
        ";

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
        "support enumeration or Lemke–Howson refused a degenerate game",
        r"
        A two-player game is degenerate when a mixed strategy of k strategies has more than
        k pure best responses (a tie, such as a column player indifferent between two columns
        against one row). Its equilibria may form a continuum, which support enumeration and
        Lemke–Howson cannot list; cgl refuses rather than give an incomplete list.
        `vertex_enumeration` (as Gambit's `enummixed`) lists every extreme equilibrium of any
        two-player game, `equilibrium_components` their connected components, and `nash`
        runs vertex enumeration when support enumeration refuses. `pure_nash` lists the pure
        equilibria of any game.
        ";
    EvalSupportTooLarge = "cgl::eval::support_too_large",
        "support or vertex enumeration would solve too many linear systems",
        r"
        Support enumeration solves a linear system for every pair of supports of one size,
        and vertex enumeration one for every choice of tight inequalities of a best-response
        polytope; both grow exponentially with the number of strategies, and cgl refuses
        beyond 1,000,000 systems (support enumeration about 10×10, vertex enumeration
        about 11×11). `lemke_howson` finds some equilibria fast (not necessarily all), and
        `nash` runs it when support enumeration is too large.
        ";
    EvalLpTooLarge = "cgl::eval::lp_too_large",
        "the linear program for a dominating mixture would be too large",
        r#"
        A strategy is strictly dominated by a mixture when the zero-sum game of the
        player's other strategies against the others' profiles, paying the difference with
        the strategy's payoff, has a positive value: a linear program with one entry per
        strategy and profile. cgl solves it exactly up to 200,000 entries.
        `strictly_dominated`, `weakly_dominated`, `iterated_elimination(G)` and
        `iterated_elimination(G, "weak")` look for dominating pure strategies, which needs
        no linear program.
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
        "integer arithmetic left the 64-bit range",
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
        "`grundy` of a position of a loopy game from which play can cycle",
        r"
        A game declared `loopy` may return to a position, so play can go on for ever. The
        Sprague-Grundy value is defined by a finite recursion over the options, which a cycle
        never ends; cgl does not compute Smith's loopy values (`∞`).

        Use `outcome(p)`, which is `D` for a draw by infinite play, or `remoteness(p)` where
        the outcome is `N` or `P`.
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

        Use `outcome(p)`, which searches the compound's own moves.
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
    CheckEmptyFile = "cgl::check::empty_file",
        "a warning: a checked file defines nothing and expects nothing",
        r"
        `cgl check` passes a file that is empty or holds only comments, but warns: in a
        class's CI it is more likely a hand-in gone wrong than a finished exercise. A file
        with definitions and no `expect` (a library that others import) gets no warning.

        Check that it is the file you meant to hand in.
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
    InternalOnlyAtoms = "cgl::internal::only_atoms",
        "an internal signal: a search limited to positions met a compound",
        r"
        `outcome` first tries a fast search over plain positions; when it meets a compound it
        gives up with this code and the general search takes over. It is handled inside cgl
        and never reported; if it is shown, it is a bug.

        Please report it with the file and the command that caused it.
        ";
    InternalLoopyCycle = "cgl::internal::loopy_cycle",
        "an internal signal: the depth-first search met a cycle that a loopy game declares",
        r"
        The analyses first walk the positions depth first; a cycle through positions of
        games declared `loopy` makes the walk give up with this code, and the retrograde
        solver takes over. It is handled inside cgl and never reported; if it is shown, it is
        a bug.

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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_well_formed_and_found_again() {
        let mut names: Vec<&str> = Code::ALL.iter().map(|c| c.name()).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "two codes with one name");
        for &code in Code::ALL {
            let name = code.name();
            let parts: Vec<&str> = name.split("::").collect();
            assert!(
                parts[0] == "cgl"
                    && (2..=3).contains(&parts.len())
                    && parts[1..]
                        .iter()
                        .all(|p| !p.is_empty()
                            && p.chars().all(|c| c.is_ascii_lowercase() || c == '_')),
                "{name}"
            );
            assert_eq!(Code::from_name(name), Some(code));
            assert_eq!(Code::from_name(&name["cgl::".len()..]), Some(code));
            assert_eq!(code.to_string(), name);
            assert_eq!(format!("{code:?}"), format!("{name:?}"));
        }
        assert_eq!(Code::from_name("cgl::graph::cycles"), None);
        assert_eq!(Code::GraphCycle.phase(), "graph");
        assert_eq!(Code::Internal.phase(), "internal");
    }

    #[test]
    fn every_code_is_explained() {
        for &code in Code::ALL {
            let summary = code.summary();
            assert!(
                !summary.is_empty() && !summary.contains('\n') && !summary.ends_with('.'),
                "{code}: the summary is one line without a full stop"
            );
            assert!(summary.len() <= 100, "{code}: a summary fits one line");
            let text = code.explain();
            assert!(
                text.lines().count() >= 3,
                "{code}: explain it in a few lines"
            );
            for line in text.lines() {
                assert!(
                    line.chars().count() <= 92,
                    "{code}: lines fit a terminal: {line:?}"
                );
                assert!(
                    !line.starts_with(' ') || line.starts_with("    "),
                    "{code}: {line:?}"
                );
            }
        }
    }

    #[test]
    fn dedent_keeps_relative_indentation() {
        assert_eq!(
            dedent("\n    a\n\n      b\n    c\n  "),
            "a\n\n  b\nc\n".to_string()
        );
    }
}
