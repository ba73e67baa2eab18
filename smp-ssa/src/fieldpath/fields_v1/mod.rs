//! `FieldsV1`: the JSON form of a field set in `metadata.managedFields`, read and written byte
//! for byte as the API server writes it.
//!
//! Each level is an object whose keys are path elements (`f:name`, `k:{"name":"app"}`,
//! `v:"a"`, `i:0`) in element order; a member is a key whose value is `{}`, a subtree a key
//! whose value holds its own keys, and an element that is both carries `".":{}` first in its
//! object. Keys of kinds this version does not know are dropped when read, as the server drops
//! them.
//!
//! ```
//! use smp_ssa::fieldpath::{Path, PathElement, Set, fields_v1};
//! use serde_json::json;
//!
//! let set = Set::from_paths([
//!     Path::fields(["spec", "replicas"]),
//!     Path::fields(["spec", "template", "spec", "containers"])
//!         .child(PathElement::key([("name", json!("app"))]))
//!         .child(PathElement::field("image")),
//! ]);
//! let text = fields_v1::to_string(&set);
//! assert_eq!(
//!     text,
//!     r#"{"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{"f:image":{}}}}}}}"#
//! );
//! assert_eq!(fields_v1::from_str(&text)?, set);
//! # Ok::<(), smp_ssa::fieldpath::FieldsV1Error>(())
//! ```

mod de;
mod patch;
mod read;
mod write;

use super::element::PathElement;
use super::set::{Builder, Node, Set, siblings};

pub(crate) use patch::remove;
pub use write::to_string;

/// Reads a `FieldsV1` document.
pub fn from_str(text: &str) -> Result<Set, FieldsV1Error> {
    read::Reader::new(text).document()
}

/// Reads a `FieldsV1` document given as a JSON value (the `fieldsV1` member of a
/// managedFields entry, read with the object).
pub fn from_value(value: &serde_json::Value) -> Result<Set, FieldsV1Error> {
    read_value(value).map(|(set, _)| set)
}

/// [`from_value`], and whether the document is in the form the server writes: objects all the
/// way down, every key `.` or of a known kind and written as the server writes its element,
/// `"."` only beside other keys and with `{}` as its value.
pub(crate) fn read_value(value: &serde_json::Value) -> Result<(Set, bool), FieldsV1Error> {
    let mut set = Builder::default();
    let serde_json::Value::Object(object) = value else {
        return Err(FieldsV1Error("expected a FieldsV1 object".into()));
    };
    let mut canonical = true;
    read_object(object, &mut set, 0, &mut canonical, &mut String::new())?;
    Ok((set.finish(), canonical))
}

/// One object of a document held as a value, its elements added to `set` as one level;
/// whether it holds `"."`. `canonical` is cleared where the object is not in the server's form
/// (`key` is where a key is written to be compared with its form as read).
fn read_object(
    object: &serde_json::Map<String, serde_json::Value>,
    set: &mut Builder,
    depth: usize,
    canonical: &mut bool,
    key_buffer: &mut String,
) -> Result<bool, FieldsV1Error> {
    if depth > MAX_DEPTH {
        return Err(FieldsV1Error(format!(
            "nested deeper than {MAX_DEPTH} levels"
        )));
    }
    let start = set.mark();
    let mut dot = false;
    for (key, value) in object {
        if key == "." {
            dot = true;
            *canonical &= object.len() > 1 && value.as_object().is_some_and(|o| o.is_empty());
            continue;
        }
        let at = match key.strip_prefix("f:") {
            Some(name) => set.open_field(name),
            None => match PathElement::from_key(key).map_err(|e| FieldsV1Error(e.to_string()))? {
                Some(element) => {
                    // A key in another form than the server writes it (key fields out of
                    // order, a number written otherwise) would not be found again as written.
                    if *canonical {
                        key_buffer.clear();
                        element.write_key(key_buffer);
                        *canonical = key_buffer == key;
                    }
                    set.open(element)
                }
                None => {
                    *canonical = false;
                    continue;
                }
            },
        };
        let serde_json::Value::Object(inner) = value else {
            return Err(FieldsV1Error(format!(
                "the value of {key:?} is not an object"
            )));
        };
        let member =
            read_object(inner, set, depth + 1, canonical, key_buffer)? || !set.has_below(at);
        set.close(at, member);
    }
    set.end_level(start);
    Ok(dot)
}

/// `set` as the `FieldsV1` object a `serde_json::Value` holds (keys in the value's order, which
/// for `serde_json`'s map is string order).
pub fn to_value(set: &Set) -> serde_json::Value {
    fn level(nodes: &[Node], include_self: bool, key: &mut String) -> serde_json::Value {
        let mut map = Vec::new();
        if include_self {
            map.push((
                ".".into(),
                serde_json::Value::Object(serde_json::Map::new()),
            ));
        }
        for (node, below) in siblings(nodes) {
            let value = if below.is_empty() {
                serde_json::Value::Object(serde_json::Map::new())
            } else {
                level(below, node.member, key)
            };
            // Each key is built in `key`, then copied out at its exact size.
            key.clear();
            node.element.write_key(key);
            map.push((key.as_str().into(), value));
        }
        serde_json::Value::Object(map.into_iter().collect())
    }
    level(set.nodes(), false, &mut String::new())
}

/// A `FieldsV1` document that does not read as a field set: not JSON, not objects all the way
/// down, or a key that is not a path element. The text says where.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("bad FieldsV1: {0}")]
pub struct FieldsV1Error(String);

/// The deepest level a document may nest: deeper than any object the field manager accepts
/// ([`smp_core::MAX_DEPTH`]), and bounded so that reading never exhausts the stack.
const MAX_DEPTH: usize = smp_core::MAX_DEPTH + 1;

#[cfg(test)]
mod tests {
    use super::*;

    /// The server's own golden documents (structured-merge-diff v4.4.2,
    /// `fieldpath/serialize_test.go`, `TestSerializeV1GoldenData`): read and written back
    /// unchanged.
    const GOLDEN: &[&str] = &[
        r#"{"f:aaa":{},"f:aab":{},"f:aac":{},"f:aad":{},"f:aae":{},"f:aaf":{},"k:{\"name\":\"first\"}":{},"k:{\"name\":\"second\"}":{},"k:{\"port\":443,\"protocol\":\"tcp\"}":{},"k:{\"port\":443,\"protocol\":\"udp\"}":{},"v:1":{},"v:2":{},"v:3":{},"v:\"aa\"":{},"v:\"ab\"":{},"v:true":{},"i:1":{},"i:2":{},"i:3":{},"i:4":{}}"#,
        r#"{"f:aaa":{"k:{\"name\":\"second\"}":{"v:3":{"f:aab":{}}},"v:3":{},"v:true":{}},"f:aab":{"f:aaa":{},"f:aaf":{"k:{\"port\":443,\"protocol\":\"udp\"}":{"k:{\"port\":443,\"protocol\":\"tcp\"}":{}}},"k:{\"name\":\"first\"}":{}},"f:aac":{"f:aaa":{"v:1":{}},"f:aac":{},"v:3":{"k:{\"name\":\"second\"}":{}}},"f:aad":{"f:aac":{"v:1":{}},"f:aaf":{"k:{\"name\":\"first\"}":{"k:{\"name\":\"first\"}":{}}},"i:1":{"i:1":{},"i:3":{"v:true":{}}}},"f:aae":{"f:aae":{},"k:{\"port\":443,\"protocol\":\"tcp\"}":{"k:{\"port\":443,\"protocol\":\"udp\"}":{}},"i:4":{"f:aaf":{}}},"f:aaf":{"i:1":{"f:aac":{}},"i:2":{},"i:3":{}},"k:{\"name\":\"first\"}":{"f:aad":{"f:aaf":{}}},"k:{\"port\":443,\"protocol\":\"tcp\"}":{"f:aaa":{"f:aad":{}}},"k:{\"port\":443,\"protocol\":\"udp\"}":{"f:aac":{},"k:{\"name\":\"first\"}":{"i:3":{}},"k:{\"port\":443,\"protocol\":\"udp\"}":{"i:4":{}}},"v:1":{"f:aac":{"i:4":{}},"f:aaf":{},"k:{\"port\":443,\"protocol\":\"tcp\"}":{}},"v:2":{"f:aad":{"f:aaf":{}},"i:1":{}},"v:3":{"f:aaa":{},"k:{\"name\":\"first\"}":{},"i:2":{}},"v:\"aa\"":{"f:aab":{"f:aaf":{}},"f:aae":{},"k:{\"name\":\"first\"}":{"f:aad":{}},"i:2":{}},"v:\"ab\"":{"f:aaf":{"i:4":{}},"k:{\"port\":443,\"protocol\":\"tcp\"}":{},"k:{\"port\":443,\"protocol\":\"udp\"}":{},"v:1":{"k:{\"port\":443,\"protocol\":\"udp\"}":{}},"i:1":{"f:aae":{"i:4":{}}}},"v:true":{"k:{\"name\":\"second\"}":{"f:aaa":{}},"i:2":{"k:{\"port\":443,\"protocol\":\"tcp\"}":{}}},"i:1":{"i:3":{"f:aaf":{}}},"i:2":{"f:aae":{},"k:{\"port\":443,\"protocol\":\"tcp\"}":{"v:1":{}}},"i:3":{"f:aab":{"v:true":{"v:\"aa\"":{}}},"f:aaf":{},"i:1":{}},"i:4":{"v:\"aa\"":{"f:aab":{"k:{\"name\":\"second\"}":{}}}}}"#,
    ];

    #[test]
    fn golden_documents_read_and_write_back_unchanged() {
        for text in GOLDEN {
            let set = from_str(text).unwrap();
            assert_eq!(to_string(&set), *text);
            // Through serde too.
            assert_eq!(serde_json::to_string(&set).unwrap(), *text);
        }
    }

    #[test]
    fn unknown_kinds_are_dropped() {
        let set = from_str(r#"{"f:aaa":{},"r:aab":{}}"#).unwrap();
        assert_eq!(to_string(&set), r#"{"f:aaa":{}}"#);
    }

    #[test]
    fn a_member_and_a_subtree_share_a_key() {
        let text = r#"{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}"#;
        let set = from_str(text).unwrap();
        assert_eq!(set.len(), 2);
        assert_eq!(to_string(&set), text);
    }

    #[test]
    fn out_of_order_keys_are_sorted_and_a_repeated_subtree_is_the_last() {
        let set = from_str(r#"{"f:b":{},"f:a":{"f:x":{}},"f:a":{"f:y":{}}}"#).unwrap();
        assert_eq!(to_string(&set), r#"{"f:a":{"f:y":{}},"f:b":{}}"#);
    }

    #[test]
    fn html_characters_are_escaped_as_go_escapes_them() {
        // A value's string is escaped inside the key, then the key as a string: twice.
        let set = from_str(r#"{"f:a<b":{},"v:\"x&y\"":{}}"#).unwrap();
        assert_eq!(to_string(&set), r#"{"f:a\u003cb":{},"v:\"x\\u0026y\"":{}}"#);
    }

    #[test]
    fn bad_documents_are_errors() {
        for bad in [r#"{"x":{}}"#, r#"{"k:[1]":{}}"#, "[]", r#"{"f:a":1}"#, "{"] {
            assert!(from_str(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_reader_takes_any_json_of_this_shape() {
        // Space, escaped field names, and any value under "." or an unknown kind.
        let set = from_str(
            " {\n \"f:a\\u0062\" : { \".\" : [1, {\"x\": null}], \"f:c\": {} } , \"r:z\": \"?\" } ",
        )
        .unwrap();
        assert_eq!(to_string(&set), r#"{"f:ab":{".":{},"f:c":{}}}"#);
        assert_eq!(
            from_value(&serde_json::from_str(&to_string(&set)).unwrap()),
            Ok(set)
        );
    }

    /// Keys read in place (fields, and keys and values of plain scalars) are what the general
    /// reader makes of them, including keys that start as plain ones and are not.
    #[test]
    fn keys_read_in_place_are_read_as_the_general_reader_reads_them() {
        for key in [
            r#"f:a"#,
            r#"f:a"b"#,
            r#"f:a\"#,
            r#"k:{"a":1}"#,
            r#"k:{"a":1}x"#,
            r#"k:{"a":1.5,"b":-2}"#,
            r#"k:{"b":"x","a":"y"}"#,
            r#"k:{"a":"b\\c"}"#,
            r#"k:{"a":"\u0062"}"#,
            r#"k:{"a":[1]}"#,
            r#"k:{"a":true,"b":null}"#,
            r#"v:1"#,
            r#"v:1 "#,
            r#"v:"a""#,
            r#"v:"a"b"#,
            r#"v:false"#,
            r#"v:nul"#,
        ] {
            for below in ["{}", r#"{"f:x":{}}"#, r#"{".":{},"f:x":{}}"#] {
                let text = format!(r#"{{"f:z":{{}},"{key}":{below}}}"#);
                let general = serde_json::from_str(&text)
                    .map_err(|e| e.to_string())
                    .and_then(|v| from_value(&v).map_err(|e| e.to_string()));
                match (from_str(&text), general) {
                    (Ok(read), Ok(general)) => assert_eq!(read, general, "{text}"),
                    (read, general) => assert!(read.is_err() && general.is_err(), "{text}"),
                }
            }
        }
    }

    #[test]
    fn errors_say_where() {
        let error = |text: &str| from_str(text).unwrap_err().to_string();
        assert_eq!(
            error(r#"{"f:a":{}} x"#),
            "bad FieldsV1: text after the document at byte 11"
        );
        assert_eq!(
            error(r#"{"f:a":{},}"#),
            "bad FieldsV1: expected a string key at byte 10"
        );
        assert_eq!(
            error(r#"{"f:a" {}}"#),
            "bad FieldsV1: expected `:` after a key at byte 7"
        );
        assert!(error(r#"{"f:a":{"k:{":{}}}"#).contains("at byte 8"));
        assert!(error(r#"{"f:a":{}"#).contains("expected `,` or `}`"));
        assert!(error("{\"f:a\u{1}\":{}}").contains("control character"));
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = |n: usize| format!("{}{}", r#"{"f:a":"#.repeat(n) + "{}", "}".repeat(n));
        assert!(from_str(&deep(MAX_DEPTH)).is_ok());
        let error = from_str(&deep(100_000)).unwrap_err().to_string();
        assert!(error.contains("nested deeper than"), "{error}");
    }

    #[test]
    fn the_servers_form_is_told_from_others() {
        let canonical = |text: &str| {
            serde_json::from_str(text)
                .ok()
                .and_then(|v| read_value(&v).ok())
                .is_some_and(|(_, canonical)| canonical)
        };
        assert!(canonical(
            r#"{"f:a":{".":{},"f:b":{}},"k:{\"name\":\"x\"}":{}}"#
        ));
        assert!(canonical("{}"));
        for other in [
            r#"{"f:a":{".":{}}}"#,
            r#"{"f:a":{".":{"x":1},"f:b":{}}}"#,
            r#"{"r:a":{}}"#,
            r#"{"f:a":1}"#,
            "[]",
        ] {
            assert!(!canonical(other), "{other}");
        }
    }

    #[test]
    fn the_empty_set() {
        assert_eq!(from_str("{}").unwrap(), Set::new());
        assert_eq!(to_string(&Set::new()), "{}");
    }
}
