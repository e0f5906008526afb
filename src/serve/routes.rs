//! One connection: its request read (with bounds), checked (the `Host` it names, the type
//! of its body), sent to its handler, answered. An evaluation waits for a place among those
//! running at once, then runs on a worker thread of its own while this thread watches the
//! socket and cancels it if the client goes away.

use std::net::TcpStream;
use std::sync::mpsc;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::{json, Value as Json};

use super::eval::{self, EvalRequest, PlayRequest, Source};
use super::http::{self, client_gone, Request, Response};
use super::slots::NoSlot;
use super::{files, Server};
use crate::api::Cancel;

/// The stack of an evaluation's thread: evaluation recurses over expressions and user
/// functions (both bounded by limits), and a large stack makes those limits, not the
/// stack, the bound (as `main` and `check`'s workers have). Reserved, not used, until a deep
/// recursion touches it.
const EVALUATION_STACK: usize = 512 << 20;

/// How often a running evaluation's client is looked at.
const WATCH: Duration = Duration::from_millis(50);

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");
const ICON: &str = include_str!("page/icon.svg");

/// Serves one connection: one request, one response.
pub fn connection(server: &Server, mut stream: TcpStream) {
    let _ = stream.set_nodelay(true);
    let response = match http::read_request(&mut stream, server.config.max_body) {
        Ok(request) => respond(server, &stream, &request),
        Err(refused) => refused.response(server.config.max_body),
    };
    if let Some(response) = response {
        let _ = response.write(&mut stream);
    }
    // Let the client read the answer before the socket closes, even when it is still
    // sending a body that was refused (closing with unread bytes would reset the answer).
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    let mut sink = [0u8; 8192];
    let mut drained = 0;
    while drained < server.config.max_body {
        match std::io::Read::read(&mut stream, &mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}

/// The response to a request; `None` when the client went away meanwhile.
fn respond(server: &Server, stream: &TcpStream, request: &Request) -> Option<Response> {
    if !host_allowed(server, request.header("host")) {
        return Some(Response::error(
            421,
            "this server answers requests for its own address only (a page of another site \
             may not use it); cgl serve --public lifts this",
        ));
    }
    let limits = &server.config.limits;
    let method = request.method.as_str();
    Some(match (method, request.path.as_str()) {
        ("GET", "/" | "/index.html") => Response::asset("text/html; charset=utf-8", PAGE),
        ("GET", "/app.js") => Response::asset("text/javascript; charset=utf-8", SCRIPT),
        ("GET", "/style.css") => Response::asset("text/css; charset=utf-8", STYLE),
        ("GET", "/favicon.ico" | "/icon.svg") => Response::asset("image/svg+xml", ICON),
        ("GET", "/api/status") => {
            let (running, waiting) = server.slots.counts();
            Response::json(&json!({
                "running": running,
                "waiting": waiting,
                "at_once": server.slots.limit(),
                "limits": {
                    "seconds": limits.seconds,
                    "memory_mib": limits.memory >> 20,
                    "positions": limits.positions,
                    "body_bytes": server.config.max_body,
                },
            }))
        }
        ("GET", "/api/files") => Response::json(&files::list(limits)),
        ("GET", "/api/file") => files::read(limits, request.param("path").as_deref()),
        ("POST", "/api/check") => {
            let body: Source = match parse(request) {
                Ok(b) => b,
                Err(r) => return Some(r),
            };
            return evaluate(server, stream, move |c| eval::check(limits, c, &body));
        }
        ("POST", "/api/eval") => {
            let body: EvalRequest = match parse(request) {
                Ok(b) => b,
                Err(r) => return Some(r),
            };
            return evaluate(server, stream, move |c| eval::eval(limits, c, &body));
        }
        ("POST", "/api/play") => {
            let body: PlayRequest = match parse(request) {
                Ok(b) => b,
                Err(r) => return Some(r),
            };
            return evaluate(server, stream, move |c| eval::play(limits, c, &body));
        }
        (_, "/" | "/index.html" | "/app.js" | "/style.css" | "/api/status" | "/api/files")
        | (_, "/api/file") => Response::error(405, "use GET here"),
        (_, "/api/check" | "/api/eval" | "/api/play") => {
            Response::error(405, "use POST with a JSON body here")
        }
        _ => Response::error(404, "no such page"),
    })
}

/// Whether a request's `Host` names this server (a page of another site that resolves its
/// name to 127.0.0.1, DNS rebinding, names its own).
fn host_allowed(server: &Server, host: Option<&str>) -> bool {
    if server.config.public {
        return true;
    }
    let Some(host) = host else {
        return true;
    };
    let port = server.bound.port();
    let ours = [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        server.bound.to_string(),
    ];
    ours.iter().any(|h| h.eq_ignore_ascii_case(host))
}

/// The JSON body of a request as `T`, or the response that refuses it.
fn parse<T: DeserializeOwned>(request: &Request) -> Result<T, Response> {
    let json_type = request
        .header("content-type")
        .is_some_and(|t| t.to_ascii_lowercase().starts_with("application/json"));
    if !json_type {
        return Err(Response::error(
            415,
            "send the request as JSON (Content-Type: application/json)",
        ));
    }
    serde_json::from_slice(&request.body)
        .map_err(|e| Response::error(400, &format!("the body is not the JSON expected: {e}")))
}

/// Runs `job` once a place among the evaluations is free, on a thread of its own, and
/// cancels it if the client goes away meanwhile.
fn evaluate(
    server: &Server,
    stream: &TcpStream,
    job: impl FnOnce(&Cancel) -> Json + Send,
) -> Option<Response> {
    let _slot = match server.slots.acquire(&|| client_gone(stream)) {
        Ok(slot) => slot,
        Err(NoSlot::Gone) => return None,
        Err(NoSlot::Busy) => {
            return Some(Response::error(
                503,
                "every evaluation is taken and the queue did not move: try again",
            ))
        }
    };
    let cancel = Cancel::new();
    let (send, receive) = mpsc::channel();
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("cgl-eval".into())
            .stack_size(EVALUATION_STACK)
            .spawn_scoped(scope, {
                let cancel = cancel.clone();
                move || {
                    let _ = send.send(job(&cancel));
                }
            });
        let Ok(worker) = worker else {
            return Some(Response::error(503, "cannot start an evaluation now"));
        };
        let answer = loop {
            match receive.recv_timeout(WATCH) {
                Ok(doc) => {
                    let status = if doc.get("error").is_some() { 400 } else { 200 };
                    break Response::json_status(status, &doc);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if !cancel.is_cancelled() && client_gone(stream) {
                        cancel.cancel();
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    break Response::error(500, "the evaluation stopped (a bug in cgl)");
                }
            }
        };
        // Joined here, so that a worker that panicked is this answer's 500, not the
        // scope's panic.
        let _ = worker.join();
        Some(answer)
    })
}
