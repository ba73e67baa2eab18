//! One step of a field path: a field of an object, an item of a list map by its key fields, an
//! item of a set by its value, or an item of an atomic list by its index.

use std::cmp::Ordering;
use std::fmt;

use compact_str::CompactString;
use serde_json::{Map, Value};

use super::key_json;
use super::key_value::KeyValue;
use super::value;

/// One step of a field path.
///
/// Elements are ordered as the API server orders them in a `FieldsV1` document: fields first
/// (by name, bytewise), then keys, then values, then indices.
#[derive(Debug, Clone)]
pub enum PathElement {
    /// A field of an object (a struct field or a map key): `f:<name>`.
    Field(FieldName),
    /// The item of a list map whose key fields have these values, sorted by field name:
    /// `k:{"name":"app"}`.
    Key(KeyFields),
    /// The item of a set with this value: `v:"a"`.
    Value(Value),
    /// The item of an atomic list at this index: `i:0`. (The server never tracks inside
    /// atomic lists, but the form exists and is read and written.)
    Index(i64),
}

/// The name of a field (or a map's key) in a path. Short names, which nearly every Kubernetes
/// field name is, are held inline: reading a field set allocates nothing for them.
///
/// (Aligned to 8 bytes: the inline string alone is byte-aligned, and an element holding it at
/// an odd offset is copied with overlapping loads and stores that stall on every move.)
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(align(8))]
pub struct FieldName(CompactString);

impl FieldName {
    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FieldName {
    /// The empty name.
    pub(crate) const EMPTY: FieldName = FieldName(CompactString::const_new(""));

    /// Appends `s` to the name.
    pub(crate) fn push_str(&mut self, s: &str) {
        self.0.push_str(s);
    }
}

impl std::ops::Deref for FieldName {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for FieldName {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for FieldName {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for FieldName {
    fn from(name: &str) -> FieldName {
        FieldName(CompactString::from(name))
    }
}

impl From<String> for FieldName {
    fn from(name: String) -> FieldName {
        FieldName(CompactString::from(name))
    }
}

impl fmt::Debug for FieldName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for FieldName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

/// The key fields of a list-map item, sorted by name (a stable sort: the order of fields of the
/// same name is kept).
#[derive(Debug, Clone, Default)]
pub struct KeyFields(Vec<(FieldName, KeyValue)>);

impl KeyFields {
    /// The key made of these fields, sorted by name.
    pub fn new<V: Into<KeyValue>>(fields: impl IntoIterator<Item = (FieldName, V)>) -> KeyFields {
        KeyFields::from_vec(
            fields
                .into_iter()
                .map(|(name, value)| (name, value.into()))
                .collect(),
        )
    }

    /// The key made of these fields, sorted by name.
    pub(crate) fn from_vec(mut fields: Vec<(FieldName, KeyValue)>) -> KeyFields {
        // Keys are one or two fields, nearly always in order already.
        let in_order = |a: &(FieldName, KeyValue), b: &(FieldName, KeyValue)| {
            value::compare_bytes(a.0.as_bytes(), b.0.as_bytes()).is_le()
        };
        if fields.len() > 1 && !fields.is_sorted_by(in_order) {
            fields.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        }
        KeyFields(fields)
    }

    /// The fields, sorted by name.
    pub fn fields(&self) -> &[(FieldName, KeyValue)] {
        &self.0
    }

    /// The value of field `name`.
    pub fn get(&self, name: &str) -> Option<&KeyValue> {
        self.0
            .iter()
            .find(|(n, _)| n.as_str() == name)
            .map(|(_, v)| v)
    }

    /// The key as a JSON object.
    pub fn to_object(&self) -> Map<String, Value> {
        self.0
            .iter()
            .map(|(name, v)| (name.to_string(), v.to_value()))
            .collect()
    }

    fn compare(&self, other: &KeyFields) -> Ordering {
        for ((na, va), (nb, vb)) in self.0.iter().zip(&other.0) {
            let order =
                value::compare_bytes(na.as_bytes(), nb.as_bytes()).then_with(|| va.compare(vb));
            if order != Ordering::Equal {
                return order;
            }
        }
        self.0.len().cmp(&other.0.len())
    }
}

impl PathElement {
    /// The field `name`.
    pub fn field(name: impl Into<FieldName>) -> PathElement {
        PathElement::Field(name.into())
    }

    /// The list-map item with these key fields.
    pub fn key<K: Into<FieldName>, V: Into<KeyValue>>(
        fields: impl IntoIterator<Item = (K, V)>,
    ) -> PathElement {
        PathElement::Key(KeyFields::new(
            fields.into_iter().map(|(k, v)| (k.into(), v)),
        ))
    }

    fn rank(&self) -> u8 {
        match self {
            PathElement::Field(_) => 0,
            PathElement::Key(_) => 1,
            PathElement::Value(_) => 2,
            PathElement::Index(_) => 3,
        }
    }

    /// Appends the element as a `FieldsV1` key: `f:name`, `k:{...}`, `v:...`, `i:3`.
    pub fn write_key(&self, out: &mut String) {
        match self {
            PathElement::Field(name) => {
                out.push_str("f:");
                out.push_str(name);
            }
            PathElement::Key(key) => {
                out.push_str("k:{");
                for (i, (name, v)) in key.0.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    value::write_string(name, out);
                    out.push(':');
                    v.write_json(out);
                }
                out.push('}');
            }
            PathElement::Value(v) => {
                out.push_str("v:");
                value::write_json(v, out);
            }
            PathElement::Index(i) => {
                out.push_str("i:");
                out.push_str(&i.to_string());
            }
        }
    }

    /// The element as a `FieldsV1` key.
    pub fn to_key(&self) -> String {
        let mut out = String::new();
        self.write_key(&mut out);
        out
    }

    /// Reads a `FieldsV1` key. `Ok(None)` for a key of a kind this version does not know (the
    /// server drops those rather than keep what it cannot read).
    pub fn from_key(key: &str) -> Result<Option<PathElement>, ElementError> {
        let bad = |detail: String| ElementError {
            key: key.to_owned(),
            detail,
        };
        let bytes = key.as_bytes();
        if bytes.len() < 2 {
            return Err(bad("a key is a kind letter, `:` and its content".to_owned()));
        }
        if bytes[1] != b':' {
            return Err(bad("missing `:` after the kind letter".to_owned()));
        }
        let content = &key[2..];
        Ok(Some(match bytes[0] {
            b'f' => PathElement::Field(content.into()),
            b'v' => PathElement::Value(key_json::value(content).map_err(|e| bad(e.to_string()))?),
            b'k' => PathElement::Key(KeyFields::new(
                key_json::key_fields(content).map_err(|e| bad(e.to_string()))?,
            )),
            b'i' => PathElement::Index(
                content
                    .parse()
                    .map_err(|e: std::num::ParseIntError| bad(e.to_string()))?,
            ),
            _ => return Ok(None),
        }))
    }
}

impl PartialEq for PathElement {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for PathElement {}

impl PartialOrd for PathElement {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PathElement {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (PathElement::Field(a), PathElement::Field(b)) => {
                value::compare_bytes(a.as_bytes(), b.as_bytes())
            }
            (PathElement::Key(a), PathElement::Key(b)) => a.compare(b),
            (PathElement::Value(a), PathElement::Value(b)) => value::compare(a, b),
            (PathElement::Index(a), PathElement::Index(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

/// As the API server writes a step of a path in its messages: `.name`, `[name="app"]`,
/// `[containerPort=80,protocol="TCP"]`, `[="a"]`, `[3]`.
impl fmt::Display for PathElement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        match self {
            PathElement::Field(name) => {
                out.push('.');
                out.push_str(name);
            }
            PathElement::Key(key) => {
                out.push('[');
                for (i, (name, v)) in key.0.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(name);
                    out.push('=');
                    v.write_text(&mut out);
                }
                out.push(']');
            }
            PathElement::Value(v) => {
                out.push_str("[=");
                value::write_text(v, &mut out);
                out.push(']');
            }
            PathElement::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
        f.write_str(&out)
    }
}

/// A `FieldsV1` key that does not read as a path element.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("bad field path element `{key}`: {detail}")]
pub struct ElementError {
    /// The key as written.
    pub key: String,
    /// What is wrong with it.
    pub detail: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_read_and_write_back() {
        for key in [
            "f:spec",
            "f:",
            r#"k:{"name":"first"}"#,
            r#"k:{"port":443,"protocol":"tcp"}"#,
            "v:1",
            r#"v:"aa""#,
            "v:true",
            "i:4",
            r#"f:a"b"#,
        ] {
            let element = PathElement::from_key(key).unwrap().unwrap();
            assert_eq!(element.to_key(), key);
        }
    }

    #[test]
    fn key_fields_are_sorted_and_numbers_read_as_floats() {
        let e = PathElement::from_key(r#"k:{"protocol":"TCP","containerPort":80}"#)
            .unwrap()
            .unwrap();
        assert_eq!(e.to_key(), r#"k:{"containerPort":80,"protocol":"TCP"}"#);
        let from_object =
            PathElement::key([("containerPort", json!(80)), ("protocol", json!("TCP"))]);
        assert_eq!(e, from_object);
        assert_eq!(e.to_string(), r#"[containerPort=80,protocol="TCP"]"#);
    }

    #[test]
    fn unknown_kinds_are_dropped_and_bad_keys_refused() {
        assert_eq!(PathElement::from_key("r:aab").unwrap(), None);
        for bad in ["f", "fx", "k:[1]", "k:{", "v:", "i:x"] {
            assert!(PathElement::from_key(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn order_is_fields_keys_values_indices() {
        let ordered = [
            PathElement::field("a"),
            PathElement::field("b"),
            PathElement::key([("name", json!("a"))]),
            PathElement::key([("name", json!("a")), ("z", json!(1))]),
            PathElement::Value(json!(1)),
            PathElement::Value(json!("a")),
            PathElement::Index(0),
        ];
        for pair in ordered.windows(2) {
            assert!(pair[0] < pair[1], "{pair:?}");
        }
    }
}
