//! The codes of the front end: the text is not a cgl program, or a file or import cannot be
//! loaded.
//!
//! One layer's entries of the catalogue (see [`super`]): the macro adds them to the entries
//! it is given and passes all on to the next layer's macro, the last one `codes!`.

macro_rules! syntax_codes {
    ([$next:ident $(, $rest:ident)*] $($done:tt)*) => { $next! { [$($rest),*] $($done)*
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
        `import` reads .game files (and Gambit's .nfg files, `import "g.nfg" as G`) only,
        and refuses any other path before reading it, so that no other file's contents (a
        password file, a key) can be quoted into a diagnostic or a CI log.

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
    LoadNfg = "cgl::load::nfg",
        "an .nfg file (a Gambit strategic game) is not well formed, or names no game",
        r#"
        `import "game.nfg" as Name` reads a strategic game in Gambit's .nfg format, either
        version: the payoff version (each player's number of strategies, then every profile's
        payoffs) or the outcome version (the strategies' labels, the outcomes, then one
        outcome number per profile). Profiles are listed with the first player's strategy
        varying fastest. The diagnostic points at the first place where the file leaves the
        format: a missing brace, a payoff that is not a number, too few or too many payoffs,
        an outcome number past the list of outcomes, or a payoff that is not a fraction of
        64-bit integers.

            NFG 1 R "Matching pennies" { "Row" "Col" } { 2 2 }
            1 -1  -1 1  -1 1  1            // one payoff short

        Compare the file with the format (Gambit's documentation, "Game representation
        formats"), or save it again from Gambit.

        The game is named by `as Name`, or else by the file's name (`-f e02.nfg` defines
        `e02`); a file whose name is not a name (`2x2.nfg`) needs `as`, and `as` after the
        import of a .game file names nothing (a .game file's names come with it).
        "#;
    LoadImportCycle = "cgl::load::import_cycle",
        "files import each other in a cycle",
        r"
        A file imports itself, directly or through other files, so none of them can be loaded
        first. The note shows the chain of imports that closes the cycle.

        Move what the files share into another file that each of them imports, and import
        in one direction only.
        ";
    } };
}
