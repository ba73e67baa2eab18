//! smp-apiserver's schema table: the structure of every schema of the official OpenAPI v3
//! documents (types, formats, references, defaults, required fields, kinds and the Kubernetes
//! extensions that say how lists and maps merge), without their descriptions, in
//! smp-apiserver's own compact form. The test server builds the `/openapi/v2` and
//! `/openapi/v3` documents it serves from it.
//!
//! The form, one schema a line, keyed by the schema's name:
//!
//! | key | holds |
//! |---|---|
//! | `k` | the kinds it is, `[group, version, kind]` each |
//! | `f` | its properties, each a *type* (below) |
//! | `r` | its required properties |
//! | `t` | for a schema without properties: its type code |
//! | `1` | for a schema that is one of several: their type codes |
//! | `mt` | `x-kubernetes-map-type` |
//! | `u` | `x-kubernetes-unions`, as given |
//!
//! A *type* is a code where nothing else is said of it: `s` string, `i` integer, `n` number,
//! `b` boolean, `o` object, `*` anything, each with `:format` when it has one (`i:int32`,
//! `s:date-time`), `@name` a reference, `[type` an array of, `{type` a map of. Otherwise it is
//! an object: `t` the code, `i` (items) or `v` (values) a type, `d` the default, `ps` / `pk` /
//! `lt` / `lk` / `mt` the patch strategy, patch merge key, list type, list map keys and map
//! type. A key this form does not know is an error, so a newer document cannot lose facts
//! quietly.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value, json};

/// The schema table of every `*.json` document of `dir`, as compact JSON (one schema a line).
pub fn schema_table(dir: &Path) -> Result<String, String> {
    let mut table: BTreeMap<String, Value> = BTreeMap::new();
    for doc in crate::documents::json_documents(dir)? {
        let Some(schemas) = doc
            .pointer("/components/schemas")
            .and_then(Value::as_object)
        else {
            continue;
        };
        for (name, schema) in schemas {
            let entry = encode_schema(schema).map_err(|e| format!("{name}: {e}"))?;
            match table.get(name) {
                Some(seen) if *seen != entry => {
                    return Err(format!("{name}: two documents describe it differently"));
                }
                Some(_) => {}
                None => {
                    table.insert(name.clone(), entry);
                }
            }
        }
    }
    let mut out = String::from("{\n");
    for (i, (name, entry)) in table.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str(&serde_json::to_string(name).map_err(|e| e.to_string())?);
        out.push(':');
        out.push_str(&serde_json::to_string(entry).map_err(|e| e.to_string())?);
    }
    out.push_str("\n}\n");
    Ok(out)
}

/// One named schema.
fn encode_schema(schema: &Value) -> Result<Value, String> {
    let schema = schema.as_object().ok_or("not an object")?;
    let mut out = Map::new();
    let mut code_only = Map::new();
    for (key, value) in schema {
        match key.as_str() {
            "description" => {}
            "properties" => {
                let mut fields = Map::new();
                for (name, property) in value.as_object().ok_or("properties: not an object")? {
                    fields.insert(
                        name.clone(),
                        encode_type(property).map_err(|e| format!("{name}: {e}"))?,
                    );
                }
                out.insert("f".into(), Value::Object(fields));
            }
            "required" => {
                out.insert("r".into(), value.clone());
            }
            "x-kubernetes-group-version-kind" => {
                let kinds = value.as_array().ok_or("kinds: not a list")?;
                let kinds = kinds
                    .iter()
                    .map(|k| json!([k["group"], k["version"], k["kind"]]))
                    .collect();
                out.insert("k".into(), Value::Array(kinds));
            }
            "x-kubernetes-map-type" => {
                out.insert("mt".into(), value.clone());
            }
            "x-kubernetes-unions" => {
                out.insert("u".into(), value.clone());
            }
            "oneOf" => {
                let codes = value
                    .as_array()
                    .ok_or("oneOf: not a list")?
                    .iter()
                    .map(encode_type)
                    .collect::<Result<Vec<_>, _>>()?;
                out.insert("1".into(), Value::Array(codes));
            }
            "type" | "format" => {
                code_only.insert(key.clone(), value.clone());
            }
            other => return Err(format!("unknown key {other}")),
        }
    }
    // An object with properties goes without saying.
    let code = code_of(&code_only)?;
    if !(out.contains_key("f") && code == "o") {
        out.insert("t".into(), Value::String(code));
    }
    Ok(Value::Object(out))
}

/// A property, an array's items or a map's values.
fn encode_type(schema: &Value) -> Result<Value, String> {
    let schema = schema.as_object().ok_or("not an object")?;
    let mut plain = Map::new();
    let mut extras = Map::new();
    let mut items = None;
    let mut values = None;
    for (key, value) in schema {
        match key.as_str() {
            "description" => {}
            "type" | "format" | "$ref" => {
                plain.insert(key.clone(), value.clone());
            }
            "allOf" => match value.as_array().map(Vec::as_slice) {
                Some([one]) => match one.get("$ref") {
                    Some(r) if one.as_object().is_some_and(|o| o.len() == 1) => {
                        plain.insert("$ref".into(), r.clone());
                    }
                    _ => return Err("allOf: not one reference".into()),
                },
                _ => return Err("allOf: not one reference".into()),
            },
            "items" => items = Some(encode_type(value).map_err(|e| format!("items: {e}"))?),
            "additionalProperties" => {
                values = Some(encode_type(value).map_err(|e| format!("values: {e}"))?);
            }
            "default" => {
                extras.insert("d".into(), value.clone());
            }
            "x-kubernetes-patch-strategy" => {
                extras.insert("ps".into(), value.clone());
            }
            "x-kubernetes-patch-merge-key" => {
                extras.insert("pk".into(), value.clone());
            }
            "x-kubernetes-list-type" => {
                extras.insert("lt".into(), value.clone());
            }
            "x-kubernetes-list-map-keys" => {
                extras.insert("lk".into(), value.clone());
            }
            "x-kubernetes-map-type" => {
                extras.insert("mt".into(), value.clone());
            }
            other => return Err(format!("unknown key {other}")),
        }
    }
    let mut code = code_of(&plain)?;
    if code == "o" && values.is_some() {
        code = "{".into();
    }
    // An array or a map whose items say nothing but their type folds into one code.
    let (code, items, values) = match (code.as_str(), items, values) {
        ("[", Some(Value::String(item)), None) => (format!("[{item}"), None, None),
        ("{", None, Some(Value::String(value))) => (format!("{{{value}"), None, None),
        (_, items, values) => (code, items, values),
    };
    if extras.is_empty() && items.is_none() && values.is_none() {
        return Ok(Value::String(code));
    }
    let mut out = Map::new();
    if items.is_none() && values.is_none() {
        out.insert("t".into(), Value::String(code));
    } else if !matches!(code.as_str(), "[" | "{") {
        return Err(format!("items or values on a {code}"));
    }
    if let Some(items) = items {
        out.insert("i".into(), items);
    }
    if let Some(values) = values {
        out.insert("v".into(), values);
    }
    out.extend(extras);
    Ok(Value::Object(out))
}

/// The code of a schema's `type`, `format` and `$ref`: `[` and `{` for an array or a map whose
/// items come apart.
fn code_of(plain: &Map<String, Value>) -> Result<String, String> {
    if let Some(r) = plain.get("$ref") {
        if plain.len() > 1 {
            return Err("a reference with a type".into());
        }
        let r = r.as_str().ok_or("$ref: not a string")?;
        let name = r
            .strip_prefix("#/components/schemas/")
            .ok_or_else(|| format!("$ref {r}: not a component"))?;
        return Ok(format!("@{name}"));
    }
    let format = plain
        .get("format")
        .map(|f| f.as_str().ok_or("format: not a string"));
    let base = match plain.get("type").map(Value::as_str) {
        None if format.is_none() => return Ok("*".into()),
        None => "*",
        Some(Some("string")) => "s",
        Some(Some("integer")) => "i",
        Some(Some("number")) => "n",
        Some(Some("boolean")) => "b",
        Some(Some("object")) => "o",
        Some(Some("array")) => "[",
        Some(t) => return Err(format!("unknown type {t:?}")),
    };
    Ok(match format {
        Some(f) => format!("{base}:{}", f?),
        None => base.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_fold_into_codes_and_say_the_rest_beside_them() {
        let property = json!({
            "description": "gone",
            "type": "array",
            "items": {"allOf": [{"$ref": "#/components/schemas/a.Container"}], "default": {}},
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"],
        });
        assert_eq!(
            encode_type(&property).unwrap(),
            json!({"i": {"t": "@a.Container", "d": {}}, "lt": "map", "lk": ["name"]})
        );
        let map = json!({"type": "object", "additionalProperties": {"type": "string"}});
        assert_eq!(encode_type(&map).unwrap(), json!("{s"));
        let number = json!({"type": "integer", "format": "int32"});
        assert_eq!(encode_type(&number).unwrap(), json!("i:int32"));
        assert!(encode_type(&json!({"type": "string", "pattern": "x"})).is_err());
        let schema = json!({"type": "object", "properties": {"a": {"type": "boolean"}},
                            "x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "A"}]});
        assert_eq!(
            encode_schema(&schema).unwrap(),
            json!({"f": {"a": "b"}, "k": [["", "v1", "A"]]})
        );
    }

    /// The table smp-apiserver carries is what the official documents give.
    #[test]
    fn the_committed_table_is_the_documents() {
        let Some(dir) = smp_testdata::file("openapi/v3") else {
            return; // skipped, and said so
        };
        let table = schema_table(&dir).unwrap();
        let committed = include_str!("../../smp-apiserver/src/openapi/schemas.json");
        assert!(
            table == committed,
            "smp-apiserver/src/openapi/schemas.json is out of date: run `cargo run -p smp-codegen -- --openapi`"
        );
    }
}
