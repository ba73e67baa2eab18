//! The garbage collector's work, as kube-controller-manager's garbage collector does it
//! (kubernetes/kubernetes `pkg/controller/garbagecollector`): by the time a client hears back,
//! the dependents its write left without owners are gone.
//!
//! It follows the store's writes. An object whose owner references name no object that
//! exists (gone, or another one under that name: its uid differs) is deleted, with the
//! propagation its own finalizers ask for, or in the background; if it still has an owner, the
//! references that lead nowhere are taken off it instead. An owner deleted in the foreground
//! (`foregroundDeletion`) has its dependents deleted and loses that finalizer once none of them
//! that blocks it (`blockOwnerDeletion`) is left; an owner deleted with `orphan` has its
//! reference taken off every dependent first. Owners are found by the references' `apiVersion`
//! and `kind`, in the dependent's namespace for namespaced kinds; a reference to a kind the
//! server does not serve, or from a cluster-scoped object to a namespaced kind, is left alone,
//! as the collector leaves it. Every change is a request like any client's, made as
//! kube-controller-manager (its field manager), so it is recorded, watched and checked the same
//! way.

use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;

use serde_json::{Value, json};

use crate::handlers::delete_options::{FOREGROUND, ORPHAN, finalizers};

use crate::object::meta;
use crate::state::State;
use crate::store::{Event, EventType, ObjectKey};

/// What is left to look at.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Work {
    /// An object with owner references: does it still have an owner?
    Dependent(ObjectKey),
    /// An object being deleted with the collector's finalizers: are its dependents done?
    Owner(ObjectKey),
}

/// Does the collector's work on one round of writes. Each piece of work reads the store afresh
/// and writes at most once per reference or dependent; the writes it makes are the next round.
pub(crate) fn round(state: &State, changes: &[Arc<Event>]) {
    if !state.options.garbage_collection {
        return;
    }
    let mut queue = Queue::default();
    for event in changes {
        observe(state, event, &mut queue);
    }
    while let Some(work) = queue.pop() {
        match work {
            Work::Dependent(key) => attempt_to_delete(state, &key, &mut queue),
            Work::Owner(key) => process_owner(state, &key, &mut queue),
        }
    }
}

/// The work queue of one round: each piece queued once at a time, and at most
/// [`Queue::TRIES`] times (a piece whose writes keep meeting other writers waits for the next
/// round, which their writes bring).
#[derive(Default)]
struct Queue {
    order: VecDeque<Work>,
    queued: BTreeSet<Work>,
    tries: std::collections::BTreeMap<Work, usize>,
}

impl Queue {
    const TRIES: usize = 8;

    fn push(&mut self, work: Work) {
        let tries = self.tries.entry(work.clone()).or_default();
        if *tries < Queue::TRIES && self.queued.insert(work.clone()) {
            *tries += 1;
            self.order.push_back(work);
        }
    }

    fn pop(&mut self) -> Option<Work> {
        let work = self.order.pop_front()?;
        self.queued.remove(&work);
        Some(work)
    }
}

/// What a write gives the collector to do.
fn observe(state: &State, event: &Event, queue: &mut Queue) {
    let object = &event.object;
    let previous = event.previous.as_deref();
    match event.kind {
        EventType::Deleted => {
            // Its dependents may have lost their last owner; its owners deleting in the
            // foreground may have lost their last blocking dependent.
            for key in state.store.dependents_of(meta(object, "uid")) {
                queue.push(Work::Dependent(key));
            }
            for reference in references(object) {
                if let Some(owner) = resolve(state, &event.key, reference).found() {
                    queue.push(Work::Owner(owner));
                }
            }
        }
        EventType::Added | EventType::Modified => {
            let now = references(object);
            let before = previous.map(references).unwrap_or_default();
            if !now.is_empty() && now != before {
                queue.push(Work::Dependent(event.key.clone()));
            }
            // An owner whose reference changed or went may be waiting for this dependent.
            let kept: BTreeSet<String> = now.iter().map(|r| r.to_string()).collect();
            for reference in before.iter().filter(|r| !kept.contains(&r.to_string())) {
                if let Some(owner) = resolve(state, &event.key, reference).found() {
                    queue.push(Work::Owner(owner));
                }
            }
            if deleting(object) && has(object, FOREGROUND) | has(object, ORPHAN) {
                queue.push(Work::Owner(event.key.clone()));
            }
        }
    }
}

/// An object's owner references.
fn references(object: &Value) -> Vec<&Value> {
    object
        .pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)
        .map(|refs| refs.iter().collect())
        .unwrap_or_default()
}

fn deleting(object: &Value) -> bool {
    !meta(object, "deletionTimestamp").is_empty()
}

fn has(object: &Value, finalizer: &str) -> bool {
    finalizers(object).iter().any(|f| f == finalizer)
}

/// Where an owner reference leads.
enum Owner {
    /// To no kind the server serves, or from a cluster-scoped object to a namespaced kind:
    /// the collector leaves the dependent alone.
    Unresolvable,
    /// To the key of the owner's kind and name, and the object there, if any.
    At(ObjectKey, Option<Arc<Value>>),
}

impl Owner {
    /// The key of an owner that exists.
    fn found(self) -> Option<ObjectKey> {
        match self {
            Owner::At(key, Some(_)) => Some(key),
            _ => None,
        }
    }
}

fn resolve(state: &State, dependent: &ObjectKey, reference: &Value) -> Owner {
    let text = |k: &str| reference.get(k).and_then(Value::as_str).unwrap_or("");
    let served = state.served();
    let Some(resource) = served.resources.of_kind(text("apiVersion"), text("kind")) else {
        return Owner::Unresolvable;
    };
    if resource.namespaced && dependent.namespace.is_empty() {
        return Owner::Unresolvable;
    }
    let key = ObjectKey {
        resource: format!("{}/{}", resource.group, resource.plural()),
        namespace: if resource.namespaced {
            dependent.namespace.clone()
        } else {
            String::new()
        },
        name: text("name").to_owned(),
    };
    let object = state.store.get(&key).map(|s| s.object);
    Owner::At(key, object)
}

/// `attemptToDeleteItem`: a dependent with no owner left is deleted; one with an owner left
/// loses the references that lead nowhere, or to owners deleting their dependents.
fn attempt_to_delete(state: &State, key: &ObjectKey, queue: &mut Queue) {
    let Some(stored) = state.store.get(key) else {
        return;
    };
    let object = &stored.object;
    if deleting(object) {
        if has(object, FOREGROUND) {
            queue.push(Work::Owner(key.clone()));
        }
        return;
    }
    let (mut solid, mut dangling, mut waiting) = (0, Vec::new(), Vec::new());
    for reference in references(object) {
        let uid = reference.get("uid").and_then(Value::as_str).unwrap_or("");
        match resolve(state, key, reference) {
            Owner::Unresolvable => return,
            Owner::At(_, Some(owner)) if meta(&owner, "uid") == uid => {
                if deleting(&owner) && has(&owner, FOREGROUND) {
                    waiting.push(uid.to_owned());
                } else {
                    solid += 1;
                }
            }
            Owner::At(..) => dangling.push(uid.to_owned()),
        }
    }
    if solid > 0 {
        if dangling.is_empty() && waiting.is_empty() {
            return;
        }
        dangling.extend(waiting);
        remove_references(state, object, &dangling);
        return;
    }
    let dependents = state.store.dependents_of(meta(object, "uid"));
    if !waiting.is_empty() && !dependents.is_empty() {
        // A dependent of its own deleting its dependents in the foreground may be waiting for
        // this one: a cycle, which the collector breaks by no longer blocking its owners.
        let cycle = dependents.iter().any(|d| {
            state
                .store
                .get(d)
                .is_some_and(|d| deleting(&d.object) && has(&d.object, FOREGROUND))
        });
        if cycle {
            unblock_owners(state, object);
        }
    }
    let policy = if !waiting.is_empty() && !dependents.is_empty() {
        "Foreground"
    } else if has(object, ORPHAN) {
        "Orphan"
    } else if has(object, FOREGROUND) {
        "Foreground"
    } else {
        "Background"
    };
    let options = json!({
        "kind": "DeleteOptions",
        "apiVersion": "v1",
        "propagationPolicy": policy,
        "preconditions": {"uid": meta(object, "uid")},
    });
    // Gone or changed meanwhile: its own write brings it back if need be.
    let _ = request(state, "delete", object, &options);
}

/// `processDeletingDependentsItem` and the orphaning of `attemptToOrphan`: an owner held by
/// the collector's finalizers loses `orphan` once its dependents no longer name it, and
/// `foregroundDeletion` once no dependent that blocks it is left (its dependents are deleted
/// meanwhile).
fn process_owner(state: &State, key: &ObjectKey, queue: &mut Queue) {
    let Some(stored) = state.store.get(key) else {
        return;
    };
    let owner = &stored.object;
    if !deleting(owner) {
        return;
    }
    let uid = meta(owner, "uid").to_owned();
    let dependents = state.store.dependents_of(&uid);
    if has(owner, ORPHAN) {
        let mut all_done = true;
        for dependent in &dependents {
            if let Some(object) = state.store.get(dependent) {
                all_done &= remove_references(state, &object.object, std::slice::from_ref(&uid));
            }
        }
        if all_done {
            remove_finalizer(state, owner, ORPHAN);
        } else {
            queue.push(Work::Owner(key.clone()));
        }
        return;
    }
    if !has(owner, FOREGROUND) {
        return;
    }
    let mut blocking = 0;
    for dependent in dependents {
        let Some(object) = state.store.get(&dependent) else {
            continue;
        };
        let blocks = references(&object.object).iter().any(|r| {
            r.get("uid").and_then(Value::as_str) == Some(uid.as_str())
                && r.get("blockOwnerDeletion") == Some(&Value::Bool(true))
        });
        if blocks {
            blocking += 1;
        }
        queue.push(Work::Dependent(dependent));
    }
    if blocking == 0 {
        remove_finalizer(state, owner, FOREGROUND);
    }
}

/// Takes the references to `uids` off `object`, by a merge patch against the version read
/// (the collector's fallback form, which custom resources take too); whether that is done.
fn remove_references(state: &State, object: &Value, uids: &[String]) -> bool {
    let uids: BTreeSet<&str> = uids.iter().map(String::as_str).collect();
    let kept: Vec<&Value> = references(object)
        .into_iter()
        .filter(|r| !uids.contains(r.get("uid").and_then(Value::as_str).unwrap_or("")))
        .collect();
    // None left is `null`, as the collector's patch (a nil list) writes it: the member goes.
    let kept = if kept.is_empty() {
        Value::Null
    } else {
        json!(kept)
    };
    let patch = json!({"metadata": {
        "resourceVersion": meta(object, "resourceVersion"),
        "ownerReferences": kept,
    }});
    match request(state, "patch", object, &patch) {
        Ok(_) => true,
        Err(e) => e.code == 404,
    }
}

/// Sets `blockOwnerDeletion` to false in all of `object`'s owner references.
fn unblock_owners(state: &State, object: &Value) {
    let references: Vec<Value> = references(object)
        .into_iter()
        .map(|r| {
            let mut r = r.clone();
            if r.get("blockOwnerDeletion") == Some(&Value::Bool(true)) {
                r["blockOwnerDeletion"] = Value::Bool(false);
            }
            r
        })
        .collect();
    let patch = json!({"metadata": {
        "resourceVersion": meta(object, "resourceVersion"),
        "ownerReferences": references,
    }});
    // Changed meanwhile: that write brings it back to the collector.
    let _ = request(state, "patch", object, &patch);
}

/// Takes `finalizer` off `owner` by a merge patch against the version read (`removeFinalizer`).
fn remove_finalizer(state: &State, owner: &Value, finalizer: &str) {
    let left: Vec<String> = finalizers(owner)
        .into_iter()
        .filter(|f| f != finalizer)
        .collect();
    let list = if left.is_empty() {
        Value::Null
    } else {
        json!(left)
    };
    let patch = json!({"metadata": {
        "resourceVersion": meta(owner, "resourceVersion"),
        "finalizers": list,
    }});
    // Changed meanwhile: that write brings the owner back to the collector.
    let _ = request(state, "patch", owner, &patch);
}

/// A DELETE (with `body` as its options) or a merge patch of `object`.
fn request(
    state: &State,
    verb: &'static str,
    object: &Value,
    body: &Value,
) -> Result<Value, crate::status::ApiError> {
    let api_version = object
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    let kind = object.get("kind").and_then(Value::as_str).unwrap_or("");
    let served = state.served();
    let resource = served
        .resources
        .of_kind(api_version, kind)
        .ok_or_else(|| crate::status::ApiError::no_route(kind))?;
    let content_type = if verb == "patch" {
        "application/merge-patch+json"
    } else {
        "application/json"
    };
    let body = body.to_string();
    state.internal(crate::state::Internal {
        verb,
        api_version,
        plural: resource.plural(),
        namespace: meta(object, "namespace"),
        name: meta(object, "name"),
        content_type,
        body: body.as_bytes(),
        user_agent: super::GARBAGE_COLLECTOR,
        query: &[],
    })
}
