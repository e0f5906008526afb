//! Python bindings of cgl: `cgl.Session` over `cgl::api::Session`, diagnostics as `cgl.Error`,
//! values as natural Python values (the package `cgl`, python/cgl/__init__.py, adds the
//! `Outcome` enum). Only `cgl::api` is used, as every shell of cgl does.
//!
//! The GIL is held during every call: a cgl session is not `Send` (its values share `Rc`s and
//! a thread-local table of game values), so it cannot be moved into `Python::allow_threads`.
//! Ctrl-C still stops a long evaluation: for the length of each call a SIGINT handler is
//! registered (chained before Python's own, which then also sees the signal), and a watcher
//! thread turns it into the call's `Cancel`; once the call has returned, Python's pending
//! signal is raised (`KeyboardInterrupt`).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use cgl::api::Data;
use cgl::api::{
    picture_svg, render, Budget, Cancel, Diag, FileId, Gave, Locator, RenderStyle, RunOptions,
    Session as Core, SessionConfig, Span, StatementKind, Value as CoreValue,
};
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFrozenSet, PyList, PyTuple};

pyo3::create_exception!(
    _cgl,
    Error,
    PyException,
    "A cgl diagnostic: `code` (`cgl::resolve::unknown_name`), `message`, `help` (or None), \
     `spans` (a list of (line, col, end_line, end_col), the primary one first), `rendered` \
     (the diagnostic drawn as `cgl` prints it, without colour) and `diagnostics` (every one \
     of the call's diagnostics, as dicts)."
);

/// A cgl session: files loaded into it, expressions evaluated in their scope.
#[pyclass(unsendable, module = "cgl._cgl")]
struct Session {
    core: Core,
    /// The files loaded by `load` and `load_source`, in order: the scope of `eval`, the files
    /// of `check`.
    files: Vec<usize>,
}

/// A canonical form that is not a number (`*`, `^`, `{2 | -1/2}`), as cgl writes it. Two are
/// equal when they are the same game: canonical forms are unique, so when their text is.
#[pyclass(frozen, module = "cgl._cgl")]
struct Value {
    text: String,
}

#[pymethods]
impl Value {
    fn __str__(&self) -> String {
        self.text.clone()
    }
    fn __repr__(&self) -> String {
        format!("cgl.Value({:?})", self.text)
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<Value>()
            .is_ok_and(|o| o.get().text == self.text)
    }
    fn __hash__(&self) -> u64 {
        hash_of(&self.text)
    }
}

/// A game with its parameters, as cgl names it (`Subtraction[S = {1, 2}]`).
#[pyclass(frozen, module = "cgl._cgl")]
struct Game {
    text: String,
}

#[pymethods]
impl Game {
    fn __str__(&self) -> String {
        self.text.clone()
    }
    fn __repr__(&self) -> String {
        format!("cgl.Game({:?})", self.text)
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<Game>()
            .is_ok_and(|o| o.get().text == self.text)
    }
    fn __hash__(&self) -> u64 {
        hash_of(&self.text)
    }
}

fn hash_of(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// A position (or a compound of positions), opaque: `str()` is cgl's printing of it; in a
/// notebook, a position whose game has a `show` clause is drawn (`_repr_svg_`).
#[pyclass(unsendable, module = "cgl._cgl")]
struct Position {
    text: String,
    value: CoreValue,
    session: Py<Session>,
}

#[pymethods]
impl Position {
    fn __str__(&self) -> String {
        self.text.clone()
    }
    fn __repr__(&self) -> String {
        format!("cgl.Position({:?})", self.text)
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<Position>()
            .is_ok_and(|o| o.borrow().text == self.text)
    }
    fn __hash__(&self) -> u64 {
        hash_of(&self.text)
    }
    /// The picture of the position (its game's `show` clause), as cgl draws it; None if its
    /// game has none.
    fn picture(&self, py: Python<'_>) -> PyResult<Option<String>> {
        let mut session = self.session.borrow_mut(py);
        let span = Span::new(FileId(0), 0, 0);
        match session.core.picture(&self.value, span) {
            Ok(p) => Ok(p),
            Err(d) => Err(error(py, &session.core, &[*d])),
        }
    }
    /// The picture as SVG, for Jupyter; None (no SVG form) without a `show` clause.
    fn _repr_svg_(&self, py: Python<'_>) -> PyResult<Option<String>> {
        Ok(self.picture(py)?.map(|p| picture_svg(&p)))
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
}

#[pymethods]
impl Expectation {
    fn __repr__(&self) -> String {
        format!(
            "Expectation(file={:?}, line={}, status={:?}, message={:?})",
            self.file, self.line, self.status, self.message
        )
    }
}

/// A `cgl.Error` for the first of `diags`, with every one as data.
fn error(py: Python<'_>, core: &Core, diags: &[Diag]) -> PyErr {
    match build_error(py, core, diags) {
        Ok(e) => e,
        Err(e) => e,
    }
}

fn build_error(py: Python<'_>, core: &Core, diags: &[Diag]) -> PyResult<PyErr> {
    let found = core.diagnostics(diags);
    let Some(first) = found.first() else {
        return Ok(Error::new_err("cgl gave an error without a diagnostic"));
    };
    let rendered: Vec<String> = diags
        .iter()
        .map(|d| render(d, &core.sources, RenderStyle::Plain))
        .collect();
    let err = Error::new_err(format!("{}: {}", first.code.name(), first.message));
    let value = err.value(py);
    let spans_of = |d: &cgl::api::Diagnostic| -> Vec<(usize, usize, usize, usize)> {
        d.labels
            .iter()
            .map(|(p, _)| (p.line, p.column, p.end_line, p.end_column))
            .collect()
    };
    value.setattr("code", first.code.name())?;
    value.setattr("message", &first.message)?;
    value.setattr("help", first.help.clone())?;
    value.setattr("spans", spans_of(first))?;
    value.setattr("rendered", rendered[0].clone())?;
    let all = PyList::empty(py);
    for (d, text) in found.iter().zip(&rendered) {
        let dict = PyDict::new(py);
        dict.set_item("code", d.code.name())?;
        dict.set_item("severity", cgl::api::severity_text(d.severity))?;
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

/// The budget of one call: a limit left None is the session's own.
fn budget(
    timeout: Option<f64>,
    max_memory: Option<usize>,
    max_positions: Option<usize>,
    cancel: &Cancel,
) -> Budget {
    let mut b = Budget::new().cancel(cancel);
    if let Some(t) = timeout {
        b = b.seconds(t);
    }
    if let Some(m) = max_memory {
        b = b.memory(m);
    }
    if let Some(p) = max_positions {
        b = b.positions(p);
    }
    b
}

/// Runs `call` with Ctrl-C tripping `cancel`: a SIGINT handler (chained with Python's) raises
/// a flag, a watcher thread polls it and cancels. Both are gone when `call` returns.
fn interruptible<R>(cancel: &Cancel, call: impl FnOnce() -> R) -> R {
    let signalled = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicBool::new(false));
    let id = signal_hook::flag::register(signal_hook::consts::SIGINT, signalled.clone()).ok();
    let watcher = {
        let (signalled, done, cancel) = (signalled.clone(), done.clone(), cancel.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                if signalled.load(Ordering::Relaxed) {
                    cancel.cancel();
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };
    let result = call();
    done.store(true, Ordering::Relaxed);
    let _ = watcher.join();
    if let Some(id) = id {
        signal_hook::low_level::unregister(id);
    }
    result
}

#[pymethods]
impl Session {
    #[new]
    fn new() -> Session {
        Session {
            core: Core::new(SessionConfig::default()),
            files: Vec::new(),
        }
    }

    /// Loads a `.game` file (and what it imports); raises `cgl.Error` if it does not load.
    fn load(&mut self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        match self.core.load_path(Path::new(&path)) {
            Ok(file) => {
                self.remember(file);
                Ok(())
            }
            Err(d) => Err(error(py, &self.core, &d)),
        }
    }

    /// Loads `text` as a file named `name`; raises `cgl.Error` if it does not load.
    #[pyo3(signature = (text, name = "<source>"))]
    fn load_source(&mut self, py: Python<'_>, text: &str, name: &str) -> PyResult<()> {
        match self.core.load_source(name, text) {
            Ok(file) => {
                self.remember(file);
                Ok(())
            }
            Err(d) => Err(error(py, &self.core, &d)),
        }
    }

    /// Evaluates an expression in the scope of every loaded file, within the given limits
    /// (seconds, bytes, positions; None: the session's own). Raises `cgl.Error` if it fails
    /// (`cgl::limit::timeout` past the time), and `KeyboardInterrupt` after a Ctrl-C.
    #[pyo3(signature = (expr, timeout = None, max_memory = None, max_positions = None))]
    fn eval(
        slf: &Bound<'_, Session>,
        expr: &str,
        timeout: Option<f64>,
        max_memory: Option<usize>,
        max_positions: Option<usize>,
    ) -> PyResult<PyObject> {
        let py = slf.py();
        let cancel = Cancel::new();
        let b = budget(timeout, max_memory, max_positions, &cancel);
        let mut this = slf.borrow_mut();
        let files = this.files.clone();
        let result = interruptible(&cancel, || {
            this.core.within(&b, |s| s.eval_text(expr, &files))
        });
        // A Ctrl-C: Python's own handler saw it too; raise it now.
        py.check_signals()?;
        let value = match result {
            Ok(v) => v,
            Err(d) => return Err(error(py, &this.core, &d)),
        };
        let session: Py<Session> = slf.clone().unbind();
        to_py(py, &this.core, &session, &value, false)
    }

    /// Runs the `expect` statements of every loaded file (not their `print`s), within the
    /// given limits for the whole run; a list of `Expectation`s in order.
    #[pyo3(signature = (timeout = None, max_memory = None, max_positions = None))]
    fn check(
        &mut self,
        py: Python<'_>,
        timeout: Option<f64>,
        max_memory: Option<usize>,
        max_positions: Option<usize>,
    ) -> PyResult<Vec<Expectation>> {
        let cancel = Cancel::new();
        let b = budget(timeout, max_memory, max_positions, &cancel);
        let files = self.files.clone();
        let options = RunOptions {
            skip_after_timeout: true,
            ..RunOptions::default()
        };
        let mut out = Vec::new();
        interruptible(&cancel, || {
            self.core.within(&b, |s| {
                let mut locator = Locator::default();
                for &file in &files {
                    s.run_statements(file, options, &mut |s, ran| {
                        if ran.kind != StatementKind::Expect {
                            return;
                        }
                        let place = locator.place(ran.span, &s.sources);
                        let (status, message, code) = match &ran.outcome {
                            Gave::Passed => ("passed", None, None),
                            Gave::Failed(d) => (
                                "failed",
                                Some(d.message.clone()),
                                Some(d.code.name().to_string()),
                            ),
                            Gave::Skipped => ("skipped", None, None),
                            Gave::Printed(_) => return,
                        };
                        out.push(Expectation {
                            file: place.as_ref().map(|p| p.file.clone()).unwrap_or_default(),
                            line: place.as_ref().map_or(0, |p| p.line),
                            status: status.to_string(),
                            passed: status == "passed",
                            message,
                            code,
                        });
                    });
                }
            })
        });
        py.check_signals()?;
        Ok(out)
    }

    /// The files loaded (with what they import), as cgl shows them.
    fn loaded_files(&self) -> Vec<String> {
        self.core.loaded_files()
    }
}

impl Session {
    fn remember(&mut self, file: usize) {
        if !self.files.contains(&file) {
            self.files.push(file);
        }
    }
}

/// A cgl value as a Python value. Inside a set (`in_set`), where Python needs hashable
/// elements, a list becomes a tuple.
fn to_py(
    py: Python<'_>,
    core: &Core,
    session: &Py<Session>,
    value: &CoreValue,
    in_set: bool,
) -> PyResult<PyObject> {
    let all =
        |items: &mut dyn Iterator<Item = &CoreValue>, in_set: bool| -> PyResult<Vec<PyObject>> {
            items.map(|v| to_py(py, core, session, v, in_set)).collect()
        };
    Ok(match value {
        CoreValue::None => py.None(),
        CoreValue::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        CoreValue::Int(n) => n.into_pyobject(py)?.into_any().unbind(),
        CoreValue::Str(s) => s.as_ref().into_pyobject(py)?.into_any().unbind(),
        CoreValue::Tuple(items) | CoreValue::Split(items) => {
            PyTuple::new(py, all(&mut items.iter(), in_set)?)?
                .into_any()
                .unbind()
        }
        CoreValue::List(items) if in_set => PyTuple::new(py, all(&mut items.iter(), true)?)?
            .into_any()
            .unbind(),
        CoreValue::List(items) => PyList::new(py, all(&mut items.iter(), false)?)?
            .into_any()
            .unbind(),
        CoreValue::Set(items) => PyFrozenSet::new(py, &all(&mut items.iter(), true)?)?
            .into_any()
            .unbind(),
        CoreValue::Range(start, end) => py
            .import("builtins")?
            .getattr("range")?
            .call1((*start, *end))?
            .unbind(),
        CoreValue::Pos(_) => Py::new(
            py,
            Position {
                text: core.show(value),
                value: value.clone(),
                session: session.clone_ref(py),
            },
        )?
        .into_any(),
        CoreValue::Form(_) => Py::new(
            py,
            Value {
                text: core.show(value),
            },
        )?
        .into_any(),
        CoreValue::Game(_) => Py::new(
            py,
            Game {
                text: core.show(value),
            },
        )?
        .into_any(),
        _ => match core.data(value) {
            Data::Rational {
                numerator,
                denominator,
            } => py
                .import("fractions")?
                .getattr("Fraction")?
                .call1((numerator, denominator))?
                .unbind(),
            Data::Outcome(o) => py.import("cgl")?.getattr("Outcome")?.call1((o,))?.unbind(),
            Data::Mode(m) => m.into_pyobject(py)?.into_any().unbind(),
            _ => core.show(value).into_pyobject(py)?.into_any().unbind(),
        },
    })
}

/// The compiled part of the package `cgl`.
#[pymodule]
fn _cgl(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Session>()?;
    m.add_class::<Value>()?;
    m.add_class::<Game>()?;
    m.add_class::<Position>()?;
    m.add_class::<Expectation>()?;
    m.add("Error", m.py().get_type::<Error>())?;
    Ok(())
}
