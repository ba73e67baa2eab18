//! The `scale` subresource: an `autoscaling/v1` `Scale` that reads and writes the replica count
//! of the object it belongs to (`kubectl scale`, horizontal autoscalers).
//!
//! The count and the selector are where the kind keeps them: `spec.replicas`,
//! `status.replicas` and `spec.selector` for the built-in kinds that have the subresource,
//! the paths of its `scale` subresource for a CRD's kind. Getting it builds the `Scale` from
//! the object; updating or patching it (JSON patch, merge patch, strategic merge patch) writes
//! the new `spec.replicas` into the object, recorded in its managedFields as an update of the
//! `scale` subresource, validated as an update of the object by its kind's rules (the
//! registries write the count through the main store), and answers the `Scale` of the object
//! written.

use http::StatusCode;
use serde_json::{Map, Value, json};

use super::body::{conflict, parse_text};
use super::call::{Call, RETRIES};
use super::options;
use super::patch::{JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, patched};
use super::write::{commit, prepare_update, record_update, settle_generation, validate_update};
use crate::object::meta;
use crate::status::ApiError;

/// Where a kind keeps what its `Scale` shows, as JSON pointers.
struct Paths {
    spec_replicas: String,
    status_replicas: String,
    /// `None`: the kind has no selector to show.
    selector: Option<Selector>,
}

enum Selector {
    /// A `LabelSelector` (or, for a ReplicationController, a map of labels), printed.
    Structured(String),
    /// A selector already printed (a CRD's `labelSelectorPath`).
    Printed(String),
}

/// The paths of the call's kind: a CRD's from its `scale` subresource, a built-in kind's the
/// usual ones.
fn paths(call: &Call<'_>) -> Paths {
    let r = call.resource;
    let crd = call.served.crds.iter().find(|crd| {
        crd.pointer("/spec/group").and_then(Value::as_str) == Some(&r.group)
            && crd.pointer("/spec/names/kind").and_then(Value::as_str) == Some(&r.kind)
    });
    let scale = crd.and_then(|crd| {
        crd.pointer("/spec/versions")?
            .as_array()?
            .iter()
            .find(|v| v.get("name").and_then(Value::as_str) == Some(&r.version))?
            .pointer("/subresources/scale")
    });
    match scale {
        Some(scale) => {
            let path = |key: &str| {
                scale
                    .get(key)
                    .and_then(Value::as_str)
                    .map(|p| p.replace('.', "/"))
            };
            Paths {
                spec_replicas: path("specReplicasPath").unwrap_or_else(|| "/spec/replicas".into()),
                status_replicas: path("statusReplicasPath")
                    .unwrap_or_else(|| "/status/replicas".into()),
                selector: path("labelSelectorPath").map(Selector::Printed),
            }
        }
        None => Paths {
            spec_replicas: "/spec/replicas".into(),
            status_replicas: "/status/replicas".into(),
            selector: Some(Selector::Structured("/spec/selector".into())),
        },
    }
}

/// `get`, `update` and `patch` of the subresource.
pub(super) fn handle(call: &Call<'_>, body: &[u8]) -> Result<(StatusCode, Value), ApiError> {
    let paths = paths(call);
    match call.info.verb {
        "get" => Ok((StatusCode::OK, scale_of(&call.current()?.object, &paths))),
        "update" => {
            options::write(call, "UpdateOptions")?;
            let given = read_scale(call, body)?;
            write(call, &paths, |_| Ok(given.clone()))
        }
        "patch" => {
            let content_type = call.media_type();
            let accepted = [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH];
            if !accepted.contains(&content_type.as_str()) {
                return Err(ApiError::unsupported_media_type(&accepted));
            }
            options::patch(call, false)?;
            let patch = std::str::from_utf8(body)
                .map_err(|_| ApiError::bad_request("the request body is not UTF-8"))?;
            let scale = smp_types::lookup("autoscaling/v1", "Scale").map(|k| k.schema());
            write(call, &paths, |current| {
                patched(&content_type, current, patch, scale, &accepted, |m| {
                    invalid(call, m)
                })
            })
        }
        other => Err(ApiError::method_not_allowed(other, "scale")),
    }
}

fn invalid(call: &Call<'_>, message: String) -> ApiError {
    ApiError::invalid("autoscaling", "Scale", &call.info.name, message)
}

/// Writes the replica count of `change(current Scale)` into the object, against the
/// `resourceVersion` the new `Scale` names (if it names one).
fn write(
    call: &Call<'_>,
    paths: &Paths,
    change: impl Fn(&Value) -> Result<Value, ApiError>,
) -> Result<(StatusCode, Value), ApiError> {
    for _ in 0..RETRIES {
        let current = call.current()?;
        let scale = change(&scale_of(&current.object, paths))?;
        let replicas = match scale.pointer("/spec/replicas") {
            None | Some(Value::Null) => 0,
            Some(n) => n
                .as_i64()
                .filter(|n| i32::try_from(*n).is_ok_and(|n| n >= 0))
                .ok_or_else(|| {
                    invalid(
                        call,
                        format!(
                            "spec.replicas: Invalid value: {n}: must be greater than or equal to 0"
                        ),
                    )
                })?,
        };
        let expected = meta(&scale, "resourceVersion").to_owned();
        if !expected.is_empty() && expected != current.revision.to_string() {
            return Err(conflict(call));
        }
        let mut object = (*current.object).clone();
        set(&mut object, &paths.spec_replicas, json!(replicas));
        let new = prepare_update(call, &current.object, object)?;
        let mut new = record_update(call, &current.object, new)?;
        call.prepare_for_update(&mut new, &current.object);
        settle_generation(call, &current.object, &mut new);
        validate_update(call, &current, &new)?;
        match commit(call, &current, new) {
            Ok(written) => return Ok((StatusCode::OK, scale_of(&written, paths))),
            Err(_) if expected.is_empty() => continue,
            Err(_) => return Err(conflict(call)),
        }
    }
    Err(conflict(call))
}

/// The body of an update: a `Scale`, in JSON or YAML.
fn read_scale(call: &Call<'_>, body: &[u8]) -> Result<Value, ApiError> {
    let media_type = call.media_type();
    if !matches!(
        media_type.as_str(),
        "" | "application/json" | "application/yaml" | "*/*"
    ) {
        return Err(ApiError::unsupported_media_type(&[
            "application/json",
            "application/yaml",
        ]));
    }
    let scale = parse_text(body)?;
    for (key, expected) in [("apiVersion", "autoscaling/v1"), ("kind", "Scale")] {
        match scale.get(key).and_then(Value::as_str) {
            None | Some("") => {}
            Some(given) if given == expected => {}
            Some(given) => {
                return Err(ApiError::bad_request(format!(
                    "the {key} in the data ({given}) does not match the expected {key} ({expected})"
                )));
            }
        }
    }
    Ok(scale)
}

/// The `Scale` of an object.
fn scale_of(object: &Value, paths: &Paths) -> Value {
    let mut metadata = Map::new();
    for key in [
        "name",
        "namespace",
        "uid",
        "resourceVersion",
        "creationTimestamp",
    ] {
        if let Some(v) = object.pointer(&format!("/metadata/{key}")) {
            metadata.insert(key.into(), v.clone());
        }
    }
    let count = |path: &str| object.pointer(path).and_then(Value::as_i64).unwrap_or(0);
    let mut spec = Map::new();
    let replicas = count(&paths.spec_replicas);
    if replicas != 0 {
        spec.insert("replicas".into(), json!(replicas));
    }
    let mut status = json!({"replicas": count(&paths.status_replicas)});
    let selector = match &paths.selector {
        Some(Selector::Structured(path)) => object.pointer(path).map(crate::selector::print),
        Some(Selector::Printed(path)) => object
            .pointer(path)
            .and_then(Value::as_str)
            .map(str::to_owned),
        None => None,
    };
    if let Some(selector) = selector.filter(|s| !s.is_empty()) {
        status["selector"] = json!(selector);
    }
    json!({
        "kind": "Scale",
        "apiVersion": "autoscaling/v1",
        "metadata": metadata,
        "spec": spec,
        "status": status,
    })
}

/// Sets the value at a JSON pointer, making the objects on the way.
fn set(object: &mut Value, pointer: &str, value: Value) {
    let mut at = object;
    let mut keys = pointer.split('/').filter(|k| !k.is_empty()).peekable();
    while let Some(key) = keys.next() {
        if !at.is_object() {
            *at = json!({});
        }
        let Value::Object(map) = at else { return };
        if keys.peek().is_none() {
            map.insert(key.to_owned(), value);
            return;
        }
        at = map.entry(key).or_insert_with(|| json!({}));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scale_shows_the_count_and_the_selector() {
        let deployment = json!({
            "metadata": {"name": "web", "namespace": "default", "uid": "u", "resourceVersion": "7",
                         "labels": {"x": "y"}},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}}},
            "status": {"replicas": 2},
        });
        let paths = Paths {
            spec_replicas: "/spec/replicas".into(),
            status_replicas: "/status/replicas".into(),
            selector: Some(Selector::Structured("/spec/selector".into())),
        };
        assert_eq!(
            scale_of(&deployment, &paths),
            json!({"kind": "Scale", "apiVersion": "autoscaling/v1",
                   "metadata": {"name": "web", "namespace": "default", "uid": "u", "resourceVersion": "7"},
                   "spec": {"replicas": 3}, "status": {"replicas": 2, "selector": "app=web"}})
        );
        let mut object = json!({"spec": 5});
        set(&mut object, "/spec/replicas", json!(2));
        assert_eq!(object, json!({"spec": {"replicas": 2}}));
    }
}
