//! Python values to JSON values and back.
//!
//! A document crosses into Rust as a tree of `dict`, `list`/`tuple`, `str`, `int`, `float`,
//! `bool` and `None`, or as JSON or YAML text. The walk is bounded by the engine's own depth
//! limit, so a deeply nested (or self-containing) Python value is an error naming where it went
//! too deep, never a stack overflow.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};
use smp_core::DocRole;

use crate::errors;

/// How deep a document may nest: the engine refuses deeper documents anyway.
const MAX_DEPTH: usize = smp_core::MAX_DEPTH;

/// Why a Python value is not a JSON document, and where (segments from the root, innermost
/// last once the walk has unwound).
struct NotJson {
    /// Path segments, innermost first while unwinding.
    segments: Vec<String>,
    detail: String,
}

impl NotJson {
    fn new(detail: impl Into<String>) -> NotJson {
        NotJson {
            segments: Vec::new(),
            detail: detail.into(),
        }
    }

    fn at(mut self, segment: String) -> NotJson {
        self.segments.push(segment);
        self
    }

    /// A JSON path as smp's errors print them: `.spec.containers[0].image`.
    fn path(&self) -> String {
        let mut path = String::new();
        for segment in self.segments.iter().rev() {
            path.push_str(segment);
        }
        if path.is_empty() {
            ".".to_owned()
        } else {
            path
        }
    }
}

/// A document given to a function: an object tree, or JSON/YAML text (`str` or `bytes`).
/// `role` names the input in errors.
pub fn document(obj: &Bound<'_, PyAny>, role: DocRole) -> PyResult<Value> {
    if let Ok(text) = obj.cast::<PyString>() {
        return parse(&text.to_cow()?, role);
    }
    if let Ok(bytes) = obj.cast::<PyBytes>() {
        let text = std::str::from_utf8(bytes.as_bytes())
            .map_err(|e| errors::patch_error(format!("the {role} is not UTF-8 text: {e}"), None))?;
        return parse(text, role);
    }
    value(obj, 0).map_err(|e| {
        let path = e.path();
        errors::patch_error(
            format!("the {role} is not a JSON document: at {path}: {}", e.detail),
            Some(path),
        )
    })
}

/// A document that must be an object (`None`, empty text and `null` count as `{}`).
pub fn object(obj: &Bound<'_, PyAny>, role: DocRole) -> PyResult<Value> {
    if obj.is_none() {
        return Ok(Value::Object(Map::new()));
    }
    match document(obj, role)? {
        Value::Null => Ok(Value::Object(Map::new())),
        v @ Value::Object(_) => Ok(v),
        other => Err(errors::patch_error(
            format!(
                "the {role} must be an object, not {}",
                smp_core::error::kind_of(&other)
            ),
            Some(".".to_owned()),
        )),
    }
}

fn parse(text: &str, role: DocRole) -> PyResult<Value> {
    smp_core::parse_document(text, role).map_err(errors::from_patch)
}

fn value(obj: &Bound<'_, PyAny>, depth: usize) -> Result<Value, NotJson> {
    if depth > MAX_DEPTH {
        return Err(NotJson::new(format!(
            "nested more than {MAX_DEPTH} levels deep"
        )));
    }
    if obj.is_none() {
        return Ok(Value::Null);
    }
    // `bool` is a subclass of `int`: asked first.
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let text = s
            .to_cow()
            .map_err(|e| NotJson::new(format!("a string that is not UTF-8: {e}")))?;
        return Ok(Value::String(text.into_owned()));
    }
    if let Ok(dict) = obj.cast::<PyDict>() {
        let mut map = Map::new();
        for (k, v) in dict.iter() {
            let key = match k.cast::<PyString>() {
                Ok(s) => s
                    .to_cow()
                    .map_err(|e| NotJson::new(format!("a key that is not UTF-8: {e}")))?
                    .into_owned(),
                Err(_) => {
                    return Err(NotJson::new(format!(
                        "a key of type {} (JSON keys are strings)",
                        type_name(&k)
                    )));
                }
            };
            let item = value(&v, depth + 1).map_err(|e| e.at(format!(".{key}")))?;
            map.insert(key, item);
        }
        return Ok(Value::Object(map));
    }
    if let Ok(list) = obj.cast::<PyList>() {
        return items(list.iter(), list.len(), depth);
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        return items(tuple.iter(), tuple.len(), depth);
    }
    if let Ok(int) = obj.cast::<PyInt>() {
        if let Ok(i) = int.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = int.extract::<u64>() {
            return Ok(Value::from(u));
        }
        return Err(NotJson::new(
            "an integer outside the 64-bit range JSON numbers are read into",
        ));
    }
    if let Ok(float) = obj.cast::<PyFloat>() {
        let f = float.value();
        return Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| NotJson::new(format!("{f}, a float JSON cannot hold")));
    }
    Err(NotJson::new(format!(
        "a value of type {} (documents are dicts, lists, strings, numbers, booleans and None)",
        type_name(obj)
    )))
}

fn items<'py>(
    iter: impl Iterator<Item = Bound<'py, PyAny>>,
    len: usize,
    depth: usize,
) -> Result<Value, NotJson> {
    let mut out = Vec::with_capacity(len);
    for (i, item) in iter.enumerate() {
        out.push(value(&item, depth + 1).map_err(|e| e.at(format!("[{i}]")))?);
    }
    Ok(Value::Array(out))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// A JSON value as Python objects: `dict`, `list`, `str`, `int`, `float`, `bool`, `None`.
/// Values come from the engine, whose documents are at most [`MAX_DEPTH`] deep.
pub fn to_python<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                dict.set_item(k, to_python(py, item)?)?;
            }
            dict.into_any()
        }
    })
}
