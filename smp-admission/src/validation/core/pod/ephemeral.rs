//! Generic ephemeral volumes (`validateEphemeralVolumeSource`): the claim template's metadata
//! (only labels and annotations may be set) and spec (`ValidatePersistentVolumeClaimSpec` as a
//! template is checked: strict selector values, volume attributes classes on), and the name of
//! the PVC the server will create, `<pod>-<volume>`.
//!
//! The claim spec is checked by the PersistentVolumeClaim rules (`core/pvc.rs`), with the
//! options a template gets (strict API groups and selector values), as a create's.

use serde_json::Value;

use super::context::SourceCtx;
use crate::validation::core::pvc::validate_claim_spec_for_create;
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::meta::{validate_annotations, validate_labels};
use crate::validation::names;

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
    errs.extend(validate_claim_spec_for_create(
        spec,
        &template_path.child("spec"),
    ));
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
