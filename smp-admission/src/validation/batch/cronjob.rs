//! CronJob (`ValidateCronJobCreate`, `ValidateCronJobUpdate`, `validateCronJobSpec`).
//! On update a schedule already holding `TZ` stays allowed and an unchanged time zone is not
//! re-checked, so stored objects keep updating.

use serde_json::Value;

use super::cron::parse_standard;
use super::job::job_spec_rules;
use super::timezone::validate_time_zone;
use crate::validation::apps::shared::{NULL, member, non_negative, spec_of, template_options};
use crate::validation::core::pod::PodOptions;
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::{validate_object_meta, validate_object_meta_update};
use crate::validation::names;
use crate::validation::read;

/// A Job name is the CronJob name plus an 11-character suffix, within 63.
const MAX_NAME_LENGTH: usize = 52;

fn pod_template(obj: &Value) -> Option<&Value> {
    spec_of(obj)
        .get("jobTemplate")
        .and_then(|t| t.get("spec"))
        .and_then(|s| s.get("template"))
}

pub(super) fn cron_job(obj: &Value) -> ErrorList {
    let metadata = obj.get("metadata").unwrap_or(&NULL);
    let meta_path = Path::new("metadata");
    let mut errs = validate_object_meta(
        Some(metadata),
        true,
        names::name_is_dns_subdomain,
        &meta_path,
    );
    let opts = template_options(pod_template(obj), None);
    spec_rules(spec_of(obj), None, &opts, &mut errs);
    let name = read::text(metadata, "name");
    if name.len() > MAX_NAME_LENGTH {
        errs.push(field::invalid(
            &meta_path.child("name"),
            name,
            "must be no more than 52 characters",
        ));
    }
    errs
}

/// No name-length rule on update, so older long-named CronJobs can still change or go.
pub(super) fn cron_job_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    let opts = template_options(pod_template(new), pod_template(old));
    spec_rules(spec_of(new), Some(spec_of(old)), &opts, &mut errs);
    errs
}

fn spec_rules(spec: &Value, old: Option<&Value>, opts: &PodOptions, errs: &mut ErrorList) {
    let path = Path::new("spec");
    let schedule = read::text(spec, "schedule");
    let schedule_path = path.child("schedule");
    let time_zone = member(spec, "timeZone");
    if schedule.is_empty() {
        errs.push(field::required(&schedule_path, ""));
    } else {
        let allow_tz = old.is_some_and(|o| read::text(o, "schedule").contains("TZ"));
        schedule_format(
            schedule,
            allow_tz,
            time_zone.is_some(),
            &schedule_path,
            errs,
        );
    }
    if let Some(deadline) = read::opt_int(spec, "startingDeadlineSeconds") {
        non_negative(deadline, &path.child("startingDeadlineSeconds"), errs);
    }
    let zone_changed = old.is_none_or(|o| !read::semantic_eq(member(o, "timeZone"), time_zone));
    if let (true, Some(zone)) = (zone_changed, time_zone) {
        validate_time_zone(zone.as_str().unwrap_or(""), &path.child("timeZone"), errs);
    }
    let policy_path = path.child("concurrencyPolicy");
    match read::text(spec, "concurrencyPolicy") {
        "Allow" | "Forbid" | "Replace" => {}
        "" => errs.push(field::required(&policy_path, "")),
        other => errs.push(field::not_supported(
            &policy_path,
            other,
            &["Allow", "Forbid", "Replace"],
        )),
    }
    job_template(
        spec.get("jobTemplate").unwrap_or(&NULL),
        &path.child("jobTemplate"),
        opts,
        errs,
    );
    for key in ["successfulJobsHistoryLimit", "failedJobsHistoryLimit"] {
        if let Some(limit) = read::opt_int(spec, key) {
            non_negative(limit, &path.child(key), errs);
        }
    }
}

/// `validateScheduleFormat`.
fn schedule_format(
    schedule: &str,
    allow_tz: bool,
    has_zone: bool,
    path: &Path,
    errs: &mut ErrorList,
) {
    if let Err(e) = parse_standard(schedule) {
        errs.push(field::invalid(path, schedule, &e));
    }
    let has_tz = schedule.contains("TZ");
    if allow_tz && has_tz && has_zone {
        errs.push(field::invalid(
            path,
            schedule,
            "cannot use both timeZone field and TZ or CRON_TZ in schedule",
        ));
    } else if !allow_tz && has_tz {
        errs.push(field::invalid(
            path,
            schedule,
            "cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
        ));
    }
}

/// `ValidateJobTemplateSpec`: the Job spec rules, with the selector left to the server.
fn job_template(template: &Value, path: &Path, opts: &PodOptions, errs: &mut ErrorList) {
    let spec = template.get("spec").unwrap_or(&NULL);
    let spec_path = path.child("spec");
    job_spec_rules(spec, &spec_path, opts, errs);
    if let Some(selector) = member(spec, "selector") {
        errs.push(field::invalid(
            &spec_path.child("selector"),
            BadValue::Json(selector.clone()),
            "`selector` will be auto-generated",
        ));
    }
    if read::opt_bool(spec, "manualSelector") == Some(true) {
        errs.push(field::not_supported(
            &spec_path.child("manualSelector"),
            true,
            &["nil", "false"],
        ));
    }
}
