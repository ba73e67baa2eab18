//! Values read against their structured type: checked, and turned into the set of fields they
//! hold, as the field manager does with an applied configuration or an object.
//!
//! The fields of a value are, per node:
//! - a scalar, an atomic list or an atomic object: the node itself;
//! - a granular object: each key, recursively; a key is itself in the set when its value is a
//!   scalar, `null` or `{}`, or when the object does not declare it (a map's entry);
//! - a set: each value; a list map: each item, by its key, and the item's fields.
//!
//! So `{"spec": {"replicas": 3}}` holds `.spec.replicas` but not `.spec`, and a container
//! `{"name": "app", "image": "a"}` of a list map holds `.containers[name="app"]` itself,
//! `…[name="app"].name` and `…[name="app"].image`.

mod compare;
mod items;
mod merge;
mod reconcile;
mod remove;
mod shape;
mod unchanged;
mod walk;

pub(crate) use compare::compare_with;
pub use compare::{Comparison, compare};
pub use merge::merge;
pub(crate) use merge::merge_with;
pub(crate) use reconcile::reconcile_with_schema;
pub(crate) use remove::named_fields_as_members;
pub use remove::{extract_items, remove_items};
pub(crate) use shape::Walking;

use std::fmt;

use serde_json::Value;

use crate::fieldpath::{PathElement, Set};
use crate::schema::{Schema, TypeRef};

/// What reading a value against its type may be asked to forgive.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadOptions {
    /// Two items of a list map (or a set) with the same key are allowed, as in an object the
    /// server already stores: the repeated key is then owned as one field, and its items are
    /// not looked into. Otherwise they are an error, as in an applied configuration.
    pub allow_duplicates: bool,
}

/// The fields `value` holds, read as type `ty` of `schema`; an error for each place the value
/// does not fit its type.
///
/// ```
/// use serde_json::json;
/// use smp_ssa::fieldpath::fields_v1;
/// use smp_ssa::schema::from_openapi_v3;
/// use smp_ssa::typed::{ReadOptions, field_set};
///
/// let doc = json!({"components": {"schemas": {"T": {"type": "object", "properties": {
///     "replicas": {"type": "integer"},
///     "labels": {"type": "object", "additionalProperties": {"type": "string"}},
///     "tags": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"}
/// }}}}});
/// let schema = from_openapi_v3([&doc])?;
/// let t = schema.named("T").unwrap();
/// let set = field_set(
///     &schema,
///     t,
///     &json!({"replicas": 3, "labels": {"app": "web"}, "tags": ["a"]}),
///     ReadOptions::default(),
/// )?;
/// assert_eq!(
///     fields_v1::to_string(&set),
///     r#"{"f:labels":{"f:app":{}},"f:replicas":{},"f:tags":{"v:\"a\"":{}}}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn field_set(
    schema: &Schema,
    ty: TypeRef,
    value: &Value,
    options: ReadOptions,
) -> Result<Set, ValidationErrors> {
    walk::Walk::new(schema, options, Walking::default()).root(ty, value)
}

/// [`field_set`], walking as `walking` says.
pub(crate) fn field_set_with(
    schema: &Schema,
    ty: TypeRef,
    value: &Value,
    options: ReadOptions,
    walking: Walking,
) -> Result<Set, ValidationErrors> {
    walk::Walk::new(schema, options, walking).root(ty, value)
}

/// Checks that `value` fits type `ty` of `schema`.
pub fn validate(
    schema: &Schema,
    ty: TypeRef,
    value: &Value,
    options: ReadOptions,
) -> Result<(), ValidationErrors> {
    field_set(schema, ty, value, options).map(|_| ())
}

/// The error `message` at `path`.
pub(crate) fn error_at(path: &[PathElement], message: impl Into<String>) -> ValidationError {
    ValidationError {
        path: path.iter().map(ToString::to_string).collect(),
        message: message.into(),
    }
}

/// The error of a value nested past [`smp_core::MAX_DEPTH`], if `path` is that deep.
pub(crate) fn too_deep(path: &[PathElement]) -> Option<ValidationError> {
    (path.len() > smp_core::MAX_DEPTH).then(|| {
        error_at(
            path,
            format!("nested more than {} levels deep", smp_core::MAX_DEPTH),
        )
    })
}

/// One place where a value does not fit its type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    /// Where, as the server writes paths (`.spec.template.spec.containers[name="app"]`); empty
    /// at the root.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Every place where a value does not fit its type (at least one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationErrors(pub Vec<ValidationError>);

/// One error as it is; several under `errors:`, one per line, as the server lists them.
impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.as_slice() {
            [one] => one.fmt(f),
            all => {
                f.write_str("errors:")?;
                for e in all {
                    write!(f, "\n  {e}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ValidationErrors {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fieldpath::fields_v1;
    use crate::schema::from_openapi_v3;
    use serde_json::json;

    fn schema() -> Schema {
        let doc = json!({"components": {"schemas": {"T": {"type": "object", "properties": {
            "items": {"type": "array", "x-kubernetes-list-type": "map",
                      "x-kubernetes-list-map-keys": ["id"],
                      "items": {"type": "object", "properties": {
                          "id": {"type": "string"}, "v": {"type": "integer"}}}},
            "atomic": {"type": "array", "items": {"type": "integer"}},
            "obj": {"type": "object", "properties": {"a": {"type": "string"}}},
            "any": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}
        }}}}});
        from_openapi_v3([&doc]).unwrap()
    }

    fn fields(value: serde_json::Value) -> Result<String, String> {
        let s = schema();
        field_set(&s, s.named("T").unwrap(), &value, ReadOptions::default())
            .map(|set| fields_v1::to_string(&set))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn members_and_subtrees() {
        assert_eq!(
            fields(json!({"items": [{"id": "x", "v": 1}], "atomic": [1, 2], "obj": {}, "any": {"k": {"n": 1}}})),
            Ok(r#"{"f:any":{"f:k":{".":{},"f:n":{}}},"f:atomic":{},"f:items":{"k:{\"id\":\"x\"}":{".":{},"f:id":{},"f:v":{}}},"f:obj":{}}"#.to_owned())
        );
        assert_eq!(
            fields(json!({"obj": null})),
            Ok(r#"{"f:obj":{}}"#.to_owned())
        );
    }

    #[test]
    fn errors_name_their_place() {
        assert_eq!(
            fields(json!({"items": [{"v": 1}]})),
            Err(r#".items: element 0: associative list with keys has an element that omits key field "id" (and doesn't have default value)"#.to_owned())
        );
        assert_eq!(
            fields(json!({"obj": {"b": 1}})),
            Err(".obj.b: field not declared in schema".to_owned())
        );
        assert_eq!(
            fields(json!({"atomic": [1, "x"]})),
            Err(".atomic[1]: expected numeric (int or float), got string".to_owned())
        );
        assert_eq!(
            fields(json!({"obj": [1]})),
            Err(".obj: expected map, got list".to_owned())
        );
    }

    #[test]
    fn nesting_is_bounded() {
        let mut deep = json!(1);
        for _ in 0..(smp_core::MAX_DEPTH + 10) {
            deep = json!({"k": deep});
        }
        let err = fields(json!({"any": deep})).unwrap_err();
        assert!(err.contains("nested more than"), "{err}");
    }
}
