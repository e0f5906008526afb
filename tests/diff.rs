//! `cgl diff`: two versions of Kayles (the teacher's and one that forgets the move of two
//! adjacent pins) compared position by position, against Grundy values worked out here by
//! brute force for both rule sets; identical versions; positions that only one reaches; and
//! a file with nothing to start from.

use std::collections::BTreeSet;

use crate::common::{cgl, temp_dir};

/// Grundy values of a row game where a move takes `takes` adjacent pins (each in `takes`)
/// and may split the row in two, for rows of 0..n pins.
fn grundy_rows(n: usize, takes: &[usize]) -> Vec<usize> {
    let mut g = vec![0usize; n];
    for len in 0..n {
        let mut seen = BTreeSet::new();
        for &t in takes {
            if t <= len {
                for left in 0..=len - t {
                    seen.insert(g[left] ^ g[len - t - left]);
                }
            }
        }
        g[len] = (0..).find(|x| !seen.contains(x)).unwrap_or(0);
    }
    g
}

const SOLUTION: &str = "examples/exercises/kayles/solution.game";
const ONE_PIN: &str = "examples/exercises/kayles/submissions/partly_wrong.game";

#[test]
fn diff_lists_the_rows_whose_values_changed_as_brute_force_says() {
    let (code, out, err) = cgl(&[
        "diff",
        SOLUTION,
        ONE_PIN,
        "--positions",
        "[Kayles(n) for n in 0..9]",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let changed: Vec<(String, Vec<String>)> = doc["changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let changes = c["changes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap().to_string());
            (
                c["position"].as_str().unwrap().to_string(),
                changes.collect(),
            )
        })
        .collect();
    let kayles = grundy_rows(9, &[1, 2]);
    let one_pin = grundy_rows(9, &[1]);
    for n in 0..9 {
        let name = format!("Kayles({n})");
        let found = changed.iter().find(|(p, _)| *p == name);
        if kayles[n] == one_pin[n] {
            assert!(
                found.is_none_or(|(_, c)| !c.iter().any(|x| x.starts_with("grundy"))),
                "{name}: {found:?}"
            );
        } else {
            let (_, c) = found.unwrap_or_else(|| panic!("{name} is not listed: {out}"));
            assert!(
                c.contains(&format!("grundy {} → {}", kayles[n], one_pin[n])),
                "{name}: {c:?}"
            );
        }
    }
    // Smallest first: a row before any sum.
    assert_eq!(changed[0].0, "Kayles(2)");
    // Both versions reach the same positions from these starts (only the values differ).
    assert_eq!(doc["only_old"], serde_json::json!([]));
    // The same file: nothing changed.
    let (code, out, _) = cgl(&["diff", SOLUTION, SOLUTION, "--positions", "Kayles(7)"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(": 0 changed, 0 only in"), "{out}");
}

#[test]
fn diff_counts_positions_only_one_version_reaches_and_needs_a_start() {
    let dir = temp_dir("diff");
    let a = dir.join("a.game");
    let b = dir.join("b.game");
    std::fs::write(
        &a,
        "game S {\n    position n\n    move n - k for k in [1, 2] if k <= n\n    start 6\n}\n",
    )
    .unwrap();
    std::fs::write(
        &b,
        "game S {\n    position n\n    move n - k for k in [1, 2, 4] if k <= n\n    start 7\n}\n",
    )
    .unwrap();
    let (code, out, err) = cgl(&["diff", &a.display().to_string(), &b.display().to_string()]);
    assert_eq!(code, 1, "{err}");
    // S(7) is reached by the new version only (its start). The P-positions stay the
    // multiples of 3 (taking 4 from 3k + 1 leaves 3(k - 1), already a win by 1), but S(4)
    // now wins at once, by taking all four: remoteness 3 becomes 1.
    assert!(out.contains("1 only in") && out.contains("  S(7)"), "{out}");
    assert!(
        out.contains("1 changed") && out.contains("S(4): remoteness 3 → 1"),
        "{out}"
    );
    let none = dir.join("none.game");
    std::fs::write(&none, "game T { position n  move n - 1 if n > 0 }\n").unwrap();
    let (code, _, err) = cgl(&[
        "diff",
        &none.display().to_string(),
        &none.display().to_string(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--positions"), "{err}");
}
