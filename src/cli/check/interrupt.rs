//! Ctrl-C and SIGTERM during `cgl check`: the first one stops the check in good order, so
//! that what was written stays a whole document (the JSON array and the JUnit suites closed,
//! the summary written): files being checked stop at their next check of the stop and report
//! `cgl::limit::interrupted`, files not started are reported as not checked for the same
//! reason, and cgl exits 130. A second signal ends cgl at once.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use super::FileReport;
use crate::api::{shown, Code, Diag, RenderStyle};
use crate::cli::report::Problem;

/// Raised by the first signal.
static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Handles Ctrl-C and SIGTERM from now on (once a process: a second call keeps the first).
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        if REQUESTED.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
}

/// Whether a signal asked the check to stop.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// The report of a file the interrupt stopped (`started`) or kept from starting.
pub(super) fn report(path: &Path, started: bool) -> FileReport {
    let message = if started {
        format!("cgl check was interrupted while checking {}", shown(path))
    } else {
        format!("cgl check was interrupted before checking {}", shown(path))
    };
    let diag = Diag::error(Code::LimitInterrupted, message)
        .help("the check was stopped by Ctrl-C or SIGTERM; run it again to check this file");
    let rendered = crate::api::render(&diag, &Default::default(), RenderStyle::Plain);
    let problem = Problem::plain(diag.code, diag.message, diag.help, rendered);
    FileReport::not_checked(shown(path), vec![problem])
}
