//! Property tests of patch creation (`smp_core::diff`, `three_way`, the conflict predicates)
//! against the apply engine, typed (a schema with every list strategy) and untyped.
//!
//! Generator restrictions, each forced by the semantics rather than chosen for convenience:
//!
//! * No `null` anywhere inside the documents. A patch member `null` means "delete this member"
//!   (FORMAT §9.2 "Nulls", upstream behaviour), so `diff({}, {"a": null})` is `{"a": null}` and
//!   applying it to `{}` gives `{}`, not `{"a": null}`: a `null` member of `modified` cannot be
//!   created by any patch. (Nulls at the root count as `{}`.)
//! * Items of a list merged by key have unique keys. With duplicate merge keys the list is
//!   ambiguous: the patch names an item only by its key, so `[{"name": "a", "v": 1},
//!   {"name": "a", "v": 2}]` cannot be told apart item by item, and apply merges a patch item
//!   into the first item with its key.
//!
//! * Lists of primitives with the `merge` strategy hold distinct values: applying a merge of
//!   primitives de-duplicates the result (upstream `mergeSlice` calls `deduplicateScalars`), so
//!   `[]` to `[5, 5]` gives the patch `{"set": [5, 5]}`, which yields `[5]`
//!   (`merged_primitive_lists_are_sets`).
//!
//! Any further exception is written below as a plain test with a minimal example.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use smp_core::{PatchError, Schema, apply, diff, has_conflicts, three_way};

/// A schema with: a list merged by key `name` (`items`, also nested in items), a merged set of
/// integers (`set`), replace fields (`replaced`: a map; `tags`: a list by default), a
/// retainKeys object (`retained`), maps (`labels`), an opaque field (`free`) and recursion
/// through `nested`.
fn schema() -> Schema {
    let doc = json!({
        "definitions": {
            "doc": { "type": "object", "properties": {
                "name": { "type": "string" },
                "count": { "type": "integer" },
                "items": { "type": "array", "items": { "$ref": "#/definitions/item" },
                    "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name" },
                "set": { "type": "array", "items": { "type": "integer" },
                    "x-kubernetes-patch-strategy": "merge" },
                "tags": { "type": "array", "items": { "type": "string" } },
                "replaced": { "type": "object", "x-kubernetes-patch-strategy": "replace",
                    "additionalProperties": { "type": "string" } },
                "retained": { "$ref": "#/definitions/retained",
                    "x-kubernetes-patch-strategy": "retainKeys" },
                "labels": { "type": "object", "additionalProperties": { "type": "string" } },
                "free": { "x-kubernetes-preserve-unknown-fields": true },
                "nested": { "$ref": "#/definitions/doc" }
            }},
            "item": { "type": "object", "properties": {
                "name": { "type": "string" },
                "value": { "type": "string" },
                "set": { "type": "array", "items": { "type": "integer" },
                    "x-kubernetes-patch-strategy": "merge" },
                "items": { "type": "array", "items": { "$ref": "#/definitions/item" },
                    "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name" },
                "leaf": { "$ref": "#/definitions/leaf" }
            }},
            "retained": { "type": "object", "properties": {
                "a": { "type": "string" },
                "b": { "type": "integer" },
                "leaf": { "$ref": "#/definitions/leaf" }
            }},
            "leaf": { "type": "object", "properties": {
                "x": { "type": "string" },
                "y": { "type": "integer" }
            }}
        }
    });
    Schema::from_openapi(&doc, "doc").expect("schema loads")
}

fn text() -> impl Strategy<Value = Value> {
    "[a-c]{0,2}".prop_map(Value::from)
}

fn small_int() -> impl Strategy<Value = Value> {
    (-2i64..3).prop_map(Value::from)
}

/// Scalars for opaque values and untyped documents.
fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<bool>().prop_map(Value::from),
        small_int(),
        (-4.0f64..4.0).prop_map(|f| Value::from((f * 4.0).round() / 4.0)),
        text(),
    ]
}

/// Plain JSON objects without nulls, depth-bounded (for untyped and opaque values).
fn plain_object() -> impl Strategy<Value = Value> {
    let value = scalar().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::btree_map("[a-d]", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    });
    prop::collection::btree_map("[a-d]", value, 0..5)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
}

/// An object with the members that are `Some`.
fn object_of(members: Vec<(&str, Option<Value>)>) -> Value {
    Value::Object(
        members
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v)))
            .collect::<Map<_, _>>(),
    )
}

/// Keeps the first item of each `name` (see the module documentation).
fn unique_names(items: Vec<Value>) -> Value {
    let mut seen = std::collections::BTreeSet::new();
    Value::Array(
        items
            .into_iter()
            .filter(|item| seen.insert(item["name"].to_string()))
            .collect(),
    )
}

/// A merged list of integers: distinct values in random order (duplicates collapse on apply,
/// see `merged_primitive_lists_are_sets`).
fn int_set() -> impl Strategy<Value = Value> {
    prop::collection::vec(0i64..6, 0..5).prop_map(|mut v| {
        let mut seen = std::collections::BTreeSet::new();
        v.retain(|n| seen.insert(*n));
        json!(v)
    })
}

fn leaf() -> impl Strategy<Value = Value> {
    (prop::option::of(text()), prop::option::of(small_int()))
        .prop_map(|(x, y)| object_of(vec![("x", x), ("y", y)]))
}

fn item(depth: u32) -> BoxedStrategy<Value> {
    let sub = if depth == 0 {
        Just(None).boxed()
    } else {
        prop::option::of(items(depth - 1)).boxed()
    };
    (
        "[a-e]",
        prop::option::of(text()),
        prop::option::of(int_set()),
        prop::option::of(leaf()),
        sub,
    )
        .prop_map(|(name, value, set, leaf, items)| {
            object_of(vec![
                ("name", Some(name.into())),
                ("value", value),
                ("set", set),
                ("leaf", leaf),
                ("items", items),
            ])
        })
        .boxed()
}

fn items(depth: u32) -> BoxedStrategy<Value> {
    prop::collection::vec(item(depth), 0..5)
        .prop_map(unique_names)
        .boxed()
}

fn string_map() -> impl Strategy<Value = Value> {
    prop::collection::btree_map("[a-c]", text(), 0..3)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
}

/// Documents of the `doc` type.
fn typed_doc(depth: u32) -> BoxedStrategy<Value> {
    let nested = if depth == 0 {
        Just(None).boxed()
    } else {
        prop::option::of(typed_doc(depth - 1)).boxed()
    };
    let retained = (
        prop::option::of(text()),
        prop::option::of(small_int()),
        prop::option::of(leaf()),
    )
        .prop_map(|(a, b, l)| object_of(vec![("a", a), ("b", b), ("leaf", l)]));
    (
        (
            prop::option::of(text()),
            prop::option::of(small_int()),
            prop::option::of(items(1)),
            prop::option::of(int_set()),
            prop::option::of(prop::collection::vec(text(), 0..3).prop_map(Value::Array)),
        ),
        (
            prop::option::of(string_map()),
            prop::option::of(retained),
            prop::option::of(string_map()),
            prop::option::of(plain_object()),
            nested,
        ),
    )
        .prop_map(
            |((name, count, items, set, tags), (replaced, retained, labels, free, nested))| {
                object_of(vec![
                    ("name", name),
                    ("count", count),
                    ("items", items),
                    ("set", set),
                    ("tags", tags),
                    ("replaced", replaced),
                    ("retained", retained),
                    ("labels", labels),
                    ("free", free),
                    ("nested", nested),
                ])
            },
        )
        .boxed()
}

/// Two documents that often share parts, so diffs are not always "replace everything".
fn typed_pair() -> impl Strategy<Value = (Value, Value)> {
    (typed_doc(1), typed_doc(1), any::<u64>()).prop_map(|(a, b, seed)| {
        let b = mix(&a, &b, seed);
        (a, b)
    })
}

fn untyped_pair() -> impl Strategy<Value = (Value, Value)> {
    (plain_object(), plain_object(), any::<u64>()).prop_map(|(a, b, seed)| {
        let b = mix(&a, &b, seed);
        (a, b)
    })
}

/// `b` with some of its top-level members taken from `a` (and some of `a`'s added).
fn mix(a: &Value, b: &Value, seed: u64) -> Value {
    let (Value::Object(a), Value::Object(b)) = (a, b) else {
        return b.clone();
    };
    let mut out = b.clone();
    for (i, (k, v)) in a.iter().enumerate() {
        if (seed >> (i % 64)) & 1 == 1 {
            out.insert(k.clone(), v.clone());
        }
    }
    Value::Object(out)
}

/// A patch for `has_conflicts`: plain objects, possibly with nulls and equal-looking numbers
/// of different kinds.
fn conflict_doc() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        Just(json!(0)),
        Just(json!(0.0)),
        Just(json!(1)),
        text(),
        any::<bool>().prop_map(Value::from),
    ];
    let value = leaf.prop_recursive(3, 24, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::btree_map("[a-c]", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    });
    prop::collection::btree_map("[a-c]", value, 0..4)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
}

/// What `diff(doc, doc)` gives: `{}`, except that objects with the `replace` strategy are
/// always sent whole, changed or not (see `replace_objects_are_sent_even_when_unchanged`). In
/// `doc` documents they are the `replaced` members, found through `nested`; untyped documents
/// have none (a `replaced` member of an untyped document merges like any other object).
fn self_diff(doc: &Value) -> Value {
    let mut patch = Map::new();
    if let Some(replaced @ Value::Object(_)) = doc.get("replaced") {
        patch.insert("replaced".to_owned(), replaced.clone());
    }
    if let Some(nested @ Value::Object(_)) = doc.get("nested") {
        let sub = self_diff(nested);
        if sub != json!({}) {
            patch.insert("nested".to_owned(), sub);
        }
    }
    Value::Object(patch)
}

/// `apply(a, diff(a, b)) == b`, `diff(a, a) == {}` (but see [`self_diff`]) and three-way with `current == original`
/// equals the two-way diff.
fn check_creation(a: &Value, b: &Value, schema: &Schema) -> Result<(), TestCaseError> {
    let patch = diff(a, b, schema).map_err(|e| TestCaseError::fail(format!("diff: {e}")))?;
    let applied =
        apply(a, &patch, schema).map_err(|e| TestCaseError::fail(format!("apply {patch}: {e}")))?;
    prop_assert_eq!(&applied, b, "patch: {}", patch);

    for doc in [a, b] {
        prop_assert_eq!(diff(doc, doc, schema), Ok(self_diff(doc)));
    }

    // With `current == original` nobody else changed anything: the three-way patch is the
    // two-way one, overwriting or not ...
    let three = three_way(a, b, a, schema, &smp_core::ThreeWayOptions::default())
        .map_err(|e| TestCaseError::fail(format!("three_way: {e}")))?;
    prop_assert_eq!(&three, &patch);
    match three_way(
        a,
        b,
        a,
        schema,
        &smp_core::ThreeWayOptions::refusing_conflicts(),
    ) {
        Ok(three) => prop_assert_eq!(&three, &patch),
        // ... except that `diff(a, a)` is not empty when `a` has `replace` objects, and the
        // conflict check may then see a change by others (see
        // `unchanged_replace_objects_can_conflict`).
        Err(e) => prop_assert!(
            self_diff(a) != json!({}) && matches!(e, PatchError::Conflict { .. }),
            "three_way: {}",
            e
        ),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 700, ..ProptestConfig::default() })]

    #[test]
    fn typed_creation((a, b) in typed_pair()) {
        check_creation(&a, &b, &schema())?;
    }

    #[test]
    fn untyped_creation((a, b) in untyped_pair()) {
        check_creation(&a, &b, &Schema::untyped())?;
    }

    #[test]
    fn untyped_self_diff_is_empty(a in plain_object()) {
        prop_assert_eq!(diff(&a, &a, &Schema::untyped()), Ok(json!({})));
    }

    #[test]
    fn has_conflicts_is_symmetric_and_irreflexive(x in conflict_doc(), y in conflict_doc()) {
        prop_assert_eq!(has_conflicts(&x, &y), has_conflicts(&y, &x));
        prop_assert!(!has_conflicts(&x, &x));
        prop_assert!(!has_conflicts(&y, &y));
    }
}

/// Exception to `diff(a, a) == {}`: a member whose patch strategy is `replace` and whose values
/// are objects is put in the patch whole even when it did not change. Upstream does the same
/// (`handleMapDiff` assigns `patch[key] = modifiedValue` for `replace` without comparing), so
/// the engine keeps it; the patch is still correct (it replaces the object by itself).
#[test]
fn replace_objects_are_sent_even_when_unchanged() {
    let schema = schema();
    let a = json!({"replaced": {}});
    assert_eq!(diff(&a, &a, &schema), Ok(a.clone()));
    let a = json!({"nested": {"replaced": {"a": "x"}}, "name": "n"});
    let patch = diff(&a, &a, &schema).expect("diff");
    assert_eq!(patch, json!({"nested": {"replaced": {"a": "x"}}}));
    assert_eq!(apply(&a, &patch, &schema), Ok(a.clone()));
    // Lists with the (default) replace strategy are compared first: equal lists give nothing.
    let a = json!({"tags": ["a", "b"]});
    assert_eq!(diff(&a, &a, &schema), Ok(json!({})));
}

/// Exception to `three_way(a, b, a, overwrite = false) == diff(a, b)`: the changes "made by
/// others" are `diff(original, current)`, which for `original == current` is not empty when it
/// holds an unchanged `replace` object (see above). If the created patch deletes or changes the
/// object around it, the two disagree and the call fails with a conflict, as upstream's does
/// (its `mergingMapsHaveConflicts` sees `null` against an object).
#[test]
fn unchanged_replace_objects_can_conflict() {
    let schema = schema();
    let a = json!({"nested": {"replaced": {}}});
    let b = json!({});
    assert_eq!(diff(&a, &b, &schema), Ok(json!({"nested": null})));
    assert_eq!(
        three_way(&a, &b, &a, &schema, &smp_core::ThreeWayOptions::default()),
        Ok(json!({"nested": null}))
    );
    let err = three_way(
        &a,
        &b,
        &a,
        &schema,
        &smp_core::ThreeWayOptions::refusing_conflicts(),
    )
    .unwrap_err();
    assert!(matches!(err, PatchError::Conflict { .. }), "{err}");
    assert_eq!(
        err.path().map(ToString::to_string).as_deref(),
        Some("nested")
    );
    // Without the `replace` object there is nothing to conflict with.
    let a = json!({"nested": {"name": "x"}});
    assert_eq!(
        three_way(
            &a,
            &b,
            &a,
            &schema,
            &smp_core::ThreeWayOptions::refusing_conflicts()
        ),
        Ok(json!({"nested": null}))
    );
}

/// Exception to `apply(a, diff(a, b)) == b`: merged lists of primitives are sets.
#[test]
fn merged_primitive_lists_are_sets() {
    let schema = schema();
    let a = json!({"set": []});
    let b = json!({"set": [5, 5]});
    let patch = diff(&a, &b, &schema).expect("diff");
    assert_eq!(patch, json!({"set": [5, 5]}));
    assert_eq!(apply(&a, &patch, &schema), Ok(json!({"set": [5]})));
}

/// Diff pairs items the way apply finds them: equal JSON values. Upstream pairs by Go's
/// printed form, so `1` and `"1"` are one item to its diff and two to its apply, and its patch
/// does not map `a` to `b`; here `80` and `80.0` (two number kinds in serde_json) are two
/// items too. Values that print differently keep upstream's order.
#[test]
fn items_that_print_alike_pair_only_when_equal() {
    let schema = schema();
    let cases = [
        (
            json!({"items": [{"name": 1}]}),
            json!({"items": [{"name": "1"}]}),
        ),
        (
            json!({"items": [{"name": 80.0, "value": "a"}]}),
            json!({"items": [{"name": 80, "value": "b"}]}),
        ),
    ];
    for (a, b) in cases {
        for (a, b) in [(&a, &b), (&b, &a)] {
            let patch = diff(a, b, &schema).expect("diff");
            assert_eq!(
                apply(a, &patch, &schema).as_ref(),
                Ok(b),
                "a: {a}\nb: {b}\npatch: {patch}"
            );
        }
    }
    // A merged list of numbers holds integers or floats, never both: apply refuses to merge
    // `[1]` with `[1.0]`, so diff refuses to create that patch, with apply's error.
    for (a, b) in [
        (json!({"set": [1]}), json!({"set": [1.0]})),
        (json!({"set": [1.0, 2]}), json!({"set": [2]})),
    ] {
        assert!(
            matches!(diff(&a, &b, &schema), Err(PatchError::MixedList { .. })),
            "a: {a}\nb: {b}"
        );
        let patch = json!({"set": [1.0]});
        assert!(matches!(
            apply(&json!({"set": [1]}), &patch, &schema),
            Err(PatchError::MixedList { .. })
        ));
    }
    // The patch deletes the old item and adds the new one.
    let patch = diff(
        &json!({"items": [{"name": 1}]}),
        &json!({"items": [{"name": "1"}]}),
        &schema,
    );
    assert_eq!(
        patch,
        Ok(json!({
            "$setElementOrder/items": [{"name": "1"}],
            "items": [{"name": "1"}, {"name": 1, "$patch": "delete"}]
        }))
    );
}

/// A merged list without a merge key cannot hold objects: apply refuses to merge them, so diff
/// refuses to create the patch, also when the original list is empty (found by the diff fuzz
/// target: the whole list was sent and apply failed).
#[test]
fn objects_in_a_keyless_merged_list_are_refused_by_both() {
    let schema = schema();
    let a = json!({"set": []});
    let b = json!({"set": [{"a": 1}]});
    let err = diff(&a, &b, &schema).unwrap_err();
    assert!(matches!(err, PatchError::WrongType { .. }), "{err}");
    assert_eq!(err.path().map(ToString::to_string).as_deref(), Some("set"));
    assert!(apply(&a, &b, &schema).is_err());
    // With an original, as before.
    assert!(diff(&json!({"set": [{"a": 2}]}), &b, &schema).is_err());
}
