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

use std::fmt;

use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::element::PathElement;
use super::set::Set;
use super::value;

/// The `FieldsV1` text of `set`, as the API server writes it.
pub fn to_string(set: &Set) -> String {
    let mut out = String::with_capacity(64 * set.len() + 2);
    out.push('{');
    write_contents(set, false, &mut out, &mut String::new());
    out.push('}');
    out
}

/// Reads a `FieldsV1` document.
pub fn from_str(text: &str) -> Result<Set, FieldsV1Error> {
    serde_json::from_str(text).map_err(|e| FieldsV1Error(e.to_string()))
}

/// Reads a `FieldsV1` document given as a JSON value (the `fieldsV1` member of a
/// managedFields entry, read with the object).
pub fn from_value(value: &serde_json::Value) -> Result<Set, FieldsV1Error> {
    Set::deserialize(value).map_err(|e| FieldsV1Error(e.to_string()))
}

/// A `FieldsV1` document that does not read as a field set: not JSON, not objects all the way
/// down, or a key that is not a path element. The text says where.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("bad FieldsV1: {0}")]
pub struct FieldsV1Error(String);

/// One level's keys, in element order: a member and a subtree under the same element share
/// one key, whose object starts with `"."`.
fn write_contents(set: &Set, include_self: bool, out: &mut String, key: &mut String) {
    let mut first = true;
    let mut comma = |out: &mut String| {
        if !std::mem::take(&mut first) {
            out.push(',');
        }
    };
    if include_self && !set.is_empty() {
        comma(out);
        out.push_str(r#"".":{}"#);
    }
    let (members, children) = (set.members(), set.children());
    let (mut m, mut c) = (0, 0);
    while m < members.len() || c < children.len() {
        let order = match (members.get(m), children.get(c)) {
            (Some(member), Some((child, _))) => member.cmp(child),
            (Some(_), None) => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        comma(out);
        let element = if order == std::cmp::Ordering::Greater {
            &children[c].0
        } else {
            &members[m]
        };
        key.clear();
        element.write_key(key);
        value::write_string(key, out);
        out.push(':');
        match order {
            std::cmp::Ordering::Less => {
                out.push_str("{}");
                m += 1;
            }
            std::cmp::Ordering::Greater | std::cmp::Ordering::Equal => {
                out.push('{');
                write_contents(&children[c].1, order == std::cmp::Ordering::Equal, out, key);
                out.push('}');
                c += 1;
                if order == std::cmp::Ordering::Equal {
                    m += 1;
                }
            }
        }
    }
}

/// A set serializes as its `FieldsV1` object (through serde the strings are escaped as the
/// serializer escapes them; [`to_string`] is the server's text exactly).
impl Serialize for Set {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Contents {
            set: self,
            include_self: false,
        }
        .serialize(serializer)
    }
}

struct Contents<'a> {
    set: &'a Set,
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
        if self.include_self && !self.set.is_empty() {
            map.serialize_entry(".", &Empty)?;
        }
        let (members, children) = (self.set.members(), self.set.children());
        let (mut m, mut c) = (0, 0);
        while m < members.len() || c < children.len() {
            let order = match (members.get(m), children.get(c)) {
                (Some(member), Some((child, _))) => member.cmp(child),
                (Some(_), None) => std::cmp::Ordering::Less,
                _ => std::cmp::Ordering::Greater,
            };
            if order == std::cmp::Ordering::Less {
                map.serialize_entry(&members[m].to_key(), &Empty)?;
                m += 1;
                continue;
            }
            let (element, child) = &children[c];
            let contents = Contents {
                set: child,
                include_self: order == std::cmp::Ordering::Equal,
            };
            map.serialize_entry(&element.to_key(), &contents)?;
            c += 1;
            if order == std::cmp::Ordering::Equal {
                m += 1;
            }
        }
        map.end()
    }
}

/// One level read: the subtree below it (`None` when it has no key) and whether the element
/// holding it is itself a member (`"."`, or an empty object).
struct Level {
    children: Option<Set>,
    member: bool,
}

impl<'de> Deserialize<'de> for Set {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Set, D::Error> {
        Ok(Level::deserialize(deserializer)?
            .children
            .unwrap_or_default())
    }
}

impl<'de> Deserialize<'de> for Level {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Level, D::Error> {
        deserializer.deserialize_map(LevelVisitor)
    }
}

struct LevelVisitor;

impl<'de> Visitor<'de> for LevelVisitor {
    type Value = Level;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a FieldsV1 object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Level, A::Error> {
        let mut member = false;
        let mut members: Vec<PathElement> = Vec::new();
        let mut children: Vec<(PathElement, Set)> = Vec::new();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key == "." {
                member = true;
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let Some(element) = PathElement::from_key(&key).map_err(de::Error::custom)? else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            let level: Level = map.next_value()?;
            if let Some(set) = level.children {
                children.push((element.clone(), set));
            }
            if level.member {
                members.push(element);
            }
        }
        // Written in order, as the server writes them; sorted here all the same, a repeated
        // key's subtree being its last one, as the server reads it.
        if !members.is_sorted() {
            members.sort();
        }
        members.dedup();
        if !children.is_sorted_by(|a, b| a.0 <= b.0) {
            children.sort_by(|a, b| a.0.cmp(&b.0));
        }
        children.reverse();
        children.dedup_by(|later, earlier| later.0 == earlier.0);
        children.reverse();
        if members.is_empty() && children.is_empty() {
            return Ok(Level {
                children: None,
                member: true,
            });
        }
        let mut set = Set::new();
        for element in members {
            set.push_member(element);
        }
        for (element, child) in children {
            set.push_child(element, child);
        }
        Ok(Level {
            children: Some(set),
            member,
        })
    }
}

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
    fn the_empty_set() {
        assert_eq!(from_str("{}").unwrap(), Set::new());
        assert_eq!(to_string(&Set::new()), "{}");
    }
}
