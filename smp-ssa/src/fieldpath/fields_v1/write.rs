//! Writing a set as `FieldsV1`: as text, byte for byte as the server writes it, and through
//! serde.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::super::element::PathElement;
use super::super::key_value::KeyValue;
use super::super::set::{Node, Set, siblings};
use super::super::value;

/// The `FieldsV1` text of `set`, as the API server writes it.
pub fn to_string(set: &Set) -> String {
    // Nodes take about 24 bytes each in the server's documents: room for longer ones too, so
    // that the text is not copied to a larger buffer on the way.
    let mut out = String::with_capacity(28 * set.nodes().len() + 2);
    out.push('{');
    write_contents(set.nodes(), false, &mut out, &mut String::new());
    out.push('}');
    out
}

/// One level's keys; an element that is both a member and above members starts its object
/// with `".":{}`. `key` is a buffer for keys that need escaping as a whole.
fn write_contents(level: &[Node], include_self: bool, out: &mut String, key: &mut String) {
    let mut first = true;
    if include_self {
        out.push_str(r#"".":{}"#);
        first = false;
    }
    for (node, below) in siblings(level) {
        let comma = !std::mem::take(&mut first);
        match &node.element {
            // Fields, most keys, first: one test rather than a jump through the kinds, and the
            // punctuation around the name pushed in two pieces.
            PathElement::Field(name) if value::is_plain(name) => {
                if comma {
                    out.push_str(",\"f:");
                } else {
                    out.push_str("\"f:");
                }
                out.push_str(name);
                if below.is_empty() {
                    out.push_str("\":{}");
                    continue;
                }
                out.push_str("\":{");
            }
            element => {
                if comma {
                    out.push(',');
                }
                write_key(element, out, key);
                if below.is_empty() {
                    out.push_str(":{}");
                    continue;
                }
                out.push_str(":{");
            }
        }
        write_contents(below, node.member, out, key);
        out.push('}');
    }
}

/// An element's key as a JSON string. A field's key is written straight out, and so is a key
/// or value made of plain scalars (its JSON's quotes escaped as they are written); the others
/// hold JSON of their own, built in `key` and escaped again as a whole.
fn write_key(element: &PathElement, out: &mut String, key: &mut String) {
    match element {
        PathElement::Field(name) => {
            out.push_str("\"f:");
            value::write_string_contents(name, out);
            out.push('"');
        }
        PathElement::Key(fields)
            if fields
                .fields()
                .iter()
                .all(|(name, v)| value::is_plain(name) && plain_scalar(v.into())) =>
        {
            out.push_str("\"k:{");
            for (i, (name, v)) in fields.fields().iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str("\\\"");
                out.push_str(name);
                out.push_str("\\\":");
                write_plain_scalar(v.into(), out);
            }
            out.push_str("}\"");
        }
        PathElement::Value(v) if plain_scalar(v.into()) => {
            out.push_str("\"v:");
            write_plain_scalar(v.into(), out);
            out.push('"');
        }
        _ => {
            key.clear();
            element.write_key(key);
            value::write_string(key, out);
        }
    }
}

/// A value as the writer sees it: a set's value and a key's field value alike.
enum Scalar<'a> {
    Str(&'a str),
    Number(&'a serde_json::Number),
    Bool(bool),
    Null,
    /// A list or an object.
    Other,
}

impl<'a> From<&'a serde_json::Value> for Scalar<'a> {
    fn from(v: &'a serde_json::Value) -> Scalar<'a> {
        match v {
            serde_json::Value::String(s) => Scalar::Str(s),
            serde_json::Value::Number(n) => Scalar::Number(n),
            serde_json::Value::Bool(b) => Scalar::Bool(*b),
            serde_json::Value::Null => Scalar::Null,
            _ => Scalar::Other,
        }
    }
}

impl<'a> From<&'a KeyValue> for Scalar<'a> {
    fn from(v: &'a KeyValue) -> Scalar<'a> {
        match v {
            KeyValue::String(s) => Scalar::Str(s),
            KeyValue::Number(n) => Scalar::Number(n),
            KeyValue::Bool(b) => Scalar::Bool(*b),
            KeyValue::Null => Scalar::Null,
            KeyValue::Json(_) => Scalar::Other,
        }
    }
}

/// Whether `v` is a scalar whose JSON needs no escape but its quotes.
fn plain_scalar(v: Scalar) -> bool {
    match v {
        Scalar::Str(s) => value::is_plain(s),
        Scalar::Other => false,
        _ => true,
    }
}

/// A [`plain_scalar`] as JSON inside a JSON string.
fn write_plain_scalar(v: Scalar, out: &mut String) {
    match v {
        Scalar::Str(s) => {
            out.push_str("\\\"");
            out.push_str(s);
            out.push_str("\\\"");
        }
        Scalar::Number(n) => value::write_number(n, out),
        Scalar::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        _ => out.push_str("null"),
    }
}

/// A set serializes as its `FieldsV1` object (through serde the strings are escaped as the
/// serializer escapes them; [`to_string`] is the server's text exactly).
impl Serialize for Set {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Contents {
            level: self.nodes(),
            include_self: false,
        }
        .serialize(serializer)
    }
}

struct Contents<'a> {
    level: &'a [Node],
    include_self: bool,
}

struct Empty;

impl Serialize for Empty {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_map(Some(0))?.end()
    }
}

impl Serialize for Contents<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        if self.include_self {
            map.serialize_entry(".", &Empty)?;
        }
        for (node, below) in siblings(self.level) {
            let key = node.element.to_key();
            if below.is_empty() {
                map.serialize_entry(&key, &Empty)?;
            } else {
                let contents = Contents {
                    level: below,
                    include_self: node.member,
                };
                map.serialize_entry(&key, &contents)?;
            }
        }
        map.end()
    }
}
