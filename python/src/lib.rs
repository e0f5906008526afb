//! Python bindings of cgl: `cgl.Session` over `cgl::api::Session`, diagnostics as `cgl.Error`,
//! values as natural Python values. Only `cgl::api` is used, as every shell of cgl does.
//!
//! Each session computes on a thread of its own ([`worker`]): a call sends it the request and
//! waits with the GIL released, waking every 50 ms to let Python run its signal handlers; a
//! Ctrl-C (`KeyboardInterrupt`, a notebook's interrupt) cancels the call through its
//! [`Cancel`], waits for the thread to stop it, and raises; the session stays usable. The
//! package `cgl` (python/cgl/__init__.py) adds the Python classes around what this gives:
//! `Outcome`, `Value`, `Position`, `Game`, `Table`.

mod convert;
mod worker;

use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::time::Duration;

use cgl::api::{severity_text, Cancel, Diagnostic, SessionConfig};
use pyo3::exceptions::{PyException, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use worker::{Answer, Failure, Kind, Limits, Link, Request};

pyo3::create_exception!(
    cgl,
    Error,
    PyException,
    "A cgl diagnostic: `code` (`cgl::resolve::unknown_name`), `message`, `help` (or None), \
     `spans` (a list of (line, col, end_line, end_col), the primary one first), `rendered` \
     (the diagnostic drawn as `cgl` prints it, without colour) and `diagnostics` (every one \
     of the call's diagnostics, as dicts)."
);

/// How often a waiting call lets Python look at its signals.
const WAKE: Duration = Duration::from_millis(50);

/// A value held by a session's thread (a position, a game value, a game): what the Python
/// classes `cgl.Position`, `cgl.Value` and `cgl.Game` wrap. The thread forgets it when this
/// object goes.
#[pyclass(frozen, module = "cgl._cgl")]
struct Handle {
    id: u64,
    kind: Kind,
    /// As cgl prints it.
    #[pyo3(get)]
    text: String,
    link: Arc<Link>,
}

#[pymethods]
impl Handle {
    /// `"position"`, `"value"` or `"game"`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.kind {
            Kind::Position => "position",
            Kind::Form => "value",
            Kind::Game => "game",
        }
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        let _ = self
            .link
            .send(Request::Free(self.id), Limits::default(), Cancel::new());
    }
}

/// One `expect` statement as `check` ran it.
#[pyclass(frozen, get_all, module = "cgl._cgl")]
struct Expectation {
    /// The file, as cgl shows it in diagnostics.
    file: String,
    /// The line of the expectation's expression.
    line: usize,
    /// `"passed"`, `"failed"` or `"skipped"` (after an earlier one ran out of time).
    status: String,
    /// Whether it held.
    passed: bool,
    /// Why it failed: the diagnostic's message (None if it held).
    message: Option<String>,
    /// The diagnostic's code (None if it held).
    code: Option<String>,
    /// The diagnostic drawn as `cgl check` prints it (None if it held).
    rendered: Option<String>,
}

#[pymethods]
impl Expectation {
    fn __repr__(&self) -> String {
        format!(
            "Expectation(file={:?}, line={}, status={:?}, message={:?})",
            self.file, self.line, self.status, self.message
        )
    }

    /// In a notebook: the line and its status, and a failure's diagnostic as cgl draws it.
    fn _repr_html_(&self) -> String {
        let colour = match self.status.as_str() {
            "passed" => "#1a7f37",
            "failed" => "#c0392b",
            _ => "#777",
        };
        let mut out = format!(
            "<div><span style=\"color:{colour};font-weight:bold\">{}</span> {}:{}</div>",
            self.status,
            escape(&self.file),
            self.line
        );
        if let Some(r) = &self.rendered {
            out.push_str(&format!("<pre>{}</pre>", escape(r)));
        }
        out
    }
}

/// Text with HTML's special characters escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A `cgl.Error` for the first diagnostic of a failure, with every one as data.
fn error(py: Python<'_>, failure: &Failure) -> PyErr {
    build_error(py, failure).unwrap_or_else(|e| e)
}

fn build_error(py: Python<'_>, failure: &Failure) -> PyResult<PyErr> {
    let Some(first) = failure.diagnostics.first() else {
        return Ok(Error::new_err("cgl gave an error without a diagnostic"));
    };
    let err = Error::new_err(format!("{}: {}", first.code.name(), first.message));
    let value = err.value(py);
    let spans_of = |d: &Diagnostic| -> Vec<(usize, usize, usize, usize)> {
        d.labels
            .iter()
            .map(|(p, _)| (p.line, p.column, p.end_line, p.end_column))
            .collect()
    };
    value.setattr("code", first.code.name())?;
    value.setattr("message", &first.message)?;
    value.setattr("help", first.help.clone())?;
    value.setattr("spans", spans_of(first))?;
    value.setattr("rendered", failure.rendered.first().cloned())?;
    let all = PyList::empty(py);
    for (d, text) in failure.diagnostics.iter().zip(&failure.rendered) {
        let dict = PyDict::new(py);
        dict.set_item("code", d.code.name())?;
        dict.set_item("severity", severity_text(d.severity))?;
        dict.set_item("message", &d.message)?;
        dict.set_item("help", d.help.clone())?;
        dict.set_item("file", d.place.as_ref().map(|p| p.file.clone()))?;
        dict.set_item("spans", spans_of(d))?;
        dict.set_item("notes", d.notes.clone())?;
        dict.set_item("rendered", text)?;
        all.append(dict)?;
    }
    value.setattr("diagnostics", all)?;
    Ok(err)
}

/// A cgl session: files loaded into it, expressions evaluated in their scope, on a thread of
/// its own. Limits given here (seconds, bytes, positions) bound every call that does not
/// give its own.
#[pyclass(subclass, module = "cgl._cgl")]
struct Session {
    link: Arc<Link>,
    limits: Limits,
}

impl Session {
    /// The limits of a call: each given one, else the session's.
    fn limits(
        &self,
        timeout: Option<f64>,
        max_memory: Option<usize>,
        max_positions: Option<usize>,
    ) -> Limits {
        Limits {
            timeout: timeout.or(self.limits.timeout),
            max_memory: max_memory.or(self.limits.max_memory),
            max_positions: max_positions.or(self.limits.max_positions),
        }
    }

    /// Sends a request and waits for its answer with the GIL released; a Ctrl-C cancels it
    /// and raises `KeyboardInterrupt` once the session's thread has stopped it.
    fn call(&self, py: Python<'_>, request: Request, limits: Limits) -> PyResult<Answer> {
        let cancel = Cancel::new();
        let mut answer = self.link.send(request, limits, cancel.clone());
        loop {
            // The receiver goes into the wait and comes back (it may not be shared).
            let (got, back) = py.allow_threads(move || (answer.recv_timeout(WAKE), answer));
            answer = back;
            match got {
                Ok(Answer::Failed(f)) => return Err(error(py, &f)),
                Ok(a) => return Ok(a),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(interrupted) = py.check_signals() {
                        cancel.cancel();
                        let _ = py.allow_threads(move || answer.recv());
                        return Err(interrupted);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("the session's thread has stopped"))
                }
            }
        }
    }

    /// A held value's handle as a request's number, checked to be this session's.
    fn held_id(&self, handle: &Bound<'_, Handle>) -> PyResult<u64> {
        let h = handle.get();
        if !Arc::ptr_eq(&h.link, &self.link) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "{} belongs to another cgl.Session",
                h.text
            )));
        }
        Ok(h.id)
    }

    /// Python values keyed by name, as plain data for the session's thread.
    fn named(&self, names: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, worker::Plain)>> {
        let mut out = Vec::new();
        if let Some(names) = names {
            for (k, v) in names.iter() {
                out.push((k.extract::<String>()?, convert::to_plain(&v, &self.link)?));
            }
        }
        Ok(out)
    }
}

#[pymethods]
impl Session {
    #[new]
    #[pyo3(signature = (*, timeout = None, max_memory = None, max_positions = None))]
    fn new(
        timeout: Option<f64>,
        max_memory: Option<usize>,
        max_positions: Option<usize>,
    ) -> PyResult<Session> {
        let link = Link::start(SessionConfig::default())
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a session: {e}")))?;
        Ok(Session {
            link: Arc::new(link),
            limits: Limits {
                timeout,
                max_memory,
                max_positions,
            },
        })
    }

    /// Loads a `.game` file (and what it imports); raises `cgl.Error` if it does not load.
    fn load(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        self.call(py, Request::Load(path), self.limits(None, None, None))?;
        Ok(())
    }

    /// Loads `text` as a file named `name`; raises `cgl.Error` if it does not load.
    #[pyo3(signature = (text, name = "<source>".to_string()))]
    fn load_source(&self, py: Python<'_>, text: String, name: String) -> PyResult<()> {
        let request = Request::LoadSource { text, name };
        self.call(py, request, self.limits(None, None, None))?;
        Ok(())
    }

    /// Evaluates an expression in the scope of every loaded file, each keyword argument a
    /// name bound to its value (a Python value, or a position, game value or game this
    /// session gave), within the given limits (seconds, bytes, positions; None: the
    /// session's). Raises `cgl.Error` if it fails (`cgl::limit::timeout` past the time), and
    /// `KeyboardInterrupt` after a Ctrl-C.
    #[pyo3(signature = (expr, *, timeout = None, max_memory = None, max_positions = None, **names))]
    fn eval(
        slf: &Bound<'_, Session>,
        expr: String,
        timeout: Option<f64>,
        max_memory: Option<usize>,
        max_positions: Option<usize>,
        names: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        let py = slf.py();
        let this = slf.borrow();
        let names = this.named(names)?;
        let limits = this.limits(timeout, max_memory, max_positions);
        match this.call(py, Request::Eval { expr, names }, limits)? {
            Answer::Value(v) => convert::to_py(py, &v, slf.as_any(), &this.link, false),
            _ => Err(PyRuntimeError::new_err("an evaluation gave no value")),
        }
    }

    /// `expr` over each variable's values: `vars` a list of one or two (name, values) pairs;
    /// a dict of `vars` (the names), `cells` (each the variables' values and the value) and
    /// `svg` (the picture `cgl plot` draws, or None). `cgl.Session.table` wraps it.
    #[pyo3(signature = (expr, vars, names = None, timeout = None, max_memory = None, max_positions = None))]
    #[allow(clippy::too_many_arguments)]
    fn _tabulate(
        slf: &Bound<'_, Session>,
        expr: String,
        vars: Vec<(String, Bound<'_, PyAny>)>,
        names: Option<&Bound<'_, PyDict>>,
        timeout: Option<f64>,
        max_memory: Option<usize>,
        max_positions: Option<usize>,
    ) -> PyResult<PyObject> {
        let py = slf.py();
        let this = slf.borrow();
        if vars.is_empty() || vars.len() > 2 {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "a table has one variable (rows) or two (rows and columns)",
            ));
        }
        let vars = vars
            .iter()
            .map(|(n, v)| Ok((n.clone(), convert::to_plain(v, &this.link)?)))
            .collect::<PyResult<Vec<_>>>()?;
        let names = this.named(names)?;
        let limits = this.limits(timeout, max_memory, max_positions);
        let Answer::Table(table) = this.call(py, Request::Table { expr, vars, names }, limits)?
        else {
            return Err(PyRuntimeError::new_err("a table gave no rows"));
        };
        let out = PyDict::new(py);
        out.set_item("vars", table.vars)?;
        let cells = PyList::empty(py);
        for (at, value) in &table.cells {
            let at: Vec<PyObject> = at
                .iter()
                .map(|p| convert::to_py(py, p, slf.as_any(), &this.link, false))
                .collect::<PyResult<_>>()?;
            let value = convert::to_py(py, value, slf.as_any(), &this.link, false)?;
            cells.append((at, value))?;
        }
        out.set_item("cells", cells)?;
        out.set_item("svg", table.svg)?;
        Ok(out.into_any().unbind())
    }

    /// Runs the `expect` statements of every loaded file (not their `print`s), within the
    /// given limits for the whole run; a list of `Expectation`s in order.
    #[pyo3(signature = (*, timeout = None, max_memory = None, max_positions = None))]
    fn check(
        &self,
        py: Python<'_>,
        timeout: Option<f64>,
        max_memory: Option<usize>,
        max_positions: Option<usize>,
    ) -> PyResult<Vec<Expectation>> {
        let limits = self.limits(timeout, max_memory, max_positions);
        let Answer::Checked(found) = self.call(py, Request::Check, limits)? else {
            return Err(PyRuntimeError::new_err("a check gave no results"));
        };
        Ok(found
            .into_iter()
            .map(|e| {
                let first = e.failure.as_ref().and_then(|f| f.diagnostics.first());
                Expectation {
                    passed: e.status == "passed",
                    message: first.map(|d| d.message.clone()),
                    code: first.map(|d| d.code.name().to_string()),
                    rendered: e.failure.as_ref().and_then(|f| f.rendered.first().cloned()),
                    file: e.file,
                    line: e.line,
                    status: e.status,
                }
            })
            .collect())
    }

    /// The picture of a held position (its game's `show` clause), or None.
    fn _picture(&self, py: Python<'_>, handle: &Bound<'_, Handle>) -> PyResult<Option<String>> {
        let id = self.held_id(handle)?;
        match self.call(py, Request::Picture(id), self.limits(None, None, None))? {
            Answer::Text(t) => Ok(t),
            _ => Ok(None),
        }
    }

    /// The thermograph of a held game value as SVG, or None.
    fn _thermograph(&self, py: Python<'_>, handle: &Bound<'_, Handle>) -> PyResult<Option<String>> {
        let id = self.held_id(handle)?;
        match self.call(py, Request::Thermograph(id), self.limits(None, None, None))? {
            Answer::Text(t) => Ok(t),
            _ => Ok(None),
        }
    }

    /// The files loaded (with what they import), as cgl shows them.
    fn loaded_files(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        match self.call(py, Request::LoadedFiles, Limits::default())? {
            Answer::Names(n) => Ok(n),
            _ => Ok(Vec::new()),
        }
    }
}

/// The compiled part of the package `cgl`.
#[pymodule]
fn _cgl(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Session>()?;
    m.add_class::<Handle>()?;
    m.add_class::<Expectation>()?;
    m.add("Error", m.py().get_type::<Error>())?;
    Ok(())
}
