//! The resource.k8s.io group's rows (dynamic resource allocation). Every served version
//! spells the members shown here the same way.

use serde_json::{Value, json};

use super::Row;
use super::common::{age, ago, is_set, name};
use crate::tables::duration::Now;
use crate::tables::format::{items, text};

/// A DeviceClass or ResourceClaimTemplate: only its name and age.
pub(super) fn name_and_age(object: &Value, now: Now) -> Row {
    vec![name(object), age(object, now)].into()
}

/// A ResourceClaim: whether it is being deleted, allocated, and reserved for a consumer.
pub(super) fn resource_claim(object: &Value, now: Now) -> Row {
    let deleted = is_set(object, "/metadata/deletionTimestamp");
    let mut state = Vec::new();
    if deleted {
        state.push("deleted");
    }
    if is_set(object, "/status/allocation") {
        state.push("allocated");
        if !items(object, "/status/reservedFor").is_empty() {
            state.push("reserved");
        }
    } else if !deleted {
        state.push("pending");
    }
    vec![name(object), json!(state.join(",")), age(object, now)].into()
}

/// A ResourceSlice: the node, driver and pool whose devices it lists.
pub(super) fn resource_slice(object: &Value, now: Now) -> Row {
    vec![
        name(object),
        json!(text(object, "/spec/nodeName")),
        json!(text(object, "/spec/driver")),
        json!(text(object, "/spec/pool/name")),
        age(object, now),
    ]
    .into()
}

/// A DeviceTaintRule: the taint it puts on devices and since when.
pub(super) fn device_taint_rule(object: &Value, now: Now) -> Row {
    let taint = |member: &str| json!(text(object, &format!("/spec/taint/{member}")));
    vec![
        name(object),
        taint("key"),
        taint("value"),
        taint("effect"),
        json!(ago(now, object.pointer("/spec/taint/timeAdded")).unwrap_or_default()),
        age(object, now),
    ]
    .into()
}

#[cfg(test)]
mod tests {
    use super::super::common::tests::now;
    use super::*;

    #[test]
    fn device_classes_and_templates() {
        let class = json!({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass",
            "metadata": {"name": "gpu.example.com", "creationTimestamp": "2026-11-28T11:00:00Z"}});
        assert_eq!(
            name_and_age(&class, now()).cells,
            vec![json!("gpu.example.com"), json!("60m")]
        );
    }

    #[test]
    fn resource_claims() {
        let claim = |deleting: bool, status: Value| {
            let mut c = json!({"metadata": {"name": "gpu-claim", "creationTimestamp": "2026-11-28T11:00:00Z"},
                "spec": {"devices": {"requests": [{"name": "gpu"}]}}, "status": status});
            if deleting {
                c["metadata"]["deletionTimestamp"] = json!("2026-11-28T11:59:00Z");
            }
            resource_claim(&c, now()).cells
        };
        let allocated = json!({"allocation": {"devices": {"results": []}}});
        let reserved = json!({"allocation": {}, "reservedFor": [{"resource": "pods", "name": "p", "uid": "1"}]});
        assert_eq!(
            claim(false, json!({})),
            vec![json!("gpu-claim"), json!("pending"), json!("60m")]
        );
        assert_eq!(claim(false, allocated.clone())[1], json!("allocated"));
        assert_eq!(
            claim(false, reserved.clone())[1],
            json!("allocated,reserved")
        );
        assert_eq!(claim(true, json!({}))[1], json!("deleted"));
        assert_eq!(claim(true, allocated)[1], json!("deleted,allocated"));
        assert_eq!(
            claim(true, reserved)[1],
            json!("deleted,allocated,reserved")
        );
    }

    #[test]
    fn resource_slices() {
        let slice = json!({"metadata": {"name": "node-a-gpu.example.com-x2"},
            "spec": {"nodeName": "node-a", "driver": "gpu.example.com",
                "pool": {"name": "node-a", "generation": 1, "resourceSliceCount": 1}, "devices": []}});
        assert_eq!(
            resource_slice(&slice, now()).cells,
            vec![
                json!("node-a-gpu.example.com-x2"),
                json!("node-a"),
                json!("gpu.example.com"),
                json!("node-a"),
                json!("<unknown>")
            ]
        );
        assert_eq!(
            resource_slice(&json!({"spec": {"allNodes": true}}), now()).cells[1],
            json!("")
        );
    }

    #[test]
    fn device_taint_rules() {
        let rule = json!({"metadata": {"name": "maintenance", "creationTimestamp": "2026-11-28T11:00:00Z"},
            "spec": {"deviceSelector": {"driver": "gpu.example.com"},
                "taint": {"key": "example.com/maintenance", "value": "planned", "effect": "NoExecute",
                    "timeAdded": "2026-11-28T11:30:00Z"}}});
        assert_eq!(
            device_taint_rule(&rule, now()).cells,
            vec![
                json!("maintenance"),
                json!("example.com/maintenance"),
                json!("planned"),
                json!("NoExecute"),
                json!("30m"),
                json!("60m")
            ]
        );
        assert_eq!(
            device_taint_rule(&json!({}), now()).cells[1..5],
            [json!(""), json!(""), json!(""), json!("")]
        );
    }
}
