//! DaemonSet (`ValidateDaemonSet`, `ValidateDaemonSetUpdate`) as its registry strategy runs
//! them: on update the create rules, then the update rules (which check the spec again), then
//! the selector freeze.

use serde_json::Value;

use super::shared::{
    NULL, always_restart, check_template_match, int_or_percent_value, member, non_negative,
    not_more_than_100, selection, selector_has_invalid_value, selector_is_empty, spec_of,
    template_options, validate_int_or_percent,
};
use crate::validation::core::pod::{PodOptions, validate_pod_template_spec};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::{
    self, LabelSelectorOptions, validate_immutable, validate_object_meta,
    validate_object_meta_update,
};
use crate::validation::names;
use crate::validation::read;

pub(super) fn daemon_set(obj: &Value) -> ErrorList {
    let opts = template_options(spec_of(obj).get("template"), None);
    create_rules(obj, &opts)
}

pub(super) fn daemon_set_update(new: &Value, old: &Value) -> ErrorList {
    let mut opts = template_options(spec_of(new).get("template"), spec_of(old).get("template"));
    // A stored selector with a bad label value keeps being accepted.
    opts.allow_invalid_label_value_in_selector |=
        selector_has_invalid_value(member(spec_of(old), "selector"));
    let mut errs = create_rules(new, &opts);
    errs.extend(validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    ));
    // templateGeneration (the rest of ValidateDaemonSetSpecUpdate) is internal to the server.
    spec_rules(spec_of(new), &opts, &mut errs);
    let spec = Path::new("spec");
    validate_immutable(
        spec_of(new).get("selector"),
        spec_of(old).get("selector"),
        &spec.child("selector"),
        &mut errs,
    );
    errs
}

fn create_rules(obj: &Value, opts: &PodOptions) -> ErrorList {
    let mut errs = validate_object_meta(
        obj.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    spec_rules(spec_of(obj), opts, &mut errs);
    errs
}

/// `ValidateDaemonSetSpec`.
fn spec_rules(spec: &Value, opts: &PodOptions, errs: &mut ErrorList) {
    let path = Path::new("spec");
    let selector_path = path.child("selector");
    let selector = member(spec, "selector");
    let lenient = LabelSelectorOptions {
        allow_invalid_label_value: opts.allow_invalid_label_value_in_selector,
    };
    meta::validate_label_selector(selector, lenient, &selector_path, errs);
    let template = spec.get("template");
    let template_path = path.child("template");
    let sel = selection(selector);
    if !matches!(sel, super::shared::Selection::Broken) {
        check_template_match(&sel, template, &template_path, errs);
    }
    if let Some(selector) = selector.filter(|s| selector_is_empty(s)) {
        errs.push(field::invalid(
            &selector_path,
            BadValue::Json(selector.clone()),
            "empty selector is invalid for daemonset",
        ));
    }
    errs.extend(validate_pod_template_spec(template, &template_path, opts));
    always_restart(template, "DaemonSet", &template_path, errs);
    non_negative(
        read::int(spec, "minReadySeconds"),
        &path.child("minReadySeconds"),
        errs,
    );
    update_strategy(
        spec.get("updateStrategy").unwrap_or(&NULL),
        &path.child("updateStrategy"),
        errs,
    );
    if let Some(limit) = read::opt_int(spec, "revisionHistoryLimit") {
        non_negative(limit, &path.child("revisionHistoryLimit"), errs);
    }
}

/// `ValidateDaemonSetUpdateStrategy`.
fn update_strategy(strategy: &Value, path: &Path, errs: &mut ErrorList) {
    match read::text(strategy, "type") {
        "OnDelete" => {}
        "RollingUpdate" => {
            let rolling_path = path.child("rollingUpdate");
            match member(strategy, "rollingUpdate") {
                None => errs.push(field::required(&rolling_path, "")),
                Some(rolling) => rolling_update(rolling, &rolling_path, errs),
            }
        }
        _ => errs.push(field::not_supported(
            path,
            BadValue::Json(if strategy.is_null() {
                serde_json::json!({})
            } else {
                strategy.clone()
            }),
            &["RollingUpdate", "OnDelete"],
        )),
    }
}

/// `ValidateRollingUpdateDaemonSet`: exactly one of maxUnavailable and maxSurge is non-zero.
fn rolling_update(rolling: &Value, path: &Path, errs: &mut ErrorList) {
    let unavailable = member(rolling, "maxUnavailable");
    let surge = member(rolling, "maxSurge");
    let unavailable_path = path.child("maxUnavailable");
    let surge_path = path.child("maxSurge");
    validate_int_or_percent(unavailable, &unavailable_path, errs);
    validate_int_or_percent(surge, &surge_path, errs);
    not_more_than_100(unavailable, &unavailable_path, errs);
    not_more_than_100(surge, &surge_path, errs);
    let has_unavailable = int_or_percent_value(unavailable) != 0;
    let has_surge = int_or_percent_value(surge) != 0;
    if has_unavailable && has_surge {
        errs.push(field::invalid(
            &surge_path,
            BadValue::Json(surge.cloned().unwrap_or(Value::from(0))),
            "may not be set when maxUnavailable is non-zero",
        ));
    } else if !has_unavailable && !has_surge {
        errs.push(field::required(
            &unavailable_path,
            "cannot be 0 when maxSurge is 0",
        ));
    }
}
