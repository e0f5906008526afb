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
//!
//! For the same reason a call of a function whose arguments are all literals or inputs of
//! the run (`won(b, 1)`) has one value in a run wherever it is written: every such call of
//! the same function on the same arguments shares one memo id ([`FixedCall`]), so a
//! position's `draw if not won(b, 1) and ...`, compiled into one run with its `terminal if
//! over(b)` (see `conds.rs`), reads the value `over(b)` computed instead of computing it
//! again. The first call to be evaluated computes it, so a failure is still raised where
//! the calls' order first reaches one.

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

/// A call whose arguments are all the same through a run: the function, the kind of its
/// value, and the arguments as the run sees them.
#[derive(Debug, PartialEq)]
pub(super) struct FixedCall {
    function: usize,
    kind: Kind,
    args: Vec<FixedArg>,
}

/// An argument of a [`FixedCall`].
#[derive(Debug, PartialEq)]
enum FixedArg {
    Int(i64),
    Bool(bool),
    List(Vec<i64>),
    Rows(Vec<std::sync::Arc<[i64]>>),
    /// A register holding the same value all through the run: an input, or a rows register.
    Reg(u32),
}

impl FixedArg {
    /// The argument a binding passes, if it is the same all through a run (its register
    /// read in place or copied is the same value).
    fn of(binding: &lists::Binding) -> Option<FixedArg> {
        use lists::Binding;
        Some(match binding {
            Binding::Int(_, IntExpr::Lit(n)) => FixedArg::Int(*n),
            Binding::Bool(_, BoolExpr::Lit(b)) => FixedArg::Bool(*b),
            Binding::List(_, ListExpr::Lit(items)) => FixedArg::List(items.to_vec()),
            Binding::Rows(_, rows) => FixedArg::Rows(rows.rows.clone()),
            Binding::Int(_, IntExpr::Reg(r))
            | Binding::List(_, ListExpr::Reg(r))
            | Binding::Bool(_, BoolExpr::Reg(r))
            | Binding::Alias(_, r) => FixedArg::Reg(*r),
            _ => return None,
        })
    }
}

impl Compiler<'_> {
    /// The memo key of a call of function `call.0` (of value kind `call.1`) whose arguments,
    /// `bindings`, are all the same through a run: the id of an earlier such call of the
    /// same function on the same arguments, or a new one. No argument is keyed: the key's
    /// list is empty, which says so with no loop (see [`fixed`]).
    pub(super) fn fixed_call(
        &mut self,
        (function, kind): (usize, Kind),
        bindings: &[lists::Binding],
    ) -> lists::MemoKey {
        let call = bindings
            .iter()
            .map(FixedArg::of)
            .collect::<Option<Vec<_>>>()
            .map(|args| FixedCall {
                function,
                kind,
                args,
            });
        if let Some(call) = &call {
            if let Some((_, id)) = self.fixed_calls.iter().find(|(c, _)| c == call) {
                return lists::MemoKey {
                    id: *id,
                    keyed: Vec::new(),
                };
            }
        }
        self.memos += 1;
        let id = self.memos - 1;
        if let Some(call) = call {
            self.fixed_calls.push((call, id));
        }
        lists::MemoKey {
            id,
            keyed: Vec::new(),
        }
    }
}

/// Binds an inlined call's arguments, those read in place (aliases) skipped.
#[inline]
pub(super) fn bind(bindings: &[lists::Binding], run: &mut Run<'_>) -> Eval<()> {
    use lists::Binding;
    for binding in bindings {
        // A literal or a variable is copied in place: `won(b, 1)`'s `1`.
        match binding {
            Binding::Alias(..) => {}
            Binding::Int(reg, IntExpr::Lit(n)) => run.b.regs[*reg as usize] = *n,
            Binding::Int(reg, IntExpr::Reg(r)) => {
                run.b.regs[*reg as usize] = run.b.regs[*r as usize]
            }
            Binding::Bool(reg, BoolExpr::Lit(b)) => run.b.regs[*reg as usize] = i64::from(*b),
            _ => bind_general(binding, run)?,
        }
    }
    Ok(())
}

/// [`lists::Binding::bind`] out of line: inlined, its frame would be paid by every call.
#[inline(never)]
fn bind_general(binding: &lists::Binding, run: &mut Run<'_>) -> Eval<()> {
    binding.bind(run)
}

/// The value of a remembered condition with no key (see [`once`]), out of line: the
/// general evaluation's frame is not paid for it.
#[inline(never)]
pub(super) fn once_bool(
    key: &lists::MemoKey,
    bindings: &[lists::Binding],
    body: &BoolExpr,
    run: &mut Run<'_>,
) -> Eval<bool> {
    let value = once(key, run, |run| {
        bind(bindings, run)?;
        Ok(i64::from(body.eval(run)?))
    })?;
    Ok(value != 0)
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
    mark(Reached::Hoist);
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
