//! Hashing keys that come from input: merge keys, set values, identities.
//!
//! Whoever writes a document or a patch chooses these keys, so the hash is keyed (SipHash with
//! a random key per process, std's `RandomState`): colliding keys cannot be computed in
//! advance, and an index of `n` keys costs O(n) whatever the keys are. Short lists are
//! searched linearly instead (see `apply::order::KeyIndex`), so the key's setup cost is paid
//! only where hashing pays.

use std::hash::{Hash, Hasher};

use serde_json::Value;

/// The `BuildHasher` of every index keyed by input.
pub(crate) type KeyedState = std::collections::hash_map::RandomState;

/// Containers nested deeper than this inside a key hash by their length only: equality decides
/// (such keys are legal JSON but never useful, and hashing must not recurse without bound).
const HASH_DEPTH: usize = 8;

/// A JSON value hashed consistently with `Value`'s equality.
#[derive(Clone, Copy)]
pub(crate) struct HashedKey<'a>(pub(crate) &'a Value);

impl PartialEq for HashedKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for HashedKey<'_> {}

impl Hash for HashedKey<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_value(self.0, state, 0);
    }
}

fn hash_value<H: Hasher>(value: &Value, state: &mut H, depth: usize) {
    match value {
        Value::Null => state.write_u8(0),
        Value::Bool(b) => state.write_u8(if *b { 1 } else { 2 }),
        Value::Number(n) => {
            state.write_u8(3);
            if let Some(i) = n.as_i64() {
                state.write_i64(i);
            } else if let Some(u) = n.as_u64() {
                state.write_u64(u);
            } else if let Some(f) = n.as_f64() {
                // `0.0 == -0.0`, so they must hash alike.
                state.write_u64(if f == 0.0 { 0 } else { f.to_bits() });
            }
        }
        Value::String(s) => {
            state.write_u8(4);
            state.write(s.as_bytes());
            state.write_u8(0xff);
        }
        Value::Array(items) => {
            state.write_u8(5);
            state.write_usize(items.len());
            if depth < HASH_DEPTH {
                for item in items {
                    hash_value(item, state, depth + 1);
                }
            }
        }
        Value::Object(map) => {
            state.write_u8(6);
            state.write_usize(map.len());
            if depth < HASH_DEPTH {
                // Equal maps are equal whatever their order (serde_json's `preserve_order`
                // keeps insertion order), so entries are hashed in key order; without that
                // feature they come sorted, and no copy is needed.
                let mut entry = |k: &String, v: &Value| {
                    state.write(k.as_bytes());
                    state.write_u8(0xff);
                    hash_value(v, state, depth + 1);
                };
                let mut keys = map.keys();
                let sorted = keys.next().is_none_or(|first| {
                    keys.try_fold(first, |prev, k| (prev < k).then_some(k))
                        .is_some()
                });
                if sorted {
                    map.iter().for_each(|(k, v)| entry(k, v));
                } else {
                    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
                    entries.into_iter().for_each(|(k, v)| entry(k, v));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::hash::BuildHasher;

    use serde_json::json;

    use super::*;

    fn h(v: &Value, state: &KeyedState) -> u64 {
        state.hash_one(HashedKey(v))
    }

    #[test]
    fn equal_values_hash_alike() {
        let state = KeyedState::new();
        assert_eq!(h(&json!(0.0), &state), h(&json!(-0.0), &state));
        assert_eq!(
            h(&json!({"a": 1, "b": [2]}), &state),
            h(&json!({"b": [2], "a": 1}), &state)
        );
        // Identities of multi-field keys differ in their values, not their length.
        assert_ne!(
            h(&json!({"port": 1, "protocol": "TCP"}), &state),
            h(&json!({"port": 2, "protocol": "TCP"}), &state)
        );
        assert_ne!(
            h(&json!(["ab", "c"]), &state),
            h(&json!(["a", "bc"]), &state)
        );
    }

    #[test]
    fn the_key_is_per_process_random() {
        // Two states (two indexes) disagree on some key: nothing to precompute collisions for.
        let (a, b) = (KeyedState::new(), KeyedState::new());
        let keys: Vec<Value> = (0..8).map(|i| json!(format!("k{i}"))).collect();
        assert!(keys.iter().any(|k| h(k, &a) != h(k, &b)));
    }
}
