//! What the apps kinds' status endpoints check (`Validate<Kind>StatusUpdate` of
//! `pkg/apis/apps/validation`, as each kind's `statusStrategy.ValidateUpdate` calls it): the
//! metadata update, counters that are never negative nor above `status.replicas`, and a
//! `collisionCount` that never goes down (the controllers derive names from it, so a lower one
//! could reuse a name already taken).
//!
//! `terminatingReplicas` belongs to the `DeploymentReplicaSetTerminatingReplicas` gate, off in
//! v1.34: the status strategy drops it unless the old status had it
//! (`crate::strategy::prepare_for_status_update`), so it is checked only when present.

use serde_json::Value;

use super::shared::non_negative;
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::meta::validate_object_meta_update_of;
use crate::validation::read;

/// Above `status.replicas`: a subset cannot outnumber the whole.
const ABOVE_REPLICAS: &str = "cannot be greater than status.replicas";

fn status_of(obj: &Value) -> &Value {
    obj.get("status").unwrap_or(&Value::Null)
}

/// Checks each named counter of `status` is not negative, in the order given.
fn counters(status: &Value, names: &[&str], path: &Path, errs: &mut ErrorList) {
    for name in names {
        non_negative(read::int(status, name), &path.child(name), errs);
    }
}

/// Each named counter at most `status.replicas`, in the order given.
fn within_replicas(status: &Value, names: &[&str], path: &Path, errs: &mut ErrorList) {
    let replicas = read::int(status, "replicas");
    for name in names {
        let value = read::int(status, name);
        if value > replicas {
            errs.push(field::invalid(&path.child(name), value, ABOVE_REPLICAS));
        }
    }
}

/// `availableReplicas` at most `readyReplicas`, with the kind's wording.
fn available_within_ready(status: &Value, detail: &str, path: &Path, errs: &mut ErrorList) {
    let available = read::int(status, "availableReplicas");
    if available > read::int(status, "readyReplicas") {
        errs.push(field::invalid(
            &path.child("availableReplicas"),
            available,
            detail,
        ));
    }
}

fn optional_counter(status: &Value, name: &str, path: &Path, errs: &mut ErrorList) {
    if let Some(value) = read::opt_int(status, name) {
        non_negative(value, &path.child(name), errs);
    }
}

/// `IsDecremented` of `status.collisionCount`: lower than before, or gone when it was set.
fn collision_count_kept(new: &Value, old: &Value, errs: &mut ErrorList) {
    let (now, before) = (
        read::opt_int(status_of(new), "collisionCount"),
        read::opt_int(status_of(old), "collisionCount"),
    );
    let decremented = match (now, before) {
        (None, Some(_)) => true,
        (Some(now), Some(before)) => now < before,
        _ => false,
    };
    if decremented {
        errs.push(field::invalid(
            &Path::names(&["status", "collisionCount"]),
            now.unwrap_or(0),
            "cannot be decremented",
        ));
    }
}

/// `ValidateDeploymentStatusUpdate`.
pub(super) fn deployment_status_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update_of(new, old);
    let (status, path) = (status_of(new), Path::new("status"));
    counters(
        status,
        &[
            "observedGeneration",
            "replicas",
            "updatedReplicas",
            "readyReplicas",
            "availableReplicas",
            "unavailableReplicas",
        ],
        &path,
        &mut errs,
    );
    optional_counter(status, "terminatingReplicas", &path, &mut errs);
    optional_counter(status, "collisionCount", &path, &mut errs);
    within_replicas(
        status,
        &["updatedReplicas", "readyReplicas", "availableReplicas"],
        &path,
        &mut errs,
    );
    available_within_ready(
        status,
        "cannot be greater than readyReplicas",
        &path,
        &mut errs,
    );
    collision_count_kept(new, old, &mut errs);
    errs
}

/// `ValidateReplicaSetStatusUpdate`.
pub(super) fn replica_set_status_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update_of(new, old);
    let (status, path) = (status_of(new), Path::new("status"));
    counters(
        status,
        &[
            "replicas",
            "fullyLabeledReplicas",
            "readyReplicas",
            "availableReplicas",
            "observedGeneration",
        ],
        &path,
        &mut errs,
    );
    optional_counter(status, "terminatingReplicas", &path, &mut errs);
    within_replicas(
        status,
        &["fullyLabeledReplicas", "readyReplicas", "availableReplicas"],
        &path,
        &mut errs,
    );
    available_within_ready(
        status,
        "cannot be greater than readyReplicas",
        &path,
        &mut errs,
    );
    errs
}

/// `ValidateStatefulSetStatusUpdate`: the status first, then the metadata.
pub(super) fn stateful_set_status_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    let (status, path) = (status_of(new), Path::new("status"));
    counters(
        status,
        &[
            "replicas",
            "readyReplicas",
            "currentReplicas",
            "updatedReplicas",
            "availableReplicas",
        ],
        &path,
        &mut errs,
    );
    optional_counter(status, "observedGeneration", &path, &mut errs);
    optional_counter(status, "collisionCount", &path, &mut errs);
    within_replicas(
        status,
        &[
            "readyReplicas",
            "currentReplicas",
            "updatedReplicas",
            "availableReplicas",
        ],
        &path,
        &mut errs,
    );
    available_within_ready(
        status,
        "cannot be greater than status.readyReplicas",
        &path,
        &mut errs,
    );
    errs.extend(validate_object_meta_update_of(new, old));
    collision_count_kept(new, old, &mut errs);
    errs
}

/// `ValidateDaemonSetStatusUpdate`.
pub(super) fn daemon_set_status_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update_of(new, old);
    let (status, path) = (status_of(new), Path::new("status"));
    counters(
        status,
        &[
            "currentNumberScheduled",
            "numberMisscheduled",
            "desiredNumberScheduled",
            "numberReady",
            "observedGeneration",
            "updatedNumberScheduled",
            "numberAvailable",
            "numberUnavailable",
        ],
        &path,
        &mut errs,
    );
    optional_counter(status, "collisionCount", &path, &mut errs);
    collision_count_kept(new, old, &mut errs);
    errs
}
