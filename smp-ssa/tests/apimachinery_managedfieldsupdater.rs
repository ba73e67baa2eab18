//! Facts from k8s.io/apimachinery v0.32.13,
//! `pkg/util/managedfields/internal/managedfieldsupdater_test.go`, checked against our field
//! manager on a real ConfigMap (the crate's built-in v1.34 types): a manager's time stamp moves
//! when its update or apply changes the object, stays when it changes nothing, and another
//! manager's time stamp stays when the write takes fields from it or leaves its fields alone.
//!
//! Where apimachinery sleeps a second between two writes, the second write here runs on a
//! clock fixed one second later.

use serde_json::{Value, json};
use smp_ssa::managedfields::{ApplyOptions, Clock, FieldManager, ManagedFieldsEntry};
use smp_ssa::schema::Schema;
use std::collections::BTreeMap;

/// The built-in v1.34 types the crate carries (generated from the official documents).
fn schema() -> Option<&'static Schema> {
    Some(smp_ssa::builtin::schema())
}

const FIRST: &str = "2026-03-01T10:00:00Z";
const SECOND: &str = "2026-03-01T10:00:01Z";

/// A ConfigMap kept between writes, as apimachinery's test field manager keeps it: it starts
/// as an empty object of its kind.
struct ConfigMaps {
    schema: &'static Schema,
    live: Value,
}

impl ConfigMaps {
    fn new(schema: &'static Schema) -> Self {
        ConfigMaps {
            schema,
            live: json!({"apiVersion": "v1", "kind": "ConfigMap"}),
        }
    }

    fn manager(&self, at: &str) -> FieldManager<'static> {
        FieldManager::new(self.schema, "v1", "ConfigMap")
            .unwrap()
            .clock(Clock::fixed(at).unwrap())
    }

    fn update(&mut self, at: &str, manager: &str, data: Value) {
        let object = config_map(data);
        self.live = self
            .manager(at)
            .update(Some(&self.live), object.clone(), manager)
            .unwrap();
    }

    /// Applies, forced (as apimachinery's test helper applies).
    fn apply(&mut self, at: &str, manager: &str, data: Value) {
        let object = config_map(data);
        self.live = self
            .manager(at)
            .apply(
                Some(&self.live),
                &object,
                manager,
                ApplyOptions { force: true },
            )
            .unwrap();
    }

    fn entries(&self) -> Vec<ManagedFieldsEntry> {
        serde_json::from_value(self.live["metadata"]["managedFields"].clone()).unwrap()
    }

    fn by_manager(&self) -> BTreeMap<String, ManagedFieldsEntry> {
        self.entries()
            .into_iter()
            .map(|e| (e.manager.clone(), e))
            .collect()
    }
}

fn config_map(data: Value) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "configmap"},
        "data": data
    })
}

#[test]
fn managed_fields_update_does_modify_time() {
    let Some(schema) = schema() else { return };
    let mut f = ConfigMaps::new(schema);
    f.update(FIRST, "fieldmanager_test", json!({"key": "value"}));
    let previous = f.entries();
    f.update(SECOND, "fieldmanager_test", json!({"key": "new-value"}));
    let new = f.entries();
    assert_ne!(previous[0].time, new[0].time, "{new:?}");
}

#[test]
fn managed_fields_apply_does_modify_time() {
    let Some(schema) = schema() else { return };
    let mut f = ConfigMaps::new(schema);
    f.apply(FIRST, "fieldmanager_test", json!({"key": "value"}));
    let previous = f.entries();
    f.apply(SECOND, "fieldmanager_test", json!({"key": "new-value"}));
    let new = f.entries();
    assert_ne!(previous[0].time, new[0].time, "{new:?}");
}

#[test]
fn managed_fields_update_without_changes_does_not_modify_time() {
    let Some(schema) = schema() else { return };
    let mut f = ConfigMaps::new(schema);
    f.update(FIRST, "fieldmanager_test", json!({"key": "value"}));
    let previous = f.entries();
    f.update(SECOND, "fieldmanager_test", json!({"key": "value"}));
    let new = f.entries();
    assert_eq!(previous[0].time, new[0].time, "{previous:?}\n{new:?}");
}

#[test]
fn managed_fields_apply_without_changes_does_not_modify_time() {
    let Some(schema) = schema() else { return };
    let mut f = ConfigMaps::new(schema);
    f.apply(FIRST, "fieldmanager_test", json!({"key": "value"}));
    let previous = f.entries();
    f.apply(SECOND, "fieldmanager_test", json!({"key": "value"}));
    let new = f.entries();
    assert_eq!(previous[0].time, new[0].time, "{previous:?}\n{new:?}");
}

#[test]
fn non_managed_fields_update_does_not_modify_time() {
    let Some(schema) = schema() else { return };
    let mut f = ConfigMaps::new(schema);
    f.update(FIRST, "fieldmanager_a_test", json!({"key_a": "value"}));
    f.update(FIRST, "fieldmanager_b_test", json!({"key_b": "value"}));
    f.update(
        SECOND,
        "fieldmanager_a_test",
        json!({"key_a": "value", "key_b": "new-value"}),
    );
    // B's only field went to A: B has no entry left.
    let new = f.by_manager();
    assert!(
        !new.contains_key("fieldmanager_b_test"),
        "{:?}",
        new.get("fieldmanager_b_test")
    );
}

#[test]
fn non_managed_fields_apply_does_not_modify_time() {
    let Some(schema) = schema() else { return };
    let mut f = ConfigMaps::new(schema);
    f.apply(FIRST, "fieldmanager_a_test", json!({"key_a": "value"}));
    f.apply(FIRST, "fieldmanager_b_test", json!({"key_b": "value"}));
    let previous = f.by_manager();
    f.apply(SECOND, "fieldmanager_a_test", json!({"key_a": "new-value"}));
    let new = f.by_manager();
    assert_eq!(
        previous["fieldmanager_b_test"].time, new["fieldmanager_b_test"].time,
        "{previous:?}\n{new:?}"
    );
}

#[test]
fn taking_over_managed_fields_during_update_does_not_modify_previous_manager_time() {
    let Some(schema) = schema() else { return };
    let mut f = ConfigMaps::new(schema);
    // apimachinery's document gives `key_b` the text `value"` (a plain YAML scalar).
    f.update(
        FIRST,
        "fieldmanager_a_test",
        json!({"key_a": "value", "key_b": "value\""}),
    );
    let previous = f.by_manager();
    f.update(SECOND, "fieldmanager_b_test", json!({"key_b": "new-value"}));
    let new = f.by_manager();
    assert_eq!(
        previous["fieldmanager_a_test"].time,
        new.get("fieldmanager_a_test").and_then(|e| e.time.clone()),
        "{previous:?}\n{new:?}"
    );
}

#[test]
fn taking_over_managed_fields_during_apply_does_not_modify_previous_manager_time() {
    let Some(schema) = schema() else { return };
    let mut f = ConfigMaps::new(schema);
    f.apply(
        FIRST,
        "fieldmanager_a_test",
        json!({"key_a": "value", "key_b": "value\""}),
    );
    let previous = f.by_manager();
    f.apply(SECOND, "fieldmanager_b_test", json!({"key_b": "new-value"}));
    let new = f.by_manager();
    assert_eq!(
        previous["fieldmanager_a_test"].time,
        new.get("fieldmanager_a_test").and_then(|e| e.time.clone()),
        "{previous:?}\n{new:?}"
    );
}
