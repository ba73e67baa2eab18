//! The definitions of the document as Rust items.
//!
//! | OpenAPI | Rust |
//! |---|---|
//! | definition with `properties` | struct; required properties plain, the others `Option` |
//! | definition without `properties` (`RawExtension`, `FieldsV1`, `JSON`, ...) | newtype over `serde_json::Value` (opaque to patching) |
//! | definition in the overlay's `[[handwritten]]` | re-export of the hand-written type |
//! | `$ref` | the referenced type (boxed where it would make a type contain itself) |
//! | `string` (any format but `int-or-string`) | `String` |
//! | `integer` `int32` / `int64` | `i32` / `i64` |
//! | `number` | `serde_json::Number` (keeps `1` as `1` and `1.5` as `1.5`) |
//! | `boolean` | `bool` |
//! | `array` | `Vec` |
//! | `object` with `additionalProperties` | `BTreeMap<String, _>` |
//! | `object` without either | `serde_json::Value` |
//!
//! Patch metadata comes from the (overlaid) document only: `x-kubernetes-patch-strategy`,
//! `-patch-merge-key`, `-recommended-patch-merge-key` on properties, `x-kubernetes-unions` on
//! definitions.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::error::Error;
use crate::names::{self, ItemPath};
use crate::overlay::{Handwritten, Overlay};

/// Every definition, by name.
pub struct Api {
    /// The definitions, keyed by their full name.
    pub defs: BTreeMap<String, Def>,
}

/// One definition.
pub struct Def {
    /// `io.k8s.api.core.v1.Pod`.
    pub name: String,
    /// Where its Rust item goes (module and identifier).
    pub path: ItemPath,
    /// The kinds this definition is (`x-kubernetes-group-version-kind`).
    pub gvks: Vec<Gvk>,
    /// What it becomes.
    pub body: Body,
}

/// What a definition becomes.
pub enum Body {
    /// A struct with the definition's properties.
    Struct(Struct),
    /// No structure in the document: a newtype over `serde_json::Value`.
    Opaque,
    /// Implemented by hand.
    Handwritten(Handwritten),
}

/// A struct's fields (in the document's order, which is alphabetical) and unions.
pub struct Struct {
    /// The properties.
    pub fields: Vec<Field>,
    /// The unions (`x-kubernetes-unions` and the overlay's).
    pub unions: Vec<Union>,
    /// The overlay's notes on the unions.
    pub notes: Vec<String>,
}

/// One property.
pub struct Field {
    /// The property's name on the wire.
    pub json: String,
    /// The Rust field's name.
    pub ident: String,
    /// Its type.
    pub ty: Ty,
    /// Listed in the definition's `required`: a plain field, not an `Option`.
    pub required: bool,
    /// Boxed because the field's type contains the struct.
    pub boxed: bool,
    /// `x-kubernetes-patch-strategy`.
    pub strategy: Option<String>,
    /// `x-kubernetes-patch-merge-key`.
    pub merge_key: Option<String>,
    /// The overlay's recommended (multi-field) merge key, comma-separated.
    pub recommended: Option<String>,
    /// The overlay's notes on this property.
    pub notes: Vec<String>,
    /// Its part in a union of the struct, if any.
    pub union: Option<UnionRole>,
}

/// A field's part in a union of its struct.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnionRole {
    /// The discriminator of union number `union` of the struct.
    Discriminator {
        /// The union's index in [`Struct::unions`].
        union: usize,
    },
    /// A member of union number `union`, selected by the discriminator value `value`.
    Member {
        /// The union's index in [`Struct::unions`].
        union: usize,
        /// The discriminator's value for this member.
        value: String,
    },
}

/// A union: its discriminator and member-to-value map.
pub struct Union {
    /// The discriminator's property name, if the union has one.
    pub discriminator: Option<String>,
    /// Member property name to discriminator value.
    pub members: BTreeMap<String, String>,
}

/// A field's type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ty {
    /// `string`.
    String,
    /// `integer`, format `int32`.
    I32,
    /// `integer`, format `int64` (or none).
    I64,
    /// `number`.
    Number,
    /// `boolean`.
    Bool,
    /// Anything (no type): `serde_json::Value`.
    Value,
    /// Another definition, by full name.
    Ref(String),
    /// `array` of the item type.
    List(Box<Ty>),
    /// `object` with `additionalProperties` of the value type.
    Map(Box<Ty>),
}

/// A group-version-kind.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Gvk {
    /// The API group (empty for the core group).
    pub group: String,
    /// The version.
    pub version: String,
    /// The kind.
    pub kind: String,
}

impl Gvk {
    /// `apps/v1`, or `v1` for the core group.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }
}

const PREFIX: &str = "#/definitions/";

impl Api {
    /// Reads every definition of an overlaid v2 document.
    pub fn read(doc: &Value, overlay: &Overlay) -> Result<Api, Error> {
        let defs = doc
            .get("definitions")
            .and_then(Value::as_object)
            .ok_or_else(|| Error::new("the document has no `definitions`"))?;
        let mut out = BTreeMap::new();
        for (name, body) in defs {
            let def = read_def(name, body, defs, overlay)
                .map_err(|e| Error::new(format!("{name}: {}", e.0)))?;
            out.insert(name.clone(), def);
        }
        let mut api = Api { defs: out };
        api.box_cycles();
        Ok(api)
    }

    /// Boxes every field whose type (held directly, not in a list or map) contains the struct
    /// holding it again, so that every struct has a finite size.
    fn box_cycles(&mut self) {
        let direct: BTreeMap<&str, Vec<&str>> = self
            .defs
            .iter()
            .map(|(name, def)| {
                let targets = match &def.body {
                    Body::Struct(s) => s
                        .fields
                        .iter()
                        .filter_map(|f| match &f.ty {
                            Ty::Ref(t) => Some(t.as_str()),
                            _ => None,
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                (name.as_str(), targets)
            })
            .collect();
        let reaches = |from: &str, to: &str| -> bool {
            let mut seen = BTreeSet::new();
            let mut stack = vec![from];
            while let Some(n) = stack.pop() {
                if n == to {
                    return true;
                }
                if seen.insert(n) {
                    stack.extend(direct.get(n).into_iter().flatten().copied());
                }
            }
            false
        };
        let mut boxed: Vec<(String, usize)> = Vec::new();
        for (name, def) in &self.defs {
            if let Body::Struct(s) = &def.body {
                for (i, f) in s.fields.iter().enumerate() {
                    if let Ty::Ref(t) = &f.ty {
                        if reaches(t, name) {
                            boxed.push((name.clone(), i));
                        }
                    }
                }
            }
        }
        for (name, i) in boxed {
            if let Some(Body::Struct(s)) = self.defs.get_mut(&name).map(|d| &mut d.body) {
                s.fields[i].boxed = true;
            }
        }
    }
}

fn read_def(
    name: &str,
    body: &Value,
    defs: &Map<String, Value>,
    overlay: &Overlay,
) -> Result<Def, Error> {
    let body_map = body
        .as_object()
        .ok_or_else(|| Error::new("not a schema object"))?;
    let path = ItemPath::of_definition(name)?;
    let gvks = read_gvks(body_map)?;
    let body = if let Some(h) = overlay.handwritten(name) {
        Body::Handwritten(h.clone())
    } else if let Some(props) = body_map.get("properties") {
        Body::Struct(read_struct(name, body_map, props, defs, overlay)?)
    } else {
        match body_map.get("type").and_then(Value::as_str) {
            None | Some("object") => Body::Opaque,
            Some(other) => {
                return Err(Error::new(format!(
                    "a `{other}` definition without properties: the generator cannot tell what it \
                     is; implement it by hand and list it under [[handwritten]]"
                )));
            }
        }
    };
    Ok(Def {
        name: name.to_owned(),
        path,
        gvks,
        body,
    })
}

fn read_gvks(body: &Map<String, Value>) -> Result<Vec<Gvk>, Error> {
    let Some(list) = body.get("x-kubernetes-group-version-kind") else {
        return Ok(Vec::new());
    };
    let list = list
        .as_array()
        .ok_or_else(|| Error::new("x-kubernetes-group-version-kind is not a list"))?;
    let mut out: Vec<Gvk> = list
        .iter()
        .map(|g| {
            let get = |k: &str| g.get(k).and_then(Value::as_str).map(str::to_owned);
            match (get("group"), get("version"), get("kind")) {
                (Some(group), Some(version), Some(kind)) => Ok(Gvk {
                    group,
                    version,
                    kind,
                }),
                _ => Err(Error::new(
                    "an x-kubernetes-group-version-kind entry lacks group, version or kind",
                )),
            }
        })
        .collect::<Result<_, _>>()?;
    out.sort();
    Ok(out)
}

fn read_struct(
    name: &str,
    body: &Map<String, Value>,
    props: &Value,
    defs: &Map<String, Value>,
    overlay: &Overlay,
) -> Result<Struct, Error> {
    let props = props
        .as_object()
        .ok_or_else(|| Error::new("`properties` is not an object"))?;
    let required: BTreeSet<&str> = match body.get("required") {
        None => BTreeSet::new(),
        Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
        Some(_) => return Err(Error::new("`required` is not a list")),
    };
    if let Some(missing) = required.iter().find(|r| !props.contains_key(**r)) {
        return Err(Error::new(format!(
            "required property {missing} is not a property"
        )));
    }
    let unions = read_unions(body, props)?;
    let mut fields = Vec::with_capacity(props.len());
    let mut idents = BTreeSet::new();
    for (json, schema) in props {
        let at = |e: Error| Error::new(format!("property {json}: {}", e.0));
        let ident = names::field_ident(json).map_err(at)?;
        if !idents.insert(ident.clone()) {
            return Err(Error::new(format!(
                "two properties are both named `{ident}` in Rust"
            )));
        }
        let schema = schema
            .as_object()
            .ok_or_else(|| at(Error::new("not a schema object")))?;
        let text = |k: &str| schema.get(k).and_then(Value::as_str).map(str::to_owned);
        let union = unions.iter().enumerate().find_map(|(i, u)| {
            if u.discriminator.as_deref() == Some(json.as_str()) {
                Some(UnionRole::Discriminator { union: i })
            } else {
                u.members.get(json).map(|value| UnionRole::Member {
                    union: i,
                    value: value.clone(),
                })
            }
        });
        fields.push(Field {
            json: json.clone(),
            ident,
            ty: read_ty(schema, defs).map_err(at)?,
            required: required.contains(json.as_str()),
            boxed: false,
            strategy: text("x-kubernetes-patch-strategy"),
            merge_key: text("x-kubernetes-patch-merge-key"),
            recommended: text("x-kubernetes-recommended-patch-merge-key"),
            notes: overlay.property_notes(name, json),
            union,
        });
    }
    Ok(Struct {
        fields,
        unions,
        notes: overlay.union_notes(name),
    })
}

fn read_unions(body: &Map<String, Value>, props: &Map<String, Value>) -> Result<Vec<Union>, Error> {
    let Some(list) = body.get("x-kubernetes-unions") else {
        return Ok(Vec::new());
    };
    let list = list
        .as_array()
        .ok_or_else(|| Error::new("x-kubernetes-unions is not a list"))?;
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for u in list {
        let discriminator = u
            .get("discriminator")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let members: BTreeMap<String, String> = u
            .get("fields-to-discriminateBy")
            .and_then(Value::as_object)
            .ok_or_else(|| Error::new("a union without fields-to-discriminateBy"))?
            .iter()
            .map(|(k, v)| match v.as_str() {
                Some(v) => Ok((k.clone(), v.to_owned())),
                None => Err(Error::new("a discriminator value that is not a string")),
            })
            .collect::<Result<_, _>>()?;
        for field in discriminator.iter().chain(members.keys()) {
            if !props.contains_key(field) {
                return Err(Error::new(format!("union field {field} is not a property")));
            }
            if !seen.insert(field.clone()) {
                return Err(Error::new(format!("{field} is in two unions")));
            }
        }
        out.push(Union {
            discriminator,
            members,
        });
    }
    Ok(out)
}

fn read_ty(schema: &Map<String, Value>, defs: &Map<String, Value>) -> Result<Ty, Error> {
    if let Some(r) = schema.get("$ref") {
        let target = r
            .as_str()
            .and_then(|r| r.strip_prefix(PREFIX))
            .ok_or_else(|| Error::new(format!("unsupported reference {r}")))?;
        if !defs.contains_key(target) {
            return Err(Error::new(format!(
                "reference to a missing definition {target}"
            )));
        }
        return Ok(Ty::Ref(target.to_owned()));
    }
    let format = schema.get("format").and_then(Value::as_str);
    Ok(match schema.get("type").and_then(Value::as_str) {
        Some("string") if format == Some("int-or-string") => {
            return Err(Error::new(
                "an inline int-or-string: refer to the IntOrString definition instead",
            ));
        }
        Some("string") => Ty::String,
        Some("integer") if format == Some("int32") => Ty::I32,
        Some("integer") => Ty::I64,
        Some("number") => Ty::Number,
        Some("boolean") => Ty::Bool,
        Some("array") => {
            let items = schema
                .get("items")
                .and_then(Value::as_object)
                .ok_or_else(|| Error::new("an array without `items`"))?;
            Ty::List(Box::new(read_ty(items, defs)?))
        }
        Some("object") | None if schema.contains_key("properties") => {
            return Err(Error::new(
                "an inline object with properties: the generator only names definitions",
            ));
        }
        Some("object") | None => match schema.get("additionalProperties") {
            Some(Value::Object(values)) => Ty::Map(Box::new(read_ty(values, defs)?)),
            Some(Value::Bool(true)) => Ty::Map(Box::new(Ty::Value)),
            None | Some(Value::Bool(false)) => Ty::Value,
            Some(_) => return Err(Error::new("`additionalProperties` is not a schema")),
        },
        Some(other) => return Err(Error::new(format!("unsupported type `{other}`"))),
    })
}
