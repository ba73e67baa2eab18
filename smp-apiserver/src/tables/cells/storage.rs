//! The storage.k8s.io group's rows: classes, attachments and CSI drivers and nodes.

use serde_json::{Value, json};

use super::Row;
use super::common::{age, annotation, name};
use super::quantity;
use crate::tables::duration::Now;
use crate::tables::format::{each, flag, items, or_none, text};

/// A StorageClass: its provisioner and the policies it gives volumes; the default class is
/// marked in its name.
pub(super) fn storage_class(object: &Value, now: Now) -> Row {
    let default = [
        "storageclass.kubernetes.io/is-default-class",
        "storageclass.beta.kubernetes.io/is-default-class",
    ]
    .iter()
    .any(|key| annotation(object, key) == Some("true"));
    let mut shown = text(object, "/metadata/name").to_owned();
    if default {
        shown.push_str(" (default)");
    }
    let or = |member: &str, default: &'static str| {
        json!(match text(object, member) {
            "" => default,
            value => value,
        })
    };
    vec![
        json!(shown),
        json!(text(object, "/provisioner")),
        or("/reclaimPolicy", "Delete"),
        or("/volumeBindingMode", "Immediate"),
        json!(flag(object, "/allowVolumeExpansion")),
        age(object, now),
    ]
    .into()
}

/// A VolumeAttributesClass: the driver its attributes are for.
pub(super) fn volume_attributes_class(object: &Value, now: Now) -> Row {
    vec![
        name(object),
        json!(text(object, "/driverName")),
        age(object, now),
    ]
    .into()
}

/// A VolumeAttachment: which attacher puts which volume on which node, and whether it has.
pub(super) fn volume_attachment(object: &Value, now: Now) -> Row {
    vec![
        name(object),
        json!(text(object, "/spec/attacher")),
        json!(text(object, "/spec/source/persistentVolumeName")),
        json!(text(object, "/spec/nodeName")),
        json!(flag(object, "/status/attached")),
        age(object, now),
    ]
    .into()
}

/// A CSINode: how many drivers run on the node.
pub(super) fn csi_node(object: &Value, now: Now) -> Row {
    vec![
        name(object),
        json!(items(object, "/spec/drivers").len()),
        age(object, now),
    ]
    .into()
}

/// A CSIDriver: what the driver needs from and offers to Kubernetes.
pub(super) fn csi_driver(object: &Value, now: Now) -> Row {
    let attach_required = object
        .pointer("/spec/attachRequired")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    let token_requests = match object.pointer("/spec/tokenRequests") {
        None | Some(Value::Null) => "<unset>".to_owned(),
        Some(_) => each(items(object, "/spec/tokenRequests"), "audience"),
    };
    let mut modes: Vec<&str> = items(object, "/spec/volumeLifecycleModes")
        .iter()
        .map(|m| m.as_str().unwrap_or(""))
        .collect();
    // The API fills in the default mode when none is given.
    if modes.is_empty() {
        modes.push("Persistent");
    }
    vec![
        name(object),
        json!(attach_required),
        json!(flag(object, "/spec/podInfoOnMount")),
        json!(flag(object, "/spec/storageCapacity")),
        json!(token_requests),
        json!(flag(object, "/spec/requiresRepublish")),
        json!(or_none(modes.join(","))),
        age(object, now),
    ]
    .into()
}

/// A CSIStorageCapacity: how much a storage class can still provision in a topology.
pub(super) fn csi_storage_capacity(object: &Value, _now: Now) -> Row {
    let capacity = match object.get("capacity") {
        None | Some(Value::Null) => "<unset>".to_owned(),
        Some(capacity) => quantity::canonical(capacity),
    };
    vec![
        name(object),
        json!(text(object, "/storageClassName")),
        json!(capacity),
    ]
    .into()
}

#[cfg(test)]
mod tests {
    use super::super::common::tests::now;
    use super::*;

    #[test]
    fn storage_classes() {
        let sc = json!({"metadata": {"name": "standard", "creationTimestamp": "2026-11-28T11:00:00Z",
                "annotations": {"storageclass.kubernetes.io/is-default-class": "true"}},
            "provisioner": "rancher.io/local-path", "reclaimPolicy": "Retain",
            "volumeBindingMode": "WaitForFirstConsumer", "allowVolumeExpansion": true});
        assert_eq!(
            storage_class(&sc, now()).cells,
            vec![
                json!("standard (default)"),
                json!("rancher.io/local-path"),
                json!("Retain"),
                json!("WaitForFirstConsumer"),
                json!(true),
                json!("60m")
            ]
        );
        let plain = json!({"metadata": {"name": "fast",
            "annotations": {"storageclass.beta.kubernetes.io/is-default-class": "True"}}, "provisioner": "x"});
        assert_eq!(
            storage_class(&plain, now()).cells[..5],
            [
                json!("fast"),
                json!("x"),
                json!("Delete"),
                json!("Immediate"),
                json!(false)
            ]
        );
        let beta = json!({"metadata": {"name": "old",
            "annotations": {"storageclass.beta.kubernetes.io/is-default-class": "true"}}});
        assert_eq!(storage_class(&beta, now()).cells[0], json!("old (default)"));
    }

    #[test]
    fn volume_attributes_classes_and_attachments() {
        let vac = json!({"metadata": {"name": "gold"}, "driverName": "pd.csi.storage.gke.io",
            "parameters": {"iops": "3000"}});
        assert_eq!(
            volume_attributes_class(&vac, now()).cells,
            vec![
                json!("gold"),
                json!("pd.csi.storage.gke.io"),
                json!("<unknown>")
            ]
        );
        let va = json!({"metadata": {"name": "csi-123", "creationTimestamp": "2026-11-28T11:59:00Z"},
            "spec": {"attacher": "ebs.csi.aws.com", "nodeName": "node-a", "source": {"persistentVolumeName": "pv-1"}},
            "status": {"attached": true}});
        assert_eq!(
            volume_attachment(&va, now()).cells,
            vec![
                json!("csi-123"),
                json!("ebs.csi.aws.com"),
                json!("pv-1"),
                json!("node-a"),
                json!(true),
                json!("60s")
            ]
        );
        let inline = json!({"spec": {"source": {"inlineVolumeSpec": {}}}});
        assert_eq!(
            volume_attachment(&inline, now()).cells[2..5],
            [json!(""), json!(""), json!(false)]
        );
    }

    #[test]
    fn csi_nodes_drivers_and_capacities() {
        let node = json!({"metadata": {"name": "node-a"}, "spec": {"drivers": [{"name": "a"}, {"name": "b"}]}});
        assert_eq!(
            csi_node(&node, now()).cells,
            vec![json!("node-a"), json!(2), json!("<unknown>")]
        );
        let driver = json!({"metadata": {"name": "secrets-store.csi.k8s.io"},
            "spec": {"attachRequired": false, "podInfoOnMount": true, "tokenRequests": [{"audience": "vault"},
                {"audience": "aws"}], "volumeLifecycleModes": ["Ephemeral", "Persistent"]}});
        assert_eq!(
            csi_driver(&driver, now()).cells,
            vec![
                json!("secrets-store.csi.k8s.io"),
                json!(false),
                json!(true),
                json!(false),
                json!("vault,aws"),
                json!(false),
                json!("Ephemeral,Persistent"),
                json!("<unknown>")
            ]
        );
        let bare = csi_driver(&json!({"spec": {"tokenRequests": []}}), now()).cells;
        assert_eq!(
            bare[1..7],
            [
                json!(true),
                json!(false),
                json!(false),
                json!(""),
                json!(false),
                json!("Persistent")
            ]
        );
        assert_eq!(csi_driver(&json!({}), now()).cells[4], json!("<unset>"));
        let capacity = json!({"metadata": {"name": "csisc-1"}, "storageClassName": "standard", "capacity": "102400Mi"});
        assert_eq!(
            csi_storage_capacity(&capacity, now()).cells,
            vec![json!("csisc-1"), json!("standard"), json!("100Gi")]
        );
        assert_eq!(
            csi_storage_capacity(&json!({}), now()).cells[2],
            json!("<unset>")
        );
    }
}
