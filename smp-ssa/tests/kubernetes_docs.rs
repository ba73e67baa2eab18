//! The examples of Kubernetes' server-side apply documentation (kubernetes/website,
//! `docs/reference/using-api/server-side-apply.md`), their objects and outcomes checked
//! against the field manager: a ConfigMap applied by kubectl, an update by a controller taking
//! a field, shared ownership and giving it up, the hand-over of `replicas` to an autoscaler,
//! and managedFields cleared by an update.

use serde_json::{Value, json};
use smp_ssa::managedfields::{ApplyOptions, Clock, FieldManager, FieldManagerError};

const NO_FORCE: ApplyOptions = ApplyOptions { force: false };

fn fm(api_version: &str, kind: &str) -> FieldManager<'static> {
    FieldManager::new(smp_ssa::builtin::schema(), api_version, kind)
        .unwrap()
        .clock(Clock::fixed("2019-03-30T15:00:00Z").unwrap())
}

/// Each entry's manager, operation and fields.
fn entries(object: &Value) -> Vec<(String, String, Value)> {
    object["metadata"]["managedFields"]
        .as_array()
        .map(|entries| {
            entries
                .iter()
                .map(|e| {
                    (
                        e["manager"].as_str().unwrap().to_owned(),
                        e["operation"].as_str().unwrap().to_owned(),
                        e["fieldsV1"].clone(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn test_cm(value: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap",
           "metadata": {"name": "test-cm", "namespace": "default", "labels": {"test-label": "test"}},
           "data": {"key": value}})
}

#[test]
fn a_configmap_applied_by_kubectl() {
    let cm = fm("v1", "ConfigMap");
    let object = cm
        .apply(None, &test_cm("some value"), "kubectl", NO_FORCE)
        .unwrap();
    assert_eq!(
        entries(&object),
        [(
            "kubectl".into(),
            "Apply".into(),
            json!({"f:metadata": {"f:labels": {"f:test-label": {}}}, "f:data": {"f:key": {}}})
        )]
    );
}

#[test]
fn an_update_by_a_controller_takes_the_field_it_changed() {
    let cm = fm("v1", "ConfigMap");
    let object = cm
        .apply(None, &test_cm("some value"), "kubectl", NO_FORCE)
        .unwrap();
    let mut changed = object.clone();
    changed["data"]["key"] = json!("new value");
    let object = cm
        .clock(Clock::fixed("2019-03-30T16:00:00Z").unwrap())
        .update(Some(&object), changed.clone(), "kube-controller-manager")
        .unwrap();
    assert_eq!(
        entries(&object),
        [
            (
                "kubectl".into(),
                "Apply".into(),
                json!({"f:metadata": {"f:labels": {"f:test-label": {}}}})
            ),
            (
                "kube-controller-manager".into(),
                "Update".into(),
                json!({"f:data": {"f:key": {}}})
            ),
        ]
    );
    assert_eq!(object["data"]["key"], "new value");
    // The same change made by an apply would have been refused.
    let cm = fm("v1", "ConfigMap");
    let first = cm
        .apply(None, &test_cm("some value"), "kubectl", NO_FORCE)
        .unwrap();
    let refused = cm.apply(
        Some(&first),
        &test_cm("new value"),
        "kube-controller-manager",
        NO_FORCE,
    );
    assert!(matches!(refused, Err(FieldManagerError::Conflict(_))));
}

#[test]
fn appliers_setting_the_same_value_share_it_and_either_can_give_it_up() {
    let cm = fm("v1", "ConfigMap");
    let data = |v: &str| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "test-cm"}, "data": {"key": v}});
    let object = cm.apply(None, &data("a"), "one", NO_FORCE).unwrap();
    let object = cm
        .apply(Some(&object), &data("a"), "two", NO_FORCE)
        .unwrap();
    assert!(
        entries(&object)
            .iter()
            .all(|e| e.2 == json!({"f:data": {"f:key": {}}}))
    );
    // A change by either conflicts with the other.
    for (me, other) in [("one", "two"), ("two", "one")] {
        let err = cm
            .apply(Some(&object), &data("b"), me, NO_FORCE)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("Apply failed with 1 conflict: conflict with \"{other}\": .data.key")
        );
    }
    // "one" gives it up by leaving it out: the value stays, "two" owns it alone.
    let empty = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "test-cm"}});
    let object = cm.apply(Some(&object), &empty, "one", NO_FORCE).unwrap();
    assert_eq!(object["data"]["key"], "a");
    let managers: Vec<String> = entries(&object).into_iter().map(|e| e.0).collect();
    assert_eq!(managers, ["two"]);
}

fn nginx(replicas: Option<i64>) -> Value {
    let mut d = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "nginx-deployment", "labels": {"app": "nginx"}},
        "spec": {
            "selector": {"matchLabels": {"app": "nginx"}},
            "template": {
                "metadata": {"labels": {"app": "nginx"}},
                "spec": {"containers": [{"name": "nginx", "image": "nginx:1.14.2", "ports": [{"containerPort": 80}]}]}
            }
        }
    });
    if let Some(r) = replicas {
        d["spec"]["replicas"] = json!(r);
    }
    d
}

#[test]
fn replicas_handed_over_to_an_autoscaler() {
    let deploy = fm("apps/v1", "Deployment");
    let object = deploy
        .apply(None, &nginx(Some(3)), "kubectl", NO_FORCE)
        .unwrap();
    // A private manager applies replicas alone: it shares the field with kubectl.
    let replicas_only = json!({"apiVersion": "apps/v1", "kind": "Deployment",
                               "metadata": {"name": "nginx-deployment"}, "spec": {"replicas": 3}});
    let object = deploy
        .apply(Some(&object), &replicas_only, "handover-to-hpa", NO_FORCE)
        .unwrap();
    // The user's manifest drops replicas: the value stays, owned by the private manager.
    let object = deploy
        .apply(Some(&object), &nginx(None), "kubectl", NO_FORCE)
        .unwrap();
    assert_eq!(object["spec"]["replicas"], 3);
    let owner = |object: &Value| -> Vec<String> {
        entries(object)
            .into_iter()
            .filter(|e| e.2["f:spec"].get("f:replicas").is_some())
            .map(|e| e.0)
            .collect()
    };
    assert_eq!(owner(&object), ["handover-to-hpa"]);
    // The autoscaler's controller sets replicas: the private manager owns nothing more and is
    // gone.
    let mut scaled = object.clone();
    scaled["spec"]["replicas"] = json!(5);
    let object = deploy
        .update(Some(&object), scaled.clone(), "horizontal-pod-autoscaler")
        .unwrap();
    assert_eq!(owner(&object), ["horizontal-pod-autoscaler"]);
    assert!(entries(&object).iter().all(|e| e.0 != "handover-to-hpa"));
}

#[test]
fn an_update_with_one_empty_entry_clears_managed_fields() {
    let cm = fm("v1", "ConfigMap");
    let mut object = cm
        .apply(None, &test_cm("some value"), "kubectl", NO_FORCE)
        .unwrap();
    object["metadata"]["uid"] = json!("a-uid");
    let mut cleared = object.clone();
    cleared["metadata"]["managedFields"] = json!([{}]);
    let object = cm
        .update(Some(&object), cleared.clone(), "someone")
        .unwrap();
    assert!(
        object["metadata"].get("managedFields").is_none(),
        "{object}"
    );
}
