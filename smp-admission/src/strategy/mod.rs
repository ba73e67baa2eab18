//! What the registry strategies do to an object being created, after decoding and before
//! validation (`PrepareForCreate` of `pkg/registry/<group>/<resource>/strategy.go`): a
//! separate step from the scheme's defaults, which a caller may leave out.
//!
//! Covered: a Pod's status (`Pending`, its QoS class, the scheduling-gated condition), a
//! Job's generated selector and labels (which need the uid the server gives), a
//! CustomResourceDefinition's status and generation, a VolumeAttachment's status (cleared:
//! only its status writes set it), an EndpointSlice's generation and its endpoints'
//! `deprecatedTopology` (dropped: read-only in v1), a CertificateSigningRequest's status and
//! requester (cleared; the server then sets the requester from the request's user, which is
//! not known here), an APIService's status (cleared, and a local one marked available), a
//! PersistentVolume's status (`Pending`; the time of that phase is the server's clock, which
//! the test server stamps), a Node's `status.config` (dropped: the dynamic kubelet
//! configuration is removed; the rest of its status is kept), a FlowSchema's and a
//! PriorityLevelConfiguration's status (cleared) and generation (1), the
//! admissionregistration kinds' generation (1) and a ValidatingAdmissionPolicy's status
//! (cleared), a ResourceClaim's status (cleared); and the fields of gates off in v1.34 (`gates`: in pod specs and templates, a
//! Lease's, a CSIDriver's, a Node's `spec.configSource`, the `resource.k8s.io` kinds'), also on
//! update
//! ([`prepare_for_update`]: kept when the old object used them). A Service's addresses need
//! the cluster's state and are the test server's (`smp-apiserver`).

mod admissionregistration;
mod apiregistration;
mod certificates;
mod core;
mod discovery;
mod flowcontrol;
mod gates;
mod job;
mod pod;
mod resource;
mod status;

use serde_json::Value;

pub use pod::qos_class;
pub use status::prepare_for_status_update;

/// Prepares `object` for its creation as its kind's strategy does. Objects of other kinds,
/// or not objects, are left as they are.
pub fn prepare_for_create(object: &mut Value) {
    if object.get("apiVersion").and_then(Value::as_str) == Some("apiextensions.k8s.io/v1")
        && object.get("kind").and_then(Value::as_str) == Some("CustomResourceDefinition")
    {
        crate::customresourcedefinition::prepare_for_create(object);
        return;
    }
    gates::drop_disabled_fields(object, None);
    let Value::Object(map) = object else {
        return;
    };
    let api_version = map.get("apiVersion").and_then(Value::as_str);
    let kind = map.get("kind").and_then(Value::as_str);
    match (api_version, kind) {
        (Some("v1"), Some("Pod")) => pod::prepare_for_create(map),
        (Some("batch/v1"), Some("Job")) => job::generate_selector(map),
        (Some("v1"), Some("PersistentVolume")) => core::prepare_persistent_volume(map),
        (Some("v1"), Some("Node")) => core::prepare_node(map),
        (Some(version), Some("ResourceClaim")) if version.starts_with("resource.k8s.io/") => {
            // The status is the allocator's to write, through the status subresource.
            map.remove("status");
        }
        (Some("storage.k8s.io/v1"), Some("VolumeAttachment")) => {
            // The status is the attacher's to write, through the status subresource.
            map.insert("status".to_owned(), serde_json::json!({"attached": false}));
        }
        (Some("apiregistration.k8s.io/v1"), Some("APIService")) => {
            apiregistration::prepare_api_service(map);
        }
        (Some("certificates.k8s.io/v1"), Some("CertificateSigningRequest")) => {
            certificates::prepare_csr(map);
        }
        (Some("discovery.k8s.io/v1"), Some("EndpointSlice")) => {
            discovery::prepare_endpoint_slice(map);
        }
        (
            Some("flowcontrol.apiserver.k8s.io/v1"),
            Some("FlowSchema" | "PriorityLevelConfiguration"),
        ) => flowcontrol::prepare_for_create(map),
        (
            Some("admissionregistration.k8s.io/v1"),
            Some(
                "ValidatingWebhookConfiguration"
                | "MutatingWebhookConfiguration"
                | "ValidatingAdmissionPolicy"
                | "ValidatingAdmissionPolicyBinding",
            ),
        ) => admissionregistration::prepare_for_create(map),
        _ => {}
    }
}

/// Prepares `new`, replacing `old` through the main endpoint, as its kind's strategy does
/// (`PrepareForUpdate`): fields of gates off in v1.34 dropped unless `old` used them. The
/// status the endpoint resets is the caller's to put back.
pub fn prepare_for_update(new: &mut Value, old: &Value) {
    gates::drop_disabled_fields(new, Some(old));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn storage_objects_are_prepared_as_their_strategies_prepare_them() {
        let mut attachment = json!({"apiVersion": "storage.k8s.io/v1", "kind": "VolumeAttachment",
            "metadata": {"name": "a"}, "spec": {"attacher": "x", "nodeName": "n",
                "source": {"persistentVolumeName": "pv"}},
            "status": {"attached": true, "attachmentMetadata": {"k": "v"}}});
        prepare_for_create(&mut attachment);
        assert_eq!(attachment["status"], json!({"attached": false}));
        let mut driver = json!({"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver",
            "metadata": {"name": "d"}, "spec": {"attachRequired": true,
                "nodeAllocatableUpdatePeriodSeconds": 60}});
        prepare_for_create(&mut driver);
        assert_eq!(driver["spec"], json!({"attachRequired": true}));
    }

    #[test]
    fn a_csr_is_created_without_status_or_requester() {
        let mut csr = json!({"apiVersion": "certificates.k8s.io/v1",
            "kind": "CertificateSigningRequest", "metadata": {"name": "c"},
            "spec": {"request": "", "signerName": "a.b/c", "usages": ["any"], "username": "me",
                "uid": "1", "groups": ["g"], "extra": {"k": ["v"]}},
            "status": {"conditions": [{"type": "Approved", "status": "True"}]}});
        prepare_for_create(&mut csr);
        assert_eq!(
            csr["spec"],
            json!({"request": "", "signerName": "a.b/c", "usages": ["any"]})
        );
        assert_eq!(csr["status"], json!({}));
    }

    #[test]
    fn a_local_api_service_is_created_available() {
        let mut local = json!({"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
            "metadata": {"name": "v1.foo.io"}, "spec": {"group": "foo.io", "version": "v1"},
            "status": {"conditions": [{"type": "Available", "status": "False"}]}});
        prepare_for_create(&mut local);
        let condition = &local["status"]["conditions"][0];
        assert_eq!(condition["status"], "True");
        assert_eq!(condition["reason"], "Local");
        assert!(condition["lastTransitionTime"].is_string());
        let mut remote = local.clone();
        remote["spec"]["service"] = json!({"namespace": "ns", "name": "api"});
        prepare_for_create(&mut remote);
        assert_eq!(remote["status"], json!({}));
    }

    #[test]
    fn an_endpoint_slice_loses_its_deprecated_topology() {
        let mut slice = json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
            "metadata": {"name": "s", "namespace": "d"}, "addressType": "IPv4",
            "endpoints": [{"addresses": ["10.0.0.1"], "deprecatedTopology": {"a": "b"},
                "hints": {"forNodes": [{"name": "n"}]}}, 7]});
        prepare_for_create(&mut slice);
        assert_eq!(slice["metadata"]["generation"], 1);
        assert_eq!(
            slice["endpoints"],
            json!([{"addresses": ["10.0.0.1"], "hints": {"forNodes": [{"name": "n"}]}}, 7])
        );
    }

    #[test]
    fn flowcontrol_objects_start_with_no_status_at_generation_1() {
        for kind in ["FlowSchema", "PriorityLevelConfiguration"] {
            let mut object = json!({"apiVersion": "flowcontrol.apiserver.k8s.io/v1",
                "kind": kind, "metadata": {"name": "a", "generation": 7},
                "status": {"conditions": [{"type": "Dangling", "status": "True"}]}});
            prepare_for_create(&mut object);
            assert_eq!(object["status"], json!({}));
            assert_eq!(object["metadata"]["generation"], json!(1));
        }
    }

    #[test]
    fn admission_policies_start_with_no_status_at_generation_1() {
        let mut policy = json!({"apiVersion": "admissionregistration.k8s.io/v1",
            "kind": "ValidatingAdmissionPolicy", "metadata": {"name": "p"},
            "status": {"observedGeneration": 4}});
        prepare_for_create(&mut policy);
        assert_eq!(policy["status"], json!({}));
        assert_eq!(policy["metadata"]["generation"], json!(1));
        let mut binding = json!({"apiVersion": "admissionregistration.k8s.io/v1",
            "kind": "ValidatingAdmissionPolicyBinding", "metadata": {"name": "b"}});
        prepare_for_create(&mut binding);
        assert_eq!(binding.get("status"), None);
        assert_eq!(binding["metadata"]["generation"], json!(1));
    }
}
