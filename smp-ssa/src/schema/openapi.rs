//! Structured types from OpenAPI v3 documents, as the API server converts its own.
//!
//! For each definition of `components.schemas`:
//! - `type: object`: its `properties` are fields (with their `default`); other keys have the
//!   type of `additionalProperties`, or are untyped and granular when the object preserves
//!   unknown fields or declares no property; `x-kubernetes-map-type: atomic` owns it whole;
//! - `type: array`: `x-kubernetes-list-type` says atomic, `set` or `map` (keyed by
//!   `x-kubernetes-list-map-keys`); without it, `x-kubernetes-patch-strategy: merge` makes a
//!   map keyed by the patch merge key (a set without one), and anything else is atomic;
//! - integers and numbers are numeric, strings with no format (or `byte`) strings, booleans
//!   booleans, any other format (`int-or-string`, `date-time`) an untyped scalar;
//! - no `type`: any of the three shapes;
//! - `Quantity` is an untyped scalar, `RawExtension` untyped and atomic.
//!
//! A `$ref` (or an `allOf` of one) names the definition; `x-kubernetes-map-type` beside it
//! applies to that use only. `x-kubernetes-preserve-unknown-fields: true` carries into the
//! inline schemas below it.

use serde_json::{Map, Value};

use super::{Atom, Builder, Field, Gvk, List, ListKind, MapType, Scalar, Schema, TypeRef};

const QUANTITY: &str = "io.k8s.apimachinery.pkg.api.resource.Quantity";
const RAW_EXTENSION: &str = "io.k8s.apimachinery.pkg.runtime.RawExtension";

/// Definitions that do not convert. Each message names the definition (and, for inline
/// schemas, says so); all are reported at once, as the server reports them.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("the OpenAPI definitions do not convert to structured types:\n{}", .0.join("\n"))]
pub struct SchemaError(pub Vec<String>);

/// The structured types of the definitions of these OpenAPI v3 documents (`components.schemas`
/// of each; a name defined twice keeps its first definition), with the kinds their
/// `x-kubernetes-group-version-kind` names.
///
/// ```
/// use serde_json::json;
/// use smp_ssa::schema::{Gvk, ListKind, from_openapi_v3};
///
/// let doc = json!({"components": {"schemas": {
///     "Widget": {
///         "type": "object",
///         "x-kubernetes-group-version-kind": [{"group": "example.com", "version": "v1", "kind": "Widget"}],
///         "properties": {"ports": {
///             "type": "array",
///             "x-kubernetes-list-type": "map",
///             "x-kubernetes-list-map-keys": ["port", "protocol"],
///             "items": {"type": "object", "properties": {
///                 "port": {"type": "integer"},
///                 "protocol": {"type": "string", "default": "TCP"}
///             }}
///         }}
///     }
/// }}});
/// let schema = from_openapi_v3([&doc])?;
/// let widget = schema.kind(&Gvk::of("example.com/v1", "Widget")).unwrap();
/// let ports = schema.resolve(widget).map.unwrap().field("ports").unwrap().ty;
/// let list = schema.resolve(ports).list.unwrap();
/// assert_eq!(list.kind, ListKind::Map(vec!["port".into(), "protocol".into()]));
/// # Ok::<(), smp_ssa::schema::SchemaError>(())
/// ```
pub fn from_openapi_v3<'a>(
    documents: impl IntoIterator<Item = &'a Value>,
) -> Result<Schema, SchemaError> {
    let mut definitions: Vec<(&'a str, &'a Map<String, Value>)> = Vec::new();
    let mut b = Builder::new();
    for doc in documents {
        let Some(schemas) = doc
            .pointer("/components/schemas")
            .and_then(Value::as_object)
        else {
            continue;
        };
        for (name, spec) in schemas {
            let Some(spec) = spec.as_object() else {
                continue;
            };
            if spec.contains_key("$ref") || b.index_of(name).is_some() {
                continue;
            }
            let index = b.reserve();
            b.name(name, index);
            definitions.push((name, spec));
        }
    }
    let mut c = Convert {
        b,
        errors: Vec::new(),
    };
    for (name, spec) in definitions {
        let Some(index) = c.b.index_of(name) else {
            continue;
        };
        let atom = match name {
            QUANTITY => Atom {
                scalar: Some(Scalar::Untyped),
                ..Atom::default()
            },
            RAW_EXTENSION => super::untyped_atom(),
            _ => c.spec(spec, false, name),
        };
        c.b.set(index, atom);
        for gvk in spec
            .get("x-kubernetes-group-version-kind")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let text = |k: &str| gvk.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
            c.b.kind(
                Gvk {
                    group: text("group"),
                    version: text("version"),
                    kind: text("kind"),
                },
                index,
            );
        }
    }
    if c.errors.is_empty() {
        Ok(c.b.finish())
    } else {
        Err(SchemaError(c.errors))
    }
}

struct Convert {
    b: Builder,
    errors: Vec<String>,
}

impl Convert {
    fn error(&mut self, at: &str, message: impl std::fmt::Display) {
        self.errors.push(format!("{at}: {message}"));
    }

    /// The shapes of one schema.
    fn spec(&mut self, s: &Map<String, Value>, preserve: bool, at: &str) -> Atom {
        let preserve =
            preserve || s.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(true));
        match s.get("type").and_then(Value::as_str).unwrap_or("") {
            "" => Atom {
                scalar: Some(Scalar::Untyped),
                list: Some(self.list(s, preserve, at)),
                map: Some(self.object(s, preserve, at)),
            },
            "object" => Atom {
                map: Some(self.object(s, preserve, at)),
                ..Atom::default()
            },
            "array" => Atom {
                list: Some(self.list(s, preserve, at)),
                ..Atom::default()
            },
            "integer" | "number" => scalar(Scalar::Numeric),
            "boolean" => scalar(Scalar::Boolean),
            "string" => match s.get("format").and_then(Value::as_str).unwrap_or("") {
                "" | "byte" => scalar(Scalar::String),
                _ => scalar(Scalar::Untyped),
            },
            other => {
                self.error(at, format_args!("unrecognized type: '{other}'"));
                scalar(Scalar::Untyped)
            }
        }
    }

    /// A reference to the type of a property, an item or `additionalProperties`.
    fn reference(&mut self, s: &Map<String, Value>, preserve: bool, at: &str) -> TypeRef {
        let target = s.get("$ref").and_then(Value::as_str).or_else(|| {
            match s.get("allOf").and_then(Value::as_array).map(Vec::as_slice) {
                Some([only]) => only.get("$ref").and_then(Value::as_str),
                _ => None,
            }
        });
        if let Some(target) = target {
            let name = target.rsplit('/').next().unwrap_or(target);
            if !name.is_empty() {
                let map_atomic = self.map_type(s, at);
                let index = match self.b.index_of(name) {
                    Some(index) => index,
                    None => {
                        // A reference to nothing: an empty type, which no value fits.
                        let index = self.b.reserve();
                        self.b.name(name, index);
                        index
                    }
                };
                return TypeRef::to(index, map_atomic);
            }
        }
        let inline = format!("inlined in {at}");
        let atom = self.spec(s, preserve, &inline);
        let index = self.b.reserve();
        self.b.set(index, atom);
        TypeRef::to(index, None)
    }

    /// `x-kubernetes-map-type`: `Some(true)` atomic, `Some(false)` granular.
    fn map_type(&mut self, s: &Map<String, Value>, at: &str) -> Option<bool> {
        match s.get("x-kubernetes-map-type")? {
            Value::String(t) if t == "atomic" => Some(true),
            Value::String(t) if t == "granular" => Some(false),
            other => {
                self.error(at, format_args!("unknown map type {other}"));
                None
            }
        }
    }

    fn object(&mut self, s: &Map<String, Value>, preserve: bool, at: &str) -> MapType {
        let mut fields = Vec::new();
        let properties = s.get("properties").and_then(Value::as_object);
        for (name, member) in properties.into_iter().flatten() {
            let Some(member) = member.as_object() else {
                self.error(at, format_args!("property {name} is not a schema"));
                continue;
            };
            let ty = self.reference(member, preserve, at);
            fields.push(Field {
                name: name.clone(),
                ty,
                default: member.get("default").cloned(),
            });
        }
        fields.sort_by(|a, b| a.name.cmp(&b.name));
        let rest = match s.get("additionalProperties") {
            None if preserve || fields.is_empty() => Some(TypeRef::DEDUCED),
            None | Some(Value::Bool(false)) => None,
            Some(Value::Bool(true)) => Some(TypeRef::DEDUCED),
            Some(Value::Object(schema)) => Some(self.reference(schema, preserve, at)),
            Some(other) => {
                self.error(at, format_args!("additionalProperties is {other}"));
                None
            }
        };
        MapType {
            fields,
            rest,
            atomic: self.map_type(s, at).unwrap_or(false),
        }
    }

    fn list(&mut self, s: &Map<String, Value>, preserve: bool, at: &str) -> List {
        let kind = self.list_kind(s, at);
        let item = match s.get("items") {
            Some(Value::Object(items)) => self.reference(items, preserve, at),
            Some(_) => {
                self.error(
                    at,
                    "structural schema arrays must have exactly one member subtype",
                );
                TypeRef::DEDUCED
            }
            None => {
                if s.get("type")
                    .and_then(Value::as_str)
                    .is_some_and(|t| !t.is_empty())
                {
                    self.error(at, "`items` must be specified on arrays");
                }
                TypeRef::UNTYPED
            }
        };
        List { item, kind }
    }

    /// The list type: `x-kubernetes-list-type` first, then the patch strategy.
    fn list_kind(&mut self, s: &Map<String, Value>, at: &str) -> ListKind {
        if let Some(list_type) = s.get("x-kubernetes-list-type") {
            return match list_type.as_str() {
                Some("atomic") => ListKind::Atomic,
                Some("set") => ListKind::Set,
                Some("map") => match s.get("x-kubernetes-list-map-keys") {
                    Some(Value::Array(keys)) => ListKind::Map(
                        keys.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_owned)
                            .collect(),
                    ),
                    Some(other) => {
                        self.error(at, format_args!("uninterpreted map keys: {other}"));
                        ListKind::Set
                    }
                    None => {
                        self.error(at, "missing map keys");
                        ListKind::Set
                    }
                },
                _ => {
                    self.error(at, format_args!("unknown list type {list_type}"));
                    ListKind::Atomic
                }
            };
        }
        match s.get("x-kubernetes-patch-strategy").map(|v| v.as_str()) {
            None => ListKind::Atomic,
            Some(Some("merge" | "merge,retainKeys")) => {
                match s.get("x-kubernetes-patch-merge-key") {
                    None => ListKind::Set,
                    Some(Value::String(key)) => ListKind::Map(vec![key.clone()]),
                    Some(other) => {
                        self.error(at, format_args!("uninterpreted merge key: {other}"));
                        ListKind::Set
                    }
                }
            }
            Some(Some("retainKeys")) => ListKind::Atomic,
            Some(_) => {
                let strategy = &s["x-kubernetes-patch-strategy"];
                self.error(at, format_args!("unknown patch strategy {strategy}"));
                ListKind::Atomic
            }
        }
    }
}

fn scalar(kind: Scalar) -> Atom {
    Atom {
        scalar: Some(kind),
        ..Atom::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(schemas: Value) -> Schema {
        from_openapi_v3([&json!({"components": {"schemas": schemas}})]).unwrap()
    }

    #[test]
    fn list_types_come_from_list_type_then_patch_strategy() {
        let s = schema(json!({"T": {"type": "object", "properties": {
            "a": {"type": "array", "items": {"type": "string"}},
            "b": {"type": "array", "items": {"type": "string"}, "x-kubernetes-patch-strategy": "merge"},
            "c": {"type": "array", "items": {"type": "object"}, "x-kubernetes-patch-strategy": "merge",
                  "x-kubernetes-patch-merge-key": "name"},
            "d": {"type": "array", "items": {"type": "object"}, "x-kubernetes-patch-strategy": "merge",
                  "x-kubernetes-patch-merge-key": "port", "x-kubernetes-list-type": "map",
                  "x-kubernetes-list-map-keys": ["port", "protocol"]},
            "e": {"type": "array", "items": {"type": "string"}, "x-kubernetes-patch-strategy": "retainKeys"},
            "f": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "atomic",
                  "x-kubernetes-patch-strategy": "merge"}
        }}}));
        let t = s.resolve(s.named("T").unwrap()).map.unwrap();
        let kind = |f: &str| s.resolve(t.field(f).unwrap().ty).list.unwrap().kind.clone();
        assert_eq!(kind("a"), ListKind::Atomic);
        assert_eq!(kind("b"), ListKind::Set);
        assert_eq!(kind("c"), ListKind::Map(vec!["name".into()]));
        assert_eq!(
            kind("d"),
            ListKind::Map(vec!["port".into(), "protocol".into()])
        );
        assert_eq!(kind("e"), ListKind::Atomic);
        assert_eq!(kind("f"), ListKind::Atomic);
    }

    #[test]
    fn references_objects_and_map_types() {
        let s = schema(json!({
            "Selector": {"type": "object", "properties": {"a": {"type": "string"}}},
            "T": {"type": "object", "properties": {
                "sel": {"allOf": [{"$ref": "#/components/schemas/Selector"}],
                        "x-kubernetes-map-type": "atomic"},
                "plain": {"$ref": "#/components/schemas/Selector"},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "any": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                        "properties": {"x": {"type": "object", "properties": {"y": {"type": "string"}}}}}
            }}
        }));
        let t = s.resolve(s.named("T").unwrap()).map.unwrap();
        let map = |f: &str| s.resolve(t.field(f).unwrap().ty).map.unwrap();
        assert!(map("sel").atomic);
        assert!(!map("plain").atomic);
        assert!(
            map("plain").rest.is_none(),
            "a struct with properties has no other keys"
        );
        let labels = map("labels");
        assert_eq!(s.resolve(labels.rest.unwrap()).scalar, Some(Scalar::String));
        // Preserving unknown fields reaches the inline schemas below.
        let any = map("any");
        assert_eq!(any.rest, Some(s.deduced()));
        let x = s.resolve(any.field("x").unwrap().ty).map.unwrap();
        assert_eq!(x.rest, Some(s.deduced()));
    }

    #[test]
    fn scalars_and_special_definitions() {
        let s = schema(json!({
            "io.k8s.apimachinery.pkg.api.resource.Quantity": {"type": "string"},
            "io.k8s.apimachinery.pkg.runtime.RawExtension": {"type": "object"},
            "T": {"type": "object", "properties": {
                "n": {"type": "integer"}, "f": {"type": "number"}, "b": {"type": "boolean"},
                "s": {"type": "string", "format": "byte"}, "d": {"type": "string", "format": "date-time"},
                "i": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]}
            }}
        }));
        let t = s.resolve(s.named("T").unwrap()).map.unwrap();
        let scalar = |f: &str| s.resolve(t.field(f).unwrap().ty).scalar;
        assert_eq!(scalar("n"), Some(Scalar::Numeric));
        assert_eq!(scalar("f"), Some(Scalar::Numeric));
        assert_eq!(scalar("b"), Some(Scalar::Boolean));
        assert_eq!(scalar("s"), Some(Scalar::String));
        assert_eq!(scalar("d"), Some(Scalar::Untyped));
        assert_eq!(scalar("i"), Some(Scalar::Untyped));
        let quantity = s.resolve(
            s.named("io.k8s.apimachinery.pkg.api.resource.Quantity")
                .unwrap(),
        );
        assert!(quantity.map.is_none() && quantity.scalar == Some(Scalar::Untyped));
        let raw = s.resolve(
            s.named("io.k8s.apimachinery.pkg.runtime.RawExtension")
                .unwrap(),
        );
        assert!(raw.map.unwrap().atomic);
    }

    #[test]
    fn every_bad_definition_is_reported() {
        let err = from_openapi_v3([&json!({"components": {"schemas": {
            "A": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "bag"},
            "B": {"type": "array", "items": {"type": "object"}, "x-kubernetes-list-type": "map"},
            "C": {"type": "thing"}
        }}})])
        .unwrap_err();
        assert_eq!(err.0.len(), 3, "{err}");
        assert!(err.0[0].starts_with("A: unknown list type"), "{err}");
    }
}
