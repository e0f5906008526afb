//! A definition that hides a built-in constant the file then uses gets the warning
//! `cgl::resolve::hides_constant` (see: issue "Reliability III", finding 3: `const R = "R"`
//! made `outcome(g) == R` false with no word). A warning changes no answer and no exit code;
//! `cgl check` reports it in every format, `cgl run` on stderr.

use crate::common::{assert_no_crash, cgl_in, temp_dir};

const CODE: &str = "cgl::resolve::hides_constant";

/// A partizan game whose position 1 Right wins, and a constant `R` that hides the class.
const HIDDEN: &str = "const R = \"R\"\n\
                      game Ramp {\n    position n\n    right move n - 1 if n > 0\n}\n\
                      expect outcome(Ramp(1)) != R\n\
                      expect R == \"R\"\n";

#[test]
fn a_hidden_constant_in_use_is_a_warning_in_every_format() {
    let dir = temp_dir("hidden-constant");
    std::fs::write(dir.join("hidden.game"), HIDDEN).unwrap();
    let (code, stdout, stderr) = cgl_in(&dir, &["check", "hidden.game"]);
    assert_no_crash("check", &stderr);
    assert_eq!(code, 0, "a warning is not a failure:\n{stderr}");
    assert_eq!(
        stdout,
        "ok    hidden.game (2 passed, 0 failed)\n2 passed, 0 failed\n"
    );
    insta::assert_snapshot!(stderr, @r#"
    cgl::resolve::hides_constant

      ⚠ the constant `R` hides the outcome class `R` (Right wins)
       ╭─[hidden.game:1:7]
     1 │ const R = "R"
       ·       ┬
       ·       ╰── this constant is named `R`
     2 │ game Ramp {
       ╰────
       ╭─[hidden.game:6:28]
     5 │ }
     6 │ expect outcome(Ramp(1)) != R
       ·                            ┬
       ·                            ╰── so this `R` is the constant, not the outcome class `R` (Right wins)
     7 │ expect R == "R"
       ╰────
      help: if you meant the outcome class `R` (Right wins), rename the constant
            (say `R_`); if you meant the constant, nothing is wrong
      note: the file uses `R` 2 times, each time meaning the constant
    "#);

    let (code, stdout, _) = cgl_in(&dir, &["check", "--format", "json", "hidden.game"]);
    assert_eq!(code, 0);
    let file_record = stdout
        .lines()
        .find(|l| l.contains("\"kind\":\"file\""))
        .expect("a file record");
    assert!(
        file_record.contains(&format!("\"code\":\"{CODE}\""))
            && file_record.contains("\"severity\":\"warning\""),
        "{file_record}"
    );

    let (code, stdout, _) = cgl_in(&dir, &["check", "--format", "junit", "hidden.game"]);
    assert_eq!(code, 0);
    let doc = roxmltree::Document::parse(&stdout).unwrap();
    let system_err = doc
        .descendants()
        .find(|n| n.tag_name().name() == "system-err")
        .and_then(|n| n.text())
        .unwrap_or_default();
    assert!(system_err.contains(CODE), "{stdout}");

    let (code, stdout, stderr) = cgl_in(&dir, &["check", "--format", "github", "hidden.game"]);
    assert_eq!(code, 0);
    assert!(stderr.contains(CODE));
    assert!(
        stdout.contains("::warning file=hidden.game,line=1,col=7"),
        "{stdout}"
    );

    let (code, stdout, stderr) = cgl_in(&dir, &["run", "hidden.game"]);
    assert_eq!((code, stdout.as_str()), (0, ""));
    assert!(stderr.contains(CODE), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An imported definition hides the constant in the importing file: the warning is the
/// importing file's, at its import and its use, and says where the name is defined.
#[test]
fn an_imported_definition_that_hides_a_constant_warns_where_it_is_used() {
    let dir = temp_dir("hidden-import");
    std::fs::write(dir.join("colours.game"), "const L = 1\n").unwrap();
    std::fs::write(
        dir.join("uses.game"),
        "import \"colours.game\"\nexpect L + 1 == 2\n",
    )
    .unwrap();
    let (code, _, stderr) = cgl_in(&dir, &["check", "uses.game"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("the imported constant `L` hides the outcome class `L` (Left wins)")
            && stderr.contains("this import brings a constant named `L`")
            && stderr.contains("colours.game:1:7: `L` is defined here"),
        "{stderr}"
    );
    // The file that defines it and does not use it gets no warning.
    let (code, _, stderr) = cgl_in(&dir, &["check", "colours.game"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let _ = std::fs::remove_dir_all(&dir);
}

/// No warning where no use can mean the constant: a game named `L` only called or given
/// parameters, a definition never used, a parameter or pattern variable of that name (in
/// plain sight where it binds), and the built-in constants themselves.
#[test]
fn uses_that_cannot_mean_the_constant_do_not_warn() {
    let dir = temp_dir("hidden-quiet");
    let quiet = "game L(k = 1) {\n    position n\n    start 3\n    move n - k if n >= k\n}\n\
                 const v = 3\n\
                 fn twice(R) = 2 * R\n\
                 expect L(3) is N and L[k = 2](2) is N and L.start is N\n\
                 expect twice(2) == 4 and [R for R in 0..2] == [0, 1]\n\
                 expect outcome({1 | 0}) == N and outcome({0 | -1}) != R\n";
    std::fs::write(dir.join("quiet.game"), quiet).unwrap();
    let (code, stdout, stderr) = cgl_in(&dir, &["check", "quiet.game"]);
    assert_no_crash("quiet", &stderr);
    assert_eq!((code, stderr.as_str()), (0, ""), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
