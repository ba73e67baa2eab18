//! Reading and writing an object's metadata, and what the server fills in on create: a uid, a
//! generated name's suffix, the creation time.

use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Map, Value};

/// `metadata.<key>` as a string, or `""`.
pub fn meta<'v>(object: &'v Value, key: &str) -> &'v str {
    object
        .get("metadata")
        .and_then(|m| m.get(key))
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// The object's metadata, made an object if it is not one.
pub fn metadata_mut(object: &mut Value) -> &mut Map<String, Value> {
    if !object.is_object() {
        *object = Value::Object(Map::new());
    }
    let Value::Object(o) = object else {
        unreachable!("made an object above")
    };
    let metadata = o
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if !metadata.is_object() {
        *metadata = Value::Object(Map::new());
    }
    match metadata {
        Value::Object(m) => m,
        _ => unreachable!("made an object above"),
    }
}

/// Sets `metadata.<key>` to a string.
pub fn set_meta(object: &mut Value, key: &str, value: &str) {
    metadata_mut(object).insert(key.to_owned(), Value::String(value.to_owned()));
}

/// The object's finalizers.
pub fn finalizers(object: &Value) -> usize {
    object
        .pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

/// Random 64-bit numbers, each from a new keyed hash of a counter (the standard library's
/// keys are random per process).
fn random() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.finish()
}

/// A new uid, in the form of a random (version 4) UUID.
pub fn new_uid() -> String {
    let (a, b) = (random(), random());
    let a = (a & 0xffff_ffff_ffff_0fff) | 0x0000_0000_0000_4000;
    let b = (b & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000;
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xffff,
        b >> 48,
        b & 0xffff_ffff_ffff
    )
}

/// The suffix the server adds to a `generateName`: five characters of its alphabet (no vowels,
/// no look-alike digits).
pub fn name_suffix() -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut n = random();
    (0..5)
        .map(|_| {
            let c = ALPHABET[(n % ALPHABET.len() as u64) as usize];
            n /= ALPHABET.len() as u64;
            char::from(c)
        })
        .collect()
}

/// Whether two objects are the same but for `metadata.resourceVersion`: what the storage
/// layer compares to tell a write that changes nothing.
pub fn same_but_resource_version(a: &Value, b: &Value) -> bool {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return a == b;
    };
    fn rest(o: &Map<String, Value>) -> impl Iterator<Item = (&String, &Value)> {
        o.iter()
            .filter(|(k, v)| k.as_str() != "metadata" || !v.is_object())
    }
    fn metadata(o: &Map<String, Value>) -> impl Iterator<Item = (&String, &Value)> {
        o.get("metadata")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter(|(k, _)| k.as_str() != "resourceVersion")
    }
    rest(a).eq(rest(b)) && metadata(a).eq(metadata(b))
}

/// The string at `pointer` in `value` (`""` when absent or not a string, as a Go zero value).
pub(crate) fn text_at<'v>(value: &'v Value, pointer: &str) -> &'v str {
    value.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

/// The strings of the array at `pointer` in `value` (members that are not strings left out).
pub(crate) fn strings_at(value: &Value, pointer: &str) -> Vec<String> {
    value
        .pointer(pointer)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

/// An object of the members given, in their order, each value moved in. (`json!` would copy
/// each `Value` member through `Serialize`, a second deep copy that lists of thousands of
/// objects feel.)
pub(crate) fn object_of<const N: usize>(members: [(&str, Value); N]) -> Value {
    let mut object = Map::new();
    for (key, value) in members {
        object.insert(key.to_owned(), value);
    }
    Value::Object(object)
}

/// An object's metadata, as a `PartialObjectMetadata` of `api_version` (`meta.k8s.io/v1`).
pub(crate) fn partial_metadata(object: &Value, api_version: &str) -> Value {
    object_of([
        ("kind", Value::from("PartialObjectMetadata")),
        ("apiVersion", Value::from(api_version)),
        (
            "metadata",
            object
                .get("metadata")
                .cloned()
                .unwrap_or_else(|| Value::Object(Map::new())),
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn uids_look_like_uuids_and_differ() {
        let (a, b) = (new_uid(), new_uid());
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert_eq!(&a[14..15], "4");
        assert_eq!(name_suffix().len(), 5);
    }

    #[test]
    fn the_same_object_at_another_version() {
        let a = json!({"metadata": {"name": "a", "resourceVersion": "1"}, "data": {"k": "v"}});
        let b = json!({"metadata": {"name": "a", "resourceVersion": "2"}, "data": {"k": "v"}});
        assert!(same_but_resource_version(&a, &b));
        let c = json!({"metadata": {"name": "a"}, "data": {"k": "w"}});
        assert!(!same_but_resource_version(&a, &c));
        let d = json!({"metadata": {"name": "a", "labels": {}}, "data": {"k": "v"}});
        assert!(!same_but_resource_version(&a, &d));
        assert!(!same_but_resource_version(&a, &json!({"data": {"k": "v"}})));
    }
}
