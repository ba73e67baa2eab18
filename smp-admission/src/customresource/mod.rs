//! Custom resources as kube-apiserver v1.34 admits them, by their CustomResourceDefinition.
//!
//! On decoding, members the version's structural schema does not declare are pruned (unless
//! it preserves unknown fields) and `null`s it neither allows nor defaults are dropped; then
//! its `default`s fill what is missing (apiextensions-apiserver's `customresource_handler.go`:
//! `unstructuredSchemaCoercer.apply`, then `unstructuredDefaulter`).
//!
//! ```
//! use serde_json::json;
//! use smp_admission::customresource::Definitions;
//!
//! let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
//!     "metadata": {"name": "widgets.example.com"},
//!     "spec": {"group": "example.com", "scope": "Namespaced",
//!         "names": {"kind": "Widget", "plural": "widgets"},
//!         "versions": [{"name": "v1", "served": true, "storage": true,
//!             "schema": {"openAPIV3Schema": {"type": "object", "properties": {
//!                 "spec": {"type": "object", "properties": {
//!                     "replicas": {"type": "integer", "default": 1}}}}}}}]}});
//! let mut definitions = Definitions::new();
//! definitions.add(&crd)?;
//! let mut widget = json!({"apiVersion": "example.com/v1", "kind": "Widget",
//!     "metadata": {"name": "w"}, "spec": {"colour": "red"}});
//! let unknown = definitions.admit(&mut widget)?;
//! assert_eq!(unknown, ["spec.colour"]);
//! assert_eq!(widget["spec"], json!({"replicas": 1}));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Then the strategy validates ([`validator`]): the root metadata, the schema's value
//! constraints ([`openapi`], with [`formats`], ratcheted on update), the uniqueness of set
//! and map lists ([`listtype`]) and the `x-kubernetes-validations` rules ([`cel`], compiled
//! once per CRD in [`rules`]), each error the server's word for word;
//! [`Definition::validate_create`] gives the 422, and
//! [`Definition::errors_on_status_update`] checks a status-subresource write as its strategy
//! does.
//!
//! Not yet here: CEL cost limits. The checks the server makes of a CRD itself on create and
//! update are [`crate::customresourcedefinition`]'s.

pub mod cel;
mod comprehensions;
pub mod defaulting;
pub mod fieldpath;
pub mod formats;
pub mod listtype;
pub mod objectmeta;
pub mod openapi;
mod paths;
pub mod pruning;
pub mod rules;
pub mod scale;
pub mod structural;
pub mod validator;

use std::collections::BTreeMap;

use serde_json::Value;

pub use structural::{SchemaError, Structural};

use crate::validation::{ErrorList, Invalid};

/// Why a CRD could not be read, or an object not admitted by it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CustomResourceError {
    /// The object is invalid: the server's 422.
    #[error(transparent)]
    Invalid(Box<Invalid>),
    /// The CRD lacks a member it needs (`spec.group`, `spec.names.kind`, `spec.versions`).
    #[error("CustomResourceDefinition {name:?}: {missing} is required")]
    Incomplete {
        /// The CRD's name.
        name: String,
        /// The member missing, as a path.
        missing: String,
    },
    /// A version's schema could not be read.
    #[error("CustomResourceDefinition {name:?}, version {version:?}: {source}")]
    Schema {
        /// The CRD's name.
        name: String,
        /// The version.
        version: String,
        /// What is wrong with it.
        source: SchemaError,
    },
    /// A typed CRD or object did not serialize to JSON.
    #[error("serializing: {0}")]
    Serialize(String),
    /// An embedded resource of the object does not decode (its `apiVersion` or `kind` is not
    /// a string, or its `metadata` not an `ObjectMeta`): the server's 400, after
    /// `cannot be handled as a <Kind>: `.
    #[error("{0}")]
    Undecodable(String),
    /// The object's `apiVersion` names a version its CRD does not have.
    #[error("{kind}.{group}: no version {version:?} in its CustomResourceDefinition")]
    NoSuchVersion {
        /// The group.
        group: String,
        /// The kind.
        kind: String,
        /// The version asked for.
        version: String,
    },
}

/// One CRD as admission reads it.
#[derive(Debug, Clone)]
pub struct Definition {
    group: String,
    kind: String,
    /// `spec.scope` is `Namespaced`.
    namespaced: bool,
    /// `spec.preserveUnknownFields` (only possible for CRDs carried over from v1beta1).
    preserve_unknown_fields: bool,
    /// Each version's schema (`None`: a version without one).
    versions: BTreeMap<String, Option<Structural>>,
    /// The versions whose schemas have a default somewhere (reads default only theirs).
    with_defaults: std::collections::BTreeSet<String>,
    /// Each version's scale subresource, for those that have one.
    scales: BTreeMap<String, scale::Scale>,
}

impl Definition {
    /// Reads a CRD (`apiextensions.k8s.io/v1`).
    pub fn from_crd(crd: &Value) -> Result<Definition, CustomResourceError> {
        let name = crd["metadata"]["name"].as_str().unwrap_or("").to_owned();
        let incomplete = |missing: &str| CustomResourceError::Incomplete {
            name: name.clone(),
            missing: missing.to_owned(),
        };
        let spec = &crd["spec"];
        let group = spec["group"]
            .as_str()
            .ok_or_else(|| incomplete("spec.group"))?;
        let kind = spec["names"]["kind"]
            .as_str()
            .ok_or_else(|| incomplete("spec.names.kind"))?;
        let list = spec["versions"]
            .as_array()
            .ok_or_else(|| incomplete("spec.versions"))?;
        let mut versions = BTreeMap::new();
        for version in list {
            let Some(version_name) = version["name"].as_str() else {
                return Err(incomplete("spec.versions[].name"));
            };
            let schema = match version["schema"].get("openAPIV3Schema") {
                None | Some(Value::Null) => None,
                Some(schema) => Some(Structural::from_schema(schema).map_err(|source| {
                    CustomResourceError::Schema {
                        name: name.clone(),
                        version: version_name.to_owned(),
                        source,
                    }
                })?),
            };
            versions.insert(version_name.to_owned(), schema);
        }
        let scales = spec["versions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| {
                let name = v.get("name")?.as_str()?.to_owned();
                Some((name, scale::Scale::of_version(v)?))
            })
            .collect();
        let with_defaults = versions
            .iter()
            .filter(|(_, s)| s.as_ref().is_some_and(defaulting::has_defaults))
            .map(|(v, _)| v.clone())
            .collect();
        Ok(Definition {
            group: group.to_owned(),
            kind: kind.to_owned(),
            namespaced: spec["scope"].as_str() != Some("Cluster"),
            preserve_unknown_fields: spec["preserveUnknownFields"].as_bool().unwrap_or(false),
            versions,
            with_defaults,
            scales,
        })
    }

    /// The group.
    pub fn group(&self) -> &str {
        &self.group
    }

    /// The kind.
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// Whether its objects live in a namespace (`spec.scope: Namespaced`).
    pub fn namespaced(&self) -> bool {
        self.namespaced
    }

    /// The structural schema of `version`: `Ok(None)` for a version without a schema.
    pub fn schema(&self, version: &str) -> Result<Option<&Structural>, CustomResourceError> {
        match self.versions.get(version) {
            Some(schema) => Ok(schema.as_ref()),
            None => Err(CustomResourceError::NoSuchVersion {
                group: self.group.clone(),
                kind: self.kind.clone(),
                version: version.to_owned(),
            }),
        }
    }

    /// What decoding does to an object of this CRD: pruning (unless the CRD preserves
    /// unknown fields) and the drop of `null`s the schema neither allows nor defaults.
    /// Returns the pruned paths, sorted.
    pub fn decode(&self, object: &mut Value) -> Result<Vec<String>, CustomResourceError> {
        let Some(schema) = self.schema(version_of(object))? else {
            return Ok(Vec::new());
        };
        if self.preserve_unknown_fields {
            return Ok(Vec::new());
        }
        let mut unknown = pruning::prune(object, schema);
        defaulting::prune_non_nullable_nulls(object, schema);
        unknown.extend(self.coerce_embedded(object)?);
        Ok(unknown)
    }

    /// Decoding's coercion of the object's embedded resources (`objectmeta`): members their
    /// metadata cannot hold are dropped and returned (sorted); a wrong type is
    /// [`CustomResourceError::Undecodable`].
    pub fn coerce_embedded(&self, object: &mut Value) -> Result<Vec<String>, CustomResourceError> {
        let Some(schema) = self.schema(version_of(object))? else {
            return Ok(Vec::new());
        };
        objectmeta::coerce(object, schema, None, false)
            .map_err(|e| CustomResourceError::Undecodable(e.to_string()))
    }

    /// The drop of `null`s the schema neither allows nor defaults, alone (for a caller that
    /// prunes unknown fields by other means).
    pub fn decode_nulls(&self, object: &mut Value) -> Result<(), CustomResourceError> {
        if let Some(schema) = self.schema(version_of(object))?
            && !self.preserve_unknown_fields
        {
            defaulting::prune_non_nullable_nulls(object, schema);
        }
        Ok(())
    }

    /// `object` as a read from storage gives it back: with the defaults of its version's
    /// schema applied (the server's storage decoder defaults every object it reads, so an
    /// object stored before its CRD gained a default reads back with it). `None` when the
    /// object reads back as it is, which costs a walk and no copy.
    pub fn default_on_read(&self, object: &Value) -> Option<Value> {
        let version = version_of(object);
        if !self.with_defaults.contains(version) {
            return None;
        }
        let schema = self.schema(version).ok()??;
        if !defaulting::would_default(object, schema) {
            return None;
        }
        let mut read = object.clone();
        defaulting::default(&mut read, schema);
        Some(read)
    }

    /// The schema's defaults, applied to `object`.
    pub fn default(&self, object: &mut Value) -> Result<(), CustomResourceError> {
        if let Some(schema) = self.schema(version_of(object))? {
            defaulting::default(object, schema);
        }
        Ok(())
    }
}

impl Definition {
    /// Reads a CRD from a typed value that serializes as one: kube's
    /// `CustomResourceExt::crd()`, k8s-openapi's `CustomResourceDefinition`.
    pub fn from_typed_crd<C: serde::Serialize>(crd: &C) -> Result<Definition, CustomResourceError> {
        let crd =
            serde_json::to_value(crd).map_err(|e| CustomResourceError::Serialize(e.to_string()))?;
        Definition::from_crd(&crd)
    }

    /// What the server does to an object of this CRD on create, in its order: decoding
    /// (pruning; the pruned paths are returned, sorted), the defaults, then validation (the
    /// 422 as [`CustomResourceError::Invalid`]). `object` is left as the server would store it.
    pub fn admit_create(&self, object: &mut Value) -> Result<Vec<String>, CustomResourceError> {
        let unknown = self.decode(object)?;
        self.default(object)?;
        self.validate_create(object)?;
        Ok(unknown)
    }

    /// [`Definition::admit_create`] of a typed custom resource (kube's `CustomResource`
    /// derive, or any value that serializes with its `apiVersion` and `kind`): the object as
    /// the server would store it.
    pub fn admit_typed<T: serde::Serialize>(
        &self,
        object: &T,
    ) -> Result<Value, CustomResourceError> {
        let mut object = serde_json::to_value(object)
            .map_err(|e| CustomResourceError::Serialize(e.to_string()))?;
        self.admit_create(&mut object)?;
        Ok(object)
    }

    /// The field errors of creating `object` (after [`Definition::decode`] and
    /// [`Definition::default`], as on the server).
    pub fn errors_on_create(&self, object: &Value) -> Result<ErrorList, CustomResourceError> {
        Ok(match self.schema(version_of(object))? {
            Some(schema) => validator::errors_on_create(
                object,
                schema,
                self.namespaced,
                self.scales.get(version_of(object)),
            ),
            None => ErrorList::new(),
        })
    }

    /// The field errors of replacing `old` by `new`.
    pub fn errors_on_update(
        &self,
        new: &Value,
        old: &Value,
    ) -> Result<ErrorList, CustomResourceError> {
        Ok(self.check_update(new, old)?.errors)
    }

    /// [`Definition::errors_on_update`] with the warnings the server answers with: each rule
    /// failure over a part the update left as it was (ratcheted, not refused).
    pub fn check_update(
        &self,
        new: &Value,
        old: &Value,
    ) -> Result<validator::Checked, CustomResourceError> {
        self.check_with(new, old, validator::check_update)
    }

    /// [`Definition::errors_on_status_update`] with its warnings.
    pub fn check_status_update(
        &self,
        new: &Value,
        old: &Value,
    ) -> Result<validator::Checked, CustomResourceError> {
        self.check_with(new, old, validator::check_status_update)
    }

    /// The field errors of a status-subresource write replacing `old` by `new`.
    pub fn errors_on_status_update(
        &self,
        new: &Value,
        old: &Value,
    ) -> Result<ErrorList, CustomResourceError> {
        Ok(self.check_status_update(new, old)?.errors)
    }

    /// An update's checks by `check`, with the new object's version's schema and scale.
    fn check_with(
        &self,
        new: &Value,
        old: &Value,
        check: fn(&Value, &Value, &Structural, Option<&scale::Scale>) -> validator::Checked,
    ) -> Result<validator::Checked, CustomResourceError> {
        let version = version_of(new);
        Ok(match self.schema(version)? {
            Some(schema) => check(new, old, schema, self.scales.get(version)),
            None => validator::Checked::default(),
        })
    }

    /// Validates `object` as created: the server's 422 when it would refuse it.
    pub fn validate_create(&self, object: &Value) -> Result<(), CustomResourceError> {
        let errors = self.errors_on_create(object)?;
        self.outcome(object, errors)
    }

    /// Validates `new` as the replacement of `old`.
    pub fn validate_update(&self, new: &Value, old: &Value) -> Result<(), CustomResourceError> {
        let errors = self.errors_on_update(new, old)?;
        self.outcome(new, errors)
    }

    /// The server's 422 for `errors` found on `object` (none: `Ok`).
    pub fn outcome(&self, object: &Value, errors: ErrorList) -> Result<(), CustomResourceError> {
        if errors.is_empty() {
            return Ok(());
        }
        Err(CustomResourceError::Invalid(Box::new(Invalid {
            group: self.group.clone(),
            kind: self.kind.clone(),
            name: object["metadata"]["name"].as_str().unwrap_or("").to_owned(),
            errors,
        })))
    }
}

/// The version part of an object's `apiVersion` (`example.com/v1` → `v1`).
fn version_of(object: &Value) -> &str {
    let api_version = object["apiVersion"].as_str().unwrap_or("");
    api_version.rsplit('/').next().unwrap_or(api_version)
}

/// The group part of an object's `apiVersion` (`""` for the core group).
fn group_of(object: &Value) -> &str {
    let api_version = object["apiVersion"].as_str().unwrap_or("");
    api_version.rsplit_once('/').map_or("", |(group, _)| group)
}

/// The CRDs admission knows, by group and kind.
#[derive(Debug, Clone, Default)]
pub struct Definitions {
    by_kind: BTreeMap<(String, String), Definition>,
}

impl Definitions {
    /// None.
    pub fn new() -> Definitions {
        Definitions::default()
    }

    /// Adds a CRD (replacing one of the same group and kind).
    pub fn add(&mut self, crd: &Value) -> Result<(), CustomResourceError> {
        let definition = Definition::from_crd(crd)?;
        self.by_kind.insert(
            (definition.group.clone(), definition.kind.clone()),
            definition,
        );
        Ok(())
    }

    /// The CRD of `object`'s group and kind, if known.
    pub fn definition_of(&self, object: &Value) -> Option<&Definition> {
        let kind = object["kind"].as_str().unwrap_or("");
        self.by_kind
            .get(&(group_of(object).to_owned(), kind.to_owned()))
    }

    /// Decodes and defaults `object` as the server does on create when its CRD is known
    /// (nothing otherwise). Returns the pruned paths, sorted.
    pub fn admit(&self, object: &mut Value) -> Result<Vec<String>, CustomResourceError> {
        let Some(definition) = self.definition_of(object) else {
            return Ok(Vec::new());
        };
        let unknown = definition.decode(object)?;
        definition.default(object)?;
        Ok(unknown)
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod validation_tests;

#[cfg(test)]
mod cel_tests;
