//! What the custom resource strategy validates on create and update (apiextensions-apiserver
//! `pkg/registry/customresource/validator.go`), in its order: the root ObjectMeta (names are
//! DNS subdomains), the schema's value constraints ([`super::openapi`], ratcheted on update),
//! then the uniqueness of set and map lists ([`super::listtype`], on update only when the old
//! object had no such error).
//!
//! Then the `x-kubernetes-validations` rules ([`super::cel`]), unless an earlier error of a
//! blocking kind stops them.
//!
//! After the schema's constraints come the scale subresource's replica counts
//! ([`super::scale`], when the version has one) and the ObjectMeta of embedded resources
//! ([`super::objectmeta`]).

use serde_json::Value;

use super::scale::{self, Scale};
use super::structural::Structural;
use super::{cel, listtype, objectmeta, openapi};
use crate::validation::field::{ErrorList, Path};
use crate::validation::meta;
use crate::validation::names;

/// The field errors of creating `object`.
pub fn errors_on_create(
    object: &Value,
    schema: &Structural,
    namespaced: bool,
    scale: Option<&Scale>,
) -> ErrorList {
    let metadata = Path::new("metadata");
    let mut errs = meta::validate_generic_object_meta(
        object.get("metadata"),
        namespaced,
        names::name_is_dns_subdomain,
        &metadata,
    );
    errs.extend(openapi::validate(object, schema));
    if let Some(scale) = scale {
        scale::validate_spec(object, scale, &mut errs);
        scale::validate_status(object, scale, &mut errs);
    }
    errs.extend(objectmeta::validate(object, schema, None, false));
    errs.extend(listtype::validate(object, schema));
    // Nothing ratchets on create: there are no warnings.
    let _ = rules(object, None, schema, &mut errs);
    errs
}

/// What a write's validation found: the errors that refuse it, and the warnings the server
/// sends with its answer (the text of each rule failure that ratcheting let through).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Checked {
    /// The field errors.
    pub errors: ErrorList,
    /// The warnings, each the text of a field error.
    pub warnings: Vec<String>,
}

/// The `x-kubernetes-validations` rules, if the schema has any, unless an earlier error blocks
/// them (`cel::blocked_by`), in which case the server's note that they were skipped.
fn rules(
    object: &Value,
    old: Option<&Value>,
    schema: &Structural,
    errs: &mut ErrorList,
) -> Vec<String> {
    if !schema.has_rules {
        return Vec::new();
    }
    if cel::blocked_by(errs) {
        errs.push(cel::not_checked());
        return Vec::new();
    }
    let found = cel::validate_with_warnings(object, old, schema);
    errs.extend(found.errors);
    found.warnings.iter().map(ToString::to_string).collect()
}

/// The field errors of replacing `old` by `new`.
pub fn errors_on_update(
    new: &Value,
    old: &Value,
    schema: &Structural,
    scale: Option<&Scale>,
) -> ErrorList {
    check_update(new, old, schema, scale).errors
}

/// [`errors_on_update`], with the warnings.
pub fn check_update(
    new: &Value,
    old: &Value,
    schema: &Structural,
    scale: Option<&Scale>,
) -> Checked {
    let metadata = Path::new("metadata");
    let mut errs = meta::validate_generic_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &metadata,
    );
    errs.extend(openapi::validate_update(new, old, schema));
    if let Some(scale) = scale {
        scale::validate_spec(new, scale, &mut errs);
        scale::validate_status(new, scale, &mut errs);
    }
    errs.extend(objectmeta::validate(new, schema, None, false));
    // Upstream skips the list checks when the old object already failed them.
    if listtype::validate(old, schema).is_empty() {
        errs.extend(listtype::validate(new, schema));
    }
    let warnings = rules(new, Some(old), schema, &mut errs);
    Checked {
        errors: errs,
        warnings,
    }
}

/// The field errors of a write to the status subresource replacing `old` by `new` (the status
/// strategy's `ValidateUpdate`): metadata, the status against its schema, set and map lists
/// (reported when the new object breaks them and the old did not), then the rules of the
/// whole object.
pub fn errors_on_status_update(
    new: &Value,
    old: &Value,
    schema: &Structural,
    scale: Option<&Scale>,
) -> ErrorList {
    check_status_update(new, old, schema, scale).errors
}

/// [`errors_on_status_update`], with the warnings.
pub fn check_status_update(
    new: &Value,
    old: &Value,
    schema: &Structural,
    scale: Option<&Scale>,
) -> Checked {
    let metadata = Path::new("metadata");
    let mut errs = meta::validate_generic_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &metadata,
    );
    errs.extend(openapi::validate_status_update(new, old, schema));
    if let Some(scale) = scale {
        scale::validate_status(new, scale, &mut errs);
    }
    let lists = listtype::validate(new, schema);
    if !lists.is_empty() && listtype::validate(old, schema).is_empty() {
        errs.extend(lists);
    }
    let warnings = rules(new, Some(old), schema, &mut errs);
    Checked {
        errors: errs,
        warnings,
    }
}
