//! ReplicationController (`ValidateReplicationController`, `ValidateReplicationControllerUpdate`)
//! and PodTemplate (`ValidatePodTemplate`, `ValidatePodTemplateUpdate`). The pod template
//! itself is the pod module's; an update of a controller runs the spec checks twice, as its
//! strategy does.

use serde_json::Value;

use super::pod::{PodOptions, validate_pod_template_spec};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::{IS_NEGATIVE, validate_object_meta, validate_object_meta_update};
use crate::validation::names;
use crate::validation::read;

const NON_CONVERTIBLE_PREFIX: &str = "non-convertible.kubernetes.io/";

pub(super) fn replication_controller(rc: &Value) -> ErrorList {
    let mut errs = validate_object_meta(
        rc.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    validate_spec(rc, &PodOptions::default(), &mut errs);
    errs
}

pub(super) fn replication_controller_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = replication_controller(new);
    errs.extend(validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    ));
    let old_template = old.pointer("/spec/template");
    let options = PodOptions::for_template(
        old_template.and_then(|t| t.get("spec")),
        old_template.and_then(|t| t.get("metadata")),
    );
    validate_spec(new, &options, &mut errs);
    validate_non_convertible(new, old, &mut errs);
    errs
}

/// `ValidateReplicationControllerSpec`.
fn validate_spec(rc: &Value, options: &PodOptions, errs: &mut ErrorList) {
    let spec = rc.get("spec").unwrap_or(&Value::Null);
    let path = Path::new("spec");
    let min_ready = read::int(spec, "minReadySeconds");
    if min_ready < 0 {
        errs.push(field::invalid(
            &path.child("minReadySeconds"),
            min_ready,
            IS_NEGATIVE,
        ));
    }
    let selector = read::object_or_empty(spec, "selector");
    if selector.is_empty() {
        errs.push(field::required(&path.child("selector"), ""));
    }
    match read::opt_int(spec, "replicas") {
        None => errs.push(field::required(&path.child("replicas"), "")),
        Some(n) if n < 0 => errs.push(field::invalid(&path.child("replicas"), n, IS_NEGATIVE)),
        Some(_) => {}
    }
    let template_path = path.child("template");
    let Some(template) = spec.get("template").filter(|t| !t.is_null()) else {
        errs.push(field::required(&template_path, ""));
        return;
    };
    let labels = template.pointer("/metadata/labels");
    let matches = selector.iter().all(|(k, v)| {
        labels.and_then(|l| l.get(k)).and_then(Value::as_str) == Some(v.as_str().unwrap_or(""))
    });
    if !selector.is_empty() && !matches {
        let value = labels.map_or(BadValue::Json(Value::Null), |l| BadValue::Json(l.clone()));
        errs.push(field::invalid(
            &Path::names(&["spec", "template", "metadata", "labels"]),
            value,
            "`selector` does not match template `labels`",
        ));
    }
    errs.extend(validate_pod_template_spec(
        Some(template),
        &template_path,
        options,
    ));
    let pod_spec = template.get("spec").unwrap_or(&Value::Null);
    let restart = read::text(pod_spec, "restartPolicy");
    if restart != "Always" {
        errs.push(field::not_supported(
            &Path::names(&["spec", "template", "spec", "restartPolicy"]),
            restart,
            &["Always"],
        ));
    }
    if read::is_set(pod_spec, "activeDeadlineSeconds") {
        errs.push(field::forbidden(
            &Path::names(&["spec", "template", "spec", "activeDeadlineSeconds"]),
            "activeDeadlineSeconds in ReplicationController is not Supported",
        ));
    }
}

/// The strategy's check of fields that did not convert from an older API: annotations of the
/// old object under `non-convertible.kubernetes.io/` name them.
fn validate_non_convertible(new: &Value, old: &Value, errs: &mut ErrorList) {
    let Some(annotations) = old
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
    else {
        return;
    };
    for (key, value) in annotations {
        let Some(broken) = key.strip_prefix(NON_CONVERTIBLE_PREFIX) else {
            continue;
        };
        if broken.contains('/') {
            continue;
        }
        if broken.contains("selector") {
            let (n, o) = (new.pointer("/spec/selector"), old.pointer("/spec/selector"));
            if !read::semantic_eq(n, o) {
                let shown = n.map_or(BadValue::Json(Value::Null), |s| BadValue::Json(s.clone()));
                errs.push(field::invalid(
                    &Path::names(&["spec", "selector"]),
                    shown,
                    "cannot update non-convertible selector",
                ));
            }
        } else {
            let mut e = field::not_found(&Path::new(broken), value.as_str().unwrap_or(""));
            e.detail = "unknown non-convertible field".to_owned();
            errs.push(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn update_reports_spec_errors_twice() {
        let rc = json!({"metadata": {"name": "r", "namespace": "d", "resourceVersion": "1"},
            "spec": {"replicas": -1, "selector": {"a": "b"},
                "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"restartPolicy": "Always",
                    "dnsPolicy": "ClusterFirst", "terminationGracePeriodSeconds": 30,
                    "containers": [{"name": "c", "image": "i", "imagePullPolicy": "Always",
                        "terminationMessagePolicy": "File"}]}}}});
        let fields: Vec<String> = replication_controller_update(&rc, &rc)
            .iter()
            .map(|e| e.field.clone())
            .collect();
        assert_eq!(fields, vec!["spec.replicas", "spec.replicas"]);
    }
}
