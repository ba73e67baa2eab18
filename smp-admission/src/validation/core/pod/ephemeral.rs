//! Generic ephemeral volumes (`validateEphemeralVolumeSource`): the claim template's metadata
//! (only labels and annotations may be set) and spec (`ValidatePersistentVolumeClaimSpec` as a
//! template is checked: strict selector values, volume attributes classes on), and the name of
//! the PVC the server will create, `<pod>-<volume>`.
//!
//! The PVC spec part mirrors the PersistentVolumeClaim rules of the core-other area; when both
//! are merged this should call that area's PVC spec check instead.

use serde_json::Value;

use super::context::SourceCtx;
use crate::quantity::Quantity;
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::meta::{
    LabelSelectorOptions, validate_annotations, validate_label_selector, validate_labels,
};
use crate::validation::names;
use crate::validation::read;

pub(super) fn ephemeral(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    let template_path = path.child("volumeClaimTemplate");
    let Some(template) = source.get("volumeClaimTemplate").filter(|t| t.is_object()) else {
        errs.push(field::required(&template_path, ""));
        return errs;
    };
    let meta = template.get("metadata").unwrap_or(&Value::Null);
    validate_template_object_meta(meta, &template_path.child("metadata"), &mut errs);
    let spec = template.get("spec").unwrap_or(&Value::Null);
    validate_claim_spec(spec, &template_path.child("spec"), &mut errs);
    errs
}

/// The generated claim `<pod>-<volume>` must be a valid object name (only known for a Pod).
pub(super) fn generated_claim_name(at: &Path, ctx: &SourceCtx, errs: &mut ErrorList) {
    let Some(pod) = ctx.pod_name else {
        return;
    };
    if ctx.volume_name.is_empty() {
        return;
    }
    let claim = format!("{pod}-{}", ctx.volume_name);
    for msg in names::is_dns1123_subdomain(&claim) {
        errs.push(field::invalid(
            &at.child("name"),
            ctx.volume_name,
            &format!("PVC name {}: {msg}", go_quoted(&claim)),
        ));
    }
}

fn go_quoted(s: &str) -> String {
    let mut out = String::new();
    field::go_quote(s, &mut out);
    out
}

/// The ObjectMeta members of a template, in the order of Go's struct, with the names the
/// server derives from the Go field names (`uID`).
const TEMPLATE_META_FIELDS: [(&str, &str); 13] = [
    ("name", "name"),
    ("generateName", "generateName"),
    ("namespace", "namespace"),
    ("selfLink", "selfLink"),
    ("uid", "uID"),
    ("resourceVersion", "resourceVersion"),
    ("generation", "generation"),
    ("creationTimestamp", "creationTimestamp"),
    ("deletionTimestamp", "deletionTimestamp"),
    ("deletionGracePeriodSeconds", "deletionGracePeriodSeconds"),
    ("ownerReferences", "ownerReferences"),
    ("finalizers", "finalizers"),
    ("managedFields", "managedFields"),
];

/// `ValidateTemplateObjectMeta`: annotations and labels, and nothing else set.
pub(crate) fn validate_template_object_meta(meta: &Value, path: &Path, errs: &mut ErrorList) {
    validate_annotations(meta.get("annotations"), &path.child("annotations"), errs);
    validate_labels(meta.get("labels"), &path.child("labels"), errs);
    for (member, reported) in TEMPLATE_META_FIELDS {
        let set = meta.get(member).is_some_and(|v| match v {
            Value::Null => false,
            Value::String(s) => !s.is_empty(),
            Value::Number(n) => n.as_f64() != Some(0.0),
            Value::Array(a) => !a.is_empty(),
            _ => true,
        });
        if set {
            errs.push(field::forbidden(&path.child(reported), "cannot be set"));
        }
    }
}

const ACCESS_MODES: [&str; 4] = [
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOnce",
    "ReadWriteOncePod",
];

/// The claim spec of a template, in `ValidatePersistentVolumeClaimSpec`'s order.
fn validate_claim_spec(spec: &Value, path: &Path, errs: &mut ErrorList) {
    let modes = read::list(spec, "accessModes");
    let modes_path = path.child("accessModes");
    if modes.is_empty() {
        errs.push(field::required(
            &modes_path,
            "at least 1 access mode is required",
        ));
    }
    validate_label_selector(
        spec.get("selector"),
        LabelSelectorOptions::default(),
        &path.child("selector"),
        errs,
    );
    let (mut once_pod, mut other) = (false, false);
    for mode in modes {
        let mode = mode.as_str().unwrap_or("");
        if !ACCESS_MODES.contains(&mode) {
            errs.push(field::not_supported(&modes_path, mode, &ACCESS_MODES));
        } else if mode == "ReadWriteOncePod" {
            once_pod = true;
        } else {
            other = true;
        }
    }
    if once_pod && other {
        errs.push(field::forbidden(
            &modes_path,
            "may not use ReadWriteOncePod with other access modes",
        ));
    }
    validate_storage_request(spec, path, errs);
    if let Some(class) = read::opt_text(spec, "storageClassName").filter(|c| !c.is_empty()) {
        subdomain(class, &path.child("storageClassName"), errs);
    }
    if let Some(mode) = read::opt_text(spec, "volumeMode") {
        if !["Block", "Filesystem"].contains(&mode) {
            errs.push(field::not_supported(
                &path.child("volumeMode"),
                mode,
                &["Block", "Filesystem"],
            ));
        }
    }
    for member in ["dataSource", "dataSourceRef"] {
        if let Some(source) = spec.get(member).filter(|s| s.is_object()) {
            validate_data_source(source, &path.child(member), errs);
        }
    }
    if let Some(class) = read::opt_text(spec, "volumeAttributesClassName").filter(|c| !c.is_empty())
    {
        subdomain(class, &path.child("volumeAttributesClassName"), errs);
    }
}

fn subdomain(value: &str, path: &Path, errs: &mut ErrorList) {
    for msg in names::is_dns1123_subdomain(value) {
        errs.push(field::invalid(path, value, &msg));
    }
}

/// `resources.requests.storage` is required and positive; the server reports it under
/// `resources[storage]`.
fn validate_storage_request(spec: &Value, path: &Path, errs: &mut ErrorList) {
    let resources = path.child("resources");
    let at = resources.key("storage");
    let storage = spec
        .get("resources")
        .and_then(|r| r.get("requests"))
        .and_then(|r| r.get("storage"))
        .and_then(Value::as_str);
    let Some(text) = storage else {
        errs.push(field::required(&at, ""));
        return;
    };
    let Ok(quantity) = Quantity::parse(text) else {
        return;
    };
    let zero = Quantity::parse("0").unwrap_or(quantity);
    if quantity.compare(zero).is_le() {
        let printed = crate::quantity::canonical(text).unwrap_or_else(|| text.to_owned());
        errs.push(field::invalid(&at, printed, "must be greater than zero"));
    }
}

/// A data source (or reference): named, of a kind, a PVC when no API group is given.
fn validate_data_source(source: &Value, path: &Path, errs: &mut ErrorList) {
    let kind = read::text(source, "kind");
    if read::text(source, "name").is_empty() {
        errs.push(field::required(&path.child("name"), ""));
    }
    if kind.is_empty() {
        errs.push(field::required(&path.child("kind"), ""));
    }
    let group = read::text(source, "apiGroup");
    if group.is_empty() && kind != "PersistentVolumeClaim" {
        errs.push(field::invalid(
            path,
            kind,
            "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
        ));
    }
    if !group.is_empty() {
        subdomain(group, &path.child("apiGroup"), errs);
    }
    if let Some(namespace) = read::opt_text(source, "namespace").filter(|n| !n.is_empty()) {
        for msg in names::is_dns1123_label(namespace) {
            errs.push(field::invalid(&path.child("namespace"), namespace, &msg));
        }
    }
}
