//! Typed two-way diff against the Value engine.
//!
//! For random pairs of objects, `a.diff(&b)` must be exactly what
//! `smp_core::diff(&to_value(a), &to_value(b), T::schema())` gives (or fail when it fails);
//! `a.diff(&a)` is what the engine gives for equal documents; and applying `a.diff(&b)` to `a`
//! (typed) gives `b`, for documents without nulls. Type sets as in `typed_differential.rs`:
//! the mergeItem twin and the Pod-like types of `tests/derive-ui/ui/pass/pod.rs`. The document
//! generators are those of `typed_differential.rs`; a pair is two documents crossed over
//! member by member, so that it shares parts and differs in others.

use crate::support;

use crate::pod;

use std::fmt::Debug;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use smp_core::StrategicMerge;
use support::docs::*;
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
    // Three-way with the last-applied object as the live one, both ways of conflict checking.
    for overwrite in [false, true] {
        let got = T::three_way(
            a,
            b,
            a,
            &smp_core::ThreeWayOptions::with_conflicts(smp_core::Conflicts::from_overwrite_flag(
                overwrite,
            )),
        )
        .map(smp_core::Patch::into_value);
        let want = smp_core::three_way(
            &va,
            &vb,
            &va,
            T::schema(),
            &smp_core::ThreeWayOptions::with_conflicts(smp_core::Conflicts::from_overwrite_flag(
                overwrite,
            )),
        );
        prop_assert_eq!(
            got.ok(),
            want.ok(),
            "typed three-way differs from the engine's"
        );
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

/// Typed three-way (its parts typed diffs with the engine's options) equals the engine's on the
/// JSON forms, for three different objects, both ways of conflict checking; errors alike.
fn three_way_agrees<T: StrategicMerge + Clone + Debug>(
    original: &T,
    modified: &T,
    current: &T,
) -> Result<(), TestCaseError> {
    let v = |x: &T| serde_json::to_value(x).unwrap();
    // The typed diff under every option the three-way uses, and both ignore flags at once.
    for (deletions, changes, order) in [
        (false, true, true),
        (true, false, true),
        (true, true, false),
        (false, false, true),
        (true, true, true),
    ] {
        let options = smp_core::DiffOptions {
            ignore_deletions: !deletions,
            ignore_changes_and_additions: !changes,
            set_element_order: order,
            ..smp_core::DiffOptions::default()
        };
        let got = original
            .diff_with(modified, &options)
            .map(smp_core::Patch::into_value);
        let want = smp_core::diff_with(&v(original), &v(modified), T::schema(), &options);
        match (&got, &want) {
            (Ok(g), Ok(w)) => prop_assert_eq!(g, w, "typed diff with {:?} differs", options),
            (Err(_), Err(_)) => {}
            _ => prop_assert!(false, "typed {got:?}, engine {want:?}"),
        }
    }
    for options in [
        smp_core::ThreeWayOptions::default(),
        smp_core::ThreeWayOptions::refusing_conflicts(),
    ] {
        let got =
            T::three_way(original, modified, current, &options).map(smp_core::Patch::into_value);
        let want = smp_core::three_way(
            &v(original),
            &v(modified),
            &v(current),
            T::schema(),
            &options,
        );
        match (&got, &want) {
            (Ok(g), Ok(w)) => prop_assert_eq!(g, w, "typed three-way differs from the engine's"),
            (Err(_), Err(_)) => {}
            _ => prop_assert!(false, "typed {got:?}, engine {want:?}"),
        }
    }
    Ok(())
}

/// Three documents: the second and third made from the first (the same, another, or crossed).
fn triples<T: DeserializeOwned + Clone + Debug>(
    doc: BoxedStrategy<Value>,
) -> impl Strategy<Value = (T, T, T)> {
    (doc.clone(), doc.clone(), doc, any::<u64>(), 0u8..8, 0u8..8).prop_filter_map(
        "document does not fit the type",
        |(a, b, c, seed, mb, mc)| {
            let mut seed = seed | 1;
            let mut made = |mode: u8, other: Value| match mode {
                0 => a.clone(),
                1 => other,
                _ => cross(&a, &other, &mut seed),
            };
            let (b, c) = (made(mb, b), made(mc, c));
            Some((
                serde_json::from_value(a.clone()).ok()?,
                serde_json::from_value(b).ok()?,
                serde_json::from_value(c).ok()?,
            ))
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: TWIN_CASES, ..ProptestConfig::default() })]

    #[test]
    fn twin_typed_three_way_equals_engine((a, b, c) in triples::<MergeItem>(item(2))) {
        three_way_agrees(&a, &b, &c)?;
    }

    #[test]
    fn pod_typed_three_way_equals_engine((a, b, c) in triples::<pod::Pod>(pod_doc())) {
        three_way_agrees(&a, &b, &c)?;
    }
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

/// Lists of every size class the typed list diff treats differently (keys compared one by one
/// up to 16, a small table up to 128, the keyed hash beyond; kept items in one word up to 64),
/// with items removed, added, changed and moved at the ends and in the middle.
#[test]
fn long_lists_agree_with_the_engine() {
    let pod = |names: &[String], tag: &str| -> pod::Pod {
        let containers: Vec<Value> = names
            .iter()
            .map(|n| json!({"name": n, "image": format!("{n}:{tag}")}))
            .collect();
        serde_json::from_value(json!({"spec": {"containers": containers}})).unwrap()
    };
    for n in [3usize, 16, 17, 63, 64, 65, 128, 129, 300] {
        let names: Vec<String> = (0..n).map(|i| format!("c{i}")).collect();
        let a = pod(&names, "1");
        let mut edits: Vec<(&str, Vec<String>)> = Vec::new();
        edits.push(("first removed", names[1..].to_vec()));
        edits.push(("last removed", names[..n - 1].to_vec()));
        let mut middle = names.clone();
        middle.remove(n / 2);
        middle.push("new".to_owned());
        edits.push(("middle removed, one added", middle));
        let mut moved = names.clone();
        moved.rotate_left(1);
        edits.push(("rotated", moved));
        let mut reversed = names.clone();
        reversed.reverse();
        edits.push(("reversed", reversed));
        let mut front = vec!["front".to_owned()];
        front.extend(names.iter().step_by(2).cloned());
        edits.push(("added in front, every other removed", front));
        for (what, kept) in edits {
            for tag in ["1", "2"] {
                let b = pod(&kept, tag);
                let want = smp_core::diff(
                    &serde_json::to_value(&a).unwrap(),
                    &serde_json::to_value(&b).unwrap(),
                    pod::Pod::schema(),
                )
                .unwrap();
                assert_eq!(
                    a.diff(&b).unwrap().as_value(),
                    &want,
                    "{n} items, {what}, {tag}"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Document generators, as in `typed_differential.rs`.

// ---------------------------------------------------------------------------------------------
// The mergeItem twin: patches

/// Upstream sends a `replace`-strategy object even when it is unchanged, so a struct holding
/// one is never "quiet": its parent must not skip it when both sides are equal.
#[test]
fn unchanged_replace_object_is_sent_at_any_depth() {
    #[derive(Debug, Clone, serde::Serialize, serde::Deserialize, StrategicMerge)]
    struct Leaf {
        a: String,
    }
    #[derive(Debug, Clone, serde::Serialize, serde::Deserialize, StrategicMerge)]
    struct Inner {
        #[patch(strategy = "replace")]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        r: Option<Leaf>,
        #[patch(strategy = "replace")]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        raw: Option<Value>,
    }
    #[derive(Debug, Clone, serde::Serialize, serde::Deserialize, StrategicMerge)]
    struct Outer {
        p: Inner,
        #[patch(strategy = "merge", merge_key = "name")]
        items: Vec<Item>,
        z: i32,
    }
    #[derive(Debug, Clone, serde::Serialize, serde::Deserialize, StrategicMerge)]
    struct Item {
        name: String,
        inner: Inner,
    }
    let docs = [
        json!({"p": {"r": {"a": "x"}}, "items": [{"name": "i", "inner": {"raw": {"k": 1}}}], "z": 1}),
        json!({"p": {"raw": "scalar"}, "items": [{"name": "i", "inner": {"raw": [1]}}], "z": 1}),
        json!({"p": {}, "items": [{"name": "i", "inner": {}}, {"name": "j", "inner": {"r": {"a": "y"}}}], "z": 2}),
    ];
    for a in &docs {
        for b in &docs {
            let (ta, tb): (Outer, Outer) = (
                serde_json::from_value(a.clone()).unwrap(),
                serde_json::from_value(b.clone()).unwrap(),
            );
            let want = smp_core::diff(a, b, Outer::schema()).unwrap();
            assert_eq!(ta.diff(&tb).unwrap().as_value(), &want, "{a} -> {b}");
        }
    }
    let a: Outer = serde_json::from_value(docs[0].clone()).unwrap();
    assert_eq!(
        a.diff(&a).unwrap().as_value(),
        &json!({"p": {"r": {"a": "x"}}, "items": [{"name": "i", "inner": {"raw": {"k": 1}}}], "$setElementOrder/items": [{"name": "i"}]})
    );
}

/// An error from a member the typed diff hands to the engine names the whole path, as the
/// engine's own diff of the documents does.
#[test]
fn errors_name_the_full_path() {
    let a = json!({"mergingList": [{"name": "a", "mergingList": [{"value": 1}]}]});
    let b = json!({"mergingList": [{"name": "a", "mergingList": [{"value": 2}]}]});
    let want = smp_core::diff(&a, &b, MergeItem::schema()).unwrap_err();
    let (ta, tb): (MergeItem, MergeItem) = (
        serde_json::from_value(a).unwrap(),
        serde_json::from_value(b).unwrap(),
    );
    let got = ta.diff(&tb).unwrap_err();
    assert_eq!(got, want);
    assert_eq!(
        got.path().map(ToString::to_string).as_deref(),
        Some("mergingList[name=a].mergingList[0]")
    );
}
