//! What a request's body holds: the object of the resource's kind, read from JSON, YAML or
//! protobuf, and the conflict a write answers when the object changed under it.

use serde_json::{Value, json};

use super::call::Call;
use crate::protobuf;
use crate::status::ApiError;

/// The body as an object of the resource's kind (`apiVersion` and `kind` filled in when
/// missing, refused when they name another).
pub(super) fn read_object(call: &Call<'_>, body: &[u8]) -> Result<Value, ApiError> {
    // Objects come as JSON or YAML, and built-in kinds also in Kubernetes' protobuf encoding;
    // CBOR and the rest are refused as the server refuses a media type it does not take (415,
    // naming those it does). Custom resources have no protobuf form.
    let (api_version, kind) = expected_kind(call);
    let protobuf = protobuf::has_protobuf(&api_version, &kind);
    let media_type = call.media_type();
    let mut object = match media_type.as_str() {
        "" | "application/json" | "application/yaml" | "*/*" => parse_text(body)?,
        protobuf::MEDIA_TYPE if protobuf => protobuf::decode(body, &api_version, &kind)
            .map_err(|e| ApiError::bad_request(format!("the protobuf body cannot be read: {e}")))?,
        _ if protobuf => {
            return Err(ApiError::unsupported_media_type(&[
                "application/json",
                "application/yaml",
                protobuf::MEDIA_TYPE,
            ]));
        }
        _ => {
            return Err(ApiError::unsupported_media_type(&[
                "application/json",
                "application/yaml",
            ]));
        }
    };
    if !object.is_object() {
        return Err(ApiError::bad_request("the request body is not an object"));
    }
    for (key, expected) in [("apiVersion", &api_version), ("kind", &kind)] {
        match object.get(key).and_then(Value::as_str) {
            None | Some("") => object[key] = json!(expected),
            Some(given) if given == expected.as_str() => {}
            Some(given) => {
                return Err(ApiError::bad_request(format!(
                    "the {key} in the data ({given}) does not match the expected {key} ({expected})"
                )));
            }
        }
    }
    Ok(object)
}

/// A JSON or YAML body, read as a document.
pub(super) fn parse_text(body: &[u8]) -> Result<Value, ApiError> {
    let text = std::str::from_utf8(body)
        .map_err(|_| ApiError::bad_request("the request body is not UTF-8"))?;
    smp_core::parse_document(text, smp_core::DocRole::Document)
        .map_err(|e| ApiError::bad_request(format!("the request body is not an object: {e}")))
}

/// The `apiVersion` and `kind` of the objects the request's endpoint takes (a subresource's
/// own, for `pods/eviction`, `serviceaccounts/token`).
fn expected_kind(call: &Call<'_>) -> (String, String) {
    let endpoint = call.endpoint;
    let group = endpoint.kind_group.as_deref().unwrap_or(&endpoint.group);
    let version = endpoint
        .kind_version
        .as_deref()
        .unwrap_or(&endpoint.version);
    (
        crate::discovery::api_version(group, version),
        endpoint.kind.clone(),
    )
}

/// The answer to a write based on an object that changed meanwhile (409).
pub(super) fn conflict(call: &Call<'_>) -> ApiError {
    ApiError::conflict(
        &call.resource.group,
        &call.resource.qualified(),
        &call.resource.resource,
        &call.info.name,
    )
}
