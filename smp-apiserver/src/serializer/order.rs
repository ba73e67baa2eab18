//! The Go declaration order of each built-in type's members, read once from
//! `field_order.json` and kept by type as a rank for each of the type's fields.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::{Map, Value};
use smp_ssa::schema::{Schema, TypeRef};

use super::{Member, Node};

const FIELD_ORDER: &str = include_str!("field_order.json");

/// For each type (by id), the rank of each of its fields, in the order the schema keeps them
/// (sorted by name); `None` for types with no declared order.
fn ranks(schema: &'static Schema) -> &'static [Option<Vec<u16>>] {
    static RANKS: OnceLock<Vec<Option<Vec<u16>>>> = OnceLock::new();
    RANKS.get_or_init(|| {
        let orders: HashMap<String, Vec<String>> =
            serde_json::from_str(FIELD_ORDER).unwrap_or_default();
        let mut ranks: Vec<Option<Vec<u16>>> = Vec::new();
        for (name, members) in &orders {
            let Some(ty) = schema.named(name) else {
                continue;
            };
            let Some(map) = schema.resolve(ty).map else {
                continue;
            };
            let position: HashMap<&str, u16> = members
                .iter()
                .enumerate()
                .map(|(i, m)| (m.as_str(), u16::try_from(i).unwrap_or(u16::MAX - 1)))
                .collect();
            let id = ty.id();
            if ranks.len() <= id {
                ranks.resize(id + 1, None);
            }
            ranks[id] = Some(
                map.fields
                    .iter()
                    .map(|f| position.get(f.name.as_str()).copied().unwrap_or(u16::MAX))
                    .collect(),
            );
        }
        ranks
    })
}

/// Adds the members of `map`, an object of type `ty`, each with its rank and node: declared
/// fields by their type's order and of their own types, other keys after them (of the type
/// of other keys, if the type has one).
pub(super) fn typed<'v>(
    schema: &'static Schema,
    ty: TypeRef,
    map: &'v Map<String, Value>,
    members: &mut Vec<Member<'v>>,
) {
    let Some(view) = schema.resolve(ty).map else {
        members.extend(map.iter().map(|(k, v)| (0, k, v, Node::Sorted)));
        return;
    };
    let ranks = ranks(schema).get(ty.id()).and_then(Option::as_ref);
    let rest = view.rest.map_or(Node::Sorted, Node::Typed);
    let fields = view.fields;
    // Both are sorted by name: one walk pairs each member with its field.
    let mut at = 0;
    members.extend(map.iter().map(|(key, value)| {
        while at < fields.len() && fields[at].name.as_str() < key.as_str() {
            at += 1;
        }
        match fields.get(at).filter(|f| f.name == *key) {
            Some(field) => {
                let rank = ranks.and_then(|r| r.get(at).copied()).unwrap_or(0);
                (rank, key, value, Node::Typed(field.ty))
            }
            None => (u16::MAX, key, value, rest),
        }
    }));
}
