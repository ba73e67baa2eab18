//! Structured types from strategic-merge-patch metadata: what a `#[derive(StrategicMerge)]`
//! type (or any static smp schema) says, turned into the types server-side apply merges by,
//! the way the API server turns a built-in type's patch strategy into a list type when it has
//! no `x-kubernetes-list-type`: `merge` with a merge key is a map list keyed by it, `merge` on
//! scalars a set, anything else atomic. One source of metadata, two semantics.

use std::collections::HashMap;

use smp_core::schema::{BaseStrategy, FieldDef, TypeDef, TypeRef as SmpRef};

use super::{Atom, Builder, Field, Gvk, List, ListKind, MapType, Scalar, Schema, TypeRef};

/// The structured types of `root` (a type's static definition, `T::DEF` of a derived type),
/// registered as the type of objects of `gvk`.
///
/// Types are followed through their static references; a table reference (`Index`, found in
/// schemas loaded at run time) is read as an untyped value whose objects are granular. Object
/// fields are typed loosely: any scalar is accepted where the metadata says "primitive".
///
/// ```
/// use smp_core::schema::{FieldDef, Strategy, StructDef, TypeDef, TypeRef as SmpRef};
/// use smp_ssa::schema::{Gvk, ListKind, from_patch_metadata};
///
/// static ITEM: TypeDef = TypeDef::Struct(StructDef::new("Item", &[]));
/// static ITEMS: TypeDef = TypeDef::List(SmpRef::Static(|| &ITEM));
/// static FIELDS: [FieldDef; 1] =
///     [FieldDef::new("items", SmpRef::Static(|| &ITEMS), Strategy::MERGE, Some("name"))];
/// static ROOT: TypeDef = TypeDef::Struct(StructDef::new("Root", &FIELDS));
///
/// let schema = from_patch_metadata(&ROOT, Gvk::of("example.com/v1", "Root"));
/// let root = schema.kind(&Gvk::of("example.com/v1", "Root")).unwrap();
/// let items = schema.resolve(root).map.unwrap().field("items").unwrap().ty;
/// assert_eq!(schema.resolve(items).list.unwrap().kind, ListKind::Map(vec!["name".into()]));
/// ```
pub fn from_patch_metadata(root: &'static TypeDef, gvk: Gvk) -> Schema {
    let mut c = Convert {
        b: Builder::new(),
        seen: HashMap::new(),
    };
    let ty = c.def(root, 0);
    if ty.index > DEDUCED_INDEX {
        c.b.kind(gvk, ty.index);
    } else {
        // An untyped root: give the kind an atom of its own with the same shapes.
        let index = c.b.reserve();
        c.b.set(index, super::deduced_atom());
        c.b.kind(gvk, index);
    }
    c.b.finish()
}

const DEDUCED_INDEX: usize = 1;

struct Convert {
    b: Builder,
    /// Atoms made for each definition, by its address: a recursive type refers to itself.
    seen: HashMap<usize, usize>,
}

/// How deep definitions nest before the rest is read as untyped.
const MAX_DEPTH: usize = 256;

impl Convert {
    fn follow(&mut self, r: &SmpRef, depth: usize) -> TypeRef {
        match r {
            SmpRef::Static(get) => self.def(get(), depth + 1),
            SmpRef::Index(_) => TypeRef::DEDUCED,
        }
    }

    fn def(&mut self, def: &'static TypeDef, depth: usize) -> TypeRef {
        if depth > MAX_DEPTH {
            return TypeRef::DEDUCED;
        }
        let key = def as *const TypeDef as usize;
        if let Some(&index) = self.seen.get(&key) {
            return TypeRef::to(index, None);
        }
        match def {
            TypeDef::Opaque => TypeRef::DEDUCED,
            TypeDef::Embedded(inner) => self.follow(inner, depth),
            _ => {
                let index = self.b.reserve();
                self.seen.insert(key, index);
                let atom = match def {
                    TypeDef::Struct(s) => {
                        let mut fields = Vec::new();
                        self.fields(&s.fields, &s.inlined, &mut fields, depth);
                        fields.sort_by(|a, b| a.name.cmp(&b.name));
                        fields.dedup_by(|a, b| a.name == b.name);
                        Atom {
                            map: Some(MapType {
                                fields,
                                rest: s.open.then_some(TypeRef::DEDUCED),
                                atomic: false,
                            }),
                            ..Atom::default()
                        }
                    }
                    TypeDef::Map(values) => Atom {
                        map: Some(MapType {
                            fields: Vec::new(),
                            rest: Some(self.follow(values, depth)),
                            atomic: false,
                        }),
                        ..Atom::default()
                    },
                    TypeDef::List(item) => Atom {
                        list: Some(List {
                            item: self.follow(item, depth),
                            kind: ListKind::Atomic,
                        }),
                        ..Atom::default()
                    },
                    _ => Atom {
                        scalar: Some(Scalar::Untyped),
                        ..Atom::default()
                    },
                };
                self.b.set(index, atom);
                TypeRef::to(index, None)
            }
        }
    }

    /// The fields of a struct and of the structs inlined into it (declared fields first).
    fn fields(
        &mut self,
        declared: &[FieldDef],
        inlined: &[SmpRef],
        out: &mut Vec<Field>,
        depth: usize,
    ) {
        for f in declared {
            let ty = self.field(f, depth);
            out.push(Field {
                name: f.name.to_string(),
                ty,
                default: None,
            });
        }
        for r in inlined {
            if let SmpRef::Static(get) = r {
                if let TypeDef::Struct(s) = get() {
                    if depth < MAX_DEPTH {
                        self.fields(&s.fields, &s.inlined, out, depth + 1);
                    }
                }
            }
        }
    }

    /// A field's type: a list takes its kind from the field's strategy.
    fn field(&mut self, f: &FieldDef, depth: usize) -> TypeRef {
        let SmpRef::Static(get) = &f.ty else {
            return TypeRef::DEDUCED;
        };
        let mut def = get();
        while let TypeDef::Embedded(SmpRef::Static(inner)) = def {
            def = inner();
        }
        let TypeDef::List(item) = def else {
            let ty = self.def(def, depth + 1);
            // A custom resource's `x-kubernetes-map-type: atomic` object.
            return if f.omit_unchanged {
                ty.with_map_atomic(true)
            } else {
                ty
            };
        };
        let kind = match (f.strategy.base, &f.merge_key) {
            // A custom resource's keys of several fields (`x-kubernetes-list-map-keys`).
            _ if f.composite && !f.recommended.is_empty() => {
                ListKind::Map(f.recommended.iter().map(|k| k.to_string()).collect())
            }
            (BaseStrategy::Merge, Some(key)) => ListKind::Map(vec![key.to_string()]),
            (BaseStrategy::Merge, None) => ListKind::Set,
            _ => ListKind::Atomic,
        };
        if kind == ListKind::Atomic {
            return self.def(def, depth + 1);
        }
        let item = self.follow(item, depth + 1);
        let index = self.b.reserve();
        self.b.set(
            index,
            Atom {
                list: Some(List { item, kind }),
                ..Atom::default()
            },
        );
        TypeRef::to(index, None)
    }
}
