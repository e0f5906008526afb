//! The grades as `cgl grade` writes them: for people, JSON, JUnit XML, or CSV for a grade
//! book.

use std::io::Write;

use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

use super::{GradeFormat, Mark, Record};

/// Writes the records of every submission in `format`.
pub fn write(
    format: GradeFormat,
    key: &str,
    exercises: &[Mark],
    records: &[Record],
    out: &mut dyn Write,
) {
    match format {
        GradeFormat::Human => human(records, out),
        GradeFormat::Json => {
            let doc = serde_json::json!({
                "key": key,
                "exercises": exercises.iter().map(|e| {
                    let mut j = serde_json::json!({
                        "line": e.line, "points": e.points, "question": e.question,
                    });
                    if let Some(part) = &e.part {
                        j["part"] = part.as_str().into();
                    }
                    j
                }).collect::<Vec<_>>(),
                "submissions": records,
            });
            let _ = writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            );
        }
        GradeFormat::Junit => junit(key, records, out),
        GradeFormat::Csv => csv(exercises, records, out),
    }
}

fn human(records: &[Record], out: &mut dyn Write) {
    for r in records {
        let _ = writeln!(out, "{}: {}/{} points", r.submission, r.earned, r.total);
        for p in &r.problems {
            let _ = writeln!(out, "{}", indent(p, "  "));
        }
        for m in &r.exercises {
            let sign = match m.status.as_str() {
                "passed" => "✓",
                "skipped" => "-",
                _ => "✗",
            };
            let what = m.question.as_deref().unwrap_or("(hidden)");
            let _ = writeln!(
                out,
                "  {sign} {:<9} {}/{}  {what}",
                m.place(),
                m.earned,
                m.points
            );
            for f in &m.feedback {
                let _ = writeln!(out, "{}", indent(f, "      "));
            }
        }
    }
    if records.len() > 1 {
        let earned: u32 = records.iter().map(|r| r.earned).sum();
        let total = records.first().map_or(0, |r| r.total);
        let _ = writeln!(
            out,
            "{} submissions; mean {:.1}/{total} points",
            records.len(),
            f64::from(earned) / records.len() as f64
        );
    }
}

fn indent(text: &str, by: &str) -> String {
    text.trim_end()
        .lines()
        .map(|l| format!("{by}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A CSV field, quoted when it needs to be.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn csv(exercises: &[Mark], records: &[Record], out: &mut dyn Write) {
    let mut head = vec!["submission".to_string(), "points".into(), "out of".into()];
    head.extend(
        exercises
            .iter()
            .map(|e| format!("{} ({})", e.place(), e.points)),
    );
    let _ = writeln!(out, "{}", head.join(","));
    for r in records {
        let mut row = vec![
            field(&r.submission),
            r.earned.to_string(),
            r.total.to_string(),
        ];
        row.extend(r.exercises.iter().map(|m| m.earned.to_string()));
        let _ = writeln!(out, "{}", row.join(","));
    }
}

fn junit(key: &str, records: &[Record], out: &mut dyn Write) {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    let _ = w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)));
    let mut suites = BytesStart::new("testsuites");
    suites.push_attribute(("name", format!("cgl grade {key}").as_str()));
    let _ = w.write_event(Event::Start(suites));
    for r in records {
        let failures = r.exercises.iter().filter(|m| m.status != "passed").count();
        let mut suite = BytesStart::new("testsuite");
        suite.push_attribute(("name", r.submission.as_str()));
        suite.push_attribute(("tests", r.exercises.len().to_string().as_str()));
        suite.push_attribute(("failures", failures.to_string().as_str()));
        suite.push_attribute(("points", format!("{}/{}", r.earned, r.total).as_str()));
        let _ = w.write_event(Event::Start(suite));
        for m in &r.exercises {
            let mut case = BytesStart::new("testcase");
            let name = format!("{} ({} points)", m.place(), m.points);
            case.push_attribute(("name", name.as_str()));
            case.push_attribute(("classname", r.submission.as_str()));
            if m.status == "passed" {
                let _ = w.write_event(Event::Empty(case));
                continue;
            }
            let _ = w.write_event(Event::Start(case));
            let tag = if m.status == "skipped" {
                "skipped"
            } else {
                "failure"
            };
            let mut failure = BytesStart::new(tag);
            failure.push_attribute(("message", m.status.as_str()));
            let _ = w.write_event(Event::Start(failure));
            let text = m.feedback.join("\n");
            let _ = w.write_event(Event::Text(BytesText::new(&text)));
            let _ = w.write_event(Event::End(BytesEnd::new(tag)));
            let _ = w.write_event(Event::End(BytesEnd::new("testcase")));
        }
        if !r.problems.is_empty() {
            let _ = w.write_event(Event::Start(BytesStart::new("system-err")));
            let _ = w.write_event(Event::Text(BytesText::new(&r.problems.join("\n"))));
            let _ = w.write_event(Event::End(BytesEnd::new("system-err")));
        }
        let _ = w.write_event(Event::End(BytesEnd::new("testsuite")));
    }
    let _ = w.write_event(Event::End(BytesEnd::new("testsuites")));
    let _ = out.write_all(&w.into_inner());
    let _ = writeln!(out);
}
