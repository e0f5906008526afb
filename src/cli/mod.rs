//! The command line: `check`, `run`, `eval`, and `repl` (in `crate::repl`). With the REPL,
//! the only code that touches stdout, stderr and the process's exit code.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::diag::{render, Diag, RenderStyle, SourceMap};
use crate::graph::GraphConfig;
use crate::lower::ir::Statement;
use crate::session::{ExpectResult, Session, SessionConfig};

/// cgl: describe combinatorial games in .game files and analyse them.
#[derive(Debug, Parser)]
#[command(name = "cgl", version, about)]
pub struct Cli {
    /// Without a command, cgl starts the REPL.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check every `expect` in the given files and folders (every *.game below a folder).
    Check {
        /// Files or folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        options: EngineOptions,
    },
    /// Run a file: print its `print` statements and check its `expect`s, in order.
    Run {
        /// The file.
        file: PathBuf,
        #[command(flatten)]
        options: EngineOptions,
    },
    /// Print the value of one expression, after loading files.
    Eval {
        /// Files to load first (their games, functions and constants are in scope).
        #[arg(short = 'f', long = "file")]
        files: Vec<PathBuf>,
        /// The expression (may start with `-`).
        #[arg(allow_hyphen_values = true)]
        expr: String,
        #[command(flatten)]
        options: EngineOptions,
    },
    /// Explore games interactively (also what `cgl` alone does).
    Repl {
        /// Files to load first.
        files: Vec<PathBuf>,
        #[command(flatten)]
        options: EngineOptions,
    },
}

#[derive(Debug, Args, Clone, Copy)]
struct EngineOptions {
    /// Most positions (and compounds) one file may explore.
    #[arg(long, default_value_t = GraphConfig::default().max_positions)]
    max_positions: usize,
    /// Analyse compounds through their explicit product graph instead of the theorems.
    #[arg(long)]
    explicit: bool,
}

impl EngineOptions {
    fn config(self) -> SessionConfig {
        SessionConfig {
            graph: GraphConfig {
                max_positions: self.max_positions,
                explicit: self.explicit,
            },
            ..SessionConfig::default()
        }
    }
}

/// Parses the command line, runs it, and returns the exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let style = if std::io::stderr().is_terminal() {
        RenderStyle::Fancy
    } else {
        RenderStyle::Plain
    };
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    let code = run(cli, style, &mut out, &mut err);
    let _ = out.flush();
    ExitCode::from(code)
}

/// Runs a parsed command line, writing to the given streams; returns the exit code
/// (0 success, 1 a failed expectation or an error in a file).
pub fn run(cli: Cli, style: RenderStyle, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match cli.command {
        Some(Command::Check { paths, options }) => check(&paths, options.config(), style, out, err),
        Some(Command::Run { file, options }) => run_file(&file, options.config(), style, out, err),
        Some(Command::Eval {
            files,
            expr,
            options,
        }) => eval(&files, &expr, options.config(), style, out, err),
        Some(Command::Repl { files, options }) => {
            crate::repl::run(&files, options.config(), style, out, err)
        }
        None => crate::repl::run(&[], SessionConfig::default(), style, out, err),
    }
}

fn report(diags: &[Diag], sources: &SourceMap, style: RenderStyle, err: &mut dyn Write) {
    for d in diags {
        let _ = write!(err, "{}", render(d, sources, style));
        let _ = writeln!(err);
    }
}

/// Every `.game` file named or below a named folder, in sorted order.
fn game_files(paths: &[PathBuf], err: &mut dyn Write) -> (Vec<PathBuf>, usize) {
    let mut files = Vec::new();
    let mut missing = 0;
    for path in paths {
        if path.is_dir() {
            let mut stack = vec![path.clone()];
            let mut found = Vec::new();
            while let Some(dir) = stack.pop() {
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    continue;
                };
                for entry in entries.flatten() {
                    let p = entry.path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if p.extension().is_some_and(|e| e == "game") {
                        found.push(p);
                    }
                }
            }
            found.sort();
            files.extend(found);
        } else if path.exists() {
            files.push(path.clone());
        } else {
            let _ = writeln!(err, "error: no such file or folder: {}", path.display());
            missing += 1;
        }
    }
    // A file named twice (or named and inside a named folder) is checked once.
    let mut seen = std::collections::BTreeSet::new();
    files.retain(|f| seen.insert(std::fs::canonicalize(f).unwrap_or_else(|_| f.clone())));
    (files, missing)
}

fn check(
    paths: &[PathBuf],
    config: SessionConfig,
    style: RenderStyle,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let (files, missing) = game_files(paths, err);
    let (mut passed, mut failed) = (0usize, missing);
    for file in &files {
        let (p, f) = check_file(file, config, style, out, err);
        passed += p;
        failed += f;
    }
    let _ = writeln!(out, "{passed} passed, {failed} failed");
    u8::from(failed > 0)
}

/// Checks one file in a session of its own. A file that cannot be loaded counts as one failure.
fn check_file(
    path: &Path,
    config: SessionConfig,
    style: RenderStyle,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> (usize, usize) {
    let mut session = Session::new(config);
    let index = match session.load_path(path) {
        Ok(i) => i,
        Err(diags) => {
            report(&diags, &session.sources, style, err);
            let _ = writeln!(out, "error {} (could not be checked)", path.display());
            return (0, 1);
        }
    };
    let (mut passed, mut failed) = (0, 0);
    for statement in session.statements(index) {
        if let Statement::Expect(body) = statement {
            match session.check_expect(&body) {
                ExpectResult::Passed => passed += 1,
                ExpectResult::Failed(d) => {
                    failed += 1;
                    report(&[*d], &session.sources, style, err);
                }
            }
        }
    }
    let status = if failed == 0 { "ok   " } else { "FAIL " };
    let _ = writeln!(
        out,
        "{status} {} ({passed} passed, {failed} failed)",
        path.display()
    );
    (passed, failed)
}

fn run_file(
    path: &Path,
    config: SessionConfig,
    style: RenderStyle,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let mut session = Session::new(config);
    let index = match session.load_path(path) {
        Ok(i) => i,
        Err(diags) => {
            report(&diags, &session.sources, style, err);
            return 1;
        }
    };
    let failures = session.run_file(index, &mut |line| {
        let _ = writeln!(out, "{line}");
    });
    report(&failures, &session.sources, style, err);
    u8::from(!failures.is_empty())
}

fn eval(
    files: &[PathBuf],
    expr: &str,
    config: SessionConfig,
    style: RenderStyle,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let mut session = Session::new(config);
    let mut loaded = Vec::new();
    for file in files {
        match session.load_path(file) {
            Ok(i) => loaded.push(i),
            Err(diags) => {
                report(&diags, &session.sources, style, err);
                return 1;
            }
        }
    }
    match session.eval_text(expr, &loaded) {
        Ok(value) => {
            let _ = writeln!(out, "{}", session.show(&value));
            0
        }
        Err(diags) => {
            report(&diags, &session.sources, style, err);
            1
        }
    }
}
