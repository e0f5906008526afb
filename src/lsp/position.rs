//! Places in the protocol's terms: lines from 0 and characters in UTF-16 code units, turned
//! to and from byte offsets of a text; `file://` URIs to and from paths.

use std::path::{Path, PathBuf};

use lsp_types::{Position, Range, Uri};

/// The protocol's position of byte `at` of `text`.
pub fn position(text: &str, at: usize) -> Position {
    let at = floor_boundary(text, at);
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    Position {
        line: text[..line_start].matches('\n').count() as u32,
        character: text[line_start..at].encode_utf16().count() as u32,
    }
}

/// The protocol's range of bytes `start..end` of `text`.
pub fn range(text: &str, start: usize, end: usize) -> Range {
    Range {
        start: position(text, start),
        end: position(text, end),
    }
}

/// The byte of `text` at a protocol position (the end of the line or of the text when the
/// position is past it).
pub fn offset(text: &str, at: Position) -> usize {
    let mut start = 0;
    for _ in 0..at.line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line = &text[start..];
    let line = &line[..line.find('\n').unwrap_or(line.len())];
    let mut units = 0;
    for (i, c) in line.char_indices() {
        if units >= at.character as usize {
            return start + i;
        }
        units += c.len_utf16();
    }
    start + line.len()
}

/// The largest char boundary of `text` at or before `at`.
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The path of a `file://` URI, percent-decoded; `None` for another scheme.
pub fn file_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                out.push((hex(h)? * 16 + hex(l)?) as u8);
                i += 3;
            }
            (b, ..) => {
                out.push(b);
                i += 1;
            }
        }
    }
    Some(PathBuf::from(String::from_utf8(out).ok()?))
}

/// The `file://` URI of a path, percent-encoding what a URI may not hold.
pub fn file_uri(path: &Path) -> Option<Uri> {
    let mut uri = String::from("file://");
    for b in path.to_str()?.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                uri.push(b as char)
            }
            _ => uri.push_str(&format!("%{b:02X}")),
        }
    }
    uri.parse().ok()
}

/// Positions of a text's bytes in increasing order, each found from the one before (so that
/// the tokens of a long line cost its length once, not once each).
pub struct Walk<'t> {
    text: &'t str,
    at: usize,
    position: Position,
}

impl<'t> Walk<'t> {
    /// At the start of `text`.
    pub fn new(text: &'t str) -> Walk<'t> {
        Walk {
            text,
            at: 0,
            position: Position::default(),
        }
    }

    /// The position of byte `to` (not before the last one asked; a char boundary).
    pub fn to(&mut self, to: usize) -> Position {
        let to = floor_boundary(self.text, to).max(self.at);
        for c in self.text[self.at..to].chars() {
            if c == '\n' {
                self.position.line += 1;
                self.position.character = 0;
            } else {
                self.position.character += c.len_utf16() as u32;
            }
        }
        self.at = to;
        self.position
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_come_back() {
        let text = "ab\n€𝄞x\n\nend";
        for at in (0..=text.len()).filter(|i| text.is_char_boundary(*i)) {
            assert_eq!(offset(text, position(text, at)), at, "at {at}");
        }
        // `𝄞` is two UTF-16 units: `x` is at character 3 of line 1.
        let x = text.find('x').unwrap();
        assert_eq!(
            position(text, x),
            Position {
                line: 1,
                character: 3
            }
        );
        assert_eq!(
            offset(
                text,
                Position {
                    line: 9,
                    character: 0
                }
            ),
            text.len()
        );
        assert_eq!(
            offset(
                text,
                Position {
                    line: 0,
                    character: 99
                }
            ),
            2
        );
    }

    #[test]
    fn a_walk_agrees_with_position() {
        let text = "ab\n€𝄞x\n\nend";
        let mut walk = Walk::new(text);
        for at in (0..=text.len()).filter(|i| text.is_char_boundary(*i)) {
            assert_eq!(walk.to(at), position(text, at), "at {at}");
        }
    }

    #[test]
    fn file_uris_and_paths() {
        let path = Path::new("/tmp/a b/ü.game");
        let uri = file_uri(path).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%BC.game");
        assert_eq!(file_path(uri.as_str()).unwrap(), path);
        assert_eq!(file_path("untitled:Untitled-1"), None);
    }
}
