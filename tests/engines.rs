//! The compiled fragment is a back end of the interpreter's semantics, so everything a user can
//! run gives byte-identical output with and without `--interpret`: the bundled examples, every
//! `game` block of the spec and the README, and every fail file (diagnostics included).

use std::path::{Path, PathBuf};

use crate::common::{cgl, root, temp_dir};
use crate::diagnostics::extra_args;
use crate::spec::blocks;

/// Runs `cgl check` on `file` (with `extra` options first) in both engines and fails the test,
/// showing both outputs, where stdout, stderr or the exit code differ.
fn assert_engines_agree(file: &str, extra: &[String]) {
    let run = |interpret: bool| {
        let mut args = vec!["check"];
        if interpret {
            args.push("--interpret");
        }
        args.extend(extra.iter().map(String::as_str));
        args.push(file);
        cgl(&args)
    };
    let compiled = run(false);
    let interpreted = run(true);
    assert_eq!(
        compiled, interpreted,
        "{file}: compiled (left) and --interpret (right) differ"
    );
}

#[test]
fn examples_print_the_same_in_both_engines() {
    assert_engines_agree("examples", &[]);
}

#[test]
fn fail_files_print_the_same_in_both_engines() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/fail"))
        .expect("tests/fail exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    files.sort();
    assert!(files.len() >= 50, "only {} fail files", files.len());
    for path in files {
        let source = std::fs::read_to_string(&path).expect("fail files are UTF-8");
        let relative = relative_to_root(&path);
        assert_engines_agree(&relative, &extra_args(&source));
    }
}

#[test]
fn spec_and_readme_blocks_print_the_same_in_both_engines() {
    // Each block becomes a file in one folder; an `import "examples/..."` (relative to the
    // repository root in the docs) is made absolute so that it resolves from there.
    let dir = temp_dir("engines-spec");
    let mut written = 0;
    for doc in ["README.md", "spec/language.md", "spec/tutorial.md"] {
        let markdown = std::fs::read_to_string(root().join(doc)).expect("the doc exists");
        for block in blocks(&markdown) {
            if block.info != "game" && block.info != "game fails" {
                continue;
            }
            let name = format!("{}_{:04}.game", doc.replace(['/', '.'], "_"), block.line);
            let examples = format!("import \"{}/examples/", root().display());
            let text = block.text.replace("import \"examples/", &examples);
            std::fs::write(dir.join(name), text).expect("write a block");
            written += 1;
        }
    }
    assert!(written >= 20, "only {written} blocks");
    assert_engines_agree(dir.to_str().expect("a UTF-8 temp path"), &[]);
}

fn relative_to_root(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .to_str()
        .expect("a UTF-8 path")
        .to_string()
}

/// The compiled fragment's lane programs (comprehensions and folds over a list, a block of
/// items at a time) and its innermost loops: short and empty lists, lists longer than a
/// block, negative items, indexes, guards that drop the lanes where the body would fail,
/// tuple guards, and a body that overflows (the interpreter's diagnostic, to the letter).
/// The file's expectations also hold the compiled rules' options against values the
/// interpreter computes.
#[test]
fn lane_programs_print_the_same_in_both_engines() {
    let (code, stdout, stderr) = cgl(&["check", "tests/lanes.game"]);
    assert!(
        code == 1 && stdout.contains("34 passed, 5 failed") && stderr.contains("integer overflow"),
        "{stdout}{stderr}"
    );
    assert_engines_agree("tests/lanes.game", &[]);
}
