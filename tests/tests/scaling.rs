//! Scaling: every operation on large lists, maps and patches grows linearly (or as n·log n),
//! never quadratically, and hostile keys (strings chosen to collide in a fixed hash) cost what
//! random ones cost.
//!
//! Ignored by default (it times work, which a test must not do in the default run). Run it
//! optimized, and read the table it prints:
//!
//! ```text
//! cargo test --release -p smp-tests --test scaling -- --ignored --nocapture
//! ```
//!
//! Each scenario runs three times at each of 10^3, 10^4 and 10^5 items, the fastest run counting
//! (`SMP_SCALING_MAX` lowers the top size;
//! `SMP_SCALING_ONLY=TEXT` runs only the scenarios whose name contains TEXT, e.g. to profile one).
//! It fails when going from 10^4 to 10^5 costs more than 25 times as much (linear is 10, n·log n
//! about 12.5, quadratic 100), or, in an optimized build, when 10^5 takes a second or more.

use std::time::{Duration, Instant};

// The allocator of the `smp` binary and the benchmarks: the figures are then the ones users of
// the command see, and the system allocator's per-thread arenas do not blur them.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use smp_core::{Patch, Schema, StrategicMerge};

/// The schema of the scenarios: a document with a list of items merged by `name` (with a
/// union), a set of finalizers, a list with recommended keys, and labels.
fn schema() -> Schema {
    let doc = json!({"definitions": {
        "Doc": {"properties": {
            "items": {"type": "array", "items": {"$ref": "#/definitions/Item"},
                      "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name"},
            "ports": {"type": "array", "items": {"$ref": "#/definitions/Port"},
                      "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "port",
                      "x-kubernetes-recommended-patch-merge-key": "port,protocol"},
            "finalizers": {"type": "array", "items": {"type": "string"},
                           "x-kubernetes-patch-strategy": "merge"},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "spec": {"$ref": "#/definitions/Spec"}
        }},
        "Item": {"properties": {
            "name": {"type": "string"}, "value": {"type": "integer"},
            "a": {"type": "string"}, "b": {"type": "string"}
        }, "x-kubernetes-unions": [{"fields-to-discriminateBy": {"a": "A", "b": "B"}}]},
        "Port": {"properties": {
            "port": {"type": "integer"}, "protocol": {"type": "string"}, "name": {"type": "string"}
        }},
        "Spec": {"type": "object", "additionalProperties": true}
    }});
    Schema::from_openapi(&doc, "Doc").expect("schema")
}

fn items(n: usize, from: usize) -> Vec<Value> {
    (from..from + n)
        .map(|i| json!({"name": format!("item-{i}"), "value": i, "a": "x"}))
        .collect()
}

fn names(n: usize, from: usize) -> Vec<Value> {
    (from..from + n).map(|i| json!(format!("f-{i}"))).collect()
}

fn ports(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| json!({"port": i, "protocol": "TCP", "name": format!("p{i}")}))
        .collect()
}

/// Strings of 16 printable ASCII characters that all had the same hash under the unkeyed
/// multiply-rotate word hash the key index used before (a 1-byte tag, then 8-byte words):
/// the first word is free, the second is chosen so that the hash state after it is a
/// constant. About one candidate in 2,800 is printable. A keyed hash must make them cost what
/// random strings cost.
fn colliding(n: usize) -> Vec<Value> {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let step = |state: u64, word: u64| (state.rotate_left(5) ^ word).wrapping_mul(K);
    let printable = |b: u8| (0x20..0x7f).contains(&b);
    // After the string tag (4).
    let s0 = step(0, 4);
    let mut out = Vec::with_capacity(n);
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    while out.len() < n {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let first: [u8; 8] = std::array::from_fn(|i| 0x21 + ((seed >> (i * 7)) % 90) as u8);
        let s1 = step(s0, u64::from_le_bytes(first));
        // Make the state after the second word a constant.
        let second = (s1.rotate_left(5) ^ 0x6f6f_6f6f_6f6f_6f6f).to_le_bytes();
        if second.iter().copied().all(printable) {
            let mut bytes = first.to_vec();
            bytes.extend_from_slice(&second);
            out.push(json!(String::from_utf8(bytes).expect("ASCII")));
        }
    }
    out
}

/// How many times each scenario runs at each size; the fastest run counts.
const RUNS: usize = 3;

fn timed(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

/// One scenario: builds its inputs for size `n` (not timed) and returns the timed work.
type Scenario = (
    &'static str,
    fn(usize, &'static Schema) -> Box<dyn FnOnce()>,
);

fn apply(original: Value, patch: Value, schema: &'static Schema) -> Box<dyn FnOnce()> {
    Box::new(move || {
        smp_core::apply_owned(original, &patch, schema).expect("applies");
    })
}

fn scenarios() -> Vec<Scenario> {
    vec![
        ("apply: add n keyed items to an empty list", |n, s| {
            apply(json!({"items": []}), json!({"items": items(n, 0)}), s)
        }),
        ("apply: add n keyed items to n", |n, s| {
            apply(
                json!({"items": items(n, 0)}),
                json!({"items": items(n, n)}),
                s,
            )
        }),
        ("apply: n items, half of the keys twice", |n, s| {
            let patch: Vec<Value> = (0..n)
                .map(|i| json!({"name": format!("item-{}", i / 2), "value": i}))
                .collect();
            apply(json!({"items": []}), json!({"items": patch}), s)
        }),
        ("apply: delete n of n keyed items", |n, s| {
            let patch: Vec<Value> = (0..n)
                .map(|i| json!({"name": format!("item-{i}"), "$patch": "delete"}))
                .collect();
            apply(json!({"items": items(n, 0)}), json!({"items": patch}), s)
        }),
        ("apply: $setElementOrder while deleting half", |n, s| {
            let order: Vec<Value> = (0..n)
                .step_by(2)
                .rev()
                .map(|i| json!({"name": format!("item-{i}")}))
                .collect();
            let patch: Vec<Value> = (1..n)
                .step_by(2)
                .map(|i| json!({"name": format!("item-{i}"), "$patch": "delete"}))
                .collect();
            apply(
                json!({"items": items(n, 0)}),
                json!({"items": patch, "$setElementOrder/items": order}),
                s,
            )
        }),
        ("apply: $deleteFromPrimitiveList of n values", |n, s| {
            apply(
                json!({"finalizers": names(n, 0)}),
                json!({"$deleteFromPrimitiveList/finalizers": names(n, n / 2)}),
                s,
            )
        }),
        ("apply: add n values to a set of n", |n, s| {
            apply(
                json!({"finalizers": names(n, 0)}),
                json!({"finalizers": names(n, n / 2)}),
                s,
            )
        }),
        ("apply: $retainKeys listing n keys", |n, s| {
            let spec: Map<String, Value> = (0..n).map(|i| (format!("k{i}"), json!(i))).collect();
            let keep: Vec<Value> = (0..n).step_by(2).map(|i| json!(format!("k{i}"))).collect();
            apply(
                json!({"spec": spec}),
                json!({"spec": {"$retainKeys": keep}}),
                s,
            )
        }),
        ("apply: n fields, each with its $setElementOrder", |n, s| {
            let original: Map<String, Value> =
                (0..n).map(|i| (format!("f{i}"), json!([1, 2]))).collect();
            let mut patch = Map::new();
            for i in 0..n {
                patch.insert(format!("f{i}"), json!([3, 2, 1]));
                patch.insert(format!("$setElementOrder/f{i}"), json!([3, 2, 1]));
            }
            apply(json!({"spec": original}), json!({"spec": patch}), s)
        }),
        ("apply: $patchMergeKey touching all n items", |n, s| {
            let patch: Vec<Value> = (0..n)
                .map(|i| json!({"port": i, "protocol": "TCP", "name": "x", "$patchMergeKey": ["port", "protocol"]}))
                .collect();
            apply(json!({"ports": ports(n)}), json!({"ports": patch}), s)
        }),
        ("apply: $patchMergeKey adding n items", |n, s| {
            let patch: Vec<Value> = (0..n)
                .map(|i| json!({"port": i, "protocol": "UDP", "$patchMergeKey": ["port", "protocol"]}))
                .collect();
            apply(json!({"ports": ports(n)}), json!({"ports": patch}), s)
        }),
        ("apply: $patchMergeKey deleting n items", |n, s| {
            let patch: Vec<Value> = (0..n)
                .map(|i| json!({"port": i, "protocol": "TCP", "$patch": "delete", "$patchMergeKey": ["port", "protocol"]}))
                .collect();
            apply(json!({"ports": ports(n)}), json!({"ports": patch}), s)
        }),
        (
            "apply: one $patchMergeKey item listing n keys (an error)",
            |n, s| {
                let mut item = Map::new();
                let keys: Vec<Value> = (0..n).map(|i| json!(format!("k{i}"))).collect();
                item.insert("port".into(), json!(1));
                item.insert(
                    "$patchMergeKey".into(),
                    json!(
                        ["port"]
                            .iter()
                            .map(|k| json!(k))
                            .chain(keys)
                            .collect::<Vec<_>>()
                    ),
                );
                Box::new(move || {
                    let result =
                        smp_core::apply(&json!({"ports": ports(3)}), &json!({"ports": [item]}), s);
                    assert!(result.is_err(), "at most 8 keys");
                })
            },
        ),
        ("apply: n colliding finalizers", |n, s| {
            apply(
                json!({"finalizers": colliding(n)}),
                json!({"finalizers": ["x"]}),
                s,
            )
        }),
        ("apply: n items with colliding names", |n, s| {
            let list: Vec<Value> = colliding(n)
                .into_iter()
                .map(|k| json!({"name": k}))
                .collect();
            apply(json!({"items": list}), json!({"items": [{"name": "x"}]}), s)
        }),
        ("diff: touch all n items", |n, s| {
            let a = json!({"items": items(n, 0)});
            let b = json!({"items": (0..n).map(|i| json!({"name": format!("item-{i}"), "value": i + 1, "a": "x"})).collect::<Vec<_>>()});
            diff(a, b, s)
        }),
        ("diff: touch all n items, one removed", |n, s| {
            let a = json!({"items": items(n, 0)});
            let b = json!({"items": (1..n).map(|i| json!({"name": format!("item-{i}"), "value": i + 1, "a": "x"})).collect::<Vec<_>>()});
            diff(a, b, s)
        }),
        ("diff: replace all n finalizers", |n, s| {
            diff(
                json!({"finalizers": names(n, 0)}),
                json!({"finalizers": names(n, n)}),
                s,
            )
        }),
        ("three-way: touch all n items", |n, s| {
            let a = json!({"items": items(n, 0)});
            let b = json!({"items": (0..n).map(|i| json!({"name": format!("item-{i}"), "value": i + 1, "a": "x"})).collect::<Vec<_>>()});
            three_way(a.clone(), b, a, s, true)
        }),
        ("three-way: add n items", |n, s| {
            let a = json!({"items": items(n, 0)});
            let b = json!({"items": items(2 * n, 0)});
            three_way(a.clone(), b, a, s, true)
        }),
        ("three-way: replace n finalizers", |n, s| {
            let a = json!({"finalizers": names(n, 0)});
            let b = json!({"finalizers": names(n, n)});
            three_way(a.clone(), b, a, s, true)
        }),
        ("three-way: shifted list", |n, s| {
            let a = json!({"items": items(n, 0)});
            let b = json!({"items": items(n, 1)});
            let live = json!({"items": items(n, 2)});
            three_way(a, b, live, s, true)
        }),
        ("three-way: conflicts checked, touch all", |n, s| {
            let a = json!({"items": items(n, 0)});
            let b = json!({"items": (0..n).map(|i| json!({"name": format!("item-{i}"), "value": i + 1, "a": "x"})).collect::<Vec<_>>()});
            three_way(a.clone(), b, a, s, false)
        }),
        ("three-way: conflicts checked, live shifted", |n, s| {
            let a = json!({"items": items(n, 0)});
            let b = json!({"items": items(n, 0)});
            let live = json!({"items": items(n, 1)});
            three_way(a, b, live, s, false)
        }),
        ("normalize: n items against n old", |n, s| {
            let old = json!({"items": items(n, 0)});
            let new = json!({"items": (0..n).map(|i| json!({"name": format!("item-{}", n - 1 - i), "a": "x", "b": "y"})).collect::<Vec<_>>()});
            Box::new(move || {
                let mut new = new;
                smp_core::union::normalize(&mut new, Some(&old), s);
            })
        }),
        ("typed apply: add n items", |n, _| {
            let doc = TypedDoc::default();
            let patch = Patch::from_value(json!({"items": items(n, 0)})).expect("patch");
            Box::new(move || {
                let mut doc = doc;
                doc.apply(&patch).expect("applies");
            })
        }),
        ("typed apply: delete n of n items", |n, _| {
            let doc: TypedDoc = serde_json::from_value(json!({"items": items(n, 0)})).expect("doc");
            let patch: Vec<Value> = (0..n)
                .map(|i| json!({"name": format!("item-{i}"), "$patch": "delete"}))
                .collect();
            let patch = Patch::from_value(json!({"items": patch})).expect("patch");
            Box::new(move || {
                let mut doc = doc;
                doc.apply(&patch).expect("applies");
            })
        }),
        ("typed diff: touch all n items", |n, _| {
            let a: TypedDoc = serde_json::from_value(json!({"items": items(n, 0)})).expect("doc");
            let mut b = a.clone();
            for item in &mut b.items {
                item.value += 1;
            }
            Box::new(move || {
                a.diff(&b).expect("diffs");
            })
        }),
    ]
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, StrategicMerge)]
struct TypedDoc {
    #[serde(default)]
    #[patch(strategy = "merge", merge_key = "name")]
    items: Vec<TypedItem>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, StrategicMerge)]
struct TypedItem {
    name: String,
    #[serde(default)]
    value: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    a: Option<String>,
}

fn diff(a: Value, b: Value, schema: &'static Schema) -> Box<dyn FnOnce()> {
    Box::new(move || {
        smp_core::diff(&a, &b, schema).expect("diffs");
    })
}

fn three_way(
    a: Value,
    b: Value,
    live: Value,
    schema: &'static Schema,
    overwrite: bool,
) -> Box<dyn FnOnce()> {
    Box::new(move || {
        // A conflict is an answer too: only the time matters here.
        let _ = smp_core::three_way(
            &a,
            &b,
            &live,
            schema,
            &smp_core::ThreeWayOptions::with_conflicts(smp_core::Conflicts::from_overwrite_flag(
                overwrite,
            )),
        );
    })
}

#[test]
#[ignore = "times work; run with --release -- --ignored --nocapture"]
fn everything_scales_linearly() {
    let schema: &'static Schema = Box::leak(Box::new(schema()));
    let max: usize = std::env::var("SMP_SCALING_MAX")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let sizes: Vec<usize> = [1_000, 10_000, 100_000]
        .into_iter()
        .filter(|&n| n <= max)
        .collect();
    println!(
        "{:<52} {}",
        "scenario",
        sizes.iter().map(|n| format!("{n:>10}")).collect::<String>() + "   10x ratio"
    );
    let only = std::env::var("SMP_SCALING_ONLY").unwrap_or_default();
    let mut failures = Vec::new();
    for (name, make) in scenarios() {
        if !name.contains(only.as_str()) {
            continue;
        }
        let times: Vec<Duration> = sizes
            .iter()
            .map(|&n| {
                // The best of a few runs: one run is at the mercy of whatever else the machine
                // does, and the inputs are built anew (untimed) for each.
                (0..RUNS)
                    .map(|_| timed(make(n, schema)))
                    .min()
                    .unwrap_or_default()
            })
            .collect();
        let ratio = match times.as_slice() {
            [.., a, b] if a.as_secs_f64() > 0.0 => b.as_secs_f64() / a.as_secs_f64(),
            _ => 0.0,
        };
        println!(
            "{name:<52} {}   {ratio:>6.1}",
            times
                .iter()
                .map(|t| format!("{:>10.2?}", t))
                .collect::<String>()
        );
        if ratio > 25.0 && times.last().is_some_and(|t| t.as_millis() > 50) {
            failures.push(format!("{name}: x{ratio:.1} for 10x the size"));
        }
        if !cfg!(debug_assertions)
            && max >= 100_000
            && times.last() >= Some(&Duration::from_secs(1))
        {
            failures.push(format!("{name}: {:?} at 10^5", times.last()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
