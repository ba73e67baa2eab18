//! Taking a set's fields out of a value, or only those: what an apply prunes when its manager
//! stops applying fields, and what an extract gives back of a manager's fields.

use serde_json::{Map, Value};

use super::items;
use super::shape::{Deduced, Shape};
use crate::fieldpath::set::{Node, find_all};
use crate::fieldpath::{PathElement, Set};
use crate::schema::{ListKind, Schema, TypeRef};

/// `value` without the fields of `set` (a field the set holds goes with all below it).
/// An object or list left empty is dropped from its parent, and `null` stands for a value
/// left with nothing.
pub fn remove_items(schema: &Schema, ty: TypeRef, value: &Value, set: &Set) -> Value {
    let walk = Remove {
        schema,
        extract: false,
    };
    walk.value(Some(ty), value, set.nodes(), 0)
        .unwrap_or(Value::Null)
}

/// Only the fields of `set` of `value` (a field the set holds comes with all below it), as
/// the field manager extracts what one manager owns.
pub fn extract_items(schema: &Schema, ty: TypeRef, value: &Value, set: &Set) -> Value {
    let walk = Remove {
        schema,
        extract: true,
    };
    walk.value(Some(ty), value, set.nodes(), 0)
        .unwrap_or(Value::Null)
}

struct Remove<'s> {
    schema: &'s Schema,
    /// Keep the set's fields rather than drop them.
    extract: bool,
}

impl Remove<'_> {
    /// `value` with the fields of `level` (the set below its path) taken out, or kept.
    fn value(
        &self,
        ty: Option<TypeRef>,
        value: &Value,
        level: &[Node],
        depth: usize,
    ) -> Option<Value> {
        if depth > smp_core::MAX_DEPTH {
            return None;
        }
        let atom = self.schema.resolve(ty?);
        match Deduced::of(atom, Some(value)).shape() {
            Shape::Scalar(_) => Some(value.clone()),
            Shape::List(list) => {
                let items = value.as_array().filter(|items| !items.is_empty())?;
                if list.kind == ListKind::Atomic {
                    return self.extract.then(|| value.clone());
                }
                let elements: Vec<Option<PathElement>> = items
                    .iter()
                    .map(|item| items::element(self.schema, &list.kind, list.item, item).ok())
                    .collect();
                let refs: Vec<Option<&PathElement>> = elements.iter().map(Option::as_ref).collect();
                let found = find_all(level, &refs);
                let mut out = Vec::new();
                for (item, found) in items.iter().zip(found) {
                    let (member, below) = found.map_or((false, &[][..]), |(n, b)| (n.member, b));
                    if member {
                        if !self.extract {
                            continue;
                        }
                        // The item whole, read against the level it is in (as the server does).
                        out.push(
                            self.value(Some(list.item), item, level, depth + 1)
                                .unwrap_or(Value::Null),
                        );
                    }
                    if !below.is_empty() {
                        out.push(
                            self.value(Some(list.item), item, below, depth + 1)
                                .unwrap_or(Value::Null),
                        );
                    } else if !self.extract {
                        out.push(item.clone());
                    }
                }
                (!out.is_empty()).then_some(Value::Array(out))
            }
            Shape::Map(map) => {
                let object = value.as_object().filter(|o| !o.is_empty())?;
                if map.atomic {
                    return self.extract.then(|| value.clone());
                }
                let elements: Vec<PathElement> = object
                    .keys()
                    .map(|k| PathElement::field(k.as_str()))
                    .collect();
                let refs: Vec<Option<&PathElement>> = elements.iter().map(Some).collect();
                let found = find_all(level, &refs);
                let mut out = Map::new();
                for ((key, child), found) in object.iter().zip(found) {
                    let (member, below) = found.map_or((false, &[][..]), |(n, b)| (n.member, b));
                    let ty = map.type_of(key);
                    if member {
                        if self.extract {
                            let kept = self.value(ty, child, level, depth + 1);
                            out.insert(key.clone(), kept.unwrap_or(Value::Null));
                        }
                        continue;
                    }
                    if !below.is_empty() {
                        let kept = self.value(ty, child, below, depth + 1);
                        out.insert(key.clone(), kept.unwrap_or(Value::Null));
                    } else if !self.extract {
                        out.insert(key.clone(), child.clone());
                    }
                }
                (!out.is_empty()).then_some(Value::Object(out))
            }
            Shape::None => None,
        }
    }
}

/// `set` with every declared field of an object that has fields below it made a member too
/// (`.spec` when `.spec.replicas` is in it, but not a map's key): pruning then takes an
/// object's declared field whole, as the server does.
pub(crate) fn named_fields_as_members(schema: &Schema, ty: TypeRef, set: &Set) -> Set {
    let mut out = set.clone();
    mark(schema, Some(ty), out.nodes_mut(), 0);
    out
}

fn mark(schema: &Schema, ty: Option<TypeRef>, level: &mut [Node], depth: usize) {
    if depth > smp_core::MAX_DEPTH {
        return;
    }
    let atom = ty.map(|ty| schema.resolve(ty)).unwrap_or_default();
    let mut at = 0;
    while at < level.len() {
        let below = level[at].below;
        let (child_ty, named) = match &level[at].element {
            PathElement::Field(name) => match atom.map {
                Some(m) => (m.type_of(name), m.field(name).is_some()),
                None => (None, false),
            },
            PathElement::Key(_) => (atom.list.map(|l| l.item), false),
            _ => (None, false),
        };
        if named && below > 0 {
            level[at].member = true;
        }
        mark(
            schema,
            child_ty,
            &mut level[at + 1..at + 1 + below],
            depth + 1,
        );
        at += 1 + below;
    }
}
