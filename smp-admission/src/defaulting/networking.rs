//! networking.k8s.io/v1's defaults (`pkg/apis/networking/v1/defaults.go`). Ingress,
//! IPAddress and ServiceCIDR have none.

use serde_json::{Value, json};

use crate::value::{Object, child, child_or_new, default_nil, is_empty_collection, items};

/// A NetworkPolicy: `Ingress` (and `Egress` when it has egress rules) unless it names its
/// policy types; every port's protocol.
pub(super) fn network_policy(policy: &mut Object) {
    let Some(spec) = child_or_new(policy, "spec") else {
        return;
    };
    if is_empty_collection(spec, "policyTypes") {
        let mut types = vec![json!("Ingress")];
        if spec
            .get("egress")
            .and_then(Value::as_array)
            .is_some_and(|e| !e.is_empty())
        {
            types.push(json!("Egress"));
        }
        spec.insert("policyTypes".into(), Value::Array(types));
    }
    for direction in ["ingress", "egress"] {
        for rule in items(spec, direction) {
            for port in items(rule, "ports") {
                default_nil(port, "protocol", json!("TCP"));
            }
        }
    }
}

/// An IngressClass: parameters are cluster-scoped unless they say otherwise.
pub(super) fn ingress_class(class: &mut Object) {
    if let Some(parameters) = child(class, "spec").and_then(|s| child(s, "parameters")) {
        default_nil(parameters, "scope", json!("Cluster"));
    }
}
