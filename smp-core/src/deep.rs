//! Values nested deeper than the engine follows, whether parsed or built in code.
//!
//! `serde_json::Value`'s clone, comparison, serialization and drop recurse once per level, so a
//! value built in code 10^5 levels deep overflows a thread's stack in any of them. The readers
//! stop at 128 levels; for values handed in directly, the entry points check the depth first
//! with [`nests_deeper_than`] (recursion bounded by the limit) and refuse what the engine would refuse anyway, and
//! what the engine throws away of the caller's document it drops with [`dispose`] (iterative),
//! so that nothing here recurses without bound.

use serde_json::Value;

use crate::error::{JsonPath, PatchError};

/// Deepest nesting the engine follows before failing with
/// [`PatchError::TooDeep`](crate::PatchError::TooDeep).
///
/// Recursion depth is what bounds stack use, so hostile input gets an error instead of a stack
/// overflow. Documents read by [`crate::input`] are limited to 128 levels already.
pub const MAX_DEPTH: usize = 256;

/// Deepest nesting of lists and objects a document may have: the reader's limit, which the
/// byte-level paths (`sparse`) keep too.
#[cfg(feature = "sparse")]
pub(crate) use smp_yaml::MAX_NESTING;

/// Whether `value` has containers nested more than `limit` deep. Safe on any input: the walk
/// goes at most `limit` calls deep.
pub(crate) fn nests_deeper_than(value: &Value, limit: usize) -> bool {
    // Recursion, but never more than `limit` calls deep, whatever the input: a branch is
    // abandoned as soon as it reaches the limit. No allocation, which a work list needs.
    match value {
        Value::Object(m) => object_nests_deeper_than(m, limit),
        Value::Array(a) => {
            limit == 0
                || a.iter()
                    .any(|c| is_container(c) && nests_deeper_than(c, limit - 1))
        }
        _ => false,
    }
}

/// [`nests_deeper_than`] of an object.
pub(crate) fn object_nests_deeper_than(m: &serde_json::Map<String, Value>, limit: usize) -> bool {
    limit == 0
        || m.values()
            .any(|c| is_container(c) && nests_deeper_than(c, limit - 1))
}

fn is_container(v: &Value) -> bool {
    matches!(v, Value::Object(_) | Value::Array(_))
}

/// `Err(TooDeep)` at the root when `value` nests deeper than [`MAX_DEPTH`].
pub(crate) fn check(value: &Value) -> Result<(), PatchError> {
    check_at(value, JsonPath::root)
}

/// `Err(TooDeep)` naming `path` (built only on failure) when `value` nests deeper than
/// [`MAX_DEPTH`].
pub(crate) fn check_at(value: &Value, path: impl FnOnce() -> JsonPath) -> Result<(), PatchError> {
    if nests_deeper_than(value, MAX_DEPTH) {
        return Err(PatchError::TooDeep {
            path: path(),
            limit: MAX_DEPTH,
        });
    }
    Ok(())
}

/// Whether `a` equals `b` (as `Value`'s `==` says), where neither nests more than `limit`
/// deep: `false` when they differ or when the walk goes past `limit`. Iterative, and one pass
/// where a depth check of each side plus `==` would take three.
pub(crate) fn equal_within(a: &Value, b: &Value, limit: usize) -> bool {
    let mut stack = vec![(a, b, 0usize)];
    while let Some((a, b, depth)) = stack.pop() {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                if depth >= limit || x.len() != y.len() {
                    return false;
                }
                for (k, va) in x {
                    match y.get(k) {
                        Some(vb) => stack.push((va, vb, depth + 1)),
                        None => return false,
                    }
                }
            }
            (Value::Array(x), Value::Array(y)) => {
                if depth >= limit || x.len() != y.len() {
                    return false;
                }
                stack.extend(x.iter().zip(y).map(|(va, vb)| (va, vb, depth + 1)));
            }
            (Value::Object(_) | Value::Array(_), _) | (_, Value::Object(_) | Value::Array(_)) => {
                return false;
            }
            (a, b) if a != b => return false,
            _ => {}
        }
    }
    true
}

/// Drops a value without recursion: containers are emptied into a work list one level at a
/// time. Costs what a drop costs; use it where a value of the caller's may be deep.
pub(crate) fn dispose(value: Value) {
    let is_container = |v: &Value| matches!(v, Value::Object(_) | Value::Array(_));
    if !is_container(&value) {
        return;
    }
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items.into_iter().filter(is_container)),
            Value::Object(map) => {
                stack.extend(map.into_iter().map(|(_, v)| v).filter(is_container))
            }
            _ => {}
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use serde_json::{Value, json};

    use super::*;

    /// `{"a": {"a": ... 1 ...}}`, `levels` objects deep, built without recursion.
    pub(crate) fn nested(levels: usize) -> Value {
        let mut v = json!(1);
        for _ in 0..levels {
            let mut m = serde_json::Map::new();
            m.insert("a".to_owned(), v);
            v = Value::Object(m);
        }
        v
    }

    /// Runs `f` on a thread with the default 2 MiB stack: a recursion without bound aborts the
    /// test binary there.
    pub(crate) fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(f)
            .expect("thread")
            .join()
            .expect("no panic")
    }

    #[test]
    fn deep_values_are_measured_and_dropped_without_recursion() {
        on_small_stack(|| {
            let deep = nested(200_000);
            assert!(nests_deeper_than(&deep, MAX_DEPTH));
            assert!(!nests_deeper_than(&nested(10), MAX_DEPTH));
            assert!(check(&deep).is_err());
            assert!(!equal_within(&deep, &deep, MAX_DEPTH));
            dispose(deep);
        });
    }

    /// `equal_within` is `==` on values within the limit, and `false` past it.
    #[test]
    fn equal_within_is_equality_up_to_the_limit() {
        let values = [
            json!(null),
            json!(1),
            json!(1.0),
            json!("1"),
            json!([]),
            json!({}),
            json!([1, [2, {"a": 3}]]),
            json!([1, [2, {"a": 4}]]),
            json!([1, [2, {"b": 3}]]),
            json!({"a": [1, 2], "b": {"c": null}}),
            json!({"b": {"c": null}, "a": [1, 2]}),
            json!({"a": [2, 1], "b": {"c": null}}),
            json!({"a": [1, 2]}),
        ];
        for a in &values {
            for b in &values {
                assert_eq!(equal_within(a, b, MAX_DEPTH), a == b, "{a} vs {b}");
            }
        }
        assert!(equal_within(&nested(5), &nested(5), 5));
        assert!(!equal_within(&nested(6), &nested(6), 5));
    }
}
