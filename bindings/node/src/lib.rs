//! The native addon of the Node package `kubernetes-smp`. Documents cross as JSON or YAML
//! text: the package's JavaScript (`index.js`) turns objects into JSON with `JSON.stringify`
//! (which refuses cycles and over-deep nesting with a JavaScript error of its own) and reads
//! the results back with `JSON.parse`; here the text is read with smp's bounded reader and
//! the operation of `smp-bindings` runs. Errors carry a JSON description (`kind`, `message`,
//! `path`, `conflicts`) from which `index.js` makes its error classes.

use std::sync::Arc;

use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde_json::{Value, json};
use smp_bindings::{DocRole, Ssa, Typing};

/// The extension's documents are maps and strings: mimalloc allocates them faster than the
/// system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// An error as `index.js` reads it.
fn error(e: smp_bindings::Error) -> Error {
    let described = match &e {
        smp_bindings::Error::Patch { message, path } => {
            json!({"kind": "PatchError", "message": message, "path": path})
        }
        smp_bindings::Error::Conflict { message, conflicts } => json!({
            "kind": "Conflict",
            "message": message,
            "conflicts": conflicts
                .iter()
                .map(|(manager, path)| json!({"manager": manager, "path": path}))
                .collect::<Vec<_>>(),
        }),
        smp_bindings::Error::Schema { message } => {
            json!({"kind": "SchemaError", "message": message})
        }
    };
    Error::new(Status::GenericFailure, described.to_string())
}

fn read(text: &str, role: DocRole) -> Result<Value> {
    smp_bindings::parse(text, role).map_err(error)
}

fn write(value: &Value) -> String {
    value.to_string()
}

/// A schema read from an OpenAPI document.
#[napi]
pub struct Schema {
    inner: Arc<smp_core::Schema>,
}

#[napi]
impl Schema {
    /// The definition `definition` of an OpenAPI v2 or v3 document (JSON or YAML text), with
    /// its patch metadata.
    #[napi(factory)]
    pub fn from_openapi(document: String, definition: String) -> Result<Schema> {
        let doc = read(&document, DocRole::Schema)?;
        let schema = smp_bindings::load_schema(&doc, &definition).map_err(error)?;
        Ok(Schema {
            inner: Arc::new(schema),
        })
    }
}

/// CustomResourceDefinitions, for merges and server-side apply of their custom resources.
#[napi]
pub struct Crds {
    inner: Arc<smp_bindings::Crds>,
}

#[napi]
impl Crds {
    /// CRDs from files or directories (`paths`) and from documents given as JSON or YAML text
    /// (a CRD or a `List` of them; other kinds are skipped).
    #[napi(constructor)]
    pub fn new(paths: Vec<String>, documents: Vec<String>) -> Result<Crds> {
        let mut crds = smp_bindings::Crds::new();
        for path in &paths {
            crds.add_path(std::path::Path::new(path)).map_err(error)?;
        }
        for (i, text) in documents.iter().enumerate() {
            let doc = read(text, DocRole::Schema)?;
            crds.add_document(&doc, &format!("CRD document {i}"))
                .map_err(error)?;
        }
        Ok(Crds {
            inner: Arc::new(crds),
        })
    }

    /// `[apiVersion, kind]` of every custom resource they define, sorted.
    #[napi]
    pub fn kinds(&self) -> Vec<Vec<String>> {
        self.inner
            .kinds()
            .into_iter()
            .map(|(v, k)| vec![v, k])
            .collect()
    }
}

/// The typing of a call: an explicit schema, CRDs, `apiVersion`/`kind`.
fn typing(kind: Option<Vec<String>>, schema: Option<&Schema>, crds: Option<&Crds>) -> Typing {
    Typing {
        given: schema.map(|s| Arc::clone(&s.inner)),
        crds: crds.map(|c| Arc::clone(&c.inner)),
        kind: kind.and_then(|k| match <[String; 2]>::try_from(k) {
            Ok([api_version, kind]) => Some((api_version, kind)),
            Err(_) => None,
        }),
    }
}

/// Applies the strategic merge patch `patch` to `original`.
#[napi]
pub fn merge(
    original: String,
    patch: String,
    kind: Option<Vec<String>>,
    schema: Option<&Schema>,
    crds: Option<&Crds>,
) -> Result<String> {
    let original = read(&original, DocRole::Original)?;
    let patch = read(&patch, DocRole::Patch)?;
    smp_bindings::merge(original, &patch, &typing(kind, schema, crds))
        .map(|v| write(&v))
        .map_err(error)
}

/// The two-way patch from `original` to `modified`.
#[napi]
pub fn diff(
    original: String,
    modified: String,
    kind: Option<Vec<String>>,
    schema: Option<&Schema>,
    crds: Option<&Crds>,
) -> Result<String> {
    let original = read(&original, DocRole::Original)?;
    let modified = read(&modified, DocRole::Modified)?;
    smp_bindings::diff(&original, &modified, &typing(kind, schema, crds))
        .map(|v| write(&v))
        .map_err(error)
}

/// The three-way patch `kubectl apply` sends.
#[napi]
pub fn three_way(
    original: String,
    modified: String,
    current: String,
    overwrite: bool,
    kind: Option<Vec<String>>,
    schema: Option<&Schema>,
    crds: Option<&Crds>,
) -> Result<String> {
    let original = read(&original, DocRole::Original)?;
    let modified = read(&modified, DocRole::Modified)?;
    let current = read(&current, DocRole::Current)?;
    let typing = typing(kind, schema, crds);
    smp_bindings::three_way(&original, &modified, &current, overwrite, &typing)
        .map(|v| write(&v))
        .map_err(error)
}

/// Client-side apply: `{"patch": ..., "result": ...}` as JSON.
#[napi]
pub fn apply(
    live: String,
    config: String,
    overwrite: bool,
    kind: Option<Vec<String>>,
    schema: Option<&Schema>,
    crds: Option<&Crds>,
) -> Result<String> {
    let live = read(&live, DocRole::Current)?;
    let config = read(&config, DocRole::Modified)?;
    let (patch, result) =
        smp_bindings::apply(&live, &config, overwrite, &typing(kind, schema, crds))
            .map_err(error)?;
    Ok(write(&json!({"patch": patch, "result": result})))
}

fn ssa(manager: String, subresource: Option<String>, now: Option<String>) -> Result<Ssa> {
    let now = now
        .as_deref()
        .map(smp_bindings::parse_time)
        .transpose()
        .map_err(error)?;
    Ok(Ssa {
        manager,
        subresource,
        now,
    })
}

/// Server-side apply of `config` by `manager` over `live` (`{}`: a create).
#[napi]
pub fn server_side_apply(
    live: String,
    config: String,
    manager: String,
    force: bool,
    subresource: Option<String>,
    crds: Option<&Crds>,
    now: Option<String>,
) -> Result<String> {
    let live = read(&live, DocRole::Current)?;
    let config = read(&config, DocRole::Modified)?;
    let options = ssa(manager, subresource, now)?;
    smp_bindings::server_side_apply(&live, &config, force, &typing(None, None, crds), &options)
        .map(|v| write(&v))
        .map_err(error)
}

/// A write of `new` that is not an apply, by `manager`, over `live` (`{}`: a create).
#[napi]
pub fn update(
    live: String,
    new: String,
    manager: String,
    subresource: Option<String>,
    crds: Option<&Crds>,
    now: Option<String>,
) -> Result<String> {
    let live = read(&live, DocRole::Current)?;
    let new = read(&new, DocRole::Modified)?;
    let options = ssa(manager, subresource, now)?;
    smp_bindings::update(&live, new, &typing(None, None, crds), &options)
        .map(|v| write(&v))
        .map_err(error)
}

/// Union normalization (KEP-1027) of `new` given the object before (`old`, or empty text).
#[napi]
pub fn normalize(
    new: String,
    old: Option<String>,
    kind: Option<Vec<String>>,
    schema: Option<&Schema>,
    crds: Option<&Crds>,
) -> Result<String> {
    let new = read(&new, DocRole::Modified)?;
    let old = old.map(|o| read(&o, DocRole::Original)).transpose()?;
    smp_bindings::normalize(new, old.as_ref(), &typing(kind, schema, crds))
        .map(|v| write(&v))
        .map_err(error)
}

/// The Kubernetes version whose built-in kinds the package knows.
#[napi]
pub fn kubernetes_version() -> String {
    smp_bindings::KUBERNETES_VERSION.to_owned()
}
