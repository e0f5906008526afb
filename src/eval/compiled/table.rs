//! The compiled forms of a program's games, kept beside the IR (which does not know them):
//! built once a file is lowered, looked up by game and rule while positions are explored.

use super::{
    compile_condition, compile_ends, compile_rule, CompiledCond, CompiledEnds, CompiledRule,
};
use crate::lower::ir::{Expr, GameId, Program};

/// One game's compiled forms, by the index of the rule or condition in the IR.
#[derive(Debug, Default)]
pub struct CompiledGame {
    /// Per move rule, its compiled form where it lies in the fragment.
    pub rules: Vec<Option<CompiledRule>>,
    /// Per `terminal if` condition.
    pub terminal: Vec<Option<CompiledCond>>,
    /// Per `draw if` condition.
    pub draw: Vec<Option<CompiledCond>>,
    /// All of them together, where all compile and there is a `terminal if` condition.
    pub ends: Option<CompiledEnds>,
}

/// The compiled forms of every game of a program, by [`GameId`].
#[derive(Debug, Default)]
pub struct CompiledGames {
    /// Per game, in the program's order.
    pub games: Vec<CompiledGame>,
}

impl CompiledGames {
    /// Compiles the games the program gained since the last call, once every function and
    /// constant they may call is lowered (a file's functions may follow its games).
    pub fn extend(&mut self, program: &Program) {
        for game in &program.games[self.games.len().min(program.games.len())..] {
            let frame = game.frame_size;
            let conditions = |conds: &[Expr]| -> Vec<_> {
                conds
                    .iter()
                    .map(|c| compile_condition(c, frame, Some(program)))
                    .collect()
            };
            self.games.push(CompiledGame {
                rules: game
                    .rules
                    .iter()
                    .map(|rule| compile_rule(&rule.clauses, &rule.target, frame, Some(program)))
                    .collect(),
                terminal: conditions(&game.terminal),
                draw: conditions(&game.draw),
                ends: compile_ends(&game.terminal, &game.draw, frame, Some(program)),
            });
        }
    }

    /// The compiled forms of a game.
    pub fn game(&self, id: GameId) -> &CompiledGame {
        &self.games[id.0 as usize]
    }
}

/// The compiled forms are plain data (no `Rc`, no cells), so the parallel solver's worker
/// threads can share them: this fails to compile if a change makes them thread-bound.
const _: () = {
    const fn shared<T: Sync + Send>() {}
    shared::<CompiledGames>();
};
