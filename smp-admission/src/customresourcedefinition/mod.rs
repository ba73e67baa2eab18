//! CustomResourceDefinitions as kube-apiserver v1.34 admits them: what its CRD strategy
//! (apiextensions-apiserver `pkg/registry/customresourcedefinition/strategy.go`) sets on create
//! and update, and what `ValidateCustomResourceDefinition` / `...Update`
//! (`pkg/apis/apiextensions/validation/validation.go`) refuse, word for word.
//!
//! ```
//! use serde_json::json;
//! use smp_admission::customresourcedefinition;
//!
//! let mut crd = json!({"apiVersion": "apiextensions.k8s.io/v1",
//!     "kind": "CustomResourceDefinition", "metadata": {"name": "widgets.example.com"},
//!     "spec": {"group": "example.com", "scope": "Namespaced",
//!         "names": {"kind": "Widget", "listKind": "WidgetList", "plural": "widgets",
//!             "singular": "widget"},
//!         "versions": [{"name": "v1", "served": true, "storage": true,
//!             "schema": {"openAPIV3Schema": {"type": "object", "properties": {
//!                 "spec": {"type": "object", "properties": {"size": {}}}}}}}]}});
//! customresourcedefinition::prepare_for_create(&mut crd);
//! let errors = customresourcedefinition::validate_create(&crd);
//! assert_eq!(errors[0].to_string(),
//!     "spec.validation.openAPIV3Schema.properties[spec].properties[size].type: \
//!      Required value: must not be empty for specified object fields");
//! ```
//!
//! The checks, in the server's order: the metadata (the name is `<plural>.<group>`), the spec
//! ([`spec`]: group, scope, names, versions, conversion; each schema by [`schema`], which asks
//! [`structural`] whether it is structural and [`defaults`] whether its defaults hold), the
//! status's accepted names, the stored versions, the approval annotation of the groups
//! Kubernetes keeps for itself, and `preserveUnknownFields`.
//!
//! Where this differs from the server:
//! - rules are compiled by the `cel` crate, which parses but does not type-check: a rule that
//!   names a field the schema lacks, or does not return a bool, is accepted here, and a
//!   parse error's words after `compilation failed: ` are the crate's, not cel-go's;
//! - no cost is estimated (no `estimated rule cost exceeds budget` refusal);
//! - a `pattern`'s error after `error parsing regexp: ` is the `regex` crate's;
//! - defaults inside an embedded resource's metadata are not checked as ObjectMeta;
//! - Go visits `properties` in random order; here in key order;
//! - a schema nesting deeper than 64 levels is checked to that depth only.

pub mod defaults;
pub mod internal;
pub mod options;
pub mod schema;
pub mod spec;
pub mod structural;

use serde_json::{Value, json};

use crate::validation::field::{self, ErrorList, Path};
use crate::validation::{Invalid, meta, names};

pub use options::ValidationOptions;

/// The annotation that records a protected group's API review.
const APPROVAL_ANNOTATION: &str = "api-approved.kubernetes.io";

/// What the strategy's `PrepareForCreate` does: the status starts empty but for the storage
/// version recorded as stored, and the generation is 1.
pub fn prepare_for_create(crd: &mut Value) {
    let stored: Vec<Value> = crd
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|v| v.get("storage") == Some(&Value::Bool(true)))
        .filter_map(|v| v.get("name").cloned())
        .collect();
    if let Some(object) = crd.as_object_mut() {
        let mut status = json!({});
        if !stored.is_empty() {
            status["storedVersions"] = Value::Array(stored);
        }
        object.insert("status".to_owned(), status);
        if let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) {
            metadata.insert("generation".to_owned(), json!(1));
        }
    }
}

/// What the strategy's `PrepareForUpdate` does: the status stays the old one's, and the
/// generation goes up when the spec changed.
pub fn prepare_for_update(crd: &mut Value, old: &Value) {
    let spec_changed = crd.get("spec") != old.get("spec");
    let generation = old
        .pointer("/metadata/generation")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    if let Some(object) = crd.as_object_mut() {
        match old.get("status") {
            Some(status) => object.insert("status".to_owned(), status.clone()),
            None => object.remove("status"),
        };
        if let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) {
            let next = if spec_changed {
                generation + 1
            } else {
                generation
            };
            metadata.insert("generation".to_owned(), json!(next));
        }
    }
    // A storage version new to the spec is recorded as stored.
    let stored: Vec<String> = crd
        .pointer("/status/storedVersions")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let storage = crd
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|v| v.get("storage") == Some(&Value::Bool(true)))
        .and_then(|v| v.get("name"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    if let Some(storage) = storage.filter(|s| !stored.contains(s))
        && let Some(object) = crd.as_object_mut()
    {
        let status = object.entry("status").or_insert_with(|| json!({}));
        if let Some(status) = status.as_object_mut() {
            let list = status.entry("storedVersions").or_insert_with(|| json!([]));
            if let Some(list) = list.as_array_mut() {
                list.push(Value::String(storage));
            }
        }
    }
}

/// `ValidateCustomResourceDefinition`: the field errors of creating `crd` (after
/// [`prepare_for_create`]).
pub fn validate_create(crd: &Value) -> ErrorList {
    let mut errs = validate_metadata(crd);
    spec::validate_spec(crd, &ValidationOptions::for_create(), &mut errs);
    common_tail(crd, None, &mut errs);
    errs
}

/// `ValidateCustomResourceDefinitionUpdate`: the field errors of replacing `old` by `crd`
/// (after [`prepare_for_update`]). What the old CRD already broke is not required of the new
/// one (a schema that was not structural may stay so), as upstream.
pub fn validate_update(crd: &Value, old: &Value) -> ErrorList {
    let metadata = Path::new("metadata");
    let mut errs = meta::validate_generic_object_meta_update(
        crd.get("metadata"),
        old.get("metadata"),
        &metadata,
    );
    spec::validate_spec(crd, &options_for_update(old), &mut errs);
    let spec = Path::new("spec");
    let text = |v: &Value, p: &str| {
        v.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let established = is_established(old);
    let mut immutable = |pointer: &str, at: &Path| {
        let (new_value, old_value) = (text(crd, pointer), text(old, pointer));
        if new_value != old_value {
            errs.push(field::invalid(at, new_value.as_str(), meta::IMMUTABLE));
        }
    };
    let names_path = spec.child("names");
    if established {
        immutable("/spec/scope", &spec.child("scope"));
        immutable("/spec/names/kind", &names_path.child("kind"));
    }
    immutable("/spec/group", &spec.child("group"));
    immutable("/spec/names/plural", &names_path.child("plural"));
    common_tail(crd, Some(old), &mut errs);
    errs
}

/// Whether the CRD's `Established` condition is true (names served; some fields fixed).
fn is_established(crd: &Value) -> bool {
    crd.pointer("/status/conditions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|c| {
            c.get("type") == Some(&json!("Established")) && c.get("status") == Some(&json!("True"))
        })
}

/// The create options, relaxed where the old CRD's schemas already break them.
fn options_for_update(old: &Value) -> ValidationOptions {
    let schemas: Vec<&Value> = old
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.pointer("/schema/openAPIV3Schema"))
        .filter(|s| !s.is_null())
        .collect();
    let versions = old
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let any_non_structural = schemas.iter().any(|s| {
        structural::new_structural_error(s).is_some()
            || !structural::validate_structural(s, &Path::new("")).is_empty()
    });
    let any_invalid_type = schemas.iter().any(|s| has_invalid_type(s, 0));
    let any_node = |test: &dyn Fn(&Value) -> bool| schemas.iter().any(|s| some_node(s, test, 0));
    let review_versions = old
        .pointer("/spec/conversion/webhook/conversionReviewVersions")
        .and_then(Value::as_array);
    let recognized_or_none = review_versions.is_none_or(|v| {
        v.is_empty()
            || v.iter()
                .any(|v| matches!(v.as_str(), Some("v1" | "v1beta1")))
    });
    let old_bundle = old
        .pointer("/spec/conversion/webhook/clientConfig/caBundle")
        .and_then(Value::as_str)
        .unwrap_or("");
    let established = is_established(old);
    ValidationOptions {
        require_valid_property_type: !any_invalid_type,
        require_structural: !any_non_structural,
        require_open_api_schema: schemas.len() == versions,
        require_atomic_set_type: !any_node(&schema::has_non_atomic_set_items),
        require_map_list_keys_map_set: !any_node(&schema::has_invalid_map_list_keys_map_set),
        require_recognized_conversion_review_version: recognized_or_none,
        allow_invalid_ca_bundle: !established
            || !old_bundle.is_empty() && !spec::ca_bundle_is_valid(old_bundle),
        ..ValidationOptions::for_create()
    }
}

/// Whether `test` holds of any schema node below `s` (properties, items, junctors, ...).
fn some_node(s: &Value, test: &dyn Fn(&Value) -> bool, depth: usize) -> bool {
    if depth > crate::customresource::structural::MAX_DEPTH {
        return false;
    }
    match s {
        Value::Object(node) => {
            test(s)
                || node.iter().any(|(k, v)| {
                    !matches!(k.as_str(), "enum" | "default" | "example")
                        && some_node(v, test, depth + 1)
                })
        }
        Value::Array(items) => items.iter().any(|v| some_node(v, test, depth + 1)),
        _ => false,
    }
}

fn has_invalid_type(s: &Value, depth: usize) -> bool {
    const TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];
    if depth > crate::customresource::structural::MAX_DEPTH {
        return false;
    }
    match s {
        Value::Object(node) => {
            node.get("type")
                .and_then(Value::as_str)
                .is_some_and(|t| !t.is_empty() && !TYPES.contains(&t))
                || node.iter().any(|(k, v)| {
                    !matches!(k.as_str(), "enum" | "default" | "example")
                        && has_invalid_type(v, depth + 1)
                })
        }
        Value::Array(items) => items.iter().any(|v| has_invalid_type(v, depth + 1)),
        _ => false,
    }
}

/// The metadata of a CRD: a DNS subdomain name that is `<plural>.<group>`.
fn validate_metadata(crd: &Value) -> ErrorList {
    let metadata = Path::new("metadata");
    let meta_value = crd.get("metadata");
    let text = |p: &str| crd.pointer(p).and_then(Value::as_str).unwrap_or("");
    let required_name = format!("{}.{}", text("/spec/names/plural"), text("/spec/group"));
    let name_errors = |name: &str, prefix: bool| {
        let mut out = names::name_is_dns_subdomain(name, prefix);
        if name != required_name {
            out.push(r#"must be spec.names.plural+"."+spec.group"#.to_owned());
        }
        out
    };
    // The generic checks with names left alone, then the name's own in the server's place
    // (first, before the namespace's).
    let mut rest =
        meta::validate_generic_object_meta(meta_value, false, |_, _| Vec::new(), &metadata);
    let mut errs = ErrorList::new();
    let generate_name = text("/metadata/generateName");
    if !generate_name.is_empty() {
        for problem in name_errors(generate_name, true) {
            errs.push(field::invalid(
                &metadata.child("generateName"),
                generate_name,
                &problem,
            ));
        }
    }
    let name = text("/metadata/name");
    if name.is_empty() {
        // The generic checks reported it first of theirs.
        if !rest.is_empty() {
            errs.push(rest.remove(0));
        }
    } else {
        for problem in name_errors(name, false) {
            errs.push(field::invalid(&metadata.child("name"), name, &problem));
        }
    }
    errs.extend(rest);
    errs
}

/// What create and update check after the spec: accepted names, stored versions, the
/// approval of protected groups, `preserveUnknownFields`.
fn common_tail(crd: &Value, old: Option<&Value>, errs: &mut ErrorList) {
    let empty = Value::Null;
    let accepted = crd.pointer("/status/acceptedNames").unwrap_or(&empty);
    spec::validate_names(accepted, &Path::names(&["status", "acceptedNames"]), errs);
    spec::validate_stored_versions(crd, errs);
    api_approval(crd, old, errs);
    let old_preserves =
        old.is_some_and(|o| o.pointer("/spec/preserveUnknownFields") == Some(&json!(true)));
    if !old_preserves && crd.pointer("/spec/preserveUnknownFields") == Some(&json!(true)) {
        errs.push(field::invalid(
            &Path::names(&["spec", "preserveUnknownFields"]),
            true,
            "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
        ));
    }
}

/// The state of a protected group's approval annotation.
#[derive(PartialEq)]
enum Approval {
    Missing,
    Bypassed,
    Approved,
    Invalid,
}

fn approval(crd: &Value) -> (Approval, String) {
    let annotation = crd
        .pointer("/metadata/annotations")
        .and_then(|a| a.get(APPROVAL_ANNOTATION))
        .and_then(Value::as_str)
        .unwrap_or("");
    let url_like = annotation.split_once("://").is_some_and(|(scheme, rest)| {
        !scheme.is_empty() && !rest.is_empty() && !rest.starts_with('/')
    }) && !annotation.contains(' ');
    if annotation.is_empty() {
        (
            Approval::Missing,
            format!(
                "protected groups must have approval annotation {APPROVAL_ANNOTATION:?}, see https://github.com/kubernetes/enhancements/pull/1111"
            ),
        )
    } else if annotation.starts_with("unapproved") {
        (Approval::Bypassed, String::new())
    } else if url_like {
        (Approval::Approved, String::new())
    } else {
        (
            Approval::Invalid,
            format!(
                "protected groups must have approval annotation {APPROVAL_ANNOTATION:?} with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111"
            ),
        )
    }
}

/// `validateAPIApproval`: groups under `k8s.io` and `kubernetes.io` need the annotation.
fn api_approval(crd: &Value, old: Option<&Value>, errs: &mut ErrorList) {
    let group = crd
        .pointer("/spec/group")
        .and_then(Value::as_str)
        .unwrap_or("");
    let protected = group == "k8s.io"
        || group.ends_with(".k8s.io")
        || group == "kubernetes.io"
        || group.ends_with(".kubernetes.io");
    if !protected {
        return;
    }
    let (state, reason) = approval(crd);
    if old.is_some_and(|o| approval(o).0 == state) {
        return;
    }
    let annotations = Path::names(&["metadata", "annotations"]);
    let at = annotations.key(APPROVAL_ANNOTATION);
    let value = crd
        .pointer("/metadata/annotations")
        .and_then(|a| a.get(APPROVAL_ANNOTATION))
        .and_then(Value::as_str)
        .unwrap_or("");
    match state {
        Approval::Missing => errs.push(field::required(&at, &reason)),
        Approval::Invalid => errs.push(field::invalid(&at, value, &reason)),
        Approval::Approved | Approval::Bypassed => {}
    }
}

/// The 422 of creating `crd`, if it is refused (after [`prepare_for_create`]).
pub fn check_create(crd: &Value) -> Result<(), Invalid> {
    outcome(crd, validate_create(crd))
}

/// The 422 of replacing `old` by `crd`, if it is refused (after [`prepare_for_update`]).
pub fn check_update(crd: &Value, old: &Value) -> Result<(), Invalid> {
    outcome(crd, validate_update(crd, old))
}

fn outcome(crd: &Value, errors: ErrorList) -> Result<(), Invalid> {
    if errors.is_empty() {
        return Ok(());
    }
    Err(Invalid {
        group: "apiextensions.k8s.io".to_owned(),
        kind: "CustomResourceDefinition".to_owned(),
        name: crd
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
        errors,
    })
}

#[cfg(test)]
mod tests;
