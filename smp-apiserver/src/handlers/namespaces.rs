//! A namespace's life, as the API server and its namespace controller give it.
//!
//! Created, a namespace is `Active`, labelled with its name, and held by the `kubernetes`
//! finalizer of its spec. Deleted, it turns `Terminating` (a `deletionTimestamp`, `status.phase:
//! Terminating`) and takes no new objects (403 Forbidden); its objects are deleted (removed, or
//! marked where their finalizers hold them); once the last one is gone the `kubernetes`
//! finalizer goes, and with it the namespace, unless other finalizers still hold it.
//!
//! "Once the last one is gone" is checked after every removal of a namespaced object, by the
//! store's count of the objects in each namespace: one look-up, never a scan.

use http::StatusCode;
use serde_json::{Value, json};

use super::call::{Call, RETRIES};
use super::delete_options::DeleteOptions;
use crate::object::{self, meta};
use crate::state::State;
use crate::status::ApiError;
use crate::store::{ObjectKey, Stored};

/// The finalizer of a namespace's spec that its contents' deletion answers to.
const FINALIZER: &str = "kubernetes";

fn key(name: &str) -> ObjectKey {
    ObjectKey {
        resource: "/namespaces".into(),
        namespace: String::new(),
        name: name.to_owned(),
    }
}

/// Whether the call is about namespaces themselves.
pub(super) fn is_namespaces(call: &Call<'_>) -> bool {
    call.resource.group.is_empty() && call.resource.plural() == "namespaces"
}

/// What the server sets on a namespace it creates: the label with its name, the `kubernetes`
/// finalizer, phase `Active`.
pub(super) fn prepare_create(namespace: &mut Value) {
    let name = meta(namespace, "name").to_owned();
    let metadata = object::metadata_mut(namespace);
    let labels = metadata.entry("labels").or_insert_with(|| json!({}));
    if let Some(labels) = labels.as_object_mut() {
        labels.insert("kubernetes.io/metadata.name".into(), json!(name));
    }
    let Some(namespace) = namespace.as_object_mut() else {
        return;
    };
    let spec = namespace.entry("spec").or_insert_with(|| json!({}));
    if let Some(spec) = spec.as_object_mut() {
        let finalizers = spec.entry("finalizers").or_insert_with(|| json!([]));
        if let Some(list) = finalizers.as_array_mut()
            && !list.iter().any(|f| f == FINALIZER)
        {
            list.push(json!(FINALIZER));
        }
    }
    namespace.insert("status".into(), json!({"phase": "Active"}));
}

/// Whether the request's namespace takes a new object: it must exist and not be terminating.
pub(super) fn check_open(call: &Call<'_>, name: &str) -> Result<(), ApiError> {
    let namespace = &call.info.namespace;
    let Some(stored) = call.state.store.get(&key(namespace)) else {
        return Err(ApiError::not_found(
            "",
            "namespaces",
            "namespaces",
            namespace,
        ));
    };
    if meta(&stored.object, "deletionTimestamp").is_empty() {
        return Ok(());
    }
    Err(ApiError::terminating(
        &call.resource.group,
        &call.resource.qualified(),
        &call.resource.resource,
        name,
        namespace,
    ))
}

/// The namespaces the server keeps (the NamespaceLifecycle admission plugin refuses to delete
/// them).
const IMMORTAL: [&str; 3] = ["default", "kube-system", "kube-public"];

/// What the namespace registry makes of a DELETE.
pub(super) enum Deletion {
    /// Its answer.
    Answer(StatusCode, Value),
    /// A terminating namespace that nothing in its spec holds any more: deleted as any object.
    Generic,
}

/// Deletes the namespace `current` as the namespace registry does
/// (`pkg/registry/core/namespace/storage/storage.go`): the first DELETE marks it terminating
/// (a `deletionTimestamp`, no grace period, `status.phase: Terminating`, the garbage
/// collector's finalizers as the options ask) and answers it, and the namespace controller's
/// work follows: its objects are deleted, and the namespace goes once nothing holds it. Later
/// DELETEs answer it as it is while its spec's finalizers hold it. `Err(None)`: it was written
/// meanwhile (the caller reads it again).
pub(super) fn delete(
    call: &Call<'_>,
    current: &Stored,
    options: &DeleteOptions,
) -> Result<Deletion, Option<ApiError>> {
    let name = meta(&current.object, "name").to_owned();
    if IMMORTAL.contains(&name.as_str()) {
        return Err(Some(ApiError::forbidden(format!(
            "namespaces {name:?} is forbidden: this namespace may not be deleted"
        ))));
    }
    let failed = |what: &str, given: &str, actual: &str| {
        ApiError::conflict_with(
            "namespaces",
            &name,
            format!(
                "Precondition failed: {what} in precondition: {given}, {what} in object meta: {actual}"
            ),
        )
    };
    let uid = meta(&current.object, "uid");
    if let Some(given) = options.uid.as_deref().filter(|u| *u != uid) {
        return Err(Some(failed("UID", given, uid)));
    }
    let version = current.revision.to_string();
    if let Some(given) = options
        .resource_version
        .as_deref()
        .filter(|v| *v != version)
    {
        return Err(Some(failed("ResourceVersion", given, &version)));
    }
    let code = if options.orphan_dependents == Some(false) {
        StatusCode::ACCEPTED
    } else {
        StatusCode::OK
    };
    if !meta(&current.object, "deletionTimestamp").is_empty() {
        return Ok(if held_by_spec(&current.object) {
            Deletion::Answer(code, (*current.object).clone())
        } else {
            Deletion::Generic
        });
    }
    let mut marked = (*current.object).clone();
    object::set_meta(
        &mut marked,
        "deletionTimestamp",
        &call.state.options.clock.now(),
    );
    if let Some(namespace) = marked.as_object_mut() {
        namespace.insert("status".into(), json!({"phase": "Terminating"}));
    }
    set_collector_finalizers(&mut marked, options);
    if options.dry_run {
        return Ok(Deletion::Answer(code, marked));
    }
    let stored = call
        .state
        .store
        .replace(&key(&name), current.revision, marked)
        .map_err(|_| None)?;
    delete_contents(call, &name);
    settle(call.state, &name);
    Ok(Deletion::Answer(code, (*stored.object).clone()))
}

/// The namespace registry's own rule for the garbage collector's finalizers: `orphan` when the
/// options orphan, `foregroundDeletion` when they ask for the foreground, each kept as it is
/// when they say nothing of it.
fn set_collector_finalizers(namespace: &mut Value, options: &DeleteOptions) {
    use super::delete_options::{FOREGROUND, ORPHAN, Propagation};
    let orphan = match (options.orphan_dependents, options.propagation) {
        (Some(true), _) | (_, Some(Propagation::Orphan)) => Some(true),
        (Some(false), _) | (_, Some(_)) => Some(false),
        (None, None) => None,
    };
    let foreground = match (options.orphan_dependents, options.propagation) {
        (Some(false), _) | (_, Some(Propagation::Foreground)) => Some(true),
        (Some(true), _) | (_, Some(_)) => Some(false),
        (None, None) => None,
    };
    let mut list = super::delete_options::finalizers(namespace);
    for (finalizer, wanted) in [(ORPHAN, orphan), (FOREGROUND, foreground)] {
        match wanted {
            Some(true) if !list.iter().any(|f| f == finalizer) => list.push(finalizer.into()),
            Some(false) => list.retain(|f| f != finalizer),
            _ => {}
        }
    }
    let metadata = object::metadata_mut(namespace);
    if list.is_empty() {
        metadata.remove("finalizers");
    } else {
        metadata.insert("finalizers".into(), json!(list));
    }
}

/// Whether the namespace's spec still holds it (the `kubernetes` finalizer, or another).
fn held_by_spec(namespace: &Value) -> bool {
    namespace
        .pointer("/spec/finalizers")
        .and_then(Value::as_array)
        .is_some_and(|f| !f.is_empty())
}

/// The objects of a terminating namespace, deleted as the namespace controller deletes them:
/// each removed, or marked when finalizers hold it.
fn delete_contents(call: &Call<'_>, namespace: &str) {
    let now = call.state.options.clock.seconds();
    for (key, stored) in call.state.store.in_namespace(namespace) {
        // An object written meanwhile stays until its next removal settles the namespace, as
        // on a cluster until the controller comes round again.
        let _ = if object::finalizers(&stored.object) > 0 {
            if !meta(&stored.object, "deletionTimestamp").is_empty() {
                continue;
            }
            let mut marked = (*stored.object).clone();
            super::delete_options::mark_as_deleting(&mut marked, now);
            call.state
                .store
                .replace(&key, stored.revision, marked)
                .map(|_| ())
        } else {
            call.state.store.remove(&key, stored.revision).map(|_| ())
        };
    }
}

/// After an object of `namespace` was removed: if the namespace is terminating and now empty,
/// its `kubernetes` finalizer goes, and the namespace with it when nothing else holds it.
pub(super) fn removed_from(state: &State, namespace: &str) {
    if !namespace.is_empty() && state.store.count_in(namespace) == 0 {
        settle(state, namespace);
    }
}

fn settle(state: &State, name: &str) {
    let key = key(name);
    for _ in 0..RETRIES {
        let Some(current) = state.store.get(&key) else {
            return;
        };
        if meta(&current.object, "deletionTimestamp").is_empty() || state.store.count_in(name) > 0 {
            return;
        }
        let mut finalized = (*current.object).clone();
        if let Some(list) = finalized
            .pointer_mut("/spec/finalizers")
            .and_then(Value::as_array_mut)
        {
            list.retain(|f| f != FINALIZER);
        }
        let written = if held(&finalized) {
            if finalized == *current.object {
                return;
            }
            state
                .store
                .replace(&key, current.revision, finalized)
                .map(|_| ())
        } else {
            state.store.remove(&key, current.revision).map(|_| ())
        };
        if written.is_ok() {
            return;
        }
    }
}

/// Whether finalizers still hold a namespace: its metadata's, or its spec's.
pub(super) fn held(namespace: &Value) -> bool {
    object::finalizers(namespace) > 0 || held_by_spec(namespace)
}
