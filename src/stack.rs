//! The stack guard. Parsing, lowering and evaluation recurse over what the user wrote (nested
//! expressions, calls of user functions, values inside values); each recursive step asks
//! [`enough`] before it goes one level deeper, and stops with a diagnostic when the thread's
//! stack is nearly used up. So no input overflows the stack, whatever the shape of its
//! recursion and whatever the size of the thread's stack: the bound is what the stack
//! really holds, measured, not a count of levels that assumes a size per level.

/// Stack that must be left for a recursive step to go on: well above what one step of cgl's
/// recursions uses between two checks (an interpreter frame, a few KiB at most), with room
/// to build and render the diagnostic that reports the depth.
pub const RED_ZONE: usize = 256 << 10;

/// Whether the current thread has at least [`RED_ZONE`] of stack left. True where the stack's
/// extent cannot be known (then the other limits, on calls and nesting, still hold).
pub fn enough() -> bool {
    stacker::remaining_stack().is_none_or(|left| left >= RED_ZONE)
}

/// Runs `f`, on a fresh stack segment of `size` bytes if the thread has less than
/// [`RED_ZONE`] left: for the few recursions that cannot fail, such as dropping or printing
/// a value nested very deeply, so that they never overflow the stack.
pub fn grow<R>(size: usize, f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, size, f)
}
