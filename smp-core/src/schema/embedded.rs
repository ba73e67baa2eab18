//! Embedded resources (`x-kubernetes-embedded-resource`): objects inside an object that are
//! whole Kubernetes objects, typed by their own `apiVersion` and `kind`.
//!
//! The rules every operation follows ([custom_resources](crate::guide::custom_resources)):
//! - apply types an embedded object by its `apiVersion` and `kind`. A patch that changes
//!   either makes it another kind of object: the two kinds share no list semantics, so the
//!   patch is merged as a JSON merge patch (RFC 7386: objects merge, lists are replaced);
//! - diff types it by the kind both sides share; when the sides differ in `apiVersion` or
//!   `kind`, the patch is the JSON merge patch between them (which carries the new kind, so
//!   apply reads it as such). A created sub-patch of an embedded object carries its
//!   `apiVersion` and `kind`, as a list item's patch carries its merge key, so that a patch
//!   merged with another patch, or checked for conflicts against one, is typed the same way;
//! - merging two patches, and checking them for conflicts, types it by the patches' own
//!   `apiVersion` and `kind`;
//! - an unknown kind, or no [`KindSchemas`](super::KindSchemas) attached, leaves the declared
//!   type (whose `metadata` the loader makes `ObjectMeta`).

use serde_json::{Map, Value};

use super::Node;

/// `apiVersion` and `kind` of an object, each `None` when absent or not a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct TypeMeta<'v> {
    api_version: Option<&'v str>,
    kind: Option<&'v str>,
}

const API_VERSION: &str = "apiVersion";
const KIND: &str = "kind";

impl<'v> TypeMeta<'v> {
    /// Read off an object.
    fn of(object: &'v Map<String, Value>) -> TypeMeta<'v> {
        TypeMeta {
            api_version: object.get(API_VERSION).and_then(Value::as_str),
            kind: object.get(KIND).and_then(Value::as_str),
        }
    }

    /// What `patch` makes of an object of `self`: the patch's members where it has them
    /// (`null` removes one).
    fn patched(self, patch: &'v Map<String, Value>) -> TypeMeta<'v> {
        let pick = |name: &str, old: Option<&'v str>| match patch.get(name) {
            Some(v) => v.as_str(),
            None => old,
        };
        TypeMeta {
            api_version: pick(API_VERSION, self.api_version),
            kind: pick(KIND, self.kind),
        }
    }

    /// `self`, or where it says nothing, `other`'s members.
    fn or(self, other: TypeMeta<'v>) -> TypeMeta<'v> {
        TypeMeta {
            api_version: self.api_version.or(other.api_version),
            kind: self.kind.or(other.kind),
        }
    }
}

impl<'s> Node<'s> {
    /// This node for an object of type `meta` (see [`Node::typed_as`]).
    fn typed(self, meta: TypeMeta<'_>) -> Node<'s> {
        self.typed_as(meta.api_version, meta.kind)
    }

    /// This node for `object`: typed by its kind when this is an embedded resource.
    pub(crate) fn for_object(self, object: &Map<String, Value>) -> Node<'s> {
        if !self.is_embedded() {
            return self;
        }
        self.typed(TypeMeta::of(object))
    }

    /// This node for two patches of one object, merged or compared: typed by the kind the
    /// first carries, else the second's.
    pub(crate) fn for_patches(
        self,
        first: &Map<String, Value>,
        second: &Map<String, Value>,
    ) -> Node<'s> {
        if !self.is_embedded() {
            return self;
        }
        self.typed(TypeMeta::of(first).or(TypeMeta::of(second)))
    }

    /// This node for `live` patched by `patch` (see [`Node::across`]).
    pub(crate) fn under_patch(
        self,
        live: &Map<String, Value>,
        patch: &Map<String, Value>,
    ) -> Node<'s> {
        if !self.is_embedded() {
            return self;
        }
        let from = TypeMeta::of(live);
        self.change(from, from.patched(patch))
    }

    /// This node for a change from `original` to `modified`: typed by their kind when they are
    /// the same kind, the JSON merge patch's "no metadata" when not.
    pub(crate) fn across(
        self,
        original: &Map<String, Value>,
        modified: &Map<String, Value>,
    ) -> Node<'s> {
        if !self.is_embedded() {
            return self;
        }
        self.change(TypeMeta::of(original), TypeMeta::of(modified))
    }

    fn change(self, from: TypeMeta<'_>, to: TypeMeta<'_>) -> Node<'s> {
        // An object without a kind (not yet a resource) takes the other side's.
        let untyped = from.api_version.is_none() && from.kind.is_none();
        if from != to && !untyped {
            return Node::opaque();
        }
        self.typed(to)
    }
}

/// Whether `a` and `b` are objects of the same kind (both without one included).
pub(crate) fn same_kind(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    TypeMeta::of(a) == TypeMeta::of(b)
}

/// Adds `apiVersion` and `kind` of `object` to `patch`, the non-empty sub-patch of an embedded
/// resource, where `object` has them.
pub(crate) fn stamp(patch: &mut Map<String, Value>, object: &Map<String, Value>) {
    for name in [API_VERSION, KIND] {
        if let Some(value @ Value::String(_)) = object.get(name) {
            if !patch.contains_key(name) {
                patch.insert(name.to_owned(), value.clone());
            }
        }
    }
}
