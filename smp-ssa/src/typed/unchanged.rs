//! The comparison's fast path: whether two values are the same and fit their type, found in one
//! walk that builds nothing.
//!
//! Most of what a write compares did not change. The comparison proper indexes every list's
//! items by key and tracks its path as elements, which costs allocations for each item; this
//! walk only looks. When it finds two values the same and fitting, the comparison has nothing
//! to record for them. When it does not, it says where it stopped (a [`Trail`]): what it passed
//! before that point was the same and fitting, and the comparison goes on from there with its
//! own walk, so that no value is walked twice, however deep the difference lies.
//!
//! The walk checks at least what the comparison checks where it descends (it may check more:
//! a value it refuses only costs the comparison's own walk), and it calls values the same only
//! where the comparison would find no change.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use super::shape::{Deduced, Shape, check_scalar, maps_are_sorted};
use crate::fieldpath::value;
use crate::schema::{ListKind, MapView, Schema, TypeRef};

/// Where the walk stopped, innermost first: each entry is the position of a child (an object's
/// key in order, a list's item) whose parent holds only the same, fitting children before it.
/// Empty: the walk stopped at the value itself, before looking at any child.
pub(crate) type Trail = Vec<usize>;

pub(crate) struct Unchanged<'s> {
    pub(crate) schema: &'s Schema,
    /// Whether `metadata.managedFields` of the root object is passed over.
    pub(crate) skip_managed_fields: bool,
}

impl Unchanged<'_> {
    /// Whether `lhs` and `rhs`, of type `ty` at `depth`, are the same and fit it. `managed`:
    /// the values are the root's `metadata` (whose `managedFields` the walk may pass over).
    pub(crate) fn check(
        &self,
        ty: TypeRef,
        lhs: &Value,
        rhs: &Value,
        depth: usize,
        metadata: bool,
    ) -> Result<(), Trail> {
        if depth > smp_core::MAX_DEPTH {
            return Err(Trail::new());
        }
        let atom = self.schema.resolve(ty);
        match (lhs, rhs) {
            (Value::Object(l), Value::Object(r)) => match Deduced::of(atom, Some(rhs)).shape() {
                // An atomic or empty object is a leaf to the comparison.
                Shape::Map(map) if map.atomic || (l.is_empty() && r.is_empty()) => leaf(lhs, rhs),
                Shape::Map(map) => self.map(map, l, r, depth, metadata),
                // The comparison takes the object whole (a leaf), or refuses it.
                Shape::List(_) => leaf(lhs, rhs),
                Shape::Scalar(_) | Shape::None => Err(Trail::new()),
            },
            (Value::Array(l), Value::Array(r)) => match Deduced::of(atom, Some(rhs)).shape() {
                // So is an atomic or empty list.
                Shape::List(list)
                    if list.kind == ListKind::Atomic || (l.is_empty() && r.is_empty()) =>
                {
                    leaf(lhs, rhs)
                }
                Shape::List(list) => self.list(&list.kind, list.item, l, r, depth),
                Shape::Map(_) => leaf(lhs, rhs),
                Shape::Scalar(_) | Shape::None => Err(Trail::new()),
            },
            (Value::Object(_) | Value::Array(_), _) | (_, Value::Object(_) | Value::Array(_)) => {
                Err(Trail::new())
            }
            _ if !same_scalar(lhs, rhs) => Err(Trail::new()),
            _ => match Deduced::of(atom, Some(rhs)).shape() {
                Shape::Scalar(kind) => check_scalar(kind, Some(rhs)).map_err(|_| Trail::new()),
                Shape::Map(_) | Shape::List(_) => Ok(()),
                Shape::None => Err(Trail::new()),
            },
        }
    }

    fn map(
        &self,
        map: MapView<'_>,
        l: &Map<String, Value>,
        r: &Map<String, Value>,
        depth: usize,
        metadata: bool,
    ) -> Result<(), Trail> {
        if l.len() != r.len() {
            return Err(Trail::new());
        }
        let skips = |key: &str| self.skip_managed_fields && metadata && key == "managedFields";
        let child = |i: usize, key: &String, lv: &Value, rv: &Value, ty: Option<TypeRef>| {
            if skips(key) {
                return Ok(());
            }
            let Some(ty) = ty else {
                // Not declared: the comparison says so.
                return Err(vec![i]);
            };
            let metadata = depth == 0 && key == "metadata";
            self.check(ty, lv, rv, depth + 1, metadata)
                .map_err(|mut trail| {
                    trail.push(i);
                    trail
                })
        };
        if maps_are_sorted() {
            // The keys of both in one order, and the type's fields beside them.
            let mut fields = map.fields.iter().peekable();
            for (i, ((lk, lv), (rk, rv))) in l.iter().zip(r).enumerate() {
                if !value::same_str(lk, rk) {
                    return Err(vec![i]);
                }
                while fields
                    .next_if(|f| value::compare_bytes(f.name.as_bytes(), lk.as_bytes()).is_lt())
                    .is_some()
                {}
                let ty = match fields.peek() {
                    Some(f) if value::same_str(&f.name, lk) => Some(f.ty),
                    _ => map.rest,
                };
                child(i, lk, lv, rv, ty)?;
            }
        } else {
            for (i, (key, lv)) in l.iter().enumerate() {
                let Some(rv) = r.get(key) else {
                    return Err(vec![i]);
                };
                child(i, key, lv, rv, map.type_of(key))?;
            }
        }
        Ok(())
    }

    fn list(
        &self,
        kind: &ListKind,
        item: TypeRef,
        l: &[Value],
        r: &[Value],
        depth: usize,
    ) -> Result<(), Trail> {
        if l.len() != r.len() {
            return Err(Trail::new());
        }
        for (i, (lv, rv)) in l.iter().zip(r).enumerate() {
            // Two items are looked into only when their keys are the same, so that what the
            // comparison pairs differently (by key) was not walked here first.
            if !self.names(kind, item, lv) || !same_keys(kind, lv, rv) {
                return Err(vec![i]);
            }
            self.check(item, lv, rv, depth + 1, false)
                .map_err(|mut trail| {
                    trail.push(i);
                    trail
                })?;
        }
        Ok(())
    }

    /// Whether an item of a list of `kind` has an element (the comparison's index refuses those
    /// that have none): a list map's item is an object with its key fields or their defaults,
    /// a set's a scalar.
    fn names(&self, kind: &ListKind, item: TypeRef, child: &Value) -> bool {
        match kind {
            ListKind::Map(keys) => {
                let Value::Object(object) = child else {
                    return false;
                };
                keys.iter().all(|name| {
                    object.contains_key(name)
                        || (self.schema.resolve(item).map)
                            .and_then(|m| m.field(name))
                            .is_some_and(|f| f.default.is_some())
                })
            }
            _ => !matches!(child, Value::Object(_) | Value::Array(_) | Value::Null),
        }
    }
}

/// Whether two items of a list map hold the same values in their key fields, as written.
fn same_keys(kind: &ListKind, lv: &Value, rv: &Value) -> bool {
    match (kind, lv, rv) {
        (ListKind::Map(keys), Value::Object(l), Value::Object(r)) => {
            keys.iter().all(|key| l.get(key) == r.get(key))
        }
        (ListKind::Map(_), _, _) => false,
        _ => true,
    }
}

/// A value the comparison takes whole: the same when equal as the field manager compares.
fn leaf(lhs: &Value, rhs: &Value) -> Result<(), Trail> {
    if equal(lhs, rhs) {
        Ok(())
    } else {
        Err(Trail::new())
    }
}

/// Whether two scalars are equal as `Value`'s `==` says (strings compared inline).
fn same_scalar(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) => value::same_str(x, y),
        _ => a == b,
    }
}

fn equal(a: &Value, b: &Value) -> bool {
    value::compare(a, b) == Ordering::Equal
}
