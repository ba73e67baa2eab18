//! A custom resource declared once in Rust: `#[derive(CustomResource, JsonSchema)]` (kube,
//! schemars) writes its CRD, `#[derive(StrategicMerge)]` its patch metadata, and
//! `smp_core::openapi::annotate` writes the latter into the former as server-side apply
//! markers. Loaded back with `from_crd`, the schema equals `T::schema()`, and typed apply on
//! the struct equals the engine (what `smp patch --crd` does) with the generated CRD.

use kube::CustomResource;
use kube::core::CustomResourceExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use smp_core::openapi::crd::from_crd;
use smp_core::{Patch, StrategicMerge};

/// A port of a widget, identified by its name.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, JsonSchema, StrategicMerge)]
pub struct Port {
    name: String,
    port: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    protocol: Option<String>,
}

/// A selector replaced whole by patches.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, JsonSchema, StrategicMerge)]
pub struct Selector {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    app: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tier: Option<String>,
}

/// The spec of a Widget.
#[derive(
    CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq, JsonSchema, StrategicMerge,
)]
#[kube(group = "example.com", version = "v1", kind = "Widget", namespaced)]
#[serde(rename_all = "camelCase")]
pub struct WidgetSpec {
    replicas: i32,
    #[patch(strategy = "merge", merge_key = "name")]
    ports: Vec<Port>,
    #[patch(strategy = "merge")]
    #[serde(default)]
    finalizers_like: Vec<String>,
    #[patch(strategy = "replace")]
    #[serde(default)]
    args: Vec<String>,
    #[patch(strategy = "replace")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    selector: Option<Selector>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    labels: Option<std::collections::BTreeMap<String, String>>,
}

/// The CRD kube generates, with smp's markers written into the spec's schema.
fn annotated_crd() -> Value {
    let mut crd = serde_json::to_value(Widget::crd()).expect("CRD serializes");
    let spec = crd
        .pointer_mut("/spec/versions/0/schema/openAPIV3Schema/properties/spec")
        .expect("spec schema");
    smp_core::openapi::annotate(spec, WidgetSpec::schema()).expect("annotates");
    crd
}

#[test]
fn the_crd_carries_the_markers_and_loads_back_as_the_same_schema() {
    let crd = annotated_crd();
    let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
    let props = &spec["properties"];
    assert_eq!(props["ports"]["x-kubernetes-list-type"], json!("map"));
    assert_eq!(
        props["ports"]["x-kubernetes-list-map-keys"],
        json!(["name"])
    );
    assert_eq!(
        props["finalizersLike"]["x-kubernetes-list-type"],
        json!("set")
    );
    assert_eq!(props["args"]["x-kubernetes-list-type"], json!("atomic"));
    assert_eq!(props["selector"]["x-kubernetes-map-type"], json!("atomic"));
    assert!(props["labels"].get("x-kubernetes-map-type").is_none());

    let schema = from_crd(&crd, "v1").expect("loads");
    let loaded = schema.root().field("spec").node;
    smp_core::schema::compare(loaded, WidgetSpec::schema()).expect("the same patch metadata");
}

#[test]
fn typed_apply_equals_the_engine_with_the_generated_crd() {
    let crd = annotated_crd();
    let schema = from_crd(&crd, "v1").expect("loads");
    let spec = json!({"replicas": 1, "ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}],
                      "finalizersLike": ["a"], "args": ["--x"], "selector": {"app": "w", "tier": "web"},
                      "labels": {"a": "1"}});
    let patch = json!({"ports": [{"name": "https", "port": 8443}, {"name": "metrics", "port": 9090}],
                       "finalizersLike": ["b"], "args": ["--y"], "selector": {"app": "v"},
                       "labels": {"b": "2"}});
    let widget = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": spec});
    let by_engine = smp_core::apply(&widget, &json!({"spec": patch}), &schema).expect("applies");
    let mut typed: WidgetSpec = serde_json::from_value(spec).expect("fits");
    typed
        .apply(&Patch::from_value(patch).expect("patch"))
        .expect("typed applies");
    assert_eq!(
        serde_json::to_value(&typed).expect("json"),
        by_engine["spec"]
    );
    // Ports merged by name, the set merged, the atomic list and selector replaced.
    assert_eq!(typed.ports.len(), 3);
    assert_eq!(typed.finalizers_like, ["b", "a"]);
    assert_eq!(typed.args, ["--y"]);
    assert_eq!(
        typed.selector.as_ref().and_then(|s| s.tier.as_deref()),
        None
    );
}

#[test]
fn metadata_no_marker_can_say_is_an_error() {
    #[derive(Serialize, Deserialize, Clone, Debug, JsonSchema, StrategicMerge)]
    struct Service {
        #[patch(strategy = "merge", merge_key = "port", recommended = "port,protocol")]
        ports: Vec<Port2>,
        #[patch(strategy = "retainKeys")]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        selector: Option<Selector>,
    }
    #[derive(Serialize, Deserialize, Clone, Debug, JsonSchema, StrategicMerge)]
    struct Port2 {
        port: u16,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        protocol: Option<String>,
    }
    let mut schema = serde_json::to_value(schemars::schema_for!(Service)).expect("schema");
    let before = schema.clone();
    let err = smp_core::openapi::annotate(&mut schema, Service::schema()).expect_err("unsupported");
    assert_eq!(err.problems().len(), 2, "{err}");
    assert!(err.to_string().contains("ports"), "{err}");
    assert!(err.to_string().contains("retainKeys"), "{err}");
    assert_eq!(schema, before, "nothing written on error");
}
