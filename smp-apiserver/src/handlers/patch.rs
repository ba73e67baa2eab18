//! `PATCH` in its four forms, told apart by the request's content type: JSON patch (RFC 6902),
//! JSON merge patch (RFC 7386), strategic merge patch (built-in kinds; custom resources refuse
//! it, as the server does, unless the server's options turn on smp's strategic merge for them)
//! and server-side apply.

use http::StatusCode;
use serde_json::Value;
use smp_ssa::managedfields::ApplyOptions;

use super::body::conflict;
use super::call::{Call, RETRIES};
use super::options;
use super::write::{
    manager_error, prepare_update, record_update, store_update, with_field_manager,
};
use crate::jsonpatch::{self, Limits, PatchError};
use crate::object::meta;
use crate::status::ApiError;
use crate::validation::{self, FieldValidation};

pub(super) const JSON_PATCH: &str = "application/json-patch+json";
pub(super) const MERGE_PATCH: &str = "application/merge-patch+json";
pub(super) const STRATEGIC_MERGE_PATCH: &str = "application/strategic-merge-patch+json";
const APPLY_PATCH: &str = "application/apply-patch+yaml";

pub(super) fn patch(call: &Call<'_>, body: &[u8]) -> Result<(StatusCode, Value), ApiError> {
    let content_type = call.media_type();
    let api_version = call.resource.api_version();
    let strategic = match smp_types::lookup(&api_version, &call.resource.kind) {
        Some(kind) => Some(kind.schema()),
        None => call
            .served
            .strategic
            .as_ref()
            .and_then(|crds| crds.lookup(&api_version, &call.resource.kind))
            .map(smp_core::Schema::root),
    };
    let accepted: &[&str] = if strategic.is_some() {
        &[JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, APPLY_PATCH]
    } else {
        &[JSON_PATCH, MERGE_PATCH, APPLY_PATCH]
    };
    if !accepted.contains(&content_type.as_str()) {
        return Err(ApiError::unsupported_media_type(accepted));
    }
    options::patch(call, content_type == APPLY_PATCH)?;
    let text = std::str::from_utf8(body)
        .map_err(|_| ApiError::bad_request("the request body is not UTF-8"))?;
    if content_type == APPLY_PATCH {
        return apply(call, text);
    }
    let mode = FieldValidation::parse(call.query("fieldValidation"))?;
    // The server reads a JSON patch strictly first, unless told to ignore what it does not know
    // (`applyJSPatch`): a patch of the wrong shape is refused, an operation's unknown member is
    // warned of or, with `Strict`, refused once the patch has applied.
    let mut unknown = Vec::new();
    if content_type == JSON_PATCH && mode != FieldValidation::Ignore {
        unknown = jsonpatch::strict_problems(text)
            .map_err(|e| ApiError::bad_request(format!("error decoding patch: {e}")))?;
    }
    let name = call.info.name.clone();
    for _ in 0..RETRIES {
        let current = call.current()?;
        let invalid = |message: String| {
            ApiError::invalid(&call.resource.group, &call.resource.kind, &name, message)
        };
        let mut patched = patched(
            &content_type,
            &current.object,
            text,
            strategic,
            accepted,
            invalid,
        )?;
        if !unknown.is_empty() {
            if mode == FieldValidation::Strict {
                return Err(ApiError::invalid_patch(
                    &patched,
                    &format!("strict decoding error: {}", unknown.join(", ")),
                ));
            }
            let mut warnings = call.warnings.borrow_mut();
            warnings.extend(unknown.drain(..).map(|w| validation::warning_header(&w)));
        }
        call.validate_fields(&mut patched, super::call::ReadAs::Patched)?;
        call.default_object(&mut patched);
        // A patch that sets the resource version asks for that version, as an update does.
        let expected = meta(&patched, "resourceVersion").to_owned();
        if !expected.is_empty() && expected != current.revision.to_string() {
            return Err(conflict(call));
        }
        let new = prepare_update(call, &current.object, patched)?;
        let new = record_update(call, &current.object, new)?;
        match store_update(call, &current, new)? {
            Ok(object) => return Ok((StatusCode::OK, object)),
            Err(_) if expected.is_empty() => continue,
            Err(_) => return Err(conflict(call)),
        }
    }
    Err(conflict(call))
}

/// `current` with a JSON patch, a merge patch or (with `strategic`'s schema) a strategic merge
/// patch applied, each as the API server applies it; `invalid` words what a strategic merge
/// patch cannot do to it. The result is an object.
pub(super) fn patched(
    content_type: &str,
    current: &Value,
    patch: &str,
    strategic: Option<smp_core::schema::Node<'_>>,
    accepted: &[&str],
    invalid: impl Fn(String) -> ApiError,
) -> Result<Value, ApiError> {
    let refused = |e: PatchError| match e {
        PatchError::Malformed(message) => ApiError::bad_request(message),
        PatchError::TooManyOperations { .. } => ApiError::entity_too_large(&e.to_string()),
        PatchError::Failed(_) => ApiError::patch_not_applied(),
        PatchError::Crash => ApiError::panicked(),
    };
    let object = match content_type {
        JSON_PATCH => jsonpatch::apply(current, patch, &Limits::default()).map_err(refused)?,
        MERGE_PATCH => jsonpatch::merge(current, patch).map_err(refused)?,
        _ => {
            let schema = strategic.ok_or_else(|| ApiError::unsupported_media_type(accepted))?;
            let patch: Value = serde_json::from_str(patch)
                .map_err(|e| ApiError::bad_request(format!("error decoding patch: {e}")))?;
            smp_core::apply(current, &patch, schema).map_err(|e| invalid(e.to_string()))?
        }
    };
    if !object.is_object() {
        // The server's decoder refuses a patched document that is not an object.
        let message = format!(
            "json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
            if object.is_array() { "array" } else { "value" }
        );
        return Err(ApiError::invalid_patch(&object, &message));
    }
    Ok(object)
}

/// Server-side apply: the configuration merged by the field manager, which records the
/// manager's fields and refuses to take other managers' unless forced. An object that does not
/// exist is created.
fn apply(call: &Call<'_>, text: &str) -> Result<(StatusCode, Value), ApiError> {
    // (`options::patch` refused an apply without a field manager.)
    let manager = call.query("fieldManager").unwrap_or("").to_owned();
    let force = match call.query("force") {
        None | Some("") | Some("false") => false,
        Some("true") => true,
        Some(other) => return Err(ApiError::bad_request(format!("invalid force {other:?}"))),
    };
    let mut applied = smp_core::parse_document(text, smp_core::DocRole::Document)
        .map_err(|e| ApiError::bad_request(format!("error decoding YAML: {e}")))?;
    call.validate_fields(&mut applied, super::call::ReadAs::Applied)?;
    let name = call.info.name.clone();
    let options = ApplyOptions { force };
    let unknown = || ApiError::unsupported_media_type(&[JSON_PATCH, MERGE_PATCH]);
    for _ in 0..RETRIES {
        let current = call.current().ok();
        let Some(current) = current else {
            // Created by the apply: written as a create would write it.
            let given = meta(&applied, "name");
            if given != name {
                return Err(ApiError::bad_request(format!(
                    "the name of the object ({given}) does not match the name on the URL ({name})"
                )));
            }
            let mut object =
                with_field_manager(call, |fm| fm.apply(None, &applied, &manager, options))
                    .ok_or_else(unknown)?
                    .map_err(|e| manager_error(call, &name, e))?;
            // The field manager defaults what it merged; the defaults are no manager's.
            call.default_object(&mut object);
            match super::write::create_object(call, object, false) {
                Err(e) if e.code == 409 && e.reason == "AlreadyExists" => continue,
                other => return other,
            }
        };
        let object = with_field_manager(call, |fm| {
            fm.apply(Some(&current.object), &applied, &manager, options)
        })
        .ok_or_else(unknown)?
        .map_err(|e| manager_error(call, &name, e))?;
        let mut object = object;
        call.default_object(&mut object);
        let new = prepare_update(call, &current.object, object)?;
        match store_update(call, &current, new)? {
            Ok(object) => return Ok((StatusCode::OK, object)),
            Err(_) => continue,
        }
    }
    Err(conflict(call))
}
