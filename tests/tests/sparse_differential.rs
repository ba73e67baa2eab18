//! Differential test of `smp_core::apply_json` (the sparse text-to-text path) against its
//! reference: strict parse of both texts, `apply_owned`, `serde_json::to_string`. Results must be
//! byte-identical and errors equal.
//!
//! Random originals (Pod-shaped: containers keyed by name, ports by number, env, finalizer
//! sets, string maps; and generic documents over upstream's `mergeItem` vocabulary) are rendered
//! as text with random whitespace, key order, escapes and number spellings, sometimes corrupted
//! (repeated keys, truncation, deep nesting). Random patches use every directive, valid and not.
//! Schemas: the Pod example, `Schema::untyped()`, and upstream's `mergeItem` when the corpus is
//! present. Then every apply-side case of the upstream corpus runs through both.

use crate::support;

use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::strategy::Union;
use proptest::test_runner::TestCaseError;
use serde_json::{Map, Value};
use smp_core::sparse::{Route, apply_json_routed};
use smp_core::{DiffOptions, DocRole, Node, PatchError, PatchMergeKey, Schema, ThreeWayOptions};

fn reference(original: &str, patch: &str, node: Node<'_>) -> Result<String, PatchError> {
    let o = smp_core::input::parse_json(original, DocRole::Original)?;
    let p = smp_core::input::parse_json(patch, DocRole::Patch)?;
    let out = smp_core::apply_owned(o, &p, node)?;
    Ok(serde_json::to_string(&out).expect("a Value serialises"))
}

/// Both ways agree; returns the route taken.
fn agree(original: &str, patch: &str, node: Node<'_>) -> Result<Route, String> {
    let want = reference(original, patch, node);
    let (got, route) = apply_json_routed(original, patch, node);
    if got != want {
        return Err(format!(
            "differs ({route:?})\noriginal: {original}\npatch:    {patch}\nsparse:    {got:?}\nreference: {want:?}"
        ));
    }
    // The fallback is for placeholder-range numbers only; other fallbacks would hide bugs.
    if let Route::Reference(why) = route {
        if !why.contains("placeholder-range") && !why.contains("not an object") {
            return Err(format!("unexpected fallback: {why}\n{original}\n{patch}"));
        }
    }
    Ok(route)
}

// ---------------------------------------------------------------------------------------------
// Rendering values as text

/// Deterministic choices from a seed (xorshift).
struct Dice(u64);

impl Dice {
    fn roll(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

fn ws(d: &mut Dice, out: &mut String) {
    for _ in 0..d.roll(4).saturating_sub(1) {
        out.push([' ', '\n', '\t', '\r', ' ', ' '][d.roll(6) as usize]);
    }
}

fn string(d: &mut Dice, s: &str, out: &mut String) {
    if d.roll(3) != 0 {
        out.push_str(&serde_json::to_string(s).unwrap());
        return;
    }
    out.push('"');
    for c in s.chars() {
        match (c, d.roll(4)) {
            ('"' | '\\', _) | ('\u{0}'..='\u{1f}', _) => {
                out.push_str(&format!("\\u{:04X}", c as u32))
            }
            ('/', 0) => out.push_str("\\/"),
            (c, 0) => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{:04x}", u));
                }
            }
            (c, _) => out.push(c),
        }
    }
    out.push('"');
}

fn number(d: &mut Dice, n: &serde_json::Number, out: &mut String) {
    let plain = n.to_string();
    match n.as_f64().filter(|_| n.is_f64()) {
        Some(f) => out.push_str(&match d.roll(4) {
            0 => format!("{f:e}"),
            1 => format!("{f:E}"),
            2 if plain.contains('.') && !plain.contains('e') => format!("{plain}00"),
            _ => plain,
        }),
        None => out.push_str(&plain),
    }
}

/// `value` as JSON text: random whitespace, member order and escapes; each object member is
/// written twice with probability `1/dup` (0: never).
fn render(d: &mut Dice, value: &Value, dup: u64, out: &mut String) {
    ws(d, out);
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => number(d, n, out),
        Value::String(s) => string(d, s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                out.push_str(if i > 0 { "," } else { "" });
                render(d, item, dup, out);
            }
            ws(d, out);
            out.push(']');
        }
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            for i in (1..members.len()).rev() {
                members.swap(i, d.roll(i as u64 + 1) as usize);
            }
            if dup > 0 && !members.is_empty() && d.roll(dup) == 0 {
                members.push(members[d.roll(members.len() as u64) as usize]);
            }
            out.push('{');
            for (i, (k, v)) in members.into_iter().enumerate() {
                out.push_str(if i > 0 { "," } else { "" });
                ws(d, out);
                string(d, k, out);
                ws(d, out);
                out.push(':');
                render(d, v, dup, out);
            }
            ws(d, out);
            out.push('}');
        }
    }
    ws(d, out);
}

/// A text for `value`: mostly well-formed, sometimes repeated keys or corrupted.
fn text_of(value: &Value, seed: u64) -> String {
    let mut d = Dice(seed | 1);
    let mut out = String::new();
    let dup = if d.roll(20) == 0 { 3 } else { 0 };
    render(&mut d, value, dup, &mut out);
    match d.roll(60) {
        0 => {
            let mut cut = d.roll(out.len() as u64 + 1) as usize;
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
        }
        1 => out.push_str(" x"),
        2 if out.ends_with('}') => {
            let deep = format!(",\"deep\":{}{}", "[".repeat(130), "]".repeat(130));
            out.insert_str(out.len() - 1, &deep);
        }
        _ => {}
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Generators

fn obj(fields: Vec<(&'static str, f64, BoxedStrategy<Value>)>) -> BoxedStrategy<Value> {
    let parts: Vec<BoxedStrategy<Option<(String, Value)>>> = fields
        .into_iter()
        .filter(|(_, p, _)| *p > 0.0)
        .map(|(key, p, value)| {
            prop::option::weighted(p, value.prop_map(move |v| (key.to_owned(), v))).boxed()
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

fn pick(values: Vec<Value>) -> BoxedStrategy<Value> {
    prop::sample::select(values).boxed()
}

/// One of the items of a JSON array.
fn pick_of(array: &str) -> BoxedStrategy<Value> {
    match serde_json::from_str(array) {
        Ok(Value::Array(values)) => pick(values),
        _ => panic!("not a JSON array: {array}"),
    }
}

fn weighted(options: Vec<(u32, BoxedStrategy<Value>)>) -> BoxedStrategy<Value> {
    Union::new_weighted(options).boxed()
}

/// Scalars, with number kinds and strings that stress the canonical form.
fn scalar() -> BoxedStrategy<Value> {
    weighted(vec![
        (30, "[a-c]{0,3}".prop_map(Value::from).boxed()),
        (10, any::<String>().prop_map(Value::from).boxed()),
        (20, (-3i64..300).prop_map(Value::from).boxed()),
        (
            10,
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from)
                .boxed(),
        ),
        (
            20,
            pick_of(
                r#"[null, true, false, -0.0, 1.0, 0.1, 1e300, -9223372036854775808,
            9223372036854775807, "é\n\"\\/😀\u007f\u0001"]"#,
            ),
        ),
        // Numbers a placeholder could be mistaken for: the reference path runs.
        (1, pick_of("[18446744073709551615, 18446744069414584320]")),
    ])
}

fn name() -> BoxedStrategy<Value> {
    weighted(vec![
        (12, pick_of(r#"["a", "b", "c", "d"]"#)),
        (1, scalar()),
    ])
}

fn directive() -> BoxedStrategy<Value> {
    pick_of(r#"["replace", "delete", "merge", "bogus", 3]"#)
}

fn strings() -> BoxedStrategy<Value> {
    list(pick_of(r#"["x", "y", "z", "é"]"#), 4)
}

fn string_map() -> BoxedStrategy<Value> {
    prop::collection::btree_map("[a-d]", prop_oneof![scalar(), Just(Value::Null)], 0..4)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
        .boxed()
}

/// A Pod-shaped document (`patch`: with directives, nulls and wrong types).
fn pod(patch: bool) -> BoxedStrategy<Value> {
    let p = if patch { 0.35 } else { 0.7 };
    let d = if patch { 0.15 } else { 0.04 };
    let odd = || {
        weighted(vec![
            (1, scalar()),
            (1, string_map()),
            (1, list(scalar(), 2)),
        ])
    };
    let env = obj(vec![
        ("name", 0.95, name()),
        ("value", 0.6, scalar()),
        ("valueFrom", 0.2, string_map()),
        ("$patch", d, directive()),
    ]);
    let port = obj(vec![
        ("containerPort", 0.95, pick_of(r#"[80, 443, 8080, "80"]"#)),
        ("name", 0.5, name()),
        ("protocol", 0.3, scalar()),
        ("$patch", d, directive()),
    ]);
    let names = || list(obj(vec![("name", 0.95, name())]), 4);
    let container = obj(vec![
        ("name", 0.95, name()),
        ("image", 0.7, scalar()),
        ("args", p, weighted(vec![(5, strings()), (1, odd())])),
        (
            "env",
            p,
            weighted(vec![(6, list(env.clone(), 4)), (1, odd())]),
        ),
        ("ports", p, weighted(vec![(6, list(port, 3)), (1, odd())])),
        (
            "resources",
            p,
            obj(vec![
                ("limits", 0.6, string_map()),
                ("requests", 0.6, string_map()),
            ]),
        ),
        ("unknownField", 0.15, scalar()),
        ("$patch", d, directive()),
        ("$setElementOrder/env", d, names()),
        (
            "$retainKeys",
            d / 2.0,
            list(pick_of(r#"["name", "image", "env"]"#), 3),
        ),
    ]);
    let containers = weighted(vec![(8, list(container, 5)), (1, odd())]);
    let metadata = obj(vec![
        ("name", 0.5, scalar()),
        ("labels", p, weighted(vec![(6, string_map()), (1, odd())])),
        ("annotations", p, string_map()),
        ("finalizers", p, weighted(vec![(6, strings()), (1, odd())])),
        ("$deleteFromPrimitiveList/finalizers", d, strings()),
        ("$setElementOrder/finalizers", d, strings()),
        ("$patch", d / 2.0, directive()),
    ]);
    let spec = obj(vec![
        ("containers", 0.8, containers),
        ("$setElementOrder/containers", d, names()),
        (
            "volumes",
            p / 2.0,
            list(
                obj(vec![("name", 0.9, name()), ("emptyDir", 0.5, string_map())]),
                3,
            ),
        ),
        ("nodeSelector", p / 2.0, string_map()),
        ("restartPolicy", p / 2.0, scalar()),
        (
            "$retainKeys",
            d / 2.0,
            list(pick_of(r#"["containers", "volumes"]"#), 2),
        ),
        ("$patch", d / 2.0, directive()),
    ]);
    obj(vec![
        ("apiVersion", p, scalar()),
        ("kind", p, scalar()),
        ("metadata", 0.6, weighted(vec![(8, metadata), (1, odd())])),
        ("spec", 0.85, weighted(vec![(12, spec), (1, odd())])),
        ("status", 0.2, string_map()),
    ])
}

/// Documents over upstream's `mergeItem` vocabulary (recursive; lists of named items, int sets,
/// maps, replace and retainKeys fields), with directives when `patch`.
fn merge_item(patch: bool, depth: u32) -> BoxedStrategy<Value> {
    let d = if patch { 0.12 } else { 0.04 };
    let inner = || {
        if depth == 0 {
            scalar()
        } else {
            merge_item(patch, depth - 1)
        }
    };
    let items = || weighted(vec![(5, list(inner(), 3)), (1, scalar())]);
    let ints = || list(pick_of("[1, 2, 3, 2.0]"), 3);
    let sel = || list(pick_of(r#"[{"name": "a"}, {"name": "b"}, 1, 2]"#), 3);
    obj(vec![
        ("name", 0.9, name()),
        ("value", 0.3, scalar()),
        ("mergingList", 0.3, items()),
        ("nonMergingList", 0.2, items()),
        ("mergingIntList", 0.3, ints()),
        ("nonMergingIntList", 0.2, ints()),
        (
            "mergeItemPtr",
            0.2,
            weighted(vec![(2, list(inner(), 2)), (1, inner())]),
        ),
        ("simpleMap", 0.3, string_map()),
        (
            "replacingItem",
            0.2,
            weighted(vec![(2, inner()), (1, scalar())]),
        ),
        ("retainKeysMap", 0.2, inner()),
        ("retainKeysMergingList", 0.2, items()),
        ("$patch", d, directive()),
        (
            "$retainKeys",
            d,
            list(pick_of(r#"["name", "value", "simpleMap"]"#), 2),
        ),
        ("$setElementOrder/mergingList", d, sel()),
        ("$setElementOrder/mergingIntList", d, sel()),
        ("$deleteFromPrimitiveList/mergingIntList", d, ints()),
        (
            "$deleteFromPrimitiveList/nonMergingIntList",
            d / 2.0,
            ints(),
        ),
    ])
}

// ---------------------------------------------------------------------------------------------
// Properties

fn pod_schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/pod-schema.json");
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        Schema::from_openapi(&doc, "io.k8s.api.core.v1.Pod").unwrap()
    })
}

fn merge_item_schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let doc = support::recorded_schema("mergeItem.openapiV3.json");
        Schema::from_openapi(&doc, "mergeItem").unwrap()
    })
}

fn check_all(original: &Value, patch: &Value, seeds: (u64, u64)) -> Result<(), TestCaseError> {
    let (o, p) = (text_of(original, seeds.0), text_of(patch, seeds.1));
    let untyped = Schema::untyped();
    let nodes = [
        Node::from(pod_schema()),
        Node::from(&untyped),
        Node::from(merge_item_schema()),
    ];
    for node in nodes {
        agree(&o, &p, node).map_err(TestCaseError::fail)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Creating patches: `diff_json` and `three_way_json` against parse + engine + print

fn parsed(texts: &[&str]) -> Result<Vec<Value>, PatchError> {
    let roles = [DocRole::Original, DocRole::Modified, DocRole::Current];
    texts
        .iter()
        .zip(roles)
        .map(|(t, role)| smp_core::input::parse_json(t, role))
        .collect()
}

fn printed(patch: Result<Value, PatchError>) -> Result<String, PatchError> {
    patch.map(|p| serde_json::to_string(&p).expect("a Value serialises"))
}

/// `diff_json` and, given a third text, `three_way_json` equal the reference under every option
/// set.
fn created_agree(texts: &[&str], node: Node<'_>) -> Result<(), String> {
    let diff_options = [
        DiffOptions::default(),
        DiffOptions {
            patch_merge_key: PatchMergeKey::Emit,
            ..DiffOptions::default()
        },
        DiffOptions {
            ignore_deletions: true,
            ..DiffOptions::default()
        },
        DiffOptions {
            ignore_changes_and_additions: true,
            set_element_order: false,
            ..DiffOptions::default()
        },
    ];
    let show = || texts.join("\n----\n");
    let pair = parsed(&texts[..2]);
    for options in &diff_options {
        let want = printed(
            pair.clone()
                .and_then(|d| smp_core::diff_with(&d[0], &d[1], node, options)),
        );
        let got = smp_core::diff_json(texts[0], texts[1], node, options);
        if got != want {
            return Err(format!(
                "diff {options:?} differs\n{}\nsparse:    {got:?}\nreference: {want:?}",
                show()
            ));
        }
    }
    if texts.len() < 3 {
        return Ok(());
    }
    let three_way_options = [
        ThreeWayOptions::default(),
        ThreeWayOptions::refusing_conflicts(),
        ThreeWayOptions {
            patch_merge_key: PatchMergeKey::Emit,
            ..ThreeWayOptions::refusing_conflicts()
        },
    ];
    let docs = parsed(texts);
    for options in &three_way_options {
        let want = printed(
            docs.clone()
                .and_then(|d| smp_core::three_way(&d[0], &d[1], &d[2], node, options)),
        );
        let got = smp_core::three_way_json(texts[0], texts[1], texts[2], node, options);
        if got != want {
            return Err(format!(
                "three-way {options:?} differs\n{}\nsparse:    {got:?}\nreference: {want:?}",
                show()
            ));
        }
    }
    Ok(())
}

/// The documents a patch makes of `original` (the reference's apply), when it applies.
fn patched(original: &Value, patch: &Value, node: Node<'_>) -> Value {
    smp_core::apply(original, patch, node).unwrap_or_else(|_| original.clone())
}

/// Modified and current documents made from `original` by two random patches, rendered alike
/// (compact, so equal parts are equal text) and apart (random layout per document).
fn check_created(
    original: &Value,
    patches: [&Value; 2],
    seeds: (u64, u64),
) -> Result<(), TestCaseError> {
    let untyped = Schema::untyped();
    let nodes = [
        Node::from(pod_schema()),
        Node::from(&untyped),
        Node::from(merge_item_schema()),
    ];
    for node in nodes {
        let modified = patched(original, patches[0], node);
        let current = patched(original, patches[1], node);
        let compact = [
            original.to_string(),
            modified.to_string(),
            current.to_string(),
        ];
        let random = [
            text_of(original, seeds.0),
            text_of(&modified, seeds.1),
            text_of(&current, seeds.0 ^ seeds.1),
        ];
        for texts in [&compact, &random] {
            let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
            created_agree(&texts, node).map_err(TestCaseError::fail)?;
            created_agree(&texts[..2], node).map_err(TestCaseError::fail)?;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1_000, ..ProptestConfig::default() })]

    #[test]
    fn created_pods_agree(
        original in pod(false),
        modify in pod(true),
        race in pod(true),
        seeds in any::<(u64, u64)>(),
    ) {
        check_created(&original, [&modify, &race], seeds)?;
    }

    #[test]
    fn created_merge_items_agree(
        original in merge_item(false, 2),
        modify in merge_item(true, 2),
        race in merge_item(true, 2),
        seeds in any::<(u64, u64)>(),
    ) {
        check_created(&original, [&modify, &race], seeds)?;
    }
}

/// Three documents, untyped and as Pods: the three-way patch in two orders and the two-way
/// patch of the first two agree with the reference.
fn created_agree_both_ways(texts: [&str; 3]) {
    let untyped = Schema::untyped();
    for node in [Node::from(&untyped), pod_schema().into()] {
        created_agree(&texts, node).unwrap();
        created_agree(&texts[..2], node).unwrap();
        created_agree(&[texts[2], texts[0], texts[1]], node).unwrap();
    }
}

/// Objects whose members pair up row by row for a while and then do not (a member missing, an
/// extra one, the same keys in another order): the rest are paired by key.
#[test]
fn created_objects_aligned_then_not() {
    created_agree_both_ways([
        r#"{"a": 1, "b": {"x": 1, "y": 2, "w": 0}, "c": 3, "d": [1], "e": {"p": 1}}"#,
        r#"{"a": 1, "b": {"x": 1, "z": 2, "w": 0}, "e": {"p": 2}, "c": 4, "f": 5}"#,
        r#"{"a": 2, "b": {"x": 1, "w": 1, "y": 2}, "d": [1], "c": 3}"#,
    ]);
}

/// Documents holding the stand-in's number, or others of its range, in what differs: the
/// reference path answers, with the same patch.
#[test]
fn created_with_stand_in_numbers_agree() {
    created_agree_both_ways([
        r#"{"a": 18446744073709551615, "b": [1], "c": {"d": 1}}"#,
        r#"{"a": 18446744069414584320, "b": [18446744073709551615], "c": {"d": 2}}"#,
        r#"{"a": 1, "b": [1], "c": {"d": 18446744069414584321}}"#,
    ]);
}

#[test]
fn created_fixtures_agree() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../smp-core/benches/fixtures/");
    let read = |f: String| std::fs::read_to_string(format!("{dir}{f}")).unwrap();
    for pod in ["pod3", "pod50"] {
        let original = read(format!("{pod}.json"));
        let current = read(format!("{pod}-current.json"));
        for modified in ["image-modified", "many-modified"] {
            let modified = read(format!("{pod}-{modified}.json"));
            created_agree(&[&original, &modified, &current], pod_schema().into()).unwrap();
            created_agree(&[&modified, &original, &current], pod_schema().into()).unwrap();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_500, ..ProptestConfig::default() })]

    #[test]
    fn pods_agree(original in pod(false), patch in pod(true), seeds in any::<(u64, u64)>()) {
        check_all(&original, &patch, seeds)?;
    }

    #[test]
    fn merge_items_agree(
        original in merge_item(false, 2),
        patch in merge_item(true, 2),
        seeds in any::<(u64, u64)>(),
    ) {
        check_all(&original, &patch, seeds)?;
    }
}

/// Whitespace-free, pretty and randomly rendered texts of the same documents; the original
/// also with every value on the reference path's side copied (empty patch).
#[test]
fn fixtures_agree() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../smp-core/benches/fixtures/");
    for pod in ["pod3", "pod50"] {
        let read = |f: String| std::fs::read_to_string(format!("{dir}{f}")).unwrap();
        let original = read(format!("{pod}.json"));
        let value: Value = serde_json::from_str(&original).unwrap();
        for patch in ["image-patch", "many-modified", "current"] {
            let patch = read(format!("{pod}-{patch}.json"));
            for text in [original.clone(), text_of(&value, 7), value.to_string()] {
                let route = agree(&text, &patch, pod_schema().into()).unwrap();
                assert_eq!(route, Route::Sparse);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The upstream corpus

/// The (original, patch) document pairs of a case's apply steps, as values and as stored text.
fn pairs(case: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (base, patch) in [
        ("original", "twoWay"),
        ("current", "threeWay"),
        ("original", "patch"),
    ] {
        let docs = [(case.get(base), case.get(patch))];
        let sorted = case
            .get("upstreamSorted")
            .map(|s| (s.get(base), s.get(patch)));
        for (o, p) in docs.into_iter().chain(sorted) {
            let Some(p) = p else { continue };
            let o = o.cloned().unwrap_or(Value::Object(Map::new()));
            out.push((o.to_string(), p.to_string()));
            let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap();
            out.push((pretty(&o), pretty(p)));
        }
        let text = |name| case.get("text")?.get(name)?.as_str().map(str::to_owned);
        if let (Some(o), Some(p)) = (text(base), text(patch)) {
            out.push((o, p));
        }
    }
    out
}

#[test]
fn upstream_corpus_agrees() {
    let dir = support::corpus_dir();
    let schemas = support::Schemas::load();
    let untyped = Schema::untyped();
    let files = [
        "two-and-three-way.json",
        "raw-cases.json",
        "raw-extension.json",
        "custom-apply.json",
        "number-conversion.json",
        "unknown-field.json",
        "bad-arguments.json",
    ];
    let (mut runs, mut sparse) = (0, 0);
    for file in files {
        let doc = support::load_json(&dir, file);
        for case in support::cases(&doc) {
            let name = case.get("schema").and_then(Value::as_str).unwrap_or("");
            let mut nodes = vec![Node::from(&untyped)];
            for variant in support::Variant::ALL {
                nodes.extend(schemas.get(name, variant).map(Node::from));
            }
            for (o, p) in pairs(case) {
                for &node in &nodes {
                    let route = agree(&o, &p, node).unwrap_or_else(|e| panic!("{file}: {e}"));
                    runs += 1;
                    sparse += usize::from(route == Route::Sparse);
                }
            }
        }
    }
    println!("upstream corpus: {runs} applies agree ({sparse} on the sparse path)");
    assert!(runs > 1000, "only {runs} applies ran");
}

/// Every two- and three-way case of the corpus through `diff_json` and `three_way_json`.
#[test]
fn upstream_corpus_creates_alike() {
    let dir = support::corpus_dir();
    let schemas = support::Schemas::load();
    let untyped = Schema::untyped();
    let mut runs = 0;
    for file in [
        "two-and-three-way.json",
        "custom-apply.json",
        "unknown-field.json",
    ] {
        let doc = support::load_json(&dir, file);
        for case in support::cases(&doc) {
            let name = case.get("schema").and_then(Value::as_str).unwrap_or("");
            let mut nodes = vec![Node::from(&untyped)];
            for variant in support::Variant::ALL {
                nodes.extend(schemas.get(name, variant).map(Node::from));
            }
            let doc = |n: &str| case.get(n).cloned().unwrap_or(Value::Object(Map::new()));
            let (o, m, c) = (doc("original"), doc("modified"), doc("current"));
            let compact = [o.to_string(), m.to_string(), c.to_string()];
            let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap();
            let spaced = [pretty(&o), pretty(&m), pretty(&c)];
            for texts in [&compact, &spaced] {
                let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
                for &node in &nodes {
                    created_agree(&texts, node).unwrap_or_else(|e| panic!("{file}: {e}"));
                    runs += 1;
                }
            }
        }
    }
    println!("upstream corpus: {runs} patch creations agree");
    assert!(runs > 300, "only {runs} ran");
}

/// Parts that are the same on every side but on which the engine still fails or writes: the
/// sparse path must read them (and agree), not stand them in.
#[test]
fn created_alike_where_equal_parts_matter() {
    let pod = |containers: &str, labels: &str| {
        format!(
            r#"{{"metadata": {{"labels": {labels}}}, "spec": {{"containers": {containers}, "finalizers": [1, 1.5]}}}}"#
        )
    };
    let cases = [
        // An item without its merge key, a list mixing kinds, items with a `$patch` of the wrong
        // type, integers and floats in one set: equal everywhere, refused by the engine.
        (r#"[{"image": "a"}]"#, r#"[{"image": "a"}]"#),
        (r#"[{"name": "a"}, "b"]"#, r#"[{"name": "a"}, "b"]"#),
        (
            r#"[{"name": "a", "env": [{"name": "x", "$patch": 1}]}]"#,
            r#"[{"name": "a", "env": [{"name": "x", "$patch": 1}]}]"#,
        ),
        (
            r#"[{"name": "a", "env": [{"name": "x"}, {"value": "y"}]}, {"name": "b"}]"#,
            r#"[{"name": "a", "env": [{"name": "x"}, {"value": "y"}]}, {"name": "b", "image": "c"}]"#,
        ),
        // Fine: the engine passes them, the patch names the changed container only.
        (
            r#"[{"name": "a", "env": [{"name": "x", "value": null}]}, {"name": "b"}]"#,
            r#"[{"name": "a", "env": [{"name": "x", "value": null}]}, {"name": "b", "image": "c"}]"#,
        ),
    ];
    let untyped = Schema::untyped();
    for (a, b) in cases {
        for labels in [r#"{"x": "1"}"#, r#"{"x": "2"}"#] {
            let (a, b, c) = (
                pod(a, r#"{"x": "1"}"#),
                pod(b, labels),
                pod(a, r#"{"x": "3"}"#),
            );
            for node in [
                Node::from(pod_schema()),
                Node::from(&untyped),
                Node::from(merge_item_schema()),
            ] {
                created_agree(&[&a, &b, &c], node).unwrap();
            }
        }
    }
}
