//! Evaluation: values, built-ins, game instances, and the interpreter over the IR.
//! No IO here; every integer operation is checked.

pub mod arith;
pub mod builtins;
pub mod compiled;
mod games;
mod interp;
mod stop;
pub mod value;

pub use games::{GameTable, InstanceInfo};
pub use interp::{ConstState, Interp, Limits, OptionTarget, PositionData, World};
pub use stop::{Stop, INTERRUPTED, TIMEOUT};
