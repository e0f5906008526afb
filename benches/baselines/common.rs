//! Pieces shared by the baselines: the mex bitset, the value of a position with draws, the
//! solver of the hand-written state-space baselines over a dense or a packed hashed table,
//! printing as cgl prints, and whether a Python peer is installed.

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

/// A solver's table of values, one byte a position: 0 not reached, 1 being solved, 2 a
/// draw, 3 + r remoteness r.
pub trait Memo {
    /// What names a position in the table.
    type Key: Copy + std::fmt::Debug;
    /// The byte of a position (0 if it was never set).
    fn get(&self, key: Self::Key) -> u8;
    /// Sets the byte of a position.
    fn set(&mut self, key: Self::Key, byte: u8);
    /// The value of a solved position.
    fn val(&self, key: Self::Key) -> Option<Val> {
        match self.get(key) {
            2 => Some(Val::Draw),
            v if v >= 3 => Some(Val::Rem(u32::from(v - 3))),
            _ => None,
        }
    }
    /// The value of a position that must have been solved.
    fn solved(&self, key: Self::Key) -> Result<Val, String> {
        self.val(key)
            .ok_or_else(|| format!("position {key:?} not solved"))
    }
}

/// The solved part of a dense state space: one byte per position id.
pub struct Dense {
    table: Vec<u8>,
    /// Positions reached from the start, the start included.
    pub reached: usize,
}

impl Memo for Dense {
    type Key = u32;
    #[inline]
    fn get(&self, key: u32) -> u8 {
        self.table[key as usize]
    }
    #[inline]
    fn set(&mut self, key: u32, byte: u8) {
        self.table[key as usize] = byte;
    }
}

/// Solves (outcome and remoteness) every position reachable from `start` in a game whose
/// positions have ids below `ids`, by [`solve`] over one byte per id.
pub fn solve_dense(
    ids: usize,
    start: u32,
    expand: impl FnMut(u32, &mut Vec<u32>) -> Terminal,
) -> Result<Dense, String> {
    let mut dense = Dense {
        table: vec![0u8; ids],
        reached: 0,
    };
    dense.reached = solve(&mut dense, start, expand)?;
    Ok(dense)
}

/// The solved part of a state space whose positions pack into 56 bits, in a hash table: one
/// `u64` a slot, the key in the low 56 bits and the value byte on top (an empty slot is 0:
/// a stored byte is never 0), a multiplicative hash, linear probing, at most half full. It is
/// the fastest hashed table these baselines know how to write: one cache line touched per
/// lookup, nothing allocated per position.
pub struct Packed {
    slots: Vec<u64>,
    len: usize,
    /// Positions reached from the start, the start included.
    pub reached: usize,
}

/// The key bits of a [`Packed`] slot.
pub const PACKED_KEY: u64 = (1 << 56) - 1;

impl Packed {
    /// An empty table.
    pub fn new() -> Packed {
        Packed {
            slots: vec![0; 1 << 10],
            len: 0,
            reached: 0,
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & mask;
        loop {
            let s = self.slots[i];
            if s == 0 || s & PACKED_KEY == key {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let doubled = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        for s in old.into_iter().filter(|&s| s != 0) {
            let i = self.slot(s & PACKED_KEY);
            self.slots[i] = s;
        }
    }
}

impl Memo for Packed {
    type Key = u64;
    #[inline]
    fn get(&self, key: u64) -> u8 {
        (self.slots[self.slot(key)] >> 56) as u8
    }
    #[inline]
    fn set(&mut self, key: u64, byte: u8) {
        debug_assert!(key <= PACKED_KEY && byte != 0);
        let i = self.slot(key);
        if self.slots[i] == 0 {
            self.len += 1;
        }
        self.slots[i] = key | (u64::from(byte) << 56);
        if self.len * 2 > self.slots.len() {
            self.grow();
        }
    }
}

/// Solves [`Packed`] positions reachable from `start` by [`solve`].
pub fn solve_packed(
    start: u64,
    expand: impl FnMut(u64, &mut Vec<u64>) -> Terminal,
) -> Result<Packed, String> {
    let mut packed = Packed::new();
    packed.reached = solve(&mut packed, start, expand)?;
    Ok(packed)
}

/// Solves (outcome and remoteness) every position reachable from `start` into `memo`, by an
/// iterative depth-first search, and returns how many positions it reached: `expand(key,
/// stack)` pushes the keys of the options of `key` onto `stack` (the options of all positions
/// on the search path share that one stack, so nothing is allocated per position) and says
/// whether `key` is terminal.
pub fn solve<M: Memo>(
    memo: &mut M,
    start: M::Key,
    mut expand: impl FnMut(M::Key, &mut Vec<M::Key>) -> Terminal,
) -> Result<usize, String> {
    let mut kids: Vec<M::Key> = Vec::new();
    // (position, where its options start on `kids`, the next option to look at)
    let mut frames: Vec<(M::Key, usize, usize)> = Vec::new();
    let mut reached = 1;
    let first = kids.len();
    match expand(start, &mut kids) {
        Terminal::No => {
            memo.set(start, 1);
            frames.push((start, first, first));
        }
        Terminal::Lost => memo.set(start, 3),
        Terminal::Draw => memo.set(start, 2),
    }
    while let Some(frame) = frames.last_mut() {
        let (id, begin, next) = *frame;
        if next < kids.len() {
            frame.2 += 1;
            let kid = kids[next];
            match memo.get(kid) {
                0 => {
                    reached += 1;
                    let first = kids.len();
                    match expand(kid, &mut kids) {
                        Terminal::No => {
                            memo.set(kid, 1);
                            frames.push((kid, first, first));
                        }
                        Terminal::Lost => memo.set(kid, 3),
                        Terminal::Draw => memo.set(kid, 2),
                    }
                }
                1 => return Err(format!("the moves loop at position {kid:?}")),
                _ => {}
            }
            continue;
        }
        let v = combine(kids[begin..].iter().map(|&k| match memo.get(k) {
            2 => Val::Draw,
            v => Val::Rem(u32::from(v) - 3),
        }));
        memo.set(
            id,
            match v {
                Val::Draw => 2,
                Val::Rem(r) => {
                    u8::try_from(r + 3).map_err(|_| "remoteness over 252".to_string())?
                }
            },
        );
        kids.truncate(begin);
        frames.pop();
    }
    Ok(reached)
}

/// `[a, b, c]`, as cgl prints a list.
pub fn list<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    format!("[{}]", items.join(", "))
}

/// Whether `python` runs `import_line` without an error (a Python peer's packages are
/// installed); false too where `python` itself cannot be run.
pub fn imports(python: &str, import_line: &str) -> bool {
    std::process::Command::new(python)
        .args(["-c", import_line])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
