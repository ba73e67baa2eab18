//! Requests as raw HTTP, for what a typed client does not show: `fieldValidation` and its
//! `Warning` headers, and the answers to bodies too large or unreadable and to paths that name
//! nothing.

use bytes::Bytes;
use http::{Request, StatusCode};
use http_body_util::{BodyExt, Full};
use serde_json::{Value, json};
use smp_apiserver::{ApiServer, Options};
use tower_service::Service;

const DEPLOYMENTS: &str = "/apis/apps/v1/namespaces/default/deployments";

fn with_typo() -> Bytes {
    Bytes::from(
        serde_json::to_vec(&json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web"},
            "spec": {"replica": 3, "selector": {"matchLabels": {"app": "web"}},
                "template": {"metadata": {"labels": {"app": "web"}},
                    "spec": {"containers": [{"name": "app", "image": "app:1"}]}}}}))
        .unwrap(),
    )
}

fn post(query: &str, body: Bytes) -> Request<Bytes> {
    Request::post(format!("{DEPLOYMENTS}{query}"))
        .header("content-type", "application/json")
        .body(body)
        .unwrap()
}

async fn body(response: http::Response<smp_apiserver::Body>) -> Value {
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice(&bytes).unwrap()
}

#[tokio::test]
async fn unknown_fields_are_refused_warned_of_or_dropped() {
    let server = ApiServer::default();
    let strict = server.handle(post("?fieldValidation=Strict", with_typo()));
    assert_eq!(strict.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        body(strict).await["message"],
        // transformDecodeError, apiserver pkg/endpoints/handlers/rest.go.
        "Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.replica\""
    );

    let warned = server.handle(post("", with_typo()));
    assert_eq!(warned.status(), StatusCode::CREATED);
    assert_eq!(
        warned.headers()["warning"],
        "299 - \"unknown field \\\"spec.replica\\\"\""
    );
    assert!(body(warned).await["spec"].get("replica").is_none());

    // A merge patch that writes an unknown field is refused as the patch handler refuses it:
    // 422, no kind or name, the patched object quoted (apiserver
    // pkg/endpoints/handlers/patch.go, `NewInvalid(GroupKind{}, "", ...)`).
    let patch = Request::patch(format!("{DEPLOYMENTS}/web?fieldValidation=Strict"))
        .header("content-type", "application/merge-patch+json")
        .body(Bytes::from_static(
            br#"{"spec":{"paused":true,"replica":2}}"#,
        ))
        .unwrap();
    let refused = server.handle(patch);
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let refused = body(refused).await;
    let message = refused["message"].as_str().unwrap();
    assert!(
        message
            .starts_with(r#" "" is invalid: patch: Invalid value: "{\"apiVersion\":\"apps/v1\""#),
        "{message}"
    );
    assert!(
        message.ends_with(r#"": strict decoding error: unknown field "spec.replica""#),
        "{message}"
    );
    assert_eq!(refused["details"]["causes"][0]["field"], "patch");

    let server = ApiServer::default();
    let ignored = server.handle(post("?fieldValidation=Ignore", with_typo()));
    assert_eq!(ignored.status(), StatusCode::CREATED);
    assert!(ignored.headers().get("warning").is_none());
}

#[tokio::test]
async fn bad_requests_get_the_servers_answers() {
    let mut server = ApiServer::new(Options {
        max_body: 1024,
        ..Options::default()
    });
    let large = Request::post(DEPLOYMENTS)
        .body(Full::new(Bytes::from(vec![b' '; 2048])))
        .unwrap();
    let response = server.call(large).await.unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);

    let response = server.handle(post("", Bytes::from_static(b"{not json")));
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(body(response).await["reason"], "BadRequest");

    let response = server.handle(
        Request::get("/apis/nothing.example.com/v1/things")
            .body(Bytes::new())
            .unwrap(),
    );
    assert_eq!(response.status(), StatusCode::NOT_FOUND);

    let response = server.handle(
        Request::post(format!("{DEPLOYMENTS}/web"))
            .body(Bytes::new())
            .unwrap(),
    );
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(body(response).await["kind"], "Status");
}

/// Discovery in the aggregated form when the `Accept` header asks for it (as kubectl's does),
/// in the plain form otherwise.
#[tokio::test]
async fn discovery_is_aggregated_when_asked_for() {
    let server = ApiServer::default();
    let get = |accept: &str| {
        Request::get("/apis")
            .header("accept", accept)
            .body(Bytes::new())
            .unwrap()
    };
    let aggregated = server.handle(get(
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json",
    ));
    assert_eq!(
        aggregated.headers()["content-type"],
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
    );
    let document = body(aggregated).await;
    assert_eq!(document["kind"], "APIGroupDiscoveryList");
    assert!(
        document["items"]
            .as_array()
            .is_some_and(|groups| groups.iter().any(|g| g["metadata"]["name"] == "apps"))
    );
    let plain = body(server.handle(get("application/json"))).await;
    assert_eq!(plain["kind"], "APIGroupList");
}

/// Objects in Kubernetes' protobuf encoding (what client-go's typed clients send, and so
/// kubectl's generator commands such as `kubectl create deployment`) are read; a body that is
/// not protobuf is refused (400, naming where), and another media type is refused as the
/// server refuses it (415, naming those it takes).
#[tokio::test]
async fn protobuf_bodies_are_read() {
    let server = ApiServer::default();
    let post = |content_type: &str, body: &'static [u8]| {
        Request::post(DEPLOYMENTS)
            .header("content-type", content_type)
            .body(Bytes::from_static(body))
            .unwrap()
    };
    // What `kubectl create deployment web --image=nginx` sends.
    let sent = include_bytes!("../data/protobuf/deployment.pb");
    let response = server.handle(post("application/vnd.kubernetes.protobuf", sent));
    assert_eq!(response.status(), StatusCode::CREATED);
    let created = body(response).await;
    assert_eq!(created["metadata"]["labels"], json!({"app": "web"}));
    // As sent, with what decoding defaults (`SetDefaults_Container`: `nginx` is `latest`).
    assert_eq!(
        created["spec"]["template"]["spec"]["containers"],
        json!([{"name": "nginx", "image": "nginx", "resources": {}, "imagePullPolicy": "Always",
            "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}])
    );
    assert_eq!(
        created["metadata"]["managedFields"][0]["operation"],
        "Update"
    );

    let response = server.handle(post(
        "application/vnd.kubernetes.protobuf",
        b"k8s\x00\n\x0f\n\x07apps/v1",
    ));
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let status = body(response).await;
    assert!(
        status["message"]
            .as_str()
            .is_some_and(|m| m.ends_with("field 1 claims 15 bytes, but only 9 remain at byte 6")),
        "{status}"
    );

    let response = server.handle(post("application/cbor", b"\xa0"));
    assert_eq!(response.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let status = body(response).await;
    assert_eq!(status["reason"], "UnsupportedMediaType");
    assert!(
        status["message"].as_str().is_some_and(|m| m
            .ends_with("application/json, application/yaml, application/vnd.kubernetes.protobuf")),
        "{status}"
    );
}

/// A valid object the strategy has something to say about is stored, with the server's
/// warnings (kubernetes/kubernetes `pkg/api/pod/warnings.go`, through the Deployment
/// strategy's `WarningsOnCreate` and `WarningsOnUpdate`).
#[tokio::test]
async fn the_strategys_warnings_come_back_as_warning_headers() {
    let server = ApiServer::default();
    let deployment = |env: Value| {
        Bytes::from(
            serde_json::to_vec(&json!({"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "web"},
                "spec": {"selector": {"matchLabels": {"app": "web"}},
                    "template": {"metadata": {"labels": {"app": "web"}},
                        "spec": {"nodeSelector": {"beta.kubernetes.io/arch": "amd64"},
                            "containers": [{"name": "app", "image": "app:1", "env": env}]}}}}))
            .unwrap(),
        )
    };
    let created = server.handle(post("", deployment(json!([]))));
    assert_eq!(created.status(), StatusCode::CREATED);
    let warnings: Vec<_> = created.headers().get_all("warning").iter().collect();
    assert_eq!(
        warnings,
        [
            "299 - \"spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since \
             v1.14; use \\\"kubernetes.io/arch\\\" instead\""
        ]
    );
    let replaced = server.handle(
        Request::put(format!("{DEPLOYMENTS}/web"))
            .header("content-type", "application/json")
            .body(deployment(
                json!([{"name": "A", "value": "1"}, {"name": "A", "value": "2"}]),
            ))
            .unwrap(),
    );
    assert_eq!(replaced.status(), StatusCode::OK);
    let warnings: Vec<_> = replaced.headers().get_all("warning").iter().collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert_eq!(
        warnings[1],
        "299 - \"spec.template.spec.containers[0].env[1]: hides previous definition of \
         \\\"A\\\", which may be dropped when using apply\""
    );
}
