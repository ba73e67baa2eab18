//! The types server-side apply merges by: for each value, whether it is a scalar, a list (atomic,
//! a set, or a map keyed by some of its items' fields) or an object (its fields, the type of its
//! other keys, and whether it is replaced whole).
//!
//! These are the API server's structured types, not the strategic merge patch metadata of
//! [`smp_core::Schema`]: the two agree mostly, and where they differ the server's view wins here
//! (a container's `ports` are keyed by `containerPort` and `protocol`, and an item that omits
//! its `protocol` is keyed by its default, `TCP`). [`from_openapi_v3`] builds them as the
//! server does, from the OpenAPI v3 documents it serves.

mod compact;
mod crd;
mod openapi;
mod patch_metadata;

use std::collections::HashMap;

use serde_json::Value;

pub use compact::{CompactError, from_compact_json, to_compact_json};
pub use crd::{crd_reset_fields, from_crds};
pub use openapi::{SchemaError, from_openapi_v3};
pub use patch_metadata::from_patch_metadata;

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
        find_field(&self.fields, name)
    }
}

fn find_field<'a>(fields: &'a [Field], name: &str) -> Option<&'a Field> {
    fields
        .binary_search_by(|f| f.name.as_str().cmp(name))
        .ok()
        .map(|i| &fields[i])
}

/// A type's shapes as a use of it sees them: [`Schema::resolve`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Resolved<'s> {
    /// A scalar, of this kind.
    pub scalar: Option<Scalar>,
    /// A list.
    pub list: Option<&'s List>,
    /// An object.
    pub map: Option<MapView<'s>>,
}

/// An object type as a use of it sees it: whether it is atomic there.
#[derive(Debug, Clone, Copy)]
pub struct MapView<'s> {
    /// The declared fields, sorted by name.
    pub fields: &'s [Field],
    /// The type of keys that are not fields; `None`: there are none.
    pub rest: Option<TypeRef>,
    /// Whether the object is owned and replaced whole where it is used.
    pub atomic: bool,
}

impl<'s> MapView<'s> {
    /// The field called `name`.
    pub fn field(&self, name: &str) -> Option<&'s Field> {
        find_field(self.fields, name)
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

    /// Every kind and the type of its objects.
    pub fn kinds(&self) -> impl Iterator<Item = (&Gvk, TypeRef)> {
        self.kinds.iter().map(|(gvk, &index)| {
            (
                gvk,
                TypeRef {
                    index,
                    map_atomic: None,
                },
            )
        })
    }

    /// A type's shapes, the reference's `x-kubernetes-map-type` applied. Borrowed: walks
    /// resolve a type at every node.
    pub fn resolve(&self, ty: TypeRef) -> Resolved<'_> {
        let Some(atom) = self.atoms.get(ty.index) else {
            return Resolved::default();
        };
        Resolved {
            scalar: atom.scalar,
            list: atom.list.as_ref(),
            map: atom.map.as_ref().map(|map| MapView {
                fields: &map.fields,
                rest: map.rest,
                atomic: ty.map_atomic.unwrap_or(map.atomic),
            }),
        }
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

/// Builds a [`Schema`] by hand (for types that have no OpenAPI document: a test's, or types
/// described some other way). Named types can be referred to before they are defined.
///
/// ```
/// use smp_ssa::schema::{Atom, List, ListKind, MapType, Field, Scalar, SchemaBuilder};
///
/// let mut b = SchemaBuilder::new();
/// let item = b.named("item");
/// let string = b.add(Atom { scalar: Some(Scalar::String), ..Atom::default() });
/// b.define(item, Atom {
///     map: Some(MapType {
///         fields: vec![Field { name: "name".into(), ty: string, default: None }],
///         ..MapType::default()
///     }),
///     ..Atom::default()
/// });
/// let list = b.add(Atom {
///     list: Some(List { item, kind: ListKind::Map(vec!["name".into()]) }),
///     ..Atom::default()
/// });
/// let schema = b.build();
/// assert!(schema.resolve(list).list.is_some());
/// assert!(schema.named("item").is_some());
/// ```
pub struct SchemaBuilder(Builder);

impl SchemaBuilder {
    /// A schema with only the untyped types ([`Schema::untyped`], [`Schema::deduced`]).
    pub fn new() -> SchemaBuilder {
        SchemaBuilder(Builder::new())
    }

    /// The named type `name`, defined by [`SchemaBuilder::define`] (until then, and if never,
    /// a type no value fits).
    pub fn named(&mut self, name: &str) -> TypeRef {
        let index = match self.0.index_of(name) {
            Some(index) => index,
            None => {
                let index = self.0.reserve();
                self.0.name(name, index);
                index
            }
        };
        TypeRef::to(index, None)
    }

    /// Gives type `ty` its shapes. Fields are sorted by name here.
    pub fn define(&mut self, ty: TypeRef, mut atom: Atom) {
        if let Some(map) = atom.map.as_mut() {
            map.fields.sort_by(|a, b| a.name.cmp(&b.name));
        }
        self.0.set(ty.index, atom);
    }

    /// A new type with these shapes, nameless.
    pub fn add(&mut self, atom: Atom) -> TypeRef {
        let ty = TypeRef::to(self.0.reserve(), None);
        self.define(ty, atom);
        ty
    }

    /// Objects of kind `gvk` are of type `ty`.
    pub fn kind(&mut self, gvk: Gvk, ty: TypeRef) {
        self.0.kind(gvk, ty.index);
    }

    /// The untyped type owned whole.
    pub fn untyped(&self) -> TypeRef {
        TypeRef::UNTYPED
    }

    /// The untyped type whose objects are owned key by key.
    pub fn deduced(&self) -> TypeRef {
        TypeRef::DEDUCED
    }

    /// The schema.
    pub fn build(self) -> Schema {
        self.0.finish()
    }
}

impl Default for SchemaBuilder {
    fn default() -> Self {
        SchemaBuilder::new()
    }
}

impl TypeRef {
    /// The type's identity in its schema: references to one type have the same id, whatever
    /// `x-kubernetes-map-type` they are used with (ids run from 0 up to the number of types,
    /// so that a caller may keep what it knows of each type in a vector).
    pub fn id(self) -> usize {
        self.index
    }

    /// This type, its objects atomic (`true`) or granular (`false`) where this reference is
    /// used (`x-kubernetes-map-type` beside a reference).
    pub fn with_map_atomic(self, atomic: bool) -> TypeRef {
        TypeRef {
            map_atomic: Some(atomic),
            ..self
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
pub(crate) fn deduced_atom() -> Atom {
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
