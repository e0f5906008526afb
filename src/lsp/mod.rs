//! `cgl lsp`: a language server for `.game` files, on stdin and stdout. An editor gets, as
//! the user types, every diagnostic of the buffer (syntax, names, and the `expect` lines that
//! fail, each check bounded in time and memory, cancelled by a newer text, and run once the
//! typing pauses), hover text for a name, go to definition, find references (across the
//! open buffers and their imports), completion, highlighting by meaning (semantic tokens),
//! and the outline of the file's games, functions and constants. Everything goes through
//! [`crate::api`].
//!
//! `wire.rs` reads and writes the protocol's messages, `reader.rs` reads them on a thread of
//! its own and cancels the checks they make stale, `document.rs` checks one buffer,
//! `position.rs` converts places, and `completion.rs`, `references.rs` and `tokens.rs`
//! answer the requests their names say. A panic while a request is answered or a buffer is
//! checked (a bug in cgl) is answered as an internal error and logged; the server goes on.

mod completion;
mod document;
mod position;
mod reader;
mod references;
mod tokens;
mod wire;

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Instant;

use lsp_types::{
    CompletionOptions, CompletionParams, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DocumentFormattingParams, DocumentSymbolParams,
    GotoDefinitionParams, HoverParams, HoverProviderCapability, InitializeResult, MessageType,
    OneOf, ReferenceParams, SemanticTokensFullOptions, SemanticTokensOptions, SemanticTokensParams,
    SemanticTokensServerCapabilities, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind,
};
use serde::de::DeserializeOwned;
use serde_json::{json, Value as Json};

use crate::api::Cancel;
use document::Document;
use reader::Watch;
use wire::Incoming;

/// The longest message read: a buffer as large as `cgl check` reads a file, and room for
/// the JSON around it.
const MOST_MESSAGE: usize = (crate::api::DEFAULT_MAX_FILE_MIB as usize) << 21;

/// JSON-RPC's error codes used here.
const PARSE_ERROR: i64 = -32700;
const INVALID_PARAMS: i64 = -32602;
const METHOD_NOT_FOUND: i64 = -32601;
const INTERNAL_ERROR: i64 = -32603;
const NOT_INITIALIZED: i64 = -32002;
/// LSP's code for a request that was valid but could not be done (a buffer that does not
/// parse cannot be formatted).
const REQUEST_FAILED: i64 = -32803;

/// Serves one client on `input` and `output` until it sends `exit`; the exit code is 0 if
/// it asked to `shutdown` first, as the protocol says.
pub fn serve(input: impl Read + Send + 'static, output: &mut impl Write) -> u8 {
    let watch = Arc::new(Watch::default());
    let messages = reader::spawn(input, watch.clone());
    let mut server = Server::new(watch);
    loop {
        let mut next = match next(&messages, server.next_due()) {
            Ok(message) => Some(message),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => return 1,
        };
        // Every message already read, before any check: a queued change makes a check of
        // the older text pointless.
        while let Some(message) = next {
            let exit = server.handle(message);
            server.flush(output);
            if let Some(code) = exit {
                return code;
            }
            next = messages.try_recv().ok();
        }
        server.check_due();
        server.flush(output);
    }
}

/// The next message, waiting until `due` at most.
fn next(messages: &Receiver<Incoming>, due: Option<Instant>) -> Result<Incoming, RecvTimeoutError> {
    match due {
        Some(due) => messages.recv_timeout(due.saturating_duration_since(Instant::now())),
        None => messages.recv().map_err(|_| RecvTimeoutError::Disconnected),
    }
}

/// A JSON-RPC error response.
fn error(id: Json, code: i64, message: &str) -> Json {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The server's state: the open buffers, checked.
struct Server {
    initialized: bool,
    shut_down: bool,
    documents: BTreeMap<String, Document>,
    /// What the reader thread knows of the buffers' messages and checks.
    watch: Arc<Watch>,
    /// Messages to send.
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

/// What a panic said.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

impl Server {
    fn new(watch: Arc<Watch>) -> Server {
        Server {
            initialized: false,
            shut_down: false,
            documents: BTreeMap::new(),
            watch,
            outbox: Vec::new(),
            broken: false,
        }
    }

    fn flush(&mut self, output: &mut impl Write) {
        for message in self.outbox.drain(..) {
            if !self.broken && wire::write(output, &message).is_err() {
                self.broken = true;
            }
        }
    }

    /// Queues a `window/logMessage`.
    fn log(&mut self, kind: MessageType, message: String) {
        self.outbox.push(json!({
            "jsonrpc": "2.0",
            "method": "window/logMessage",
            "params": {"type": kind, "message": message},
        }));
    }

    /// Handles one message; `Some(code)` when the server is to exit with it.
    fn handle(&mut self, incoming: Incoming) -> Option<u8> {
        let message = match incoming {
            Incoming::Message(m) => m,
            Incoming::Malformed(why) => {
                self.outbox.push(error(Json::Null, PARSE_ERROR, &why));
                return None;
            }
            Incoming::End => return Some(1),
        };
        if let Some(uri) = reader::text_event(&message) {
            self.watch.handled(uri);
        }
        let method = message["method"].as_str().unwrap_or("").to_string();
        let id = message.get("id").cloned();
        let params = message.get("params").cloned().unwrap_or(Json::Null);
        if method == "exit" {
            return Some(if self.shut_down { 0 } else { 1 });
        }
        match id {
            Some(id) => {
                let answered = catch_unwind(AssertUnwindSafe(|| self.request(&method, params)));
                let reply = match answered {
                    Ok(Ok(result)) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
                    Ok(Err((code, why))) => error(id, code, &why),
                    Err(panic) => {
                        let why = panic_text(panic.as_ref());
                        self.log(
                            MessageType::ERROR,
                            format!("cgl lsp failed on `{method}` (a bug in cgl): {why}"),
                        );
                        error(id, INTERNAL_ERROR, &format!("internal error: {why}"))
                    }
                };
                self.outbox.push(reply);
            }
            None => self.notification(&method, params),
        }
        None
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
                let doc = self.settled(at.text_document.uri.as_str());
                Ok(to_json(serde_json::to_value(
                    doc.and_then(|d| d.hover(at.position)),
                )))
            }
            "textDocument/definition" => {
                let p: GotoDefinitionParams = params(raw)?;
                let at = &p.text_document_position_params;
                let doc = self.settled(at.text_document.uri.as_str());
                Ok(to_json(serde_json::to_value(
                    doc.and_then(|d| d.definition(at.position)),
                )))
            }
            "textDocument/documentSymbol" => {
                let p: DocumentSymbolParams = params(raw)?;
                let doc = self.settled(p.text_document.uri.as_str());
                Ok(to_json(serde_json::to_value(doc.map(Document::symbols))))
            }
            "textDocument/references" => {
                let p: ReferenceParams = params(raw)?;
                let at = &p.text_document_position;
                let uri = at.text_document.uri.as_str();
                self.settled(uri);
                let found = references::references(
                    &self.documents,
                    uri,
                    at.position,
                    p.context.include_declaration,
                );
                Ok(to_json(serde_json::to_value(found)))
            }
            "textDocument/completion" => {
                let p: CompletionParams = params(raw)?;
                let at = &p.text_document_position;
                let doc = self.begun(at.text_document.uri.as_str());
                Ok(to_json(serde_json::to_value(
                    doc.map(|d| completion::complete(d, at.position)),
                )))
            }
            "textDocument/formatting" => {
                let p: DocumentFormattingParams = params(raw)?;
                let doc = self.documents.get(p.text_document.uri.as_str());
                match doc.map(Document::formatting) {
                    Some(Err(why)) => Err((REQUEST_FAILED, why)),
                    edits => Ok(to_json(serde_json::to_value(edits.and_then(Result::ok)))),
                }
            }
            "textDocument/semanticTokens/full" => {
                let p: SemanticTokensParams = params(raw)?;
                let doc = self.begun(p.text_document.uri.as_str());
                Ok(to_json(serde_json::to_value(doc.map(tokens::tokens))))
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
                    let open = Document::open(doc.uri, doc.version, doc.text);
                    self.documents.insert(open.uri.as_str().to_string(), open);
                }
            }
            "textDocument/didChange" => {
                let Ok(p) = params::<DidChangeTextDocumentParams>(raw) else {
                    return;
                };
                let uri = p.text_document.uri.as_str();
                let Some(doc) = self.documents.get_mut(uri) else {
                    let message = format!("a change of `{uri}`, which is not open: ignored");
                    self.log(MessageType::WARNING, message);
                    return;
                };
                // Full sync: the last change is the whole text.
                if let Some(change) = p.content_changes.into_iter().last() {
                    doc.change(p.text_document.version, change.text);
                }
            }
            "textDocument/didClose" => {
                if let Ok(p) = params::<DidCloseTextDocumentParams>(raw) {
                    let uri = p.text_document.uri;
                    self.documents.remove(uri.as_str());
                    self.watch.forget(uri.as_str());
                    self.outbox
                        .push(publish(uri.as_str(), None, Json::Array(Vec::new())));
                }
            }
            _ => {}
        }
    }

    /// When the next buffer is due to be checked.
    fn next_due(&self) -> Option<Instant> {
        self.documents.values().filter_map(|d| d.due).min()
    }

    /// Checks the buffer most overdue, if one is.
    fn check_due(&mut self) {
        let now = Instant::now();
        let due = self
            .documents
            .iter()
            .filter_map(|(uri, d)| Some((d.due?, uri)))
            .filter(|(due, _)| *due <= now)
            .min()
            .map(|(_, uri)| uri.clone());
        if let Some(uri) = due {
            self.check(&uri);
        }
    }

    /// The buffer `uri`, checked first if its text now waits for a check (so that what is
    /// asked of it is of the text the editor shows).
    fn settled(&mut self, uri: &str) -> Option<&Document> {
        if self.documents.get(uri).is_some_and(Document::stale) {
            self.check(uri);
        }
        self.documents.get(uri)
    }

    /// The buffer `uri`, checked first only if no text of it was ever checked: completion
    /// and highlighting answer from the last session that loaded, of an older text too, so
    /// they need not wait for the check of a change (an editor asks for them after each).
    fn begun(&mut self, uri: &str) -> Option<&Document> {
        if self
            .documents
            .get(uri)
            .is_some_and(|d| d.stale() && d.last().is_none())
        {
            self.check(uri);
        }
        self.documents.get(uri)
    }

    /// Checks the buffer `uri` and queues its diagnostics, unless a newer text of it came
    /// (before or during the check). A panic during the check drops its session.
    fn check(&mut self, uri: &str) {
        let cancel = Cancel::new();
        if !self.watch.start(uri, &cancel) {
            return;
        }
        let Some(doc) = self.documents.get_mut(uri) else {
            self.watch.finish(uri);
            return;
        };
        let checked = catch_unwind(AssertUnwindSafe(|| doc.check(&cancel)));
        self.watch.finish(uri);
        let version = doc.version;
        let diagnostics = match checked {
            Ok(Some(found)) => found,
            Ok(None) => {
                // A newer text is queued; it is checked once handled.
                doc.due = Some(Instant::now());
                return;
            }
            Err(panic) => {
                doc.drop_session();
                let why = panic_text(panic.as_ref());
                self.log(
                    MessageType::ERROR,
                    format!("cgl lsp failed while checking `{uri}` (a bug in cgl): {why}"),
                );
                vec![Document::crashed(&why)]
            }
        };
        self.outbox.push(publish(
            uri,
            Some(version),
            serde_json::to_value(diagnostics).unwrap_or(Json::Null),
        ));
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
            references_provider: Some(OneOf::Left(true)),
            document_symbol_provider: Some(OneOf::Left(true)),
            completion_provider: Some(CompletionOptions::default()),
            document_formatting_provider: Some(OneOf::Left(true)),
            semantic_tokens_provider: Some(
                SemanticTokensServerCapabilities::SemanticTokensOptions(SemanticTokensOptions {
                    legend: tokens::legend(),
                    full: Some(SemanticTokensFullOptions::Bool(true)),
                    range: Some(false),
                    ..SemanticTokensOptions::default()
                }),
            ),
            ..ServerCapabilities::default()
        },
        server_info: Some(ServerInfo {
            name: "cgl".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
    }
}
