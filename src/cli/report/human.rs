//! The report for people (`human`): diagnostics to stderr, a line per file to stdout; with
//! `github`, also GitHub Actions workflow commands that annotate the files.

use std::io::Write;

use super::{one_line, ExpectStatus, FileReport, Place, Problem, Reporter, Totals};
use crate::api::Severity;

/// Output errors (a closed pipe) are ignored: there is nobody left to tell.
pub(super) struct Human {
    pub(super) github: bool,
}

impl Reporter for Human {
    fn file(&mut self, report: &FileReport, out: &mut dyn Write, err: &mut dyn Write) {
        for problem in report.errors.iter().chain(&report.warnings) {
            let _ = writeln!(err, "{}", problem.rendered);
        }
        for expect in &report.expects {
            if let ExpectStatus::Failed(problem, _) = &expect.status {
                let _ = writeln!(err, "{}", problem.rendered);
            }
        }
        let skipped = report.skipped();
        if skipped > 0 {
            let (noun, verb) = if skipped == 1 {
                ("expectation", "was")
            } else {
                ("expectations", "were")
            };
            let _ = writeln!(
                err,
                "note: {skipped} more {noun} in {} {verb} not checked: the file ran out of time\n",
                report.path,
            );
        }
        if report.checked() {
            let failed = report.failed() + skipped;
            let status = if failed == 0 { "ok   " } else { "FAIL " };
            let _ = writeln!(
                out,
                "{status} {} ({} passed, {failed} failed)",
                report.path,
                report.passed()
            );
        } else {
            let _ = writeln!(out, "error {} (could not be checked)", report.path);
        }
        if self.github {
            github_annotations(report, out);
        }
    }

    fn finish(&mut self, totals: &Totals, out: &mut dyn Write, _err: &mut dyn Write) {
        let _ = writeln!(out, "{}", totals.summary());
    }
}

/// GitHub Actions workflow commands: `::error file=F,line=L,col=C,...::message`. Each problem
/// points where its diagnostic points (for a failed expectation, into the `expect`), or at
/// the file when it has no place. See the "workflow commands" page of the GitHub Actions docs
/// for the escaping.
fn github_annotations(report: &FileReport, out: &mut dyn Write) {
    let mut annotate = |problem: &Problem, fallback: Option<&Place>, prefix: &str| {
        let level = match problem.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut props = Vec::new();
        match problem.place.as_ref().or(fallback) {
            Some(place) => {
                props.push(format!("file={}", github_property(&place.file)));
                props.push(format!("line={}", place.line));
                props.push(format!("col={}", place.column));
                props.push(format!("endLine={}", place.end_line));
                props.push(format!("endColumn={}", place.end_column));
            }
            None => props.push(format!("file={}", github_property(&report.path))),
        }
        props.push(format!("title={}", github_property(problem.code.name())));
        let mut message = format!("{prefix}{}", problem.message);
        for (_, label) in problem.labels.iter().filter(|(_, l)| !l.is_empty()) {
            message.push_str(&format!("\n{label}"));
        }
        for note in &problem.notes {
            message.push_str(&format!("\nnote: {note}"));
        }
        if let Some(help) = &problem.help {
            message.push_str(&format!("\nhelp: {help}"));
        }
        let _ = writeln!(
            out,
            "::{level} {}::{}",
            props.join(","),
            github_data(&message)
        );
    };
    for problem in report.errors.iter().chain(&report.warnings) {
        annotate(problem, None, "");
    }
    for expect in &report.expects {
        match &expect.status {
            ExpectStatus::Failed(problem, _) => {
                let prefix = format!("`expect {}`: ", one_line(&expect.text));
                annotate(problem, Some(&expect.place), &prefix);
            }
            ExpectStatus::Skipped => {
                let problem = Problem::plain(
                    crate::api::TIMEOUT,
                    "not checked: the file ran out of time before this expectation".to_string(),
                    Some("allow more time with --timeout".to_string()),
                    String::new(),
                );
                annotate(&problem, Some(&expect.place), "");
            }
            ExpectStatus::Passed => {}
        }
    }
}

fn github_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn github_property(text: &str) -> String {
    github_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_escapes_data_and_properties() {
        assert_eq!(github_data("50%\nmore"), "50%25%0Amore");
        assert_eq!(github_property("a:b,c"), "a%3Ab%2Cc");
    }
}
