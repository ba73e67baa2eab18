//! What the status strategies do to a status write beyond putting back the fields their
//! endpoint resets (the spec, and for some kinds parts of the metadata: the caller does that
//! from the reset-field table): status fields of gates off in v1.34 are dropped unless the old
//! object already used them (or always, for a Pod's device health), and a Pod keeps the QoS class the server gave it.

use serde_json::{Map, Value};

/// Prepares `new`, a write to the status endpoint over `old`, as its kind's status strategy
/// does (`PrepareForUpdate` of `pkg/registry/<group>/<resource>/strategy.go`).
pub fn prepare_for_status_update(new: &mut Value, old: &Value) {
    let api_version = new.get("apiVersion").and_then(Value::as_str);
    let kind = new.get("kind").and_then(Value::as_str);
    match (api_version, kind) {
        (Some("v1"), Some("Pod")) => pod(new, old),
        (Some("resource.k8s.io/v1" | "resource.k8s.io/v1beta2"), Some("ResourceClaim")) => {
            super::resource::prepare_status(new, old);
        }
        (Some("apps/v1"), Some("Deployment" | "ReplicaSet")) => {
            // `DeploymentReplicaSetTerminatingReplicas` is off in v1.34.
            drop_unless_old_has(new, old, "terminatingReplicas");
        }
        _ => {}
    }
}

fn status_mut(obj: &mut Value) -> Option<&mut Map<String, Value>> {
    obj.get_mut("status").and_then(Value::as_object_mut)
}

fn status_has(obj: &Value, key: &str) -> bool {
    obj.get("status")
        .and_then(|s| s.get(key))
        .is_some_and(|v| !v.is_null())
}

fn drop_unless_old_has(new: &mut Value, old: &Value, key: &str) {
    if status_has(old, key) {
        return;
    }
    if let Some(status) = status_mut(new) {
        status.remove(key);
    }
}

/// The container status lists, each of whose entries may report its devices' health.
const CONTAINER_LISTS: [&str; 3] = [
    "containerStatuses",
    "initContainerStatuses",
    "ephemeralContainerStatuses",
];

/// The pods status strategy: the QoS class is the one the server computed on create (an old
/// kubelet that dropped it does not clear it); `extendedResourceClaimStatus`
/// (`DRAExtendedResource`, off in v1.34) is dropped unless the old pod had it; the
/// containers' `allocatedResourcesStatus` (`ResourceHealthStatus`, off) is always dropped, as
/// the server drops it whatever the old pod held.
fn pod(new: &mut Value, old: &Value) {
    let old_qos = old
        .get("status")
        .and_then(|s| s.get("qosClass"))
        .and_then(Value::as_str)
        .filter(|q| !q.is_empty());
    drop_unless_old_has(new, old, "extendedResourceClaimStatus");
    let Some(status) = status_mut(new) else {
        return;
    };
    let qos_missing = status
        .get("qosClass")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty);
    if let (true, Some(qos)) = (qos_missing, old_qos) {
        status.insert("qosClass".to_owned(), Value::from(qos));
    }
    for list in CONTAINER_LISTS {
        if let Some(entries) = status.get_mut(list).and_then(Value::as_array_mut) {
            for entry in entries.iter_mut().filter_map(Value::as_object_mut) {
                entry.remove("allocatedResourcesStatus");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_pod_keeps_its_qos_class_and_loses_gated_status_fields() {
        let old = json!({"apiVersion": "v1", "kind": "Pod",
            "status": {"qosClass": "Burstable"}});
        let mut new = json!({"apiVersion": "v1", "kind": "Pod", "status": {
            "extendedResourceClaimStatus": {"resourceClaimName": "x"},
            "containerStatuses": [{"name": "c", "allocatedResourcesStatus": [{"name": "cpu"}]}]}});
        prepare_for_status_update(&mut new, &old);
        assert_eq!(
            new["status"],
            json!({"qosClass": "Burstable", "containerStatuses": [{"name": "c"}]})
        );
    }

    #[test]
    fn device_health_is_dropped_even_when_the_old_pod_reported_it() {
        let old = json!({"apiVersion": "v1", "kind": "Pod", "status": {
            "ephemeralContainerStatuses": [{"name": "d", "allocatedResourcesStatus": [{"name": "cpu"}]}]}});
        let mut new = old.clone();
        prepare_for_status_update(&mut new, &old);
        assert_eq!(
            new["status"],
            json!({"ephemeralContainerStatuses": [{"name": "d"}]})
        );
    }

    #[test]
    fn gated_fields_the_old_object_used_stay() {
        let old = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "status": {"terminatingReplicas": 1}});
        let mut new = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "status": {"terminatingReplicas": 2}});
        prepare_for_status_update(&mut new, &old);
        assert_eq!(new["status"]["terminatingReplicas"], 2);
        let mut fresh = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "status": {"terminatingReplicas": 2}});
        prepare_for_status_update(&mut fresh, &json!({}));
        assert_eq!(fresh["status"], json!({}));
    }
}
