//! A position's options on their way to term ids, as one batch (`GameGraph::intern_options`).
//!
//! The rules' targets are read as they are emitted: a list of small cells straight into its
//! nibble key (no integers copied, no cells packed twice), an integer or a pair as itself
//! (no position term built), anything else kept as the interpreter gives it. Then every
//! target is looked up, in passes whose reads do not wait on one another (every key's group
//! line, every group's candidate, every candidate's record), so that the cache misses of a
//! position's options overlap; then the ones not interned yet are interned, in order.
//!
//! The passes read every dense table's cell too; an option not interned keeps its key and hash
//! for its insertion (`intern_nibbles`). Repeated targets are dropped by a small
//! open-addressing set of the ids, a quarter full, whose slots are stamped with the call that
//! filled them, so nothing is cleared between positions.

// The graph's types, helpers and imports (`mod.rs`): this file is part of its `impl`.
use super::*;
use crate::eval::compiled::{Batching, Emitted, LaneShape};

/// No id (yet): the target was not interned when it was looked up.
const NONE: u32 = u32::MAX;

/// Where an option's target is found.
#[derive(Clone, Copy, Debug)]
enum Target {
    /// The nibble index: the target's key and the key's hash.
    Nibbles(NibbleKey, u64),
    /// The instance's dense table of integers (its box's or the ordinary one).
    Int(i64),
    /// The instance's dense table of pairs.
    Pair(i64, i64),
    /// The instance's dense table of lists: the rank, and where the cells are in the
    /// batch's integers (`at`, `len`).
    Rank(u32, u32, u32),
    /// Anything else: the batch's option `i`, interned the general way.
    Other(u32),
}

/// One option of the batch.
#[derive(Clone, Copy, Debug)]
pub(super) struct Probe {
    target: Target,
    /// The rule that made it.
    rule: u32,
    /// Its id once looked up, or `NONE`.
    id: u32,
    /// A nibble key's first group in the index, with its slots in use.
    group: usize,
    used: u32,
    /// The id in that group whose tag matches (or `NONE`), and whether a mismatch
    /// settles the look-up.
    candidate: u32,
    settled: bool,
}

impl Probe {
    fn new(target: Target, rule: u32) -> Probe {
        Probe {
            target,
            rule,
            id: NONE,
            group: 0,
            used: 0,
            candidate: NONE,
            settled: true,
        }
    }
}

/// The buffers of a batch, reused from position to position.
#[derive(Debug, Default)]
pub(super) struct Batch {
    probes: Vec<Probe>,
    /// The options that are found the general way (`Target::Other`) or, when the rules
    /// ran through [`Interp::options_packed`], every option.
    options: Vec<(OptionTarget, u32)>,
    /// Integers of the options' lists that are not read into a key.
    ints: Vec<i64>,
}

impl Batch {
    fn clear(&mut self) {
        self.probes.clear();
        self.options.clear();
        self.ints.clear();
    }
}

/// What the targets of an instance's rules are, for reading them as they come.
#[derive(Clone, Copy)]
struct Shapes {
    inst: InstanceId,
    /// Any value is a position (`position b`): an integer list or integer is one as it is.
    values_fit: bool,
    /// A tuple of this many integers is a position (`position (a, b)`).
    tuple_len: Option<usize>,
}

impl GameGraph {
    /// Runs the rules of the position `data` of `inst` (the term `t`) and interns its
    /// options into `found` (cleared first), in rule order, a target met twice kept twice.
    pub(super) fn intern_options(
        &mut self,
        w: &mut World<'_>,
        inst: InstanceId,
        data: PositionData<'_>,
        t: TermId,
        found: &mut Vec<(TermId, u32)>,
    ) -> DiagResult<()> {
        let mut batch = std::mem::take(&mut self.scratch.batch);
        batch.clear();
        let result = self
            .fill_batch(w, inst, data, t, &mut batch)
            .and_then(|()| {
                self.find_all(inst, &mut batch.probes);
                self.intern_batch(w, inst, &batch, found)
            });
        batch.clear();
        self.scratch.batch = batch;
        result
    }

    /// Runs the rules and fills the batch with the options. The targets are read as they
    /// come while every one is of a kind the batch reads (then nothing else is built per
    /// option); at the first that is not, the rules run again through
    /// [`Interp::options_packed`], which builds it, and the instance goes that way from then on.
    fn fill_batch(
        &mut self,
        w: &mut World<'_>,
        inst: InstanceId,
        data: PositionData<'_>,
        t: TermId,
        batch: &mut Batch,
    ) -> DiagResult<()> {
        let live = !self.info(t).terminal;
        // Before its first position is interned, the instance's indexing is not decided:
        // `intern_int_list` and `intern` decide it.
        let decided = self.dense.is_decided(inst);
        let general = self.general.get(inst.0 as usize).copied().unwrap_or(false);
        if decided && !general {
            let mut interp = Interp::new(w.reborrow(), None);
            let shapes = Shapes {
                inst,
                values_fit: interp.any_value_fits(inst),
                tuple_len: interp.int_tuple_len(inst),
            };
            let mut complete = true;
            let scanned = interp.scan_options(
                inst,
                data,
                Batching::Blocks,
                live,
                &mut |_, target, rule, _| {
                    if self.read_target(shapes, target, rule, batch) {
                        Ok(std::ops::ControlFlow::Continue(()))
                    } else {
                        complete = false;
                        Ok(std::ops::ControlFlow::Break(()))
                    }
                },
            );
            scanned.map_err(|d| self.while_generating(w, inst, data, d))?;
            if complete {
                return Ok(());
            }
            batch.clear();
            let i = inst.0 as usize;
            if self.general.len() <= i {
                self.general.resize(i + 1, false);
            }
            self.general[i] = true;
        }
        let mut interp = Interp::new(w.reborrow(), None);
        interp
            .options_packed(inst, data, live, &mut batch.options, &mut batch.ints)
            .map_err(|d| self.while_generating(w, inst, data, d))?;
        for (i, (option, rule)) in batch.options.iter().enumerate() {
            let target = match option {
                OptionTarget::IntList(range) if decided => {
                    let (at, len) = (range.start as u32, range.len() as u32);
                    self.list_target(inst, &batch.ints[range.clone()], at, len)
                }
                _ => None,
            };
            let target = target.unwrap_or(Target::Other(i as u32));
            batch.probes.push(Probe::new(target, *rule));
        }
        Ok(())
    }

    /// Adds the option (or block of options) `target` of rule `rule` to the batch; false
    /// if it is of a kind the batch does not read (the interpreter builds it).
    fn read_target(&self, s: Shapes, target: Emitted<'_>, rule: u32, batch: &mut Batch) -> bool {
        match target {
            Emitted::IntList(items) if s.values_fit => {
                if let Some(key) = NibbleKey::of_ints(s.inst, items) {
                    if !self.dense.is_dense(s.inst) {
                        let probe = Probe::new(Target::Nibbles(key, key.hash()), rule);
                        batch.probes.push(probe);
                        return true;
                    }
                }
                let at = batch.ints.len();
                batch.ints.extend_from_slice(items);
                let range = at..batch.ints.len();
                let target = self.list_target(s.inst, items, at as u32, items.len() as u32);
                let target = target.unwrap_or_else(|| {
                    batch.options.push((OptionTarget::IntList(range), rule));
                    Target::Other(batch.options.len() as u32 - 1)
                });
                batch.probes.push(Probe::new(target, rule));
                true
            }
            Emitted::Value(Value::Int(n)) if s.values_fit => {
                self.push_int(s.inst, n, rule, batch);
                true
            }
            Emitted::IntTuple(items) if s.tuple_len == Some(items.len()) => {
                self.push_tuple(s.inst, items, rule, batch);
                true
            }
            Emitted::Block(block) => {
                let columns = block.columns();
                match block.shape() {
                    LaneShape::Int if s.values_fit && block.width() == 1 => {
                        for lane in block.lanes() {
                            self.push_int(s.inst, columns[0][lane], rule, batch);
                        }
                        true
                    }
                    LaneShape::Tuple if s.tuple_len == Some(block.width()) => {
                        let mut parts = Vec::with_capacity(block.width());
                        for lane in block.lanes() {
                            parts.clear();
                            parts.extend(columns.iter().map(|c| c[lane]));
                            self.push_tuple(s.inst, &parts, rule, batch);
                        }
                        true
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// Where the list position `items` of `inst` is found when not the general way (its
    /// cells are `ints[at..at + len]` of the batch): by its rank in the instance's dense
    /// table, or its nibble key. Its home as `intern_int_list` decides it.
    fn list_target(&self, inst: InstanceId, items: &[i64], at: u32, len: u32) -> Option<Target> {
        if let Some(rank) = self.dense.rank(inst, items) {
            return Some(Target::Rank(rank, at, len));
        }
        NibbleKey::of_ints(inst, items).map(|key| Target::Nibbles(key, key.hash()))
    }

    /// Adds the integer position `n` of `inst`: found in a dense table, or the general way.
    fn push_int(&self, inst: InstanceId, n: i64, rule: u32, batch: &mut Batch) {
        let target = if self.int_atoms.int_is_dense_in(inst, n) {
            Target::Int(n)
        } else {
            batch
                .options
                .push((OptionTarget::Atom(Value::Int(n)), rule));
            Target::Other(batch.options.len() as u32 - 1)
        };
        batch.probes.push(Probe::new(target, rule));
    }

    /// Adds the tuple position `items` of `inst`: a pair found in a dense table, or the
    /// general way.
    fn push_tuple(&self, inst: InstanceId, items: &[i64], rule: u32, batch: &mut Batch) {
        let target = match *items {
            [a, b] if self.int_atoms.pair_is_dense_in(inst, a, b) => Target::Pair(a, b),
            _ => {
                let data = Value::Tuple(items.iter().map(|n| Value::Int(*n)).collect());
                batch.options.push((OptionTarget::Atom(data), rule));
                Target::Other(batch.options.len() as u32 - 1)
            }
        };
        batch.probes.push(Probe::new(target, rule));
    }

    /// Looks up every probe's target, its id into `id` when interned. In passes, each of
    /// whose reads are independent of one another: every target's first read (a nibble
    /// key's group line, a dense table's cell), each group's candidate, each candidate's
    /// record; a nibble look-up the candidate does not settle is done in full after.
    fn find_all(&self, inst: InstanceId, probes: &mut [Probe]) {
        let id = |t: Option<TermId>| t.map_or(NONE, |t| t.0);
        for p in probes.iter_mut() {
            match p.target {
                Target::Nibbles(_, hash) => (p.group, p.used) = self.nibble_index.touch(hash),
                Target::Int(n) => p.id = id(self.int_atoms.get(inst, n)),
                Target::Pair(a, b) => p.id = id(self.int_atoms.get_pair(inst, a, b)),
                Target::Rank(rank, ..) => p.id = id(self.dense.get(inst, rank)),
                Target::Other(_) => {}
            }
        }
        for p in probes.iter_mut() {
            if let Target::Nibbles(_, hash) = p.target {
                if p.used > 0 {
                    let (candidate, settled) = self.nibble_index.candidate(p.group, hash);
                    (p.candidate, p.settled) = (candidate.unwrap_or(NONE), settled);
                }
            }
        }
        let mut unsettled = false;
        for p in probes.iter_mut() {
            if let Target::Nibbles(key, _) = p.target {
                if p.candidate != NONE && self.terms.nibbles(TermId(p.candidate)) == Some(key) {
                    p.id = p.candidate;
                } else {
                    unsettled |= !p.settled;
                }
            }
        }
        if !unsettled {
            return;
        }
        for p in probes.iter_mut() {
            if let Target::Nibbles(key, hash) = p.target {
                if p.id == NONE && !p.settled {
                    let found = self
                        .nibble_index
                        .find(hash, |i| self.terms.nibbles(TermId(i)) == Some(key));
                    p.id = found.unwrap_or(NONE);
                }
            }
        }
    }

    /// The ids of the batch's options into `found`, in order, interning those that were
    /// not found (an earlier option of the batch may have interned one since: each is looked
    /// for again first).
    fn intern_batch(
        &mut self,
        w: &mut World<'_>,
        inst: InstanceId,
        batch: &Batch,
        found: &mut Vec<(TermId, u32)>,
    ) -> DiagResult<()> {
        found.reserve(batch.probes.len());
        for (i, p) in batch.probes.iter().enumerate() {
            // A position may have millions of options (a heap of a take-and-break game).
            if i % (1 << 14) == (1 << 14) - 1 {
                w.stop.check()?;
            }
            let id = if p.id != NONE {
                TermId(p.id)
            } else {
                match p.target {
                    Target::Nibbles(key, hash) => {
                        let mut cells = [0i64; NibbleKey::MAX_LEN];
                        for (cell, c) in cells.iter_mut().zip(key.cells()) {
                            *cell = i64::from(c);
                        }
                        self.intern_nibbles(w, inst, key, hash, &cells[..key.len()])?
                    }
                    Target::Int(n) => self.intern_dense_int(w, inst, n)?,
                    Target::Pair(a, b) => self.intern_dense_pair(w, inst, a, b)?,
                    Target::Rank(_, at, len) => {
                        let items = &batch.ints[at as usize..(at + len) as usize];
                        self.intern_int_list(w, inst, items)?
                    }
                    Target::Other(i) => match &batch.options[i as usize].0 {
                        OptionTarget::Term(term) => self.intern(w, term)?,
                        OptionTarget::Atom(data) => self.intern_atom(w, inst, data)?,
                        OptionTarget::IntList(range) => {
                            self.intern_int_list(w, inst, &batch.ints[range.clone()])?
                        }
                    },
                }
            };
            found.push((id, p.rule));
        }
        Ok(())
    }

    /// The list position of `inst` whose cells `items` make the nibble key `key` (of hash
    /// `hash`), interned if new: what [`GameGraph::intern_int_list`] does for it, with the key
    /// and its hash already made (the instance's indexing is decided, and no dense table
    /// ranks these cells).
    pub(super) fn intern_nibbles(
        &mut self,
        w: &mut World<'_>,
        inst: InstanceId,
        key: NibbleKey,
        hash: u64,
        items: &[i64],
    ) -> DiagResult<TermId> {
        // An earlier option of the same position may have interned it.
        let terms = &self.terms;
        if let Some(id) = self
            .nibble_index
            .find(hash, |i| terms.nibbles(TermId(i)) == Some(key))
        {
            return Ok(TermId(id));
        }
        let data = PositionData::Ints(items);
        let info = self.atom_info(w, inst, data)?;
        self.insert_at(
            Home::Nibbles(key),
            || Term::Atom(inst, data.to_value()),
            info,
        )
        .map_err(|d| self.while_adding(w, inst, data, d))
    }

    /// The integer position `n` of `inst`, whose home is a dense table, interned if new.
    fn intern_dense_int(
        &mut self,
        w: &mut World<'_>,
        inst: InstanceId,
        n: i64,
    ) -> DiagResult<TermId> {
        if let Some(id) = self.int_atoms.get(inst, n) {
            return Ok(id);
        }
        let value = Value::Int(n);
        self.insert_new(w, inst, &value, Home::Int(inst, n))
    }

    /// The pair position `(a, b)` of `inst`, whose home is a dense table, interned if new.
    fn intern_dense_pair(
        &mut self,
        w: &mut World<'_>,
        inst: InstanceId,
        a: i64,
        b: i64,
    ) -> DiagResult<TermId> {
        if let Some(id) = self.int_atoms.get_pair(inst, a, b) {
            return Ok(id);
        }
        let value = Value::Tuple(std::rc::Rc::new([Value::Int(a), Value::Int(b)]));
        self.insert_new(w, inst, &value, Home::Pair(inst, a, b))
    }

    /// Interns the position `data` of `inst`, not interned yet, at its home `home` (a
    /// dense table's: nothing is boxed).
    fn insert_new(
        &mut self,
        w: &mut World<'_>,
        inst: InstanceId,
        data: &Value,
        home: Home<'_>,
    ) -> DiagResult<TermId> {
        let data = PositionData::Value(data);
        let info = self.atom_info(w, inst, data)?;
        self.insert_at(home, || Term::Atom(inst, data.to_value()), info)
            .map_err(|d| self.while_adding(w, inst, data, d))
    }

    /// Drops the moves to a position met before, keeping the first of each, in order.
    pub(super) fn dedup_moves(&mut self, found: &mut Vec<(TermId, u32)>) {
        if found.len() <= 8 {
            // A few moves: a scan is cheapest.
            let mut kept = 0;
            for i in 0..found.len() {
                if !found[..kept].iter().any(|(id, _)| *id == found[i].0) {
                    found.swap(kept, i);
                    kept += 1;
                }
            }
            found.truncate(kept);
            return;
        }
        // Many moves (Chomp's, a heap's): a small open-addressing set of the ids, at most
        // a quarter full, one probe a move but seldom. Its slots are stamped with the call
        // that filled them, so that nothing is cleared between calls.
        let size = (found.len() * 4).next_power_of_two().max(64);
        let bits = size.trailing_zeros();
        let scratch = &mut self.scratch;
        if scratch.seen.len() < size {
            scratch.seen.clear();
            scratch.seen.resize(size, 0);
        }
        scratch.stamp = scratch.stamp.wrapping_add(1);
        if scratch.stamp == 0 {
            // Every stamp used: the slots are cleared once in 2^32 calls.
            scratch.seen.fill(0);
            scratch.stamp = 1;
        }
        let stamp = scratch.stamp;
        let seen = &mut scratch.seen[..size];
        let mut kept = 0;
        for i in 0..found.len() {
            let id = found[i].0 .0;
            // Fibonacci hashing: the top bits of the product.
            let mut at =
                (u64::from(id).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize;
            let new = loop {
                let slot = seen[at];
                if (slot >> 32) as u32 != stamp {
                    seen[at] = u64::from(stamp) << 32 | u64::from(id);
                    break true;
                }
                if slot as u32 == id {
                    break false;
                }
                at = (at + 1) & (size - 1);
            };
            if new {
                found[kept] = found[i];
                kept += 1;
            }
        }
        found.truncate(kept);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first of each id, in order, by a scan: what `dedup_moves` must keep.
    fn firsts(moves: &[(TermId, u32)]) -> Vec<(TermId, u32)> {
        let mut out: Vec<(TermId, u32)> = Vec::new();
        for m in moves {
            if !out.iter().any(|o| o.0 == m.0) {
                out.push(*m);
            }
        }
        out
    }

    #[test]
    fn repeats_are_dropped_in_order_at_every_length() {
        let mut graph = GameGraph::default();
        for len in [0usize, 1, 5, 8, 9, 17, 64, 300, 5000] {
            for modulus in [1u32, 3, 50, 1 << 20] {
                let moves: Vec<(TermId, u32)> = (0..len as u32)
                    .map(|i| (TermId(i.wrapping_mul(2_654_435_761) % modulus), i))
                    .collect();
                let mut got = moves.clone();
                graph.dedup_moves(&mut got);
                assert_eq!(got, firsts(&moves), "{len} moves modulo {modulus}");
            }
        }
    }
}
