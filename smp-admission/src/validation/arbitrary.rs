//! Arbitrary JSON for the no-panic property tests of the kinds' rules: scalars of the shapes a
//! kind reads, in objects keyed by the member names its rules look up (so that the rules get
//! past their first checks) and in lists, a few levels deep.

use proptest::prelude::*;
use serde_json::Value;

/// A scalar: null, a boolean, an integer from `ints`, or a string matching `strings`.
pub(crate) fn scalar(
    strings: &'static str,
    ints: impl Strategy<Value = i64> + 'static,
) -> BoxedStrategy<Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        ints.prop_map(Value::from),
        strings.prop_map(Value::from),
    ]
    .boxed()
}

/// Values built from `leaf` in lists and in objects whose keys match `keys`, at most `depth`
/// levels deep and about `size` nodes.
pub(crate) fn json(
    leaf: BoxedStrategy<Value>,
    keys: &'static str,
    depth: u32,
    size: u32,
) -> impl Strategy<Value = Value> {
    leaf.prop_recursive(depth, size, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(keys, inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}
