//! Normalization and validation of untyped documents, guided by a schema's unions.
//!
//! The walk visits what the document holds, not what the schema declares: fields the schema
//! does not know, and values of the wrong JSON type (a member that is a string where an
//! object is expected), are passed over, never an error. A member counts as set when it is
//! present and not `null`; the discriminator is read only when it is a string.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::deep::MAX_DEPTH;
use crate::error::Segment;
use crate::hash::{HashedKey, KeyedState};
use crate::schema::embedded;
use crate::schema::{FieldMeta, Node, TypeDef, UnionDef};

use super::UnionError;
use super::rules::{check_union, decide, member_path};

/// One position of the walk: the new value, its old counterpart, and its type.
pub(crate) fn normalize_at(
    new: &mut Value,
    old: Option<&Value>,
    node: Node<'_>,
    merge_key: Option<&str>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    // An embedded resource is typed by its kind; an old one of another kind is no partner.
    let (node, old) = match &*new {
        Value::Object(map) if node.is_embedded() => {
            let same = |o: &&Value| o.as_object().is_some_and(|o| embedded::same_kind(o, map));
            (node.for_object(map), old.filter(same))
        }
        _ => (node, old),
    };
    match (new, node.def()) {
        (Value::Object(map), TypeDef::Struct(_)) => {
            let old = old.and_then(Value::as_object);
            for union in node.unions() {
                normalize_union(union, map, old);
            }
            for (name, value) in map.iter_mut() {
                let meta = node.field(name);
                if meta.declared {
                    let old = old.and_then(|o| o.get(name));
                    normalize_at(value, old, meta.node, list_key(&meta), depth + 1);
                }
            }
        }
        (Value::Object(map), TypeDef::Map(_)) => {
            let old = old.and_then(Value::as_object);
            for (name, value) in map.iter_mut() {
                let old = old.and_then(|o| o.get(name));
                normalize_at(value, old, node.field(name).node, None, depth + 1);
            }
        }
        (Value::Array(items), TypeDef::List(_)) => {
            let old = old.and_then(Value::as_array);
            let partners = Partners::new(old, merge_key);
            for item in items.iter_mut() {
                let partner = partners.of(item);
                normalize_at(item, partner, node.items(), None, depth + 1);
            }
        }
        _ => {}
    }
}

/// The old items of a list merged by a key, by their key's value: each new item's partner is
/// the first old item with the same key (none for a list without a key, or an item without a
/// value for it).
struct Partners<'o> {
    key: Option<&'o str>,
    old: &'o [Value],
    first: HashMap<HashedKey<'o>, usize, KeyedState>,
}

impl<'o> Partners<'o> {
    fn new(old: Option<&'o Vec<Value>>, key: Option<&'o str>) -> Partners<'o> {
        let old: &[Value] = old.map_or(&[], Vec::as_slice);
        let mut first = HashMap::default();
        if let Some(key) = key {
            for (i, o) in old.iter().enumerate() {
                if let Some(v) = o.get(key) {
                    first.entry(HashedKey(v)).or_insert(i);
                }
            }
        }
        Partners { key, old, first }
    }

    fn of(&self, item: &Value) -> Option<&'o Value> {
        let value = item.get(self.key?).filter(|v| !v.is_null())?;
        self.first.get(&HashedKey(value)).map(|&i| &self.old[i])
    }
}

/// The key that identifies list items at a field: only lists merged by a key have one.
fn list_key<'s>(meta: &FieldMeta<'s>) -> Option<&'s str> {
    if meta.strategy.merges_lists() {
        meta.merge_key
    } else {
        None
    }
}

fn is_set(map: &Map<String, Value>, field: &str) -> bool {
    map.get(field).is_some_and(|v| !v.is_null())
}

fn discriminator<'m>(union: &UnionDef, map: &'m Map<String, Value>) -> Option<&'m str> {
    map.get(union.discriminator.as_deref()?)?.as_str()
}

fn normalize_union(
    union: &UnionDef,
    map: &mut Map<String, Value>,
    old: Option<&Map<String, Value>>,
) {
    let new_set: Vec<bool> = union
        .members
        .iter()
        .map(|m| is_set(map, &m.field))
        .collect();
    let old_set: Vec<bool> = union
        .members
        .iter()
        .map(|m| old.is_some_and(|o| is_set(o, &m.field)))
        .collect();
    let decision = decide(
        union,
        discriminator(union, map),
        old.and_then(|o| discriminator(union, o)),
        &new_set,
        &old_set,
    );
    for (i, member) in union.members.iter().enumerate() {
        // Clearing makes a member unset; a `null` one already is, and stays as it was.
        if decision.clears(i) && new_set[i] {
            map.remove(&*member.field);
        }
    }
    if let (Some(field), Some(i)) = (&union.discriminator, decision.discriminator) {
        if let Some(member) = union.members.get(i) {
            map.insert(
                field.to_string(),
                Value::String(member.discriminated_by.to_string()),
            );
        }
    }
}

pub(crate) fn validate_at(
    doc: &Value,
    node: Node<'_>,
    merge_key: Option<&str>,
    path: &mut Vec<Segment>,
    out: &mut Vec<UnionError>,
) {
    if path.len() > MAX_DEPTH {
        return;
    }
    let node = match doc {
        Value::Object(map) => node.for_object(map),
        _ => node,
    };
    match (doc, node.def()) {
        (Value::Object(map), TypeDef::Struct(_)) => {
            for union in node.unions() {
                let set: Vec<bool> = union
                    .members
                    .iter()
                    .map(|m| is_set(map, &m.field))
                    .collect();
                check_union(union, discriminator(union, map), &set, path, out);
            }
            for (name, value) in map {
                let meta = node.field(name);
                if meta.declared {
                    path.push(Segment::Field(name.clone()));
                    validate_at(value, meta.node, list_key(&meta), path, out);
                    path.pop();
                }
            }
        }
        (Value::Object(map), TypeDef::Map(_)) => {
            for (name, value) in map {
                path.push(Segment::Field(name.clone()));
                validate_at(value, node.field(name).node, None, path, out);
                path.pop();
            }
        }
        (Value::Array(items), TypeDef::List(_)) => {
            for (i, item) in items.iter().enumerate() {
                let key_value = merge_key.and_then(|k| item.get(k));
                path.push(member_path(merge_key, key_value, i));
                validate_at(item, node.items(), None, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}
