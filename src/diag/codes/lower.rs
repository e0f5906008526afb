//! The codes of lowering: names and other mistakes found before anything runs.
//!
//! One layer's entries of the catalogue (see [`super`]): the macro adds them to the entries
//! it is given and passes all on to the next layer's macro, the last one `codes!`.

macro_rules! lower_codes {
    ([$next:ident $(, $rest:ident)*] $($done:tt)*) => { $next! { [$($rest),*] $($done)*
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
        cannot be redefined, so that every file means the same by them. (`L`, `R`, `v` and
        `vv` can: a definition of one hides the constant in its file, with the warning
        `cgl::resolve::hides_constant` where the file uses it.)

            fn mex(xs) = 0                   // choose another name

        Choose another name.
        ";
    ResolveHidesConstant = "cgl::resolve::hides_constant",
        "a warning: a definition hides a built-in constant that the file uses",
        r#"
        `L`, `R` (the outcome classes), `v` and `vv` (down, double down) are the built-in
        constants that a game, function or constant may be named after. In its file (and in
        the files that import it) the name then means the definition, so a use that meant
        the constant silently means something else:

            const R = "R"                       // a colour, say
            expect outcome(Switch(1)) == L      // fine
            expect outcome(Hot(1)) == R         // compares with "R": false

        The warning names the definition and the first use. If the use meant the constant,
        rename the definition (`RED`, `R_`); if it meant the definition, nothing is wrong,
        and the exit code does not change. Parameters and pattern variables hide constants
        too, but only in the expression that binds them, and get no warning.
        "#;
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
    } };
}
