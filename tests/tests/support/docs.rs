//! Generators of JSON documents that deserialize into the `mergeItem` twin and the Pod types of
//! `derive-ui/ui/pass/pod.rs`, shared by the typed differential tests (apply and diff).

use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// An object of optional members: each `(key, probability, value)` is present with that
/// probability.
pub fn object(fields: Vec<(&'static str, f64, BoxedStrategy<Value>)>) -> BoxedStrategy<Value> {
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

pub fn list(item: BoxedStrategy<Value>, max: usize) -> BoxedStrategy<Value> {
    prop::collection::vec(item, 0..=max)
        .prop_map(Value::Array)
        .boxed()
}

pub fn one_of(values: Vec<Value>) -> BoxedStrategy<Value> {
    prop::sample::select(values).boxed()
}

/// Any JSON, nulls included, depth-bounded.
pub fn any_json(depth: u32) -> BoxedStrategy<Value> {
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
pub fn some_json(depth: u32) -> BoxedStrategy<Value> {
    any_json(depth)
        .prop_filter("not null", |v| !v.is_null())
        .boxed()
}

/// Merge keys from a small set, so that merges collide; integers as the corpus has them.
pub fn name() -> BoxedStrategy<Value> {
    one_of(vec![json!("a"), json!("b"), json!("c"), json!(1), json!(2)])
}

pub fn scalar() -> BoxedStrategy<Value> {
    prop_oneof![
        4 => name(),
        2 => "[xy]{0,2}".prop_map(Value::from),
        1 => any::<bool>().prop_map(Value::from),
        1 => (-2i64..3).prop_map(Value::from),
        1 => Just(json!(1.5)),
    ]
    .boxed()
}

pub fn ints() -> BoxedStrategy<Value> {
    list((0i64..5).prop_map(Value::from).boxed(), 4)
}

pub fn simple_map() -> BoxedStrategy<Value> {
    prop::collection::btree_map("k[1-3]", scalar(), 0..3)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
        .boxed()
}

pub fn raw_extension() -> BoxedStrategy<Value> {
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
pub fn item(depth: u32) -> BoxedStrategy<Value> {
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
pub fn retain_keys_item(depth: u32) -> BoxedStrategy<Value> {
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

pub fn container_name() -> BoxedStrategy<Value> {
    one_of(vec![json!("app"), json!("side"), json!("init")])
}

pub fn port_number() -> BoxedStrategy<Value> {
    one_of(vec![json!(80), json!(443), json!(8080)])
}

pub fn protocol() -> BoxedStrategy<Value> {
    one_of(vec![json!("TCP"), json!("UDP"), json!("SCTP")])
}

pub fn image() -> BoxedStrategy<Value> {
    one_of(vec![json!("app:1"), json!("app:2"), json!("side:1")])
}

pub fn port() -> BoxedStrategy<Value> {
    object(vec![
        ("containerPort", 1.0, port_number()),
        ("protocol", 0.5, protocol()),
        ("name", 0.3, one_of(vec![json!("http"), json!("https")])),
    ])
}

pub fn env_var() -> BoxedStrategy<Value> {
    object(vec![
        (
            "name",
            1.0,
            one_of(vec![json!("X"), json!("Y"), json!("Z")]),
        ),
        ("value", 0.6, one_of(vec![json!("1"), json!("2")])),
    ])
}

pub fn container() -> BoxedStrategy<Value> {
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

pub fn volume() -> BoxedStrategy<Value> {
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

pub fn string_map() -> BoxedStrategy<Value> {
    prop::collection::btree_map("[ab]", one_of(vec![json!("x"), json!("y")]), 1..3)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
        .boxed()
}

pub fn pod_doc() -> BoxedStrategy<Value> {
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
