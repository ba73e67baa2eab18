//! The options of a request's query, checked as the API server checks them before it does
//! anything (apimachinery's `ValidateListOptions`, `ValidateCreateOptions`,
//! `ValidateUpdateOptions`, `ValidatePatchOptions`): what they refuse is a 422 naming the
//! options' kind (`PatchOptions.meta.k8s.io "" is invalid: ...`), each field a cause.

use serde_json::{Value, json};

use super::call::Call;
use crate::status::{ApiError, FieldError};

/// The longest field manager name (`FieldManagerMaxLength`).
const FIELD_MANAGER_MAX: usize = 128;

/// A list's options (`ListOptions`, not a watch).
pub(super) fn list(call: &Call<'_>) -> Result<(), ApiError> {
    let mut errors = Vec::new();
    if let Some(matching) = call.query("resourceVersionMatch").filter(|m| !m.is_empty()) {
        let version = call.query("resourceVersion").unwrap_or("");
        if version.is_empty() {
            errors.push(FieldError::forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch is forbidden unless resourceVersion is provided",
            ));
        }
        if call.query("continue").is_some_and(|c| !c.is_empty()) {
            errors.push(FieldError::forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch is forbidden when continue is provided",
            ));
        }
        if !matches!(matching, "Exact" | "NotOlderThan") {
            errors.push(FieldError::not_supported(
                "resourceVersionMatch",
                &json!(matching),
                &["Exact", "NotOlderThan", ""],
            ));
        }
        if matching == "Exact" && version == "0" {
            errors.push(FieldError::forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
            ));
        }
    }
    if call.query("sendInitialEvents").is_some() {
        errors.push(FieldError::forbidden(
            "sendInitialEvents",
            "sendInitialEvents is forbidden for list",
        ));
    }
    refuse("ListOptions", errors)
}

/// A create's or an update's options.
pub(super) fn write(call: &Call<'_>, kind: &str) -> Result<(), ApiError> {
    let mut errors = Vec::new();
    common(call, &mut errors);
    refuse(kind, errors)
}

/// A patch's options: `force` only for an apply, which must name its field manager.
pub(super) fn patch(call: &Call<'_>, apply: bool) -> Result<(), ApiError> {
    let mut errors = Vec::new();
    if apply {
        if call.query("fieldManager").is_none_or(str::is_empty) {
            errors.push(FieldError::required(
                "fieldManager",
                "is required for apply patch",
            ));
        }
    } else if call.query("force").is_some() {
        errors.push(FieldError::forbidden(
            "force",
            "may not be specified for non-apply patch",
        ));
    }
    common(call, &mut errors);
    refuse("PatchOptions", errors)
}

/// What every write's options must hold: a printable field manager name of at most 128
/// bytes, `dryRun` only `All`, a known `fieldValidation`.
fn common(call: &Call<'_>, errors: &mut Vec<FieldError>) {
    let manager = call.query("fieldManager").unwrap_or("");
    if manager.len() > FIELD_MANAGER_MAX {
        errors.push(FieldError::too_long("fieldManager", FIELD_MANAGER_MAX));
    }
    for (at, c) in manager.char_indices() {
        if c.is_control() || matches!(c, '\u{ad}' | '\u{2028}' | '\u{2029}') {
            errors.push(FieldError::invalid(
                "fieldManager",
                &json!(manager),
                &format!("invalid character U+{:04X} (at position {at})", c as u32),
            ));
        }
    }
    dry_run(call.query("dryRun"), errors);
    if let Some(mode) = call.query("fieldValidation")
        && !matches!(mode, "" | "Ignore" | "Strict" | "Warn")
    {
        errors.push(FieldError::not_supported(
            "fieldValidation",
            &json!(mode),
            &["", "Ignore", "Strict", "Warn"],
        ));
    }
}

/// `dryRun`: every value `All`.
pub(super) fn dry_run(value: Option<&str>, errors: &mut Vec<FieldError>) {
    if let Some(value) = value.filter(|v| *v != "All") {
        errors.push(FieldError::not_supported(
            "dryRun",
            &Value::Array(vec![json!(value)]),
            &["All"],
        ));
    }
}

pub(super) fn refuse(kind: &str, errors: Vec<FieldError>) -> Result<(), ApiError> {
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ApiError::invalid_options(kind, &errors))
    }
}
