//! The report for CI dashboards (`junit`): JUnit XML, written by quick-xml.

use std::borrow::Cow;
use std::io::Write;

use quick_xml::escape::partial_escape;
use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::name::QName;
use quick_xml::Writer as XmlWriter;

use super::{one_line, ExpectStatus, FileReport, Problem, Reporter, Totals};

/// JUnit XML, as Jenkins, GitLab and most CI dashboards read it: `<testsuites>` with a
/// `<testsuite>` per file and a `<testcase>` per `expect` (named `line L: TEXT`); a failed
/// expectation has a `<failure>` whose text is the rendered diagnostic, a skipped one a
/// `<skipped>`, and a file that could not be checked is a suite with one `<testcase>` holding
/// an `<error>`; a file's warnings are its suite's `<system-err>`. No times, so that the
/// output is the same on every run. Written by quick-xml (indented by two spaces) at the end,
/// because the root element carries the totals.
#[derive(Default)]
pub(super) struct Junit {
    reports: Vec<FileReport>,
}

impl Reporter for Junit {
    fn file(&mut self, report: &FileReport, _out: &mut dyn Write, _err: &mut dyn Write) {
        self.reports.push(report.clone());
    }

    fn finish(&mut self, totals: &Totals, out: &mut dyn Write, _err: &mut dyn Write) {
        let mut xml = XmlWriter::new_with_indent(Vec::new(), b' ', 2);
        // Writing to a Vec cannot fail.
        let _ = junit(&mut xml, totals, &self.reports);
        let mut bytes = xml.into_inner();
        bytes.push(b'\n');
        let _ = out.write_all(&bytes);
    }
}

/// The whole JUnit document.
fn junit(
    xml: &mut XmlWriter<Vec<u8>>,
    totals: &Totals,
    reports: &[FileReport],
) -> std::io::Result<()> {
    xml.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let tests = totals.passed + totals.failed + totals.skipped + totals.not_checked;
    xml.write_event(Event::Start(element(
        "testsuites",
        &[
            ("name", "cgl check".to_string()),
            ("tests", tests.to_string()),
            ("failures", totals.failed.to_string()),
            ("errors", totals.not_checked.to_string()),
            ("skipped", totals.skipped.to_string()),
        ],
    )))?;
    for report in reports {
        junit_suite(xml, report)?;
    }
    xml.write_event(Event::End(BytesEnd::new("testsuites")))
}

/// One `<testsuite>`: a file's expectations, or the errors that kept it from being checked.
fn junit_suite(xml: &mut XmlWriter<Vec<u8>>, report: &FileReport) -> std::io::Result<()> {
    let name = report.path.clone();
    let counts = if report.checked() {
        (report.expects.len(), report.failed(), 0, report.skipped())
    } else {
        (1, 0, 1, 0)
    };
    xml.write_event(Event::Start(element(
        "testsuite",
        &[
            ("name", name.clone()),
            ("tests", counts.0.to_string()),
            ("failures", counts.1.to_string()),
            ("errors", counts.2.to_string()),
            ("skipped", counts.3.to_string()),
        ],
    )))?;
    if !report.checked() {
        let case = [
            ("name", name.clone()),
            ("classname", name.clone()),
            ("file", name),
        ];
        xml.write_event(Event::Start(element("testcase", &case)))?;
        for problem in &report.errors {
            junit_problem(xml, "error", problem)?;
        }
        xml.write_event(Event::End(BytesEnd::new("testcase")))?;
        junit_warnings(xml, report)?;
        return xml.write_event(Event::End(BytesEnd::new("testsuite")));
    }
    for expect in &report.expects {
        let case = [
            (
                "name",
                format!("line {}: {}", expect.place.line, one_line(&expect.text)),
            ),
            ("classname", name.clone()),
            ("file", name.clone()),
            ("line", expect.place.line.to_string()),
        ];
        match &expect.status {
            ExpectStatus::Passed => xml.write_event(Event::Empty(element("testcase", &case)))?,
            ExpectStatus::Failed(problem, _) => {
                xml.write_event(Event::Start(element("testcase", &case)))?;
                junit_problem(xml, "failure", problem)?;
                xml.write_event(Event::End(BytesEnd::new("testcase")))?;
            }
            ExpectStatus::Skipped => {
                xml.write_event(Event::Start(element("testcase", &case)))?;
                let message = [(
                    "message",
                    "not checked: the file ran out of time".to_string(),
                )];
                xml.write_event(Event::Empty(element("skipped", &message)))?;
                xml.write_event(Event::End(BytesEnd::new("testcase")))?;
            }
        }
    }
    junit_warnings(xml, report)?;
    xml.write_event(Event::End(BytesEnd::new("testsuite")))
}

/// The file's warnings, rendered, as the suite's `<system-err>` (JUnit has no element for a
/// warning; dashboards show a suite's standard error beside it). Nothing when there are none.
fn junit_warnings(xml: &mut XmlWriter<Vec<u8>>, report: &FileReport) -> std::io::Result<()> {
    if report.warnings.is_empty() {
        return Ok(());
    }
    let text: Vec<&str> = report
        .warnings
        .iter()
        .map(|w| w.rendered.as_str())
        .collect();
    xml.write_event(Event::Start(BytesStart::new("system-err")))?;
    xml.write_event(Event::Text(BytesText::from_escaped(partial_escape(
        xml_chars(&text.join("\n")),
    ))))?;
    xml.write_event(Event::End(BytesEnd::new("system-err")))
}

/// `<failure>` or `<error>`: the message and code as attributes, the rendered diagnostic as
/// text.
fn junit_problem(
    xml: &mut XmlWriter<Vec<u8>>,
    tag: &str,
    problem: &Problem,
) -> std::io::Result<()> {
    let attributes = [
        ("message", problem.message.clone()),
        ("type", problem.code.name().to_string()),
    ];
    xml.write_event(Event::Start(element(tag, &attributes)))?;
    xml.write_event(Event::Text(BytesText::from_escaped(partial_escape(
        xml_chars(&problem.rendered),
    ))))?;
    xml.write_event(Event::End(BytesEnd::new(tag)))
}

/// A start (or empty) element with its attributes in the order given. quick-xml's own
/// attribute escaping leaves line breaks and tabs as they are, which a reader turns into
/// spaces; they are written as character references, so that a multi-line message survives.
fn element<'a>(tag: &'a str, attributes: &[(&str, String)]) -> BytesStart<'a> {
    let mut start = BytesStart::new(tag);
    for (key, value) in attributes {
        let value = partial_escape(xml_chars(value))
            .replace('"', "&quot;")
            .replace('\n', "&#10;")
            .replace('\t', "&#9;");
        start.push_attribute(Attribute {
            key: QName(key),
            value: Cow::Owned(value),
        });
    }
    start
}

/// Text with the characters that XML 1.0 forbids even escaped (control characters other
/// than tab and line breaks, U+FFFE, U+FFFF) replaced by U+FFFD.
fn xml_chars(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            c if u32::from(c) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => '\u{fffd}',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escapes_markup_and_drops_forbidden_characters() {
        assert_eq!(
            partial_escape(xml_chars("a < b && c > d\u{1b} 'q' \"q\"")),
            "a &lt; b &amp;&amp; c &gt; d\u{fffd} 'q' \"q\""
        );
        let start = element("e", &[("m", "say \"hi\"\nnow\tit's <x>".to_string())]);
        let mut xml = XmlWriter::new(Vec::new());
        xml.write_event(Event::Empty(start)).unwrap();
        assert_eq!(
            String::from_utf8(xml.into_inner()).unwrap(),
            "<e m=\"say &quot;hi&quot;&#10;now&#9;it's &lt;x&gt;\"/>"
        );
    }
}
