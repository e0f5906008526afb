//! Loop-invariant parts of a rule, computed once a run: a subexpression inside a loop (a
//! rule's `for` clauses, a comprehension, a quantifier) that reads only the run's inputs (the
//! position, the parameters), literals and variables it binds itself is wrapped, at
//! compilation, in a remembered call with no arguments ([`IntExpr::Memo`] or
//! [`BoolExpr::Memo`] with an empty key). `turn(b)` in `move set(b, i, turn(b)) for i in
//! 0..9 if b[i] == 0`, or the same written out without a function, is then counted once per
//! position instead of once per option.
//!
//! Such a value is computed when it is first needed, not before the loop: a rule that never
//! reaches it (no option passes the guards) never evaluates it, and a part that would fail
//! (an index out of range, an overflow) fails exactly where the unhoisted rule first
//! evaluates it, handing the rule to the interpreter as before. Later uses read the value,
//! which is the one the unhoisted rule would compute again: the part is pure and its inputs
//! do not change within a run.

use super::*;

/// Where the reads and bindings of a subexpression start in the compiler's logs.
#[derive(Clone, Copy)]
pub(super) struct Mark {
    reads: usize,
    binds: usize,
}

impl Compiler<'_> {
    /// The logs' positions now: what is compiled next is read against them.
    pub(super) fn mark(&self) -> Mark {
        Mark {
            reads: self.reads.len(),
            binds: self.binds.len(),
        }
    }

    /// Whether what was compiled since `mark` reads only inputs of the run and registers it
    /// binds itself, so that its value is the same everywhere in a run.
    fn invariant_since(&self, mark: Mark) -> bool {
        let bound = &self.binds[mark.binds..];
        self.reads[mark.reads..]
            .iter()
            .all(|r| bound.contains(r) || self.inputs.iter().any(|(input, _)| input == r))
    }

    /// A remembered call with no arguments, for a part to compute once a run.
    fn once_key(&mut self) -> lists::MemoKey {
        self.memos += 1;
        lists::MemoKey {
            id: self.memos - 1,
            keyed: Vec::new(),
        }
    }

    /// `e`, compiled since `mark`, computed once a run if it is worth it: inside a loop,
    /// invariant, and more than a leaf or a cell read in place.
    pub(super) fn hoisted_int(&mut self, mark: Mark, e: IntExpr) -> IntExpr {
        let costly = match &e {
            IntExpr::Fold(_)
            | IntExpr::Let(..)
            | IntExpr::SumList(_)
            | IntExpr::ExtremeList(..)
            | IntExpr::Call(IntFn::Normalize, _) => true,
            IntExpr::Len(list) | IntExpr::Index(list, _) => !matches!(**list, ListExpr::Reg(_)),
            _ => false,
        };
        if self.loops == 0 || !costly || !self.invariant_since(mark) {
            return e;
        }
        IntExpr::Memo(self.once_key(), Vec::new(), Box::new(e))
    }

    /// [`Compiler::hoisted_int`] for a condition.
    pub(super) fn hoisted_bool(&mut self, mark: Mark, e: BoolExpr) -> BoolExpr {
        let costly = matches!(
            e,
            BoolExpr::Quant(..)
                | BoolExpr::IndexedQuant(_)
                | BoolExpr::LinesQuant(_)
                | BoolExpr::Let(..)
                | BoolExpr::In(..)
                | BoolExpr::TupleCmp(..)
        );
        if self.loops == 0 || !costly || !self.invariant_since(mark) {
            return e;
        }
        BoolExpr::Memo(self.once_key(), Vec::new(), Box::new(e))
    }

    /// Compiles with `f` as inside a loop: what it compiles may run many times a run.
    pub(super) fn in_loop<T>(&mut self, f: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        self.loops += 1;
        let result = f(self);
        self.loops -= 1;
        result
    }
}

/// Binds an inlined call's arguments, those read in place (aliases) skipped.
#[inline]
pub(super) fn bind(bindings: &[lists::Binding], run: &mut Run<'_>) -> Eval<()> {
    for binding in bindings {
        if !matches!(binding, lists::Binding::Alias(..)) {
            binding.bind(run)?;
        }
    }
    Ok(())
}

/// Whether a remembered call has no argument in its key: computed once a run.
#[inline]
pub(super) fn fixed(key: &lists::MemoKey) -> bool {
    !key.keyed.contains(&true)
}

/// The value of a remembered call with no key: from the run's memo once computed, else
/// computed by `f` (whose failure is the run's, as without the memo) and kept.
#[inline]
pub(super) fn once(
    key: &lists::MemoKey,
    run: &mut Run<'_>,
    f: impl FnOnce(&mut Run<'_>) -> Eval<i64>,
) -> Eval<i64> {
    let i = key.id as usize;
    if let Some(memo) = run.b.memo.get(i).filter(|m| m.valid) {
        return Ok(memo.value);
    }
    let value = f(run)?;
    if run.b.memo.len() <= i {
        run.b.memo.resize_with(i + 1, lists::Memo::default);
    }
    let memo = &mut run.b.memo[i];
    memo.valid = true;
    memo.value = value;
    memo.key.clear();
    Ok(value)
}
