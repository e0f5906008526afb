//! `cgl lsp`: a language server for `.game` files, on stdin and stdout. An editor gets, as
//! the user types, every diagnostic of the buffer (syntax, names, and the `expect` lines that
//! fail, each file's check bounded in time and memory), hover text for a name (its
//! definition's first line, or a built-in's description), go to definition, and the outline
//! of the file's games, functions and constants. Everything goes through [`crate::api`];
//! `wire.rs` reads and writes the protocol's messages, `document.rs` checks one buffer.

mod document;
mod wire;

use std::collections::HashMap;
use std::io::{BufRead, Write};

use lsp_types::{
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DocumentSymbolParams, GotoDefinitionParams, HoverParams, HoverProviderCapability,
    InitializeResult, OneOf, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind,
};
use serde::de::DeserializeOwned;
use serde_json::{json, Value as Json};

use document::Document;
use wire::Incoming;

/// The longest message read: a buffer as large as `cgl check` reads a file, and room for
/// the JSON around it.
const MOST_MESSAGE: usize = (crate::api::DEFAULT_MAX_FILE_MIB as usize) << 21;

/// JSON-RPC's error codes used here.
const PARSE_ERROR: i64 = -32700;
const INVALID_PARAMS: i64 = -32602;
const METHOD_NOT_FOUND: i64 = -32601;
const NOT_INITIALIZED: i64 = -32002;

/// Serves one client on `input` and `output` until it sends `exit`; the exit code is 0 if
/// it asked to `shutdown` first, as the protocol says.
pub fn serve(input: &mut impl BufRead, output: &mut impl Write) -> u8 {
    let mut server = Server::default();
    loop {
        let message = match wire::read(input, MOST_MESSAGE) {
            Incoming::Message(m) => m,
            Incoming::Malformed(why) => {
                server.send(output, error(Json::Null, PARSE_ERROR, &why));
                continue;
            }
            Incoming::End => return 1,
        };
        let method = message["method"].as_str().unwrap_or("").to_string();
        let id = message.get("id").cloned();
        let params = message.get("params").cloned().unwrap_or(Json::Null);
        if method == "exit" {
            return if server.shut_down { 0 } else { 1 };
        }
        let reply = match id {
            Some(id) => Some(match server.request(&method, params) {
                Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
                Err((code, why)) => error(id, code, &why),
            }),
            None => {
                server.notification(&method, params);
                None
            }
        };
        if let Some(reply) = reply {
            server.send(output, reply);
        }
        for note in server.outbox.drain(..).collect::<Vec<_>>() {
            server.send(output, note);
        }
    }
}

/// A JSON-RPC error response.
fn error(id: Json, code: i64, message: &str) -> Json {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The server's state: the open buffers, checked.
#[derive(Default)]
struct Server {
    initialized: bool,
    shut_down: bool,
    documents: HashMap<String, Document>,
    /// Notifications to send after the current message's reply.
    outbox: Vec<Json>,
    /// Whether writing to the client failed (it is gone; the next read ends the loop).
    broken: bool,
}

/// A failed request: a JSON-RPC error code and message.
type Failure = (i64, String);

/// A request's parameters as their type.
fn params<P: DeserializeOwned>(params: Json) -> Result<P, Failure> {
    serde_json::from_value(params).map_err(|e| (INVALID_PARAMS, format!("bad parameters: {e}")))
}

impl Server {
    fn send(&mut self, output: &mut impl Write, message: Json) {
        if !self.broken && wire::write(output, &message).is_err() {
            self.broken = true;
        }
    }

    fn request(&mut self, method: &str, raw: Json) -> Result<Json, Failure> {
        if method == "initialize" {
            self.initialized = true;
            return Ok(serde_json::to_value(capabilities()).unwrap_or(Json::Null));
        }
        if !self.initialized {
            return Err((NOT_INITIALIZED, "the server is not initialized".into()));
        }
        let to_json = |v: Result<Json, serde_json::Error>| v.unwrap_or(Json::Null);
        match method {
            "shutdown" => {
                self.shut_down = true;
                Ok(Json::Null)
            }
            "textDocument/hover" => {
                let p: HoverParams = params(raw)?;
                let at = &p.text_document_position_params;
                let doc = self.documents.get(at.text_document.uri.as_str());
                Ok(to_json(serde_json::to_value(
                    doc.and_then(|d| d.hover(at.position)),
                )))
            }
            "textDocument/definition" => {
                let p: GotoDefinitionParams = params(raw)?;
                let at = &p.text_document_position_params;
                let doc = self.documents.get(at.text_document.uri.as_str());
                Ok(to_json(serde_json::to_value(
                    doc.and_then(|d| d.definition(at.position)),
                )))
            }
            "textDocument/documentSymbol" => {
                let p: DocumentSymbolParams = params(raw)?;
                let doc = self.documents.get(p.text_document.uri.as_str());
                Ok(to_json(serde_json::to_value(doc.map(Document::symbols))))
            }
            _ => Err((
                METHOD_NOT_FOUND,
                format!("cgl lsp does not answer `{method}`"),
            )),
        }
    }

    fn notification(&mut self, method: &str, raw: Json) {
        if !self.initialized {
            return;
        }
        match method {
            "textDocument/didOpen" => {
                if let Ok(p) = params::<DidOpenTextDocumentParams>(raw) {
                    let doc = p.text_document;
                    self.check(Document::open(doc.uri, doc.version, doc.text));
                }
            }
            "textDocument/didChange" => {
                let Ok(p) = params::<DidChangeTextDocumentParams>(raw) else {
                    return;
                };
                // Full sync: the last change is the whole text.
                let (Some(doc), Some(change)) = (
                    self.documents.remove(p.text_document.uri.as_str()),
                    p.content_changes.into_iter().last(),
                ) else {
                    return;
                };
                self.check(doc.changed(p.text_document.version, change.text));
            }
            "textDocument/didClose" => {
                if let Ok(p) = params::<DidCloseTextDocumentParams>(raw) {
                    let uri = p.text_document.uri;
                    self.documents.remove(uri.as_str());
                    self.outbox
                        .push(publish(uri.as_str(), None, Json::Array(Vec::new())));
                }
            }
            _ => {}
        }
    }

    /// Checks a buffer, queues its diagnostics, and keeps it.
    fn check(&mut self, mut doc: Document) {
        let diagnostics = doc.check();
        let version = doc.version;
        self.outbox.push(publish(
            doc.uri.as_str(),
            Some(version),
            serde_json::to_value(diagnostics).unwrap_or(Json::Null),
        ));
        self.documents.insert(doc.uri.as_str().to_string(), doc);
    }
}

/// A `textDocument/publishDiagnostics` notification.
fn publish(uri: &str, version: Option<i32>, diagnostics: Json) -> Json {
    json!({
        "jsonrpc": "2.0",
        "method": "textDocument/publishDiagnostics",
        "params": {"uri": uri, "version": version, "diagnostics": diagnostics},
    })
}

/// What the server can do.
fn capabilities() -> InitializeResult {
    InitializeResult {
        capabilities: ServerCapabilities {
            text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            definition_provider: Some(OneOf::Left(true)),
            document_symbol_provider: Some(OneOf::Left(true)),
            ..ServerCapabilities::default()
        },
        server_info: Some(ServerInfo {
            name: "cgl".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
    }
}
