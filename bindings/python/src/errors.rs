//! smp's errors as the package's Python exceptions (`smp.PatchError`, `smp.Conflict`,
//! `smp.SchemaError`, all `smp.SmpError`s), which are defined in Python (`smp/_errors.py`) so
//! that they can derive from the builtin exception each one also is (`ValueError`).

use pyo3::PyErrArguments;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyType;
use smp_core::PatchError;
use smp_ssa::managedfields::FieldManagerError;

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

/// `smp.PatchError(message, path)`.
pub fn patch_error(message: String, path: Option<String>) -> PyErr {
    raise("PatchError", (message, path))
}

/// A patch error of the engine: a three-way conflict is `smp.Conflict`, the rest
/// `smp.PatchError`, each with the JSON path it names.
pub fn from_patch(e: PatchError) -> PyErr {
    let path = e.path().map(ToString::to_string);
    if let PatchError::Conflict { .. } = e {
        let conflicts = vec![(None::<String>, path.clone().unwrap_or_default())];
        return raise("Conflict", (e.to_string(), conflicts));
    }
    patch_error(e.to_string(), path)
}

/// `smp.SchemaError(message)`: a schema or CRD that does not load.
pub fn schema_error(message: String) -> PyErr {
    raise("SchemaError", (message,))
}

/// The manager's name in a managedFields identifier (`{"manager":"kubectl","operation":
/// "Apply"}`); the identifier itself if it is not one.
fn manager_name(identifier: &str) -> String {
    serde_json::from_str::<serde_json::Value>(identifier)
        .ok()
        .and_then(|v| v.get("manager")?.as_str().map(str::to_owned))
        .unwrap_or_else(|| identifier.to_owned())
}

/// A field manager's refusal: conflicts with other managers are `smp.Conflict` (each with the
/// manager and the field), the rest `smp.PatchError`.
pub fn from_field_manager(e: FieldManagerError) -> PyErr {
    match e {
        FieldManagerError::Conflict(conflict) => {
            let conflicts: Vec<(Option<String>, String)> = conflict
                .conflicts
                .iter()
                .map(|c| (Some(manager_name(&c.manager)), c.path.to_string()))
                .collect();
            raise("Conflict", (conflict.to_string(), conflicts))
        }
        other => patch_error(other.to_string(), None),
    }
}
