//! DefaultStorageClass (`plugin/pkg/admission/storage/storageclass/setdefault`): a claim that
//! names no class (the member absent, not `""`, which asks for none) gets the default
//! StorageClass, the newest when several are marked; StorageObjectInUseProtection
//! (`plugin/pkg/admission/storage/storageobjectinuseprotection`): claims and volumes get the
//! finalizer that keeps them while in use.

use serde_json::Value;

use super::Cluster;

const DEFAULT_ANNOTATIONS: [&str; 2] = [
    "storageclass.kubernetes.io/is-default-class",
    "storageclass.beta.kubernetes.io/is-default-class",
];

pub(super) fn default_class(pvc: &mut Value, cluster: &dyn Cluster) {
    let named = pvc
        .pointer("/spec/storageClassName")
        .is_some_and(|n| !n.is_null());
    if named {
        return;
    }
    let classes = cluster.list("storage.k8s.io/storageclasses", "");
    let Some(name) = newest_default(&classes, &DEFAULT_ANNOTATIONS) else {
        return;
    };
    if let Some(spec) = pvc.get_mut("spec").and_then(Value::as_object_mut) {
        spec.insert("storageClassName".into(), name.into());
    }
}

/// The name of the newest class marked default by one of `annotations` (`"true"`), the
/// name deciding between equals, as the plugins pick.
pub(super) fn newest_default(classes: &[Value], annotations: &[&str]) -> Option<String> {
    classes
        .iter()
        .filter(|c| {
            annotations.iter().any(|a| {
                c.pointer("/metadata/annotations")
                    .and_then(|m| m.get(*a))
                    .and_then(Value::as_str)
                    == Some("true")
            })
        })
        .map(|c| {
            let text = |p: &str| c.pointer(p).and_then(Value::as_str).unwrap_or("");
            (text("/metadata/creationTimestamp"), text("/metadata/name"))
        })
        .max_by(|a, b| a.0.cmp(b.0).then_with(|| b.1.cmp(a.1)))
        .map(|(_, name)| name.to_owned())
}

pub(super) fn protect(obj: &mut Value, finalizer: &str) {
    let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    let list = meta
        .entry("finalizers")
        .or_insert_with(|| Value::Array(Vec::new()));
    if !list.is_array() {
        *list = Value::Array(Vec::new());
    }
    if let Some(list) = list.as_array_mut()
        && !list.iter().any(|f| f.as_str() == Some(finalizer))
    {
        list.push(finalizer.into());
    }
}
