//! `cgl lsp` as an editor drives it: a client speaking the protocol on the server's stdin
//! and stdout, with bad messages among the good ones: diagnostics, hover, definitions and the
//! outline; a change that cancels a slow check; completion, references across an import and
//! semantic tokens; a panic, a buffer too large, a change of a buffer never opened.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// A running `cgl lsp` and the messages it sent.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        Client::start_with(None)
    }

    /// A server with `CGL_TEST_FAULT` set to `fault` (if any).
    fn start_with(fault: Option<&str>) -> Client {
        let mut command = Command::new(env!("CARGO_BIN_EXE_cgl"));
        match fault {
            Some(fault) => command.env("CGL_TEST_FAULT", fault),
            None => command.env_remove("CGL_TEST_FAULT"),
        };
        let mut child = command
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cgl lsp starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped");
        let (send, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = 0;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse().expect("a length");
                    }
                }
                let mut body = vec![0; length];
                reader.read_exact(&mut body).expect("a body");
                if send
                    .send(serde_json::from_slice(&body).expect("JSON"))
                    .is_err()
                {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            messages,
            next_id: 1,
        }
    }

    fn raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("open");
        stdin.write_all(bytes).expect("written");
        stdin.flush().expect("flushed");
    }

    fn send(&mut self, message: Value) {
        let text = message.to_string();
        self.raw(format!("Content-Length: {}\r\n\r\n{text}", text.len()).as_bytes());
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits for its response (other messages in between are dropped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait(|m| m["id"] == id)
    }

    fn wait(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let m = self
                .messages
                .recv_timeout(left)
                .expect("the server answers in time");
            if wanted(&m) {
                return m;
            }
        }
    }

    /// Every message the server sends within `time`.
    fn gather(&mut self, time: Duration) -> Vec<Value> {
        let deadline = Instant::now() + time;
        let mut out = Vec::new();
        while let Ok(m) = self
            .messages
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            out.push(m);
        }
        out
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "cgl", "version": 1, "text": text}}),
        );
    }

    fn change(&mut self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let m = self.wait(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        });
        m["params"]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// Ends the server and returns its exit code.
    fn exit(mut self, shutdown: bool) -> i32 {
        if shutdown {
            assert_eq!(self.request("shutdown", Value::Null)["result"], Value::Null);
        }
        self.notify("exit", Value::Null);
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().expect("waits") {
                return status.code().unwrap_or(-1);
            }
            assert!(Instant::now() < deadline, "cgl lsp does not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn initialized() -> Client {
    let mut c = Client::start();
    let r = c.request("initialize", json!({"capabilities": {}}));
    let caps = &r["result"]["capabilities"];
    assert_eq!(caps["hoverProvider"], true, "{r}");
    assert_eq!(caps["definitionProvider"], true);
    assert_eq!(caps["textDocumentSync"], 1);
    assert_eq!(caps["referencesProvider"], true);
    assert!(caps["completionProvider"].is_object(), "{r}");
    assert_eq!(caps["semanticTokensProvider"]["full"], true);
    assert_eq!(caps["documentFormattingProvider"], true);
    c.notify("initialized", json!({}));
    c
}

fn at(line: u32, character: u32, uri: &str) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

const URI: &str = "file:///tmp/cgl-lsp-test/kayles.game";

#[test]
fn an_editor_gets_diagnostics_hover_definitions_and_an_outline() {
    let mut c = initialized();
    // A comment with a character of two UTF-16 units before the mistakes, so that columns
    // count units, not bytes or characters.
    let text = "// 𝄞 Kayles\ngame Kayles { position n  move n - k for k in 1..=2 if k <= n }\nexpect grundy(Kayles(3)) == 0\nexpect grundy(Kayls(1)) == 1\n";
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "cgl", "version": 1, "text": text}}),
    );
    let found = c.diagnostics(URI);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "cgl::resolve::unknown_name");
    assert_eq!(found[0]["severity"], 1);
    assert_eq!(
        found[0]["range"]["start"],
        json!({"line": 3, "character": 14})
    );
    assert_eq!(
        found[0]["range"]["end"],
        json!({"line": 3, "character": 19})
    );
    assert!(found[0]["message"]
        .as_str()
        .unwrap()
        .contains("help: did you mean `Kayles`?"));

    // Fixed, the file loads and its expectations run: the false one is reported.
    let text = text.replace("Kayls(1)) == 1", "Kayles(1)) == 7");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": text}]}),
    );
    let found = c.diagnostics(URI);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "cgl::check::failed");
    assert_eq!(found[0]["range"]["start"]["line"], 3);

    // Hover over the use of Kayles on line 2 shows its definition's first line.
    let hover = c.request("textDocument/hover", at(2, 15, URI));
    let shown = hover["result"]["contents"]["value"]
        .as_str()
        .expect("hover text");
    assert!(shown.contains("game Kayles { position n"), "{shown}");
    let hover = c.request("textDocument/hover", at(2, 8, URI));
    let shown = hover["result"]["contents"]["value"]
        .as_str()
        .expect("hover text");
    assert!(shown.contains("Sprague–Grundy"), "{shown}");
    // Nothing to show on a keyword.
    assert_eq!(
        c.request("textDocument/hover", at(2, 2, URI))["result"],
        Value::Null
    );

    // Definition of `k` in `k <= n` is the `for k`.
    let def = c.request("textDocument/definition", at(1, 55, URI));
    assert_eq!(def["result"]["uri"], URI);
    assert_eq!(
        def["result"]["range"]["start"],
        json!({"line": 1, "character": 41})
    );

    let symbols = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": URI}}),
    );
    let list = symbols["result"].as_array().expect("symbols");
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["name"], "Kayles");
    assert_eq!(
        list[0]["location"]["range"]["start"],
        json!({"line": 1, "character": 5})
    );

    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": URI}}),
    );
    assert!(c.diagnostics(URI).is_empty());
    assert_eq!(c.exit(true), 0);
}

#[test]
fn bad_messages_are_answered_and_the_server_goes_on() {
    let mut c = Client::start();
    // Before `initialize`, a request is refused.
    let r = c.request("textDocument/hover", at(0, 0, URI));
    assert_eq!(r["error"]["code"], -32002, "{r}");
    let mut c2 = c;
    c2.request("initialize", json!({"capabilities": {}}));
    // A body that is not JSON, and a header without a length: parse errors, not the end.
    c2.raw(b"Content-Length: 9\r\n\r\nnot json!");
    let r = c2.wait(|m| m["error"]["code"] == -32700);
    assert!(
        r["error"]["message"].as_str().unwrap().contains("not JSON"),
        "{r}"
    );
    c2.raw(b"Content-Type: x\r\n\r\n");
    c2.wait(|m| m["error"]["code"] == -32700);
    // A message larger than any buffer is skipped without being held.
    let huge = 40usize << 20;
    c2.raw(format!("Content-Length: {huge}\r\n\r\n").as_bytes());
    c2.raw(&vec![b' '; huge]);
    let r = c2.wait(|m| m["error"]["code"] == -32700);
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("more than"),
        "{r}"
    );
    // Unknown methods and bad parameters.
    assert_eq!(
        c2.request("workspace/frobnicate", json!({}))["error"]["code"],
        -32601
    );
    assert_eq!(
        c2.request("textDocument/hover", json!({"x": 1}))["error"]["code"],
        -32602
    );
    // A file whose check never ends on its own is cut at the budget, as a warning.
    let uri = "file:///tmp/cgl-lsp-test/up.game";
    let text = "game Up { position n  move n + 1 }\nexpect Up(0) is P\n";
    let start = Instant::now();
    c2.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "cgl", "version": 1, "text": text}}),
    );
    let found = c2.diagnostics(uri);
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        ["cgl::limit::timeout", "cgl::graph::too_much_memory"]
            .contains(&found[0]["code"].as_str().unwrap()),
        "{found:?}"
    );
    assert_eq!(
        found[0]["severity"],
        if found[0]["code"] == "cgl::limit::timeout" {
            2
        } else {
            1
        }
    );
    // The server still answers; `exit` without `shutdown` is exit code 1.
    assert_eq!(c2.request("shutdown", Value::Null)["result"], Value::Null);
    c2.notify("exit", Value::Null);
    let mut c3 = Client::start();
    c3.request("initialize", json!({}));
    assert_eq!(c3.exit(false), 1);
}

/// Formatting is `cgl fmt`'s: one edit of the whole buffer to the text `cgl fmt -` writes,
/// no edit for a formatted buffer, and a request failure for one that does not parse.
#[test]
fn formatting_is_cgl_fmt() {
    let mut c = initialized();
    let uri = "file:///tmp/cgl-lsp-test/format.game";
    let text =
        "game  Nim { position n\n move n-k for k in 1..=n }\nexpect grundy( Nim(3) )==3 // three\n";
    let (code, formatted, _) = crate::common::cgl_stdin(&["fmt", "-"], text);
    assert_eq!(code, 0);
    assert_ne!(formatted, text);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "cgl", "version": 1, "text": text}}),
    );
    let ask =
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}});
    let edits = c.request("textDocument/formatting", ask.clone());
    let edits = edits["result"].as_array().expect("edits").clone();
    assert_eq!(edits.len(), 1, "{edits:?}");
    assert_eq!(edits[0]["newText"], formatted.as_str());
    assert_eq!(
        edits[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );
    assert_eq!(edits[0]["range"]["end"], json!({"line": 3, "character": 0}));
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": formatted}]}),
    );
    let again = c.request("textDocument/formatting", ask.clone());
    assert_eq!(again["result"], json!([]), "{again}");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": "game {"}]}),
    );
    let broken = c.request("textDocument/formatting", ask);
    assert_eq!(broken["error"]["code"], -32803, "{broken}");
    assert_eq!(c.exit(true), 0);
}

#[test]
fn a_client_that_goes_away_ends_the_server() {
    let mut c = initialized();
    drop(c.stdin.take());
    let deadline = Instant::now() + Duration::from_secs(30);
    while c.child.try_wait().expect("waits").is_none() {
        assert!(Instant::now() < deadline, "cgl lsp outlives its client");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn is_publish(m: &Value, uri: &str) -> bool {
    m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
}

#[test]
fn a_change_cancels_the_slow_check_of_the_text_before() {
    let mut c = initialized();
    let uri = "file:///tmp/cgl-lsp-test/slow.game";
    // Seconds of work, more than the check's budget of 2 s, in little memory (a count over a
    // range of 1.6 billion could meet the memory limit at once, before the change came).
    let slow = "game Nim { position n  move k for k in 0..n }\nfn fib(n) = if n < 2 then n else fib(n - 1) + fib(n - 2)\nexpect fib(36) == 0\n";
    c.open(uri, slow);
    std::thread::sleep(Duration::from_millis(150));
    let changed = Instant::now();
    c.change(
        uri,
        2,
        "game Nim { position n  move k for k in 0..n }\nexpect grundy(Nim(2)) == 3\n",
    );
    let m = c.wait(|m| is_publish(m, uri));
    let took = changed.elapsed();
    assert_eq!(
        m["params"]["version"], 2,
        "the stale text's diagnostics came: {m}"
    );
    assert!(took < Duration::from_millis(1500), "{took:?}");
    let found = m["params"]["diagnostics"].as_array().unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "cgl::check::failed");
    // Past the first text's budget: nothing more of it.
    let later = c.gather(Duration::from_millis(2500));
    assert!(!later.iter().any(|m| is_publish(m, uri)), "{later:?}");

    // Changes in quick succession are checked once, the last one.
    for v in 3..8 {
        let text = format!(
            "game Nim {{ position n  move k for k in 0..n }}\nexpect grundy(Nim({v})) == {v}\n"
        );
        c.change(uri, v, &text);
        std::thread::sleep(Duration::from_millis(20));
    }
    let m = c.wait(|m| is_publish(m, uri));
    assert_eq!(m["params"]["version"], 7, "{m}");
    assert_eq!(m["params"]["diagnostics"], json!([]));
    let later = c.gather(Duration::from_millis(500));
    assert!(!later.iter().any(|m| is_publish(m, uri)), "{later:?}");
    assert_eq!(c.exit(true), 0);
}

#[test]
fn completion_offers_built_ins_keywords_and_the_names_of_the_last_good_text() {
    let mut c = initialized();
    let text = "game Kayles { position n  move n - k for k in 1..=2 if k <= n }\nexpect grundy(Kayles(3)) == 3\n";
    c.open(URI, text);
    c.diagnostics(URI);
    let labels = |r: &Value| -> Vec<String> {
        r["result"]["items"]
            .as_array()
            .expect("a list of items")
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    // Typing a name that does not resolve yet: the text does not load.
    let typing = format!("{text}expect gru");
    c.change(URI, 2, &typing);
    let r = c.request("textDocument/completion", at(2, 10, URI));
    assert_eq!(labels(&r), ["grundy"], "{r}");
    let grundy = &r["result"]["items"][0];
    assert_eq!(grundy["kind"], 3, "a function: {grundy}");
    assert!(
        grundy["detail"].as_str().unwrap().starts_with("grundy("),
        "{grundy}"
    );
    assert!(grundy["documentation"]["value"]
        .as_str()
        .unwrap()
        .contains("Sprague–Grundy"));
    let typing = format!("{text}expect grundy(Kay");
    c.change(URI, 3, &typing);
    let r = c.request("textDocument/completion", at(2, 17, URI));
    assert_eq!(labels(&r), ["Kayles"], "{r}");
    assert!(r["result"]["items"][0]["detail"]
        .as_str()
        .unwrap()
        .starts_with("game Kayles"));
    // Inside the game's rule: its variables.
    let r = c.request("textDocument/completion", at(0, 60, URI));
    let found = labels(&r);
    assert!(
        found.starts_with(&["k".to_string(), "n".to_string()]),
        "{found:?}"
    );
    // A buffer that does not even parse: keywords, built-ins, and the names of the last
    // text that loaded.
    let broken = "game Kayles { position n  move n - k for k in 1..=2 if k <= n }\nexpect ((\n\n";
    c.change(URI, 4, broken);
    let found = c.diagnostics(URI);
    assert!(
        found[0]["code"]
            .as_str()
            .unwrap()
            .starts_with("cgl::syntax::"),
        "{found:?}"
    );
    let r = c.request("textDocument/completion", at(2, 0, URI));
    let found = labels(&r);
    for word in ["Kayles", "game", "expect", "grundy", "terminal", "P"] {
        assert!(found.iter().any(|f| f == word), "{word} in {found:?}");
    }
    assert_eq!(c.exit(true), 0);
}

#[test]
fn references_are_found_across_an_import() {
    let dir = crate::common::temp_dir("lsp-references");
    let lib = "game Nim { position n  move k for k in 0..n }\nexpect grundy(Nim(2)) == 2\n";
    let main =
        "import \"lib.game\"\nfn g(p) = grundy(Nim(p)) + p\nexpect g(3) == grundy(Nim(3)) + 3\n";
    std::fs::write(dir.join("lib.game"), lib).unwrap();
    std::fs::write(dir.join("main.game"), main).unwrap();
    let canonical = std::fs::canonicalize(&dir).unwrap();
    let lib_uri = format!("file://{}/lib.game", canonical.display());
    let main_uri = format!("file://{}/main.game", canonical.display());
    let mut c = initialized();
    c.open(&lib_uri, lib);
    c.open(&main_uri, main);
    c.diagnostics(&lib_uri);
    c.diagnostics(&main_uri);
    let places = |r: &Value| -> Vec<(String, u64, u64)> {
        let mut out: Vec<_> = r["result"]
            .as_array()
            .expect("locations")
            .iter()
            .map(|l| {
                let file = l["uri"].as_str().unwrap().rsplit('/').next().unwrap();
                let start = &l["range"]["start"];
                (
                    file.to_string(),
                    start["line"].as_u64().unwrap(),
                    start["character"].as_u64().unwrap(),
                )
            })
            .collect();
        out.sort();
        out
    };
    let references = |c: &mut Client, uri: &str, line: u32, character: u32, declaration: bool| {
        let mut p = at(line, character, uri);
        p["context"] = json!({"includeDeclaration": declaration});
        c.request("textDocument/references", p)
    };
    let nim = |f: &str, l: u64, ch: u64| (f.to_string(), l, ch);
    let every = vec![
        nim("lib.game", 0, 5),
        nim("lib.game", 1, 14),
        nim("main.game", 1, 17),
        nim("main.game", 2, 22),
    ];
    // From a use in the importing file, and from the definition in the imported one.
    assert_eq!(places(&references(&mut c, &main_uri, 1, 18, true)), every);
    assert_eq!(places(&references(&mut c, &lib_uri, 0, 6, true)), every);
    assert_eq!(
        places(&references(&mut c, &lib_uri, 0, 6, false)),
        every[1..].to_vec()
    );
    // A parameter: its binding and its two uses, in its own file.
    assert_eq!(
        places(&references(&mut c, &main_uri, 1, 5, true)),
        vec![
            nim("main.game", 1, 5),
            nim("main.game", 1, 21),
            nim("main.game", 1, 27)
        ]
    );
    // Only the importing file open: the imported one answers from disk.
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": lib_uri}}),
    );
    assert_eq!(places(&references(&mut c, &main_uri, 2, 23, true)), every);
    assert_eq!(c.exit(true), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn semantic_tokens_say_what_each_word_is() {
    let mut c = Client::start();
    let r = c.request("initialize", json!({"capabilities": {}}));
    let legend = r["result"]["capabilities"]["semanticTokensProvider"]["legend"]["tokenTypes"]
        .as_array()
        .expect("a legend")
        .clone();
    let text = "// 𝄞 Kayles\ngame Kayles(s = 2) { position n  move n - k for k in 1..=s if k <= n }\n/* two\nlines */ expect grundy(Kayles(3)) == \"x\"\n";
    c.open(URI, text);
    c.diagnostics(URI);
    let r = c.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": URI}}),
    );
    let data: Vec<u64> = r["result"]["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    assert_eq!(data.len() % 5, 0);
    // Decoded: (line, character) -> (length, type, modifiers).
    let mut tokens = std::collections::BTreeMap::new();
    let (mut line, mut start) = (0, 0);
    for t in data.chunks(5) {
        if t[0] > 0 {
            start = 0;
        }
        line += t[0];
        start += t[1];
        let kind = legend[t[3] as usize].as_str().unwrap().to_string();
        tokens.insert((line, start), (t[2], kind, t[4]));
    }
    let kind = |l: u64, ch: u64| tokens.get(&(l, ch)).map(|t| (t.0, t.1.as_str(), t.2));
    // The comment counts 𝄞 as two UTF-16 units: 12 in all.
    assert_eq!(kind(0, 0), Some((12, "comment", 0)), "{tokens:?}");
    assert_eq!(kind(1, 0), Some((4, "keyword", 0)));
    assert_eq!(
        kind(1, 5),
        Some((6, "type", 1)),
        "a game where it is defined"
    );
    assert_eq!(kind(1, 12), Some((1, "parameter", 1)));
    assert_eq!(kind(1, 16), Some((1, "number", 0)));
    assert_eq!(kind(1, 21), Some((8, "keyword", 0)), "position");
    assert_eq!(kind(1, 40), Some((1, "operator", 0)));
    assert_eq!(kind(1, 42), Some((1, "variable", 0)), "a use of k");
    assert_eq!(kind(1, 48), Some((1, "variable", 1)), "where k is bound");
    assert_eq!(kind(1, 53), Some((1, "number", 0)));
    assert_eq!(kind(1, 54), Some((3, "operator", 0)));
    assert_eq!(kind(1, 57), Some((1, "parameter", 0)), "a use of s");
    // A comment over two lines is a token on each.
    assert_eq!(kind(2, 0), Some((6, "comment", 0)));
    assert_eq!(kind(3, 0), Some((8, "comment", 0)));
    assert_eq!(kind(3, 16), Some((6, "function", 2)), "a built-in");
    assert_eq!(kind(3, 23), Some((6, "type", 0)));
    assert_eq!(kind(3, 37), Some((3, "string", 0)));

    // Asked at once after the buffer opens (as editors do), the names are resolved already.
    let other = "file:///tmp/cgl-lsp-test/other.game";
    c.open(other, "fn twice(x) = 2 * x\nexpect twice(1) == 2\n");
    let r = c.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": other}}),
    );
    let data = r["result"]["data"].as_array().expect("data");
    // `fn`, `twice`, `(`... : the second token is the function where it is defined.
    let twice = &data[5..10];
    assert_eq!(
        legend[twice[3].as_u64().unwrap() as usize],
        "function",
        "{data:?}"
    );
    assert_eq!(twice[4], 1);
    assert_eq!(c.exit(true), 0);
}

#[test]
fn a_panic_is_an_internal_error_and_the_server_goes_on() {
    let mut c = Client::start_with(Some("panic:boom.game"));
    c.request("initialize", json!({"capabilities": {}}));
    let boom = "file:///tmp/cgl-lsp-test/boom.game";
    c.open(boom, "expect 1 == 1\n");
    let log = c.wait(|m| m["method"] == "window/logMessage");
    assert_eq!(log["params"]["type"], 1, "an error: {log}");
    assert!(
        log["params"]["message"]
            .as_str()
            .unwrap()
            .contains("test fault"),
        "{log}"
    );
    let found = c.diagnostics(boom);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "cgl::internal");
    // A request that panics is answered, as an internal error.
    let r = c.request("textDocument/hover", at(0, 0, boom));
    assert_eq!(r["error"]["code"], -32603, "{r}");
    // Other buffers are served as before, and the faulty one is checked again when changed.
    c.open(URI, "expect 1 == 2\n");
    let found = c.diagnostics(URI);
    assert_eq!(found[0]["code"], "cgl::check::failed", "{found:?}");
    assert_eq!(
        c.request("textDocument/hover", at(0, 0, URI))["result"],
        Value::Null
    );
    c.change(boom, 2, "expect 2 == 2\n");
    assert_eq!(c.diagnostics(boom)[0]["code"], "cgl::internal");
    assert_eq!(c.exit(true), 0);
}

#[test]
fn a_huge_buffer_and_a_change_of_a_buffer_never_opened() {
    let mut c = initialized();
    let uri = "file:///tmp/cgl-lsp-test/huge.game";
    let line = "const c = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]\n";
    let huge = line.repeat((10 << 20) / line.len());
    let start = Instant::now();
    c.open(uri, &huge);
    let found = c.diagnostics(uri);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "cgl::load::too_large");
    let r = c.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(r["result"]["data"], json!([]));
    let r = c.request("textDocument/completion", at(0, 3, uri));
    assert!(r["result"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .any(|i| i["label"] == "const"));

    c.change("file:///tmp/cgl-lsp-test/never.game", 2, "expect true\n");
    let log = c.wait(|m| m["method"] == "window/logMessage");
    assert!(
        log["params"]["message"]
            .as_str()
            .unwrap()
            .contains("not open"),
        "{log}"
    );
    assert_eq!(
        c.request("textDocument/hover", at(0, 0, URI))["result"],
        Value::Null
    );
    assert_eq!(c.exit(true), 0);
}
