//! Checks of a pod's volumes: baseline forbids `hostPath`; restricted allows only the
//! volume types that reach nothing outside the pod's own objects and claims.

use super::{Found, Pod, items, join_quote, pluralize, present, sorted_set, text};

/// The volume sources restricted allows.
const ALLOWED: [&str; 9] = [
    "configMap",
    "csi",
    "downwardAPI",
    "emptyDir",
    "ephemeral",
    "image",
    "persistentVolumeClaim",
    "projected",
    "secret",
];

/// The sources restricted refuses, in the order the server names the first one set.
const REFUSED: [&str; 21] = [
    "hostPath",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "gitRepo",
    "nfs",
    "iscsi",
    "glusterfs",
    "rbd",
    "flexVolume",
    "cinder",
    "cephfs",
    "flocker",
    "fc",
    "azureFile",
    "vsphereVolume",
    "quobyte",
    "azureDisk",
    "photonPersistentDisk",
    "portworxVolume",
    "scaleIO",
    "storageos",
];

fn volumes<'a>(
    pod: &Pod<'a>,
) -> impl Iterator<Item = &'a serde_json::Map<String, serde_json::Value>> {
    pod.spec()
        .map(|s| items(s, "volumes"))
        .unwrap_or_default()
        .iter()
        .filter_map(serde_json::Value::as_object)
}

/// Baseline `hostPathVolumes` (v1.0).
pub(super) fn host_path(pod: &Pod<'_>) -> Option<Found> {
    let bad: Vec<&str> = volumes(pod)
        .filter(|v| present(v, "hostPath"))
        .map(|v| text(v, "name"))
        .collect();
    (!bad.is_empty()).then(|| Found {
        reason: "hostPath volumes",
        detail: format!(
            "{} {}",
            pluralize("volume", "volumes", bad.len()),
            join_quote(&bad)
        ),
    })
}

/// Restricted `restrictedVolumes` (v1.0).
pub(super) fn restricted(pod: &Pod<'_>) -> Option<Found> {
    let mut bad = Vec::new();
    let mut types = Vec::new();
    for volume in volumes(pod) {
        if ALLOWED.iter().any(|source| present(volume, source)) {
            continue;
        }
        bad.push(text(volume, "name"));
        let source = REFUSED
            .iter()
            .find(|source| present(volume, source))
            .copied()
            .unwrap_or("unknown");
        types.push(source.to_owned());
    }
    if bad.is_empty() {
        return None;
    }
    let types = sorted_set(types);
    Some(Found {
        reason: "restricted volume types",
        detail: format!(
            "{} {} {} {} {}",
            pluralize("volume", "volumes", bad.len()),
            join_quote(&bad),
            pluralize("uses", "use", bad.len()),
            pluralize(
                "restricted volume type",
                "restricted volume types",
                types.len()
            ),
            join_quote(&types)
        ),
    })
}
