//! Facts from k8s.io/apimachinery v0.32.13,
//! `pkg/util/managedfields/internal/lastappliedupdater_test.go`, checked against our field
//! manager on real types (the crate's built-in v1.34 types): only an apply by `kubectl` rewrites
//! the client-side apply annotation (`kubectl.kubernetes.io/last-applied-configuration`), and
//! only when the object already has one; the annotation is dropped instead when it would take
//! the object's annotations past the API server's size limit (256 KiB).

use serde_json::{Value, json};
use smp_ssa::managedfields::{ApplyOptions, Clock, FieldManager, LAST_APPLIED};
use smp_ssa::schema::Schema;

/// The built-in v1.34 types the crate carries (generated from the official documents).
fn schema() -> Option<&'static Schema> {
    Some(smp_ssa::builtin::schema())
}

const NO_FORCE: ApplyOptions = ApplyOptions { force: false };

fn manager<'s>(schema: &'s Schema, api_version: &str, kind: &str) -> FieldManager<'s> {
    FieldManager::new(schema, api_version, kind)
        .unwrap()
        .clock(Clock::fixed("2026-03-01T10:00:00Z").unwrap())
}

fn last_applied(object: &Value) -> Option<&str> {
    object["metadata"]["annotations"][LAST_APPLIED].as_str()
}

#[test]
fn last_applied_updater() {
    let Some(schema) = schema() else { return };
    let fm = manager(schema, "apps/v1", "Deployment");
    let original_last_applied = "nonempty";
    let applied = json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": "my-deployment",
            "annotations": {LAST_APPLIED: original_last_applied},
            "labels": {"app": "my-app"}
        },
        "spec": {
            "replicas": 20,
            "selector": {"matchLabels": {"app": "my-app"}},
            "template": {
                "metadata": {"labels": {"app": "my-app"}},
                "spec": {"containers": [{"name": "my-c", "image": "my-image"}]}
            }
        }
    });
    let live = json!({"apiVersion": "apps/v1", "kind": "Deployment"});

    let live = fm
        .apply(Some(&live), &applied, "NOT-KUBECTL", NO_FORCE)
        .unwrap();
    assert_eq!(
        last_applied(&live),
        Some(original_last_applied),
        "the annotation is not updated by another manager"
    );

    let live = fm
        .apply(Some(&live), &applied, "kubectl", NO_FORCE)
        .unwrap();
    let text = last_applied(&live).expect("a last-applied annotation");
    assert!(
        text != original_last_applied && text.contains("my-app") && text.contains("my-image"),
        "expected the annotation updated, got {text:?}"
    );
}

fn config_map() -> Value {
    json!({
        "metadata": {
            "name": "large-update-test-cm",
            "namespace": "default",
            "annotations": {LAST_APPLIED: "nonempty"}
        },
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "data": {"k": "v"}
    })
}

/// The long key number `i` of these cases.
fn long_key(i: usize) -> String {
    format!("this-key-is-very-long-so-as-to-create-a-very-large-serialized-fieldset-{i}")
}

/// `kubectl` applies `old` to an empty ConfigMap: the annotation is rebuilt; then applies
/// `new`, whose annotation would be too large: the object is left without one.
fn large_last_applied(old: Value, new: Value) {
    let Some(schema) = schema() else { return };
    let fm = manager(schema, "v1", "ConfigMap");
    let live = json!({"apiVersion": "v1", "kind": "ConfigMap"});

    let live = fm.apply(Some(&live), &old, "kubectl", NO_FORCE).unwrap();
    let text = last_applied(&live).expect("a last-applied annotation");
    assert!(
        !text.is_empty() && text != "nonempty",
        "expected an updated last-applied annotation, got {text:?}"
    );

    let live = fm.apply(Some(&live), &new, "kubectl", NO_FORCE).unwrap();
    let annotations = &live["metadata"]["annotations"];
    assert!(annotations.is_object(), "no annotations on {live}");
    let kept = annotations.get(LAST_APPLIED);
    assert!(
        kept.is_none(),
        "expected no last-applied annotation, got one of length {}",
        kept.and_then(Value::as_str).map_or(0, str::len)
    );
}

#[test]
fn large_last_applied_new_object_annotation_too_big() {
    let old = config_map();
    let mut new = config_map();
    for i in 0..9999 {
        new["data"][long_key(i)] = json!("A");
    }
    large_last_applied(old, new);
}

#[test]
fn large_last_applied_new_object_annotations_and_annotation_too_big() {
    let mut old = config_map();
    for i in 0..2000 {
        old["data"][long_key(i)] = json!("A");
    }
    let mut new = config_map();
    for i in 0..2000 {
        new["data"][long_key(i)] = json!("A");
        new["metadata"]["annotations"][long_key(i)] = json!("A");
    }
    large_last_applied(old, new);
}
