//! Fields of features whose gates are off in v1.34, as the registry strategies treat them:
//! dropped from an object being created, and from an update unless the old object already
//! used them (`DropDisabledPodFields` / `DropDisabledTemplateFields` of `pkg/api/pod`, and
//! each kind's own `dropDisabledFields`). The server stores the object without them, so a
//! client reading it back finds them gone.
//!
//! Covered: the container fields of `ContainerRestartRules`, `ContainerStopSignals` and
//! `EnvFiles`, in a Pod and in the pod template of every kind that holds one; a Lease's
//! `strategy` and `preferredHolder` (`CoordinatedLeaderElection`); a CSIDriver's
//! `nodeAllocatableUpdatePeriodSeconds` (`MutableCSINodeAllocatableCount`); a Node's
//! `spec.configSource` (the removed dynamic kubelet configuration); the DRA gates' members of
//! the `resource.k8s.io` kinds (`super::resource`).

use serde_json::Value;

use crate::validation::drop_disabled_container_fields;

/// Where a kind keeps its pod spec, as the names to walk from the object.
fn pod_spec_path(api_version: &str, kind: &str) -> Option<&'static [&'static str]> {
    Some(match (api_version, kind) {
        ("v1", "Pod") => &["spec"],
        ("v1", "PodTemplate") => &["template", "spec"],
        ("v1", "ReplicationController")
        | ("apps/v1", "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet")
        | ("batch/v1", "Job") => &["spec", "template", "spec"],
        ("batch/v1", "CronJob") => &["spec", "jobTemplate", "spec", "template", "spec"],
        _ => return None,
    })
}

fn at<'a>(value: &'a Value, names: &[&str]) -> Option<&'a Value> {
    names.iter().try_fold(value, |v, n| v.get(*n))
}

fn at_mut<'a>(value: &'a mut Value, names: &[&str]) -> Option<&'a mut Value> {
    names.iter().try_fold(value, |v, n| v.get_mut(*n))
}

/// Members of `spec` dropped unless the old spec has them (set and not null).
fn drop_members_unless_old_has(new: &mut Value, old: Option<&Value>, members: &[&str]) {
    let old_spec = old.and_then(|o| o.get("spec"));
    let Some(spec) = new.get_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    for member in members {
        let in_use = old_spec
            .and_then(|s| s.get(*member))
            .is_some_and(|v| !v.is_null());
        if !in_use {
            spec.remove(*member);
        }
    }
}

/// Drops the disabled fields of `new`, created (`old` is `None`) or replacing `old`.
pub(super) fn drop_disabled_fields(new: &mut Value, old: Option<&Value>) {
    let api_version = new.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let kind = new.get("kind").and_then(Value::as_str).unwrap_or("");
    match (api_version, kind) {
        ("coordination.k8s.io/v1", "Lease") => {
            drop_members_unless_old_has(new, old, &["strategy", "preferredHolder"]);
        }
        ("storage.k8s.io/v1", "CSIDriver") => {
            drop_members_unless_old_has(new, old, &["nodeAllocatableUpdatePeriodSeconds"]);
        }
        ("v1", "Node") => {
            // The dynamic kubelet configuration is gone: no Node gains a source.
            drop_members_unless_old_has(new, old, &["configSource"]);
        }
        ("resource.k8s.io/v1" | "resource.k8s.io/v1beta2", kind) => {
            let kind = kind.to_owned();
            super::resource::drop_disabled_fields(new, old, &kind);
        }
        _ => {
            if let Some(path) = pod_spec_path(api_version, kind) {
                let old_spec = old.and_then(|o| at(o, path));
                if let Some(spec) = at_mut(new, path) {
                    drop_disabled_container_fields(spec, old_spec);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn deployment(container: Value) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"template": {"spec": {
            "containers": [container]}}}})
    }

    #[test]
    fn a_templates_gated_container_fields_go_unless_the_old_object_had_them() {
        let gated = json!({"name": "c", "restartPolicy": "Always",
            "lifecycle": {"stopSignal": "SIGTERM"}});
        let mut created = deployment(gated.clone());
        drop_disabled_fields(&mut created, None);
        assert_eq!(created, deployment(json!({"name": "c"})));

        let old = deployment(gated.clone());
        let mut updated = deployment(gated.clone());
        drop_disabled_fields(&mut updated, Some(&old));
        assert_eq!(updated, deployment(gated));
    }

    #[test]
    fn a_leases_gated_members_stay_only_when_they_were_there() {
        let lease = |spec: Value| {
            json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
            "spec": spec})
        };
        let mut created =
            lease(json!({"holderIdentity": "a", "strategy": "OldestEmulationVersion"}));
        drop_disabled_fields(&mut created, None);
        assert_eq!(created, lease(json!({"holderIdentity": "a"})));
        let old = lease(json!({"preferredHolder": "b"}));
        let mut updated =
            lease(json!({"preferredHolder": "c", "strategy": "OldestEmulationVersion"}));
        drop_disabled_fields(&mut updated, Some(&old));
        assert_eq!(updated, lease(json!({"preferredHolder": "c"})));
    }
}
