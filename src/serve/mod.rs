//! `cgl serve`: a web page for a class. One page (an editor with the file's diagnostics and
//! expectations as you type, a query box, a board to play on) and a small JSON API, served
//! over HTTP from this process; the `.game` files under a folder are listed and read, never
//! written. Everything goes through [`crate::api`].
//!
//! Split by job: `http.rs` reads a request and writes a response with bounds (head, body,
//! time), `slots.rs` bounds the evaluations at once and queues the rest, `routes.rs` sends a
//! request to its handler, `files.rs` lists and reads the folder's files (confined as
//! `check --confine` is), `eval.rs` runs each evaluation in a session of its own built from
//! the request's text under a [`Budget`](crate::api::Budget), `page/` is the page, embedded.
//!
//! A connection is a thread; an evaluation runs on a worker thread of its own (a large
//! stack, as `main` gives), while the connection's thread watches the socket: a client that
//! goes away trips the evaluation's [`Cancel`](crate::api::Cancel).

mod eval;
mod files;
mod http;
mod limits;
mod routes;
mod slots;
mod views;

use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::api::LoadPolicy;

pub use limits::Limits;

/// Connections open at once at most; past that a new one is answered 503 at once.
const MOST_CONNECTIONS: usize = 256;

/// The stack of a connection's thread (it parses and writes, evaluates nothing).
const CONNECTION_STACK: usize = 1 << 20;

/// What `cgl serve` was asked.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen.
    pub listen: SocketAddr,
    /// Whether a non-loopback address is allowed (and any `Host` header).
    pub public: bool,
    /// The folder whose `.game` files are served.
    pub root: PathBuf,
    /// Whether to open the page in a browser.
    pub open: bool,
    /// Evaluations at once.
    pub evaluations: usize,
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// The limits of each evaluation.
    pub limits: Limits,
}

/// What the handlers share.
pub struct Server {
    config: Config,
    slots: slots::Slots,
    /// The address bound (its port is known only once bound, when 0 was asked).
    bound: SocketAddr,
    connections: AtomicUsize,
}

/// Runs the server until the process is stopped; returns an exit code if it cannot start.
pub fn run(mut config: Config, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let root = match std::fs::canonicalize(&config.root) {
        Ok(root) if root.is_dir() => root,
        Ok(_) => {
            let _ = writeln!(
                err,
                "error: --root {}: not a folder",
                crate::api::shown(&config.root)
            );
            return 2;
        }
        Err(e) => {
            let _ = writeln!(
                err,
                "error: --root {}: {e}",
                crate::api::shown(&config.root)
            );
            return 2;
        }
    };
    if !config.listen.ip().is_loopback() && !config.public {
        let _ = writeln!(
            err,
            "error: {} is not a loopback address: anyone who can reach it could use this \
             server and read the .game files under --root\n  help: listen on 127.0.0.1, or \
             add --public to serve the network on purpose",
            config.listen
        );
        return 2;
    }
    // Files are read relative to the root: imports resolve there, and diagnostics name
    // files by their path below it, never by where the server's folder is.
    if let Err(e) = std::env::set_current_dir(&root) {
        let _ = writeln!(err, "error: cannot enter {}: {e}", crate::api::shown(&root));
        return 2;
    }
    config.limits.policy = LoadPolicy {
        confine: Some(root.clone()),
        ..config.limits.policy.clone()
    };
    let listener = match TcpListener::bind(config.listen) {
        Ok(l) => l,
        Err(e) => {
            let _ = writeln!(err, "error: cannot listen on {}: {e}", config.listen);
            return 2;
        }
    };
    let bound = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            let _ = writeln!(err, "error: cannot tell the address listened on: {e}");
            return 2;
        }
    };
    if config.public && !bound.ip().is_loopback() {
        let _ = writeln!(
            err,
            "warning: serving {bound} to the network: anyone who reaches it can run \
             evaluations (each bounded) and read the .game files under {}",
            crate::api::shown(&root)
        );
    }
    let url = format!("http://{bound}/");
    let _ = writeln!(
        out,
        "cgl serve: {url} (the .game files of {}; Ctrl-C stops)",
        crate::api::shown(&root)
    );
    let _ = out.flush();
    if config.open {
        open_browser(&url, err);
    }
    let server = Arc::new(Server {
        slots: slots::Slots::new(config.evaluations),
        config,
        bound,
        connections: AtomicUsize::new(0),
    });
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        accept(&server, stream);
    }
    0
}

/// Hands a connection to a thread of its own, or answers 503 when too many are open.
fn accept(server: &Arc<Server>, mut stream: TcpStream) {
    if server.connections.fetch_add(1, Ordering::SeqCst) >= MOST_CONNECTIONS {
        server.connections.fetch_sub(1, Ordering::SeqCst);
        let _ = http::Response::error(503, "too many connections; try again").write(&mut stream);
        return;
    }
    let shared = server.clone();
    let spawned = std::thread::Builder::new()
        .name("cgl-serve".into())
        .stack_size(CONNECTION_STACK)
        .spawn(move || {
            routes::connection(&shared, stream);
            shared.connections.fetch_sub(1, Ordering::SeqCst);
        });
    if spawned.is_err() {
        server.connections.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Opens `url` in the desktop's browser, if there is one; says so if not.
fn open_browser(url: &str, err: &mut dyn Write) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let started = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if started.is_err() {
        let _ = writeln!(err, "note: could not start {opener}: open {url} by hand");
    }
}
