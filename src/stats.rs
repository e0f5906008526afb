//! What a run cost, for `--stats` (`check`, `run`, `eval`) and the REPL's `:stats`: the time
//! spent in each phase and the size of the game graph left behind.
//!
//! [`Stats`] is plain data (numbers and durations), so a `cgl check` worker can send it back
//! with its file's report. Only the times differ from run to run; the sizes are the same for
//! the same file and options, whatever `--jobs` is.

use std::time::Duration;

use crate::analysis::Analyzer;
use crate::eval::compiled::CompiledGames;
use crate::eval::value::InstanceNames;
use crate::graph::{IndexUse, TermId};

/// How much of a program has a compiled form (spec §8), so that a slow game shows what runs
/// in the interpreter: its move rules, and its `terminal if` and `draw if` conditions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Compiled {
    /// Move rules with a compiled form.
    pub rules: usize,
    /// Every move rule of the program.
    pub of_rules: usize,
    /// `terminal if` / `draw if` conditions with a compiled form.
    pub conditions: usize,
    /// Every such condition.
    pub of_conditions: usize,
}

impl Compiled {
    /// Counts a program's rules and conditions, but for the game `skip` (the prelude's, which
    /// no user wrote).
    pub fn of(compiled: &CompiledGames, skip: Option<usize>) -> Compiled {
        let mut c = Compiled::default();
        for (_, game) in compiled
            .games
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != skip)
        {
            c.of_rules += game.rules.len();
            c.rules += game.rules.iter().filter(|r| r.is_some()).count();
            c.of_conditions += game.terminal.len() + game.draw.len();
            c.conditions += game
                .terminal
                .iter()
                .chain(&game.draw)
                .filter(|c| c.is_some())
                .count();
        }
        c
    }

    fn row(&self) -> Row {
        Row::new(
            "compiled",
            (thousands(self.rules), ""),
            format!(
                "of {}, {} of {}",
                counted(self.of_rules, "move rule"),
                thousands(self.conditions),
                counted(self.of_conditions, "condition")
            ),
        )
    }
}

/// How one game instance's positions are found (`indexed` rows), and the bytes a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameIndex {
    /// The instance, as positions print it (`Kayles`, `Subtraction[S = {1, 2}]`).
    pub name: String,
    /// Its positions, by the index that finds them.
    pub index: IndexUse,
    /// What its positions take in the graph, moves aside ([`crate::graph::InstanceIndex`]).
    pub bytes: usize,
    /// Its dense table ranks sorted lists: `dense (sorted)`.
    pub sorted: bool,
}

impl GameIndex {
    fn row(&self) -> Row {
        let positions = self.index.dense + self.index.packed + self.index.hashed;
        // Positions are counted only for instances that have some.
        let per = self.bytes / positions.max(1);
        Row::new(
            format!("  {}", shorten(&self.name, 13)),
            (thousands(positions), ""),
            format!(
                "{}; {} B a position",
                index_use(&self.index, self.sorted),
                thousands(per)
            ),
        )
    }
}

/// `name`, cut to `most` characters with an ellipsis.
fn shorten(name: &str, most: usize) -> String {
    if name.chars().count() <= most {
        return name.to_string();
    }
    let cut: String = name.chars().take(most - 1).collect();
    format!("{cut}…")
}

/// `1 dense, 2 packed, 3 hashed` (`1 dense (sorted)` for a dense table of sorted lists).
fn index_use(index: &IndexUse, sorted: bool) -> String {
    format!(
        "{} dense{}, {} packed, {} hashed",
        thousands(index.dense),
        if sorted { " (sorted)" } else { "" },
        thousands(index.packed),
        thousands(index.hashed)
    )
}

/// The size of a game graph: its terms, split into positions of one game and compounds, its
/// stored moves, the memory it holds, and the estimate that `--max-memory` is checked against.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GraphSize {
    /// Every term interned: positions of one game and compounds ([`crate::graph::GameGraph::len`]).
    pub positions: usize,
    /// Positions of one game instance (atoms).
    pub atoms: usize,
    /// Compounds (sums and the other compounds of several positions, the empty game).
    pub compounds: usize,
    /// Moves stored as edges ([`crate::graph::GameGraph::edge_count`]).
    pub moves: usize,
    /// The memory the graph holds, in bytes ([`Analyzer::measured_bytes`]: the graph and the analyses' memos).
    pub bytes: usize,
    /// The memory estimate the limit counts, in bytes ([`crate::graph::GameGraph::estimated_bytes`]).
    pub estimate: usize,
    /// How the terms are found: a dense table, a packed key or a hash of their value.
    pub index: IndexUse,
    /// The same for each game instance's positions, in the order the instances were made.
    pub games: Vec<GameIndex>,
    /// Positions the solver of `analysis::parallel` keeps beside the graph rather than in it
    /// ([`Analyzer::solved_in_parallel`]).
    pub parallel: Aside,
}

/// The positions solved beside the graph: how many, the bytes they take, and whether they
/// are kept by rank (a byte each) or by packed key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Aside {
    /// The positions kept.
    pub positions: usize,
    /// The memory they take.
    pub bytes: usize,
    /// Kept by rank rather than by key.
    pub by_rank: bool,
}

impl GraphSize {
    /// Measures a graph. Counting compounds looks at every term once, so this costs time in
    /// proportion to the graph: call it once, at the end.
    pub fn of(analyzer: &Analyzer, names: &dyn InstanceNames) -> GraphSize {
        let graph = &analyzer.graph;
        let positions = graph.len();
        let compounds = (0..positions)
            .filter(|&i| graph.compound_of(TermId(i as u32)).is_some())
            .count();
        GraphSize {
            positions,
            atoms: positions - compounds,
            compounds,
            moves: graph.edge_count(),
            bytes: analyzer.measured_bytes(),
            estimate: graph.estimated_bytes(),
            index: graph.index_use(),
            games: graph
                .index_by_instance()
                .into_iter()
                .map(|row| GameIndex {
                    name: names.instance_label(row.inst).to_string(),
                    index: row.index,
                    bytes: row.bytes,
                    sorted: row.sorted,
                })
                .collect(),
            parallel: Aside {
                positions: analyzer.solved_in_parallel(),
                bytes: analyzer.solved_aside_bytes(),
                by_rank: analyzer.solved_by_rank(),
            },
        }
    }

    /// Bytes per position (the graph's terms and the positions solved beside it), or
    /// `None` for an empty graph.
    pub fn bytes_per_position(&self) -> Option<usize> {
        self.bytes
            .checked_div(self.positions + self.parallel.positions)
    }

    /// The rows about the graph: positions, how they are indexed, moves stored, memory.
    fn rows(&self) -> Vec<Row> {
        let mut rows = vec![
            Row::new(
                "positions",
                (thousands(self.positions), ""),
                format!(
                    "{}, {}",
                    counted(self.atoms, "game position"),
                    counted(self.compounds, "compound")
                ),
            ),
            Row::new(
                "indexed",
                (thousands(self.positions), ""),
                index_use(&self.index, false),
            ),
        ];
        rows.extend(self.games.iter().map(GameIndex::row));
        rows.extend([
            Row::new("moves stored", (thousands(self.moves), ""), String::new()),
            Row::new(
                "memory",
                bytes(self.bytes),
                match self.bytes_per_position() {
                    Some(b) => {
                        let (n, unit) = bytes(self.estimate);
                        format!(
                            "{} B a position; --max-memory counts {n} {unit}",
                            thousands(b)
                        )
                    }
                    None => "– a position".to_string(),
                },
            ),
        ]);
        let aside = self.parallel;
        if let Some(each) = aside.bytes.checked_div(aside.positions) {
            let (n, unit) = bytes(aside.bytes);
            let each = thousands(each);
            rows.push(if aside.by_rank {
                Row::new(
                    "rank table",
                    (thousands(aside.positions), ""),
                    format!("positions solved by rank beside the graph, {n} {unit}, {each} B a position"),
                )
            } else {
                Row::new(
                    "key table",
                    (thousands(aside.positions), ""),
                    format!("positions solved by packed key beside the graph, {n} {unit}, {each} B a position"),
                )
            });
        }
        rows
    }
}

/// What the evaluation phase ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// `cgl check`: the expectations evaluated (not those skipped after a timeout).
    Expectations(usize),
    /// `cgl run`: the statements run (`print` and `expect`).
    Statements(usize),
    /// `cgl eval`: the expression (parsed, lowered and evaluated), or none when a `-f` file
    /// did not load.
    Expressions(usize),
}

impl Work {
    /// How many things were evaluated.
    pub fn count(self) -> usize {
        match self {
            Work::Expectations(n) | Work::Statements(n) | Work::Expressions(n) => n,
        }
    }

    fn describe(self) -> String {
        let (n, noun) = match self {
            Work::Expectations(n) => (n, "expectation"),
            Work::Statements(n) => (n, "statement"),
            Work::Expressions(n) => (n, "expression"),
        };
        counted(n, noun)
    }
}

/// What one file (or one `cgl eval`) cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Reading, parsing and lowering the file and its imports (for `eval`, the `-f` files).
    pub load: Duration,
    /// Running the statements (for `check`, the expectations; for `eval`, the expression).
    pub eval: Duration,
    /// What was run.
    pub work: Work,
    /// What of the program runs compiled.
    pub compiled: Compiled,
    /// The game graph at the end.
    pub graph: GraphSize,
}

impl Stats {
    /// The figures of a session whose phases took `load` and `eval`; `prelude` is the game
    /// cgl itself defines, left out of the count of compiled rules.
    pub fn new(
        load: Duration,
        eval: Duration,
        work: Work,
        (compiled, prelude): (&CompiledGames, Option<usize>),
        analyzer: &Analyzer,
        names: &dyn InstanceNames,
    ) -> Stats {
        Stats {
            load,
            eval,
            work,
            compiled: Compiled::of(compiled, prelude),
            graph: GraphSize::of(analyzer, names),
        }
    }

    /// The block `--stats` prints: `stats  TITLE`, then a row per figure.
    pub fn render(&self, title: &str) -> String {
        let mut rows = vec![
            Row::new("parse + lower", duration(self.load), String::new()),
            Row::new("evaluation", duration(self.eval), self.work.describe()),
            self.compiled.row(),
        ];
        rows.extend(self.graph.rows());
        format!("stats  {title}\n{}", render_rows(&rows))
    }
}

/// The REPL's `:stats`: the rows about the session's graph, then how long the last entry
/// took (its text, one-lined and cut short) and how many names are bound at the prompt.
pub fn session(graph: &GraphSize, last: Option<(Duration, &str)>, names: usize) -> String {
    const LONGEST: usize = 40;
    let mut rows = graph.rows();
    if let Some((time, text)) = last {
        let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let shown = if line.chars().count() <= LONGEST {
            line
        } else {
            let cut: String = line.chars().take(LONGEST - 1).collect();
            format!("{cut}…")
        };
        rows.push(Row::new("last entry", duration(time), shown));
    }
    rows.push(Row::new(
        "names bound",
        (thousands(names), ""),
        String::new(),
    ));
    format!("stats  this session\n{}", render_rows(&rows))
}

/// The block that ends `cgl check --stats` over several files: how many files have figures,
/// the time the whole run took (checking `jobs` files at once), and each phase's time and the
/// positions summed over the files (the sums can exceed the whole when files ran at once).
pub fn total(files: &[Stats], wall: Duration, jobs: usize) -> String {
    let summed = "summed over the files";
    let load: Duration = files.iter().map(|s| s.load).sum();
    let eval: Duration = files.iter().map(|s| s.eval).sum();
    let positions: usize = files.iter().map(|s| s.graph.positions).sum();
    let count = files.len();
    let rows = [
        Row::new("wall clock", duration(wall), counted(jobs, "job")),
        Row::new("parse + lower", duration(load), summed.to_string()),
        Row::new("evaluation", duration(eval), summed.to_string()),
        Row::new("positions", (thousands(positions), ""), summed.to_string()),
    ];
    format!(
        "stats  total: {}\n{}",
        counted(count, "file"),
        render_rows(&rows)
    )
}

/// One row of a block: a label, a number with its unit, and a remark.
struct Row {
    label: String,
    value: (String, &'static str),
    detail: String,
}

impl Row {
    fn new(label: impl Into<String>, value: (String, &'static str), detail: String) -> Row {
        Row {
            label: label.into(),
            value,
            detail,
        }
    }
}

/// Rows as text: labels left-aligned, numbers right-aligned, units and remarks after them.
fn render_rows(rows: &[Row]) -> String {
    let mut out = String::new();
    for row in rows {
        let line = format!(
            "  {:<15}{:>9} {:<3}  {}",
            row.label, row.value.0, row.value.1, row.detail
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A count with thousands separators: `1,234,567`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count and a noun, plural unless the count is 1: `1 file`, `1,200 files`.
fn counted(n: usize, noun: &str) -> String {
    format!("{} {noun}{}", thousands(n), if n == 1 { "" } else { "s" })
}

/// A duration as a number and a unit: microseconds below a millisecond, milliseconds (one
/// decimal) below a second, seconds (two decimals) above.
pub fn duration(d: Duration) -> (String, &'static str) {
    let micros = d.as_micros();
    if micros < 1_000 {
        (micros.to_string(), "µs")
    } else if micros < 1_000_000 {
        (format!("{:.1}", d.as_secs_f64() * 1e3), "ms")
    } else {
        (format!("{:.2}", d.as_secs_f64()), "s")
    }
}

/// A size in bytes as a number and a binary unit, one decimal above a KiB.
pub fn bytes(n: usize) -> (String, &'static str) {
    const UNITS: [&str; 3] = ["KiB", "MiB", "GiB"];
    if n < 1 << 10 {
        return (n.to_string(), "B");
    }
    let mut value = n as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    (format!("{value:.1}"), UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(12_345), "12,345");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn durations_and_sizes_pick_a_unit() {
        assert_eq!(duration(Duration::from_micros(850)), ("850".into(), "µs"));
        assert_eq!(
            duration(Duration::from_micros(118_449)),
            ("118.4".into(), "ms")
        );
        assert_eq!(duration(Duration::from_millis(2_346)), ("2.35".into(), "s"));
        assert_eq!(bytes(190), ("190".into(), "B"));
        assert_eq!(bytes(400 << 10), ("400.0".into(), "KiB"));
        assert_eq!(bytes(3 << 20), ("3.0".into(), "MiB"));
        assert_eq!(bytes(5 << 30), ("5.0".into(), "GiB"));
    }

    #[test]
    fn the_block_is_aligned() {
        let stats = Stats {
            load: Duration::from_micros(1_234),
            eval: Duration::from_micros(118_449),
            work: Work::Expectations(42),
            compiled: Compiled {
                rules: 3,
                of_rules: 4,
                conditions: 1,
                of_conditions: 1,
            },
            graph: GraphSize {
                positions: 2_001,
                atoms: 1_990,
                compounds: 11,
                moves: 3_120,
                bytes: 2_001 * 60 + 3_120 * 4,
                estimate: 2_001 * 180 + 3_120 * 20,
                index: IndexUse {
                    dense: 1_990,
                    packed: 0,
                    hashed: 11,
                },
                games: vec![GameIndex {
                    name: "Kayles".into(),
                    index: IndexUse {
                        dense: 1_990,
                        packed: 0,
                        hashed: 0,
                    },
                    bytes: 1_990 * 23,
                    sorted: false,
                }],
                parallel: Aside::default(),
            },
        };
        assert_eq!(
            stats.render("kayles.game"),
            "\
stats  kayles.game
  parse + lower        1.2 ms
  evaluation         118.4 ms   42 expectations
  compiled               3      of 4 move rules, 1 of 1 condition
  positions          2,001      1,990 game positions, 11 compounds
  indexed            2,001      1,990 dense, 0 packed, 11 hashed
    Kayles           1,990      1,990 dense, 0 packed, 0 hashed; 23 B a position
  moves stored       3,120
  memory             129.4 KiB  66 B a position; --max-memory counts 412.7 KiB
"
        );
    }

    #[test]
    fn an_empty_graph_has_no_bytes_per_position() {
        let size = GraphSize::of(&Analyzer::default(), &crate::eval::GameTable::default());
        assert_eq!(size, GraphSize::default());
        assert_eq!(size.bytes_per_position(), None);
        let shown = session(
            &size,
            Some((Duration::from_millis(5), "grundy(\n  Nim(3))")),
            2,
        );
        assert_eq!(
            shown,
            "\
stats  this session
  positions              0      0 game positions, 0 compounds
  indexed                0      0 dense, 0 packed, 0 hashed
  moves stored           0
  memory                 0 B    – a position
  last entry           5.0 ms   grundy( Nim(3))
  names bound            2
"
        );
        assert_eq!(Work::Expressions(1).describe(), "1 expression");
        assert_eq!(Work::Statements(1).describe(), "1 statement");
    }
}
