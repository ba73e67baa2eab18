//! resource.k8s.io/v1's defaults (`pkg/apis/resource/v1/defaults.go`): device requests count
//! one device exactly unless they say otherwise, tolerations match by equality.

use crate::value::{Object, child, default_string, items, text};

/// An exact request or a sub-request: `ExactCount` of 1 (a count of 0 is no count).
fn request(request: &mut Object) {
    default_string(request, "allocationMode", "ExactCount");
    if text(request, "allocationMode") == "ExactCount" {
        crate::value::default_zero(request, "count", 1);
    }
    tolerations(request);
}

fn tolerations(holder: &mut Object) {
    for toleration in items(holder, "tolerations") {
        default_string(toleration, "operator", "Equal");
    }
}

fn requests(spec: &mut Object) {
    let Some(devices) = child(spec, "devices") else {
        return;
    };
    for entry in items(devices, "requests") {
        if let Some(exactly) = child(entry, "exactly") {
            request(exactly);
        }
        for sub in items(entry, "firstAvailable") {
            request(sub);
        }
    }
}

/// A ResourceClaim: its requests, and the tolerations of its allocation's results.
pub(super) fn claim(claim: &mut Object) {
    if let Some(spec) = child(claim, "spec") {
        requests(spec);
    }
    if let Some(devices) = child(claim, "status")
        .and_then(|s| child(s, "allocation"))
        .and_then(|a| child(a, "devices"))
    {
        for result in items(devices, "results") {
            tolerations(result);
        }
    }
}

/// A ResourceClaimTemplate: its claim spec's requests.
pub(super) fn claim_template(template: &mut Object) {
    if let Some(spec) = child(template, "spec").and_then(|s| child(s, "spec")) {
        requests(spec);
    }
}
