//! Helpers shared by the fuzz targets: splitting the fuzzer's bytes into documents, reading
//! them with the library's readers, the fuzz schema, and the precondition under which a created
//! patch must reproduce its target document.
//!
//! Each target includes this file with `mod common;` (cargo-fuzz builds every target as its
//! own binary, so there is no library crate to share it through). Not every target uses every
//! helper.
#![allow(dead_code)]

use std::sync::OnceLock;

use serde_json::{Map, Value, json};
use smp_core::input::parse_document;
use smp_core::{DocRole, FieldMeta, Node, Schema, Strategy};

/// Splits `data` into `N` parts at NUL bytes (at most `N - 1` splits, so the last part may
/// still hold NULs and then fails to parse). Missing parts are empty and come first: with no
/// NUL at all, the whole input is the last document and the others are empty (`{}`).
pub fn split<const N: usize>(data: &[u8]) -> [&[u8]; N] {
    let mut parts: Vec<&[u8]> = data.splitn(N, |&b| b == 0).collect();
    while parts.len() < N {
        parts.insert(0, &[]);
    }
    parts
        .try_into()
        .unwrap_or_else(|_| unreachable!("exactly N parts"))
}

/// Reads each part with [`parse_document`] in its role; `None` when a part is not UTF-8 or
/// does not parse (the targets only go on with documents the readers accept).
pub fn parse_all<const N: usize>(parts: [&[u8]; N], roles: [DocRole; N]) -> Option<[Value; N]> {
    let mut out = Vec::with_capacity(N);
    for (bytes, role) in parts.into_iter().zip(roles) {
        let text = std::str::from_utf8(bytes).ok()?;
        out.push(parse_document(text, role).ok()?);
    }
    out.try_into().ok()
}

/// The schema a target's flags byte picks: bit 0 clear, [`untyped`]; set, [`typed`].
pub fn schema_of(flags: u8) -> &'static Schema {
    if flags & 1 == 0 { untyped() } else { typed() }
}

/// The schema without patch metadata: objects merge, lists are replaced.
pub fn untyped() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(Schema::untyped)
}

/// A recursive type that reaches every list strategy of the engine: lists merged by key
/// (`items`), a `merge,retainKeys` list (`retained`), a merged list of primitives (`tags`), a
/// list merged by key with recommended (multi-field) keys (`ports`: `port`, then
/// `port,protocol`), a list with "moved" recommended keys and no strategy (`taints`: `key,effect`),
/// a replaced list (`plain`), a `replace` object (`replaced`), a map (`labels`) and recursion
/// (`child`).
pub fn typed() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let item = json!({"$ref": "#/components/schemas/item"});
        let doc = json!({
            "openapi": "3.0.0",
            "info": {"title": "fuzz", "version": "v1"},
            "paths": {},
            "components": {"schemas": {"item": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "value": {"type": "string"},
                    "port": {"type": "integer"},
                    "protocol": {"type": "string"},
                    "key": {"type": "string"},
                    "effect": {"type": "string"},
                    "items": {
                        "type": "array",
                        "items": item,
                        "x-kubernetes-patch-strategy": "merge",
                        "x-kubernetes-patch-merge-key": "name"
                    },
                    "retained": {
                        "type": "array",
                        "items": item,
                        "x-kubernetes-patch-strategy": "merge,retainKeys",
                        "x-kubernetes-patch-merge-key": "name"
                    },
                    "tags": {
                        "type": "array",
                        "items": {"type": "string"},
                        "x-kubernetes-patch-strategy": "merge"
                    },
                    "ports": {
                        "type": "array",
                        "items": item,
                        "x-kubernetes-patch-strategy": "merge",
                        "x-kubernetes-patch-merge-key": "port",
                        "x-kubernetes-recommended-patch-merge-key": "port,protocol"
                    },
                    "taints": {
                        "type": "array",
                        "items": item,
                        "x-kubernetes-recommended-patch-merge-key": "key,effect"
                    },
                    "plain": {"type": "array", "items": item},
                    "replaced": {
                        "allOf": [item],
                        "x-kubernetes-patch-strategy": "replace"
                    },
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                    "child": item
                }
            }}}
        });
        Schema::from_openapi(&doc, "item").expect("fuzz schema loads")
    })
}

/// Both schemas, for targets that try every input with each.
pub fn schemas() -> [(&'static str, &'static Schema); 2] {
    [("untyped", untyped()), ("typed", typed())]
}

/// `null` at the root counts as `{}` for every operation of the engine.
pub fn root(doc: &Value) -> Value {
    match doc {
        Value::Null => json!({}),
        other => other.clone(),
    }
}

/// Whether `apply(a, diff(a, b)) == b` must hold. It does only for documents a patch can
/// express; these are the restrictions of smp's own property tests
/// (`tests/tests/diff_properties.rs`, `tests/tests/patch_merge_key.rs`), each forced by the
/// semantics:
///
/// * both roots are objects (or `null`, which is `{}`): other roots are diff errors;
/// * no `null` below the root: a patch `null` means "delete", so `{"a": null}` cannot be
///   created;
/// * no member name starting with `$`: such names are directives in a patch (and a document is
///   not a patch);
/// * in a list merged by key, every item has the merge key and the merge keys are distinct (a
///   patch names an item by its key only; diff notices a missing key only when it compares the
///   item with another, so `{"items": []}` to `{"items": [{}]}` gives a patch that apply
///   refuses, as upstream's would); with recommended keys, the items' identities (the
///   recommended keys they have, with their values) are distinct;
/// * a merged list of primitives holds distinct values (merging de-duplicates: it is a set).
///
/// The walk follows the schema (`node`), so "merged" means what the schema says at that place.
pub fn diff_must_round_trip(a: &Value, b: &Value, node: Node<'_>) -> bool {
    let is_root = |v: &Value| matches!(v, Value::Null | Value::Object(_));
    is_root(a) && is_root(b) && expressible(a, node) && expressible(b, node)
}

/// The restrictions of [`diff_must_round_trip`] on one document.
fn expressible(doc: &Value, node: Node<'_>) -> bool {
    // Explicit stack: documents from the readers nest at most 128 deep, but stay iterative
    // anyway. Each entry is an object with its node, or a list with the metadata of the field
    // holding it.
    enum Entry<'v, 's> {
        Object(&'v Map<String, Value>, Node<'s>),
        List(&'v [Value], FieldMeta<'s>),
    }
    let mut stack = match doc {
        Value::Object(map) => vec![Entry::Object(map, node)],
        _ => return true,
    };
    while let Some(entry) = stack.pop() {
        match entry {
            Entry::Object(map, node) => {
                for (key, value) in map {
                    if key.starts_with('$') {
                        return false;
                    }
                    let meta = node.field(key);
                    match value {
                        Value::Null => return false,
                        Value::Object(inner) => stack.push(Entry::Object(inner, meta.node)),
                        Value::Array(items) => stack.push(Entry::List(items, meta)),
                        _ => {}
                    }
                }
            }
            Entry::List(items, meta) => {
                let merged = meta.strategy.merges_lists();
                let ids: Vec<Value> = items.iter().map(|item| identity(item, meta)).collect();
                // Distinct by their JSON text (maps print sorted, and `1` and `1.0` print
                // differently, as `Value`'s equality tells them apart).
                let mut seen = std::collections::HashSet::new();
                if merged && !ids.iter().all(|id| seen.insert(id.to_string())) {
                    return false;
                }
                if let (true, [], Some(key)) = (merged, meta.recommended, meta.merge_key) {
                    let keyless =
                        |item: &Value| matches!(item, Value::Object(m) if !m.contains_key(key));
                    if items.iter().any(keyless) {
                        return false;
                    }
                }
                // An item of a list is typed by the list's item type; a list in a list by the
                // same item type again (what the engine does, see `Node::items`), unmerged.
                let item = meta.node.items();
                for value in items {
                    match value {
                        Value::Null => return false,
                        Value::Object(inner) => stack.push(Entry::Object(inner, item)),
                        Value::Array(inner) => stack.push(Entry::List(
                            inner,
                            FieldMeta {
                                node: item,
                                strategy: Strategy::DEFAULT,
                                merge_key: None,
                                recommended: &[],
                                composite: false,
                                directive: false,
                                omit_unchanged: false,
                                declared: true,
                            },
                        )),
                        _ => {}
                    }
                }
            }
        }
    }
    true
}

/// What tells an item of a list apart in a merge: its identity (the recommended keys it has,
/// as an object) or its merge key's value (`null` when missing) for objects, the value itself
/// for primitives.
fn identity(item: &Value, meta: FieldMeta<'_>) -> Value {
    match item {
        Value::Object(map) if !meta.recommended.is_empty() => Value::Object(
            meta.recommended
                .iter()
                .filter_map(|k| map.get(&**k).map(|v| (k.to_string(), v.clone())))
                .collect(),
        ),
        Value::Object(map) => match meta.merge_key {
            Some(key) => map.get(key).cloned().unwrap_or(Value::Null),
            None => item.clone(),
        },
        other => other.clone(),
    }
}

/// What a YAML round trip gives for `value`: the YAML reader turns an integral float that fits
/// i64 into an integer (Go prints the float 1.0 as `1`; `smp_core::yaml` resolve, and the
/// `yaml_round_trip` property test's `normalized`).
pub fn yaml_normalized(value: &Value) -> Value {
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    match value {
        Value::Number(n) if n.is_f64() => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && (-LIMIT..LIMIT).contains(&f) => json!(f as i64),
            _ => value.clone(),
        },
        Value::Array(items) => Value::Array(items.iter().map(yaml_normalized).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), yaml_normalized(v)))
                .collect(),
        ),
        _ => value.clone(),
    }
}
