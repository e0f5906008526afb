//! Evaluation: values, built-ins, game instances, and the interpreter over the IR.
//! No IO here; every integer operation is checked.

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
