//! The yardstick (issue 49): `../shared/bench/limit`'s hand-optimised solvers, built outside
//! the repository (its README: `cp -r ../shared/bench/limit /tmp/limit && cd /tmp/limit &&
//! cargo build --release`) and run as a program of its own. It is never copied into the
//! project; this file only says how to run it on a workload and how to compare its answer
//! line with cgl's answer.
//!
//! Its answers are summaries (`kayles N=19999 sum=... max=8 digest=...`), not cgl's printed
//! value, so [`view`] computes from cgl's answer the fields of that line which the answer
//! determines, and [`reduce`] keeps those fields of the yardstick's line: the two must be
//! equal.

use std::path::PathBuf;

/// The variable that names the yardstick's `limit` binary.
pub const VAR: &str = "CGL_YARDSTICK";

/// Where the README builds it.
const DEFAULT: &str = "/tmp/limit/target/release/limit";

/// The yardstick's binary: `$CGL_YARDSTICK`, or the README's build in /tmp if it is there.
pub fn binary() -> Option<PathBuf> {
    let path = std::env::var_os(VAR).map_or_else(|| PathBuf::from(DEFAULT), PathBuf::from);
    path.is_file().then_some(path)
}

/// Its arguments for a workload at a size, if it solves that workload.
pub fn args(workload: &str, size: &str) -> Option<Vec<String>> {
    let words = |w: &[&str]| Some(w.iter().map(|s| s.to_string()).collect());
    match workload {
        // cgl's W1 asks for n in 0..N; the yardstick solves 0..=N.
        "W1" => {
            let n: usize = size.parse().ok()?;
            words(&["kayles", &(n.checked_sub(1)?).to_string()])
        }
        "W2" => words(&["grundy", size]),
        "W3" => match size {
            "3x3" => words(&["ttt", "3", "3", "3"]),
            "4x4" | "4x4-param" => words(&["ttt", "4", "4", "3"]),
            _ => None,
        },
        "W4" => {
            let (r, c) = size.split_once('x')?;
            words(&["chomp", r, c])
        }
        "W5" => words(&["wythoff", size]),
        _ => None,
    }
}

/// The fields of the yardstick's answer line kept for the comparison, space-separated.
fn fields(workload: &str) -> &'static [&'static str] {
    match workload {
        "W1" => &["sum", "max", "digest"],
        "W2" => &["sum", "max", "digest", "zeros"],
        "W3" => &["positions", "start"],
        "W4" => &["positions", "start"],
        "W5" => &["P", "sumP"],
        _ => &[],
    }
}

/// The yardstick's answer line reduced to the compared fields (a tie's remoteness, which cgl
/// does not give, is dropped: `start=tie`).
pub fn reduce(workload: &str, line: &str) -> String {
    let wanted = fields(workload);
    let kept: Vec<String> = line
        .split_whitespace()
        .filter_map(|field| {
            let (key, value) = field.split_once('=')?;
            wanted.contains(&key).then(|| {
                let value = if key == "start" && value.starts_with("tie/") {
                    "tie"
                } else {
                    value
                };
                format!("{key}={value}")
            })
        })
        .collect();
    kept.join(" ")
}

const MODP: u64 = 1_000_000_007;

/// The same fields computed from cgl's answer (as cgl prints the workload's query).
pub fn view(workload: &str, answer: &str) -> Result<String, String> {
    let ints = |text: &str| -> Result<Vec<i64>, String> {
        text.split(|c: char| !(c.is_ascii_digit() || c == '-'))
            .filter(|w| !w.is_empty())
            .map(|w| w.parse().map_err(|e| format!("{w}: {e}")))
            .collect()
    };
    match workload {
        "W1" | "W2" => {
            // W1 lists g(0), g(1), ...; W2 g(1), g(2), ...
            let first = if workload == "W1" { 0 } else { 1 };
            let g = ints(answer)?;
            let (mut sum, mut max, mut digest, mut zeros) = (0i64, 0i64, 0u64, 0usize);
            for (i, &v) in g.iter().enumerate() {
                let n = (i + first) as u64;
                sum += v;
                max = max.max(v);
                digest = (digest + (n + 1) * v as u64) % MODP;
                zeros += usize::from(v == 0);
            }
            Ok(if workload == "W1" {
                format!("sum={sum} max={max} digest={digest}")
            } else {
                format!("sum={sum} max={max} digest={digest} zeros={zeros}")
            })
        }
        "W3" | "W4" => {
            // `(reachable, outcome, remoteness, ...)`
            let inner = answer.trim_start_matches('(');
            let mut parts = inner.splitn(4, ", ");
            let (Some(positions), Some(outcome), Some(rem)) =
                (parts.next(), parts.next(), parts.next())
            else {
                return Err(format!("not a W3/W4 answer: {answer:.60}"));
            };
            let class = match outcome {
                "N" => "win",
                "P" => "lose",
                _ => "tie",
            };
            Ok(match (workload, class) {
                ("W3", "tie") => format!("positions={positions} start=tie"),
                ("W3", _) => format!("positions={positions} start={class}/{rem}"),
                _ => format!("positions={positions} start={outcome}"),
            })
        }
        "W5" => {
            let v = ints(answer)?;
            let sum: i64 = v.iter().sum();
            Ok(format!("P={} sumP={sum}", v.len() / 2))
        }
        _ => Err(format!("the yardstick has no {workload}")),
    }
}
