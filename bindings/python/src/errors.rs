//! smp's errors as the package's Python exceptions (`smp.PatchError`, `smp.Conflict`,
//! `smp.SchemaError`, all `smp.SmpError`s), which are defined in Python (`smp/_errors.py`) so
//! that they can derive from the builtin exception each one also is (`ValueError`).

use pyo3::PyErrArguments;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyType;
use smp_bindings::Error;

/// An instance of the exception class `name` of `smp._errors`, made with `args`.
fn raise<A>(name: &str, args: A) -> PyErr
where
    A: PyErrArguments + Send + Sync + 'static,
{
    Python::attach(|py| {
        let class = py
            .import("smp._errors")
            .and_then(|m| m.getattr(name))
            .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from));
        match class {
            Ok(class) => PyErr::from_type(class, args),
            Err(e) => PyRuntimeError::new_err(format!("smp._errors.{name} is missing: {e}")),
        }
    })
}

/// The Python exception of an error.
pub fn to_py(e: Error) -> PyErr {
    match e {
        Error::Patch { message, path } => raise("PatchError", (message, path)),
        Error::Conflict { message, conflicts } => raise("Conflict", (message, conflicts)),
        Error::Schema { message } => raise("SchemaError", (message,)),
    }
}
