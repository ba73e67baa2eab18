//! The scale subresource's checks of a custom resource (apiextensions-apiserver
//! `pkg/registry/customresource/validator.go`: `ValidateScaleSpec`, `ValidateScaleStatus`):
//! where the CRD's `subresources.scale` points, the replica counts must be integers from 0 to
//! 2147483647, and the label selector a string. Errors name the CRD's JSON path as written
//! (`.spec.replicas`), as the server's do.

use serde_json::Value;

use crate::validation::field::{self, BadValue, ErrorList, FieldError};

/// A version's `subresources.scale`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scale {
    /// `specReplicasPath` (`.spec.replicas`).
    pub spec_replicas_path: String,
    /// `statusReplicasPath` (`.status.replicas`).
    pub status_replicas_path: String,
    /// `labelSelectorPath`, if given.
    pub label_selector_path: Option<String>,
}

impl Scale {
    /// The scale subresource of a CRD version, if it has one.
    pub fn of_version(version: &Value) -> Option<Scale> {
        let scale = version
            .pointer("/subresources/scale")
            .filter(|s| s.is_object())?;
        let text = |key: &str| {
            scale
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        Some(Scale {
            spec_replicas_path: text("specReplicasPath"),
            status_replicas_path: text("statusReplicasPath"),
            label_selector_path: scale
                .get("labelSelectorPath")
                .and_then(Value::as_str)
                .map(str::to_owned),
        })
    }
}

/// How Go's `%v` and `%T` print a value found where a map or a number was expected.
fn go_value_and_type(v: &Value) -> (String, &'static str) {
    match v {
        Value::Null => ("<nil>".to_owned(), "<nil>"),
        Value::Bool(b) => (b.to_string(), "bool"),
        Value::Number(n) => match n.as_i64() {
            Some(i) => (i.to_string(), "int64"),
            None => (field::go_float(n.as_f64().unwrap_or(0.0)), "float64"),
        },
        Value::String(s) => (s.clone(), "string"),
        Value::Array(_) => ("[...]".to_owned(), "[]interface {}"),
        Value::Object(_) => ("map[...]".to_owned(), "map[string]interface {}"),
    }
}

/// `unstructured.NestedFieldNoCopy` along `path` (`.a.b`): the value there, if any, or the
/// accessor's complaint about a step that is not an object.
fn nested<'v>(object: &'v Value, path: &str) -> Result<Option<&'v Value>, String> {
    let steps: Vec<&str> = path.trim_start_matches('.').split('.').collect();
    let mut at = object;
    for (i, step) in steps.iter().enumerate() {
        match at {
            Value::Null => return Ok(None),
            Value::Object(members) => match members.get(*step) {
                Some(v) => at = v,
                None => return Ok(None),
            },
            other => {
                let (shown, kind) = go_value_and_type(other);
                return Err(format!(
                    ".{} accessor error: {shown} is of the type {kind}, expected map[string]interface{{}}",
                    steps[..=i].join(".")
                ));
            }
        }
    }
    Ok(Some(at))
}

/// The checks of one replica count at `path`.
fn replicas(object: &Value, path: &str, errs: &mut ErrorList) {
    let at = field::Path::new(path);
    let value = nested(object, path).and_then(|found| match found {
        None | Some(Value::Null) => Ok(0),
        Some(Value::Number(n)) if n.as_i64().is_some() => Ok(n.as_i64().unwrap_or(0)),
        Some(other) => {
            let (shown, kind) = go_value_and_type(other);
            Err(format!(
                "{path} accessor error: {shown} is of the type {kind}, expected int64"
            ))
        }
    });
    let error = |value: i64, detail: &str| FieldError {
        kind: field::ErrorType::Invalid,
        field: at.render(),
        value: BadValue::Int(value),
        detail: detail.to_owned(),
    };
    match value {
        Err(e) => errs.push(error(0, &e)),
        Ok(n) if n < 0 => errs.push(error(n, "should be a non-negative integer")),
        Ok(n) if n > i64::from(i32::MAX) => {
            errs.push(error(n, "should be less than or equal to 2147483647"));
        }
        Ok(_) => {}
    }
}

/// `ValidateScaleSpec`.
pub fn validate_spec(object: &Value, scale: &Scale, errs: &mut ErrorList) {
    replicas(object, &scale.spec_replicas_path, errs);
}

/// `ValidateScaleStatus`.
pub fn validate_status(object: &Value, scale: &Scale, errs: &mut ErrorList) {
    replicas(object, &scale.status_replicas_path, errs);
    if let Some(path) = &scale.label_selector_path {
        let found = nested(object, path).and_then(|found| match found {
            None | Some(Value::Null) | Some(Value::String(_)) => Ok(()),
            Some(other) => {
                let (shown, kind) = go_value_and_type(other);
                Err(format!(
                    "{path} accessor error: {shown} is of the type {kind}, expected string"
                ))
            }
        });
        if let Err(e) = found {
            errs.push(field::invalid(&field::Path::new(path), "", &e));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn scale() -> Scale {
        Scale {
            spec_replicas_path: ".spec.replicas".into(),
            status_replicas_path: ".status.replicas".into(),
            label_selector_path: Some(".status.selector".into()),
        }
    }

    fn lines(object: Value) -> Vec<String> {
        let mut errs = ErrorList::new();
        validate_spec(&object, &scale(), &mut errs);
        validate_status(&object, &scale(), &mut errs);
        errs.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn replica_counts_are_checked_where_the_crd_points() {
        assert!(lines(json!({"spec": {"replicas": 3}})).is_empty());
        assert_eq!(
            lines(json!({"spec": {"replicas": -1}, "status": {"replicas": 3000000000i64}})),
            [
                ".spec.replicas: Invalid value: -1: should be a non-negative integer",
                ".status.replicas: Invalid value: 3000000000: should be less than or equal to 2147483647"
            ]
        );
        assert_eq!(
            lines(json!({"spec": {"replicas": "abc"}, "status": {"selector": 1}})),
            [
                ".spec.replicas: Invalid value: 0: .spec.replicas accessor error: abc is of the type string, expected int64",
                r#".status.selector: Invalid value: "": .status.selector accessor error: 1 is of the type int64, expected string"#
            ]
        );
    }
}
