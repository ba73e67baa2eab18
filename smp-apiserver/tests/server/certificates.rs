//! A CertificateSigningRequest names who asked for it, as its registry strategy writes it
//! (`pkg/registry/certificates/certificates/strategy.go`, `PrepareForCreate`): the requesting
//! user's name, uid, groups and extra replace what the client wrote in the spec.

use bytes::Bytes;
use http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use smp_apiserver::ApiServer;

/// A PEM `CERTIFICATE REQUEST` (a P-256 key's, made for this test), base64 as `spec.request`
/// carries it.
const REQUEST: &str = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlITk1IVUNBUUF3RXpFUk1BOEdBMVVFQXd3SWMyMXdMWFJsYzNRd1dUQVRCZ2NxaGtqT1BRSUJCZ2dxaGtqTwpQUU1CQndOQ0FBU1dZK2JRcW5YMCt0Z2hHanhyWkRqMFluN1E5cXRjQ1ptWGZKQkN4Z2hFSE5lNHBVZmYwOHA4Ckxoc09ZekwvOEFtVHQ4bEdDSnpWVUZXUVhJSHRLcmdHb0FBd0NnWUlLb1pJemowRUF3SURTQUF3UlFJaEFLanQKTnpPK1I1S1hncWV1Y3lYbFpzdVd3dHQ1c3ArMWcycG5VK2s3Rmh6ZEFpQXJIRkhmRjJCY3dHQSsxeGxqd2s1UwpiSDhHaExuT0VmR1lYVDE0TEhKS2p3PT0KLS0tLS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg==";

async fn send(
    server: &ApiServer,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> (StatusCode, Value) {
    let mut request = Request::post(path).header("content-type", "application/json");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let response = server.handle(
        request
            .body(Bytes::from(serde_json::to_vec(&body).unwrap()))
            .unwrap(),
    );
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap())
}

fn csr(name: &str) -> Value {
    json!({"apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest",
        "metadata": {"name": name},
        "spec": {"request": REQUEST, "signerName": "example.com/signer", "usages": ["client auth"],
            "username": "admin", "groups": ["system:masters"]},
        "status": {"conditions": [{"type": "Approved", "status": "True"}]}})
}

const CSRS: &str = "/apis/certificates.k8s.io/v1/certificatesigningrequests";

#[tokio::test]
async fn a_signing_request_names_its_requester() {
    let server = ApiServer::default();
    let (status, anonymous) = send(&server, CSRS, None, csr("anonymous")).await;
    assert_eq!(status, StatusCode::CREATED, "{anonymous}");
    let spec = &anonymous["spec"];
    assert_eq!(spec["username"], "system:anonymous");
    assert_eq!(spec["groups"], json!(["system:unauthenticated"]));
    assert!(
        spec.get("uid").is_none() && spec.get("extra").is_none(),
        "{spec}"
    );
    // Requests cannot be created approved.
    assert_eq!(anonymous["status"], json!({}));

    let (status, answer) = send(
        &server,
        "/api/v1/namespaces/default/serviceaccounts/default/token",
        None,
        json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "spec": {}}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let token = answer["status"]["token"].as_str().unwrap();
    let (status, signed) = send(&server, CSRS, Some(token), csr("account")).await;
    assert_eq!(status, StatusCode::CREATED, "{signed}");
    let spec = &signed["spec"];
    assert_eq!(spec["username"], "system:serviceaccount:default:default");
    assert_eq!(
        spec["groups"],
        json!([
            "system:serviceaccounts",
            "system:serviceaccounts:default",
            "system:authenticated"
        ])
    );
    assert!(!spec["uid"].as_str().unwrap().is_empty());
    assert!(
        spec["extra"]["authentication.kubernetes.io/credential-id"][0]
            .as_str()
            .unwrap()
            .starts_with("JTI=")
    );
}
