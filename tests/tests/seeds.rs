//! Every example of the design documents `strategic-merge-patch.md` and
//! `retain-keys-patch-strategy.md` (in ../shared/seeds), applied through the Value engine.

use serde_json::{Value, json};
use smp_core::{PatchError, Schema, apply};

/// A Pod-like schema with the metadata the examples rely on.
fn schema() -> Schema {
    let doc = json!({
        "openapi": "3.0.0",
        "components": { "schemas": {
            "Pod": { "type": "object", "properties": {
                "metadata": { "$ref": "#/components/schemas/Meta" },
                "spec": { "$ref": "#/components/schemas/Spec" },
                "status": { "$ref": "#/components/schemas/Status" },
                "containers": { "type": "array", "items": { "$ref": "#/components/schemas/Container" },
                    "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name" },
                "finalizers": { "type": "array", "items": { "type": "string" },
                    "x-kubernetes-patch-strategy": "merge" },
                "union": { "type": "object", "additionalProperties": { "type": "string" },
                    "x-kubernetes-patch-strategy": "retainKeys" },
                "unionName": { "$ref": "#/components/schemas/Union",
                    "x-kubernetes-patch-strategy": "retainKeys" },
                "rollingUpdate": { "type": "object", "properties": { "maxSurge": { "type": "integer" } } }
            }},
            "Meta": { "type": "object", "properties": {
                "finalizers": { "type": "array", "items": { "type": "string" },
                    "x-kubernetes-patch-strategy": "merge" }
            }},
            "Spec": { "type": "object", "properties": {
                "containers": { "type": "array", "items": { "$ref": "#/components/schemas/Container" },
                    "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name" },
                "volumes": { "type": "array", "items": { "$ref": "#/components/schemas/Volume" },
                    "x-kubernetes-patch-strategy": "merge,retainKeys", "x-kubernetes-patch-merge-key": "name" }
            }},
            "Status": { "type": "object", "properties": {
                "state": { "$ref": "#/components/schemas/State", "x-kubernetes-patch-strategy": "retainKeys" }
            }},
            "State": { "type": "object", "properties": {
                "running": { "type": "object", "additionalProperties": true },
                "terminated": { "type": "object", "additionalProperties": true }
            }},
            "Union": { "type": "object", "properties": {
                "discriminatorName": { "type": "string" },
                "fooField": { "type": "object", "additionalProperties": true },
                "barField": { "type": "object", "additionalProperties": true }
            }},
            "Container": { "type": "object", "properties": {
                "name": { "type": "string" }, "image": { "type": "string" }
            }},
            "Volume": { "type": "object", "properties": {
                "name": { "type": "string" },
                "emptyDir": { "type": "object", "additionalProperties": true },
                "hostPath": { "type": "object", "additionalProperties": true }
            }}
        }}
    });
    Schema::from_openapi(&doc, "Pod").expect("test schema loads")
}

fn patched(original: Value, patch: Value) -> Value {
    apply(&original, &patch, &schema()).unwrap_or_else(|e| panic!("apply failed: {e}"))
}

// strategic-merge-patch.md, "Background": adding a container merges by name.
#[test]
fn background_adds_a_container_by_name() {
    let got = patched(
        json!({"spec": {"containers": [{"name": "nginx", "image": "nginx-1.0"}]}}),
        json!({"spec": {"containers": [{"name": "log-tailer", "image": "log-tailer-1.0"}]}}),
    );
    let containers = got["spec"]["containers"].as_array().unwrap();
    assert_eq!(containers.len(), 2);
    assert!(containers.contains(&json!({"name": "nginx", "image": "nginx-1.0"})));
    assert!(containers.contains(&json!({"name": "log-tailer", "image": "log-tailer-1.0"})));
}

// "replace Directive / Map": `$patch: replace` replaces the map it is in, recursively.
#[test]
fn replace_directive_on_a_map() {
    let got = patched(
        json!({"containers": [{"name": "nginx", "image": "nginx-0.9"}, {"name": "other"}], "finalizers": ["x"]}),
        json!({"$patch": "replace", "containers": [{"name": "nginx", "image": "nginx-1.0"}]}),
    );
    assert_eq!(
        got,
        json!({"containers": [{"name": "nginx", "image": "nginx-1.0"}]})
    );
}

// "replace Directive / List of Maps": a `$patch: replace` element replaces the list.
#[test]
fn replace_directive_in_a_list() {
    let got = patched(
        json!({"containers": [{"name": "nginx", "image": "nginx-0.9"}, {"name": "log-tailer"}]}),
        json!({"containers": [{"name": "nginx", "image": "nginx-1.0"}, {"$patch": "replace"}]}),
    );
    assert_eq!(
        got,
        json!({"containers": [{"name": "nginx", "image": "nginx-1.0"}]})
    );
}

// "delete Directive / List of Maps": deletes every entry matching the merge key.
#[test]
fn delete_directive_in_a_list_removes_all_matches() {
    let got = patched(
        json!({"containers": [
            {"name": "nginx", "image": "nginx-0.9"},
            {"name": "log-tailer", "image": "a"},
            {"name": "log-tailer", "image": "b"}
        ]}),
        json!({"containers": [{"name": "nginx", "image": "nginx-1.0"}, {"$patch": "delete", "name": "log-tailer"}]}),
    );
    assert_eq!(
        got,
        json!({"containers": [{"name": "nginx", "image": "nginx-1.0"}]})
    );
}

// "delete Directive / Maps": `$patch: delete` empties the map; `null` removes it.
#[test]
fn delete_directive_on_a_map_and_null() {
    let original = json!({"rollingUpdate": {"maxSurge": 1}});
    assert_eq!(
        patched(
            original.clone(),
            json!({"rollingUpdate": {"$patch": "delete"}})
        ),
        json!({"rollingUpdate": {}})
    );
    assert_eq!(patched(original, json!({"rollingUpdate": null})), json!({}));
}

// "deleteFromPrimitiveList": finalizers [a b c] minus [b c].
#[test]
fn delete_from_primitive_list() {
    let got = patched(
        json!({"metadata": {"finalizers": ["a", "b", "c"]}}),
        json!({"metadata": {"$deleteFromPrimitiveList/finalizers": ["b", "c"]}}),
    );
    assert_eq!(got, json!({"metadata": {"finalizers": ["a"]}}));
}

// The note on sets: merging de-duplicates, and deleting removes every duplicate.
#[test]
fn sets_deduplicate_and_delete_all_duplicates() {
    let got = patched(
        json!({"finalizers": ["a", "a", "b"]}),
        json!({"finalizers": ["b", "c"]}),
    );
    assert_eq!(got, json!({"finalizers": ["a", "b", "c"]}));
    let got = patched(
        json!({"finalizers": ["a", "b", "b"]}),
        json!({"$deleteFromPrimitiveList/finalizers": ["b"]}),
    );
    assert_eq!(got, json!({"finalizers": ["a"]}));
}

// "setElementOrder / List of Primitives".
#[test]
fn set_element_order_on_primitives() {
    let got = patched(
        json!({"finalizers": ["a", "b", "c"]}),
        json!({"$setElementOrder/finalizers": ["b", "c", "a"]}),
    );
    assert_eq!(got, json!({"finalizers": ["b", "c", "a"]}));
}

// "setElementOrder / List of Maps".
#[test]
fn set_element_order_on_maps() {
    let got = patched(
        json!({"containers": [{"name": "a", "image": "1"}, {"name": "b", "image": "2"}, {"name": "c", "image": "3"}]}),
        json!({"$setElementOrder/containers": [{"name": "b"}, {"name": "c"}, {"name": "a"}]}),
    );
    assert_eq!(
        got,
        json!({"containers": [{"name": "b", "image": "2"}, {"name": "c", "image": "3"}, {"name": "a", "image": "1"}]})
    );
}

// "retainKeys Directive / Map" (the document writes `retainKeys`; the directive is `$retainKeys`).
#[test]
fn retain_keys_on_a_union_map() {
    let got = patched(
        json!({"union": {"foo": "a", "other": "b"}}),
        json!({"union": {"$retainKeys": ["another", "bar"], "another": "d", "bar": "c"}}),
    );
    assert_eq!(got, json!({"union": {"another": "d", "bar": "c"}}));
}

// retain-keys-patch-strategy.md: a patch key missing from `$retainKeys` is rejected.
#[test]
fn retain_keys_rejects_unlisted_patch_keys() {
    let err = apply(
        &json!({"union": {"foo": "x"}}),
        &json!({"union": {"$retainKeys": ["foo"], "foo": "a", "bar": "x"}}),
        &schema(),
    )
    .unwrap_err();
    assert!(
        matches!(&err, PatchError::RetainKeysMismatch { key, .. } if key == "bar"),
        "{err}"
    );
    assert_eq!(
        err.path().map(ToString::to_string).as_deref(),
        Some("union")
    );
    assert!(
        err.to_string().contains("doesn't match retainKeys"),
        "{err}"
    );
}

// "When the `$retainKeys` list has fields that are not present in the patch": merge and clear.
#[test]
fn retain_keys_may_list_more_than_the_patch_has() {
    let got = patched(
        json!({"union": {"foo": "old", "bar": "kept?", "baz": "gone"}}),
        json!({"union": {"$retainKeys": ["foo", "bar"], "foo": "a"}}),
    );
    assert_eq!(got, json!({"union": {"foo": "a", "bar": "kept?"}}));
}

// "When the patch doesn't have `$retainKeys`": no clearing, even on a retainKeys field.
#[test]
fn retain_keys_strategy_without_directive_clears_nothing() {
    let got = patched(
        json!({"union": {"foo": "a", "other": "b"}}),
        json!({"union": {"bar": "c"}}),
    );
    assert_eq!(
        got,
        json!({"union": {"foo": "a", "other": "b", "bar": "c"}})
    );
}

// Example 1: non-inlined non-discriminated union (ContainerStatus.state).
#[test]
fn retain_keys_example_container_state() {
    let got = patched(
        json!({"status": {"state": {"running": {"startedAt": "2017-01-01T00:00:00Z"}}}}),
        json!({"status": {"state": {"$retainKeys": ["terminated"],
            "terminated": {"exitCode": 0, "finishedAt": "2017-01-02T00:00:00Z"}}}}),
    );
    assert_eq!(
        got,
        json!({"status": {"state": {"terminated": {"exitCode": 0, "finishedAt": "2017-01-02T00:00:00Z"}}}})
    );
}

// Example 2: non-inlined discriminated union.
#[test]
fn retain_keys_example_discriminated_union() {
    let got = patched(
        json!({"unionName": {"discriminatorName": "foo", "fooField": {"fooSubfield": "val1"}}}),
        json!({"unionName": {"$retainKeys": ["discriminatorName", "barField"],
            "discriminatorName": "bar", "barField": {"barSubfield": "val2"}}}),
    );
    assert_eq!(
        got,
        json!({"unionName": {"discriminatorName": "bar", "barField": {"barSubfield": "val2"}}})
    );
}

// Example 3: inlined union in a `merge,retainKeys` list (Pod volumes).
#[test]
fn retain_keys_example_volumes() {
    let got = patched(
        json!({"spec": {"volumes": [{"name": "foo", "emptyDir": {"medium": "Memory"}}]}}),
        json!({"spec": {"volumes": [{"$retainKeys": ["name", "hostPath"], "name": "foo",
            "hostPath": {"path": "/data"}}]}}),
    );
    assert_eq!(
        got,
        json!({"spec": {"volumes": [{"name": "foo", "hostPath": {"path": "/data"}}]}})
    );
}

// "merge Directive": it exists only in schemas; written in a patch it is an error.
#[test]
fn explicit_merge_directive_is_an_error() {
    let s = schema();
    let err = apply(
        &json!({"spec": {}}),
        &json!({"spec": {"$patch": "merge"}}),
        &s,
    )
    .unwrap_err();
    assert!(matches!(err, PatchError::ExplicitMerge { .. }), "{err}");
    let err = apply(
        &json!({"containers": [{"name": "a"}]}),
        &json!({"containers": [{"name": "a", "$patch": "merge"}]}),
        &s,
    )
    .unwrap_err();
    assert!(matches!(err, PatchError::ExplicitMerge { .. }), "{err}");
    assert_eq!(err.path().unwrap().to_string(), "containers[name=a].$patch");
}

// Patch content landing where the original has nothing: nulls and `$patch: delete` objects are
// dropped, list directives are dropped, `$patch: replace` yields its content, and an invalid
// `$patch` value is an error rather than being silently ignored.
#[test]
fn directives_in_new_subtrees() {
    let got = patched(
        json!({}),
        json!({"spec": {"$patch": "replace", "containers": [
            {"name": "a", "image": null}, {"$patch": "replace"}, {"name": "b", "$patch": "delete"}
        ]}, "rollingUpdate": {"$patch": "delete"}}),
    );
    assert_eq!(got, json!({"spec": {"containers": [{"name": "a"}]}}));
    let err = apply(&json!({}), &json!({"spec": {"$patch": "merge"}}), &schema()).unwrap_err();
    assert!(matches!(err, PatchError::ExplicitMerge { .. }), "{err}");
    let err = apply(
        &json!({}),
        &json!({"spec": {"x": {"$patch": "bogus"}}}),
        &schema(),
    )
    .unwrap_err();
    assert!(matches!(err, PatchError::UnknownPatchType { .. }), "{err}");
    assert_eq!(err.path().unwrap().to_string(), "spec.x.$patch");
}
