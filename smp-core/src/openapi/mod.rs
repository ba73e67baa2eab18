//! Loading a [`Schema`] from an OpenAPI v2 (Swagger) or v3 document.
//!
//! Only what strategic merge patch needs is read: the shape of each schema (struct, map, list,
//! primitive, opaque) and, per property, `x-kubernetes-patch-strategy`,
//! `x-kubernetes-patch-merge-key` and `x-kubernetes-recommended-patch-merge-key`, and per object
//! `x-kubernetes-unions` (KEP-1027). Validation
//! keywords (`required`, `format`, `enum`, ...) are ignored.
//!
//! Each named definition becomes exactly one entry of the schema's table, referred to by
//! [`TypeRef::Index`], so recursive types (a `mergeItem` holding a list of `mergeItem`)
//! terminate. Definitions are discovered from the root through `$ref`s and built from a work
//! list, so a long chain of definitions costs no stack.
//!
//! Shapes, in order of precedence:
//!
//! | schema | becomes |
//! |---|---|
//! | `$ref`, or `allOf: [{$ref}]` with exactly one element (v3 style) | that definition |
//! | `x-kubernetes-int-or-string: true` | primitive |
//! | `type: object` (or no type) with `properties` | struct |
//! | `additionalProperties: {schema}` without `properties` | map of that schema |
//! | `additionalProperties: true` or `{}` | map of opaque values |
//! | `type: array`, or no type and `items` | list of `items` (opaque when missing) |
//! | `type: string/integer/number/boolean` | primitive |
//! | anything else (`x-kubernetes-preserve-unknown-fields`, no keywords at all) | opaque |

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::schema::{
    FieldDef, Schema, Str, Strategy, StrategyParseError, StructDef, TypeDef, TypeRef,
};

/// Why an OpenAPI document could not be turned into a [`Schema`].
///
/// `at` members are JSON pointers into the document (`#/definitions/mergeItem/properties/x`).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SchemaError {
    /// The document has neither `definitions` (v2) nor `components.schemas` (v3).
    NotOpenApi,
    /// The requested root definition does not exist.
    UnknownDefinition {
        /// The requested name.
        name: String,
        /// A few similar names, or a sample of the names the document defines.
        available_hint: String,
    },
    /// A `$ref` that names no definition of the document.
    UnresolvedRef {
        /// The reference as written.
        reference: String,
        /// Where it was found.
        at: String,
    },
    /// An `x-kubernetes-patch-strategy` that Kubernetes does not define.
    BadStrategy {
        /// The property carrying it.
        at: String,
        /// The parse failure.
        source: StrategyParseError,
    },
    /// A schema keyword whose value has the wrong JSON shape.
    BadShape {
        /// Where.
        at: String,
        /// What was expected there.
        expected: &'static str,
    },
    /// A bug in the loader (it built a table with a dangling index). Never expected.
    Internal {
        /// What went wrong.
        detail: &'static str,
    },
}

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SchemaError::NotOpenApi => f.write_str(
                "not an OpenAPI document: expected `definitions` (v2) or `components.schemas` (v3) to be an object",
            ),
            SchemaError::UnknownDefinition {
                name,
                available_hint,
            } => write!(f, "definition {name:?} not found in the document; {available_hint}"),
            SchemaError::UnresolvedRef { reference, at } => {
                write!(f, "at {at}: unresolved reference {reference:?}")
            }
            SchemaError::BadStrategy { at, source } => write!(f, "at {at}: {source}"),
            SchemaError::BadShape { at, expected } => write!(f, "at {at}: expected {expected}"),
            SchemaError::Internal { detail } => {
                write!(f, "internal error while loading the schema: {detail}")
            }
        }
    }
}

impl std::error::Error for SchemaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SchemaError::BadStrategy { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl Schema {
    /// Loads the definition `definition` and every type reachable from it. See [`load`].
    pub fn from_openapi(doc: &Value, definition: &str) -> Result<Schema, SchemaError> {
        load(doc, definition)
    }
}

/// Loads the definition `definition` (e.g. `"mergeItem"` or `"io.k8s.api.core.v1.Pod"`) and
/// every type reachable from it.
///
/// The version is detected by the container: `definitions` (v2, refs `#/definitions/NAME`) or
/// `components.schemas` (v3, refs `#/components/schemas/NAME`). `definition` may also be given
/// as a full reference (`#/definitions/NAME`).
pub fn load(doc: &Value, definition: &str) -> Result<Schema, SchemaError> {
    load_with(doc, definition, false)
}

/// [`load`], with the server-side apply markers read as patch metadata when `markers`.
fn load_with(doc: &Value, definition: &str, markers: bool) -> Result<Schema, SchemaError> {
    let (defs, prefix) = definitions(doc)?;
    let name = definition.strip_prefix(prefix).unwrap_or(definition);
    if !defs.contains_key(name) {
        return Err(SchemaError::UnknownDefinition {
            name: name.to_owned(),
            available_hint: hint(defs, name),
        });
    }
    let mut loader = Loader {
        defs,
        prefix,
        types: Vec::new(),
        by_name: HashMap::new(),
        pending: VecDeque::new(),
        markers,
        object_meta: None,
    };
    let root = loader.definition(name, "(root)")?;
    while let Some((index, name)) = loader.pending.pop_front() {
        let def = loader.build_definition(name)?;
        match loader.types.get_mut(index) {
            Some(slot) => *slot = def,
            None => {
                return Err(SchemaError::Internal {
                    detail: "a reserved definition slot is missing",
                });
            }
        }
    }
    Schema::from_table(loader.types, TypeRef::Index(root)).ok_or(SchemaError::Internal {
        detail: "the type table holds an index outside the table",
    })
}

/// The definitions container and the `$ref` prefix of its version.
fn definitions(doc: &Value) -> Result<(&Map<String, Value>, &'static str), SchemaError> {
    let Some(top) = doc.as_object() else {
        return Err(SchemaError::NotOpenApi);
    };
    if let Some(defs) = top.get("definitions") {
        return match defs.as_object() {
            Some(defs) => Ok((defs, V2_PREFIX)),
            None => Err(SchemaError::BadShape {
                at: "#/definitions".to_owned(),
                expected: "an object of named schemas",
            }),
        };
    }
    match top.get("components").and_then(|c| c.get("schemas")) {
        Some(Value::Object(defs)) => Ok((defs, V3_PREFIX)),
        Some(_) => Err(SchemaError::BadShape {
            at: "#/components/schemas".to_owned(),
            expected: "an object of named schemas",
        }),
        None => Err(SchemaError::NotOpenApi),
    }
}

const V2_PREFIX: &str = "#/definitions/";
const V3_PREFIX: &str = "#/components/schemas/";

/// Deepest nesting of inline schemas followed (definitions reached by `$ref` do not count: they
/// are built from a work list). Real documents nest a handful of levels; the bound keeps the
/// loader's recursion (several frames per level) well inside a 2 MiB thread stack in debug
/// builds too.
const MAX_INLINE_DEPTH: usize = 64;

/// Longest chain of definitions that are only a `$ref` to another definition.
const MAX_ALIAS_CHAIN: usize = 64;

struct Loader<'d> {
    defs: &'d Map<String, Value>,
    prefix: &'static str,
    /// The table being built; slots of definitions still in `pending` hold a placeholder.
    types: Vec<TypeDef>,
    /// Definition name → its slot (aliases map to the slot of their target).
    by_name: HashMap<&'d str, usize>,
    /// Definitions with a reserved slot, still to be built.
    pending: VecDeque<(usize, &'d str)>,
    /// Whether the server-side apply markers (`x-kubernetes-list-type`, `-list-map-keys`,
    /// `-map-type`) give patch metadata where the patch extensions are absent: in a
    /// CustomResourceDefinition's schema ([`crd`]), not in the API's own documents, whose
    /// patch extensions say everything strategic merge patch does.
    markers: bool,
    /// `ObjectMeta`'s entry, once an embedded resource needed it.
    object_meta: Option<TypeRef>,
}

/// The extension marking an embedded resource.
const EMBEDDED_RESOURCE: &str = "x-kubernetes-embedded-resource";

fn primitive() -> TypeRef {
    TypeRef::Static(|| TypeDef::PRIMITIVE)
}

fn opaque() -> TypeRef {
    TypeRef::Static(|| TypeDef::OPAQUE)
}

impl<'d> Loader<'d> {
    /// The slot of definition `name`, reserving it (and queueing its construction) on first
    /// use. `at` says where the reference was found, for errors.
    fn definition(&mut self, name: &str, at: &str) -> Result<usize, SchemaError> {
        if let Some(&index) = self.by_name.get(name) {
            return Ok(index);
        }
        // Follow definitions that are nothing but a reference to another definition, so that
        // every alias shares its target's slot.
        let mut chain: Vec<&'d str> = Vec::new();
        let mut current = name.to_owned();
        let mut found_at = at.to_owned();
        loop {
            let Some((key, body)) = self.defs.get_key_value(current.as_str()) else {
                return Err(SchemaError::UnresolvedRef {
                    reference: format!("{}{}", self.prefix, escape_pointer(&current)),
                    at: found_at,
                });
            };
            let key = key.as_str();
            if let Some(&index) = self.by_name.get(key) {
                for alias in chain {
                    self.by_name.insert(alias, index);
                }
                return Ok(index);
            }
            let here = format!("{}{}", self.prefix, escape_pointer(key));
            match reference_of(body, &here)? {
                Some(reference) if chain.len() < MAX_ALIAS_CHAIN => {
                    if chain.contains(&key) {
                        return Err(SchemaError::BadShape {
                            at: here,
                            expected: "a type, not a cycle of definitions that only refer to each other",
                        });
                    }
                    chain.push(key);
                    current = self.target_name(reference, &here)?;
                    found_at = here;
                }
                Some(_) => {
                    return Err(SchemaError::BadShape {
                        at: here,
                        expected: "a type within 64 `$ref` hops",
                    });
                }
                None => {
                    let index = self.types.len();
                    // Placeholder until the work list builds it.
                    self.types.push(TypeDef::Opaque);
                    self.by_name.insert(key, index);
                    for alias in chain {
                        self.by_name.insert(alias, index);
                    }
                    self.pending.push_back((index, key));
                    return Ok(index);
                }
            }
        }
    }

    /// The definition name a `$ref` points at (JSON pointer escapes decoded).
    fn target_name(&self, reference: &str, at: &str) -> Result<String, SchemaError> {
        match reference.strip_prefix(self.prefix) {
            Some(rest) if !rest.is_empty() && !rest.contains('/') => Ok(unescape_pointer(rest)),
            _ => Err(SchemaError::UnresolvedRef {
                reference: reference.to_owned(),
                at: at.to_owned(),
            }),
        }
    }

    /// Builds the body of a named definition whose slot is reserved.
    fn build_definition(&mut self, name: &'d str) -> Result<TypeDef, SchemaError> {
        let at = format!("{}{}", self.prefix, escape_pointer(name));
        let Some(body) = self.defs.get(name) else {
            return Err(SchemaError::Internal {
                detail: "a queued definition disappeared",
            });
        };
        self.shape(body, name, &at, 0)
    }

    /// A reference to the type of `schema`: a definition slot for `$ref`s, a shared static for
    /// primitives and opaque values, a new table entry for other inline schemas.
    fn type_ref(
        &mut self,
        schema: &'d Value,
        name: &str,
        at: &str,
        depth: usize,
    ) -> Result<TypeRef, SchemaError> {
        if let Some(reference) = reference_of(schema, at)? {
            let target = self.target_name(reference, at)?;
            let r = TypeRef::Index(self.definition(&target, at)?);
            // A reference marked as an embedded resource (as `write` writes one): the
            // definition is its declared type.
            return Ok(match schema.as_object() {
                Some(s) if flag(s, EMBEDDED_RESOURCE, at)? => self.push(TypeDef::Embedded(r)),
                _ => r,
            });
        }
        Ok(match self.shape(schema, name, at, depth)? {
            TypeDef::Primitive => primitive(),
            TypeDef::Opaque => opaque(),
            def => self.push(def),
        })
    }

    /// A new table entry.
    fn push(&mut self, def: TypeDef) -> TypeRef {
        self.types.push(def);
        TypeRef::Index(self.types.len() - 1)
    }

    /// The type of an embedded resource's `metadata`: `ObjectMeta`'s patch metadata, built once
    /// per schema.
    fn object_meta(&mut self) -> Result<TypeRef, SchemaError> {
        if let Some(r) = self.object_meta {
            return Ok(r);
        }
        let r = self.type_ref(crd::object_meta(), "ObjectMeta", "(ObjectMeta)", 0)?;
        self.object_meta = Some(r);
        Ok(r)
    }

    /// `x-kubernetes-embedded-resource`: the declared type of a whole Kubernetes object, whose
    /// `metadata` is an `ObjectMeta` whatever the schema declares (the API server validates it
    /// as one), wrapped so that the object's own `apiVersion` and `kind` can type it.
    fn embedded(&mut self, declared: TypeDef, name: &str) -> Result<TypeDef, SchemaError> {
        let metadata = FieldDef::new("metadata", self.object_meta()?, Strategy::DEFAULT, None);
        let declared = match declared {
            TypeDef::Struct(mut s) => {
                let mut fields = s.fields.into_owned();
                fields.retain(|f| f.name != "metadata");
                fields.push(metadata);
                s.fields = Cow::Owned(fields);
                TypeDef::Struct(s)
            }
            // No properties: anything besides the object's metadata is data
            // (`x-kubernetes-preserve-unknown-fields`, which such a schema must carry).
            _ => TypeDef::Struct(StructDef {
                name: Cow::Owned(name.to_owned()),
                fields: Cow::Owned(vec![metadata]),
                inlined: Cow::Borrowed(&[]),
                unions: Cow::Borrowed(&[]),
                open: true,
            }),
        };
        Ok(TypeDef::Embedded(self.push(declared)))
    }

    /// The shape of a schema that is not a reference. `name` names anonymous structs.
    fn shape(
        &mut self,
        schema: &'d Value,
        name: &str,
        at: &str,
        depth: usize,
    ) -> Result<TypeDef, SchemaError> {
        if depth >= MAX_INLINE_DEPTH {
            return Err(SchemaError::BadShape {
                at: at.to_owned(),
                expected: "inline schemas nested at most 64 levels deep",
            });
        }
        let s = match schema {
            Value::Object(s) => s,
            // JSON Schema's boolean schemas: `true` accepts anything.
            Value::Bool(true) => return Ok(TypeDef::Opaque),
            _ => {
                return Err(SchemaError::BadShape {
                    at: at.to_owned(),
                    expected: "a schema object",
                });
            }
        };
        // References never get here: `type_ref` resolves them, and `definition` follows
        // definitions that are only a reference before queueing one.
        if reference_of(schema, at)?.is_some() {
            return Err(SchemaError::Internal {
                detail: "a reference reached the shape builder",
            });
        }
        if flag(s, "x-kubernetes-int-or-string", at)? {
            return Ok(TypeDef::Primitive);
        }
        if flag(s, EMBEDDED_RESOURCE, at)? {
            let declared = self.object_shape(s, name, at, depth)?;
            return self.embedded(declared, name);
        }
        self.object_shape(s, name, at, depth)
    }

    /// [`Loader::shape`] once the schema is known to be neither a reference, an int-or-string
    /// nor an embedded resource.
    fn object_shape(
        &mut self,
        s: &'d Map<String, Value>,
        name: &str,
        at: &str,
        depth: usize,
    ) -> Result<TypeDef, SchemaError> {
        let ty = declared_type(s, at)?;
        let properties = s.get("properties");
        match ty {
            Some("object") | None if properties.is_some() => {
                let open = flag(s, "x-kubernetes-preserve-unknown-fields", at)?;
                let def = self.structure(properties, name, at, depth, open)?;
                unions::attach(def, s, at)
            }
            Some("object") | None => {
                if let Some(value) = s.get("additionalProperties") {
                    if let Some(def) = self.additional(value, name, at, depth)? {
                        return Ok(def);
                    }
                }
                if ty.is_none() && s.contains_key("items") {
                    return self.list(s, name, at, depth);
                }
                Ok(TypeDef::Opaque)
            }
            Some("array") => self.list(s, name, at, depth),
            Some("string" | "integer" | "number" | "boolean" | "null") => Ok(TypeDef::Primitive),
            // Several types at once (`type: ["string", "integer"]`) or a type name OpenAPI does
            // not define (`file`, `any`): nothing to patch by, so no metadata.
            Some(_) => Ok(TypeDef::Opaque),
        }
    }

    fn structure(
        &mut self,
        properties: Option<&'d Value>,
        name: &str,
        at: &str,
        depth: usize,
        open: bool,
    ) -> Result<TypeDef, SchemaError> {
        let Some(Value::Object(properties)) = properties else {
            return Err(SchemaError::BadShape {
                at: format!("{at}/properties"),
                expected: "an object of property schemas",
            });
        };
        let mut fields = Vec::with_capacity(properties.len());
        for (field, schema) in properties {
            let field_at = format!("{at}/properties/{}", escape_pointer(field));
            fields.push(self.field(field, schema, name, &field_at, depth)?);
        }
        Ok(TypeDef::Struct(StructDef {
            name: Cow::Owned(name.to_owned()),
            fields: Cow::Owned(fields),
            inlined: Cow::Borrowed(&[]),
            unions: Cow::Borrowed(&[]),
            open,
        }))
    }

    fn field(
        &mut self,
        field: &str,
        schema: &'d Value,
        parent: &str,
        at: &str,
        depth: usize,
    ) -> Result<FieldDef, SchemaError> {
        let ty = self.type_ref(schema, &format!("{parent}.{field}"), at, depth + 1)?;
        let meta = schema.as_object();
        let strategy = match meta.and_then(|m| m.get("x-kubernetes-patch-strategy")) {
            None | Some(Value::Null) => Strategy::DEFAULT,
            Some(Value::String(text)) => {
                Strategy::parse(text).map_err(|source| SchemaError::BadStrategy {
                    at: at.to_owned(),
                    source,
                })?
            }
            Some(_) => {
                return Err(SchemaError::BadShape {
                    at: format!("{at}/x-kubernetes-patch-strategy"),
                    expected: "a string such as \"merge\" or \"merge,retainKeys\"",
                });
            }
        };
        let merge_key = match meta.and_then(|m| m.get("x-kubernetes-patch-merge-key")) {
            None | Some(Value::Null) => None,
            // A key starting with `$` would be read as a directive in every patch item.
            Some(Value::String(key)) if !key.is_empty() && !key.starts_with('$') => {
                Some(Str::Owned(key.clone()))
            }
            Some(_) => {
                return Err(SchemaError::BadShape {
                    at: format!("{at}/x-kubernetes-patch-merge-key"),
                    expected: "a field name (a non-empty string not starting with `$`)",
                });
            }
        };
        let recommended = recommended_keys(meta, at)?;
        // The patch extensions win; without them a CRD's markers say how the field merges.
        let patch_extensions = [
            "x-kubernetes-patch-strategy",
            "x-kubernetes-patch-merge-key",
        ]
        .iter()
        .any(|k| meta.is_some_and(|m| m.contains_key(*k)));
        let marked = match meta {
            Some(m) if self.markers && !patch_extensions => crd::markers(m, at)?,
            _ => None,
        };
        let omit_unchanged = marked.as_ref().is_some_and(|m| m.atomic_map);
        let (strategy, merge_key, recommended, composite) = match marked {
            Some(m) if !m.composite.is_empty() => (m.strategy, m.merge_key, m.composite, true),
            Some(m) => (m.strategy, m.merge_key, recommended, false),
            None => (strategy, merge_key, recommended, false),
        };
        if let (Some(first), Some(key)) = (recommended.first(), &merge_key) {
            if first != key {
                return Err(SchemaError::BadShape {
                    at: format!("{at}/x-kubernetes-recommended-patch-merge-key"),
                    expected: "the field's merge key as the first recommended key",
                });
            }
        }
        if recommended
            .iter()
            .enumerate()
            .any(|(i, k)| recommended[..i].contains(k))
        {
            return Err(SchemaError::BadShape {
                at: format!("{at}/x-kubernetes-recommended-patch-merge-key"),
                expected: "distinct field names",
            });
        }
        Ok(FieldDef {
            name: Cow::Owned(field.to_owned()),
            ty,
            strategy,
            merge_key,
            recommended: Cow::Owned(recommended),
            composite,
            omit_unchanged,
        })
    }

    /// `additionalProperties`: `Some(Map)` when it describes map values, `None` when it does
    /// not make the schema a map (`false`).
    fn additional(
        &mut self,
        value: &'d Value,
        name: &str,
        at: &str,
        depth: usize,
    ) -> Result<Option<TypeDef>, SchemaError> {
        Ok(match value {
            Value::Bool(false) => None,
            Value::Bool(true) => Some(TypeDef::Map(opaque())),
            Value::Object(o) if o.is_empty() => Some(TypeDef::Map(opaque())),
            Value::Object(_) => {
                let values = self.type_ref(
                    value,
                    &format!("{name}{{}}"),
                    &format!("{at}/additionalProperties"),
                    depth + 1,
                )?;
                Some(TypeDef::Map(values))
            }
            // Not a schema (upstream's own v2 test document has `additionalProperties:
            // "object"`). The author meant a map; what its values are is unknown.
            _ => Some(TypeDef::Map(opaque())),
        })
    }

    fn list(
        &mut self,
        s: &'d Map<String, Value>,
        name: &str,
        at: &str,
        depth: usize,
    ) -> Result<TypeDef, SchemaError> {
        let items = match s.get("items") {
            None | Some(Value::Null) => opaque(),
            // OpenAPI v2 tuple form: items differ per position, no common metadata.
            Some(Value::Array(_)) => opaque(),
            Some(items) => self.type_ref(
                items,
                &format!("{name}[]"),
                &format!("{at}/items"),
                depth + 1,
            )?,
        };
        Ok(TypeDef::List(items))
    }
}

/// The `$ref` a schema stands for: `$ref` itself, or v3's `allOf: [{$ref: ...}]` with exactly
/// one element (siblings such as `description` or the patch extensions may sit next to it).
fn reference_of<'v>(schema: &'v Value, at: &str) -> Result<Option<&'v str>, SchemaError> {
    let Some(s) = schema.as_object() else {
        return Ok(None);
    };
    if let Some(reference) = s.get("$ref") {
        return match reference {
            Value::String(r) => Ok(Some(r)),
            _ => Err(SchemaError::BadShape {
                at: format!("{at}/$ref"),
                expected: "a string",
            }),
        };
    }
    if let Some(Value::Array(all)) = s.get("allOf") {
        if let [Value::Object(only)] = all.as_slice() {
            match only.get("$ref") {
                Some(Value::String(r)) => return Ok(Some(r)),
                Some(_) => {
                    return Err(SchemaError::BadShape {
                        at: format!("{at}/allOf/0/$ref"),
                        expected: "a string",
                    });
                }
                None => {}
            }
        }
    }
    Ok(None)
}

/// The `type` keyword: a string, or (OpenAPI 3.1 / JSON Schema) an array of strings reduced
/// by dropping `"null"`; several remaining types read as `"mixed"` (opaque).
fn declared_type<'v>(s: &'v Map<String, Value>, at: &str) -> Result<Option<&'v str>, SchemaError> {
    match s.get("type") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(t)) => Ok(Some(t)),
        Some(Value::Array(types)) => {
            let mut named = Vec::new();
            for t in types {
                match t {
                    Value::String(t) if t == "null" => {}
                    Value::String(t) => named.push(t.as_str()),
                    _ => {
                        return Err(SchemaError::BadShape {
                            at: format!("{at}/type"),
                            expected: "a type name or an array of type names",
                        });
                    }
                }
            }
            Ok(match named.as_slice() {
                [] => Some("null"),
                [one] => Some(one),
                _ => Some("mixed"),
            })
        }
        Some(_) => Err(SchemaError::BadShape {
            at: format!("{at}/type"),
            expected: "a type name or an array of type names",
        }),
    }
}

/// A boolean extension; absent means false.
fn flag(s: &Map<String, Value>, key: &str, at: &str) -> Result<bool, SchemaError> {
    match s.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(SchemaError::BadShape {
            at: format!("{at}/{key}"),
            expected: "a boolean",
        }),
    }
}

/// `x-kubernetes-recommended-patch-merge-key`: a comma-separated string (or, leniently, an
/// array of strings).
fn recommended_keys(meta: Option<&Map<String, Value>>, at: &str) -> Result<Vec<Str>, SchemaError> {
    const KEY: &str = "x-kubernetes-recommended-patch-merge-key";
    let bad = || SchemaError::BadShape {
        at: format!("{at}/{KEY}"),
        expected: "a comma-separated string of field names (none starting with `$`)",
    };
    let mut out = Vec::new();
    let mut push = |part: &str| -> Result<(), SchemaError> {
        let part = part.trim();
        if part.is_empty() || part.starts_with('$') {
            return Err(bad());
        }
        out.push(Str::Owned(part.to_owned()));
        Ok(())
    };
    match meta.and_then(|m| m.get(KEY)) {
        None | Some(Value::Null) => {}
        Some(Value::String(text)) => {
            for part in text.split(',') {
                push(part)?;
            }
        }
        Some(Value::Array(parts)) => {
            for part in parts {
                push(part.as_str().ok_or_else(bad)?)?;
            }
        }
        Some(_) => return Err(bad()),
    }
    Ok(out)
}

/// JSON pointer escaping of one reference token (RFC 6901).
fn escape_pointer(token: &str) -> Cow<'_, str> {
    if token.contains(['~', '/']) {
        Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(token)
    }
}

fn unescape_pointer(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// "did you mean ..." for an unknown root definition: names whose last dotted segment equals
/// or contains the request (case-insensitively), then near misses by edit distance; otherwise
/// a sample of what the document defines.
fn hint(defs: &Map<String, Value>, wanted: &str) -> String {
    let wanted_lc = wanted.to_lowercase();
    let wanted_last = wanted_lc
        .rsplit('.')
        .next()
        .unwrap_or(&wanted_lc)
        .to_owned();
    let mut scored: Vec<(usize, &str)> = defs
        .keys()
        .filter_map(|name| {
            let lc = name.to_lowercase();
            let last = lc.rsplit('.').next().unwrap_or(&lc);
            let score = if lc == wanted_lc {
                0
            } else if last == wanted_last {
                1
            } else if lc.contains(&wanted_lc) || (!last.is_empty() && wanted_lc.contains(last)) {
                2
            } else {
                let d = edit_distance(last, &wanted_last, 3)?;
                3 + d
            };
            Some((score, name.as_str()))
        })
        .collect();
    scored.sort();
    scored.truncate(5);
    let mut out = String::new();
    if !scored.is_empty() {
        out.push_str("did you mean ");
        for (i, (_, name)) in scored.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "{name:?}");
        }
        out.push('?');
        return out;
    }
    let total = defs.len();
    if total == 0 {
        return "the document defines no types".to_owned();
    }
    let _ = write!(out, "the document defines {total} types, e.g. ");
    for (i, name) in defs.keys().take(5).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{name:?}");
    }
    out
}

/// Levenshtein distance between `a` and `b` if it is at most `limit`.
fn edit_distance(a: &str, b: &str, limit: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > limit || a.len() > 256 || b.len() > 256 {
        return None;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = prev[j] + usize::from(ca != cb);
            cur[j + 1] = substitution.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    let d = prev[b.len()];
    (d <= limit).then_some(d)
}

pub mod annotate;
pub mod crd;
mod unions;
mod write;

pub use annotate::{AnnotateError, annotate};
pub use write::{Written, write};

#[cfg(test)]
mod tests;
