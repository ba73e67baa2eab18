//! ValidatingAdmissionPolicy (`ValidateValidatingAdmissionPolicy`,
//! `ValidateValidatingAdmissionPolicyUpdate`, as the strategy calls them).
//!
//! The strategy clears the status on create and keeps the old one on update; neither check
//! reads it. It also asks the authorizer whether the requester may read the parameter kind;
//! that needs the cluster's authorization and is not done here.
//!
//! Every expression (match conditions, variables, validations and their messages, audit
//! annotations) is parsed; the server also type-checks each against the variables it may
//! use (`params` only with a `paramKind`) and checks that it gives the right type (a `bool`,
//! a `string` message, a `string` or `null` annotation), which is not done here.

use std::collections::HashSet;

use serde_json::Value;

use super::conditions::{compile_error, trim, validate_match_conditions};
use super::match_resources::validate_match_resources;
use crate::validation::field::{self, BadValue, ErrorList, Path, go_json};
use crate::validation::meta::validate_generic_object_meta;
use crate::validation::names;
use crate::validation::read;

const FAILURE_POLICIES: [&str; 2] = ["Fail", "Ignore"];
/// The reasons a validation may give, sorted.
const REASONS: [&str; 3] = ["Forbidden", "Invalid", "RequestEntityTooLarge"];
/// The most audit annotations a policy may have.
const MAX_AUDIT_ANNOTATIONS: usize = 20;
/// The longest audit annotation expression: 5 KiB.
const MAX_AUDIT_EXPRESSION_LENGTH: usize = 5 * 1024;

pub(super) fn policy(obj: &Value) -> ErrorList {
    validate(obj, false)
}

/// An update skips the match conditions when neither they nor the parameter kind changed.
pub(super) fn policy_update(new: &Value, old: &Value) -> ErrorList {
    let spec = |o: &Value| o.get("spec").cloned().unwrap_or(Value::Null);
    let (new_spec, old_spec) = (spec(new), spec(old));
    let same = |key: &str| {
        read::member(&new_spec, key).is_set() == read::member(&old_spec, key).is_set()
            && read::semantic_eq(new_spec.get(key), old_spec.get(key))
    };
    validate(new, same("paramKind") && same("matchConditions"))
}

fn validate(obj: &Value, ignore_match_conditions: bool) -> ErrorList {
    let meta = obj.get("metadata");
    let mut errs = validate_generic_object_meta(
        meta,
        false,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let name = meta.map_or("", |m| read::text(m, "name"));
    let spec = obj.get("spec").unwrap_or(&Value::Null);
    validate_spec(name, spec, ignore_match_conditions, &mut errs);
    errs
}

/// `validateValidatingAdmissionPolicySpec`.
fn validate_spec(name: &str, spec: &Value, ignore_match_conditions: bool, errs: &mut ErrorList) {
    let path = Path::new("spec");
    match read::opt_text(spec, "failurePolicy") {
        None => errs.push(field::required(&path.child("failurePolicy"), "")),
        Some(policy) if !FAILURE_POLICIES.contains(&policy) => errs.push(field::not_supported(
            &path.child("failurePolicy"),
            BadValue::Json(Value::from(policy)),
            &FAILURE_POLICIES,
        )),
        Some(_) => {}
    }
    if let Some(kind) = read::member(spec, "paramKind").set_object() {
        validate_param_kind(kind, &path.child("paramKind"), errs);
    }
    let constraints = path.child("matchConstraints");
    match read::member(spec, "matchConstraints").set_object() {
        None => errs.push(field::required(&constraints, "")),
        Some(resources) => {
            validate_match_resources(resources, &constraints, errs);
            // The rules give the type information the expressions are checked with.
            if read::list(resources, "resourceRules").is_empty() {
                errs.push(field::required(&constraints.child("resourceRules"), ""));
            }
        }
    }
    if !ignore_match_conditions {
        validate_match_conditions(
            read::list(spec, "matchConditions"),
            &path.child("matchConditions"),
            errs,
        );
    }
    let variables = path.child("variables");
    for (i, variable) in read::list(spec, "variables").iter().enumerate() {
        validate_variable(variable, &variables.index(i), errs);
    }
    let validations = read::list(spec, "validations");
    let annotations = read::list(spec, "auditAnnotations");
    if validations.is_empty() && annotations.is_empty() {
        for key in ["validations", "auditAnnotations"] {
            errs.push(field::required(
                &path.child(key),
                "validations or auditAnnotations must contain at least one item",
            ));
        }
        return;
    }
    let at = path.child("validations");
    for (i, validation) in validations.iter().enumerate() {
        validate_validation(validation, &at.index(i), errs);
    }
    let at = path.child("auditAnnotations");
    if annotations.len() > MAX_AUDIT_ANNOTATIONS {
        errs.push(field::invalid(
            &at,
            BadValue::Printed(go_annotations(annotations)),
            &format!("must not have more than {MAX_AUDIT_ANNOTATIONS} auditAnnotations"),
        ));
    }
    let mut keys = HashSet::new();
    for (i, annotation) in annotations.iter().enumerate() {
        let here = at.index(i);
        validate_audit_annotation(name, annotation, &here, errs);
        let key = read::text(annotation, "key");
        if !keys.insert(key) {
            errs.push(field::duplicate(&here.child("key"), key));
        }
    }
}

/// The audit annotations as Go prints the internal list it reports: JSON objects with the
/// struct's member names (`[{"Key":"a","ValueExpression":"'v'"}]`).
fn go_annotations(annotations: &[Value]) -> String {
    let mut out = String::from("[");
    for (i, annotation) in annotations.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"Key\":");
        go_json(&Value::from(read::text(annotation, "key")), &mut out);
        out.push_str(",\"ValueExpression\":");
        go_json(
            &Value::from(read::text(annotation, "valueExpression")),
            &mut out,
        );
        out.push('}');
    }
    out.push(']');
    out
}

/// `validateParamKind`: an API version of a DNS subdomain group and a DNS-1035 version, and
/// a kind that is a DNS-1035 label once lowercased.
fn validate_param_kind(kind: &Value, path: &Path, errs: &mut ErrorList) {
    let api_version = read::text(kind, "apiVersion");
    let at = path.child("apiVersion");
    if api_version.is_empty() {
        errs.push(field::required(&at, ""));
    } else {
        let parsed = match api_version.matches('/').count() {
            _ if api_version == "/" => Ok(("", "")),
            0 => Ok(("", api_version)),
            1 => Ok(api_version.split_once('/').unwrap_or_default()),
            _ => Err(format!("unexpected GroupVersion string: {api_version}")),
        };
        match parsed {
            Err(why) => errs.push(field::invalid(&at, api_version, &why)),
            Ok((group, version)) => {
                if !group.is_empty() {
                    let problems = names::is_dns1123_subdomain(group);
                    if !problems.is_empty() {
                        errs.push(field::invalid(&at, group, &problems.join(",")));
                    }
                }
                if version.is_empty() {
                    errs.push(field::invalid(
                        &at,
                        api_version,
                        "version must be specified",
                    ));
                } else {
                    let problems = names::is_dns1035_label(version);
                    if !problems.is_empty() {
                        errs.push(field::invalid(&at, version, &problems.join(",")));
                    }
                }
            }
        }
    }
    let kind_name = read::text(kind, "kind");
    if kind_name.is_empty() {
        errs.push(field::required(&path.child("kind"), ""));
    } else {
        let problems = names::is_dns1035_label(&kind_name.to_lowercase());
        if !problems.is_empty() {
            errs.push(field::invalid(
                &path.child("kind"),
                kind_name,
                &format!(
                    "may have mixed case, but should otherwise match: {}",
                    problems.join(",")
                ),
            ));
        }
    }
}

/// `validateVariable`: a CEL identifier naming an expression that compiles.
fn validate_variable(variable: &Value, path: &Path, errs: &mut ErrorList) {
    let name = read::text(variable, "name");
    if trim(name).is_empty() {
        errs.push(field::required(
            &path.child("name"),
            "name is not specified",
        ));
    } else if !is_cel_identifier(name) {
        errs.push(field::invalid(
            &path.child("name"),
            name,
            "name is not a valid CEL identifier",
        ));
    }
    let expression = read::text(variable, "expression");
    if trim(expression).is_empty() {
        errs.push(field::required(
            &path.child("expression"),
            "expression is not specified",
        ));
    } else {
        check_compiles(expression, &path.child("expression"), errs);
    }
}

/// `[_a-zA-Z][_a-zA-Z0-9]*`, and not a reserved word.
fn is_cel_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
        && !crate::cel::is_reserved(name)
}

/// An expression compiled as written (not trimmed, so that the columns of an error are
/// the user's), reported with its text.
fn check_compiles(expression: &str, path: &Path, errs: &mut ErrorList) {
    if let Some(why) = compile_error(expression) {
        errs.push(field::invalid(path, expression, &why));
    }
}

/// `validateValidation`.
fn validate_validation(validation: &Value, path: &Path, errs: &mut ErrorList) {
    let expression = read::text(validation, "expression");
    if trim(expression).is_empty() {
        errs.push(field::required(
            &path.child("expression"),
            "expression is not specified",
        ));
    } else {
        check_compiles(expression, &path.child("expression"), errs);
    }
    let message_expression = read::text(validation, "messageExpression");
    if !message_expression.is_empty() && trim(message_expression).is_empty() {
        errs.push(field::invalid(
            &path.child("messageExpression"),
            message_expression,
            "must be non-empty if specified",
        ));
    } else if !message_expression.is_empty() {
        check_compiles(message_expression, &path.child("messageExpression"), errs);
    }
    let message = read::text(validation, "message");
    let trimmed = trim(message);
    if !message.is_empty() && trimmed.is_empty() {
        errs.push(field::invalid(
            &path.child("message"),
            message,
            "message must be non-empty if specified",
        ));
    } else if trimmed.contains(['\n', '\r']) {
        errs.push(field::invalid(
            &path.child("message"),
            message,
            "message must not contain line breaks",
        ));
    }
    if let Some(reason) = read::opt_text(validation, "reason")
        && !REASONS.contains(&reason)
    {
        errs.push(field::not_supported(
            &path.child("reason"),
            BadValue::Json(Value::from(reason)),
            &REASONS,
        ));
    }
}

/// `validateAuditAnnotation`: the key, qualified under the policy's name, and a value
/// expression that compiles (trimmed; reported as written).
fn validate_audit_annotation(policy: &str, annotation: &Value, path: &Path, errs: &mut ErrorList) {
    let key = read::text(annotation, "key");
    let key_path = path.child("key");
    if policy.is_empty() {
        errs.push(field::invalid(
            &key_path,
            key,
            "requires metadata.name be non-empty",
        ));
    } else {
        let qualified = format!("{policy}/{key}");
        for msg in names::is_qualified_name(&qualified) {
            errs.push(field::invalid(&key_path, qualified.as_str(), &msg));
        }
    }
    let expression = read::text(annotation, "valueExpression");
    let trimmed = trim(expression);
    let at = path.child("valueExpression");
    if trimmed.is_empty() {
        errs.push(field::required(&at, "valueExpression is not specified"));
    } else if trimmed.len() > MAX_AUDIT_EXPRESSION_LENGTH {
        errs.push(field::required(
            &at,
            &format!("must not exceed {MAX_AUDIT_EXPRESSION_LENGTH} bytes in length"),
        ));
    } else if let Some(why) = compile_error(trimmed) {
        errs.push(field::invalid(&at, expression, &why));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variable_names_are_cel_identifiers() {
        for ok in ["a", "_x1", "foo_bar"] {
            assert!(is_cel_identifier(ok), "{ok}");
        }
        for bad in ["", "1a", "a-b", "in", "namespace", "é"] {
            assert!(!is_cel_identifier(bad), "{bad}");
        }
    }

    #[test]
    fn audit_annotations_print_with_go_member_names() {
        let list = [serde_json::json!({"key": "a", "valueExpression": "'<v>'"})];
        assert_eq!(
            go_annotations(&list),
            r#"[{"Key":"a","ValueExpression":"'\u003cv\u003e'"}]"#
        );
    }
}
