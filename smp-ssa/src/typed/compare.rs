//! Comparing two values of one type, field by field: what an update or an apply added, changed
//! and removed, which is what the field manager gives to, takes from and checks against each
//! manager.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use super::items::Index;
use super::shape::{Shape, Walking, as_list, as_map, check_scalar, entries, shapes};
use super::unchanged::{Trail, Unchanged};
use super::{ValidationError, ValidationErrors};
use crate::fieldpath::set::Builder;
use crate::fieldpath::{PathElement, Set, value};
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
    compare_with(schema, ty, lhs, rhs, Walking::default())
}

/// [`compare`], walking as `walking` says.
pub(crate) fn compare_with(
    schema: &Schema,
    ty: TypeRef,
    lhs: &Value,
    rhs: &Value,
    walking: Walking,
) -> Result<Comparison, ValidationErrors> {
    compare_by(schema, ty, lhs, rhs, walking, true)
}

/// [`compare_with`], with the fast path for unchanged values or without it (what it must
/// agree with).
fn compare_by(
    schema: &Schema,
    ty: TypeRef,
    lhs: &Value,
    rhs: &Value,
    walking: Walking,
    fast: bool,
) -> Result<Comparison, ValidationErrors> {
    let mut c = Comparer {
        schema,
        path: Vec::new(),
        errors: Vec::new(),
        sets: Sets::default(),
        walking,
        fast,
    };
    // The root itself is not tracked: its marks are dropped.
    c.node(ty, Some(lhs), Some(rhs), None);
    if !c.errors.is_empty() {
        return Err(ValidationErrors(c.errors));
    }
    let [removed, modified, added] = c.sets.finish();
    Ok(Comparison {
        removed,
        modified,
        added,
    })
}

/// Whether a node itself was removed, modified or added.
#[derive(Clone, Copy, Default)]
struct Marks([bool; 3]);

const REMOVED: usize = 0;
const MODIFIED: usize = 1;
const ADDED: usize = 2;

impl Marks {
    fn one(change: usize) -> Marks {
        let mut m = Marks::default();
        m.0[change] = true;
        m
    }

    fn or(self, other: Marks) -> Marks {
        Marks([0, 1, 2].map(|i| self.0[i] || other.0[i]))
    }
}

/// The three sets, built as the walk goes. A node is opened in a set only when it or something
/// below it changed, at that moment (its ancestors first): walking what did not change costs
/// nothing here. The stack holds, for each node on the walk's path, where it was opened in each
/// set.
#[derive(Default)]
struct Sets {
    builders: [Builder; 3],
    opened: Vec<[Option<usize>; 3]>,
}

impl Sets {
    /// The walk goes down to a child.
    fn enter(&mut self) {
        self.opened.push([None; 3]);
    }

    /// Opens the path's nodes not yet opened in set `i`; where the last is.
    fn ensure(&mut self, i: usize, path: &[PathElement]) -> Option<usize> {
        let mut last = None;
        for (depth, element) in path.iter().enumerate() {
            let slot = &mut self.opened[depth][i];
            if slot.is_none() {
                *slot = Some(self.builders[i].open(element.clone()));
            }
            last = *slot;
        }
        last
    }

    /// The walk leaves the node at the end of `path`, which changed as `marks` say.
    fn leave(&mut self, path: &[PathElement], marks: Marks) {
        for i in 0..3 {
            if marks.0[i] {
                self.ensure(i, path);
            }
        }
        let opened = self.opened.pop().unwrap_or_default();
        for ((builder, at), member) in self.builders.iter_mut().zip(opened).zip(marks.0) {
            if let Some(at) = at {
                builder.end_level(at + 1);
                builder.close(at, member);
            }
        }
    }

    /// Records `element` below the node at the end of `path` as changed.
    fn below(&mut self, change: usize, path: &[PathElement], element: &PathElement) {
        self.ensure(change, path);
        let at = self.builders[change].open(element.clone());
        self.builders[change].close(at, true);
    }

    fn finish(mut self) -> [Set; 3] {
        for b in &mut self.builders {
            b.end_level(0);
        }
        self.builders.map(Builder::finish)
    }
}

struct Comparer<'s> {
    schema: &'s Schema,
    path: Vec<PathElement>,
    errors: Vec<ValidationError>,
    sets: Sets,
    walking: Walking,
    /// Whether unchanged values are passed over by the fast path.
    fast: bool,
}

impl Comparer<'_> {
    fn error(&mut self, message: impl Into<String>) {
        self.errors.push(super::error_at(&self.path, message));
    }

    /// Compares one node (its children added to the sets); how the node itself changed.
    /// `trail`: where the fast path stopped in this node, when it looked at it already (else
    /// it looks first).
    fn node(
        &mut self,
        ty: TypeRef,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        mut trail: Option<Trail>,
    ) -> Marks {
        if let (true, None, Some(l), Some(r)) = (self.fast, &trail, lhs, rhs) {
            let unchanged = Unchanged {
                schema: self.schema,
                skip_managed_fields: self.walking.skip_managed_fields,
            };
            let metadata =
                matches!(self.path.as_slice(), [PathElement::Field(m)] if m.as_str() == "metadata");
            match unchanged.check(ty, l, r, self.path.len(), metadata) {
                Ok(()) => return Marks::default(),
                Err(stopped) => trail = Some(stopped),
            }
        }
        if let Some(error) = super::too_deep(&self.path) {
            self.errors.push(error);
            return Marks::default();
        }
        let atom = self.schema.resolve(ty);
        // With two shapes, what the left side's own finds counts too; whether the node is a
        // leaf is the right side's shape's say.
        let (shape, aside) = shapes(atom, lhs, rhs);
        let aside = aside.map(|left| self.shape(left, lhs, rhs, None).1);
        let (leaf, marks) = self.shape(shape, lhs, rhs, trail);
        let marks = aside.map_or(marks, |aside| marks.or(aside));
        if leaf {
            return marks;
        }
        match (lhs, rhs) {
            (None, _) => marks.or(Marks::one(ADDED)),
            (_, None) => marks.or(Marks::one(REMOVED)),
            _ => marks,
        }
    }

    /// Compares by one shape: whether the node is a leaf, and its marks as a leaf.
    fn shape(
        &mut self,
        shape: Shape<'_>,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        trail: Option<Trail>,
    ) -> (bool, Marks) {
        match shape {
            Shape::Scalar(kind) => {
                let (l, r) = (check_scalar(kind, lhs), check_scalar(kind, rhs));
                if let (Err(l), Err(r)) = (l, r) {
                    self.error(format!("lhs: {l}"));
                    self.error(format!("rhs: {r}"));
                    return (false, Marks::default());
                }
                (true, leaf(lhs, rhs))
            }
            Shape::List(list) => self.list(list, lhs, rhs, trail),
            Shape::Map(map) => self.map(map, lhs, rhs, trail),
            Shape::None => {
                self.error("schema error: no type found matching this value's type");
                (false, Marks::default())
            }
        }
    }

    fn list(
        &mut self,
        list: &List,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        trail: Option<Trail>,
    ) -> (bool, Marks) {
        let (l, r) = (as_list(lhs), as_list(rhs));
        let empty = l.is_none_or(<[Value]>::is_empty) && r.is_none_or(<[Value]>::is_empty);
        if list.kind == ListKind::Atomic || empty {
            return (true, leaf(lhs, rhs));
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
        // Items the fast path passed (the same, at the same place) have nothing to record; the
        // one it stopped in goes on from where it stopped.
        let (stopped, mut rest) = split(trail);
        for element in elements {
            let mut ls = left.get(element);
            let mut rs = right.get(element);
            let (l0, l1) = (ls.next(), ls.next());
            let (r0, r1) = (rs.next(), rs.next());
            match (l1.is_some(), r1.is_some()) {
                (false, false) => {
                    let mut trail = None;
                    if let (Some(stopped), Some(at)) = (stopped, left.position(l0)) {
                        if right.position(r0) == Some(at) {
                            match at.cmp(&stopped) {
                                Ordering::Less => continue,
                                Ordering::Equal => trail = rest.take(),
                                Ordering::Greater => {}
                            }
                        }
                    }
                    self.item(list, element, l0, r0, trail)
                }
                (true, true) => {
                    let same = left.get(element).count() == right.get(element).count()
                        && left
                            .get(element)
                            .zip(right.get(element))
                            .all(|(a, b)| equal(a, b));
                    if !same {
                        self.sets.below(MODIFIED, &self.path, element);
                    }
                }
                (true, false) => {
                    if let Some(r) = r0 {
                        self.item(list, element, None, Some(r), None);
                    }
                    self.sets.below(REMOVED, &self.path, element);
                }
                (false, true) => {
                    if let Some(l) = l0 {
                        self.item(list, element, Some(l), None, None);
                    }
                    self.sets.below(ADDED, &self.path, element);
                }
            }
        }
        (false, Marks::default())
    }

    fn item(
        &mut self,
        list: &List,
        element: &PathElement,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        trail: Option<Trail>,
    ) {
        self.path.push(element.clone());
        self.sets.enter();
        let marks = self.node(list.item, lhs, rhs, trail);
        self.sets.leave(&self.path, marks);
        self.path.pop();
    }

    fn map(
        &mut self,
        map: MapView<'_>,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        trail: Option<Trail>,
    ) -> (bool, Marks) {
        let (l, r) = (as_map(lhs), as_map(rhs));
        let empty = l.is_none_or(Map::is_empty) && r.is_none_or(Map::is_empty);
        if map.atomic || empty {
            return (true, leaf(lhs, rhs));
        }
        // Keys before the one the fast path stopped at are the same on both sides, in the same
        // order: nothing to record.
        let (stopped, mut rest) = split(trail);
        for (i, e) in entries(map, l, r).into_iter().enumerate() {
            let trail = match stopped.map(|stopped| i.cmp(&stopped)) {
                Some(Ordering::Less) => continue,
                Some(Ordering::Equal) => rest.take(),
                _ => None,
            };
            if self.walking.skips(&self.path, e.key) {
                continue;
            }
            self.path.push(PathElement::field(e.key.as_str()));
            match e.ty {
                Some(ty) => {
                    self.sets.enter();
                    let marks = self.node(ty, e.lhs, e.rhs, trail);
                    self.sets.leave(&self.path, marks);
                }
                None => self.error("field not declared in schema"),
            }
            self.path.pop();
        }
        (false, Marks::default())
    }
}

/// A trail split at this node: the position of the child the fast path stopped in, and the
/// trail below it (`None` for both when the fast path did not look, or stopped at the node
/// itself).
fn split(trail: Option<Trail>) -> (Option<usize>, Option<Trail>) {
    match trail {
        Some(mut trail) => match trail.pop() {
            Some(at) => (Some(at), Some(trail)),
            None => (None, None),
        },
        None => (None, None),
    }
}

/// A leaf's marks: added, removed, or modified when its values differ.
fn leaf(lhs: Option<&Value>, rhs: Option<&Value>) -> Marks {
    match (lhs, rhs) {
        (None, _) => Marks::one(ADDED),
        (_, None) => Marks::one(REMOVED),
        (Some(l), Some(r)) if !equal(l, r) => Marks::one(MODIFIED),
        _ => Marks::default(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use crate::testing::Random;

    /// Some value to put somewhere: fitting, of the wrong kind, or a container.
    fn any(random: &mut Random) -> Value {
        match random.below(8) {
            0 => json!(null),
            1 => json!(7),
            2 => json!(7.0),
            3 => json!("x"),
            4 => json!(true),
            5 => json!([]),
            6 => json!({"name": "x"}),
            _ => json!({}),
        }
    }

    /// One random change somewhere in `value`: a value replaced, a key removed or added, an
    /// item repeated, removed or moved.
    fn mutate(value: &mut Value, random: &mut Random) {
        let mut at = value;
        loop {
            let children = match at {
                Value::Object(o) => o.len(),
                Value::Array(a) => a.len(),
                _ => 0,
            };
            if children == 0 || random.below(4) == 0 {
                break;
            }
            let i = random.below(children);
            at = match at {
                Value::Object(o) => o.values_mut().nth(i),
                Value::Array(a) => a.get_mut(i),
                _ => None,
            }
            .expect("a child");
        }
        match at {
            Value::Object(o) => match random.below(3) {
                0 if !o.is_empty() => {
                    let key = o
                        .keys()
                        .nth(random.below(o.len()))
                        .cloned()
                        .unwrap_or_default();
                    o.remove(&key);
                }
                1 => {
                    let keys = [
                        "name",
                        "image",
                        "unknown",
                        "value",
                        "containerPort",
                        "protocol",
                    ];
                    o.insert(keys[random.below(keys.len())].into(), any(random));
                }
                _ => *at = any(random),
            },
            Value::Array(a) if !a.is_empty() => match random.below(4) {
                0 => {
                    let item = a[random.below(a.len())].clone();
                    a.push(item);
                }
                1 => {
                    a.remove(random.below(a.len()));
                }
                2 => {
                    let (i, j) = (random.below(a.len()), random.below(a.len()));
                    a.swap(i, j);
                }
                _ => *at = any(random),
            },
            _ => *at = any(random),
        }
    }

    /// The fast path changes nothing: on random pairs of Deployments, fitting or not, the
    /// comparison finds the same changes and the same errors with it and without it.
    #[test]
    fn the_fast_path_agrees_with_the_full_walk() {
        let schema = crate::builtin::schema();
        let ty = schema
            .kind(&crate::schema::Gvk::of("apps/v1", "Deployment"))
            .expect("Deployment");
        let base = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "labels": {"app": "web"},
                         "managedFields": [{"manager": "m", "operation": "Apply"}]},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
                "template": {"metadata": {"labels": {"app": "web"}}, "spec": {
                    "containers": [
                        {"name": "a", "image": "a:1", "args": ["x", "y"],
                         "ports": [{"containerPort": 80}, {"containerPort": 81, "protocol": "UDP"}],
                         "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]},
                        {"name": "b", "image": "b:1", "resources": {"limits": {"cpu": "1"}}}
                    ],
                    "tolerations": [{"key": "k", "operator": "Exists"}],
                    "nodeSelector": {"disk": "ssd"}}}}
        });
        let mut random = Random(0x9e37_79b9_7f4a_7c15);
        let mut compared = 0;
        for _ in 0..3000 {
            let mut lhs = base.clone();
            for _ in 0..random.below(3) {
                mutate(&mut lhs, &mut random);
            }
            let mut rhs = lhs.clone();
            for _ in 0..random.below(3) {
                mutate(&mut rhs, &mut random);
            }
            for walking in [
                Walking::default(),
                Walking {
                    skip_managed_fields: true,
                    ..Walking::default()
                },
            ] {
                let fast = compare_by(schema, ty, &lhs, &rhs, walking, true);
                let full = compare_by(schema, ty, &lhs, &rhs, walking, false);
                assert_eq!(fast, full, "{lhs}\n{rhs}");
                compared += usize::from(full.is_ok());
            }
        }
        // Most pairs fit their type, so that changes are compared, not only errors.
        assert!(compared > 1000, "{compared}");
    }
}
