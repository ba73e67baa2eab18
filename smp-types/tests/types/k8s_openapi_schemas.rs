//! k8s-openapi's values patched with smp-types' schemas alone: what a kube user builds with
//! `features = ["k8s-openapi"]` (no `types`), and with the types too. CI runs this file both
//! ways.
#![cfg(all(feature = "k8s-openapi", feature = "apps"))]

use k8s_openapi::api::apps::v1::Deployment;
use serde_json::{Value, json};
use smp_core::{Patch, ThreeWayOptions};
use smp_types::k8s_openapi::StrategicMergeExt;

fn live() -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "finalizers": ["a"]},
        "spec": {
            "selector": {"matchLabels": {"app": "web"}},
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [
                    {"name": "web", "image": "nginx:1.27", "ports": [{"containerPort": 80}]},
                    {"name": "log", "image": "busybox"}
                ]}
            }
        }
    })
}

fn patch() -> Patch {
    json!({
        "metadata": {"finalizers": ["b"]},
        "spec": {
            "strategy": {"type": "Recreate", "rollingUpdate": null},
            "template": {"spec": {"containers": [
                {"name": "web", "image": "nginx:1.28", "ports": [{"containerPort": 443}]}
            ]}}
        }
    })
    .to_string()
    .parse()
    .unwrap_or_else(|e| panic!("{e}"))
}

fn typed(value: Value) -> Deployment {
    serde_json::from_value(value).unwrap_or_else(|e| panic!("{e}"))
}

fn json_of(d: &Deployment) -> Value {
    serde_json::to_value(d).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn apply_is_the_engines_with_the_kinds_schema() {
    let kind = smp_types::lookup("apps/v1", "Deployment").unwrap_or_else(|| panic!("a kind"));
    let want = smp_core::apply(&live(), patch().as_value(), kind.schema())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut d = typed(live());
    d.apply(&patch()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json_of(&d), want);
    // Containers merged by name, ports by containerPort, finalizers as a set.
    assert_eq!(
        want["spec"]["template"]["spec"]["containers"][1]["name"],
        "log"
    );
    assert_eq!(want["metadata"]["finalizers"], json!(["b", "a"]));
}

#[test]
fn diff_and_three_way_round_trip() {
    let before = typed(live());
    let mut after = before.clone();
    after.apply(&patch()).unwrap_or_else(|e| panic!("{e}"));
    let two_way = before.diff(&after).unwrap_or_else(|e| panic!("{e}"));
    let mut again = before.clone();
    again.apply(&two_way).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json_of(&again), json_of(&after));

    let three_way = Deployment::three_way(&before, &after, &before, &ThreeWayOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut live = before.clone();
    live.apply(&three_way).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json_of(&live), json_of(&after));
}
