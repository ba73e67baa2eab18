//! The uniqueness of `x-kubernetes-list-type: set` and `map` lists, as kube-apiserver v1.34
//! checks it (apiextensions-apiserver `pkg/apiserver/schema/listtype/validation.go`): in a set,
//! each value's first repeat is a `Duplicate value`; in a map list, an item that is not an
//! object is refused, and each key's first repeat is a `Duplicate value` of its key fields.
//!
//! Values compare as Go compares what it decoded: scalars by type and value (`1` and `1.0`
//! differ, as Go's `int64` and `float64` do), objects and lists by their JSON. Members of an
//! object are visited in key order (upstream's is Go's random map order).

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::paths::child;
use super::structural::{MAX_DEPTH, Structural};
use crate::validation::field::{BadValue, ErrorList, ErrorType, FieldError};

/// The set and map list errors of `object` (the resource) under `schema`.
pub fn validate(object: &Value, schema: &Structural) -> ErrorList {
    validate_at(object, schema, "")
}

/// [`validate`] with the errors' paths under `root` (upstream's `fldPath`; `""` for none).
pub fn validate_at(object: &Value, schema: &Structural, root: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    if let Value::Object(members) = object {
        walk_object(root, members, schema, &mut errs, 0);
    }
    errs
}

fn key_path(path: &str, key: &str) -> String {
    format!("{path}[{key}]")
}

fn walk_object(
    path: &str,
    members: &Map<String, Value>,
    s: &Structural,
    errs: &mut ErrorList,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(additional) = s.additional_properties.as_ref().and_then(|a| a.schema()) {
        for (key, member) in members {
            walk(&key_path(path, key), member, additional, errs, depth + 1);
        }
    }
    for (key, member) in members {
        if let Some(property) = s.properties.get(key) {
            walk(&child(path, key), member, property, errs, depth + 1);
        }
    }
}

fn walk(path: &str, value: &Value, s: &Structural, errs: &mut ErrorList, depth: usize) {
    match value {
        Value::Object(members) => walk_object(path, members, s, errs, depth),
        Value::Array(items) => walk_list(path, items, s, errs, depth),
        _ => {}
    }
}

fn walk_list(path: &str, items: &[Value], s: &Structural, errs: &mut ErrorList, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match s.list_type.as_deref() {
        Some("set") => {
            for i in first_repeats(items.iter().map(identity)) {
                errs.push(duplicate(
                    &format!("{path}[{i}]"),
                    BadValue::from(&items[i]),
                ));
            }
        }
        Some("map") => map_list(path, items, s, errs),
        _ => {}
    }
    if let Some(item_schema) = s.items.as_deref() {
        for (i, item) in items.iter().enumerate() {
            walk(&format!("{path}[{i}]"), item, item_schema, errs, depth + 1);
        }
    }
}

fn map_list(path: &str, items: &[Value], s: &Structural, errs: &mut ErrorList) {
    if let Some((i, item)) = items
        .iter()
        .enumerate()
        .find(|(_, x)| !x.is_null() && !x.is_object())
    {
        errs.push(FieldError {
            kind: ErrorType::Invalid,
            field: format!("{path}[{i}]"),
            value: BadValue::from(item),
            detail: "must be an object for an array of list-type map".to_owned(),
        });
        return;
    }
    let keys: Vec<Map<String, Value>> = items
        .iter()
        .map(|item| {
            let mut key = Map::new();
            if let Some(object) = item.as_object() {
                for field in &s.list_map_keys {
                    if let Some(v) = object.get(field) {
                        key.insert(field.clone(), v.clone());
                    }
                }
            }
            key
        })
        .collect();
    let repeats = if s.list_map_keys.len() == 1 {
        // One key: its values compare as scalars do (a missing key is a value of its own).
        let field = &s.list_map_keys[0];
        first_repeats(keys.iter().map(|k| match k.get(field) {
            Some(v) => identity(v),
            None => "\u{0}unspecified".to_owned(),
        }))
    } else {
        first_repeats(keys.iter().map(|k| Value::Object(k.clone()).to_string()))
    };
    for i in repeats {
        errs.push(duplicate(
            &format!("{path}[{i}]"),
            BadValue::Json(Value::Object(keys[i].clone())),
        ));
    }
}

/// A value's identity as Go's `map[interface{}]` (scalars) or its JSON (objects, lists)
/// tells values apart; the JSON text keeps `1` and `1.0` apart as Go's types do.
fn identity(v: &Value) -> String {
    v.to_string()
}

/// The indices at which a value is seen for the second time (later repeats are not listed).
fn first_repeats(ids: impl Iterator<Item = String>) -> Vec<usize> {
    let mut times: HashMap<String, usize> = HashMap::new();
    let mut repeats = Vec::new();
    for (i, id) in ids.enumerate() {
        let seen = times.entry(id).or_insert(0);
        *seen += 1;
        if *seen == 2 {
            repeats.push(i);
        }
    }
    repeats
}

fn duplicate(field: &str, value: BadValue) -> FieldError {
    FieldError {
        kind: ErrorType::Duplicate,
        field: field.to_owned(),
        value,
        detail: String::new(),
    }
}
