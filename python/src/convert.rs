//! Python values to plain data and back. A cgl integer is an `int`, a fraction a
//! `fractions.Fraction`, an outcome a `cgl.Outcome`, a list a `list`, a tuple (and
//! `split(...)`) a `tuple`, a set a `frozenset`, a range a `range`, a string a `str`, a
//! boolean a `bool`, `none` `None`, a compound mode a `str`; a position, game value or game a
//! `cgl.Position`, `cgl.Value` or `cgl.Game` around its [`Handle`]. Back, each of those (and
//! a Python `set`) is the cgl value it came from.

use std::sync::Arc;

use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple};

use super::worker::{Link, Plain};
use super::Handle;

/// A Python value as plain data for the session of `link`.
pub fn to_plain(value: &Bound<'_, PyAny>, link: &Arc<Link>) -> PyResult<Plain> {
    let py = value.py();
    let all = |items: Vec<Bound<'_, PyAny>>| -> PyResult<Vec<Plain>> {
        items.iter().map(|v| to_plain(v, link)).collect()
    };
    if value.is_none() {
        return Ok(Plain::None);
    }
    if let Ok(b) = value.downcast::<PyBool>() {
        return Ok(Plain::Bool(b.is_true()));
    }
    if value.is_instance_of::<PyInt>() {
        return value.extract::<i64>().map(Plain::Int).map_err(|_| {
            PyOverflowError::new_err(format!(
                "{value} does not fit cgl's integers (64 bits, signed)"
            ))
        });
    }
    if let Ok(s) = value.downcast::<PyString>() {
        return Ok(Plain::Str(s.extract::<String>()?));
    }
    if let Ok(items) = value.downcast::<PyList>() {
        return Ok(Plain::List(all(items.iter().collect())?));
    }
    if let Ok(items) = value.downcast::<PyTuple>() {
        return Ok(Plain::Tuple(all(items.iter().collect())?));
    }
    if let Ok(items) = value.downcast::<PySet>() {
        return Ok(Plain::Set(all(items.iter().collect())?));
    }
    if let Ok(items) = value.downcast::<PyFrozenSet>() {
        return Ok(Plain::Set(all(items.iter().collect())?));
    }
    if value.is_instance(&py.import("builtins")?.getattr("range")?)? {
        let r = value;
        let (start, stop, step): (i64, i64, i64) = (
            r.getattr("start")?.extract()?,
            r.getattr("stop")?.extract()?,
            r.getattr("step")?.extract()?,
        );
        if step != 1 {
            // A range with a step is its list.
            let items = r.try_iter()?.collect::<PyResult<Vec<_>>>()?;
            return to_plain(PyList::new(py, items)?.as_any(), link);
        }
        return Ok(Plain::Range(start, stop.max(start)));
    }
    let fractions = py.import("fractions")?;
    if value.is_instance(&fractions.getattr("Fraction")?)? {
        let (num, den) = (value.getattr("numerator")?, value.getattr("denominator")?);
        return Ok(match (num.extract::<i64>(), den.extract::<i64>()) {
            (Ok(n), Ok(1)) => Plain::Int(n),
            (Ok(n), Ok(d)) => Plain::Fraction(n, d),
            // A wide fraction crosses as text; an integer past 64 bits is refused there.
            _ => Plain::Wide(num.str()?.to_string(), den.str()?.to_string()),
        });
    }
    let cgl = py.import("cgl")?;
    if value.is_instance(&cgl.getattr("Outcome")?)? {
        return Ok(Plain::Outcome(value.getattr("value")?.extract()?));
    }
    if let Ok(h) = value.getattr("_h") {
        if let Ok(handle) = h.downcast::<Handle>() {
            let h = handle.get();
            if !Arc::ptr_eq(&h.link, link) {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "{} belongs to another cgl.Session",
                    h.text
                )));
            }
            return Ok(Plain::Held(super::worker::Held {
                id: h.id,
                kind: h.kind,
                text: h.text.clone(),
            }));
        }
    }
    Err(PyTypeError::new_err(format!(
        "cgl has no value for a Python {}: give an int, Fraction, bool, str, None, \
         cgl.Outcome, a list, tuple, set or range of them, or a value a session gave",
        value.get_type().name()?
    )))
}

/// Plain data as a Python value; a held value wrapped by `cgl._wrap` with its session.
/// Inside a set (`in_set`), where Python needs hashable elements, a list becomes a tuple.
pub fn to_py(
    py: Python<'_>,
    value: &Plain,
    session: &Bound<'_, PyAny>,
    link: &Arc<Link>,
    in_set: bool,
) -> PyResult<PyObject> {
    let all = |items: &[Plain], in_set: bool| -> PyResult<Vec<PyObject>> {
        items
            .iter()
            .map(|v| to_py(py, v, session, link, in_set))
            .collect()
    };
    Ok(match value {
        Plain::None => py.None(),
        Plain::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Plain::Int(n) => n.into_pyobject(py)?.into_any().unbind(),
        Plain::Str(s) | Plain::Mode(s) => s.into_pyobject(py)?.into_any().unbind(),
        Plain::Fraction(n, d) => py
            .import("fractions")?
            .getattr("Fraction")?
            .call1((n, d))?
            .unbind(),
        Plain::Wide(n, d) => {
            let int = py.import("builtins")?.getattr("int")?;
            py.import("fractions")?
                .getattr("Fraction")?
                .call1((int.call1((n,))?, int.call1((d,))?))?
                .unbind()
        }
        Plain::Outcome(o) => py.import("cgl")?.getattr("Outcome")?.call1((o,))?.unbind(),
        Plain::Tuple(items) => PyTuple::new(py, all(items, in_set)?)?.into_any().unbind(),
        Plain::List(items) if in_set => PyTuple::new(py, all(items, true)?)?.into_any().unbind(),
        Plain::List(items) => PyList::new(py, all(items, false)?)?.into_any().unbind(),
        Plain::Set(items) => PyFrozenSet::new(py, &all(items, true)?)?
            .into_any()
            .unbind(),
        Plain::Range(a, b) => py
            .import("builtins")?
            .getattr("range")?
            .call1((a, b))?
            .unbind(),
        Plain::Held(h) => {
            let handle = Py::new(
                py,
                Handle {
                    id: h.id,
                    kind: h.kind,
                    text: h.text.clone(),
                    link: link.clone(),
                },
            )?;
            py.import("cgl")?
                .getattr("_wrap")?
                .call1((handle, session))?
                .unbind()
        }
    })
}
