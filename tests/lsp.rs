//! `cgl lsp` as an editor drives it: a client speaking the protocol on the server's stdin
//! and stdout, with bad messages among the good ones.

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
        let mut child = Command::new(env!("CARGO_BIN_EXE_cgl"))
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
