//! What the registry strategies do to an object being created, after decoding and before
//! validation (`PrepareForCreate` of `pkg/registry/<group>/<resource>/strategy.go`): a
//! separate step from the scheme's defaults, which a caller may leave out.
//!
//! Covered: a Pod's status (`Pending`, its QoS class, the scheduling-gated condition) and a
//! Job's generated selector and labels (which need the uid the server gives). A Service's
//! addresses need the cluster's state and are the test server's (`smp-apiserver`).

mod job;
mod pod;

use serde_json::Value;

/// Prepares `object` for its creation as its kind's strategy does. Objects of other kinds,
/// or not objects, are left as they are.
pub fn prepare_for_create(object: &mut Value) {
    if object.get("apiVersion").and_then(Value::as_str) == Some("apiextensions.k8s.io/v1")
        && object.get("kind").and_then(Value::as_str) == Some("CustomResourceDefinition")
    {
        crate::customresourcedefinition::prepare_for_create(object);
        return;
    }
    let Value::Object(map) = object else {
        return;
    };
    let api_version = map.get("apiVersion").and_then(Value::as_str);
    let kind = map.get("kind").and_then(Value::as_str);
    match (api_version, kind) {
        (Some("v1"), Some("Pod")) => pod::prepare_for_create(map),
        (Some("batch/v1"), Some("Job")) => job::generate_selector(map),
        _ => {}
    }
}

pub use pod::qos_class;
