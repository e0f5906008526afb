//! Partizan moves: a term's Left options and Right options, apart. A `left move` rule's
//! targets are Left's, a `right move` rule's Right's, a plain `move` rule's both players';
//! a position of an impartial game gives both players all its moves. A compound's options
//! for a player are the product of its parts' options for that player: in a sum the player
//! moves in one part, in a conjunctive compound in every part (none if one part has no move
//! for that player), in a selective compound in any non-empty set of parts.
//!
//! A game with a side rule is partizan (`ir::Game::partizan`), and so are its positions and any
//! compound with such a part (`TermInfo::partizan`, set when interned). A term's Left and Right
//! options are stored in their own arena under the same moves budget; its plain `successors`
//! are the union (for `reachable`). Impartial terms never come here, so impartial games cost
//! what they did; a move of an impartial game into a partizan position is refused
//! (`cgl::graph::partizan_option`), since the impartial analyses would merge its players'
//! moves.

// The graph's types, helpers and imports (`mod.rs`): this file is part of its `impl`.
use super::*;
use crate::syntax::ast::Side;

/// The Left and Right options of the partizan terms explored so far, side by side in one
/// arena: per term, where its options start, how many are Left's, how many Right's.
#[derive(Debug, Default)]
pub(super) struct SideStore {
    spans: rustc_hash::FxHashMap<u32, (u32, u32, u32)>,
    targets: Vec<u32>,
}

impl SideStore {
    /// Stored options (target ids) and the bookkeeping bytes per term, for the estimates.
    pub(super) fn bytes(&self) -> usize {
        self.targets.len() * BYTES_PER_MOVE + self.spans.len() * 24
    }

    fn get(&self, t: TermId) -> Option<(Vec<TermId>, Vec<TermId>)> {
        let &(start, left, right) = self.spans.get(&t.0)?;
        let (start, mid) = (start as usize, (start + left) as usize);
        let end = mid + right as usize;
        let ids = |r: &[u32]| r.iter().map(|id| TermId(*id)).collect();
        Some((ids(&self.targets[start..mid]), ids(&self.targets[mid..end])))
    }
}

impl GameGraph {
    /// Whether some partizan position has been interned.
    pub(crate) fn has_partizan(&self) -> bool {
        self.has_partizan
    }

    /// Left's options and Right's options of `t`, each distinct and in the order the rules
    /// (or parts) produce them. Kept in the graph while the stored-moves budget allows.
    pub fn side_options(
        &mut self,
        w: &mut World<'_>,
        t: TermId,
    ) -> DiagResult<(Vec<TermId>, Vec<TermId>)> {
        if let Some(known) = self.sides.get(t) {
            return Ok(known);
        }
        if !self.info(t).partizan {
            let both = self.successors(w, t)?;
            return Ok((both.clone(), both));
        }
        let (left, right) = match self.compound_of(t) {
            None => self.atom_side_options(w, t)?,
            Some((kind, parts)) => {
                let parts = self.parts_in_order(w, parts);
                let mut lefts = Vec::with_capacity(parts.len());
                let mut rights = Vec::with_capacity(parts.len());
                for part in &parts {
                    let (l, r) = self.side_options(w, *part)?;
                    lefts.push(l);
                    rights.push(r);
                }
                let left = self.product_of(kind, &parts, &lefts)?;
                let right = self.product_of(kind, &parts, &rights)?;
                (distinct(left), distinct(right))
            }
        };
        let new = left.len() + right.len();
        let stored = self.moves.len() + self.sides.targets.len() + new;
        if stored <= self.config.max_stored_moves && stored <= MoveStore::MAX_MOVES {
            self.check_memory(new)?;
            let start = self.sides.targets.len() as u32;
            self.sides
                .targets
                .extend(left.iter().chain(&right).map(|id| id.0));
            self.sides
                .spans
                .insert(t.0, (start, left.len() as u32, right.len() as u32));
        }
        Ok((left, right))
    }

    /// A partizan position's options by its rules' sides.
    fn atom_side_options(
        &mut self,
        w: &mut World<'_>,
        t: TermId,
    ) -> DiagResult<(Vec<TermId>, Vec<TermId>)> {
        let Some(inst) = self.atom_instance(t) else {
            return Err(Box::new(Diag::internal("a compound taken for a position")));
        };
        let mut found = Vec::new();
        self.generate_raw(w, t, &mut found)?;
        let rules = &w.program.games[w.games.info(inst).game.0 as usize].rules;
        let side_of = |rule: u32| rules.get(rule as usize).map_or(Side::Both, |r| r.side);
        let mut left: Vec<(TermId, u32)> = found
            .iter()
            .filter(|(_, rule)| side_of(*rule) != Side::Right)
            .copied()
            .collect();
        let mut right: Vec<(TermId, u32)> = found
            .iter()
            .filter(|(_, rule)| side_of(*rule) != Side::Left)
            .copied()
            .collect();
        self.dedup_moves(&mut left);
        self.dedup_moves(&mut right);
        Ok((
            left.into_iter().map(|(id, _)| id).collect(),
            right.into_iter().map(|(id, _)| id).collect(),
        ))
    }

    /// An error if a move of the impartial position `t` reaches a partizan one: the
    /// impartial analyses would take that position's Left and Right moves for one set.
    #[cold]
    pub(super) fn check_no_partizan_option(
        &self,
        w: &World<'_>,
        t: TermId,
        found: &[(TermId, u32)],
    ) -> DiagResult<()> {
        let Some(&(to, _)) = found.iter().find(|(id, _)| self.info(*id).partizan) else {
            return Ok(());
        };
        Err(Box::new(
            Diag::error(
                Code::GraphPartizanOption,
                format!(
                    "a move of the impartial position {} reaches the partizan position {}",
                    self.show(&*w.games, t),
                    self.show(&*w.games, to)
                ),
            )
            .help(
                "a game is partizan when it has a `left move` or `right move` rule; give the \
                 outer game one too (its plain `move`s stay both players'), or combine the \
                 positions with `+` instead of moving from one game into the other",
            ),
        ))
    }
}

/// The ids once each, the first of each kept, in order.
fn distinct(mut ids: Vec<TermId>) -> Vec<TermId> {
    let mut seen = rustc_hash::FxHashSet::default();
    ids.retain(|id| seen.insert(*id));
    ids
}
