//! The base protocol of the Language Server Protocol: each message is a `Content-Length`
//! header, a blank line and that many bytes of JSON. Read with bounds, so that a client's
//! mistake (a header line without end, a length of terabytes, a body that is not JSON) is an
//! error for that message, never unbounded memory or the end of the server.

use std::io::{self, BufRead, Read, Write};

use serde_json::Value as Json;

/// The longest header line read.
const MOST_HEADER: usize = 8 << 10;

/// What reading one message gave.
#[derive(Debug)]
pub enum Incoming {
    /// A JSON document.
    Message(Json),
    /// A message that could not be used; the reason. Its bytes were skipped when its length
    /// was known.
    Malformed(String),
    /// The stream ended, or broke where no later message can be found.
    End,
}

/// Reads the next message; bodies longer than `most_body` bytes are skipped unread.
pub fn read(input: &mut impl BufRead, most_body: usize) -> Incoming {
    let mut length: Option<usize> = None;
    loop {
        let mut line = Vec::new();
        match input
            .by_ref()
            .take(MOST_HEADER as u64)
            .read_until(b'\n', &mut line)
        {
            Ok(0) => return Incoming::End,
            Ok(_) if !line.ends_with(b"\n") => return Incoming::End,
            Ok(_) => {}
            Err(_) => return Incoming::End,
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok();
            }
        }
    }
    let Some(length) = length else {
        return Incoming::Malformed("a message without a valid Content-Length".into());
    };
    if length > most_body {
        // Skip it in pieces, holding none of it.
        return match io::copy(&mut input.by_ref().take(length as u64), &mut io::sink()) {
            Ok(n) if n == length as u64 => Incoming::Malformed(format!(
                "a message of {length} bytes, more than the {most_body} a message may have"
            )),
            _ => Incoming::End,
        };
    }
    let mut body = vec![0; length];
    if input.read_exact(&mut body).is_err() {
        return Incoming::End;
    }
    match serde_json::from_slice(&body) {
        Ok(json) => Incoming::Message(json),
        Err(e) => Incoming::Malformed(format!("a message that is not JSON: {e}")),
    }
}

/// Writes one message.
pub fn write(out: &mut impl Write, message: &Json) -> io::Result<()> {
    let text = message.to_string();
    write!(out, "Content-Length: {}\r\n\r\n{text}", text.len())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn messages_are_read_one_after_another_past_bad_ones() {
        let stream = format!(
            "{}{}Content-Length: 99999999999\r\n\r\n{}",
            framed("{\"a\":1}"),
            framed("not json"),
            framed("[2]")
        );
        let mut input = stream.as_bytes();
        assert!(matches!(read(&mut input, 100), Incoming::Message(j) if j["a"] == 1));
        assert!(matches!(read(&mut input, 100), Incoming::Malformed(_)));
        // The huge length swallows the rest without holding it: the stream then ends.
        assert!(matches!(read(&mut input, 100), Incoming::End));
        let bytes = format!("{}{}", framed(&"x".repeat(200)), framed("[3]")).into_bytes();
        let mut input = &bytes[..];
        assert!(matches!(read(&mut input, 100), Incoming::Malformed(m) if m.contains("200 bytes")));
        assert!(matches!(read(&mut input, 100), Incoming::Message(j) if j[0] == 3));
        assert!(matches!(read(&mut input, 100), Incoming::End));
        input = &b"X-Nothing: 1\r\n\r\n"[..];
        assert!(matches!(read(&mut input, 100), Incoming::Malformed(_)));
        let long = "y".repeat(MOST_HEADER * 2);
        let mut input = long.as_bytes();
        assert!(matches!(read(&mut input, 100), Incoming::End));
    }
}
