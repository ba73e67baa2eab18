//! A DELETE's options and what they do to the object they hold back: the garbage
//! collector's finalizers a propagation policy asks for (`orphan`, `foregroundDeletion`), and
//! the marks of an object being deleted (`deletionTimestamp`, one more `generation`).
//! The namespace registry, the garbage collector and DELETE itself read these.

use http::StatusCode;
use serde_json::{Value, json};
use smp_ssa::managedfields::{read_time, write_time};

use super::body::parse_text;
use super::call::Call;
use super::options::{dry_run, refuse};
use crate::object;
use crate::registry::deletion::GcPolicy;
use crate::status::{ApiError, FieldError};

/// The finalizer that makes the garbage collector delete an object's dependents first.
pub(crate) const FOREGROUND: &str = "foregroundDeletion";
/// The finalizer that makes the garbage collector orphan an object's dependents first.
pub(crate) const ORPHAN: &str = "orphan";

/// A propagation policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Propagation {
    Foreground,
    Background,
    Orphan,
}

/// A DELETE's options (`DeleteOptions`): from its body when it has one, else from its query.
#[derive(Debug, Clone, Default)]
pub(crate) struct DeleteOptions {
    pub(crate) grace_period: Option<i64>,
    pub(crate) propagation: Option<Propagation>,
    pub(crate) orphan_dependents: Option<bool>,
    pub(crate) uid: Option<String>,
    pub(crate) resource_version: Option<String>,
    pub(crate) dry_run: bool,
}

impl DeleteOptions {
    /// Reads and checks the options (`ValidateDeleteOptions`).
    pub(crate) fn read(call: &Call<'_>, body: &[u8]) -> Result<DeleteOptions, ApiError> {
        let mut errors = Vec::new();
        let mut options = DeleteOptions::default();
        let propagation: Option<String>;
        if body.iter().all(u8::is_ascii_whitespace) {
            if let Some(grace) = call.query("gracePeriodSeconds") {
                options.grace_period = Some(grace.parse::<i64>().map_err(|_| {
                    ApiError::bad_request(format!(
                        "strconv.ParseInt: parsing {grace:?}: invalid syntax"
                    ))
                })?);
            }
            options.orphan_dependents = call
                .query("orphanDependents")
                .map(|v| !(v == "0" || v.eq_ignore_ascii_case("false")));
            propagation = call.query("propagationPolicy").map(str::to_owned);
            dry_run(call.query("dryRun"), &mut errors);
            options.dry_run = call.query("dryRun") == Some("All");
        } else {
            // A body counts alone: the query's options are not read.
            let given: Value = parse_text(body).map_err(|e| {
                ApiError::bad_request(format!("error decoding DeleteOptions: {}", e.message))
            })?;
            let text = |pointer: &str| {
                given
                    .pointer(pointer)
                    .and_then(Value::as_str)
                    .filter(|v| !v.is_empty())
                    .map(str::to_owned)
            };
            options.grace_period = given.get("gracePeriodSeconds").and_then(Value::as_i64);
            options.orphan_dependents = given.get("orphanDependents").and_then(Value::as_bool);
            propagation = given
                .get("propagationPolicy")
                .and_then(Value::as_str)
                .map(str::to_owned);
            options.uid = text("/preconditions/uid");
            options.resource_version = text("/preconditions/resourceVersion");
            for value in given
                .get("dryRun")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                dry_run(value.as_str(), &mut errors);
                options.dry_run = true;
            }
        }
        if let Some(policy) = &propagation {
            if options.orphan_dependents.is_some() {
                errors.push(FieldError::invalid(
                    "propagationPolicy",
                    &json!(policy),
                    "orphanDependents and deletionPropagation cannot be both set",
                ));
            }
            options.propagation = match policy.as_str() {
                "Foreground" => Some(Propagation::Foreground),
                "Background" => Some(Propagation::Background),
                "Orphan" => Some(Propagation::Orphan),
                _ => {
                    errors.push(FieldError::not_supported(
                        "propagationPolicy",
                        &json!(policy),
                        &["Foreground", "Background", "Orphan", "nil"],
                    ));
                    None
                }
            };
        }
        refuse("DeleteOptions", errors)?;
        // A negative grace period is one second.
        options.grace_period = options.grace_period.map(|g| if g < 0 { 1 } else { g });
        Ok(options)
    }

    /// Whether the object's dependents are orphaned (`shouldOrphanDependents`).
    pub(super) fn orphans(&self, default: GcPolicy, finalizers: &[String]) -> bool {
        if default == GcPolicy::Unsupported {
            return false;
        }
        if let Some(orphan) = self.orphan_dependents {
            return orphan;
        }
        if let Some(policy) = self.propagation {
            return policy == Propagation::Orphan;
        }
        match finalizers.iter().find(|f| *f == ORPHAN || *f == FOREGROUND) {
            Some(f) => f == ORPHAN,
            None => default == GcPolicy::OrphanDependents,
        }
    }

    /// Whether the object waits for its dependents (`shouldDeleteDependents`).
    pub(super) fn deletes_dependents(&self, default: GcPolicy, finalizers: &[String]) -> bool {
        if default == GcPolicy::Unsupported || self.orphan_dependents.is_some() {
            return false;
        }
        if let Some(policy) = self.propagation {
            return policy == Propagation::Foreground;
        }
        finalizers
            .iter()
            .find(|f| *f == ORPHAN || *f == FOREGROUND)
            .is_some_and(|f| f == FOREGROUND)
    }

    /// The object's finalizers with the garbage collector's as these options want them, if
    /// that changes the set (`deletionFinalizersForGarbageCollection`).
    pub(super) fn collector_finalizers(
        &self,
        default: GcPolicy,
        finalizers: &[String],
    ) -> Option<Vec<String>> {
        let mut wanted: Vec<String> = finalizers
            .iter()
            .filter(|f| *f != ORPHAN && *f != FOREGROUND)
            .cloned()
            .collect();
        if self.orphans(default, finalizers) {
            wanted.push(ORPHAN.into());
        }
        if self.deletes_dependents(default, finalizers) {
            wanted.push(FOREGROUND.into());
        }
        let set = |list: &[String]| {
            list.iter()
                .cloned()
                .collect::<std::collections::BTreeSet<_>>()
        };
        (set(&wanted) != set(finalizers)).then_some(wanted)
    }

    /// The answer's code for a deletion that did not finish: 202 only when the (deprecated)
    /// `orphanDependents` was set to false.
    pub(super) fn pending_code(&self) -> StatusCode {
        if self.orphan_dependents == Some(false) {
            StatusCode::ACCEPTED
        } else {
            StatusCode::OK
        }
    }
}

pub(super) fn mark(object: &mut Value, at: i64, period: i64) {
    let metadata = object::metadata_mut(object);
    metadata.insert("deletionTimestamp".into(), json!(write_time(at)));
    metadata.insert("deletionGracePeriodSeconds".into(), json!(period));
}

/// One more `generation`, for an object that has one.
pub(super) fn bump_generation(object: &mut Value) {
    if let Some(g) = object
        .pointer("/metadata/generation")
        .and_then(Value::as_i64)
        .filter(|g| *g > 0)
    {
        object::metadata_mut(object).insert("generation".into(), json!(g + 1));
    }
}

/// `markAsDeleting`: a non-graceful object held by finalizers, marked now (an earlier mark
/// stays), with no grace period, its generation moved on the first mark.
pub(crate) fn mark_as_deleting(object: &mut Value, now: i64) {
    let stamp = object
        .pointer("/metadata/deletionTimestamp")
        .and_then(Value::as_str)
        .and_then(read_time);
    if stamp.is_none() {
        bump_generation(object);
    }
    let at = match stamp {
        Some(stamp) if stamp <= now => stamp,
        _ => now,
    };
    mark(object, at, 0);
}

/// An object's finalizers.
pub(crate) fn finalizers(object: &Value) -> Vec<String> {
    crate::object::strings_at(object, "/metadata/finalizers")
}

pub(super) fn set_finalizers(object: &mut Value, list: &[String]) {
    let metadata = object::metadata_mut(object);
    if list.is_empty() {
        metadata.remove("finalizers");
    } else {
        metadata.insert("finalizers".into(), json!(list));
    }
}
