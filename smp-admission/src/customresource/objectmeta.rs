//! The metadata of embedded resources (`x-kubernetes-embedded-resource: true`) as the server
//! reads and checks it (apiextensions-apiserver `pkg/apiserver/schema/objectmeta`): on
//! decoding, an embedded `apiVersion` and `kind` must be strings and `metadata` must decode
//! as an `ObjectMeta` ([`coerce`]; its unknown members are dropped, as the typed round trip
//! drops them); the strategy then requires `apiVersion` and `kind` and validates the metadata
//! as every object's, names being path segments ([`validate`]).

use serde_json::{Map, Value};

use super::structural::{MAX_DEPTH, Structural};
use crate::validation::field::{self, BadValue, ErrorList, FieldError, Path};
use crate::validation::{meta, names};

/// The Go type each `ObjectMeta` member decodes into, and the JSON it takes.
#[derive(Clone, Copy)]
enum GoType {
    String,
    Int64,
    Time,
    StringMap,
    StringList,
    OwnerReferences,
    ManagedFields,
}

fn member_type(key: &str) -> Option<GoType> {
    Some(match key {
        "name" | "generateName" | "namespace" | "selfLink" | "uid" | "resourceVersion" => {
            GoType::String
        }
        "generation" | "deletionGracePeriodSeconds" => GoType::Int64,
        "creationTimestamp" | "deletionTimestamp" => GoType::Time,
        "labels" | "annotations" => GoType::StringMap,
        "finalizers" => GoType::StringList,
        "ownerReferences" => GoType::OwnerReferences,
        "managedFields" => GoType::ManagedFields,
        _ => return None,
    })
}

/// The JSON type name Go's decoder reports.
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn type_error(v: &Value, structure: &str, field: &str, go_type: &str) -> String {
    format!(
        "json: cannot unmarshal {} into Go struct field {structure}.{field} of type {go_type}",
        json_kind(v)
    )
}

/// Go's first decoding error of `metadata` as an `ObjectMeta`, if it has one.
pub fn decode_error(metadata: &Value) -> Option<String> {
    let members = match metadata {
        Value::Object(m) => m,
        Value::Null => return None,
        other => {
            return Some(format!(
                "json: cannot unmarshal {} into Go value of type v1.ObjectMeta",
                json_kind(other)
            ));
        }
    };
    for (key, v) in members {
        if v.is_null() {
            continue;
        }
        let err = match member_type(key)? {
            GoType::String if !v.is_string() => Some(type_error(v, "ObjectMeta", key, "string")),
            GoType::Int64 if !v.as_f64().is_some_and(|f| f.fract() == 0.0) => {
                Some(type_error(v, "ObjectMeta", key, "int64"))
            }
            GoType::Time if !v.is_string() => Some(format!(
                "json: cannot unmarshal {} into Go value of type string",
                json_kind(v)
            )),
            GoType::StringMap => match v {
                Value::Object(m) => m
                    .values()
                    .find(|x| !x.is_string() && !x.is_null())
                    .map(|x| type_error(x, "ObjectMeta", key, "string")),
                other => Some(type_error(other, "ObjectMeta", key, "map[string]string")),
            },
            GoType::StringList => match v {
                Value::Array(items) => items
                    .iter()
                    .find(|x| !x.is_string() && !x.is_null())
                    .map(|x| type_error(x, "ObjectMeta", key, "string")),
                other => Some(type_error(other, "ObjectMeta", key, "[]string")),
            },
            GoType::OwnerReferences => list_of_structs(v, key, "OwnerReference", |k| match k {
                "controller" | "blockOwnerDeletion" => Some("bool"),
                "apiVersion" | "kind" | "name" | "uid" => Some("string"),
                _ => None,
            }),
            GoType::ManagedFields => list_of_structs(v, key, "ManagedFieldsEntry", |k| match k {
                "manager" | "operation" | "apiVersion" | "fieldsType" | "subresource" => {
                    Some("string")
                }
                _ => None,
            }),
            _ => None,
        };
        if err.is_some() {
            return err;
        }
    }
    None
}

fn list_of_structs(
    v: &Value,
    key: &str,
    structure: &str,
    member: impl Fn(&str) -> Option<&'static str>,
) -> Option<String> {
    let Value::Array(items) = v else {
        return Some(type_error(
            v,
            "ObjectMeta",
            key,
            &format!("[]v1.{structure}"),
        ));
    };
    for item in items {
        match item {
            Value::Object(members) => {
                for (k, x) in members {
                    let go_type = member(k);
                    let wrong = match go_type {
                        Some("bool") => !x.is_boolean() && !x.is_null(),
                        Some(_) => !x.is_string() && !x.is_null(),
                        None => false,
                    };
                    if wrong {
                        let field = format!("{key}.{k}");
                        return Some(type_error(x, structure, &field, go_type.unwrap_or("")));
                    }
                }
            }
            Value::Null => {}
            other => {
                return Some(type_error(
                    other,
                    "ObjectMeta",
                    key,
                    &format!("v1.{structure}"),
                ));
            }
        }
    }
    None
}

/// `metadata` as the typed round trip leaves it: members `ObjectMeta` lacks dropped (their
/// paths returned, under `prefix.metadata`), empty members and a null creation time gone.
fn round_trip(metadata: &mut Map<String, Value>, prefix: &str, unknown: &mut Vec<String>) {
    metadata.retain(|key, v| {
        if member_type(key).is_none() {
            if prefix.is_empty() {
                unknown.push(format!("metadata.{key}"));
            } else {
                unknown.push(format!("{prefix}.metadata.{key}"));
            }
            return false;
        }
        let empty = match v {
            Value::Null => true,
            Value::String(s) => s.is_empty(),
            Value::Array(a) => a.is_empty(),
            Value::Object(o) => o.is_empty(),
            Value::Number(n) => n.as_i64() == Some(0),
            Value::Bool(_) => false,
        };
        !empty
    });
}

/// `parent.name`, or `name` alone at the top (Go's nil path).
fn child<'a>(parent: Option<&'a Path<'a>>, name: &'a str) -> Path<'a> {
    match parent {
        Some(p) => p.child(name),
        None => Path::new(name),
    }
}

/// The top, for the map keys and list items that cannot sit right under it (the top of an
/// embedded resource is an object of named members).
static TOP: Path<'static> = Path::new("");

fn key<'a>(parent: Option<&'a Path<'a>>, name: &'a str) -> Path<'a> {
    parent.unwrap_or(&TOP).key(name)
}

fn index<'a>(parent: Option<&'a Path<'a>>, i: usize) -> Path<'a> {
    parent.unwrap_or(&TOP).index(i)
}

/// Coerces the embedded resources of `value` (`resource_root`: the value itself is one) as
/// decoding does, at `path` (`None`: the top): the first wrong type is the error the request
/// fails with; otherwise the metadata members dropped, as `unknown field` paths.
pub fn coerce(
    value: &mut Value,
    schema: &Structural,
    path: Option<&Path>,
    resource_root: bool,
) -> Result<Vec<String>, FieldError> {
    let mut unknown = Vec::new();
    walk_coerce(value, schema, path, resource_root, &mut unknown, 0)?;
    unknown.sort();
    Ok(unknown)
}

fn walk_coerce(
    value: &mut Value,
    s: &Structural,
    path: Option<&Path>,
    embedded: bool,
    unknown: &mut Vec<String>,
    depth: usize,
) -> Result<(), FieldError> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    match value {
        Value::Object(members) => {
            if embedded || s.embedded_resource {
                for name in ["apiVersion", "kind"] {
                    if let Some(v) = members.get(name).filter(|v| !v.is_string()) {
                        return Err(field::invalid(&child(path, name), v, "must be a string"));
                    }
                }
                if let Some(metadata) = members.get_mut("metadata") {
                    if let Some(e) = decode_error(metadata) {
                        return Err(field::invalid(&child(path, "metadata"), &*metadata, &e));
                    }
                    if let Value::Object(m) = metadata {
                        let prefix = path.map(Path::render).unwrap_or_default();
                        round_trip(m, &prefix, unknown);
                    }
                }
            }
            for (name, member) in members.iter_mut() {
                if let Some(property) = s.properties.get(name) {
                    let at = child(path, name);
                    walk_coerce(member, property, Some(&at), false, unknown, depth + 1)?;
                } else if let Some(additional) =
                    s.additional_properties.as_ref().and_then(|a| a.schema())
                {
                    let at = key(path, name);
                    walk_coerce(member, additional, Some(&at), false, unknown, depth + 1)?;
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = s.items.as_deref() {
                for (i, item) in items.iter_mut().enumerate() {
                    let at = index(path, i);
                    walk_coerce(item, item_schema, Some(&at), false, unknown, depth + 1)?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// The errors of the embedded resources of `value` (`resource_root`: the value itself is one),
/// at `path` (`None`: the top).
pub fn validate(
    value: &Value,
    schema: &Structural,
    path: Option<&Path>,
    resource_root: bool,
) -> ErrorList {
    let mut errs = ErrorList::new();
    walk_validate(value, schema, path, resource_root, &mut errs, 0);
    errs
}

fn walk_validate(
    value: &Value,
    s: &Structural,
    path: Option<&Path>,
    embedded: bool,
    errs: &mut ErrorList,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    match value {
        Value::Object(members) => {
            if embedded || s.embedded_resource {
                embedded_resource(members, path, errs);
            }
            for (name, member) in members {
                if let Some(property) = s.properties.get(name) {
                    let at = child(path, name);
                    walk_validate(member, property, Some(&at), false, errs, depth + 1);
                } else if let Some(additional) =
                    s.additional_properties.as_ref().and_then(|a| a.schema())
                {
                    let at = key(path, name);
                    walk_validate(member, additional, Some(&at), false, errs, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = s.items.as_deref() {
                for (i, item) in items.iter().enumerate() {
                    let at = index(path, i);
                    walk_validate(item, item_schema, Some(&at), false, errs, depth + 1);
                }
            }
        }
        _ => {}
    }
}

/// `validateEmbeddedResource`.
fn embedded_resource(members: &Map<String, Value>, path: Option<&Path>, errs: &mut ErrorList) {
    for name in ["apiVersion", "kind"] {
        if !members.contains_key(name) {
            errs.push(field::required(&child(path, name), ""));
        }
    }
    for (name, v) in members {
        let at = child(path, name);
        match name.as_str() {
            "apiVersion" => match v.as_str() {
                None => errs.push(field::invalid(&at, v, "must be a string")),
                Some("") => errs.push(field::invalid(&at, "", "must not be empty")),
                Some(api_version) if api_version.matches('/').count() > 1 => {
                    errs.push(field::invalid(
                        &at,
                        api_version,
                        &format!("unexpected GroupVersion string: {api_version}"),
                    ));
                }
                Some(_) => {}
            },
            "kind" => match v.as_str() {
                None => errs.push(field::invalid(&at, v, "must be a string")),
                Some("") => errs.push(field::invalid(&at, "", "must not be empty")),
                Some(kind) => {
                    let problems = names::is_dns1035_label(&kind.to_lowercase());
                    if !problems.is_empty() {
                        errs.push(field::invalid(
                            &at,
                            kind,
                            &format!(
                                "may have mixed case, but should otherwise match: {}",
                                problems.join(",")
                            ),
                        ));
                    }
                }
            },
            "metadata" => {
                if let Some(e) = decode_error(v) {
                    errs.push(field::invalid(&at, BadValue::from(v), &e));
                    continue;
                }
                // A name is not required here: the server puts one in before checking.
                let mut metadata = v.clone();
                if let Value::Object(m) = &mut metadata {
                    if m.get("name")
                        .and_then(Value::as_str)
                        .is_none_or(str::is_empty)
                    {
                        m.insert("name".to_owned(), Value::from("fakename"));
                    }
                } else {
                    metadata = serde_json::json!({"name": "fakename"});
                }
                let namespaced = metadata
                    .get("namespace")
                    .and_then(Value::as_str)
                    .is_some_and(|n| !n.is_empty());
                errs.extend(meta::validate_generic_object_meta(
                    Some(&metadata),
                    namespaced,
                    names::name_is_path_segment,
                    &at,
                ));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Structural {
        Structural::from_schema(&json!({"type": "object", "properties": {
            "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                "x-kubernetes-preserve-unknown-fields": true}}}))
        .unwrap()
    }

    #[test]
    fn embedded_metadata_decodes_as_object_meta() {
        let mut object = json!({"template": {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "a", "colour": "red", "labels": {}}}});
        let unknown = coerce(&mut object, &schema(), Some(&Path::new("spec")), false).unwrap();
        assert_eq!(unknown, ["spec.template.metadata.colour"]);
        assert_eq!(object["template"]["metadata"], json!({"name": "a"}));
        let mut object = json!({"template": {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"labels": {"a": 1}}}});
        let e = coerce(&mut object, &schema(), Some(&Path::new("spec")), false).unwrap_err();
        assert_eq!(
            e.to_string(),
            r#"spec.template.metadata: Invalid value: {"labels":{"a":1}}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string"#
        );
    }

    #[test]
    fn embedded_resources_need_a_type_and_valid_metadata() {
        let object = json!({"template": {"kind": "bad kind", "metadata": {"name": "a/b"}}});
        let lines: Vec<String> = validate(&object, &schema(), Some(&Path::new("spec")), false)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(lines[0], "spec.template.apiVersion: Required value");
        assert!(
            lines[1].starts_with(
                r#"spec.template.kind: Invalid value: "bad kind": may have mixed case"#
            )
        );
        assert_eq!(
            lines[2],
            r#"spec.template.metadata.name: Invalid value: "a/b": may not contain '/'"#
        );
    }
}
