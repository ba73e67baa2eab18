//! Facts from k8s.io/apimachinery v0.32.13, `pkg/util/managedfields/internal/managedfields_test.go`,
//! checked against our `managedfields` module: which managedFields entries are refused when read
//! (a missing or unknown `fieldsType`, no `apiVersion`, a missing or unknown `operation`), that
//! reading a list and writing it back gives the same list, what identifier a manager is known
//! by, and the order entries are written in (operation, then time to the second, then manager,
//! API version and subresource).

use serde_json::{Value, json};
use smp_ssa::fieldpath::Set;
use smp_ssa::managedfields::{
    Managed, ManagedFieldsEntry, Operation, decode, encode, manager_identifier, to_value,
};
use smp_ssa::merge::VersionedSet;

/// A single-entry list with `fieldsV1` `{"f:field":{}}`, then `change` applied to the entry.
fn one_entry(change: impl FnOnce(&mut serde_json::Map<String, Value>)) -> Value {
    let mut entry = json!({
        "apiVersion": "v1",
        "fieldsType": "FieldsV1",
        "fieldsV1": {"f:field": {}},
        "manager": "foo",
        "operation": "Apply"
    });
    change(entry.as_object_mut().unwrap());
    json!([entry])
}

#[test]
fn has_fields_type() {
    assert!(decode(Some(&one_entry(|_| {}))).is_ok());
    // Another form than FieldsV1.
    let v2 = one_entry(|e| {
        e.insert("fieldsType".into(), json!("FieldsV2"));
    });
    assert!(decode(Some(&v2)).is_err());
    // No form at all.
    let missing = one_entry(|e| {
        e.remove("fieldsType");
    });
    assert!(decode(Some(&missing)).is_err());
}

#[test]
fn has_api_version() {
    assert!(decode(Some(&one_entry(|_| {}))).is_ok());
    let missing = one_entry(|e| {
        e.remove("apiVersion");
    });
    assert!(decode(Some(&missing)).is_err());
}

#[test]
fn has_operation() {
    assert!(decode(Some(&one_entry(|_| {}))).is_ok());
    let invalid = one_entry(|e| {
        e.insert("operation".into(), json!("Invalid"));
    });
    assert!(decode(Some(&invalid)).is_err());
    let missing = one_entry(|e| {
        e.remove("operation");
    });
    assert!(decode(Some(&missing)).is_err());
}

/// Reads `list` and writes it back: the same list (`null` when there is no entry).
fn round_trip(list: Value) {
    let managed = decode(Some(&list)).expect("the list reads");
    let written = encode(&managed).map_or(Value::Null, |entries| to_value(&entries));
    assert_eq!(written, list);
}

#[test]
fn round_trip_null() {
    round_trip(Value::Null);
}

#[test]
fn round_trip_values_and_indices_of_two_versions() {
    round_trip(json!([
        {
            "apiVersion": "v1",
            "fieldsType": "FieldsV1",
            "fieldsV1": {
                "v:3": {"f:alsoPi": {}},
                "v:3.1415": {"f:pi": {}},
                "v:false": {"f:notTrue": {}}
            },
            "manager": "foo",
            "operation": "Update",
            "time": "2001-02-03T04:05:06Z"
        },
        {
            "apiVersion": "v1beta1",
            "fieldsType": "FieldsV1",
            "fieldsV1": {"i:5": {"f:i": {}}},
            "manager": "foo",
            "operation": "Update",
            "time": "2011-12-13T14:15:16Z"
        }
    ]));
}

#[test]
fn round_trip_keyed_items() {
    round_trip(json!([{
        "apiVersion": "v1",
        "fieldsType": "FieldsV1",
        "fieldsV1": {
            "f:spec": {"f:containers": {"k:{\"name\":\"c\"}": {"f:image": {}, "f:name": {}}}}
        },
        "manager": "foo",
        "operation": "Apply"
    }]));
}

#[test]
fn round_trip_a_deployment_update() {
    round_trip(json!([{
        "apiVersion": "v1",
        "fieldsType": "FieldsV1",
        "fieldsV1": {
            "f:apiVersion": {},
            "f:kind": {},
            "f:metadata": {"f:labels": {"f:app": {}}, "f:name": {}},
            "f:spec": {
                "f:replicas": {},
                "f:selector": {"f:matchLabels": {"f:app": {}}},
                "f:template": {
                    "f:medatada": {"f:labels": {"f:app": {}}},
                    "f:spec": {"f:containers": {"k:{\"name\":\"nginx\"}": {
                        ".": {},
                        "f:image": {},
                        "f:name": {},
                        "f:ports": {"i:0": {"f:containerPort": {}}}
                    }}}
                }
            }
        },
        "manager": "foo",
        "operation": "Update"
    }]));
}

#[test]
fn round_trip_a_storage_class_apply() {
    round_trip(json!([{
        "apiVersion": "v1",
        "fieldsType": "FieldsV1",
        "fieldsV1": {
            "f:allowVolumeExpansion": {},
            "f:apiVersion": {},
            "f:kind": {},
            "f:metadata": {
                "f:name": {},
                "f:parameters": {
                    "f:resturl": {},
                    "f:restuser": {},
                    "f:secretName": {},
                    "f:secretNamespace": {}
                }
            },
            "f:provisioner": {}
        },
        "manager": "foo",
        "operation": "Apply"
    }]));
}

#[test]
fn round_trip_a_custom_resource_definition_update() {
    round_trip(json!([{
        "apiVersion": "v1",
        "fieldsType": "FieldsV1",
        "fieldsV1": {
            "f:apiVersion": {},
            "f:kind": {},
            "f:metadata": {"f:name": {}},
            "f:spec": {
                "f:group": {},
                "f:names": {
                    "f:kind": {},
                    "f:plural": {},
                    "f:shortNames": {"i:0": {}},
                    "f:singular": {}
                },
                "f:scope": {},
                "f:versions": {"k:{\"name\":\"v1\"}": {
                    "f:name": {},
                    "f:served": {},
                    "f:storage": {}
                }}
            }
        },
        "manager": "foo",
        "operation": "Update"
    }]));
}

#[test]
fn round_trip_a_subresource_update() {
    round_trip(json!([{
        "apiVersion": "v1",
        "fieldsType": "FieldsV1",
        "fieldsV1": {"f:spec": {"f:replicas": {}}},
        "manager": "foo",
        "operation": "Update",
        "subresource": "scale"
    }]));
}

/// The identifier of the manager of `entry` (an entry as the object carries it).
fn identifier_of(entry: Value) -> String {
    let entry: ManagedFieldsEntry = serde_json::from_value(entry).expect("the entry reads");
    manager_identifier(
        &entry.manager,
        entry.operation.expect("an operation"),
        &entry.api_version,
        &entry.subresource,
    )
}

#[test]
fn manager_identifier_of_an_update_holds_its_version() {
    let id = identifier_of(json!({
        "apiVersion": "v1",
        "fieldsV1": {"f:apiVersion": {}},
        "manager": "foo",
        "operation": "Update",
        "time": "2001-02-03T04:05:06Z"
    }));
    assert_eq!(
        id,
        r#"{"manager":"foo","operation":"Update","apiVersion":"v1"}"#
    );
}

#[test]
fn manager_identifier_of_an_apply_has_no_version() {
    let id = identifier_of(json!({
        "apiVersion": "v1",
        "fieldsV1": {"f:apiVersion": {}},
        "manager": "foo",
        "operation": "Apply",
        "time": "2001-02-03T04:05:06Z"
    }));
    assert_eq!(id, r#"{"manager":"foo","operation":"Apply"}"#);
}

#[test]
fn manager_identifier_of_a_subresource_apply() {
    let id = identifier_of(json!({
        "apiVersion": "v1",
        "fieldsV1": {"f:apiVersion": {}},
        "manager": "foo",
        "operation": "Apply",
        "subresource": "scale",
        "time": "2001-02-03T04:05:06Z"
    }));
    assert_eq!(
        id,
        r#"{"manager":"foo","operation":"Apply","subresource":"scale"}"#
    );
}

/// An entry as the sort sees it: manager, operation, time, subresource (no API version, no
/// fields: every entry of these cases has neither).
type Row = (&'static str, Operation, Option<&'static str>, &'static str);

const APPLY: Operation = Operation::Apply;
const UPDATE: Operation = Operation::Update;

/// `rows` in the order our `encode` writes them.
///
/// The order is reached through `encode`, whose input is keyed by manager identifier; the
/// apimachinery cases sort a bare list in which two entries may share one (the same manager
/// and operation at two times). Each row's key is its identifier followed by as many spaces as
/// its position: still the same JSON, so the entry written is the same, but a key of its own.
fn sorted(rows: &[Row]) -> Option<Vec<Row>> {
    let mut managed = Managed::default();
    for (i, &(manager, operation, time, subresource)) in rows.iter().enumerate() {
        let key = manager_identifier(manager, operation, "", subresource) + &" ".repeat(i);
        managed.fields.insert(
            key.clone(),
            VersionedSet {
                set: Set::new(),
                api_version: String::new(),
                applied: operation == APPLY,
            },
        );
        if let Some(time) = time {
            managed.times.insert(key, time.to_owned());
        }
    }
    let entries = encode(&managed)?;
    let find = |e: &ManagedFieldsEntry| {
        rows.iter()
            .copied()
            .find(|r| {
                r.0 == e.manager
                    && Some(r.1) == e.operation
                    && r.2 == e.time.as_deref()
                    && r.3 == e.subresource
            })
            .expect("an entry of the input")
    };
    Some(entries.iter().map(find).collect())
}

#[test]
fn sort_empty_and_nil() {
    // An empty list and no list both write as no list.
    assert_eq!(sorted(&[]), None);
    assert_eq!(encode(&Managed::default()), None);
}

#[test]
fn sort_remains_untouched() {
    let rows = [
        ("a", APPLY, None, ""),
        ("a", UPDATE, Some("2001-01-01T01:00:00Z"), ""),
    ];
    assert_eq!(sorted(&rows).unwrap(), rows);
}

#[test]
fn sort_manager_without_time_first() {
    let rows = [
        ("a", APPLY, None, ""),
        ("a", APPLY, Some("2001-01-01T01:00:00Z"), ""),
    ];
    assert_eq!(sorted(&rows).unwrap(), rows);
}

#[test]
fn sort_manager_without_time_first_name_last() {
    let rows = [
        ("a", APPLY, Some("2001-01-01T01:00:00Z"), ""),
        ("b", APPLY, None, ""),
        ("a", APPLY, None, ""),
    ];
    assert_eq!(
        sorted(&rows).unwrap(),
        [
            ("a", APPLY, None, ""),
            ("b", APPLY, None, ""),
            ("a", APPLY, Some("2001-01-01T01:00:00Z"), ""),
        ]
    );
}

#[test]
fn sort_apply_first() {
    let rows = [
        ("a", UPDATE, Some("2001-01-01T01:00:00Z"), ""),
        ("a", APPLY, None, ""),
    ];
    assert_eq!(
        sorted(&rows).unwrap(),
        [
            ("a", APPLY, None, ""),
            ("a", UPDATE, Some("2001-01-01T01:00:00Z"), ""),
        ]
    );
}

#[test]
fn sort_newest_last() {
    let rows = [
        ("c", UPDATE, Some("2001-01-01T01:00:00Z"), ""),
        ("a", APPLY, None, ""),
        ("c", UPDATE, Some("2002-01-01T01:00:00Z"), ""),
        ("b", APPLY, None, ""),
    ];
    assert_eq!(
        sorted(&rows).unwrap(),
        [
            ("a", APPLY, None, ""),
            ("b", APPLY, None, ""),
            ("c", UPDATE, Some("2001-01-01T01:00:00Z"), ""),
            ("c", UPDATE, Some("2002-01-01T01:00:00Z"), ""),
        ]
    );
}

#[test]
fn sort_manager_last() {
    let rows = [
        ("c", UPDATE, Some("2001-01-01T01:00:00Z"), ""),
        ("a", APPLY, None, ""),
        ("d", UPDATE, Some("2001-01-01T01:00:00Z"), ""),
        ("b", APPLY, None, ""),
    ];
    assert_eq!(
        sorted(&rows).unwrap(),
        [
            ("a", APPLY, None, ""),
            ("b", APPLY, None, ""),
            ("c", UPDATE, Some("2001-01-01T01:00:00Z"), ""),
            ("d", UPDATE, Some("2001-01-01T01:00:00Z"), ""),
        ]
    );
}

#[test]
fn sort_manager_sorted() {
    let rows = [
        ("c", UPDATE, Some("2001-01-01T01:00:00Z"), ""),
        ("a", APPLY, None, ""),
        ("g", APPLY, None, ""),
        ("f", UPDATE, Some("2002-01-01T01:00:00Z"), ""),
        ("i", APPLY, None, ""),
        ("d", UPDATE, Some("2002-01-01T01:00:00Z"), ""),
        ("h", APPLY, None, ""),
        ("e", UPDATE, Some("2003-01-01T01:00:00Z"), ""),
        ("b", APPLY, None, ""),
    ];
    assert_eq!(
        sorted(&rows).unwrap(),
        [
            ("a", APPLY, None, ""),
            ("b", APPLY, None, ""),
            ("g", APPLY, None, ""),
            ("h", APPLY, None, ""),
            ("i", APPLY, None, ""),
            ("c", UPDATE, Some("2001-01-01T01:00:00Z"), ""),
            ("d", UPDATE, Some("2002-01-01T01:00:00Z"), ""),
            ("f", UPDATE, Some("2002-01-01T01:00:00Z"), ""),
            ("e", UPDATE, Some("2003-01-01T01:00:00Z"), ""),
        ]
    );
}

#[test]
fn sort_drops_nanoseconds() {
    // Three times within the same second (the day before 2000-01-01, 1, 2 and 3 ns past
    // midnight): the sort sees them as equal, and goes by manager.
    let rows = [
        ("c", UPDATE, Some("1999-12-31T00:00:00.000000001Z"), ""),
        ("a", UPDATE, Some("1999-12-31T00:00:00.000000002Z"), ""),
        ("b", UPDATE, Some("1999-12-31T00:00:00.000000003Z"), ""),
    ];
    assert_eq!(
        sorted(&rows).unwrap(),
        [
            ("a", UPDATE, Some("1999-12-31T00:00:00.000000002Z"), ""),
            ("b", UPDATE, Some("1999-12-31T00:00:00.000000003Z"), ""),
            ("c", UPDATE, Some("1999-12-31T00:00:00.000000001Z"), ""),
        ]
    );
}

#[test]
fn sort_entries_with_subresource_field() {
    let rows = [
        ("a", APPLY, None, "status"),
        ("a", APPLY, None, "scale"),
        ("a", APPLY, None, ""),
    ];
    assert_eq!(
        sorted(&rows).unwrap(),
        [
            ("a", APPLY, None, ""),
            ("a", APPLY, None, "scale"),
            ("a", APPLY, None, "status"),
        ]
    );
}
