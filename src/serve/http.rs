//! HTTP/1.1 on one connection, with bounds: a request head of at most [`MOST_HEAD`] bytes, a
//! body of at most the server's limit (larger: 413 before any of it is read), the whole
//! request within [`READ_TIME`] (a client that trickles bytes is dropped), one request per
//! connection (`Connection: close`). The head is parsed by `httparse`; nothing else of HTTP
//! is needed by one page and a JSON API.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The longest request head (request line and headers).
pub const MOST_HEAD: usize = 16 << 10;

/// The most headers a request may have.
const MOST_HEADERS: usize = 64;

/// How long a client may take to send its whole request.
pub const READ_TIME: Duration = Duration::from_secs(10);

/// A request read whole.
#[derive(Debug)]
pub struct Request {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path, still percent-encoded, without the query.
    pub path: String,
    /// The query after `?`, still percent-encoded.
    pub query: String,
    /// The headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Request {
    /// The value of a header (its name in lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// A parameter of the query, percent-decoded.
    pub fn param(&self, name: &str) -> Option<String> {
        self.query.split('&').find_map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(key)? == name).then(|| decode(value)).flatten()
        })
    }
}

/// Why a request could not be read; each but `Gone` is answered with its status.
#[derive(Debug)]
pub enum Refused {
    /// The client closed the connection or stopped sending (nothing to answer).
    Gone,
    /// 400: not HTTP.
    Malformed(String),
    /// 408: too slow.
    Slow,
    /// 411: a body without a `Content-Length` (chunked uploads are not taken).
    LengthRequired,
    /// 413: a body larger than the limit, of this many bytes.
    TooLarge(u64),
    /// 431: a head larger than [`MOST_HEAD`].
    HeadTooLarge,
}

impl Refused {
    /// The response that says so (`None`: the client is gone).
    pub fn response(&self, most_body: usize) -> Option<Response> {
        Some(match self {
            Refused::Gone => return None,
            Refused::Malformed(why) => Response::error(400, why),
            Refused::Slow => Response::error(408, "the request took too long to arrive"),
            Refused::LengthRequired => Response::error(
                411,
                "a request body needs a Content-Length (chunked bodies are not accepted)",
            ),
            Refused::TooLarge(n) => Response::error(
                413,
                &format!("the request body has {n} bytes, more than the {most_body} allowed"),
            ),
            Refused::HeadTooLarge => Response::error(
                431,
                &format!("the request head is longer than {MOST_HEAD} bytes"),
            ),
        })
    }
}

/// Reads one request from `stream`, its body at most `most_body` bytes.
pub fn read_request(stream: &mut TcpStream, most_body: usize) -> Result<Request, Refused> {
    let started = Instant::now();
    let mut buf = Vec::with_capacity(1024);
    let head_end = loop {
        if let Some(end) = find(&buf, b"\r\n\r\n") {
            break end + 4;
        }
        if buf.len() > MOST_HEAD {
            return Err(Refused::HeadTooLarge);
        }
        if read_some(stream, &mut buf, started)? == 0 {
            return Err(Refused::Gone);
        }
    };
    if head_end > MOST_HEAD {
        return Err(Refused::HeadTooLarge);
    }
    let mut slots = [httparse::EMPTY_HEADER; MOST_HEADERS];
    let mut parsed = httparse::Request::new(&mut slots);
    match parsed.parse(&buf[..head_end]) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => {
            return Err(Refused::Malformed("an incomplete request head".into()))
        }
        Err(httparse::Error::TooManyHeaders) => return Err(Refused::HeadTooLarge),
        Err(e) => return Err(Refused::Malformed(format!("not an HTTP request: {e}"))),
    }
    let method = parsed.method.unwrap_or("").to_string();
    let target = parsed.path.unwrap_or("/");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let headers: Vec<(String, String)> = parsed
        .headers
        .iter()
        .map(|h| {
            (
                h.name.to_ascii_lowercase(),
                String::from_utf8_lossy(h.value).trim().to_string(),
            )
        })
        .collect();
    let mut request = Request {
        method,
        path: path.to_string(),
        query: query.to_string(),
        headers,
        body: Vec::new(),
    };
    if request
        .header("transfer-encoding")
        .is_some_and(|v| !v.eq_ignore_ascii_case("identity"))
    {
        return Err(Refused::LengthRequired);
    }
    let length = match request.header("content-length") {
        None => 0,
        Some(v) => v
            .parse::<u64>()
            .map_err(|_| Refused::Malformed(format!("a Content-Length of `{v}`")))?,
    };
    if length > most_body as u64 {
        return Err(Refused::TooLarge(length));
    }
    let length = length as usize;
    let mut body = buf.split_off(head_end);
    while body.len() < length {
        if read_some(stream, &mut body, started)? == 0 {
            return Err(Refused::Gone);
        }
    }
    body.truncate(length);
    request.body = body;
    Ok(request)
}

/// Reads what has arrived into `buf`, waiting until [`READ_TIME`] after `started` at most.
fn read_some(
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
    started: Instant,
) -> Result<usize, Refused> {
    let left = READ_TIME
        .checked_sub(started.elapsed())
        .filter(|d| !d.is_zero())
        .ok_or(Refused::Slow)?;
    stream
        .set_read_timeout(Some(left))
        .map_err(|_| Refused::Gone)?;
    let mut chunk = [0u8; 8192];
    loop {
        match stream.read(&mut chunk) {
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                return Ok(n);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                return Err(Refused::Slow)
            }
            Err(_) => return Err(Refused::Gone),
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Whether the client at the other end of `stream` has closed the connection (or it broke),
/// looked at without blocking and without taking any byte it sent.
pub fn client_gone(stream: &TcpStream) -> bool {
    if stream.set_nonblocking(true).is_err() {
        return true;
    }
    let mut byte = [0u8; 1];
    let gone = match stream.peek(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => !matches!(
            e.kind(),
            io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
        ),
    };
    let _ = stream.set_nonblocking(false);
    gone
}

/// `%XX` escapes and `+` decoded; `None` for an escape that is not one, or text that is not
/// UTF-8 once decoded.
pub fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = text.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// A response: its status, content type and body.
#[derive(Debug)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// A JSON document, status 200.
    pub fn json(value: &serde_json::Value) -> Response {
        Response::json_status(200, value)
    }

    /// A JSON document with a status.
    pub fn json_status(status: u16, value: &serde_json::Value) -> Response {
        Response {
            status,
            content_type: "application/json; charset=utf-8",
            body: value.to_string().into_bytes(),
        }
    }

    /// An error: `{"error": message}` with a status.
    pub fn error(status: u16, message: &str) -> Response {
        Response::json_status(status, &serde_json::json!({ "error": message }))
    }

    /// A static file of the page.
    pub fn asset(content_type: &'static str, text: &'static str) -> Response {
        Response {
            status: 200,
            content_type,
            body: text.as_bytes().to_vec(),
        }
    }

    /// Writes the response and closes the connection's sending side.
    pub fn write(&self, stream: &mut TcpStream) -> io::Result<()> {
        let head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\
             Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
             X-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n\
             Content-Security-Policy: default-src 'self'; img-src 'self' data:; \
             style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'\r\n\r\n",
            self.status,
            reason(self.status),
            self.content_type,
            self.body.len()
        );
        stream.set_write_timeout(Some(READ_TIME))?;
        stream.write_all(head.as_bytes())?;
        stream.write_all(&self.body)?;
        stream.flush()?;
        stream.shutdown(std::net::Shutdown::Write)
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        421 => "Misdirected Request",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_decode_and_bad_ones_do_not() {
        assert_eq!(decode("a%2e%2E/b+c").as_deref(), Some("a../b c"));
        assert_eq!(decode("%zz"), None);
        assert_eq!(decode("%2"), None);
        assert_eq!(decode("%ff"), None);
    }
}
