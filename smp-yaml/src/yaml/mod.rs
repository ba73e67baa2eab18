//! YAML input and output, read and written the way kubectl does.
//!
//! kubectl reads YAML with sigs.k8s.io/yaml over go-yaml v2, i.e. YAML 1.1 scalar resolution
//! (`on` is `true`, `0755` is 493), then converts to JSON. The block YAML manifests are written
//! in is read a line at a time by `fast`; anything else goes to the full loader, for which
//! `yaml-rust2` supplies the parser events and documents are assembled in `load`. Scalar meaning
//! is decided in `resolve`, for both.
//!
//! Mapping keys become JSON member names as sigs.k8s.io/yaml makes them: strings as they are,
//! `true`/`false`, integers in decimal, floats formatted like Go's
//! `FormatFloat(f, 'g', -1, 32)` (so `1e6` becomes `"1e+06"`). A null key (`~`, empty) and a
//! key that is a mapping or sequence are errors, as is a key defined twice in one mapping.

mod emit;
mod fast;
mod float_key;
mod key_order;
mod load;
mod resolve;

use serde_json::Value;

use crate::error::ReadError;

pub use emit::to_yaml_string;

/// Parses every document of a YAML stream. Empty documents are `Value::Null`.
///
/// Limits, each an error naming the position: characters outside YAML's printable set (a NUL,
/// other control characters), nesting deeper than 128 levels, and aliases that expand the
/// stream by more than its own size in bytes plus 1,000,000 units (one unit per value an alias
/// copies plus one per byte of its strings and keys; anchors themselves cost nothing).
pub fn parse_yaml_documents(text: &str) -> Result<Vec<Value>, ReadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    load::load_documents(text, false).map_err(|e| ReadError::invalid(e.message))
}

/// A YAML stream's documents as texts of their own, to read one at a time (with
/// [`parse_yaml_documents`], each giving one document) rather than all at once: `Some` when
/// the stream is in the block style manifests are written in (what this crate reads fastest),
/// so that every text reads as the document the stream holds there; `None` for anything else
/// (and for text that starts like JSON), which is read whole. Knowing that takes reading every
/// document: a stream of a megabyte or more is read on every core.
///
/// ```
/// let stream = "a: 1\n---\nb:\n- x\n";
/// let parts = smp_yaml::split_documents(stream).unwrap();
/// assert_eq!(parts, ["a: 1\n", "b:\n- x\n"]);
/// assert!(smp_yaml::split_documents("a: &x 1\n---\nb: *x\n").is_none());
/// ```
pub fn split_documents(text: &str) -> Option<Vec<&str>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim_start().starts_with(['{', '[']) {
        return None;
    }
    fast::split_documents(text)
}

/// Reads text that starts like JSON but is not JSON as YAML (see `crate::parse_document`).
pub(crate) fn load_json_like(text: &str) -> Result<Vec<Value>, load::LoadError> {
    load::load_documents(text, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::tests::{arb_string, arb_value, detail, on_small_stack};
    use proptest::prelude::*;
    use serde_json::json;

    fn docs(text: &str) -> Vec<Value> {
        parse_yaml_documents(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    fn one(text: &str) -> Value {
        match docs(text).as_slice() {
            [v] => v.clone(),
            other => panic!("{text:?}: expected one document, got {other:?}"),
        }
    }

    fn err(text: &str) -> String {
        detail(parse_yaml_documents(text))
    }

    #[test]
    fn scalars_in_documents() {
        let v = one(concat!(
            "a: yes\nb: off\nc: ~\nd:\ne: 0755\nf: 0x1F\ng: 1_000\nh: 1.0\ni: 1.5\n",
            "j: '1'\nk: \"on\"\nl: |\n  text\nm: >\n  folded\n  line\nts: 2001-12-14\n",
            "o: 9223372036854775807\np: -9223372036854775808\nq: 18446744073709551615\n",
        ));
        let want = json!({
            "a": true, "b": false, "c": null, "d": null, "e": 493, "f": 31, "g": 1000, "h": 1,
            "i": 1.5, "j": "1", "k": "on", "l": "text\n", "m": "folded line\n", "ts": "2001-12-14",
            "o": i64::MAX, "p": i64::MIN, "q": u64::MAX,
        });
        assert_eq!(v, want);
        assert!(v["h"].is_i64() && v["i"].is_f64());
        assert_eq!(v["o"].as_i64(), Some(i64::MAX));
        assert_eq!(v["q"].as_u64(), Some(u64::MAX));
        assert_eq!(one("- 1\n- x\n"), json!([1, "x"]));
        assert_eq!(one("plain words"), json!("plain words"));
    }

    #[test]
    fn scalar_errors() {
        assert!(err("a: .inf").contains("not representable in JSON at line 1, column 4"));
        assert!(err("a: [.nan]").contains("not representable in JSON"));
        assert!(err("a: 18446744073709551616").contains("integer out of range"));
        assert!(err("a: !!int abc").contains("cannot decode !!str `abc` as a !!int"));
    }

    #[test]
    fn tags() {
        let v = one(concat!(
            "a: !!str 1\nb: !!int \"12\"\nc: !!float 2\nd: !!bool 'yes'\ne: !!null ''\n",
            "f: !!map {x: 1}\ng: !!seq [1]\nh: !custom 0x10\ni: ! yes\nj: !custom {k: on}\n",
            "k: !<tag:yaml.org,2002:str> 5\n",
        ));
        let want = json!({
            "a": "1", "b": 12, "c": 2, "d": true, "e": null, "f": {"x": 1}, "g": [1], "h": 16,
            "i": "yes", "j": {"k": true}, "k": "5",
        });
        assert_eq!(v, want);
        assert!(err("a: !!seq {x: 1}").contains("cannot use !!seq on a mapping"));
        assert!(err("a: !!map [1]").contains("cannot use !!map on a sequence"));
        assert!(err("a: !!str [1]").contains("cannot use !!str on a sequence"));
    }

    #[test]
    fn keys_become_strings() {
        let v = one("1: a\non: c\n1.5: d\n0x10: e\n\"q\": f\n1e6: g\nn: h\n");
        let want = json!({
            "1": "a", "true": "c", "1.5": "d", "16": "e", "q": "f", "1e+06": "g", "false": "h",
        });
        assert_eq!(v, want);
        // `true` and `on` are the same key.
        assert!(err("true: b\non: c\n").contains("mapping key \"true\" already defined"));
        assert!(err("~: a").contains("null mapping key"));
        assert!(err("? [a]\n: b\n").contains("a mapping key must be a scalar, found a sequence"));
        assert!(err("{? {a: 1} : b}").contains("found a mapping"));
    }

    #[test]
    fn duplicate_keys_name_key_path_and_position() {
        let text = "spec:\n  containers:\n  - name: a\n    image: x\n    name: b\n";
        let d = err(text);
        assert_eq!(
            d,
            "mapping key \"name\" already defined at spec.containers[0] at line 5, column 5"
        );
        assert!(err("a: 1\na: 2\n").contains("\"a\" already defined at (root)"));
        assert!(err("{a: 1, a: 2}").contains("already defined"));
        assert!(err("1: x\n\"1\": y\n").contains("\"1\" already defined"));
    }

    #[test]
    fn parser_errors_have_positions() {
        let d = err("a: 1\n b: 2\n");
        assert!(d.contains("line 2, column"), "{d}");
        let d = err("a: [1, 2\n");
        assert!(d.contains("line"), "{d}");
        assert!(err("a: *nope").contains("unknown anchor"));
        assert!(err("a:\n\t- x\n").contains("tabs"));
    }

    #[test]
    fn multi_document_streams() {
        assert_eq!(docs(""), Vec::<Value>::new());
        assert_eq!(docs("# c\n"), Vec::<Value>::new());
        assert_eq!(docs("a: 1\n"), vec![json!({"a": 1})]);
        assert_eq!(docs("---\na: 1\n"), vec![json!({"a": 1})]);
        assert_eq!(docs("a: 1\n...\n"), vec![json!({"a": 1})]);
        assert_eq!(
            docs("---\na: 1\n---\nb: 2\n...\n---\n- 3\n"),
            vec![json!({"a": 1}), json!({"b": 2}), json!([3])]
        );
        assert_eq!(docs("a: 1\n---\n"), vec![json!({"a": 1}), Value::Null]);
        assert_eq!(docs("---\n---\n"), vec![Value::Null, Value::Null]);
        // Anchors are scoped to their document.
        assert!(err("a: &x 1\n---\nb: *x\n").contains("alias to an anchor"));
    }

    #[test]
    fn anchors_and_merge_keys() {
        let v = one(concat!(
            "base: &base {a: 1, b: 2}\nextra: &extra {c: 3, a: 9}\n",
            "one:\n  <<: *base\n  b: 20\n",
            "many:\n  b: 20\n  <<: [*base, *extra]\n",
            "inline:\n  <<: {z: 0}\n",
            "list: &l [1, 2]\ncopy: *l\nscalar: &s hello\nagain: *s\n",
            "*s : aliased-key\n",
            "quoted:\n  \"<<\": literal\n",
        ));
        assert_eq!(v["one"], json!({"a": 1, "b": 20}));
        assert_eq!(v["many"], json!({"a": 1, "b": 20, "c": 3}));
        assert_eq!(v["inline"], json!({"z": 0}));
        assert_eq!(v["copy"], json!([1, 2]));
        assert_eq!(v["again"], json!("hello"));
        assert_eq!(v["hello"], json!("aliased-key"));
        assert_eq!(v["quoted"], json!({"<<": "literal"}));
        assert!(err("a: &a [*a]").contains("not complete"));
        assert!(err("a: &a 1\nb:\n  <<: *a\n").contains("merge key"));
        assert!(err("b:\n  <<: [1]\n").contains("merge key"));
    }

    #[test]
    fn alias_bombs_are_stopped() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let refs = vec![format!("*a{}", i - 1); 10].join(", ");
            text.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
        }
        assert!(err(&text).contains("aliases expand to more than"));
    }

    /// The budget counts bytes: a big scalar costs its size at every alias.
    #[test]
    fn aliases_are_charged_by_bytes() {
        let big = "x".repeat(200_000);
        let text = |aliases: usize| {
            let mut t = format!("a: &a {big}\nb: [");
            t.push_str(&vec!["*a"; aliases].join(", "));
            t.push_str("]\n");
            t
        };
        // 200,001 units each; the limit is the text's size (about 200 KB) plus 1,000,000.
        let v = one(&text(6));
        assert_eq!(v["b"].as_array().map(Vec::len), Some(6));
        assert_eq!(v["b"][5], json!(big));
        let d = err(&text(7));
        assert!(d.starts_with("aliases expand to more than 1200"), "{d}");
        assert!(
            d.ends_with("at line 2, column 29"),
            "the seventh alias: {d}"
        );
        // The reported case: a 1 MB scalar behind 1,000 aliases.
        let huge = format!(
            "a: &a {}\nb: [{}]\n",
            "y".repeat(1 << 20),
            vec!["*a"; 1000].join(",")
        );
        assert!(err(&huge).contains("aliases expand to more than"));
        // Keys and strings inside collections count too.
        let map = format!(
            "m: &m {{{}: v}}\nc: [{}]\n",
            "k".repeat(100_000),
            ["*m"; 12].join(",")
        );
        assert!(err(&map).contains("aliases expand to more than"));
    }

    /// The budget is for the whole stream, not per document, so that many documents cannot
    /// each expand to it.
    #[test]
    fn alias_budget_is_per_stream() {
        // 400,004 units per document.
        let doc = format!("a: &a {}\nb: [*a, *a, *a, *a]\n", "z".repeat(100_000));
        let two = [doc.as_str(); 2].join("---\n");
        assert_eq!(docs(&two).len(), 2);
        let five = [doc.as_str(); 5].join("---\n");
        assert!(err(&five).contains("aliases expand to more than 1500"));
    }

    /// An anchor alone copies nothing (120 nested anchors used to copy the list 120 times);
    /// each alias makes one copy.
    #[test]
    fn anchors_do_not_copy() {
        let list = format!("[{}]", vec!["1"; 10_000].join(","));
        let mut nested = list.clone();
        for i in 0..120 {
            nested = format!("&a{i} [{nested}]");
        }
        let text = format!("a: {nested}\n");
        assert_eq!(load::copies_made(&text), 0);
        let level = |v: &Value, n: usize| (0..n).fold(v.clone(), |v, _| v[0].clone());
        let v = one(&text);
        assert_eq!(level(&v["a"], 120).as_array().map(Vec::len), Some(10_000));
        // An alias to the innermost anchor copies one list; one to the outermost copies each of
        // the 120 levels (each level's copy refers to the next).
        assert_eq!(load::copies_made(&format!("{text}b: *a0\n")), 1);
        let aliased = format!("{text}b: *a0\nc: *a119\n");
        assert_eq!(load::copies_made(&aliased), 121);
        let v = one(&aliased);
        assert!(v["b"] == level(&v["a"], 119) && v["c"] == v["a"]);
    }

    /// Shared collections end up where the document puts them, however they nest.
    #[test]
    fn shared_collections_are_filled_in_place() {
        let v = one(concat!(
            "a: &a {x: &x [1, {k: &k {z: 2}}], w: *k}\n",
            "b: [*a, *x, *k, {<<: *a, x: 0}]\n",
            "c: &c {<<: &m {p: *k, q: 1}, r: *m}\n",
            "d: *c\n",
        ));
        let y = json!({"z": 2});
        let x = json!([1, {"k": y}]);
        let a = json!({"x": x, "w": y});
        assert_eq!(v["a"], a);
        assert_eq!(v["b"], json!([a, x, y, {"x": 0, "w": y}]));
        let c = json!({"p": y, "q": 1, "r": {"p": y, "q": 1}});
        assert_eq!(v["c"], c);
        assert_eq!(v["d"], c);
    }

    #[test]
    fn nesting_limit() {
        let flow = |n: usize| "[".repeat(n) + &"]".repeat(n);
        assert!(parse_yaml_documents(&flow(128)).is_ok());
        assert!(err(&flow(129)).contains("nesting deeper than 128 levels"));
        // An alias can carry depth without new nesting events.
        let text = format!("a: &a {}\nb: [*a]\n", flow(127));
        assert!(err(&text).contains("nesting deeper than 128 levels at b"));
    }

    #[test]
    fn deep_documents_fail_on_a_small_stack() {
        let (flow, block) = on_small_stack(|| {
            let flow = "[".repeat(10_000) + &"]".repeat(10_000);
            let mut block = String::new();
            for depth in 0..10_000 {
                block.extend(std::iter::repeat_n(' ', depth));
                block.push_str("a:\n");
            }
            (err(&flow), err(&block))
        });
        assert!(flow.contains("nesting deeper than 128 levels"), "{flow}");
        assert!(
            block.contains("nesting deeper than 128 levels at a.a.a"),
            "{block}"
        );
    }

    #[test]
    fn kubectl_layout() {
        let v = json!({
            "apiVersion": "v1",
            "spec": {
                "containers": [{"name": "a", "args": ["--v=2", "-x"], "ports": []}, {}],
                "empty": {},
                "matrix": [[1, 2], []],
                "notes": "line 1\nline 2\n",
            },
            "flags": ["yes", "1", "", " a", "a: b", "- x", "#c", "1:20", "2001-12-14", "it's"],
        });
        let want = concat!(
            "apiVersion: v1\n",
            "flags:\n",
            "- \"yes\"\n- \"1\"\n- \"\"\n- ' a'\n- 'a: b'\n- '- x'\n- '#c'\n- \"1:20\"\n",
            "- \"2001-12-14\"\n- it's\n",
            "spec:\n",
            "  containers:\n",
            "  - args:\n    - --v=2\n    - -x\n    name: a\n    ports: []\n",
            "  - {}\n",
            "  empty: {}\n",
            "  matrix:\n  - - 1\n    - 2\n  - []\n",
            "  notes: |\n    line 1\n    line 2\n",
        );
        assert_eq!(to_yaml_string(&v), want);
        assert_eq!(one(want), v);
    }

    #[test]
    fn scalar_roots_and_empty_collections() {
        for (v, text) in [
            (json!({}), "{}\n"),
            (json!([]), "[]\n"),
            (Value::Null, "null\n"),
            (json!(1.5), "1.5\n"),
            (json!("on"), "\"on\"\n"),
            (json!("a\nb"), "|-\n  a\n  b\n"),
        ] {
            assert_eq!(to_yaml_string(&v), text);
            assert_eq!(one(text), v);
        }
    }

    #[test]
    fn quoting_styles() {
        for (s, printed) in [
            ("plain", "plain"),
            ("-a", "-a"),
            ("a,b", "a,b"),
            ("a:b", "a:b"),
            ("it's", "it's"),
            ("é", "é"),
            ("true", "\"true\""),
            ("0755", "\"0755\""),
            ("=", "\"=\""),
            ("12:30", "\"12:30\""),
            // kubectl's own output: go-yaml escapes tabs and everything past U+FFFF.
            ("a\tb", "\"a\\tb\""),
            ("x \ty", "\"x \\ty\""),
            ("line1\n\tline2\n", "\"line1\\n\\tline2\\n\""),
            ("smile \u{1F600}", "\"smile \\U0001F600\""),
            ("é ü", "é ü"),
            ("'q'", "'''q'''"),
            ("a\u{7}", "\"a\\a\""),
            ("\u{2028}", "\"\\L\""),
            ("\u{9f}", "\"\\x9F\""),
            ("\u{fffe}", "\"\\uFFFE\""),
        ] {
            assert_eq!(to_yaml_string(&json!(s)), format!("{printed}\n"), "{s:?}");
        }
    }

    /// go-yaml folds long values at a space once a line holds more than 80 characters, and
    /// kubectl's `-o yaml` shows it; these are kubectl's own outputs.
    #[test]
    fn long_values_fold_as_go_yaml_folds_them() {
        let v = json!({"spec": {"validations": [{
            "messageExpression": "'replicas must be at most ' + string(variables.maxReplicas) + ' for team ' + variables.team",
            "reason": "Invalid"
        }]}, "status": {"typeChecking": {"expressionWarnings": [{
            "fieldRef": "spec.auditAnnotations[0].valueExpression",
            "warning": "apps/v1, Kind=Deployment: estimated cost exceeds budget by factor of 1.2x"
        }]}}});
        let want = "spec:\n  validations:\n  - messageExpression: '''replicas must be at most '' + string(variables.maxReplicas)\n      + '' for team '' + variables.team'\n    reason: Invalid\nstatus:\n  typeChecking:\n    expressionWarnings:\n    - fieldRef: spec.auditAnnotations[0].valueExpression\n      warning: 'apps/v1, Kind=Deployment: estimated cost exceeds budget by factor\n        of 1.2x'\n";
        assert_eq!(to_yaml_string(&v), want);
        assert_eq!(one(want), v);
    }

    #[test]
    fn folding_keeps_every_string() {
        let words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor";
        for s in [
            format!("{words} {words} {words}"),
            format!("{words}  {words}   {words} "),
            format!("'{words}': {words} {words} x"),
            format!("{words}\u{7} {words}  {words} \u{85} {words}"),
            "x".repeat(200),
            format!("{} {}", "x".repeat(100), "y".repeat(100)),
        ] {
            let v = json!({"key": s, "list": [s, {"k": s}]});
            let text = to_yaml_string(&v);
            assert_eq!(one(&text), v, "{text}");
            let key = json!({s.clone(): 1});
            let text = to_yaml_string(&key);
            assert_eq!(one(&text), key, "{text}");
            // Up to 128 bytes a key is implicit, and never folded; a longer one is explicit
            // (`? key`) and folds as a value does, as in kubectl's output.
            let short: String = s.chars().take(120).collect();
            let text = to_yaml_string(&json!({short.clone(): 1}));
            assert_eq!(
                text.lines().count(),
                1,
                "implicit keys are never folded: {text}"
            );
        }
    }

    #[test]
    fn tricky_strings_round_trip() {
        let long_key = "k".repeat(2000);
        let strings = [
            "yes",
            "no",
            "1",
            "-1",
            "1.5",
            "1e3",
            "0x1F",
            "0o7",
            "0755",
            "1_000",
            ".5",
            ".inf",
            "null",
            "Null",
            "~",
            "",
            " a",
            "a ",
            "\ta",
            "a: b",
            "a:",
            "a:b",
            "- x",
            "-",
            "-a",
            "--",
            "---",
            "--- a",
            "...",
            "? a",
            "?",
            ":",
            ":a",
            "#c",
            "a #c",
            "a#c",
            "{a}",
            "[a]",
            "*a",
            "&a",
            "!a",
            "|",
            ">",
            "'",
            "\"",
            "%a",
            "@a",
            "`a",
            ",a",
            "a,b",
            "<<",
            "=",
            "1:20",
            "2001-12-14",
            "a\nb",
            "a\n",
            "a\n\n",
            "\na",
            "\n",
            " a\nb",
            "a\n b",
            "a \n b\t\n",
            "\r\n",
            "a\u{85}b",
            "a\u{2028}b",
            "\u{feff}",
            "\u{0}\u{7}\u{1b}\u{7f}",
            "\u{9f}",
            "é ü 😀",
            "\u{a0}",
            "a\"b'c\\d",
            "日本語: テスト",
            &long_key,
        ];
        for s in strings {
            let value = json!({ s: s, "list": [s, {s: [s]}] });
            let text = to_yaml_string(&value);
            let back = parse_yaml_documents(&text);
            assert_eq!(back, Ok(vec![value]), "{s:?} printed as:\n{text}");
            let root = json!(s);
            let text = to_yaml_string(&root);
            assert_eq!(parse_yaml_documents(&text), Ok(vec![root]), "{text}");
        }
    }

    #[test]
    fn deep_values_print_without_recursion() {
        let text = on_small_stack(|| {
            let mut v = json!("leaf");
            for i in 0..5_000 {
                // Not `json!`: it would serialize `v` recursively.
                v = if i % 2 == 0 {
                    Value::Array(vec![v])
                } else {
                    Value::Object([("k".to_string(), v)].into_iter().collect())
                };
            }
            let text = to_yaml_string(&v);
            // Dropping a deep Value recurses inside serde_json; keep it off this small stack.
            std::mem::forget(v);
            text
        });
        assert!(text.ends_with("leaf\n"));
    }

    /// What a value reads back as: Go prints integral floats as integers.
    fn normalized(v: &Value) -> Value {
        match v {
            Value::Number(n) => match n.as_f64() {
                Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 9.2e18 => json!(f as i64),
                _ => v.clone(),
            },
            Value::Array(items) => Value::Array(items.iter().map(normalized).collect()),
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), normalized(v)))
                    .collect(),
            ),
            _ => v.clone(),
        }
    }

    proptest! {
        #[test]
        fn yaml_round_trip(v in arb_value()) {
            let text = to_yaml_string(&v);
            let back = parse_yaml_documents(&text);
            prop_assert_eq!(back, Ok(vec![normalized(&v)]), "printed as:\n{}", text);
        }

        #[test]
        fn strings_round_trip(s in arb_string()) {
            let v = json!({ s.clone(): [s.clone(), {"k": s}] });
            let text = to_yaml_string(&v);
            prop_assert_eq!(parse_yaml_documents(&text), Ok(vec![v]), "{}", text);
        }

        #[test]
        fn arbitrary_text_never_panics(
            text in "[-:#&*!|>'\"%@`{}\\[\\],? .~0-9a-z<\n\t]{0,48}"
        ) {
            let _ = parse_yaml_documents(&text);
        }
    }
}
