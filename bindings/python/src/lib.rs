//! The native module of the Python package `kubernetes-smp` (`smp._native`). The package's
//! Python layer (`python/smp/__init__.py`) turns the inputs users have (dicts, text, the
//! official client's models, kr8s objects) into documents, gives the keyword arguments their
//! defaults and documents the functions; each function here reads its documents while it holds
//! the interpreter, computes without it (other Python threads run meanwhile), and builds the
//! result as Python objects.

mod convert;
mod errors;
mod schemas;

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use serde_json::Value;
use smp_core::union::ValidationError;
use smp_core::{Conflicts, DocRole, ThreeWayOptions};
use smp_ssa::managedfields::{ApplyOptions, Clock, FieldManager, FieldManagerError};

use schemas::{PyCrds, PySchema, Typing};

/// `(apiVersion, kind)`.
type KindArg = Option<(String, String)>;

/// The result of the engine, as Python objects.
fn output(py: Python<'_>, v: &Value) -> PyResult<Py<PyAny>> {
    convert::to_python(py, v).map(Bound::unbind)
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
    let typing = Typing::new(schema, crds, kind);
    let merged = py.detach(move || {
        typing.with_node(&[&original], |node| {
            smp_core::apply(&original, &patch, node)
        })
    });
    output(py, &merged.map_err(errors::from_patch)?)
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
    let typing = Typing::new(schema, crds, kind);
    let patch = py.detach(move || {
        typing.with_node(&[&modified, &original], |node| {
            smp_core::diff(&original, &modified, node)
        })
    });
    output(py, &patch.map_err(errors::from_patch)?)
}

fn three_way_options(overwrite: bool) -> ThreeWayOptions {
    ThreeWayOptions {
        conflicts: if overwrite {
            Conflicts::Overwrite
        } else {
            Conflicts::Refuse
        },
        ..ThreeWayOptions::default()
    }
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
    let typing = Typing::new(schema, crds, kind);
    let options = three_way_options(overwrite);
    let patch = py.detach(move || {
        typing.with_node(&[&modified, &current, &original], |node| {
            smp_core::three_way(&original, &modified, &current, node, &options)
        })
    });
    output(py, &patch.map_err(errors::from_patch)?)
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
    let typing = Typing::new(schema, crds, kind);
    let options = three_way_options(overwrite);
    let applied = py.detach(move || {
        typing.with_node(&[&config, &live], |node| {
            smp_core::client_side_apply(&live, &config, node, &options)
        })
    });
    let applied = applied.map_err(errors::from_patch)?;
    PyTuple::new(
        py,
        [
            convert::to_python(py, applied.patch.as_value())?,
            convert::to_python(py, &applied.result)?,
        ],
    )
}

/// Server-side apply's field manager for `object`'s kind: a built-in kind's, or a custom
/// resource's from the CRDs.
fn field_manager<'s>(
    object: &Value,
    crd_schema: Option<&'s smp_ssa::schema::Schema>,
    crds: Option<&PyCrds>,
    subresource: Option<&str>,
    now: Option<i64>,
) -> Result<FieldManager<'s>, FieldManagerError> {
    let text = |key: &str| object.get(key).and_then(Value::as_str).unwrap_or("");
    let (version, kind) = (text("apiVersion"), text("kind"));
    if version.is_empty() || kind.is_empty() {
        return Err(FieldManagerError::BadRequest(
            "the object has no apiVersion and kind: server-side apply types it by them".into(),
        ));
    }
    let gvk = smp_ssa::schema::Gvk::of(version, kind);
    let mut fm = match crd_schema.filter(|s| s.kind(&gvk).is_some()) {
        Some(schema) => {
            let mut fm = FieldManager::new(schema, version, kind)?;
            let documents = crds.map(|c| c.catalog.documents()).unwrap_or_default();
            if let Some(resets) = smp_ssa::schema::crd_reset_fields(
                documents,
                version,
                kind,
                subresource.unwrap_or(""),
            ) {
                fm = fm.reset_fields(resets);
            }
            fm
        }
        None => FieldManager::builtin(version, kind).map_err(|_| {
            FieldManagerError::UnknownKind(format!(
                "{version}, Kind={kind}: not a Kubernetes v{} kind (pass its CRD with crds=)",
                smp_ssa::builtin::KUBERNETES_VERSION
            ))
        })?,
    };
    if let Some(name) = subresource {
        fm = fm.subresource(name);
    }
    if let Some(seconds) = now {
        fm = fm.clock(Clock::Fixed(seconds));
    }
    Ok(fm)
}

/// An RFC 3339 time as seconds, for a fixed clock.
fn fixed_time(now: Option<&str>) -> PyResult<Option<i64>> {
    let Some(text) = now else { return Ok(None) };
    match Clock::fixed(text) {
        Some(Clock::Fixed(seconds)) => Ok(Some(seconds)),
        _ => Err(errors::patch_error(
            format!("now: expected an RFC 3339 time such as 2026-11-26T12:00:00Z, got `{text}`"),
            None,
        )),
    }
}

/// The live object, or `None` when there is none (`None`, `{}`).
fn live_object(live: &Bound<'_, PyAny>) -> PyResult<Option<Value>> {
    let live = convert::object(live, DocRole::Current)?;
    Ok(live
        .as_object()
        .is_some_and(|m| !m.is_empty())
        .then_some(live))
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
    let live = live_object(live)?;
    let config = convert::object(config, DocRole::Modified)?;
    let now = fixed_time(now)?;
    let crds = crds.map(Bound::get);
    let crd_schema = crds.map(PyCrds::ssa_schema).transpose()?;
    let object = py.detach(|| {
        let fm = field_manager(
            &config,
            crd_schema.as_deref(),
            crds,
            subresource.as_deref(),
            now,
        )?;
        fm.apply(live.as_ref(), &config, &manager, ApplyOptions { force })
    });
    output(py, &object.map_err(errors::from_field_manager)?)
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
    let live = live_object(live)?;
    let new = convert::object(new, DocRole::Modified)?;
    let now = fixed_time(now)?;
    let crds = crds.map(Bound::get);
    let crd_schema = crds.map(PyCrds::ssa_schema).transpose()?;
    let object = py.detach(|| {
        let fm = field_manager(
            &new,
            crd_schema.as_deref(),
            crds,
            subresource.as_deref(),
            now,
        )?;
        fm.update(live.as_ref(), new, &manager)
    });
    output(py, &object.map_err(errors::from_field_manager)?)
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
    let mut new = convert::object(new, DocRole::Modified)?;
    let old = match old {
        Some(old) if !old.is_none() => Some(convert::object(old, DocRole::Original)?),
        _ => None,
    };
    // The kind is read before `new` changes.
    let typing = Typing::new(schema, crds, kind).named_by(&[&new]);
    let checked: Result<Value, ValidationError> = py.detach(move || {
        typing.with_node(&[], |node| {
            smp_core::union::normalize(&mut new, old.as_ref(), node);
            smp_core::union::validate(&new, node)?;
            Ok(new)
        })
    });
    match checked {
        Ok(new) => output(py, &new),
        Err(e) => {
            let path = e.errors().first().map(|u| u.path().to_string());
            Err(errors::patch_error(e.to_string(), path))
        }
    }
}

/// The Kubernetes version whose built-in kinds the package knows.
const KUBERNETES_VERSION: &str = smp_ssa::builtin::KUBERNETES_VERSION;

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
    m.add("KUBERNETES_VERSION", KUBERNETES_VERSION)?;
    Ok(())
}
