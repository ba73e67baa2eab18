//! A VolumeAttachment's inline volume: the core group's `ValidatePersistentVolumeSpec` in
//! its inline mode (no claim, capacity, node affinity or class; CSI required; `Retain` only;
//! a file system), with every option off.
//!
//! Go tries the volume sources in a fixed order and forbids each one after the first (a
//! FlexVolume is only counted). The CSI source is checked in full, a local volume's demand
//! for node affinity (never met inline) is reported; the other sources' own members are not
//! checked here (they cannot make a valid inline volume, which needs CSI, anyway). The
//! access modes and the CSI source are checked by the PersistentVolume rules of the core
//! group, which are the same.

use serde_json::Value;

use crate::validation::core::persistent_volume::{
    cleans_to_root, validate_access_modes, validate_csi_source,
};
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::read;

const INLINE: &str = "may not be specified in the context of inline volumes";
const MORE_THAN_ONE: &str = "may not specify more than 1 volume type";

/// The sources in the order Go tries them: the member, and the path segment its "more than
/// one" error is reported under (`cephFS`, spelt so upstream), or `None` for FlexVolume.
const SOURCES: [(&str, Option<&str>); 22] = [
    ("hostPath", Some("hostPath")),
    ("gcePersistentDisk", Some("gcePersistentDisk")),
    ("awsElasticBlockStore", Some("awsElasticBlockStore")),
    ("glusterfs", Some("glusterfs")),
    ("flocker", Some("flocker")),
    ("nfs", Some("nfs")),
    ("rbd", Some("rbd")),
    ("quobyte", Some("quobyte")),
    ("cephfs", Some("cephFS")),
    ("iscsi", Some("iscsi")),
    ("cinder", Some("cinder")),
    ("fc", Some("fc")),
    ("flexVolume", None),
    ("azureFile", Some("azureFile")),
    ("vsphereVolume", Some("vsphereVolume")),
    ("photonPersistentDisk", Some("photonPersistentDisk")),
    ("portworxVolume", Some("portworxVolume")),
    ("azureDisk", Some("azureDisk")),
    ("scaleIO", Some("scaleIO")),
    ("local", Some("local")),
    ("storageos", Some("storageos")),
    ("csi", Some("csi")),
];

fn set_object<'a>(spec: &'a Value, member: &str) -> Option<&'a Value> {
    spec.get(member).filter(|v| v.is_object())
}

/// `ValidatePersistentVolumeSpec(spec, "", true, path, {})`.
pub(super) fn validate_inline_volume(spec: &Value, path: &Path, errs: &mut ErrorList) {
    if set_object(spec, "claimRef").is_some() {
        errs.push(field::forbidden(&path.child("claimRef"), INLINE));
    }
    if read::object(spec, "capacity").is_some_and(|c| !c.is_empty()) {
        errs.push(field::forbidden(&path.child("capacity"), INLINE));
    }
    if set_object(spec, "csi").is_none() {
        errs.push(field::required(
            &path.child("csi"),
            "has to be specified in the context of inline volumes",
        ));
    }
    validate_access_modes(
        read::list(spec, "accessModes"),
        &path.child("accessModes"),
        errs,
    );
    let policy = read::text(spec, "persistentVolumeReclaimPolicy");
    let policy_path = path.child("persistentVolumeReclaimPolicy");
    if !policy.is_empty() && policy != "Retain" {
        errs.push(field::forbidden(
            &policy_path,
            "may only be Retain in the context of inline volumes",
        ));
    }
    if set_object(spec, "nodeAffinity").is_some() {
        errs.push(field::forbidden(&path.child("nodeAffinity"), INLINE));
    }
    let mut count = 0;
    for (member, forbidden_at) in SOURCES {
        let Some(source) = set_object(spec, member) else {
            continue;
        };
        match forbidden_at {
            Some(segment) if count > 0 => {
                errs.push(field::forbidden(&path.child(segment), MORE_THAN_ONE));
            }
            _ => {
                count += 1;
                match member {
                    "csi" => validate_csi_source(source, &path.child("csi"), errs),
                    // Node affinity is forbidden inline, so never there to satisfy this.
                    "local" => errs.push(field::required(
                        &path.child("nodeAffinity"),
                        "Local volume requires node affinity",
                    )),
                    _ => {}
                }
            }
        }
    }
    if count == 0 {
        errs.push(field::required(path, "must specify a volume type"));
    }
    let host_root =
        set_object(spec, "hostPath").is_some_and(|h| cleans_to_root(read::text(h, "path")));
    if host_root && policy == "Recycle" {
        errs.push(field::forbidden(
            &policy_path,
            "may not be 'recycle' for a hostPath mount of '/'",
        ));
    }
    if !read::text(spec, "storageClassName").is_empty() {
        errs.push(field::forbidden(&path.child("storageClassName"), INLINE));
    }
    if read::opt_text(spec, "volumeMode").is_some_and(|m| m != "Filesystem") {
        errs.push(field::forbidden(
            &path.child("volumeMode"),
            "may not specify volumeMode other than Filesystem in the context of inline volumes",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(spec: Value) -> Vec<String> {
        let mut errs = ErrorList::new();
        validate_inline_volume(&spec, &Path::new("v"), &mut errs);
        errs.iter()
            .map(|e| format!("{} {}", e.kind.reason(), e.field))
            .collect()
    }

    #[test]
    fn a_csi_volume_is_valid() {
        let spec = json!({"accessModes": ["ReadWriteOnce"], "persistentVolumeReclaimPolicy": "Retain",
            "csi": {"driver": "com.test.foo", "volumeHandle": "h"}, "volumeMode": "Filesystem"});
        assert!(fields(spec).is_empty());
    }

    #[test]
    fn sources_after_the_first_are_forbidden_but_flex_is_counted() {
        let spec = json!({"accessModes": ["ReadWriteOnce"], "cephfs": {}, "flexVolume": {},
            "csi": {"driver": "d", "volumeHandle": "h"}});
        assert_eq!(fields(spec), ["FieldValueForbidden v.csi"]);
        let flex_first =
            json!({"accessModes": ["ReadWriteOnce"], "flexVolume": {}, "azureFile": {}});
        assert_eq!(
            fields(flex_first),
            [
                "FieldValueRequired v.csi",
                "FieldValueForbidden v.azureFile"
            ]
        );
        let ceph_second = json!({"accessModes": ["ReadWriteOnce"], "nfs": {}, "cephfs": {}});
        assert_eq!(
            fields(ceph_second),
            ["FieldValueRequired v.csi", "FieldValueForbidden v.cephFS"]
        );
    }

    #[test]
    fn inline_only_rules() {
        let spec = json!({"claimRef": {}, "capacity": {"storage": "1Gi"}, "accessModes": [],
            "persistentVolumeReclaimPolicy": "Recycle", "nodeAffinity": {}, "hostPath": {"path": "/a/.."},
            "storageClassName": "c", "volumeMode": "Block"});
        assert_eq!(
            fields(spec),
            [
                "FieldValueForbidden v.claimRef",
                "FieldValueForbidden v.capacity",
                "FieldValueRequired v.csi",
                "FieldValueRequired v.accessModes",
                "FieldValueForbidden v.persistentVolumeReclaimPolicy",
                "FieldValueForbidden v.nodeAffinity",
                "FieldValueForbidden v.persistentVolumeReclaimPolicy",
                "FieldValueForbidden v.storageClassName",
                "FieldValueForbidden v.volumeMode",
            ]
        );
    }

    #[test]
    fn csi_secrets_need_name_and_namespace() {
        let spec = json!({"accessModes": ["ReadWriteOncePod", "ReadOnlyMany", "Sometimes"],
            "csi": {"driver": "d", "volumeHandle": "h", "nodeExpandSecretRef": {"name": "Bad"}}});
        assert_eq!(
            fields(spec),
            [
                "FieldValueNotSupported v.accessModes",
                "FieldValueForbidden v.accessModes",
                "FieldValueInvalid v.csi.nodeExpandSecretRef.name",
                "FieldValueRequired v.csi.nodeExpandSecretRef.namespace",
            ]
        );
    }

    #[test]
    fn paths_that_clean_to_the_root() {
        for p in ["/", "//", "/.", "/..", "/a/..", "/a/b/../../.."] {
            assert!(cleans_to_root(p), "{p}");
        }
        for p in ["", ".", "a/..", "/a", "/a/../b"] {
            assert!(!cleans_to_root(p), "{p}");
        }
    }
}
