//! One walk over a value and its type that checks it and collects its fields.
//!
//! Each node returns the set of paths below it and whether the node itself is a member of its
//! parent's set (see the module docs for the rule); a level's entries are sorted once and
//! pushed into its [`Set`] in order, so a node costs `n log n` in its own keys. The depth is
//! bounded by [`smp_core::MAX_DEPTH`].

use serde_json::{Map, Value};

use super::{ReadOptions, ValidationError, ValidationErrors};
use crate::fieldpath::{PathElement, Set};
use crate::schema::{Atom, ListKind, MapType, Scalar, Schema, TypeRef};

pub(super) struct Walk<'s> {
    schema: &'s Schema,
    options: ReadOptions,
    /// Where the walk is, for errors.
    path: Vec<PathElement>,
    errors: Vec<ValidationError>,
}

/// What a node gives its parent: the paths below it, and whether it is a member itself.
struct Node {
    below: Set,
    member: bool,
}

impl Node {
    fn leaf() -> Node {
        Node {
            below: Set::new(),
            member: true,
        }
    }

    fn inner(below: Set) -> Node {
        Node {
            below,
            member: false,
        }
    }
}

impl<'s> Walk<'s> {
    pub(super) fn new(schema: &'s Schema, options: ReadOptions) -> Walk<'s> {
        Walk {
            schema,
            options,
            path: Vec::new(),
            errors: Vec::new(),
        }
    }

    pub(super) fn root(mut self, ty: TypeRef, value: &Value) -> Result<Set, ValidationErrors> {
        let node = self.node(ty, value);
        if self.errors.is_empty() {
            Ok(node.below)
        } else {
            Err(ValidationErrors(self.errors))
        }
    }

    fn error(&mut self, message: impl Into<String>) {
        let path = self.path.iter().map(ToString::to_string).collect();
        self.errors.push(ValidationError {
            path,
            message: message.into(),
        });
    }

    /// A value of type `ty`: the shape its own kind selects among the type's.
    fn node(&mut self, ty: TypeRef, value: &Value) -> Node {
        if self.path.len() > smp_core::MAX_DEPTH {
            self.error(format!(
                "nested more than {} levels deep",
                smp_core::MAX_DEPTH
            ));
            return Node::leaf();
        }
        let atom = self.schema.resolve(ty);
        let picked = pick(&atom, value);
        match picked {
            Shape::Map(map) => self.map(map, value),
            Shape::Scalar(scalar) => {
                self.scalar(scalar, value);
                Node::leaf()
            }
            Shape::List(list) => self.list(&list.kind, list.item, value),
            Shape::None => {
                self.error("schema error: no type found matching this value's type");
                Node::leaf()
            }
        }
    }

    fn scalar(&mut self, kind: Scalar, value: &Value) {
        let fits = match (kind, value) {
            (_, Value::Null) => true,
            (Scalar::Numeric, Value::Number(_)) => true,
            (Scalar::String, Value::String(_)) => true,
            (Scalar::Boolean, Value::Bool(_)) => true,
            (Scalar::Untyped, v) => !v.is_array() && !v.is_object(),
            _ => false,
        };
        if !fits {
            let expected = match kind {
                Scalar::Numeric => "numeric (int or float)",
                Scalar::String => "string",
                Scalar::Boolean => "boolean",
                Scalar::Untyped => "any scalar",
            };
            self.error(format!("expected {expected}, got {}", kind_of(value)));
        }
    }

    fn map(&mut self, map: &MapType, value: &Value) -> Node {
        let object = match value {
            Value::Null => return Node::inner(Set::new()),
            Value::Object(object) => object,
            other => {
                self.error(format!("expected map, got {}", kind_of(other)));
                return Node::leaf();
            }
        };
        if map.atomic {
            self.check_members(map, object);
            return Node::leaf();
        }
        let mut entries: Vec<(PathElement, Node)> = Vec::with_capacity(object.len());
        for (key, child) in object {
            let declared = map.field(key).map(|f| f.ty);
            let Some(ty) = declared.or(map.rest) else {
                self.path.push(PathElement::field(key.clone()));
                self.error("field not declared in schema");
                self.path.pop();
                break;
            };
            self.path.push(PathElement::field(key.clone()));
            let mut node = self.node(ty, child);
            self.path.pop();
            let empty_object = child.as_object().is_some_and(Map::is_empty);
            node.member |= child.is_null() || empty_object || declared.is_none();
            entries.push((PathElement::field(key.clone()), node));
        }
        Node::inner(level(entries))
    }

    /// An atomic object is owned whole; what it holds is still checked.
    fn check_members(&mut self, map: &MapType, object: &Map<String, Value>) {
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

    fn list(&mut self, kind: &ListKind, item: TypeRef, value: &Value) -> Node {
        let items = match value {
            Value::Null => return Node::inner(Set::new()),
            Value::Array(items) => items,
            other => {
                self.error(format!("expected list, got {}", kind_of(other)));
                return Node::leaf();
            }
        };
        if *kind == ListKind::Atomic {
            for (i, child) in items.iter().enumerate() {
                self.path.push(PathElement::Index(i as i64));
                self.node(item, child);
                self.path.pop();
            }
            return Node::leaf();
        }
        let mut entries: Vec<(PathElement, &Value)> = Vec::with_capacity(items.len());
        for (i, child) in items.iter().enumerate() {
            match self.key(kind, item, child) {
                Ok(element) => entries.push((element, child)),
                Err(message) => {
                    self.error(format!("element {i}: {message}"));
                    return Node::leaf();
                }
            }
        }
        // Sorted by key, stably: repeated keys sit together, in list order.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut level_entries: Vec<(PathElement, Node)> = Vec::with_capacity(entries.len());
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
                level_entries.push((element, Node::leaf()));
            } else {
                self.path.push(element.clone());
                let mut node = self.node(item, entries[i].1);
                self.path.pop();
                node.member = true;
                level_entries.push((element, node));
            }
            i = j;
        }
        Node::inner(level(level_entries))
    }

    /// The element that names a list item: its key fields (or their defaults), or its value.
    fn key(&self, kind: &ListKind, item: TypeRef, child: &Value) -> Result<PathElement, String> {
        match kind {
            ListKind::Map(keys) => {
                let object = match child {
                    Value::Null => {
                        return Err("associative list with keys may not have a null element".into());
                    }
                    Value::Object(object) => object,
                    _ => {
                        return Err(
                            "associative list with keys may not have non-map elements".into()
                        );
                    }
                };
                let item_type = self.schema.resolve(item).map;
                let mut fields = Vec::with_capacity(keys.len());
                for name in keys {
                    let value = match object.get(name) {
                        Some(v) => v.clone(),
                        None => {
                            let default = item_type
                                .as_ref()
                                .and_then(|m| m.field(name))
                                .and_then(|f| f.default.clone());
                            default.ok_or_else(|| {
                                format!(
                                    "associative list with keys has an element that omits key field {name:?} (and doesn't have default value)"
                                )
                            })?
                        }
                    };
                    fields.push((name.clone(), value));
                }
                Ok(PathElement::key(fields))
            }
            _ => match child {
                Value::Object(_) => {
                    Err("associative list without keys has an element that's a map type".into())
                }
                Value::Array(_) => {
                    Err("not supported: associative list with lists as elements".into())
                }
                Value::Null => Err(
                    "associative list without keys has an element that's an explicit null".into(),
                ),
                scalar => Ok(PathElement::Value(scalar.clone())),
            },
        }
    }
}

/// The shape of `atom` a value of this kind takes: its own kind's if the type allows it, else
/// the first the type has (objects, then scalars, then lists), which then reports the mismatch.
enum Shape<'a> {
    Map(&'a MapType),
    Scalar(Scalar),
    List(&'a crate::schema::List),
    None,
}

fn pick<'a>(atom: &'a Atom, value: &Value) -> Shape<'a> {
    let own = match value {
        Value::Object(_) => atom.map.as_ref().map(Shape::Map),
        Value::Array(_) => atom.list.as_ref().map(Shape::List),
        Value::Null => None,
        _ => atom.scalar.map(Shape::Scalar),
    };
    own.or_else(|| atom.map.as_ref().map(Shape::Map))
        .or_else(|| atom.scalar.map(Shape::Scalar))
        .or_else(|| atom.list.as_ref().map(Shape::List))
        .unwrap_or(Shape::None)
}

/// A level of a set from its entries, sorted by element.
fn level(mut entries: Vec<(PathElement, Node)>) -> Set {
    if !entries.is_sorted_by(|a, b| a.0 <= b.0) {
        entries.sort_by(|a, b| a.0.cmp(&b.0));
    }
    let mut set = Set::new();
    let mut members = Vec::new();
    for (element, node) in entries {
        if node.member {
            members.push(element.clone());
        }
        set.push_child(element, node.below);
    }
    for element in members {
        set.push_member(element);
    }
    set
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "map",
    }
}
