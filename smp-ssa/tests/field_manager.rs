//! The field manager on real Kubernetes types (the crate's built-in v1.34 types):
//! the Deployment of the issue's fixture written by kubectl, an autoscaler and a controller.

use serde_json::{Value, json};
use smp_ssa::managedfields::{ApplyOptions, Clock, FieldManager, FieldManagerError};
use smp_ssa::schema::Schema;

/// The crate's built-in v1.34 types.
fn schema() -> Option<&'static Schema> {
    Some(smp_ssa::builtin::schema())
}

fn deployment(replicas: i64, image: &str, labels: Value) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "labels": labels},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "app", "image": image, "ports": [{"containerPort": 80}]}]}
            }
        }
    })
}

fn managers(object: &Value) -> Vec<(String, String, String)> {
    object["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["manager"].as_str().unwrap().to_owned(),
                e["operation"].as_str().unwrap().to_owned(),
                serde_json::to_string(&e["fieldsV1"]).unwrap(),
            )
        })
        .collect()
}

const NO_FORCE: ApplyOptions = ApplyOptions { force: false };
const FORCE: ApplyOptions = ApplyOptions { force: true };

#[test]
fn two_managers_a_conflict_force_and_a_field_removed() {
    let Some(schema) = schema() else { return };
    let fm = FieldManager::new(schema, "apps/v1", "Deployment")
        .unwrap()
        .clock(Clock::fixed("2026-11-26T12:00:00Z").unwrap());

    // kubectl creates it.
    let config = deployment(3, "nginx:1", json!({"app": "web", "tier": "front"}));
    let live = fm.apply(None, &config, "kubectl", NO_FORCE).unwrap();
    let entries = managers(&live);
    assert_eq!(entries.len(), 1);
    assert_eq!(
        (entries[0].0.as_str(), entries[0].1.as_str()),
        ("kubectl", "Apply")
    );
    assert_eq!(
        entries[0].2,
        r#"{"f:metadata":{"f:labels":{"f:app":{},"f:tier":{}}},"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}}}}}}"#
    );
    assert_eq!(
        live["metadata"]["managedFields"][0]["time"],
        "2026-11-26T12:00:00Z"
    );
    assert_eq!(live["spec"]["replicas"], 3);

    // The autoscaler sets the same replicas: shared, not a conflict.
    let hpa = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 3}});
    let live = fm.apply(Some(&live), &hpa, "hpa", NO_FORCE).unwrap();
    assert_eq!(managers(&live).len(), 2);

    // Now it scales to 5, which kubectl owns too: a conflict.
    let hpa5 = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 5}});
    let refused = fm.apply(Some(&live), &hpa5, "hpa", NO_FORCE).unwrap_err();
    assert!(matches!(refused, FieldManagerError::Conflict(_)));
    assert_eq!(
        refused.to_string(),
        r#"Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas"#
    );

    // Forced, it takes the field: kubectl no longer owns it.
    let live = fm.apply(Some(&live), &hpa5, "hpa", FORCE).unwrap();
    assert_eq!(live["spec"]["replicas"], 5);
    let kubectl = managers(&live)
        .into_iter()
        .find(|m| m.0 == "kubectl")
        .unwrap();
    assert!(!kubectl.2.contains("f:replicas"), "{kubectl:?}");

    // A controller updates the image (not an apply): it takes the field from kubectl.
    let mut updated = live.clone();
    updated["spec"]["template"]["spec"]["containers"][0]["image"] = json!("nginx:2");
    let live = fm.update(Some(&live), updated.clone(), "ctrl").unwrap();
    let ctrl = managers(&live)
        .into_iter()
        .find(|m| m.0 == "ctrl")
        .expect("ctrl's entry");
    assert_eq!(ctrl.1, "Update");
    assert!(ctrl.2.contains("f:image"));
    assert_eq!(
        live["metadata"]["managedFields"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["manager"] == "ctrl")
            .unwrap()["apiVersion"],
        "apps/v1"
    );

    // kubectl applies the old image: a conflict with the controller, named with its version.
    let err = fm
        .apply(Some(&live), &config, "kubectl", NO_FORCE)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Apply failed with 2 conflicts: conflicts with \"ctrl\" using apps/v1:\n- .spec.template.spec.containers[name=\"app\"].image\nconflicts with \"hpa\":\n- .spec.replicas"
    );

    // kubectl stops applying the `tier` label (and replicas): the label goes, replicas stays
    // (the autoscaler owns it).
    let config2 = {
        let mut c = deployment(5, "nginx:2", json!({"app": "web"}));
        c["spec"].as_object_mut().unwrap().remove("replicas");
        c
    };
    let live = fm
        .apply(Some(&live), &config2, "kubectl", NO_FORCE)
        .unwrap();
    assert_eq!(live["metadata"]["labels"], json!({"app": "web"}));
    assert_eq!(live["spec"]["replicas"], 5);

    // Applying the same again changes nothing.
    let again = fm
        .apply(Some(&live), &config2, "kubectl", NO_FORCE)
        .unwrap();
    assert_eq!(again, live);
}

#[test]
fn applied_objects_of_another_kind_or_with_managed_fields_are_refused() {
    let Some(schema) = schema() else { return };
    let fm = FieldManager::new(schema, "apps/v1", "Deployment").unwrap();
    let mut config = deployment(1, "a", json!({}));
    config["kind"] = json!("StatefulSet");
    let err = fm.apply(None, &config, "m", NO_FORCE).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid object type: apps/v1, Kind=StatefulSet"
    );
    let mut config = deployment(1, "a", json!({}));
    config["metadata"]["managedFields"] = json!([]);
    let err = fm.apply(None, &config, "m", NO_FORCE).unwrap_err();
    assert_eq!(err.to_string(), "metadata.managedFields must be nil");
}

#[test]
fn an_object_written_before_any_apply_is_recorded_as_before_first_apply() {
    let Some(schema) = schema() else { return };
    let fm = FieldManager::new(schema, "apps/v1", "Deployment")
        .unwrap()
        .clock(Clock::fixed("2026-11-26T12:00:00Z").unwrap());
    let existing = deployment(2, "a", json!({"app": "web"}));
    let live = fm
        .apply(Some(&existing), &json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 2}}), "m", NO_FORCE)
        .unwrap();
    let names: Vec<_> = managers(&live).into_iter().map(|m| (m.0, m.1)).collect();
    assert_eq!(
        names,
        [
            ("m".to_owned(), "Apply".to_owned()),
            ("before-first-apply".to_owned(), "Update".to_owned())
        ]
    );
}

#[test]
fn entries_not_in_the_servers_form_are_written_again_in_it() {
    let Some(schema) = schema() else { return };
    let fm = FieldManager::new(schema, "apps/v1", "Deployment")
        .unwrap()
        .clock(Clock::fixed("2026-11-26T12:00:00Z").unwrap());
    let mut live = fm
        .apply(
            None,
            &deployment(3, "a", json!({"app": "web"})),
            "kubectl",
            NO_FORCE,
        )
        .unwrap();
    // Another manager's entry holds a key of a kind this version does not know.
    live["metadata"]["managedFields"]
        .as_array_mut()
        .unwrap()
        .push(
            json!({"manager": "other", "operation": "Update", "apiVersion": "apps/v1",
                     "time": "2026-11-26T11:00:00Z", "fieldsType": "FieldsV1",
                     "fieldsV1": {"f:metadata": {"f:annotations": {"f:x": {}}}, "r:future": {}}}),
        );
    let scale = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 4}});
    let out = fm.apply(Some(&live), &scale, "hpa", FORCE).unwrap();
    let entries = out["metadata"]["managedFields"].as_array().unwrap();
    let other = entries.iter().find(|e| e["manager"] == "other").unwrap();
    assert_eq!(
        other["fieldsV1"],
        json!({"f:metadata": {"f:annotations": {"f:x": {}}}})
    );
    // kubectl's entry, which lost .spec.replicas, is written again; the others come through.
    let kubectl = entries.iter().find(|e| e["manager"] == "kubectl").unwrap();
    assert!(kubectl["fieldsV1"]["f:spec"].get("f:replicas").is_none());
}

#[test]
fn extracting_what_a_manager_applied_and_applying_it_back_changes_nothing() {
    let Some(schema) = schema() else { return };
    let fm = FieldManager::new(schema, "apps/v1", "Deployment")
        .unwrap()
        .clock(Clock::fixed("2026-11-26T12:00:00Z").unwrap());
    let config = deployment(3, "nginx:1", json!({"app": "web"}));
    let live = fm.apply(None, &config, "kubectl", NO_FORCE).unwrap();
    let hpa = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 5}});
    let live = fm.apply(Some(&live), &hpa, "hpa", FORCE).unwrap();
    // kubectl's fields without replicas (the autoscaler took it).
    let extracted = fm.extract(&live, "kubectl").unwrap();
    let mut expected = config.clone();
    expected["spec"].as_object_mut().unwrap().remove("replicas");
    assert_eq!(extracted, expected);
    let again = fm
        .apply(Some(&live), &extracted, "kubectl", NO_FORCE)
        .unwrap();
    assert_eq!(again, live);
    // The autoscaler's, and a manager that never applied.
    assert_eq!(fm.extract(&live, "hpa").unwrap(), hpa);
    assert_eq!(
        fm.extract(&live, "nobody").unwrap(),
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}})
    );
}

#[test]
fn each_endpoint_keeps_what_it_may_not_change() {
    let main = FieldManager::builtin("apps/v1", "Deployment")
        .unwrap()
        .clock(Clock::fixed("2026-11-26T12:00:00Z").unwrap());
    let status = FieldManager::builtin("apps/v1", "Deployment")
        .unwrap()
        .subresource("status")
        .clock(Clock::fixed("2026-11-26T12:00:00Z").unwrap());
    // Created through the main resource: a status in the configuration is dropped (the new
    // object's status is empty) and owned by nobody.
    let mut config = deployment(3, "a", json!({"app": "web"}));
    config["status"] = json!({"replicas": 9});
    let live = main.apply(None, &config, "kubectl", NO_FORCE).unwrap();
    assert_eq!(live["status"], json!({}));
    assert!(!managers(&live)[0].2.contains("f:status"));
    // The status subresource writes the status, and not the spec or the labels.
    let mut reported = live.clone();
    reported["status"] = json!({"replicas": 3, "readyReplicas": 2});
    reported["spec"]["replicas"] = json!(7);
    reported["metadata"]["labels"]["extra"] = json!("x");
    let live = status
        .update(Some(&live), reported.clone(), "controller")
        .unwrap();
    assert_eq!(live["status"], json!({"replicas": 3, "readyReplicas": 2}));
    assert_eq!(live["spec"]["replicas"], 3);
    assert_eq!(live["metadata"]["labels"], json!({"app": "web"}));
    let controller = &live["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["manager"] == "controller")
        .unwrap();
    assert_eq!(controller["subresource"], "status");
    assert_eq!(
        controller["fieldsV1"],
        json!({"f:status": {"f:readyReplicas": {}, "f:replicas": {}}})
    );
    // The main resource cannot change the status it now has.
    let mut edited = live.clone();
    edited["status"]["replicas"] = json!(0);
    let after = main.update(Some(&live), edited.clone(), "someone").unwrap();
    assert_eq!(after["status"]["replicas"], 3);
}

/// A custom resource's `apiVersion`, `kind` and `metadata` are typed by the server, not by its
/// CRD: a CRD whose schema says nothing of them still has its objects' labels and owner
/// references tracked field by field.
#[test]
fn a_custom_resource_has_the_servers_metadata() {
    let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"plural": "widgets", "kind": "Widget"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object",
                    "properties": {"spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}}}}]}});
    let schema = smp_ssa::schema::from_crds([&crd]).unwrap();
    let fm = FieldManager::new(&schema, "example.com/v1", "Widget")
        .unwrap()
        .clock(Clock::fixed("2026-11-26T12:00:00Z").unwrap());
    let widget = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w", "labels": {"a": "b"}, "finalizers": ["x"],
            "ownerReferences": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "c", "uid": "u1"}]},
        "spec": {"size": 1}});
    let object = fm
        .apply(None, &widget, "me", ApplyOptions::default())
        .unwrap();
    assert_eq!(
        object["metadata"]["managedFields"][0]["fieldsV1"],
        json!({"f:metadata": {"f:finalizers": {"v:\"x\"": {}}, "f:labels": {"f:a": {}},
                              "f:ownerReferences": {"k:{\"uid\":\"u1\"}": {}}},
               "f:spec": {"f:size": {}}})
    );
}
