//! JSON as kube-apiserver writes it. Go's `encoding/json` writes a struct's members in the
//! order its fields are declared (`kind`, `apiVersion`, `metadata`, `spec`, `status`), a map's
//! keys sorted, and escapes `<`, `>` and `&` in strings. Built-in objects are therefore
//! written member by member in their Go types' order ([`order`]); custom resources, which the
//! server holds as maps, and members no type declares come out sorted, as `serde_json` writes
//! them.
//!
//! The order of a type's members is a fact of the Go types of Kubernetes v1.34
//! (k8s.io/api, apimachinery, apiextensions-apiserver and kube-aggregator at v0.34.1), kept in
//! `field_order.json`: each OpenAPI definition's members in declaration order.

mod order;

use serde_json::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

use smp_ssa::schema::TypeRef;

/// How a value's members are ordered.
#[derive(Clone, Copy)]
enum Node {
    /// By a built-in type.
    Typed(TypeRef),
    /// By the OpenAPI definition of this name.
    Named(&'static str),
    /// In this order, each member as its node says (members not named come after, sorted).
    Fixed(&'static [(&'static str, Node)]),
    /// A list whose items are each as the node says.
    Each(&'static Node),
    /// By the object's own `apiVersion` and `kind` (a list's item, a table row's object).
    Own,
    /// Sorted.
    Sorted,
}

const LIST_META: Node = Node::Named("io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta");
const OBJECT_META: Node = Node::Named("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");

/// meta.k8s.io's `Table` (`TableColumnDefinition`, `TableRow`, `TableRowCondition`).
static TABLE: [(&str, Node); 5] = [
    ("kind", Node::Sorted),
    ("apiVersion", Node::Sorted),
    ("metadata", LIST_META),
    (
        "columnDefinitions",
        Node::Each(&Node::Fixed(&[
            ("name", Node::Sorted),
            ("type", Node::Sorted),
            ("format", Node::Sorted),
            ("description", Node::Sorted),
            ("priority", Node::Sorted),
        ])),
    ),
    (
        "rows",
        Node::Each(&Node::Fixed(&[
            ("cells", Node::Sorted),
            (
                "conditions",
                Node::Each(&Node::Fixed(&[
                    ("type", Node::Sorted),
                    ("status", Node::Sorted),
                    ("reason", Node::Sorted),
                    ("message", Node::Sorted),
                ])),
            ),
            ("object", Node::Own),
        ])),
    ),
];

/// meta.k8s.io's `PartialObjectMetadata`.
static PARTIAL: [(&str, Node); 3] = [
    ("kind", Node::Sorted),
    ("apiVersion", Node::Sorted),
    ("metadata", OBJECT_META),
];

/// A list of built-in objects, or of `PartialObjectMetadata`.
static LIST: [(&str, Node); 4] = [
    ("kind", Node::Sorted),
    ("apiVersion", Node::Sorted),
    ("metadata", LIST_META),
    ("items", Node::Each(&Node::Own)),
];

/// A watch event.
static EVENT: [(&str, Node); 2] = [("type", Node::Sorted), ("object", Node::Own)];

/// `value` as the server writes it: ordered by its `apiVersion` and `kind`.
pub(crate) fn to_vec(value: &Value) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    write(value, Node::Own, &mut out, &mut Vec::new());
    out
}

/// A watch event of `kind` (`ADDED`, ...), one line.
pub(crate) fn event_line(kind: &str, object: &Value) -> Vec<u8> {
    let event = serde_json::json!({"type": kind, "object": object});
    let mut out = Vec::with_capacity(256);
    write(&event, Node::Fixed(&EVENT), &mut out, &mut Vec::new());
    out.push(b'\n');
    out
}

/// A list of `kind` whose items are written already: a built-in kind's list in its Go order
/// (`kind`, `apiVersion`, `metadata`, `items`), any other sorted, as the server's streaming
/// list encoder writes them. A built-in list's items go without their `kind` and
/// `apiVersion`, as the server's typed lists carry none (custom resources' items keep theirs).
pub(crate) fn list<'a>(
    api_version: &str,
    kind: &str,
    metadata: &Value,
    items: impl Iterator<Item = &'a [u8]>,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    let builtin = !matches!(
        own(&serde_json::json!({"apiVersion": api_version, "kind": kind, "items": []})),
        Node::Sorted
    );
    let head = |out: &mut Vec<u8>| {
        out.extend_from_slice(b"\"kind\":");
        string(kind, out);
        out.extend_from_slice(b",\"apiVersion\":");
        string(api_version, out);
        out.extend_from_slice(b",\"metadata\":");
        write(metadata, LIST_META, out, &mut Vec::new());
    };
    out.push(b'{');
    if builtin {
        head(&mut out);
        out.push(b',');
    } else {
        out.extend_from_slice(b"\"apiVersion\":");
        string(api_version, &mut out);
        out.push(b',');
    }
    // What a stored built-in object starts with: its type, first in Go's order.
    let mut typed = Vec::new();
    if builtin {
        typed.extend_from_slice(b"{\"kind\":");
        string(kind.strip_suffix("List").unwrap_or(kind), &mut typed);
        typed.extend_from_slice(b",\"apiVersion\":");
        string(api_version, &mut typed);
        typed.push(b',');
    }
    out.extend_from_slice(b"\"items\":[");
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        match item.strip_prefix(typed.as_slice()).filter(|_| builtin) {
            Some(rest) => {
                out.push(b'{');
                out.extend_from_slice(rest);
            }
            None => out.extend_from_slice(item),
        }
    }
    out.push(b']');
    if !builtin {
        out.extend_from_slice(b",\"kind\":");
        string(kind, &mut out);
        out.extend_from_slice(b",\"metadata\":");
        write(metadata, LIST_META, &mut out, &mut Vec::new());
    }
    out.push(b'}');
    out
}

/// The type of the built-in kind `kind` of `api_version`, found without building a key.
fn builtin_kind(api_version: &str, kind: &str) -> Option<TypeRef> {
    type Kinds = HashMap<String, HashMap<String, TypeRef>>;
    static KINDS: OnceLock<Kinds> = OnceLock::new();
    let kinds = KINDS.get_or_init(|| {
        let mut kinds = Kinds::new();
        for (gvk, ty) in smp_ssa::builtin::schema().kinds() {
            let api_version = crate::discovery::api_version(&gvk.group, &gvk.version);
            kinds
                .entry(api_version)
                .or_default()
                .insert(gvk.kind.clone(), ty);
        }
        kinds
    });
    kinds.get(api_version)?.get(kind).copied()
}

/// The node of an object by its own `apiVersion` and `kind`.
fn own(value: &Value) -> Node {
    let text = |k: &str| value.get(k).and_then(Value::as_str).unwrap_or("");
    let (api_version, kind) = (text("apiVersion"), text("kind"));
    if let Some(ty) = builtin_kind(api_version, kind) {
        return Node::Typed(ty);
    }
    match (api_version, kind) {
        ("meta.k8s.io/v1" | "meta.k8s.io/v1beta1", "Table") => Node::Fixed(&TABLE),
        ("meta.k8s.io/v1" | "meta.k8s.io/v1beta1", "PartialObjectMetadata") => {
            Node::Fixed(&PARTIAL)
        }
        ("meta.k8s.io/v1" | "meta.k8s.io/v1beta1", "PartialObjectMetadataList") => {
            Node::Fixed(&LIST)
        }
        (_, "Status") => Node::Named("io.k8s.apimachinery.pkg.apis.meta.v1.Status"),
        (_, list) if list.ends_with("List") && value.get("items").is_some() => {
            if builtin_kind(api_version, &list[..list.len() - 4]).is_some() {
                Node::Fixed(&LIST)
            } else {
                Node::Sorted
            }
        }
        _ => Node::Sorted,
    }
}

/// A member of an object being written: its rank, key, value and node.
type Member<'v> = (u16, &'v String, &'v Value, Node);

/// Writes `value` as `node` says. `members` is room for the members of the objects being
/// written, one above another as they nest (one allocation for the whole value).
fn write<'v>(value: &'v Value, node: Node, out: &mut Vec<u8>, members: &mut Vec<Member<'v>>) {
    let schema = smp_ssa::builtin::schema();
    let node = match node {
        Node::Own if value.is_object() => own(value),
        Node::Named(name) => schema.named(name).map_or(Node::Sorted, Node::Typed),
        other => other,
    };
    match value {
        Value::Object(map) => {
            let start = members.len();
            match node {
                Node::Typed(ty) => order::typed(schema, ty, map, members),
                Node::Fixed(fixed) => members.extend(map.iter().map(|(k, v)| {
                    match fixed.iter().position(|(name, _)| name == k) {
                        Some(i) => (rank(i), k, v, fixed[i].1),
                        None => (u16::MAX, k, v, Node::Sorted),
                    }
                })),
                _ => members.extend(map.iter().map(|(k, v)| (0, k, v, Node::Sorted))),
            }
            // Stable: members of one rank (those no type declares) stay sorted.
            let own = &mut members[start..];
            if !own.is_sorted_by_key(|m| m.0) {
                own.sort_by_key(|m| m.0);
            }
            out.push(b'{');
            for at in start..members.len() {
                if at > start {
                    out.push(b',');
                }
                let (_, key, value, child) = members[at];
                string(key, out);
                out.push(b':');
                write(value, child, out, members);
            }
            members.truncate(start);
            out.push(b'}');
        }
        Value::Array(items) => {
            let item = match node {
                Node::Typed(ty) => schema
                    .resolve(ty)
                    .list
                    .map_or(Node::Sorted, |list| Node::Typed(list.item)),
                Node::Each(item) => *item,
                _ => Node::Sorted,
            };
            out.push(b'[');
            for (i, value) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write(value, item, out, members);
            }
            out.push(b']');
        }
        Value::String(text) => string(text, out),
        scalar => {
            // Numbers, booleans and null are written as serde_json writes them.
            let _ = serde_json::to_writer(&mut *out, scalar);
        }
    }
}

/// A position in a fixed order (orders are short).
fn rank(i: usize) -> u16 {
    u16::try_from(i).unwrap_or(u16::MAX - 1)
}

/// A string as Go writes it: `"`, `\` and control characters escaped, and `<`, `>`, `&`,
/// U+2028 and U+2029 as `\u` escapes (Go's HTML-safe default).
fn string(text: &str, out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = text.as_bytes();
    out.push(b'"');
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let escape: Option<&[u8]> = match b {
            b'"' => Some(b"\\\""),
            b'\\' => Some(b"\\\\"),
            b'\n' => Some(b"\\n"),
            b'\r' => Some(b"\\r"),
            b'\t' => Some(b"\\t"),
            0x08 => Some(b"\\b"),
            0x0c => Some(b"\\f"),
            // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
            0xe2 if bytes.get(i + 1) == Some(&0x80)
                && matches!(bytes.get(i + 2), Some(0xa8 | 0xa9)) =>
            {
                out.extend_from_slice(&bytes[start..i]);
                out.extend_from_slice(if bytes[i + 2] == 0xa8 {
                    b"\\u2028"
                } else {
                    b"\\u2029"
                });
                i += 3;
                start = i;
                continue;
            }
            b if b < 0x20 || matches!(b, b'<' | b'>' | b'&') => {
                out.extend_from_slice(&bytes[start..i]);
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 0xf)]);
                i += 1;
                start = i;
                continue;
            }
            _ => None,
        };
        if let Some(escape) = escape {
            out.extend_from_slice(&bytes[start..i]);
            out.extend_from_slice(escape);
            start = i + 1;
        }
        i += 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

#[cfg(test)]
mod tests;
