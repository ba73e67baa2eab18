//! The layout of each API type in Kubernetes' protobuf encoding, read once from `table.json`
//! (written by `codegen/protobuf-table.py` from Kubernetes v1.34's `generated.proto` files and
//! Go types; see there for its form).

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::Deserialize;

/// The table, as generated.
const TABLE: &str = include_str!("table.json");

/// A type, by its index in [`Table::types`].
pub(super) type TypeId = usize;

/// The scalar types of the API's protobuf fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Scalar {
    String,
    Bool,
    Int32,
    Int64,
    Double,
    Bytes,
}

/// What a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FieldType {
    Scalar(Scalar),
    Message(TypeId),
}

/// How a field repeats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    Single,
    /// A list of the field's type.
    Repeated,
    /// A map from strings to the field's type.
    Map,
}

/// One field of a message.
#[derive(Debug, Clone)]
pub(super) struct Field {
    pub(super) number: u32,
    pub(super) json: String,
    pub(super) ty: FieldType,
    pub(super) shape: Shape,
    /// Go's `omitempty`: an empty value (false, 0, "", an empty list or map, no pointer) is
    /// left out of the JSON. Structs are never empty to Go.
    pub(super) omit_empty: bool,
    /// Go's `omitzero`: a zero value is left out (a zero time, here).
    pub(super) omit_zero: bool,
    /// A pointer in Go: written only when set, so a written zero is kept.
    pub(super) pointer: bool,
    /// Embedded in Go: its fields are the parent's in the JSON.
    pub(super) inline: bool,
}

/// The types whose JSON form is their own (custom JSON marshaling in Go).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Special {
    Time,
    MicroTime,
    Duration,
    Quantity,
    IntOrString,
    /// `runtime.RawExtension`, `meta/v1 FieldsV1` and `apiextensions/v1 JSON`: raw JSON bytes
    /// in field 1.
    RawJson,
    /// `JSONSchemaPropsOrBool`: a schema (field 2), else the boolean (field 1).
    SchemaOrBool,
    /// `JSONSchemaPropsOrArray`: the list of schemas (field 2) when not empty, else the
    /// schema (field 1).
    SchemaOrArray,
    /// `JSONSchemaPropsOrStringArray`: the strings (field 2) when not empty, else the schema
    /// (field 1).
    SchemaOrStrings,
    /// No type an object holds (`Timestamp`, `runtime.Unknown`, `QuantityValue`).
    Unused,
}

/// A message's layout.
#[derive(Debug)]
pub(super) enum Layout {
    /// A struct: its fields, ordered by number.
    Struct(Vec<Field>),
    /// A list in Go, wrapped in a message in protobuf: the elements are field 1.
    Wrapper(FieldType),
    Special(Special),
}

/// A message type.
#[derive(Debug)]
pub(super) struct Type {
    /// Its OpenAPI definition name.
    pub(super) name: String,
    pub(super) layout: Layout,
}

impl Type {
    #[cfg(test)]
    /// The field of that number (fields are few: a binary search over them).
    pub(super) fn field(&self, number: u32) -> Option<&Field> {
        match &self.layout {
            Layout::Struct(fields) => fields
                .binary_search_by_key(&number, |f| f.number)
                .ok()
                .map(|i| &fields[i]),
            _ => None,
        }
    }
}

/// Every message type, and the kinds clients send.
#[derive(Debug)]
pub(super) struct Table {
    pub(super) types: Vec<Type>,
    /// `apps/v1/Deployment` to its type.
    kinds: HashMap<String, TypeId>,
    /// `JSONSchemaProps`, which the schema wrappers hold.
    pub(super) schema_props: Option<TypeId>,
}

impl Table {
    /// The type of objects of `apiVersion` and `kind`.
    pub(super) fn kind(&self, api_version: &str, kind: &str) -> Option<TypeId> {
        self.kinds.get(&format!("{api_version}/{kind}")).copied()
    }
}

/// The table, read on first use.
pub(super) fn table() -> Result<&'static Table, &'static str> {
    static TABLE_READ: OnceLock<Result<Table, String>> = OnceLock::new();
    TABLE_READ
        .get_or_init(|| read(TABLE))
        .as_ref()
        .map_err(String::as_str)
}

/// A field as the table writes it: number, JSON name, type, flags.
type RawField = (u32, String, String, String);

#[derive(Deserialize)]
struct Raw {
    kinds: HashMap<String, String>,
    special: Vec<String>,
    wrappers: Vec<String>,
    packages: HashMap<String, HashMap<String, Vec<RawField>>>,
}

const META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.";
const EXTENSIONS: &str = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.";

/// What the decoder does with each type the table marks special.
fn special(name: &str) -> Option<Special> {
    let (package, short) = name.rsplit_once('.')?;
    Some(match (format!("{package}.").as_str(), short) {
        (META, "Time") => Special::Time,
        (META, "MicroTime") => Special::MicroTime,
        (META, "Duration") => Special::Duration,
        (META, "FieldsV1") => Special::RawJson,
        (META, "Timestamp") => Special::Unused,
        ("io.k8s.apimachinery.pkg.api.resource.", "Quantity") => Special::Quantity,
        ("io.k8s.apimachinery.pkg.api.resource.", "QuantityValue") => Special::Unused,
        ("io.k8s.apimachinery.pkg.util.intstr.", "IntOrString") => Special::IntOrString,
        ("io.k8s.apimachinery.pkg.runtime.", "RawExtension") => Special::RawJson,
        ("io.k8s.apimachinery.pkg.runtime.", "Unknown") => Special::Unused,
        (EXTENSIONS, "JSON") => Special::RawJson,
        (EXTENSIONS, "JSONSchemaPropsOrBool") => Special::SchemaOrBool,
        (EXTENSIONS, "JSONSchemaPropsOrArray") => Special::SchemaOrArray,
        (EXTENSIONS, "JSONSchemaPropsOrStringArray") => Special::SchemaOrStrings,
        _ => return None,
    })
}

fn scalar(name: &str) -> Option<Scalar> {
    Some(match name {
        "string" => Scalar::String,
        "bool" => Scalar::Bool,
        "int32" => Scalar::Int32,
        "int64" => Scalar::Int64,
        "double" => Scalar::Double,
        "bytes" => Scalar::Bytes,
        _ => return None,
    })
}

fn read(text: &str) -> Result<Table, String> {
    let raw: Raw = serde_json::from_str(text).map_err(|e| format!("table.json: {e}"))?;
    let mut ids = HashMap::new();
    let mut names: Vec<(&str, &str)> = Vec::new();
    for (package, types) in &raw.packages {
        for name in types.keys() {
            ids.insert(format!("{package}.{name}"), names.len());
            names.push((package, name));
        }
    }
    let resolve = |package: &str, ty: &str| -> Result<FieldType, String> {
        if let Some(s) = scalar(ty) {
            return Ok(FieldType::Scalar(s));
        }
        let full = if ty.contains('.') {
            ty.to_owned()
        } else {
            format!("{package}.{ty}")
        };
        ids.get(&full)
            .map(|&id| FieldType::Message(id))
            .ok_or_else(|| format!("table.json: no type {full}"))
    };
    let mut types = Vec::with_capacity(names.len());
    for &(package, name) in &names {
        let full = format!("{package}.{name}");
        let fields = &raw.packages[package][name];
        let layout = if raw.special.contains(&full) {
            Layout::Special(special(&full).ok_or_else(|| format!("table.json: {full}?"))?)
        } else if raw.wrappers.contains(&full) {
            let (_, _, ty, _) = fields.first().ok_or("table.json: an empty wrapper")?;
            Layout::Wrapper(resolve(package, ty)?)
        } else {
            let mut out = Vec::with_capacity(fields.len());
            for (number, json, ty, flags) in fields {
                out.push(Field {
                    number: *number,
                    json: json.clone(),
                    ty: resolve(package, ty)?,
                    shape: if flags.contains('m') {
                        Shape::Map
                    } else if flags.contains('r') {
                        Shape::Repeated
                    } else {
                        Shape::Single
                    },
                    omit_empty: flags.contains('o'),
                    omit_zero: flags.contains('z'),
                    pointer: flags.contains('p'),
                    inline: flags.contains('i'),
                });
            }
            out.sort_by_key(|f| f.number);
            Layout::Struct(out)
        };
        types.push(Type { name: full, layout });
    }
    let mut kinds = HashMap::new();
    for (kind, definition) in &raw.kinds {
        let id = ids
            .get(definition)
            .ok_or_else(|| format!("table.json: kind {kind} names no type"))?;
        kinds.insert(kind.clone(), *id);
    }
    let schema_props = ids.get(&format!("{EXTENSIONS}JSONSchemaProps")).copied();
    Ok(Table {
        types,
        kinds,
        schema_props,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_reads() {
        let table = table().unwrap();
        let deployment = table.kind("apps/v1", "Deployment").unwrap();
        let spec = table.types[deployment].field(2).unwrap();
        assert_eq!(spec.json, "spec");
        let FieldType::Message(spec) = spec.ty else {
            panic!("spec is a message")
        };
        assert_eq!(table.types[spec].name, "io.k8s.api.apps.v1.DeploymentSpec");
        let replicas = table.types[spec].field(1).unwrap();
        assert!(replicas.pointer && replicas.ty == FieldType::Scalar(Scalar::Int32));
        assert!(table.schema_props.is_some());
        assert!(table.kind("v1", "Pod").is_some());
        assert!(table.kind("example.com/v1", "Widget").is_none());
    }

    /// Every special type the table lists is one the decoder knows, and the reverse.
    #[test]
    fn special_types_are_known() {
        let table = table().unwrap();
        let specials = table
            .types
            .iter()
            .filter(|t| matches!(t.layout, Layout::Special(_)))
            .count();
        assert_eq!(specials, 14);
    }
}
