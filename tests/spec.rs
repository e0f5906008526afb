//! The reference and the README are tested: every fenced block marked `game` is a complete
//! file whose expectations must all pass; a block marked `game fails` must load and have at
//! least one failing expectation.

use std::path::Path;

use cgl::session::{ExpectResult, Session, SessionConfig};

use crate::common::root;

/// A fenced code block: its info string, first line number and text (`tests/engines.rs`
/// reads them too).
pub struct Block {
    pub info: String,
    pub line: usize,
    pub text: String,
}

pub fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut current: Option<Block> = None;
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            match current.take() {
                Some(block) => out.push(block),
                None => {
                    current = Some(Block {
                        info: info.trim().to_string(),
                        line: i + 2,
                        text: String::new(),
                    })
                }
            }
        } else if let Some(block) = current.as_mut() {
            block.text.push_str(line);
            block.text.push('\n');
        }
    }
    out
}

fn check_markdown(path: &Path) -> usize {
    let markdown = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    for block in blocks(&markdown) {
        let expect_failure = match block.info.as_str() {
            "game" => false,
            "game fails" => true,
            _ => continue,
        };
        let name = format!("{}:{}", path.display(), block.line);
        let mut session = Session::new(SessionConfig::default());
        let index = match session.load_source(&name, &block.text) {
            Ok(i) => i,
            Err(diags) => panic!(
                "{name}: does not load: {:?}",
                diags.iter().map(|d| &d.message).collect::<Vec<_>>()
            ),
        };
        let mut failures = Vec::new();
        let mut total = 0;
        for statement in session.statements(index) {
            if let cgl::lower::ir::Statement::Expect(body, _) = statement {
                total += 1;
                if let ExpectResult::Failed(d) = session.check_expect(&body) {
                    failures.push(cgl::diag::render(
                        &d,
                        &session.sources,
                        cgl::diag::RenderStyle::Plain,
                    ));
                }
            }
        }
        if expect_failure {
            assert!(!failures.is_empty(), "{name}: a `game fails` block passed");
        } else {
            assert!(total > 0, "{name}: a `game` block without expectations");
            assert!(failures.is_empty(), "{name}:\n{}", failures.join("\n"));
        }
        checked += 1;
    }
    checked
}

#[test]
fn spec_examples_pass() {
    let mut checked = 0;
    let mut entries: Vec<_> = std::fs::read_dir(root().join("spec"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.extension().is_some_and(|e| e == "md") {
            checked += check_markdown(&path);
        }
    }
    assert!(checked >= 5, "only {checked} spec blocks found");
}

#[test]
fn readme_examples_pass() {
    assert!(check_markdown(&root().join("README.md")) >= 1);
}
