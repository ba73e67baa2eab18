//! Differential property test of the typed path against its reference.
//!
//! For random objects and random patches (every directive, valid and invalid), a typed apply
//! must give what the JSON round trip gives — `to_value(x)`, the Value engine with
//! `T::schema()`, `from_value` — compared on the JSON form, fail exactly when the round trip
//! fails, and leave the object unchanged when it fails. A patch that reads into the type's
//! typed patch (`T::Patch`) must write itself back, and applying it (`apply_patch`, planned
//! natively where it can be) must do what applying the JSON does.
//!
//! Two type sets: the typed twin of upstream's `mergeItem` (`support/merge_item.rs`: scalar
//! names that collide, nested merging lists, int sets, maps, retainKeys, undeclared members)
//! and the Pod-like types of `tests/derive-ui/ui/pass/pod.rs` (container lists keyed by name, ports
//! keyed by number, env, volumes with retainKeys, flattened fields, string enums, serde
//! defaults).

use crate::support;

use crate::pod;

use std::fmt::Debug;

use proptest::prelude::*;
use proptest::strategy::Union;
use proptest::test_runner::TestCaseError;
use serde_json::{Map, Value, json};
use smp_core::{Patch, StrategicMerge};
use support::docs::*;
use support::merge_item::MergeItem;

/// Cases per property; together they run at least 10,000 per `cargo test`.
const TWIN_CASES: u32 = 6_000;
const POD_CASES: u32 = 4_000;
const EDGE_CASES: u32 = 2_000;

/// The property: typed apply agrees with the round trip, and a failed apply changes nothing.
fn agree<T: StrategicMerge + Clone + PartialEq + Debug>(
    x: &T,
    patch: &Value,
) -> Result<(), TestCaseError> {
    let original = serde_json::to_value(x).unwrap();
    let reference = smp_core::apply(&original, patch, T::schema())
        .map_err(|e| e.to_string())
        .and_then(|out| serde_json::from_value::<T>(out).map_err(|e| e.to_string()))
        .map(|t| serde_json::to_value(t).unwrap());
    let mut y = x.clone();
    let typed = y.apply(&Patch::from_value(patch.clone()).unwrap());
    match (typed, reference) {
        (Ok(()), Ok(want)) => {
            let got = serde_json::to_value(&y).unwrap();
            prop_assert_eq!(got, want, "typed result differs from the round trip");
        }
        (Err(_), Err(_)) => prop_assert_eq!(&y, x, "a failed typed apply changed the object"),
        (Ok(()), Err(e)) => prop_assert!(
            false,
            "typed apply succeeded with {}, the round trip failed: {e}",
            serde_json::to_value(&y).unwrap()
        ),
        (Err(e), Ok(want)) => prop_assert!(
            false,
            "typed apply failed ({e}), the round trip gave {want}"
        ),
    }
    typed_patch_agrees(x, patch, &y)
}

/// The typed patch of `patch`, when it has one: it writes itself back, and `apply_patch` gives
/// `by_json`, what applying the JSON gave (or fails where that failed, changing nothing).
fn typed_patch_agrees<T: StrategicMerge + Clone + PartialEq + Debug>(
    x: &T,
    patch: &Value,
    by_json: &T,
) -> Result<(), TestCaseError> {
    use smp_core::ValuePatch;
    let Ok(typed) = T::Patch::from_value(patch.clone()) else {
        return Ok(());
    };
    let written = typed.to_value().unwrap();
    prop_assert_eq!(&T::Patch::from_value(written.clone()).unwrap(), &typed);
    let mut y = x.clone();
    let by_json_ok = {
        let mut z = x.clone();
        z.apply(&Patch::from_value(patch.clone()).unwrap()).is_ok()
    };
    match y.apply_patch(&typed) {
        Ok(()) => {
            prop_assert!(
                by_json_ok,
                "apply_patch succeeded where the JSON failed: {written}"
            );
            prop_assert_eq!(
                &y,
                by_json,
                "apply_patch differs from the JSON's apply: {}",
                written
            );
        }
        Err(_) => {
            prop_assert!(
                !by_json_ok,
                "apply_patch failed where the JSON applied: {written}"
            );
            prop_assert_eq!(&y, x, "a failed apply_patch changed the object");
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Building blocks

/// `good` alternatives, plus the `bad` ones (malformed input) when `bad` is set.
fn mix(
    bad: bool,
    good: Vec<(u32, BoxedStrategy<Value>)>,
    malformed: Vec<(u32, BoxedStrategy<Value>)>,
) -> BoxedStrategy<Value> {
    let mut all = good;
    if bad {
        all.extend(malformed);
    }
    Union::new_weighted(all).boxed()
}

/// `$patch` values: `replace`, `delete`, and (`bad`) `merge` (an error in lists), unknown
/// ones, a non-string.
fn patch_directive(bad: bool) -> BoxedStrategy<Value> {
    mix(
        bad,
        vec![
            (2, Just(json!("replace")).boxed()),
            (2, Just(json!("delete")).boxed()),
        ],
        vec![
            (1, Just(json!("merge")).boxed()),
            (1, Just(json!("bogus")).boxed()),
            (1, Just(json!(1)).boxed()),
        ],
    )
}

/// Adds `$retainKeys` to some patch objects (probability `p`): listing every non-null member
/// (valid), or (`bad`) a random subset of `names` (often missing a member: an error) or not a
/// list.
fn with_retain_keys(
    patch: BoxedStrategy<Value>,
    names: &'static [&'static str],
    p: f64,
    bad: bool,
) -> BoxedStrategy<Value> {
    let keys = if bad {
        prop_oneof![
            3 => prop::sample::subsequence(names, 0..=names.len()).prop_map(Some),
            2 => Just(None),
        ]
        .boxed()
    } else {
        Just(None).boxed()
    };
    let mode = prop::option::weighted(p, keys);
    (patch, mode, any::<bool>())
        .prop_map(move |(mut patch, mode, not_a_list)| {
            let Value::Object(map) = &mut patch else {
                return patch;
            };
            let keys: Value = match mode {
                None => return patch,
                Some(_) if bad && not_a_list && map.len() % 3 == 0 => json!("name"),
                Some(Some(subset)) => subset.into_iter().map(Value::from).collect(),
                Some(None) => map
                    .iter()
                    .filter(|(k, v)| !k.starts_with('$') && !v.is_null())
                    .map(|(k, _)| Value::from(k.as_str()))
                    .collect(),
            };
            map.insert("$retainKeys".to_owned(), keys);
            patch
        })
        .boxed()
}

// ---------------------------------------------------------------------------------------------
// The mergeItem twin: documents

// ---------------------------------------------------------------------------------------------
// The mergeItem twin: patches

const ITEM_FIELDS: &[&str] = &[
    "name",
    "value",
    "other",
    "mergingList",
    "nonMergingList",
    "mergingIntList",
    "nonMergingIntList",
    "mergeItemPtr",
    "simpleMap",
    "replacingItem",
    "retainKeysMap",
    "retainKeysMergingList",
    "jsonItem",
    "extra",
];

const RETAIN_FIELDS: &[&str] = &[
    "name",
    "value",
    "other",
    "simpleMap",
    "mergingIntList",
    "mergingList",
    "nonMergingList",
];

/// A value for a scalar member: mostly scalars, sometimes `null` (delete), sometimes (`bad`) a
/// type change the twin cannot hold.
fn scalar_patch(bad: bool) -> BoxedStrategy<Value> {
    mix(
        bad,
        vec![(8, scalar()), (2, Just(Value::Null).boxed())],
        vec![
            (1, Just(json!({"a": 1})).boxed()),
            (1, Just(json!(["a"])).boxed()),
        ],
    )
}

fn ints_patch(bad: bool) -> BoxedStrategy<Value> {
    mix(
        bad,
        vec![(8, ints()), (2, Just(Value::Null).boxed())],
        vec![
            (1, Just(json!("x")).boxed()),
            (1, Just(json!([1, "a"])).boxed()),
            (1, Just(json!([[1]])).boxed()),
            (1, Just(json!([null])).boxed()),
            (1, Just(json!({"a": 1})).boxed()),
        ],
    )
}

/// `$setElementOrder` lists for lists keyed by `name`: in any order (often disagreeing with
/// the patch list), naming items that may not exist, or (`bad`) malformed.
fn key_order(bad: bool) -> BoxedStrategy<Value> {
    mix(
        bad,
        vec![(8, list(name().prop_map(|n| json!({"name": n})).boxed(), 4))],
        vec![
            (1, Just(json!([{"value": 1}])).boxed()),
            (1, Just(json!([1])).boxed()),
            (1, Just(json!("x")).boxed()),
        ],
    )
}

fn ints_order(bad: bool) -> BoxedStrategy<Value> {
    mix(
        bad,
        vec![(8, ints())],
        vec![
            (1, Just(json!([{"name": "a"}])).boxed()),
            (1, Just(json!(null)).boxed()),
        ],
    )
}

fn simple_map_patch(bad: bool) -> BoxedStrategy<Value> {
    let entry = mix(
        bad,
        vec![(4, scalar()), (1, Just(Value::Null).boxed())],
        vec![(1, Just(json!({"x": 1})).boxed())],
    );
    (
        prop::collection::btree_map("k[1-3]", entry, 0..3),
        prop::option::weighted(0.15, patch_directive(bad)),
    )
        .prop_map(|(m, directive)| {
            let mut map: Map<String, Value> = m.into_iter().collect();
            if let Some(d) = directive {
                map.insert("$patch".to_owned(), d);
            }
            Value::Object(map)
        })
        .boxed()
}

/// A patch for a list of `mergeItem` merged by `name`: merges, additions, deletions,
/// `$patch: replace`, and (`bad`) items without a key, `$patch: merge` or bogus, non-objects.
fn item_list_patch(depth: u32, retain: bool, bad: bool) -> BoxedStrategy<Value> {
    let element = mix(
        bad,
        vec![
            (12, item_patch(depth, retain, bad)),
            (
                2,
                name()
                    .prop_map(|n| json!({"name": n, "$patch": "delete"}))
                    .boxed(),
            ),
            (1, Just(json!({"$patch": "replace"})).boxed()),
        ],
        vec![
            (1, Just(json!({"$patch": "merge"})).boxed()),
            (
                1,
                name()
                    .prop_map(|n| json!({"name": n, "$patch": "bogus"}))
                    .boxed(),
            ),
            (1, Just(json!({"value": "no name"})).boxed()),
            (1, Just(json!(5)).boxed()),
        ],
    );
    mix(
        bad,
        vec![(12, list(element, 4)), (1, Just(Value::Null).boxed())],
        vec![
            (1, Just(json!({"name": "a"})).boxed()),
            (1, Just(json!("x")).boxed()),
        ],
    )
}

/// A patch object for a `mergeItem` (the root, a list item, a nested item). `retain`: it is an
/// item of a `merge,retainKeys` list, which expects `$retainKeys`.
fn item_patch(depth: u32, retain: bool, bad: bool) -> BoxedStrategy<Value> {
    let b = |p: f64| if bad { p } else { 0.0 };
    let mut fields = vec![
        (
            "name",
            0.8,
            mix(bad, vec![(1, name())], vec![(1, Just(Value::Null).boxed())]),
        ),
        ("value", 0.35, scalar_patch(bad)),
        ("other", 0.1, scalar_patch(bad)),
        ("$patch", 0.04, patch_directive(bad)),
        ("mergingIntList", 0.25, ints_patch(bad)),
        (
            "$deleteFromPrimitiveList/mergingIntList",
            0.12,
            ints_patch(bad),
        ),
        ("$setElementOrder/mergingIntList", 0.1, ints_order(bad)),
        ("nonMergingIntList", 0.08, ints_patch(bad)),
        ("$deleteFromPrimitiveList/nonMergingIntList", 0.04, ints()),
        ("simpleMap", 0.15, simple_map_patch(bad)),
        (
            "replacingItem",
            0.08,
            prop_oneof![3 => raw_extension(), 1 => Just(Value::Null)].boxed(),
        ),
        ("jsonItem", 0.08, any_json(2)),
        ("extra", 0.08, any_json(2)),
        ("$setElementOrder/extra", 0.02, ints()),
        ("$deleteFromPrimitiveList/extra", 0.02, ints()),
        ("$unknownDirective", b(0.01), any_json(1)),
    ];
    if depth > 0 {
        fields.extend([
            ("mergingList", 0.4, item_list_patch(depth - 1, false, bad)),
            ("$setElementOrder/mergingList", 0.15, key_order(bad)),
            ("nonMergingList", 0.08, list(item(depth - 1), 2)),
            (
                "mergeItemPtr",
                0.12,
                prop_oneof![
                    3 => item_list_patch(depth - 1, false, bad),
                    1 => item_patch(depth - 1, false, bad),
                ]
                .boxed(),
            ),
            ("$setElementOrder/mergeItemPtr", 0.05, key_order(bad)),
            (
                "retainKeysMap",
                0.2,
                mix(
                    bad,
                    vec![
                        (6, retain_keys_patch(depth - 1, bad)),
                        (1, Just(Value::Null).boxed()),
                    ],
                    vec![(1, Just(json!([1])).boxed())],
                ),
            ),
            (
                "retainKeysMergingList",
                0.2,
                item_list_patch(depth - 1, true, bad),
            ),
            (
                "$setElementOrder/retainKeysMergingList",
                0.05,
                key_order(bad),
            ),
        ]);
    }
    let p = if retain { 0.7 } else { 0.04 };
    with_retain_keys(object(fields), ITEM_FIELDS, p, bad)
}

/// A patch object for `retainKeysMap` (whose strategy expects `$retainKeys`).
fn retain_keys_patch(depth: u32, bad: bool) -> BoxedStrategy<Value> {
    let patch = object(vec![
        ("name", 0.5, scalar_patch(bad)),
        ("value", 0.4, scalar_patch(bad)),
        ("other", 0.2, scalar_patch(bad)),
        ("simpleMap", 0.25, simple_map_patch(bad)),
        ("mergingIntList", 0.3, ints_patch(bad)),
        ("$deleteFromPrimitiveList/mergingIntList", 0.1, ints()),
        ("$setElementOrder/mergingIntList", 0.1, ints_order(bad)),
        ("mergingList", 0.3, item_list_patch(depth, false, bad)),
        ("$setElementOrder/mergingList", 0.1, key_order(bad)),
        ("nonMergingList", 0.1, list(item(depth), 2)),
        ("$patch", 0.03, patch_directive(bad)),
    ]);
    with_retain_keys(patch, RETAIN_FIELDS, 0.7, bad)
}

/// Half the patches use only well-formed pieces (they can still fail: a `$setElementOrder`
/// list that disagrees with its patch list, a null merge key from a deletion...), half mix in
/// malformed ones.
fn twin_case() -> impl Strategy<Value = (MergeItem, Value, Value)> {
    let patch = prop_oneof![item_patch(2, false, false), item_patch(2, false, true)];
    (item(2), patch).prop_map(|(doc, patch)| {
        let twin: MergeItem = serde_json::from_value(doc.clone())
            .unwrap_or_else(|e| panic!("generated document {doc} does not fit the twin: {e}"));
        (twin, doc, patch)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: TWIN_CASES, ..ProptestConfig::default() })]

    #[test]
    fn twin_typed_apply_equals_round_trip((twin, doc, patch) in twin_case()) {
        // The generator's documents are the twin's JSON forms exactly.
        prop_assert!(support::json_eq(&doc, &serde_json::to_value(&twin).unwrap()));
        agree(&twin, &patch)?;
    }
}

// ---------------------------------------------------------------------------------------------
// Pod-like types: documents

// ---------------------------------------------------------------------------------------------
// Pod-like types: patches

fn maybe_null(p: f64, s: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    prop_oneof![
        ((1.0 - p) * 100.0) as u32 => s,
        (p * 100.0) as u32 => Just(Value::Null),
    ]
    .boxed()
}

/// `value`, or (`bad`) sometimes one of `malformed`.
fn or_bad(bad: bool, value: BoxedStrategy<Value>, malformed: Vec<Value>) -> BoxedStrategy<Value> {
    mix(bad, vec![(8, value)], vec![(1, one_of(malformed))])
}

/// A patch list keyed by `key`: merges, additions, deletions, `$patch: replace`, and (`bad`)
/// items without the key, `$patch: merge` or bogus, non-objects.
fn keyed_list_patch(
    item: BoxedStrategy<Value>,
    key: &'static str,
    keys: BoxedStrategy<Value>,
    bad: bool,
) -> BoxedStrategy<Value> {
    let element = mix(
        bad,
        vec![
            (12, item),
            (
                2,
                keys.clone()
                    .prop_map(move |k| json!({key: k, "$patch": "delete"}))
                    .boxed(),
            ),
            (1, Just(json!({"$patch": "replace"})).boxed()),
        ],
        vec![
            (1, Just(json!({"$patch": "merge"})).boxed()),
            (
                1,
                keys.prop_map(move |k| json!({key: k, "$patch": "bogus"}))
                    .boxed(),
            ),
            (1, Just(json!({"image": "no key"})).boxed()),
            (1, Just(json!("x")).boxed()),
        ],
    );
    mix(
        bad,
        vec![(12, list(element, 4)), (1, Just(Value::Null).boxed())],
        vec![(1, Just(json!({"x": 1})).boxed())],
    )
}

fn key_order_of(key: &'static str, keys: BoxedStrategy<Value>, bad: bool) -> BoxedStrategy<Value> {
    mix(
        bad,
        vec![(8, list(keys.prop_map(move |k| json!({key: k})).boxed(), 4))],
        vec![
            (1, Just(json!([{"nope": 1}])).boxed()),
            (1, Just(json!("x")).boxed()),
        ],
    )
}

fn container_patch(bad: bool) -> BoxedStrategy<Value> {
    let b = |p: f64| if bad { p } else { 0.0 };
    let port = object(vec![
        (
            "containerPort",
            0.95,
            or_bad(
                bad,
                port_number(),
                vec![json!("80"), json!(-1), json!(70000), json!(80.0)],
            ),
        ),
        (
            "protocol",
            0.4,
            or_bad(bad, maybe_null(0.1, protocol()), vec![json!("BAD")]),
        ),
        (
            "name",
            0.2,
            maybe_null(0.3, one_of(vec![json!("http"), json!("web")])),
        ),
    ]);
    let env = object(vec![
        (
            "name",
            0.95,
            or_bad(
                bad,
                one_of(vec![json!("X"), json!("Y"), json!("Z")]),
                vec![json!(1)],
            ),
        ),
        (
            "value",
            0.6,
            maybe_null(0.3, one_of(vec![json!("1"), json!("3")])),
        ),
        ("other", 0.05, any_json(1)),
    ]);
    object(vec![
        (
            "name",
            0.95,
            or_bad(bad, container_name(), vec![Value::Null, json!(7)]),
        ),
        (
            "image",
            0.6,
            or_bad(bad, maybe_null(0.2, image()), vec![json!(1)]),
        ),
        (
            "ports",
            0.25,
            keyed_list_patch(port, "containerPort", port_number(), bad),
        ),
        (
            "$setElementOrder/ports",
            0.08,
            key_order_of("containerPort", port_number(), bad),
        ),
        (
            "env",
            0.25,
            keyed_list_patch(env, "name", one_of(vec![json!("X"), json!("Y")]), bad),
        ),
        (
            "$setElementOrder/env",
            0.08,
            key_order_of(
                "name",
                one_of(vec![json!("X"), json!("Y"), json!("Z")]),
                bad,
            ),
        ),
        (
            "args",
            0.1,
            maybe_null(0.2, list(one_of(vec![json!("-v"), json!("-x")]), 2)),
        ),
        (
            "$deleteFromPrimitiveList/args",
            0.04,
            list(one_of(vec![json!("-v")]), 1),
        ),
        (
            "resources",
            0.08,
            maybe_null(0.2, object(vec![("limits", 0.9, any_json(2))])),
        ),
        ("unknownField", 0.04, any_json(1)),
        ("$patch", b(0.02), patch_directive(bad)),
    ])
}

fn spec_patch(bad: bool) -> BoxedStrategy<Value> {
    let b = |p: f64| if bad { p } else { 0.0 };
    let volume_patch = with_retain_keys(
        object(vec![
            (
                "name",
                0.95,
                one_of(vec![json!("v1"), json!("v2"), json!("v3")]),
            ),
            (
                "hostPath",
                0.4,
                or_bad(
                    bad,
                    maybe_null(0.2, one_of(vec![json!({"path": "/c"})])),
                    vec![json!({})],
                ),
            ),
            (
                "emptyDir",
                0.4,
                maybe_null(
                    0.2,
                    one_of(vec![
                        json!({}),
                        json!({"medium": "x"}),
                        json!({"medium": null, "sizeLimit": "2Gi"}),
                    ]),
                ),
            ),
        ]),
        &["name", "hostPath", "emptyDir"],
        0.6,
        bad,
    );
    let strategy_patch = with_retain_keys(
        object(vec![
            (
                "type",
                0.8,
                maybe_null(0.2, one_of(vec![json!("Recreate"), json!("RollingUpdate")])),
            ),
            (
                "rolling-update",
                0.4,
                maybe_null(
                    0.2,
                    one_of(vec![
                        json!({"MAX_SURGE": 2}),
                        json!({"MAX_UNAVAILABLE": null}),
                    ]),
                ),
            ),
        ]),
        &["type", "rolling-update"],
        0.6,
        bad,
    );
    let patch = object(vec![
        (
            "containers",
            0.7,
            keyed_list_patch(container_patch(bad), "name", container_name(), bad),
        ),
        (
            "$setElementOrder/containers",
            0.2,
            key_order_of("name", container_name(), bad),
        ),
        (
            "volumes",
            0.15,
            keyed_list_patch(
                volume_patch,
                "name",
                one_of(vec![json!("v1"), json!("v2")]),
                bad,
            ),
        ),
        (
            "$setElementOrder/volumes",
            0.04,
            key_order_of("name", one_of(vec![json!("v1"), json!("v2")]), bad),
        ),
        ("strategy", 0.1, maybe_null(0.2, strategy_patch)),
        (
            "restartPolicy",
            0.08,
            or_bad(
                bad,
                one_of(vec![json!("Always"), json!("OnFailure"), Value::Null]),
                vec![json!("Sometimes")],
            ),
        ),
        (
            "terminationGracePeriodSeconds",
            0.08,
            or_bad(bad, one_of(vec![json!(10), Value::Null]), vec![json!("x")]),
        ),
        (
            "activeDeadlineSeconds",
            0.08,
            or_bad(bad, one_of(vec![json!(3), Value::Null]), vec![json!(-1)]),
        ),
        (
            "priority",
            0.04,
            one_of(vec![json!(1.5), json!(2), Value::Null]),
        ),
        ("hostNetwork", 0.04, one_of(vec![json!(true), Value::Null])),
        (
            "nodeSelector",
            0.08,
            or_bad(
                bad,
                maybe_null(0.2, string_map()),
                vec![json!({"a": 1}), json!([1])],
            ),
        ),
        (
            "tolerations",
            0.06,
            maybe_null(
                0.2,
                list(
                    one_of(vec![
                        json!({"key": "z"}),
                        json!({"key": "k", "tolerationSeconds": 1}),
                    ]),
                    2,
                ),
            ),
        ),
        ("overhead", 0.05, any_json(2)),
        (
            "protocols",
            0.08,
            keyed_list_patch(
                object(vec![
                    ("protocol", 0.95, protocol()),
                    (
                        "allowed",
                        0.5,
                        one_of(vec![json!(true), json!(false), Value::Null]),
                    ),
                ]),
                "protocol",
                protocol(),
                bad,
            ),
        ),
        ("nodeName", 0.08, one_of(vec![json!("n3"), Value::Null])),
        (
            "schedulingGates",
            0.08,
            maybe_null(0.2, list(one_of(vec![json!("g1"), json!("g3")]), 2)),
        ),
        (
            "$deleteFromPrimitiveList/schedulingGates",
            0.05,
            list(one_of(vec![json!("g1"), json!("g2")]), 2),
        ),
        (
            "$setElementOrder/schedulingGates",
            0.03,
            list(one_of(vec![json!("g2"), json!("g1")]), 2),
        ),
        ("$patch", b(0.02), patch_directive(bad)),
        ("unknownField", 0.03, any_json(1)),
    ]);
    with_retain_keys(
        patch,
        &["containers", "volumes", "strategy", "nodeName", "protocols"],
        0.03,
        bad,
    )
}

fn pod_patch(bad: bool) -> BoxedStrategy<Value> {
    let b = |p: f64| if bad { p } else { 0.0 };
    let metadata = object(vec![
        (
            "name",
            0.3,
            or_bad(
                bad,
                one_of(vec![json!("new"), Value::Null, json!("")]),
                vec![json!(1)],
            ),
        ),
        (
            "labels",
            0.3,
            maybe_null(
                0.1,
                object(vec![
                    ("a", 0.6, one_of(vec![json!("z"), Value::Null])),
                    ("c", 0.4, one_of(vec![json!("z")])),
                ]),
            ),
        ),
        (
            "annotations",
            0.2,
            maybe_null(
                0.1,
                object(vec![("b", 0.8, one_of(vec![json!("z"), Value::Null]))]),
            ),
        ),
        (
            "finalizers",
            0.3,
            maybe_null(0.1, list(one_of(vec![json!("f1"), json!("f3")]), 2)),
        ),
        (
            "$deleteFromPrimitiveList/finalizers",
            0.2,
            list(one_of(vec![json!("f1"), json!("f2")]), 2),
        ),
        (
            "$setElementOrder/finalizers",
            0.1,
            list(one_of(vec![json!("f2"), json!("f1"), json!("f3")]), 3),
        ),
        (
            "generation",
            0.2,
            or_bad(bad, one_of(vec![json!(9), Value::Null]), vec![json!("x")]),
        ),
        ("$patch", b(0.02), patch_directive(bad)),
    ]);
    let status = object(vec![
        (
            "phase",
            0.5,
            or_bad(
                bad,
                one_of(vec![json!("PENDING"), Value::Null]),
                vec![json!("Running")],
            ),
        ),
        ("pod_ips", 0.4, list(one_of(vec![json!("10.0.0.2")]), 2)),
        ("podIps", b(0.05), list(one_of(vec![json!("10.0.0.2")]), 1)),
        // Undeclared, but nothing to keep: the round trip accepts these.
        ("unknown", 0.05, Just(Value::Null).boxed()),
        (
            "$setElementOrder/unknown",
            0.03,
            list(one_of(vec![json!(1)]), 1),
        ),
        (
            "$deleteFromPrimitiveList/pod_ips",
            0.05,
            list(one_of(vec![json!("10.0.0.1")]), 1),
        ),
    ]);
    object(vec![
        ("metadata", 0.3, maybe_null(0.05, metadata)),
        (
            "spec",
            0.9,
            or_bad(bad, spec_patch(bad), vec![Value::Null, json!([])]),
        ),
        ("status", 0.1, maybe_null(0.1, status)),
        ("$patch", b(0.01), patch_directive(bad)),
        ("kind", 0.02, one_of(vec![json!("Pod")])),
    ])
}

/// Pod documents as the type holds them (serde defaults filled in), and patches: half with
/// well-formed pieces only, half mixing in malformed ones.
fn pod_case() -> impl Strategy<Value = (pod::Pod, Value)> {
    let patch = prop_oneof![pod_patch(false), pod_patch(true)];
    (pod_doc(), patch).prop_filter_map("document does not fit the Pod type", |(doc, patch)| {
        serde_json::from_value::<pod::Pod>(doc)
            .ok()
            .map(|pod| (pod, patch))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: POD_CASES, ..ProptestConfig::default() })]

    #[test]
    fn pod_typed_apply_equals_round_trip((pod, patch) in pod_case()) {
        agree(&pod, &patch)?;
    }
}

// ---------------------------------------------------------------------------------------------
// Key and item shapes neither type set has: items with a flattened struct, `Option` keys that
// serialize as `null`, integer keys on boxed recursive items, boolean keys with retainKeys,
// items that deny unknown fields, a container-level serde default, a set of small integers.

mod edge {
    use serde::{Deserialize, Serialize};
    use smp_core::StrategicMerge;

    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    #[serde(rename_all = "camelCase")]
    pub struct Root {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[patch(strategy = "merge", merge_key = "id")]
        pub by_flat: Vec<Flat>,
        #[serde(default)]
        #[patch(strategy = "merge", merge_key = "key")]
        pub by_option: Vec<OptionKeyed>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[patch(strategy = "merge", merge_key = "n")]
        #[allow(clippy::vec_box)] // boxed on purpose: list items planned through `Box`
        pub by_int: Option<Vec<Box<IntKeyed>>>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[patch(strategy = "merge|retainKeys", merge_key = "on")]
        pub by_bool: Vec<BoolKeyed>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[patch(strategy = "merge", merge_key = "name")]
        pub strict: Vec<Strict>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[patch(strategy = "merge")]
        pub set: Vec<u8>,
    }

    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    pub struct Flat {
        pub id: String,
        #[serde(flatten)]
        pub meta: FlatMeta,
    }

    /// (A merge key declared by a flattened struct is rejected by the derive, so the key is
    /// `Flat`'s own.)
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    pub struct FlatMeta {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub tag: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub v: Option<String>,
    }

    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    #[serde(default)]
    pub struct OptionKeyed {
        pub key: Option<String>,
        pub count: u32,
    }

    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    pub struct IntKeyed {
        pub n: i64,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[patch(strategy = "merge", merge_key = "n")]
        pub kids: Vec<IntKeyed>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub v: Option<String>,
    }

    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    pub struct BoolKeyed {
        pub on: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub a: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub b: Option<String>,
    }

    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    #[serde(deny_unknown_fields)]
    pub struct Strict {
        pub name: String,
        #[serde(default)]
        pub x: Option<i32>,
    }
}

fn small_str() -> BoxedStrategy<Value> {
    one_of(vec![json!("p"), json!("q"), json!("r")])
}

fn int_key() -> BoxedStrategy<Value> {
    one_of(vec![json!(1), json!(2), json!(-3)])
}

fn int_keyed(depth: u32) -> BoxedStrategy<Value> {
    let mut fields = vec![("n", 1.0, int_key()), ("v", 0.5, small_str())];
    if depth > 0 {
        fields.push(("kids", 0.4, list(int_keyed(depth - 1), 3)));
    }
    object(fields)
}

fn edge_doc() -> BoxedStrategy<Value> {
    object(vec![
        (
            "byFlat",
            0.5,
            list(
                object(vec![
                    ("id", 1.0, small_str()),
                    ("tag", 0.4, small_str()),
                    ("v", 0.4, small_str()),
                ]),
                3,
            ),
        ),
        (
            "byOption",
            0.5,
            list(
                object(vec![
                    ("key", 0.8, maybe_null(0.3, small_str())),
                    ("count", 0.5, (0i64..3).prop_map(Value::from).boxed()),
                ]),
                3,
            ),
        ),
        ("byInt", 0.5, list(int_keyed(1), 3)),
        (
            "byBool",
            0.4,
            list(
                object(vec![
                    ("on", 1.0, any::<bool>().prop_map(Value::from).boxed()),
                    ("a", 0.5, small_str()),
                    ("b", 0.5, small_str()),
                ]),
                2,
            ),
        ),
        (
            "strict",
            0.4,
            list(
                object(vec![
                    ("name", 1.0, small_str()),
                    ("x", 0.5, (0i64..3).prop_map(Value::from).boxed()),
                ]),
                3,
            ),
        ),
        ("set", 0.4, list((0i64..4).prop_map(Value::from).boxed(), 3)),
    ])
}

fn int_keyed_patch(depth: u32, bad: bool) -> BoxedStrategy<Value> {
    let mut fields = vec![
        (
            "n",
            0.95,
            or_bad(bad, int_key(), vec![json!("1"), json!(1.0)]),
        ),
        ("v", 0.5, maybe_null(0.2, small_str())),
    ];
    if depth > 0 {
        fields.extend([
            (
                "kids",
                0.4,
                keyed_list_patch(int_keyed_patch(depth - 1, bad), "n", int_key(), bad),
            ),
            (
                "$setElementOrder/kids",
                0.1,
                key_order_of("n", int_key(), bad),
            ),
        ]);
    }
    object(fields)
}

fn edge_patch(bad: bool) -> BoxedStrategy<Value> {
    let flat = object(vec![
        (
            "id",
            0.95,
            or_bad(bad, small_str(), vec![Value::Null, json!(1)]),
        ),
        ("tag", 0.4, maybe_null(0.3, small_str())),
        ("v", 0.4, maybe_null(0.3, small_str())),
        ("other", 0.05, any_json(1)),
    ]);
    let option_keyed = object(vec![
        ("key", 0.95, maybe_null(0.3, small_str())),
        (
            "count",
            0.5,
            or_bad(
                bad,
                maybe_null(0.2, one_of(vec![json!(5)])),
                vec![json!(-1)],
            ),
        ),
    ]);
    let bool_keyed = with_retain_keys(
        object(vec![
            ("on", 0.95, any::<bool>().prop_map(Value::from).boxed()),
            ("a", 0.5, maybe_null(0.2, small_str())),
            ("b", 0.3, maybe_null(0.2, small_str())),
        ]),
        &["on", "a", "b"],
        0.5,
        bad,
    );
    let strict = object(vec![
        ("name", 0.95, small_str()),
        ("x", 0.5, maybe_null(0.3, one_of(vec![json!(7)]))),
        ("y", if bad { 0.1 } else { 0.0 }, one_of(vec![json!(1)])),
        ("z", 0.05, Just(Value::Null).boxed()),
    ]);
    object(vec![
        (
            "byFlat",
            0.4,
            keyed_list_patch(flat, "id", small_str(), bad),
        ),
        (
            "$setElementOrder/byFlat",
            0.1,
            key_order_of("id", small_str(), bad),
        ),
        (
            "byOption",
            0.4,
            keyed_list_patch(option_keyed, "key", maybe_null(0.3, small_str()), bad),
        ),
        (
            "byInt",
            0.4,
            keyed_list_patch(int_keyed_patch(1, bad), "n", int_key(), bad),
        ),
        (
            "$setElementOrder/byInt",
            0.1,
            key_order_of("n", int_key(), bad),
        ),
        (
            "byBool",
            0.3,
            keyed_list_patch(
                bool_keyed,
                "on",
                any::<bool>().prop_map(Value::from).boxed(),
                bad,
            ),
        ),
        (
            "strict",
            0.3,
            keyed_list_patch(strict, "name", small_str(), bad),
        ),
        (
            "set",
            0.3,
            or_bad(
                bad,
                maybe_null(0.1, list((0i64..6).prop_map(Value::from).boxed(), 3)),
                vec![json!([300]), json!([-1])],
            ),
        ),
        (
            "$deleteFromPrimitiveList/set",
            0.1,
            list((0i64..4).prop_map(Value::from).boxed(), 2),
        ),
        (
            "$setElementOrder/set",
            0.1,
            list((0i64..4).prop_map(Value::from).boxed(), 3),
        ),
    ])
}

fn edge_case() -> impl Strategy<Value = (edge::Root, Value)> {
    let patch = prop_oneof![edge_patch(false), edge_patch(true)];
    (edge_doc(), patch).prop_map(|(doc, patch)| {
        let root = serde_json::from_value(doc.clone())
            .unwrap_or_else(|e| panic!("generated document {doc} does not fit: {e}"));
        (root, patch)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: EDGE_CASES, ..ProptestConfig::default() })]

    #[test]
    fn edge_typed_apply_equals_round_trip((root, patch) in edge_case()) {
        agree(&root, &patch)?;
    }
}

/// The Pod module's own end-to-end check (it must be used here: the module denies warnings).
#[test]
fn pod_main_runs() {
    pod::main();
}

// ---------------------------------------------------------------------------------------------
// Regressions found by the properties above (minimal, shrunk by hand; the generated cases are
// in typed_differential.proptest-regressions). Fixed by "typed list fast path: vet every patch
// item before planning any".

fn pod_with_container(name: &str) -> pod::Pod {
    serde_json::from_value(json!({"spec": {"containers": [{"name": name}]}})).unwrap()
}

fn assert_agrees(x: &pod::Pod, patch: Value) {
    if let Err(e) = agree(x, &patch) {
        panic!("patch {patch}: {e}");
    }
}

/// Was a bug (smp-core/src/typed/list.rs, `native`): the native list path planned each patch
/// item as it went and returned the first item's error (`edit?`) before it had seen that a
/// later item (`{"$patch": "replace"}`) sends the whole list to the engine. The engine's replace list
/// takes the items with their directives removed, so the round trip succeeds with
/// `containers: [{"name": "side"}]`; the typed apply failed with "invalid patch format of
/// $retainKeys".
#[test]
fn regression_native_list_item_error_before_replace_directive() {
    assert_agrees(
        &pod_with_container("side"),
        json!({"spec": {"containers": [
            {"name": "side", "$retainKeys": "x"},
            {"$patch": "replace"}
        ]}}),
    );
    assert_agrees(
        &pod_with_container("side"),
        json!({"spec": {"containers": [
            {"name": "side", "env": [{"name": "X", "$patch": "bogus"}]},
            {"$patch": "replace"}
        ]}}),
    );
}

/// The same bug with a deletion: the engine deletes `side` first, so the merge item becomes an
/// addition taken as written (its `$setElementOrder/ports` is dropped, not checked) and the
/// round trip gives `containers: [{"name": "side", "ports": [80/TCP, 80/TCP]}]`; the typed
/// apply checked the order list against the duplicate ports and failed with "the order in
/// patch list doesn't match $setElementOrder list".
#[test]
fn regression_native_list_item_error_before_delete_directive() {
    assert_agrees(
        &pod_with_container("side"),
        json!({"spec": {"containers": [
            {
                "name": "side",
                "$setElementOrder/ports": [{"containerPort": 80}],
                "ports": [{"containerPort": 80}, {"containerPort": 80}]
            },
            {"name": "side", "$patch": "delete"}
        ]}}),
    );
}
