//! What kube-apiserver creates when it starts (its post-start hooks, kubernetes/kubernetes
//! `pkg/controlplane`), created the same way here when a server is made: the system
//! namespaces; the `default/kubernetes` Service, with its Endpoints and EndpointSlice (the
//! server's own address), the service CIDR and the Service's IP address; the system
//! PriorityClasses; and the RBAC bootstrap policy (`rbac.json`: `cluster-admin`, `admin`,
//! `edit`, `view`, the `system:` roles and their bindings). Each is written by the field
//! manager `kube-apiserver`. The controllers then give every namespace its `default`
//! ServiceAccount and `kube-root-ca.crt` ConfigMap, and aggregate `admin`, `edit` and `view`.
//!
//! The cluster's numbers are those of a kind or kubeadm cluster: services in `10.96.0.0/12`,
//! the `kubernetes` Service at `10.96.0.1:443`, the server advertised at `172.18.0.2:6443` (a
//! kind node's address: a loopback one would make the `kubernetes` Endpoints and
//! EndpointSlice invalid, as upstream validation refuses loopback endpoints).

use serde_json::{Value, json};

use crate::state::State;

/// The user agent of the server's own requests (field manager `kube-apiserver`).
pub(crate) const API_SERVER: &str = "kube-apiserver/v1.34.0 (linux/amd64) kubernetes/smp";

/// The namespaces that exist from the start.
pub(crate) const SYSTEM_NAMESPACES: [&str; 4] =
    ["default", "kube-system", "kube-public", "kube-node-lease"];

/// The service CIDR, and the `kubernetes` Service's address in it (its first).
const SERVICE_CIDR: &str = "10.96.0.0/12";
const SERVICE_IP: &str = "10.96.0.1";
/// Where the `kubernetes` Service's endpoints say the server is: the first node address of
/// kind's docker network (endpoints may not be loopback addresses).
const ADVERTISE_ADDRESS: &str = "172.18.0.2";
const SECURE_PORT: u16 = 6443;

/// Creates the objects a new cluster has.
pub(crate) fn boot(state: &State) {
    for name in SYSTEM_NAMESPACES {
        create(
            state,
            &json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}),
        );
    }
    for object in kubernetes_service() {
        create(state, &object);
    }
    for object in priority_classes() {
        create(state, &object);
    }
    let policy: Value = serde_json::from_str(include_str!("rbac.json")).unwrap_or_default();
    for list in [
        "clusterRoles",
        "clusterRoleBindings",
        "roles",
        "roleBindings",
    ] {
        for object in policy[list].as_array().into_iter().flatten() {
            create(state, object);
        }
    }
}

/// Creates `object` as the server does at start (an object there already stays).
fn create(state: &State, object: &Value) {
    let text = |k: &str| object.get(k).and_then(Value::as_str).unwrap_or("");
    let served = state.served();
    let Some(resource) = served.resources.of_kind(text("apiVersion"), text("kind")) else {
        return;
    };
    let namespace = object
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("");
    let body = object.to_string();
    // A server's first objects: nothing can refuse them.
    let _ = state.internal(crate::state::Internal {
        verb: "create",
        api_version: text("apiVersion"),
        plural: resource.plural(),
        namespace,
        name: "",
        content_type: "application/json",
        body: body.as_bytes(),
        user_agent: API_SERVER,
        query: &[],
    });
}

/// The `kubernetes` Service of the `default` namespace and what goes with it.
fn kubernetes_service() -> [Value; 5] {
    let https = |port: u16| json!([{"name": "https", "port": port, "protocol": "TCP"}]);
    [
        json!({"apiVersion": "networking.k8s.io/v1", "kind": "ServiceCIDR",
            "metadata": {"name": "kubernetes"}, "spec": {"cidrs": [SERVICE_CIDR]}}),
        json!({"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": "kubernetes", "namespace": "default",
                "labels": {"component": "apiserver", "provider": "kubernetes"}},
            "spec": {"clusterIP": SERVICE_IP, "clusterIPs": [SERVICE_IP],
                "internalTrafficPolicy": "Cluster", "ipFamilies": ["IPv4"],
                "ipFamilyPolicy": "SingleStack",
                "ports": [{"name": "https", "port": 443, "protocol": "TCP", "targetPort": SECURE_PORT}],
                "sessionAffinity": "None", "type": "ClusterIP"},
            "status": {"loadBalancer": {}}}),
        json!({"apiVersion": "networking.k8s.io/v1", "kind": "IPAddress",
            "metadata": {"name": SERVICE_IP, "labels": {
                "ipaddress.kubernetes.io/ip-family": "IPv4",
                "ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io"}},
            "spec": {"parentRef": {"resource": "services", "namespace": "default", "name": "kubernetes"}}}),
        json!({"apiVersion": "v1", "kind": "Endpoints",
            "metadata": {"name": "kubernetes", "namespace": "default",
                "labels": {"endpointslice.kubernetes.io/skip-mirror": "true"}},
            "subsets": [{"addresses": [{"ip": ADVERTISE_ADDRESS}], "ports": https(SECURE_PORT)}]}),
        json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
            "metadata": {"name": "kubernetes", "namespace": "default",
                "labels": {"kubernetes.io/service-name": "kubernetes"}},
            "addressType": "IPv4",
            "endpoints": [{"addresses": [ADVERTISE_ADDRESS], "conditions": {"ready": true}}],
            "ports": https(SECURE_PORT)}),
    ]
}

/// The PriorityClasses of system pods (`pkg/apis/scheduling`).
fn priority_classes() -> [Value; 2] {
    let class = |name: &str, value: u64, description: &str| {
        json!({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
            "metadata": {"name": name}, "value": value, "description": description,
            "preemptionPolicy": "PreemptLowerPriority"})
    };
    [
        class(
            "system-cluster-critical",
            2_000_000_000,
            "Used for system critical pods that must run in the cluster, but can be moved to \
             another node if necessary.",
        ),
        class(
            "system-node-critical",
            2_000_001_000,
            "Used for system critical pods that must not be moved from their current node.",
        ),
    ]
}
