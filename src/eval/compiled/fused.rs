//! Fused list forms: a filter of one comparison of the item applied to a computed list
//! (`trim([... for ...])` with `fn trim(rows) = [l for l in rows if l > 0]`) runs as one
//! pass over the output, with no intermediate list register.
//!
//! The meaning is the unfused form's: the argument is computed (and fails, or is cut by the
//! collection limit, where it did), its items are counted as the comprehension's steps, and
//! the items that pass the test are kept in order.

use super::lanes::tick_n;
use super::*;

/// `[x for x in xs if x op y]` of a list `xs` that is computed, not a register.
#[derive(Debug, Clone)]
pub(super) struct Filter {
    /// The list filtered.
    pub(super) list: ListExpr,
    /// The comparison each item must pass.
    pub(super) test: ItemTest,
    /// Whether the list is a comprehension that runs in blocks (see [`Filter::comp_blocks`]).
    pub(super) comp_blocks: bool,
}

/// An inlined call of a function whose body filters its list parameter, `Let(bindings,
/// [x for x in r if x op y])` with `r` bound to a computed list by one of the bindings, as a
/// [`Filter`] of that list (the other bindings still bound first); any other call as it is.
///
/// The other arguments are bound before the list is computed, not in order: compiled
/// evaluation has no effects, and any failure hands the rule to the interpreter, which
/// evaluates in order and reports the first error.
pub(super) fn fuse_call(mut bindings: Vec<Binding>, body: ListExpr) -> ListExpr {
    let ListExpr::Comp(gen, _) = &body else {
        return ListExpr::Let(bindings, Box::new(body));
    };
    let Some((list, test, true)) = gen.item_test() else {
        return ListExpr::Let(bindings, Box::new(body));
    };
    let at = bindings
        .iter()
        .position(|b| matches!(b, Binding::List(r, _) if *r == list));
    let Some(at) = at else {
        return ListExpr::Let(bindings, Box::new(body));
    };
    let Binding::List(_, computed) = bindings.remove(at) else {
        return ListExpr::Let(bindings, Box::new(body));
    };
    let comp_blocks = matches!(&computed, ListExpr::Comp(gen, _)
        if gen.progs.is_some() && gen.item_test().is_none());
    let filter = ListExpr::Filter(Box::new(Filter {
        list: computed,
        test,
        comp_blocks,
    }));
    if bindings.is_empty() {
        filter
    } else {
        ListExpr::Let(bindings, Box::new(filter))
    }
}

impl Filter {
    /// Appends the items of the list that pass the test to `out`.
    pub(super) fn eval_into(&self, run: &mut Run<'_>, out: &mut Vec<i64>) -> Eval<()> {
        super::mark(super::Reached::Fused);
        if let (true, ListExpr::Comp(gen, _)) = (self.comp_blocks, &self.list) {
            return self.comp_blocks(gen, run, out);
        }
        let start = out.len();
        self.list.eval_into(run, out)?;
        let made = out.len() - start;
        tick_n(&mut run.ticks, run.stop, made)?;
        self.test.retain_from(out, start, &run.b.regs);
        if (out.len() - start) as u64 > run.max_collection {
            return Err(Interrupt::Fallback);
        }
        Ok(())
    }

    /// A filter of a comprehension that runs in blocks: each block's kept lanes tested as
    /// they are appended, the comprehension's list never built. Its length is still counted
    /// against the collection limit, and as the filter's steps.
    fn comp_blocks(&self, gen: &Gen, run: &mut Run<'_>, out: &mut Vec<i64>) -> Eval<()> {
        let limit = run.max_collection;
        let start = out.len();
        if let Some(done) = gen.body_into(run, out) {
            // One block and no guard: the lanes written onto `out`, then filtered in place.
            let made = done? as u64;
            if made > limit {
                return Err(Interrupt::Fallback);
            }
            self.test.retain_from(out, start, &run.b.regs);
            return tick_n(&mut run.ticks, run.stop, made as usize);
        }
        // The test's other side is a literal or a register of the filter's frame, which the
        // comprehension does not bind.
        let y = self.test.other_value(&run.b.regs);
        let mut made = 0u64;
        gen.blocks(run, |values, keep, n| {
            made += count_kept(keep, n);
            if made > limit {
                return Err(Interrupt::Fallback);
            }
            self.test.extend_passing(out, values, keep, n, y);
            Ok(())
        })?;
        tick_n(&mut run.ticks, run.stop, made as usize)
    }
}
