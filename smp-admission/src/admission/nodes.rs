//! TaintNodesByCondition (`plugin/pkg/admission/nodetaint`): a new Node is tainted
//! `node.kubernetes.io/not-ready:NoSchedule` until its kubelet reports it ready.

use serde_json::{Value, json};

const NOT_READY: &str = "node.kubernetes.io/not-ready";

pub(super) fn taint_not_ready(node: &mut Value) {
    let Some(root) = node.as_object_mut() else {
        return;
    };
    let spec = root
        .entry("spec")
        .or_insert_with(|| Value::Object(serde_json::Map::new()));
    let Some(spec) = spec.as_object_mut() else {
        return;
    };
    let taints = spec
        .entry("taints")
        .or_insert_with(|| Value::Array(Vec::new()));
    if !taints.is_array() {
        *taints = Value::Array(Vec::new());
    }
    let Some(taints) = taints.as_array_mut() else {
        return;
    };
    let tainted = taints.iter().any(|t| {
        t.get("key").and_then(Value::as_str) == Some(NOT_READY)
            && t.get("effect").and_then(Value::as_str) == Some("NoSchedule")
    });
    if !tainted {
        taints.push(json!({"key": NOT_READY, "effect": "NoSchedule"}));
    }
}
