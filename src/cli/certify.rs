//! `cgl certify [-f FILE]... EXPR [--grundy] -o FILE` writes a certificate of what a
//! position is (its outcome, its Grundy value, or a payoff game's score); `cgl verify CERTIFICATE FILE...` checks
//! one against the games of the files, position by position, with the rules alone
//! (`Session::certificate`, `Session::verify`).

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::options::parse_seconds;
use crate::api::{
    render, shown, Bindings, Certificate, ParsedExpr, Proves, RenderStyle, Session, SessionConfig,
    Stop,
};

/// `cgl certify`.
#[derive(Debug, Args)]
pub struct Certify {
    /// Files to load first (their games and functions).
    #[arg(short = 'f', long = "file", value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The position, e.g. 'Kayles(7)' (of a payoff game: its score is certified).
    expr: String,
    /// Certify its Grundy value (every position with all its options) instead of its outcome
    /// (each N-position with one winning move).
    #[arg(long)]
    grundy: bool,
    /// Where to write the certificate.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Most positions the certificate may have.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    max_positions: usize,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    timeout: Option<Duration>,
}

/// `cgl verify`.
#[derive(Debug, Args)]
#[command(
    after_help = "Exit status: 0 when the certificate proves its claim, 1 when it does \
                        not, 2 when a file cannot be read."
)]
pub struct Verify {
    /// The certificate (`cgl certify` writes it).
    certificate: PathBuf,
    /// The files whose games it is about.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    timeout: Option<Duration>,
}

/// A session with `files` loaded and their names, or the diagnostics rendered.
fn loaded(
    files: &[PathBuf],
    timeout: Option<Duration>,
    style: RenderStyle,
) -> Result<(Session, Bindings), String> {
    let mut session = Session::new(SessionConfig::default());
    session.set_stop(timeout.map_or_else(Stop::new, Stop::after));
    let mut scope = Bindings::new();
    for path in files {
        match session.load_path(path) {
            Ok(index) => session
                .file_names(index)
                .into_iter()
                .for_each(|b| scope.bind(b)),
            Err(diags) => {
                return Err(diags
                    .iter()
                    .map(|d| format!("{}\n", render(d, &session.sources, style)))
                    .collect())
            }
        }
    }
    Ok((session, scope))
}

impl Certify {
    /// Writes the certificate.
    pub fn run(self, style: RenderStyle, err: &mut dyn Write) -> u8 {
        let (mut session, scope) = match loaded(&self.files, self.timeout, style) {
            Ok(s) => s,
            Err(text) => {
                let _ = write!(err, "{text}");
                return 2;
            }
        };
        let file = session.add_source("<position>", self.expr.clone());
        let proves = if self.grundy {
            Proves::Grundy
        } else {
            Proves::Outcome
        };
        let made = ParsedExpr::parse(file, &self.expr, &(0..self.expr.len())).and_then(|p| {
            let start = session.eval_parsed(&p, &scope)?;
            session.certificate(&start, p.span(), proves, self.max_positions)
        });
        let cert = match made {
            Ok(c) => c,
            Err(diags) => {
                for d in &diags {
                    let _ = writeln!(err, "{}", render(d, &session.sources, style));
                }
                return 1;
            }
        };
        let json = serde_json::to_string_pretty(&cert).unwrap_or_default();
        if let Err(e) = std::fs::write(&self.output, json + "\n") {
            let _ = writeln!(err, "error: cannot write {}: {e}", shown(&self.output));
            return 2;
        }
        let _ = writeln!(
            err,
            "certified with {} positions into {}",
            cert.positions.len(),
            shown(&self.output)
        );
        0
    }
}

impl Verify {
    /// Checks the certificate; says what it proves on `out`.
    pub fn run(self, style: RenderStyle, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
        let text = match std::fs::read_to_string(&self.certificate) {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(err, "error: cannot read {}: {e}", shown(&self.certificate));
                return 2;
            }
        };
        let cert: Certificate = match serde_json::from_str(&text) {
            Ok(c) => c,
            Err(e) => {
                let _ = writeln!(
                    err,
                    "error[cgl::certificate::refused]: {} is not a certificate: {e}",
                    shown(&self.certificate)
                );
                return 1;
            }
        };
        let (mut session, scope) = match loaded(&self.files, self.timeout, style) {
            Ok(s) => s,
            Err(text) => {
                let _ = write!(err, "{text}");
                return 2;
            }
        };
        match session.verify(&cert, &scope) {
            Ok(claim) => {
                let _ = writeln!(
                    out,
                    "verified: {claim} ({} positions checked)",
                    cert.positions.len()
                );
                0
            }
            Err(diags) => {
                for d in &diags {
                    let _ = writeln!(err, "{}", render(d, &session.sources, style));
                }
                1
            }
        }
    }
}
