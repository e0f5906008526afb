//! The order forms are listed in: CGSuite's print order, a total order on canonical forms
//! that depends only on their structure, never on when the table made them. Sets of game
//! values and printed option lists use it, so no output depends on what was computed before.
//! It is not the order of games (`<=`, [`ValueTable::le`]): `{3|1}` before `{5|1}` here
//! says nothing about which is larger.

use std::cmp::Ordering;
use std::rc::Rc;

use super::table::{GameId, Ordered, ValueTable};

/// Most compared pairs the memo keeps; past it, it starts again (it is only a cache).
const MAX_PAIRS: usize = 1 << 22;

impl ValueTable {
    /// CGSuite's order of forms: numbers by value, then nimbers, then the other
    /// `number + ups + nimber` forms by number, ups and nimber, then the rest by their Left
    /// options and then their Right options, each list in this order. Distinct canonical
    /// forms never compare equal. Memoised; it makes no forms, so it cannot fail.
    pub fn form_order(&mut self, a: GameId, b: GameId) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        let (key, flip) = if a < b {
            ((a, b), false)
        } else {
            ((b, a), true)
        };
        let order = match self.order.pairs.get(&key) {
            Some(&o) => o,
            None => {
                let o = self.structural_order(key.0, key.1);
                if self.order.pairs.len() >= MAX_PAIRS {
                    self.order.pairs.clear();
                }
                self.order.pairs.insert(key, o);
                o
            }
        };
        if flip {
            order.reverse()
        } else {
            order
        }
    }

    /// [`ValueTable::form_order`] without the memo of pairs.
    fn structural_order(&mut self, a: GameId, b: GameId) -> Ordering {
        let class = |t: &Self, g: GameId| match t.as_nus(g) {
            Some(v) if v.ups == 0 && v.nim == 0 => 0,
            Some(v) if v.ups == 0 && v.number.is_zero() => 1,
            Some(_) => 2,
            None => 3,
        };
        let by_class = class(self, a).cmp(&class(self, b));
        if by_class != Ordering::Equal {
            return by_class;
        }
        if let (Some(x), Some(y)) = (self.as_nus(a), self.as_nus(b)) {
            return (x.number, x.ups, x.nim).cmp(&(y.number, y.ups, y.nim));
        }
        let (al, ar) = self.ordered_options(a);
        let (bl, br) = self.ordered_options(b);
        match self.list_order(&al, &bl) {
            Ordering::Equal => self.list_order(&ar, &br),
            o => o,
        }
    }

    /// Two option lists, each in the form order, compared item by item.
    fn list_order(&mut self, x: &[GameId], y: &[GameId]) -> Ordering {
        for (&p, &q) in x.iter().zip(y) {
            let o = super::budget::deeper(|| self.form_order(p, q));
            if o != Ordering::Equal {
                return o;
            }
        }
        x.len().cmp(&y.len())
    }

    /// `g`'s stored options (none for a number), Left and Right, each in the form order.
    pub(super) fn ordered_options(&mut self, g: GameId) -> Ordered {
        if let Some(sorted) = self.order.sorted.get(&g) {
            return sorted.clone();
        }
        let (left, right) = self.stored(g);
        let mut sort = |options: &[GameId]| -> Rc<[GameId]> {
            let mut v = options.to_vec();
            v.sort_by(|&p, &q| super::budget::deeper(|| self.form_order(p, q)));
            Rc::from(v)
        };
        let sorted = (sort(&left), sort(&right));
        self.order.ids += sorted.0.len() + sorted.1.len();
        self.order.sorted.insert(g, sorted.clone());
        sorted
    }
}
