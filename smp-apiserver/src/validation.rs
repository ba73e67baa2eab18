//! Field validation (`fieldValidation`): fields an object's type does not declare are refused
//! (`Strict`), or dropped with a warning (`Warn`, the server's default) or without one
//! (`Ignore`), as the server decodes a request body.

use serde_json::Value;
use smp_ssa::schema::{Schema, TypeRef};

use crate::status::ApiError;

/// How unknown fields are treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldValidation {
    /// Dropped silently.
    Ignore,
    /// Dropped, with a warning each.
    Warn,
    /// Refused.
    Strict,
}

impl FieldValidation {
    /// The query parameter's value (none: `Warn`).
    pub fn parse(value: Option<&str>) -> Result<FieldValidation, ApiError> {
        match value {
            None | Some("") | Some("Warn") => Ok(FieldValidation::Warn),
            Some("Ignore") => Ok(FieldValidation::Ignore),
            Some("Strict") => Ok(FieldValidation::Strict),
            Some(other) => Err(ApiError::bad_request(format!(
                "fieldValidation must be one of Ignore, Warn or Strict, not {other:?}"
            ))),
        }
    }
}

/// Takes the fields `ty` does not declare out of `object`; their paths as the server writes
/// them in its messages (`spec.template.spec.containers[0].imagePull`).
pub fn drop_unknown(schema: &Schema, ty: TypeRef, object: &mut Value) -> Vec<String> {
    let mut unknown = Vec::new();
    walk(schema, ty, object, &mut String::new(), &mut unknown, 0);
    unknown
}

fn walk(
    schema: &Schema,
    ty: TypeRef,
    value: &mut Value,
    path: &mut String,
    unknown: &mut Vec<String>,
    depth: usize,
) {
    // Deeper than the field manager looks, nothing is checked here either.
    if depth > smp_core::MAX_DEPTH {
        return;
    }
    let atom = schema.resolve(ty);
    match value {
        Value::Object(object) => {
            let Some(map) = atom.map else {
                return;
            };
            let mut gone = Vec::new();
            for (key, child) in object.iter_mut() {
                let at = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
                match map.type_of(key) {
                    Some(child_ty) => walk(schema, child_ty, child, path, unknown, depth + 1),
                    None => {
                        unknown.push(path.clone());
                        gone.push(key.clone());
                    }
                }
                path.truncate(at);
            }
            for key in gone {
                object.remove(&key);
            }
        }
        Value::Array(items) => {
            let Some(list) = atom.list else {
                return;
            };
            for (i, item) in items.iter_mut().enumerate() {
                let at = path.len();
                path.push_str(&format!("[{i}]"));
                walk(schema, list.item, item, path, unknown, depth + 1);
                path.truncate(at);
            }
        }
        _ => {}
    }
}

/// The strict decoding error's text: `strict decoding error: unknown field "spec.x", ...`.
pub fn strict_message(unknown: &[String]) -> String {
    let fields: Vec<String> = unknown
        .iter()
        .map(|f| format!("unknown field \"{f}\""))
        .collect();
    format!("strict decoding error: {}", fields.join(", "))
}

/// What the server says of unknown fields under `Strict`, bare.
pub fn strict_error(unknown: &[String]) -> ApiError {
    ApiError::bad_request(strict_message(unknown))
}

/// The 400 of a create or an update whose body has unknown fields under `Strict`, as the
/// handlers' `transformDecodeError` words it (apiserver `pkg/endpoints/handlers/rest.go`):
/// `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: ...`.
pub fn strict_body_error(object: &Value, resource_kind: &str, unknown: &[String]) -> ApiError {
    let kind = object["kind"].as_str().unwrap_or(resource_kind);
    let api_version = object["apiVersion"].as_str().unwrap_or("");
    let version = api_version.rsplit('/').next().unwrap_or(api_version);
    ApiError::bad_request(format!(
        "{kind} in version {version:?} cannot be handled as a {resource_kind}: {}",
        strict_message(unknown)
    ))
}

/// The `Warning` header value of an unknown field under `Warn`.
pub fn warning(field: &str) -> String {
    warning_header(&format!("unknown field \"{field}\""))
}

/// The `Warning` header the server sends with a warning's text: code 299, no agent, the text
/// quoted.
pub fn warning_header(text: &str) -> String {
    format!(
        "299 - \"{}\"",
        text.replace('\\', "\\\\").replace('"', "\\\"")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_fields_are_found_and_dropped() {
        let schema = smp_ssa::builtin::schema();
        let ty = schema
            .kind(&smp_ssa::schema::Gvk::of("apps/v1", "Deployment"))
            .unwrap();
        let mut d = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "labels": {"any": "label"}},
            "spec": {"replica": 3, "template": {"spec": {"containers": [
                {"name": "a", "image": "a", "imagePull": "x"}]}}}});
        let unknown = drop_unknown(schema, ty, &mut d);
        assert_eq!(
            unknown,
            ["spec.replica", "spec.template.spec.containers[0].imagePull"]
        );
        assert!(d["spec"].get("replica").is_none());
        assert_eq!(d["metadata"]["labels"]["any"], "label");
        assert_eq!(
            strict_error(&unknown).message,
            "strict decoding error: unknown field \"spec.replica\", unknown field \"spec.template.spec.containers[0].imagePull\""
        );
    }
}
