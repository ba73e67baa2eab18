//! The `storage.k8s.io` group (`pkg/apis/storage/validation` as the v1.34 strategies call
//! it): StorageClass and VolumeAttributesClass ([`class`], a class's allowed topologies in
//! [`topology`]), CSIDriver ([`csi_driver`]), CSINode ([`csi_node`]), VolumeAttachment
//! ([`attachment`], its inline volume in [`inline_volume`]) and CSIStorageCapacity
//! ([`capacity`]).
//!
//! Feature gates at their v1.34 defaults:
//! - `SELinuxMountReadWriteOncePod` is on: a CSIDriver's `seLinuxMount` is required (the
//!   scheme defaults it to false).
//! - `MutableCSINodeAllocatableCount` is off (beta, default off): the CSIDriver strategy drops
//!   `nodeAllocatableUpdatePeriodSeconds` on create, and on update unless the old driver had
//!   it, so it is validated only then; a CSINode's drivers stay immutable as a whole.
//! - `VolumeAttributesClass` is GA; an inline volume of a VolumeAttachment is validated with
//!   every option off all the same, as the code passes none.
//!
//! What the strategies add: several validate the new object twice on update
//! (`Validate<Kind>` then `Validate<Kind>Update`, which calls it again), so their errors come
//! twice here too; the VolumeAttachment strategy clears the status on create and keeps the
//! old one on update; the CSINode and VolumeAttachment updates never check the metadata
//! update (only the generic registry does, which is not modelled here, as for LimitRange).
//!
//! Where the answers differ from the server's:
//! - An inline volume's non-CSI sources are counted (one volume type, and `csi` is required
//!   there) but their own members are not checked.
//! - Internal structs reported as bad values (a VolumeAttachment's spec, a CSINode driver)
//!   are printed with Go's member names; an inline volume inside them as its v1 JSON.
//! - `parameters` compare as `reflect.DeepEqual` compares the maps decoded from the JSON
//!   given: `{}` and an absent map differ. The server decodes the stored object from
//!   protobuf, where an empty map comes back absent.
//! - A StorageClass's repeated allowed topologies are reported at most 100,000 times (see
//!   [`topology`]).

mod attachment;
mod capacity;
mod class;
mod csi_driver;
mod csi_node;
mod inline_volume;
mod topology;

/// The kinds' metadata update checks, which their files take from here.
use crate::validation::meta::validate_object_meta_update_of as metadata_update;
use serde_json::Value;

use super::field::{self, BadValue, ErrorList, Path};
use super::kind_rules::KindRules;
use super::meta::validate_object_meta;
use super::names;
use super::read::Object;

const GROUP: &str = "storage.k8s.io";

/// The storage kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[
    KindRules {
        group: GROUP,
        kind: "StorageClass",
        namespaced: false,
        create: class::storage_class,
        update: class::storage_class_update,
    },
    KindRules {
        group: GROUP,
        kind: "VolumeAttributesClass",
        namespaced: false,
        create: class::volume_attributes_class,
        update: class::volume_attributes_class_update,
    },
    KindRules {
        group: GROUP,
        kind: "CSIDriver",
        namespaced: false,
        create: csi_driver::csi_driver,
        update: csi_driver::csi_driver_update,
    },
    KindRules {
        group: GROUP,
        kind: "CSINode",
        namespaced: false,
        create: csi_node::csi_node,
        update: csi_node::csi_node_update,
    },
    KindRules {
        group: GROUP,
        kind: "VolumeAttachment",
        namespaced: false,
        create: attachment::volume_attachment,
        update: attachment::volume_attachment_update,
    },
    KindRules {
        group: GROUP,
        kind: "CSIStorageCapacity",
        namespaced: true,
        create: capacity::csi_storage_capacity,
        update: capacity::csi_storage_capacity_update,
    },
];

/// `ValidateObjectMeta` of the core group. Every storage kind's name rule (class, node, CSI
/// driver and capacity names) is a DNS subdomain.
fn metadata(obj: &Value, namespaced: bool) -> ErrorList {
    validate_object_meta(
        obj.get("metadata"),
        namespaced,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    )
}

/// The `spec` of an object (a Go struct that is not a pointer: absent reads as empty).
fn spec_of(obj: &Value) -> &Value {
    obj.get("spec").unwrap_or(&Value::Null)
}

/// A value Go holds as a pointer to a named string type: it prints as JSON, not `%q`.
fn pointer_text(text: &str) -> BadValue {
    BadValue::Json(Value::from(text))
}

/// `ValidateCSIDriverName` of the core group: required, at most 63 characters, a DNS
/// subdomain once lowercased (the value reported as written).
fn csi_driver_name(driver: &str, path: &Path, errs: &mut ErrorList) {
    if driver.is_empty() {
        errs.push(field::required(path, ""));
    }
    if driver.len() > 63 {
        errs.push(field::too_long(path, 63));
    }
    for msg in names::is_dns1123_subdomain(&driver.to_lowercase()) {
        errs.push(field::invalid(path, driver, &msg));
    }
}

/// The most parameters a class may have.
const MAX_PARAMETERS: usize = 512;
/// The most bytes a class's parameters may hold, keys and values together: 256 KiB.
const MAX_PARAMETERS_SIZE: usize = 256 * 1024;

/// `validateProvisioner` (a StorageClass's provisioner, a VolumeAttributesClass's driver):
/// required, and a qualified name once lowercased, reported lowercased.
fn validate_provisioner(provisioner: &str, path: &Path, errs: &mut ErrorList) {
    if provisioner.is_empty() {
        errs.push(field::required(path, ""));
        return;
    }
    let lower = provisioner.to_lowercase();
    for msg in names::is_qualified_name(&lower) {
        errs.push(field::invalid(path, lower.as_str(), &msg));
    }
}

/// `validateParameters`: at most 512 entries (nothing else is checked past that), no empty
/// key, 256 KiB in all, and at least one entry unless `allow_empty`.
fn validate_parameters(
    params: Option<&Object>,
    allow_empty: bool,
    path: &Path,
    errs: &mut ErrorList,
) {
    let count = params.map_or(0, Object::len);
    if count > MAX_PARAMETERS {
        errs.push(field::too_long(path, MAX_PARAMETERS as i64));
        return;
    }
    let mut size = 0usize;
    for (key, value) in params.into_iter().flatten() {
        if key.is_empty() {
            errs.push(field::invalid(path, "", "field can not be empty."));
        }
        size += key.len() + value.as_str().map_or(0, str::len);
    }
    if size > MAX_PARAMETERS_SIZE {
        errs.push(field::too_long(path, MAX_PARAMETERS_SIZE as i64));
    }
    if !allow_empty && count == 0 {
        errs.push(field::required(
            path,
            "must contain at least one key/value pair",
        ));
    }
}

/// Whether two `map[string]string`s are equal as `reflect.DeepEqual` says: a map that is
/// absent (nil) differs from an empty one.
fn string_maps_equal(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a.and_then(Value::as_object), b.and_then(Value::as_object)) {
        (None, None) => true,
        (Some(x), Some(y)) => {
            x.len() == y.len()
                && x.iter().all(|(k, v)| {
                    y.get(k)
                        .is_some_and(|w| v.as_str().unwrap_or("") == w.as_str().unwrap_or(""))
                })
        }
        _ => false,
    }
}

/// A string as Go's `encoding/json` writes it.
fn go_string(text: &str, out: &mut String) {
    field::go_json(&Value::from(text), out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// Any JSON a few levels deep, keyed by the members these kinds read.
    fn anything() -> impl Strategy<Value = Value> {
        let leaf = crate::validation::arbitrary::scalar("[a-zA-Z0-9./ -]{0,8}", any::<i64>());
        crate::validation::arbitrary::json(
            leaf,
            "metadata|name|spec|value|preemptionPolicy|provisioner|parameters|\
                     reclaimPolicy|volumeBindingMode|allowedTopologies|matchLabelExpressions|key|\
                     values|driverName|attachRequired|seLinuxMount|tokenRequests|audience|\
                     expirationSeconds|volumeLifecycleModes|drivers|nodeID|topologyKeys|\
                     allocatable|count|attacher|source|persistentVolumeName|inlineVolumeSpec|csi|\
                     hostPath|path|accessModes|nodeName|status|attachError|message|errorCode|\
                     nodeTopology|matchExpressions|storageClassName|capacity|[a-z]{1,4}",
            5,
            96,
        )
    }

    /// The rules of every kind here and of PriorityClass.
    fn all_rules() -> Vec<&'static KindRules> {
        KINDS
            .iter()
            .chain(crate::validation::scheduling::KINDS)
            .collect()
    }

    proptest! {
        #[test]
        fn objects_of_any_shape_are_validated_without_panic(
            which in 0..all_rules().len(),
            new in anything(),
            old in anything(),
        ) {
            let rules = all_rules()[which];
            let _ = (rules.create)(&new);
            let _ = (rules.update)(&new, &old);
            let _ = (rules.update)(&new, &new);
        }
    }

    #[test]
    fn absent_and_empty_maps_differ() {
        let empty = json!({});
        assert!(string_maps_equal(None, Some(&Value::Null)));
        assert!(!string_maps_equal(None, Some(&empty)));
        assert!(string_maps_equal(
            Some(&json!({"a": "b"})),
            Some(&json!({"a": "b"}))
        ));
        assert!(!string_maps_equal(
            Some(&json!({"a": "b"})),
            Some(&json!({"a": "c"}))
        ));
        assert!(!string_maps_equal(
            Some(&json!({"a": "b"})),
            Some(&json!({"b": "b"}))
        ));
    }

    #[test]
    fn parameters_past_the_count_limit_stop_there() {
        let params: Object = (0..=MAX_PARAMETERS)
            .map(|i| (format!("k{i}"), json!("v")))
            .chain([(String::new(), json!("v"))])
            .collect();
        let mut errs = ErrorList::new();
        validate_parameters(Some(&params), true, &Path::new("parameters"), &mut errs);
        assert_eq!(
            errs.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["parameters: Too long: may not be more than 512 bytes"]
        );
    }

    #[test]
    fn parameters_hold_256_kib_in_all() {
        let mut errs = ErrorList::new();
        let at_limit: Object = [("k".to_owned(), json!("v".repeat(MAX_PARAMETERS_SIZE - 1)))]
            .into_iter()
            .collect();
        validate_parameters(Some(&at_limit), true, &Path::new("parameters"), &mut errs);
        assert!(errs.is_empty());
        let over: Object = [("kk".to_owned(), json!("v".repeat(MAX_PARAMETERS_SIZE - 1)))]
            .into_iter()
            .collect();
        validate_parameters(Some(&over), true, &Path::new("parameters"), &mut errs);
        assert_eq!(
            errs.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["parameters: Too long: may not be more than 262144 bytes"]
        );
    }

    #[test]
    fn provisioners_are_reported_lowercased() {
        let mut errs = ErrorList::new();
        validate_provisioner("Kubernetes.IO/a/b", &Path::new("provisioner"), &mut errs);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].value, BadValue::Str("kubernetes.io/a/b".into()));
    }
}
