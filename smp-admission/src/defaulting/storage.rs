//! storage.k8s.io/v1's defaults (`pkg/apis/storage/v1/defaults.go`). CSINode,
//! CSIStorageCapacity and VolumeAttributesClass have none.

use serde_json::json;

use super::core::persistent_volume_sources;
use crate::value::{Object, child, child_or_new, default_nil, is_empty_collection};

/// A StorageClass: volumes deleted with their claims, bound at once.
pub(super) fn storage_class(class: &mut Object) {
    default_nil(class, "reclaimPolicy", json!("Delete"));
    default_nil(class, "volumeBindingMode", json!("Immediate"));
}

/// A CSIDriver: attached, told nothing of pods, no capacity tracking, fsGroup for RWO with
/// a filesystem type, persistent volumes, no republishing, no SELinux mount (the
/// SELinuxMountReadWriteOncePod gate is on in v1.34).
pub(super) fn csi_driver(driver: &mut Object) {
    let Some(spec) = child_or_new(driver, "spec") else {
        return;
    };
    default_nil(spec, "attachRequired", json!(true));
    default_nil(spec, "podInfoOnMount", json!(false));
    default_nil(spec, "storageCapacity", json!(false));
    default_nil(spec, "fsGroupPolicy", json!("ReadWriteOnceWithFSType"));
    if is_empty_collection(spec, "volumeLifecycleModes") {
        spec.insert("volumeLifecycleModes".into(), json!(["Persistent"]));
    }
    default_nil(spec, "requiresRepublish", json!(false));
    default_nil(spec, "seLinuxMount", json!(false));
}

/// A VolumeAttachment: only an inline volume's sources.
pub(super) fn volume_attachment(attachment: &mut Object) {
    if let Some(inline) = child(attachment, "spec")
        .and_then(|s| child(s, "source"))
        .and_then(|s| child(s, "inlineVolumeSpec"))
    {
        persistent_volume_sources(inline);
    }
}
