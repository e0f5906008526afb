//! `cgl fmt`: `.game` files rewritten in the one layout of [`format_source`] (whose module
//! doc, `src/syntax/format/mod.rs`, has the rules; spec/language.md §10 too). Files and
//! folders as `cgl check` takes them (every `.game` file below a folder, sorted); `-` is
//! stdin, formatted to stdout.
//!
//! A file that changes is written whole to a file beside it, then renamed over it (through a
//! symbolic link, to the file it leads to), so that an interrupted run never leaves half a
//! file. Output: `formatted PATH` for each file changed (`would reformat PATH` with
//! `--check`, which writes nothing), nothing for one already formatted; a file that cannot be
//! formatted gets its diagnostic on stderr, as `cgl check` draws it, and
//! `error PATH (could not be formatted)`.
//!
//! Exit codes: 0 when every file is formatted (with `--check`: already was), 1 when with
//! `--check` a file would change, 2 when a file cannot be read, parsed or written.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use clap::Args;

use super::check::{inputs, Input};
use super::tracked::io_error_text;
use crate::api::{format_source, render, shown, RenderStyle, SourceMap, DEFAULT_MAX_FILE_MIB};

/// The arguments of `cgl fmt`.
#[derive(Debug, Args)]
#[command(
    after_help = "Exit status: 0 when every file is formatted (with --check: already \
                        was), 1 when with --check a file would change, 2 when a file cannot \
                        be formatted (not found, not text, a syntax error) or written."
)]
pub struct FmtArgs {
    /// Files or folders (every *.game below a folder); `-` formats stdin to stdout.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Change nothing: name each file that would change (`would reformat PATH`), and exit 1
    /// if one would.
    #[arg(long)]
    check: bool,
}

/// The largest file formatted, as for `cgl check` by default.
const MAX_BYTES: u64 = DEFAULT_MAX_FILE_MIB << 20;

/// Runs `cgl fmt`; returns the exit code.
pub fn run(args: &FmtArgs, style: RenderStyle, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let (stdin, files): (Vec<PathBuf>, Vec<PathBuf>) = args
        .paths
        .iter()
        .cloned()
        .partition(|p| p == Path::new("-"));
    let mut code = 0;
    if !stdin.is_empty() {
        code = from_stdin(args.check, style, out, err);
    }
    if files.is_empty() {
        return code;
    }
    for input in inputs(&files, None) {
        let done = match input {
            Input::File(path) => file(&path, args.check, style, out, err),
            Input::Bad(report) => {
                for problem in &report.errors {
                    let _ = writeln!(err, "{}", problem.rendered);
                }
                let _ = writeln!(out, "error {} (could not be formatted)", report.path);
                2
            }
        };
        code = code.max(done);
    }
    code
}

/// Formats one file in place (or, with `check`, says whether it would change).
fn file(
    path: &Path,
    check: bool,
    style: RenderStyle,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let name = shown(path);
    let failed = |err: &mut dyn Write, out: &mut dyn Write, message: String| {
        let _ = writeln!(err, "error: {message}\n");
        let _ = writeln!(out, "error {name} (could not be formatted)");
        2
    };
    let text = match read(path) {
        Ok(text) => text,
        Err(message) => return failed(err, out, message),
    };
    let formatted = match formatted(&name, &text, style, err) {
        Some(f) => f,
        None => {
            let _ = writeln!(out, "error {name} (could not be formatted)");
            return 2;
        }
    };
    if formatted == text {
        return 0;
    }
    if check {
        let _ = writeln!(out, "would reformat {name}");
        return 1;
    }
    match write(path, &formatted) {
        Ok(()) => {
            let _ = writeln!(out, "formatted {name}");
            0
        }
        Err(message) => failed(err, out, message),
    }
}

/// `cgl fmt -`: stdin formatted to stdout (with `check`, only whether it would change).
fn from_stdin(check: bool, style: RenderStyle, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let mut bytes = Vec::new();
    let read = std::io::stdin()
        .lock()
        .take(MAX_BYTES + 1)
        .read_to_end(&mut bytes);
    let text = match read {
        Err(e) => Err(format!("cannot read stdin: {}", io_error_text(&e))),
        Ok(_) if bytes.len() as u64 > MAX_BYTES => Err(format!(
            "stdin is larger than the limit of {DEFAULT_MAX_FILE_MIB} MiB"
        )),
        Ok(_) => String::from_utf8(bytes).map_err(|_| "stdin is not UTF-8 text".to_string()),
    };
    let text = match text {
        Ok(text) => text,
        Err(message) => {
            let _ = writeln!(err, "error: {message}");
            return 2;
        }
    };
    let Some(formatted) = formatted("<stdin>", &text, style, err) else {
        return 2;
    };
    if check {
        if formatted == text {
            return 0;
        }
        let _ = writeln!(out, "would reformat <stdin>");
        return 1;
    }
    let _ = out.write_all(formatted.as_bytes());
    0
}

/// The formatted text, or `None` after drawing the diagnostics on `err`.
fn formatted(name: &str, text: &str, style: RenderStyle, err: &mut dyn Write) -> Option<String> {
    let mut sources = SourceMap::default();
    let file = sources.add(name, text);
    match format_source(file, text) {
        Ok(formatted) => Some(formatted),
        Err(diags) => {
            for d in &diags {
                let _ = writeln!(err, "{}", render(d, &sources, style));
            }
            None
        }
    }
}

/// A regular file's text, at most [`MAX_BYTES`].
fn read(path: &Path) -> Result<String, String> {
    let name = shown(path);
    let meta = std::fs::metadata(path)
        .map_err(|e| format!("cannot read `{name}`: {}", io_error_text(&e)))?;
    if !meta.is_file() {
        return Err(format!("`{name}` is not a regular file"));
    }
    if meta.len() > MAX_BYTES {
        return Err(format!(
            "`{name}` is larger than the limit of {DEFAULT_MAX_FILE_MIB} MiB"
        ));
    }
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read `{name}`: {}", io_error_text(&e)))?;
    String::from_utf8(bytes).map_err(|_| format!("`{name}` is not UTF-8 text"))
}

/// Replaces the file at `path` (or the one a symbolic link there leads to) by `text`: written
/// beside it with its permissions, then renamed over it.
fn write(path: &Path, text: &str) -> Result<(), String> {
    let name = shown(path);
    let cannot = |e: std::io::Error| format!("cannot write `{name}`: {}", io_error_text(&e));
    let target = std::fs::canonicalize(path).map_err(cannot)?;
    let file_name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = target.with_file_name(format!(".{file_name}.cgl-fmt"));
    let written = std::fs::write(&temporary, text)
        .and_then(|()| std::fs::metadata(&target))
        .and_then(|meta| std::fs::set_permissions(&temporary, meta.permissions()))
        .and_then(|()| std::fs::rename(&temporary, &target));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written.map_err(cannot)
}
