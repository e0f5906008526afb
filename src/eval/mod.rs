//! Evaluation: values, built-ins, game instances, and the interpreter over the IR.
//! No IO here; every integer operation is checked.
//!
//! The files: `host.rs` (`Host`, what evaluation asks of the layers above); `arith.rs` (the
//! checked integer operations, one value or a block of lanes at a time: the one implementation
//! both the interpreter and the compiled rules call, so they agree on every result and every
//! failure); `builtins.rs` (the pure built-ins); `grid.rs` (boards as bit masks, `regions` and
//! `normalize`, which both engines call); `picture.rs` (the text layout of pictures, and
//! `bounded`, which cuts a picture to 60 lines of 160 characters where it is shown);
//! `values.rs` (game values in expressions, as `cgt` ids inside `value::with_forms`; every
//! `CgtError` becomes a diagnostic there); `games.rs` (`GameTable`: game instances, a game with
//! parameter values, interned once with their compound mode, convention and printed label;
//! `position_help`, the one help for a game given where a position was needed); `interp/` (the
//! interpreter); `compiled/` (the compiled fragment, a side table by game and rule that the IR
//! does not know); `stop.rs` (`Stop`, the deadline and interrupt flag every long loop checks,
//! and its `Meter`).

pub mod arith;
pub mod builtins;
pub mod compiled;
mod games;
pub mod grid;
mod host;
mod interp;
pub mod picture;
mod stop;
pub mod values;

/// Values are the language's data, below lowering (literals are values); re-exported here,
/// where most of their users look for them.
pub use crate::value;

pub use games::{position_help, GameTable, InstanceInfo, StrategicTable};
pub use host::Host;
pub use interp::{ConstState, Interp, Limits, OptionTarget, PositionData, World};
pub use stop::{cgt_stop, Meter, Reading, Stop, INTERRUPTED, TIMEOUT};
