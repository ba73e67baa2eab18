//! The authorization group's reviews, none of which is stored: `SubjectAccessReview`,
//! `LocalSubjectAccessReview`, `SelfSubjectAccessReview` and `SelfSubjectRulesReview`
//! (`pkg/registry/authorization`). This server authorizes every request, as a server run with
//! `--authorization-mode=AlwaysAllow` does, and its reviews say so: every access is allowed,
//! and a user's rules are every verb on everything.

use http::StatusCode;
use serde_json::{Value, json};

use super::call::Call;

use super::body;
use crate::object::text_at;
use crate::status::{ApiError, FieldError};

fn present(review: &Value, member: &str) -> bool {
    review
        .pointer(&format!("/spec/{member}"))
        .is_some_and(|v| !v.is_null())
}

/// Answers a review of `kind` (the resource's kind).
pub(super) fn review(call: &Call<'_>, body: &[u8]) -> Result<(StatusCode, Value), ApiError> {
    let mut review = body::read_object(call, body)?;
    let kind = call.resource.kind.as_str();
    let mut errors = Vec::new();
    if kind != "SelfSubjectRulesReview" {
        let resource = present(&review, "resourceAttributes");
        let non_resource = present(&review, "nonResourceAttributes");
        if resource && non_resource {
            errors.push(FieldError::invalid(
                "spec.nonResourceAttributes",
                review
                    .pointer("/spec/nonResourceAttributes")
                    .unwrap_or(&Value::Null),
                "cannot be specified in combination with resourceAttributes",
            ));
        }
        if !resource && !non_resource {
            errors.push(FieldError::invalid(
                "spec.resourceAttributes",
                &Value::Null,
                "exactly one of nonResourceAttributes or resourceAttributes must be specified",
            ));
        }
    }
    if matches!(kind, "SubjectAccessReview" | "LocalSubjectAccessReview") {
        let user = text_at(&review, "/spec/user");
        let groups = review
            .pointer("/spec/groups")
            .and_then(Value::as_array)
            .is_some_and(|g| !g.is_empty());
        if user.is_empty() && !groups {
            errors.push(FieldError::invalid(
                "spec.user",
                &json!(user),
                "at least one of user or group must be specified",
            ));
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::invalid_fields(
            "authorization.k8s.io",
            kind,
            "",
            &errors,
        ));
    }
    if kind == "LocalSubjectAccessReview" {
        let asked = text_at(&review, "/spec/resourceAttributes/namespace");
        if present(&review, "resourceAttributes") && asked != call.info.namespace {
            return Err(ApiError::bad_request(format!(
                "spec.resourceAttributes.namespace must match namespace: {}",
                call.info.namespace
            )));
        }
    }
    if kind == "SelfSubjectRulesReview" && text_at(&review, "/spec/namespace").is_empty() {
        return Err(ApiError::bad_request("no namespace on request"));
    }
    if !review.get("metadata").is_some_and(Value::is_object) {
        review["metadata"] = json!({});
    }
    if review["metadata"].get("creationTimestamp").is_none() {
        review["metadata"]["creationTimestamp"] = Value::Null;
    }
    review["status"] = if kind == "SelfSubjectRulesReview" {
        json!({
            "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]}],
            "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}],
            "incomplete": false,
        })
    } else {
        json!({"allowed": true})
    };
    Ok((StatusCode::CREATED, review))
}
