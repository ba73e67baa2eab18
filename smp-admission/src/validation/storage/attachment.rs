//! VolumeAttachment (`ValidateVolumeAttachment`, `ValidateVolumeAttachmentV1`,
//! `ValidateVolumeAttachmentUpdate`, as the strategy calls them).
//!
//! The strategy clears the status on create and keeps the old one on update (the status is
//! written through its own subresource), so the status checked is never the one sent: none
//! on create, the old object's on update. A create adds the v1 checks (the attacher as a CSI
//! driver name, the volume name); an update validates the object twice, then the spec, which
//! cannot change. Neither checks the metadata update.

use serde_json::Value;

use super::inline_volume::validate_inline_volume;
use super::{csi_driver_name, go_string, metadata, spec_of};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::IMMUTABLE;
use crate::validation::names::{self, inclusive_range_error};
use crate::validation::read;

/// The most bytes the attachment metadata may hold, keys and values together: 256 KiB.
const MAX_METADATA_SIZE: usize = 256 * 1024;
/// The longest attach or detach error message.
const MAX_ERROR_MESSAGE_LENGTH: usize = 1024;

const ONE_SOURCE: &str = "must specify exactly one of inlineVolumeSpec and persistentVolumeName";

/// Create: `ValidateVolumeAttachment` of the object without status, then
/// `ValidateVolumeAttachmentV1`.
pub(super) fn volume_attachment(obj: &Value) -> ErrorList {
    let mut errs = validate(obj, None);
    let spec = spec_of(obj);
    csi_driver_name(
        read::text(spec, "attacher"),
        &Path::new("spec.attacher"),
        &mut errs,
    );
    if let Some(volume) = persistent_volume_name(spec) {
        let at = Path::new("spec.source.persistentVolumeName");
        for msg in names::name_is_dns_subdomain(volume, false) {
            errs.push(field::invalid(&at, volume, &msg));
        }
    }
    errs
}

/// Update: `ValidateVolumeAttachment` (with the old status), then
/// `ValidateVolumeAttachmentUpdate` (the same again, and the spec unchanged).
pub(super) fn volume_attachment_update(new: &Value, old: &Value) -> ErrorList {
    let status = old.get("status");
    let mut errs = validate(new, status);
    errs.extend(validate(new, status));
    let spec = spec_of(new);
    if !specs_equal(spec, spec_of(old)) {
        errs.push(field::invalid(
            &Path::new("spec"),
            BadValue::Printed(go_spec(spec)),
            IMMUTABLE,
        ));
    }
    errs
}

/// `ValidateVolumeAttachment`, with the status the strategy left.
fn validate(obj: &Value, status: Option<&Value>) -> ErrorList {
    let mut errs = metadata(obj, false);
    let spec = spec_of(obj);
    let path = Path::new("spec");
    if read::text(spec, "attacher").is_empty() {
        errs.push(field::required(&path.child("attacher"), ""));
    }
    validate_source(spec, &path.child("source"), &mut errs);
    let node = read::text(spec, "nodeName");
    let node_path = path.child("nodeName");
    for msg in names::name_is_dns_subdomain(node, false) {
        errs.push(field::invalid(&node_path, node, &msg));
    }
    if let Some(status) = status {
        validate_status(status, &mut errs);
    }
    errs
}

fn source_of(spec: &Value) -> &Value {
    spec.get("source").unwrap_or(&Value::Null)
}

/// The `*string` naming a PersistentVolume, when set.
fn persistent_volume_name(spec: &Value) -> Option<&str> {
    read::opt_text(source_of(spec), "persistentVolumeName")
}

fn inline_volume(spec: &Value) -> Option<&Value> {
    source_of(spec)
        .get("inlineVolumeSpec")
        .filter(|v| v.is_object())
}

/// `validateVolumeAttachmentSource`: exactly one source; a volume name not empty; an inline
/// volume valid in that context.
fn validate_source(spec: &Value, path: &Path, errs: &mut ErrorList) {
    match (persistent_volume_name(spec), inline_volume(spec)) {
        (None, None) => errs.push(field::required(path, ONE_SOURCE)),
        (Some(_), Some(_)) => errs.push(field::forbidden(path, ONE_SOURCE)),
        (Some(name), None) => {
            if name.is_empty() {
                errs.push(field::required(
                    &path.child("persistentVolumeName"),
                    "must specify non empty persistentVolumeName",
                ));
            }
        }
        (None, Some(volume)) => {
            validate_inline_volume(volume, &path.child("inlineVolumeSpec"), errs);
        }
    }
}

/// `validateVolumeAttachmentStatus`: the metadata's size, then each error's message length
/// and code. A long message is reported with the metadata's limit, as upstream does.
fn validate_status(status: &Value, errs: &mut ErrorList) {
    let path = Path::new("status");
    let size: usize = read::string_map(status, "attachmentMetadata")
        .map(|(k, v)| k.len() + v.len())
        .sum();
    if size > MAX_METADATA_SIZE {
        errs.push(field::too_long(
            &path.child("attachmentMetadata"),
            MAX_METADATA_SIZE as i64,
        ));
    }
    for member in ["attachError", "detachError"] {
        let Some(error) = status.get(member).filter(|e| e.is_object()) else {
            continue;
        };
        let at = path.child(member);
        if read::text(error, "message").len() > MAX_ERROR_MESSAGE_LENGTH {
            errs.push(field::too_long(
                &at.child("message"),
                MAX_METADATA_SIZE as i64,
            ));
        }
        if let Some(code) = read::opt_int(error, "errorCode").filter(|c| *c < 0) {
            errs.push(field::invalid(
                &at.child("errorCode"),
                code,
                &inclusive_range_error(0, i64::from(i32::MAX)),
            ));
        }
    }
}

/// Semantic equality of two specs: the volume name is a pointer (unset differs from
/// empty), an inline volume is compared member by member.
fn specs_equal(a: &Value, b: &Value) -> bool {
    ["attacher", "nodeName"]
        .iter()
        .all(|m| read::text(a, m) == read::text(b, m))
        && persistent_volume_name(a) == persistent_volume_name(b)
        && match (inline_volume(a), inline_volume(b)) {
            (None, None) => true,
            (Some(x), Some(y)) => read::semantic_eq(Some(x), Some(y)),
            _ => false,
        }
}

/// The internal `VolumeAttachmentSpec` as Go's JSON prints it (Go's member names, in
/// order); an inline volume is printed as its v1 JSON.
fn go_spec(spec: &Value) -> String {
    let mut out = String::from("{\"Attacher\":");
    go_string(read::text(spec, "attacher"), &mut out);
    out.push_str(",\"Source\":{\"PersistentVolumeName\":");
    match persistent_volume_name(spec) {
        Some(name) => go_string(name, &mut out),
        None => out.push_str("null"),
    }
    out.push_str(",\"InlineVolumeSpec\":");
    field::go_json(inline_volume(spec).unwrap_or(&Value::Null), &mut out);
    out.push_str("},\"NodeName\":");
    go_string(read::text(spec, "nodeName"), &mut out);
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn attachment(source: Value, status: Value) -> Value {
        json!({"metadata": {"name": "a", "resourceVersion": "1"},
            "spec": {"attacher": "csi.example.com", "nodeName": "node", "source": source},
            "status": status})
    }

    fn texts(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn the_status_sent_on_create_is_ignored() {
        let obj = attachment(
            json!({"persistentVolumeName": "pv"}),
            json!({"attachError": {"message": "x".repeat(2000), "errorCode": -1}}),
        );
        assert!(volume_attachment(&obj).is_empty());
    }

    #[test]
    fn an_update_checks_the_old_status_twice() {
        let old = attachment(
            json!({"persistentVolumeName": "pv"}),
            json!({"detachError": {"errorCode": -2}}),
        );
        let new = attachment(json!({"persistentVolumeName": "pv"}), json!({}));
        assert_eq!(
            texts(&volume_attachment_update(&new, &old)),
            [
                "status.detachError.errorCode: Invalid value: -2: must be between 0 and 2147483647, inclusive",
                "status.detachError.errorCode: Invalid value: -2: must be between 0 and 2147483647, inclusive",
            ]
        );
    }

    #[test]
    fn a_changed_spec_prints_as_the_internal_struct() {
        let old = attachment(json!({"persistentVolumeName": "pv"}), json!({}));
        let new = attachment(json!({"persistentVolumeName": "pv2"}), json!({}));
        assert_eq!(
            texts(&volume_attachment_update(&new, &old)),
            [
                "spec: Invalid value: {\"Attacher\":\"csi.example.com\",\"Source\":{\"PersistentVolumeName\":\"pv2\",\"InlineVolumeSpec\":null},\"NodeName\":\"node\"}: field is immutable"
            ]
        );
    }

    #[test]
    fn an_empty_volume_name_fails_twice_on_create() {
        let obj = attachment(json!({"persistentVolumeName": ""}), json!(null));
        let fields: Vec<String> = volume_attachment(&obj)
            .iter()
            .map(|e| format!("{} {}", e.kind.reason(), e.field))
            .collect();
        assert_eq!(
            fields,
            [
                "FieldValueRequired spec.source.persistentVolumeName",
                "FieldValueInvalid spec.source.persistentVolumeName",
            ]
        );
    }
}
