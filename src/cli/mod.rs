//! The command line: `check`, `run`, `eval`, `fmt`, `explain`, and `repl` (in `crate::repl`). With the REPL,
//! the only code that touches stdout, stderr and the process's exit code.
//!
//! Exit codes of `check`, `run` and `eval`: 0 success; 1 an expectation failed (or, for `run`
//! and `eval`, evaluation failed); 2 a file could not be checked (not found, unreadable, a
//! syntax or name error, a crash), and clap's usage errors.

mod certify;
mod check;
mod diff;
pub mod explain;
mod fmt;
mod grade;
mod memory;
mod options;
pub mod plot;
pub mod report;
mod serve;
mod tracked;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};

use crate::api::progress::{Clearing, Gauge, Progress, Tally};
use crate::api::stats::{Stats, Work};
use crate::api::{render, Code, Diag, RenderStyle, SourceMap};
use crate::api::{LoadPolicy, Session, SessionConfig};
use crate::api::{Meter, Stop};
use check::{inputs, CheckSettings};
use options::{default_threads, parse_seconds, EngineOptions, Unattended, CONFINED_TIMEOUT};
use report::Format;
use tracked::{io_error_text, Tracked};

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
    #[command(
        after_help = "Exit status: 0 when every expectation holds, 1 when one fails, \
                            2 when a file cannot be checked (not found, not text, a syntax \
                            or name error)."
    )]
    Check {
        /// Files or folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// How to write the results: for people, or for machines (JSON, JUnit XML, GitHub
        /// Actions annotations).
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// Files checked at once [default: the number of cores].
        #[arg(short = 'j', long, value_parser = clap::value_parser!(u16).range(1..))]
        jobs: Option<u16>,
        /// Check untrusted files (students' hand-ins): read only files inside DIR (imports may
        /// not leave it by `..`, an absolute path or a symbolic link), and limit each file's
        /// time, memory and size by default (--timeout 10, --max-memory 1024,
        /// --max-file-size 1).
        #[arg(long, value_name = "DIR")]
        confine: Option<PathBuf>,
        #[command(flatten)]
        options: EngineOptions,
        #[command(flatten)]
        unattended: Unattended,
    },
    /// Check one file for a `cgl check` of several files, which started this process, and
    /// write its report on stdout as the parent reads it (not for people; spec §10,
    /// *Isolation*).
    #[command(name = "check-child", hide = true)]
    CheckChild {
        /// The file.
        file: PathBuf,
        /// The settings, resolved by the parent, as JSON.
        #[arg(long)]
        settings: String,
        /// The confined folder (`check --confine`), if any.
        #[arg(long)]
        confine: Option<PathBuf>,
    },
    /// Run a file: print its `print` statements and check its `expect`s, in order.
    Run {
        /// The file.
        file: PathBuf,
        #[command(flatten)]
        options: EngineOptions,
        #[command(flatten)]
        unattended: Unattended,
    },
    /// Print the value of one expression, after loading files.
    Eval {
        /// Files to load first (their games, functions and constants are in scope).
        #[arg(short = 'f', long = "file")]
        files: Vec<PathBuf>,
        /// The expression (may start with `-`).
        #[arg(allow_hyphen_values = true)]
        expr: String,
        /// Also draw the value's positions (a position, or a list of them) with their
        /// games' `show` clauses.
        #[arg(long)]
        show: bool,
        /// Print a string value as its text, whole, without quotes or escapes (e.g.
        /// `cgl eval --raw -f f.game 'nfg(G)' > g.nfg`); other values print as usual.
        #[arg(long)]
        raw: bool,
        #[command(flatten)]
        options: EngineOptions,
        #[command(flatten)]
        unattended: Unattended,
    },
    /// Draw an expression over one or two ranges, as SVG or PNG.
    ///
    /// Over one range, a sequence with its period marked; over two, a grid with the first
    /// values at the bottom left. Booleans and outcomes are marks (true and P black on white),
    /// integers colours on a scale, with a legend.
    #[command(after_help = "Example: cgl plot -f examples/lego.game \
                      'remoteness(Lego[limit = 3, mode = conjunctive](a, b))' \
                      --x a=1..=50 --y b=1..=50 -o lego.png")]
    Plot {
        /// Files to load first.
        #[arg(short = 'f', long = "file")]
        files: Vec<PathBuf>,
        /// The expression, in the variables of --x and --y (may start with `-`).
        #[arg(allow_hyphen_values = true)]
        expr: String,
        /// The horizontal axis: a variable and its values, e.g. `a=1..=50`.
        #[arg(long = "x", value_name = "NAME=RANGE")]
        x: String,
        /// The vertical axis, for a grid, e.g. `b=1..=50`; without it, a sequence plot.
        #[arg(long = "y", value_name = "NAME=RANGE")]
        y: Option<String>,
        /// The file to write [default: stdout].
        #[arg(short = 'o', long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// The image format [default: from the output's extension, else svg].
        #[arg(long, value_enum)]
        format: Option<plot::ImageFormat>,
        /// Most cells (values computed) a plot may have.
        #[arg(long, value_name = "CELLS", default_value_t = 250_000)]
        max_cells: usize,
        #[command(flatten)]
        options: EngineOptions,
        #[command(flatten)]
        unattended: Unattended,
    },
    /// Write the game graph from a position in Graphviz DOT.
    ///
    /// Each position is a node labelled with its picture (its game's `show`, where short) or
    /// its printed form, its outcome and value; P-positions filled black, winning moves bold.
    #[command(after_help = "Example: cgl dot -f examples/chomp.game 'Chomp([3, 3])' | dot -Tsvg")]
    Dot {
        /// Files to load first.
        #[arg(short = 'f', long = "file")]
        files: Vec<PathBuf>,
        /// The position.
        #[arg(allow_hyphen_values = true)]
        expr: String,
        /// The file to write [default: stdout].
        #[arg(short = 'o', long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Most positions the graph may have.
        #[arg(long, value_name = "NODES", default_value_t = crate::api::DOT_NODES)]
        max_nodes: usize,
        #[command(flatten)]
        options: EngineOptions,
        #[command(flatten)]
        unattended: Unattended,
    },
    /// Format files in place, in cgl's one layout (`--check`: list those that would change).
    Fmt(fmt::FmtArgs),
    /// Explain a diagnostic code, e.g. `cgl explain cgl::graph::cycle`; without one, list
    /// them all.
    Explain {
        /// The code (the `cgl::` may be left out).
        code: Option<String>,
    },
    /// Serve the Language Server Protocol on stdin and stdout, for an editor.
    Lsp,
    /// Serve a web page for a class: edit, check, query and play the .game files of a folder.
    Serve(serve::Serve),
    /// Which positions changed outcome, Grundy value, remoteness or game value between two
    /// versions of a game.
    Diff(diff::Diff),
    /// Write a certificate of a position's outcome, Grundy value or score, which `cgl verify`
    /// checks with the game's rules alone.
    Certify(certify::Certify),
    /// Check a certificate against the games of some files, position by position.
    Verify(certify::Verify),
    /// Grade students' submissions against a key whose expectations carry points.
    Grade(grade::Grade),
    /// Seal a key for `cgl grade`: its answers kept as salted hashes, for students to grade
    /// themselves without reading them.
    Seal(grade::Seal),
    /// Grade one submission for a `cgl grade`, which started this process (not for people).
    #[command(name = "grade-child", hide = true)]
    GradeChild {
        /// The key.
        key: PathBuf,
        /// The submission.
        submission: PathBuf,
        /// Its time.
        #[arg(long)]
        seconds: f64,
        /// Its memory, MiB.
        #[arg(long)]
        memory_mib: usize,
    },
    /// Explore games interactively (also what `cgl` alone does).
    Repl {
        /// Files to load first.
        files: Vec<PathBuf>,
        /// Draw no progress line on stderr while an entry computes.
        #[arg(long)]
        no_progress: bool,
        #[command(flatten)]
        options: EngineOptions,
    },
}

impl Command {
    /// Whether `--no-progress` was given.
    fn no_progress(&self) -> bool {
        match self {
            Command::Check { unattended, .. }
            | Command::Run { unattended, .. }
            | Command::Eval { unattended, .. }
            | Command::Plot { unattended, .. }
            | Command::Dot { unattended, .. } => unattended.no_progress,
            Command::Repl { no_progress, .. } => *no_progress,
            Command::Explain { .. } | Command::CheckChild { .. } => false,
            Command::Fmt(_) | Command::Lsp => false,
            Command::Serve(_) | Command::Grade(_) | Command::Seal(_) | Command::Diff(_) => true,
            Command::Certify(_) | Command::Verify(_) => true,
            Command::GradeChild { .. } => true,
        }
    }
}

/// A session with these options, its deadline (if any) starting now, noting its progress on
/// `meter` if given.
fn session(options: EngineOptions, unattended: Unattended, meter: Option<&Arc<Meter>>) -> Session {
    let mut session = Session::new(options.config());
    session.set_load_policy(options.policy(None));
    let mut stop = unattended.timeout.map_or_else(Stop::new, Stop::after);
    if let Some(meter) = meter {
        stop = stop.with_meter(meter.clone());
    }
    session.set_stop(stop);
    session
}

/// Runs `body` with the progress line of `gauge` (if any) drawn on stderr, on streams that
/// erase the line before they write. Ctrl-C erases it too, then ends cgl (exit 130, as the
/// signal would).
fn with_progress(
    gauge: Option<Arc<dyn Gauge>>,
    out: &mut dyn Write,
    err: &mut dyn Write,
    body: impl FnOnce(&mut dyn Write, &mut dyn Write) -> u8,
) -> u8 {
    let progress = gauge.map(|g| Progress::start(g, Box::new(std::io::stderr())));
    let eraser = progress.as_ref().map(Progress::eraser);
    if let Some(eraser) = eraser.clone() {
        // Set once a process; a second command in the same process (tests) keeps the first.
        let _ = ctrlc::set_handler(move || {
            eraser.clear();
            std::process::exit(130);
        });
    }
    let mut out = Clearing::new(out, eraser.clone());
    let mut err = Clearing::new(err, eraser);
    let code = body(&mut out, &mut err);
    drop(progress);
    code
}

/// Parses the command line, runs it, and returns the exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let style = if std::io::stderr().is_terminal() {
        RenderStyle::Fancy
    } else {
        RenderStyle::Plain
    };
    let mut out = Tracked::new(std::io::stdout().lock());
    // Not locked: the progress line's thread writes to stderr too.
    let mut err = std::io::stderr();
    let code = run(cli, style, &mut out, &mut err);
    let flushed = out.flush();
    match out.error.take().map_or(flushed, Err) {
        Ok(()) => ExitCode::from(code),
        Err(e) => {
            // The output is incomplete: no exit code may say that all went well.
            let _ = writeln!(err, "error: cannot write the output: {}", io_error_text(&e));
            ExitCode::from(2)
        }
    }
}

/// Runs a parsed command line, writing to the given streams; returns the exit code (see the
/// module documentation).
pub fn run(cli: Cli, style: RenderStyle, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let off = cli.command.as_ref().is_some_and(Command::no_progress);
    let progress = crate::api::progress::wanted(off, std::io::stderr().is_terminal());
    // The meter of a command that runs one session.
    let meter = progress.then(|| Arc::new(Meter::default()));
    let gauge = meter.clone().map(|m| m as Arc<dyn Gauge>);
    match cli.command {
        Some(Command::Check {
            paths,
            format,
            jobs,
            confine,
            options,
            unattended,
        }) => {
            let confine = match confine.map(|dir| confined_root(&dir)).transpose() {
                Ok(root) => root,
                Err(message) => {
                    let _ = writeln!(err, "error: {message}");
                    return 2;
                }
            };
            let confined = confine.is_some();
            let jobs = jobs.map_or_else(
                || std::thread::available_parallelism().map_or(1, usize::from),
                usize::from,
            );
            let settings = CheckSettings {
                config: options.config_for(confined, jobs),
                policy: options.policy(confine),
                timeout: unattended.timeout.or(confined.then_some(CONFINED_TIMEOUT)),
                // Machine formats carry plain text; colour is for a person at a terminal.
                style: match format {
                    Format::Human | Format::Github => style,
                    Format::Json | Format::Junit => RenderStyle::Plain,
                },
                failed_values: format == Format::Json,
                jobs,
                stats: unattended.stats,
                progress: None,
            };
            check(&paths, format, settings, progress, out, err)
        }
        Some(Command::CheckChild {
            file,
            settings,
            confine,
        }) => check::run_child(&file, &settings, confine, out, err),
        Some(Command::Run {
            file,
            options,
            unattended,
        }) => {
            let session = session(options, unattended, meter.as_ref());
            with_progress(gauge, out, err, |out, err| {
                run_file(&file, session, unattended.stats, style, out, err)
            })
        }
        Some(Command::Eval {
            files,
            expr,
            show,
            raw,
            options,
            unattended,
        }) => {
            let session = session(options, unattended, meter.as_ref());
            let what = Evaluated {
                expr: &expr,
                show,
                raw,
                stats: unattended.stats,
            };
            with_progress(gauge, out, err, |out, err| {
                eval(&files, what, session, style, out, err)
            })
        }
        Some(Command::Plot {
            files,
            expr,
            x,
            y,
            output,
            format,
            max_cells,
            options,
            unattended,
        }) => {
            let mut session = session(options, unattended, meter.as_ref());
            let request = plot::PlotRequest {
                expr: &expr,
                x: &x,
                y: y.as_deref(),
                max_cells,
            };
            let format = plot::ImageFormat::choose(format, output.as_deref());
            let title = eval_title(&expr).replacen("eval", "plot", 1);
            with_progress(gauge, out, err, |out, err| {
                picture(
                    &files,
                    &mut session,
                    &title,
                    unattended.stats,
                    style,
                    out,
                    err,
                    &mut |s, loaded| {
                        let drawn = plot::plot(s, loaded, &request)?;
                        plot::image(s, &drawn, format)
                    },
                    output.as_ref(),
                )
            })
        }
        Some(Command::Dot {
            files,
            expr,
            output,
            max_nodes,
            options,
            unattended,
        }) => {
            let mut session = session(options, unattended, meter.as_ref());
            let title = eval_title(&expr).replacen("eval", "dot", 1);
            with_progress(gauge, out, err, |out, err| {
                picture(
                    &files,
                    &mut session,
                    &title,
                    unattended.stats,
                    style,
                    out,
                    err,
                    &mut |s, loaded| {
                        plot::dot_graph(s, loaded, &expr, max_nodes).map(String::into_bytes)
                    },
                    output.as_ref(),
                )
            })
        }
        Some(Command::Fmt(args)) => fmt::run(&args, style, out, err),
        Some(Command::Explain { code }) => explain::explain(code.as_deref(), style, out, err),
        Some(Command::Lsp) => crate::lsp::serve(std::io::stdin(), &mut { out }),
        Some(Command::Serve(serve)) => serve.run(out, err),
        Some(Command::Grade(grade)) => grade.run(out, err),
        Some(Command::Diff(diff)) => diff.run(style, out, err),
        Some(Command::Certify(c)) => c.run(style, err),
        Some(Command::Verify(v)) => v.run(style, out, err),
        Some(Command::Seal(seal)) => seal.run(style, err),
        Some(Command::GradeChild {
            key,
            submission,
            seconds,
            memory_mib,
        }) => {
            let limits = grade::child::Limits {
                seconds,
                memory_mib,
            };
            grade::run_child(&key, &submission, &limits, out, err)
        }
        Some(Command::Repl { files, options, .. }) => crate::repl::run(
            &files,
            (options.config(), options.policy(None)),
            (style, progress),
            out,
            err,
        ),
        None => crate::repl::run(
            &[],
            (SessionConfig::default(), LoadPolicy::default()),
            (style, progress),
            out,
            err,
        ),
    }
}

/// The canonical path of the folder given to `--confine`.
fn confined_root(dir: &Path) -> Result<PathBuf, String> {
    let shown = crate::api::shown(dir);
    let root = std::fs::canonicalize(dir)
        .map_err(|e| format!("--confine {shown}: cannot find the folder ({e})"))?;
    if !root.is_dir() {
        return Err(format!("--confine {shown}: not a folder"));
    }
    Ok(root)
}

fn report(diags: &[Diag], sources: &SourceMap, style: RenderStyle, err: &mut dyn Write) {
    for d in diags {
        let _ = write!(err, "{}", render(d, sources, style));
        let _ = writeln!(err);
    }
}

/// Checks files in parallel and writes the reports in input order, in `format`. With
/// `--stats`, each file's figures follow its report on stderr (in JSON, they are part of the
/// records), and a total line ends the run when there were several files.
fn check(
    paths: &[PathBuf],
    format: Format,
    mut settings: CheckSettings,
    progress: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let confine = settings.policy.confine.clone();
    let inputs = inputs(paths, confine.as_deref());
    let tally = progress.then(|| Arc::new(Tally::new(inputs.len())));
    settings.progress = tally.clone();
    let gauge = tally.map(|t| t as Arc<dyn Gauge>);
    // Before the progress line's handler, which would end cgl at once.
    check::interrupt::install();
    let code = with_progress(gauge, out, err, |out, err| {
        check::report_all(inputs, format, settings, out, err)
    });
    if check::interrupt::requested() {
        130
    } else {
        code
    }
}

/// With `--stats`, writes the block of figures on stderr, after what was written to stdout.
fn write_stats(
    wanted: bool,
    title: &str,
    times: (Duration, Duration),
    work: Work,
    session: &Session,
    out: &mut dyn Write,
    err: &mut dyn Write,
) {
    if wanted {
        let _ = out.flush();
        let stats = Stats::new(
            times.0,
            times.1,
            work,
            session.compiled_rules(),
            session.analyzer(),
            session.instances(),
        );
        let _ = write!(err, "{}", stats.render(title));
    }
}

fn run_file(
    path: &Path,
    mut session: Session,
    stats: bool,
    style: RenderStyle,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let title = path.display().to_string();
    let started = Instant::now();
    let loaded = session.load_path(path);
    let load_time = started.elapsed();
    let index = match loaded {
        Ok(i) => i,
        Err(diags) => {
            report(&diags, &session.sources, style, err);
            let times = (load_time, Duration::ZERO);
            write_stats(
                stats,
                &title,
                times,
                Work::Statements(0),
                &session,
                out,
                err,
            );
            return 2;
        }
    };
    report(
        &session.file(index).lowered.warnings,
        &session.sources,
        style,
        err,
    );
    let started = Instant::now();
    let statements = session.statement_count(index);
    let failures = session.run_file(index, &mut |line| {
        let _ = writeln!(out, "{line}");
    });
    let times = (load_time, started.elapsed());
    report(&failures, &session.sources, style, err);
    let work = Work::Statements(statements);
    write_stats(stats, &title, times, work, &session, out, err);
    u8::from(!failures.is_empty())
}

/// `cgl eval --show`: the pictures of a value's positions, under the value. Exit code 1 when
/// a `show` clause fails.
fn draw(
    session: &mut Session,
    value: &crate::api::Value,
    expr: &str,
    style: RenderStyle,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    const MOST: usize = 40;
    let file = session.sources.add("<expression>", expr);
    let span = crate::api::Span::new(file, 0, expr.len());
    let pictures = match session.pictures(value, span, MOST) {
        Ok(p) => p,
        Err(d) => {
            report(&[*d], &session.sources, style, err);
            return 1;
        }
    };
    use crate::api::gallery;
    match pictures.as_slice() {
        [] => {}
        [(label, picture)] if label.is_empty() => {
            let _ = writeln!(out, "{picture}");
        }
        _ => {
            let _ = writeln!(out, "{}", gallery(&pictures, crate::repl::columns()));
            if let crate::api::Value::List(items) | crate::api::Value::Tuple(items) = value {
                if items.len() > MOST {
                    let _ = writeln!(out, "... and {} more", items.len() - MOST);
                }
            }
        }
    }
    0
}

/// The title of `cgl eval --stats`'s block: `eval` and the expression on one line, cut short
/// if long.
fn eval_title(expr: &str) -> String {
    const LONGEST: usize = 60;
    let line = format!(
        "eval {}",
        expr.split_whitespace().collect::<Vec<_>>().join(" ")
    );
    if line.chars().count() <= LONGEST {
        return line;
    }
    let cut: String = line.chars().take(LONGEST - 1).collect();
    format!("{cut}…")
}

/// What `cgl eval` evaluates and how it shows it.
struct Evaluated<'e> {
    expr: &'e str,
    /// `--show`: the pictures of the value's positions too.
    show: bool,
    /// `--raw`: a string value as its text.
    raw: bool,
    /// `--stats`.
    stats: bool,
}

fn eval(
    files: &[PathBuf],
    what: Evaluated<'_>,
    mut session: Session,
    style: RenderStyle,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let Evaluated {
        expr,
        show,
        raw,
        stats,
    } = what;
    let title = eval_title(expr);
    let started = Instant::now();
    let mut loaded = Vec::new();
    for file in files {
        match session.load_path(file) {
            Ok(i) => loaded.push(i),
            Err(diags) => {
                report(&diags, &session.sources, style, err);
                let times = (started.elapsed(), Duration::ZERO);
                let work = Work::Expressions(0);
                write_stats(stats, &title, times, work, &session, out, err);
                return 2;
            }
        }
    }
    let load_time = started.elapsed();
    let started = Instant::now();
    let result = session.eval_text(expr, &loaded);
    let times = (load_time, started.elapsed());
    let code = match result {
        Ok(crate::api::Value::Str(ref text)) if raw => {
            let _ = write!(out, "{text}");
            if !text.ends_with('\n') {
                let _ = writeln!(out);
            }
            0
        }
        Ok(value) => {
            let (shown, cut) = session.show_cut(&value);
            let _ = writeln!(out, "{shown}");
            if cut {
                let _ = writeln!(
                    err,
                    "note: the value is printed in part: cgl prints at most {} bytes of a \
                     value, and `…` stands for the rest",
                    crate::api::MAX_SHOWN
                );
            }
            if show {
                draw(&mut session, &value, expr, style, out, err)
            } else {
                0
            }
        }
        Err(diags) => {
            report(&diags, &session.sources, style, err);
            1
        }
    };
    write_stats(
        stats,
        &title,
        times,
        Work::Expressions(1),
        &session,
        out,
        err,
    );
    code
}

/// Makes a picture's bytes in a session, given the loaded files.
type MakePicture<'a> = dyn FnMut(&mut Session, &[usize]) -> Result<Vec<u8>, Vec<Diag>> + 'a;

/// What `cgl plot` and `cgl dot` do around their picture: load the files, make it with
/// `make`, write it to `output` (or stdout). Exit 0 when written, 1 when evaluation failed,
/// 2 when a file could not be loaded, the picture was refused (`cgl::plot::*`) or the output
/// could not be written.
#[allow(clippy::too_many_arguments)]
fn picture(
    files: &[PathBuf],
    session: &mut Session,
    title: &str,
    stats: bool,
    style: RenderStyle,
    out: &mut dyn Write,
    err: &mut dyn Write,
    make: &mut MakePicture<'_>,
    output: Option<&PathBuf>,
) -> u8 {
    let started = Instant::now();
    let mut loaded = Vec::new();
    for file in files {
        match session.load_path(file) {
            Ok(i) => loaded.push(i),
            Err(diags) => {
                report(&diags, &session.sources, style, err);
                return 2;
            }
        }
    }
    let load_time = started.elapsed();
    let started = Instant::now();
    let made = make(session, &loaded);
    let times = (load_time, started.elapsed());
    let code = match made {
        Ok(bytes) => match plot::emit(&bytes, output, out) {
            Ok(()) => 0,
            Err(message) => {
                let _ = writeln!(err, "error: {message}");
                2
            }
        },
        Err(diags) => {
            report(&diags, &session.sources, style, err);
            let refused = diags
                .iter()
                .any(|d| matches!(d.code, Code::PlotUsage | Code::PlotTooLarge));
            if refused {
                2
            } else {
                1
            }
        }
    };
    write_stats(stats, title, times, Work::Expressions(1), session, out, err);
    code
}
