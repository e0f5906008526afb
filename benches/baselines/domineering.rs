//! W8: the canonical value of an empty Domineering rectangle (Left vertical, as CGSuite).
//!
//! The hand-written solver runs the algorithm pycgt and CGSuite run: a board splits into
//! regions no domino spans (orthogonally connected empty cells), whose values add; each
//! region, moved to the corner and taken up to the two reflections that keep vertical
//! vertical, is valued once, as the canonical form of its options. Canonical forms and sums
//! come from cgl's own value table ([`cgl::cgt::ValueTable`], the thread's table of
//! `cgl::value`), and the answer is printed as cgl prints a value: this baseline measures
//! what cgl's rules, positions and splitting cost on top of that engine.

use std::collections::HashMap;

use cgl::cgt::{CgtError, GameId, ValueTable};
use cgl::syntax::ast::Convention;
use cgl::value::{display, with_forms, InstanceId, InstanceNames, Value};

/// A region: its height, width and empty cells, bit `r * w + c` for row `r`, column `c`.
type Region = (u8, u8, u64);

/// Hand-written: bitboards, regions by flood fill, a `HashMap` from normalised regions to
/// values.
pub fn hand(rows: usize, cols: usize) -> Result<String, String> {
    if rows * cols > 64 || rows == 0 || cols == 0 {
        return Err(format!("no board {rows}x{cols} (1 to 64 cells)"));
    }
    let full = if rows * cols == 64 {
        u64::MAX
    } else {
        (1u64 << (rows * cols)) - 1
    };
    let g = with_forms(|table| {
        let mut solver = Solver {
            table,
            memo: HashMap::new(),
        };
        solver.board(rows as u8, cols as u8, full)
    });
    shown(g)
}

/// A value of the thread's form table, printed as cgl prints it.
fn shown(g: Result<GameId, CgtError>) -> Result<String, String> {
    let value = g.and_then(Value::form).map_err(|e| e.to_string())?;
    Ok(display(&value, &NoGames))
}

/// Printing a game value names no game.
struct NoGames;

impl InstanceNames for NoGames {
    fn instance_label(&self, _id: InstanceId) -> &str {
        ""
    }

    fn instance_convention(&self, _id: InstanceId) -> Convention {
        Convention::Normal
    }
}

struct Solver<'t> {
    table: &'t mut ValueTable,
    memo: HashMap<Region, GameId>,
}

impl Solver<'_> {
    /// The value of the empty cells `cells` of an `h` × `w` board: the sum of its regions'.
    fn board(&mut self, h: u8, w: u8, cells: u64) -> Result<GameId, CgtError> {
        let mut total = self.table.zero();
        let mut rest = cells;
        while rest != 0 {
            let region = flood(w, h, rest, rest & rest.wrapping_neg());
            rest &= !region;
            let v = self.region(normalise(h, w, region))?;
            total = self.table.add(total, v)?;
        }
        Ok(total)
    }

    /// The value of one normalised region: Left covers two cells one above the other,
    /// Right two side by side.
    fn region(&mut self, key: Region) -> Result<GameId, CgtError> {
        if let Some(&g) = self.memo.get(&key) {
            return Ok(g);
        }
        let (h, w, cells) = key;
        let mut left = Vec::new();
        let mut right = Vec::new();
        for i in 0..u32::from(h) * u32::from(w) {
            if cells >> i & 1 == 0 {
                continue;
            }
            let (r, c) = (i / u32::from(w), i % u32::from(w));
            if r + 1 < u32::from(h) && cells >> (i + u32::from(w)) & 1 == 1 {
                let after = cells & !(1 << i) & !(1 << (i + u32::from(w)));
                left.push(self.board(h, w, after)?);
            }
            if c + 1 < u32::from(w) && cells >> (i + 1) & 1 == 1 {
                let after = cells & !(1 << i) & !(1 << (i + 1));
                right.push(self.board(h, w, after)?);
            }
        }
        let g = self.table.game(&left, &right)?;
        self.memo.insert(key, g);
        Ok(g)
    }
}

/// The cells of `cells` orthogonally connected to `seed` on a board `w` wide, `h` high.
fn flood(w: u8, h: u8, cells: u64, seed: u64) -> u64 {
    let n = u32::from(w) * u32::from(h);
    let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    // the cells that are not in the last (first) column, so a shift left (right) keeps rows
    let mut not_last = 0u64;
    for r in 0..u32::from(h) {
        for c in 0..u32::from(w) - 1 {
            not_last |= 1 << (r * u32::from(w) + c);
        }
    }
    let not_first = (not_last << 1) & all;
    let mut region = seed;
    loop {
        let grown = region
            | ((region & not_last) << 1)
            | ((region & not_first) >> 1)
            | (region << w)
            | (region >> w);
        let grown = grown & cells;
        if grown == region {
            return region;
        }
        region = grown;
    }
}

/// A region moved to the top left corner of its bounding box, as the least of itself and
/// its three mirror images that keep columns columns (upside down, left to right, both).
fn normalise(h: u8, w: u8, region: u64) -> Region {
    let cells: Vec<(u32, u32)> = (0..u32::from(h) * u32::from(w))
        .filter(|i| region >> i & 1 == 1)
        .map(|i| (i / u32::from(w), i % u32::from(w)))
        .collect();
    let (r0, r1) = (
        cells.iter().map(|c| c.0).min().unwrap_or(0),
        cells.iter().map(|c| c.0).max().unwrap_or(0),
    );
    let (c0, c1) = (
        cells.iter().map(|c| c.1).min().unwrap_or(0),
        cells.iter().map(|c| c.1).max().unwrap_or(0),
    );
    let (bh, bw) = (r1 - r0 + 1, c1 - c0 + 1);
    let mut best: Option<u64> = None;
    for (flip_r, flip_c) in [(false, false), (true, false), (false, true), (true, true)] {
        let mut bits = 0u64;
        for &(r, c) in &cells {
            let rr = if flip_r { r1 - r } else { r - r0 };
            let cc = if flip_c { c1 - c } else { c - c0 };
            bits |= 1 << (rr * bw + cc);
        }
        best = Some(best.map_or(bits, |b| b.min(bits)));
    }
    (bh as u8, bw as u8, best.unwrap_or(0))
}

/// One run of pycgt: its time and peak memory, measured inside the Python process, and its
/// answer printed in cgl's notation.
#[derive(Clone, Debug)]
pub struct PeerRun {
    /// Seconds inside `domineering.rectangle` and `render` (Python's start-up excluded).
    pub secs: f64,
    /// The Python process's peak resident memory (`ru_maxrss`), KiB.
    pub kib: u64,
    /// pycgt's value, read back and printed as cgl prints it.
    pub answer: String,
}

/// The Python program run for pycgt: times `domineering.rectangle(rows, cols)` and prints
/// the seconds, the peak memory and the rendered value on one line.
const PYCGT: &str = "\
import resource, sys, time
from pycgt import render
from pycgt.rulesets import domineering
rows, cols = int(sys.argv[1]), int(sys.argv[2])
started = time.perf_counter()
text = render(domineering.rectangle(rows, cols))
secs = time.perf_counter() - started
print(secs, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, text)
";

/// The interpreter that runs pycgt: `$CGL_PYCGT_PYTHON`, else `python3` (install pycgt 0.2.0
/// in a virtual environment outside the repository and point the variable at its python).
pub fn python() -> String {
    std::env::var("CGL_PYCGT_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

/// Whether `python()` can import pycgt (the table says "not installed" where it cannot).
pub fn installed() -> bool {
    super::common::imports(&python(), "import pycgt")
}

/// pycgt 0.2.0's `domineering.rectangle(rows, cols)`, Left vertical as here. Its rendered
/// value (CGSuite's notation: `+-1`, `Miny(2)`, `{2|-1/2}`) is parsed by cgl's value table
/// and printed as cgl prints it, so the answers compare as strings.
pub fn pycgt(rows: usize, cols: usize) -> Result<PeerRun, String> {
    let out = std::process::Command::new(python())
        .args(["-c", PYCGT, &rows.to_string(), &cols.to_string()])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let why = stderr.lines().rev().find(|l| !l.trim().is_empty());
        return Err(format!("pycgt: {}", why.unwrap_or("failed")));
    }
    let line = stdout.lines().last().unwrap_or_default();
    let mut fields = line.splitn(3, ' ');
    let (Some(secs), Some(kib), Some(text)) = (fields.next(), fields.next(), fields.next()) else {
        return Err(format!("pycgt printed {line:?}"));
    };
    let g = with_forms(|table| table.parse(text))
        .map_err(|e| format!("cannot read pycgt's {text:?}: {e}"))?;
    Ok(PeerRun {
        secs: secs
            .parse()
            .map_err(|_| format!("pycgt printed {line:?}"))?,
        kib: kib.parse().map_err(|_| format!("pycgt printed {line:?}"))?,
        answer: shown(Ok(g))?,
    })
}
