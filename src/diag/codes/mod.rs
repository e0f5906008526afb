//! The catalogue of diagnostic codes: every code cgl can report, with a one-line summary
//! (spec/language.md §11 lists the same lines) and the explanation `cgl explain CODE` prints.
//!
//! A [`Code`] is the only way to name a diagnostic's code, so a code cannot be invented at a
//! call site: [`super::Diag::error`] takes a `Code`. To add one, add one entry to the list
//! of its layer (`syntax.rs`, `lower.rs`, `eval.rs`, `analysis.rs` or `driver.rs`: variant,
//! name, summary, explanation); the tests then ask for a fail file in tests/fail/ that
//! produces it (or a reason in `tests/diagnostics.rs` why none can) and for its line in
//! spec/language.md.
//!
//! Each layer's file passes its entries on to the next file's macro, and `codes!` here defines
//! the one catalogue from them all. An entry is the variant, the code
//! (`"cgl::eval::something"`), a one-line summary without a full stop, and a raw string of a
//! few lines: what it means, a typical cause, how to fix it, an example indented.
//! `every_code_is_in_the_spec` (tests/diagnostics.rs) prints the row a new code needs in
//! spec/language.md §11.

use std::fmt;

/// Defines [`Code`] from its entries: `Variant = "cgl::phase::what", "summary", "explanation";`,
/// after the empty list of layers still to add theirs (see `syntax_codes!` below).
macro_rules! codes {
    ([] $($variant:ident = $name:literal, $summary:literal, $explanation:literal;)*) => {
        /// A diagnostic code: a stable name (`cgl::<phase>::<what>`) that tests, scripts and
        /// `cgl explain` match on.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $(
                #[doc = $summary]
                $variant,
            )*
        }

        impl Code {
            /// Every code, in catalogue order (grouped by phase).
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// The stable name, e.g. `cgl::graph::cycle`.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            /// What the code means, in one line.
            pub const fn summary(self) -> &'static str {
                match self {
                    $(Code::$variant => $summary,)*
                }
            }

            /// The explanation as written in the catalogue (indented; see [`Code::explain`]).
            const fn raw_explanation(self) -> &'static str {
                match self {
                    $(Code::$variant => $explanation,)*
                }
            }
        }
    };
}

impl Code {
    /// The code with this name; the `cgl::` prefix may be left out.
    pub fn from_name(name: &str) -> Option<Code> {
        let full = if name.starts_with("cgl::") {
            name.to_string()
        } else {
            format!("cgl::{name}")
        };
        Code::ALL.iter().copied().find(|c| c.name() == full)
    }

    /// The phase a code belongs to: `syntax` in `cgl::syntax::unexpected`, `internal` in
    /// `cgl::internal`.
    pub fn phase(self) -> &'static str {
        let rest = self.name().trim_start_matches("cgl::");
        rest.split("::").next().unwrap_or(rest)
    }

    /// The explanation `cgl explain` prints: what the code means, a typical cause, how to fix
    /// it and often an example, in plain text lines (the catalogue's indentation removed).
    pub fn explain(self) -> String {
        dedent(self.raw_explanation())
    }
}

/// A code debugs as its name in quotes, as a string code did: `"cgl::graph::cycle"`.
impl fmt::Debug for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.name(), f)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Text without its first and last blank lines and without the indentation its lines share.
fn dedent(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let first = lines.iter().position(|l| !l.trim().is_empty());
    let last = lines.iter().rposition(|l| !l.trim().is_empty());
    let (Some(first), Some(last)) = (first, last) else {
        return String::new();
    };
    let lines = &lines[first..=last];
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out = String::new();
    for line in lines {
        out.push_str(line.get(indent..).unwrap_or("").trim_end());
        out.push('\n');
    }
    out
}

// The entries, by layer; each file's macro passes its entries on to the next.
#[macro_use]
mod syntax;
#[macro_use]
mod lower;
#[macro_use]
mod eval;
#[macro_use]
mod analysis;
#[macro_use]
mod driver;

syntax_codes! { [lower_codes, eval_codes, analysis_codes, driver_codes, codes] }

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_well_formed_and_found_again() {
        let mut names: Vec<&str> = Code::ALL.iter().map(|c| c.name()).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "two codes with one name");
        for &code in Code::ALL {
            let name = code.name();
            let parts: Vec<&str> = name.split("::").collect();
            assert!(
                parts[0] == "cgl"
                    && (2..=3).contains(&parts.len())
                    && parts[1..]
                        .iter()
                        .all(|p| !p.is_empty()
                            && p.chars().all(|c| c.is_ascii_lowercase() || c == '_')),
                "{name}"
            );
            assert_eq!(Code::from_name(name), Some(code));
            assert_eq!(Code::from_name(&name["cgl::".len()..]), Some(code));
            assert_eq!(code.to_string(), name);
            assert_eq!(format!("{code:?}"), format!("{name:?}"));
        }
        assert_eq!(Code::from_name("cgl::graph::cycles"), None);
        assert_eq!(Code::GraphCycle.phase(), "graph");
        assert_eq!(Code::Internal.phase(), "internal");
    }

    #[test]
    fn every_code_is_explained() {
        for &code in Code::ALL {
            let summary = code.summary();
            assert!(
                !summary.is_empty() && !summary.contains('\n') && !summary.ends_with('.'),
                "{code}: the summary is one line without a full stop"
            );
            assert!(summary.len() <= 100, "{code}: a summary fits one line");
            let text = code.explain();
            assert!(
                text.lines().count() >= 3,
                "{code}: explain it in a few lines"
            );
            for line in text.lines() {
                assert!(
                    line.chars().count() <= 92,
                    "{code}: lines fit a terminal: {line:?}"
                );
                assert!(
                    !line.starts_with(' ') || line.starts_with("    "),
                    "{code}: {line:?}"
                );
            }
        }
    }

    #[test]
    fn dedent_keeps_relative_indentation() {
        assert_eq!(
            dedent("\n    a\n\n      b\n    c\n  "),
            "a\n\n  b\nc\n".to_string()
        );
    }
}
