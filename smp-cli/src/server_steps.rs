//! What the API server does to a written object after decoding it and before storing it, for
//! the commands that print what a cluster would store: the namespace and name a request
//! settles, the admission plugins and strategy of a create, and validation, whose refusal is
//! the server's 422 message.

use serde_json::Value;

use crate::error::CliError;

fn metadata(object: &mut Value) -> Option<&mut serde_json::Map<String, Value>> {
    let meta = object
        .as_object_mut()?
        .entry("metadata")
        .or_insert_with(|| Value::Object(serde_json::Map::new()));
    if !meta.is_object() {
        *meta = Value::Object(serde_json::Map::new());
    }
    meta.as_object_mut()
}

/// A namespaced object without a namespace is written to the request's, `default` as kubectl
/// sends it.
pub(crate) fn settle_namespace(object: &mut Value, api_version: &str, kind: &str) {
    let missing = object
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty);
    if missing
        && smp_admission::validation::namespaced(api_version, kind) == Some(true)
        && let Some(meta) = metadata(object)
    {
        meta.insert("namespace".into(), "default".into());
    }
}

/// The server names an object that has only a `generateName` before it validates it; the
/// five characters it adds are stood in for here.
pub(crate) fn generate_name(object: &mut Value) {
    let Some(meta) = metadata(object) else {
        return;
    };
    let named = meta
        .get("name")
        .and_then(Value::as_str)
        .is_some_and(|n| !n.is_empty());
    if let (false, Some(prefix)) = (named, meta.get("generateName").and_then(Value::as_str)) {
        let name = format!("{prefix}x7k2q");
        meta.insert("name".into(), name.into());
    }
}

/// The server gives a new object its uid before validating it (a Job's generated selector
/// names it); a stand-in is given here when it has none.
pub(crate) fn give_uid(object: &mut Value) {
    let Some(meta) = metadata(object) else {
        return;
    };
    let has = meta
        .get("uid")
        .and_then(Value::as_str)
        .is_some_and(|u| !u.is_empty());
    if !has {
        let uid = "00000000-0000-4000-8000-000000000000";
        meta.insert("uid".into(), uid.into());
    }
}

/// An update keeps what the server keeps of the stored object's metadata (its identity, and
/// the resourceVersion an unconditional write is given).
pub(crate) fn keep_stored_metadata(object: &mut Value, stored: &Value) {
    let Some(meta) = metadata(object) else {
        return;
    };
    for key in [
        "uid",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "generation",
    ] {
        match stored.pointer(&format!("/metadata/{key}")) {
            Some(v) => {
                meta.insert(key.into(), v.clone());
            }
            None => {
                meta.remove(key);
            }
        }
    }
    let versioned = meta
        .get("resourceVersion")
        .and_then(Value::as_str)
        .is_some_and(|v| !v.is_empty());
    if !versioned {
        let version = stored
            .pointer("/metadata/resourceVersion")
            .cloned()
            .unwrap_or_else(|| "1".into());
        meta.insert("resourceVersion".into(), version);
    }
}

/// The create-time steps (admission plugins, as on a new cluster, then the strategy) and
/// validation, as create or as update of `live`: `Err` with the server's message when it
/// would refuse the object.
pub(crate) fn admit_and_validate(object: &mut Value, live: Option<&Value>) -> Result<(), CliError> {
    let api_version = object["apiVersion"].as_str().unwrap_or("").to_owned();
    let kind = object["kind"].as_str().unwrap_or("").to_owned();
    let mut checked = object.clone();
    settle_namespace(&mut checked, &api_version, &kind);
    let outcome = match live {
        Some(live) => {
            // The live object may come without the namespace its request settled.
            let mut stored = live.clone();
            settle_namespace(&mut stored, &api_version, &kind);
            keep_stored_metadata(&mut checked, &stored);
            smp_admission::validation::validate_update(&checked, &stored)
        }
        None => {
            let namespace = checked
                .pointer("/metadata/namespace")
                .and_then(Value::as_str)
                .unwrap_or("default")
                .to_owned();
            let cluster = smp_admission::admission::OfflineCluster::new();
            let plugins = smp_admission::admission::Plugins::all();
            smp_admission::admission::admit_create(object, &namespace, &cluster, &plugins)
                .map_err(CliError::message)?;
            checked = object.clone();
            smp_admission::strategy::prepare_for_create(object);
            settle_namespace(&mut checked, &api_version, &kind);
            generate_name(&mut checked);
            give_uid(&mut checked);
            smp_admission::strategy::prepare_for_create(&mut checked);
            smp_admission::validation::validate_create(&checked)
        }
    };
    match outcome {
        Ok(()) => Ok(()),
        Err(smp_admission::validation::ValidationError::Invalid(invalid)) => {
            Err(CliError::message(invalid))
        }
        // Objects without a type were refused before they got here.
        Err(_) => Ok(()),
    }
}
