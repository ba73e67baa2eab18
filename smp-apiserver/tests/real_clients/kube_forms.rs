//! Answers in the forms clients ask for, with kube's `Client` in memory and over HTTP: an
//! object's metadata alone (kube's `get_metadata`, `list_metadata`, `patch_metadata` and
//! `metadata_watcher`), tables (`as=Table`, what `kubectl get` reads), and built-in objects
//! written in their Go types' member order. Each as kube-apiserver v1.34 answers
//! (apiserver `pkg/endpoints/handlers/response.go` transforms answers; apimachinery
//! `pkg/runtime/serializer/json` writes them).

use std::time::Duration;

use futures_util::{StreamExt, TryStreamExt};
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use kube::api::{Api, ListParams, PartialObjectMeta, Patch, PatchParams, PostParams};
use kube::runtime::watcher;
use serde_json::{Value, json};

use crate::support::{clients, raw, raw_accept};

/// What kubectl sends to read tables.
const KUBECTL_TABLE: &str = "application/json;as=Table;v=v1;g=meta.k8s.io,\
    application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
const METADATA: &str = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";
const METADATA_LIST: &str = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";

fn config_map(name: &str) -> ConfigMap {
    serde_json::from_value(json!({
        "metadata": {"name": name, "labels": {"app": "web"}},
        "data": {"a": "1", "b": "2"}
    }))
    .unwrap()
}

/// kube's metadata calls get `PartialObjectMetadata` (and its list): the metadata alone,
/// no `data`, each item typed as `meta.k8s.io/v1` `PartialObjectMetadata`.
#[tokio::test]
async fn metadata_calls_get_metadata_alone() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let api: Api<ConfigMap> = Api::default_namespaced(client.clone());
        api.create(&PostParams::default(), &config_map("web"))
            .await
            .unwrap();

        let one = api.get_metadata("web").await.unwrap();
        assert_eq!(one.metadata.name.as_deref(), Some("web"), "{how}");
        let types = one.types.unwrap();
        assert_eq!(
            (types.api_version.as_str(), types.kind.as_str()),
            ("meta.k8s.io/v1", "PartialObjectMetadata"),
            "{how}"
        );

        let list = api.list_metadata(&ListParams::default()).await.unwrap();
        let names: Vec<_> = list
            .items
            .iter()
            .map(|i| i.metadata.name.clone().unwrap())
            .collect();
        assert_eq!(names, ["kube-root-ca.crt", "web"], "{how}");

        // The raw answers: nothing but metadata.
        let path = "/api/v1/namespaces/default/configmaps";
        let raw_one = raw_accept(&client, "GET", &format!("{path}/web"), METADATA, "", None).await;
        assert_eq!(raw_one.code, 200, "{how}");
        let members: Vec<&String> = raw_one.body.as_object().unwrap().keys().collect();
        assert_eq!(members, ["apiVersion", "kind", "metadata"], "{how}");
        assert_eq!(
            raw_one.body["metadata"]["labels"],
            json!({"app": "web"}),
            "{how}"
        );
        let raw_list = raw_accept(&client, "GET", path, METADATA_LIST, "", None).await;
        assert_eq!(raw_list.body["kind"], "PartialObjectMetadataList", "{how}");
        assert_eq!(raw_list.body["apiVersion"], "meta.k8s.io/v1", "{how}");
        assert!(
            raw_list.body["metadata"]["resourceVersion"].is_string(),
            "{how}"
        );
        assert_eq!(
            raw_list.body["items"][1]["kind"], "PartialObjectMetadata",
            "{how}"
        );
        assert!(raw_list.body["items"][1].get("data").is_none(), "{how}");

        // A patch of the metadata answers with the metadata.
        let labels = json!({"metadata": {"labels": {"tier": "front"}}});
        let patched = api
            .patch_metadata("web", &PatchParams::default(), &Patch::Merge(&labels))
            .await
            .unwrap();
        assert_eq!(
            patched
                .metadata
                .labels
                .unwrap()
                .get("tier")
                .map(String::as_str),
            Some("front"),
            "{how}"
        );
        // The patch wrote the object; only the answer was cut down.
        assert_eq!(
            api.get("web").await.unwrap().data.unwrap().len(),
            2,
            "{how}"
        );
    }
}

/// A list asked for as one object's metadata, or an object as a list's, is refused (406), as
/// the server's `asPartialObjectMetadata(List)` refuses them, naming the Go type.
#[tokio::test]
async fn metadata_of_the_wrong_shape_is_not_acceptable() {
    let clients = clients().await;
    let client = clients.memory.clone();
    let path = "/api/v1/namespaces/default/configmaps";
    let list = raw_accept(&client, "GET", path, METADATA, "", None).await;
    assert_eq!(list.code, 406);
    assert_eq!(list.body["reason"], "NotAcceptable");
    assert_eq!(
        list.body["message"],
        "you requested PartialObjectMetadata, but the requested object is a list (*v1.ConfigMapList)"
    );
    let one = raw_accept(
        &client,
        "GET",
        &format!("{path}/kube-root-ca.crt"),
        METADATA_LIST,
        "",
        None,
    )
    .await;
    assert_eq!(one.code, 406);
    assert_eq!(
        one.body["message"],
        "you requested PartialObjectMetadataList, but the requested object is not a list (*v1.ConfigMap)"
    );
    // A transform no endpoint offers: 406 with the media types the server writes.
    let unknown = raw_accept(&client, "GET", path, "application/json;as=Table", "", None).await;
    assert_eq!(unknown.code, 406);
    assert_eq!(
        unknown.body["message"],
        "only the following media types are accepted: application/json, application/yaml, \
         application/vnd.kubernetes.protobuf"
    );
}

/// kube-runtime's watcher over `Api<PartialObjectMeta<_>>` (what `metadata_watcher` became)
/// lists and watches metadata: it sees objects come with no more than their metadata.
#[tokio::test]
async fn the_metadata_watcher_follows_objects() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let api: Api<ConfigMap> = Api::default_namespaced(client.clone());
        let metadata: Api<PartialObjectMeta<ConfigMap>> = Api::default_namespaced(client.clone());
        let config = watcher::Config::default().labels("app=web");
        let mut stream = watcher::watcher(metadata, config).boxed();
        let mut seen = Vec::new();
        api.create(&PostParams::default(), &config_map("first"))
            .await
            .unwrap();
        let collect = async {
            while let Some(event) = stream.try_next().await.unwrap() {
                if let watcher::Event::Apply(meta) | watcher::Event::InitApply(meta) = event {
                    seen.push(meta.metadata.name.unwrap());
                    if seen.len() == 2 {
                        break;
                    }
                    api.create(&PostParams::default(), &config_map("second"))
                        .await
                        .unwrap();
                }
            }
        };
        tokio::time::timeout(Duration::from_secs(10), collect)
            .await
            .expect("the watcher saw both");
        assert_eq!(seen, ["first", "second"], "{how}");
    }
}

/// A watch asked for metadata sends each event's object as `PartialObjectMetadata`.
#[tokio::test]
async fn a_metadata_watch_sends_metadata() {
    let clients = clients().await;
    let client = clients.memory.clone();
    let api: Api<ConfigMap> = Api::default_namespaced(client.clone());
    api.create(&PostParams::default(), &config_map("web"))
        .await
        .unwrap();
    let path = "/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1&labelSelector=app";
    let answer = raw_accept(&client, "GET", path, METADATA, "", None).await;
    let event: Value = serde_json::from_str(answer.text.lines().next().unwrap()).unwrap();
    assert_eq!(event["type"], "ADDED");
    assert_eq!(event["object"]["kind"], "PartialObjectMetadata");
    assert_eq!(event["object"]["metadata"]["name"], "web");
    assert!(event["object"].get("data").is_none());
}

fn column_names(table: &Value) -> Vec<&str> {
    table["columnDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect()
}

/// A list asked for as a table: the printer's columns (all of them: the server prints wide),
/// one row of cells per object, each row's object as its metadata; the list's
/// resourceVersion in the table's.
#[tokio::test]
async fn lists_come_as_tables() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let api: Api<ConfigMap> = Api::default_namespaced(client.clone());
        api.create(&PostParams::default(), &config_map("web"))
            .await
            .unwrap();
        let path = "/api/v1/namespaces/default/configmaps?labelSelector=app";
        let table = raw_accept(&client, "GET", path, KUBECTL_TABLE, "", None).await;
        assert_eq!(table.code, 200, "{how}");
        let body = &table.body;
        assert_eq!(
            (body["kind"].as_str(), body["apiVersion"].as_str()),
            (Some("Table"), Some("meta.k8s.io/v1")),
            "{how}"
        );
        assert_eq!(column_names(body), ["Name", "Data", "Age"], "{how}");
        assert_eq!(body["columnDefinitions"][0]["format"], "name", "{how}");
        assert!(body["metadata"]["resourceVersion"].is_string(), "{how}");
        let row = &body["rows"][0];
        // Data counts keys (an integer under a string column, as the server sends it); a
        // new object's age is seconds.
        assert_eq!(row["cells"][0], "web", "{how}");
        assert_eq!(row["cells"][1], 2, "{how}");
        assert!(row["cells"][2].as_str().unwrap().ends_with('s'), "{how}");
        assert_eq!(row["object"]["kind"], "PartialObjectMetadata", "{how}");
        assert_eq!(row["object"]["metadata"]["name"], "web", "{how}");
        assert!(row.get("conditions").is_none(), "{how}");

        // includeObject: the whole object, or none; anything else is refused.
        let whole = raw_accept(
            &client,
            "GET",
            &format!("{path}&includeObject=Object"),
            KUBECTL_TABLE,
            "",
            None,
        )
        .await;
        assert_eq!(
            whole.body["rows"][0]["object"]["data"],
            json!({"a": "1", "b": "2"}),
            "{how}"
        );
        let none = raw_accept(
            &client,
            "GET",
            &format!("{path}&includeObject=None"),
            KUBECTL_TABLE,
            "",
            None,
        )
        .await;
        assert_eq!(none.body["rows"][0]["object"], Value::Null, "{how}");
        let bad = raw_accept(
            &client,
            "GET",
            &format!("{path}&includeObject=All"),
            KUBECTL_TABLE,
            "",
            None,
        )
        .await;
        assert_eq!(bad.code, 400, "{how}");
        assert_eq!(
            bad.body["message"],
            "Unable to convert to Table as requested: includeObject: Invalid value: \"All\": \
             must be 'Metadata', 'Object', 'None', or empty",
            "{how}"
        );
    }
}

/// One object, a write's answer and a v1beta1 table; kinds without a printer get the
/// default table (name and creation time, RFC 3339); a `Status` answer stays a `Status`.
#[tokio::test]
async fn objects_and_writes_come_as_tables() {
    let clients = clients().await;
    let client = clients.memory.clone();
    let path = "/api/v1/namespaces/default/configmaps";
    let v1beta1 = "application/json;as=Table;v=v1beta1;g=meta.k8s.io";
    let created = raw_accept(
        &client,
        "POST",
        path,
        v1beta1,
        "application/json",
        Some(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "new"}})),
    )
    .await;
    assert_eq!(created.code, 201);
    assert_eq!(created.body["apiVersion"], "meta.k8s.io/v1beta1");
    assert_eq!(created.body["rows"][0]["cells"][0], "new");
    assert_eq!(
        created.body["rows"][0]["object"]["apiVersion"], "meta.k8s.io/v1beta1",
        "the row's metadata is of the table's version"
    );
    let one = raw_accept(
        &client,
        "GET",
        &format!("{path}/new"),
        KUBECTL_TABLE,
        "",
        None,
    )
    .await;
    assert_eq!(one.body["rows"].as_array().unwrap().len(), 1);
    assert_eq!(
        one.body["metadata"]["resourceVersion"],
        created.body["metadata"]["resourceVersion"]
    );

    let roles = raw_accept(
        &client,
        "GET",
        "/apis/rbac.authorization.k8s.io/v1/clusterroles/admin",
        KUBECTL_TABLE,
        "",
        None,
    )
    .await;
    assert_eq!(column_names(&roles.body), ["Name", "Created At"]);
    assert_eq!(roles.body["columnDefinitions"][1]["type"], "date");
    let created_at = roles.body["rows"][0]["cells"][1].as_str().unwrap();
    assert!(
        created_at.len() == 20 && created_at.ends_with('Z'),
        "{created_at}"
    );
    // The default table leaves an empty list's rows out.
    let empty = raw_accept(
        &client,
        "GET",
        "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles",
        KUBECTL_TABLE,
        "",
        None,
    )
    .await;
    assert_eq!(empty.body["rows"], Value::Null);

    let missing = raw_accept(
        &client,
        "GET",
        &format!("{path}/nothing"),
        KUBECTL_TABLE,
        "",
        None,
    )
    .await;
    assert_eq!(
        (missing.code, missing.body["kind"].as_str()),
        (404, Some("Status"))
    );
    let deleted = raw_accept(
        &client,
        "DELETE",
        &format!("{path}/new"),
        KUBECTL_TABLE,
        "",
        None,
    )
    .await;
    assert_eq!(
        deleted.body["kind"], "Status",
        "a delete that answers a Status is not a table"
    );
}

/// A watch of tables: every event's object is a one-row table; the first carries the column
/// definitions and the later ones `null`.
#[tokio::test]
async fn a_watch_of_tables_sends_columns_once() {
    let clients = clients().await;
    let client = clients.memory.clone();
    let api: Api<ConfigMap> = Api::default_namespaced(client.clone());
    for name in ["a", "b"] {
        api.create(&PostParams::default(), &config_map(name))
            .await
            .unwrap();
    }
    let path = "/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1&labelSelector=app";
    let answer = raw_accept(&client, "GET", path, KUBECTL_TABLE, "", None).await;
    let events: Vec<Value> = answer
        .text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(events.len(), 2);
    assert_eq!(events[0]["object"]["kind"], "Table");
    assert_eq!(column_names(&events[0]["object"]), ["Name", "Data", "Age"]);
    assert_eq!(events[1]["object"]["columnDefinitions"], Value::Null);
    assert_eq!(events[1]["object"]["rows"][0]["cells"][0], "b");
    assert_eq!(
        events[1]["object"]["metadata"]["resourceVersion"],
        events[1]["object"]["rows"][0]["object"]["metadata"]["resourceVersion"]
    );
}

/// A custom resource's table: the name, then the CRD version's printer columns, each cell the
/// first value its JSONPath finds, typed as the column says; `Age` when the CRD lists none.
#[tokio::test]
async fn custom_resources_come_as_tables_of_their_columns() {
    let clients = clients().await;
    let client = clients.memory.clone();
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
            "versions": [
                {"name": "v1", "served": true, "storage": true,
                 "schema": {"openAPIV3Schema": {"type": "object",
                     "x-kubernetes-preserve-unknown-fields": true}},
                 "additionalPrinterColumns": [
                    {"name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas"},
                    {"name": "Ready", "type": "string", "priority": 1,
                     "jsonPath": ".status.conditions[?(@.type==\"Ready\")].status"},
                    {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"}]},
                {"name": "v2", "served": true, "storage": false,
                 "schema": {"openAPIV3Schema": {"type": "object",
                     "x-kubernetes-preserve-unknown-fields": true}}}]}
    });
    let answer = raw(
        &client,
        "POST",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
        "application/json",
        Some(crd),
    )
    .await;
    assert_eq!(answer.code, 201);
    let path = "/apis/example.com/v1/namespaces/default/widgets";
    let widget = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w"}, "spec": {"replicas": 3},
        "status": {"conditions": [{"type": "Synced", "status": "False"},
                                  {"type": "Ready", "status": "True"}]}});
    assert_eq!(
        raw(&client, "POST", path, "application/json", Some(widget))
            .await
            .code,
        201
    );

    let table = raw_accept(&client, "GET", path, KUBECTL_TABLE, "", None).await;
    assert_eq!(
        column_names(&table.body),
        ["Name", "Replicas", "Ready", "Age"]
    );
    let ready = &table.body["columnDefinitions"][2];
    assert_eq!(ready["priority"], 1);
    assert_eq!(
        ready["description"],
        "Custom resource definition column (in JSONPath format): .status.conditions[?(@.type==\"Ready\")].status"
    );
    let cells = &table.body["rows"][0]["cells"];
    assert_eq!(
        (&cells[0], &cells[1], &cells[2]),
        (&json!("w"), &json!(3), &json!("True"))
    );
    assert!(cells[3].as_str().unwrap().ends_with('s'));

    let v2 = raw_accept(
        &client,
        "GET",
        "/apis/example.com/v2/namespaces/default/widgets",
        KUBECTL_TABLE,
        "",
        None,
    )
    .await;
    assert_eq!(column_names(&v2.body), ["Name", "Age"]);
    assert_eq!(v2.body["columnDefinitions"][1]["type"], "date");
}

/// Built-in objects are written in their Go types' member order (`kind` first), lists of
/// them `kind`, `apiVersion`, `metadata`, `items`; custom resources, maps to the server, come
/// sorted.
#[tokio::test]
async fn built_in_objects_are_written_in_go_order() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let answer = raw(
            &client,
            "GET",
            "/api/v1/namespaces/default/services/kubernetes",
            "",
            None,
        )
        .await;
        assert!(
            answer.text.starts_with(r#"{"kind":"Service","apiVersion":"v1","metadata":{"name":"kubernetes","namespace":"default","uid":"#),
            "{how}: {}", answer.text
        );
        assert!(answer.text.contains(r#""spec":{"ports":[{"name":"https","protocol":"TCP","port":443,"targetPort":6443}]"#),
                "{how}: {}", answer.text);
        let list = raw(&client, "GET", "/api/v1/namespaces", "", None).await;
        assert!(
            list.text.starts_with(
                r#"{"kind":"NamespaceList","apiVersion":"v1","metadata":{"resourceVersion":"#
            ),
            "{how}: {}",
            list.text
        );
        // A typed list's items have no type of their own: the server converts the list, and
        // its encoder sets the type of the list alone.
        assert!(
            list.text
                .contains(r#""items":[{"metadata":{"name":"default""#),
            "{how}: {}",
            list.text
        );
        let missing = raw(&client, "GET", "/api/v1/namespaces/none", "", None).await;
        assert!(
            missing.text.starts_with(
                r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"#
            ),
            "{how}: {}",
            missing.text
        );
        // kube reads them as ever.
        let pods: Api<Pod> = Api::default_namespaced(client.clone());
        assert!(
            pods.list(&ListParams::default())
                .await
                .unwrap()
                .items
                .is_empty(),
            "{how}"
        );
    }
}
