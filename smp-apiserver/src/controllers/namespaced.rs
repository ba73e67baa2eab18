//! The service account controller and the root CA publisher of kube-controller-manager
//! (`pkg/controller/serviceaccount`, `pkg/controller/certificates/rootcacertpublisher`): every
//! namespace that is not being deleted has a `default` ServiceAccount and a `kube-root-ca.crt`
//! ConfigMap holding the cluster's CA. Deleted, they come back; the ConfigMap changed, it is
//! put back.

use std::sync::Arc;

use serde_json::{Value, json};

use super::CONTROLLER_MANAGER;

use crate::object::meta;
use crate::state::State;
use crate::store::{Event, EventType, ObjectKey};

/// The ConfigMap's name and what it says of itself.
const ROOT_CA: &str = "kube-root-ca.crt";
const DESCRIPTION: &str = "Contains a CA bundle that can be used to verify the kube-apiserver \
    when using internal endpoints such as the internal service IP or kubernetes.default.svc. \
    No other usage is guaranteed across distributions of Kubernetes clusters.";

/// Acts on one round of writes.
pub(crate) fn round(state: &State, changes: &[Arc<Event>]) {
    for event in changes {
        let key = &event.key;
        match (key.resource.as_str(), key.name.as_str(), event.kind) {
            ("/namespaces", name, EventType::Added) => ensure(state, name),
            ("/serviceaccounts", "default", EventType::Deleted) => ensure(state, &key.namespace),
            ("/configmaps", ROOT_CA, EventType::Deleted) => ensure(state, &key.namespace),
            ("/configmaps", ROOT_CA, EventType::Modified) => restore(state, &event.object),
            _ => {}
        }
    }
}

/// The root CA ConfigMap of `namespace`, as the publisher writes it.
fn root_ca(state: &State, namespace: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": ROOT_CA, "namespace": namespace,
            "annotations": {"kubernetes.io/description": DESCRIPTION}},
        "data": {"ca.crt": state.identity.ca_pem}})
}

/// Creates what `namespace` lacks, unless it is gone or being deleted.
fn ensure(state: &State, namespace: &str) {
    let key = |resource: &str, name: &str| ObjectKey {
        resource: resource.into(),
        namespace: if resource == "/namespaces" {
            String::new()
        } else {
            namespace.to_owned()
        },
        name: name.into(),
    };
    let open = state
        .store
        .get(&key("/namespaces", namespace))
        .is_some_and(|n| meta(&n.object, "deletionTimestamp").is_empty());
    if !open {
        return;
    }
    if state
        .store
        .get(&key("/serviceaccounts", "default"))
        .is_none()
    {
        let account = json!({"apiVersion": "v1", "kind": "ServiceAccount",
            "metadata": {"name": "default", "namespace": namespace}});
        write(state, "create", "serviceaccounts", namespace, "", &account);
    }
    if state.store.get(&key("/configmaps", ROOT_CA)).is_none() {
        write(
            state,
            "create",
            "configmaps",
            namespace,
            "",
            &root_ca(state, namespace),
        );
    }
}

/// Puts the ConfigMap back as the publisher wants it, if it was changed.
fn restore(state: &State, current: &Value) {
    let namespace = meta(current, "namespace");
    let wanted = root_ca(state, namespace);
    let described = current.pointer("/metadata/annotations/kubernetes.io~1description");
    if current.get("data") == wanted.get("data") && described == Some(&json!(DESCRIPTION)) {
        return;
    }
    let mut fixed = current.clone();
    fixed["data"] = wanted["data"].clone();
    fixed["metadata"]["annotations"]["kubernetes.io/description"] = json!(DESCRIPTION);
    write(state, "update", "configmaps", namespace, ROOT_CA, &fixed);
}

fn write(
    state: &State,
    verb: &'static str,
    plural: &str,
    namespace: &str,
    name: &str,
    body: &Value,
) {
    let body = body.to_string();
    // Refused (the namespace went meanwhile, another writer won): the next round settles it.
    let _ = state.internal(crate::state::Internal {
        verb,
        api_version: "v1",
        plural,
        namespace,
        name,
        content_type: "application/json",
        body: body.as_bytes(),
        user_agent: CONTROLLER_MANAGER,
        query: &[],
    });
}
