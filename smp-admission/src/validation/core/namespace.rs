//! Namespace and ServiceAccount: their metadata, and a namespace's `spec.finalizers`
//! (`ValidateNamespace`, `ValidateServiceAccount` and their updates).

use serde_json::Value;

use crate::validation::field::{self, ErrorList, Path};
use crate::validation::meta::{validate_object_meta, validate_object_meta_update};
use crate::validation::names;
use crate::validation::read;

pub(super) fn namespace(ns: &Value) -> ErrorList {
    let mut errs = validate_object_meta(
        ns.get("metadata"),
        false,
        names::name_is_dns_label,
        &Path::new("metadata"),
    );
    let spec = ns.get("spec").unwrap_or(&Value::Null);
    let path = Path::new("spec");
    let path = path.child("finalizers");
    for f in read::strings(spec, "finalizers") {
        for msg in names::is_qualified_name(f) {
            errs.push(field::invalid(&path, f, &msg));
        }
        if !f.contains('/') && !["kubernetes", "orphan", "foregroundDeletion"].contains(&f) {
            errs.push(field::invalid(
                &path,
                f,
                "name is neither a standard finalizer name nor is it fully qualified",
            ));
        }
    }
    errs
}

/// An update of a namespace: the namespace strategy checks the new object as a create would,
/// then its metadata against the old (the spec's finalizers belong to the finalize
/// subresource).
pub(super) fn namespace_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = namespace(new);
    errs.extend(validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    ));
    errs
}

pub(super) fn service_account(sa: &Value) -> ErrorList {
    validate_object_meta(
        sa.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    )
}

pub(super) fn service_account_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    errs.extend(service_account(new));
    errs
}
