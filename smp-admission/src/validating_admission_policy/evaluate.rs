//! A policy's expressions over one write (`validator.Validate`): its match conditions, then
//! its variables, then each validation, whose failure carries its message.

use std::collections::HashMap;
use std::sync::Arc;

use kube_cel::cel::Value as Cel;
use kube_cel::cel::objects::{Key, Map};
use serde_json::{Value, json};

use super::Request;
use crate::customresource::cel::{Expression, untyped};

/// The longest message a `messageExpression` may give (`MaxEvaluatedMessageExpressionSizeBytes`).
const MAX_MESSAGE_BYTES: usize = 5 * 1024;

/// An expression as written and as compiled (or why it does not compile).
struct Source {
    text: String,
    compiled: Result<Expression, String>,
}

impl Source {
    fn of(entry: &Value, key: &str) -> Option<Source> {
        let text = entry.get(key)?.as_str()?.to_owned();
        let compiled = Expression::compile(&text);
        Some(Source { text, compiled })
    }

    /// The value, or the error an evaluation reports (`expression '<x>' resulted in error:
    /// <why>`, or the compile error).
    fn run(&self, bindings: &[(&str, Cel)]) -> Result<Cel, String> {
        match &self.compiled {
            Err(e) => Err(format!("compilation error: {e}")),
            Ok(expression) => expression
                .evaluate(bindings)
                .map_err(|e| format!("expression '{}' resulted in error: {e}", self.text)),
        }
    }
}

struct Validation {
    expression: Source,
    message: String,
    message_expression: Option<Source>,
    reason: &'static str,
}

/// A policy's expressions, compiled once for the write.
pub(super) struct Policy {
    match_conditions: Vec<Source>,
    variables: Vec<(String, Source)>,
    validations: Vec<Validation>,
    /// `failurePolicy: Fail` (the default): an expression's error refuses the write.
    fail: bool,
}

/// A failed validation: its message and the reason the refusal carries.
pub(super) struct Failure {
    pub(super) message: String,
    pub(super) reason: &'static str,
}

fn entries<'v>(spec: &'v Value, key: &str) -> impl Iterator<Item = &'v Value> {
    spec.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

impl Policy {
    pub(super) fn compile(policy: &Value) -> Policy {
        let spec = policy.get("spec").unwrap_or(&Value::Null);
        let reason = |v: &Value| match v.get("reason").and_then(Value::as_str) {
            Some("Unauthorized") => "Unauthorized",
            Some("Forbidden") => "Forbidden",
            Some("RequestEntityTooLarge") => "RequestEntityTooLarge",
            _ => "Invalid",
        };
        Policy {
            match_conditions: entries(spec, "matchConditions")
                .filter_map(|c| Source::of(c, "expression"))
                .collect(),
            variables: entries(spec, "variables")
                .filter_map(|v| {
                    Some((
                        v.get("name")?.as_str()?.to_owned(),
                        Source::of(v, "expression")?,
                    ))
                })
                .collect(),
            validations: entries(spec, "validations")
                .filter_map(|v| {
                    Some(Validation {
                        expression: Source::of(v, "expression")?,
                        message: v
                            .get("message")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_owned(),
                        message_expression: Source::of(v, "messageExpression"),
                        reason: reason(v),
                    })
                })
                .collect(),
            fail: spec.get("failurePolicy").and_then(Value::as_str) != Some("Ignore"),
        }
    }

    /// The failed validations of the write with `params` (the refusals its errors make under
    /// `failurePolicy: Fail`); none when a match condition is false.
    pub(super) fn validate(
        &self,
        request: &Request<'_>,
        params: Option<&Value>,
        namespace: Option<&Value>,
    ) -> Vec<Failure> {
        let or_null = |v: Option<&Value>| v.map_or(Cel::Null, untyped);
        let mut bindings = vec![
            ("object", or_null(request.object)),
            ("oldObject", or_null(request.old_object)),
            ("params", or_null(params)),
            ("request", untyped(&request_value(request))),
            // Match conditions see no namespace object.
            ("namespaceObject", Cel::Null),
        ];
        let error = |message: String| Failure {
            message,
            reason: "Invalid",
        };
        let mut errors = Vec::new();
        for condition in &self.match_conditions {
            match condition.run(&bindings) {
                Ok(Cel::Bool(false)) => return Vec::new(),
                Ok(_) => {}
                Err(e) => errors.push(e),
            }
        }
        if !errors.is_empty() {
            if !self.fail {
                return Vec::new();
            }
            let message = if errors.len() == 1 {
                errors.remove(0)
            } else {
                format!("[{}]", errors.join(", "))
            };
            return vec![error(message)];
        }
        bindings[4].1 = or_null(namespace);
        // Each variable sees those before it. The map is shared with the evaluation and
        // grown in place once the evaluation has let it go.
        let mut variables: Arc<HashMap<Key, Cel>> = Arc::default();
        bindings.push(("variables", Cel::Null));
        for (name, source) in &self.variables {
            bindings[5].1 = Cel::Map(Map {
                map: variables.clone(),
            });
            let value = source.run(&bindings);
            bindings[5].1 = Cel::Null;
            if let Ok(value) = value {
                Arc::make_mut(&mut variables).insert(Key::String(Arc::new(name.clone())), value);
            }
        }
        bindings[5].1 = Cel::Map(Map { map: variables });
        let mut failures = Vec::new();
        for validation in &self.validations {
            match validation.expression.run(&bindings) {
                Ok(Cel::Bool(true)) => {}
                Ok(_) => failures.push(Failure {
                    message: validation.message_for(&bindings),
                    reason: validation.reason,
                }),
                Err(e) if self.fail => failures.push(error(e)),
                Err(_) => {}
            }
        }
        failures
    }
}

impl Validation {
    /// The message of a failed validation: its `messageExpression`'s string (trimmed, one line,
    /// at most 5 KiB), else its `message`, else `failed expression: <expression>`.
    fn message_for(&self, bindings: &[(&str, Cel)]) -> String {
        let evaluated = self
            .message_expression
            .as_ref()
            .and_then(|m| m.run(bindings).ok())
            .and_then(|v| match v {
                Cel::String(s) => Some(s.trim().to_owned()),
                _ => None,
            })
            .filter(|m| m.len() <= MAX_MESSAGE_BYTES && !m.contains('\n'))
            .unwrap_or_default();
        if !evaluated.is_empty() {
            return evaluated;
        }
        let message = self.message.trim();
        if !message.is_empty() {
            return message.to_owned();
        }
        format!("failed expression: {}", self.expression.text.trim())
    }
}

/// `request`: the admission request as the policy reads it (`CreateAdmissionRequest`).
fn request_value(request: &Request<'_>) -> Value {
    let kind = json!({"group": request.group, "version": request.version, "kind": request.kind});
    let resource =
        json!({"group": request.group, "version": request.version, "resource": request.resource});
    let mut value = json!({
        "uid": "",
        "kind": kind,
        "resource": resource,
        "requestKind": kind,
        "requestResource": resource,
        "operation": request.operation,
        "userInfo": request.user_info,
        "object": null,
        "oldObject": null,
        "dryRun": request.dry_run,
        "options": null,
    });
    for (key, v) in [
        ("subResource", request.subresource),
        ("requestSubResource", request.subresource),
        ("name", request.name),
        ("namespace", request.namespace),
    ] {
        if !v.is_empty() {
            value[key] = json!(v);
        }
    }
    value
}
