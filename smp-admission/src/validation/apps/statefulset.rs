//! StatefulSet (`ValidateStatefulSet`, `ValidateStatefulSetSpec`, `ValidateStatefulSetUpdate`).
//!
//! Since v1.34 the pod template is validated too, on a copy in which the identity the
//! controller fills in (hostname, subdomain) is blanked and each volume claim template
//! stands as a claim volume. On update a stored object whose spec already fails these rules
//! keeps updating: the template is then not validated, and serviceName and claim templates
//! (both frozen) are never re-checked.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::shared::{
    NULL, Selection, check_template_match, int_or_percent_value, member, non_negative,
    not_more_than_100, required_selector, selection, spec_of, template_labels, template_options,
    validate_int_or_percent,
};
use crate::validation::core::pod::{
    PodOptions, validate_pod_specific_annotations, validate_pod_template_spec,
};
use crate::validation::core::pvc::validate_claim_spec_for_create;
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::{
    validate_annotations, validate_labels, validate_object_meta, validate_object_meta_update,
};
use crate::validation::names;
use crate::validation::read;

/// The spec members an update may change (the rest must stay as they were).
const FROZEN: [&str; 5] = [
    "podManagementPolicy",
    "revisionHistoryLimit",
    "selector",
    "serviceName",
    "volumeClaimTemplates",
];

const FROZEN_MESSAGE: &str = "updates to statefulset spec for fields other than 'replicas', \
'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and \
'minReadySeconds' are forbidden";

/// `StatefulSetValidationOptions`, plus whether `maxUnavailable` survives the strategy
/// (alpha gate `MaxUnavailableStatefulSet` is off: only an old object that used it keeps it).
#[derive(Debug, Clone, Copy, Default)]
struct SetOptions {
    allow_invalid_service_name: bool,
    skip_template: bool,
    skip_claim_templates: bool,
    keep_max_unavailable: bool,
}

pub(super) fn stateful_set(obj: &Value) -> ErrorList {
    let mut errs = validate_object_meta(
        obj.get("metadata"),
        true,
        names::name_is_dns_label,
        &Path::new("metadata"),
    );
    let opts = template_options(spec_of(obj).get("template"), None);
    spec_rules(spec_of(obj), &opts, SetOptions::default(), &mut errs);
    errs
}

pub(super) fn stateful_set_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    let (new_spec, old_spec) = (spec_of(new), spec_of(old));
    let opts = template_options(new_spec.get("template"), old_spec.get("template"));
    let mut set_opts = SetOptions {
        allow_invalid_service_name: true,
        skip_claim_templates: true,
        keep_max_unavailable: uses_max_unavailable(old_spec),
        ..SetOptions::default()
    };
    let mut old_errs = ErrorList::new();
    spec_rules(old_spec, &opts, set_opts, &mut old_errs);
    set_opts.skip_template = !old_errs.is_empty();
    spec_rules(new_spec, &opts, set_opts, &mut errs);
    let changed = FROZEN
        .iter()
        .any(|k| !read::semantic_eq(new_spec.get(*k), old_spec.get(*k)));
    if changed {
        errs.push(field::forbidden(&Path::new("spec"), FROZEN_MESSAGE));
    }
    errs
}

fn uses_max_unavailable(spec: &Value) -> bool {
    spec.get("updateStrategy")
        .and_then(|s| member(s, "rollingUpdate"))
        .and_then(|r| member(r, "maxUnavailable"))
        .is_some()
}

/// `ValidateStatefulSetSpec`.
fn spec_rules(spec: &Value, opts: &PodOptions, set_opts: SetOptions, errs: &mut ErrorList) {
    let path = Path::new("spec");
    let policy_path = path.child("podManagementPolicy");
    match read::text(spec, "podManagementPolicy") {
        "" => errs.push(field::required(&policy_path, "")),
        "OrderedReady" | "Parallel" => {}
        other => errs.push(field::invalid(
            &policy_path,
            other,
            "must be 'OrderedReady' or 'Parallel'",
        )),
    }
    update_strategy(spec, &path, set_opts, errs);
    retention_policy(spec, &path, errs);
    if !set_opts.skip_claim_templates {
        let claims = path.child("volumeClaimTemplates");
        for (i, claim) in read::list(spec, "volumeClaimTemplates").iter().enumerate() {
            let at = claims.index(i);
            let claim_spec = claim.get("spec").unwrap_or(&NULL);
            errs.extend(validate_claim_spec_for_create(
                claim_spec,
                &at.child("spec"),
            ));
        }
    }
    non_negative(read::int(spec, "replicas"), &path.child("replicas"), errs);
    non_negative(
        read::int(spec, "minReadySeconds"),
        &path.child("minReadySeconds"),
        errs,
    );
    if let Some(ordinals) = member(spec, "ordinals") {
        non_negative(
            read::int(ordinals, "start"),
            &path.child("ordinals.start"),
            errs,
        );
    }
    let service = read::text(spec, "serviceName");
    if !set_opts.allow_invalid_service_name && !service.is_empty() {
        let service_path = path.child("serviceName");
        for msg in names::is_dns1123_label(service) {
            errs.push(field::invalid(&service_path, service, &msg));
        }
    }
    required_selector(spec, "statefulset", &path, errs);
    let selector = member(spec, "selector");
    match selection(selector) {
        Selection::Broken => errs.push(field::invalid(
            &path.child("selector"),
            BadValue::Json(selector.cloned().unwrap_or(Value::Null)),
            "",
        )),
        sel => {
            let template = template_for_validation(spec);
            template_rules(
                &sel,
                &template,
                &path.child("template"),
                opts,
                set_opts,
                errs,
            );
        }
    }
    let template_spec = spec
        .get("template")
        .and_then(|t| t.get("spec"))
        .unwrap_or(&NULL);
    let template_spec_path = Path::names(&["spec", "template", "spec"]);
    let restart = read::text(template_spec, "restartPolicy");
    if restart != "Always" {
        errs.push(field::not_supported(
            &template_spec_path.child("restartPolicy"),
            restart,
            &["Always"],
        ));
    }
    if member(template_spec, "activeDeadlineSeconds").is_some() {
        errs.push(field::forbidden(
            &template_spec_path.child("activeDeadlineSeconds"),
            "activeDeadlineSeconds in StatefulSet is not Supported",
        ));
    }
}

fn update_strategy(spec: &Value, path: &Path, set_opts: SetOptions, errs: &mut ErrorList) {
    let strategy = spec.get("updateStrategy").unwrap_or(&NULL);
    let strategy_path = path.child("updateStrategy");
    let rolling = member(strategy, "rollingUpdate");
    let rolling_path = strategy_path.child("rollingUpdate");
    match read::text(strategy, "type") {
        "" => errs.push(field::required(&strategy_path, "")),
        "OnDelete" => {
            if let Some(rolling) = rolling {
                errs.push(field::invalid(
                    &rolling_path,
                    BadValue::Json(rolling.clone()),
                    "only allowed for updateStrategy 'RollingUpdate'",
                ));
            }
        }
        "RollingUpdate" => {
            if let Some(rolling) = rolling {
                non_negative(
                    read::int(rolling, "partition"),
                    &rolling_path.child("partition"),
                    errs,
                );
                let unavailable = member(rolling, "maxUnavailable");
                if let (Some(value), true) = (unavailable, set_opts.keep_max_unavailable) {
                    let max_path = rolling_path.child("maxUnavailable");
                    validate_int_or_percent(Some(value), &max_path, errs);
                    if int_or_percent_value(Some(value)) == 0 {
                        errs.push(field::invalid(
                            &max_path,
                            BadValue::Json(value.clone()),
                            "cannot be 0",
                        ));
                    }
                    not_more_than_100(Some(value), &max_path, errs);
                }
            }
        }
        _ => errs.push(field::invalid(
            &strategy_path,
            BadValue::Json(strategy.clone()),
            "must be 'RollingUpdate' or 'OnDelete'",
        )),
    }
}

/// `ValidatePersistentVolumeClaimRetentionPolicy`.
fn retention_policy(spec: &Value, path: &Path, errs: &mut ErrorList) {
    let Some(policy) = member(spec, "persistentVolumeClaimRetentionPolicy") else {
        return;
    };
    let policy_path = path.child("persistentVolumeClaimRetentionPolicy");
    for when in ["whenDeleted", "whenScaled"] {
        let value = read::text(policy, when);
        if value != "Retain" && value != "Delete" {
            errs.push(field::not_supported(
                &policy_path.child(when),
                value,
                &["Retain", "Delete"],
            ));
        }
    }
}

/// The template as validation sees it: hostname and subdomain blanked, and one claim volume
/// per volume claim template ahead of the template's own volumes of other names.
fn template_for_validation(spec: &Value) -> Cow<'_, Value> {
    let template = spec.get("template").unwrap_or(&NULL);
    let pod = template.get("spec").unwrap_or(&NULL);
    let claims = read::list(spec, "volumeClaimTemplates");
    if read::text(pod, "hostname").is_empty()
        && read::text(pod, "subdomain").is_empty()
        && claims.is_empty()
    {
        return Cow::Borrowed(template);
    }
    let mut copy = if template.is_object() {
        template.clone()
    } else {
        json!({})
    };
    let Some(copy_map) = copy.as_object_mut() else {
        return Cow::Borrowed(template);
    };
    let pod_copy = copy_map.entry("spec").or_insert_with(|| json!({}));
    if !pod_copy.is_object() {
        *pod_copy = json!({});
    }
    if let Some(pod_map) = pod_copy.as_object_mut() {
        pod_map.remove("hostname");
        pod_map.remove("subdomain");
        if !claims.is_empty() {
            let mut order: Vec<&str> = Vec::new();
            let mut seen: BTreeMap<&str, ()> = BTreeMap::new();
            for claim in claims {
                let name = claim
                    .get("metadata")
                    .map(|m| read::text(m, "name"))
                    .unwrap_or("");
                if seen.insert(name, ()).is_none() {
                    order.push(name);
                }
            }
            let mut volumes: Vec<Value> = order
                .iter()
                .map(|n| json!({"name": n, "persistentVolumeClaim": {"claimName": n}}))
                .collect();
            for volume in read::list(pod, "volumes") {
                if !seen.contains_key(read::text(volume, "name")) {
                    volumes.push(volume.clone());
                }
            }
            pod_map.insert("volumes".to_owned(), Value::Array(volumes));
        }
    }
    Cow::Owned(copy)
}

/// `ValidatePodTemplateSpecForStatefulSet`: labels and annotations are checked here as well
/// as in the template rules, so their errors show twice.
fn template_rules(
    sel: &Selection,
    template: &Value,
    path: &Path,
    opts: &PodOptions,
    set_opts: SetOptions,
    errs: &mut ErrorList,
) {
    check_template_match(sel, Some(template), path, errs);
    if !set_opts.skip_template {
        errs.extend(validate_pod_template_spec(Some(template), path, opts));
    }
    validate_labels(template_labels(Some(template)), &path.child("labels"), errs);
    let annotations = template.get("metadata").and_then(|m| m.get("annotations"));
    let annotations_path = path.child("annotations");
    validate_annotations(annotations, &annotations_path, errs);
    let pod = template.get("spec").unwrap_or(&NULL);
    validate_pod_specific_annotations(annotations, pod, &annotations_path, opts, errs);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claim_templates_become_volumes_and_identity_is_blanked() {
        let spec = json!({
            "template": {"spec": {"hostname": "h", "subdomain": "s",
                "volumes": [{"name": "data", "emptyDir": {}}, {"name": "cache", "emptyDir": {}}]}},
            "volumeClaimTemplates": [{"metadata": {"name": "data"}}]
        });
        let template = template_for_validation(&spec);
        let pod = &template["spec"];
        assert!(pod.get("hostname").is_none() && pod.get("subdomain").is_none());
        let names: Vec<&str> = read::list(pod, "volumes")
            .iter()
            .map(|v| read::text(v, "name"))
            .collect();
        assert_eq!(names, ["data", "cache"]);
        assert_eq!(
            pod["volumes"][0]["persistentVolumeClaim"]["claimName"],
            "data"
        );
    }

    #[test]
    fn plain_templates_are_not_copied() {
        let spec = json!({"template": {"spec": {"containers": []}}});
        assert!(matches!(template_for_validation(&spec), Cow::Borrowed(_)));
    }

    #[test]
    fn a_stored_invalid_spec_skips_template_validation_on_update() {
        let old = json!({"metadata": {"name": "a", "namespace": "d", "resourceVersion": "1"},
            "spec": {"podManagementPolicy": "Bogus", "updateStrategy": {"type": "OnDelete"},
                     "selector": {"matchLabels": {"a": "b"}},
                     "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"restartPolicy": "Always"}}}});
        let errs = stateful_set_update(&old, &old);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "spec.podManagementPolicy");
    }
}
