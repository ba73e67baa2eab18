//! Exporting a schema as an OpenAPI v2 document, so that the patch metadata of derived types
//! can be handed to tools that read Kubernetes' extensions (and to `smp --schema`).
//!
//! The document carries what the loader reads back, and only that: shapes, patch strategies,
//! merge keys, recommended merge keys and unions. Loading it gives a schema equal to the one
//! written ([`crate::schema::compare`]).
//!
//! Structs become named definitions referred to by `$ref` (so recursive types terminate);
//! lists and maps are written inline. Inlined structs (serde `flatten`) are written as
//! Kubernetes writes Go's inline structs: their fields and unions join the outer object.
//! The schema model does not tell primitive kinds apart, so every primitive is written as
//! `type: string`; opaque values as `x-kubernetes-preserve-unknown-fields`.

use std::collections::{BTreeMap, HashMap, VecDeque};

use serde_json::{Map, Value, json};

use crate::schema::{FieldDef, Node, Strategy, StructDef, TypeDef};

/// A written document and the name of the root's definition in it.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// `{"swagger": "2.0", "definitions": {...}}`.
    pub document: Value,
    /// The root's definition, for `Schema::from_openapi(&document, &root)`.
    pub root: String,
}

/// Writes `schema` (a derived type's `T::schema()`, or a loaded schema's root) and everything
/// reachable from it.
pub fn write(schema: Node<'_>) -> Written {
    let mut w = Writer::default();
    let root = match schema.def() {
        TypeDef::Struct(_) => w.name_of(schema),
        _ => {
            let body = w.inline(schema, 0);
            w.definitions.insert("root".to_owned(), body);
            "root".to_owned()
        }
    };
    while let Some((node, name)) = w.pending.pop_front() {
        let body = w.structure(node);
        w.definitions.insert(name, body);
    }
    Written {
        document: json!({
            "swagger": "2.0",
            "info": {"title": "smp schema export", "version": "1"},
            "paths": {},
            "definitions": Value::Object(w.definitions.into_iter().collect()),
        }),
        root,
    }
}

/// Deepest nesting of lists and maps written inline; a schema recursing without a struct in
/// between (possible only in hand-built statics) is cut off as opaque there.
const MAX_INLINE_DEPTH: usize = 64;

#[derive(Default)]
struct Writer<'s> {
    definitions: BTreeMap<String, Value>,
    /// Definition names by the address of the struct they describe.
    names: HashMap<*const TypeDef, String>,
    taken: HashMap<String, usize>,
    pending: VecDeque<(Node<'s>, String)>,
}

impl<'s> Writer<'s> {
    /// The definition name of a struct, queueing it on first sight. Two structs of one name
    /// (two Rust modules) get `Name`, `Name.2`, ...
    fn name_of(&mut self, node: Node<'s>) -> String {
        let key = std::ptr::from_ref(node.def());
        if let Some(name) = self.names.get(&key) {
            return name.clone();
        }
        let base = node.def().name().to_owned();
        let count = self.taken.entry(base.clone()).or_insert(0);
        *count += 1;
        let name = if *count == 1 {
            base
        } else {
            format!("{base}.{count}")
        };
        self.names.insert(key, name.clone());
        self.pending.push_back((node, name.clone()));
        name
    }

    /// The schema of a value of type `node` where it is used.
    fn inline(&mut self, node: Node<'s>, depth: usize) -> Value {
        if depth >= MAX_INLINE_DEPTH {
            return opaque();
        }
        let mut schema = self.declared(node, depth);
        if let (true, Value::Object(map)) = (node.is_embedded(), &mut schema) {
            map.insert("x-kubernetes-embedded-resource".to_owned(), json!(true));
        }
        schema
    }

    /// [`Writer::inline`] of an embedded resource's declared type, or of any other node.
    fn declared(&mut self, node: Node<'s>, depth: usize) -> Value {
        match node.def() {
            TypeDef::Struct(_) => json!({"$ref": format!("#/definitions/{}", self.name_of(node))}),
            TypeDef::List(item) => {
                json!({"type": "array", "items": self.inline(node.follow(*item), depth + 1)})
            }
            TypeDef::Map(value) => json!({
                "type": "object",
                "additionalProperties": self.inline(node.follow(*value), depth + 1),
            }),
            TypeDef::Primitive => json!({"type": "string"}),
            // A node shows an embedded resource as its declared type.
            TypeDef::Opaque | TypeDef::Embedded(_) => opaque(),
        }
    }

    /// A struct's definition: its fields and those of inlined structs, and all their unions.
    fn structure(&mut self, node: Node<'s>) -> Value {
        let mut fields = BTreeMap::new();
        collect_fields(node, &mut fields, 0);
        let mut properties = Map::new();
        for (name, (field, ty)) in fields {
            properties.insert(name.to_owned(), self.property(field, ty));
        }
        let mut out = Map::new();
        out.insert("type".to_owned(), json!("object"));
        out.insert("properties".to_owned(), Value::Object(properties));
        if let TypeDef::Struct(StructDef { open: true, .. }) = node.def() {
            out.insert(
                "x-kubernetes-preserve-unknown-fields".to_owned(),
                json!(true),
            );
        }
        let unions: Vec<Value> = node
            .unions()
            .into_iter()
            .map(|u| {
                let mut union = Map::new();
                if let Some(d) = &u.discriminator {
                    union.insert("discriminator".to_owned(), json!(d));
                }
                let members: Map<String, Value> = u
                    .members
                    .iter()
                    .map(|m| (m.field.to_string(), json!(m.discriminated_by)))
                    .collect();
                union.insert(
                    "fields-to-discriminateBy".to_owned(),
                    Value::Object(members),
                );
                Value::Object(union)
            })
            .collect();
        if !unions.is_empty() {
            out.insert("x-kubernetes-unions".to_owned(), Value::Array(unions));
        }
        Value::Object(out)
    }

    fn property(&mut self, field: &FieldDef, ty: Node<'s>) -> Value {
        let mut schema = self.inline(ty, 0);
        let Value::Object(map) = &mut schema else {
            return schema;
        };
        if field.strategy != Strategy::DEFAULT {
            map.insert(
                "x-kubernetes-patch-strategy".to_owned(),
                json!(field.strategy.to_string()),
            );
        }
        if let Some(key) = &field.merge_key {
            map.insert("x-kubernetes-patch-merge-key".to_owned(), json!(key));
        }
        if !field.recommended.is_empty() {
            let keys: Vec<&str> = field.recommended.iter().map(|k| &**k).collect();
            map.insert(
                "x-kubernetes-recommended-patch-merge-key".to_owned(),
                json!(keys.join(",")),
            );
        }
        schema
    }
}

fn opaque() -> Value {
    json!({"x-kubernetes-preserve-unknown-fields": true})
}

/// Own fields first, then inlined ones they do not shadow: the lookup order of `Node::field`.
fn collect_fields<'s>(
    node: Node<'s>,
    out: &mut BTreeMap<&'s str, (&'s FieldDef, Node<'s>)>,
    depth: u8,
) {
    let TypeDef::Struct(s) = node.def() else {
        return;
    };
    for f in s.fields.iter() {
        out.entry(&*f.name).or_insert((f, node.follow(f.ty)));
    }
    if depth < 16 {
        for r in s.inlined.iter() {
            collect_fields(node.follow(*r), out, depth + 1);
        }
    }
}
