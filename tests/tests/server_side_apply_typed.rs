//! Server-side apply on Rust types: smp-types' `Deployment`, k8s-openapi's, and a custom
//! resource declared with kube, its merge keys stated once by `#[derive(StrategicMerge)]`. Each
//! typed write equals the same write on the objects' JSON.

use k8s_openapi::Resource;
use kube::CustomResource;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use smp_core::{ObjectPatch, StrategicMerge};
use smp_ssa::managedfields::{ApplyOptions, Clock, FieldManagerError, TypedFieldManager};

const NO_FORCE: ApplyOptions = ApplyOptions { force: false };

fn fixed<T>(fm: TypedFieldManager<'static, T>) -> TypedFieldManager<'static, T>
where
    T: Serialize + serde::de::DeserializeOwned,
{
    fm.map(|fm| fm.clock(Clock::fixed("2026-11-26T12:00:00Z").unwrap()))
}

fn deployment_json() -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
           "spec": {"selector": {"matchLabels": {"app": "web"}},
                    "template": {"metadata": {"labels": {"app": "web"}},
                                 "spec": {"containers": [{"name": "app", "image": "a:1"}]}}}})
}

#[test]
fn smp_types_and_k8s_openapi_deployments_apply_as_their_json_does() {
    let config = smp_types::api::apps::v1::DeploymentPatch::apply_configuration("web")
        .unwrap()
        .spec_with(|s| s.replicas(4))
        .to_apply_configuration()
        .unwrap();
    let live_json = deployment_json();
    // The JSON engine.
    let fm = smp_ssa::managedfields::FieldManager::new(
        smp_ssa::builtin::schema(),
        "apps/v1",
        "Deployment",
    )
    .unwrap()
    .clock(Clock::fixed("2026-11-26T12:00:00Z").unwrap());
    let expected = fm
        .apply(Some(&live_json), config.as_value(), "scaler", NO_FORCE)
        .unwrap();

    // smp-types.
    let typed =
        fixed(TypedFieldManager::<smp_types::api::apps::v1::Deployment>::builtin().unwrap());
    let live: smp_types::api::apps::v1::Deployment =
        serde_json::from_value(live_json.clone()).unwrap();
    let out = typed
        .apply(Some(&live), &config, "scaler", NO_FORCE)
        .unwrap();
    assert_eq!(serde_json::to_value(&out).unwrap(), expected);

    // k8s-openapi.
    use k8s_openapi::api::apps::v1::Deployment;
    let typed = fixed(
        TypedFieldManager::<Deployment>::for_kind(Deployment::API_VERSION, Deployment::KIND)
            .unwrap(),
    );
    let live: Deployment = serde_json::from_value(live_json).unwrap();
    let out = typed
        .apply(Some(&live), &config, "scaler", NO_FORCE)
        .unwrap();
    assert_eq!(out.spec.as_ref().and_then(|s| s.replicas), Some(4));
    assert_eq!(serde_json::to_value(&out).unwrap(), expected);
    let managers: Vec<_> = out
        .metadata
        .managed_fields
        .unwrap_or_default()
        .into_iter()
        .map(|e| e.manager.unwrap_or_default())
        .collect();
    // The fields the object had before its first apply are recorded as their own manager's.
    assert_eq!(managers, ["scaler", "before-first-apply"]);
}

/// A port of a widget, identified by its name.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, JsonSchema, StrategicMerge)]
pub struct Port {
    name: String,
    port: u16,
}

/// The spec of a Widget: ports merged by name.
#[derive(
    CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq, JsonSchema, StrategicMerge,
)]
#[kube(group = "example.com", version = "v1", kind = "Widget", namespaced)]
pub struct WidgetSpec {
    #[patch(strategy = "merge", merge_key = "name")]
    ports: Vec<Port>,
}

smp_types::custom_resource!(Widget, spec = WidgetSpec);

#[test]
fn a_custom_resource_declared_with_kube_is_applied_by_its_merge_keys() {
    type Smp = smp_types::custom_resource::Object<WidgetSpec>;
    let fm = fixed(
        TypedFieldManager::<Widget>::derived_from::<Smp>("example.com/v1", "Widget").unwrap(),
    );
    let port = |name: &str, port: u16| Port {
        name: name.into(),
        port,
    };
    let config = |ports: Vec<Port>| {
        let mut w = Widget::new("w", WidgetSpec { ports });
        w.metadata.namespace = None;
        w
    };
    // Two managers own a port each: the list merges by name.
    let live = fm
        .apply(None, &config(vec![port("http", 80)]), "alice", NO_FORCE)
        .unwrap();
    let live = fm
        .apply(
            Some(&live),
            &config(vec![port("grpc", 9090)]),
            "bob",
            NO_FORCE,
        )
        .unwrap();
    let names: Vec<_> = live.spec.ports.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["http", "grpc"]);
    // Bob changing Alice's port conflicts, keyed as the derive says.
    let err = fm
        .apply(
            Some(&live),
            &config(vec![port("http", 81)]),
            "bob",
            NO_FORCE,
        )
        .unwrap_err();
    assert!(matches!(err, FieldManagerError::Conflict(_)));
    assert_eq!(
        err.to_string(),
        "Apply failed with 1 conflict: conflict with \"alice\": .spec.ports[name=\"http\"].port"
    );
    // What Alice applied comes back as her configuration.
    let extracted = fm.extract(&live, "alice").unwrap();
    assert_eq!(
        extracted,
        json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
               "spec": {"ports": [{"name": "http", "port": 80}]}})
    );
}
