//! The schemas of the served CRDs' kinds, as the API server publishes them: each served
//! version's `openAPIV3Schema`, named `{group reversed}.{version}.{kind}`, with its kind
//! recorded and `apiVersion`, `kind` and `metadata` (the built-in `ObjectMeta`) filled in.

use serde_json::{Map, Value, json};

use super::schemas::Form;
use crate::custom::Served;

/// The built-in schema every CRD's schema refers to.
const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

/// The CRDs' schemas, and the built-in schemas they refer to.
pub(super) struct CrdSchemas {
    pub(super) schemas: Map<String, Value>,
    pub(super) refers_to: Vec<&'static str>,
}

/// The schema name of a custom kind: `com.example.v1.Widget` for `example.com/v1` `Widget`.
pub(super) fn name(group: &str, version: &str, kind: &str) -> String {
    let mut name: Vec<&str> = group.split('.').rev().collect();
    name.push(version);
    name.push(kind);
    name.join(".")
}

/// The schemas of the CRDs' served versions (only those of `only`'s group and version, if
/// given), written in `form`.
pub(super) fn schemas(served: &Served, only: Option<(&str, &str)>, form: Form) -> CrdSchemas {
    let mut out = CrdSchemas {
        schemas: Map::new(),
        refers_to: Vec::new(),
    };
    for crd in served.crds.iter() {
        let text = |p: &str| crd.pointer(p).and_then(Value::as_str).unwrap_or("");
        let (group, kind) = (text("/spec/group"), text("/spec/names/kind"));
        if group.is_empty() || kind.is_empty() {
            continue;
        }
        let versions = crd.pointer("/spec/versions").and_then(Value::as_array);
        for v in versions.into_iter().flatten() {
            let version = v.get("name").and_then(Value::as_str).unwrap_or("");
            if version.is_empty()
                || v.get("served") == Some(&Value::Bool(false))
                || only.is_some_and(|gv| gv != (group, version))
            {
                continue;
            }
            let given = v
                .pointer("/schema/openAPIV3Schema")
                .cloned()
                .unwrap_or_else(|| json!({"type": "object"}));
            let mut schema = match form {
                Form::V3 => given,
                Form::V2 => swagger(given),
            };
            let Some(map) = schema.as_object_mut() else {
                continue;
            };
            map.insert(
                "x-kubernetes-group-version-kind".into(),
                json!([{"group": group, "version": version, "kind": kind}]),
            );
            let properties = map.entry("properties").or_insert_with(|| json!({}));
            if let Some(properties) = properties.as_object_mut() {
                properties.insert("apiVersion".into(), json!({"type": "string"}));
                properties.insert("kind".into(), json!({"type": "string"}));
                properties.insert("metadata".into(), form.reference(OBJECT_META));
            }
            out.schemas.insert(name(group, version, kind), schema);
            out.refers_to = vec![OBJECT_META];
        }
    }
    out
}

/// A CRD's v3 schema as Swagger 2.0 takes it: without what 2.0 has no word for (`nullable`,
/// `oneOf`, `anyOf`, `allOf`, `not`), as the API server writes its v2 document.
fn swagger(mut schema: Value) -> Value {
    // Walked with a stack of its own: a stored CRD's nesting is its author's to choose. Only
    // schemas are stripped, not a property that happens to be called `not`.
    let mut todo: Vec<&mut Value> = vec![&mut schema];
    while let Some(v) = todo.pop() {
        let Value::Object(map) = v else { continue };
        for key in ["nullable", "oneOf", "anyOf", "allOf", "not"] {
            map.remove(key);
        }
        for (key, value) in map.iter_mut() {
            match (key.as_str(), value) {
                ("properties" | "patternProperties", Value::Object(properties)) => {
                    todo.extend(properties.values_mut());
                }
                ("items", Value::Array(items)) => todo.extend(items.iter_mut()),
                ("items" | "additionalProperties", value @ Value::Object(_)) => todo.push(value),
                _ => {}
            }
        }
    }
    schema
}
