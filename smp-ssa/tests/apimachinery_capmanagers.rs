//! Facts from k8s.io/apimachinery v0.32.13, `pkg/util/managedfields/internal/capmanagers_test.go`,
//! checked against our field manager on a real Pod (the crate's built-in v1.34 types): when there
//! are more update managers than the cap, the oldest are merged, version by version, into an
//! `ancient-changes` entry of their version carrying the time of the newest merged; and a write
//! that changes nothing leaves the list as it is.
//!
//! apimachinery runs these cases with a cap of 3; ours is fixed at `MAX_UPDATE_MANAGERS`
//! (10, the API server's). Every object here therefore also carries seven filler update
//! managers, each of an API version of its own and newer than every manager of the case: the
//! capping reaches them last and finds no second entry of their version to merge them with, so
//! what the cap of 10 does to the case's managers is what the cap of 3 does without them. The
//! fillers are checked to come out untouched, after the case's own entries.

use serde_json::{Value, json};
use smp_ssa::fieldpath::{Path, fields_v1};
use smp_ssa::managedfields::{Clock, FieldManager, MAX_UPDATE_MANAGERS};
use smp_ssa::schema::Schema;

/// The built-in v1.34 types the crate carries (generated from the official documents).
fn schema() -> Option<&'static Schema> {
    Some(smp_ssa::builtin::schema())
}

/// apimachinery's cap in these cases.
const CASE_CAP: usize = 3;

/// The filler update managers that make our cap act as the case's.
fn fillers() -> Vec<Value> {
    (1..=MAX_UPDATE_MANAGERS - CASE_CAP)
        .map(|i| {
            json!({
                "manager": format!("filler-{i}"),
                "operation": "Update",
                "apiVersion": format!("filler.example/v{i}"),
                "time": format!("2100-01-01T00:00:{i:02}Z"),
                "fieldsType": "FieldsV1",
                "fieldsV1": {format!("f:filler-{i}"): {}}
            })
        })
        .collect()
}

/// The Pod field manager, its clock at `at`.
fn pods<'s>(schema: &'s Schema, at: &str) -> FieldManager<'s> {
    FieldManager::new(schema, "v1", "Pod")
        .unwrap()
        .clock(Clock::fixed(at).unwrap())
}

fn managed_fields(live: &Value) -> Vec<Value> {
    live["metadata"]["managedFields"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// A write that changes nothing (an update by `no-op-update` of the object as it is) leaves
/// the managedFields as they are.
fn expect_idempotence(schema: &Schema, live: &Value) {
    let before = managed_fields(live);
    let after = pods(schema, "2099-01-01T00:00:00Z")
        .update(Some(live), live.clone(), "no-op-update")
        .unwrap();
    assert_eq!(managed_fields(&after), before);
}

/// The manager named `manager` owns `path`.
fn expect_manages_field(live: &Value, manager: &str, path: &[&str]) {
    let entries = managed_fields(live);
    let entry = entries
        .iter()
        .find(|e| e["manager"] == manager)
        .unwrap_or_else(|| panic!("no manager {manager}: {entries:?}"));
    let set = fields_v1::from_value(&entry["fieldsV1"]).unwrap();
    assert!(
        set.has(&Path::fields(path.iter().copied())),
        "{manager} does not own {path:?}: {set:?}"
    );
}

#[test]
fn cap_managers_manager_merges_entries() {
    let Some(schema) = schema() else { return };
    let pod_with_labels = |labels: &[&str]| {
        let labels: serde_json::Map<String, Value> = labels
            .iter()
            .map(|l| ((*l).to_owned(), json!("true")))
            .collect();
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": labels}})
    };
    let mut live =
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"managedFields": fillers()}});
    let writes: [(&[&str], &str, &str); 4] = [
        (
            &["one"],
            "fieldmanager_test_update_1",
            "2026-03-01T10:00:01Z",
        ),
        (
            &["one", "two"],
            "fieldmanager_test_update_2",
            "2026-03-01T10:00:02Z",
        ),
        (
            &["one", "two", "three"],
            "fieldmanager_test_update_3",
            "2026-03-01T10:00:03Z",
        ),
        (
            &["one", "two", "three", "four"],
            "fieldmanager_test_update_4",
            "2026-03-01T10:00:04Z",
        ),
    ];
    for (labels, manager, at) in writes {
        live = pods(schema, at)
            .update(Some(&live), pod_with_labels(labels), manager)
            .unwrap();
        expect_idempotence(schema, &live);
    }

    let entries = managed_fields(&live);
    assert_eq!(entries.len(), CASE_CAP + fillers().len(), "{entries:#?}");
    assert_eq!(entries[CASE_CAP..], fillers());
    assert_eq!(entries[0]["manager"], "ancient-changes", "{entries:#?}");
    assert_eq!(
        entries[1]["manager"], "fieldmanager_test_update_3",
        "{entries:#?}"
    );
    assert_eq!(
        entries[2]["manager"], "fieldmanager_test_update_4",
        "{entries:#?}"
    );

    expect_manages_field(&live, "ancient-changes", &["metadata", "labels", "one"]);
    expect_manages_field(&live, "ancient-changes", &["metadata", "labels", "two"]);
    expect_manages_field(
        &live,
        "fieldmanager_test_update_3",
        &["metadata", "labels", "three"],
    );
    expect_manages_field(
        &live,
        "fieldmanager_test_update_4",
        &["metadata", "labels", "four"],
    );
}

/// An update entry of `name` at `version`, written `order` hours after the zero time
/// (0001-01-01T00:00:00Z), owning the top-level `fields`.
fn entry(name: &str, version: &str, order: u32, fields: &[&str]) -> Value {
    let fields: serde_json::Map<String, Value> = fields
        .iter()
        .map(|f| (format!("f:{f}"), json!({})))
        .collect();
    json!({
        "manager": name,
        "operation": "Update",
        "apiVersion": version,
        "time": format!("0001-01-01T{order:02}:00:00Z"),
        "fieldsType": "FieldsV1",
        "fieldsV1": fields
    })
}

/// A no-op update of an object whose request carries `input` as its managedFields (over an
/// empty live object): the managedFields are `expected`, and stay so on a further no-op.
fn cap_update_managers(input: Vec<Value>, expected: Vec<Value>) {
    let Some(schema) = schema() else { return };
    let empty = json!({"apiVersion": "v1", "kind": "Pod"});
    let mut request = empty.clone();
    let mut all_input = input;
    all_input.extend(fillers());
    request["metadata"] = json!({"managedFields": all_input});
    let live = pods(schema, "2099-01-01T00:00:00Z")
        .update(Some(&empty), request.clone(), "no-op-update")
        .unwrap();
    let mut all_expected = expected;
    all_expected.extend(fillers());
    assert_eq!(managed_fields(&live), all_expected);
    expect_idempotence(schema, &live);
}

#[test]
fn cap_update_managers_one_version_no_ancient_changes() {
    cap_update_managers(
        vec![
            entry("update-manager1", "v1", 1, &["a"]),
            entry("update-manager2", "v1", 2, &["b"]),
            entry("update-manager3", "v1", 3, &["c"]),
            entry("update-manager4", "v1", 4, &["d"]),
        ],
        vec![
            entry("ancient-changes", "v1", 2, &["a", "b"]),
            entry("update-manager3", "v1", 3, &["c"]),
            entry("update-manager4", "v1", 4, &["d"]),
        ],
    );
}

#[test]
fn cap_update_managers_one_version_one_ancient_changes() {
    cap_update_managers(
        vec![
            entry("ancient-changes", "v1", 2, &["a", "b"]),
            entry("update-manager3", "v1", 3, &["c"]),
            entry("update-manager4", "v1", 4, &["d"]),
            entry("update-manager5", "v1", 5, &["e"]),
        ],
        vec![
            entry("ancient-changes", "v1", 3, &["a", "b", "c"]),
            entry("update-manager4", "v1", 4, &["d"]),
            entry("update-manager5", "v1", 5, &["e"]),
        ],
    );
}

#[test]
fn cap_update_managers_two_versions_no_ancient_changes() {
    cap_update_managers(
        vec![
            entry("update-manager1", "v1", 1, &["a"]),
            entry("update-manager2", "v2", 2, &["b"]),
            entry("update-manager3", "v1", 3, &["c"]),
            entry("update-manager4", "v1", 4, &["d"]),
            entry("update-manager5", "v1", 5, &["e"]),
        ],
        vec![
            entry("update-manager2", "v2", 2, &["b"]),
            entry("ancient-changes", "v1", 4, &["a", "c", "d"]),
            entry("update-manager5", "v1", 5, &["e"]),
        ],
    );
}

#[test]
fn cap_update_managers_three_versions_one_ancient_changes() {
    cap_update_managers(
        vec![
            entry("update-manager2", "v2", 2, &["b"]),
            entry("ancient-changes", "v1", 4, &["a", "c", "d"]),
            entry("update-manager5", "v1", 5, &["e"]),
            entry("update-manager6", "v3", 6, &["f"]),
            entry("update-manager7", "v2", 7, &["g"]),
        ],
        vec![
            entry("ancient-changes", "v1", 5, &["a", "c", "d", "e"]),
            entry("update-manager6", "v3", 6, &["f"]),
            entry("ancient-changes", "v2", 7, &["b", "g"]),
        ],
    );
}

#[test]
fn cap_update_managers_three_versions_two_ancient_changes() {
    cap_update_managers(
        vec![
            entry("ancient-changes", "v1", 5, &["a", "c", "d", "e"]),
            entry("update-manager6", "v3", 6, &["f"]),
            entry("ancient-changes", "v2", 7, &["b", "g"]),
            entry("update-manager8", "v3", 8, &["h"]),
        ],
        vec![
            entry("ancient-changes", "v1", 5, &["a", "c", "d", "e"]),
            entry("ancient-changes", "v2", 7, &["b", "g"]),
            entry("ancient-changes", "v3", 8, &["f", "h"]),
        ],
    );
}

#[test]
fn cap_update_managers_four_versions_two_ancient_changes() {
    cap_update_managers(
        vec![
            entry("ancient-changes", "v1", 5, &["a", "c", "d", "e"]),
            entry("update-manager6", "v3", 6, &["f"]),
            entry("ancient-changes", "v2", 7, &["b", "g"]),
            entry("update-manager8", "v4", 8, &["h"]),
        ],
        vec![
            entry("ancient-changes", "v1", 5, &["a", "c", "d", "e"]),
            entry("update-manager6", "v3", 6, &["f"]),
            entry("ancient-changes", "v2", 7, &["b", "g"]),
            entry("update-manager8", "v4", 8, &["h"]),
        ],
    );
}
