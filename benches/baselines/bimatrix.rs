//! W9: every Nash equilibrium of a random n × n bimatrix game.
//!
//! The game of a size is fixed: payoffs in -1000..=1000 from a xorshift generator seeded by
//! the size, so every implementation solves the same one (random payoffs from 2,001 values
//! are nondegenerate, and the three answers agree that support enumeration is complete).
//! The peers:
//!
//! - cgl: `nash(G).2` of the game written as a `table` in a `.game` source (support
//!   enumeration at 6 × 6, vertex enumeration from 8 × 8, where it is the faster; exact);
//! - `hand`: `cgl::strategic::Game::nash` called directly on the matrices,
//!   what the language adds on top of cgl's own algorithm (as W8's `hand` runs over
//!   `cgl::cgt`);
//! - nashpy 0.0.43's `vertex_enumeration()` (floating point, every extreme equilibrium:
//!   every equilibrium of these games) in Python, as W8 runs pycgt: `$CGL_NASHPY_PYTHON`
//!   (default `python3`). Its `support_enumeration` is not the peer because it misses
//!   equilibria of these games at its default tolerance (1 of 3 on 6 × 6 and 8 × 8, none of
//!   the 13 on 10 × 10; spec/performance.md).
//!
//! Answers compare as text: each equilibrium's probabilities as decimals with 6 places
//! (cgl's exact fractions converted, nashpy's floats rounded), one equilibrium per line,
//! sorted.

use super::domineering::PeerRun;

/// The payoff matrices (A for the row player, B for the column player) of the size.
pub fn game(n: usize) -> (Vec<Vec<i64>>, Vec<Vec<i64>>) {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15 ^ (n as u64).wrapping_mul(0x0100_0000_01b3);
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 2001) as i64 - 1000
    };
    let a: Vec<Vec<i64>> = (0..n).map(|_| (0..n).map(|_| next()).collect()).collect();
    let b: Vec<Vec<i64>> = (0..n).map(|_| (0..n).map(|_| next()).collect()).collect();
    (a, b)
}

/// The game as a cgl source: `game G { player Row in 0..n  player Col in 0..n  table [...] }`.
pub fn cgl_source(n: usize) -> String {
    let (a, b) = game(n);
    let rows: Vec<String> = (0..n)
        .map(|i| {
            let cells: Vec<String> = (0..n)
                .map(|j| format!("({}, {})", a[i][j], b[i][j]))
                .collect();
            format!("    [{}]", cells.join(", "))
        })
        .collect();
    format!(
        "game G {{\n    player Row in 0..{n}\n    player Col in 0..{n}\n    table [\n{}\n    ]\n}}\n",
        rows.join(",\n")
    )
}

/// A probability as a decimal with 6 places (`-0.000000` is written `0.000000`).
fn decimal(x: f64) -> String {
    let text = format!("{x:.6}");
    if text == "-0.000000" {
        "0.000000".into()
    } else {
        text
    }
}

/// cgl's printed list of equilibria, `[([1/2, 1/2], [1, 0]), ...]`, in the shared form.
pub fn canonical(shown: &str) -> Result<String, String> {
    let mut lines = Vec::new();
    // Each equilibrium is `([...], [...])`: the numbers between brackets, two lists each.
    let mut lists: Vec<Vec<String>> = Vec::new();
    let mut rest = shown;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        // The outer list's `[` is followed by `(` or `]`.
        if after.starts_with('(') || after.starts_with(']') {
            rest = after;
            continue;
        }
        let close = after
            .find(']')
            .ok_or_else(|| format!("unbalanced answer {shown:?}"))?;
        let numbers = after[..close]
            .split(',')
            .map(|t| {
                let t = t.trim();
                let value = match t.split_once('/') {
                    Some((p, q)) => {
                        let (p, q): (f64, f64) = (
                            p.parse().map_err(|_| format!("not a number: {t:?}"))?,
                            q.parse().map_err(|_| format!("not a number: {t:?}"))?,
                        );
                        p / q
                    }
                    None => t.parse().map_err(|_| format!("not a number: {t:?}"))?,
                };
                Ok(decimal(value))
            })
            .collect::<Result<Vec<String>, String>>()?;
        lists.push(numbers);
        rest = &after[close + 1..];
    }
    if !lists.len().is_multiple_of(2) {
        return Err(format!("an odd number of strategies in {shown:?}"));
    }
    for pair in lists.chunks(2) {
        lines.push(format!("{} | {}", pair[0].join(" "), pair[1].join(" ")));
    }
    lines.sort();
    Ok(lines.join("\n"))
}

/// cgl's library, called directly: every equilibrium in the shared form.
pub fn hand(n: usize) -> Result<String, String> {
    use cgl::num::Rational;
    let (a, b) = game(n);
    let cells = (0..n)
        .flat_map(|i| {
            let (a, b) = (&a, &b);
            (0..n).flat_map(move |j| [Rational::int(a[i][j]), Rational::int(b[i][j])])
        })
        .collect();
    let g = cgl::strategic::Game::new(vec!["Row".into(), "Col".into()], vec![n, n], cells)
        .ok_or("the payoffs do not fit the game")?;
    let found = g
        .nash(&|| false)
        .map_err(|e| format!("nash refused: {e:?}"))?
        .equilibria;
    let mut lines: Vec<String> = found
        .iter()
        .map(|(x, y)| {
            let part = |m: &[cgl::strategic::Q]| {
                m.iter()
                    .map(|p| {
                        let (num, den) = (p.numer().to_string(), p.denom().to_string());
                        decimal(
                            num.parse::<f64>().unwrap_or(f64::NAN)
                                / den.parse::<f64>().unwrap_or(f64::NAN),
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            format!("{} | {}", part(x), part(y))
        })
        .collect();
    lines.sort();
    Ok(lines.join("\n"))
}

/// The Python program run for nashpy: reads the matrices, times vertex enumeration and
/// prints the seconds, the peak memory and the equilibria (one per `;`) on one line.
const NASHPY: &str = "\
import json, resource, sys, time
import numpy as np
import nashpy
a, b = (np.array(m, dtype=float) for m in json.loads(sys.argv[1]))
game = nashpy.Game(a, b)
started = time.perf_counter()
found = list(game.vertex_enumeration())
secs = time.perf_counter() - started
def dec(x):
    t = '%.6f' % x
    return '0.000000' if t == '-0.000000' else t
lines = sorted(' '.join(dec(p) for p in x) + ' | ' + ' '.join(dec(p) for p in y) for x, y in found)
print(secs, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, ';'.join(lines))
";

/// The interpreter that runs nashpy: `$CGL_NASHPY_PYTHON`, else `python3` (install nashpy in
/// a virtual environment outside the repository and point the variable at its python).
pub fn python() -> String {
    std::env::var("CGL_NASHPY_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

/// Whether `python()` can import nashpy and numpy (the table says "not installed" where it
/// cannot).
pub fn installed() -> bool {
    super::common::imports(&python(), "import numpy, nashpy")
}

/// nashpy's vertex enumeration of the size's game, in its own Python process.
pub fn nashpy(n: usize) -> Result<PeerRun, String> {
    let (a, b) = game(n);
    let matrix = |m: &[Vec<i64>]| {
        let rows: Vec<String> = m
            .iter()
            .map(|r| {
                let cells: Vec<String> = r.iter().map(ToString::to_string).collect();
                format!("[{}]", cells.join(","))
            })
            .collect();
        format!("[{}]", rows.join(","))
    };
    let arg = format!("[{},{}]", matrix(&a), matrix(&b));
    let out = std::process::Command::new(python())
        .args(["-c", NASHPY, &arg])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let why = stderr.lines().rev().find(|l| !l.trim().is_empty());
        return Err(format!("nashpy: {}", why.unwrap_or("failed")));
    }
    let line = stdout.lines().last().unwrap_or_default();
    let mut fields = line.splitn(3, ' ');
    let (Some(secs), Some(kib), Some(text)) = (fields.next(), fields.next(), fields.next()) else {
        return Err(format!("nashpy printed {line:?}"));
    };
    Ok(PeerRun {
        secs: secs
            .parse()
            .map_err(|_| format!("nashpy printed {line:?}"))?,
        kib: kib
            .parse()
            .map_err(|_| format!("nashpy printed {line:?}"))?,
        answer: text.replace(';', "\n"),
    })
}
