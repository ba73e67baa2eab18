//! The native module of the Python package `kubernetes-smp` (`smp._native`). The package's
//! Python layer (`python/smp/__init__.py`) turns the inputs users have (dicts, text, the
//! official client's models, kr8s objects) into documents, gives the keyword arguments their
//! defaults and documents the functions. Each function here reads its documents while it holds
//! the interpreter, runs the operation of `smp-bindings` without it (other Python threads run
//! meanwhile), and builds the result as Python objects.

mod convert;
mod errors;

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use serde_json::Value;
use smp_bindings::{DocRole, Error, Ssa, Typing};

/// The extension's own allocations (its documents' maps and strings) go through mimalloc;
/// Python's objects stay with Python's allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `(apiVersion, kind)`.
type KindArg = Option<(String, String)>;

/// A schema read from an OpenAPI document (`Schema.from_openapi`).
#[pyclass(frozen, name = "Schema", module = "smp._native")]
struct PySchema {
    inner: Arc<smp_core::Schema>,
}

#[pymethods]
impl PySchema {
    /// The definition `definition` of an OpenAPI v2 or v3 document (a dict, or JSON or YAML
    /// text), with its patch metadata.
    #[staticmethod]
    fn from_openapi(document: &Bound<'_, PyAny>, definition: &str) -> PyResult<PySchema> {
        let doc = convert::object(document, DocRole::Schema)?;
        let schema = smp_bindings::load_schema(&doc, definition).map_err(errors::to_py)?;
        Ok(PySchema {
            inner: Arc::new(schema),
        })
    }

    fn __repr__(&self) -> String {
        "<smp.Schema>".to_owned()
    }
}

/// CustomResourceDefinitions, for merges and server-side apply of their custom resources.
#[pyclass(frozen, name = "Crds", module = "smp._native")]
struct PyCrds {
    inner: Arc<smp_bindings::Crds>,
}

#[pymethods]
impl PyCrds {
    /// CRDs from each source: a dict (a CRD or a `List` of them; other kinds are skipped), or a
    /// path (`str`) of a JSON or YAML file or of a directory of them.
    #[new]
    fn new(sources: Vec<Bound<'_, PyAny>>) -> PyResult<PyCrds> {
        let mut crds = smp_bindings::Crds::new();
        for (i, source) in sources.iter().enumerate() {
            let added = if let Ok(path) = source.cast::<PyString>() {
                crds.add_path(std::path::Path::new(path.to_cow()?.as_ref()))
            } else if source.cast::<PyDict>().is_ok() {
                let doc = convert::object(source, DocRole::Schema)?;
                crds.add_document(&doc, &format!("CRD source {i}"))
            } else {
                Err(Error::Schema {
                    message: format!("CRD source {i} is neither a dict nor a path"),
                })
            };
            added.map_err(errors::to_py)?;
        }
        Ok(PyCrds {
            inner: Arc::new(crds),
        })
    }

    /// The `(apiVersion, kind)` of every custom resource they define, sorted.
    fn kinds(&self) -> Vec<(String, String)> {
        self.inner.kinds()
    }

    fn __len__(&self) -> usize {
        self.inner.kinds().len()
    }

    fn __repr__(&self) -> String {
        format!("<smp.Crds: {} kinds>", self.__len__())
    }
}

/// The typing of a call's keyword arguments.
fn typing(
    schema: Option<&Bound<'_, PySchema>>,
    crds: Option<&Bound<'_, PyCrds>>,
    kind: KindArg,
) -> Typing {
    Typing {
        given: schema.map(|s| Arc::clone(&s.get().inner)),
        crds: crds.map(|c| Arc::clone(&c.get().inner)),
        kind,
    }
}

/// The result of an operation, as Python objects (or its exception).
fn output(py: Python<'_>, result: Result<Value, Error>) -> PyResult<Py<PyAny>> {
    let value = result.map_err(errors::to_py)?;
    convert::to_python(py, &value).map(Bound::unbind)
}

/// Applies the strategic merge patch `patch` to `original`.
#[pyfunction]
#[pyo3(signature = (original, patch, schema=None, crds=None, kind=None))]
fn merge(
    py: Python<'_>,
    original: &Bound<'_, PyAny>,
    patch: &Bound<'_, PyAny>,
    schema: Option<&Bound<'_, PySchema>>,
    crds: Option<&Bound<'_, PyCrds>>,
    kind: KindArg,
) -> PyResult<Py<PyAny>> {
    let original = convert::object(original, DocRole::Original)?;
    let patch = convert::object(patch, DocRole::Patch)?;
    let typing = typing(schema, crds, kind);
    output(
        py,
        py.detach(|| smp_bindings::merge(original, &patch, &typing)),
    )
}

/// The two-way patch from `original` to `modified`.
#[pyfunction]
#[pyo3(signature = (original, modified, schema=None, crds=None, kind=None))]
fn diff(
    py: Python<'_>,
    original: &Bound<'_, PyAny>,
    modified: &Bound<'_, PyAny>,
    schema: Option<&Bound<'_, PySchema>>,
    crds: Option<&Bound<'_, PyCrds>>,
    kind: KindArg,
) -> PyResult<Py<PyAny>> {
    let original = convert::object(original, DocRole::Original)?;
    let modified = convert::object(modified, DocRole::Modified)?;
    let typing = typing(schema, crds, kind);
    output(
        py,
        py.detach(|| smp_bindings::diff(&original, &modified, &typing)),
    )
}

/// The three-way patch that `kubectl apply` sends.
#[pyfunction]
#[pyo3(signature = (original, modified, current, overwrite=true, schema=None, crds=None, kind=None))]
#[allow(clippy::too_many_arguments)]
fn three_way(
    py: Python<'_>,
    original: &Bound<'_, PyAny>,
    modified: &Bound<'_, PyAny>,
    current: &Bound<'_, PyAny>,
    overwrite: bool,
    schema: Option<&Bound<'_, PySchema>>,
    crds: Option<&Bound<'_, PyCrds>>,
    kind: KindArg,
) -> PyResult<Py<PyAny>> {
    let original = convert::object(original, DocRole::Original)?;
    let modified = convert::object(modified, DocRole::Modified)?;
    let current = convert::object(current, DocRole::Current)?;
    let typing = typing(schema, crds, kind);
    output(
        py,
        py.detach(|| smp_bindings::three_way(&original, &modified, &current, overwrite, &typing)),
    )
}

/// Client-side apply (`kubectl apply` without `--server-side`): `(patch, result)`.
#[pyfunction]
#[pyo3(signature = (live, config, overwrite=true, schema=None, crds=None, kind=None))]
fn apply<'py>(
    py: Python<'py>,
    live: &Bound<'py, PyAny>,
    config: &Bound<'py, PyAny>,
    overwrite: bool,
    schema: Option<&Bound<'py, PySchema>>,
    crds: Option<&Bound<'py, PyCrds>>,
    kind: KindArg,
) -> PyResult<Bound<'py, PyTuple>> {
    let live = convert::object(live, DocRole::Current)?;
    let config = convert::object(config, DocRole::Modified)?;
    let typing = typing(schema, crds, kind);
    let (patch, result) = py
        .detach(|| smp_bindings::apply(&live, &config, overwrite, &typing))
        .map_err(errors::to_py)?;
    PyTuple::new(
        py,
        [
            convert::to_python(py, &patch)?,
            convert::to_python(py, &result)?,
        ],
    )
}

/// The options of server-side apply and updates.
fn ssa_options(manager: String, subresource: Option<String>, now: Option<&str>) -> PyResult<Ssa> {
    let now = now
        .map(smp_bindings::parse_time)
        .transpose()
        .map_err(errors::to_py)?;
    Ok(Ssa {
        manager,
        subresource,
        now,
    })
}

/// Server-side apply of `config` by `manager` over `live`: the object the API server stores,
/// with its managedFields.
#[pyfunction]
#[pyo3(signature = (live, config, manager, force=false, subresource=None, crds=None, now=None))]
#[allow(clippy::too_many_arguments)]
fn server_side_apply(
    py: Python<'_>,
    live: &Bound<'_, PyAny>,
    config: &Bound<'_, PyAny>,
    manager: String,
    force: bool,
    subresource: Option<String>,
    crds: Option<&Bound<'_, PyCrds>>,
    now: Option<&str>,
) -> PyResult<Py<PyAny>> {
    let live = convert::object(live, DocRole::Current)?;
    let config = convert::object(config, DocRole::Modified)?;
    let options = ssa_options(manager, subresource, now)?;
    let typing = typing(None, crds, None);
    output(
        py,
        py.detach(|| smp_bindings::server_side_apply(&live, &config, force, &typing, &options)),
    )
}

/// A write of `new` that is not an apply (create, update, patch) by `manager`: `new` with the
/// managedFields the API server records.
#[pyfunction]
#[pyo3(signature = (live, new, manager, subresource=None, crds=None, now=None))]
fn update(
    py: Python<'_>,
    live: &Bound<'_, PyAny>,
    new: &Bound<'_, PyAny>,
    manager: String,
    subresource: Option<String>,
    crds: Option<&Bound<'_, PyCrds>>,
    now: Option<&str>,
) -> PyResult<Py<PyAny>> {
    let live = convert::object(live, DocRole::Current)?;
    let new = convert::object(new, DocRole::Modified)?;
    let options = ssa_options(manager, subresource, now)?;
    let typing = typing(None, crds, None);
    output(
        py,
        py.detach(|| smp_bindings::update(&live, new, &typing, &options)),
    )
}

/// Union normalization (KEP-1027) of `new`, given the object before (`old`), then the check
/// that each union has at most one member set.
#[pyfunction]
#[pyo3(signature = (new, old=None, schema=None, crds=None, kind=None))]
fn normalize(
    py: Python<'_>,
    new: &Bound<'_, PyAny>,
    old: Option<&Bound<'_, PyAny>>,
    schema: Option<&Bound<'_, PySchema>>,
    crds: Option<&Bound<'_, PyCrds>>,
    kind: KindArg,
) -> PyResult<Py<PyAny>> {
    let new = convert::object(new, DocRole::Modified)?;
    let old = match old {
        Some(old) if !old.is_none() => Some(convert::object(old, DocRole::Original)?),
        _ => None,
    };
    let typing = typing(schema, crds, kind);
    output(
        py,
        py.detach(|| smp_bindings::normalize(new, old.as_ref(), &typing)),
    )
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    m.add_function(wrap_pyfunction!(diff, m)?)?;
    m.add_function(wrap_pyfunction!(three_way, m)?)?;
    m.add_function(wrap_pyfunction!(apply, m)?)?;
    m.add_function(wrap_pyfunction!(server_side_apply, m)?)?;
    m.add_function(wrap_pyfunction!(update, m)?)?;
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    m.add_class::<PySchema>()?;
    m.add_class::<PyCrds>()?;
    m.add("KUBERNETES_VERSION", smp_bindings::KUBERNETES_VERSION)?;
    Ok(())
}
