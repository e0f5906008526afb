//! `cgl serve`: the server started as a child on a free loopback port (it prints the address
//! it bound), then asked over HTTP with a tiny client on std's TcpStream: diagnostics with
//! their places, expectations, a query, moves played, the folder confined, bodies bounded,
//! a client that leaves cancels its evaluation; 50 clients at once beside a game that never
//! ends; and the page itself in Debian's Chromium (tests/browser/page.mjs) when node, its
//! packages and /usr/bin/chromium are there (required under `CGL_REQUIRE_BROWSER=1`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{root, temp_dir};

/// A `cgl serve` child, killed when dropped.
struct Served {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `cgl serve FOLDER --listen 127.0.0.1:0 ARGS...` and reads the address it prints.
fn serve(folder: &Path, args: &[&str]) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cgl"))
        .arg("serve")
        .arg(folder)
        .args(["--listen", "127.0.0.1:0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("cgl serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout is piped"))
        .read_line(&mut line)
        .expect("cgl serve prints its address");
    let addr = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .and_then(|w| w.trim_end_matches('/').parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    Served { child, addr }
}

/// One HTTP exchange: the status and the body.
fn exchange(addr: SocketAddr, raw: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    stream.write_all(raw).expect("sends");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {text:?}"));
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    exchange(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes(),
    )
}

fn post_raw(addr: SocketAddr, path: &str, body: &str) -> (u16, String) {
    exchange(
        addr,
        format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    )
}

/// A JSON request and its JSON answer (any status).
fn post(addr: SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    let (status, text) = post_raw(addr, path, &body.to_string());
    let doc = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (status, doc)
}

const NIM: &str = "game Nim { position n  move k for k in 0..n }\n";

/// A computation that never ends (1.6e15 steps): it runs until its budget stops it.
const ENDLESS: &str = "expect count(a == b for a in 0..40000000, b in 0..40000000) > 0\n";

/// A game that never ends: each move leads to a new position.
const ENDLESS_GAME: &str = "game Up { position n  move n + 1 }\nexpect Up(0) is N\n";

#[test]
fn serve_diagnostics_expectations_queries_and_play() {
    let s = serve(&root().join("examples"), &[]);
    // A broken file: the unknown name with its place and its suggestion.
    let broken = format!("{NIM}expect Nimm(3) is N\n");
    let (status, doc) = post(s.addr, "/api/check", &json!({ "source": broken }));
    assert_eq!(status, 200, "{doc}");
    assert_eq!(doc["loaded"], false);
    let d = &doc["diagnostics"][0];
    assert_eq!(d["code"], "cgl::resolve::unknown_name", "{doc}");
    assert_eq!(
        (&d["place"]["line"], &d["place"]["column"]),
        (&json!(2), &json!(8))
    );
    assert_eq!(d["place"]["end_column"], 12);
    assert_eq!(d["help"], "did you mean `Nim`?");
    // Fixed: each expectation with its place and whether it held.
    let fixed = format!("{NIM}expect Nim(3) is N\nexpect Nim(0) is N\n");
    let (_, doc) = post(s.addr, "/api/check", &json!({ "source": fixed }));
    assert_eq!(
        (&doc["passed"], &doc["failed"]),
        (&json!(1), &json!(1)),
        "{doc}"
    );
    assert_eq!(doc["statements"][0]["status"], "passed");
    assert_eq!(doc["statements"][1]["place"]["line"], 3);
    assert_eq!(
        doc["statements"][1]["diagnostic"]["code"],
        "cgl::check::failed"
    );
    // A query, a table and a mistake in a query.
    let ask = |q: &str| post(s.addr, "/api/eval", &json!({ "source": NIM, "query": q })).1;
    assert_eq!(ask("grundy(Nim(3) + Nim(5))")["text"], "6");
    let table = ask(":table grundy(Nim(n) + Nim(1)) for n in 0..4");
    assert_eq!(table["kind"], "table", "{table}");
    let cells: Vec<&Value> = table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["cell"]["text"])
        .collect();
    assert_eq!(cells, [&json!("1"), &json!("0"), &json!("3"), &json!("2")]);
    // A take-and-break game by code: Kayles's heaps to the proof, and the proof.
    let kayles = ask(":table octal(\"0.77\")");
    assert_eq!(kayles["kind"], "table", "{kayles}");
    assert_eq!(
        kayles["rows"].as_array().map(Vec::len),
        Some(168),
        "{kayles}"
    );
    assert_eq!(kayles["rows"][72]["cell"]["text"], "4", "{kayles}");
    assert_eq!(kayles["columns"], 12, "{kayles}");
    let note = kayles["note"].as_str().unwrap_or_default();
    assert!(note.starts_with("period 12, from n = 71"), "{kayles}");
    let wrong = ask("grundy(Nimm(3))");
    assert_eq!(wrong["kind"], "error");
    assert_eq!(wrong["errors"][0]["place"]["column"], 8);
    // Imports resolve in the served folder; tic-tac-toe played against perfect play.
    let play = |moves: &[usize], reply: bool| {
        let body = json!({
            "source": "import \"tictactoe.game\"\n",
            "start": "TicTacToe.start",
            "moves": moves,
            "reply": reply,
        });
        post(s.addr, "/api/play", &body).1
    };
    let start = play(&[], false);
    let options = start["view"]["options"].as_array().unwrap();
    assert_eq!(options.len(), 9, "{start}");
    assert!(options.iter().all(|o| o["result"] == "draw"));
    // An edge, then the computer's answer: it takes a move that does not lose.
    let after = play(&[1], true);
    assert_eq!(after["moves"].as_array().unwrap().len(), 2, "{after}");
    let reply = after["computer"].as_u64().unwrap() as usize;
    assert_eq!(after["view"]["outcome"], "D", "{after}");
    assert!(reply < 8, "{after}");
    // X in the centre, O in a corner: a draw, so no option of X's wins; O on an edge: X
    // wins, and the view says so of X's winning options, the computer's choice among them.
    let results = |doc: &Value| -> Vec<String> {
        doc["view"]["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["result"].as_str().unwrap().to_string())
            .collect()
    };
    let held = play(&[4, 0], false);
    assert!(!results(&held).contains(&"win".to_string()), "{held}");
    let lost = play(&[4, 1], false);
    let best = lost["view"]["best"].as_u64().unwrap() as usize;
    assert_eq!(results(&lost)[best], "win", "{lost}");
    let (status, bad) = post(
        s.addr,
        "/api/play",
        &json!({ "source": "import \"tictactoe.game\"\n", "start": "TicTacToe.start", "moves": [99] }),
    );
    assert_eq!(status, 400, "{bad}");
    // A strategic game: its payoff table with best responses marked, and its equilibria.
    let (_, doc) = post(
        s.addr,
        "/api/eval",
        &json!({ "source": "import \"strategic.game\"\n", "query": "Prisoners" }),
    );
    let t = &doc["strategic"];
    assert_eq!(t["players"], json!(["A", "B"]), "{doc}");
    assert_eq!(t["labels"][0], json!(["Cooperate", "Defect"]));
    // (Defect, Defect) is the last profile, each payoff a best response.
    let last = &t["cells"][3];
    assert_eq!(last["strategies"], json!([1, 1]), "{t}");
    assert!(last["payoffs"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["best"] == true));
    let found = t["equilibria"]["equilibria"].as_array().unwrap();
    assert_eq!(found.len(), 1, "{t}");
    // The page and its files are served.
    let (status, page) = get(s.addr, "/");
    assert_eq!(status, 200);
    assert!(page.contains("<textarea id=\"editor\""));
    assert_eq!(get(s.addr, "/app.js").0, 200);
    assert_eq!(get(s.addr, "/nothing").0, 404);
    let (_, files) = get(s.addr, "/api/files");
    assert!(files.contains("\"tictactoe.game\""), "{files}");
}

/// The number in a `data-NAME="..."` attribute of an SVG.
fn svg_number(svg: &str, name: &str) -> f64 {
    let key = format!("data-{name}=\"");
    let at = svg
        .find(&key)
        .unwrap_or_else(|| panic!("no {key} in {svg}"))
        + key.len();
    svg[at..].split('"').next().unwrap().parse().unwrap()
}

#[test]
fn serve_draws_graphs_and_thermographs_and_plays_either_side() {
    let s = serve(&root().join("examples"), &[]);
    let ask = |source: &str, q: &str| {
        post(
            s.addr,
            "/api/eval",
            &json!({ "source": source, "query": q }),
        )
        .1
    };
    // Nim(2): three positions, three moves, two of them winning (to Nim(0), a P-position).
    let graph = ask(NIM, ":dot Nim(2)");
    assert_eq!(graph["kind"], "graph", "{graph}");
    let svg = graph["svg"].as_str().unwrap();
    assert_eq!(svg_number(svg, "nodes"), 3.0);
    assert_eq!(svg_number(svg, "moves"), 3.0);
    assert_eq!(svg.matches("class=\"move winning\"").count(), 2, "{svg}");
    assert_eq!(svg.matches("data-outcome=\"P\"").count(), 1, "{svg}");
    // A partizan game: Left's moves and Right's, each in its colour. In the 2 x 2 square
    // each player has two placements, each leaving the other none: a first player's win.
    let dom = "import \"domineering.game\"\n";
    let graph = ask(dom, ":dot rect(2, 2)");
    let svg = graph["svg"].as_str().unwrap_or_else(|| panic!("{graph}"));
    assert!(svg.contains("class=\"move left winning\""), "{svg}");
    assert!(svg.contains("class=\"move right winning\""), "{svg}");
    assert!(svg.contains("data-index=\"0\" data-outcome=\"N\""), "{svg}");
    // The thermograph of the 2 x 3 board {2 | -1/2}: temperature 5/4 and mean 3/4, as
    // Winning Ways gives them (and the example's expectations say).
    let value = ask(dom, "value(rect(2, 3))");
    assert_eq!(value["text"], "{2|-1/2}", "{value}");
    let th = value["thermograph"].as_str().unwrap();
    assert_eq!(svg_number(th, "temperature"), 1.25);
    assert_eq!(svg_number(th, "mean"), 0.75);
    // A number has no thermograph drawn (its mast alone), nor has a value that is no game.
    assert!(ask(dom, "value(rect(1, 4))")["thermograph"].is_null());
    assert!(ask(NIM, "3")["thermograph"].is_null());
    // A position is no graph's start unless it is a position.
    let wrong = ask(NIM, ":dot 3");
    assert_eq!(wrong["errors"][0]["code"], "cgl::plot::usage", "{wrong}");
    // Play either side first: the options are those of the side asked for.
    let count = |side: &str| {
        let q = format!("len(moves(rect(2, 3), {side}))");
        ask(dom, &q)["text"]
            .as_str()
            .unwrap()
            .parse::<usize>()
            .unwrap()
    };
    for side in ["left", "right"] {
        let body = json!({ "source": dom, "start": "rect(2, 3)", "side": side });
        let (_, doc) = post(s.addr, "/api/play", &body);
        assert_eq!(doc["view"]["side"], side, "{doc}");
        assert_eq!(doc["view"]["option_count"], count(side), "{doc}");
    }
    assert_ne!(count("left"), count("right"));
}

#[test]
fn serve_refuses_a_trickling_client_and_a_huge_head_and_opens_the_browser() {
    // --open runs the desktop's opener (xdg-open on Linux) with the page's address: here a
    // stand-in on PATH that writes down what it was given.
    let dir = temp_dir("serve-open");
    let opened = dir.join("opened.txt");
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::PermissionsExt;
        let opener = dir.join("xdg-open");
        std::fs::write(
            &opener,
            format!("#!/bin/sh\necho \"$1\" > {}\n", opened.display()),
        )
        .unwrap();
        std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_cgl"))
        .args(["serve", "--listen", "127.0.0.1:0", "--open"])
        .arg(root().join("examples"))
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr: SocketAddr = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .and_then(|w| w.trim_end_matches('/').parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    let s = Served { child, addr };
    #[cfg(target_os = "linux")]
    {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !opened.exists() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let given = std::fs::read_to_string(&opened).unwrap_or_default();
        assert_eq!(given.trim(), format!("http://{addr}/"));
    }
    // A head past 16 KiB: 431, before the rest is read.
    let huge = format!(
        "GET / HTTP/1.1\r\nHost: {addr}\r\nX-Pad: {}\r\n\r\n",
        "a".repeat(20 << 10)
    );
    assert_eq!(exchange(s.addr, huge.as_bytes()).0, 431);
    // A client that sends its head a byte at a time, slower than 10 seconds in all: 408,
    // and the server answers others meanwhile.
    let mut slow = TcpStream::connect(s.addr).unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let started = Instant::now();
    let head = format!("GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    let mut answer = Vec::new();
    for b in head.bytes() {
        if slow.write_all(&[b]).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(400));
        if started.elapsed() > Duration::from_secs(3) && started.elapsed() < Duration::from_secs(4)
        {
            assert_eq!(get(s.addr, "/api/status").0, 200);
        }
        if started.elapsed() > Duration::from_secs(12) {
            break;
        }
    }
    let _ = slow.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(started.elapsed() < Duration::from_secs(15));
}

#[test]
fn serve_keeps_to_its_folder() {
    let dir = temp_dir("serve-confine");
    let inside = dir.join("class");
    std::fs::create_dir_all(inside.join("week1")).unwrap();
    std::fs::write(inside.join("week1/nim.game"), NIM).unwrap();
    std::fs::write(dir.join("secret.game"), "const SECRET = 42\n").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("secret.game"), inside.join("link.game")).unwrap();
    let s = serve(&inside, &[]);
    let (status, body) = get(s.addr, "/api/file?path=week1/nim.game");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("game Nim"));
    for path in [
        "../secret.game",
        "week1/../../secret.game",
        "%2e%2e/secret.game",
        "%2E%2E%2Fsecret.game",
        "/etc/passwd",
        &format!("{}", dir.join("secret.game").display()),
        "link.game",
        "week1/nim.txt",
    ] {
        let (status, body) = get(s.addr, &format!("/api/file?path={path}"));
        assert_eq!(status, 403, "{path}: {body}");
        assert!(!body.contains("SECRET"), "{path}: {body}");
    }
    let (_, files) = get(s.addr, "/api/files");
    assert!(
        files.contains("week1/nim.game") && !files.contains("link.game"),
        "{files}"
    );
    // An import out of the folder is refused too, with a diagnostic.
    let (_, doc) = post(
        s.addr,
        "/api/check",
        &json!({ "source": "import \"../secret.game\"\nexpect SECRET == 42\n", "path": "week1/x.game" }),
    );
    assert_eq!(
        doc["diagnostics"][0]["code"], "cgl::load::confined",
        "{doc}"
    );
    let (status, _) = post(
        s.addr,
        "/api/check",
        &json!({ "source": NIM, "path": "../x.game" }),
    );
    assert_eq!(status, 400);
    // A request for another host name (DNS rebinding) is refused.
    let (status, _) = exchange(
        s.addr,
        b"GET /api/files HTTP/1.1\r\nHost: evil.example\r\n\r\n",
    );
    assert_eq!(status, 421);
}

#[test]
fn serve_bounds_bodies_and_refuses_malformed_requests() {
    let s = serve(&root().join("examples"), &["--max-body", "16"]);
    let big = json!({ "source": "x".repeat(20 << 10) }).to_string();
    let (status, body) = post_raw(s.addr, "/api/check", &big);
    assert_eq!(status, 413, "{body}");
    let (status, body) = post_raw(s.addr, "/api/check", "{\"source\": ");
    assert_eq!(status, 400);
    assert!(body.contains("JSON"), "{body}");
    let (status, _) = post_raw(s.addr, "/api/check", "{\"sauce\": \"x\"}");
    assert_eq!(status, 400);
    let (status, _) = exchange(
        s.addr,
        b"POST /api/check HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}",
    );
    assert_eq!(status, 415, "a body that is not said to be JSON");
    let (status, _) = exchange(s.addr, b"NOT HTTP AT ALL\r\n\r\n");
    assert_eq!(status, 400);
    let (status, _) = get(s.addr, "/api/check");
    assert_eq!(status, 405);
    // A non-loopback address needs --public: refused before anything listens.
    let (code, _, stderr) = crate::common::cgl(&["serve", "examples", "--listen", "0.0.0.0:0"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--public"), "{stderr}");
}

/// Sends `body` to `/api/check` and leaves after `after` without reading the answer.
fn leave_after(addr: SocketAddr, body: &str, after: Duration) {
    let mut stream = TcpStream::connect(addr).unwrap();
    let request = format!(
        "POST /api/check HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    std::thread::sleep(after);
    drop(stream);
}

fn status_of(addr: SocketAddr) -> Value {
    serde_json::from_str(&get(addr, "/api/status").1).unwrap()
}

#[test]
fn serve_a_client_that_leaves_cancels_its_evaluation_and_a_slow_one_blocks_nobody() {
    // One evaluation at once, each allowed a minute: only a cancel frees the place soon.
    let s = serve(
        &root().join("examples"),
        &["--evaluations", "1", "--timeout", "60"],
    );
    let endless = json!({ "source": ENDLESS }).to_string();
    let addr = s.addr;
    let leaver = std::thread::spawn(move || leave_after(addr, &endless, Duration::from_secs(3)));
    let seen = Instant::now();
    while status_of(addr)["running"] != 1 {
        assert!(seen.elapsed() < Duration::from_secs(20), "nothing runs");
        std::thread::sleep(Duration::from_millis(20));
    }
    // A second request waits its turn, and the status says so.
    let waiter = std::thread::spawn(move || {
        let source = format!("{NIM}expect Nim(1) is N\n");
        post(addr, "/api/check", &json!({ "source": source })).1
    });
    let seen = Instant::now();
    while status_of(addr)["waiting"] != 1 {
        assert!(seen.elapsed() < Duration::from_secs(20), "nobody waits");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(status_of(addr)["running"], 1);
    leaver.join().unwrap();
    assert_eq!(waiter.join().unwrap()["passed"], 1);
    // A client that sends half a request and stalls holds nothing but its own connection.
    let mut stalled = TcpStream::connect(s.addr).unwrap();
    stalled
        .write_all(b"POST /api/check HTTP/1.1\r\nContent-Le")
        .unwrap();
    let started = Instant::now();
    let (_, doc) = post(
        s.addr,
        "/api/check",
        &json!({ "source": format!("{NIM}expect Nim(2) is N\n") }),
    );
    let took = started.elapsed();
    assert_eq!(doc["passed"], 1, "{doc}");
    assert!(
        took < Duration::from_secs(20),
        "the place was freed only after {took:?}"
    );
    let status = status_of(s.addr);
    assert_eq!(
        (&status["running"], &status["waiting"]),
        (&json!(0), &json!(0))
    );
    drop(stalled);
}

#[test]
fn serve_under_load_every_request_answers_within_its_budget() {
    let seconds = 3;
    let s = serve(
        &root().join("examples"),
        &["--timeout", &seconds.to_string(), "--evaluations", "2"],
    );
    let addr = s.addr;
    let endless = std::thread::spawn(move || {
        let started = Instant::now();
        let (status, doc) = post(addr, "/api/check", &json!({ "source": ENDLESS_GAME }));
        (status, doc, started.elapsed())
    });
    std::thread::sleep(Duration::from_millis(200));
    let clients: Vec<_> = (0..49)
        .map(|i| {
            std::thread::spawn(move || {
                let started = Instant::now();
                let source = format!("{NIM}expect grundy(Nim({i}) + Nim(1)) == {}\n", i ^ 1);
                let (status, doc) = post(addr, "/api/check", &json!({ "source": source }));
                (status, doc, started.elapsed())
            })
        })
        .collect();
    let budget = Duration::from_secs(seconds + 20);
    let mut slowest = Duration::ZERO;
    for c in clients {
        let (status, doc, took) = c.join().unwrap();
        assert_eq!(status, 200, "{doc}");
        assert_eq!(
            (&doc["passed"], &doc["failed"]),
            (&json!(1), &json!(0)),
            "{doc}"
        );
        assert!(took < budget, "a request took {took:?}");
        slowest = slowest.max(took);
    }
    let (status, doc, took) = endless.join().unwrap();
    assert_eq!(status, 200);
    // Out of time, or (in a release build, faster) out of positions first.
    let code = doc["statements"][0]["diagnostic"]["code"]
        .as_str()
        .unwrap_or("");
    assert!(
        code.starts_with("cgl::limit::") || code == "cgl::graph::too_many_positions",
        "{doc}"
    );
    assert!(took < budget, "the endless game took {took:?}");
    eprintln!("50 clients: the slowest of 49 answered in {slowest:?}, the endless one in {took:?}");
}

/// Whether the browser test can run here: node, the npm packages of tests/browser and
/// Debian's Chromium.
fn browser_missing() -> Option<String> {
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !node {
        return Some("node is not installed".into());
    }
    if !root()
        .join("tests/browser/node_modules/playwright-core")
        .is_dir()
    {
        return Some("the npm packages are missing (npm ci --prefix tests/browser)".into());
    }
    if !Path::new("/usr/bin/chromium").exists() {
        return Some("/usr/bin/chromium is missing (apt-get install chromium)".into());
    }
    None
}

#[test]
fn serve_page_in_a_browser() {
    if let Some(missing) = browser_missing() {
        assert!(
            std::env::var_os("CGL_REQUIRE_BROWSER").is_none_or(|v| v != "1"),
            "CGL_REQUIRE_BROWSER=1, but {missing}"
        );
        eprintln!("skipped: {missing}");
        return;
    }
    let s = serve(&root().join("examples"), &["--timeout", "60"]);
    let artifacts = root().join("target/browser-artifacts");
    let output = Command::new("node")
        .arg(root().join("tests/browser/page.mjs"))
        .env("CGL_SERVE_URL", format!("http://{}/", s.addr))
        .env("CGL_ARTIFACTS", &artifacts)
        .current_dir(root().join("tests/browser"))
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the page test failed (screenshots in {}):\n{stdout}\n{stderr}",
        artifacts.display()
    );
    assert!(stdout.contains("browser: all steps passed"), "{stdout}");
}
