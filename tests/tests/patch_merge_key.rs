//! Multi-field merge keys: every example of `patch-merge-key-directive.md` (../shared/seeds),
//! through the Value engine and the typed path, plus the rules the proposal leaves open (see
//! `smp_core::apply`'s `composite` module documentation) and patch creation.
//!
//! Each example runs twice: `smp_core::apply` with the derived schema, and
//! `StrategicMerge::apply` on the typed value; both must give the same document, or both the
//! same error with the typed value unchanged.

use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use smp_core::{Patch, PatchError, StrategicMerge};

/// An item of the proposal's lists: `foo` is the default key, `foo,bar,baz` the recommended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
struct Item {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    foo: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    bar: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    baz: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    other: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
struct Doc {
    /// Merged by `foo`, recommended `foo,bar,baz`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(strategy = "merge", merge_key = "foo", recommended = "foo,bar,baz")]
    list: Vec<Item>,
    /// The "moved merge key" case (Taints): replaced by default, recommended `foo,bar`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(recommended = "foo,bar")]
    moved: Vec<Item>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    meta: Option<Meta>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
struct Meta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

/// Applies `patch` to `doc` both ways (and as text, `apply_json`); they must agree. Returns
/// the engine's outcome.
fn both(doc: &Value, patch: &Value) -> Result<Value, PatchError> {
    let engine = smp_core::apply(doc, patch, Doc::schema());
    let text = smp_core::apply_json(&doc.to_string(), &patch.to_string(), Doc::schema());
    assert_eq!(
        text,
        engine.clone().map(|v| v.to_string()),
        "apply_json differs from apply"
    );
    let mut typed: Doc = serde_json::from_value(doc.clone()).expect("document fits Doc");
    let before = typed.clone();
    let outcome = typed.apply(&Patch::from_value(patch.clone()).expect("patch"));
    match (&engine, outcome) {
        (Ok(want), Ok(())) => {
            assert_eq!(
                &serde_json::to_value(&typed).unwrap(),
                want,
                "typed differs"
            );
            assert!(
                !want.to_string().contains("$patchMergeKey"),
                "the directive reached the result: {want}"
            );
        }
        (Err(want), Err(got)) => {
            assert_eq!(&got, want, "typed error differs");
            assert_eq!(typed, before, "a failed typed apply changed the object");
        }
        (want, got) => panic!("engine {want:?}, typed {got:?}"),
    }
    engine
}

fn ok(doc: Value, patch: Value) -> Value {
    both(&doc, &patch).unwrap_or_else(|e| panic!("{patch} failed: {e}"))
}

// ---------------------------------------------------------------------------------------------
// The proposal's examples

#[test]
fn example_client_sends_the_directive() {
    // "An example patch will look like": the directive names foo and bar.
    let got = ok(
        json!({"list": [{"foo": "a", "bar": "x"}, {"foo": "a", "bar": "y"}]}),
        json!({"list": [{"$patchMergeKey": ["foo", "bar"], "foo": "a", "bar": "x", "other": "val"}]}),
    );
    assert_eq!(
        got,
        json!({"list": [{"foo": "a", "bar": "x", "other": "val"}, {"foo": "a", "bar": "y"}]})
    );
}

#[test]
fn example_without_the_directive_the_default_key_matches() {
    let got = ok(
        json!({"list": [{"foo": "a", "bar": "y"}]}),
        json!({"list": [{"foo": "a", "bar": "x", "other": "val"}]}),
    );
    assert_eq!(
        got,
        json!({"list": [{"foo": "a", "bar": "x", "other": "val"}]})
    );
}

#[test]
fn example_a_listed_key_absent_from_the_patch_matches_items_without_it() {
    let live = json!({"list": [{"foo": "a"}, {"foo": "a", "bar": "x"}]});
    let first = ok(
        live.clone(),
        json!({"list": [{"$patchMergeKey": ["foo", "bar"], "foo": "a", "other": "val"}]}),
    );
    assert_eq!(
        first,
        json!({"list": [{"foo": "a", "other": "val"}, {"foo": "a", "bar": "x"}]})
    );
    let second = ok(
        live,
        json!({"list": [{"$patchMergeKey": ["foo", "bar"], "foo": "a", "bar": "x", "other": "val"}]}),
    );
    assert_eq!(
        second,
        json!({"list": [{"foo": "a"}, {"foo": "a", "bar": "x", "other": "val"}]})
    );
}

#[test]
fn example_partial_keys_must_identify_one_item() {
    let live = json!({"list": [
        {"foo": "a", "other": 0},
        {"foo": "b", "bar": "x", "other": 1},
        {"foo": "b", "bar": "x", "other": 2}
    ]});
    // Patch 1 (valid).
    let got = ok(
        live.clone(),
        json!({"list": [{"$patchMergeKey": ["foo"], "foo": "a", "other": 3}]}),
    );
    assert_eq!(
        got,
        json!({"list": [
            {"foo": "a", "other": 3},
            {"foo": "b", "bar": "x", "other": 1},
            {"foo": "b", "bar": "x", "other": 2}
        ]})
    );
    // Patch 2 (invalid): `foo: b` names two items.
    let err = both(
        &live,
        &json!({"list": [{"$patchMergeKey": ["foo"], "foo": "b", "other": 3}]}),
    )
    .unwrap_err();
    match &err {
        PatchError::AmbiguousMergeKey {
            path,
            keys,
            candidates,
            ..
        } => {
            assert_eq!(path.to_string(), "list");
            assert_eq!(keys, &["foo"]);
            assert_eq!(candidates, &[1, 2]);
        }
        other => panic!("expected AmbiguousMergeKey, got {other:?}"),
    }
    let text = err.to_string();
    assert!(text.contains("list") && text.contains("[1, 2]"), "{text}");
}

#[test]
fn example_adding_a_merge_key_field() {
    let got = ok(
        json!({"list": [{"foo": "a", "bar": "x"}, {"foo": "a", "bar": "y"}]}),
        json!({"list": [{"$patchMergeKey": ["foo", "bar"], "foo": "a", "bar": "x", "baz": "m"}]}),
    );
    assert_eq!(
        got,
        json!({"list": [{"foo": "a", "bar": "x", "baz": "m"}, {"foo": "a", "bar": "y"}]})
    );
}

/// The proposal's "delete a field" example sets a listed key to `null`. A `null` key matches
/// any value (it names no value to match) and is removed from the matched item. On the
/// proposal's own live list that leaves `foo: a` naming two items, which its partial-key rule
/// rejects, so smp rejects it too rather than guess; with one candidate it does what the
/// example shows. (guide::differences.)
#[test]
fn example_deleting_a_merge_key_field() {
    let patch = json!({"list": [{"$patchMergeKey": ["foo", "bar"], "foo": "a", "bar": null}]});
    let err = both(
        &json!({"list": [{"foo": "a", "bar": "x"}, {"foo": "a", "bar": "y"}]}),
        &patch,
    )
    .unwrap_err();
    assert!(
        matches!(err, PatchError::AmbiguousMergeKey { ref candidates, .. } if candidates == &[0, 1])
    );
    let got = ok(
        json!({"list": [{"foo": "a", "bar": "x"}, {"foo": "b", "bar": "y"}]}),
        patch,
    );
    assert_eq!(
        got,
        json!({"list": [{"foo": "a"}, {"foo": "b", "bar": "y"}]})
    );
}

#[test]
fn example_changing_a_listed_key_is_delete_plus_create() {
    let got = ok(
        json!({"list": [{"foo": "a", "bar": "x", "other": "val"}]}),
        json!({"list": [
            {"$patchMergeKey": ["foo", "bar"], "$patch": "delete", "foo": "a", "bar": "x"},
            {"$patchMergeKey": ["foo", "bar"], "foo": "a", "bar": "y"}
        ]}),
    );
    assert_eq!(got, json!({"list": [{"foo": "a", "bar": "y"}]}));
}

#[test]
fn example_changing_an_unlisted_key_is_an_update() {
    let got = ok(
        json!({"list": [{"foo": "a", "bar": "x", "other": "val"}]}),
        json!({"list": [{"$patchMergeKey": ["foo"], "foo": "a", "bar": "y"}]}),
    );
    assert_eq!(
        got,
        json!({"list": [{"foo": "a", "bar": "y", "other": "val"}]})
    );
}

#[test]
fn example_moved_merge_key() {
    let live = json!({"moved": [{"foo": "k1", "bar": "NoSchedule"}, {"foo": "k2"}]});
    // Without the directive: the old metadata, `replace`.
    let replaced = ok(live.clone(), json!({"moved": [{"foo": "k3"}]}));
    assert_eq!(replaced, json!({"moved": [{"foo": "k3"}]}));
    // With it: merged by the listed keys.
    let merged = ok(
        live,
        json!({"moved": [
            {"$patchMergeKey": ["foo", "bar"], "foo": "k1", "bar": "NoSchedule", "other": 60},
            {"$patchMergeKey": ["foo", "bar"], "foo": "k3"}
        ]}),
    );
    // Ordered as a list merged by one key is: patch items in patch order, the live-only item
    // after them (it comes later in the live list than the patch item before it).
    assert_eq!(
        merged,
        json!({"moved": [
            {"foo": "k1", "bar": "NoSchedule", "other": 60},
            {"foo": "k3"},
            {"foo": "k2"}
        ]})
    );
}

// ---------------------------------------------------------------------------------------------
// Rules the proposal leaves open

#[test]
fn duplicate_identities_in_the_live_list() {
    // Merging into a duplicated identity is ambiguous; deleting it removes every copy.
    let live = json!({"list": [{"foo": "a", "bar": "x", "other": 1}, {"foo": "a", "bar": "x", "other": 2}, {"foo": "b"}]});
    let err = both(
        &live,
        &json!({"list": [{"$patchMergeKey": ["foo", "bar"], "foo": "a", "bar": "x", "other": 3}]}),
    )
    .unwrap_err();
    assert!(matches!(err, PatchError::AmbiguousMergeKey { .. }));
    let got = ok(
        live,
        json!({"list": [{"$patchMergeKey": ["foo", "bar"], "$patch": "delete", "foo": "a", "bar": "x"}]}),
    );
    assert_eq!(got, json!({"list": [{"foo": "b"}]}));
}

#[test]
fn set_element_order_uses_the_identity() {
    let got = ok(
        json!({"list": [{"foo": "a", "bar": "x"}, {"foo": "a", "bar": "y"}, {"foo": "b"}]}),
        json!({
            "$setElementOrder/list": [
                {"$patchMergeKey": ["foo", "bar"], "foo": "b"},
                {"$patchMergeKey": ["foo", "bar"], "foo": "a", "bar": "y"},
                {"$patchMergeKey": ["foo", "bar"], "foo": "a", "bar": "x"}
            ],
            "list": [{"$patchMergeKey": ["foo", "bar"], "foo": "a", "bar": "y", "other": 1}]
        }),
    );
    assert_eq!(
        got,
        json!({"list": [{"foo": "b"}, {"foo": "a", "bar": "y", "other": 1}, {"foo": "a", "bar": "x"}]})
    );
    // A pure reorder: the directive on the order list alone.
    let got = ok(
        json!({"list": [{"foo": "a", "bar": "x"}, {"foo": "a", "bar": "y"}]}),
        json!({"$setElementOrder/list": [
            {"$patchMergeKey": ["foo", "bar"], "foo": "a", "bar": "y"},
            {"$patchMergeKey": ["foo", "bar"], "foo": "a", "bar": "x"}
        ]}),
    );
    assert_eq!(
        got,
        json!({"list": [{"foo": "a", "bar": "y"}, {"foo": "a", "bar": "x"}]})
    );
}

#[test]
fn new_lists_and_replace_markers_drop_the_directive() {
    let got = ok(
        json!({}),
        json!({"list": [{"$patchMergeKey": ["foo"], "foo": "a"}]}),
    );
    assert_eq!(got, json!({"list": [{"foo": "a"}]}));
    let got = ok(
        json!({"list": [{"foo": "z"}]}),
        json!({"list": [{"$patchMergeKey": ["foo"], "$patch": "replace"}, {"$patchMergeKey": ["foo"], "foo": "a"}]}),
    );
    assert_eq!(got, json!({"list": [{"foo": "a"}]}));
}

#[test]
fn malformed_directives_are_errors_naming_the_path() {
    let live = json!({"list": [{"foo": "a"}], "meta": {"name": "n"}});
    let cases = [
        // Not on every item.
        (
            json!({"list": [{"$patchMergeKey": ["foo"], "foo": "a"}, {"foo": "b"}]}),
            "list[1]",
        ),
        // Not a list of names.
        (
            json!({"list": [{"$patchMergeKey": "foo", "foo": "a"}]}),
            "list[0].$patchMergeKey",
        ),
        (
            json!({"list": [{"$patchMergeKey": [], "foo": "a"}]}),
            "list[0].$patchMergeKey",
        ),
        (
            json!({"list": [{"$patchMergeKey": ["foo", "foo"], "foo": "a"}]}),
            "list[0].$patchMergeKey",
        ),
        // Different lists in one list.
        (
            json!({"list": [{"$patchMergeKey": ["foo"], "foo": "a"}, {"$patchMergeKey": ["foo", "bar"], "foo": "b"}]}),
            "list[1].$patchMergeKey",
        ),
        // Without the field's merge key.
        (
            json!({"list": [{"$patchMergeKey": ["bar"], "bar": "a"}]}),
            "list[0].$patchMergeKey",
        ),
        // Not on a list item.
        (json!({"meta": {"$patchMergeKey": ["name"]}}), "meta"),
    ];
    for (patch, path) in cases {
        let err = both(&live, &patch).unwrap_err();
        assert_eq!(
            err.path().map(ToString::to_string).as_deref(),
            Some(path),
            "{patch}: {err}"
        );
        assert!(err.to_string().contains("$patchMergeKey"), "{err}");
    }
}

/// An old server does not know the directive and keeps using the default merge key (and
/// strategy); patches for lists whose default key is unique work there as before.
fn strip_directive(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| *k != "$patchMergeKey")
                .map(|(k, v)| (k.clone(), strip_directive(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(strip_directive).collect()),
        other => other.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// Creating patches: the Service with 53/TCP and 53/UDP

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
struct ServicePort {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    port: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    protocol: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    target_port: Option<i32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
struct ServiceSpec {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(strategy = "merge", merge_key = "port", recommended = "port,protocol")]
    ports: Vec<ServicePort>,
    /// Taints-like: no strategy, recommended key `foo,bar`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(recommended = "foo,bar")]
    taints: Vec<Item>,
}

/// The same spec as an old server knows it: merge key `port` only, taints replaced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
struct OldServiceSpec {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(strategy = "merge", merge_key = "port")]
    ports: Vec<ServicePort>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    taints: Vec<Item>,
}

fn spec(v: Value) -> ServiceSpec {
    serde_json::from_value(v).expect("fits ServiceSpec")
}

/// Patch creation that uses the recommended keys and emits `$patchMergeKey` (not the default,
/// which creates upstream's patch for servers).
fn emit() -> smp_core::DiffOptions {
    smp_core::DiffOptions {
        patch_merge_key: smp_core::PatchMergeKey::Emit,
        ..Default::default()
    }
}

fn emit3(conflicts: smp_core::Conflicts) -> smp_core::ThreeWayOptions {
    smp_core::ThreeWayOptions {
        patch_merge_key: smp_core::PatchMergeKey::Emit,
        ..smp_core::ThreeWayOptions::with_conflicts(conflicts)
    }
}

/// Two-way diff emitting `$patchMergeKey`, typed and Value; both must agree; applying gives
/// `b` both ways.
fn diff_and_apply(a: &Value, b: &Value) -> Value {
    let patch = smp_core::diff_with(a, b, ServiceSpec::schema(), &emit()).expect("diff");
    let typed = spec(a.clone())
        .diff_with(&spec(b.clone()), &emit())
        .expect("typed diff");
    assert_eq!(typed.as_value(), &patch, "typed diff differs");
    let applied = smp_core::apply(a, &patch, ServiceSpec::schema()).expect("apply");
    assert_eq!(&applied, b, "apply(a, diff(a, b)) != b for patch {patch}");
    let mut t = spec(a.clone());
    t.apply(&typed).expect("typed apply");
    assert_eq!(&serde_json::to_value(&t).unwrap(), b);
    patch
}

#[test]
fn service_with_53_tcp_and_udp_keeps_both_ports() {
    let a = json!({"ports": [{"name": "dns-tcp", "port": 53, "protocol": "TCP"}]});
    let b = json!({"ports": [
        {"name": "dns-tcp", "port": 53, "protocol": "TCP"},
        {"name": "dns-udp", "port": 53, "protocol": "UDP"}
    ]});
    let patch = diff_and_apply(&a, &b);
    assert_eq!(
        patch,
        json!({
            "$setElementOrder/ports": [
                {"$patchMergeKey": ["port", "protocol"], "port": 53, "protocol": "TCP"},
                {"$patchMergeKey": ["port", "protocol"], "port": 53, "protocol": "UDP"}
            ],
            "ports": [
                {"$patchMergeKey": ["port", "protocol"], "name": "dns-udp", "port": 53, "protocol": "UDP"}
            ]
        })
    );
    // Changing the UDP port's name touches that port only.
    let c = json!({"ports": [
        {"name": "dns-tcp", "port": 53, "protocol": "TCP"},
        {"name": "dns", "port": 53, "protocol": "UDP"}
    ]});
    let patch = diff_and_apply(&b, &c);
    assert_eq!(
        patch["ports"],
        json!([{"$patchMergeKey": ["port", "protocol"], "name": "dns", "port": 53, "protocol": "UDP"}])
    );
    // The motivating bug, for the record: by `port` alone the two ports are one.
    let old = smp_core::apply(
        &a,
        &strip_directive(&diff_and_apply(&a, &b)),
        OldServiceSpec::schema(),
    )
    .expect("old apply");
    assert_eq!(old["ports"].as_array().unwrap().len(), 1);
}

#[test]
fn a_changed_key_field_is_sent_as_delete_plus_create() {
    let a = json!({"ports": [{"port": 53, "protocol": "TCP", "targetPort": 5353}]});
    let b = json!({"ports": [{"port": 53, "protocol": "UDP", "targetPort": 5353}]});
    let patch = diff_and_apply(&a, &b);
    assert_eq!(
        patch["ports"],
        json!([
            {"$patchMergeKey": ["port", "protocol"], "port": 53, "protocol": "UDP", "targetPort": 5353},
            {"$patchMergeKey": ["port", "protocol"], "$patch": "delete", "port": 53, "protocol": "TCP"}
        ])
    );
}

#[test]
fn moved_keys_are_sent_whole_and_merge_only_when_equivalent() {
    // An addition: the whole list, with the directive (a new server merges, an old one
    // replaces; both give `b`).
    let a = json!({"taints": [{"foo": "k1", "bar": "NoSchedule"}]});
    let b = json!({"taints": [{"foo": "k1", "bar": "NoSchedule"}, {"foo": "k2"}]});
    let patch = diff_and_apply(&a, &b);
    assert_eq!(
        patch,
        json!({"taints": [
            {"$patchMergeKey": ["foo", "bar"], "foo": "k1", "bar": "NoSchedule"},
            {"$patchMergeKey": ["foo", "bar"], "foo": "k2"}
        ]})
    );
    let old = smp_core::apply(&a, &strip_directive(&patch), OldServiceSpec::schema()).unwrap();
    assert_eq!(old, b);
    // A removal: the whole list without the directive, so both replace.
    let patch = diff_and_apply(&b, &a);
    assert_eq!(
        patch,
        json!({"taints": [{"foo": "k1", "bar": "NoSchedule"}]})
    );
    // A field removed from an item: merging would keep it, so no directive either.
    let c = json!({"taints": [{"foo": "k1", "bar": "NoSchedule", "other": 5}]});
    let patch = diff_and_apply(&c, &a);
    assert_eq!(
        patch,
        json!({"taints": [{"foo": "k1", "bar": "NoSchedule"}]})
    );
}

#[test]
fn three_way_keeps_what_others_added() {
    let original = json!({"ports": [{"port": 53, "protocol": "TCP"}]});
    let modified =
        json!({"ports": [{"port": 53, "protocol": "TCP"}, {"port": 53, "protocol": "UDP"}]});
    let current =
        json!({"ports": [{"port": 53, "protocol": "TCP"}, {"port": 8080, "protocol": "TCP"}]});
    let patch = smp_core::three_way(
        &original,
        &modified,
        &current,
        ServiceSpec::schema(),
        &emit3(smp_core::Conflicts::Refuse),
    )
    .expect("three-way");
    let typed = ServiceSpec::three_way(
        &spec(original),
        &spec(modified),
        &spec(current.clone()),
        &emit3(smp_core::Conflicts::Refuse),
    )
    .expect("typed three-way");
    assert_eq!(typed.as_value(), &patch);
    let got = smp_core::apply(&current, &patch, ServiceSpec::schema()).unwrap();
    assert_eq!(
        got,
        json!({"ports": [
            {"port": 53, "protocol": "TCP"},
            {"port": 53, "protocol": "UDP"},
            {"port": 8080, "protocol": "TCP"}
        ]})
    );
}

// ---------------------------------------------------------------------------------------------
// Properties

fn port() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(vec![53, 80, 443]),
        prop::option::of(prop::sample::select(vec!["TCP", "UDP"])),
        prop::option::of(prop::sample::select(vec!["a", "b"])),
    )
        .prop_map(|(port, protocol, name)| {
            let mut m = serde_json::Map::new();
            m.insert("port".into(), json!(port));
            if let Some(p) = protocol {
                m.insert("protocol".into(), json!(p));
            }
            if let Some(n) = name {
                m.insert("name".into(), json!(n));
            }
            Value::Object(m)
        })
}

/// Lists whose identities (port, protocol) are distinct, which a merge patch can reproduce.
fn ports() -> impl Strategy<Value = Vec<Value>> {
    prop::collection::vec(port(), 0..5).prop_map(|items| {
        let id = |v: &Value| (v["port"].clone(), v.get("protocol").cloned());
        let mut out: Vec<Value> = Vec::new();
        for item in items {
            if !out.iter().any(|o| id(o) == id(&item)) {
                out.push(item);
            }
        }
        out
    })
}

fn doc(ports: Vec<Value>) -> Value {
    if ports.is_empty() {
        json!({})
    } else {
        json!({ "ports": ports })
    }
}

/// Taint-like items (moved key `foo,bar`) with distinct identities.
fn taints() -> impl Strategy<Value = Value> {
    let item = (
        prop::sample::select(vec!["k1", "k2", "k3"]),
        prop::option::of(prop::sample::select(vec!["NoSchedule", "NoExecute"])),
        prop::option::of(0..3i32),
    )
        .prop_map(|(key, effect, other)| {
            let mut m = serde_json::Map::new();
            m.insert("foo".into(), json!(key));
            if let Some(b) = effect {
                m.insert("bar".into(), json!(b));
            }
            if let Some(o) = other {
                m.insert("other".into(), json!(o));
            }
            Value::Object(m)
        });
    prop::collection::vec(item, 0..4).prop_map(|items| {
        let id = |v: &Value| (v["foo"].clone(), v.get("bar").cloned());
        let mut out: Vec<Value> = Vec::new();
        for item in items {
            if !out.iter().any(|o| id(o) == id(&item)) {
                out.push(item);
            }
        }
        if out.is_empty() {
            json!({})
        } else {
            json!({ "taints": out })
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    /// `apply(a, diff(a, b)) == b`, typed and Value; `diff(a, a)` is empty; three-way with
    /// original == current equals two-way; and an old server, ignoring the directive, gets
    /// `b` too whenever the default key `port` is unique in both lists.
    #[test]
    fn diff_then_apply_round_trips(a in ports(), b in ports()) {
        let (a, b) = (doc(a), doc(b));
        let patch = diff_and_apply(&a, &b);
        prop_assert_eq!(smp_core::diff_with(&a, &a, ServiceSpec::schema(), &emit()).unwrap(), json!({}));
        let three = smp_core::three_way(&a, &b, &a, ServiceSpec::schema(), &emit3(smp_core::Conflicts::Refuse)).unwrap();
        prop_assert_eq!(&three, &patch);
        let unique = |v: &Value| {
            let ports: Vec<&Value> = v["ports"].as_array().map(|l| l.iter().map(|p| &p["port"]).collect()).unwrap_or_default();
            ports.iter().enumerate().all(|(i, p)| !ports[..i].contains(p))
        };
        if unique(&a) && unique(&b) {
            let old = smp_core::apply(&a, &strip_directive(&patch), OldServiceSpec::schema()).unwrap();
            prop_assert_eq!(old, b);
        }
    }

    /// By default (`PatchMergeKey::Omit`) created patches are upstream's: the same as with a
    /// schema that has no recommended keys, typed and Value, two-way and three-way, with no
    /// `$patchMergeKey` anywhere.
    #[test]
    fn by_default_created_patches_are_upstreams(a in ports(), b in ports(), c in ports(), t in taints(), u in taints()) {
        let (a, b, c) = (doc(a), doc(b), doc(c));
        for (x, y) in [(&a, &b), (&t, &u)] {
            let ours = smp_core::diff(x, y, ServiceSpec::schema());
            let old = smp_core::diff(x, y, OldServiceSpec::schema());
            prop_assert_eq!(&ours, &old);
            if let Ok(patch) = ours {
                prop_assert!(!patch.to_string().contains("$patchMergeKey"));
                let typed = spec(x.clone()).diff(&spec(y.clone())).expect("typed diff");
                prop_assert_eq!(typed.as_value(), &patch);
            }
        }
        let options = smp_core::ThreeWayOptions::default();
        prop_assert_eq!(
            smp_core::three_way(&a, &b, &c, ServiceSpec::schema(), &options),
            smp_core::three_way(&a, &b, &c, OldServiceSpec::schema(), &options)
        );
    }

    /// Moved keys: the same round trip, and an old server (which replaces the list) always
    /// gets `b`.
    #[test]
    fn moved_keys_round_trip(a in taints(), b in taints()) {
        let patch = diff_and_apply(&a, &b);
        let old = smp_core::apply(&a, &strip_directive(&patch), OldServiceSpec::schema()).unwrap();
        prop_assert_eq!(old, b);
    }
}

/// A changed list with moved keys whose live items repeat an identity is sent whole, without
/// the directive: apply refuses to merge into such a list (ambiguous), replacing works.
#[test]
fn moved_keys_with_repeated_identities_are_replaced() {
    let a = json!({"taints": [{"foo": "k1", "bar": "E"}, {"foo": "k1", "bar": "E"}]});
    let b = json!({"taints": [{"foo": "k1", "bar": "E"}]});
    let patch = diff_and_apply(&a, &b);
    assert_eq!(patch, json!({"taints": [{"foo": "k1", "bar": "E"}]}));
}

/// The member diff tags items with while it works is private to each process: a document
/// member of the name it once had (`"\u0000smp:identity"`) is data like any other.
#[test]
fn a_member_named_like_the_identity_tag_is_kept() {
    let a = json!({"ports": [{"port": 1, "\u{0}smp:identity": 5}]});
    let b = json!({"ports": [{"port": 1, "\u{0}smp:identity": 6}]});
    let schema = ServiceSpec::schema();
    let patch = smp_core::diff_with(&a, &b, schema, &emit()).expect("diff");
    assert_eq!(smp_core::apply(&a, &patch, schema), Ok(b));
}
