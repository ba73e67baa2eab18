//! Comparing two values of one type, field by field: what an update or an apply added, changed
//! and removed, which is what the field manager gives to, takes from and checks against each
//! manager.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use super::items::Index;
use super::shape::{Deduced, Shape, as_list, as_map, check_scalar};
use super::{ValidationError, ValidationErrors};
use crate::fieldpath::{Path, PathElement, Set, value};
use crate::schema::{List, ListKind, MapView, Schema, TypeRef};

/// The fields one value has and the other has not, or has with another value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Fields only the old value has.
    pub removed: Set,
    /// Fields both have, with different values (for a scalar, or a value owned whole).
    pub modified: Set,
    /// Fields only the new value has.
    pub added: Set,
}

impl Comparison {
    /// Whether nothing differs.
    pub fn is_same(&self) -> bool {
        self.removed.is_empty() && self.modified.is_empty() && self.added.is_empty()
    }
}

/// How `rhs` (the new value) differs from `lhs` (the old one), both of type `ty`.
pub fn compare(
    schema: &Schema,
    ty: TypeRef,
    lhs: &Value,
    rhs: &Value,
) -> Result<Comparison, ValidationErrors> {
    let mut c = Comparer {
        schema,
        path: Vec::new(),
        errors: Vec::new(),
        removed: Vec::new(),
        modified: Vec::new(),
        added: Vec::new(),
    };
    c.node(ty, Some(lhs), Some(rhs));
    if !c.errors.is_empty() {
        return Err(ValidationErrors(c.errors));
    }
    Ok(Comparison {
        removed: Set::from_paths(c.removed),
        modified: Set::from_paths(c.modified),
        added: Set::from_paths(c.added),
    })
}

/// Which of the three a path goes to.
#[derive(Clone, Copy)]
enum Change {
    Removed,
    Modified,
    Added,
}

struct Comparer<'s> {
    schema: &'s Schema,
    path: Vec<PathElement>,
    errors: Vec<ValidationError>,
    removed: Vec<Path>,
    modified: Vec<Path>,
    added: Vec<Path>,
}

impl Comparer<'_> {
    fn error(&mut self, message: impl Into<String>) {
        self.errors.push(ValidationError {
            path: self.path.iter().map(ToString::to_string).collect(),
            message: message.into(),
        });
    }

    fn record(&mut self, change: Change, below: Option<&PathElement>) {
        let mut path = Vec::with_capacity(self.path.len() + 1);
        path.extend_from_slice(&self.path);
        path.extend(below.cloned());
        let to = match change {
            Change::Removed => &mut self.removed,
            Change::Modified => &mut self.modified,
            Change::Added => &mut self.added,
        };
        to.push(Path(path));
    }

    fn node(&mut self, ty: TypeRef, lhs: Option<&Value>, rhs: Option<&Value>) {
        if self.path.len() > smp_core::MAX_DEPTH {
            self.error(format!(
                "nested more than {} levels deep",
                smp_core::MAX_DEPTH
            ));
            return;
        }
        let atom = self.schema.resolve(ty);
        let (left, right) = (Deduced::of(atom, lhs), Deduced::of(atom, rhs));
        let leaf = if rhs.is_none() {
            self.shape(left.shape(), lhs, rhs)
        } else if lhs.is_none() || left.same(right) {
            self.shape(right.shape(), lhs, rhs)
        } else {
            // Different shapes: the left side is walked against its own too, and what it
            // finds counts; whether the node is a leaf is the right side's shape's say.
            self.shape(left.shape(), lhs, rhs);
            self.shape(right.shape(), lhs, rhs)
        };
        if !leaf {
            match (lhs, rhs) {
                (None, _) => self.record(Change::Added, None),
                (_, None) => self.record(Change::Removed, None),
                _ => {}
            }
        }
    }

    /// Compares by one shape; whether the node was a leaf (and so recorded already).
    fn shape(&mut self, shape: Shape<'_>, lhs: Option<&Value>, rhs: Option<&Value>) -> bool {
        match shape {
            Shape::Scalar(kind) => {
                let (l, r) = (check_scalar(kind, lhs), check_scalar(kind, rhs));
                if let (Err(l), Err(r)) = (l, r) {
                    self.error(format!("lhs: {l}"));
                    self.error(format!("rhs: {r}"));
                    return false;
                }
                self.leaf(lhs, rhs);
                true
            }
            Shape::List(list) => self.list(list, lhs, rhs),
            Shape::Map(map) => self.map(map, lhs, rhs),
            Shape::None => {
                self.error("schema error: no type found matching this value's type");
                false
            }
        }
    }

    fn leaf(&mut self, lhs: Option<&Value>, rhs: Option<&Value>) {
        match (lhs, rhs) {
            (None, _) => self.record(Change::Added, None),
            (_, None) => self.record(Change::Removed, None),
            (Some(l), Some(r)) if !equal(l, r) => self.record(Change::Modified, None),
            _ => {}
        }
    }

    fn list(&mut self, list: &List, lhs: Option<&Value>, rhs: Option<&Value>) -> bool {
        let (l, r) = (as_list(lhs), as_list(rhs));
        let empty = l.is_none_or(<[Value]>::is_empty) && r.is_none_or(<[Value]>::is_empty);
        if list.kind == ListKind::Atomic || empty {
            self.leaf(lhs, rhs);
            return true;
        }
        let (l, r) = (l.unwrap_or_default(), r.unwrap_or_default());
        let (left, left_errors) = Index::new(self.schema, &list.kind, list.item, l);
        let (right, right_errors) = Index::new(self.schema, &list.kind, list.item, r);
        for (i, message) in left_errors.into_iter().chain(right_errors) {
            self.error(format!("element {i}: {message}"));
        }
        // Each element once: the left side's in their order, then the right side's new ones.
        let mut elements: Vec<&PathElement> = Vec::with_capacity(l.len().max(r.len()));
        for (i, (element, _)) in left.items.iter().enumerate() {
            if first(&left, i) {
                elements.push(element);
            }
        }
        for (i, (element, _)) in right.items.iter().enumerate() {
            if first(&right, i) && !left.has(element) {
                elements.push(element);
            }
        }
        for element in elements {
            let ls: Vec<&Value> = left.get(element).collect();
            let rs: Vec<&Value> = right.get(element).collect();
            match (ls.len(), rs.len()) {
                (0..=1, 0..=1) => {
                    self.item(list, element, ls.first().copied(), rs.first().copied());
                }
                (2.., 2..) => {
                    let same = ls.len() == rs.len() && ls.iter().zip(&rs).all(|(a, b)| equal(a, b));
                    if !same {
                        self.record(Change::Modified, Some(element));
                    }
                }
                (2.., _) => {
                    if let Some(r) = rs.first() {
                        self.item(list, element, None, Some(r));
                    }
                    self.record(Change::Removed, Some(element));
                }
                (_, _) => {
                    if let Some(l) = ls.first() {
                        self.item(list, element, Some(l), None);
                    }
                    self.record(Change::Added, Some(element));
                }
            }
        }
        false
    }

    fn item(
        &mut self,
        list: &List,
        element: &PathElement,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
    ) {
        self.path.push(element.clone());
        self.node(list.item, lhs, rhs);
        self.path.pop();
    }

    fn map(&mut self, map: MapView<'_>, lhs: Option<&Value>, rhs: Option<&Value>) -> bool {
        let (l, r) = (as_map(lhs), as_map(rhs));
        let empty = l.is_none_or(Map::is_empty) && r.is_none_or(Map::is_empty);
        if map.atomic || empty {
            self.leaf(lhs, rhs);
            return true;
        }
        let keys = l.into_iter().flat_map(Map::keys);
        let new_keys = r
            .into_iter()
            .flat_map(Map::keys)
            .filter(|k| l.is_none_or(|l| !l.contains_key(*k)));
        for key in keys.chain(new_keys) {
            self.path.push(PathElement::field(key.as_str()));
            match map.type_of(key) {
                Some(ty) => self.node(ty, l.and_then(|l| l.get(key)), r.and_then(|r| r.get(key))),
                None => self.error("field not declared in schema"),
            }
            self.path.pop();
        }
        false
    }
}

/// Whether the item at position `i` is the first of its element.
fn first(index: &Index<'_>, i: usize) -> bool {
    let (element, item) = &index.items[i];
    index
        .get(element)
        .next()
        .is_some_and(|first| std::ptr::eq(first, *item))
}

/// Values equal as the field manager compares them (numbers by value: `1` equals `1.0`).
pub(crate) fn equal(a: &Value, b: &Value) -> bool {
    value::compare(a, b) == Ordering::Equal
}
