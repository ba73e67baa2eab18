//! Embedded resources (`x-kubernetes-embedded-resource`): objects inside an object that are
//! whole Kubernetes objects, typed by their own `apiVersion` and `kind`.
//!
//! The rules every operation follows (README, "Custom resources"):
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
pub(crate) struct TypeMeta<'v> {
    pub api_version: Option<&'v str>,
    pub kind: Option<&'v str>,
}

pub(crate) const API_VERSION: &str = "apiVersion";
pub(crate) const KIND: &str = "kind";

impl<'v> TypeMeta<'v> {
    /// Read off an object.
    pub fn of(object: &'v Map<String, Value>) -> TypeMeta<'v> {
        TypeMeta {
            api_version: object.get(API_VERSION).and_then(Value::as_str),
            kind: object.get(KIND).and_then(Value::as_str),
        }
    }

    /// What `patch` makes of an object of `self`: the patch's members where it has them
    /// (`null` removes one).
    pub fn patched(self, patch: &'v Map<String, Value>) -> TypeMeta<'v> {
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
    pub fn or(self, other: TypeMeta<'v>) -> TypeMeta<'v> {
        TypeMeta {
            api_version: self.api_version.or(other.api_version),
            kind: self.kind.or(other.kind),
        }
    }
}

impl<'s> Node<'s> {
    /// This node for an object of type `meta` (see [`Node::typed_as`]).
    pub(crate) fn typed(self, meta: TypeMeta<'_>) -> Node<'s> {
        if !self.is_embedded() {
            return self;
        }
        self.typed_as(meta.api_version, meta.kind)
    }

    /// This node for a change from an object of type `from` to one of type `to`: typed by
    /// `to` when they are the same kind, the JSON merge patch's "no metadata" when not.
    pub(crate) fn across(self, from: TypeMeta<'_>, to: TypeMeta<'_>) -> Node<'s> {
        if !self.is_embedded() {
            return self;
        }
        // An object without a kind (not yet a resource) takes the patch's.
        let untyped = from.api_version.is_none() && from.kind.is_none();
        if from != to && !untyped {
            return Node::opaque();
        }
        self.typed(to)
    }
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
