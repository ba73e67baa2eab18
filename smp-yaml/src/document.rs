//! Whole documents read the way kubectl reads a manifest: JSON, or YAML with YAML 1.1 scalar
//! rules, and the typed reading on top.
//!
//! Nothing here panics or drops data silently: a duplicate key, a number JSON cannot hold,
//! nesting past 128 levels, a character YAML does not allow (a NUL would otherwise end the
//! input), or YAML aliases that expand past the input's size plus 1,000,000 units is a
//! [`ReadError::Invalid`] naming where it happened.

use serde_core::de::DeserializeOwned;
use serde_json::Value;

use crate::error::ReadError;
use crate::json;
use crate::path::{JsonPath, Segment};
#[cfg(feature = "yaml")]
use crate::yaml::{load_json_like, parse_yaml_documents};

/// Parses one document given as JSON or YAML text. Empty/whitespace-only text and a document
/// that is `null` yield `Value::Null` (callers decide what an absent document means).
///
/// Text starting with `{` or `[` is read as strict JSON. If it is not JSON because of its
/// syntax, it is read as YAML (whose flow syntax allows unquoted keys and strings, single
/// quotes, trailing commas, `---` between documents), except that what JSON dialects add is an
/// error there instead of a string: an unquoted `NaN` or `Infinity` (any case, optional sign;
/// also `inf`), and a `//` or `/*` comment (an unquoted scalar starting with one, or with one
/// after a space or tab). A JSON error that no other reading can fix (a duplicate key, a number
/// out of range, nesting too deep) is reported as is. When the YAML reading fails too, its error
/// is reported if it is about content (a duplicate key, a character YAML does not allow, ...),
/// and the JSON error if it is one of syntax. A root that is a scalar is returned as is;
/// callers check for objects.
///
/// ```
/// let doc = smp_yaml::parse_document("metadata: {name: web}\nspec: {paused: on}\n").unwrap();
/// assert_eq!(doc["spec"]["paused"], true);
/// let err = smp_yaml::parse_document("a: 1\na: 2\n").unwrap_err();
/// assert!(err.to_string().contains("key \"a\" already defined"), "{err}");
/// ```
pub fn parse_document(text: &str) -> Result<Value, ReadError> {
    let docs = match json_or_yaml(text)? {
        Parsed::Json(value) => return Ok(value),
        Parsed::Stream(docs) => docs,
    };
    let count = docs.len();
    let mut docs = docs.into_iter();
    match (docs.next(), count) {
        (None, _) => Ok(Value::Null),
        (Some(doc), 1) => Ok(doc),
        _ => Err(ReadError::invalid(format!(
            "expected one document, found {count}"
        ))),
    }
}

/// Parses a multi-document YAML stream (`---` separators) or a single JSON document.
///
/// Empty documents are kept as `Value::Null` so the caller decides what they mean; text with
/// no document at all (empty, or only comments) gives an empty list.
pub fn parse_documents(text: &str) -> Result<Vec<Value>, ReadError> {
    Ok(match json_or_yaml(text)? {
        Parsed::Json(value) => vec![value],
        Parsed::Stream(docs) => docs,
    })
}

/// Reads one document of JSON or YAML text into a typed value, as kubectl reads a manifest:
/// the same reader as [`parse_document`] (YAML 1.1 scalars, duplicate keys refused, bounded
/// nesting), then serde. A value that does not fit `T` is a [`ReadError::Deserialize`] naming
/// the JSON path where it failed (`spec.replicas: invalid type: ...`).
///
/// ```
/// use serde::Deserialize;
///
/// #[derive(Debug, Deserialize)]
/// struct Deployment { spec: Spec }
/// #[derive(Debug, Deserialize)]
/// struct Spec { replicas: u32 }
///
/// let d: Deployment = smp_yaml::from_str("spec:\n  replicas: 3\n").unwrap();
/// assert_eq!(d.spec.replicas, 3);
/// let e = smp_yaml::from_str::<Deployment>("spec: {replicas: three}").unwrap_err();
/// assert!(e.to_string().starts_with("at spec.replicas: invalid type: string"), "{e}");
/// ```
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, ReadError> {
    from_value(parse_document(text)?)
}

/// Reads every document of a JSON document or a YAML stream into typed values, skipping empty
/// documents as kubectl does; see [`from_str`].
pub fn from_str_all<T: DeserializeOwned>(text: &str) -> Result<Vec<T>, ReadError> {
    parse_documents(text)?
        .into_iter()
        .filter(|doc| !doc.is_null())
        .map(from_value)
        .collect()
}

/// Deserializes a document, naming the JSON path of a value that does not fit.
pub fn from_value<T: DeserializeOwned>(doc: Value) -> Result<T, ReadError> {
    serde_path_to_error::deserialize(doc).map_err(|e| {
        let path = e
            .path()
            .iter()
            .filter_map(|segment| match segment {
                serde_path_to_error::Segment::Seq { index } => Some(Segment::Index(*index)),
                serde_path_to_error::Segment::Map { key } => Some(Segment::Field(key.clone())),
                serde_path_to_error::Segment::Enum { variant } => {
                    Some(Segment::Field(variant.clone()))
                }
                serde_path_to_error::Segment::Unknown => None,
            })
            .collect();
        ReadError::Deserialize {
            path: JsonPath(path),
            detail: e.into_inner().to_string(),
        }
    })
}

/// Strict JSON: like `serde_json::from_str`, but a duplicate key in any object is an error
/// naming the key and its JSON path (e.g. `spec.containers[0]`), and nesting deeper than 128
/// is an error that says so ("nesting deeper than 128 levels").
pub fn parse_json(text: &str) -> Result<Value, ReadError> {
    json::parse(text).map_err(|e| ReadError::invalid(e.message))
}

/// What a text held: one JSON document, or a stream of documents (YAML's, or no document at
/// all).
enum Parsed {
    Json(Value),
    Stream(Vec<Value>),
}

#[cfg(feature = "yaml")]
fn json_or_yaml(text: &str) -> Result<Parsed, ReadError> {
    // A byte-order mark is an encoding marker, never content.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if !text.trim_start().starts_with(['{', '[']) {
        return parse_yaml_documents(text).map(Parsed::Stream);
    }
    let json_error = match json::parse(text) {
        Ok(value) => return Ok(Parsed::Json(value)),
        Err(e) if e.definite => return Err(ReadError::invalid(e.message)),
        Err(e) => e,
    };
    match load_json_like(text) {
        Ok(docs) => Ok(Parsed::Stream(docs)),
        Err(yaml) if yaml.syntax => Err(ReadError::invalid(json_error.message)),
        Err(yaml) => Err(ReadError::invalid(yaml.message)),
    }
}

/// Without the `yaml` feature: JSON only. Text with no document (empty or blank) is an empty
/// stream, as it is for the YAML reader; anything else is one JSON document, and the error on
/// text that does not start as JSON says that YAML needs the feature.
#[cfg(not(feature = "yaml"))]
fn json_or_yaml(text: &str) -> Result<Parsed, ReadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Ok(Parsed::Stream(Vec::new()));
    }
    json::parse(text).map(Parsed::Json).map_err(|e| {
        if text.trim_start().starts_with(['{', '[']) {
            ReadError::invalid(e.message)
        } else {
            ReadError::invalid(format!(
                "{} (the text is not JSON; smp-yaml reads YAML with its `yaml` feature)",
                e.message
            ))
        }
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::MAX_NESTING;
    use proptest::prelude::*;
    use serde_json::json;

    /// Runs `f` on a thread with an ordinary 2 MiB stack, proving it needs no deep recursion.
    pub(crate) fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let handle = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(f)
            .unwrap_or_else(|e| panic!("spawn: {e}"));
        handle.join().unwrap_or_else(|_| panic!("thread panicked"))
    }

    pub(crate) fn detail(result: Result<impl std::fmt::Debug, ReadError>) -> String {
        match result {
            Err(ReadError::Invalid { detail }) => detail,
            other => panic!("expected InvalidDocument, got {other:?}"),
        }
    }

    fn json_ok(text: &str) -> Value {
        parse_json(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn json_matches_serde_json() {
        let text = r#" {"a": [1, -2, 1.5, 1.0, 1e3, true, false, null, "x\n\u00e9\ud83d\ude00"],
                        "b": {}, "c": [], "d": "", "e": -0.0, "f": 12345678901234567890123} "#;
        let ours = json_ok(text);
        let theirs: Value = serde_json::from_str(text).unwrap_or_default();
        assert_eq!(ours, theirs);
        assert_eq!(ours.to_string(), theirs.to_string());
    }

    #[test]
    fn json_integers_are_exact() {
        assert_eq!(json_ok("9223372036854775807").as_i64(), Some(i64::MAX));
        assert_eq!(json_ok("-9223372036854775808").as_i64(), Some(i64::MIN));
        assert_eq!(json_ok("18446744073709551615").as_u64(), Some(u64::MAX));
        assert!(
            json_ok("1.0").is_f64(),
            "strict JSON keeps serde_json's number kinds"
        );
        assert!(json_ok("-0").is_f64());
        assert!(json_ok("-9223372036854775809").is_f64());
        assert!(json_ok("18446744073709551616").is_f64());
        // Correctly rounded, unlike serde_json's default float parser.
        let v = json_ok("3.0670306782690813e-301");
        assert_eq!(v.as_f64(), Some(3.0670306782690813e-301));
    }

    #[test]
    fn json_duplicate_keys_name_key_and_path() {
        let text = "{\"spec\": {\"containers\": [{\"name\": \"a\",\n \"name\": \"b\"}]}}";
        let d = detail(parse_json(text));
        assert!(d.contains("duplicate key \"name\""), "{d}");
        assert!(d.contains("spec.containers[0]"), "{d}");
        assert!(d.contains("line 2, column 2"), "{d}");
        let d = detail(parse_json(r#"{"a": 1, "a": 1}"#));
        assert!(d.contains("\"a\"") && d.contains("(root)"), "{d}");
    }

    #[test]
    fn json_syntax_errors_have_positions() {
        for (text, want) in [
            ("", "unexpected end of input"),
            ("{\"a\": 1,}", "expected a string key at line 1, column 9"),
            ("[1, 2", "expected `,` or `]` at line 1, column 6"),
            ("{\"a\" 1}", "expected `:`"),
            ("{\"a\": 1} x", "trailing characters"),
            ("[01]", "expected `,` or `]`"),
            ("[1.]", "expected a digit after `.`"),
            ("[1e]", "expected a digit in the exponent"),
            ("[-]", "invalid number"),
            ("[tru]", "expected a value"),
            ("\"a\tb\"", "control character"),
            ("\"abc", "unterminated string"),
            ("[\"\\x\"]", "invalid escape at line 1, column 2"),
            ("[\"\\ud800\"]", "hex escape at line 1, column 2"),
            ("[1e999]", "number out of range"),
            ("\u{feff}{}", "expected a value"),
            ("[\n  {\"a\": NaN}]", "expected a value at line 2, column 9"),
        ] {
            let d = detail(parse_json(text));
            assert!(d.contains(want), "{text:?}: {d}");
        }
    }

    fn nested(depth: usize) -> String {
        "[".repeat(depth) + &"]".repeat(depth)
    }

    #[test]
    fn json_nesting_limit() {
        assert!(parse_json(&nested(MAX_NESTING)).is_ok());
        let d = detail(parse_json(&nested(MAX_NESTING + 1)));
        assert!(d.contains("nesting deeper than 128 levels"), "{d}");
        let objects = "{\"a\":".repeat(200) + "1" + &"}".repeat(200);
        let d = detail(parse_json(&objects));
        assert!(d.contains("nesting deeper than 128 levels at a.a.a"), "{d}");
    }

    #[test]
    fn deep_json_fails_on_a_small_stack() {
        let d = on_small_stack(|| {
            let text = nested(10_000);
            let json = detail(parse_json(&text));
            let doc = detail(parse_document(&text));
            (json, doc)
        });
        assert!(d.0.contains("nesting deeper than 128 levels"), "{}", d.0);
        assert!(d.1.contains("nesting deeper than 128 levels"), "{}", d.1);
    }

    #[test]
    #[cfg(feature = "yaml")]
    fn document_detection() {
        let doc = parse_document;
        assert_eq!(doc(""), Ok(Value::Null));
        assert_eq!(doc(" \n\t\n"), Ok(Value::Null));
        assert_eq!(doc("# only a comment\n"), Ok(Value::Null));
        assert_eq!(doc("null"), Ok(Value::Null));
        assert_eq!(doc("~\n"), Ok(Value::Null));
        assert_eq!(doc("---\n"), Ok(Value::Null));
        assert_eq!(doc("  {\"a\": 1.0}"), Ok(json!({"a": 1.0})));
        assert_eq!(doc("a: 1.0\nb: on"), Ok(json!({"a": 1, "b": true})));
        assert_eq!(doc("\u{feff}a: 1"), Ok(json!({"a": 1})));
        assert_eq!(
            doc("[1, 2,]"),
            Ok(json!([1, 2])),
            "YAML flow forgives the comma"
        );
        assert_eq!(doc("{a: yes}"), Ok(json!({"a": true})));
        assert_eq!(doc("\"text\""), Ok(json!("text")));
        assert_eq!(doc("42"), Ok(json!(42)));
        let d = detail(doc("a: 1\n---\nb: 2\n"));
        assert_eq!(d, "expected one document, found 2");
        let d = detail(doc("{\"a\": 1}\n---\n{\"b\": 2}\n"));
        assert_eq!(d, "expected one document, found 2");
    }

    #[test]
    fn json_error_wins_when_yaml_also_fails() {
        let d = detail(parse_document("{\"a\": [1, 2}"));
        assert!(
            d.starts_with("expected `,` or `]` at line 1, column 12"),
            "{d}"
        );
        let d = detail(parse_document("{\"a\": 1, \"a\": 2}"));
        assert!(d.starts_with("duplicate key \"a\""), "{d}");
        let err = parse_document("[");
        assert!(matches!(err, Err(ReadError::Invalid { .. })));
    }

    #[test]
    #[cfg(feature = "yaml")]
    fn documents_stream() {
        let docs = parse_documents;
        assert_eq!(docs(""), Ok(vec![]));
        assert_eq!(docs("{\"a\": 1}"), Ok(vec![json!({"a": 1})]));
        assert_eq!(docs("[1]\n"), Ok(vec![json!([1])]));
        assert_eq!(
            docs("a: 1\n---\n---\nb: 2\n"),
            Ok(vec![json!({"a": 1}), Value::Null, json!({"b": 2})])
        );
        assert_eq!(
            docs("{\"a\": 1}\n---\n{\"b\": 2}\n"),
            Ok(vec![json!({"a": 1}), json!({"b": 2})])
        );
    }

    /// A NUL ends the input for the YAML scanner: text after it was silently dropped.
    #[test]
    #[cfg(feature = "yaml")]
    fn nul_and_control_characters_are_errors_with_positions() {
        for (text, want) in [
            ("a: 1\nb: x\0\nc: 3", "U+0000 at line 2, column 5"),
            (
                "a: 1\n---\nb: \0\n---\nc: 3\n",
                "U+0000 at line 3, column 4",
            ),
            ("a: \u{1b}[31m", "U+001B at line 1, column 4"),
            ("a: \"x\u{7f}\"", "U+007F at line 1, column 6"),
            ("a: x\u{9f}", "U+009F at line 1, column 5"),
            ("a: \u{fffe}", "U+FFFE at line 1, column 4"),
            // JSON text that is not JSON falls back to YAML, which rejects it too.
            ("{\"a\":1}\0{\"b\":2}", "U+0000 at line 1, column 8"),
            (
                "{\"a\": 1}\n---\n{\"b\": \"\0\"}\n",
                "U+0000 at line 3, column 8",
            ),
            ("[1, 2,\u{7}]", "U+0007 at line 1, column 7"),
        ] {
            let d = detail(parse_documents(text));
            assert!(d.starts_with("non-printable character "), "{text:?}: {d}");
            assert!(d.contains(want), "{text:?}: {d}");
        }
        // Strict JSON names the character too.
        let d = detail(parse_json("{\"a\": 1}\0"));
        assert!(
            d.contains("(found control character U+0000) at line 1, column 9"),
            "{d}"
        );
        let d = detail(parse_json("{\"a\": \"x\u{1}\"}"));
        assert!(d.contains("control character U+0001 in a string"), "{d}");
        // Printable: tab, CR, NEL, non-ASCII; JSON strings may hold DEL and C1 (RFC 8259, and
        // kubectl's JSON reader), YAML may not.
        assert_eq!(
            parse_document("a: \"x\ty\"\r\nb: \"\u{85}\u{a0}\u{e000}\u{10000}\"\n"),
            Ok(json!({"a": "x\ty", "b": "\u{85}\u{a0}\u{e000}\u{10000}"}))
        );
        assert_eq!(
            parse_document("{\"a\": \"\u{7f}\u{9f}\"}"),
            Ok(json!({"a": "\u{7f}\u{9f}"}))
        );
    }

    /// Text that starts like JSON and is not JSON is read as YAML flow, but never turns what a
    /// JSON dialect means into a string.
    #[test]
    #[cfg(feature = "yaml")]
    fn json_like_text_does_not_turn_into_strings() {
        let doc = parse_document;
        for (text, want) in [
            (r#"{"a": 1e400}"#, "number out of range at line 1, column 7"),
            (
                r#"{"a": -1e400}"#,
                "number out of range at line 1, column 7",
            ),
            (r#"{"spec": {"replicas": 1e400}}"#, "number out of range"),
            (
                r#"{a: 1e400}"#,
                "number out of range (it does not fit a 64-bit float): 1e400",
            ),
            (r#"{"a": NaN}"#, "`NaN` is not a JSON number"),
            (r#"{"a": -Infinity}"#, "`-Infinity` is not a JSON number"),
            ("[1, inf]", "`inf` is not a JSON number"),
            ("{a: nan}", "`nan` is not a JSON number"),
            (r#"{"a": 1 /* c */}"#, "JSON has no comments: `1 /* c */`"),
            ("{\"a\": true // c\n}", "JSON has no comments"),
            ("{/* c */ \"a\": 1}", "JSON has no comments"),
            ("[1,\n  x\t/* c */]", "JSON has no comments"),
        ] {
            let d = detail(doc(text));
            assert!(d.contains(want), "{text}: {d}");
        }
        // YAML flow stays YAML flow: unquoted keys and words, trailing commas, `#` comments,
        // slashes inside a word.
        assert_eq!(doc("{a: 1}"), Ok(json!({"a": 1})));
        assert_eq!(
            doc("{kind: Pod, url: http://x/a/*, nan: x, m: NaNa} # c"),
            Ok(json!({"kind": "Pod", "url": "http://x/a/*", "nan": "x", "m": "NaNa"}))
        );
        assert_eq!(
            doc(r#"{"a": "NaN", 'b': '/* c */'}"#),
            Ok(json!({"a": "NaN", "b": "/* c */"}))
        );
        // YAML documents are not JSON-like: NaN there is YAML's string, as go-yaml reads it.
        assert_eq!(
            doc("a: NaN\nb: x // y\n"),
            Ok(json!({"a": "NaN", "b": "x // y"}))
        );
        // A duplicate key in YAML flow is named, not hidden behind the JSON syntax error.
        let d = detail(doc("{a: 1, a: 2}"));
        assert_eq!(
            d,
            "mapping key \"a\" already defined at (root) at line 1, column 8"
        );
        let d = detail(doc("[{name: x, name: y}]"));
        assert!(
            d.starts_with("mapping key \"name\" already defined at [0]"),
            "{d}"
        );
    }

    /// A document that is JSON but for a trailing comma, as upstream's test schema
    /// `swagger-merge-item.json` is, reads through the YAML fallback.
    #[test]
    #[cfg(feature = "yaml")]
    fn json_with_a_trailing_comma_loads() {
        let text = "{\n  \"swagger\": \"2.0\",\n  \"definitions\": {\"a\": {\"description\": \"x\",}}\n}\n";
        assert!(parse_json(text).is_err());
        let doc = parse_document(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            doc,
            json!({"swagger": "2.0", "definitions": {"a": {"description": "x"}}})
        );
    }

    #[test]
    #[cfg(feature = "yaml")]
    fn upstream_swagger_file_with_trailing_comma_loads() {
        let Some(path) = smp_testdata::file("conformance/upstream/swagger-merge-item.json") else {
            return;
        };
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(parse_json(&text).is_err(), "the file is not strict JSON");
        let doc = parse_document(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(doc["swagger"], json!("2.0"));
        assert!(doc["definitions"].is_object());
    }

    /// Arbitrary JSON values, depth at most 5, with strings chosen to stress YAML quoting.
    /// Without the `yaml` feature the readers take JSON, an empty stream, and nothing else,
    /// and say why YAML text is refused.
    #[test]
    #[cfg(not(feature = "yaml"))]
    fn json_only_without_the_yaml_feature() {
        assert_eq!(
            parse_document("\u{feff} {\"a\": 1}").unwrap(),
            json!({"a": 1})
        );
        assert_eq!(parse_documents("[1]").unwrap(), vec![json!([1])]);
        assert_eq!(parse_document(" \n").unwrap(), Value::Null);
        assert!(parse_documents("").unwrap().is_empty());
        let yaml = detail(parse_document("a: 1\n"));
        assert!(
            yaml.contains("smp-yaml reads YAML with its `yaml` feature"),
            "{yaml}"
        );
        let broken = detail(parse_document("{\"a\": 1,}"));
        assert!(!broken.contains("feature"), "{broken}");
        let typed: Vec<u8> = from_str("[1, 2]").unwrap();
        assert_eq!(typed, [1, 2]);
    }

    pub(crate) fn arb_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("JSON numbers are finite", |f| f.is_finite())
                .prop_map(Value::from),
            arb_string().prop_map(Value::String),
        ];
        leaf.prop_recursive(5, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map(arb_string(), inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    pub(crate) fn arb_string() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<String>(),
            "[ -~\n\t]{0,16}",
            "[-:#&*!|>'\"%@`{}\\[\\],? .~0-9a-zA-Z\n]{0,8}",
            prop::sample::select(vec![
                "",
                "yes",
                "No",
                "on",
                "OFF",
                "y",
                "1",
                "-1",
                "0x1F",
                "0755",
                "1.5",
                "1e3",
                ".inf",
                "null",
                "~",
                "<<",
                "1:20",
                "2001-12-14",
                " a",
                "a ",
                "a: b",
                "- x",
                "-",
                "#c",
                "a #c",
                "---",
                "...",
                "a\nb",
                "a\n",
                "a\n\n",
                "\n",
                " \n",
                "é ü 😀",
            ])
            .prop_map(String::from),
        ]
    }

    proptest! {
        #[test]
        fn json_round_trip(v in arb_value()) {
            let text = serde_json::to_string(&v).unwrap_or_default();
            prop_assert_eq!(parse_json(&text), Ok(v.clone()));
            let pretty = serde_json::to_string_pretty(&v).unwrap_or_default();
            prop_assert_eq!(parse_json(&pretty), Ok(v));
        }

        #[test]
        fn json_never_panics(text in "[\\[\\]{}\":,0-9eE.+\\-tfnrul \\\\a-z\n]{0,40}") {
            let ours = parse_json(&text);
            let theirs = serde_json::from_str::<Value>(&text);
            // Same acceptance as serde_json except for duplicate keys. (Values may differ in the
            // last bit of a float: serde_json's fast float parser is not correctly rounded.)
            if ours.is_ok() {
                prop_assert!(theirs.is_ok());
            } else if let Ok(v) = theirs {
                let d = detail(ours);
                prop_assert!(d.contains("duplicate key"), "{:?} {}", v, d);
            }
            let _ = parse_document(&text);
        }
    }
}
