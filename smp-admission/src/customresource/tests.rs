//! The pruning and defaulting cases of apiextensions-apiserver v1.34
//! (`pkg/apiserver/schema/pruning/algorithm_test.go`, `defaulting/algorithm_test.go`,
//! `defaulting/prunenulls_test.go`), written as this crate's own cases: the behaviour each
//! upstream case shows, on schemas and objects of our own.

use serde_json::{Value, json};

use super::defaulting::{default, prune_non_nullable_nulls};
use super::pruning::prune;
use super::structural::Structural;

fn schema(s: Value) -> Structural {
    Structural::from_schema(&s).unwrap()
}

#[test]
fn pruning_drops_undeclared_members_and_lists_their_paths_sorted() {
    let s = schema(json!({"type": "object", "properties": {
        "spec": {"type": "object", "properties": {
            "ports": {"type": "array", "items": {"type": "object", "properties": {
                "port": {"type": "integer"}}}},
            "labels": {"type": "object", "additionalProperties": {"type": "object",
                "properties": {"value": {"type": "string"}}}}}}}}));
    let mut object = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w"},
        "spec": {"ports": [{"port": 80, "name": "http"}, {"port": 443, "extra": 1}],
            "labels": {"a": {"value": "x", "note": "y"}}, "zzz": true},
        "status": {"ready": true}});
    let unknown = prune(&mut object, &s);
    assert_eq!(
        unknown,
        [
            "spec.labels.a.note",
            "spec.ports[0].name",
            "spec.ports[1].extra",
            "spec.zzz",
            "status"
        ]
    );
    assert_eq!(
        object,
        json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
            "spec": {"ports": [{"port": 80}, {"port": 443}], "labels": {"a": {"value": "x"}}}})
    );
}

#[test]
fn pruning_keeps_unknown_fields_where_the_schema_preserves_them() {
    let s = schema(json!({"type": "object", "properties": {
        "spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {
            "known": {"type": "object", "properties": {"a": {"type": "string"}}}}}}}));
    let mut object = json!({"spec": {"free": {"x": 1}, "known": {"a": "1", "b": "2"}}});
    let unknown = prune(&mut object, &s);
    assert_eq!(unknown, ["spec.known.b"]);
    assert_eq!(
        object,
        json!({"spec": {"free": {"x": 1}, "known": {"a": "1"}}})
    );
}

#[test]
fn an_embedded_resource_keeps_its_type_and_metadata() {
    let s = schema(json!({"type": "object", "properties": {
        "template": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
            "spec": {"type": "object"}}},
        "other": {"type": "object", "properties": {}}}}));
    let mut object = json!({"template": {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p"}, "spec": {}, "bogus": 1},
        "other": {"apiVersion": "v1", "kind": "Pod"}});
    let unknown = prune(&mut object, &s);
    assert_eq!(
        unknown,
        ["other.apiVersion", "other.kind", "template.bogus"]
    );
    assert_eq!(object["template"]["metadata"], json!({"name": "p"}));
}

#[test]
fn without_a_schema_below_a_list_its_objects_lose_every_member() {
    // `additionalProperties: true` and lists without `items` give no schema below: objects
    // there are emptied, scalars stay.
    let s = schema(json!({"type": "object", "properties": {
        "free": {"type": "object", "additionalProperties": true}}}));
    let mut object = json!({"free": {"a": {"b": 1}, "c": 2, "d": [{"e": 1}, 3]}});
    let unknown = prune(&mut object, &s);
    assert_eq!(unknown, ["free.a.b", "free.d[0].e"]);
    assert_eq!(object, json!({"free": {"a": {}, "c": 2, "d": [{}, 3]}}));
}

#[test]
fn defaults_fill_absent_and_non_nullable_null_members_then_reach_into_them() {
    let s = schema(json!({"type": "object", "properties": {
        "spec": {"type": "object", "default": {}, "properties": {
            "replicas": {"type": "integer", "default": 1},
            "mode": {"type": "string", "default": "fast"},
            "maybe": {"type": "string", "nullable": true, "default": "x"},
            "ports": {"type": "array", "items": {"type": "object", "properties": {
                "protocol": {"type": "string", "default": "TCP"}}}},
            "limits": {"type": "object", "additionalProperties": {
                "type": "object", "properties": {"unit": {"type": "string", "default": "m"}}}}}}}}));
    let mut empty = json!({});
    default(&mut empty, &s);
    assert_eq!(
        empty,
        json!({"spec": {"replicas": 1, "mode": "fast", "maybe": "x"}})
    );

    let mut object = json!({"spec": {"mode": null, "maybe": null,
        "ports": [{"port": 1}, {"protocol": "UDP"}], "limits": {"cpu": {}}}});
    default(&mut object, &s);
    assert_eq!(
        object,
        json!({"spec": {"replicas": 1, "mode": "fast", "maybe": null,
            "ports": [{"port": 1, "protocol": "TCP"}, {"protocol": "UDP"}],
            "limits": {"cpu": {"unit": "m"}}}})
    );
}

#[test]
fn null_list_items_and_map_values_take_their_schemas_default() {
    let s = schema(json!({"type": "object", "properties": {
        "list": {"type": "array", "items": {"type": "string", "default": "d"}},
        "map": {"type": "object", "additionalProperties": {"type": "integer", "default": 7}},
        "bare": {"type": "array", "items": {"type": "string"}}}}));
    let mut object = json!({"list": ["a", null], "map": {"k": null}, "bare": [null]});
    default(&mut object, &s);
    assert_eq!(
        object,
        json!({"list": ["a", "d"], "map": {"k": 7}, "bare": [null]})
    );
}

#[test]
fn nulls_without_a_default_or_nullable_are_dropped_on_decoding() {
    let s = schema(json!({"type": "object", "properties": {
        "a": {"type": "string"},
        "b": {"type": "string", "nullable": true},
        "c": {"type": "string", "default": "x"},
        "m": {"type": "object", "additionalProperties": {"type": "string"}},
        "l": {"type": "array", "items": {"type": "string"}}}}));
    let mut object = json!({"a": null, "b": null, "c": null, "m": {"k": null}, "l": [null],
        "unknown": null});
    prune_non_nullable_nulls(&mut object, &s);
    assert_eq!(
        object,
        json!({"b": null, "c": null, "m": {}, "l": [null], "unknown": null})
    );
}

#[test]
fn a_deeply_nested_object_is_walked_to_the_limit_without_overflowing() {
    let s = schema(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}));
    let mut object = json!(1);
    for _ in 0..120 {
        object = json!([object]);
    }
    let mut copy = object.clone();
    assert!(prune(&mut copy, &s).is_empty());
    assert_eq!(copy, object);
    default(&mut copy, &s);
    prune_non_nullable_nulls(&mut copy, &s);
    assert_eq!(copy, object);
}
