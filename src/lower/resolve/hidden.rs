//! The warning `cgl::resolve::hides_constant`: a file-wide name (a definition of the file, or
//! one it imports) that takes the name of a built-in constant, and that the file then uses.
//!
//! Only the soft constants ([`crate::lower::builtins::SOFT_CONSTANTS`]: `L`, `R`, `v`, `vv`) can be hidden
//! so; every other built-in name is refused as a definition. A use of such a name means the
//! definition, which is what the file may intend (`game L` written before partizan games)
//! or not (`const R = "R"` and then `outcome(g) == R`, false with no other word). Locals
//! (parameters, pattern variables) hide constants too, but only in the expression that
//! binds them, in plain sight, so they get no warning.

use std::collections::{BTreeMap, HashMap};

use super::{Exports, Global};
use crate::diag::{Code, Diag, Severity, Span};

/// One warning per hidden constant that the file uses, in the order of the constants'
/// first uses; `uses` in source order.
pub(super) fn warnings(
    uses: &[(String, Span)],
    exports: &Exports,
    imported: &HashMap<String, (Global, Span)>,
    imported_at: &HashMap<&str, Span>,
) -> Vec<Diag> {
    let mut by_name: BTreeMap<&str, Vec<Span>> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for (name, span) in uses {
        let spans = by_name.entry(name.as_str()).or_default();
        if spans.is_empty() {
            order.push(name.as_str());
        }
        spans.push(*span);
    }
    order
        .into_iter()
        .filter_map(|name| {
            let spans = &by_name[name];
            let first = *spans.first()?;
            let constant = describe(name)?;
            let local = exports.get(name);
            let (global, _) = local.or_else(|| imported.get(name))?;
            let kind = match global {
                Global::Game(_) => "game",
                Global::Fn(_) => "function",
                Global::Const(_) => "constant",
            };
            let mut diag = match local {
                Some((_, defined)) => Diag::error(
                    Code::ResolveHidesConstant,
                    format!("the {kind} `{name}` hides {constant}"),
                )
                .label(*defined, format!("this {kind} is named `{name}`")),
                None => {
                    let (_, import) = imported.get(name)?;
                    let d = Diag::error(
                        Code::ResolveHidesConstant,
                        format!("the imported {kind} `{name}` hides {constant}"),
                    )
                    .label(
                        *import,
                        format!("this import brings a {kind} named `{name}`"),
                    );
                    match imported_at.get(name) {
                        Some(defined) => d.label(*defined, format!("`{name}` is defined here")),
                        None => d,
                    }
                }
            };
            diag = diag.label(
                first,
                format!("so this `{name}` is the {kind}, not {constant}"),
            );
            if spans.len() > 1 {
                diag = diag.note(format!(
                    "the file uses `{name}` {} times, each time meaning the {kind}",
                    spans.len()
                ));
            }
            let help = format!(
                "if you meant {constant}, rename the {kind} (say `{name}_`); if you meant the \
                 {kind}, nothing is wrong"
            );
            Some(Diag {
                severity: Severity::Warning,
                ..diag.help(help)
            })
        })
        .collect()
}

/// What the constant `name` is, for the message; `None` for a name that is no soft constant
/// (each of [`crate::lower::builtins::SOFT_CONSTANTS`] has a line: a unit test checks).
fn describe(name: &str) -> Option<&'static str> {
    Some(match name {
        "L" => "the outcome class `L` (Left wins)",
        "R" => "the outcome class `R` (Right wins)",
        "v" => "the game value `v` (down)",
        "vv" => "the game value `vv` (double down)",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_soft_constant_is_described() {
        for name in crate::lower::builtins::SOFT_CONSTANTS {
            assert!(super::describe(name).is_some(), "{name}");
        }
    }
}
