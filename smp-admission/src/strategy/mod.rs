//! What the registry strategies do to an object being created, after decoding and before
//! validation (`PrepareForCreate` of `pkg/registry/<group>/<resource>/strategy.go`): a
//! separate step from the scheme's defaults, which a caller may leave out.
//!
//! Covered so far: a Pod's status (`Pending`, its QoS class, the scheduling-gated condition).
//! Not yet: allocations that need the cluster's state (a Service's `clusterIP` and node
//! ports), a Job's generated selector.

mod pod;

use serde_json::Value;

/// Prepares `object` for its creation as its kind's strategy does. Objects of other kinds,
/// or not objects, are left as they are.
pub fn prepare_for_create(object: &mut Value) {
    let Value::Object(map) = object else {
        return;
    };
    let api_version = map.get("apiVersion").and_then(Value::as_str);
    let kind = map.get("kind").and_then(Value::as_str);
    if let (Some("v1"), Some("Pod")) = (api_version, kind) {
        pod::prepare_for_create(map);
    }
}

pub use pod::qos_class;
