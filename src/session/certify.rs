//! Certificates of answers (`cgl certify`) and their checker (`cgl verify`). A certificate
//! is a JSON document that proves an impartial position's outcome (each P-position with all
//! its options, each N-position with one winning move, each draw with all its options, and a
//! rank that falls along every move the proof uses), its Grundy value (every position with
//! all its options and its value, the mex of theirs), or in a payoff game its score (every
//! position with all its options, its score, the negamax of theirs, and one move that keeps
//! it: both players' optimal strategies). [`Session::certificate`] writes one
//! from cgl's analyses; [`Session::verify`] re-checks one position by position using only the
//! game's rules: it evaluates each position as written, generates its moves, and compares;
//! of the analyses it asks only what a position without options is (normal or misère play,
//! a `draw if`, a payoff), which the rules say at once.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde::{Deserialize, Serialize};

use super::{Bindings, ParsedExpr, Session};
use crate::diag::{Code, Diag, Span};
use crate::eval::builtins::Builtin;
use crate::num::Rational;
use crate::value::{Outcome, Value};

/// What a certificate's `format` says.
pub const CERTIFICATE_FORMAT: &str = "cgl-certificate";

/// What a certificate proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Proves {
    /// The outcome of the first position.
    Outcome,
    /// The Grundy value of the first position.
    Grundy,
    /// The score of the first position, a payoff game's.
    Score,
}

/// A certificate, as `cgl certify` writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Certificate {
    /// [`CERTIFICATE_FORMAT`].
    pub format: String,
    /// 1.
    pub version: u32,
    /// What it proves, of `positions[0]`.
    pub proves: Proves,
    /// The positions; the first is the one the claim is about.
    pub positions: Vec<Entry>,
}

/// One position of a certificate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The position as cgl prints it (an expression that makes it again).
    pub position: String,
    /// Its outcome: `N`, `P` or `D` (outcome certificates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// A rank that every move the proof uses lowers (its remoteness); none for a draw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<u64>,
    /// Its Grundy value (Grundy certificates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grundy: Option<u64>,
    /// Its score, an integer or `a/b` (score certificates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    /// All its options, as indices of entries (P-positions, draws, Grundy and score
    /// certificates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<usize>>,
    /// A winning move of an N-position: the index of a P-position among its options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winning_move: Option<usize>,
    /// An optimal move of a score certificate's position: an option whose score, negated,
    /// is this one's. Together they are both players' strategies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_move: Option<usize>,
}

/// A score as a certificate writes it, of a number value.
fn score_of(v: &Value) -> Option<Rational> {
    match v {
        Value::Int(n) => Some(Rational::int(*n)),
        Value::Rational(r) => Some(*r),
        _ => None,
    }
}

/// A score as a certificate writes it (`7`, `-11/12`), read back.
fn parse_score(text: &str) -> Option<Rational> {
    let (num, den) = text.split_once('/').unwrap_or((text, "1"));
    let r = Rational::new(num.parse().ok()?, den.parse().ok()?)?;
    (r.to_string() == text).then_some(r)
}

fn refuse(message: String, help: &str) -> Vec<Diag> {
    vec![Diag::error(Code::CertificateRefused, message).help(help)]
}

impl Session {
    /// A certificate of what `start` is (its outcome, or with `proves` Grundy its Grundy
    /// value), at most `most` positions. A payoff game's outcome is its score's sign: its
    /// certificate proves the score.
    pub fn certificate(
        &mut self,
        start: &Value,
        span: Span,
        proves: Proves,
        most: usize,
    ) -> Result<Certificate, Vec<Diag>> {
        let one = |d: Box<Diag>| vec![*d];
        if !matches!(start, Value::Pos(_)) || self.is_partizan(start) {
            return Err(vec![Diag::error(
                Code::CertificateRefused,
                format!(
                    "a certificate proves an impartial position's outcome or Grundy value, not \
                     {}'s",
                    self.show_short(start)
                ),
            )
            .label(span, "this")
            .help("certify a position of an impartial game, e.g. `Kayles(7)`")]);
        }
        // A payoff game is won by a score, not by the last move: the score is what is proved.
        let proves = match (proves, self.analyse(Builtin::Score, start, span).is_ok()) {
            (Proves::Grundy, true) => {
                return Err(vec![Diag::error(
                    Code::CertificateRefused,
                    format!(
                        "{} is a position of a payoff game, which has no Grundy value",
                        self.show_short(start)
                    ),
                )
                .label(span, "a payoff game's position")
                .help("certify its score: `cgl certify` without --grundy")])
            }
            (_, true) => Proves::Score,
            (p, false) => p,
        };
        let mut index: BTreeMap<Value, usize> = BTreeMap::new();
        let mut order: Vec<Value> = vec![start.clone()];
        index.insert(start.clone(), 0);
        let mut entries: Vec<Entry> = Vec::new();
        let mut queue = VecDeque::from([0usize]);
        let mut todo: Vec<Option<Entry>> = vec![None];
        while let Some(i) = queue.pop_front() {
            self.stop().check().map_err(one)?;
            let here = order[i].clone();
            let options = self.play_options(&here, None, span).map_err(one)?;
            let outcome = match self.analyse(Builtin::Outcome, &here, span).map_err(one)? {
                Value::Outcome(o) => o,
                _ => Outcome::D,
            };
            let rank = |s: &mut Session, p: &Value| match s.analyse(Builtin::Remoteness, p, span) {
                Ok(Value::Int(n)) => u64::try_from(n).ok(),
                _ => None,
            };
            let mut entry = Entry {
                position: self.show(&here),
                outcome: None,
                rank: None,
                grundy: None,
                score: None,
                options: None,
                winning_move: None,
                best_move: None,
            };
            // The options the proof needs: all, or for an N-position one winning move.
            let needed: Vec<Value> = match proves {
                Proves::Score => {
                    let score = |s: &mut Session, p: &Value| {
                        s.analyse(Builtin::Score, p, span)
                            .map(|v| score_of(&v))
                            .map_err(one)
                    };
                    let mine = score(self, &here)?;
                    entry.score = mine.map(|r| r.to_string());
                    let mut best = None;
                    for (k, q) in options.iter().enumerate() {
                        let keeps = score(self, q)?.and_then(Rational::checked_neg) == mine;
                        if keeps && best.is_none() {
                            best = Some(k);
                        }
                    }
                    entry.best_move = best;
                    if best.is_none() && !options.is_empty() {
                        return Err(vec![Diag::internal(format!(
                            "no option of {} keeps its score",
                            entry.position
                        ))]);
                    }
                    options.clone()
                }
                Proves::Grundy => {
                    let g = self.analyse(Builtin::Grundy, &here, span).map_err(one)?;
                    entry.grundy = g.as_int().and_then(|g| u64::try_from(g).ok());
                    options.clone()
                }
                Proves::Outcome => {
                    entry.outcome = Some(outcome.to_string());
                    entry.rank = rank(self, &here);
                    if outcome == Outcome::N {
                        let mut best: Option<(u64, Value)> = None;
                        for q in &options {
                            let is_p = self.analyse(Builtin::Outcome, q, span).map_err(one)?
                                == Value::Outcome(Outcome::P);
                            if let (true, Some(r)) = (is_p, rank(self, q)) {
                                if best.as_ref().is_none_or(|(b, _)| r < *b) {
                                    best = Some((r, q.clone()));
                                }
                            }
                        }
                        match best {
                            Some((_, q)) => vec![q],
                            // Won without a move: misère play's end.
                            None if options.is_empty() => Vec::new(),
                            // cgl's own answers disagree: no proof can be written of them.
                            None => {
                                return Err(vec![Diag::internal(format!(
                                    "{} is N, but no option is a P-position with a remoteness",
                                    entry.position
                                ))])
                            }
                        }
                    } else {
                        options.clone()
                    }
                }
            };
            let mut ids = Vec::with_capacity(needed.len());
            for q in needed {
                let id = match index.get(&q) {
                    Some(&id) => id,
                    None => {
                        if order.len() == most {
                            return Err(refuse(
                                format!("the certificate would have more than {most} positions"),
                                "certify a smaller position, or raise --max-positions",
                            ));
                        }
                        order.push(q.clone());
                        index.insert(q, order.len() - 1);
                        todo.push(None);
                        queue.push_back(order.len() - 1);
                        order.len() - 1
                    }
                };
                ids.push(id);
            }
            if proves == Proves::Outcome && outcome == Outcome::N {
                entry.winning_move = ids.first().copied();
            } else {
                entry.best_move = entry.best_move.map(|k| ids[k]);
                entry.options = Some(ids);
            }
            todo[i] = Some(entry);
        }
        // A value cut short by the deadline reads as none above: none is given then.
        self.stop().check().map_err(one)?;
        entries.extend(todo.into_iter().flatten());
        // A mex or a negamax proves a value only where no option leads back.
        let (why, help) = match proves {
            Proves::Outcome => ("", ""),
            Proves::Grundy => (
                "a Grundy value there is no mex of values below",
                "certify its outcome instead (cgl certify without --grundy)",
            ),
            Proves::Score => (
                "a loopy payoff game's score is no negamax of scores below, and its \
                 certificate is not written yet",
                "certify a position whose play cannot repeat",
            ),
        };
        if proves != Proves::Outcome {
            entries = parents_first(entries).ok_or_else(|| {
                refuse(
                    format!("the positions reachable from this one have a cycle: {why}"),
                    help,
                )
            })?;
        }
        Ok(Certificate {
            format: CERTIFICATE_FORMAT.to_string(),
            version: 1,
            proves,
            positions: entries,
        })
    }

    /// Checks a certificate against the game as the loaded files `scope_files` define it:
    /// the first error found, or what it proves of its first position, in words.
    pub fn verify(&mut self, cert: &Certificate, scope: &Bindings) -> Result<String, Vec<Diag>> {
        let bad = |at: usize, why: String| {
            vec![Diag::error(
                Code::CertificateRefused,
                format!("position {at} of the certificate: {why}"),
            )
            .help("the certificate does not prove its claim: make it again with `cgl certify`")]
        };
        if cert.format != CERTIFICATE_FORMAT || cert.version != 1 {
            return Err(refuse(
                format!(
                    "a `{}` version {}, not a {CERTIFICATE_FORMAT} version 1",
                    cert.format, cert.version
                ),
                "make the certificate with `cgl certify`",
            ));
        }
        let n = cert.positions.len();
        if n == 0 {
            return Err(refuse(
                "the certificate has no positions".into(),
                "make it with `cgl certify`",
            ));
        }
        // Each position made again from its text, and printed as the text says.
        let mut values = Vec::with_capacity(n);
        let mut seen = BTreeSet::new();
        for (i, e) in cert.positions.iter().enumerate() {
            self.stop().check().map_err(|d| vec![*d])?;
            let file = self.add_source(format!("<certificate position {i}>"), e.position.clone());
            let value = ParsedExpr::parse(file, &e.position, &(0..e.position.len()))
                .and_then(|p| self.eval_parsed(&p, scope))
                .map_err(|_| {
                    bad(
                        i,
                        format!("`{}` is not a position of these games", e.position),
                    )
                })?;
            if !matches!(value, Value::Pos(_)) || self.show(&value) != e.position {
                return Err(bad(
                    i,
                    format!("`{}` is not a position as cgl writes it", e.position),
                ));
            }
            if !seen.insert(e.position.clone()) {
                return Err(bad(i, format!("`{}` is listed twice", e.position)));
            }
            values.push(value);
        }
        let span = Span::new(crate::diag::FileId(0), 0, 0);
        let entry = |id: usize| cert.positions.get(id);
        for (i, e) in cert.positions.iter().enumerate() {
            self.stop().check().map_err(|d| vec![*d])?;
            let actual: BTreeSet<String> = self
                .play_options(&values[i], None, span)
                .map_err(|d| vec![*d])?
                .iter()
                .map(|q| self.show(q))
                .collect();
            let listed = |ids: &[usize]| -> Result<BTreeSet<String>, Vec<Diag>> {
                ids.iter()
                    .map(|&id| {
                        entry(id)
                            .map(|o| o.position.clone())
                            .ok_or_else(|| bad(i, format!("option {id} is not in the certificate")))
                    })
                    .collect()
            };
            let all_options = |what: &str| -> Result<Vec<usize>, Vec<Diag>> {
                let ids = e
                    .options
                    .clone()
                    .ok_or_else(|| bad(i, format!("{what} needs all its options")))?;
                if listed(&ids)? != actual || ids.len() != actual.len() {
                    return Err(bad(
                        i,
                        format!("its options are not those of `{}`", e.position),
                    ));
                }
                Ok(ids)
            };
            // Entries of a value's proof are written parents first: an option listed before
            // its position could close a cycle, where a mex or a negamax proves nothing.
            let after = |id: usize| match id > i {
                true => Ok(()),
                false => Err(bad(
                    i,
                    format!(
                        "option {id} comes before it (a certificate of a value lists each \
                         option after its position)"
                    ),
                )),
            };
            match cert.proves {
                Proves::Score => {
                    let score = |at: usize| {
                        entry(at)
                            .and_then(|o| o.score.as_deref())
                            .and_then(parse_score)
                            .ok_or_else(|| bad(at, "it has no score (an integer or a/b)".into()))
                    };
                    let mine = score(i)?;
                    let ids = all_options("a score")?;
                    if ids.is_empty() {
                        if e.best_move.is_some() {
                            return Err(bad(i, format!("`{}` has no move", e.position)));
                        }
                        // The rules say what an end pays.
                        let pays = self
                            .analyse(Builtin::Score, &values[i], span)
                            .map_err(|d| vec![*d])?;
                        if score_of(&pays) != Some(mine) {
                            return Err(bad(
                                i,
                                format!(
                                    "`{}` is an end that pays {}, not {mine}",
                                    e.position,
                                    self.show(&pays)
                                ),
                            ));
                        }
                        continue;
                    }
                    let mut best = None;
                    for &id in &ids {
                        after(id)?;
                        let theirs = score(id)?.checked_neg().ok_or_else(|| {
                            bad(id, "its score, negated, does not fit in 64 bits".into())
                        })?;
                        best = best.max(Some(theirs));
                    }
                    if best != Some(mine) {
                        let best = best.map(|b| b.to_string()).unwrap_or_default();
                        return Err(bad(
                            i,
                            format!(
                                "its score is {mine}, but the best of its options' scores, \
                                 negated, is {best}"
                            ),
                        ));
                    }
                    let m = e.best_move.ok_or_else(|| {
                        bad(i, "a position with moves needs an optimal move".into())
                    })?;
                    if !ids.contains(&m) {
                        return Err(bad(
                            i,
                            format!("its optimal move {m} is not one of its options"),
                        ));
                    }
                    if score(m)?.checked_neg() != Some(mine) {
                        return Err(bad(
                            i,
                            format!("its optimal move {m} does not keep its score"),
                        ));
                    }
                }
                Proves::Grundy => {
                    let g = e
                        .grundy
                        .ok_or_else(|| bad(i, "it has no Grundy value".into()))?;
                    let ids = all_options("a Grundy value")?;
                    let mut theirs = BTreeSet::new();
                    for &id in &ids {
                        after(id)?;
                        theirs.insert(
                            entry(id)
                                .and_then(|o| o.grundy)
                                .ok_or_else(|| bad(id, "it has no Grundy value".into()))?,
                        );
                    }
                    let mex = (0..).find(|k| !theirs.contains(k)).unwrap_or(0);
                    if self.ends_misere(&values[i]) {
                        return Err(bad(i, "a Grundy value of misère play is not a mex".into()));
                    }
                    if g != mex {
                        return Err(bad(
                            i,
                            format!(
                                "its Grundy value is {g}, but the mex of its options' is {mex}"
                            ),
                        ));
                    }
                }
                Proves::Outcome => {
                    let outcome = e
                        .outcome
                        .as_deref()
                        .ok_or_else(|| bad(i, "it has no outcome".into()))?;
                    let rank = e.rank;
                    let lower = |id: usize| -> Result<(), Vec<Diag>> {
                        let theirs = entry(id).and_then(|o| o.rank);
                        match (rank, theirs) {
                            (Some(a), Some(b)) if b < a => Ok(()),
                            _ => Err(bad(i, format!("its rank does not fall to option {id}'s"))),
                        }
                    };
                    let outcome_of = |id: usize| {
                        entry(id)
                            .and_then(|o| o.outcome.clone())
                            .unwrap_or_default()
                    };
                    if actual.is_empty() {
                        if e.options.as_ref().is_some_and(|o| !o.is_empty())
                            || e.winning_move.is_some()
                        {
                            return Err(bad(i, format!("`{}` has no move", e.position)));
                        }
                        // The rules say what a position without options is.
                        let ends = self
                            .analyse(Builtin::Outcome, &values[i], span)
                            .map_err(|d| vec![*d])?;
                        if self.show(&ends) != outcome {
                            return Err(bad(
                                i,
                                format!(
                                    "`{}` has no move, so it is {}, not {outcome}",
                                    e.position,
                                    self.show(&ends)
                                ),
                            ));
                        }
                        if outcome != "D" && rank.is_none() {
                            return Err(bad(i, "it has no rank".into()));
                        }
                        continue;
                    }
                    match outcome {
                        "N" => {
                            let w = e.winning_move.ok_or_else(|| {
                                bad(i, "an N-position needs a winning move".into())
                            })?;
                            let target = listed(&[w])?;
                            if !target.is_subset(&actual) {
                                return Err(bad(
                                    i,
                                    format!(
                                        "its winning move {w} is not a move of `{}`",
                                        e.position
                                    ),
                                ));
                            }
                            if outcome_of(w) != "P" {
                                return Err(bad(
                                    i,
                                    format!("its winning move {w} leaves no P-position"),
                                ));
                            }
                            lower(w)?;
                        }
                        "P" => {
                            for id in all_options("a P-position")? {
                                if outcome_of(id) != "N" {
                                    return Err(bad(
                                        i,
                                        format!("its option {id} is not an N-position"),
                                    ));
                                }
                                lower(id)?;
                            }
                        }
                        "D" => {
                            let ids = all_options("a draw")?;
                            if ids.iter().any(|&id| outcome_of(id) == "P") {
                                return Err(bad(
                                    i,
                                    "a draw with a move to a P-position is a win".into(),
                                ));
                            }
                            if !ids.iter().any(|&id| outcome_of(id) == "D") {
                                return Err(bad(i, "a draw needs a move to a draw".into()));
                            }
                        }
                        other => {
                            return Err(bad(
                                i,
                                format!("`{other}` is not an outcome of an impartial position"),
                            ))
                        }
                    }
                }
            }
        }
        let first = &cert.positions[0];
        Ok(match cert.proves {
            Proves::Score => format!(
                "score({}) == {}",
                first.position,
                first.score.clone().unwrap_or_default()
            ),
            Proves::Grundy => format!(
                "grundy({}) == {}",
                first.position,
                first.grundy.unwrap_or(0)
            ),
            Proves::Outcome => format!(
                "{} is {}",
                first.position,
                first.outcome.clone().unwrap_or_default()
            ),
        })
    }

    /// Whether a position is played misère.
    fn ends_misere(&self, position: &Value) -> bool {
        matches!(position, Value::Pos(p) if p.is_misere())
    }
}

/// The entries of a Grundy certificate renumbered so that each comes before its options (a
/// topological order, by depth-first search), or `None` if the options close a cycle.
fn parents_first(entries: Vec<Entry>) -> Option<Vec<Entry>> {
    let n = entries.len();
    let children = |i: usize| entries[i].options.clone().unwrap_or_default();
    // 0: not seen, 1: on the stack, 2: done.
    let mut mark = vec![0u8; n];
    let mut finished = Vec::with_capacity(n);
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    mark[0] = 1;
    while let Some((i, k)) = stack.pop() {
        let kids = children(i);
        if let Some(&c) = kids.get(k) {
            stack.push((i, k + 1));
            match mark[c] {
                0 => {
                    mark[c] = 1;
                    stack.push((c, 0));
                }
                1 => return None,
                _ => {}
            }
        } else {
            mark[i] = 2;
            finished.push(i);
        }
    }
    finished.reverse();
    let mut new_id = vec![0usize; n];
    for (new, &old) in finished.iter().enumerate() {
        new_id[old] = new;
    }
    let mut out: Vec<Option<Entry>> = vec![None; n];
    for (old, mut e) in entries.into_iter().enumerate() {
        e.options = e
            .options
            .map(|ids| ids.into_iter().map(|id| new_id[id]).collect());
        e.best_move = e.best_move.map(|id| new_id[id]);
        out[new_id[old]] = Some(e);
    }
    out.into_iter().collect()
}
