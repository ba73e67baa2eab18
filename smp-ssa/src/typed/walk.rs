//! One walk over a value and its type that checks it and collects its fields.
//!
//! Each node adds the paths below it to the set being built and says whether the node itself
//! is a member of its parent's set (see the module docs for the rule); a level's elements are
//! sorted once if they came out of order, so a node costs `n log n` in its own keys. The depth
//! is bounded by [`smp_core::MAX_DEPTH`].

use serde_json::{Map, Value};

use super::items;
use super::shape::{Deduced, Shape, Walking, check_scalar, entries, kind_of};
use super::{ReadOptions, ValidationError, ValidationErrors};
use crate::fieldpath::set::Builder;
use crate::fieldpath::{PathElement, Set};
use crate::schema::{ListKind, MapView, Scalar, Schema, TypeRef};

pub(super) struct Walk<'s> {
    schema: &'s Schema,
    options: ReadOptions,
    /// Where the walk is, for errors.
    path: Vec<PathElement>,
    errors: Vec<ValidationError>,
    set: Builder,
    walking: Walking,
}

impl<'s> Walk<'s> {
    pub(super) fn new(schema: &'s Schema, options: ReadOptions, walking: Walking) -> Walk<'s> {
        Walk {
            schema,
            options,
            path: Vec::new(),
            errors: Vec::new(),
            set: Builder::default(),
            walking,
        }
    }

    pub(super) fn root(mut self, ty: TypeRef, value: &Value) -> Result<Set, ValidationErrors> {
        self.node(ty, value);
        if self.errors.is_empty() {
            Ok(self.set.finish())
        } else {
            Err(ValidationErrors(self.errors))
        }
    }

    fn error(&mut self, message: impl Into<String>) {
        self.errors.push(super::error_at(&self.path, message));
    }

    /// A value of type `ty`: the shape its own kind selects among the type's. Its paths are
    /// added to the set; whether it is a member of its parent's set itself (a leaf).
    fn node(&mut self, ty: TypeRef, value: &Value) -> bool {
        if let Some(error) = super::too_deep(&self.path) {
            self.errors.push(error);
            return true;
        }
        let atom = self.schema.resolve(ty);
        let picked = Deduced::of(atom, Some(value)).shape();
        match picked {
            Shape::Map(map) => self.map(map, value),
            Shape::Scalar(scalar) => {
                self.scalar(scalar, value);
                true
            }
            Shape::List(list) => self.list(&list.kind, list.item, value),
            Shape::None => {
                self.error("schema error: no type found matching this value's type");
                true
            }
        }
    }

    fn scalar(&mut self, kind: Scalar, value: &Value) {
        if let Err(message) = check_scalar(kind, Some(value)) {
            self.error(message);
        }
    }

    fn map(&mut self, map: MapView<'_>, value: &Value) -> bool {
        let object = match value {
            Value::Null => return false,
            Value::Object(object) => object,
            other => {
                self.error(format!("expected map, got {}", kind_of(other)));
                return true;
            }
        };
        if map.atomic {
            let mark = self.set.mark();
            self.check_members(map, object);
            self.set.truncate(mark);
            return true;
        }
        let start = self.set.mark();
        for e in entries(map, None, Some(object)) {
            let (key, Some(child)) = (e.key, e.rhs) else {
                continue;
            };
            if self.walking.skips(&self.path, key) {
                continue;
            }
            let Some(ty) = e.ty else {
                self.path.push(PathElement::field(key.as_str()));
                self.error("field not declared in schema");
                self.path.pop();
                break;
            };
            self.path.push(PathElement::field(key.as_str()));
            let at = self.set.open_field(key);
            let leaf = self.node(ty, child);
            self.path.pop();
            let empty_object = child.as_object().is_some_and(Map::is_empty);
            self.set
                .close(at, leaf || child.is_null() || empty_object || !e.declared);
        }
        self.set.end_level(start);
        false
    }

    /// An atomic object is owned whole; what it holds is still checked.
    fn check_members(&mut self, map: MapView<'_>, object: &Map<String, Value>) {
        for (key, child) in object {
            let Some(ty) = map.type_of(key) else {
                self.path.push(PathElement::field(key.clone()));
                self.error("field not declared in schema");
                self.path.pop();
                return;
            };
            self.path.push(PathElement::field(key.clone()));
            self.node(ty, child);
            self.path.pop();
        }
    }

    fn list(&mut self, kind: &ListKind, item: TypeRef, value: &Value) -> bool {
        let items = match value {
            Value::Null => return false,
            Value::Array(items) => items,
            other => {
                self.error(format!("expected list, got {}", kind_of(other)));
                return true;
            }
        };
        if *kind == ListKind::Atomic {
            let mark = self.set.mark();
            for (i, child) in items.iter().enumerate() {
                self.path.push(PathElement::Index(i as i64));
                self.node(item, child);
                self.path.pop();
            }
            self.set.truncate(mark);
            return true;
        }
        let mut entries: Vec<(PathElement, &Value)> = Vec::with_capacity(items.len());
        for (i, child) in items.iter().enumerate() {
            match items::element(self.schema, kind, item, child) {
                Ok(element) => entries.push((element, child)),
                Err(message) => {
                    self.error(format!("element {i}: {message}"));
                    return true;
                }
            }
        }
        // Sorted by key, stably: repeated keys sit together, in list order.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let start = self.set.mark();
        let mut i = 0;
        while i < entries.len() {
            let mut j = i + 1;
            while j < entries.len() && entries[j].0 == entries[i].0 {
                j += 1;
            }
            let element = entries[i].0.clone();
            if j - i > 1 {
                // A repeated key: an error in a configuration; in a stored object, owned as one
                // field, its items not looked into.
                if !self.options.allow_duplicates {
                    self.error(format!("duplicate entries for key {element}"));
                }
                let at = self.set.open(element);
                self.set.close(at, true);
            } else {
                self.path.push(element.clone());
                let at = self.set.open(element);
                self.node(item, entries[i].1);
                self.path.pop();
                self.set.close(at, true);
            }
            i = j;
        }
        self.set.end_level(start);
        false
    }
}
