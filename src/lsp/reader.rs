//! The reader thread: it reads the client's messages as they come, while the main thread
//! (which owns every session: they are not `Send`) checks a buffer, and queues them. A change
//! or close of a buffer whose check is running trips that check's [`Cancel`] before it is
//! queued, so the main thread sees the check end early and turns to the newer text.

use std::collections::HashMap;
use std::io::{BufReader, Read};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value as Json;

use super::wire::{self, Incoming};
use crate::api::Cancel;

/// Messages read ahead of the main thread at most (beyond them the reader waits).
const QUEUE: usize = 64;

/// What the two threads know of each buffer's messages.
#[derive(Default)]
pub struct Watch(Mutex<HashMap<String, Seen>>);

/// The messages that change one buffer's text, read and handled, and its running check.
#[derive(Default)]
struct Seen {
    read: u64,
    handled: u64,
    check: Option<Cancel>,
}

impl Watch {
    fn with<R>(&self, call: impl FnOnce(&mut HashMap<String, Seen>) -> R) -> R {
        call(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// The reader read a message that changes `uri`'s text: its check, if one runs, is for
    /// an older text.
    fn read(&self, uri: &str) {
        self.with(|all| {
            let seen = all.entry(uri.to_string()).or_default();
            seen.read += 1;
            if let Some(cancel) = seen.check.take() {
                cancel.cancel();
            }
        });
    }

    /// The main thread handled a message that changes `uri`'s text.
    pub fn handled(&self, uri: &str) {
        self.with(|all| {
            let seen = all.entry(uri.to_string()).or_default();
            seen.handled += 1;
        });
    }

    /// A check of `uri`'s text starts, which `cancel` stops; `false` (and no check) if a
    /// newer text is already queued.
    pub fn start(&self, uri: &str, cancel: &Cancel) -> bool {
        self.with(|all| {
            let seen = all.entry(uri.to_string()).or_default();
            let current = seen.read == seen.handled;
            if current {
                seen.check = Some(cancel.clone());
            }
            current
        })
    }

    /// The check of `uri` ended.
    pub fn finish(&self, uri: &str) {
        self.with(|all| {
            if let Some(seen) = all.get_mut(uri) {
                seen.check = None;
            }
        });
    }

    /// `uri` was closed: nothing is kept of it unless a message of it is still queued.
    pub fn forget(&self, uri: &str) {
        self.with(|all| {
            if all.get(uri).is_some_and(|s| s.read == s.handled) {
                all.remove(uri);
            }
        });
    }
}

/// The buffer whose text a message opens, changes or closes.
pub fn text_event(message: &Json) -> Option<&str> {
    match message["method"].as_str()? {
        "textDocument/didOpen" | "textDocument/didChange" | "textDocument/didClose" => {
            message["params"]["textDocument"]["uri"].as_str()
        }
        _ => None,
    }
}

/// Starts the reader on `input`; its messages come out of the receiver, the last one
/// [`Incoming::End`].
pub fn spawn(input: impl Read + Send + 'static, watch: Arc<Watch>) -> Receiver<Incoming> {
    let (send, receive) = sync_channel(QUEUE);
    let reader = move || {
        let mut input = BufReader::new(input);
        loop {
            let message = wire::read(&mut input, super::MOST_MESSAGE);
            let end = matches!(message, Incoming::End);
            if let Incoming::Message(json) = &message {
                if let Some(uri) = text_event(json) {
                    watch.read(uri);
                }
            }
            if send.send(message).is_err() || end {
                return;
            }
        }
    };
    // If no thread can be made, the sender is dropped with the closure: the server ends as
    // if its input had.
    let _ = std::thread::Builder::new()
        .name("cgl lsp reader".into())
        .spawn(reader);
    receive
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_read_cancels_the_check_and_a_queued_one_prevents_it() {
        let watch = Watch::default();
        let cancel = Cancel::new();
        assert!(watch.start("a", &cancel));
        watch.read("b");
        assert!(!cancel.is_cancelled());
        watch.read("a");
        assert!(cancel.is_cancelled());
        watch.finish("a");
        // The change is queued, not yet handled: no check of the older text.
        assert!(!watch.start("a", &Cancel::new()));
        watch.handled("a");
        assert!(watch.start("a", &Cancel::new()));
        watch.finish("a");
        watch.forget("a");
        assert!(watch.start("a", &Cancel::new()));
    }
}
