//! Reading a JSON object as validation reads the Go struct it decodes into: a member that is
//! absent or `null` is the Go zero value (`""`, `0`, `false`, an empty list or map), and a
//! member of another JSON type than the field's is treated as absent (decoding would have
//! refused it before validation runs).

use serde_json::{Map, Value};

/// A JSON object's members.
pub type Object = Map<String, Value>;

fn empty() -> &'static Object {
    static EMPTY: std::sync::OnceLock<Object> = std::sync::OnceLock::new();
    EMPTY.get_or_init(Map::new)
}

/// The object at `key`, if there is one.
pub fn object<'a>(v: &'a Value, key: &str) -> Option<&'a Object> {
    v.get(key).and_then(Value::as_object)
}

/// The object at `key`, or an empty one (a Go struct that is not a pointer).
pub fn object_or_empty<'a>(v: &'a Value, key: &str) -> &'a Object {
    match object(v, key) {
        Some(o) => o,
        None => empty(),
    }
}

/// The string at `key`, or `""`.
pub fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The string at `key` when the member is present and a string (a `*string` that is set).
pub fn opt_text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// The integer at `key` when present (a pointer that is set, or a value that was written).
pub fn opt_int(v: &Value, key: &str) -> Option<i64> {
    v.get(key).and_then(Value::as_i64)
}

/// The integer at `key`, or 0.
pub fn int(v: &Value, key: &str) -> i64 {
    opt_int(v, key).unwrap_or(0)
}

/// The boolean at `key` when present.
pub fn opt_bool(v: &Value, key: &str) -> Option<bool> {
    v.get(key).and_then(Value::as_bool)
}

/// The boolean at `key`, or false.
pub fn flag(v: &Value, key: &str) -> bool {
    opt_bool(v, key).unwrap_or(false)
}

/// The list at `key`, or an empty one.
pub fn list<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

/// The strings of the list at `key` (items of another type are skipped).
pub fn strings<'a>(v: &'a Value, key: &str) -> impl Iterator<Item = &'a str> {
    list(v, key).iter().filter_map(Value::as_str)
}

/// The string-to-string map at `key` as (key, value) pairs; values that are not strings read
/// as `""`.
pub fn string_map<'a>(v: &'a Value, key: &str) -> impl Iterator<Item = (&'a str, &'a str)> {
    object_or_empty(v, key)
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str().unwrap_or("")))
}

/// Whether the member at `key` is set: present, not `null`.
pub fn is_set(v: &Value, key: &str) -> bool {
    v.get(key).is_some_and(|m| !m.is_null())
}

/// Whether two members are equal as Go's semantic equality compares the values they decode
/// into: absent, `null`, `""`, `[]` and `{}` are all the zero value, and objects compare
/// member by member with the same rule.
pub fn semantic_eq(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a.filter(|v| !is_zero(v)), b.filter(|v| !is_zero(v))) {
        (None, None) => true,
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            x.iter().all(|(k, v)| semantic_eq(Some(v), y.get(k)))
                && y.iter()
                    .filter(|(k, _)| !x.contains_key(k.as_str()))
                    .all(|(_, v)| is_zero(v))
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| semantic_eq(Some(p), Some(q)))
        }
        (Some(Value::Number(x)), Some(Value::Number(y))) => x.as_f64() == y.as_f64(),
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}
