//! `PATCH` in its four forms, told apart by the request's content type: JSON patch (RFC 6902),
//! JSON merge patch (RFC 7386), strategic merge patch (built-in kinds; custom resources refuse
//! it, as the server does, unless the server's options turn on smp's strategic merge for them)
//! and server-side apply.

use http::StatusCode;
use serde_json::Value;
use smp_ssa::managedfields::ApplyOptions;

use super::write::{
    commit, conflict, manager_error, prepare_update, record_update, with_field_manager,
};
use super::{Call, RETRIES};
use crate::object::meta;
use crate::status::ApiError;

pub(super) const JSON_PATCH: &str = "application/json-patch+json";
pub(super) const MERGE_PATCH: &str = "application/merge-patch+json";
pub(super) const STRATEGIC_MERGE_PATCH: &str = "application/strategic-merge-patch+json";
const APPLY_PATCH: &str = "application/apply-patch+yaml";

pub(super) fn patch(call: &Call<'_>, body: &[u8]) -> Result<(StatusCode, Value), ApiError> {
    call.dry_run()?;
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
    let text = std::str::from_utf8(body)
        .map_err(|_| ApiError::bad_request("the request body is not UTF-8"))?;
    if content_type == APPLY_PATCH {
        return apply(call, text);
    }
    let patch: Value = serde_json::from_str(text)
        .map_err(|e| ApiError::bad_request(format!("error decoding patch: {e}")))?;
    let name = call.info.name.clone();
    for _ in 0..RETRIES {
        let current = call.current()?;
        let invalid = |message: String| {
            ApiError::invalid(&call.resource.group, &call.resource.kind, &name, message)
        };
        let patched = patched(
            &content_type,
            &current.object,
            &patch,
            strategic,
            accepted,
            invalid,
        )?;
        let mut patched = patched;
        call.validate_fields(&mut patched)?;
        // A patch that sets the resource version asks for that version, as an update does.
        let expected = meta(&patched, "resourceVersion").to_owned();
        if !expected.is_empty() && expected != current.revision.to_string() {
            return Err(conflict(call));
        }
        let new = prepare_update(call, &current.object, patched)?;
        let new = record_update(call, &current.object, new)?;
        match commit(call, &current, new) {
            Ok(object) => return Ok((StatusCode::OK, object)),
            Err(_) if expected.is_empty() => continue,
            Err(_) => return Err(conflict(call)),
        }
    }
    Err(conflict(call))
}

/// `current` with a JSON patch, a merge patch or (with `strategic`'s schema) a strategic merge
/// patch applied; `invalid` words what the patch cannot do to it.
pub(super) fn patched(
    content_type: &str,
    current: &Value,
    patch: &Value,
    strategic: Option<smp_core::schema::Node<'_>>,
    accepted: &[&str],
    invalid: impl Fn(String) -> ApiError,
) -> Result<Value, ApiError> {
    match content_type {
        JSON_PATCH => {
            let operations: json_patch::Patch = serde_json::from_value(patch.clone())
                .map_err(|e| ApiError::bad_request(format!("error decoding patch: {e}")))?;
            let mut object = current.clone();
            json_patch::patch(&mut object, &operations).map_err(|e| invalid(e.to_string()))?;
            Ok(object)
        }
        MERGE_PATCH => {
            let mut object = current.clone();
            json_patch::merge(&mut object, patch);
            Ok(object)
        }
        _ => {
            let schema = strategic.ok_or_else(|| ApiError::unsupported_media_type(accepted))?;
            smp_core::apply(current, patch, schema).map_err(|e| invalid(e.to_string()))
        }
    }
}

/// Server-side apply: the configuration merged by the field manager, which records the
/// manager's fields and refuses to take other managers' unless forced. An object that does not
/// exist is created.
fn apply(call: &Call<'_>, text: &str) -> Result<(StatusCode, Value), ApiError> {
    let manager = call
        .query("fieldManager")
        .filter(|m| !m.is_empty())
        .ok_or_else(|| {
            ApiError::bad_request(
                "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is \
                 required for apply patch",
            )
        })?
        .to_owned();
    let force = match call.query("force") {
        None | Some("") | Some("false") => false,
        Some("true") => true,
        Some(other) => return Err(ApiError::bad_request(format!("invalid force {other:?}"))),
    };
    let mut applied = smp_core::parse_document(text, smp_core::DocRole::Document)
        .map_err(|e| ApiError::bad_request(format!("error decoding YAML: {e}")))?;
    call.validate_fields(&mut applied)?;
    let name = call.info.name.clone();
    let key = call.key(&name);
    let options = ApplyOptions { force };
    let unknown = || ApiError::unsupported_media_type(&[JSON_PATCH, MERGE_PATCH]);
    for _ in 0..RETRIES {
        let current = call.state.store.get(&key);
        let Some(current) = current else {
            // Created by the apply: written as a create would write it.
            let given = meta(&applied, "name");
            if given != name {
                return Err(ApiError::bad_request(format!(
                    "the name of the object ({given}) does not match the name on the URL ({name})"
                )));
            }
            let object = with_field_manager(call, |fm| fm.apply(None, &applied, &manager, options))
                .ok_or_else(unknown)?
                .map_err(|e| manager_error(call, &name, e))?;
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
        let new = prepare_update(call, &current.object, object)?;
        match commit(call, &current, new) {
            Ok(object) => return Ok((StatusCode::OK, object)),
            Err(_) => continue,
        }
    }
    Err(conflict(call))
}
