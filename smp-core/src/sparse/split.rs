//! Taking a JSON text apart the way kubectl takes its input, without building it: the objects of
//! a document (itself, or each item of a `kind: List`) and an object's `apiVersion` and `kind`.
//! For a command that patches thousands of objects from one file, one object at a time, with
//! [`super::apply_text`].

use std::borrow::Cow;

use super::scan::Scanner;

/// The objects of a JSON document, as [`json_objects`] finds them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonObjects<'a> {
    /// Each object's text, a slice of the document's.
    pub objects: Vec<&'a str>,
    /// Whether they are the items of a `List` (else the one object is the document).
    pub list: bool,
}

/// The objects of the JSON document `text` as kubectl takes them: the items of a `List` (an
/// object whose `kind` is the string `List` and whose `items` is a list), else the document
/// itself; each a slice of `text`. The whole text is checked first, as strictly as
/// [`crate::input::parse_json`] reads it.
///
/// `None` when `text` is not such a document (not strict JSON, or its root is not an object):
/// read it with the reader then, for its error or its value.
///
/// ```
/// use smp_core::sparse::json_objects;
///
/// let list = json_objects(r#"{"kind": "List", "items": [{"kind": "Pod"}, 3]}"#).unwrap();
/// assert_eq!((list.objects, list.list), (vec![r#"{"kind": "Pod"}"#, "3"], true));
/// let one = json_objects(r#" {"kind": "Pod"} "#).unwrap();
/// assert_eq!((one.objects, one.list), (vec![r#"{"kind": "Pod"}"#], false));
/// assert_eq!(json_objects(r#"{"a": 1, "a": 2}"#), None);
/// ```
pub fn json_objects(text: &str) -> Option<JsonObjects<'_>> {
    // One strict pass over the root object that keeps the spans of `items`' elements.
    let mut sc = Scanner::checking(text);
    if sc.peek_value() != Some(b'{') {
        return None;
    }
    let root = sc.at().pos;
    let mut keys: Vec<Cow<'_, str>> = Vec::new();
    let mut kind = None;
    let mut items: Option<Vec<&str>> = None;
    if !sc.open().ok()? {
        loop {
            let key = sc.key().ok()?;
            let first = sc.peek_value();
            let start = sc.at().pos;
            if key == "items" && first == Some(b'[') {
                let mut found = Vec::new();
                if !sc.open().ok()? {
                    loop {
                        sc.peek_value();
                        let item = sc.at().pos;
                        sc.check_value().ok()?;
                        found.push(text.get(item..sc.at().pos)?);
                        if !sc.next_or_close(b']').ok()? {
                            break;
                        }
                    }
                }
                items = Some(found);
            } else {
                sc.check_value().ok()?;
                if key == "kind" {
                    kind = text.get(start..sc.at().pos);
                }
            }
            keys.push(key);
            if !sc.next_or_close(b'}').ok()? {
                break;
            }
        }
    }
    let end = sc.at().pos;
    sc.finish().ok()?;
    keys.sort_unstable();
    if keys.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    let is_list = kind.and_then(string_value).as_deref() == Some("List");
    Some(match items {
        Some(objects) if is_list => JsonObjects {
            objects,
            list: true,
        },
        _ => JsonObjects {
            objects: vec![text.get(root..end)?],
            list: false,
        },
    })
}

/// `apiVersion` and `kind` of an object's text, each when it is a string.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct JsonTypeMeta<'a> {
    /// `apiVersion`.
    pub api_version: Option<Cow<'a, str>>,
    /// `kind`.
    pub kind: Option<Cow<'a, str>>,
}

/// `apiVersion` and `kind` of the object `text` (one of [`json_objects`], checked already).
/// `None` when `text` is not an object.
///
/// ```
/// let meta = smp_core::sparse::json_type_meta(r#"{"kind": "Pod", "apiVersion": 1}"#).unwrap();
/// assert_eq!(meta.kind.as_deref(), Some("Pod"));
/// assert_eq!(meta.api_version, None);
/// ```
pub fn json_type_meta(text: &str) -> Option<JsonTypeMeta<'_>> {
    let mut sc = Scanner::checking(text);
    if sc.peek_value() != Some(b'{') {
        return None;
    }
    let mut meta = JsonTypeMeta::default();
    if sc.open().ok()? {
        return Some(meta);
    }
    // Both are usually first (kubectl prints keys sorted): stop once both are found.
    while meta.api_version.is_none() || meta.kind.is_none() {
        let key = sc.key().ok()?;
        sc.peek_value();
        let start = sc.at().pos;
        sc.skip_checked().ok()?;
        let value = text.get(start..sc.at().pos)?;
        match &*key {
            "apiVersion" => meta.api_version = string_value(value),
            "kind" => meta.kind = string_value(value),
            _ => {}
        }
        if !sc.next_or_close(b'}').ok()? {
            break;
        }
    }
    Some(meta)
}

/// The string a (checked) string token stands for; `None` for other values.
fn string_value(token: &str) -> Option<Cow<'_, str>> {
    let mut sc = Scanner::checking(token);
    if sc.peek_value() != Some(b'"') {
        return None;
    }
    sc.string().ok()
}
