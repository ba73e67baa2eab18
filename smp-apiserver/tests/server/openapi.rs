//! The published OpenAPI documents: what a client builds from them is what the server merges
//! by, for the built-in kinds and for a CRD's.

use bytes::Bytes;
use http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use smp_apiserver::ApiServer;

async fn get(server: &ApiServer, path: &str, accept: &str) -> (StatusCode, Value) {
    let request = Request::get(path)
        .header("accept", accept)
        .body(Bytes::new())
        .unwrap();
    let response = server.handle(request);
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap())
}

/// Every group-version's v3 document, read as the server-side apply engine reads the official
/// ones, gives the very structured types it has built in.
#[tokio::test]
async fn the_v3_documents_give_the_builtin_structured_types() {
    let server = ApiServer::default();
    let (status, index) = get(&server, "/openapi/v3", "application/json").await;
    assert_eq!(status, StatusCode::OK);
    let mut documents = Vec::new();
    for entry in index["paths"].as_object().unwrap().values() {
        let url = entry["serverRelativeURL"].as_str().unwrap();
        let (status, doc) = get(&server, url, "application/json").await;
        assert_eq!(status, StatusCode::OK, "{url}");
        documents.push(doc);
    }
    assert!(documents.len() > 30, "{} documents", documents.len());
    let schema = smp_ssa::schema::from_openapi_v3(&documents).unwrap();
    assert_eq!(
        smp_ssa::schema::to_compact_json(&schema),
        smp_ssa::builtin::KUBERNETES
    );
}

/// kubectl computes a client-side apply's strategic merge patch only where the `PATCH`
/// operation takes one, from the schema that names the kind.
#[tokio::test]
async fn patch_operations_say_which_patches_they_take() {
    let server = ApiServer::default();
    let (_, apps) = get(&server, "/openapi/v3/apis/apps/v1", "application/json").await;
    let patch = &apps["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]["patch"];
    assert_eq!(
        patch["x-kubernetes-group-version-kind"],
        json!({"group": "apps", "version": "v1", "kind": "Deployment"})
    );
    let content = patch["requestBody"]["content"].as_object().unwrap();
    assert!(content.contains_key("application/strategic-merge-patch+json"));
    let deployment = &apps["components"]["schemas"]["io.k8s.api.apps.v1.Deployment"];
    assert_eq!(
        deployment["x-kubernetes-group-version-kind"],
        json!([{"group": "apps", "version": "v1", "kind": "Deployment"}])
    );
    let containers =
        &apps["components"]["schemas"]["io.k8s.api.core.v1.PodSpec"]["properties"]["containers"];
    assert_eq!(containers["x-kubernetes-patch-strategy"], "merge");
    assert_eq!(containers["x-kubernetes-patch-merge-key"], "name");

    let (status, _) = get(
        &server,
        "/openapi/v3/apis/example.com/v1",
        "application/json",
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// A created CRD's kinds are published with its schema; custom resources take no strategic
/// merge patch, so their `PATCH` does not offer one.
#[tokio::test]
async fn a_crds_schema_is_published() {
    let server = ApiServer::default();
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                "type": "object",
                "properties": {"spec": {"type": "object", "properties": {
                    "size": {"type": "integer", "nullable": true},
                    "not": {"type": "string"}}}}}}}]}});
    let request = Request::post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions")
        .header("content-type", "application/json")
        .body(Bytes::from(serde_json::to_vec(&crd).unwrap()))
        .unwrap();
    assert_eq!(server.handle(request).status(), StatusCode::CREATED);

    let (status, doc) = get(
        &server,
        "/openapi/v3/apis/example.com/v1",
        "application/json",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let widget = &doc["components"]["schemas"]["com.example.v1.Widget"];
    assert_eq!(
        widget["x-kubernetes-group-version-kind"],
        json!([{"group": "example.com", "version": "v1", "kind": "Widget"}])
    );
    assert_eq!(
        widget["properties"]["metadata"]["$ref"],
        "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
    );
    assert_eq!(
        widget["properties"]["spec"]["properties"]["size"]["nullable"],
        true
    );
    assert!(
        doc["components"]["schemas"]["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"].is_object()
    );
    let patch =
        &doc["paths"]["/apis/example.com/v1/namespaces/{namespace}/widgets/{name}"]["patch"];
    let content = patch["requestBody"]["content"].as_object().unwrap();
    assert!(!content.contains_key("application/strategic-merge-patch+json"));
    assert!(content.contains_key("application/merge-patch+json"));

    // Swagger 2.0 has no `nullable`; a property called `not` is a property, not a keyword.
    let (status, v2) = get(&server, "/openapi/v2", "application/json").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v2["swagger"], "2.0");
    let spec = &v2["definitions"]["com.example.v1.Widget"]["properties"]["spec"]["properties"];
    assert_eq!(spec["size"], json!({"type": "integer"}));
    assert_eq!(spec["not"], json!({"type": "string"}));
    assert_eq!(
        v2["definitions"]["io.k8s.api.apps.v1.DeploymentSpec"]["properties"]["template"],
        json!({"$ref": "#/definitions/io.k8s.api.core.v1.PodTemplateSpec"})
    );
    let consumes = &v2["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]["patch"]
        ["consumes"];
    assert!(
        consumes
            .as_array()
            .unwrap()
            .contains(&json!("application/strategic-merge-patch+json"))
    );
}

/// client-go asks for Swagger 2.0 as protobuf only; the server says it has JSON.
#[tokio::test]
async fn swagger_as_protobuf_is_not_acceptable() {
    let server = ApiServer::default();
    let (status, answer) = get(
        &server,
        "/openapi/v2",
        "application/com.github.proto-openapi.spec.v2@v1.0+protobuf",
    )
    .await;
    assert_eq!(status, StatusCode::NOT_ACCEPTABLE);
    assert_eq!(answer["reason"], "NotAcceptable");
}
