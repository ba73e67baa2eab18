//! The batch kinds' status endpoints.
//!
//! A CronJob's status strategy checks nothing of its own (its `ValidateUpdate` returns no
//! errors in v1.34): what a write to `cronjobs/status` can still fail on is the generic update
//! check of the registry code (`rest.BeforeUpdate`), the metadata, with names as path segments,
//! then the metadata update rules.
//!
//! A Job's status is checked by `ValidateJobUpdateStatus` with the options its status strategy
//! derives. `JobManagedBy` is on in v1.34 (beta), so the strategy asks for the strict checks
//! that keep a status written by another controller coherent; most of them apply only when
//! the fields they look at changed, so a status that was already off may still be written to
//! about something else, and a controller can fix a status that a spec change (a scale-down of
//! an indexed Job) put out of line.

use std::collections::HashSet;

use chrono::{DateTime, FixedOffset};
use serde_json::Value;

use super::policies::{indexes_total, interval_bounds};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::{IS_NEGATIVE, validate_object_meta, validate_object_meta_update};
use crate::validation::names;
use crate::validation::read;

/// The generic metadata checks of an update, the only ones a CronJob's status write meets.
pub(super) fn cron_job_status_update(new: &Value, old: &Value) -> ErrorList {
    let metadata = Path::new("metadata");
    let mut errs = validate_object_meta(
        new.get("metadata"),
        true,
        names::name_is_path_segment,
        &metadata,
    );
    errs.extend(validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &metadata,
    ));
    errs
}

/// The strict checks the v1.34 status strategy asks for, each on when its fields changed (or
/// always). The checks whose option the strategy always turns off
/// (`AllowForSuccessCriteriaMetInExtendedScope` is always on) are left out.
struct Checks {
    decreasing_succeeded: bool,
    invalid_completed_indexes: bool,
    invalid_failed_indexes: bool,
    failed_indexes_overlap: bool,
    failed_without_failure_target: bool,
    complete_without_success_criteria: bool,
    finished_with_active: bool,
    finished_without_start_time: bool,
    finished_with_uncounted: bool,
    start_time_update: bool,
    completion_before_start: bool,
    completion_time_without_complete: bool,
    complete_with_failed: bool,
    complete_with_failure_target: bool,
    more_ready_than_active: bool,
    finished_with_terminating: bool,
}

/// A Job's view of its conditions and status members, as the checks ask for them.
struct JobView<'a> {
    spec: &'a Value,
    status: &'a Value,
}

impl<'a> JobView<'a> {
    fn of(job: &'a Value) -> Self {
        JobView {
            spec: job.get("spec").unwrap_or(&Value::Null),
            status: job.get("status").unwrap_or(&Value::Null),
        }
    }

    /// `IsConditionTrue`: a condition of the type with status `True`.
    fn is_true(&self, kind: &str) -> bool {
        read::list(self.status, "conditions")
            .iter()
            .any(|c| read::text(c, "type") == kind && read::text(c, "status") == "True")
    }

    fn complete(&self) -> bool {
        self.is_true("Complete")
    }

    fn failed(&self) -> bool {
        self.is_true("Failed")
    }

    fn finished(&self) -> bool {
        self.complete() || self.failed()
    }

    fn failure_target(&self) -> bool {
        self.is_true("FailureTarget")
    }

    fn success_criteria_met(&self) -> bool {
        self.is_true("SuccessCriteriaMet")
    }

    fn indexed(&self) -> bool {
        read::text(self.spec, "completionMode") == "Indexed"
    }

    /// A member of the status, `None` when absent or null (a Go pointer left nil).
    fn member(&self, key: &str) -> Option<&'a Value> {
        self.status.get(key).filter(|v| !v.is_null())
    }

    fn time(&self, key: &str) -> Option<Instant<'a>> {
        self.member(key).map(Instant::of)
    }
}

/// A `metav1.Time` as the server compares it: the instant when it parses, else the text.
#[derive(Clone, Copy)]
struct Instant<'a> {
    text: &'a str,
    at: Option<DateTime<FixedOffset>>,
}

impl<'a> Instant<'a> {
    fn of(v: &'a Value) -> Self {
        let text = v.as_str().unwrap_or("");
        Instant {
            text,
            at: DateTime::parse_from_rfc3339(text).ok(),
        }
    }

    fn same(self, other: Self) -> bool {
        match (self.at, other.at) {
            (Some(a), Some(b)) => a == b,
            _ => self.text == other.text,
        }
    }

    fn before(self, other: Self) -> bool {
        matches!((self.at, other.at), (Some(a), Some(b)) if a < b)
    }
}

fn same_time(a: Option<Instant>, b: Option<Instant>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.same(b),
        (None, None) => true,
        _ => false,
    }
}

/// The options `getStatusValidationOptions` of the v1.34 job strategy derives from the two
/// Jobs (the `JobManagedBy` branch).
fn checks(new: &JobView, old: &JobView) -> Checks {
    let changed = |key: &str| new.member(key) != old.member(key);
    let finished = new.finished() != old.finished();
    let complete = new.complete() != old.complete();
    let failed = new.failed() != old.failed();
    let failure_target = new.failure_target() != old.failure_target();
    let success_criteria = new.success_criteria_met() != old.success_criteria_met();
    let completed_indexes =
        read::text(new.status, "completedIndexes") != read::text(old.status, "completedIndexes");
    let failed_indexes = changed("failedIndexes");
    let active = read::int(new.status, "active") != read::int(old.status, "active");
    let start_time = !same_time(new.time("startTime"), old.time("startTime"));
    let completion_time = !same_time(new.time("completionTime"), old.time("completionTime"));
    let uncounted = uncounted_differ(new.status, old.status);
    let ready = read::opt_int(new.status, "ready") != read::opt_int(old.status, "ready");
    let terminating =
        read::opt_int(new.status, "terminating") != read::opt_int(old.status, "terminating");
    let suspended_with_no_completions = new.spec.get("suspend") == Some(&Value::Bool(true))
        && read::opt_int(new.spec, "completions") == Some(0);
    Checks {
        decreasing_succeeded: !new.indexed()
            || read::opt_int(new.spec, "completions") != read::opt_int(new.spec, "parallelism"),
        invalid_completed_indexes: completed_indexes,
        invalid_failed_indexes: failed_indexes,
        failed_indexes_overlap: failed_indexes || completed_indexes,
        failed_without_failure_target: failed || failed_indexes,
        complete_without_success_criteria: complete || success_criteria,
        finished_with_active: finished || active,
        finished_without_start_time: (finished || start_time) && !suspended_with_no_completions,
        finished_with_uncounted: finished || uncounted,
        start_time_update: start_time,
        completion_before_start: start_time || completion_time,
        completion_time_without_complete: complete || completion_time,
        complete_with_failed: complete || failed,
        complete_with_failure_target: complete || failure_target,
        more_ready_than_active: ready || active,
        finished_with_terminating: finished || terminating,
    }
}

/// Whether `uncountedTerminatedPods` differs, as `Semantic.DeepEqual` sees it: absent and
/// null alike, and so are an empty list and none (the comparison takes nil and empty slices
/// as equal); an empty object and none differ.
fn uncounted_differ(new: &Value, old: &Value) -> bool {
    let of = |s: &Value| {
        s.get("uncountedTerminatedPods")
            .filter(|v| !v.is_null())
            .cloned()
    };
    let normal = |v: Option<Value>| {
        v.map(|mut u| {
            if let Some(map) = u.as_object_mut() {
                map.retain(|_, member| {
                    !member.is_null() && member.as_array().is_none_or(|list| !list.is_empty())
                });
            }
            u
        })
    };
    normal(of(new)) != normal(of(old))
}

const CONDITIONS_DETAIL_COMPLETE_FAILED: &str =
    "cannot set Complete=True and Failed=true conditions";

/// `ValidateJobUpdateStatus` for a write to `jobs/status`.
pub(super) fn job_status_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    let (job, was) = (JobView::of(new), JobView::of(old));
    let checks = checks(&job, &was);
    let path = Path::new("status");
    job_status(&job, &checks, &path, &mut errs);
    status_transitions(&job, &was, &checks, &path, &mut errs);
    errs
}

/// `validateJobStatus`: counters, uncounted pods, and the coherence of the conditions with the
/// rest of the status.
fn job_status(job: &JobView, checks: &Checks, path: &Path, errs: &mut ErrorList) {
    let status = job.status;
    for key in ["active", "succeeded", "failed"] {
        non_negative(read::int(status, key), &path.child(key), errs);
    }
    for key in ["ready", "terminating"] {
        if let Some(n) = read::opt_int(status, key) {
            non_negative(n, &path.child(key), errs);
        }
    }
    let uncounted = job.member("uncountedTerminatedPods");
    if let Some(uncounted) = uncounted {
        let at = path.child("uncountedTerminatedPods");
        let mut seen = HashSet::new();
        for list in ["succeeded", "failed"] {
            let list_path = at.child(list);
            for (i, uid) in read::list(uncounted, list).iter().enumerate() {
                let uid = uid.as_str().unwrap_or("");
                let item = list_path.index(i);
                if uid.is_empty() {
                    errs.push(field::invalid(&item, uid, "must not be empty"));
                } else if !seen.insert(uid) {
                    errs.push(field::duplicate(&item, uid));
                }
            }
        }
    }
    let conditions = path.child("conditions");
    let condition_error = |detail: &str| field::invalid(&conditions, BadValue::Omit, detail);
    let (complete, failed) = (job.complete(), job.failed());
    if checks.complete_with_failed && complete && failed {
        errs.push(condition_error(CONDITIONS_DETAIL_COMPLETE_FAILED));
    }
    if checks.complete_with_failure_target && complete && job.failure_target() {
        errs.push(condition_error(
            "cannot set Complete=True and FailureTarget=true conditions",
        ));
    }
    let completion_path = path.child("completionTime");
    let (start, completion) = (job.time("startTime"), job.time("completionTime"));
    if checks.completion_time_without_complete {
        match (completion, complete) {
            (Some(at), false) => errs.push(field::invalid(
                &completion_path,
                at.text,
                "cannot set completionTime when there is no Complete=True condition",
            )),
            (None, true) => errs.push(field::required(
                &completion_path,
                "completionTime is required for Complete jobs",
            )),
            _ => {}
        }
    }
    if let (true, Some(start), Some(end)) = (checks.completion_before_start, start, completion)
        && end.before(start)
    {
        errs.push(field::invalid(
            &completion_path,
            end.text,
            "completionTime cannot be set before startTime",
        ));
    }
    if checks.failed_without_failure_target && failed && !job.failure_target() {
        errs.push(condition_error(
            "cannot set Failed=True condition without the FailureTarget=true condition",
        ));
    }
    if checks.complete_without_success_criteria && complete && !job.success_criteria_met() {
        errs.push(condition_error(
            "cannot set Complete=True condition without the SuccessCriteriaMet=true condition",
        ));
    }
    let finished = job.finished();
    let active = read::int(status, "active");
    if checks.finished_with_active && finished && active > 0 {
        errs.push(field::invalid(
            &path.child("active"),
            active,
            "active>0 is invalid for finished job",
        ));
    }
    if checks.finished_without_start_time && finished && start.is_none() {
        errs.push(field::required(
            &path.child("startTime"),
            "startTime is required for finished job",
        ));
    }
    if let (true, true, Some(pods)) = (checks.finished_with_uncounted, finished, uncounted)
        && (!read::list(pods, "failed").is_empty() || !read::list(pods, "succeeded").is_empty())
    {
        errs.push(field::invalid(
            &path.child("uncountedTerminatedPods"),
            pods,
            "uncountedTerminatedPods needs to be empty for finished job",
        ));
    }
    indexes(job, checks, path, errs);
    let terminating = read::opt_int(status, "terminating");
    if let (true, true, Some(n)) = (checks.finished_with_terminating, finished, terminating)
        && n > 0
    {
        errs.push(field::invalid(
            &path.child("terminating"),
            n,
            "terminating>0 is invalid for finished job",
        ));
    }
    if let (true, Some(ready)) = (
        checks.more_ready_than_active,
        read::opt_int(status, "ready"),
    ) && ready > active
    {
        errs.push(field::invalid(
            &path.child("ready"),
            ready,
            "cannot set more ready pods than active",
        ));
    }
    let success_criteria = job.success_criteria_met();
    if success_criteria && failed {
        errs.push(condition_error(
            "cannot set SuccessCriteriaMet=True and Failed=true conditions",
        ));
    }
    if success_criteria && job.failure_target() {
        errs.push(condition_error(
            "cannot set SuccessCriteriaMet=True and FailureTarget=true conditions",
        ));
    }
    if read::is_set(job.spec, "successPolicy") && !success_criteria && complete {
        errs.push(condition_error(
            "cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True",
        ));
    }
}

/// The checks of `completedIndexes` and `failedIndexes`: their format, which Jobs may have
/// them, and that no index is both.
fn indexes(job: &JobView, checks: &Checks, path: &Path, errs: &mut ErrorList) {
    let completions = read::opt_int(job.spec, "completions");
    let completed = read::text(job.status, "completedIndexes");
    let failed = job
        .member("failedIndexes")
        .map(|v| v.as_str().unwrap_or(""));
    let per_index = read::is_set(job.spec, "backoffLimitPerIndex");
    let (completed_path, failed_path) =
        (path.child("completedIndexes"), path.child("failedIndexes"));
    if let (true, Some(n)) = (checks.invalid_completed_indexes, completions)
        && let Err(message) = indexes_total(completed, n)
    {
        errs.push(field::invalid(
            &completed_path,
            completed,
            &format!("error parsing completedIndexes: {message}"),
        ));
    }
    if let (true, Some(n), true, Some(text)) = (
        checks.invalid_failed_indexes,
        completions,
        per_index,
        failed,
    ) && let Err(message) = indexes_total(text, n)
    {
        errs.push(field::invalid(
            &failed_path,
            text,
            &format!("error parsing failedIndexes: {message}"),
        ));
    }
    if checks.invalid_completed_indexes && !completed.is_empty() && !job.indexed() {
        errs.push(field::invalid(
            &completed_path,
            completed,
            "cannot set non-empty completedIndexes when non-indexed completion mode",
        ));
    }
    if let (true, false, Some(text)) = (checks.invalid_failed_indexes, per_index, failed) {
        errs.push(field::invalid(
            &failed_path,
            text,
            "cannot set non-null failedIndexes when backoffLimitPerIndex is null",
        ));
    }
    if let (true, Some(n), Some(text)) = (checks.failed_indexes_overlap, completions, failed)
        && let Some(index) = first_overlap(completed, text, n)
    {
        errs.push(field::invalid(
            &failed_path,
            text,
            &format!("failedIndexes and completedIndexes overlap at index: {index}"),
        ));
    }
}

/// `validateFailedIndexesNotOverlapCompleted`: walks both interval lists in step (an interval
/// that does not parse is skipped: its format is reported elsewhere) and returns the first
/// index in both.
fn first_overlap(completed: &str, failed: &str, completions: i64) -> Option<i64> {
    if completed.is_empty() || failed.is_empty() {
        return None;
    }
    let completed: Vec<&str> = completed.split(',').collect();
    let failed: Vec<&str> = failed.split(',').collect();
    let (mut c, mut f) = (0, 0);
    while let (Some(ci), Some(fi)) = (completed.get(c), failed.get(f)) {
        let Ok((cx, cy)) = interval_bounds(ci, completions) else {
            c += 1;
            continue;
        };
        let Ok((fx, fy)) = interval_bounds(fi, completions) else {
            f += 1;
            continue;
        };
        if cx <= fy && fx <= cy {
            return Some(cx.max(fx));
        }
        if cx <= fx {
            c += 1;
        } else {
            f += 1;
        }
    }
    None
}

/// `ValidateJobStatusUpdate`'s checks of the change itself: terminal conditions and the
/// success criteria stay, counters do not go down, the completion time does not move and the
/// start time of a running Job stays.
fn status_transitions(
    job: &JobView,
    was: &JobView,
    checks: &Checks,
    path: &Path,
    errs: &mut ErrorList,
) {
    let conditions = path.child("conditions");
    for kind in ["Failed", "Complete", "FailureTarget"] {
        if was.is_true(kind) && !job.is_true(kind) {
            errs.push(field::invalid(
                &conditions,
                BadValue::Omit,
                &format!("cannot disable the terminal {kind}=True condition"),
            ));
        }
    }
    let counter = |key: &str| (read::int(job.status, key), read::int(was.status, key));
    let (failed, failed_before) = counter("failed");
    if failed < failed_before {
        errs.push(field::invalid(
            &path.child("failed"),
            failed,
            "cannot decrease the failed counter",
        ));
    }
    let (succeeded, succeeded_before) = counter("succeeded");
    if checks.decreasing_succeeded && succeeded < succeeded_before {
        errs.push(field::invalid(
            &path.child("succeeded"),
            succeeded,
            "cannot decrease the succeeded counter",
        ));
    }
    if let (Some(now), Some(before)) = (job.time("completionTime"), was.time("completionTime"))
        && !now.same(before)
    {
        errs.push(field::invalid(
            &path.child("completionTime"),
            now.text,
            "completionTime cannot be mutated",
        ));
    }
    let suspended = job.spec.get("suspend") == Some(&Value::Bool(true));
    let (start, start_before) = (job.time("startTime"), was.time("startTime"));
    if checks.start_time_update
        && start_before.is_some()
        && !same_time(start, start_before)
        && !suspended
    {
        errs.push(field::required(
            &path.child("startTime"),
            "startTime cannot be removed for unsuspended job",
        ));
    }
    if was.success_criteria_met() && !job.success_criteria_met() {
        errs.push(field::invalid(
            &conditions,
            BadValue::Omit,
            "cannot disable the SuccessCriteriaMet=True condition",
        ));
    }
    if was.complete() && !was.success_criteria_met() && job.success_criteria_met() {
        errs.push(field::invalid(
            &conditions,
            BadValue::Omit,
            "cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions",
        ));
    }
}

fn non_negative(value: i64, path: &Path, errs: &mut ErrorList) {
    if value < 0 {
        errs.push(field::invalid(path, value, IS_NEGATIVE));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cron_job(name: &str, status: Value) -> Value {
        json!({"apiVersion": "batch/v1", "kind": "CronJob",
               "metadata": {"name": name, "namespace": "default", "resourceVersion": "1"},
               "spec": {"schedule": "not a schedule"}, "status": status})
    }

    #[test]
    fn the_status_and_the_old_spec_are_not_checked() {
        let old = cron_job("backup", json!({}));
        let new = cron_job(
            "backup",
            json!({"active": [{"name": ""}], "lastScheduleTime": "x"}),
        );
        assert!(cron_job_status_update(&new, &old).is_empty());
    }

    #[test]
    fn the_metadata_is() {
        let old = cron_job("backup", json!({}));
        let new = cron_job("other", json!({}));
        let errs = cron_job_status_update(&new, &old);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "metadata.name");
    }

    #[test]
    fn overlapping_indexes() {
        assert_eq!(first_overlap("0-2,5", "3,5", 10), Some(5));
        assert_eq!(first_overlap("0-2", "3-4", 10), None);
        // An interval that does not parse is passed over; its format is reported elsewhere.
        assert_eq!(first_overlap("x,1-3", "2", 10), Some(2));
        assert_eq!(first_overlap("", "1", 10), None);
    }
}
