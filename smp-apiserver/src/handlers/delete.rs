//! DELETE, as the generic registry's `Store.Delete` (k8s.io/apiserver
//! `pkg/registry/generic/registry/store.go`, `pkg/registry/rest/delete.go`) answers it.
//!
//! An object goes at once unless something holds it: its finalizers, a graceful deletion
//! (pods bound to a node wait their grace period, for a kubelet to end them), or the garbage
//! collector's finalizers, which the propagation policy adds (`foregroundDeletion`: the
//! collector deletes the dependents first; `orphan`: it takes its owner references off them
//! first). A held object is marked (`deletionTimestamp`, `deletionGracePeriodSeconds`, one
//! more `generation`) and the answer is the object; once it goes, the answer is the deleted
//! object for the resources whose registry returns it (pods, services, ...), else a `Status`.

use http::StatusCode;
use serde_json::{Value, json};
use smp_ssa::managedfields::read_time;

use super::body::conflict;
use super::call::{Call, RETRIES};
use super::delete_options::{
    DeleteOptions, bump_generation, finalizers, mark, mark_as_deleting, set_finalizers,
};
use super::namespaces;
use crate::object::{self, meta};
use crate::registry::deletion::{self, GcPolicy};
use crate::status::{self, ApiError};
use crate::store::Stored;

/// What `rest.BeforeDelete` makes of a graceful deletion.
enum Grace {
    /// Not graceful: delete now, or hold for finalizers.
    No,
    /// A grace period already runs and the request does not shorten it.
    Pending,
    /// Marked with this grace period.
    Yes(i64),
}

pub(super) fn delete(call: &Call<'_>, body: &[u8]) -> Result<(StatusCode, Value), ApiError> {
    let options = DeleteOptions::read(call, body)?;
    let (group, plural) = (&call.resource.group, call.resource.plural());
    let default = deletion::gc_policy(group, &call.resource.version, plural);
    if default == GcPolicy::OrphanDependents
        && plural == "jobs"
        && options.propagation.is_none()
        && options.orphan_dependents.is_none()
    {
        call.warnings
            .borrow_mut()
            .push(crate::validation::warning_header(
                deletion::JOB_ORPHAN_WARNING,
            ));
    }
    let collector = call.state.options.garbage_collection;
    for _ in 0..RETRIES {
        let current = call.current()?;
        if namespaces::is_namespaces(call) {
            call.validate_delete(&current.object)?;
            match namespaces::delete(call, &current, &options) {
                Ok(namespaces::Deletion::Answer(code, namespace)) => return Ok((code, namespace)),
                Ok(namespaces::Deletion::Generic) => {}
                Err(Some(refused)) => return Err(refused),
                Err(None) => continue,
            }
        } else {
            check_preconditions(call, &current, &options)?;
            call.validate_delete(&current.object)?;
        }
        let now = call.state.options.clock.seconds();
        let mut object = (*current.object).clone();
        let grace = if deletion::graceful(group, plural) {
            before_graceful_delete(&mut object, &options, now)
        } else {
            Grace::No
        };
        if matches!(grace, Grace::Pending) {
            return Ok((options.pending_code(), (*current.object).clone()));
        }
        let finalizers = finalizers(&object);
        let changed = if collector {
            options.collector_finalizers(default, &finalizers)
        } else {
            None
        };
        let held = changed.as_ref().unwrap_or(&finalizers);
        let graceful = matches!(grace, Grace::Yes(_));
        let mut base = current.clone();
        if graceful || !held.is_empty() || changed.is_some() {
            if let Some(list) = &changed {
                set_finalizers(&mut object, list);
            }
            let waits = match grace {
                Grace::Yes(period) => !held.is_empty() || period > 0,
                _ => {
                    if held.is_empty() {
                        false
                    } else {
                        mark_as_deleting(&mut object, now);
                        true
                    }
                }
            };
            if graceful || waits {
                let written = write(call, &current, object, options.dry_run);
                match written {
                    Ok(stored) if waits => {
                        return Ok((options.pending_code(), stored.object.as_ref().clone()));
                    }
                    Ok(stored) => base = stored,
                    Err(()) => continue,
                }
            }
        }
        if options.dry_run {
            return Ok((StatusCode::OK, answer(call, &base.object)));
        }
        match call
            .state
            .store
            .remove(&call.key(&call.info.name), base.revision)
        {
            Ok(removed) => {
                namespaces::removed_from(call.state, &call.info.namespace);
                return Ok((StatusCode::OK, answer(call, &removed.object)));
            }
            Err(_) => continue,
        }
    }
    Err(conflict(call))
}

/// What a DELETE that removed the object answers: the object, or a `Status`.
fn answer(call: &Call<'_>, object: &Value) -> Value {
    if deletion::returns_deleted_object(&call.resource.group, call.resource.plural()) {
        return object.clone();
    }
    status::success(
        &call.resource.group,
        call.resource.plural(),
        meta(object, "name"),
        meta(object, "uid"),
    )
}

/// Stores the object marked for deletion (unless a dry run), answering what is stored then;
/// `Err` when the object changed meanwhile.
fn write(call: &Call<'_>, current: &Stored, marked: Value, dry_run: bool) -> Result<Stored, ()> {
    if dry_run {
        return Ok(Stored::new(std::sync::Arc::new(marked), current.revision));
    }
    if object::same_but_resource_version(&current.object, &marked) {
        return Ok(current.clone());
    }
    let key = call.key(&call.info.name);
    let marked = call.shape.to_storage(marked);
    call.state
        .store
        .replace(&key, current.revision, marked)
        .map(|stored| call.served_shape(stored))
        .map_err(|_| ())
}

/// The preconditions of the options, checked as `rest.BeforeDelete` does (its messages name
/// the kind).
fn check_preconditions(
    call: &Call<'_>,
    current: &Stored,
    options: &DeleteOptions,
) -> Result<(), ApiError> {
    let kind = match call.resource.group.as_str() {
        "" => call.resource.kind.clone(),
        group => format!("{}.{group}", call.resource.kind),
    };
    let refuse = |message: String| {
        let mut error = ApiError::conflict_with(&kind, &call.info.name, message);
        let mut details = json!({"name": call.info.name, "kind": call.resource.kind});
        if !call.resource.group.is_empty() {
            details["group"] = json!(call.resource.group);
        }
        error.details = Some(details);
        error
    };
    let uid = meta(&current.object, "uid");
    if let Some(given) = options.uid.as_deref().filter(|u| *u != uid) {
        return Err(refuse(format!(
            "the UID in the precondition ({given}) does not match the UID in record ({uid}). \
             The object might have been deleted and then recreated"
        )));
    }
    let version = current.revision.to_string();
    if let Some(given) = options
        .resource_version
        .as_deref()
        .filter(|v| *v != version)
    {
        return Err(refuse(format!(
            "the ResourceVersion in the precondition ({given}) does not match the \
             ResourceVersion in record ({version}). The object might have been modified"
        )));
    }
    Ok(())
}

/// `rest.BeforeDelete` for a pod: a grace period already running is pending unless the
/// request shortens it; otherwise the pod's (`CheckGracefulDelete`: the request's, else its
/// `terminationGracePeriodSeconds`, nothing for a pod on no node or one that has finished)
/// starts, moving `generation`.
fn before_graceful_delete(pod: &mut Value, options: &DeleteOptions, now: i64) -> Grace {
    let stamp = pod
        .pointer("/metadata/deletionTimestamp")
        .and_then(Value::as_str)
        .and_then(read_time);
    if let Some(stamp) = stamp {
        let running = pod
            .pointer("/metadata/deletionGracePeriodSeconds")
            .and_then(Value::as_i64)
            .map(|g| if g < 0 { 1 } else { g })
            .unwrap_or(0);
        if running == 0 {
            return Grace::No;
        }
        let Some(mut period) = options.grace_period else {
            return Grace::Pending;
        };
        if period >= running {
            return Grace::Pending;
        }
        let mut at = stamp - running + period;
        if at < now {
            at = now;
            if period != 0 {
                period = 1;
            }
        }
        mark(pod, at, period);
        return Grace::Yes(period);
    }
    // The server defaults `terminationGracePeriodSeconds` to 30 on create; a pod stored here
    // without one (smp does not default yet) is given that default.
    let mut period = options.grace_period.unwrap_or_else(|| {
        pod.pointer("/spec/terminationGracePeriodSeconds")
            .and_then(Value::as_i64)
            .unwrap_or(30)
    });
    let unscheduled = meta_text(pod, "/spec/nodeName").is_empty();
    let finished = matches!(meta_text(pod, "/status/phase"), "Succeeded" | "Failed");
    if unscheduled || finished {
        period = 0;
    }
    if period < 0 {
        period = 1;
    }
    mark(pod, now + period, period);
    bump_generation(pod);
    Grace::Yes(period)
}

fn meta_text<'v>(object: &'v Value, pointer: &str) -> &'v str {
    object
        .pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// Deletes every object of the list the same query would give (selectors included), each as
/// a DELETE with the same options would.
pub(super) fn delete_collection(
    call: &Call<'_>,
    body: &[u8],
) -> Result<(StatusCode, Value), ApiError> {
    DeleteOptions::read(call, body)?;
    let list = super::list::list(call)?;
    let mut deleted = Vec::new();
    for item in &list.items {
        let mut one = Call {
            warnings: Default::default(),
            state: call.state,
            served: call.served,
            info: call.info.clone(),
            resource: call.resource,
            endpoint: call.endpoint,
            headers: call.headers,
            fields: call.fields.clone(),
            shape: call.shape,
        };
        one.info.name = meta(&item.object, "name").to_owned();
        one.info.namespace = meta(&item.object, "namespace").to_owned();
        match delete(&one, body) {
            Ok(_) => deleted.push((*item.object).clone()),
            // Gone meanwhile: nothing to delete.
            Err(e) if e.code == 404 => {}
            Err(e) => return Err(e),
        }
    }
    Ok((
        StatusCode::OK,
        json!({
            "kind": format!("{}List", call.resource.kind),
            "apiVersion": call.resource.api_version(),
            "metadata": {"resourceVersion": call.state.store.revision().to_string()},
            "items": deleted,
        }),
    ))
}
