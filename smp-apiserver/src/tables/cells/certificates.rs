//! The certificates.k8s.io group's rows: signing requests and trust bundles.

use serde_json::{Value, json};

use super::Row;
use super::common::{age, condition, int_if_set, name};
use crate::tables::duration::{Now, human};
use crate::tables::format::{items, or_none, text};

/// A CertificateSigningRequest: who asked which signer for how long, and where it stands.
pub(super) fn certificate_signing_request(object: &Value, now: Now) -> Row {
    let duration =
        int_if_set(object, "/spec/expirationSeconds").map_or_else(|| "<none>".to_owned(), human);
    vec![
        name(object),
        age(object, now),
        json!(or_none(text(object, "/spec/signerName"))),
        json!(text(object, "/spec/username")),
        json!(duration),
        json!(request_condition(object)),
    ]
    .into()
}

/// Approved, denied or pending, whether signing failed, and whether a certificate was
/// issued; only the kinds of condition present count, not their status.
fn request_condition(request: &Value) -> String {
    let conditions = items(request, "/status/conditions");
    let has = |kind: &str| condition(conditions, kind).is_some();
    let mut state = match (has("Denied"), has("Approved")) {
        (true, _) => "Denied",
        (false, true) => "Approved",
        (false, false) => "Pending",
    }
    .to_owned();
    if has("Failed") {
        state.push_str(",Failed");
    }
    if !text(request, "/status/certificate").is_empty() {
        state.push_str(",Issued");
    }
    state
}

/// A ClusterTrustBundle: the signer whose trust anchors it holds.
pub(super) fn cluster_trust_bundle(object: &Value, _now: Now) -> Row {
    vec![
        name(object),
        json!(or_none(text(object, "/spec/signerName"))),
    ]
    .into()
}

/// A PodCertificateRequest: the pod it is for and where it stands.
pub(super) fn pod_certificate_request(object: &Value, _now: Now) -> Row {
    // The last decisive condition wins.
    let state = items(object, "/status/conditions")
        .iter()
        .rev()
        .map(|c| text(c, "/type"))
        .find(|kind| matches!(*kind, "Issued" | "Denied" | "Failed"))
        .unwrap_or("Pending");
    let spec = |member: &str| json!(text(object, &format!("/spec/{member}")));
    vec![
        name(object),
        spec("podName"),
        spec("serviceAccountName"),
        spec("nodeName"),
        spec("signerName"),
        json!(state),
    ]
    .into()
}

#[cfg(test)]
mod tests {
    use super::super::common::tests::now;
    use super::*;

    #[test]
    fn signing_requests() {
        let csr = json!({"metadata": {"name": "csr-8x2", "creationTimestamp": "2026-11-28T11:50:00Z"},
            "spec": {"signerName": "kubernetes.io/kube-apiserver-client", "username": "alice",
                "expirationSeconds": 86400, "usages": ["client auth"]},
            "status": {"conditions": [{"type": "Approved", "status": "True"}], "certificate": "LS0t"}});
        assert_eq!(
            certificate_signing_request(&csr, now()).cells,
            vec![
                json!("csr-8x2"),
                json!("10m"),
                json!("kubernetes.io/kube-apiserver-client"),
                json!("alice"),
                json!("24h"),
                json!("Approved,Issued")
            ]
        );
        let denied = json!({"status": {"conditions": [{"type": "Approved", "status": "False"},
            {"type": "Denied", "status": "False"}, {"type": "Failed", "status": "True"}]}});
        assert_eq!(
            certificate_signing_request(&denied, now()).cells[2..],
            [
                json!("<none>"),
                json!(""),
                json!("<none>"),
                json!("Denied,Failed")
            ]
        );
        assert_eq!(
            certificate_signing_request(&json!({}), now()).cells[5],
            json!("Pending")
        );
    }

    #[test]
    fn trust_bundles() {
        let bundle = json!({"metadata": {"name": "example.com:signer:abc"}, "spec": {"signerName": "example.com/signer"}});
        assert_eq!(
            cluster_trust_bundle(&bundle, now()).cells,
            vec![json!("example.com:signer:abc"), json!("example.com/signer")]
        );
        assert_eq!(
            cluster_trust_bundle(&json!({}), now()).cells[1],
            json!("<none>")
        );
    }

    #[test]
    fn pod_certificate_requests() {
        let pcr = json!({"metadata": {"name": "req-1"}, "spec": {"podName": "web-1", "serviceAccountName": "web",
                "nodeName": "node-a", "signerName": "example.com/pods"},
            "status": {"conditions": [{"type": "Issued", "status": "True"}, {"type": "Other", "status": "True"},
                {"type": "Failed", "status": "False"}]}});
        assert_eq!(
            pod_certificate_request(&pcr, now()).cells,
            vec![
                json!("req-1"),
                json!("web-1"),
                json!("web"),
                json!("node-a"),
                json!("example.com/pods"),
                json!("Failed")
            ]
        );
        assert_eq!(
            pod_certificate_request(&json!({}), now()).cells[5],
            json!("Pending")
        );
    }
}
