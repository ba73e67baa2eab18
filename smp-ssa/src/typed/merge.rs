//! Merging two values of one type, as an apply merges its configuration into the live object:
//! objects key by key, sets and list maps item by item (by element), and everything else (a
//! scalar, an atomic list or object, an empty or `null` list or object on both sides) taken
//! from the right-hand side when it has it.
//!
//! The items of a merged list come in the order the server gives them: the left-hand side's
//! order, the right-hand side's new items placed after the shared item they follow there, and
//! shared items moved to the right-hand side's order.

use serde_json::{Map, Value};

use super::items::Index;
use super::shape::{Shape, Walking, as_list, as_map, check_scalar, entries, shapes};
use super::{ValidationError, ValidationErrors};
use crate::fieldpath::PathElement;
use crate::schema::{List, ListKind, MapView, Schema, TypeRef};

/// `rhs` merged into `lhs`, both of type `ty`. `null` when neither holds anything.
pub fn merge(
    schema: &Schema,
    ty: TypeRef,
    lhs: &Value,
    rhs: &Value,
) -> Result<Value, ValidationErrors> {
    merge_with(schema, ty, lhs, rhs, Walking::default())
}

/// [`merge`], walking as `walking` says (what it passes over is left out of the result).
pub(crate) fn merge_with(
    schema: &Schema,
    ty: TypeRef,
    lhs: &Value,
    rhs: &Value,
    walking: Walking,
) -> Result<Value, ValidationErrors> {
    let mut merger = Merger {
        schema,
        path: Vec::new(),
        errors: Vec::new(),
        walking,
    };
    let out = merger.node(ty, Some(lhs), Some(rhs));
    if merger.errors.is_empty() {
        Ok(out.unwrap_or(Value::Null))
    } else {
        Err(ValidationErrors(merger.errors))
    }
}

/// An item repeated in a stored list merges as `null`: which of its copies to keep is unknown.
static NULL: Value = Value::Null;

struct Merger<'s> {
    schema: &'s Schema,
    path: Vec<PathElement>,
    errors: Vec<ValidationError>,
    walking: Walking,
}

impl Merger<'_> {
    fn error(&mut self, message: impl Into<String>) {
        self.errors.push(super::error_at(&self.path, message));
    }

    /// The merge of one node; `None` when it holds nothing.
    fn node(&mut self, ty: TypeRef, lhs: Option<&Value>, rhs: Option<&Value>) -> Option<Value> {
        if let Some(error) = super::too_deep(&self.path) {
            self.errors.push(error);
            return None;
        }
        if lhs.is_none() && self.walking.checked_rhs {
            // What only the (checked) right side holds merges to itself.
            return rhs.cloned();
        }
        let atom = self.schema.resolve(ty);
        // With two shapes, the left side's own is walked for its errors alone; the result is
        // the right side's.
        let (shape, aside) = shapes(atom, lhs, rhs);
        if let Some(left) = aside {
            self.shape(left, lhs, rhs);
        }
        self.shape(shape, lhs, rhs)
    }

    fn shape(
        &mut self,
        shape: Shape<'_>,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
    ) -> Option<Value> {
        match shape {
            Shape::Scalar(kind) => {
                let (l, r) = (check_scalar(kind, lhs), check_scalar(kind, rhs));
                if let (Err(l), Err(r)) = (l, r) {
                    self.error(format!("lhs: {l}"));
                    self.error(format!("rhs: {r}"));
                    return None;
                }
                leaf(lhs, rhs)
            }
            Shape::List(list) => self.list(list, lhs, rhs),
            Shape::Map(map) => self.map(map, lhs, rhs),
            Shape::None => {
                self.error("schema error: no type found matching this value's type");
                None
            }
        }
    }

    fn list(&mut self, list: &List, lhs: Option<&Value>, rhs: Option<&Value>) -> Option<Value> {
        let (l, r) = (as_list(lhs), as_list(rhs));
        let empty = l.is_none_or(<[Value]>::is_empty) && r.is_none_or(<[Value]>::is_empty);
        if list.kind == ListKind::Atomic || empty {
            return leaf(lhs, rhs);
        }
        let (l, r) = (l.unwrap_or_default(), r.unwrap_or_default());
        let (rhs_index, rhs_errors) = Index::new(self.schema, &list.kind, list.item, r);
        let (lhs_index, lhs_errors) = Index::new(self.schema, &list.kind, list.item, l);
        let mut failed = !rhs_errors.is_empty() || !lhs_errors.is_empty();
        for (i, message) in rhs_errors.into_iter().chain(lhs_errors) {
            self.error(format!("element {i}: {message}"));
        }
        // In the configuration (the right side) an element may appear once: each later
        // appearance is an error.
        for (element, item) in &rhs_index.items {
            let first = rhs_index.get(element).next();
            if first.is_some_and(|first| !std::ptr::eq(first, *item)) {
                self.error(format!("duplicate entries for key {element}"));
                failed = true;
            }
        }
        if failed {
            return None;
        }
        Some(Value::Array(self.items(list, &lhs_index, &rhs_index)))
            .filter(|v| v.as_array().is_some_and(|a| !a.is_empty()))
    }

    /// The merged items, in the server's order.
    fn items(&mut self, list: &List, lhs: &Index<'_>, rhs: &Index<'_>) -> Vec<Value> {
        let (left, right) = (&lhs.items, &rhs.items);
        let mut out = Vec::with_capacity(left.len().max(right.len()));
        // The left side's item for an element: the item, or `null` when it is repeated.
        let left_item = |e: &PathElement| lhs.one(e).map(|one| one.unwrap_or(&NULL));
        // Positions of the right side's items by element, and which are merged already.
        let mut right_sorted: Vec<usize> = (0..right.len()).collect();
        right_sorted.sort_by(|a, b| right[*a].0.cmp(&right[*b].0));
        let right_position = |e: &PathElement| {
            right_sorted
                .binary_search_by(|i| right[*i].0.cmp(e))
                .ok()
                .map(|at| right_sorted[at])
        };
        let mut merged = vec![false; right.len()];
        // The right side's items the left side has too, in the right side's order.
        let mut shared = (0..right.len()).filter(|i| lhs.has(&right[*i].0));
        let mut next_shared = shared.next();

        let (mut li, mut ri) = (0, 0);
        while li < left.len() || ri < right.len() {
            if li < left.len() && ri < right.len() {
                let element = &left[li].0;
                if *element == right[ri].0 {
                    merged[ri] = true;
                    let l = left_item(element);
                    out.extend(self.item(list, element, l, Some(right[ri].1)));
                    li += 1;
                    ri += 1;
                    next_shared = shared.next();
                    continue;
                }
                // A shared item whose turn (in the right side's order) has not come: later.
                if right_position(element).is_some()
                    && next_shared.is_some_and(|s| right[s].0 != *element)
                {
                    li += 1;
                    continue;
                }
            }
            if li < left.len() {
                let element = &left[li].0;
                match right_position(element) {
                    None => {
                        out.extend(self.item(list, element, Some(left[li].1), None));
                        li += 1;
                        continue;
                    }
                    Some(at) if merged[at] => li += 1,
                    Some(_) => {}
                }
            }
            if ri < right.len() {
                let element = &right[ri].0;
                merged[ri] = true;
                let l = left_item(element);
                out.extend(self.item(list, element, l, Some(right[ri].1)));
                ri += 1;
                if next_shared.is_some_and(|s| right[s].0 == *element) {
                    next_shared = shared.next();
                }
            }
        }
        out
    }

    fn item(
        &mut self,
        list: &List,
        element: &PathElement,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
    ) -> Option<Value> {
        self.path.push(element.clone());
        let out = self.node(list.item, lhs, rhs);
        self.path.pop();
        out
    }

    fn map(&mut self, map: MapView<'_>, lhs: Option<&Value>, rhs: Option<&Value>) -> Option<Value> {
        let (l, r) = (as_map(lhs), as_map(rhs));
        let empty = l.is_none_or(Map::is_empty) && r.is_none_or(Map::is_empty);
        if map.atomic || empty {
            return leaf(lhs, rhs);
        }
        let mut out: Vec<(String, Value)> = Vec::new();
        for e in entries(map, l, r) {
            if self.walking.skips(&self.path, e.key) {
                continue;
            }
            let Some(ty) = e.ty else {
                self.path.push(PathElement::field(e.key.as_str()));
                self.error("field not declared in schema");
                self.path.pop();
                continue;
            };
            self.path.push(PathElement::field(e.key.as_str()));
            let child = self.node(ty, e.lhs, e.rhs);
            self.path.pop();
            if let Some(child) = child {
                out.push((e.key.clone(), child));
            }
        }
        // Collected at once: the map is built in one pass rather than key by key.
        (!out.is_empty()).then(|| Value::Object(out.into_iter().collect()))
    }
}

/// A leaf (a scalar, or a value owned whole): the right side's when it has one.
fn leaf(lhs: Option<&Value>, rhs: Option<&Value>) -> Option<Value> {
    rhs.or(lhs).cloned()
}
