//! scheduling.k8s.io/v1 and discovery.k8s.io/v1's defaults: a PriorityClass's preemption,
//! an EndpointSlice's ports.

use serde_json::json;

use crate::value::{Object, default_nil, items};

/// A PriorityClass: its pods preempt lower priorities.
pub(super) fn priority_class(class: &mut Object) {
    default_nil(class, "preemptionPolicy", json!("PreemptLowerPriority"));
}

/// An EndpointSlice: every port named (the empty name) and TCP.
pub(super) fn endpoint_slice(slice: &mut Object) {
    for port in items(slice, "ports") {
        default_nil(port, "name", json!(""));
        default_nil(port, "protocol", json!("TCP"));
    }
}
