//! Managers' sets made to fit the schema as it is now: a field that became atomic (an object or
//! list owned whole) is owned as one field, in place of the fields below it the set held when
//! it was granular.

use crate::fieldpath::set::{Node, siblings};
use crate::fieldpath::{Path, PathElement, Set};
use crate::schema::{ListKind, MapView, Scalar, Schema, TypeRef};

/// `set` fitted to the schema; `None` when nothing changes.
pub(crate) fn reconcile_with_schema(schema: &Schema, ty: TypeRef, set: &Set) -> Option<Set> {
    let mut atomic = Vec::new();
    let mut walk = Walk {
        schema,
        path: Vec::new(),
        atomic: &mut atomic,
    };
    walk.node(Some(ty), set.nodes(), false);
    if atomic.is_empty() {
        return None;
    }
    let atomic = Set::from_paths(atomic);
    Some(set.recursive_difference(&atomic).union(&atomic))
}

/// What holds the nodes below: an object's keys or a list's items.
enum Container<'s> {
    Map(MapView<'s>),
    List(TypeRef),
}

impl Container<'_> {
    fn child(&self, element: &PathElement) -> Option<TypeRef> {
        match (self, element) {
            (Container::Map(map), PathElement::Field(name)) => map.type_of(name),
            (Container::Map(map), _) => map.rest,
            (Container::List(item), _) => Some(*item),
        }
    }
}

struct Walk<'a, 's> {
    schema: &'s Schema,
    path: Vec<PathElement>,
    atomic: &'a mut Vec<Path>,
}

impl Walk<'_, '_> {
    /// The node at `path` of type `ty`, with `below` under it; `owned_whole` when the set holds
    /// it as a member with nothing below.
    fn node(&mut self, ty: Option<TypeRef>, below: &[Node], owned_whole: bool) {
        let Some(ty) = ty.filter(|_| self.path.len() <= smp_core::MAX_DEPTH) else {
            return;
        };
        let schema = self.schema;
        let atom = schema.resolve(ty);
        let (container, atomic) = if let Some(map) = atom.map {
            // A map of untyped values whose objects are granular keeps whatever is below.
            let deduced = map.fields.is_empty()
                && map.rest.is_some_and(|r| {
                    r == schema.deduced()
                        || (r != schema.untyped()
                            && schema.resolve(r).scalar == Some(Scalar::Untyped))
                });
            if deduced {
                return;
            }
            (Container::Map(map), map.atomic && !below.is_empty())
        } else if atom.scalar.is_some() {
            return;
        } else if let Some(list) = atom.list {
            (Container::List(list.item), list.kind == ListKind::Atomic)
        } else {
            return;
        };
        if atomic && !owned_whole {
            self.atomic.push(Path(self.path.clone()));
            return;
        }
        for (node, child) in siblings(below) {
            let child_ty = container.child(&node.element);
            if child_ty.is_none() {
                continue;
            }
            self.path.push(node.element.clone());
            self.node(child_ty, child, node.member && child.is_empty());
            self.path.pop();
        }
    }
}
