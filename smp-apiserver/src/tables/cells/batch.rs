//! The batch group's rows: Jobs and CronJobs.

use serde_json::{Value, json};

use super::Row;
use super::common::{
    age, ago, containers, instant, int_if_set, is_set, is_true, name, pod_spec, selector_cell,
};
use crate::tables::duration::{Now, human};
use crate::tables::format::{int, items, text};

/// A Job: where it stands, how many pods succeeded of how many wanted, how long it ran, and
/// what it runs.
pub(super) fn job(object: &Value, now: Now) -> Row {
    let [names, images] = containers(pod_spec(object, "/spec/template"));
    vec![
        name(object),
        json!(job_status(object)),
        json!(completions(object)),
        json!(job_duration(object, now)),
        age(object, now),
        names,
        images,
        selector_cell(object.pointer("/spec/selector")),
    ]
    .into()
}

/// The first of the Job's states that holds, finished ones first.
fn job_status(job: &Value) -> &'static str {
    let conditions = items(job, "/status/conditions");
    if is_true(conditions, "Complete") {
        "Complete"
    } else if is_true(conditions, "Failed") {
        "Failed"
    } else if is_set(job, "/metadata/deletionTimestamp") {
        "Terminating"
    } else {
        ["Suspended", "FailureTarget", "SuccessCriteriaMet"]
            .into_iter()
            .find(|kind| is_true(conditions, kind))
            .unwrap_or("Running")
    }
}

/// `succeeded/completions`, or for a Job that runs until one pod succeeds, `succeeded/1`
/// and how many run at once.
fn completions(job: &Value) -> String {
    let succeeded = int(job, "/status/succeeded");
    match int_if_set(job, "/spec/completions") {
        Some(wanted) => format!("{succeeded}/{wanted}"),
        None => match int(job, "/spec/parallelism") {
            parallel if parallel > 1 => format!("{succeeded}/1 of {parallel}"),
            _ => format!("{succeeded}/1"),
        },
    }
}

/// How long the Job ran: to its completion, or so far.
fn job_duration(job: &Value, now: Now) -> String {
    let Some(start) = instant(job.pointer("/status/startTime")) else {
        return String::new();
    };
    let end = instant(job.pointer("/status/completionTime")).unwrap_or(now.0);
    human(end.saturating_sub(start))
}

/// A CronJob: its schedule, whether it is suspended, its running Jobs and last run, and
/// what its Jobs run.
pub(super) fn cron_job(object: &Value, now: Now) -> Row {
    let job_template = "/spec/jobTemplate/spec/template";
    let [names, images] = containers(pod_spec(object, job_template));
    let suspend = match object.pointer("/spec/suspend").and_then(Value::as_bool) {
        Some(true) => "True",
        // Absent means the API's default, not suspended.
        _ => "False",
    };
    vec![
        name(object),
        json!(text(object, "/spec/schedule")),
        json!(
            object
                .pointer("/spec/timeZone")
                .and_then(Value::as_str)
                .unwrap_or("<none>")
        ),
        json!(suspend),
        json!(items(object, "/status/active").len()),
        json!(
            ago(now, object.pointer("/status/lastScheduleTime"))
                .unwrap_or_else(|| "<none>".to_owned())
        ),
        age(object, now),
        names,
        images,
        selector_cell(object.pointer("/spec/jobTemplate/spec/selector")),
    ]
    .into()
}

#[cfg(test)]
mod tests {
    use super::super::common::tests::now;
    use super::*;

    fn job_of(spec: Value, status: Value) -> Value {
        let mut spec = spec;
        spec["template"] = json!({"spec": {"containers": [{"name": "pi", "image": "perl:5.34"}]}});
        json!({"metadata": {"name": "pi", "creationTimestamp": "2026-11-28T11:00:00Z"}, "spec": spec, "status": status})
    }

    #[test]
    fn finished_jobs() {
        let j = job_of(
            json!({"completions": 1, "parallelism": 1,
                "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": "4b1c"}}}),
            json!({"succeeded": 1, "startTime": "2026-11-28T11:00:01Z", "completionTime": "2026-11-28T11:00:43Z",
                "conditions": [{"type": "SuccessCriteriaMet", "status": "True"}, {"type": "Complete", "status": "True"}]}),
        );
        assert_eq!(
            job(&j, now()).cells,
            vec![
                json!("pi"),
                json!("Complete"),
                json!("1/1"),
                json!("42s"),
                json!("60m"),
                json!("pi"),
                json!("perl:5.34"),
                json!("batch.kubernetes.io/controller-uid=4b1c")
            ]
        );
    }

    #[test]
    fn running_and_failing_jobs() {
        let running = job_of(
            json!({"parallelism": 3}),
            json!({"startTime": "2026-11-28T11:57:00Z", "succeeded": 1}),
        );
        assert_eq!(
            job(&running, now()).cells[1..4],
            [json!("Running"), json!("1/1 of 3"), json!("3m")]
        );
        let failed = job_of(
            json!({"completions": 5}),
            json!({"conditions": [{"type": "FailureTarget", "status": "True"}, {"type": "Failed", "status": "True"}]}),
        );
        assert_eq!(
            job(&failed, now()).cells[1..4],
            [json!("Failed"), json!("0/5"), json!("")]
        );
        let suspended = job_of(
            json!({}),
            json!({"conditions": [{"type": "Suspended", "status": "True"}]}),
        );
        assert_eq!(
            job(&suspended, now()).cells[1..3],
            [json!("Suspended"), json!("0/1")]
        );
        let mut deleting = job_of(
            json!({}),
            json!({"conditions": [{"type": "Suspended", "status": "True"}]}),
        );
        deleting["metadata"]["deletionTimestamp"] = json!("2026-11-28T11:59:00Z");
        assert_eq!(job(&deleting, now()).cells[1], json!("Terminating"));
        let criteria = job_of(
            json!({}),
            json!({"conditions": [{"type": "SuccessCriteriaMet", "status": "True"}]}),
        );
        assert_eq!(job(&criteria, now()).cells[1], json!("SuccessCriteriaMet"));
    }

    #[test]
    fn cron_jobs() {
        let cj = json!({"metadata": {"name": "backup", "creationTimestamp": "2026-11-01T00:00:00Z"},
            "spec": {"schedule": "0 3 * * *", "timeZone": "Europe/Berlin", "suspend": false,
                "jobTemplate": {"spec": {"template": {"spec": {"containers": [{"name": "b", "image": "restic"}]}}}}},
            "status": {"active": [{"name": "backup-1"}], "lastScheduleTime": "2026-11-28T03:00:00Z"}});
        assert_eq!(
            cron_job(&cj, now()).cells,
            vec![
                json!("backup"),
                json!("0 3 * * *"),
                json!("Europe/Berlin"),
                json!("False"),
                json!(1),
                json!("9h"),
                json!("27d"),
                json!("b"),
                json!("restic"),
                json!("<none>")
            ]
        );
        let bare = json!({"spec": {"schedule": "@hourly", "suspend": true}});
        assert_eq!(
            cron_job(&bare, now()).cells[1..6],
            [
                json!("@hourly"),
                json!("<none>"),
                json!("True"),
                json!(0),
                json!("<none>")
            ]
        );
    }
}
