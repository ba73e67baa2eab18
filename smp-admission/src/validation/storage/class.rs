//! StorageClass (`ValidateStorageClass`, `ValidateStorageClassUpdate`) and
//! VolumeAttributesClass (`ValidateVolumeAttributesClass`, `...Update`). Both strategies
//! validate an update as a create first, then as an update.

use serde_json::Value;

use super::topology::validate_allowed_topologies;
use super::{
    metadata, metadata_update, pointer_text, string_maps_equal, validate_parameters,
    validate_provisioner,
};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::IMMUTABLE;
use crate::validation::read;

/// `sets.List` of the supported policies: sorted.
const RECLAIM_POLICIES: [&str; 2] = ["Delete", "Retain"];
const BINDING_MODES: [&str; 2] = ["Immediate", "WaitForFirstConsumer"];

/// `ValidateStorageClass`.
pub(super) fn storage_class(obj: &Value) -> ErrorList {
    let mut errs = metadata(obj, false);
    validate_provisioner(
        read::text(obj, "provisioner"),
        &Path::new("provisioner"),
        &mut errs,
    );
    validate_parameters(
        read::object(obj, "parameters"),
        true,
        &Path::new("parameters"),
        &mut errs,
    );
    // Go dereferences the policy without looking: the scheme's default (`Delete`) is always
    // there by now, and an absent one is taken here as empty rather than as a crash.
    let policy = read::text(obj, "reclaimPolicy");
    if !policy.is_empty() && !RECLAIM_POLICIES.contains(&policy) {
        errs.push(field::not_supported(
            &Path::new("reclaimPolicy"),
            pointer_text(policy),
            &RECLAIM_POLICIES,
        ));
    }
    let mode_path = Path::new("volumeBindingMode");
    match read::opt_text(obj, "volumeBindingMode") {
        None => errs.push(field::required(&mode_path, "")),
        Some(mode) if !BINDING_MODES.contains(&mode) => errs.push(field::not_supported(
            &mode_path,
            pointer_text(mode),
            &BINDING_MODES,
        )),
        Some(_) => {}
    }
    validate_allowed_topologies(
        read::list(obj, "allowedTopologies"),
        &Path::new("allowedTopologies"),
        &mut errs,
    );
    errs
}

/// The strategy's update: `ValidateStorageClass`, then `ValidateStorageClassUpdate` (the
/// metadata update; parameters, provisioner, reclaim policy and binding mode unchanged).
pub(super) fn storage_class_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = storage_class(new);
    errs.extend(metadata_update(new, old));
    if !string_maps_equal(new.get("parameters"), old.get("parameters")) {
        errs.push(field::forbidden(
            &Path::new("parameters"),
            "updates to parameters are forbidden.",
        ));
    }
    if read::text(new, "provisioner") != read::text(old, "provisioner") {
        errs.push(field::forbidden(
            &Path::new("provisioner"),
            "updates to provisioner are forbidden.",
        ));
    }
    if read::text(new, "reclaimPolicy") != read::text(old, "reclaimPolicy") {
        errs.push(field::forbidden(
            &Path::new("reclaimPolicy"),
            "updates to reclaimPolicy are forbidden.",
        ));
    }
    // A pointer: unset and set differ.
    let mode = read::opt_text(new, "volumeBindingMode");
    if mode != read::opt_text(old, "volumeBindingMode") {
        errs.push(field::invalid(
            &Path::new("volumeBindingMode"),
            mode.map_or(BadValue::Json(Value::Null), pointer_text),
            IMMUTABLE,
        ));
    }
    errs
}

/// `ValidateVolumeAttributesClass`: the driver as a provisioner, at least one parameter.
pub(super) fn volume_attributes_class(obj: &Value) -> ErrorList {
    let mut errs = metadata(obj, false);
    validate_provisioner(
        read::text(obj, "driverName"),
        &Path::new("driverName"),
        &mut errs,
    );
    validate_parameters(
        read::object(obj, "parameters"),
        false,
        &Path::new("parameters"),
        &mut errs,
    );
    errs
}

/// The strategy's update: `ValidateVolumeAttributesClass`, then
/// `ValidateVolumeAttributesClassUpdate` (metadata update, driver and parameters unchanged,
/// and `ValidateVolumeAttributesClass` once more).
pub(super) fn volume_attributes_class_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = volume_attributes_class(new);
    errs.extend(metadata_update(new, old));
    if read::text(new, "driverName") != read::text(old, "driverName") {
        errs.push(field::forbidden(
            &Path::new("driverName"),
            "updates to driverName are forbidden.",
        ));
    }
    if !string_maps_equal(new.get("parameters"), old.get("parameters")) {
        errs.push(field::forbidden(
            &Path::new("parameters"),
            "updates to parameters are forbidden.",
        ));
    }
    errs.extend(volume_attributes_class(new));
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn texts(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn policies_print_as_pointers() {
        let class = json!({"metadata": {"name": "a"}, "provisioner": "p",
            "reclaimPolicy": "Recycle", "volumeBindingMode": "Later"});
        assert_eq!(
            texts(&storage_class(&class)),
            [
                "reclaimPolicy: Unsupported value: \"Recycle\": supported values: \"Delete\", \"Retain\"",
                "volumeBindingMode: Unsupported value: \"Later\": supported values: \"Immediate\", \"WaitForFirstConsumer\"",
            ]
        );
    }

    #[test]
    fn a_binding_mode_removed_on_update_prints_null() {
        let old = json!({"metadata": {"name": "a", "resourceVersion": "1"}, "provisioner": "p",
            "reclaimPolicy": "Delete", "volumeBindingMode": "Immediate"});
        let mut new = old.clone();
        new.as_object_mut().map(|o| o.remove("volumeBindingMode"));
        assert_eq!(
            texts(&storage_class_update(&new, &old)),
            [
                "volumeBindingMode: Required value",
                "volumeBindingMode: Invalid value: null: field is immutable",
            ]
        );
    }

    #[test]
    fn attributes_classes_need_parameters() {
        let class = json!({"metadata": {"name": "a"}, "driverName": "d"});
        assert_eq!(
            texts(&volume_attributes_class(&class)),
            ["parameters: Required value: must contain at least one key/value pair"]
        );
    }
}
