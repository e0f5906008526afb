//! What `cgl diff` compares: the facts of every position reachable from some starts (its
//! outcome, Grundy value, remoteness and game value, where each is defined), keyed by the
//! position as cgl prints it, so that two versions of a game, each in a session of its own,
//! can be set side by side.

use super::drawing::Unwalked;
use super::Session;
use crate::diag::{Code, Diag, Span};
use crate::eval::builtins::Builtin;
use crate::value::Value;

/// The facts of one position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// Its outcome class.
    pub outcome: String,
    /// Its Grundy value, where it has one (normal play, no draws, impartial).
    pub grundy: Option<String>,
    /// Its remoteness, where it has one.
    pub remoteness: Option<String>,
    /// Its game value (a partizan position's canonical form).
    pub value: Option<String>,
}

impl Facts {
    /// The facts that differ from `other`'s, each as `name: mine → theirs`.
    pub fn changes(&self, newer: &Facts) -> Vec<String> {
        let none = || "none".to_string();
        let mut out = Vec::new();
        let mut one = |name: &str, a: Option<&String>, b: Option<&String>| {
            if a != b {
                let a = a.cloned().unwrap_or_else(none);
                let b = b.cloned().unwrap_or_else(none);
                out.push(format!("{name} {a} → {b}"));
            }
        };
        one("outcome", Some(&self.outcome), Some(&newer.outcome));
        one("grundy", self.grundy.as_ref(), newer.grundy.as_ref());
        one(
            "remoteness",
            self.remoteness.as_ref(),
            newer.remoteness.as_ref(),
        );
        one("value", self.value.as_ref(), newer.value.as_ref());
        out
    }
}

impl Session {
    /// Each position reachable from `starts` (at most `most`), as cgl prints it, with its
    /// facts, in the order a breadth-first walk meets them.
    pub fn position_facts(
        &mut self,
        starts: &[Value],
        span: Span,
        most: usize,
    ) -> Result<Vec<(String, Facts)>, Vec<Diag>> {
        if let Some(bad) = starts.iter().find(|s| !matches!(s, Value::Pos(_))) {
            return Err(vec![Diag::error(
                Code::PlotUsage,
                format!("`cgl diff` compares positions, not {}", bad.a_type_name()),
            )
            .label(span, format!("this gives {}", self.show_short(bad)))
            .help(
                "give a position or a list of them, e.g. `[Kayles(n) for n in 0..20]`",
            )]);
        }
        let reached = self.reachable(starts, span, most).map_err(|e| match e {
            Unwalked::Failed(d) => d,
            Unwalked::TooMany => vec![Diag::error(
                Code::PlotTooLarge,
                format!("more than {most} positions are reachable from these"),
            )
            .label(span, "from these")
            .help("compare fewer positions, or raise --max-positions")],
        })?;
        let partizan = starts.first().is_some_and(|s| self.is_partizan(s));
        let mut out = Vec::with_capacity(reached.order.len());
        for p in &reached.order {
            self.stop().check().map_err(|d| vec![*d])?;
            let outcome = self
                .analyse(Builtin::Outcome, p, span)
                .map_err(|d| vec![*d])?;
            let defined =
                |s: &mut Session, b: Builtin| s.analyse(b, p, span).ok().map(|v| s.show(&v));
            let facts = Facts {
                outcome: self.show(&outcome),
                grundy: if partizan {
                    None
                } else {
                    defined(self, Builtin::Grundy)
                },
                remoteness: if partizan {
                    None
                } else {
                    defined(self, Builtin::Remoteness)
                },
                value: if partizan {
                    defined(self, Builtin::Value)
                } else {
                    None
                },
            };
            out.push((self.show(p), facts));
        }
        // A fact cut short by the deadline reads as none above: none is given then.
        self.stop().check().map_err(|d| vec![*d])?;
        Ok(out)
    }
}
