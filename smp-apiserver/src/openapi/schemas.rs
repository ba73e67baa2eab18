//! The built-in schemas, read from `schemas.json` (smp-apiserver's compact form of the official
//! v1.34 OpenAPI v3 documents' schemas, without descriptions; the form is described in
//! smp-codegen's `openapi` module) and written out as OpenAPI v3 or Swagger 2.0 schemas.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use serde_json::{Map, Value, json};

/// Which OpenAPI a schema is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// OpenAPI v3 (`/openapi/v3/...`): references under `#/components/schemas/`, a reference
    /// with more to say wrapped in `allOf`, defaults and `oneOf` kept.
    V3,
    /// Swagger 2.0 (`/openapi/v2`): references under `#/definitions/`, no defaults, a value of
    /// several kinds (a quantity, an int-or-string) written as a string.
    V2,
}

impl Form {
    /// A reference to the schema called `name`.
    pub(crate) fn reference(self, name: &str) -> Value {
        match self {
            Form::V3 => json!({"$ref": format!("#/components/schemas/{name}")}),
            Form::V2 => json!({"$ref": format!("#/definitions/{name}")}),
        }
    }
}

/// The built-in schemas in compact form, by name.
pub(crate) fn table() -> &'static BTreeMap<String, Value> {
    static TABLE: OnceLock<BTreeMap<String, Value>> = OnceLock::new();
    TABLE.get_or_init(|| serde_json::from_str(include_str!("schemas.json")).unwrap_or_default())
}

/// The name of the built-in schema of a kind.
pub(crate) fn of_kind(group: &str, version: &str, kind: &str) -> Option<&'static str> {
    static KINDS: OnceLock<BTreeMap<(String, String, String), String>> = OnceLock::new();
    let kinds = KINDS.get_or_init(|| {
        let mut kinds = BTreeMap::new();
        for (name, entry) in table() {
            for k in entry
                .get("k")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let text = |i: usize| k.get(i).and_then(Value::as_str).unwrap_or("").to_owned();
                // A kind several schemas claim (`DeleteOptions` in every group) is the first's.
                kinds
                    .entry((text(0), text(1), text(2)))
                    .or_insert_with(|| name.clone());
            }
        }
        kinds
    });
    kinds
        .get(&(group.to_owned(), version.to_owned(), kind.to_owned()))
        .map(String::as_str)
}

/// The names of the built-in schemas that are kinds of this group-version.
pub(crate) fn kinds_of(group: &str, version: &str) -> Vec<&'static str> {
    table()
        .iter()
        .filter(|(_, entry)| {
            entry
                .get("k")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .any(|k| k.get(0) == Some(&json!(group)) && k.get(1) == Some(&json!(version)))
        })
        .map(|(name, _)| name.as_str())
        .collect()
}

/// `roots` and every built-in schema they refer to, directly or not, each written in `form`.
pub(crate) fn closure<'a>(
    roots: impl IntoIterator<Item = &'a str>,
    form: Form,
) -> Map<String, Value> {
    let table = table();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut todo: Vec<&str> = roots.into_iter().collect();
    let mut out = Map::new();
    while let Some(name) = todo.pop() {
        let Some((name, entry)) = table.get_key_value(name) else {
            continue;
        };
        if !seen.insert(name) {
            continue;
        }
        references(entry, &mut |r| {
            if !seen.contains(r) {
                todo.push(r);
            }
        });
        out.insert(name.clone(), schema(entry, form));
    }
    out.sort_keys();
    out
}

/// Every built-in schema, written in `form`.
pub(crate) fn all(form: Form) -> Map<String, Value> {
    table()
        .iter()
        .map(|(name, entry)| (name.clone(), schema(entry, form)))
        .collect()
}

/// Calls `found` with each schema name a compact entry refers to.
fn references<'a>(entry: &'a Value, found: &mut impl FnMut(&'a str)) {
    match entry {
        Value::String(code) => {
            if let Some(name) = code.trim_start_matches(['[', '{']).strip_prefix('@') {
                found(name);
            }
        }
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("f", Value::Object(fields)) => {
                        fields.values().for_each(|t| references(t, found));
                    }
                    ("t" | "i" | "v" | "1", value) => references(value, found),
                    _ => {}
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| references(v, found)),
        _ => {}
    }
}

/// A named schema from its compact entry.
fn schema(entry: &Value, form: Form) -> Value {
    let mut out = match entry.get("t") {
        Some(code) => type_of(code, form),
        None => json!({"type": "object"}),
    };
    let Some(out_map) = out.as_object_mut() else {
        return out;
    };
    if let Some(fields) = entry.get("f").and_then(Value::as_object) {
        let properties: Map<String, Value> = fields
            .iter()
            .map(|(name, t)| (name.clone(), type_of(t, form)))
            .collect();
        out_map.insert("properties".into(), Value::Object(properties));
    }
    if let Some(required) = entry.get("r") {
        out_map.insert("required".into(), required.clone());
    }
    if let Some(kinds) = entry.get("k").and_then(Value::as_array) {
        let kinds: Vec<Value> = kinds
            .iter()
            .map(|k| json!({"group": k[0], "version": k[1], "kind": k[2]}))
            .collect();
        out_map.insert(
            "x-kubernetes-group-version-kind".into(),
            Value::Array(kinds),
        );
    }
    if let Some(t) = entry.get("mt") {
        out_map.insert("x-kubernetes-map-type".into(), t.clone());
    }
    if let Some(u) = entry.get("u") {
        out_map.insert("x-kubernetes-unions".into(), u.clone());
    }
    if let Some(one_of) = entry.get("1").and_then(Value::as_array) {
        match form {
            Form::V3 => {
                let one_of = one_of.iter().map(|t| type_of(t, form)).collect();
                out_map.insert("oneOf".into(), Value::Array(one_of));
            }
            Form::V2 => {
                out_map.insert("type".into(), json!("string"));
            }
        }
    }
    out
}

/// The extensions a compact type may carry, by their compact names.
const EXTENSIONS: [(&str, &str); 5] = [
    ("ps", "x-kubernetes-patch-strategy"),
    ("pk", "x-kubernetes-patch-merge-key"),
    ("lt", "x-kubernetes-list-type"),
    ("lk", "x-kubernetes-list-map-keys"),
    ("mt", "x-kubernetes-map-type"),
];

/// A property's (or items', or values') schema from its compact type.
fn type_of(t: &Value, form: Form) -> Value {
    let Value::Object(map) = t else {
        return code(t.as_str().unwrap_or("*"), form);
    };
    let mut extras = Map::new();
    if let (Some(d), Form::V3) = (map.get("d"), form) {
        extras.insert("default".into(), d.clone());
    }
    for (short, long) in EXTENSIONS {
        if let Some(v) = map.get(short) {
            extras.insert(long.into(), v.clone());
        }
    }
    let base = if let Some(items) = map.get("i") {
        json!({"type": "array", "items": type_of(items, form)})
    } else if let Some(values) = map.get("v") {
        json!({"type": "object", "additionalProperties": type_of(values, form)})
    } else {
        let t = map.get("t").and_then(Value::as_str).unwrap_or("*");
        if t.starts_with('@') && form == Form::V3 && !extras.is_empty() {
            // OpenAPI v3 ignores whatever stands beside a `$ref`.
            let mut wrapped = Map::new();
            wrapped.insert("allOf".into(), json!([code(t, form)]));
            wrapped.extend(extras);
            return Value::Object(wrapped);
        }
        code(t, form)
    };
    let mut base = match base {
        Value::Object(base) => base,
        other => return other,
    };
    base.extend(extras);
    Value::Object(base)
}

/// The schema of a type code.
fn code(code: &str, form: Form) -> Value {
    if let Some(name) = code.strip_prefix('@') {
        return form.reference(name);
    }
    if let Some(items) = code.strip_prefix('[') {
        return if items.is_empty() {
            json!({"type": "array"})
        } else {
            json!({"type": "array", "items": self::code(items, form)})
        };
    }
    if let Some(values) = code.strip_prefix('{') {
        return json!({"type": "object", "additionalProperties": self::code(values, form)});
    }
    let (base, format) = match code.split_once(':') {
        Some((base, format)) => (base, Some(format)),
        None => (code, None),
    };
    let mut out = Map::new();
    let t = match base {
        "s" => Some("string"),
        "i" => Some("integer"),
        "n" => Some("number"),
        "b" => Some("boolean"),
        "o" => Some("object"),
        _ => None,
    };
    if let Some(t) = t {
        out.insert("type".into(), json!(t));
    }
    if let Some(format) = format {
        out.insert("format".into(), json!(format));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The official schema as the table should give it back: no descriptions, and a reference
    /// that has nothing else beside it not wrapped in `allOf`.
    fn expected(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut out: Map<String, Value> = map
                    .iter()
                    .filter(|(k, v)| !(*k == "description" && v.is_string()))
                    .map(|(k, v)| (k.clone(), expected(v)))
                    .collect();
                let single = out
                    .get("allOf")
                    .and_then(Value::as_array)
                    .filter(|a| a.len() == 1)
                    .cloned();
                if let (Some(one), 1) = (single, out.len()) {
                    return one[0].clone();
                }
                out.sort_keys();
                Value::Object(out)
            }
            Value::Array(items) => Value::Array(items.iter().map(expected).collect()),
            other => other.clone(),
        }
    }

    fn sorted(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut out: Map<String, Value> =
                    map.iter().map(|(k, v)| (k.clone(), sorted(v))).collect();
                out.sort_keys();
                Value::Object(out)
            }
            Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }

    #[test]
    fn the_table_gives_back_every_official_schema() {
        let Some(dir) = smp_testdata::file("openapi/v3") else {
            return; // skipped, and said so
        };
        let mut compared = 0;
        for entry in std::fs::read_dir(dir).expect("reads the documents") {
            let path = entry.expect("an entry").path();
            let doc: Value =
                serde_json::from_slice(&std::fs::read(&path).expect("reads")).expect("JSON");
            for (name, official) in doc["components"]["schemas"].as_object().expect("schemas") {
                let ours = table().get(name).map(|e| schema(e, Form::V3));
                assert_eq!(
                    ours.as_ref().map(sorted),
                    Some(expected(official)),
                    "{name} in {}",
                    path.display()
                );
                compared += 1;
            }
        }
        assert!(compared > 700, "{compared} schemas compared");
    }

    #[test]
    fn kinds_lead_to_their_schemas() {
        assert_eq!(
            of_kind("apps", "v1", "Deployment"),
            Some("io.k8s.api.apps.v1.Deployment")
        );
        assert!(kinds_of("", "v1").contains(&"io.k8s.api.core.v1.Pod"));
        let pod = closure(["io.k8s.api.core.v1.Pod"], Form::V3);
        assert!(pod.contains_key("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"));
        assert!(pod.contains_key("io.k8s.api.core.v1.Container"));
        assert!(!pod.contains_key("io.k8s.api.apps.v1.Deployment"));
        let containers = &pod["io.k8s.api.core.v1.PodSpec"]["properties"]["containers"];
        assert_eq!(containers["x-kubernetes-patch-merge-key"], "name");
        assert_eq!(
            containers["items"]["allOf"][0]["$ref"],
            "#/components/schemas/io.k8s.api.core.v1.Container"
        );
    }

    #[test]
    fn swagger_has_no_defaults_and_plain_references() {
        let all = all(Form::V2);
        let spec = &all["io.k8s.api.apps.v1.DeploymentSpec"]["properties"];
        assert_eq!(
            spec["template"],
            json!({"$ref": "#/definitions/io.k8s.api.core.v1.PodTemplateSpec"})
        );
        assert_eq!(
            all["io.k8s.apimachinery.pkg.util.intstr.IntOrString"],
            json!({"type": "string", "format": "int-or-string"})
        );
        // v3 gives the protocol's default, `TCP`.
        assert_eq!(
            all["io.k8s.api.core.v1.ContainerPort"]["properties"]["protocol"],
            json!({"type": "string"})
        );
    }
}
