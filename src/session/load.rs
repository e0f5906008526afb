//! Reading files and their imports into a session: the load policy's limits (size,
//! confinement to a folder), refusals with their diagnostics, and paths as diagnostics show them.
//!
//! Only regular files are read (looked at before they are opened, so a pipe cannot block), at
//! most `--max-file-size`, imports only of `.game` files; with `check --confine DIR` nothing
//! outside `DIR` (an import by `..`, an absolute path or a link is refused before anything is
//! read). Paths are shown with control characters escaped. This is the only file IO outside the
//! shells.

use std::path::{Path, PathBuf};

use super::{LoadedFile, Session};
use crate::diag::{Code, Diag, FileId, Span};
use crate::eval::ConstState;
use crate::lower::lower_file;
use crate::syntax::ast;
use crate::syntax::{parse_file, parse_file_checked};

impl Session {
    /// Loads `path` (as the user sees it: relative to the working directory, or to the
    /// importing file's folder joined in front). `stack` holds the files being loaded, to
    /// find import cycles.
    ///
    /// A Gambit strategic game (a path ending in `.nfg`) is read as a file defining one game,
    /// named `alias` (`import "e02.nfg" as Selten`) or else by the file's name (`e02`).
    pub(super) fn load_path_from(
        &mut self,
        path: &Path,
        import: Option<Span>,
        alias: Option<&ast::Ident>,
        stack: &mut Vec<(PathBuf, PathBuf)>,
    ) -> Result<usize, Vec<Diag>> {
        let nfg = path.extension().is_some_and(|e| e == "nfg");
        let name = if nfg {
            Some(nfg_game_name(path, alias, import)?)
        } else {
            None
        };
        let canonical = self.confined_canonical(path, import)?;
        let key = (canonical.clone(), name.clone().unwrap_or_default());
        if let Some(i) = self.by_path.get(&key) {
            return Ok(*i);
        }
        if let Some(name) = name {
            let text = self.read_checked(path, &canonical, import)?;
            let file = self.sources.add(shown(path), text);
            let index = self.load_nfg(file, &name, import)?;
            self.by_path.insert(key, index);
            return Ok(index);
        }
        if let Some(first) = stack.iter().position(|(c, _)| *c == canonical) {
            let chain: Vec<String> = stack[first..]
                .iter()
                .map(|(_, shown_path)| shown(shown_path))
                .chain([shown(path)])
                .collect();
            let mut d = Diag::error(Code::LoadImportCycle, "files import each other in a cycle")
                .note(format!("import chain: {}", chain.join(" → ")))
                .help("move what the files share into another file that each of them imports");
            if let Some(span) = import {
                d = d.label(span, "this import closes the cycle");
            }
            return Err(vec![d]);
        }
        let text = self.read_checked(path, &canonical, import)?;
        let file = self.sources.add(shown(path), text);
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        stack.push((canonical.clone(), path.to_path_buf()));
        let result = self.load_parsed(file, &dir, stack);
        stack.pop();
        let index = result?;
        self.by_path.insert(key, index);
        Ok(index)
    }

    /// Lowers the `.nfg` source `file` as a file defining the strategic game `name`.
    fn load_nfg(
        &mut self,
        file: FileId,
        name: &str,
        import: Option<Span>,
    ) -> Result<usize, Vec<Diag>> {
        let text = self.text_of(file);
        let parsed = crate::syntax::nfg::parse(file, &text, name).map_err(|d| {
            let mut d = *d;
            if let Some(span) = import {
                d = d.label(span, "imported here");
            }
            vec![d]
        })?;
        let stop = self.stop.clone();
        let lowered = lower_file(&mut self.program, &parsed, &[], &mut || stop.check())?;
        Ok(self.keep_lowered(file, lowered))
    }

    /// The text of a loaded source.
    fn text_of(&self, file: FileId) -> std::sync::Arc<str> {
        self.sources
            .get(file)
            .map(|s| s.text.clone())
            .unwrap_or_default()
    }

    /// Keeps a lowered file: its rules compiled, its constants pending. Its index.
    fn keep_lowered(&mut self, file: FileId, lowered: crate::lower::LoweredFile) -> usize {
        self.compiled.extend(&self.program);
        self.consts
            .resize(self.program.consts.len(), ConstState::Pending);
        self.files.push(LoadedFile { file, lowered });
        self.files.len() - 1
    }

    /// The text of the `.game` file at `path` under the session's [`LoadPolicy`], as it
    /// would be loaded (a regular file, not too large, UTF-8, inside the confined folder),
    /// without parsing it: for a shell that shows a file, such as `cgl serve`.
    pub fn read_source(&self, path: &Path) -> Result<String, Vec<Diag>> {
        if path.extension().is_none_or(|e| e != "game") {
            return Err(vec![refused(
                Code::LoadNotGame,
                format!("`{}` is not a .game file", shown(path)),
                "cgl reads .game files only",
                None,
            )]);
        }
        let canonical = self.confined_canonical(path, None)?;
        self.read_checked(path, &canonical, None)
    }

    /// The canonical path of `path`, refused if the session is confined to a folder that it
    /// is not in (by `..`, an absolute path or a link).
    fn confined_canonical(&self, path: &Path, import: Option<Span>) -> Result<PathBuf, Vec<Diag>> {
        let unreadable = |message: String, help: &str| unreadable(message, help, import);
        let where_help = where_help(import);
        let canonical = std::fs::canonicalize(path).map_err(|e| {
            unreadable(
                format!("cannot read `{}`: {}", shown(path), io_reason(&e)),
                where_help,
            )
        })?;
        if let Some(root) = &self.policy.confine {
            if !canonical.starts_with(root) {
                // Where a link leads is not said: it is outside, and that is all a log of
                // the check may show.
                return Err(vec![refused(
                    Code::LoadConfined,
                    format!(
                        "`{}` leads outside the folder that cgl check is confined to",
                        shown(path)
                    ),
                    "with --confine, cgl reads only files inside the confined folder; copy \
                     what the file needs into it",
                    import,
                )]);
            }
        }
        Ok(canonical)
    }

    /// The text of the file at `canonical` (named `path`): a regular file of at most the
    /// policy's size, UTF-8 without control characters, its byte-order mark dropped.
    fn read_checked(
        &self,
        path: &Path,
        canonical: &Path,
        import: Option<Span>,
    ) -> Result<String, Vec<Diag>> {
        let unreadable = |message: String, help: &str| unreadable(message, help, import);
        let where_help = where_help(import);
        let bytes =
            read_regular(canonical, self.policy.max_file_size).map_err(
                |refusal| match refusal {
                    Refusal::Io(e) => unreadable(
                        format!("cannot read `{}`: {}", shown(path), io_reason(&e)),
                        where_help,
                    ),
                    Refusal::NotRegular(kind) => unreadable(
                        format!("`{}` is not a regular file: it is {kind}", shown(path)),
                        "cgl reads .game files only; a device, pipe or socket could block or \
                     never end",
                    ),
                    Refusal::TooLarge(size) => vec![refused(
                        Code::LoadTooLarge,
                        format!(
                            "`{}` is larger than the limit of {} ({})",
                            shown(path),
                            bytes_text(self.policy.max_file_size),
                            size.map_or_else(
                                || "it kept growing while read".to_string(),
                                |n| { format!("it has {}", bytes_text(n)) }
                            )
                        ),
                        "split the file, or allow larger files with --max-file-size (MiB)",
                        import,
                    )],
                },
            )?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let valid = e.utf8_error().valid_up_to();
            let before = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
            let line = before.matches('\n').count() + 1;
            let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            unreadable(
                format!(
                    "`{}` is not UTF-8 text (line {line}, column {col})",
                    shown(path)
                ),
                "cgl reads .game files as UTF-8 text; save the file as UTF-8",
            )
        })?;
        // Editors on Windows may start UTF-8 files with a byte-order mark; it is not part of
        // the program, and a correct file must not fail because of it.
        let text = match text.strip_prefix('\u{feff}') {
            Some(rest) => rest.to_string(),
            None => text,
        };
        if let Some(d) = control_character(path, &text) {
            let mut d = d;
            if let Some(span) = import {
                d = d.label(span, "imported here");
            }
            return Err(vec![d]);
        }
        Ok(text)
    }

    /// Refuses an import before anything is read: one of a file that is not a `.game` file
    /// (so that `import "/etc/passwd"` quotes nothing of it), and, when confined, one that
    /// leaves the folder by an absolute path or `..`.
    fn check_import(
        &self,
        path: &str,
        alias: Option<&ast::Ident>,
        span: Span,
    ) -> Result<(), Vec<Diag>> {
        let written = Path::new(path);
        let nfg = written.extension().is_some_and(|e| e == "nfg");
        if !nfg && written.extension().is_none_or(|e| e != "game") {
            return Err(vec![refused(
                Code::LoadNotGame,
                format!("`{}` is not a .game file", escaped(path)),
                "an import names a .game file (its name ends in .game), or a Gambit strategic \
                 game (.nfg) with `as Name`; cgl does not read other files, so that a \
                 diagnostic never quotes them",
                Some(span),
            )]);
        }
        if let (false, Some(alias)) = (nfg, alias) {
            return Err(vec![Diag::error(
                Code::LoadNfg,
                format!("`as {}` after the import of a .game file", alias.name),
            )
            .label(alias.span, "names nothing here")
            .help("`as` names the game of an imported .nfg file; a .game file's games, functions and constants come with their own names: remove `as ...`")]);
        }
        if self.policy.confine.is_some() {
            let leaves = if written.has_root() || written.is_absolute() {
                Some("an absolute path")
            } else if written
                .components()
                .any(|c| matches!(c, std::path::Component::ParentDir))
            {
                Some("`..`")
            } else {
                None
            };
            if let Some(how) = leaves {
                return Err(vec![refused(
                    Code::LoadConfined,
                    format!(
                        "`{}` may leave the folder that cgl check is confined to",
                        escaped(path)
                    ),
                    &format!(
                        "with --confine, an import is a path below the importing file's folder, \
                         without {how}"
                    ),
                    Some(span),
                )]);
            }
        }
        Ok(())
    }

    /// Parses and lowers a loaded source, after loading its imports. Parsing, lowering and
    /// compiling recurse over each statement's nesting, which the syntax bounds (spec §12);
    /// they run on a stack of at least [`crate::stack::PHASE_STACK`] (a fresh segment on a
    /// thread with less left), so that the deepest statement allowed loads on any thread.
    pub(super) fn load_parsed(
        &mut self,
        file: FileId,
        dir: &Path,
        stack: &mut Vec<(PathBuf, PathBuf)>,
    ) -> Result<usize, Vec<Diag>> {
        crate::stack::with_phase_stack(|| self.load_parsed_here(file, dir, stack))
    }

    fn load_parsed_here(
        &mut self,
        file: FileId,
        dir: &Path,
        stack: &mut Vec<(PathBuf, PathBuf)>,
    ) -> Result<usize, Vec<Diag>> {
        let text = self.text_of(file);
        let stop = self.stop.clone();
        let parsed = parse_file_checked(file, &text, &mut || stop.check()).map_err(|d| vec![*d])?;
        let mut imported = Vec::new();
        for item in &parsed.items {
            if let ast::Item::Import { path, alias, span } = item {
                self.check_import(path, alias.as_ref(), *span)?;
                let joined = if dir == Path::new(".") {
                    PathBuf::from(path)
                } else {
                    dir.join(path)
                };
                let index = self.load_path_from(&joined, Some(*span), alias.as_ref(), stack)?;
                imported.push((index, *span));
            }
        }
        let imports: Vec<(&crate::lower::Exports, Span)> = imported
            .iter()
            .map(|(i, span)| (&self.files[*i].lowered.exports, *span))
            .collect();
        self.stop.check().map_err(|d| vec![*d])?;
        let stop = self.stop.clone();
        let lowered = lower_file(&mut self.program, &parsed, &imports, &mut || stop.check())?;
        let index = self.keep_lowered(file, lowered);
        // After the file's own games, which keep the ids they have without it (the first
        // file's first game is `GameId(0)`); before anything is evaluated.
        self.load_prelude()?;
        Ok(index)
    }

    /// Lowers the games cgl defines itself (`prelude.game`) into the program, once: after the
    /// first file is lowered or the first entry's source added, so that the first file is
    /// `FileId(0)` and its games the first `GameId`s.
    /// They are in no file's scope; `Program::take_and_break` names the game `octal(code)`
    /// makes.
    pub(super) fn load_prelude(&mut self) -> Result<(), Vec<Diag>> {
        if self.program.take_and_break.is_some() {
            return Ok(());
        }
        let file = self.sources.add("<cgl prelude>", PRELUDE);
        let parsed = parse_file(file, PRELUDE).map_err(|d| vec![*d])?;
        let lowered = lower_file(&mut self.program, &parsed, &[], &mut || Ok(()))?;
        let Some((crate::lower::Global::Game(id), _)) = lowered.exports.get("TakeAndBreak") else {
            return Err(vec![Diag::internal("the prelude defines no TakeAndBreak")]);
        };
        self.program.take_and_break = Some(*id);
        self.compiled.extend(&self.program);
        self.consts
            .resize(self.program.consts.len(), ConstState::Pending);
        Ok(())
    }
}

/// The source of the games cgl defines itself.
const PRELUDE: &str = include_str!("prelude.game");

/// The name of the game an `.nfg` file defines: `alias`, or the file's name if it is one.
fn nfg_game_name(
    path: &Path,
    alias: Option<&ast::Ident>,
    import: Option<Span>,
) -> Result<String, Vec<Diag>> {
    if let Some(alias) = alias {
        return Ok(alias.name.clone());
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if crate::syntax::is_identifier(&stem) && !crate::syntax::is_keyword(&stem) {
        return Ok(stem);
    }
    let mut d = Diag::error(
        Code::LoadNfg,
        format!("`{}` names no game: `{}` is not a name", shown(path), escaped(&stem)),
    )
    .help("name the game it defines: `import \"game.nfg\" as Name` (a name starts with a letter or `_`)");
    if let Some(span) = import {
        d = d.label(span, "imported here");
    }
    Err(vec![d])
}

/// A control character (other than tab and line breaks) in a file: a binary file, text that
/// would reach the terminal as escape sequences when a diagnostic quotes it, or a
/// bidirectional override that shows the code in another order than cgl reads it (as rustc
/// refuses them). No snippet, for that reason; the message says where the character is.
fn control_character(path: &Path, text: &str) -> Option<Diag> {
    let (offset, c) = text.char_indices().find(|&(_, c)| {
        (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    })?;
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    let (message, help) = if c == '\0' {
        (
            format!(
                "`{}` is a binary file, not text (a NUL byte at line {line}, column {col})",
                shown(path)
            ),
            "cgl reads .game files as UTF-8 text; check that this is the file you meant",
        )
    } else if !c.is_control() {
        (
            format!(
                "`{}` contains the bidirectional control character U+{:04X} at line {line}, \
                 column {col}",
                shown(path),
                u32::from(c)
            ),
            "remove it: it makes the text show in another order than cgl reads it",
        )
    } else {
        (
            format!(
                "`{}` contains the control character U+{:04X} at line {line}, column {col}",
                shown(path),
                u32::from(c)
            ),
            "remove it: a .game file may hold printable characters, tabs and line breaks only",
        )
    };
    Some(Diag::error(Code::LoadBinary, message).help(help))
}

/// A refusal to read a file, with the import (if any) that asked for it.
fn refused(code: Code, message: String, help: &str, import: Option<Span>) -> Diag {
    let mut d = Diag::error(code, message).help(help.to_string());
    if let Some(span) = import {
        d = d.label(span, "imported here");
    }
    d
}

/// Why [`read_regular`] did not read a file.
enum Refusal {
    Io(std::io::Error),
    /// What it is instead (a folder, a device, a named pipe, ...).
    NotRegular(&'static str),
    /// Its size, if the file system said.
    TooLarge(Option<u64>),
}

/// Reads a regular file of at most `max` bytes. Anything else is refused before it is read
/// (a device such as `/dev/zero` never ends, a named pipe may block forever), and the read
/// stops after `max` bytes even if the file grows meanwhile.
fn read_regular(path: &Path, max: u64) -> Result<Vec<u8>, Refusal> {
    use std::io::Read;
    let kind = |meta: &std::fs::Metadata| -> Option<&'static str> {
        let t = meta.file_type();
        if t.is_file() {
            return None;
        }
        if t.is_dir() {
            return Some("a folder");
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if t.is_fifo() {
                return Some("a named pipe");
            }
            if t.is_char_device() || t.is_block_device() {
                return Some("a device");
            }
            if t.is_socket() {
                return Some("a socket");
            }
        }
        Some("not a regular file")
    };
    // `metadata` does not open the file, so a named pipe is refused without blocking.
    let meta = std::fs::metadata(path).map_err(Refusal::Io)?;
    if let Some(what) = kind(&meta) {
        return Err(Refusal::NotRegular(what));
    }
    if meta.len() > max {
        return Err(Refusal::TooLarge(Some(meta.len())));
    }
    let file = std::fs::File::open(path).map_err(Refusal::Io)?;
    // The file opened may not be the one looked at (replaced meanwhile): look again.
    let meta = file.metadata().map_err(Refusal::Io)?;
    if let Some(what) = kind(&meta) {
        return Err(Refusal::NotRegular(what));
    }
    let mut bytes = Vec::with_capacity(meta.len().min(max) as usize);
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Refusal::Io)?;
    if bytes.len() as u64 > max {
        return Err(Refusal::TooLarge(None));
    }
    Ok(bytes)
}

/// A size in bytes, in the unit that reads best.
fn bytes_text(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 20 {
        format!("{:.1} MiB", n as f64 / (1u64 << 20) as f64)
    } else {
        format!("{n} bytes")
    }
}

/// The diagnostic of a file that cannot be read, labelled at its `import` if it has one.
fn unreadable(message: String, help: &str, import: Option<Span>) -> Vec<Diag> {
    let d = Diag::error(Code::LoadUnreadable, message).help(help.to_string());
    vec![match import {
        Some(span) => d.label(span, "imported here"),
        None => d,
    }]
}

/// What a path that cannot be found is relative to.
fn where_help(import: Option<Span>) -> &'static str {
    if import.is_some() {
        "check the path; an import is relative to the folder of the importing file"
    } else {
        "check the path; it is relative to the current directory"
    }
}

/// A path as a diagnostic shows it: control characters (a newline, an escape sequence) are
/// written as escapes, so that a file name cannot forge output lines or drive the terminal,
/// and a path longer than a few KiB is cut with its length ([`crate::diag::cut`]).
pub fn shown(path: &Path) -> String {
    crate::diag::cut(&escaped(&path.display().to_string()))
}

/// Text with its control characters escaped as `\u{..}` (`\n`, `\t` and `\r` as such).
pub fn escaped(text: &str) -> String {
    if !text.chars().any(needs_escape) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if needs_escape(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// An IO error in words, without the "(os error N)" tail.
fn io_reason(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        std::io::ErrorKind::IsADirectory => "it is a folder".to_string(),
        _ => {
            let text = error.to_string();
            match text.find(" (os error") {
                Some(i) => text[..i].to_string(),
                None => text,
            }
        }
    }
}
