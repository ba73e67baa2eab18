//! The OpenAPI document the cases are generated from, read once: each definition's properties
//! with their JSON types and patch metadata.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::{Map, Value};

use crate::{SKEW, skew_minor};

/// The JSON shape of a property.
#[derive(Debug)]
pub(crate) enum Ty {
    Str,
    /// `integer`, `int32` or `int64`: the values generated fit both.
    Int,
    Bool,
    Number,
    /// `format: byte`: base64.
    Bytes,
    /// `IntOrString`: an integer or a string.
    IntOrString,
    /// `Quantity`: `1`, `500m`, `1Gi`.
    Quantity,
    /// `Time`: RFC 3339, seconds.
    Time,
    /// `MicroTime`: RFC 3339, microseconds.
    MicroTime,
    /// A definition with properties, by index into [`Schema::structs`].
    Struct(usize),
    Map(Box<Ty>),
    List(Box<Ty>),
    /// No structure: `FieldsV1`, `RawExtension`, `JSON`.
    Opaque,
}

pub(crate) static OPAQUE: Ty = Ty::Opaque;

impl Ty {
    pub(crate) fn is_primitive(&self) -> bool {
        !matches!(self, Ty::Struct(_) | Ty::Map(_) | Ty::List(_) | Ty::Opaque)
    }

    /// Whether the document says nothing about the values (also of a list's or map's items).
    pub(crate) fn is_opaque(&self) -> bool {
        match self {
            Ty::Opaque => true,
            Ty::List(item) | Ty::Map(item) => item.is_opaque(),
            _ => false,
        }
    }
}

/// A property with its patch metadata.
pub(crate) struct Field {
    pub(crate) name: String,
    pub(crate) ty: Ty,
    /// `x-kubernetes-patch-strategy` has `merge`.
    pub(crate) merge: bool,
    /// `x-kubernetes-patch-strategy` has `retainKeys`.
    pub(crate) retain_keys: bool,
    pub(crate) merge_key: Option<String>,
}

pub(crate) struct Struct {
    pub(crate) fields: Vec<Field>,
}

impl Struct {
    pub(crate) fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

pub(crate) struct Schema {
    pub(crate) structs: Vec<Struct>,
    pub(crate) index: HashMap<String, usize>,
}

/// The document's structure, without the properties the kubectl under test does not know
/// ([`SKEW`]).
pub(crate) fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| load_schema(skew_minor()))
}

pub(crate) fn st(i: usize) -> &'static Struct {
    &schema().structs[i]
}

/// The struct of an OpenAPI definition.
pub(crate) fn struct_of(definition: &str) -> usize {
    *schema()
        .index
        .get(definition)
        .unwrap_or_else(|| panic!("{definition}: not a definition with properties"))
}

/// The OpenAPI document, relative to the shared data directory (not in this repository).
pub(crate) const DOCUMENT: &str = "openapi/swagger.json";

/// Whether the document is there; when it is not, the test calling this skips, saying so.
pub(crate) fn document_present() -> bool {
    smp_testdata::file(DOCUMENT).is_some()
}

pub(crate) fn load_schema(kubectl_minor: u32) -> Schema {
    let path = smp_testdata::dir().join(DOCUMENT);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let doc: Value = serde_json::from_str(&text).expect("the OpenAPI document is JSON");
    let defs = doc["definitions"].as_object().expect("definitions");
    // Every definition with properties is a struct; the others are primitives or opaque.
    let names: Vec<&String> = defs
        .iter()
        .filter(|(_, d)| d.get("properties").is_some())
        .map(|(n, _)| n)
        .collect();
    let index: HashMap<String, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| ((*n).clone(), i))
        .collect();
    for (_, definition, property, _) in SKEW {
        assert!(
            defs.get(*definition)
                .and_then(|d| d["properties"].get(*property))
                .is_some(),
            "SKEW names {definition}.{property}, which the document lacks"
        );
    }
    let structs = names
        .iter()
        .map(|name| {
            let props = defs[name.as_str()]["properties"]
                .as_object()
                .expect("properties");
            let fields = props
                .iter()
                .filter(|(p, _)| {
                    !SKEW.iter().any(|&(newest, d, q, _)| {
                        kubectl_minor <= newest && d == name.as_str() && q == p.as_str()
                    })
                })
                .map(|(p, v)| {
                    let strategy = v["x-kubernetes-patch-strategy"].as_str().unwrap_or("");
                    let strategy: Vec<&str> = strategy.split(',').collect();
                    Field {
                        name: p.clone(),
                        ty: ty_of(v, defs, &index),
                        merge: strategy.contains(&"merge"),
                        retain_keys: strategy.contains(&"retainKeys"),
                        merge_key: v["x-kubernetes-patch-merge-key"]
                            .as_str()
                            .map(str::to_owned),
                    }
                })
                .collect();
            Struct { fields }
        })
        .collect();
    Schema { structs, index }
}

/// The shape of a property (or of a list's items, a map's values, a definition).
pub(crate) fn ty_of(v: &Value, defs: &Map<String, Value>, index: &HashMap<String, usize>) -> Ty {
    if let Some(r) = v.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/definitions/").expect("a local $ref");
        if let Some(&i) = index.get(name) {
            return Ty::Struct(i);
        }
        return match name {
            "io.k8s.apimachinery.pkg.api.resource.Quantity" => Ty::Quantity,
            "io.k8s.apimachinery.pkg.apis.meta.v1.Time" => Ty::Time,
            "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime" => Ty::MicroTime,
            _ => ty_of(&defs[name], defs, index),
        };
    }
    let format = v["format"].as_str();
    match v["type"].as_str() {
        Some("string") => match format {
            Some("int-or-string") => Ty::IntOrString,
            Some("byte") => Ty::Bytes,
            Some("date-time") => Ty::Time,
            _ => Ty::Str,
        },
        Some("integer") => Ty::Int,
        Some("boolean") => Ty::Bool,
        Some("number") => Ty::Number,
        Some("array") => Ty::List(Box::new(ty_of(&v["items"], defs, index))),
        Some("object") if v.get("additionalProperties").is_some() => {
            Ty::Map(Box::new(ty_of(&v["additionalProperties"], defs, index)))
        }
        _ => Ty::Opaque,
    }
}
