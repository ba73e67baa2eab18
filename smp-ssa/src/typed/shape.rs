//! Which of a type's shapes a value takes, for the walks that compare two values (merge and
//! compare): a value of a kind the type allows takes that shape; a missing or `null` value, or
//! one the type does not allow, leaves the type whole, to be picked from objects first, then
//! scalars, then lists.

use serde_json::Value;

pub(crate) use crate::fieldpath::value::maps_are_sorted;
use crate::fieldpath::value::{compare_bytes, same_str};
use crate::schema::{List, MapView, Resolved, Scalar};

/// A shape of a type.
#[derive(Clone, Copy)]
pub(crate) enum Shape<'s> {
    Map(MapView<'s>),
    Scalar(Scalar),
    List(&'s List),
    /// The type has no shape at all (a broken reference).
    None,
}

impl Shape<'_> {
    /// Whether two shapes of one type are the same one (they come from the same type, so
    /// their kind says it).
    pub(crate) fn same(self, other: Shape<'_>) -> bool {
        std::mem::discriminant(&self) == std::mem::discriminant(&other)
    }
}

/// What a value deduces of its type: one shape, or the type whole.
#[derive(Clone, Copy)]
pub(crate) enum Deduced<'s> {
    One(Shape<'s>),
    Whole(Resolved<'s>),
}

impl<'s> Deduced<'s> {
    pub(crate) fn of(atom: Resolved<'s>, value: Option<&Value>) -> Deduced<'s> {
        let one = match value {
            Some(Value::Object(_)) => atom.map.map(Shape::Map),
            Some(Value::Array(_)) => atom.list.map(Shape::List),
            Some(Value::Null) | None => None,
            Some(_) => atom.scalar.map(Shape::Scalar),
        };
        one.map_or(Deduced::Whole(atom), Deduced::One)
    }

    /// The shape a walk handles.
    pub(crate) fn shape(self) -> Shape<'s> {
        match self {
            Deduced::One(shape) => shape,
            Deduced::Whole(atom) => atom
                .map
                .map(Shape::Map)
                .or(atom.scalar.map(Shape::Scalar))
                .or(atom.list.map(Shape::List))
                .unwrap_or(Shape::None),
        }
    }

    /// Whether two values of one type deduced the same (both come from the same type, so the
    /// kind of deduction says it).
    pub(crate) fn same(self, other: Deduced<'s>) -> bool {
        let kind = |d: Deduced<'_>| match d {
            Deduced::Whole(_) => 0,
            Deduced::One(Shape::Map(_)) => 1,
            Deduced::One(Shape::Scalar(_)) => 2,
            Deduced::One(Shape::List(_)) => 3,
            Deduced::One(Shape::None) => 4,
        };
        kind(self) == kind(other)
    }
}

/// The shape to compare or merge two values of one type by, and the left side's own when it
/// differs (walked for what it finds; two different shapes never share children: an object's
/// are fields, a list's items).
pub(crate) fn shapes<'s>(
    atom: Resolved<'s>,
    lhs: Option<&Value>,
    rhs: Option<&Value>,
) -> (Shape<'s>, Option<Shape<'s>>) {
    let (left, right) = (Deduced::of(atom, lhs), Deduced::of(atom, rhs));
    if rhs.is_none() {
        (left.shape(), None)
    } else if lhs.is_none() || left.same(right) || left.shape().same(right.shape()) {
        (right.shape(), None)
    } else {
        (right.shape(), Some(left.shape()))
    }
}

/// Whether `value` (absent or `null` always do) fits scalar kind `kind`; the error otherwise.
pub(crate) fn check_scalar(kind: Scalar, value: Option<&Value>) -> Result<(), String> {
    let fits = match (kind, value) {
        (_, None | Some(Value::Null)) => true,
        (Scalar::Numeric, Some(Value::Number(_))) => true,
        (Scalar::String, Some(Value::String(_))) => true,
        (Scalar::Boolean, Some(Value::Bool(_))) => true,
        (Scalar::Untyped, Some(v)) => !v.is_array() && !v.is_object(),
        _ => false,
    };
    if fits {
        return Ok(());
    }
    let expected = match kind {
        Scalar::Numeric => "numeric (int or float)",
        Scalar::String => "string",
        Scalar::Boolean => "boolean",
        Scalar::Untyped => "any scalar",
    };
    Err(format!(
        "expected {expected}, got {}",
        kind_of(value.unwrap_or(&Value::Null))
    ))
}

/// A value's kind, as errors name it.
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "map",
    }
}

/// A value as a list: `None` when absent, `null` or not a list.
pub(crate) fn as_list(value: Option<&Value>) -> Option<&[Value]> {
    match value {
        Some(Value::Array(items)) => Some(items),
        _ => None,
    }
}

/// A value as an object: `None` when absent, `null` or not an object.
pub(crate) fn as_map(value: Option<&Value>) -> Option<&serde_json::Map<String, Value>> {
    match value {
        Some(Value::Object(map)) => Some(map),
        _ => None,
    }
}

/// One key of two objects of one object type: its values on each side, and its type (`None`:
/// not declared).
pub(crate) struct Entry<'v, 's> {
    pub(crate) key: &'v String,
    pub(crate) lhs: Option<&'v Value>,
    pub(crate) rhs: Option<&'v Value>,
    pub(crate) ty: Option<crate::schema::TypeRef>,
    /// Whether the key is a declared field (rather than a key of the type of other keys).
    pub(crate) declared: bool,
    _schema: std::marker::PhantomData<&'s ()>,
}

/// The keys of `lhs` and `rhs` (either may be absent), each once, with their values and types.
/// With sorted maps, one merge of the two key lists and the type's sorted fields; otherwise by
/// lookups.
pub(crate) fn entries<'v, 's>(
    map: MapView<'s>,
    lhs: Option<&'v serde_json::Map<String, Value>>,
    rhs: Option<&'v serde_json::Map<String, Value>>,
) -> Vec<Entry<'v, 's>> {
    entries_by(map, lhs, rhs, maps_are_sorted())
}

fn entries_by<'v, 's>(
    map: MapView<'s>,
    lhs: Option<&'v serde_json::Map<String, Value>>,
    rhs: Option<&'v serde_json::Map<String, Value>>,
    sorted: bool,
) -> Vec<Entry<'v, 's>> {
    let entry = |key, lhs, rhs, field: Option<crate::schema::TypeRef>| Entry {
        key,
        lhs,
        rhs,
        ty: field.or(map.rest),
        declared: field.is_some(),
        _schema: std::marker::PhantomData,
    };
    let mut out = Vec::with_capacity(lhs.map_or(0, |m| m.len()).max(rhs.map_or(0, |m| m.len())));
    if !sorted {
        for (key, l) in lhs.into_iter().flatten() {
            let field = map.field(key).map(|f| f.ty);
            out.push(entry(key, Some(l), rhs.and_then(|r| r.get(key)), field));
        }
        for (key, r) in rhs.into_iter().flatten() {
            if lhs.is_none_or(|l| !l.contains_key(key)) {
                out.push(entry(key, None, Some(r), map.field(key).map(|f| f.ty)));
            }
        }
        return out;
    }
    let mut l = lhs.into_iter().flatten().peekable();
    let mut r = rhs.into_iter().flatten().peekable();
    let mut fields = map.fields.iter().peekable();
    loop {
        let order = match (l.peek(), r.peek()) {
            (Some((lk, _)), Some((rk, _))) => compare_bytes(lk.as_bytes(), rk.as_bytes()),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => break,
        };
        let (key, lv, rv) = match order {
            std::cmp::Ordering::Less => match l.next() {
                Some((k, v)) => (k, Some(v), None),
                None => break,
            },
            std::cmp::Ordering::Greater => match r.next() {
                Some((k, v)) => (k, None, Some(v)),
                None => break,
            },
            std::cmp::Ordering::Equal => match (l.next(), r.next()) {
                (Some((k, lv)), Some((_, rv))) => (k, Some(lv), Some(rv)),
                _ => break,
            },
        };
        while fields
            .next_if(|f| compare_bytes(f.name.as_bytes(), key.as_bytes()).is_lt())
            .is_some()
        {}
        let field = match fields.peek() {
            Some(f) if same_str(&f.name, key) => Some(f.ty),
            _ => None,
        };
        out.push(entry(key, lv, rv, field));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{Atom, Field, MapType, Scalar, SchemaBuilder};
    use serde_json::json;

    /// The merge of sorted keys and the lookups give the same entries (the lookups serve
    /// programs whose serde_json keeps insertion order).
    #[test]
    fn both_ways_of_pairing_keys_agree() {
        let mut b = SchemaBuilder::new();
        let string = b.add(Atom {
            scalar: Some(Scalar::String),
            ..Atom::default()
        });
        let rest = b.deduced();
        let fields = ["b", "d", "f"]
            .map(|name| Field {
                name: name.into(),
                ty: string,
                default: None,
            })
            .to_vec();
        let ty = b.add(Atom {
            map: Some(MapType {
                fields,
                rest: Some(rest),
                atomic: false,
            }),
            ..Atom::default()
        });
        let schema = b.build();
        let map = schema.resolve(ty).map.unwrap();
        let l = json!({"a": 1, "b": 2, "d": 3, "z": 4});
        let r = json!({"b": 5, "c": 6, "f": 7});
        let show = |sorted: bool| {
            let mut v: Vec<_> = entries_by(map, l.as_object(), r.as_object(), sorted)
                .into_iter()
                .map(|e| {
                    (
                        e.key.clone(),
                        e.lhs.cloned(),
                        e.rhs.cloned(),
                        e.ty,
                        e.declared,
                    )
                })
                .collect();
            v.sort_by(|a, b| a.0.cmp(&b.0));
            v
        };
        assert_eq!(show(true), show(false));
        assert_eq!(show(true).len(), 6);
        assert!(
            show(true)
                .iter()
                .all(|e| e.4 == ["b", "d", "f"].contains(&e.0.as_str()))
        );
    }
}

/// How a walk reads objects: the field manager's walks pass over an object's
/// `metadata.managedFields` (nobody owns them, and the object's own are written anew), so that
/// they need no copy of the object without them.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Walking {
    pub(crate) skip_managed_fields: bool,
    /// The right-hand side of a merge was checked against the type already: what only it
    /// holds is taken as it is, not walked again.
    pub(crate) checked_rhs: bool,
}

impl Walking {
    /// Whether the key `key` of the object at `path` is passed over.
    pub(crate) fn skips(self, path: &[crate::fieldpath::PathElement], key: &str) -> bool {
        self.skip_managed_fields
            && key == "managedFields"
            && matches!(path, [crate::fieldpath::PathElement::Field(m)] if m.as_str() == "metadata")
    }
}
