//! The shipped manifests (`examples/*.yaml` and one per kind under `examples/manifests/`)
//! through their generated types: each round-trips unchanged, and typed apply equals the Value
//! engine with the kind's schema on hand-written and on random patches.

#![cfg(feature = "types")]

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use smp_core::{Patch, StrategicMerge};
use smp_types::api::apps::v1::Deployment;
use smp_types::api::core::v1::{ConfigMap, Node, Pod, Secret, Service};

use crate::support::kinds::{self, Check};
use crate::support::manifests::{examples, read_path};
use crate::support::patches::{self, Rng};

fn read(name: &str) -> Value {
    read_path(&examples().join(name))
}

fn manifests() -> Vec<(String, Value)> {
    crate::support::manifests::all()
}

/// Deserialized into `T` and serialized again.
fn through<T: Serialize + DeserializeOwned>(doc: &Value) -> Value {
    let typed: T = serde_json::from_value(doc.clone()).expect("deserializes");
    serde_json::to_value(&typed).expect("serializes")
}

struct RoundTrip(Option<Value>);

impl Check for RoundTrip {
    fn run<T: StrategicMerge + Clone + PartialEq + std::fmt::Debug>(&mut self, doc: &Value) {
        self.0 = Some(through::<T>(doc));
    }
}

#[test]
fn every_manifest_round_trips_unchanged() {
    let all = manifests();
    let mut kinds_seen = std::collections::BTreeSet::new();
    for (name, doc) in &all {
        let api_version = doc["apiVersion"].as_str().expect("apiVersion");
        let kind = doc["kind"].as_str().expect("kind");
        assert!(
            smp_types::lookup(api_version, kind).is_some(),
            "{name}: {api_version} {kind} is not a known kind"
        );
        let mut check = RoundTrip(None);
        assert!(
            kinds::dispatch(doc, &mut check),
            "{name}: add {api_version} {kind} to tests/support/kinds.rs"
        );
        assert_eq!(
            check.0.as_ref(),
            Some(doc),
            "{name} changed in the typed round trip"
        );
        kinds_seen.insert((api_version.to_owned(), kind.to_owned()));
    }
    assert!(
        kinds_seen.len() >= 41,
        "only {} kinds among the manifests",
        kinds_seen.len()
    );
    // Every kind the dispatch table names has a manifest.
    for (api_version, kind) in kinds::KINDS {
        assert!(
            kinds_seen.contains(&(api_version.to_string(), kind.to_string())),
            "no manifest of {api_version} {kind}"
        );
    }
}

/// Typed apply against the Value engine, with the typed contract: `x.apply(p)` gives what
/// `from_value(engine::apply(to_value(x), p))` gives, compared on the JSON form, and fails
/// exactly when that round trip fails, leaving `x` unchanged.
struct TypedEqualsValue {
    patch: Value,
}

impl Check for TypedEqualsValue {
    fn run<T: StrategicMerge + Clone + PartialEq + std::fmt::Debug>(&mut self, doc: &Value) {
        let original: T = serde_json::from_value(doc.clone()).expect("typed");
        let json = serde_json::to_value(&original).expect("serializes");
        let want = smp_core::apply(&json, &self.patch, T::schema())
            .map_err(|e| e.to_string())
            .and_then(|v| serde_json::from_value::<T>(v).map_err(|e| e.to_string()))
            .map(|t| serde_json::to_value(&t).expect("serializes"));
        let mut typed = original.clone();
        let patch = Patch::from_value(self.patch.clone()).expect("patch");
        match (typed.apply(&patch), want) {
            (Ok(()), Ok(want)) => assert_eq!(
                serde_json::to_value(&typed).expect("serializes"),
                want,
                "patch: {}",
                self.patch
            ),
            (Err(_), Err(_)) => assert_eq!(typed, original, "a failed apply changed the value"),
            (got, want) => panic!(
                "typed apply {got:?}, Value apply {:?}; patch: {}",
                want.map(|_| ()),
                self.patch
            ),
        }
    }
}

fn assert_typed_apply(doc: &Value, patch: Value) {
    assert!(kinds::dispatch(doc, &mut TypedEqualsValue { patch }));
}

#[test]
fn typed_apply_equals_value_apply_on_random_patches() {
    let cases: usize = std::env::var("SMP_TYPES_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let mut rng = Rng(0x5eed_0011);
    let mut total = 0;
    for (name, doc) in manifests() {
        let kind = smp_types::lookup(
            doc["apiVersion"].as_str().unwrap_or_default(),
            doc["kind"].as_str().unwrap_or_default(),
        )
        .unwrap_or_else(|| panic!("{name}: unknown kind"));
        for _ in 0..cases {
            let patch = patches::patch(&mut rng, &doc, kind.schema());
            let result = std::panic::catch_unwind(|| assert_typed_apply(&doc, patch.clone()));
            if let Err(e) = result {
                eprintln!("{name}: patch {patch}");
                std::panic::resume_unwind(e);
            }
            total += 1;
        }
    }
    assert!(total >= 59 * cases.min(1));
}

#[test]
fn typed_apply_equals_value_apply() {
    let deployment = read("deployment.yaml");
    assert_typed_apply(&deployment, read("deployment-patch.yaml"));
    assert_typed_apply(
        &deployment,
        json!({"spec": {"template": {"spec": {
            "$setElementOrder/containers": [{"name": "log-shipper"}, {"name": "app"}],
            "containers": [{"name": "app", "ports": [{"containerPort": 9090, "$patch": "delete"}],
                            "$setElementOrder/env": [{"name": "DB_PASSWORD"}, {"name": "LOG_LEVEL"}, {"name": "POD_NAME"}]}],
            "volumes": [{"name": "config", "$retainKeys": ["name", "secret"], "secret": {"secretName": "web-config"}}]
        }}}}),
    );
    assert_typed_apply(&read("pod.yaml"), read("patch.yaml"));
    assert_typed_apply(
        &read("pod-running.yaml"),
        json!({"status": {"conditions": [{"type": "Ready", "status": "False"}],
                           "containerStatuses": [{"name": "app", "ready": false, "restartCount": 2,
                               "image": "i", "imageID": "d",
                               "state": {"$retainKeys": ["waiting"], "waiting": {"reason": "CrashLoopBackOff"}}}]},
                "metadata": {"$deleteFromPrimitiveList/finalizers": ["x"], "labels": {"pod-template-hash": null}}}),
    );
    assert_typed_apply(
        &read("service.yaml"),
        json!({"spec": {"ports": [{"port": 8080, "name": "alt", "targetPort": 8080}], "selector": {"tier": "web"}}}),
    );
    assert_typed_apply(
        &read("node.yaml"),
        json!({"spec": {"taints": [], "unschedulable": true, "$deleteFromPrimitiveList/podCIDRs": ["10.244.1.0/24"]},
                "status": {"conditions": [{"type": "Ready", "status": "False", "reason": "KubeletNotReady"}],
                           "addresses": [{"type": "ExternalIP", "address": "198.51.100.7"}]}}),
    );
    assert_typed_apply(
        &read("configmap.yaml"),
        json!({"data": {"LOG_FORMAT": null, "NEW": "1"}}),
    );
    assert_typed_apply(
        &read("secret.yaml"),
        json!({"data": {"$patch": "replace", "token": "dG9r"}}),
    );
}

#[test]
fn typed_structs_drop_unknown_fields() {
    // Documented in the crate docs and the kubernetes_types guide: `smp patch` keeps them, the structs do not.
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

#[test]
fn numbers_keep_their_form() {
    use smp_types::apiextensions_apiserver::pkg::apis::apiextensions::v1::JSONSchemaProps;
    let doc = json!({"type": "integer", "minimum": 1, "maximum": 1.5, "multipleOf": 2.0,
                     "properties": {"a": {"not": {"minimum": -3}}}});
    assert_eq!(through::<JSONSchemaProps>(&doc), doc);
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
fn typed_paths_are_the_registry_paths() {
    fn short<T>() -> String {
        std::any::type_name::<T>().replacen("smp_types::", "", 1)
    }
    for (path, definition) in [
        (short::<Pod>(), "io.k8s.api.core.v1.Pod"),
        (short::<Service>(), "io.k8s.api.core.v1.Service"),
        (short::<Secret>(), "io.k8s.api.core.v1.Secret"),
        (short::<Deployment>(), "io.k8s.api.apps.v1.Deployment"),
    ] {
        let d = smp_types::definition(definition).expect("registered");
        assert_eq!(d.type_name(), format!("smp_types::{path}"));
    }
}
