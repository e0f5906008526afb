//! The `.game` files under the root, read-only: listed (`GET /api/files`) and read
//! (`GET /api/file?path=...`), confined as `cgl check --confine` is. A path is refused before
//! anything is looked up when it is absolute or has `..` (after percent-decoding, so `%2e%2e`
//! is `..`); the session's [`LoadPolicy`](crate::api::LoadPolicy) then refuses a link that
//! leads out of the root, a file that is not regular, too large or not UTF-8 text.

use std::path::{Component, Path, PathBuf};

use serde_json::{json, Value as Json};

use super::http::Response;
use super::limits::Limits;
use crate::api::{Code, Session};

/// Files listed at most.
const MOST_FILES: usize = 2_000;

/// Folders descended at most.
const MOST_DEPTH: usize = 8;

/// A path below the root, as the client wrote it: relative, without `..`, `.`, a drive or a
/// backslash, naming a `.game` file. The reason when it is not.
pub fn below_root(path: &str) -> Result<PathBuf, String> {
    if path.is_empty() {
        return Err("an empty path".into());
    }
    if path.contains(['\\', '\0']) {
        return Err(format!(
            "`{}`: a path here uses `/` only",
            crate::api::escaped(path)
        ));
    }
    let p = Path::new(path);
    if p.has_root() || p.is_absolute() {
        return Err(format!(
            "`{}` is absolute: paths are relative to the served folder",
            crate::api::escaped(path)
        ));
    }
    for c in p.components() {
        match c {
            Component::Normal(_) => {}
            Component::CurDir | Component::ParentDir => {
                return Err(format!(
                    "`{}` has `.` or `..`: paths stay below the served folder",
                    crate::api::escaped(path)
                ))
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(format!("`{}` is absolute", crate::api::escaped(path)))
            }
        }
    }
    if p.extension().is_none_or(|e| e != "game") {
        return Err(format!(
            "`{}` is not a .game file: only .game files are served",
            crate::api::escaped(path)
        ));
    }
    Ok(p.to_path_buf())
}

/// `GET /api/file?path=P`: the file's text, or why not (403 for a path that leaves the root,
/// 404 for one that is not there).
pub fn read(limits: &Limits, path: Option<&str>) -> Response {
    let Some(path) = path else {
        return Response::error(400, "give the file as ?path=...");
    };
    let relative = match below_root(path) {
        Ok(p) => p,
        Err(why) => return Response::error(403, &why),
    };
    let mut session = Session::new(limits.config);
    session.set_load_policy(limits.policy.clone());
    match session.read_source(&relative) {
        Ok(text) => Response::json(&json!({ "path": path, "text": text })),
        Err(diags) => {
            let d = &diags[0];
            let status = match d.code {
                Code::LoadConfined | Code::LoadNotGame => 403,
                Code::LoadTooLarge => 413,
                Code::LoadUnreadable => 404,
                _ => 400,
            };
            Response::error(status, &d.message)
        }
    }
}

/// `GET /api/files`: the `.game` files below the root, sorted, their paths with `/`.
pub fn list(limits: &Limits) -> Json {
    let root = limits
        .policy
        .confine
        .clone()
        .unwrap_or_else(|| PathBuf::from("."));
    let mut found = Vec::new();
    let mut truncated = false;
    walk(&root, &root, 0, &mut found, &mut truncated);
    found.sort();
    json!({ "files": found, "truncated": truncated })
}

fn walk(root: &Path, dir: &Path, depth: usize, found: &mut Vec<String>, truncated: &mut bool) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.starts_with('.') || name == "target" || name == "node_modules" {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if kind.is_dir() && depth < MOST_DEPTH {
            walk(root, &path, depth + 1, found, truncated);
        } else if name.ends_with(".game") && (kind.is_file() || kind.is_symlink()) {
            // A link is listed only if it leads to a file inside the root.
            let inside =
                std::fs::canonicalize(&path).is_ok_and(|c| c.starts_with(root) && c.is_file());
            if !inside {
                continue;
            }
            if found.len() == MOST_FILES {
                *truncated = true;
                return;
            }
            if let Ok(rel) = path.strip_prefix(root) {
                let parts: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                found.push(parts.join("/"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_leave_the_root_are_refused() {
        assert!(below_root("examples/nim.game").is_ok());
        for bad in [
            "../x.game",
            "a/../../x.game",
            "/etc/x.game",
            "./x.game",
            "a\\..\\x.game",
            "x.txt",
            "",
            "a/b",
        ] {
            assert!(below_root(bad).is_err(), "{bad}");
        }
    }
}
