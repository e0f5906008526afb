//! Pieces shared by the baselines: the mex bitset, the value of a position with draws, the
//! dense solver of the hand-written state-space baselines, and printing as cgl prints.

/// The least excluded value of a set of small integers, as a bitset reused between
/// positions: clearing costs only the words that were used.
#[derive(Debug, Default)]
pub struct Mex {
    words: Vec<u64>,
    used: usize,
}

impl Mex {
    /// An empty set.
    pub fn new() -> Mex {
        Mex::default()
    }

    /// Empties the set.
    pub fn clear(&mut self) {
        for w in &mut self.words[..self.used] {
            *w = 0;
        }
        self.used = 0;
    }

    /// Adds `v`.
    #[inline]
    pub fn insert(&mut self, v: u32) {
        let word = (v / 64) as usize;
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1 << (v % 64);
        self.used = self.used.max(word + 1);
    }

    /// The least value not in the set.
    pub fn least(&self) -> u32 {
        let mut base = 0;
        for &w in &self.words[..self.used] {
            if w != u64::MAX {
                return base + w.trailing_ones();
            }
            base += 64;
        }
        base
    }
}

/// The value of a position in a game that may have draws: a draw, or the remoteness of a
/// position that is not (even: `P`, odd: `N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    /// Nobody can force a win.
    Draw,
    /// The Kalmár–Steinhaus remoteness.
    Rem(u32),
}

impl Val {
    /// The outcome letter cgl prints: `N`, `P` or `D`.
    pub fn outcome(self) -> &'static str {
        match self {
            Val::Draw => "D",
            Val::Rem(r) if r % 2 == 0 => "P",
            Val::Rem(_) => "N",
        }
    }

    /// The remoteness, or -1 for a draw (what the workload queries print for a draw).
    pub fn rem_or_minus_one(self) -> i64 {
        match self {
            Val::Draw => -1,
            Val::Rem(r) => i64::from(r),
        }
    }
}

/// The value of a non-terminal position from its options' values: `N` (1 + the least even
/// remoteness) if an option is `P`, else `D` if an option is a draw, else `P` (1 + the
/// greatest remoteness). This is cgl's outcome and remoteness recurrence (spec §8).
pub fn combine(options: impl IntoIterator<Item = Val>) -> Val {
    let mut least_even: Option<u32> = None;
    let mut greatest = 0;
    let mut draw = false;
    for v in options {
        match v {
            Val::Draw => draw = true,
            Val::Rem(r) if r % 2 == 0 => least_even = Some(least_even.map_or(r, |e| e.min(r))),
            Val::Rem(r) => greatest = greatest.max(r),
        }
    }
    match least_even {
        Some(e) => Val::Rem(e + 1),
        None if draw => Val::Draw,
        None => Val::Rem(greatest + 1),
    }
}

/// A terminal position of a state-space game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terminal {
    /// Not terminal: the options were pushed.
    No,
    /// Terminal and lost for the player to move (normal play).
    Lost,
    /// Terminal and drawn.
    Draw,
}

/// The solved part of a dense state space: one byte per position id.
pub struct Dense {
    /// 0: not reached; 1: being solved; 2: draw; 3 + r: remoteness r.
    table: Vec<u8>,
    /// Positions reached from the start, the start included.
    pub reached: usize,
}

impl Dense {
    /// The value of a solved position.
    pub fn val(&self, id: u32) -> Option<Val> {
        match self.table.get(id as usize).copied() {
            Some(2) => Some(Val::Draw),
            Some(v) if v >= 3 => Some(Val::Rem(u32::from(v - 3))),
            _ => None,
        }
    }
}

/// Solves (outcome and remoteness) every position reachable from `start` in a game whose
/// positions have ids below `ids`, by an iterative depth-first search: `expand(id, stack)`
/// pushes the ids of the options of `id` onto `stack` (the options of all positions on the
/// search path share that one stack, so nothing is allocated per position) and says whether
/// `id` is terminal.
pub fn solve_dense(
    ids: usize,
    start: u32,
    mut expand: impl FnMut(u32, &mut Vec<u32>) -> Terminal,
) -> Result<Dense, String> {
    let mut table = vec![0u8; ids];
    let mut kids: Vec<u32> = Vec::new();
    // (position, where its options start on `kids`, the next option to look at)
    let mut frames: Vec<(u32, usize, usize)> = Vec::new();
    let mut reached = 1;
    let first = kids.len();
    match expand(start, &mut kids) {
        Terminal::No => {
            table[start as usize] = 1;
            frames.push((start, first, first));
        }
        Terminal::Lost => table[start as usize] = 3,
        Terminal::Draw => table[start as usize] = 2,
    }
    while let Some(frame) = frames.last_mut() {
        let (id, begin, next) = *frame;
        if next < kids.len() {
            frame.2 += 1;
            let kid = kids[next];
            match table[kid as usize] {
                0 => {
                    reached += 1;
                    let first = kids.len();
                    match expand(kid, &mut kids) {
                        Terminal::No => {
                            table[kid as usize] = 1;
                            frames.push((kid, first, first));
                        }
                        Terminal::Lost => table[kid as usize] = 3,
                        Terminal::Draw => table[kid as usize] = 2,
                    }
                }
                1 => return Err(format!("the moves loop at position {kid}")),
                _ => {}
            }
            continue;
        }
        let v = combine(kids[begin..].iter().map(|&k| match table[k as usize] {
            2 => Val::Draw,
            v => Val::Rem(u32::from(v) - 3),
        }));
        table[id as usize] = match v {
            Val::Draw => 2,
            Val::Rem(r) => u8::try_from(r + 3).map_err(|_| "remoteness over 252".to_string())?,
        };
        kids.truncate(begin);
        frames.pop();
    }
    Ok(Dense { table, reached })
}

/// `[a, b, c]`, as cgl prints a list.
pub fn list<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    format!("[{}]", items.join(", "))
}
