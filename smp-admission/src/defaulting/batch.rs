//! batch/v1's defaults (`pkg/apis/batch/v1/defaults.go`), and the pod template's.

use serde_json::json;

use super::core::pod_template_spec;
use crate::value::{Object, child, child_or_new, default_nil, default_string, is_nil, items};

/// A Job: one completion at a time unless told, 6 retries (or unlimited with a per-index
/// limit), non-indexed, not suspended, its template's labels, pod conditions `True` by
/// default in its failure policy, and replacement once pods failed or are terminating
/// (JobPodReplacementPolicy, GA in v1.34), no manual selector.
pub(super) fn job(job: &mut Object) {
    let labels = child(job, "spec")
        .and_then(|s| child(s, "template"))
        .and_then(|t| child(t, "metadata"))
        .and_then(|m| m.get("labels"))
        .filter(|l| l.is_object())
        .cloned();
    if let Some(labels) = labels
        && let Some(metadata) = child_or_new(job, "metadata")
        && crate::value::is_empty_collection(metadata, "labels")
    {
        metadata.insert("labels".into(), labels);
    }
    let Some(spec) = child_or_new(job, "spec") else {
        return;
    };
    if is_nil(spec, "completions") && is_nil(spec, "parallelism") {
        spec.insert("completions".into(), json!(1));
        spec.insert("parallelism".into(), json!(1));
    }
    default_nil(spec, "parallelism", json!(1));
    if is_nil(spec, "backoffLimit") {
        let limit = if is_nil(spec, "backoffLimitPerIndex") {
            6
        } else {
            i64::from(i32::MAX)
        };
        spec.insert("backoffLimit".into(), json!(limit));
    }
    default_nil(spec, "completionMode", json!("NonIndexed"));
    default_nil(spec, "suspend", json!(false));
    let replacement = if is_nil(spec, "podFailurePolicy") {
        "TerminatingOrFailed"
    } else {
        "Failed"
    };
    default_nil(spec, "podReplacementPolicy", json!(replacement));
    default_nil(spec, "manualSelector", json!(false));
    failure_policy_patterns(spec);
    if let Some(template) = child_or_new(spec, "template") {
        pod_template_spec(template);
    }
}

/// A pod failure policy's condition patterns match `True` unless they say otherwise.
fn failure_policy_patterns(spec: &mut Object) {
    if let Some(policy) = child(spec, "podFailurePolicy") {
        for rule in items(policy, "rules") {
            for pattern in items(rule, "onPodConditions") {
                default_string(pattern, "status", "True");
            }
        }
    }
}

/// A CronJob: concurrent runs allowed, not suspended, 3 successful and 1 failed job kept.
pub(super) fn cron_job(cron_job: &mut Object) {
    let Some(spec) = child_or_new(cron_job, "spec") else {
        return;
    };
    default_string(spec, "concurrencyPolicy", "Allow");
    default_nil(spec, "suspend", json!(false));
    default_nil(spec, "successfulJobsHistoryLimit", json!(3));
    default_nil(spec, "failedJobsHistoryLimit", json!(1));
    // The job template gets no Job defaults (the Job made from it will): only its failure
    // policy's patterns and its pod template's.
    if let Some(job) = child(spec, "jobTemplate").and_then(|t| child(t, "spec")) {
        failure_policy_patterns(job);
        if let Some(template) = child_or_new(job, "template") {
            pod_template_spec(template);
        }
    }
}
