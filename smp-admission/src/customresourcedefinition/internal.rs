//! The CRD's parts as the server prints them in an error's value.
//!
//! The server validates a CRD in its internal form (`k8s.io/apiextensions-apiserver/pkg/apis/
//! apiextensions`), whose structs carry no JSON tags: a value printed from one is Go's JSON of
//! the struct, every member in declaration order under its Go name, zero values included
//! (`{"Rule":"self.a > 0","Message":"","MessageExpression":"","Reason":null,...}`). These
//! functions print the v1 JSON the user wrote in that form.

use serde_json::Value;

use crate::validation::field::go_json;

/// Which of the versions' members the conversion moves to the spec: those every version has
/// alike (absent and empty count as alike, as the server's semantic equality has it).
#[derive(Debug, Clone, Copy, Default)]
pub struct Hoisted {
    /// `schema`.
    pub schema: bool,
    /// `subresources`.
    pub subresources: bool,
    /// `additionalPrinterColumns`.
    pub columns: bool,
    /// `selectableFields`.
    pub selectable_fields: bool,
}

impl Hoisted {
    /// What moves up from `versions`.
    pub fn of(versions: &[Value]) -> Hoisted {
        let Some(first) = versions.first() else {
            return Hoisted::default();
        };
        let alike = |key: &str| {
            // Compared in place: a schema can be large, and there is one per version.
            let norm = |v| set_member(v, key);
            let head = norm(first);
            versions.iter().all(|v| norm(v) == head)
        };
        Hoisted {
            schema: alike("schema"),
            subresources: alike("subresources"),
            columns: alike("additionalPrinterColumns"),
            selectable_fields: alike("selectableFields"),
        }
    }
}

/// A version's member as the internal form holds it: `None` when absent, null or an empty
/// list (semantic equality takes those for alike).
fn set_member<'v>(version: &'v Value, key: &str) -> Option<&'v Value> {
    match version.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) if a.is_empty() => None,
        Some(other) => Some(other),
    }
}

/// A JSON object written member by member, in the order given.
struct Struct {
    out: String,
}

impl Struct {
    fn new() -> Struct {
        Struct {
            out: String::from("{"),
        }
    }

    fn key(&mut self, name: &str) -> &mut String {
        if self.out.len() > 1 {
            self.out.push(',');
        }
        self.out.push('"');
        self.out.push_str(name);
        self.out.push_str("\":");
        &mut self.out
    }

    /// A Go `string`: `""` when absent.
    fn string(&mut self, name: &str, v: Option<&Value>) {
        let text = v.and_then(Value::as_str).unwrap_or("");
        go_json(&Value::String(text.to_owned()), self.key(name));
    }

    /// A Go `bool`: `false` when absent.
    fn boolean(&mut self, name: &str, v: Option<&Value>) {
        let b = v.and_then(Value::as_bool).unwrap_or(false);
        self.key(name).push_str(if b { "true" } else { "false" });
    }

    /// A Go pointer or interface: `null` when absent, else the value's JSON.
    fn pointer(&mut self, name: &str, v: Option<&Value>) {
        match v {
            None | Some(Value::Null) => self.key(name).push_str("null"),
            Some(v) => go_json(&go_numbers(v), self.key(name)),
        }
    }

    /// A member printed by `print`, or `null` when absent.
    fn with(&mut self, name: &str, v: Option<&Value>, print: impl Fn(&Value, &mut String)) {
        match v {
            None | Some(Value::Null) => self.key(name).push_str("null"),
            Some(v) => print(v, self.key(name)),
        }
    }

    fn finish(mut self) -> String {
        self.out.push('}');
        self.out
    }
}

/// Numbers as Go prints a `float64` or `int64` it decoded: integral values bare.
fn go_numbers(v: &Value) -> Value {
    match v {
        Value::Number(n) if n.as_i64().is_none() && n.as_u64().is_none() => {
            let f = n.as_f64().unwrap_or(0.0);
            if f.fract() == 0.0 && f.abs() < 1e15 {
                Value::from(f as i64)
            } else {
                v.clone()
            }
        }
        Value::Array(items) => Value::Array(items.iter().map(go_numbers).collect()),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), go_numbers(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A list printed item by item, `null` when empty (Go's nil slice).
fn list(v: &Value, out: &mut String, item: impl Fn(&Value, &mut String)) {
    match v.as_array() {
        Some(items) if !items.is_empty() => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                item(v, out);
            }
            out.push(']');
        }
        _ => out.push_str("null"),
    }
}

/// A map of schemas, keys sorted as Go sorts them; `null` when empty.
fn schema_map(v: &Value, out: &mut String) {
    match v.as_object() {
        Some(members) if !members.is_empty() => {
            out.push('{');
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                go_json(&Value::String(k.clone()), out);
                out.push(':');
                schema_into(v, out);
            }
            out.push('}');
        }
        _ => out.push_str("null"),
    }
}

/// An `x-kubernetes-validations` rule as the internal `ValidationRule` prints.
pub fn rule(v: &Value) -> String {
    let mut s = Struct::new();
    s.string("Rule", v.get("rule"));
    s.string("Message", v.get("message"));
    s.string("MessageExpression", v.get("messageExpression"));
    s.pointer("Reason", v.get("reason"));
    s.string("FieldPath", v.get("fieldPath"));
    s.pointer("OptionalOldSelf", v.get("optionalOldSelf"));
    s.finish()
}

/// A schema as the internal `JSONSchemaProps` prints.
pub fn schema(v: &Value) -> String {
    let mut out = String::new();
    schema_into(v, &mut out);
    out
}

fn schema_into(v: &Value, out: &mut String) {
    let mut s = Struct::new();
    let g = |k: &str| v.get(k);
    s.string("ID", g("id"));
    s.string("Schema", g("$schema"));
    s.pointer("Ref", g("$ref"));
    s.string("Description", g("description"));
    s.string("Type", g("type"));
    s.boolean("Nullable", g("nullable"));
    s.string("Format", g("format"));
    s.string("Title", g("title"));
    s.pointer("Default", g("default"));
    s.pointer("Maximum", g("maximum"));
    s.boolean("ExclusiveMaximum", g("exclusiveMaximum"));
    s.pointer("Minimum", g("minimum"));
    s.boolean("ExclusiveMinimum", g("exclusiveMinimum"));
    s.pointer("MaxLength", g("maxLength"));
    s.pointer("MinLength", g("minLength"));
    s.string("Pattern", g("pattern"));
    s.pointer("MaxItems", g("maxItems"));
    s.pointer("MinItems", g("minItems"));
    s.boolean("UniqueItems", g("uniqueItems"));
    s.pointer("MultipleOf", g("multipleOf"));
    s.with("Enum", g("enum"), |v, out| {
        list(v, out, |item, out| go_json(&go_numbers(item), out))
    });
    s.pointer("MaxProperties", g("maxProperties"));
    s.pointer("MinProperties", g("minProperties"));
    s.with("Required", g("required"), |v, out| list(v, out, go_json));
    s.with("Items", g("items"), items);
    for (name, key) in [("AllOf", "allOf"), ("OneOf", "oneOf"), ("AnyOf", "anyOf")] {
        s.with(name, g(key), |v, out| list(v, out, schema_into));
    }
    s.with("Not", g("not"), schema_into);
    s.with("Properties", g("properties"), schema_map);
    s.with("AdditionalProperties", g("additionalProperties"), or_bool);
    s.with("PatternProperties", g("patternProperties"), schema_map);
    s.with("Dependencies", g("dependencies"), dependencies);
    s.with("AdditionalItems", g("additionalItems"), or_bool);
    s.with("Definitions", g("definitions"), schema_map);
    s.with("ExternalDocs", g("externalDocs"), |v, out| {
        let mut d = Struct::new();
        d.string("Description", v.get("description"));
        d.string("URL", v.get("url"));
        out.push_str(&d.finish());
    });
    s.pointer("Example", g("example"));
    s.pointer(
        "XPreserveUnknownFields",
        g("x-kubernetes-preserve-unknown-fields"),
    );
    s.boolean("XEmbeddedResource", g("x-kubernetes-embedded-resource"));
    s.boolean("XIntOrString", g("x-kubernetes-int-or-string"));
    s.with("XListMapKeys", g("x-kubernetes-list-map-keys"), |v, out| {
        list(v, out, go_json)
    });
    s.pointer("XListType", g("x-kubernetes-list-type"));
    s.pointer("XMapType", g("x-kubernetes-map-type"));
    s.with("XValidations", g("x-kubernetes-validations"), |v, out| {
        list(v, out, |item, out| out.push_str(&rule(item)))
    });
    out.push_str(&s.finish());
}

/// `items`: one schema, or (not structural) a list of them.
pub fn items(v: &Value, out: &mut String) {
    let mut s = Struct::new();
    if v.is_array() {
        s.key("Schema").push_str("null");
        s.with("JSONSchemas", Some(v), |v, out| list(v, out, schema_into));
    } else {
        s.with("Schema", Some(v), schema_into);
        s.key("JSONSchemas").push_str("null");
    }
    out.push_str(&s.finish());
}

/// `additionalProperties` / `additionalItems`: a boolean or a schema.
fn or_bool(v: &Value, out: &mut String) {
    let mut s = Struct::new();
    match v {
        Value::Bool(b) => {
            s.boolean("Allows", Some(&Value::Bool(*b)));
            s.key("Schema").push_str("null");
        }
        schema => {
            s.boolean("Allows", Some(&Value::Bool(true)));
            s.with("Schema", Some(schema), schema_into);
        }
    }
    out.push_str(&s.finish());
}

fn dependencies(v: &Value, out: &mut String) {
    match v.as_object() {
        Some(members) if !members.is_empty() => {
            out.push('{');
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                go_json(&Value::String(k.clone()), out);
                out.push(':');
                let mut s = Struct::new();
                if v.is_array() {
                    s.key("Schema").push_str("null");
                    s.with("Property", Some(v), |v, out| list(v, out, go_json));
                } else {
                    s.with("Schema", Some(v), schema_into);
                    s.key("Property").push_str("null");
                }
                out.push_str(&s.finish());
            }
            out.push('}');
        }
        _ => out.push_str("null"),
    }
}

/// `spec.versions` as the internal `[]CustomResourceDefinitionVersion` prints, after the
/// conversion from v1 moved what every version shares to the spec (`hoisted`: schema,
/// subresources, columns, selectable fields).
pub fn versions(v: &Value, hoisted: &Hoisted) -> String {
    let mut out = String::new();
    list(v, &mut out, |version, out| {
        let mut s = Struct::new();
        s.string("Name", version.get("name"));
        s.boolean("Served", version.get("served"));
        s.boolean("Storage", version.get("storage"));
        s.boolean("Deprecated", version.get("deprecated"));
        s.pointer("DeprecationWarning", version.get("deprecationWarning"));
        let kept = |hoisted: bool, key: &str| if hoisted { None } else { version.get(key) };
        s.with("Schema", kept(hoisted.schema, "schema"), |v, out| {
            let mut c = Struct::new();
            c.with("OpenAPIV3Schema", v.get("openAPIV3Schema"), schema_into);
            out.push_str(&c.finish());
        });
        s.with(
            "Subresources",
            kept(hoisted.subresources, "subresources"),
            subresources,
        );
        s.with(
            "AdditionalPrinterColumns",
            kept(hoisted.columns, "additionalPrinterColumns"),
            |v, out| list(v, out, column),
        );
        s.with(
            "SelectableFields",
            kept(hoisted.selectable_fields, "selectableFields"),
            |v, out| {
                list(v, out, |f, out| {
                    let mut c = Struct::new();
                    c.string("JSONPath", f.get("jsonPath"));
                    out.push_str(&c.finish());
                })
            },
        );
        out.push_str(&s.finish());
    });
    out
}

fn subresources(v: &Value, out: &mut String) {
    let mut s = Struct::new();
    s.with("Status", v.get("status"), |_, out| out.push_str("{}"));
    s.with("Scale", v.get("scale"), |v, out| {
        let mut c = Struct::new();
        c.string("SpecReplicasPath", v.get("specReplicasPath"));
        c.string("StatusReplicasPath", v.get("statusReplicasPath"));
        c.pointer("LabelSelectorPath", v.get("labelSelectorPath"));
        out.push_str(&c.finish());
    });
    out.push_str(&s.finish());
}

fn column(v: &Value, out: &mut String) {
    let mut s = Struct::new();
    s.string("Name", v.get("name"));
    s.string("Type", v.get("type"));
    s.string("Format", v.get("format"));
    s.string("Description", v.get("description"));
    let priority = v.get("priority").and_then(Value::as_i64).unwrap_or(0);
    s.key("Priority").push_str(&priority.to_string());
    s.string("JSONPath", v.get("jsonPath"));
    out.push_str(&s.finish());
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_rule_prints_with_go_names_in_declaration_order() {
        assert_eq!(
            rule(&json!({"rule": "self.a > 0", "reason": "FieldValueForbidden"})),
            r#"{"Rule":"self.a \u003e 0","Message":"","MessageExpression":"","Reason":"FieldValueForbidden","FieldPath":"","OptionalOldSelf":null}"#
        );
    }

    #[test]
    fn a_schema_prints_its_zero_members() {
        let printed = schema(&json!({"type": "object", "maximum": 5.0}));
        assert!(printed.starts_with(
            r#"{"ID":"","Schema":"","Ref":null,"Description":"","Type":"object","Nullable":false"#
        ));
        assert!(printed.contains(r#""Maximum":5,"#));
        assert!(printed.ends_with(r#""XListType":null,"XMapType":null,"XValidations":null}"#));
    }
}
