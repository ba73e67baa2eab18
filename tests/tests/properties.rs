//! Property tests of the Value engine's invariants.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use smp_core::{PatchError, Schema, apply};

/// Scalars, including exact 64-bit integers.
fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        "[a-c]{0,3}".prop_map(Value::from),
    ]
}

/// Plain JSON documents (no directive keys), depth-bounded.
fn document(allow_null: bool) -> impl Strategy<Value = Value> {
    let leaf = if allow_null {
        prop_oneof![1 => Just(Value::Null), 6 => scalar()].boxed()
    } else {
        scalar().boxed()
    };
    leaf.prop_recursive(4, 40, 5, move |inner| {
        prop_oneof![
            // Arrays hold scalars only: RFC 7386 and SMP treat nulls inside arrays differently
            // (see `untyped_apply_is_json_merge_patch`).
            prop::collection::vec(scalar(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-d]", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn object(allow_null: bool) -> impl Strategy<Value = Value> {
    prop::collection::btree_map("[a-d]", document(allow_null), 0..5)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
}

/// The upstream test type's metadata, as a schema (merge lists by `name`, a set of ints, a
/// replace field, a retainKeys map).
fn merge_item_schema() -> Schema {
    let doc = json!({
        "definitions": {
            "item": { "type": "object", "properties": {
                "name": { "type": "string" },
                "value": { "type": "string" },
                "list": { "type": "array", "items": { "$ref": "#/definitions/item" },
                    "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name" },
                "set": { "type": "array", "items": { "type": "integer" },
                    "x-kubernetes-patch-strategy": "merge" },
                "replaced": { "type": "object", "x-kubernetes-patch-strategy": "replace",
                    "additionalProperties": { "type": "string" } },
                "retained": { "$ref": "#/definitions/item", "x-kubernetes-patch-strategy": "retainKeys" }
            }}
        }
    });
    Schema::from_openapi(&doc, "item").expect("schema loads")
}

/// Items of the merged list: objects keyed by `name`, sometimes with directives.
fn item() -> impl Strategy<Value = Value> {
    (
        "[a-c]",
        prop::option::of("[x-z]"),
        prop_oneof![4 => Just(None), 1 => Just(Some("delete")), 1 => Just(Some("replace")),
            1 => Just(Some("merge")), 1 => Just(Some("bogus"))],
    )
        .prop_map(|(name, value, op)| {
            let mut m = Map::new();
            m.insert("name".into(), name.into());
            if let Some(v) = value {
                m.insert("value".into(), v.into());
            }
            if let Some(op) = op {
                m.insert("$patch".into(), op.into());
            }
            Value::Object(m)
        })
}

/// Patches for `merge_item_schema` using every directive, valid or not.
fn directive_patch() -> impl Strategy<Value = Value> {
    let names = prop::collection::vec("[a-d]", 0..4);
    (
        prop::option::of(prop::collection::vec(item(), 0..4)),
        prop::option::of(prop::collection::vec(0i64..5, 0..4)),
        prop::option::of(prop::collection::vec(0i64..5, 0..3)),
        prop::option::of(prop::collection::vec(
            "[a-c]".prop_map(|n| json!({ "name": n })),
            0..4,
        )),
        prop::option::of(prop::collection::vec(0i64..5, 0..4)),
        prop::option::of(names),
        prop::option::of(object(true)),
    )
        .prop_map(|(list, set, delete, order, set_order, retain, extra)| {
            let mut p = Map::new();
            if let Some(l) = list {
                p.insert("list".into(), Value::Array(l));
            }
            if let Some(s) = set {
                p.insert("set".into(), json!(s));
            }
            if let Some(d) = delete {
                p.insert("$deleteFromPrimitiveList/set".into(), json!(d));
            }
            if let Some(o) = order {
                p.insert("$setElementOrder/list".into(), Value::Array(o));
            }
            if let Some(o) = set_order {
                p.insert("$setElementOrder/set".into(), json!(o));
            }
            if let Some(r) = retain {
                p.insert("retained".into(), json!({ "$retainKeys": r, "value": "v" }));
            }
            if let Some(Value::Object(e)) = extra {
                p.insert("replaced".into(), Value::Object(e));
            }
            Value::Object(p)
        })
}

fn live_item_object() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(item().prop_map(|mut v| {
            if let Value::Object(m) = &mut v {
                m.remove("$patch");
            }
            v
        }), 0..5),
        prop::collection::vec(0i64..5, 0..5),
        object(false),
    )
        .prop_map(|(list, set, other)| json!({ "list": list, "set": set, "retained": other, "name": "n" }))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// An empty patch changes nothing, whatever the schema.
    #[test]
    fn empty_patch_is_identity(doc in object(true)) {
        prop_assert_eq!(apply(&doc, &json!({}), &Schema::untyped())?, doc.clone());
        prop_assert_eq!(apply(&doc, &Value::Null, &merge_item_schema())?, doc);
    }

    /// Without schema metadata and without directives, SMP is RFC 7386 JSON merge patch.
    /// (Arrays in the generated documents hold only non-null scalars: for an array containing
    /// objects with null members, upstream SMP drops those nulls when the array is new and
    /// RFC 7386 keeps them.)
    #[test]
    fn untyped_apply_is_json_merge_patch(doc in object(false), patch in object(true)) {
        let mut expected = doc.clone();
        json_patch::merge(&mut expected, &patch);
        prop_assert_eq!(apply(&doc, &patch, &Schema::untyped())?, expected);
    }

    /// Any patch, valid or not, either applies or fails with an error naming a path; it never
    /// panics, and the result never contains `$patch` or list directives at the merged list.
    #[test]
    fn directives_never_panic(doc in live_item_object(), patch in directive_patch()) {
        match apply(&doc, &patch, &merge_item_schema()) {
            Ok(out) => {
                if let Some(list) = out.get("list").and_then(Value::as_array) {
                    for item in list {
                        prop_assert!(item.get("$patch").is_none(), "directive leaked: {}", out);
                    }
                }
                prop_assert!(out.get("$setElementOrder/list").is_none());
                prop_assert!(out.get("$deleteFromPrimitiveList/set").is_none());
            }
            Err(e) => {
                let named = e.path().is_some() || matches!(e, PatchError::InvalidDocument { .. });
                prop_assert!(named, "error without a path: {}", e);
            }
        }
    }

    /// Merged sets hold each value once and contain every patch value.
    #[test]
    fn sets_are_unions(live in prop::collection::vec(0i64..6, 0..6), add in prop::collection::vec(0i64..6, 0..6)) {
        let out = apply(&json!({"set": live}), &json!({"set": add}), &merge_item_schema())?;
        let got: Vec<i64> = out["set"].as_array().unwrap().iter().filter_map(Value::as_i64).collect();
        let mut dedup = got.clone();
        dedup.sort_unstable();
        dedup.dedup();
        prop_assert_eq!(dedup.len(), got.len(), "duplicates in {:?}", got);
        for v in live.iter().chain(&add) {
            prop_assert!(got.contains(v));
        }
    }
}

/// Integers keep full 64-bit precision through the engine.
#[test]
fn large_integers_stay_exact() {
    let doc = json!({"a": i64::MAX, "b": u64::MAX, "c": i64::MIN});
    let out = apply(
        &doc,
        &json!({"d": 9_223_372_036_854_775_807i64}),
        &Schema::untyped(),
    )
    .unwrap();
    assert_eq!(out["a"].as_i64(), Some(i64::MAX));
    assert_eq!(out["b"].as_u64(), Some(u64::MAX));
    assert_eq!(out["c"].as_i64(), Some(i64::MIN));
    assert_eq!(out["d"].as_i64(), Some(i64::MAX));
}

/// Creating a patch checks nesting as it walks the documents, and where it compares, copies or
/// drops a value whole: a value nested past the limit is `TooDeep` naming where it is. The walk goes at most `MAX_DEPTH` levels down whatever
/// the input: an 8 MiB stack (a main thread's) holds that in a debug build, 2 MiB in release.
#[test]
fn diff_checks_nesting_where_it_reaches() {
    let handle = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(|| {
            let deep = || {
                let mut v = json!({"leaf": 1});
                for _ in 0..10_000 {
                    let mut m = Map::new();
                    m.insert("a".to_owned(), v);
                    v = Value::Object(m);
                }
                v
            };
            let with = |mut doc: Value, at: &[&str], value: Value| {
                let mut slot = &mut doc;
                for step in at {
                    slot = match step.parse::<usize>() {
                        Ok(i) => &mut slot[i],
                        Err(_) => &mut slot[*step],
                    };
                }
                *slot = value;
                doc
            };
            let schema = Schema::from_openapi(
                &json!({"definitions": {"S": {"properties": {
                    "items": {"type": "array", "items": {"$ref": "#/definitions/I"},
                        "x-kubernetes-patch-strategy": "merge",
                        "x-kubernetes-patch-merge-key": "k"}}},
                    "I": {"properties": {"k": {}, "v": {}}}}}),
                "S",
            )
            .expect("schema loads");
            let untyped = Schema::untyped();
            let listed = json!({"items": [{"k": "a"}]});
            let cases: Vec<(Value, Value, &Schema, &str)> = vec![
                (
                    json!({}),
                    with(json!({"x": 0}), &["x"], deep()),
                    &untyped,
                    "x",
                ),
                (
                    json!({"x": 1}),
                    with(json!({"x": 0}), &["x"], deep()),
                    &untyped,
                    "x",
                ),
                (
                    with(json!({"x": 0}), &["x"], deep()),
                    with(json!({"x": 0}), &["x"], deep()),
                    &untyped,
                    "x",
                ),
                (
                    json!({"l": [1]}),
                    with(json!({"l": [0]}), &["l", "0"], deep()),
                    &untyped,
                    "l",
                ),
                (
                    listed.clone(),
                    with(
                        json!({"items": [{"k": "a"}, {"k": "b", "v": 0}]}),
                        &["items", "1", "v"],
                        deep(),
                    ),
                    &schema,
                    "items",
                ),
                (
                    json!({"items": []}),
                    with(
                        json!({"items": [{"k": "b", "v": 0}]}),
                        &["items", "0", "v"],
                        deep(),
                    ),
                    &schema,
                    "items",
                ),
                (
                    listed.clone(),
                    with(json!({"items": [{"k": 0}]}), &["items", "0", "k"], deep()),
                    &schema,
                    "items",
                ),
                (
                    with(json!({"y": 0}), &["y"], deep()),
                    with(json!({"y": {"b": 0}}), &["y", "b"], deep()),
                    &schema,
                    "y",
                ),
            ];
            let mut out = Vec::new();
            for (original, modified, schema, at) in cases {
                let result = smp_core::diff(&original, &modified, schema);
                out.push((at, result));
                std::mem::forget((original, modified));
            }
            let gone = with(json!({"x": 0}), &["x"], deep());
            let removed = smp_core::diff(&gone, &json!({}), &untyped);
            std::mem::forget(gone);
            (out, removed)
        })
        .expect("thread starts");
    let (cases, removed) = handle.join().expect("no stack overflow");
    for (at, result) in cases {
        let err = result.unwrap_err();
        assert!(matches!(err, PatchError::TooDeep { .. }), "{at}: {err}");
        let path = err.path().map(ToString::to_string).unwrap_or_default();
        assert!(path.starts_with(at), "{at}: {err}");
    }
    let err = removed.unwrap_err();
    assert!(matches!(err, PatchError::TooDeep { .. }), "{err}");
    assert_eq!(err.path().map(ToString::to_string).as_deref(), Some("x"));
}

/// Nesting beyond the documented limit is an error, not a stack overflow; built in memory
/// (parsers stop earlier) and run on a thread with an ordinary 2 MiB stack.
#[test]
fn deep_nesting_is_an_error() {
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            // `json!` would serialize the interpolated value recursively; wrap by hand.
            let nest = |mut v: Value| {
                for _ in 0..10_000 {
                    let mut m = Map::new();
                    m.insert("a".to_owned(), v);
                    v = Value::Object(m);
                }
                v
            };
            let patch = nest(json!({"leaf": 1}));
            let doc = nest(json!({"leaf": 0}));
            let merged = apply(&doc, &patch, &Schema::untyped());
            let added = apply(&json!({}), &patch, &Schema::untyped());
            // Dropping 10,000-deep values recurses in serde_json; leak them instead, the test
            // is about the engine.
            std::mem::forget(doc);
            std::mem::forget(patch);
            (merged.map(std::mem::forget), added.map(std::mem::forget))
        })
        .expect("thread starts");
    let (merged, added) = handle.join().expect("no stack overflow");
    for r in [merged, added] {
        let err = r.unwrap_err();
        assert!(
            matches!(
                err,
                PatchError::TooDeep {
                    limit: smp_core::MAX_DEPTH,
                    ..
                }
            ),
            "{err}"
        );
    }
}
