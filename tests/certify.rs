//! `cgl certify` and `cgl verify`: certificates of outcomes (Kayles, a loopy game with
//! draws, misère Nim) and of Grundy values, checked by the verifier; and every field of
//! every position of a certificate corrupted in turn, each corruption refused.

use std::path::Path;

use serde_json::Value;

use crate::common::{cgl, temp_dir};

fn certify(
    dir: &Path,
    name: &str,
    file: &str,
    expr: &str,
    grundy: bool,
) -> (std::path::PathBuf, Value) {
    let out = dir.join(name);
    let mut args = vec!["certify", "-f", file, expr, "-o"];
    let path = out.display().to_string();
    args.push(&path);
    if grundy {
        args.push("--grundy");
    }
    let (code, _, err) = cgl(&args);
    assert_eq!(code, 0, "{err}");
    let doc = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    (out, doc)
}

fn verify(cert: &Path, file: &str) -> (i32, String, String) {
    cgl(&["verify", &cert.display().to_string(), file])
}

const KAYLES: &str = "examples/kayles.game";

#[test]
fn certificates_of_outcomes_and_grundy_values_verify() {
    let dir = temp_dir("certify");
    let (cert, doc) = certify(&dir, "k7.json", KAYLES, "Kayles(7)", false);
    assert_eq!(doc["positions"][0]["outcome"], "N");
    let (code, out, err) = verify(&cert, KAYLES);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("verified: Kayles(7) is N"), "{out}");
    // Grundy: Kayles(7) is 2 (000: 0 1 2 3 1 4 3 2 ...).
    let (cert, doc) = certify(&dir, "g7.json", KAYLES, "Kayles(7)", true);
    assert_eq!(doc["positions"][0]["grundy"], 2);
    let (code, out, _) = verify(&cert, KAYLES);
    assert_eq!(code, 0);
    assert!(out.starts_with("verified: grundy(Kayles(7)) == 2"), "{out}");
    // A P-position lists all its options; misère play, where a row of one pin is lost.
    let (cert, _) = certify(
        &dir,
        "p.json",
        "examples/nim.game",
        "Nim(3) + Nim(5) + Nim(6)",
        false,
    );
    assert_eq!(verify(&cert, "examples/nim.game").0, 0);
    let (cert, doc) = certify(
        &dir,
        "m.json",
        "examples/misere.game",
        "misere(Subtraction(5))",
        false,
    );
    assert_eq!(doc["positions"][0]["outcome"], "P", "{doc}");
    assert_eq!(verify(&cert, "examples/misere.game").0, 0);
    // A loopy game with draws.
    let loopy = dir.join("loopy.game");
    std::fs::write(&loopy, "game Walk {\n    position n\n    loopy\n    move (n + 1) % 4 if n != 3\n    move 3 if n == 0\n}\n").unwrap();
    let file = loopy.display().to_string();
    let (cert, doc) = certify(&dir, "d.json", &file, "Walk(1)", false);
    let (code, out, err) = verify(&cert, &file);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Walk(1) is"), "{out} {doc}");
    // A payoff game's score with both players' strategies (000 ex. 1.8: 2, as the
    // example's dynamic program says), also of fractions (-11/12); its Grundy value and a
    // loopy payoff game's score are refused with a diagnostic, not written unprovable, as is
    // a partizan position.
    let payoff = "examples/payoff.game";
    let (cert, doc) = certify(&dir, "s.json", payoff, "CoinsInALine(0, 8, 0)", false);
    assert_eq!(doc["proves"], "score");
    assert_eq!(doc["positions"][0]["score"], "2");
    let (code, out, err) = verify(&cert, payoff);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("verified: score(CoinsInALine(0, 8, 0)) == 2"),
        "{out}"
    );
    let (cert, doc) = certify(
        &dir,
        "f.json",
        payoff,
        "CoinsInALine[c = FRACTIONS](0, 3, 0)",
        false,
    );
    assert_eq!(doc["positions"][0]["score"], "-11/12");
    assert_eq!(verify(&cert, payoff).0, 0);
    for (expr, grundy) in [("CoinsInALine(0, 8, 0)", true), ("Ring(0)", false)] {
        let out = dir.join("y");
        let path = out.display().to_string();
        let mut args = vec!["certify", "-f", payoff, expr, "-o", &path];
        if grundy {
            args.push("--grundy");
        }
        let (code, _, err) = cgl(&args);
        assert_eq!(code, 1, "{expr}");
        assert!(err.contains("cgl::certificate::refused"), "{err}");
        assert!(!out.exists());
    }
    let (code, _, err) = cgl(&[
        "certify",
        "-f",
        "examples/domineering.game",
        "rect(2, 2)",
        "-o",
        &dir.join("x").display().to_string(),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("cgl::certificate::refused"), "{err}");
}

/// Every way to change one field of one position of `doc`.
fn corruptions(doc: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let n = doc["positions"].as_array().unwrap().len();
    for i in 0..n {
        let e = &doc["positions"][i];
        let mut put = |what: &str, field: &str, v: Option<Value>| {
            let mut d = doc.clone();
            match v {
                Some(v) => d["positions"][i][field] = v,
                None => {
                    d["positions"][i].as_object_mut().unwrap().remove(field);
                }
            }
            out.push((format!("position {i}: {what}"), d));
        };
        put(
            "another position",
            "position",
            Some(Value::from("Kayles(99)")),
        );
        put("no such position", "position", Some(Value::from("Kayles(")));
        if let Some(o) = e["outcome"].as_str() {
            for other in ["N", "P", "D", "L"] {
                if other != o {
                    put(
                        &format!("outcome {other}"),
                        "outcome",
                        Some(Value::from(other)),
                    );
                }
            }
            put("no outcome", "outcome", None);
        }
        if e["rank"].is_u64() && e["rank"].as_u64() != Some(0) {
            put("rank 0", "rank", Some(Value::from(0)));
            put("no rank", "rank", None);
        }
        if let Some(g) = e["grundy"].as_u64() {
            put("grundy + 1", "grundy", Some(Value::from(g + 1)));
            put("no grundy", "grundy", None);
        }
        if let Some(ids) = e["options"].as_array() {
            if !ids.is_empty() {
                let mut fewer = ids.clone();
                fewer.pop();
                put("an option less", "options", Some(Value::from(fewer)));
                let mut twice = ids.clone();
                twice.push(ids[0].clone());
                put("an option twice", "options", Some(Value::from(twice)));
            }
            let mut more = ids.clone();
            more.push(Value::from(n + 5));
            put("an option not there", "options", Some(Value::from(more)));
        }
        if let Some(score) = e["score"].as_str() {
            let other = if score == "7" { "8" } else { "7" };
            put("another score", "score", Some(Value::from(other)));
            put(
                "a score not reduced",
                "score",
                Some(Value::from(format!("{score}/1"))),
            );
            put("no score", "score", None);
        }
        if let (true, Some(score)) = (e["best_move"].is_u64(), e["score"].as_str()) {
            put("a best move to itself", "best_move", Some(Value::from(i)));
            put("no best move", "best_move", None);
            let negated = |t: &str| match t.strip_prefix('-') {
                Some(t) => t.to_string(),
                None if t == "0" => t.to_string(),
                None => format!("-{t}"),
            };
            for o in e["options"].as_array().unwrap() {
                let theirs = doc["positions"][o.as_u64().unwrap() as usize]["score"]
                    .as_str()
                    .unwrap();
                if negated(theirs) != score {
                    put("a move that loses", "best_move", Some(o.clone()));
                }
            }
        }
        if e["winning_move"].is_u64() {
            put("a move to itself", "winning_move", Some(Value::from(i)));
            put("no winning move", "winning_move", None);
        }
    }
    for other in ["outcome", "grundy", "score"] {
        if doc["proves"] != other {
            let mut d = doc.clone();
            d["proves"] = Value::from(other);
            out.push((format!("it proves {other}"), d));
        }
    }
    let mut d = doc.clone();
    d["version"] = Value::from(2);
    out.push(("its version".into(), d));
    out
}

#[test]
fn every_corrupted_field_is_refused() {
    let dir = temp_dir("certify-corrupt");
    let payoff = "examples/payoff.game";
    for (name, file, expr, grundy) in [
        ("outcome.json", KAYLES, "Kayles(5)", false),
        ("grundy.json", KAYLES, "Kayles(5)", true),
        ("score.json", payoff, "CoinsInALine(0, 4, 0)", false),
    ] {
        let (_, doc) = certify(&dir, name, file, expr, grundy);
        let all = corruptions(&doc);
        assert!(all.len() > 40, "{}", all.len());
        for (what, bad) in all {
            let path = dir.join("bad.json");
            std::fs::write(&path, serde_json::to_string(&bad).unwrap()).unwrap();
            let (code, out, err) = verify(&path, file);
            assert_eq!(code, 1, "{name}, {what}: verified ({out}{err})");
        }
    }
}
