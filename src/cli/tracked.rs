//! The wrapper of stdout that remembers the first write error, so that no exit code says that
//! all went well when the output is incomplete.

use std::io::Write;

/// A stream that remembers the first error written to it (a full disk, a closed pipe), so
/// that the command can fail with a message instead of exiting 0 with output lost. The
/// writers of the reports ignore errors where they write; this sees them all.
pub struct Tracked<W: Write> {
    inner: W,
    /// The first error met, if any.
    pub error: Option<std::io::Error>,
}

impl<W: Write> Tracked<W> {
    /// `inner`, with no error yet.
    pub fn new(inner: W) -> Tracked<W> {
        Tracked { inner, error: None }
    }

    fn keep<T>(&mut self, result: std::io::Result<T>) -> std::io::Result<T> {
        if let Err(e) = &result {
            if self.error.is_none() {
                self.error = Some(std::io::Error::new(e.kind(), e.to_string()));
            }
        }
        result
    }
}

impl<W: Write> Write for Tracked<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let result = self.inner.write(buf);
        self.keep(result)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let result = self.inner.flush();
        self.keep(result)
    }
}

/// An IO error in words, without the "(os error N)" tail.
pub fn io_error_text(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}
