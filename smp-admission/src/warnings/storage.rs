//! Volumes and their claims (`pkg/api/persistentvolumeclaim`, `pkg/api/persistentvolume`,
//! `pkg/api/storage`): storage sizes with a fraction of a byte, the beta storage-class
//! annotation, the Recycle reclaim policy, and deprecated node labels in topologies.

use serde_json::Value;

use super::node_labels;
use super::sink::Sink;
use crate::quantity::{Quantity, printed_milli};
use crate::validation::field::{Path, go_quote};
use crate::validation::read;

const BETA_STORAGE_CLASS: &str = "volume.beta.kubernetes.io/storage-class";
const BETA_STORAGE_CLASS_MSG: &str =
    r#"deprecated since v1.8; use "storageClassName" attribute instead"#;
const MOUNT_OPTIONS: &str = "volume.beta.kubernetes.io/mount-options";
const MOUNT_OPTIONS_MSG: &str = r#"deprecated since v1.31; use "mountOptions" attribute instead"#;

/// `fractional byte value "…" is invalid, must be an integer` when the quantity at `key` of
/// the resource list `list` is not a whole number of bytes.
pub(super) fn fractional_bytes(list: Option<&Value>, key: &str, path: &Path, out: &mut Sink) {
    let Some(value) = list.and_then(|l| l.get(key)) else {
        return;
    };
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return,
    };
    let Ok(quantity) = Quantity::parse(&text) else {
        return;
    };
    let Some(milli) = quantity.scaled_up(-3) else {
        return;
    };
    if milli % 1000 != 0 {
        let printed = printed_milli(&text).map(|p| p.into_owned()).unwrap_or(text);
        let mut quoted = String::new();
        go_quote(&printed, &mut quoted);
        out.push(format!(
            "{}: fractional byte value {quoted} is invalid, must be an integer",
            path.key(key)
        ));
    }
}

/// `GetWarningsForPersistentVolumeClaimSpec`: the storage request and limit, at `path`.
pub(super) fn claim_spec(spec: Option<&Value>, path: &Path, out: &mut Sink) {
    let resources = spec.and_then(|s| s.get("resources"));
    let requests = path.child("resources");
    fractional_bytes(
        resources.and_then(|r| r.get("requests")),
        "storage",
        &requests.child("requests"),
        out,
    );
    fractional_bytes(
        resources.and_then(|r| r.get("limits")),
        "storage",
        &requests.child("limits"),
        out,
    );
}

fn beta_class_annotation(obj: &Value, out: &mut Sink) {
    if obj
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get(BETA_STORAGE_CLASS))
        .is_some()
    {
        out.push(format!(
            "metadata.annotations[{BETA_STORAGE_CLASS}]: {BETA_STORAGE_CLASS_MSG}"
        ));
    }
}

/// A PersistentVolumeClaim (`GetWarningsForPersistentVolumeClaim`), on create and update.
pub(super) fn claim(obj: &Value, out: &mut Sink) {
    beta_class_annotation(obj, out);
    claim_spec(obj.get("spec"), &Path::new("spec"), out);
}

/// The retired plugins a PersistentVolume may still name, in the server's order of checks.
const RETIRED_PLUGINS: &[(&str, &str, &str)] = &[
    (
        "cephfs",
        "cephfs",
        "deprecated in v1.28, non-functional in v1.31+",
    ),
    (
        "photonPersistentDisk",
        "photonPersistentDisk",
        "deprecated in v1.11, non-functional in v1.16+",
    ),
    (
        "scaleIO",
        "scaleIO",
        "deprecated in v1.16, non-functional in v1.22+",
    ),
    (
        "storageos",
        "storageOS",
        "deprecated in v1.22, non-functional in v1.25+",
    ),
    (
        "glusterfs",
        "glusterfs",
        "deprecated in v1.25, non-functional in v1.26+",
    ),
    (
        "rbd",
        "rbd",
        "deprecated in v1.28, non-functional in v1.31+",
    ),
];

/// A PersistentVolume (`GetWarningsForPersistentVolume`), on create and update: the beta
/// storage-class and mount-options annotations, the Recycle policy, deprecated node labels
/// in its node affinity, and retired plugins (printed by their Go field names).
pub(super) fn volume(obj: &Value, out: &mut Sink) {
    beta_class_annotation(obj, out);
    if obj
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get(MOUNT_OPTIONS))
        .is_some()
    {
        out.push(format!(
            "metadata.annotations[{MOUNT_OPTIONS}]: {MOUNT_OPTIONS_MSG}"
        ));
    }
    let spec = obj.get("spec").unwrap_or(&Value::Null);
    if read::text(spec, "persistentVolumeReclaimPolicy") == "Recycle" {
        out.push(
            "spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning."
                .to_owned(),
        );
    }
    if let Some(required) = spec
        .get("nodeAffinity")
        .and_then(|a| a.get("required"))
        .filter(|r| r.is_object())
    {
        let terms = Path::names(&["spec", "nodeAffinity", "required", "nodeSelectorTerms"]);
        for (i, term) in read::list(required, "nodeSelectorTerms").iter().enumerate() {
            node_labels::selector_term(term, false, &terms.index(i), out);
        }
    }
    for (json, printed, msg) in RETIRED_PLUGINS {
        if read::is_set(spec, json) {
            out.push(format!("spec.{printed}: {msg}"));
        }
    }
}

/// A StorageClass (`GetWarningsForStorageClass`): deprecated node labels in
/// `allowedTopologies[*].matchLabelExpressions[*].key`.
pub(super) fn storage_class(obj: &Value, out: &mut Sink) {
    let topologies = Path::new("allowedTopologies");
    for (i, topology) in read::list(obj, "allowedTopologies").iter().enumerate() {
        let at = topologies.index(i);
        let expressions = at.child("matchLabelExpressions");
        for (j, expression) in read::list(topology, "matchLabelExpressions")
            .iter()
            .enumerate()
        {
            if let Some(msg) = node_labels::deprecated(read::text(expression, "key")) {
                out.push(format!("{}: {msg}", expressions.index(j).child("key")));
            }
        }
    }
}

/// A CSIStorageCapacity (`GetWarningsForCSIStorageCapacity`): its `nodeTopology` selector.
pub(super) fn storage_capacity(obj: &Value, out: &mut Sink) {
    node_labels::label_selector(obj.get("nodeTopology"), &Path::new("nodeTopology"), out);
}
