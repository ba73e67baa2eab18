//! Typed two-way diff against the Value engine.
//!
//! For random pairs of objects, `a.diff(&b)` must be exactly what
//! `smp_core::diff(&to_value(a), &to_value(b), T::schema())` gives (or fail when it fails);
//! `a.diff(&a)` is what the engine gives for equal documents; and applying `a.diff(&b)` to `a`
//! (typed) gives `b`, for documents without nulls. Type sets as in `typed_differential.rs`:
//! the mergeItem twin and the Pod-like types of `tests/ui/pass/pod.rs`. The document
//! generators are those of `typed_differential.rs`; a pair is two documents crossed over
//! member by member, so that it shares parts and differs in others.

mod support;

#[path = "../ui/pass/pod.rs"]
mod pod;

use std::fmt::Debug;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use smp_core::StrategicMerge;
use support::merge_item::MergeItem;

/// Cases per property (each case checks a pair both ways and each side against itself).
const TWIN_CASES: u32 = 3_000;
const POD_CASES: u32 = 3_000;

/// The properties for one pair.
fn agree<T: StrategicMerge + Clone + Debug>(a: &T, b: &T) -> Result<(), TestCaseError> {
    let (va, vb) = (
        serde_json::to_value(a).unwrap(),
        serde_json::to_value(b).unwrap(),
    );
    let want = smp_core::diff(&va, &vb, T::schema());
    let got = a.diff(b).map(|p| p.as_value().clone());
    match (&got, &want) {
        (Ok(g), Ok(w)) => prop_assert_eq!(g, w, "typed diff differs from the engine's"),
        (Err(_), Err(_)) => {}
        _ => prop_assert!(false, "typed {got:?}, engine {want:?}"),
    }
    let same = a.diff(a).map(|p| p.as_value().clone());
    let want_same = smp_core::diff(&va, &va, T::schema());
    // Errors may name a different member (the engine visits members in key order).
    prop_assert_eq!(same.ok(), want_same.ok());
    // Applying the diff gives `b` (when `b` has no nulls, which a patch cannot set).
    if let Ok(patch) = a.diff(b) {
        if !has_null(&vb) && !has_duplicates(&va) && !has_duplicates(&vb) {
            let mut x = a.clone();
            if x.apply(&patch).is_ok() {
                prop_assert!(
                    support::json_eq(&serde_json::to_value(&x).unwrap(), &vb),
                    "applying the diff {} does not give the modified object",
                    patch.as_value()
                );
            }
        }
    }
    Ok(())
}

fn has_null(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Array(a) => a.iter().any(has_null),
        Value::Object(m) => m.values().any(has_null),
        _ => false,
    }
}

/// Whether a list holds equal items, or objects with the same merge key (any of the type
/// sets' keys), which a merge patch cannot reproduce.
fn has_duplicates(v: &Value) -> bool {
    const KEYS: &[&str] = &["name", "containerPort", "protocol", "key"];
    match v {
        Value::Array(items) => {
            items.iter().enumerate().any(|(i, x)| {
                items[..i].iter().any(|y| {
                    x == y
                        || KEYS
                            .iter()
                            .any(|k| x.get(k).is_some() && x.get(k) == y.get(k))
                })
            }) || items.iter().any(has_duplicates)
        }
        Value::Object(m) => m.values().any(has_duplicates),
        _ => false,
    }
}

/// A pseudo-random choice in 0..3 from `seed` (xorshift).
fn pick(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed % 3
}

/// Crosses two documents over: each object member and list item is taken from `a` or `b` (or
/// crossed again when both are objects or lists) by the bits of `seed`.
fn cross(a: &Value, b: &Value, seed: &mut u64) -> Value {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut out = Map::new();
            for key in x.keys().chain(y.keys()) {
                if out.contains_key(key) {
                    continue;
                }
                let v = match (x.get(key), y.get(key), pick(seed)) {
                    (Some(p), Some(q), 0) => Some(cross(p, q, seed)),
                    (Some(p), _, 1) | (Some(p), None, _) => Some(p.clone()),
                    (_, q, _) => q.cloned(),
                };
                if let Some(v) = v {
                    out.insert(key.clone(), v);
                }
            }
            Value::Object(out)
        }
        (Value::Array(x), Value::Array(y)) => {
            let len = if pick(seed) == 0 { x.len() } else { y.len() };
            let mut out = Vec::with_capacity(len);
            for i in 0..len {
                out.push(match (x.get(i), y.get(i), pick(seed)) {
                    (Some(p), Some(q), 0) => cross(p, q, seed),
                    (Some(p), _, 1) | (Some(p), None, _) => p.clone(),
                    (_, Some(q), _) => q.clone(),
                    (None, None, _) => Value::Null,
                });
            }
            Value::Array(out)
        }
        _ if pick(seed) == 0 => a.clone(),
        _ => b.clone(),
    }
}

/// Pairs of typed values: `a`, and `b` mostly crossed with `a` (sometimes equal, sometimes
/// unrelated).
fn pairs<T: DeserializeOwned + Clone + Debug>(
    doc: BoxedStrategy<Value>,
) -> impl Strategy<Value = (T, T)> {
    (doc.clone(), doc, any::<u64>(), 0u8..8).prop_filter_map(
        "document does not fit the type",
        |(a, b, seed, mode)| {
            let b = match mode {
                0 => a.clone(),
                1 => b,
                _ => cross(&a, &b, &mut (seed | 1)),
            };
            let a: T = serde_json::from_value(a).ok()?;
            let b: T = serde_json::from_value(b).ok()?;
            Some((a, b))
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: TWIN_CASES, ..ProptestConfig::default() })]

    #[test]
    fn twin_typed_diff_equals_engine((a, b) in pairs::<MergeItem>(item(2))) {
        agree(&a, &b)?;
        agree(&b, &a)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: POD_CASES, ..ProptestConfig::default() })]

    #[test]
    fn pod_typed_diff_equals_engine((a, b) in pairs::<pod::Pod>(pod_doc())) {
        agree(&a, &b)?;
        agree(&b, &a)?;
    }
}

#[test]
fn pod_main_runs() {
    pod::main();
}

#[test]
fn pod_examples() {
    let a: pod::Pod = serde_json::from_value(json!({
        "metadata": {"name": "web", "finalizers": ["a", "b"]},
        "spec": {
            "containers": [{"name": "app", "image": "app:1"}, {"name": "side", "image": "s:1"}],
            "tolerations": [{"key": "k"}],
            "strategy": {"type": "Recreate"}
        }
    }))
    .unwrap();
    let mut b = a.clone();
    b.spec.as_mut().unwrap().containers[0].image = Some("app:2".into());
    b.metadata.finalizers.pop();
    let patch = a.diff(&b).unwrap();
    let want = smp_core::diff(
        &serde_json::to_value(&a).unwrap(),
        &serde_json::to_value(&b).unwrap(),
        pod::Pod::schema(),
    )
    .unwrap();
    assert_eq!(patch.as_value(), &want);
    assert_eq!(
        want["spec"]["containers"],
        json!([{"name": "app", "image": "app:2"}])
    );
    // Equal objects: nothing (replace-strategy lists are compared).
    assert_eq!(a.diff(&a).unwrap().as_value(), &json!({}));
}

// ---------------------------------------------------------------------------------------------
// Document generators, as in `typed_differential.rs`.

/// An object of optional members: each `(key, probability, value)` is present with that
/// probability.
fn object(fields: Vec<(&'static str, f64, BoxedStrategy<Value>)>) -> BoxedStrategy<Value> {
    let parts: Vec<BoxedStrategy<Option<(String, Value)>>> = fields
        .into_iter()
        .filter(|(_, p, _)| *p > 0.0)
        .map(|(key, p, value)| {
            let member = value.prop_map(move |v| (key.to_owned(), v));
            if p >= 1.0 {
                member.prop_map(Some).boxed()
            } else {
                prop::option::weighted(p, member).boxed()
            }
        })
        .collect();
    parts
        .prop_map(|parts| Value::Object(parts.into_iter().flatten().collect()))
        .boxed()
}

fn list(item: BoxedStrategy<Value>, max: usize) -> BoxedStrategy<Value> {
    prop::collection::vec(item, 0..=max)
        .prop_map(Value::Array)
        .boxed()
}

fn one_of(values: Vec<Value>) -> BoxedStrategy<Value> {
    prop::sample::select(values).boxed()
}

/// Any JSON, nulls included, depth-bounded.
fn any_json(depth: u32) -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..4).prop_map(Value::from),
        "[ab]{0,2}".prop_map(Value::from),
    ];
    leaf.prop_recursive(depth, 12, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::btree_map("[a-c]", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .boxed()
}

/// Any JSON but `null` (for `Option` fields, which read `null` as absent).
fn some_json(depth: u32) -> BoxedStrategy<Value> {
    any_json(depth)
        .prop_filter("not null", |v| !v.is_null())
        .boxed()
}

/// Merge keys from a small set, so that merges collide; integers as the corpus has them.
fn name() -> BoxedStrategy<Value> {
    one_of(vec![json!("a"), json!("b"), json!("c"), json!(1), json!(2)])
}

fn scalar() -> BoxedStrategy<Value> {
    prop_oneof![
        4 => name(),
        2 => "[xy]{0,2}".prop_map(Value::from),
        1 => any::<bool>().prop_map(Value::from),
        1 => (-2i64..3).prop_map(Value::from),
        1 => Just(json!(1.5)),
    ]
    .boxed()
}

fn ints() -> BoxedStrategy<Value> {
    list((0i64..5).prop_map(Value::from).boxed(), 4)
}

fn simple_map() -> BoxedStrategy<Value> {
    prop::collection::btree_map("k[1-3]", scalar(), 0..3)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
        .boxed()
}

fn raw_extension() -> BoxedStrategy<Value> {
    prop::collection::btree_map(
        prop::sample::select(vec!["Raw", "Some", "b"]),
        any_json(1),
        0..3,
    )
    .prop_map(|m| {
        Value::Object(
            m.into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect::<Map<_, _>>(),
        )
    })
    .boxed()
}

/// A `mergeItem` document.
fn item(depth: u32) -> BoxedStrategy<Value> {
    let mut fields = vec![
        ("name", 0.85, name()),
        ("value", 0.4, scalar()),
        ("other", 0.15, scalar()),
        (
            "mergingIntList",
            0.35,
            prop_oneof![4 => ints(), 1 => Just(Value::Null)].boxed(),
        ),
        ("nonMergingIntList", 0.15, ints()),
        ("simpleMap", 0.25, simple_map()),
        ("replacingItem", 0.15, raw_extension()),
        ("jsonItem", 0.15, some_json(2)),
        ("extra", 0.15, any_json(2)),
        ("thing", 0.05, Just(Value::Null).boxed()),
    ];
    if depth > 0 {
        let child = || item(depth - 1);
        fields.extend([
            ("mergingList", 0.5, list(child(), 4)),
            ("nonMergingList", 0.15, list(child(), 2)),
            (
                "mergeItemPtr",
                0.2,
                prop_oneof![3 => list(child(), 3), 1 => child()].boxed(),
            ),
            ("retainKeysMap", 0.25, retain_keys_item(depth - 1)),
            ("retainKeysMergingList", 0.3, list(child(), 3)),
        ]);
    }
    object(fields)
}

/// A `retainKeysMergeItem` document.
fn retain_keys_item(depth: u32) -> BoxedStrategy<Value> {
    object(vec![
        ("name", 0.6, name()),
        ("value", 0.4, scalar()),
        ("other", 0.3, scalar()),
        ("simpleMap", 0.3, simple_map()),
        (
            "mergingIntList",
            0.4,
            prop_oneof![4 => ints(), 1 => Just(Value::Null)].boxed(),
        ),
        ("mergingList", 0.4, list(item(depth), 3)),
        ("nonMergingList", 0.2, list(item(depth), 2)),
        ("extra", 0.1, any_json(1)),
    ])
}

// ---------------------------------------------------------------------------------------------
// The mergeItem twin: patches

fn container_name() -> BoxedStrategy<Value> {
    one_of(vec![json!("app"), json!("side"), json!("init")])
}

fn port_number() -> BoxedStrategy<Value> {
    one_of(vec![json!(80), json!(443), json!(8080)])
}

fn protocol() -> BoxedStrategy<Value> {
    one_of(vec![json!("TCP"), json!("UDP"), json!("SCTP")])
}

fn image() -> BoxedStrategy<Value> {
    one_of(vec![json!("app:1"), json!("app:2"), json!("side:1")])
}

fn port() -> BoxedStrategy<Value> {
    object(vec![
        ("containerPort", 1.0, port_number()),
        ("protocol", 0.5, protocol()),
        ("name", 0.3, one_of(vec![json!("http"), json!("https")])),
    ])
}

fn env_var() -> BoxedStrategy<Value> {
    object(vec![
        (
            "name",
            1.0,
            one_of(vec![json!("X"), json!("Y"), json!("Z")]),
        ),
        ("value", 0.6, one_of(vec![json!("1"), json!("2")])),
    ])
}

fn container() -> BoxedStrategy<Value> {
    object(vec![
        ("name", 1.0, container_name()),
        ("image", 0.8, image()),
        ("ports", 0.4, list(port(), 3)),
        ("env", 0.4, list(env_var(), 3)),
        ("args", 0.2, list(one_of(vec![json!("-v"), json!("-q")]), 2)),
        (
            "resources",
            0.15,
            object(vec![(
                "limits",
                0.8,
                prop::collection::btree_map("cpu|memory", any_json(1), 0..3)
                    .prop_map(|m| Value::Object(m.into_iter().collect()))
                    .boxed(),
            )]),
        ),
    ])
}

fn volume() -> BoxedStrategy<Value> {
    object(vec![
        ("name", 1.0, one_of(vec![json!("v1"), json!("v2")])),
        (
            "hostPath",
            0.4,
            one_of(vec![json!({"path": "/a"}), json!({"path": "/b"})]),
        ),
        (
            "emptyDir",
            0.4,
            one_of(vec![
                json!({}),
                json!({"medium": "Memory", "sizeLimit": "1Gi"}),
            ]),
        ),
    ])
}

fn string_map() -> BoxedStrategy<Value> {
    prop::collection::btree_map("[ab]", one_of(vec![json!("x"), json!("y")]), 1..3)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
        .boxed()
}

fn pod_doc() -> BoxedStrategy<Value> {
    let spec = object(vec![
        ("containers", 1.0, list(container(), 4)),
        ("volumes", 0.3, list(volume(), 3)),
        (
            "strategy",
            0.2,
            one_of(vec![
                json!({"type": "Recreate"}),
                json!({"type": "RollingUpdate", "rolling-update": {"MAX_SURGE": 1}}),
            ]),
        ),
        (
            "restartPolicy",
            0.2,
            one_of(vec![json!("Always"), json!("Never")]),
        ),
        (
            "terminationGracePeriodSeconds",
            0.3,
            (0i64..60).prop_map(Value::from).boxed(),
        ),
        (
            "activeDeadlineSeconds",
            0.2,
            (0i64..10).prop_map(Value::from).boxed(),
        ),
        ("priority", 0.1, Just(json!(0.5)).boxed()),
        ("nodeSelector", 0.2, string_map()),
        (
            "tolerations",
            0.2,
            list(
                one_of(vec![
                    json!({"key": "k"}),
                    json!({"key": "t", "tolerationSeconds": 5}),
                ]),
                2,
            ),
        ),
        ("overhead", 0.1, some_json(2)),
        (
            "protocols",
            0.2,
            list(
                object(vec![
                    ("protocol", 1.0, protocol()),
                    ("allowed", 0.5, any::<bool>().prop_map(Value::from).boxed()),
                ]),
                3,
            ),
        ),
        ("nodeName", 0.2, one_of(vec![json!("n1"), json!("n2")])),
        (
            "schedulingGates",
            0.2,
            list(one_of(vec![json!("g1"), json!("g2")]), 2),
        ),
    ]);
    object(vec![
        (
            "metadata",
            0.9,
            object(vec![
                ("name", 0.8, one_of(vec![json!("web"), json!("db")])),
                ("labels", 0.4, string_map()),
                ("annotations", 0.2, string_map()),
                (
                    "finalizers",
                    0.3,
                    list(one_of(vec![json!("f1"), json!("f2")]), 3),
                ),
                ("generation", 0.3, (0i64..5).prop_map(Value::from).boxed()),
            ]),
        ),
        ("spec", 0.9, spec),
        (
            "status",
            0.3,
            object(vec![
                (
                    "phase",
                    0.6,
                    one_of(vec![json!("PENDING"), json!("CRASH-LOOP-BACK-OFF")]),
                ),
                ("pod_ips", 0.4, list(one_of(vec![json!("10.0.0.1")]), 2)),
            ]),
        ),
    ])
}
