//! W3: tic-tac-toe solved: the 3 × 3 game, and three in a row on a 4 × 4 board.
//!
//! The answer is cgl's `(reachable(S), outcome(S), remoteness(S) or -1 for a draw,
//! [outcome(m) for m in moves(S)], [[remoteness(q) or -1 for q in moves(m)] for m in
//! moves(S)])`, S the empty board. A board is a list of cells (0 empty, 1 X, 2 O) read row by
//! row; X moves when both have as many marks; a board is over when someone owns a line or it
//! is full, and a full board where nobody owns a line is a draw.

use std::collections::HashMap;

use super::common::{combine, list, solve_dense, solve_packed, Memo, Terminal, Val};

/// A board: its side and the lines of three that win.
#[derive(Clone, Debug)]
pub struct Board {
    side: usize,
    lines: Vec<[usize; 3]>,
}

impl Board {
    /// A `side × side` board where three in a row (across, down or diagonally) wins.
    pub fn new(side: usize) -> Board {
        let mut lines = Vec::new();
        let side = side as isize;
        for r in 0..side {
            for c in 0..side {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let (r2, c2) = (r + 2 * dr, c + 2 * dc);
                    if (0..side).contains(&r2) && (0..side).contains(&c2) {
                        let cell = |t: isize| ((r + t * dr) * side + c + t * dc) as usize;
                        lines.push([cell(0), cell(1), cell(2)]);
                    }
                }
            }
        }
        Board {
            side: side as usize,
            lines,
        }
    }

    /// The winning lines, each as its three cells in increasing order.
    pub fn lines(&self) -> &[[usize; 3]] {
        &self.lines
    }

    fn cells(&self) -> usize {
        self.side * self.side
    }

    fn won(&self, b: &[u8], p: u8) -> bool {
        self.lines.iter().any(|l| l.iter().all(|&i| b[i] == p))
    }

    fn turn(b: &[u8]) -> u8 {
        let x = b.iter().filter(|&&c| c == 1).count();
        let o = b.iter().filter(|&&c| c == 2).count();
        if x == o {
            1
        } else {
            2
        }
    }

    /// Whether a board is over, and how.
    fn terminal(&self, b: &[u8]) -> Terminal {
        if self.won(b, 1) || self.won(b, 2) {
            Terminal::Lost
        } else if !b.contains(&0) {
            Terminal::Draw
        } else {
            Terminal::No
        }
    }
}

/// Hand-written: a board is its base-3 number, an index into one byte per possible board
/// (3^16 bytes = 43 MB for 4 × 4), decoded into a bitmask per player to test the lines;
/// solved by [`solve_dense`].
pub fn hand(board: &Board) -> Result<String, String> {
    let n = board.cells();
    let pow3: Vec<u32> = (0..n).map(|i| 3u32.pow(i as u32)).collect();
    let ids = 3usize.pow(n as u32);
    let lines: Vec<u32> = board
        .lines()
        .iter()
        .map(|l| l.iter().map(|&i| 1u32 << i).sum())
        .collect();
    let all = (1u32 << n) - 1;
    let mut expand = |id: u32, out: &mut Vec<u32>| {
        let (mut x, mut o) = (0u32, 0u32);
        let mut code = id;
        for i in 0..n {
            match code % 3 {
                1 => x |= 1 << i,
                2 => o |= 1 << i,
                _ => {}
            }
            code /= 3;
        }
        if lines.iter().any(|&l| x & l == l || o & l == l) {
            return Terminal::Lost;
        }
        let empty = all & !(x | o);
        if empty == 0 {
            return Terminal::Draw;
        }
        let turn = if x.count_ones() == o.count_ones() {
            1
        } else {
            2
        };
        let mut e = empty;
        while e != 0 {
            let i = e.trailing_zeros() as usize;
            out.push(id + turn * pow3[i]);
            e &= e - 1;
        }
        Terminal::No
    };
    let solved = solve_dense(ids, 0, &mut expand)?;
    answer(&solved, solved.reached, 0, &mut expand)
}

/// Packed: a board is X's bit mask and O's above it in one word, solved in the fastest
/// hashed table these baselines have ([`super::common::Packed`]); the lines are tested on the
/// masks, as `hand` does after decoding. It measures what hashing costs a solver that does
/// not number the boards densely.
pub fn packed(board: &Board) -> Result<String, String> {
    let n = board.cells();
    if 2 * n > 56 {
        return Err(format!("{n} cells: at most 28 pack"));
    }
    let lines: Vec<u64> = board
        .lines()
        .iter()
        .map(|l| l.iter().map(|&i| 1u64 << i).sum())
        .collect();
    let all = (1u64 << n) - 1;
    let expand = |key: u64, out: &mut Vec<u64>| {
        let (x, o) = (key & all, key >> n);
        if lines.iter().any(|&l| x & l == l || o & l == l) {
            return Terminal::Lost;
        }
        let empty = all & !(x | o);
        if empty == 0 {
            return Terminal::Draw;
        }
        let shift = if x.count_ones() == o.count_ones() {
            0
        } else {
            n
        };
        let mut e = empty;
        while e != 0 {
            out.push(key | (e & e.wrapping_neg()) << shift);
            e &= e - 1;
        }
        Terminal::No
    };
    let mut expand = expand;
    let solved = solve_packed(0, &mut expand)?;
    answer(&solved, solved.reached, 0, &mut expand)
}

/// The workload's answer from a solved table: the boards reached, the start's outcome and
/// remoteness, its options' outcomes and their options' remotenesses, in `expand`'s order.
fn answer<M: Memo, E>(
    solved: &M,
    reached: usize,
    start: M::Key,
    expand: &mut E,
) -> Result<String, String>
where
    E: FnMut(M::Key, &mut Vec<M::Key>) -> Terminal,
{
    let mut moves = |key| {
        let mut out = Vec::new();
        expand(key, &mut out);
        out
    };
    let v = solved.solved(start)?;
    let mut outcomes = Vec::new();
    let mut deeper = Vec::new();
    for m in moves(start) {
        outcomes.push(solved.solved(m)?.outcome());
        let mut rems = Vec::new();
        for q in moves(m) {
            rems.push(solved.solved(q)?.rem_or_minus_one());
        }
        deeper.push(list(rems));
    }
    Ok(format!(
        "({}, {}, {}, {}, {})",
        reached,
        v.outcome(),
        v.rem_or_minus_one(),
        list(outcomes),
        list(deeper)
    ))
}

/// Hash map: a memoised recursive function from boards (`Vec<u8>`) to values; the options
/// of a board collected in a `Vec` of boards.
pub fn map(board: &Board) -> Result<String, String> {
    let mut memo: HashMap<Vec<u8>, Val> = HashMap::new();
    let start = vec![0u8; board.cells()];
    let v = solve_map(board, &start, &mut memo);
    let val = |b: &Vec<u8>| memo.get(b).copied().ok_or("board not solved".to_string());
    let mut outcomes = Vec::new();
    let mut deeper = Vec::new();
    for m in moves(board, &start) {
        outcomes.push(val(&m)?.outcome());
        let mut rems = Vec::new();
        for q in moves(board, &m) {
            rems.push(val(&q)?.rem_or_minus_one());
        }
        deeper.push(list(rems));
    }
    Ok(format!(
        "({}, {}, {}, {}, {})",
        memo.len(),
        v.outcome(),
        v.rem_or_minus_one(),
        list(outcomes),
        list(deeper)
    ))
}

fn moves(board: &Board, b: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    if board.terminal(b) == Terminal::No {
        let turn = Board::turn(b);
        for i in 0..b.len() {
            if b[i] == 0 {
                let mut next = b.to_vec();
                next[i] = turn;
                out.push(next);
            }
        }
    }
    out
}

fn solve_map(board: &Board, b: &Vec<u8>, memo: &mut HashMap<Vec<u8>, Val>) -> Val {
    if let Some(&v) = memo.get(b) {
        return v;
    }
    let v = match board.terminal(b) {
        Terminal::Lost => Val::Rem(0),
        Terminal::Draw => Val::Draw,
        Terminal::No => {
            let mut values = Vec::new();
            for m in moves(board, b) {
                values.push(solve_map(board, &m, memo));
            }
            combine(values)
        }
    };
    memo.insert(b.clone(), v);
    v
}
