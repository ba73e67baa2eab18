//! The shipped manifests under `examples/` through the typed structs, and typed apply against
//! the Value engine with each kind's schema.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use smp_core::{DocRole, Patch, StrategicMerge};
use smp_types::apps::Deployment;
use smp_types::core::{ConfigMap, Node, Pod, Secret, Service};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

fn read(name: &str) -> Value {
    let text = std::fs::read_to_string(examples().join(name)).expect("example");
    smp_core::parse_document(&text, DocRole::Original).expect("parses")
}

/// Deserialized into `T` and serialized again.
fn through<T: Serialize + DeserializeOwned>(doc: &Value) -> Value {
    let typed: T = serde_json::from_value(doc.clone()).expect("deserializes");
    serde_json::to_value(&typed).expect("serializes")
}

/// The typed round trip of a document, chosen by its kind.
fn round_trip(doc: &Value) -> Value {
    let api_version = doc["apiVersion"].as_str().expect("apiVersion");
    let kind = doc["kind"].as_str().expect("kind");
    assert!(
        smp_types::lookup(api_version, kind).is_some(),
        "{api_version} {kind} is not a known kind"
    );
    match kind {
        "Deployment" => through::<Deployment>(doc),
        "Pod" => through::<Pod>(doc),
        "Service" => through::<Service>(doc),
        "Node" => through::<Node>(doc),
        "ConfigMap" => through::<ConfigMap>(doc),
        "Secret" => through::<Secret>(doc),
        other => panic!("no round trip for {other}"),
    }
}

#[test]
fn every_example_manifest_round_trips_unchanged() {
    let mut seen = 0;
    for entry in std::fs::read_dir(examples()).expect("examples/") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        // Patches and the OpenAPI schema are not manifests.
        if !name.ends_with(".yaml") || name.contains("patch") {
            continue;
        }
        let doc = read(name);
        assert_eq!(
            round_trip(&doc),
            doc,
            "{name} changed in the typed round trip"
        );
        seen += 1;
    }
    assert!(seen >= 7, "only {seen} manifests under examples/");
}

#[test]
fn typed_structs_drop_unknown_fields() {
    // Documented in the crate docs and the README: `smp patch` keeps them, the structs do not.
    let doc = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"},
                     "extra": 1, "data": {"k": "v"}});
    let back = through::<ConfigMap>(&doc);
    assert_eq!(
        back,
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"k": "v"}})
    );
}

#[test]
fn quantities_read_numbers_as_text() {
    let doc = json!({"apiVersion": "v1", "kind": "Node", "status": {"capacity": {"cpu": 4}}});
    assert_eq!(
        through::<Node>(&doc)["status"]["capacity"]["cpu"],
        json!("4")
    );
}

/// `obj.apply(patch)` equals the Value engine with `T::schema()`, compared as JSON after the
/// engine's result went through `T` too (the typed contract: the struct drops what it does not
/// declare, such as a directive inside a list that is replaced whole).
fn assert_typed_apply<T: StrategicMerge + Serialize + DeserializeOwned>(
    doc: &Value,
    patch: &Value,
) {
    let want = through::<T>(&smp_core::apply(doc, patch, T::schema()).expect("Value apply"));
    let mut typed: T = serde_json::from_value(doc.clone()).expect("typed");
    typed
        .apply(&Patch::from_value(patch.clone()).expect("patch"))
        .expect("typed apply");
    assert_eq!(
        serde_json::to_value(&typed).expect("serializes"),
        want,
        "patch: {patch}"
    );
}

#[test]
fn typed_apply_equals_value_apply() {
    let deployment = read("deployment.yaml");
    assert_typed_apply::<Deployment>(&deployment, &read("deployment-patch.yaml"));
    assert_typed_apply::<Deployment>(
        &deployment,
        &json!({"spec": {"template": {"spec": {
            "$setElementOrder/containers": [{"name": "log-shipper"}, {"name": "app"}],
            "containers": [{"name": "app", "ports": [{"containerPort": 9090, "$patch": "delete"}],
                            "$setElementOrder/env": [{"name": "DB_PASSWORD"}, {"name": "LOG_LEVEL"}, {"name": "POD_NAME"}]}],
            "volumes": [{"name": "config", "$retainKeys": ["name", "secret"], "secret": {"secretName": "web-config"}}]
        }}}}),
    );
    let pod = read("pod.yaml");
    assert_typed_apply::<Pod>(&pod, &read("patch.yaml"));
    assert_typed_apply::<Pod>(
        &read("pod-running.yaml"),
        &json!({"status": {"conditions": [{"type": "Ready", "status": "False"}],
                           "containerStatuses": [{"name": "app", "ready": false, "restartCount": 2,
                               "image": "i", "imageID": "d",
                               "state": {"$retainKeys": ["waiting"], "waiting": {"reason": "CrashLoopBackOff"}}}]},
                "metadata": {"$deleteFromPrimitiveList/finalizers": ["x"], "labels": {"pod-template-hash": null}}}),
    );
    let service = read("service.yaml");
    assert_typed_apply::<Service>(
        &service,
        &json!({"spec": {"ports": [{"port": 8080, "name": "alt", "targetPort": 8080}], "selector": {"tier": "web"}}}),
    );
    let node = read("node.yaml");
    assert_typed_apply::<Node>(
        &node,
        &json!({"spec": {"taints": [], "unschedulable": true, "$deleteFromPrimitiveList/podCIDRs": ["10.244.1.0/24"]},
                "status": {"conditions": [{"type": "Ready", "status": "False", "reason": "KubeletNotReady"}],
                           "addresses": [{"type": "ExternalIP", "address": "198.51.100.7"}]}}),
    );
    assert_typed_apply::<ConfigMap>(
        &read("configmap.yaml"),
        &json!({"data": {"LOG_FORMAT": null, "NEW": "1"}}),
    );
    assert_typed_apply::<Secret>(
        &read("secret.yaml"),
        &json!({"data": {"$patch": "replace", "token": "dG9r"}}),
    );
}

#[test]
fn deployment_example_patch_does_what_it_says() {
    let out = smp_core::apply(
        &read("deployment.yaml"),
        &read("deployment-patch.yaml"),
        Deployment::schema(),
    )
    .expect("applies");
    assert_eq!(out["spec"]["strategy"], json!({"type": "Recreate"}));
    let containers = out["spec"]["template"]["spec"]["containers"]
        .as_array()
        .expect("list");
    assert_eq!(containers.len(), 1);
    assert_eq!(
        containers[0]["image"],
        "registry.example.com/shop/web:2.4.0"
    );
    assert_eq!(containers[0]["env"].as_array().map(Vec::len), Some(4));
    assert_eq!(
        out["spec"]["template"]["spec"]["volumes"][1],
        json!({"name": "tmp", "emptyDir": {"medium": "Memory", "sizeLimit": "1Gi"}})
    );
    assert_eq!(
        out["metadata"]["finalizers"],
        json!(["shop.example.com/drain"])
    );
}

#[test]
fn every_kind_is_registered_once() {
    for kind in smp_types::KINDS {
        let found = smp_types::lookup(kind.api_version(), kind.kind()).expect("registered");
        assert_eq!(found.type_name(), kind.type_name());
        assert!(kind.type_name().ends_with(kind.kind()));
    }
}
