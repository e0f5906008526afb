//! The memos the value table keeps for the operations defined in the files beside it: the
//! analyses' (`analysis.rs`: stops, thermographs, cooling, ...) and the form order's
//! (`order.rs`). They are the table's state, counted in its memory estimate, so they live
//! with it, below the files that fill them; what each field holds is the business of the
//! file that fills it.

use std::cmp::Ordering;
use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::GameId;
use crate::cgt::dyadic::Dyadic;
use crate::cgt::thermo::Thermograph;

/// The analyses' memo tables.
#[derive(Default)]
pub(in crate::cgt) struct Memo {
    pub(in crate::cgt) stops: FxHashMap<GameId, (Dyadic, Dyadic)>,
    pub(in crate::cgt) thermographs: FxHashMap<GameId, Rc<Thermograph>>,
    pub(in crate::cgt) birthdays: FxHashMap<GameId, u64>,
    pub(in crate::cgt) cooled: FxHashMap<(GameId, Dyadic), GameId>,
    pub(in crate::cgt) heated: FxHashMap<(GameId, GameId), GameId>,
    pub(in crate::cgt) all_small: FxHashMap<GameId, bool>,
    pub(in crate::cgt) far_star: FxHashMap<GameId, u32>,
    pub(in crate::cgt) atomic_weights: FxHashMap<GameId, GameId>,
    pub(in crate::cgt) projected: FxHashMap<GameId, GameId>,
}

/// Estimated bytes of a thermograph beside its memo entry (the `Rc`, two walls of a few
/// pieces each).
const THERMOGRAPH_BYTES: usize = 256;

impl Memo {
    /// How many entries the memos hold.
    pub(in crate::cgt) fn entries(&self) -> usize {
        self.stops.len()
            + self.thermographs.len()
            + self.birthdays.len()
            + self.cooled.len()
            + self.heated.len()
            + self.all_small.len()
            + self.far_star.len()
            + self.atomic_weights.len()
            + self.projected.len()
    }

    /// Bytes the memos hold beyond their entries: the thermographs.
    pub(in crate::cgt) fn extra_bytes(&self) -> usize {
        self.thermographs.len() * THERMOGRAPH_BYTES
    }
}

/// A form's Left and Right options, each list in the form order.
pub(in crate::cgt) type Ordered = (Rc<[GameId]>, Rc<[GameId]>);

/// What [`ValueTable::form_order`](super::ValueTable::form_order) has compared and sorted.
#[derive(Default)]
pub(in crate::cgt) struct OrderMemo {
    /// The order of `(a, b)` with `a < b` by id.
    pub(in crate::cgt) pairs: FxHashMap<(GameId, GameId), Ordering>,
    /// A non-number's stored Left and Right options, each in the form order.
    pub(in crate::cgt) sorted: FxHashMap<GameId, Ordered>,
    /// Option ids held in `sorted`.
    pub(in crate::cgt) ids: usize,
}

impl OrderMemo {
    /// Entries of its maps, for the table's memory estimate.
    pub(in crate::cgt) fn entries(&self) -> usize {
        self.pairs.len() + self.sorted.len()
    }

    /// Bytes of the option arrays it holds.
    pub(in crate::cgt) fn extra_bytes(&self) -> usize {
        self.ids * std::mem::size_of::<GameId>() + self.sorted.len() * 2 * 16
    }
}
