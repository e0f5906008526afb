//! `cgl explain [CODE]`: a diagnostic code's explanation from the catalogue
//! ([`crate::api::Code`]), as `rustc --explain` gives one; without a code, the list of all.

use std::io::Write;

use crate::api::{did_you_mean, render, Code, Diag, RenderStyle, SourceMap};

/// Writes the explanation of `code` (or, with none, one line per code) to `out` and returns
/// 0; an unknown code gets a diagnostic on `err`, with the closest codes, and exit code 2.
pub fn explain(
    code: Option<&str>,
    style: RenderStyle,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let Some(asked) = code else {
        let _ = write!(out, "{}", list());
        return 0;
    };
    match Code::from_name(asked.trim()) {
        Some(code) => {
            let _ = write!(out, "{}", explanation(code));
            0
        }
        None => {
            let diag = unknown(asked.trim());
            let _ = write!(err, "{}", render(&diag, &SourceMap::default(), style));
            2
        }
    }
}

/// The text `cgl explain CODE` prints: the name and summary, then the explanation.
pub fn explanation(code: Code) -> String {
    format!("{}: {}\n\n{}", code.name(), code.summary(), code.explain())
}

/// Every code with its summary, one a line, in catalogue order (grouped by phase).
pub fn list() -> String {
    let width = Code::ALL.iter().map(|c| c.name().len()).max().unwrap_or(0);
    let mut text = String::new();
    let mut phase = "";
    for &code in Code::ALL {
        if code.phase() != phase {
            if !phase.is_empty() {
                text.push('\n');
            }
            phase = code.phase();
        }
        text.push_str(&format!("{:width$}  {}\n", code.name(), code.summary()));
    }
    text.push_str("\n`cgl explain CODE` explains one.\n");
    text
}

/// The diagnostic for a name that is no code: a close name if there is one, else the codes
/// that end in the same word (`cycle` finds `cgl::graph::cycle`).
fn unknown(asked: &str) -> Diag {
    let full = if asked.starts_with("cgl::") {
        asked.to_string()
    } else {
        format!("cgl::{asked}")
    };
    let names = Code::ALL.iter().map(|c| c.name());
    let diag = Diag::error(
        Code::ExplainUnknownCode,
        format!("`{asked}` is not a diagnostic code"),
    );
    if let Some(close) = did_you_mean(&full, names.clone()) {
        return diag.help(format!("did you mean `{close}`?"));
    }
    let last = full.rsplit("::").next().unwrap_or("");
    let same_word: Vec<String> = names
        .filter(|n| n.rsplit("::").next() == Some(last))
        .map(|n| format!("`{n}`"))
        .collect();
    match same_word.as_slice() {
        [] => diag.help("`cgl explain` without a code lists them all"),
        [one] => diag.help(format!("did you mean {one}?")),
        many => diag.help(format!("did you mean one of {}?", many.join(", "))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn help(asked: &str) -> String {
        unknown(asked).help.unwrap_or_default()
    }

    #[test]
    fn unknown_codes_get_the_closest_ones() {
        assert_eq!(
            help("cgl::graph::cycles"),
            "did you mean `cgl::graph::cycle`?"
        );
        assert_eq!(help("graph::cylce"), "did you mean `cgl::graph::cycle`?");
        assert_eq!(help("cycle"), "did you mean `cgl::graph::cycle`?");
        assert_eq!(
            help("arity"),
            "did you mean one of `cgl::resolve::arity`, `cgl::eval::arity`?"
        );
        assert_eq!(
            help("bananas"),
            "`cgl explain` without a code lists them all"
        );
        assert_eq!(unknown("x").code, Code::ExplainUnknownCode);
    }

    #[test]
    fn the_list_has_every_code_once() {
        let text = list();
        for &code in Code::ALL {
            let lines = text
                .lines()
                .filter(|l| l.split_whitespace().next() == Some(code.name()))
                .count();
            assert_eq!(lines, 1, "{code}");
        }
    }
}
