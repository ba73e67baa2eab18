//! Facts from k8s.io/apimachinery v0.32.13,
//! `pkg/util/managedfields/internal/skipnonapplied_test.go`, checked against our field manager
//! on a real Pod (the crate's built-in v1.34 types): an object nobody has applied to is not
//! tracked on update; the first apply records the fields already there as the update of
//! `before-first-apply`, which it then conflicts with (and takes over when forced); an apply to
//! an empty object records only the applier.
//!
//! apimachinery's second case writes its untracked object by an update that creates it, under
//! a skip-non-applied manager that never tracks a create (probability 0). Our field manager
//! is the API server's, which tracks every create (probability 1) and leaves untracked the
//! update of an object that exists (has a `uid`) without managedFields; the case's update is
//! made here to such an object, the other branch of the same manager, with the same result:
//! no managedFields.

use serde_json::{Value, json};
use smp_ssa::managedfields::{ApplyOptions, Clock, FieldManager, FieldManagerError};
use smp_ssa::schema::Schema;

/// The built-in v1.34 types the crate carries (generated from the official documents).
fn schema() -> Option<&'static Schema> {
    Some(smp_ssa::builtin::schema())
}

fn pods(schema: &Schema) -> FieldManager<'_> {
    FieldManager::new(schema, "v1", "Pod")
        .unwrap()
        .clock(Clock::fixed("2026-03-01T10:00:00Z").unwrap())
}

fn applied_pod() -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "pod", "labels": {"app": "nginx"}},
        "spec": {"containers": [{"name": "nginx", "image": "nginx:latest"}]}
    })
}

fn managers(live: &Value) -> Vec<String> {
    live["metadata"]["managedFields"]
        .as_array()
        .map(|entries| {
            entries
                .iter()
                .map(|e| e["manager"].as_str().unwrap().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn no_update_before_first_apply() {
    let Some(schema) = schema() else { return };
    let live = json!({"apiVersion": "v1", "kind": "Pod"});
    let live = pods(schema)
        .apply(
            Some(&live),
            &applied_pod(),
            "fieldmanager_test_apply",
            ApplyOptions { force: false },
        )
        .unwrap();
    assert_eq!(managers(&live), ["fieldmanager_test_apply"]);
}

#[test]
fn update_before_first_apply() {
    let Some(schema) = schema() else { return };
    let fm = pods(schema);
    // An object that exists, never applied to: its update is not tracked.
    let live = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"uid": "6a1d6c3e"}});
    let updated = json!({
        "kind": "Pod",
        "apiVersion": "v1",
        "metadata": {"uid": "6a1d6c3e", "labels": {"app": "my-nginx"}}
    });
    let live = fm
        .update(Some(&live), updated.clone(), "fieldmanager_test_update")
        .unwrap();
    assert_eq!(
        live["metadata"].get("managedFields"),
        None,
        "managedFields were tracked on update only"
    );

    let err = fm
        .apply(
            Some(&live),
            &applied_pod(),
            "fieldmanager_test_apply",
            ApplyOptions { force: false },
        )
        .unwrap_err();
    let FieldManagerError::Conflict(conflict) = &err else {
        panic!("expected one conflict, got {err}")
    };
    let causes = conflict.causes();
    assert_eq!(causes.len(), 1, "{err}");
    assert_eq!(causes[0].1, ".metadata.labels.app", "{err}");
    assert!(causes[0].0.contains("before-first-apply"), "{err}");

    let live = fm
        .apply(
            Some(&live),
            &applied_pod(),
            "fieldmanager_test_apply",
            ApplyOptions { force: true },
        )
        .unwrap();
    assert_eq!(
        managers(&live),
        ["fieldmanager_test_apply", "before-first-apply"]
    );
}
