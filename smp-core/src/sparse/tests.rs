use proptest::prelude::*;
use serde_json::Value;

use super::scan::canonical;
use super::{Route, apply_json, apply_json_routed};
use crate::error::{DocRole, PatchError};
use crate::input::parse_json;
use crate::schema::Schema;

/// What the reference writes for `text`, or `None` when the strict reader rejects it.
fn reference_canonical(text: &str) -> Option<String> {
    let value = parse_json(text, DocRole::Original).ok()?;
    serde_json::to_string(&value).ok()
}

fn assert_canonical(text: &str) {
    assert_eq!(
        canonical(text).ok(),
        reference_canonical(text),
        "canonical form of {text:?}"
    );
}

#[test]
fn canonical_matches_serde_json() {
    for text in [
        "{}",
        "[]",
        " [ ] ",
        "null",
        "true",
        "false",
        "0",
        "-0",
        "-0.0",
        "1.0",
        "1e2",
        "1E+2",
        "1e-2",
        "0.1",
        "1.5",
        "-1.5e-7",
        "1.7976931348623157e308",
        "4.9e-324",
        "2.5e-324",
        "3.0670306782690813e-301",
        "123456789012345678",
        "-123456789012345678",
        "1234567890123456789",
        "-1234567890123456789",
        "9223372036854775807",
        "9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "100000000000000000000000",
        r#""plain""#,
        r#""é ü 😀""#,
        r#""a\"b\\c\/d""#,
        r#""\b\f\n\r\t""#,
        r#""\u0000\u001f\u007f\u0080""#,
        r#""\u00e9\ud83d\ude00""#,
        "\"\u{7f}\"",
        r#"{"b": 1, "a": 2}"#,
        r#"{"b": {"d": [1, {"z": 0, "y": null}], "c": true}, "a": "x"}"#,
        r#"{"\u0062": 1, "a": 2, "\n": 3, "é": 4, "z": 5, "Z": 6, "": 7}"#,
        r#"{"aa": 1, "a": 2, "a\u0000": 3, "ab": 4}"#,
        r#"{"k": [ 1 , 2.0 , -0 , "s" , [ ] , { } ] }"#,
        "\t{\r\n\"a\" :\n[\n]\n}\n",
    ] {
        assert_canonical(text);
    }
}

#[test]
fn canonical_rejects_what_the_reader_rejects() {
    for text in [
        "",
        " ",
        "{",
        "[1,]",
        "{\"a\": 1,}",
        "{\"a\" 1}",
        "{\"a\": 1} x",
        "[01]",
        "[1.]",
        "[1e]",
        "[-]",
        "[tru]",
        "[truex]",
        "\"a\tb\"",
        "\"abc",
        "\"abc\\",
        "[\"\\x\"]",
        "[\"\\ud800\"]",
        "[\"\\u12\"]",
        "[1e999]",
        "[-1e999]",
        "\u{feff}{}",
        "[NaN]",
        r#"{"a": 1, "a": 1}"#,
        r#"{"a": 1, "b": 2, "a": 3}"#,
        r#"{"a": 1, "\u0061": 2}"#,
        r#"{"x": {"b": 1, "c": 2, "b": 3}}"#,
        r#"{"a": {"b": [1, 2}}"#,
        "{1: 2}",
    ] {
        assert!(reference_canonical(text).is_none(), "{text:?} is invalid");
        assert_eq!(canonical(text).ok(), None, "{text:?} must be rejected");
    }
}

#[test]
fn canonical_nesting_limit() {
    for depth in [127, 128, 129, 200] {
        for (open, close) in [("[", "]"), ("{\"k\":", "}")] {
            let text = open.repeat(depth) + "1" + &close.repeat(depth);
            assert_canonical(&text);
            let empty = if open == "[" {
                "[".repeat(depth) + &"]".repeat(depth)
            } else {
                open.repeat(depth - 1) + "{}" + &close.repeat(depth - 1)
            };
            assert_canonical(&empty);
        }
    }
    assert!(canonical(&("[".repeat(129) + &"]".repeat(129))).is_err());
}

/// The copy is written into room the size of the text (see `sink`): numbers written longer than
/// they are read (`1E9` is `1000000000.0`) outgrow it, and tokens copied as fixed windows meet
/// its end. Every length up to a few windows, at every position, must copy as serde_json writes.
#[test]
fn canonical_copy_outgrows_its_room() {
    for n in 0..80 {
        let numbers = format!("[{}]", vec!["1E9"; n + 1].join(","));
        assert_canonical(&numbers);
        let members: Vec<String> = (0..n).map(|i| format!("\"k{i:02}\":1E9")).collect();
        assert_canonical(&format!(
            "{{\"z\":[{}],{}}}",
            "1e300,".repeat(n) + "0",
            members.join(",")
        ));
        // A token of every length up to 40 bytes, last before the end of the text.
        let token = "x".repeat(n % 41);
        assert_canonical(&format!("{{\"b\":\"{token}\",\"a\":[\"{token}\"]}}"));
    }
}

/// A JSON text as a tree of tokens, rendered with chosen whitespace.
#[derive(Debug, Clone)]
enum Text {
    Token(String),
    Array(Vec<Text>),
    Object(Vec<(String, Text)>),
}

fn token() -> impl Strategy<Value = String> {
    const WORDS: [&str; 36] = [
        "0",
        "-0",
        "7",
        "-12",
        "1.0",
        "-0.0",
        "1e2",
        "1E+2",
        "2e-3",
        "0.1",
        "1.5e300",
        "1.7976931348623157e308",
        "5e-324",
        "123456789012345678",
        "1234567890123456789",
        "9223372036854775807",
        "9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "100000000000000000000000",
        "true",
        "false",
        "null",
        "\"\"",
        "\"x\"",
        "\"a\\\"b\"",
        "\"\\u00e9\\ud83d\\ude00\"",
        "\"\\n\\t\\/\"",
        "\"é😀\"",
        "\"\\u001f\\u007f\"",
        // Invalid ones, rarely.
        "1e999",
        "01",
        "\"\\ud800\"",
        "tru",
    ];
    prop_oneof![
        8 => prop::sample::select(&WORDS[..32]).prop_map(str::to_owned),
        1 => prop::sample::select(&WORDS[32..]).prop_map(str::to_owned),
        3 => any::<String>().prop_map(|s| serde_json::to_string(&s).unwrap_or_default()),
        2 => any::<f64>().prop_map(|f| format!("{f:e}")).prop_filter("finite", |s| !s.contains("inf") && !s.contains("NaN")),
        2 => any::<i64>().prop_map(|i| i.to_string()),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "\"a\"",
        "\"b\"",
        "\"\\u0061\"",
        "\"name\"",
        "\"Name\"",
        "\"\"",
        "\"é\"",
        "\"a\\nb\"",
        "\"aa\"",
        "\"$patch\"",
        "\"z\"",
        "\"\\\"\"",
    ])
    .prop_map(str::to_owned)
}

fn text_tree() -> impl Strategy<Value = Text> {
    token()
        .prop_map(Text::Token)
        .prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Text::Array),
                prop::collection::vec((key(), inner), 0..6).prop_map(Text::Object),
            ]
        })
}

fn ws(spaces: &mut impl Iterator<Item = u8>, out: &mut String) {
    for _ in 0..spaces.next().unwrap_or(0) % 3 {
        out.push([' ', '\n', '\t', '\r'][usize::from(spaces.next().unwrap_or(0) % 4)]);
    }
}

fn render(text: &Text, spaces: &mut impl Iterator<Item = u8>, out: &mut String) {
    ws(spaces, out);
    match text {
        Text::Token(t) => out.push_str(t),
        Text::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                render(item, spaces, out);
            }
            ws(spaces, out);
            out.push(']');
        }
        Text::Object(members) => {
            out.push('{');
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                ws(spaces, out);
                out.push_str(k);
                ws(spaces, out);
                out.push(':');
                render(v, spaces, out);
            }
            ws(spaces, out);
            out.push('}');
        }
    }
    ws(spaces, out);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    fn canonical_agrees_with_the_reader(tree in text_tree(), spaces in prop::collection::vec(any::<u8>(), 64)) {
        let mut text = String::new();
        render(&tree, &mut spaces.iter().copied().cycle(), &mut text);
        prop_assert_eq!(canonical(&text).ok(), reference_canonical(&text), "{}", text);
    }
}

fn pod_schema() -> Schema {
    let doc: Value = serde_json::from_str(include_str!("../../../examples/pod-schema.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    Schema::from_openapi(&doc, "io.k8s.api.core.v1.Pod").unwrap_or_else(|e| panic!("{e}"))
}

fn reference(original: &str, patch: &str, schema: &Schema) -> Result<String, PatchError> {
    let o = parse_json(original, DocRole::Original)?;
    let p = parse_json(patch, DocRole::Patch)?;
    let out = crate::apply_owned(o, &p, schema)?;
    Ok(serde_json::to_string(&out).unwrap_or_default())
}

fn check(original: &str, patch: &str, schema: &Schema, route: Route) {
    let (got, taken) = apply_json_routed(original, patch, schema);
    assert_eq!(
        got,
        reference(original, patch, schema),
        "{original} + {patch}"
    );
    assert_eq!(taken, route, "{original} + {patch}");
}

#[test]
fn pod_fixtures_take_the_sparse_path() {
    let schema = pod_schema();
    for (original, patch) in [
        (
            include_str!("../../benches/fixtures/pod3.json"),
            include_str!("../../benches/fixtures/pod3-image-patch.json"),
        ),
        (
            include_str!("../../benches/fixtures/pod50.json"),
            include_str!("../../benches/fixtures/pod50-image-patch.json"),
        ),
    ] {
        check(original, patch, &schema, Route::Sparse);
        check(original, "{}", &schema, Route::Sparse);
        check(original, "null", &schema, Route::Sparse);
        let ordered = r#"{"$setElementOrder/containers": [{"name": "c1"}, {"name": "c0"}],
            "spec": {"containers": [{"name": "c1", "image": "x"}]}}"#;
        check(original, ordered, &schema, Route::Sparse);
        let ordered = r#"{"spec": {"$setElementOrder/containers": [{"name": "c1"}, {"name": "c0"}],
            "containers": [{"name": "c1", "env": [{"name": "N", "value": "v"}]}]}}"#;
        check(original, ordered, &schema, Route::Sparse);
    }
}

#[test]
fn errors_are_the_readers_and_the_engines() {
    let schema = Schema::untyped();
    check("{\"a\": 1, \"a\": 2}", "{}", &schema, Route::Invalid);
    check("{\"a\": [1, 2}", "{\"b\": 1}", &schema, Route::Invalid);
    check("{\"a\": 1", "{", &schema, Route::Invalid);
    check("{}", "{\"a\": 1, \"a\": 2}", &schema, Route::Invalid);
    check(
        "{\"a\": {}}",
        "{\"a\": {\"$patch\": \"merge\"}}",
        &schema,
        Route::Sparse,
    );
    check(
        "[1]",
        "{}",
        &schema,
        Route::Reference("the original is not an object"),
    );
    check(
        "null",
        "{\"a\": 1}",
        &schema,
        Route::Reference("the original is not an object"),
    );
    check(
        "{}",
        "[1]",
        &schema,
        Route::Reference("the patch is not an object"),
    );
    assert!(matches!(
        apply_json("{\"a\": 1,}", "{}", &schema),
        Err(PatchError::InvalidDocument {
            role: DocRole::Original,
            ..
        })
    ));
}

#[test]
fn placeholder_range_numbers_fall_back() {
    let schema = Schema::untyped();
    let big = "18446744073709551615";
    // Copied as text: no collision.
    check(
        &format!("{{\"a\": {big}, \"b\": 1}}"),
        "{\"b\": 2}",
        &schema,
        Route::Sparse,
    );
    // Read in full (a list the directive names), or in the patch: the reference runs.
    check(
        &format!("{{\"a\": [{big}]}}"),
        "{\"$deleteFromPrimitiveList/a\": [1]}",
        &schema,
        Route::Reference("the original holds a placeholder-range number"),
    );
    check(
        "{\"a\": 1}",
        &format!("{{\"b\": {big}}}"),
        &schema,
        Route::Reference("the patch holds a placeholder-range number"),
    );
}

#[test]
fn deep_documents_on_a_small_stack() {
    let result = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let schema = Schema::untyped();
            for depth in [120, 127, 128, 129] {
                let nest = |leaf: &str| "{\"a\":".repeat(depth) + leaf + &"}".repeat(depth);
                let original = nest("{\"b\": [1, {\"c\": 2}], \"z\": 0}");
                for patch in [
                    nest("{\"b\": null}"),
                    nest("{\"y\": [[1]]}"),
                    "{}".to_owned(),
                ] {
                    let (got, _) = apply_json_routed(&original, &patch, &schema);
                    assert_eq!(got, reference(&original, &patch, &schema), "depth {depth}");
                }
            }
        })
        .map(|h| h.join().is_ok());
    assert!(
        matches!(result, Ok(true)),
        "deep documents failed or overflowed"
    );
}

#[test]
fn float_merge_keys_match_as_the_engine_matches_them() {
    // `0.0` and `-0.0` are one key for the engine (by `==` for short lists, by its key index
    // for lists of more than 12 items); a live item read as a patch item guides that the
    // engine does not merge into it would lose its `args`.
    let schema = pod_schema();
    for live in [3, 20] {
        let containers: Vec<String> = (0..live)
            .map(|i| format!(r#"{{"name": {i}.0, "args": ["a{i}"], "image": "i{i}"}}"#))
            .collect();
        let original = format!(
            r#"{{"spec": {{"containers": [{}]}}}}"#,
            containers.join(", ")
        );
        for key in ["-0.0", "0.0", "0", "1.0", "-1.0"] {
            let patch =
                format!(r#"{{"spec": {{"containers": [{{"name": {key}, "args": ["b"]}}]}}}}"#);
            check(&original, &patch, &schema, Route::Sparse);
        }
    }
}

/// How many items reading the list `list` as runs keeps for `patch` (a list merged by `name`),
/// or `None` when it gives up; then the scanner must be back at the list's start.
fn runs_kept(list: &str, patch: &str) -> Option<usize> {
    let patch: Value = serde_json::from_str(patch).unwrap_or_else(|e| panic!("{e}"));
    let schema = Schema::untyped();
    let mut sc = super::scan::Scanner::new(list);
    let items = patch.as_array().map(Vec::as_slice).unwrap_or_default();
    let read = super::runs::list(&mut sc, items, "name", (&schema).into());
    match read {
        Ok(Some(Value::Array(kept))) => Some(kept.len()),
        Ok(_) => {
            assert!(
                sc.skip_value().is_ok() && sc.finish().is_ok(),
                "not back at the start: {list}"
            );
            None
        }
        Err(e) => panic!("{list}: {e:?}"),
    }
}

#[test]
fn lists_read_as_runs_when_the_engine_keeps_their_order() {
    let p = |names: &[&str]| {
        let items: Vec<String> = names
            .iter()
            .map(|n| format!(r#"{{"name": {n}, "image": "new"}}"#))
            .collect();
        format!("[{}]", items.join(","))
    };
    let item = |n: &str| format!(r#"{{"name": {n}, "image": "old", "args": ["x"]}}"#);
    let live = |names: &[&str]| {
        let items: Vec<String> = names.iter().map(|n| item(n)).collect();
        format!("[{}]", items.join(", "))
    };
    let abc = live(&[r#""a""#, r#""b""#, r#""c""#]);
    // Named items kept, the others in runs: before, after, between, none.
    assert_eq!(runs_kept(&abc, &p(&[r#""b""#])), Some(1));
    assert_eq!(runs_kept(&abc, &p(&[r#""a""#, r#""c""#])), Some(2));
    assert_eq!(
        runs_kept(&abc, &p(&[r#""a""#, r#""b""#, r#""c""#])),
        Some(3)
    );
    // The key anywhere in the item; integer keys; many items (hashed keys).
    let later = r#"[{"image": "i", "name": "a"}, {"args": [], "name": "b"}]"#;
    assert_eq!(runs_kept(later, &p(&[r#""b""#])), Some(1));
    assert_eq!(runs_kept(later, &p(&[r#""a""#])), Some(1));
    assert_eq!(runs_kept(&live(&["1", "20", "300"]), &p(&["20"])), Some(1));
    let many: Vec<String> = (0..40).map(|i| format!("\"n{i}\"")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    assert_eq!(
        runs_kept(&live(&many), &p(&[r#""n17""#, r#""n39""#])),
        Some(2)
    );

    // Otherwise the engine may reorder, append, delete or fail: read the general way.
    let gives_up = [
        (abc.clone(), p(&[r#""c""#, r#""a""#])),
        (abc.clone(), p(&[r#""z""#])),
        (abc.clone(), p(&[r#""b""#, r#""b""#])),
        (abc.clone(), "[]".to_owned()),
        (
            abc.clone(),
            r#"[{"name": "b", "$patch": "delete"}]"#.to_owned(),
        ),
        (
            abc.clone(),
            r#"[{"name": "b", "$retainKeys": ["name"]}]"#.to_owned(),
        ),
        (abc.clone(), r#"[{"image": "new"}]"#.to_owned()),
        (abc.clone(), r#"[{"name": null}]"#.to_owned()),
        (
            abc.clone(),
            r#"[{"name": "b", "\u0000smp-sparse:run-before": 1}]"#.to_owned(),
        ),
        ("[]".to_owned(), p(&[r#""a""#])),
        (live(&[r#""a""#, r#""b""#, r#""a""#]), p(&[r#""b""#])),
        (live(&[r#""a""#, r#""b\u0041""#]), p(&[r#""a""#])),
        (live(&[r#""a""#, "1.0"]), p(&[r#""a""#])),
        (live(&[r#""a""#, "-0"]), p(&[r#""a""#])),
        (
            r#"[{"name": "a"}, {"image": "i"}]"#.to_owned(),
            p(&[r#""a""#]),
        ),
        (r#"[{"name": "a"}, "b"]"#.to_owned(), p(&[r#""a""#])),
        (
            r#"[{"name": "a"}, {"name": "b", "\u0000smp-sparse:run-before": 1}]"#.to_owned(),
            p(&[r#""b""#]),
        ),
    ];
    for (list, patch) in &gives_up {
        assert_eq!(runs_kept(list, patch), None, "{list} + {patch}");
    }

    // Either way, the result is the reference's.
    let untyped = Schema::untyped();
    let schema = pod_schema();
    let kept = [
        (abc.clone(), p(&[r#""b""#])),
        (abc.clone(), p(&[r#""a""#, r#""c""#])),
        (later.to_owned(), p(&[r#""b""#])),
        (live(&["1", "20", "300"]), p(&["20"])),
    ];
    for (list, patch) in gives_up.iter().chain(&kept) {
        let original = format!(r#"{{"spec": {{"containers": {list}}}}}"#);
        let patch = format!(r#"{{"spec": {{"containers": {patch}}}}}"#);
        check(&original, &patch, &schema, Route::Sparse);
        check(&original, &patch, &untyped, Route::Sparse);
    }
}

#[test]
fn unnamed_members_are_copied_together_and_merged_back_by_key() {
    let untyped = Schema::untyped();
    let schema = pod_schema();
    let original = r#"{"b": 1, "\u0062b": {"x": [1, 2]}, "": 0, "\u0000a": "nul",
        "d": {"z": 1, "a": 2}, "a\"q": true, "c": [3], "e": "E"}"#;
    for patch in [
        "{}",
        r#"{"c": [4]}"#,
        r#"{"bc": 1, "a": 2, "bba": 3, "f": 4, "": null, "d": {"m": 5}}"#,
        r#"{"d": {"$patch": "replace", "n": 1}}"#,
        r#"{"d": {"$retainKeys": ["z"], "z": 2}}"#,
        r#"{"$retainKeys": ["b", "e"], "e": "F"}"#,
        r#"{"$patch": "replace", "q": 1}"#,
        r#"{"$patch": "delete"}"#,
        r#"{"$setElementOrder/c": [3], "c": [3]}"#,
        r#"{"$deleteFromPrimitiveList/c": [3]}"#,
        r#"{"a\"q": null, "\u0000a": "x"}"#,
    ] {
        check(original, patch, &untyped, Route::Sparse);
    }
    // A live member named as the hidden member that holds the rest: each member on its own.
    let hidden = r#"{"b": 1, "\u0000smp-sparse:rest": {"k": 1}, "a": 2, "c": 3}"#;
    check(hidden, r#"{"c": 4}"#, &untyped, Route::Sparse);
    check(
        hidden,
        r#"{"\u0000smp-sparse:rest": 1}"#,
        &untyped,
        Route::Sparse,
    );
    // Repeated keys among the unnamed members, and between an unnamed and a later one.
    check(
        r#"{"b": 1, "a": 2, "b": 3}"#,
        r#"{"c": 1}"#,
        &untyped,
        Route::Invalid,
    );
    check(
        r#"{"b": 1, "c": 2, "c": 3}"#,
        r#"{"c": 1}"#,
        &untyped,
        Route::Invalid,
    );
    // Typed: a container read as the patch guides, its other members copied together.
    let pod = r#"{"spec": {"containers": [{"name": "a", "image": "i", "args": ["x"],
        "env": [{"name": "E", "value": "1"}], "ports": [{"containerPort": 80}]}]}}"#;
    for patch in [
        r#"{"spec": {"containers": [{"name": "a", "image": "j"}]}}"#,
        r#"{"spec": {"containers": [{"name": "a", "env": [{"name": "F"}]}]}}"#,
        r#"{"spec": {"containers": [{"name": "a", "$retainKeys": ["name"]}]}}"#,
    ] {
        check(pod, patch, &schema, Route::Sparse);
    }
}
