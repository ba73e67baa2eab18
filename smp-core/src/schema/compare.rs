//! Comparing two schemas: does a derived type describe the same patch behaviour as a schema
//! loaded from OpenAPI?

use super::{FieldDef, Node, Str, Strategy, TypeDef};

/// Structural equality of two schemas, as the engine sees them.
///
/// Two schemas are equal when every position has the same shape (struct, map, list, primitive,
/// opaque); structs declare the same set of field names (order does not matter, and fields of
/// inlined structs count as the struct's own) and the same unions (likewise); and each field
/// has the same strategy, merge key and recommended keys, and an equal type. Type names are not compared: a derived Rust type
/// and an OpenAPI definition describe the same thing under different names.
///
/// Recursive schemas terminate: each pair of definitions (identified by address) is compared
/// once. The walk is breadth-first, so the difference reported is one nearest to the root.
///
/// The error names the difference and where, e.g.
/// `mergeItem.retainKeysMap.simpleMap: shape differs: map vs list` (`[]` stands for list
/// items, `{}` for map values).
pub fn compare<'a, 'b>(a: Node<'a>, b: Node<'b>) -> Result<(), String> {
    let root = match a.def {
        TypeDef::Struct(s) => s.name.to_string(),
        _ => shape_name(a.def).to_owned(),
    };
    let pair = |a: Node<'a>, b: Node<'b>| (std::ptr::from_ref(a.def), std::ptr::from_ref(b.def));
    let mut visited: std::collections::HashSet<(*const TypeDef, *const TypeDef)> =
        std::collections::HashSet::from([pair(a, b)]);
    let mut queue = std::collections::VecDeque::from([(a, b, root)]);
    while let Some((a, b, path)) = queue.pop_front() {
        let mut next = |x: Node<'a>, y: Node<'b>, path: String| {
            if visited.insert(pair(x, y)) {
                queue.push_back((x, y, path));
            }
        };
        if a.is_embedded() != b.is_embedded() {
            return Err(format!(
                "{path}: an embedded resource in one schema only (first: {}, second: {})",
                a.is_embedded(),
                b.is_embedded()
            ));
        }
        match (a.def, b.def) {
            (TypeDef::Struct(sa), TypeDef::Struct(sb)) => {
                if sa.open != sb.open {
                    return Err(format!(
                        "{path}: unknown members kept in one schema only (first: {}, second: {})",
                        sa.open, sb.open
                    ));
                }
                let fa = struct_fields(a);
                let fb = struct_fields(b);
                let only_a: Vec<&str> = fa
                    .keys()
                    .filter(|k| !fb.contains_key(*k))
                    .copied()
                    .collect();
                let only_b: Vec<&str> = fb
                    .keys()
                    .filter(|k| !fa.contains_key(*k))
                    .copied()
                    .collect();
                if !only_a.is_empty() || !only_b.is_empty() {
                    return Err(format!(
                        "{path}: fields differ: only in the first: {only_a:?}; only in the second: {only_b:?}"
                    ));
                }
                let (ua, ub) = (union_set(a), union_set(b));
                if ua != ub {
                    return Err(format!("{path}: unions differ: {ua:?} vs {ub:?}"));
                }
                for (name, x) in &fa {
                    let y = &fb[name];
                    let here = format!("{path}.{name}");
                    field_meta(x.def, y.def).map_err(|e| format!("{here}: {e}"))?;
                    next(x.ty, y.ty, here);
                }
            }
            (TypeDef::Map(va), TypeDef::Map(vb)) => {
                next(a.follow(*va), b.follow(*vb), format!("{path}{{}}"));
            }
            (TypeDef::List(ia), TypeDef::List(ib)) => {
                next(a.follow(*ia), b.follow(*ib), format!("{path}[]"));
            }
            (TypeDef::Primitive, TypeDef::Primitive) | (TypeDef::Opaque, TypeDef::Opaque) => {}
            _ => {
                return Err(format!(
                    "{path}: shape differs: {} vs {}",
                    shape_name(a.def),
                    shape_name(b.def)
                ));
            }
        }
    }
    Ok(())
}

/// A struct's unions (its own and those of inlined structs) in a canonical order: each as
/// its discriminator and its sorted `(member, value)` pairs, the list sorted.
type UnionSet = Vec<(Option<String>, Vec<(String, String)>)>;

fn union_set(node: Node<'_>) -> UnionSet {
    let mut out: UnionSet = node
        .unions()
        .into_iter()
        .map(|u| {
            let mut members: Vec<(String, String)> = u
                .members
                .iter()
                .map(|m| (m.field.to_string(), m.discriminated_by.to_string()))
                .collect();
            members.sort();
            (u.discriminator.as_deref().map(str::to_owned), members)
        })
        .collect();
    out.sort();
    out
}

/// The shape of a definition, for messages.
fn shape_name(def: &TypeDef) -> &'static str {
    match def {
        TypeDef::Struct(_) => "struct",
        TypeDef::Map(_) => "map",
        TypeDef::List(_) => "list",
        TypeDef::Primitive => "primitive",
        TypeDef::Opaque => "opaque",
        TypeDef::Embedded(_) => "embedded resource",
    }
}

/// A field with the node its type reference is relative to.
struct ResolvedField<'s> {
    def: &'s FieldDef,
    ty: Node<'s>,
}

/// Strategy, merge key and recommended keys of two fields of the same name.
fn field_meta(a: &FieldDef, b: &FieldDef) -> Result<(), String> {
    let strategy = |s: Strategy| {
        if s == Strategy::DEFAULT {
            "(none)".to_owned()
        } else {
            s.to_string()
        }
    };
    if a.strategy != b.strategy {
        return Err(format!(
            "strategy differs: {} vs {}",
            strategy(a.strategy),
            strategy(b.strategy)
        ));
    }
    if a.merge_key != b.merge_key {
        let key = |k: &Option<Str>| match k {
            Some(k) => format!("{k:?}"),
            None => "(none)".to_owned(),
        };
        return Err(format!(
            "merge key differs: {} vs {}",
            key(&a.merge_key),
            key(&b.merge_key)
        ));
    }
    if a.composite != b.composite {
        return Err(format!(
            "composite identity differs: {} vs {}",
            a.composite, b.composite
        ));
    }
    if a.recommended != b.recommended {
        return Err(format!(
            "recommended merge keys differ: {:?} vs {:?}",
            a.recommended, b.recommended
        ));
    }
    Ok(())
}

/// The fields of the struct at `node` by JSON name: its own, then those of inlined structs that
/// it does not shadow (the order [`Node::field`] looks them up in).
fn struct_fields(node: Node<'_>) -> std::collections::BTreeMap<&str, ResolvedField<'_>> {
    let mut out = std::collections::BTreeMap::new();
    collect_fields(node, &mut out, 0);
    out
}

fn collect_fields<'s>(
    node: Node<'s>,
    out: &mut std::collections::BTreeMap<&'s str, ResolvedField<'s>>,
    depth: u8,
) {
    let TypeDef::Struct(s) = node.def else {
        return;
    };
    for f in s.fields.iter() {
        out.entry(&*f.name).or_insert(ResolvedField {
            def: f,
            ty: node.follow(f.ty),
        });
    }
    // The same bound as `Node::struct_field`: an inlining cycle is a schema bug.
    if depth < 16 {
        for r in s.inlined.iter() {
            collect_fields(node.follow(*r), out, depth + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::super::{Schema, StructDef, TypeRef};
    use super::*;

    fn field(name: &str, ty: TypeRef, strategy: Strategy, key: Option<&str>) -> FieldDef {
        FieldDef {
            name: name.to_owned().into(),
            ty,
            strategy,
            merge_key: key.map(|k| k.to_owned().into()),
            recommended: Cow::Borrowed(&[]),
            composite: false,
            omit_unchanged: false,
        }
    }

    fn object(name: &str, fields: Vec<FieldDef>, inlined: Vec<TypeRef>) -> TypeDef {
        TypeDef::Struct(StructDef {
            name: name.to_owned().into(),
            fields: fields.into(),
            inlined: inlined.into(),
            unions: Cow::Borrowed(&[]),
            open: false,
        })
    }

    fn prim() -> TypeRef {
        TypeRef::Static(|| TypeDef::PRIMITIVE)
    }

    /// `item { name, kids: [item] merge by name, tags: {string} }` as a run-time table, with
    /// the fields in the given order.
    fn item(order: &[&str], kids: Strategy, key: Option<&str>) -> Schema {
        let all = [
            ("name", field("name", prim(), Strategy::DEFAULT, None)),
            ("kids", field("kids", TypeRef::Index(1), kids, key)),
            (
                "tags",
                field("tags", TypeRef::Index(2), Strategy::DEFAULT, None),
            ),
        ];
        let fields = order
            .iter()
            .map(|n| all.iter().find(|(m, _)| m == n).unwrap().1.clone())
            .collect();
        Schema::from_table(
            vec![
                object("item", fields, vec![]),
                TypeDef::List(TypeRef::Index(0)),
                TypeDef::Map(prim()),
            ],
            TypeRef::Index(0),
        )
        .unwrap()
    }

    // The static twin of `item`, as the derive would emit it.
    static ITEM_FIELDS: [FieldDef; 3] = [
        FieldDef::new(
            "kids",
            TypeRef::Static(|| &ITEM_LIST),
            Strategy::MERGE,
            Some("name"),
        ),
        FieldDef::new(
            "name",
            TypeRef::Static(|| TypeDef::PRIMITIVE),
            Strategy::DEFAULT,
            None,
        ),
        FieldDef::new("tags", TypeRef::Static(|| &TAGS), Strategy::DEFAULT, None),
    ];
    static ITEM: TypeDef = TypeDef::Struct(StructDef::new("Item", &ITEM_FIELDS));
    static ITEM_LIST: TypeDef = TypeDef::List(TypeRef::Static(|| &ITEM));
    static TAGS: TypeDef = TypeDef::Map(TypeRef::Static(|| TypeDef::PRIMITIVE));

    // The same with `name` and `tags` moved into an inlined struct.
    static OUTER_FIELDS: [FieldDef; 1] = [FieldDef::new(
        "kids",
        TypeRef::Static(|| &OUTER_LIST),
        Strategy::MERGE,
        Some("name"),
    )];
    static INNER_FIELDS: [FieldDef; 2] = [
        FieldDef::new(
            "name",
            TypeRef::Static(|| TypeDef::PRIMITIVE),
            Strategy::DEFAULT,
            None,
        ),
        FieldDef::new("tags", TypeRef::Static(|| &TAGS), Strategy::DEFAULT, None),
    ];
    static INNER: TypeDef = TypeDef::Struct(StructDef::new("Inner", &INNER_FIELDS));
    static OUTER: TypeDef = TypeDef::Struct(StructDef::with_inlined(
        "Outer",
        &OUTER_FIELDS,
        &[TypeRef::Static(|| &INNER)],
    ));
    static OUTER_LIST: TypeDef = TypeDef::List(TypeRef::Static(|| &OUTER));

    #[test]
    fn equal_schemas_in_any_field_order_and_representation() {
        let a = item(&["name", "kids", "tags"], Strategy::MERGE, Some("name"));
        let b = item(&["tags", "name", "kids"], Strategy::MERGE, Some("name"));
        assert_eq!(compare(a.root(), b.root()), Ok(()));
        assert_eq!(compare(a.root(), Node::of_static(&ITEM)), Ok(()));
        assert_eq!(compare(Node::of_static(&ITEM), a.root()), Ok(()));
        // Inlined fields count as the struct's own, at every level of the recursion.
        assert_eq!(
            compare(Node::of_static(&OUTER), Node::of_static(&ITEM)),
            Ok(())
        );
        assert_eq!(compare(b.root(), Node::of_static(&OUTER)), Ok(()));
        assert_eq!(compare(Node::opaque(), Node::opaque()), Ok(()));
    }

    #[test]
    fn differences_name_the_path() {
        let a = item(&["name", "kids", "tags"], Strategy::MERGE, Some("name"));
        let replace = item(&["name", "kids", "tags"], Strategy::DEFAULT, Some("name"));
        assert_eq!(
            compare(a.root(), replace.root()),
            Err("item.kids: strategy differs: merge vs (none)".to_owned())
        );
        let other_key = item(&["name", "kids", "tags"], Strategy::MERGE, Some("tags"));
        assert_eq!(
            compare(a.root(), other_key.root()),
            Err(r#"item.kids: merge key differs: "name" vs "tags""#.to_owned())
        );
        let no_key = item(&["name", "kids", "tags"], Strategy::MERGE, None);
        assert_eq!(
            compare(no_key.root(), a.root()),
            Err(r#"item.kids: merge key differs: (none) vs "name""#.to_owned())
        );
        let fewer = item(&["name", "kids"], Strategy::MERGE, Some("name"));
        assert_eq!(
            compare(a.root(), fewer.root()),
            Err(
                r#"item: fields differ: only in the first: ["tags"]; only in the second: []"#
                    .to_owned()
            )
        );
        assert_eq!(
            compare(Node::of_static(&ITEM), Node::opaque()),
            Err("Item: shape differs: struct vs opaque".to_owned())
        );
    }

    #[test]
    fn differences_deep_in_recursive_schemas() {
        // kids[].tags{} is a list of primitives instead of a primitive.
        let schema = |tags_value: TypeRef, extra: Vec<TypeDef>| {
            let mut table = vec![
                object(
                    "item",
                    vec![
                        field("name", prim(), Strategy::DEFAULT, None),
                        field("kids", TypeRef::Index(1), Strategy::MERGE, Some("name")),
                        field("tags", TypeRef::Index(2), Strategy::DEFAULT, None),
                    ],
                    vec![],
                ),
                TypeDef::List(TypeRef::Index(0)),
                TypeDef::Map(tags_value),
            ];
            table.extend(extra);
            Schema::from_table(table, TypeRef::Index(0)).unwrap()
        };
        let good = schema(prim(), vec![]);
        let bad = schema(TypeRef::Index(3), vec![TypeDef::List(prim())]);
        assert_eq!(compare(good.root(), Node::of_static(&ITEM)), Ok(()));
        assert_eq!(
            compare(Node::of_static(&ITEM), bad.root()),
            Err("Item.tags{}: shape differs: primitive vs list".to_owned())
        );
        // Below a list of the recursive type: the first difference is at the top already, but
        // a difference only reachable through the recursion is found too.
        let kids_only = |kid_fields: Vec<FieldDef>| {
            Schema::from_table(
                vec![
                    object(
                        "top",
                        vec![field(
                            "kids",
                            TypeRef::Index(1),
                            Strategy::MERGE,
                            Some("name"),
                        )],
                        vec![],
                    ),
                    TypeDef::List(TypeRef::Index(2)),
                    object("kid", kid_fields, vec![]),
                ],
                TypeRef::Index(0),
            )
            .unwrap()
        };
        let x = kids_only(vec![field("name", prim(), Strategy::DEFAULT, None)]);
        let y = kids_only(vec![field("name", prim(), Strategy::REPLACE, None)]);
        assert_eq!(
            compare(x.root(), y.root()),
            Err("top.kids[].name: strategy differs: (none) vs replace".to_owned())
        );
    }

    #[test]
    fn recommended_keys_are_compared() {
        let with = |keys: &'static [Str]| {
            let mut f = field("kids", TypeRef::Index(1), Strategy::MERGE, Some("name"));
            f.recommended = Cow::Borrowed(keys);
            Schema::from_table(
                vec![
                    object("r", vec![f], vec![]),
                    TypeDef::List(TypeRef::Static(|| TypeDef::OPAQUE)),
                ],
                TypeRef::Index(0),
            )
            .unwrap()
        };
        static AB: [Str; 2] = [Cow::Borrowed("a"), Cow::Borrowed("b")];
        static BA: [Str; 2] = [Cow::Borrowed("b"), Cow::Borrowed("a")];
        assert_eq!(compare(with(&AB).root(), with(&AB).root()), Ok(()));
        assert_eq!(
            compare(with(&AB).root(), with(&BA).root()),
            Err(r#"r.kids: recommended merge keys differ: ["a", "b"] vs ["b", "a"]"#.to_owned())
        );
    }
}
