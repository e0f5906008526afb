//! What passes between `cgl check` and the child process that checks one file for it: the
//! settings the child is started with, and the record it writes back on stdout, a
//! [`FileReport`] as one JSON document (serde). The parent decodes the record into the same
//! report the file would have had in process, and writes it in the chosen format, so the
//! output does not depend on where a file was checked.
//!
//! Every conversion takes its structs apart field by field (no `..`), so that a field added to
//! a report or to the settings does not compile until it crosses the pipe too.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::CheckSettings;
use crate::api::stats::{Aside, Compiled, GameIndex, GraphSize, Stats, Work};
use crate::api::BinaryOp;
use crate::api::Limits;
use crate::api::RenderStyle;
use crate::api::{FailedValues, LoadPolicy, SessionConfig};
use crate::api::{GraphConfig, IndexUse};
use crate::cli::report::{ExpectReport, ExpectStatus, FileReport, Place, Problem};

/// [`CheckSettings`] as the child gets them (`--settings`), the limits already resolved by
/// the parent (`--max-memory`'s share of each file, the defaults of `--confine`). The
/// confined folder is a path, passed apart (`--confine`), since a path need not be UTF-8.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
pub struct WireSettings {
    max_positions: usize,
    explicit: bool,
    max_memory: usize,
    max_stored_moves: usize,
    threads: usize,
    stores: bool,
    max_call_depth: u32,
    max_collection: u64,
    compiled_rules: bool,
    max_file_size: u64,
    timeout: Option<Duration>,
    fancy: bool,
    failed_values: bool,
    stats: bool,
    /// Whether the child writes its progress (beats) on stderr for the parent's line.
    pub beats: bool,
}

impl WireSettings {
    /// The settings of `settings` to send, and the confined folder to pass apart.
    pub fn of(settings: &CheckSettings) -> (WireSettings, Option<PathBuf>) {
        let CheckSettings {
            config: SessionConfig { graph, limits },
            policy,
            timeout,
            style,
            failed_values,
            jobs: _,
            stats,
            progress,
        } = settings;
        let GraphConfig {
            max_positions,
            explicit,
            max_memory,
            max_stored_moves,
            threads,
            stores,
        } = *graph;
        let Limits {
            max_call_depth,
            max_collection,
            compiled_rules,
        } = *limits;
        let LoadPolicy {
            max_file_size,
            confine,
        } = policy;
        let wire = WireSettings {
            max_positions,
            explicit,
            max_memory,
            max_stored_moves,
            threads,
            stores,
            max_call_depth,
            max_collection,
            compiled_rules,
            max_file_size: *max_file_size,
            timeout: *timeout,
            fancy: *style == RenderStyle::Fancy,
            failed_values: *failed_values,
            stats: *stats,
            beats: progress.is_some(),
        };
        (wire, confine.clone())
    }

    /// The settings a child checks its file with (one file: one job, and the child's own
    /// progress, if any, is set up by the child).
    pub fn settings(&self, confine: Option<PathBuf>) -> CheckSettings {
        CheckSettings {
            config: SessionConfig {
                graph: GraphConfig {
                    max_positions: self.max_positions,
                    explicit: self.explicit,
                    max_memory: self.max_memory,
                    max_stored_moves: self.max_stored_moves,
                    threads: self.threads,
                    stores: self.stores,
                },
                limits: Limits {
                    max_call_depth: self.max_call_depth,
                    max_collection: self.max_collection,
                    compiled_rules: self.compiled_rules,
                },
            },
            policy: LoadPolicy {
                max_file_size: self.max_file_size,
                confine,
            },
            timeout: self.timeout,
            style: if self.fancy {
                RenderStyle::Fancy
            } else {
                RenderStyle::Plain
            },
            failed_values: self.failed_values,
            jobs: 1,
            stats: self.stats,
            progress: None,
        }
    }
}

/// A file's report as one JSON document.
pub fn encode(report: &FileReport) -> Result<Vec<u8>, String> {
    serde_json::to_vec(&WireReport::of(report)).map_err(|e| e.to_string())
}

/// The report a child wrote, or why its output is not one.
pub fn decode(bytes: &[u8]) -> Result<FileReport, String> {
    let wire: WireReport = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    wire.report()
}

#[derive(Serialize, Deserialize)]
struct WireReport {
    path: String,
    errors: Vec<Problem>,
    warnings: Vec<Problem>,
    expects: Vec<WireExpect>,
    stats: Option<WireStats>,
}

impl WireReport {
    fn of(report: &FileReport) -> WireReport {
        let FileReport {
            path,
            errors,
            warnings,
            expects,
            stats,
        } = report;
        WireReport {
            path: path.clone(),
            errors: errors.clone(),
            warnings: warnings.clone(),
            expects: expects.iter().map(WireExpect::of).collect(),
            stats: stats.as_ref().map(WireStats::of),
        }
    }

    fn report(self) -> Result<FileReport, String> {
        Ok(FileReport {
            path: self.path,
            errors: self.errors,
            warnings: self.warnings,
            expects: self
                .expects
                .into_iter()
                .map(WireExpect::expect)
                .collect::<Result<_, _>>()?,
            stats: self.stats.map(WireStats::stats),
        })
    }
}

#[derive(Serialize, Deserialize)]
struct WireExpect {
    place: Place,
    text: String,
    status: WireStatus,
}

#[derive(Serialize, Deserialize)]
enum WireStatus {
    Passed,
    Failed {
        problem: Box<Problem>,
        value: Option<String>,
        operator: Option<String>,
        actual: Option<String>,
        expected: Option<String>,
    },
    Skipped,
}

/// The comparisons whose sides a failed `expect` reports ([`FailedValues::operator`] holds
/// one of their symbols).
const COMPARISONS: [BinaryOp; 9] = [
    BinaryOp::In,
    BinaryOp::NotIn,
    BinaryOp::Is,
    BinaryOp::Eq,
    BinaryOp::Ne,
    BinaryOp::Lt,
    BinaryOp::Le,
    BinaryOp::Gt,
    BinaryOp::Ge,
];

impl WireExpect {
    fn of(expect: &ExpectReport) -> WireExpect {
        let ExpectReport {
            place,
            text,
            status,
        } = expect;
        let status = match status {
            ExpectStatus::Passed => WireStatus::Passed,
            ExpectStatus::Skipped => WireStatus::Skipped,
            ExpectStatus::Failed(problem, values) => {
                let FailedValues {
                    value,
                    operator,
                    actual,
                    expected,
                } = values;
                WireStatus::Failed {
                    problem: problem.clone(),
                    value: value.clone(),
                    operator: operator.map(str::to_string),
                    actual: actual.clone(),
                    expected: expected.clone(),
                }
            }
        };
        WireExpect {
            place: place.clone(),
            text: text.clone(),
            status,
        }
    }

    fn expect(self) -> Result<ExpectReport, String> {
        let status = match self.status {
            WireStatus::Passed => ExpectStatus::Passed,
            WireStatus::Skipped => ExpectStatus::Skipped,
            WireStatus::Failed {
                problem,
                value,
                operator,
                actual,
                expected,
            } => {
                let operator = match operator {
                    None => None,
                    Some(op) => Some(
                        COMPARISONS
                            .iter()
                            .map(|c| c.symbol())
                            .find(|s| *s == op)
                            .ok_or_else(|| format!("unknown comparison `{op}`"))?,
                    ),
                };
                let values = FailedValues {
                    value,
                    operator,
                    actual,
                    expected,
                };
                ExpectStatus::Failed(problem, values)
            }
        };
        Ok(ExpectReport {
            place: self.place,
            text: self.text,
            status,
        })
    }
}

#[derive(Serialize, Deserialize)]
enum WireWork {
    Expectations(usize),
    Statements(usize),
    Expressions(usize),
}

#[derive(Serialize, Deserialize)]
struct WireStats {
    load: Duration,
    eval: Duration,
    work: WireWork,
    /// Rules compiled, rules, conditions compiled, conditions.
    compiled: [usize; 4],
    /// Positions, atoms, compounds, moves, bytes, estimate; solved beside the graph, their
    /// bytes, 1 if by rank.
    graph: [usize; 9],
    /// Dense, packed, hashed.
    index: [usize; 3],
    /// Each game instance's name and dense, packed, hashed, bytes, 1 if its dense table
    /// ranks sorted lists.
    games: Vec<(String, [usize; 5])>,
}

impl WireStats {
    fn of(stats: &Stats) -> WireStats {
        let Stats {
            load,
            eval,
            work,
            compiled:
                Compiled {
                    rules,
                    of_rules,
                    conditions,
                    of_conditions,
                },
            graph:
                GraphSize {
                    positions,
                    atoms,
                    compounds,
                    moves,
                    bytes,
                    estimate,
                    index:
                        IndexUse {
                            dense,
                            packed,
                            hashed,
                        },
                    parallel:
                        Aside {
                            positions: aside,
                            bytes: aside_bytes,
                            by_rank,
                        },
                    ref games,
                },
        } = *stats;
        WireStats {
            load,
            eval,
            work: match work {
                Work::Expectations(n) => WireWork::Expectations(n),
                Work::Statements(n) => WireWork::Statements(n),
                Work::Expressions(n) => WireWork::Expressions(n),
            },
            compiled: [rules, of_rules, conditions, of_conditions],
            graph: [
                positions,
                atoms,
                compounds,
                moves,
                bytes,
                estimate,
                aside,
                aside_bytes,
                usize::from(by_rank),
            ],
            index: [dense, packed, hashed],
            games: games
                .iter()
                .map(|g| {
                    let i = g.index;
                    let sorted = usize::from(g.sorted);
                    (
                        g.name.clone(),
                        [i.dense, i.packed, i.hashed, g.bytes, sorted],
                    )
                })
                .collect(),
        }
    }

    fn stats(self) -> Stats {
        let [rules, of_rules, conditions, of_conditions] = self.compiled;
        let [positions, atoms, compounds, moves, bytes, estimate, aside, aside_bytes, by_rank] =
            self.graph;
        let [dense, packed, hashed] = self.index;
        Stats {
            load: self.load,
            eval: self.eval,
            work: match self.work {
                WireWork::Expectations(n) => Work::Expectations(n),
                WireWork::Statements(n) => Work::Statements(n),
                WireWork::Expressions(n) => Work::Expressions(n),
            },
            compiled: Compiled {
                rules,
                of_rules,
                conditions,
                of_conditions,
            },
            graph: GraphSize {
                positions,
                atoms,
                compounds,
                moves,
                bytes,
                estimate,
                index: IndexUse {
                    dense,
                    packed,
                    hashed,
                },
                games: self
                    .games
                    .into_iter()
                    .map(|(name, [dense, packed, hashed, bytes, sorted])| GameIndex {
                        name,
                        index: IndexUse {
                            dense,
                            packed,
                            hashed,
                        },
                        bytes,
                        sorted: sorted == 1,
                    })
                    .collect(),
                parallel: Aside {
                    positions: aside,
                    bytes: aside_bytes,
                    by_rank: by_rank == 1,
                },
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Code;

    #[test]
    fn every_comparison_crosses_the_pipe() {
        for op in COMPARISONS {
            assert!(op.is_comparison(), "{op:?}");
        }
        let problem = Problem::plain(Code::CheckFailed, "m".into(), None, "r".into());
        for op in COMPARISONS.map(BinaryOp::symbol) {
            let report = FileReport {
                path: "a.game".into(),
                errors: Vec::new(),
                warnings: Vec::new(),
                expects: vec![ExpectReport {
                    place: Place {
                        file: "a.game".into(),
                        line: 1,
                        column: 8,
                        end_line: 1,
                        end_column: 9,
                        start: 7,
                        end: 8,
                    },
                    text: "x".into(),
                    status: ExpectStatus::Failed(
                        Box::new(problem.clone()),
                        FailedValues {
                            value: Some("false".into()),
                            operator: Some(op),
                            actual: Some("1".into()),
                            expected: None,
                        },
                    ),
                }],
                stats: None,
            };
            let back =
                decode(&encode(&report).unwrap_or_default()).unwrap_or_else(|e| panic!("{e}"));
            let ExpectStatus::Failed(_, values) = &back.expects[0].status else {
                panic!("not failed: {back:?}");
            };
            assert_eq!(values.operator, Some(op));
        }
    }

    #[test]
    fn garbled_records_are_refused() {
        for text in [
            "",
            "{",
            "{\"path\":\"a\"}",
            "{\"path\":\"a\",\"errors\":[{\"code\":\"cgl::no::such\",\"warning\":false,\
             \"message\":\"\",\"place\":null,\"labels\":[],\"notes\":[],\"help\":null,\
             \"rendered\":\"\"}],\"warnings\":[],\"expects\":[],\"stats\":null}",
        ] {
            assert!(decode(text.as_bytes()).is_err(), "{text}");
        }
    }
}
