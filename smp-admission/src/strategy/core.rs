//! What the core group's PersistentVolume and Node strategies do to an object being created.
//!
//! A PersistentVolume's status is the controllers' to write, so whatever was sent is replaced
//! by a new volume's, `Pending`. In v1.34 the server also stamps
//! `status.lastPhaseTransitionTime` with the time of the create
//! (PersistentVolumeLastPhaseTransitionTime is GA and its gate gone); that time is the
//! server's clock, not the object's: the test server stamps it (`smp-apiserver`'s
//! `registry::persistent_volumes`), this step does not.
//!
//! A Node keeps all it is sent, status included, but for the dynamic kubelet configuration,
//! a removed feature: `status.config` is dropped here, `spec.configSource` with the gated
//! fields (`gates`: on update it stays only when the old Node had it).

use serde_json::{Map, Value, json};

pub(super) fn prepare_persistent_volume(volume: &mut Map<String, Value>) {
    volume.insert("status".to_owned(), json!({"phase": "Pending"}));
}

pub(super) fn prepare_node(node: &mut Map<String, Value>) {
    if let Some(status) = node.get_mut("status").and_then(Value::as_object_mut) {
        status.remove("config");
    }
}

#[cfg(test)]
mod tests {
    use super::super::prepare_for_create;
    use serde_json::json;

    #[test]
    fn a_new_volume_is_pending_whatever_status_it_was_sent() {
        let mut pv = json!({"apiVersion": "v1", "kind": "PersistentVolume",
            "metadata": {"name": "pv"}, "spec": {"capacity": {"storage": "1Gi"}},
            "status": {"phase": "Bound", "message": "m", "reason": "r"}});
        prepare_for_create(&mut pv);
        assert_eq!(pv["status"], json!({"phase": "Pending"}));
        let mut bare = json!({"apiVersion": "v1", "kind": "PersistentVolume",
            "metadata": {"name": "pv"}});
        prepare_for_create(&mut bare);
        assert_eq!(bare["status"], json!({"phase": "Pending"}));
    }

    #[test]
    fn a_new_node_keeps_its_status_but_not_its_kubelet_config() {
        let mut node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"},
            "spec": {"podCIDR": "10.0.0.0/24", "configSource": {"configMap": {}}},
            "status": {"capacity": {"cpu": "1"}, "config": {"active": {}}}});
        prepare_for_create(&mut node);
        assert_eq!(node["spec"], json!({"podCIDR": "10.0.0.0/24"}));
        assert_eq!(node["status"], json!({"capacity": {"cpu": "1"}}));
    }
}
