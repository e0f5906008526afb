//! The stack guard. Parsing, lowering and evaluation recurse over what the user wrote (nested
//! expressions, calls of user functions, values inside values); each recursive step asks
//! [`enough`] before it goes one level deeper, and stops with a diagnostic when the thread's
//! stack is nearly used up. So no input overflows the stack, whatever the shape of its
//! recursion and whatever the size of the thread's stack: the bound is what the stack
//! really holds, measured, not a count of levels that assumes a size per level.
//!
//! `with_phase_stack` gives parsing, lowering and compiling (whose depth the syntax bounds) at
//! least 64 MiB, on a fresh segment if the thread has less; `grow` gives a walk (printing a
//! value, say) a fresh segment when the stack runs low. `src/main.rs` runs the CLI on a thread
//! with a 512 MiB stack.

/// Stack that must be left for a recursive step to go on: well above what one step of cgl's
/// recursions uses between two checks (an interpreter frame, a few KiB at most), with room
/// to build and render the diagnostic that reports the depth.
pub const RED_ZONE: usize = 256 << 10;

/// Whether the current thread has at least [`RED_ZONE`] of stack left. True where the stack's
/// extent cannot be known (then the other limits, on calls and nesting, still hold).
pub fn enough() -> bool {
    left_at_least(RED_ZONE)
}

/// Whether the current thread has at least `bytes` of stack left (true where that cannot be
/// known).
pub fn left_at_least(bytes: usize) -> bool {
    stacker::remaining_stack().is_none_or(|left| left >= bytes)
}

/// Stack that parsing, lowering and compiling one statement may need: their recursion
/// follows the statement's nesting, which the syntax bounds (10,000 chained operators, 200
/// brackets), unlike evaluation's, so a fixed size holds the deepest statement allowed.
/// Reserved address space: the memory is used only as deep as the recursion goes.
pub const PHASE_STACK: usize = 64 << 20;

/// Runs `f` with at least [`PHASE_STACK`] of stack: on this thread's if it has that much
/// left (the CLI's threads have 512 MiB), else on a fresh segment.
pub fn with_phase_stack<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(PHASE_STACK, PHASE_STACK, f)
}

/// Runs `f`, on a fresh stack segment if the thread has less than [`RED_ZONE`] left: for
/// the recursions over values that cannot fail, such as printing a value nested deeply (a
/// position grown one list deeper by each move), so that they never overflow the stack.
pub fn grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, 8 << 20, f)
}
