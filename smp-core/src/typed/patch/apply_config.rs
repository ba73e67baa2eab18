//! Server-side apply bodies from typed patches: the same partial object, without directives.
//!
//! An apply configuration (`kubectl apply --server-side`, kube's `Patch::Apply`) is a partial
//! object: it says what its field manager wants set, and nothing else. A typed patch that only
//! sets values is one; deletions (`null`) and strategic-merge directives (`$patch`,
//! `$retainKeys`, `$setElementOrder`, ...) have no meaning there, so converting a patch that
//! holds one is an error naming it. Unset fields are absent, so a configuration that sets
//! `spec.replicas` says nothing of `spec.selector` (k8s-openapi#112: a `Default` struct sends
//! `selector: {}` and takes ownership of it).

use serde_core::{Serialize, Serializer};
use serde_json::Value;

use super::ValuePatch;
use super::object::ObjectPatch;
use crate::apply::Path;
use crate::error::PatchError;

/// What `apiVersion` and `kind` say for objects of a type: implemented for every smp-types type
/// that is one kind of one group-version.
pub trait ObjectKind {
    /// `apps/v1`, or `v1` for the core group.
    const API_VERSION: &'static str;
    /// `Deployment`.
    const KIND: &'static str;
}

/// A server-side apply body: a partial object with no deletions and no directives. Serializes
/// as it is (`kube::api::Patch::Apply(&configuration)`).
#[derive(Debug, Clone, PartialEq)]
pub struct ApplyConfiguration(Value);

impl ApplyConfiguration {
    /// The configuration a patch says, or the error naming the first deletion or directive in
    /// it.
    pub fn from_patch<P: ValuePatch>(patch: &P) -> Result<ApplyConfiguration, PatchError> {
        let value = patch.to_value()?;
        check(&value, &Path::root())?;
        Ok(ApplyConfiguration(value))
    }

    /// The partial object.
    pub fn as_value(&self) -> &Value {
        &self.0
    }

    /// The partial object.
    pub fn into_value(self) -> Value {
        self.0
    }

    /// Compact JSON, object keys sorted.
    pub fn to_json(&self) -> String {
        self.0.to_string()
    }
}

impl Serialize for ApplyConfiguration {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// The root of an apply configuration for an object of kind `T`: `apiVersion`, `kind` and
/// `metadata.name` set, nothing else.
pub(crate) fn root<P: ObjectPatch, T: ObjectKind>(name: &str) -> Result<P, PatchError> {
    let mut patch = P::default();
    patch.set_member("apiVersion", Value::String(T::API_VERSION.to_owned()))?;
    patch.set_member("kind", Value::String(T::KIND.to_owned()))?;
    let mut metadata = serde_json::Map::new();
    metadata.insert("name".to_owned(), Value::String(name.to_owned()));
    patch.set_member("metadata", Value::Object(metadata))?;
    Ok(patch)
}

fn check(value: &Value, path: &Path<'_>) -> Result<(), PatchError> {
    match value {
        Value::Null => Err(PatchError::NotApplyConfiguration {
            path: path.to_json_path(),
            detail: "a deletion (`null`) cannot be said by an apply configuration: leave the \
                     field out, and server-side apply removes it once no manager owns it"
                .to_owned(),
        }),
        Value::Object(map) => {
            for (key, v) in map {
                let at = path.field(key);
                if key.starts_with('$') {
                    return Err(PatchError::NotApplyConfiguration {
                        path: at.to_json_path(),
                        detail: format!(
                            "the strategic-merge directive `{key}` has no meaning in an apply \
                             configuration"
                        ),
                    });
                }
                check(v, &at)?;
            }
            Ok(())
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                check(v, &path.index(i))?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}
