//! `textDocument/references`: every place that names what the cursor is on, in the open
//! buffers and in the files they import. Each open buffer answers for its own text from its
//! own session (if its text now loaded); a file that no buffer holds answers from the first
//! session that read it from disk. The library finds a game, function or constant in another
//! session by its file and name ([`crate::api::Session::uses`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lsp_types::{Location, Position};

use super::document::Document;
use super::position::{file_uri, offset, range};

/// The places that name what is at `at` in the buffer `uri`.
pub fn references(
    documents: &BTreeMap<String, Document>,
    uri: &str,
    at: Position,
    declaration: bool,
) -> Option<Vec<Location>> {
    let doc = documents.get(uri)?;
    let (session, file) = doc.fresh()?;
    let symbol = session.symbol_at(file, offset(&doc.text, at))?;
    let mut found = Vec::new();
    // Files answered for: every open buffer's, whether or not it loaded (its text on disk
    // may not be its text now).
    let mut done: Vec<PathBuf> = documents.values().map(|d| same_file(&d.path)).collect();
    for d in documents.values() {
        if let Some((s, f)) = d.fresh() {
            found.extend(
                s.uses(f, &symbol, declaration)
                    .into_iter()
                    .map(|p| Location {
                        uri: d.uri.clone(),
                        range: range(&d.text, p.start, p.end),
                    }),
            );
        }
    }
    for d in documents.values() {
        let Some((s, _)) = d.last() else { continue };
        for (i, name) in s.loaded_files().iter().enumerate() {
            let key = same_file(Path::new(name));
            if done.contains(&key) {
                continue;
            }
            done.push(key);
            let (Some(uri), text) = (file_uri(Path::new(name)), s.text(i)) else {
                continue;
            };
            found.extend(
                s.uses(i, &symbol, declaration)
                    .into_iter()
                    .map(|p| Location {
                        uri: uri.clone(),
                        range: range(&text, p.start, p.end),
                    }),
            );
        }
    }
    Some(found)
}

/// A path by which two names of one file compare equal (`./a.game` and `a.game`, a link and
/// its target).
fn same_file(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}
