//! The only place that knows how miette draws a [`Diag`].

use std::fmt;

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode, SourceSpan,
};

use super::{Diag, Severity, SourceMap};

/// How to draw diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderStyle {
    /// Unicode boxes and colour, for a terminal.
    Fancy,
    /// Unicode boxes without colour, 80 columns wide: stable text for files, pipes and tests.
    Plain,
}

/// Renders one diagnostic to a string.
pub fn render(diag: &Diag, sources: &SourceMap, style: RenderStyle) -> String {
    let handler = match style {
        RenderStyle::Fancy => GraphicalReportHandler::new_themed(GraphicalTheme::unicode()),
        RenderStyle::Plain => {
            GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(80)
        }
    };
    let report = Report::new(diag, sources);
    let mut out = String::new();
    if handler.render_report(&mut out, &report).is_err() {
        out = format!("error[{}]: {}\n", diag.code, diag.message);
    }
    // Notes go under the report, as rustc prints them; miette has a single help slot.
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    out.push('\n');
    for note in report.notes {
        out.push_str(&format!("  note: {}\n", note.replace('\n', "\n        ")));
    }
    out
}

/// Renders several diagnostics, one after the other.
pub fn render_all(diags: &[Diag], sources: &SourceMap, style: RenderStyle) -> String {
    diags.iter().map(|d| render(d, sources, style)).collect()
}

/// A `Diag` bound to the source its primary label points into, as miette wants it.
struct Report<'a> {
    diag: &'a Diag,
    source: Option<NamedSource<String>>,
    help: Option<String>,
    notes: Vec<String>,
}

impl<'a> Report<'a> {
    fn new(diag: &'a Diag, sources: &SourceMap) -> Report<'a> {
        let primary_file = diag.primary_span().map(|s| s.file);
        let source = primary_file
            .and_then(|f| sources.get(f))
            .map(|s| NamedSource::new(s.name.clone(), s.text.to_string()));
        // Labels in other files cannot be drawn in this snippet; they become notes.
        let mut extra: Vec<String> = Vec::new();
        for label in &diag.labels {
            if Some(label.span.file) != primary_file {
                let name = sources
                    .get(label.span.file)
                    .map_or("?", |s| s.name.as_str());
                let (line, col) = sources.line_col(label.span);
                extra.push(format!("{}:{}:{}: {}", name, line, col, label.message));
            }
        }
        let mut notes: Vec<String> = diag.notes.clone();
        notes.extend(extra);
        Report {
            diag,
            source,
            help: diag.help.clone(),
            notes,
        }
    }
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.diag.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h.clone()) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let primary_file = self.diag.primary_span()?.file;
        let labels = self
            .diag
            .labels
            .iter()
            .enumerate()
            .filter_map(move |(i, l)| {
                if l.span.file != primary_file {
                    return None;
                }
                let span =
                    SourceSpan::from((l.span.start as usize, (l.span.end - l.span.start) as usize));
                let text = if l.message.is_empty() {
                    None
                } else {
                    Some(l.message.clone())
                };
                Some(if i == 0 {
                    LabeledSpan::new_primary_with_span(text, span)
                } else {
                    LabeledSpan::new_with_span(text, span)
                })
            });
        Some(Box::new(labels))
    }
}
