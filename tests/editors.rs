//! The editor support in `editors/` says what the interpreter says: the TextMate grammar's
//! keywords, built-ins, constants and clause words are the lexer's, the catalogue's and the
//! pest grammar's; the VS Code extension points at that grammar; and the grammar's scopes
//! agree with a lexer on every example and spec block (`editors/test/tokenize.mjs`, run by
//! node when it and its packages are there, and always in CI: `CGL_REQUIRE_NODE=1`).

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::common::{root, wait_with_timeout};

fn json(rel: &str) -> Value {
    let path = root().join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{rel} is not JSON: {e}"))
}

fn grammar() -> Value {
    json("editors/cgl.tmLanguage.json")
}

/// The words of a pattern `\b(a|b|c)\b`, the one shape the grammar gives its word lists.
fn word_list(regex: &str) -> Vec<String> {
    let inner = regex
        .strip_prefix(r"\b(")
        .and_then(|r| r.strip_suffix(r")\b"))
        .unwrap_or_else(|| panic!("`{regex}` is not a word list \\b(a|b|...)\\b"));
    inner.split('|').map(str::to_string).collect()
}

/// The words of every pattern of the grammar's repository entry `entry`, each once.
fn words_of(grammar: &Value, entry: &str) -> Vec<String> {
    let patterns = grammar["repository"][entry]["patterns"]
        .as_array()
        .unwrap_or_else(|| panic!("the grammar has no repository entry `{entry}`"));
    assert!(!patterns.is_empty(), "`{entry}` has no patterns");
    let mut words = Vec::new();
    for p in patterns {
        let regex = p["match"].as_str().expect("a word pattern has a `match`");
        assert!(
            p["name"].as_str().is_some_and(|n| n.ends_with(".cgl")),
            "{entry}: `{regex}` has no scope of its own"
        );
        words.extend(word_list(regex));
    }
    let unique: BTreeSet<&String> = words.iter().collect();
    assert_eq!(
        unique.len(),
        words.len(),
        "{entry} names a word twice: {words:?}"
    );
    words
}

fn sorted<'a>(words: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let set: BTreeSet<String> = words.into_iter().map(str::to_string).collect();
    set.into_iter().collect()
}

#[test]
fn the_grammar_is_for_game_files() {
    let g = grammar();
    assert_eq!(g["scopeName"], "source.cgl");
    assert_eq!(g["fileTypes"], serde_json::json!(["game"]));
}

#[test]
fn its_keywords_are_the_lexers() {
    let g = grammar();
    let words = words_of(&g, "keywords");
    assert_eq!(
        sorted(words.iter().map(String::as_str)),
        sorted(cgl::api::lex::KEYWORDS.iter().copied()),
        "editors/cgl.tmLanguage.json's `keywords` and syntax::lex::KEYWORDS differ"
    );
    // true, false and none are constants; the rest are keywords of some kind.
    for p in g["repository"]["keywords"]["patterns"].as_array().unwrap() {
        let name = p["name"].as_str().unwrap();
        let list = word_list(p["match"].as_str().unwrap());
        let constant = list
            .iter()
            .all(|w| ["true", "false", "none"].contains(&w.as_str()));
        let expected = if constant {
            "constant.language."
        } else {
            "keyword."
        };
        assert!(name.starts_with(expected), "{list:?} is scoped {name}");
    }
    // The declarations that also scope the name after their keyword use keywords.
    for entry in ["game-declaration", "fn-declaration", "const-declaration"] {
        let rule = &g["repository"][entry];
        let regex = rule["begin"].as_str().or(rule["match"].as_str()).unwrap();
        let word = regex
            .strip_prefix(r"\b(")
            .and_then(|r| r.split(')').next())
            .unwrap_or_else(|| panic!("{entry}: `{regex}` does not start with its keyword"));
        assert!(cgl::api::lex::is_keyword(word), "{entry}: `{word}`");
    }
}

#[test]
fn its_built_ins_are_the_catalogue() {
    let words = words_of(&grammar(), "builtins");
    assert_eq!(
        sorted(words.iter().map(String::as_str)),
        sorted(cgl::api::BUILTINS.iter().map(|(name, ..)| *name)),
        "editors/cgl.tmLanguage.json's `builtins` and lower::builtins::BUILTINS differ"
    );
}

#[test]
fn its_constants_are_the_catalogue() {
    let words = words_of(&grammar(), "constants");
    assert_eq!(
        sorted(words.iter().map(String::as_str)),
        sorted(cgl::api::CONSTANT_NAMES.iter().copied()),
        "editors/cgl.tmLanguage.json's `constants` and lower::builtins::CONSTANT_NAMES differ"
    );
    for soft in cgl::api::builtins::SOFT_CONSTANTS {
        assert!(words.iter().any(|w| w == soft), "soft constant {soft}");
    }
}

/// The clause words are the pest grammar's contextual words: the `kw_*` rules that are not
/// keywords (`show`, a keyword, is scoped as one).
#[test]
fn its_clause_words_are_the_pest_grammars() {
    let pest = std::fs::read_to_string(root().join("grammar/cgl.pest")).unwrap();
    let contextual = pest
        .lines()
        .filter(|l| l.starts_with("kw_"))
        .flat_map(|l| l.split('"').skip(1).step_by(2).collect::<Vec<_>>())
        .filter(|w| !cgl::api::lex::is_keyword(w));
    let g = grammar();
    let mut ours = Vec::new();
    for p in g["repository"]["clauses"]["patterns"].as_array().unwrap() {
        let regex = p["match"].as_str().unwrap();
        // Each group of words is a capture `(a|b|...)` of lower-case words.
        for group in regex.split('(').skip(1) {
            let words = group.split(')').next().unwrap();
            if !words.is_empty() && words.chars().all(|c| c.is_ascii_lowercase() || c == '|') {
                ours.extend(words.split('|').map(str::to_string));
            }
        }
    }
    assert_eq!(
        sorted(ours.iter().map(String::as_str)),
        sorted(contextual),
        "the grammar's `clauses` and the kw_* rules of grammar/cgl.pest differ"
    );
}

#[test]
fn the_vscode_extension_uses_the_grammar_and_the_server() {
    let package = json("editors/vscode/package.json");
    let language = &package["contributes"]["languages"][0];
    assert_eq!(language["id"], "cgl");
    assert_eq!(language["extensions"], serde_json::json!([".game"]));
    let configuration = language["configuration"].as_str().unwrap();
    json(&format!("editors/vscode/{configuration}"));
    let grammar = &package["contributes"]["grammars"][0];
    assert_eq!(grammar["scopeName"], "source.cgl");
    assert_eq!(grammar["path"], "./syntaxes/cgl.tmLanguage.json");
    let copy = std::fs::read_to_string(root().join("editors/vscode/copy-grammar.js")).unwrap();
    assert!(copy.contains(r#""..", "cgl.tmLanguage.json""#) && copy.contains(r#""syntaxes""#));
    assert_eq!(package["scripts"]["prepare"], "node copy-grammar.js");
    let path = &package["contributes"]["configuration"]["properties"]["cgl.path"];
    assert_eq!(path["default"], "cgl");
    assert!(package["dependencies"]["vscode-languageclient"].is_string());
    let extension = std::fs::read_to_string(root().join("editors/vscode/extension.js")).unwrap();
    assert!(
        extension.contains(r#"args: ["lsp"]"#),
        "extension.js starts `cgl lsp`"
    );
}

/// Whether `node` runs.
fn node_runs() -> bool {
    Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// `editors/test/tokenize.mjs`: the grammar's scopes against a lexer, on every example and
/// every `game` block of the spec, the tutorial and the README.
#[test]
fn the_grammar_tokenizes_every_example_and_spec_block() {
    let packages = root().join("editors/test/node_modules");
    if !node_runs() || !Path::new(&packages).join("vscode-textmate").is_dir() {
        let why = if node_runs() {
            "editors/test/node_modules is missing"
        } else {
            "node is not installed"
        };
        assert!(
            std::env::var("CGL_REQUIRE_NODE").as_deref() != Ok("1"),
            "CGL_REQUIRE_NODE=1, but {why}: run `npm ci --prefix editors/test` first"
        );
        eprintln!(
            "skipped the TextMate tokenizer test: {why} (`npm ci --prefix editors/test` installs its packages)"
        );
        return;
    }
    let child = Command::new("node")
        .arg(root().join("editors/test/tokenize.mjs"))
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs");
    let (code, stdout, stderr) = wait_with_timeout(
        child,
        Duration::from_secs(120),
        "node editors/test/tokenize.mjs",
    );
    assert_eq!(
        code, 0,
        "editors/test/tokenize.mjs failed:\n{stderr}{stdout}"
    );
    eprint!("{stdout}");
}
