//! The types server-side apply merges by: for each value, whether it is a scalar, a list (atomic,
//! a set, or a map keyed by some of its items' fields) or an object (its fields, the type of its
//! other keys, and whether it is replaced whole).
//!
//! These are the API server's structured types, not the strategic merge patch metadata of
//! [`smp_core::Schema`]: the two agree mostly, and where they differ the server's view wins here
//! (a container's `ports` are keyed by `containerPort` and `protocol`, and an item that omits
//! its `protocol` is keyed by its default, `TCP`). [`from_openapi_v3`] builds them as the
//! server does, from the OpenAPI v3 documents it serves.

mod openapi;

use std::collections::HashMap;

use serde_json::Value;

pub use openapi::{SchemaError, from_openapi_v3};

/// The structured types of a set of definitions, by name and by group/version/kind.
#[derive(Debug, Clone)]
pub struct Schema {
    atoms: Vec<Atom>,
    names: HashMap<String, usize>,
    kinds: HashMap<Gvk, usize>,
}

/// A group, version and kind (`apps`, `v1`, `Deployment`; the core group is `""`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Gvk {
    /// The API group (`""` for the core group).
    pub group: String,
    /// The version.
    pub version: String,
    /// The kind.
    pub kind: String,
}

impl Gvk {
    /// The kind of `apiVersion` (`apps/v1`, `v1`) and `kind`.
    pub fn of(api_version: &str, kind: &str) -> Gvk {
        let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
        Gvk {
            group: group.to_owned(),
            version: version.to_owned(),
            kind: kind.to_owned(),
        }
    }
}

/// What a value of a type can be. A type may allow several shapes (an untyped value: any
/// scalar, an atomic list or a granular object); the value's own shape picks one.
#[derive(Debug, Clone, Default)]
pub struct Atom {
    /// A scalar, of this kind.
    pub scalar: Option<Scalar>,
    /// A list.
    pub list: Option<List>,
    /// An object (a struct's fields, a map's keys, or both).
    pub map: Option<MapType>,
}

/// The kind of a scalar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    /// A number.
    Numeric,
    /// A string.
    String,
    /// A boolean.
    Boolean,
    /// Any scalar (an int-or-string, a date, a quantity).
    Untyped,
}

/// A list type.
#[derive(Debug, Clone)]
pub struct List {
    /// The items' type.
    pub item: TypeRef,
    /// How the list is owned and merged.
    pub kind: ListKind,
}

/// How a list is owned and merged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListKind {
    /// One value: owned and replaced whole.
    Atomic,
    /// A set of scalars: each value owned on its own, merged as a set.
    Set,
    /// A list of objects keyed by these fields (`x-kubernetes-list-map-keys`): each item owned
    /// on its own, by its key.
    Map(Vec<String>),
}

/// An object type: a struct's fields and the type of any other key.
#[derive(Debug, Clone, Default)]
pub struct MapType {
    /// The declared fields, sorted by name.
    pub fields: Vec<Field>,
    /// The type of keys that are not fields (`additionalProperties`); `None`: there are none.
    pub rest: Option<TypeRef>,
    /// Whether the object is owned and replaced whole (`x-kubernetes-map-type: atomic`);
    /// otherwise each key is owned on its own.
    pub atomic: bool,
}

impl MapType {
    /// The field called `name`.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields
            .binary_search_by(|f| f.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.fields[i])
    }

    /// The type of key `name`: its field's, or the type of other keys.
    pub fn type_of(&self, name: &str) -> Option<TypeRef> {
        self.field(name).map(|f| f.ty).or(self.rest)
    }
}

/// A declared field of an object type.
#[derive(Debug, Clone)]
pub struct Field {
    /// The JSON name.
    pub name: String,
    /// The type.
    pub ty: TypeRef,
    /// The value the server gives the field when it is absent (`default`): what a list-map key
    /// field an item omits is keyed by.
    pub default: Option<Value>,
}

/// A reference to a type of the [`Schema`] that holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypeRef {
    index: usize,
    /// `x-kubernetes-map-type` given where the type is used: `Some(true)` atomic,
    /// `Some(false)` granular, overriding the type's own.
    map_atomic: Option<bool>,
}

impl Schema {
    /// The type of definition `name` (`io.k8s.api.apps.v1.Deployment`).
    pub fn named(&self, name: &str) -> Option<TypeRef> {
        self.names.get(name).map(|&index| TypeRef {
            index,
            map_atomic: None,
        })
    }

    /// The type of objects of a kind.
    pub fn kind(&self, gvk: &Gvk) -> Option<TypeRef> {
        self.kinds.get(gvk).map(|&index| TypeRef {
            index,
            map_atomic: None,
        })
    }

    /// A type's shapes, the reference's `x-kubernetes-map-type` applied.
    pub fn resolve(&self, ty: TypeRef) -> Atom {
        let mut atom = self.atoms.get(ty.index).cloned().unwrap_or_default();
        if let (Some(atomic), Some(map)) = (ty.map_atomic, atom.map.as_mut()) {
            map.atomic = atomic;
        }
        atom
    }

    /// The untyped value that keeps objects granular (`x-kubernetes-preserve-unknown-fields`,
    /// and an object's keys of no declared type): any scalar, an atomic list, or an object
    /// each of whose keys is such a value.
    pub fn deduced(&self) -> TypeRef {
        TypeRef {
            index: DEDUCED,
            map_atomic: None,
        }
    }

    /// The untyped value owned whole: any scalar, list or object, atomic.
    pub fn untyped(&self) -> TypeRef {
        TypeRef {
            index: UNTYPED,
            map_atomic: None,
        }
    }
}

/// Where the two untyped types sit in every schema's table.
const UNTYPED: usize = 0;
const DEDUCED: usize = 1;

/// Any value, owned whole.
pub(crate) fn untyped_atom() -> Atom {
    Atom {
        scalar: Some(Scalar::Untyped),
        list: Some(List {
            item: TypeRef::UNTYPED,
            kind: ListKind::Atomic,
        }),
        map: Some(MapType {
            fields: Vec::new(),
            rest: Some(TypeRef::UNTYPED),
            atomic: true,
        }),
    }
}

/// Any value, objects owned key by key.
fn deduced_atom() -> Atom {
    Atom {
        scalar: Some(Scalar::Untyped),
        list: Some(List {
            item: TypeRef::UNTYPED,
            kind: ListKind::Atomic,
        }),
        map: Some(MapType {
            fields: Vec::new(),
            rest: Some(TypeRef::DEDUCED),
            atomic: false,
        }),
    }
}

/// A table with the two untyped types in their places, to which definitions are added.
#[derive(Default)]
pub(crate) struct Builder {
    atoms: Vec<Atom>,
    names: HashMap<String, usize>,
    kinds: HashMap<Gvk, usize>,
}

impl Builder {
    pub(crate) fn new() -> Builder {
        Builder {
            atoms: vec![untyped_atom(), deduced_atom()],
            ..Builder::default()
        }
    }

    /// A slot for a type, filled later ([`Builder::set`]): references to it can be made first.
    pub(crate) fn reserve(&mut self) -> usize {
        self.atoms.push(Atom::default());
        self.atoms.len() - 1
    }

    pub(crate) fn set(&mut self, index: usize, atom: Atom) {
        self.atoms[index] = atom;
    }

    pub(crate) fn name(&mut self, name: &str, index: usize) {
        self.names.entry(name.to_owned()).or_insert(index);
    }

    pub(crate) fn index_of(&self, name: &str) -> Option<usize> {
        self.names.get(name).copied()
    }

    pub(crate) fn kind(&mut self, gvk: Gvk, index: usize) {
        self.kinds.entry(gvk).or_insert(index);
    }

    pub(crate) fn finish(self) -> Schema {
        Schema {
            atoms: self.atoms,
            names: self.names,
            kinds: self.kinds,
        }
    }
}

impl TypeRef {
    pub(crate) fn to(index: usize, map_atomic: Option<bool>) -> TypeRef {
        TypeRef { index, map_atomic }
    }

    pub(crate) const UNTYPED: TypeRef = TypeRef {
        index: UNTYPED,
        map_atomic: None,
    };

    pub(crate) const DEDUCED: TypeRef = TypeRef {
        index: DEDUCED,
        map_atomic: None,
    };
}
