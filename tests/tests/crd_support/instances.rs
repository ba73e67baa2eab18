//! Random instances of a CRD version, generated from its `openAPIV3Schema` as the API server
//! would accept them: declared properties with values of their type (enums respected), the
//! keys of `x-kubernetes-list-type: map` lists present and distinct, `set` lists distinct,
//! a few members under `x-kubernetes-preserve-unknown-fields`.

use serde_json::{Map, Value, json};

use super::Rng;

/// Deepest object nesting generated (CRD schemas nest much deeper; the property tests need
/// variety near the top, not the bottom of every branch).
const MAX_DEPTH: usize = 7;

/// An instance of `schema` (a CRD version's `openAPIV3Schema`) with this `apiVersion`/`kind`.
pub fn instance(rng: &mut Rng, schema: &Value, api_version: &str, kind: &str) -> Value {
    let mut out = value(rng, schema, 0);
    if let Value::Object(map) = &mut out {
        map.insert("apiVersion".into(), json!(api_version));
        map.insert("kind".into(), json!(kind));
        map.insert(
            "metadata".into(),
            json!({"name": "x", "labels": {"a": word(rng)}}),
        );
    }
    out
}

/// A small word from a pool, so that two instances share values often.
fn word(rng: &mut Rng) -> String {
    const POOL: [&str; 6] = ["a", "b", "c", "web", "api", "x-1"];
    POOL[rng.below(POOL.len())].to_owned()
}

fn scalar(rng: &mut Rng, s: &Map<String, Value>, i: usize) -> Value {
    if let Some(Value::Array(options)) = s.get("enum") {
        if !options.is_empty() {
            return options[(rng.below(options.len()) + i) % options.len()].clone();
        }
    }
    if s.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true)) {
        return if rng.chance(0.5) {
            json!(80 + i)
        } else {
            json!(format!("{}{i}", word(rng)))
        };
    }
    match s.get("type").and_then(Value::as_str) {
        Some("integer") => json!(rng.below(4) + 10 * i),
        Some("number") => json!(rng.below(4) as f64 + 0.5 + i as f64),
        Some("boolean") => json!(rng.chance(0.5)),
        _ => json!(format!("{}{i}", word(rng))),
    }
}

fn value(rng: &mut Rng, schema: &Value, depth: usize) -> Value {
    value_at(rng, schema, depth, 0)
}

/// A value of `schema`; `i` makes scalars distinct across list items.
fn value_at(rng: &mut Rng, schema: &Value, depth: usize, i: usize) -> Value {
    let Some(s) = schema.as_object() else {
        return json!(word(rng));
    };
    let ty = s.get("type").and_then(Value::as_str);
    if let Some(Value::Object(props)) = s.get("properties") {
        let required: Vec<&str> = s
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let mut out = Map::new();
        for (name, p) in props {
            if name == "metadata" && depth == 0 {
                continue;
            }
            let want = required.contains(&name.as_str())
                || (depth < MAX_DEPTH && rng.chance(if depth == 0 { 0.9 } else { 0.45 }));
            if want {
                out.insert(name.clone(), value_at(rng, p, depth + 1, i));
            }
        }
        return Value::Object(out);
    }
    match ty {
        Some("array") => list(rng, s, depth),
        Some("object") | None => {
            let additional = s.get("additionalProperties");
            let free = s.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(true));
            let mut out = Map::new();
            if additional.is_some_and(Value::is_object) || free {
                for _ in 0..rng.below(3) {
                    let v = match additional {
                        Some(a @ Value::Object(_)) if depth < MAX_DEPTH => {
                            value_at(rng, a, depth + 1, i)
                        }
                        _ => json!(word(rng)),
                    };
                    out.insert(word(rng), v);
                }
            }
            if ty.is_none()
                && !free
                && additional.is_none()
                && s.get("x-kubernetes-int-or-string").is_some()
            {
                return scalar(rng, s, i);
            }
            Value::Object(out)
        }
        _ => scalar(rng, s, i),
    }
}

fn list(rng: &mut Rng, s: &Map<String, Value>, depth: usize) -> Value {
    let items = s.get("items").cloned().unwrap_or(json!({"type": "string"}));
    let n = if depth >= MAX_DEPTH { 0 } else { rng.below(4) };
    let list_type = s.get("x-kubernetes-list-type").and_then(Value::as_str);
    let keys = map_keys(s);
    let mut out: Vec<Value> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for i in 0..n {
        let mut item = value_at(rng, &items, depth + 1, i);
        if list_type == Some("map") {
            // Every key present, and the tuple of keys distinct: item `i` gets key values of
            // its own index.
            if let Value::Object(map) = &mut item {
                for k in &keys {
                    let key_schema = items
                        .pointer(&format!("/properties/{k}"))
                        .cloned()
                        .unwrap_or(json!({}));
                    let v = match key_schema.as_object() {
                        Some(ks) => scalar(rng, ks, i),
                        None => json!(i),
                    };
                    map.insert((*k).to_owned(), v);
                }
            }
        }
        // Each item's identity (its keys, or a set item itself), as JSON text, seen once.
        let fresh = match list_type {
            Some("map") => seen.insert(
                keys.iter()
                    .map(|k| item.get(*k).map(Value::to_string).unwrap_or_default())
                    .collect::<Vec<_>>()
                    .join("\u{0}"),
            ),
            Some("set") => seen.insert(item.to_string()),
            _ => true,
        };
        if fresh {
            out.push(item);
        }
    }
    Value::Array(out)
}

/// Whether `value` keeps the list rules of `schema` the API server enforces: the keys of a
/// `map` list present and distinct, the items of a `set` distinct; and holds no `null` (the
/// server drops them; in a patch `null` means delete, so no diff can produce one) and no
/// member named like a directive (`$retainKeys` left as data by a patch). A random
/// patch can break these; such an object would never exist.
pub fn valid(value: &Value, schema: &Value) -> bool {
    if value.is_null() {
        return false;
    }
    let Some(s) = schema.as_object() else {
        return !has_null(value);
    };
    match value {
        Value::Object(map) if map.keys().any(|k| k.starts_with('$')) => false,
        Value::Object(map) => map.iter().all(|(k, v)| {
            let sub = s
                .get("properties")
                .and_then(|p| p.get(k))
                .or_else(|| s.get("additionalProperties").filter(|a| a.is_object()));
            match sub {
                Some(sub) => valid(v, sub),
                None => !has_null(v),
            }
        }),
        Value::Array(items) => {
            let item_schema = s.get("items").cloned().unwrap_or(json!({}));
            let distinct = |ids: Vec<String>| {
                let mut sorted = ids.clone();
                sorted.sort();
                sorted.dedup();
                sorted.len() == ids.len()
            };
            let rules = match s.get("x-kubernetes-list-type").and_then(Value::as_str) {
                Some("map") => {
                    let keys = map_keys(s);
                    let ids: Option<Vec<String>> = items
                        .iter()
                        .map(|item| {
                            keys.iter()
                                .map(|k| item.get(*k).map(Value::to_string))
                                .collect::<Option<Vec<_>>>()
                                .map(|id| id.join("\u{0}"))
                        })
                        .collect();
                    ids.is_some_and(distinct)
                }
                Some("set") => distinct(items.iter().map(Value::to_string).collect()),
                _ => true,
            };
            rules && items.iter().all(|item| valid(item, &item_schema))
        }
        _ => true,
    }
}

fn has_null(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Array(items) => items.iter().any(has_null),
        Value::Object(map) => map.iter().any(|(k, v)| k.starts_with('$') || has_null(v)),
        _ => false,
    }
}

/// `x-kubernetes-list-map-keys` of a list schema.
fn map_keys(s: &Map<String, Value>) -> Vec<&str> {
    s.get("x-kubernetes-list-map-keys")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}
