//! A CRD's `default`s as the server checks them on create (apiextensions-apiserver
//! `pkg/apiserver/schema/defaulting/validation.go`, `ValidateDefaults`): each default, read as
//! a value of its own node, holds no member that node would prune, makes valid embedded
//! resources, meets the node's value constraints, and passes its `x-kubernetes-validations`
//! rules (with `oldSelf` the default itself, then, ratcheting being on, without one).
//!
//! A default inside an embedded resource's `metadata`, `kind` or `apiVersion` is checked as
//! the resource it makes: put in an object of its own (`apiVersion: validation/v1`, `kind:
//! Validation`), which must decode and validate as an embedded resource. Defaults under
//! `additionalProperties` are not visited, as upstream.

use serde_json::{Value, json};

use crate::customresource::structural::{MAX_DEPTH, Structural};
use crate::customresource::{cel, objectmeta, openapi, pruning};
use crate::validation::field::{self, BadValue, ErrorList, Path};

/// One step from an embedded resource's root down to a default.
#[derive(Clone)]
enum Step<'s> {
    Member(&'s str),
    Item,
}

/// The errors of the defaults of `schema` (a version's root), at `path`.
pub fn validate_defaults(schema: &Structural, path: &Path) -> ErrorList {
    let mut errs = ErrorList::new();
    // The root is a resource, whatever its schema says.
    let mut root = schema.clone();
    root.embedded_resource = true;
    node(&root, &root, path, false, &mut Vec::new(), &mut errs, 0);
    errs
}

/// The object a default at `steps` below an embedded resource's root makes.
fn surrounding(default: &Value, steps: &[Step]) -> Value {
    let mut value = default.clone();
    for step in steps.iter().rev() {
        value = match step {
            Step::Member(key) => json!({ *key: value }),
            Step::Item => json!([value]),
        };
    }
    if let Value::Object(members) = &mut value {
        members
            .entry("kind")
            .or_insert_with(|| Value::from("Validation"));
        members
            .entry("apiVersion")
            .or_insert_with(|| Value::from("validation/v1"));
    }
    value
}

/// Go's `ToAggregate` text of a list: one error bare, several in brackets.
fn aggregate(errs: &ErrorList) -> String {
    let mut seen = std::collections::HashSet::new();
    let lines: Vec<String> = errs
        .iter()
        .map(ToString::to_string)
        .filter(|l| seen.insert(l.clone()))
        .collect();
    if lines.len() == 1 {
        lines[0].clone()
    } else {
        format!("[{}]", lines.join(", "))
    }
}

#[allow(clippy::too_many_arguments)]
fn node<'s>(
    s: &'s Structural,
    root: &'s Structural,
    path: &Path,
    inside_meta: bool,
    steps: &mut Vec<Step<'s>>,
    errs: &mut ErrorList,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    // An embedded resource starts a new surrounding object.
    let (root, inside_meta, mut fresh) = if s.embedded_resource {
        (s, false, Vec::new())
    } else {
        (root, inside_meta, std::mem::take(steps))
    };
    let steps_here = &mut fresh;
    let resource_root = std::ptr::eq(s, root);
    if let Some(default) = &s.default {
        let at = path.child("default");
        if inside_meta {
            let mut object = surrounding(default, steps_here);
            let refused = match objectmeta::coerce(&mut object, root, None, true) {
                Err(e) => Some(e.to_string()),
                Ok(_) => {
                    let found = objectmeta::validate(&object, root, None, true);
                    (!found.is_empty()).then(|| aggregate(&found))
                }
            };
            match refused {
                Some(why) => errs.push(field::invalid(
                    &at,
                    BadValue::from(default),
                    &format!("must result in valid metadata: {why}"),
                )),
                None => check_value(default, s, &at, resource_root, errs),
            }
        } else {
            let mut pruned = default.clone();
            pruning::prune_with(&mut pruned, Some(s), s.embedded_resource);
            if &pruned != default {
                errs.push(field::invalid(
                    &at,
                    BadValue::Json(default.clone()),
                    "must not have unknown fields",
                ));
            }
            // Decoding's coercion changes the default the later checks see, as upstream.
            let mut coerced = default.clone();
            match objectmeta::coerce(&mut coerced, s, Some(&at), s.embedded_resource) {
                Err(e) => errs.push(e),
                Ok(_) => {
                    let found = objectmeta::validate(&coerced, s, Some(&at), s.embedded_resource);
                    if found.is_empty() {
                        check_value(&coerced, s, &at, resource_root, errs);
                    } else {
                        errs.extend(found);
                    }
                }
            }
        }
    }
    if let Some(items) = s.items.as_deref() {
        steps_here.push(Step::Item);
        node(
            items,
            root,
            &path.child("items"),
            inside_meta,
            steps_here,
            errs,
            depth + 1,
        );
        steps_here.pop();
    }
    let properties_path = path.child("properties");
    for (key, member) in &s.properties {
        let member_inside_meta = inside_meta
            || s.embedded_resource && matches!(key.as_str(), "metadata" | "apiVersion" | "kind");
        steps_here.push(Step::Member(key));
        node(
            member,
            root,
            &properties_path.key(key),
            member_inside_meta,
            steps_here,
            errs,
            depth + 1,
        );
        steps_here.pop();
    }
    if !s.embedded_resource {
        *steps = fresh;
    }
}

/// The value constraints of `s` on a default, then (when they hold) its rules.
fn check_value(
    default: &Value,
    s: &Structural,
    at: &Path,
    resource_root: bool,
    errs: &mut ErrorList,
) {
    let name = at.render();
    // The default is validated as a value of its own, its errors placed under `default`.
    let mut value_errors = openapi::validate_value(default, s);
    for e in &mut value_errors {
        e.field = if e.field == "<nil>" {
            name.clone()
        } else {
            format!("{name}.{}", e.field)
        };
    }
    if !value_errors.is_empty() {
        errs.extend(value_errors);
    } else if s.has_rules {
        let with_old = cel::validate_at(default, Some(default), s, &name, resource_root);
        if with_old.is_empty() {
            errs.extend(cel::validate_at(default, None, s, &name, resource_root));
        } else {
            errs.extend(with_old);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn lines(schema: serde_json::Value) -> Vec<String> {
        let s = Structural::from_schema(&schema).unwrap();
        validate_defaults(&s, &Path::names(&["spec", "validation", "openAPIV3Schema"]))
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn a_default_must_fit_its_schema() {
        assert_eq!(
            lines(
                json!({"type": "object", "properties": {"spec": {"type": "object",
                "properties": {"x": {"type": "integer", "default": "string"}}}}})
            ),
            [
                "spec.validation.openAPIV3Schema.properties[spec].properties[x].default: Invalid value: \"string\":  in body must be of type integer: \"string\""
            ]
        );
    }

    #[test]
    fn a_default_may_not_hold_what_pruning_drops() {
        assert_eq!(
            lines(
                json!({"type": "object", "properties": {"spec": {"type": "object",
                "default": {"a": 1}, "properties": {"b": {"type": "integer"}}}}})
            ),
            [
                r#"spec.validation.openAPIV3Schema.properties[spec].default: Invalid value: {"a":1}: must not have unknown fields"#
            ]
        );
    }

    #[test]
    fn a_default_must_pass_its_rules() {
        assert_eq!(
            lines(
                json!({"type": "object", "properties": {"spec": {"type": "object",
                "properties": {"x": {"type": "integer", "default": 0,
                    "x-kubernetes-validations": [{"rule": "self > 0"}]}}}}})
            ),
            [
                "spec.validation.openAPIV3Schema.properties[spec].properties[x].default: Invalid value: \"integer\": failed rule: self > 0"
            ]
        );
    }
}
