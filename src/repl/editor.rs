//! Where lines come from: the terminal through rustyline (history, completion, multi-line
//! editing of recalled entries), or a pipe (tests, scripts). Both read whole entries with the
//! same rule: keep reading while [`needs_more`] says the entry is unfinished.

use std::io::BufRead;
use std::path::PathBuf;

use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{CompletionType, Config, Context, Editor, Helper};

use crate::api::builtins::{BUILTINS, CONSTANT_NAMES};
use crate::api::command::{needs_more, starts_command, COMMANDS};
use crate::api::lex::{is_word_char, KEYWORDS};

/// The prompt of a new entry.
pub const PROMPT: &str = "cgl> ";
/// The prompt of a continuation line (a bracket is still open).
pub const CONTINUE: &str = "...> ";

/// What one read gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Read {
    /// A line (or, from [`read_entry`], a whole entry).
    Line(String),
    /// Ctrl-C: the line is cancelled.
    Interrupted,
    /// Ctrl-D or the end of the input.
    Eof,
}

/// A source of lines.
pub trait Lines {
    /// Reads one line, showing `prompt` where there is someone to see it.
    fn read(&mut self, prompt: &str) -> Read;
    /// Remembers an entry in the history.
    fn add_history(&mut self, _entry: &str) {}
    /// The names that Tab completes, besides commands, built-ins and keywords.
    fn set_names(&mut self, _names: Vec<String>) {}
}

/// Reads one entry: a line, and more lines while brackets are open. Two blank lines in a row
/// end an unfinished entry anyway (so a stray bracket cannot trap the user), and so does a
/// line that starts a meta-command, which is kept in `pending` for the next entry. At the end
/// of the input an unfinished entry is returned as it is, for the parser to report.
pub fn read_entry(lines: &mut dyn Lines, pending: &mut Option<String>) -> Read {
    let mut entry = String::new();
    let mut blanks = 0;
    loop {
        let line = match pending.take() {
            Some(line) => line,
            None => {
                let prompt = if entry.is_empty() { PROMPT } else { CONTINUE };
                match lines.read(prompt) {
                    Read::Line(line) => line,
                    Read::Interrupted => return Read::Interrupted,
                    Read::Eof if entry.trim().is_empty() => return Read::Eof,
                    Read::Eof => return Read::Line(entry),
                }
            }
        };
        if !entry.is_empty() && starts_command(&line) {
            *pending = Some(line);
            return Read::Line(entry);
        }
        if !entry.is_empty() {
            entry.push('\n');
        }
        entry.push_str(&line);
        blanks = if line.trim().is_empty() {
            blanks + 1
        } else {
            0
        };
        if entry.trim().is_empty() || !needs_more(&entry) || blanks >= 2 {
            return Read::Line(entry);
        }
    }
}

/// Lines from a pipe or file: no prompts, no editing. Bytes that are not UTF-8 become `�`.
pub struct Piped<R: BufRead> {
    input: R,
}

impl<R: BufRead> Piped<R> {
    /// Reads lines from `input`.
    pub fn new(input: R) -> Piped<R> {
        Piped { input }
    }
}

impl<R: BufRead> Lines for Piped<R> {
    fn read(&mut self, _prompt: &str) -> Read {
        let mut bytes = Vec::new();
        match self.input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => Read::Eof,
            Ok(_) => {
                if bytes.last() == Some(&b'\n') {
                    bytes.pop();
                }
                if bytes.last() == Some(&b'\r') {
                    bytes.pop();
                }
                Read::Line(String::from_utf8_lossy(&bytes).into_owned())
            }
        }
    }
}

/// The terminal, through rustyline.
pub struct Terminal {
    editor: Editor<ReplHelper, DefaultHistory>,
    history: Option<PathBuf>,
}

impl Terminal {
    /// A line editor with completion and the saved history (if it can be read).
    pub fn new() -> rustyline::Result<Terminal> {
        let config = Config::builder()
            .auto_add_history(false)
            .completion_type(CompletionType::List)
            .max_history_size(10_000)?
            .history_ignore_dups(true)?
            .build();
        let mut editor = Editor::with_config(config)?;
        editor.set_helper(Some(ReplHelper::default()));
        let history = history_path();
        if let Some(path) = &history {
            // No history yet (or an unreadable one) is not an error.
            let _ = editor.load_history(path);
        }
        Ok(Terminal { editor, history })
    }

    /// Saves the history; failing to is not an error (a read-only home, say).
    pub fn save_history(&mut self) {
        if let Some(path) = &self.history {
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let _ = self.editor.save_history(path);
        }
    }
}

impl Lines for Terminal {
    fn read(&mut self, prompt: &str) -> Read {
        loop {
            return match self.editor.readline(prompt) {
                Ok(line) => Read::Line(line),
                Err(ReadlineError::Interrupted) => Read::Interrupted,
                Err(ReadlineError::Eof) => Read::Eof,
                #[cfg(unix)]
                Err(ReadlineError::Signal(_)) => continue,
                // The terminal is gone: end as at Ctrl-D.
                Err(_) => Read::Eof,
            };
        }
    }

    fn add_history(&mut self, entry: &str) {
        let _ = self.editor.add_history_entry(entry);
    }

    fn set_names(&mut self, names: Vec<String>) {
        if let Some(helper) = self.editor.helper_mut() {
            helper.names = names;
        }
    }
}

/// Where the history is kept: `$XDG_DATA_HOME/cgl/history`, else
/// `~/.local/share/cgl/history` (`%APPDATA%\cgl\history` on Windows).
pub fn history_path() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let data = var("XDG_DATA_HOME")
        .or_else(|| var("HOME").map(|home| home.join(".local").join("share")))
        .or_else(|| var("APPDATA"))?;
    Some(data.join("cgl").join("history"))
}

/// Completion, and multi-line editing of entries recalled from the history.
#[derive(Default)]
pub struct ReplHelper {
    /// Names in scope (games, functions, constants, bindings).
    names: Vec<String>,
    files: FilenameCompleter,
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = line.get(..pos).unwrap_or(line).trim_start();
        if before.starts_with(":load ") || before.starts_with(":l ") {
            return self.files.complete_path(line, pos);
        }
        let (start, words) = completions(line, pos, &self.names);
        let pairs = words
            .into_iter()
            .map(|w| Pair {
                display: w.clone(),
                replacement: w,
            })
            .collect();
        Ok((start, pairs))
    }
}

/// What Tab offers at `pos`: command names after a leading `:`, otherwise the names in
/// scope, built-ins, constants and keywords that start with the word before the cursor.
/// Returns where the word starts and the candidates, sorted.
pub fn completions(line: &str, pos: usize, names: &[String]) -> (usize, Vec<String>) {
    let pos = pos.min(line.len());
    let Some(head) = line.get(..pos) else {
        return (pos, Vec::new());
    };
    let start = head
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word_char(*c))
        .last()
        .map_or(pos, |(i, _)| i);
    let word = &head[start..];
    let is_command = head[..start].trim_start() == ":";
    let mut out: Vec<String> = if is_command {
        COMMANDS
            .iter()
            .map(|(n, ..)| n.to_string())
            .filter(|n| n.starts_with(word))
            .collect()
    } else {
        if word.is_empty() || word.starts_with(|c: char| c.is_ascii_digit()) {
            return (pos, Vec::new());
        }
        names
            .iter()
            .map(String::as_str)
            .chain(BUILTINS.iter().map(|(n, ..)| *n))
            .chain(CONSTANT_NAMES.iter().copied())
            .chain(KEYWORDS.iter().copied())
            .chain(["let"])
            .filter(|n| n.starts_with(word))
            .map(str::to_string)
            .collect()
    };
    out.sort();
    out.dedup();
    (start, out)
}

impl Validator for ReplHelper {
    /// An entry typed afresh is read line by line, with a continuation prompt. An entry
    /// recalled from the history can hold several lines; Enter inside it adds a line while a
    /// bracket is still open, so it can be edited as a whole.
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        let input = ctx.input();
        Ok(if input.contains('\n') && needs_more(input) {
            ValidationResult::Incomplete
        } else {
            ValidationResult::Valid(None)
        })
    }
}

impl Hinter for ReplHelper {
    type Hint = String;
}

impl Highlighter for ReplHelper {}

impl Helper for ReplHelper {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines from a list, then the end.
    struct Script(Vec<&'static str>);

    impl Lines for Script {
        fn read(&mut self, _prompt: &str) -> Read {
            if self.0.is_empty() {
                Read::Eof
            } else {
                Read::Line(self.0.remove(0).to_string())
            }
        }
    }

    fn entries(lines: Vec<&'static str>) -> Vec<String> {
        let mut script = Script(lines);
        let mut pending = None;
        let mut out = Vec::new();
        while let Read::Line(entry) = read_entry(&mut script, &mut pending) {
            out.push(entry);
        }
        out
    }

    #[test]
    fn entries_span_lines_while_brackets_are_open() {
        assert_eq!(
            entries(vec!["game G {", "  position n", "}", "grundy(G(1))"]),
            ["game G {\n  position n\n}", "grundy(G(1))"]
        );
        // Unfinished at the end of the input: handed over as it is.
        assert_eq!(entries(vec!["f(1,"]), ["f(1,"]);
        // Two blank lines give up on an unfinished entry.
        assert_eq!(entries(vec!["((", "", "", "1"]), ["((\n\n", "1"]);
        // A command ends an unfinished entry and runs on its own.
        assert_eq!(entries(vec!["[1,", ":quit"]), ["[1,", ":quit"]);
    }

    #[test]
    fn piped_lines_survive_junk() {
        let input: &[u8] = b"1\r\n\xff\xfe(\n\nlast";
        let mut piped = Piped::new(input);
        assert_eq!(piped.read(""), Read::Line("1".into()));
        assert_eq!(piped.read(""), Read::Line("\u{fffd}\u{fffd}(".into()));
        assert_eq!(piped.read(""), Read::Line(String::new()));
        assert_eq!(piped.read(""), Read::Line("last".into()));
        assert_eq!(piped.read(""), Read::Eof);
    }

    #[test]
    fn completion_offers_commands_names_and_builtins() {
        let names = vec!["Kayles".to_string(), "kx".to_string()];
        assert_eq!(
            completions(":ex", 3, &names),
            (1, vec!["explain".to_string()])
        );
        assert_eq!(
            completions("grundy(Ka", 9, &names),
            (7, vec!["Kayles".to_string()])
        );
        let (start, found) = completions("gru", 3, &names);
        assert_eq!((start, found), (0, vec!["grundy".to_string()]));
        let (_, found) = completions("gr", 2, &names);
        assert_eq!(found, ["grid", "grundy"]);
        let (_, found) = completions("k", 1, &names);
        assert_eq!(found, ["ks", "kx"]);
        assert_eq!(completions("1 + ", 4, &names), (4, Vec::new()));
        assert_eq!(completions("x", 99, &names), (0, Vec::new()));
    }

    #[test]
    fn history_lives_in_the_data_folder() {
        if let Some(path) = history_path() {
            assert!(path.ends_with("cgl/history"), "{path:?}");
        }
    }
}
