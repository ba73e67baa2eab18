//! The warnings kube-apiserver v1.34 sends with a create or an update of a built-in object
//! (`Warning: 299 - "…"` headers, which kubectl prints as `Warning: …`): the registry
//! strategies' `WarningsOnCreate` / `WarningsOnUpdate`, with what the server adds around
//! them for every kind (duplicate owner references) or for a deprecated API (v1 Endpoints).
//!
//! ```
//! use serde_json::json;
//!
//! let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"},
//!     "spec": {"nodeSelector": {"beta.kubernetes.io/arch": "amd64"},
//!         "containers": [{"name": "app", "image": "nginx"}]}});
//! assert_eq!(smp_admission::warnings::warnings_on_create(&pod), [
//!     r#"spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead"#,
//! ]);
//! ```
//!
//! Covered: Pod (create; its updates warn about nothing), PodTemplate, ReplicationController,
//! Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob (the pod template checks of
//! `pkg/api/pod/warnings.go`, the PVC spec checks for ephemeral volumes and claim
//! templates), Service, Endpoints, EndpointSlice, NetworkPolicy, Ingress (create), Node,
//! PersistentVolume, PersistentVolumeClaim, StorageClass, CSIStorageCapacity, RuntimeClass,
//! Secret (a TLS Secret whose certificate has no PEM data).
//!
//! The object is read as the server holds it when it warns: decoded with the scheme's
//! defaults (a headless Service's `sessionAffinity`, a container port's `protocol`). One
//! exception: a Pod's legacy AppArmor annotations are read before the Pod strategy copies
//! them into fields (this crate's strategy step does not copy them), since the server warns
//! while copying. Go walks maps in random order, so the warnings for a map's keys (a node
//! selector's) come in key order here and the server's may differ. The list is what the
//! server's recorder sends (its `filters/warning.go`): each text once, and past 4096 characters in all,
//! every warning cut to 256.
//!
//! Not covered: a TLS Secret's certificate and key parsed and matched, the type-checking of
//! admission policies. The PodSecurity plugin's warnings are its own
//! ([`crate::admission::pod_security`]), since they depend on the namespace.

mod containers;
mod ip;
mod network;
mod node;
mod node_labels;
mod pod;
mod secret;
mod sink;
mod storage;
mod volumes;
mod workloads;

use std::collections::HashSet;

use serde_json::Value;

use sink::Sink;

/// The warnings of creating `obj` (as the server holds it after defaulting and the strategy).
pub fn warnings_on_create(obj: &serde_json::Value) -> Vec<String> {
    let mut out = Sink::default();
    framework(obj, &mut out);
    by_kind(obj, None, &mut out);
    out.into_sent()
}

/// The warnings of replacing `old` with `new` through the main endpoint.
pub fn warnings_on_update(new: &serde_json::Value, old: &serde_json::Value) -> Vec<String> {
    let mut out = Sink::default();
    framework(new, &mut out);
    by_kind(new, Some(old), &mut out);
    out.into_sent()
}

/// What the request handlers warn about before the strategy runs: a deprecated API, then
/// owner references listed twice (which the server drops).
fn framework(obj: &Value, out: &mut Sink) {
    if kind_of(obj) == ("v1", "Endpoints") {
        out.push(network::ENDPOINTS_DEPRECATED.to_owned());
    }
    let refs = obj
        .get("metadata")
        .and_then(|m| m.get("ownerReferences"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let mut seen = HashSet::new();
    let mut duplicates = Vec::new();
    for reference in refs {
        let text = |key: &str| reference.get(key).and_then(Value::as_str).unwrap_or("");
        let flag = |key: &str| reference.get(key).and_then(Value::as_bool);
        let key = (
            text("apiVersion"),
            text("kind"),
            text("name"),
            text("uid"),
            flag("controller"),
            flag("blockOwnerDeletion"),
        );
        if !seen.insert(key) {
            duplicates.push(text("uid"));
        }
    }
    if !duplicates.is_empty() {
        out.push(format!(
            ".metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: {}",
            duplicates.join(", ")
        ));
    }
}

fn kind_of(obj: &Value) -> (&str, &str) {
    let text = |key: &str| obj.get(key).and_then(Value::as_str).unwrap_or("");
    (text("apiVersion"), text("kind"))
}

/// The strategy's warnings for the object's kind (`old` set for an update).
fn by_kind(obj: &Value, old: Option<&Value>, out: &mut Sink) {
    match kind_of(obj) {
        // A Pod's updates warn about nothing.
        ("v1", "Pod") if old.is_none() => workloads::pod_create(obj, out),
        ("v1", "PodTemplate") => workloads::pod_template(obj, old, out),
        ("v1", "ReplicationController") => workloads::replication_controller(obj, old, out),
        ("apps/v1", "Deployment") => workloads::deployment(obj, old, out),
        ("apps/v1", "ReplicaSet") => workloads::replica_set(obj, old, out),
        ("apps/v1", "StatefulSet") => workloads::stateful_set(obj, old, out),
        ("apps/v1", "DaemonSet") => workloads::daemon_set(obj, old, out),
        ("batch/v1", "Job") => workloads::job(obj, old, out),
        ("batch/v1", "CronJob") => workloads::cron_job(obj, old, out),
        ("v1", "Service") => network::service(obj, out),
        ("v1", "Endpoints") => network::endpoints(obj, out),
        ("networking.k8s.io/v1", "NetworkPolicy") => network::network_policy(obj, out),
        ("networking.k8s.io/v1", "Ingress") if old.is_none() => network::ingress_create(obj, out),
        ("discovery.k8s.io/v1", "EndpointSlice") => {
            network::endpoint_slice(obj, old.is_none(), out)
        }
        ("v1", "Node") => node::node(obj, old, out),
        ("v1", "Secret") => secret::secret(obj, out),
        ("v1", "PersistentVolume") => storage::volume(obj, out),
        ("v1", "PersistentVolumeClaim") => storage::claim(obj, out),
        ("storage.k8s.io/v1", "StorageClass") => storage::storage_class(obj, out),
        ("storage.k8s.io/v1", "CSIStorageCapacity") => storage::storage_capacity(obj, out),
        ("node.k8s.io/v1", "RuntimeClass") => node_labels::runtime_class(obj, out),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Members of the wrong JSON type (which decoding would refuse) are read as absent, never
    /// a panic, for every kind covered.
    #[test]
    fn malformed_objects_do_not_panic() {
        use serde_json::json;
        let kinds = [
            ("v1", "Pod"),
            ("v1", "PodTemplate"),
            ("v1", "ReplicationController"),
            ("apps/v1", "Deployment"),
            ("apps/v1", "ReplicaSet"),
            ("apps/v1", "StatefulSet"),
            ("apps/v1", "DaemonSet"),
            ("batch/v1", "Job"),
            ("batch/v1", "CronJob"),
            ("v1", "Service"),
            ("v1", "Endpoints"),
            ("discovery.k8s.io/v1", "EndpointSlice"),
            ("networking.k8s.io/v1", "NetworkPolicy"),
            ("networking.k8s.io/v1", "Ingress"),
            ("v1", "Node"),
            ("v1", "Secret"),
            ("v1", "PersistentVolume"),
            ("v1", "PersistentVolumeClaim"),
            ("storage.k8s.io/v1", "StorageClass"),
            ("storage.k8s.io/v1", "CSIStorageCapacity"),
            ("node.k8s.io/v1", "RuntimeClass"),
        ];
        let odd = [
            json!(null),
            json!(7),
            json!("x"),
            json!([1, {}]),
            json!({"a": []}),
        ];
        for (api_version, kind) in kinds {
            for value in &odd {
                let mut obj = json!({"apiVersion": api_version, "kind": kind});
                for key in [
                    "metadata",
                    "spec",
                    "template",
                    "data",
                    "subsets",
                    "endpoints",
                ] {
                    obj[key] = value.clone();
                }
                let _ = warnings_on_create(&obj);
                let _ = warnings_on_update(&obj, &obj);
                let nested = json!({"apiVersion": api_version, "kind": kind,
                    "metadata": {"name": value, "annotations": value, "ownerReferences": [value]},
                    "spec": {"template": {"spec": {"containers": [{"ports": [value], "env": value,
                        "resources": {"limits": {"memory": value}}}], "volumes": [{"projected":
                        {"sources": [value, {"configMap": {"items": value}}]}}]}},
                        "jobTemplate": {"spec": value}, "volumeClaimTemplates": [value],
                        "clusterIPs": [value], "nodeAffinity": value, "ingress": [value]}});
                let _ = warnings_on_create(&nested);
                let _ = warnings_on_update(&nested, &obj);
            }
        }
    }
}
