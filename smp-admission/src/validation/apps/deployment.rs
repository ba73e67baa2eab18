//! Deployment and ReplicaSet (`ValidateDeployment`, `ValidateReplicaSet` and their updates),
//! with the selector immutability their registry strategies add on update.

use serde_json::Value;

use super::shared::{
    NULL, Selection, always_restart, check_template_match, int_or_percent_value, member,
    non_negative, not_more_than_100, required_selector, selection, spec_of, template_options,
    validate_int_or_percent,
};
use crate::validation::core::pod::{PodOptions, validate_pod_template_spec};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::{
    validate_immutable, validate_object_meta, validate_object_meta_update_of,
};
use crate::validation::names;
use crate::validation::read;

fn meta_create(obj: &Value) -> ErrorList {
    validate_object_meta(
        obj.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    )
}

/// The strategies' update rule for apps/v1: `spec.selector` may not change.
fn selector_immutable(new: &Value, old: &Value, errs: &mut ErrorList) {
    let spec = Path::new("spec");
    validate_immutable(
        spec_of(new).get("selector"),
        spec_of(old).get("selector"),
        &spec.child("selector"),
        errs,
    );
}

fn options(new: &Value, old: Option<&Value>) -> PodOptions {
    template_options(
        spec_of(new).get("template"),
        old.and_then(|o| spec_of(o).get("template")),
    )
}

pub(super) fn deployment(obj: &Value) -> ErrorList {
    let mut errs = meta_create(obj);
    deployment_spec(spec_of(obj), &options(obj, None), &mut errs);
    errs
}

/// `ValidateDeploymentUpdate` (no create-time metadata rules), then the selector freeze.
pub(super) fn deployment_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update_of(new, old);
    deployment_spec(spec_of(new), &options(new, Some(old)), &mut errs);
    selector_immutable(new, old, &mut errs);
    errs
}

pub(super) fn replica_set(obj: &Value) -> ErrorList {
    let mut errs = meta_create(obj);
    replica_set_spec(spec_of(obj), &options(obj, None), &mut errs);
    errs
}

/// The ReplicaSet strategy runs the create validation, then `ValidateReplicaSetUpdate`
/// (which checks the spec again), then the selector freeze: spec errors come twice.
pub(super) fn replica_set_update(new: &Value, old: &Value) -> ErrorList {
    let opts = options(new, Some(old));
    let mut errs = meta_create(new);
    replica_set_spec(spec_of(new), &opts, &mut errs);
    errs.extend(validate_object_meta_update_of(new, old));
    replica_set_spec(spec_of(new), &opts, &mut errs);
    selector_immutable(new, old, &mut errs);
    errs
}

/// `ValidateReplicaSetSpec`.
fn replica_set_spec(spec: &Value, opts: &PodOptions, errs: &mut ErrorList) {
    let path = Path::new("spec");
    non_negative(read::int(spec, "replicas"), &path.child("replicas"), errs);
    non_negative(
        read::int(spec, "minReadySeconds"),
        &path.child("minReadySeconds"),
        errs,
    );
    // The ReplicaSet message really names deployments.
    required_selector(spec, "deployment", &path, errs);
    selector_then_template(spec, &path, opts, errs);
}

/// `ValidateDeploymentSpec`.
fn deployment_spec(spec: &Value, opts: &PodOptions, errs: &mut ErrorList) {
    let path = Path::new("spec");
    non_negative(read::int(spec, "replicas"), &path.child("replicas"), errs);
    required_selector(spec, "deployment", &path, errs);
    selector_then_template(spec, &path, opts, errs);
    strategy(
        spec.get("strategy").unwrap_or(&NULL),
        &path.child("strategy"),
        errs,
    );
    let min_ready = read::int(spec, "minReadySeconds");
    non_negative(min_ready, &path.child("minReadySeconds"), errs);
    if let Some(limit) = read::opt_int(spec, "revisionHistoryLimit") {
        non_negative(limit, &path.child("revisionHistoryLimit"), errs);
    }
    if let Some(deadline) = read::opt_int(spec, "progressDeadlineSeconds") {
        let deadline_path = path.child("progressDeadlineSeconds");
        non_negative(deadline, &deadline_path, errs);
        if deadline <= min_ready {
            errs.push(field::invalid(
                &deadline_path,
                deadline,
                "must be greater than minReadySeconds",
            ));
        }
    }
}

/// A selector the conversion rejects is reported and the template skipped; otherwise the
/// template is checked as `ValidatePodTemplateSpecForReplicaSet` does.
fn selector_then_template(spec: &Value, path: &Path, opts: &PodOptions, errs: &mut ErrorList) {
    let selector = member(spec, "selector");
    match selection(selector) {
        Selection::Broken => errs.push(field::invalid(
            &path.child("selector"),
            BadValue::Json(selector.cloned().unwrap_or(Value::Null)),
            "invalid label selector",
        )),
        sel => {
            let template = spec.get("template");
            let template_path = path.child("template");
            check_template_match(&sel, template, &template_path, errs);
            errs.extend(validate_pod_template_spec(template, &template_path, opts));
            always_restart(template, "ReplicaSet", &template_path, errs);
        }
    }
}

/// `ValidateDeploymentStrategy`.
fn strategy(strategy: &Value, path: &Path, errs: &mut ErrorList) {
    let rolling = member(strategy, "rollingUpdate");
    let rolling_path = path.child("rollingUpdate");
    match read::text(strategy, "type") {
        "Recreate" => {
            if rolling.is_some() {
                errs.push(field::forbidden(
                    &rolling_path,
                    "may not be specified when strategy `type` is 'Recreate'",
                ));
            }
        }
        "RollingUpdate" => match rolling {
            None => errs.push(field::required(
                &rolling_path,
                "this should be defaulted and never be nil",
            )),
            Some(rolling) => rolling_update(rolling, &rolling_path, errs),
        },
        _ => errs.push(field::not_supported(
            path,
            BadValue::Json(if strategy.is_null() {
                serde_json::json!({})
            } else {
                strategy.clone()
            }),
            &["Recreate", "RollingUpdate"],
        )),
    }
}

/// `ValidateRollingUpdateDeployment`.
fn rolling_update(rolling: &Value, path: &Path, errs: &mut ErrorList) {
    let unavailable = member(rolling, "maxUnavailable");
    let surge = member(rolling, "maxSurge");
    let unavailable_path = path.child("maxUnavailable");
    validate_int_or_percent(unavailable, &unavailable_path, errs);
    validate_int_or_percent(surge, &path.child("maxSurge"), errs);
    if int_or_percent_value(unavailable) == 0 && int_or_percent_value(surge) == 0 {
        errs.push(field::invalid(
            &unavailable_path,
            BadValue::Json(unavailable.cloned().unwrap_or(Value::from(0))),
            "may not be 0 when `maxSurge` is 0",
        ));
    }
    not_more_than_100(unavailable, &unavailable_path, errs);
}
