//! JSON patch (RFC 6902) and JSON merge patch (RFC 7386) exactly as kube-apiserver v1.34
//! applies them.
//!
//! The API server applies both with the Go library gopkg.in/evanphx/json-patch.v4 at v4.12.0
//! (its patch handler, `applyJSPatch` in k8s.io/apiserver's `endpoints/handlers/patch.go`), to
//! the object as Go's `encoding/json` prints it, with at most 10,000 operations and at most
//! 3 MiB added by `copy` operations (`JSONPatchMaxCopyBytes`). That library departs from the
//! RFCs in ways clients depend on: see [`apply`] and [`merge`]. This module is a reading of
//! that behaviour, with every error message of the library; `tests/jsonpatch.rs` checks it
//! against the library's own test table and against edge cases read off its code.
//!
//! ```
//! use serde_json::json;
//! use smp_apiserver::jsonpatch::{self, Limits};
//!
//! // kube-runtime's `finalizer()` adds the first finalizer after testing for `null`: a
//! // missing member passes that test here, as on a cluster.
//! let pod = json!({"metadata": {"name": "p"}});
//! let patch = r#"[{"op": "test", "path": "/metadata/finalizers", "value": null},
//!                 {"op": "add", "path": "/metadata/finalizers", "value": ["x"]}]"#;
//! let patched = jsonpatch::apply(&pod, patch, &Limits::default()).unwrap();
//! assert_eq!(patched["metadata"]["finalizers"], json!(["x"]));
//!
//! // Scalars compare by their text.
//! let failed = jsonpatch::apply(&json!({"n": 1}), r#"[{"op": "test", "path": "/n", "value": 1.0}]"#,
//!     &Limits::default()).unwrap_err();
//! assert_eq!(failed.to_string(), "testing value /n failed: test failed");
//! ```

mod merge;
mod node;
mod ops;
#[cfg(test)]
mod tests;

pub use merge::merge;

use serde_json::Value;

use node::Node;

/// The API server's bounds on a JSON patch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// The most operations a patch may have (kube-apiserver: 10,000).
    pub max_operations: usize,
    /// The most bytes all `copy` operations of a patch may add, counted as Go prints the
    /// copied values (kube-apiserver: 3 MiB, its `JSONPatchMaxCopyBytes`); 0 for no bound.
    pub max_copy_bytes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_operations: 10_000,
            max_copy_bytes: 3 * 1024 * 1024,
        }
    }
}

/// Why a patch was not applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatchError {
    /// The patch is not one the library reads (the API server answers 400 Bad Request).
    #[error("{0}")]
    Malformed(String),
    /// More operations than [`Limits::max_operations`] (413).
    #[error("The allowed maximum operations in a JSON patch is {limit}, got {count}")]
    TooManyOperations {
        /// The bound.
        limit: usize,
        /// The patch's operations.
        count: usize,
    },
    /// An operation does not apply, in the library's words (422; the API server's answer
    /// does not carry these words).
    #[error("{0}")]
    Failed(String),
    /// The Go library crashes on this patch (a `test` without `value`, a walk into a value an
    /// earlier operation set to `null`, arrays holding `null` compared by `test`); the API
    /// server answers 500.
    #[error("the patch makes the API server's JSON patch library crash")]
    Crash,
}

/// Applies a JSON patch (RFC 6902) to `document` as kube-apiserver does. Beyond the RFC:
///
/// - a `null` member reads as missing and a missing member as `null`: `test` of a missing
///   path against `null` passes, `replace` of a missing member adds it, `copy` from one adds
///   `null` (but `remove` and `move` of a missing member fail);
/// - array indices may be negative, counted from the end (`-1` is the last item for `remove`
///   and `replace`, the end for `add`); `-` appends for `add` only;
/// - scalars compare by their text in `test`: `1` is not `1.0`, and a string with `<` is not
///   the same text as the server's `\u003c`;
/// - a path's first segment is whatever precedes its first `/`;
/// - a `replace` of the whole document by a scalar or `null` changes nothing.
pub fn apply(document: &Value, patch: &str, limits: &Limits) -> Result<Value, PatchError> {
    apply_to(Node::from_value(document), patch, limits)
}

/// [`apply`] to a document already in the library's form.
fn apply_to(mut doc: Node, patch: &str, limits: &Limits) -> Result<Value, PatchError> {
    let operations = operations(patch)?;
    if operations.len() > limits.max_operations {
        return Err(PatchError::TooManyOperations {
            limit: limits.max_operations,
            count: operations.len(),
        });
    }
    ops::apply(&mut doc, &operations, limits.max_copy_bytes).map_err(|f| match f {
        ops::Failure::Error(message) => PatchError::Failed(message),
        ops::Failure::Crash => PatchError::Crash,
    })?;
    doc.to_value().map_err(PatchError::Failed)
}

/// The operations of a patch as the library decodes them: an array (or `null`, no
/// operations) of objects (or `null`, an operation of no kind).
fn operations(patch: &str) -> Result<Vec<ops::Operation>, PatchError> {
    let items = match node::parse(patch) {
        Err(e) => return Err(PatchError::Malformed(e.0)),
        Ok(Node::Nil) => return Ok(Vec::new()),
        Ok(Node::Array(items)) => items,
        Ok(other) => return Err(type_error(&other, "jsonpatch.Patch")),
    };
    items
        .into_iter()
        .map(|item| match item {
            Node::Nil => Ok(ops::Operation(Default::default())),
            Node::Object(members) => Ok(ops::Operation(
                members
                    .into_iter()
                    .map(|(k, v)| (k, (!v.is_nil()).then_some(v)))
                    .collect(),
            )),
            other => Err(type_error(&other, "jsonpatch.Operation")),
        })
        .collect()
}

/// Go's error for a JSON value of the wrong kind.
fn type_error(node: &Node, go_type: &str) -> PatchError {
    PatchError::Malformed(format!(
        "json: cannot unmarshal {} into Go value of type {go_type}",
        json_kind(node)
    ))
}

fn json_kind(node: &Node) -> &'static str {
    match node {
        Node::Object(_) => "object",
        Node::Array(_) => "array",
        Node::Scalar(t) if t.starts_with('"') => "string",
        Node::Scalar(t) if matches!(&**t, "true" | "false") => "bool",
        _ => "number",
    }
}

/// What the API server's strict reading of a JSON patch finds (with `fieldValidation` `Warn`,
/// its default, or `Strict`): `Err` for a patch it refuses to read (400, "error decoding
/// patch: ..."), else the warnings for members an operation does not have (`json patch
/// unknown field "pathz"`), which `Strict` refuses and `Warn` passes on.
pub fn strict_problems(patch: &str) -> Result<Vec<String>, String> {
    let items = match node::parse(patch) {
        Err(e) => return Err(e.0),
        Ok(Node::Nil) => return Ok(Vec::new()),
        Ok(Node::Array(items)) => items,
        Ok(other) => {
            return Err(format!(
                "json: cannot unmarshal {} into Go value of type []handlers.jsonPatchOp",
                json_kind(&other)
            ));
        }
    };
    let mut unknown = Vec::new();
    let mut first_error = None;
    for item in &items {
        let members = match item {
            Node::Nil => continue,
            Node::Object(members) => members,
            other => {
                return Err(format!(
                    "json: cannot unmarshal {} into Go value of type handlers.jsonPatchOp",
                    json_kind(other)
                ));
            }
        };
        for (key, value) in members {
            match key.as_str() {
                "op" | "path" | "from" => {
                    let text = matches!(value, Node::Nil)
                        || matches!(value, Node::Scalar(t) if t.starts_with('"'));
                    if !text && first_error.is_none() {
                        first_error = Some(format!(
                            "json: cannot unmarshal {} into Go struct field jsonPatchOp.{key} of \
                             type string",
                            json_kind(value)
                        ));
                    }
                }
                "value" => {}
                other => unknown.push(format!("json patch unknown field {other:?}")),
            }
        }
    }
    match first_error {
        Some(error) => Err(error),
        None => Ok(unknown),
    }
}
