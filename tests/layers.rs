//! The modules depend on each other in one direction, along the data (ARCHITECTURE.md):
//! every `crate::m` a file under `src/` names must be a module of a lower layer than its own.
//! Read from the source text, so a new upward import fails here, before it becomes a knot.
//! It also keeps every file under `src/` below [`MAX_LINES`] lines.

use std::path::Path;

use crate::common::root;

/// The layers, lowest first. A module may use only modules before it in this list.
const LAYERS: &[&str] = &[
    "diag",
    "stack",
    "num",
    "memory",
    "cgt",
    "plot",
    "strategic",
    "syntax",
    "value",
    "lower",
    "eval",
    "graph",
    "analysis",
    "stats",
    "progress",
    "session",
    "api",
    "lsp",
    "repl",
    "serve",
    "cli",
];

/// Every `.rs` file below `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules that `crate::` paths in this code name (comments left out).
fn used_modules(source: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in source.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            out.push((i + 1, name));
        }
    }
    out
}

#[test]
fn modules_depend_only_on_lower_layers() {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let rank = |m: &str| LAYERS.iter().position(|l| *l == m);
    let mut wrong = Vec::new();
    for path in &files {
        let relative = path.strip_prefix(&src).expect("below src");
        let module = relative
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .expect("a UTF-8 path")
            .trim_end_matches(".rs");
        if module == "lib" || module == "main" {
            continue;
        }
        let own = rank(module).unwrap_or_else(|| {
            panic!("src/{module} is in no layer: add it to LAYERS (and ARCHITECTURE.md)")
        });
        let source = std::fs::read_to_string(path).expect("a readable file");
        for (line, used) in used_modules(&source) {
            if used == module {
                continue;
            }
            match rank(&used) {
                Some(r) if r < own => {}
                _ => wrong.push(format!(
                    "src/{}:{line}: `{module}` uses `crate::{used}`",
                    relative.display()
                )),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers {LAYERS:?}:\n{}",
        wrong.join("\n")
    );
}

/// The shells: they reach the core only through the library face, `crate::api`.
const SHELLS: &[&str] = &["lsp", "repl", "serve", "cli"];

#[test]
fn shells_use_only_the_library_face() {
    let src = root().join("src");
    let mut wrong = Vec::new();
    for shell in SHELLS {
        let mut files = Vec::new();
        rust_files(&src.join(shell), &mut files);
        assert!(!files.is_empty(), "src/{shell} has no files");
        for path in &files {
            let source = std::fs::read_to_string(path).expect("a readable file");
            for (line, used) in used_modules(&source) {
                if used != "api" && !SHELLS.contains(&used.as_str()) {
                    wrong.push(format!("{}:{line}: `crate::{used}`", path.display()));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "a shell uses the core past `crate::api` (add what it needs to src/api/mod.rs):\n{}",
        wrong.join("\n")
    );
}

/// The Python bindings (python/, a crate of their own that depends on this one) reach it
/// only through `cgl::api`, as the shells inside do.
#[test]
fn the_python_bindings_use_only_the_library_face() {
    let mut files = Vec::new();
    rust_files(&root().join("python").join("src"), &mut files);
    assert!(!files.is_empty(), "python/src has no files");
    let mut wrong = Vec::new();
    for path in &files {
        let source = std::fs::read_to_string(path).expect("a readable file");
        for (n, line) in source.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for (at, _) in code.match_indices("cgl::") {
                let before = code[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '`') {
                    continue; // `_cgl::`, and a diagnostic code quoted in a text
                }
                let after = &code[at + 5..];
                if !after.starts_with("api") {
                    wrong.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the Python bindings use cgl past `cgl::api`:\n{}",
        wrong.join("\n")
    );
}

/// The check itself sees an upward import (so that it cannot pass by reading nothing).
#[test]
fn the_layer_check_sees_crate_paths() {
    let found = used_modules(
        "use crate::analysis::Analyzer; // crate::cli\nlet x = crate::eval::Stop::new();",
    );
    assert_eq!(
        found,
        vec![(1, "analysis".to_string()), (2, "eval".to_string())]
    );
}

/// No file under `src/` reaches this many lines: a module does one job (issue 14).
const MAX_LINES: usize = 900;

#[test]
fn source_files_stay_below_900_lines() {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut long = Vec::new();
    for path in &files {
        let relative = path
            .strip_prefix(&src)
            .expect("below src")
            .to_string_lossy()
            .replace('\\', "/");
        let lines = std::fs::read_to_string(path)
            .expect("a readable file")
            .lines()
            .count();
        if lines >= MAX_LINES {
            long.push(format!("src/{relative}: {lines} lines"));
        }
    }
    assert!(
        long.is_empty(),
        "files of {MAX_LINES} lines or more: split them by job (ARCHITECTURE.md):\n{}",
        long.join("\n")
    );
}

/// Every path ARCHITECTURE.md names (under `src/`, `tests/`, `benches/`, `spec/`,
/// `grammar/`, `examples/`, `.ci/` or `editors/`) exists, and so does every `cgl::module` it names: the
/// map must not point at what was moved or renamed.
#[test]
fn the_architecture_map_names_what_exists() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut missing = Vec::new();
    let mut paths = 0;
    for (i, _) in text.match_indices(['`', ' ', '(', '\n']) {
        let rest = &text[i + 1..];
        let path: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || "_./-".contains(*c))
            .collect();
        let path = path.trim_end_matches('.');
        let tops = [
            "src/",
            "tests/",
            "benches/",
            "spec/",
            "grammar/",
            "examples/",
            ".ci/",
            "editors/",
        ];
        if !tops.iter().any(|t| path.starts_with(t)) {
            continue;
        }
        paths += 1;
        if !root().join(path).exists() {
            missing.push(path.to_string());
        }
    }
    for (i, _) in text.match_indices("cgl::") {
        let token: String = text[i..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        if cgl::diag::Code::from_name(&token).is_some() {
            continue;
        }
        let name = token["cgl::".len()..].split("::").next().unwrap_or("");
        let src = root().join("src");
        let exists = src.join(format!("{name}.rs")).exists() || src.join(name).is_dir();
        if !name.is_empty() && !exists {
            missing.push(token);
        }
    }
    assert!(paths > 30, "the check found only {paths} paths");
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names what does not exist: {missing:?}"
    );
}
