//! The only place that knows how miette draws a [`Diag`].
//!
//! Lines longer than 200 characters are cut to a window around the labels (`Excerpt`: miette
//! cannot draw past column 65,535), and the header then gives the true line and column itself.

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
    let handler = match &report.excerpt {
        Some(e) if !e.cuts.is_empty() => handler.without_primary_span_start(),
        _ => handler,
    };
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

/// A line longer than this many characters is shown cut: miette cannot draw a label past
/// column 65,535 (it pads with a width argument), and a CI log gains nothing from a line of
/// a megabyte.
const LONG_LINE: usize = 200;

/// Characters kept on each side of the labelled text of a cut line.
const CUT_CONTEXT: usize = 60;

/// A source text as miette is given it: each line longer than [`LONG_LINE`] characters is
/// cut to a window around the labels on it, with `…` where text was left out. Line numbers
/// do not change; byte offsets are mapped with [`Excerpt::map`].
struct Excerpt {
    text: String,
    cuts: Vec<Cut>,
}

/// One cut line: where it was and what of it was kept, in the original text, and where it is
/// in the excerpt.
struct Cut {
    /// Original line start and end (before its `\n`).
    start: usize,
    end: usize,
    /// The original byte range kept.
    keep: (usize, usize),
    /// Where the line starts and ends in the excerpt, and how long its leading marker is.
    new_start: usize,
    new_end: usize,
    marker: usize,
}

impl Excerpt {
    /// The excerpt of `text` for labels at these byte offsets (`primary` first).
    fn new(text: &str, points: &[usize]) -> Excerpt {
        if !text
            .lines()
            .any(|l| l.len() > LONG_LINE && l.chars().count() > LONG_LINE)
        {
            return Excerpt {
                text: text.to_string(),
                cuts: Vec::new(),
            };
        }
        let mut out = String::with_capacity(text.len().min(1 << 20));
        let mut cuts = Vec::new();
        let mut start = 0;
        for piece in text.split_inclusive('\n') {
            let line = piece.strip_suffix('\n').unwrap_or(piece);
            let end = start + line.len();
            if line.len() > LONG_LINE && line.chars().count() > LONG_LINE {
                let here: Vec<usize> = points
                    .iter()
                    .filter(|&&p| p >= start && p <= end)
                    .map(|p| p - start)
                    .collect();
                let (a, b) = window(line, &here);
                let new_start = out.len();
                let marker = if a > 0 { "…".len() } else { 0 };
                if a > 0 {
                    out.push('…');
                }
                out.push_str(&line[a..b]);
                if b < line.len() {
                    out.push('…');
                }
                cuts.push(Cut {
                    start,
                    end,
                    keep: (start + a, start + b),
                    new_start,
                    new_end: out.len(),
                    marker,
                });
                if piece.len() > line.len() {
                    out.push('\n');
                }
            } else {
                out.push_str(piece);
            }
            start += piece.len();
        }
        Excerpt { text: out, cuts }
    }

    /// Where an original byte offset is in the excerpt (an offset in text left out goes to
    /// the nearest kept end of its line).
    fn map(&self, p: usize) -> usize {
        let k = self.cuts.partition_point(|c| c.start <= p);
        let Some(cut) = k.checked_sub(1).map(|k| &self.cuts[k]) else {
            return p;
        };
        if p > cut.end {
            p - cut.end + cut.new_end
        } else if p < cut.keep.0 {
            cut.new_start
        } else if p > cut.keep.1 {
            cut.new_end
        } else {
            cut.new_start + cut.marker + (p - cut.keep.0)
        }
    }
}

/// The byte range of `line` to keep: [`CUT_CONTEXT`] characters around the points (byte
/// offsets in the line, the primary label's first), or around the first point alone if they
/// are far apart; the line's start if there is none.
fn window(line: &str, points: &[usize]) -> (usize, usize) {
    // Byte offset of every character boundary, the line's end included.
    let bounds: Vec<usize> = line
        .char_indices()
        .map(|(i, _)| i)
        .chain([line.len()])
        .collect();
    let chars = bounds.len() - 1;
    let char_at = |byte: usize| bounds.partition_point(|&b| b < byte).min(chars);
    let (lo, hi) = match (points.iter().min(), points.iter().max()) {
        (Some(&lo), Some(&hi)) if char_at(hi) - char_at(lo) <= 2 * CUT_CONTEXT => {
            (char_at(lo), char_at(hi))
        }
        _ => {
            let first = points.first().map_or(0, |&p| char_at(p));
            (first, first)
        }
    };
    let a = lo.saturating_sub(CUT_CONTEXT);
    let b = (hi + CUT_CONTEXT)
        .min(chars)
        .max((a + 2 * CUT_CONTEXT).min(chars));
    (bounds[a], bounds[b])
}

/// A `Diag` bound to the source its primary label points into, as miette wants it.
struct Report<'a> {
    diag: &'a Diag,
    source: Option<NamedSource<String>>,
    /// The primary file's text as shown, with long lines cut.
    excerpt: Option<Excerpt>,
    help: Option<String>,
    notes: Vec<String>,
}

impl<'a> Report<'a> {
    fn new(diag: &'a Diag, sources: &SourceMap) -> Report<'a> {
        let primary_file = diag.primary_span().map(|s| s.file);
        let points: Vec<usize> = diag
            .labels
            .iter()
            .filter(|l| Some(l.span.file) == primary_file)
            .flat_map(|l| [l.span.start as usize, l.span.end as usize])
            .collect();
        let excerpt = primary_file
            .and_then(|f| sources.get(f))
            .map(|s| Excerpt::new(&s.text, &points));
        let source = primary_file
            .and_then(|f| sources.get(f).zip(excerpt.as_ref()))
            .map(|(s, excerpt)| {
                // miette would give the column in the cut line; the header says where the
                // label really is (`render` then leaves the place out of miette's header).
                let name = match (excerpt.cuts.is_empty(), diag.primary_span()) {
                    (false, Some(span)) => {
                        let (line, col) = sources.line_col(span);
                        format!("{}:{line}:{col}", s.name)
                    }
                    _ => s.name.clone(),
                };
                NamedSource::new(name, excerpt.text.clone())
            });
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
            excerpt,
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
                let (start, end) = match &self.excerpt {
                    Some(e) => (e.map(l.span.start as usize), e.map(l.span.end as usize)),
                    None => (l.span.start as usize, l.span.end as usize),
                };
                let span = SourceSpan::from((start, end.saturating_sub(start)));
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
