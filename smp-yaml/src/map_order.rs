//! The order serde_json's maps keep, which printing as Go does depends on.

use serde_json::Value;

/// Whether serde_json keeps object keys sorted (its default map), rather than in insertion
/// order (its `preserve_order` feature, which any crate of a program may turn on): asked once.
#[inline]
pub fn maps_are_sorted() -> bool {
    static SORTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SORTED.get_or_init(|| {
        let mut probe = serde_json::Map::new();
        probe.insert("b".into(), Value::Null);
        probe.insert("a".into(), Value::Null);
        probe.keys().next().is_some_and(|k| k == "a")
    })
}
