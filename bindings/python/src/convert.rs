//! Python values to JSON values and back.
//!
//! A document crosses into Rust as a tree of `dict`, `list`/`tuple`, `str`, `int`, `float`,
//! `bool` and `None`, or as JSON or YAML text. The walk is bounded by the engine's own depth
//! limit, so a deeply nested (or self-containing) Python value is an error naming where it went
//! too deep, never a stack overflow.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};
use smp_bindings::{DocRole, Error, MAX_DEPTH};
use smp_core::{JsonPath, Segment};

use crate::errors;

/// Why a Python value is not a JSON document, and where: path segments, innermost first while
/// the walk unwinds.
struct NotJson {
    segments: Vec<Segment>,
    detail: String,
}

impl NotJson {
    fn new(detail: impl Into<String>) -> NotJson {
        NotJson {
            segments: Vec::new(),
            detail: detail.into(),
        }
    }

    fn at(mut self, segment: Segment) -> NotJson {
        self.segments.push(segment);
        self
    }

    /// The JSON path as smp's errors print it (`spec.containers[0].image`).
    fn path(mut self) -> (String, String) {
        self.segments.reverse();
        (JsonPath(self.segments).to_string(), self.detail)
    }
}

/// A document given to a function, as an object: a dict, or JSON or YAML text (`str` or
/// `bytes`); `None`, empty text and `null` are `{}`. `role` names the input in errors.
pub fn object(obj: &Bound<'_, PyAny>, role: DocRole) -> PyResult<Value> {
    if let Ok(text) = obj.cast::<PyString>() {
        return smp_bindings::parse(&text.to_cow()?, role).map_err(errors::to_py);
    }
    if let Ok(bytes) = obj.cast::<PyBytes>() {
        let text = std::str::from_utf8(bytes.as_bytes()).map_err(|e| {
            errors::to_py(Error::patch(
                format!("the {role} is not UTF-8 text: {e}"),
                None,
            ))
        })?;
        return smp_bindings::parse(text, role).map_err(errors::to_py);
    }
    let doc = Reader::default().value(obj, 0).map_err(|e| {
        let (path, detail) = e.path();
        errors::to_py(Error::patch(
            format!("the {role} is not a JSON document: at {path}: {detail}"),
            Some(path),
        ))
    })?;
    smp_bindings::object(doc, role).map_err(errors::to_py)
}

/// The walk into Rust. Dict keys are mostly the same few interned `str` objects (`name`,
/// `image`, ...), so each key object's text is read from Python once per call.
#[derive(Default)]
struct Reader {
    /// Key text by the address of its `str` object, alive for the whole walk (the document
    /// holds it, and the interpreter is held).
    keys: HashMap<usize, String, BuildHasherDefault<AddressHasher>>,
}

/// Hashes an object's address: a multiplication. The keys are addresses the interpreter chose,
/// not text from the document, so no input can make them collide, and a keyed hash (what
/// maps keyed by input use) would cost more than the rest of the lookup.
#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(*b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_usize(&mut self, n: usize) {
        // Objects are aligned: the low bits say nothing, the multiplication spreads the rest
        // into the high bits, which hashbrown reads.
        self.0 = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl Reader {
    fn value(&mut self, obj: &Bound<'_, PyAny>, depth: usize) -> Result<Value, NotJson> {
        if depth > MAX_DEPTH {
            return Err(NotJson::new(format!(
                "nested more than {MAX_DEPTH} levels deep"
            )));
        }
        if obj.is_none() {
            return Ok(Value::Null);
        }
        if let Ok(s) = obj.cast::<PyString>() {
            return Ok(Value::String(text(s)?));
        }
        if let Ok(dict) = obj.cast::<PyDict>() {
            let mut map = Map::new();
            for (k, v) in dict.iter() {
                let Ok(key) = k.cast::<PyString>() else {
                    return Err(NotJson::new(format!(
                        "a key of type {} (JSON keys are strings)",
                        type_name(&k)
                    )));
                };
                let key = self.key(key)?;
                let item = self
                    .value(&v, depth + 1)
                    .map_err(|e| e.at(Segment::Field(key.clone())))?;
                map.insert(key, item);
            }
            return Ok(Value::Object(map));
        }
        if let Ok(list) = obj.cast::<PyList>() {
            return self.items(list.iter(), list.len(), depth);
        }
        // `bool` is a subclass of `int`: asked first.
        if let Ok(b) = obj.cast::<PyBool>() {
            return Ok(Value::Bool(b.is_true()));
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
        if let Ok(tuple) = obj.cast::<PyTuple>() {
            return self.items(tuple.iter(), tuple.len(), depth);
        }
        Err(NotJson::new(format!(
            "a value of type {} (documents are dicts, lists, strings, numbers, booleans and None)",
            type_name(obj)
        )))
    }

    fn key(&mut self, key: &Bound<'_, PyString>) -> Result<String, NotJson> {
        let address = key.as_ptr() as usize;
        if let Some(known) = self.keys.get(&address) {
            return Ok(known.clone());
        }
        let read = text(key)?;
        self.keys.insert(address, read.clone());
        Ok(read)
    }

    fn items<'py>(
        &mut self,
        iter: impl Iterator<Item = Bound<'py, PyAny>>,
        len: usize,
        depth: usize,
    ) -> Result<Value, NotJson> {
        let mut out = Vec::with_capacity(len);
        for (i, item) in iter.enumerate() {
            out.push(
                self.value(&item, depth + 1)
                    .map_err(|e| e.at(Segment::Index(i)))?,
            );
        }
        Ok(Value::Array(out))
    }
}

fn text(s: &Bound<'_, PyString>) -> Result<String, NotJson> {
    s.to_cow()
        .map(|t| t.into_owned())
        .map_err(|e| NotJson::new(format!("a string that is not UTF-8: {e}")))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// A JSON value as Python objects: `dict`, `list`, `str`, `int`, `float`, `bool`, `None`.
/// Values come from the engine, whose documents are at most [`MAX_DEPTH`] deep. (Sharing one
/// `str` object per distinct key was tried: the lookup cost more than the strings it saved.)
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
                dict.set_item(PyString::new(py, k), to_python(py, item)?)?;
            }
            dict.into_any()
        }
    })
}
