//! `cgl diff OLD.game NEW.game [--positions QUERY]`: which positions reachable from some
//! starts changed outcome, Grundy value, remoteness or game value between two versions of a
//! game, smallest first (the shortest printed form, then in cgl's order of text), with
//! counts. Each version is loaded and analysed in a session of its own; positions are
//! matched by how cgl prints them.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, ValueEnum};

use super::options::parse_seconds;
use crate::api::{
    render, shown, Bindings, Diag, Facts, ParsedExpr, RenderStyle, Session, SessionConfig, Stop,
};
use crate::api::{DefinitionKind, Value};

/// How `cgl diff` writes what changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// For people.
    Human,
    /// One JSON document.
    Json,
}

/// `cgl diff`.
#[derive(Debug, Args)]
#[command(
    after_help = "Exit status: 0 when no position changed, 1 when some did, 2 when a \
                        file cannot be loaded or the positions cannot be found."
)]
pub struct Diff {
    /// The game file as it was.
    old: PathBuf,
    /// The game file as it is now.
    new: PathBuf,
    /// The positions to start from, an expression evaluated in each file (a position or a
    /// list of them), e.g. '[Kayles(n) for n in 0..20]' [default: the `start` of each game
    /// both files define].
    #[arg(long, value_name = "QUERY")]
    positions: Option<String>,
    /// Most positions reachable from the starts, in each file.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    max_positions: usize,
    /// Changed positions listed at most (all are counted).
    #[arg(long, value_name = "N", default_value_t = 20)]
    show: usize,
    /// How to write what changed.
    #[arg(long, value_enum, default_value_t = DiffFormat::Human)]
    format: DiffFormat,
    /// Stop after this many seconds (each file).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    timeout: Option<Duration>,
}

/// One version: the facts of what it reaches.
struct Side {
    facts: Vec<(String, Facts)>,
}

impl Diff {
    /// Compares the two versions and writes what changed to `out`.
    pub fn run(self, style: RenderStyle, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
        let (old, new) = match (self.side(&self.old, style), self.side(&self.new, style)) {
            (Ok(old), Ok(new)) => (old, new),
            (Err(why), _) | (_, Err(why)) => {
                let _ = write!(err, "{why}");
                return 2;
            }
        };
        let before: BTreeMap<&str, &Facts> =
            old.facts.iter().map(|(p, f)| (p.as_str(), f)).collect();
        let after: BTreeMap<&str, &Facts> =
            new.facts.iter().map(|(p, f)| (p.as_str(), f)).collect();
        let smallest =
            |a: &&str, b: &&str| a.chars().count().cmp(&b.chars().count()).then(a.cmp(b));
        let mut changed: Vec<(&str, Vec<String>)> = before
            .iter()
            .filter_map(|(p, f)| after.get(p).map(|g| (*p, f.changes(g))))
            .filter(|(_, c)| !c.is_empty())
            .collect();
        changed.sort_by(|a, b| smallest(&a.0, &b.0));
        let mut gone: Vec<&str> = before
            .keys()
            .filter(|p| !after.contains_key(*p))
            .copied()
            .collect();
        let mut added: Vec<&str> = after
            .keys()
            .filter(|p| !before.contains_key(*p))
            .copied()
            .collect();
        gone.sort_by(smallest);
        added.sort_by(smallest);
        let (o, n) = (shown(&self.old), shown(&self.new));
        match self.format {
            DiffFormat::Json => {
                let doc = serde_json::json!({
                    "old": { "file": o, "positions": old.facts.len() },
                    "new": { "file": n, "positions": new.facts.len() },
                    "changed": changed.iter().map(|(p, c)| serde_json::json!({"position": p, "changes": c})).collect::<Vec<_>>(),
                    "only_old": gone,
                    "only_new": added,
                });
                let _ = writeln!(
                    out,
                    "{}",
                    serde_json::to_string_pretty(&doc).unwrap_or_default()
                );
            }
            DiffFormat::Human => {
                let _ = writeln!(
                    out,
                    "{} positions in {o}, {} in {n}: {} changed, {} only in {o}, {} only in {n}",
                    old.facts.len(),
                    new.facts.len(),
                    changed.len(),
                    gone.len(),
                    added.len()
                );
                let listed = |out: &mut dyn Write, what: &str, items: &[String]| {
                    if items.is_empty() {
                        return;
                    }
                    let _ = writeln!(out, "{what} (smallest first):");
                    for i in items.iter().take(self.show) {
                        let _ = writeln!(out, "  {i}");
                    }
                    if items.len() > self.show {
                        let _ = writeln!(
                            out,
                            "  ... and {} more (--show N lists more)",
                            items.len() - self.show
                        );
                    }
                };
                let rows: Vec<String> = changed
                    .iter()
                    .map(|(p, c)| format!("{p}: {}", c.join(", ")))
                    .collect();
                listed(out, "changed", &rows);
                listed(
                    out,
                    &format!("only in {o}"),
                    &gone.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                );
                listed(
                    out,
                    &format!("only in {n}"),
                    &added.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                );
            }
        }
        u8::from(!(changed.is_empty() && gone.is_empty() && added.is_empty()))
    }

    /// Loads one version and finds the facts of the positions its starts reach.
    fn side(&self, path: &Path, style: RenderStyle) -> Result<Side, String> {
        let mut session = Session::new(SessionConfig::default());
        let facts = self.facts(&mut session, path).map_err(|diags| {
            diags
                .iter()
                .map(|d| format!("{}\n", render(d, &session.sources, style)))
                .collect::<String>()
        })?;
        Ok(Side { facts })
    }

    fn facts(&self, session: &mut Session, path: &Path) -> Result<Vec<(String, Facts)>, Vec<Diag>> {
        session.set_stop(self.timeout.map_or_else(Stop::new, Stop::after));
        let index = session.load_path(path)?;
        let mut scope = Bindings::new();
        for b in session.file_names(index) {
            scope.bind(b);
        }
        let query = match &self.positions {
            Some(q) => q.clone(),
            None => {
                let games: Vec<String> = session
                    .definitions(index)
                    .into_iter()
                    .filter(|d| matches!(d.kind, DefinitionKind::Game))
                    .map(|d| format!("{}.start", d.name))
                    .collect();
                // The games of this file that have a start; the other file's may differ, and
                // then their positions are only in one.
                let with_start: Vec<String> = games
                    .into_iter()
                    .filter(|g| session.eval_text(g, &[index]).is_ok())
                    .collect();
                if with_start.is_empty() {
                    let d = Diag::error(
                        crate::api::Code::PlotUsage,
                        format!("no game of {} has a `start` to compare from", shown(path)),
                    )
                    .help("give the positions: --positions '[Kayles(n) for n in 0..20]'");
                    return Err(vec![d]);
                }
                format!("[{}]", with_start.join(", "))
            }
        };
        let file = session.add_source("<positions>", query.clone());
        let value = ParsedExpr::parse(file, &query, &(0..query.len()))
            .and_then(|p| session.eval_parsed(&p, &scope).map(|v| (p.span(), v)));
        let (span, value) = value?;
        let starts = match value {
            Value::List(ref items) => items.to_vec(),
            other => vec![other],
        };
        session.position_facts(&starts, span, self.max_positions)
    }
}
