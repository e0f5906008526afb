//! Game instances as values hold them: a handle that names the instance by its id in the
//! session's table (for equality and hashing: instances are interned, so one game with one
//! list of parameters has one id) and carries the key it is ordered by, the game's
//! declaration index and then its parameters. So the order of two instances, and with it
//! the order of sets, of a compound's parts and of the moves of a compound, does not depend
//! on which instance a session happened to create first.

use std::hash::{Hash, Hasher};
use std::rc::Rc;

use super::Value;

/// A game instance's index in the session's table of instances (`eval::games::GameTable`),
/// in the order instances were created: a name for the instance, never its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InstanceId(pub u32);

/// A game instance in a value or a position. Equal when their ids are; ordered by the game's
/// declaration index, then the parameters (structurally, as values are), so the key is fixed
/// when the instance is created and never changes. Cloning is a reference count.
#[derive(Clone, Debug)]
pub struct Instance(Rc<Key>);

/// What an instance is named and ordered by.
#[derive(Debug)]
pub(super) struct Key {
    pub(super) id: InstanceId,
    /// The game's index in the program, in declaration order.
    pub(super) game: u32,
    /// The parameter values, in the game's parameter order.
    pub(super) params: Rc<[Value]>,
}

impl Instance {
    /// The handle of the instance `id` of the game with declaration index `game`, with these
    /// parameters. Made once per instance, by the table that interns instances.
    pub fn new(id: InstanceId, game: u32, params: Rc<[Value]>) -> Instance {
        Instance(Rc::new(Key { id, game, params }))
    }

    /// The instance's id in its session's table.
    #[inline]
    pub fn id(&self) -> InstanceId {
        self.0.id
    }

    pub(super) fn key(&self) -> &Key {
        &self.0
    }

    /// Whether the two handles are one (the cheap test that one instance's positions meet).
    #[inline]
    pub(super) fn same(&self, other: &Instance) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.0.id == other.0.id
    }
}

impl PartialEq for Instance {
    #[inline]
    fn eq(&self, other: &Instance) -> bool {
        self.same(other)
    }
}

impl Eq for Instance {}

impl Hash for Instance {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.id.hash(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::PosTerm;
    use std::cmp::Ordering;

    fn params(k: i64) -> Rc<[Value]> {
        Rc::from(vec![Value::Int(k)])
    }

    #[test]
    fn instances_order_by_game_then_parameters_not_by_id() {
        // Created in the order G[2], H, G[1]: ids 0, 1, 2.
        let g2 = Instance::new(InstanceId(0), 0, params(2));
        let h = Instance::new(InstanceId(1), 1, params(0));
        let g1 = Instance::new(InstanceId(2), 0, params(1));
        let mut all = [h.clone(), g2.clone(), g1.clone()];
        all.sort();
        let ids: Vec<u32> = all.iter().map(|i| i.id().0).collect();
        assert_eq!(ids, [2, 0, 1]);
        assert_eq!(g1.cmp(&g1.clone()), Ordering::Equal);
        assert!(Value::Game(g1.clone()) < Value::Game(g2.clone()));
        assert!(Value::Game(g2.clone()) < Value::Game(h.clone()));
        // Positions of one instance by data; of two instances by instance first.
        let atom = |i: &Instance, n: i64| PosTerm::Atom(i.clone(), Value::Int(n));
        assert!(atom(&g2, 0) < atom(&g2, 1));
        assert!(atom(&g1, 9) < atom(&g2, 0));
        assert!(atom(&g2, 9) < atom(&h, 0));
        // One key under two ids (two sessions' tables): unequal, ordered by id.
        let other = Instance::new(InstanceId(7), 0, params(1));
        assert_ne!(g1, other);
        assert_eq!(g1.cmp(&other), Ordering::Less);
        assert_eq!(other.cmp(&g1), Ordering::Greater);
    }
}
