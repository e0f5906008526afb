//! Game instances: a game together with its parameter values, interned once each.

use std::collections::HashMap;
use std::rc::Rc;

use super::value::{CompoundKind, Instance, InstanceId, InstanceNames, Value};
use crate::lower::ir::GameId;
use crate::syntax::ast::Convention;

/// What the engine needs to know of one game instance, computed once when it is created.
#[derive(Debug)]
pub struct InstanceInfo {
    /// The game.
    pub game: GameId,
    /// Its parameter values (defaults filled in), in the game's parameter order.
    pub params: Rc<[Value]>,
    /// How `split` parts are played together.
    pub mode: CompoundKind,
    /// Normal or misère play.
    pub convention: Convention,
    /// Display name: the game's name, plus `[p = v]` for parameters that differ from the
    /// defaults.
    pub label: String,
    /// Default values of the position fields (for `position (a, b, h = limit)`).
    pub field_defaults: Vec<Option<Value>>,
}

/// A strategic-form game instance: its strategies (as values) and its payoff table, built
/// once, on the first analysis that asks.
#[derive(Debug)]
pub struct StrategicTable {
    /// The payoffs, by strategy index.
    pub game: crate::strategic::Game,
    /// Each player's strategies, in declaration order.
    pub strategies: Vec<Vec<Value>>,
}

/// The most misère quotients a session keeps.
pub const MAX_QUOTIENTS: usize = 16;

/// All game instances created in a session.
#[derive(Debug, Default)]
pub struct GameTable {
    /// The payoff tables of the strategic games' instances built so far.
    pub(crate) strategic: HashMap<InstanceId, Rc<StrategicTable>>,
    /// The misère quotients computed so far, by code and largest heap (`misere_outcome`
    /// asks again and again); at most [`MAX_QUOTIENTS`] are kept.
    pub(crate) quotients: HashMap<(String, usize), Rc<crate::cgt::misere::Quotient>>,
    index: HashMap<(GameId, Rc<[Value]>), InstanceId>,
    infos: Vec<InstanceInfo>,
    /// The handle values hold of each instance, by id.
    handles: Vec<Instance>,
    /// The instance with all-default parameters, per game.
    pub(crate) default_instances: HashMap<GameId, InstanceId>,
    /// The bytes the payoff tables in `strategic` take (their payoffs and strategies).
    pub(crate) strategic_bytes: usize,
    /// Most bytes the payoff tables may take together, and the sums a misère quotient solves
    /// (`--max-memory`); `None`: no limit.
    pub(crate) max_table_bytes: Option<usize>,
}

impl GameTable {
    /// Caps the payoff tables of strategic games at `bytes` together, and the sums a misère
    /// quotient solves (`--max-memory`).
    pub fn set_max_table_bytes(&mut self, bytes: usize) {
        self.max_table_bytes = Some(bytes);
    }

    /// The instance with these parameters, if it was created already.
    pub fn find(&self, game: GameId, params: &Rc<[Value]>) -> Option<InstanceId> {
        self.index.get(&(game, params.clone())).copied()
    }

    /// Registers a new instance.
    pub fn insert(&mut self, info: InstanceInfo) -> InstanceId {
        let id = InstanceId(self.infos.len() as u32);
        self.index.insert((info.game, info.params.clone()), id);
        self.handles
            .push(Instance::new(id, info.game.0, info.params.clone()));
        self.infos.push(info);
        id
    }

    /// The handle of an instance, as values and positions hold it (ordered by its game's
    /// declaration index, then its parameters).
    #[inline]
    pub fn instance(&self, id: InstanceId) -> Instance {
        self.handles[id.0 as usize].clone()
    }

    /// The information of an instance.
    pub fn info(&self, id: InstanceId) -> &InstanceInfo {
        &self.infos[id.0 as usize]
    }

    /// The code of `inst` when it is a take-and-break game by code (`octal("0.77")`, an
    /// instance of `take_and_break`, the prelude's game), its parameter read back.
    pub fn heap_code(
        &self,
        take_and_break: Option<GameId>,
        inst: InstanceId,
    ) -> Option<crate::cgt::octal::Code> {
        let info = self.info(inst);
        if Some(info.game) != take_and_break {
            return None;
        }
        match info.params.first() {
            Some(Value::Str(text)) => crate::cgt::octal::Code::parse(text).ok(),
            _ => None,
        }
    }

    /// Number of instances.
    pub fn len(&self) -> usize {
        self.infos.len()
    }

    /// True when no instance exists yet.
    pub fn is_empty(&self) -> bool {
        self.infos.is_empty()
    }
}

impl InstanceNames for GameTable {
    fn instance_label(&self, id: InstanceId) -> &str {
        self.infos
            .get(id.0 as usize)
            .map_or("?", |i| i.label.as_str())
    }

    fn instance_convention(&self, id: InstanceId) -> Convention {
        self.infos
            .get(id.0 as usize)
            .map_or(Convention::Normal, |i| i.convention)
    }

    fn field_defaults(&self, id: InstanceId) -> &[Option<Value>] {
        self.infos
            .get(id.0 as usize)
            .map_or(&[], |i| i.field_defaults.as_slice())
    }
}

/// The help for `value` where a position was needed, `fallback` when `value` is no game: a
/// strategic game has no positions (analyse it whole); a game of moves makes one when
/// called, or has its start.
pub fn position_help(
    program: &crate::lower::ir::Program,
    games: &GameTable,
    value: &Value,
    fallback: &str,
) -> String {
    let Value::Game(inst) = value else {
        return fallback.to_string();
    };
    let info = games.info(inst.id());
    let game = &program.games[info.game.0 as usize];
    let name = &info.label;
    if game.strategic.is_some() {
        format!(
            "`{name}` is a strategic game, which has no positions: analyse the game itself, e.g. `nash({name})`, `pure_nash({name})` or `strictly_dominated({name})` (`:explain {name}` in the REPL)"
        )
    } else if game.start.is_some() {
        format!("a game is not a position: take its start, `{name}.start`, or call it with a position's fields, `{name}(...)`")
    } else {
        format!("a game is not a position: call it with a position's fields, `{name}(...)`")
    }
}
