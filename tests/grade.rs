//! `cgl grade` and `cgl seal` on the sample exercise set examples/exercises/kayles (a key, the
//! teacher's solution it imports, three submissions: right, partly wrong, broken) and on
//! submissions written here: the grade book, what hidden exercises do not tell, sealed keys
//! (no answer in them, the same points as the open key), and submissions that do not load,
//! run out of time or reach out of their folder, each graded apart from the others.

use std::path::{Path, PathBuf};

use crate::common::{cgl, root, temp_dir};

fn set() -> PathBuf {
    root().join("examples/exercises/kayles")
}

fn arg(p: &Path) -> String {
    p.display().to_string()
}

const KEY: &str = "examples/exercises/kayles/key.game";
const SUBMISSIONS: &str = "examples/exercises/kayles/submissions";

#[test]
fn grade_the_sample_set_into_its_grade_book() {
    let (code, out, err) = cgl(&["grade", KEY, SUBMISSIONS, "--format", "csv"]);
    assert_eq!(code, 1, "{err}");
    let expected = std::fs::read_to_string(set().join("grades.csv")).unwrap();
    assert_eq!(out, expected);
    // The key checks as a file of expectations against the teacher's solution.
    let (code, _, err) = cgl(&["check", KEY]);
    assert_eq!(code, 0, "{err}");
    // One right submission earns everything: exit 0.
    let right = format!("{SUBMISSIONS}/right.game");
    let (code, out, _) = cgl(&["grade", KEY, &right]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with(&format!("{right}: 10/10 points")), "{out}");
}

#[test]
fn grade_feedback_names_the_counterexample_and_hides_what_the_key_hides() {
    let (_, out, _) = cgl(&["grade", KEY, SUBMISSIONS, "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let subs = doc["submissions"].as_array().unwrap();
    let partly = subs
        .iter()
        .find(|s| {
            s["submission"]
                .as_str()
                .unwrap()
                .ends_with("partly_wrong.game")
        })
        .unwrap();
    let marks = partly["exercises"].as_array().unwrap();
    // Line 14 is shown: its feedback is the teacher's line and the diagnostic, which says
    // where the values part.
    let shown = marks[1]["feedback"].as_array().unwrap();
    assert_eq!(
        shown[0],
        "a move takes one pin, or two adjacent pins, and splits the row"
    );
    assert!(
        shown[1]
            .as_str()
            .unwrap()
            .contains("they differ first at index 2"),
        "{shown:?}"
    );
    // Line 15 hides its answer (N): the submission is told its own outcome, P, and never N;
    // and the diagnostic (which quotes the key) is not there.
    let hidden = &marks[2];
    assert_eq!(hidden["question"], serde_json::Value::Null);
    let told = hidden["feedback"].as_array().unwrap();
    assert_eq!(told[1], "there your Kayles(4) + Kayles(6) is P");
    let text = serde_json::to_string(told).unwrap();
    assert!(
        !text.contains("is N") && !text.contains("key.game"),
        "{text}"
    );
    // No feedback anywhere quotes a hidden exercise's line of the key.
    assert!(!out.contains("Kayles(4) + Kayles(6) is N"), "{out}");
    assert!(
        !out.contains("first_move(9) == Kayles(4) + Kayles(4)"),
        "{out}"
    );
    // The broken one: its moves fail (the error is said), and what it lacks is named.
    let broken = subs
        .iter()
        .find(|s| s["submission"].as_str().unwrap().ends_with("broken.game"))
        .unwrap();
    let last = &broken["exercises"][3];
    assert_eq!(last["status"], "unanswered");
    assert!(
        last["feedback"][1]
            .as_str()
            .unwrap()
            .contains("`first_move`"),
        "{last}"
    );
    // A wrong answer to a hidden comparison: its own value, not the key's.
    let dir = temp_dir("grade-hidden");
    let wrong = dir.join("wrong_move.game");
    let kayles = std::fs::read_to_string(set().join("submissions/right.game")).unwrap();
    let text = kayles.replace(
        "fn first_move(n) =",
        "fn first_move(n) = Kayles(n - 1)\nfn unused(n) =",
    );
    std::fs::write(&wrong, text).unwrap();
    let (_, out, _) = cgl(&["grade", KEY, &arg(&wrong)]);
    assert!(
        out.contains("there your `first_move(9)` is Kayles(8)"),
        "{out}"
    );
    assert!(!out.contains("Kayles(4) + Kayles(4)"), "{out}");
}

#[test]
fn a_sealed_key_holds_no_answer_and_grades_as_the_open_one() {
    let dir = temp_dir("grade-seal");
    let sealed = dir.join("key.sealed");
    let (code, _, err) = cgl(&["seal", KEY, "-o", &arg(&sealed)]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&sealed).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    // Every string in it, none an answer: the outcomes P and N, the list of values, the move.
    fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
            serde_json::Value::Object(o) => o.values().for_each(|x| strings(x, out)),
            _ => {}
        }
    }
    let mut all = Vec::new();
    strings(&doc, &mut all);
    for answer in ["P", "N"] {
        assert!(!all.iter().any(|s| s == answer), "{answer} in {text}");
    }
    for answer in [
        "[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]",
        "Kayles(4) + Kayles(4)",
        "is P",
        "is N",
        "expect 2 points",
        "import \"",
    ] {
        assert!(!text.contains(answer), "{answer} in {text}");
    }
    // The same points, exercise by exercise.
    let grades = |key: &str| {
        let (_, out, _) = cgl(&["grade", key, SUBMISSIONS, "--format", "csv"]);
        out
    };
    assert_eq!(grades(&arg(&sealed)), grades(KEY));
    // Human feedback of a sealed key tells the submission's value only.
    let (_, out, _) = cgl(&[
        "grade",
        &arg(&sealed),
        &format!("{SUBMISSIONS}/partly_wrong.game"),
    ]);
    assert!(
        out.contains("there your `outcome(Kayles(4) + Kayles(6))` is P"),
        "{out}"
    );
    // A damaged sealed key is refused with its code; an exercise that cannot be sealed too.
    std::fs::write(dir.join("bad.sealed"), "{\"format\": \"x\"}").unwrap();
    let (code, _, err) = cgl(&["grade", &arg(&dir.join("bad.sealed")), SUBMISSIONS]);
    assert_eq!(code, 2);
    assert!(err.contains("cgl::grade::bad_sealed_key"), "{err}");
    let forall = dir.join("forall.game");
    std::fs::write(&forall, "game G { position n  move n - 1 if n > 0 }\nexpect 2 points: forall n in 0..4: grundy(G(n)) == n % 2\n").unwrap();
    let (code, _, err) = cgl(&["seal", &arg(&forall), "-o", &arg(&dir.join("f.sealed"))]);
    assert_eq!(code, 2);
    assert!(
        err.contains("cgl::grade::unsealable") && err.contains("help"),
        "{err}"
    );
}

#[test]
fn each_submission_is_graded_apart_confined_and_bounded() {
    let dir = temp_dir("grade-apart");
    let class = dir.join("class");
    std::fs::create_dir_all(&class).unwrap();
    std::fs::write(
        class.join("a_syntax.game"),
        "game Kayles {\n    position n\n    move\n}\n",
    )
    .unwrap();
    std::fs::write(
        class.join("b_endless.game"),
        "game Kayles { position n  move n + 1 }\nfn first_move(n) = Kayles(n)\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("secret.game"),
        "game Kayles { position n  move n - 1 if n > 0 }\n",
    )
    .unwrap();
    std::fs::write(
        class.join("c_reaches_out.game"),
        "import \"../secret.game\"\n",
    )
    .unwrap();
    std::fs::copy(
        set().join("submissions/right.game"),
        class.join("d_right.game"),
    )
    .unwrap();
    let started = std::time::Instant::now();
    let (code, out, err) = cgl(&[
        "grade",
        KEY,
        &arg(&class),
        "--timeout",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(started.elapsed().as_secs() < 30);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let subs = doc["submissions"].as_array().unwrap();
    assert_eq!(subs.len(), 4);
    // The file that does not parse: no points, its own diagnostic.
    assert_eq!(subs[0]["earned"], 0);
    assert!(
        subs[0]["problems"][0]
            .as_str()
            .unwrap()
            .contains("cgl::syntax::"),
        "{}",
        subs[0]
    );
    // The endless game: stopped at its limit, the rest not graded; nothing of it reaches
    // the next submission.
    let endless = subs[1]["exercises"].as_array().unwrap();
    assert_eq!(endless[0]["status"], "failed", "{}", subs[1]);
    assert!(
        endless.iter().skip(1).any(|m| m["status"] == "skipped")
            || endless.iter().all(|m| m["status"] != "passed")
    );
    // Reaching out of its folder is refused.
    assert!(
        subs[2]["problems"][0]
            .as_str()
            .unwrap()
            .contains("cgl::load::confined"),
        "{}",
        subs[2]
    );
    // And the right one, after them all, earns everything.
    assert_eq!(
        (subs[3]["earned"].as_u64(), subs[3]["total"].as_u64()),
        (Some(10), Some(10))
    );
}

#[test]
fn grade_writes_junit_for_ci() {
    let (_, out, _) = cgl(&["grade", KEY, SUBMISSIONS, "--format", "junit"]);
    let doc = roxmltree::Document::parse(&out).unwrap();
    let suites: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 3);
    let right = suites
        .iter()
        .find(|s| s.attribute("name").unwrap().ends_with("right.game"))
        .unwrap();
    assert_eq!(
        (
            right.attribute("tests"),
            right.attribute("failures"),
            right.attribute("points")
        ),
        (Some("4"), Some("0"), Some("10/10"))
    );
    let failures = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .count();
    assert_eq!(failures, 3 + 2);
}

#[test]
fn a_folder_key_is_one_sheet_of_its_files_open_or_sealed() {
    // The sample key split in two files beside the solution they import: the solution has
    // no exercises and is no part of the key, nor of the sealed folder.
    let dir = temp_dir("grade-folder");
    let open = dir.join("open");
    std::fs::create_dir_all(&open).unwrap();
    std::fs::copy(set().join("solution.game"), open.join("solution.game")).unwrap();
    let key = std::fs::read_to_string(set().join("key.game")).unwrap();
    let exercises: Vec<&str> = key.lines().filter(|l| l.starts_with("expect")).collect();
    assert_eq!(exercises.len(), 4);
    let sheet = |name: &str, lines: &[&str]| {
        let text = format!("import \"solution.game\"\n{}\n", lines.join("\n"));
        std::fs::write(open.join(name), text).unwrap();
    };
    sheet("sheet1.game", &exercises[..2]);
    sheet("sheet2.game", &exercises[2..]);
    let (code, _, err) = cgl(&["check", &arg(&open.join("sheet2.game"))]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = cgl(&["grade", &arg(&open), SUBMISSIONS, "--format", "csv"]);
    assert_eq!(code, 1);
    let mut rows = out.lines();
    assert_eq!(
        rows.next().unwrap(),
        "submission,points,out of,sheet1 line 2 (2),sheet1 line 3 (3),sheet2 line 2 (3),sheet2 line 3 (2)"
    );
    // The same points, exercise by exercise, as the one-file key's grade book.
    let expected = std::fs::read_to_string(set().join("grades.csv")).unwrap();
    assert_eq!(
        rows.collect::<Vec<_>>(),
        expected.lines().skip(1).collect::<Vec<_>>()
    );
    let sealed = dir.join("sealed");
    let (code, _, err) = cgl(&["seal", &arg(&open), "-o", &arg(&sealed)]);
    assert_eq!(code, 0, "{err}");
    let mut names: Vec<String> = std::fs::read_dir(&sealed)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["sheet1.sealed", "sheet2.sealed"]);
    let (_, again, _) = cgl(&["grade", &arg(&sealed), SUBMISSIONS, "--format", "csv"]);
    assert_eq!(again, out);
    // The JSON report names each exercise's file; a folder with no key in it is refused.
    let (_, json, _) = cgl(&["grade", &arg(&open), SUBMISSIONS, "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["exercises"][3]["part"], "sheet2");
    assert_eq!(doc["submissions"][0]["exercises"][0]["part"], "sheet1");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::copy(set().join("solution.game"), empty.join("solution.game")).unwrap();
    let (code, _, err) = cgl(&["grade", &arg(&empty), SUBMISSIONS]);
    assert_eq!(code, 2);
    assert!(err.contains("no .game files with exercises"), "{err}");
}
