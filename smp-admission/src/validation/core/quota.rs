//! ResourceQuota (`ValidateResourceQuota`, `ValidateResourceQuotaUpdate`): the hard limits,
//! scopes and scope selector; scopes are fixed once created. Keys are walked sorted.

use std::collections::BTreeSet;

use serde_json::Value;

use super::resources::{
    QUOTA_RESOURCES, is_quota_hugepages, validate_quantity_value, validate_quota_resource_name,
};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::{IMMUTABLE, validate_object_meta, validate_object_meta_update};
use crate::validation::names;
use crate::validation::read;

const SCOPES: &[&str] = &[
    "Terminating",
    "NotTerminating",
    "BestEffort",
    "NotBestEffort",
    "PriorityClass",
    "VolumeAttributesClass",
    "CrossNamespacePodAffinity",
];

/// `IsResourceQuotaScopeValidForResource`.
fn scope_fits(scope: &str, resource: &str) -> bool {
    let pod_count = resource == "pods";
    let pod_compute = matches!(
        resource,
        "cpu" | "memory" | "limits.cpu" | "limits.memory" | "requests.cpu" | "requests.memory"
    );
    match scope {
        "Terminating"
        | "NotTerminating"
        | "NotBestEffort"
        | "PriorityClass"
        | "CrossNamespacePodAffinity" => pod_count || pod_compute,
        "BestEffort" => pod_count,
        "VolumeAttributesClass" => {
            matches!(resource, "persistentvolumeclaims" | "requests.storage")
        }
        _ => true,
    }
}

fn is_standard_quota(name: &str) -> bool {
    QUOTA_RESOURCES.contains(&name) || is_quota_hugepages(name)
}

pub(super) fn resource_quota(rq: &Value) -> ErrorList {
    let mut errs = validate_object_meta(
        rq.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    validate_quota_spec(rq, &mut errs);
    let status = rq.get("status").unwrap_or(&Value::Null);
    let status_path = Path::new("status");
    for member in ["hard", "used"] {
        let path = status_path.child(member);
        validate_resource_list(read::object_or_empty(status, member), &path, &mut errs);
    }
    errs
}

pub(super) fn resource_quota_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    validate_quota_spec(new, &mut errs);
    let scopes = |v: &Value| -> BTreeSet<String> {
        v.pointer("/spec/scopes")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|s| s.as_str().unwrap_or("").to_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    if scopes(new) != scopes(old) {
        let value = new.pointer("/spec/scopes").cloned().unwrap_or(Value::Null);
        errs.push(field::invalid(
            &Path::names(&["spec", "scopes"]),
            BadValue::Json(value),
            IMMUTABLE,
        ));
    }
    errs
}

fn validate_resource_list(list: &read::Object, path: &Path, errs: &mut ErrorList) {
    for (k, v) in list {
        let at = path.key(k);
        validate_quota_resource_name(k, &at, errs);
        validate_quantity_value(k, v.as_str().unwrap_or("0"), &at, errs);
    }
}

/// `ValidateResourceQuotaSpec`: the hard limits, the scopes and the scope selector.
fn validate_quota_spec(rq: &Value, errs: &mut ErrorList) {
    let spec = rq.get("spec").unwrap_or(&Value::Null);
    let hard = read::object_or_empty(spec, "hard");
    validate_resource_list(hard, &Path::names(&["spec", "hard"]), errs);
    let scopes: Vec<&str> = read::list(spec, "scopes")
        .iter()
        .map(|s| s.as_str().unwrap_or(""))
        .collect();
    let scopes_value = || BadValue::Json(spec.get("scopes").cloned().unwrap_or(Value::Null));
    let scopes_path = Path::names(&["spec", "scopes"]);
    let standard_hard: Vec<&str> = hard
        .keys()
        .map(String::as_str)
        .filter(|k| is_standard_quota(k))
        .collect();
    for scope in &scopes {
        if !SCOPES.contains(scope) {
            errs.push(field::invalid(
                &scopes_path,
                scopes_value(),
                "unsupported scope",
            ));
        }
        for k in &standard_hard {
            if !scope_fits(scope, k) {
                errs.push(field::invalid(
                    &scopes_path,
                    scopes_value(),
                    "unsupported scope applied to resource",
                ));
            }
        }
    }
    let conflicts = |set: &[&str]| {
        [
            ("BestEffort", "NotBestEffort"),
            ("Terminating", "NotTerminating"),
        ]
        .iter()
        .filter(|(a, b)| set.contains(a) && set.contains(b))
        .count()
    };
    for _ in 0..conflicts(&scopes) {
        errs.push(field::invalid(
            &scopes_path,
            scopes_value(),
            "conflicting scopes",
        ));
    }
    let Some(selector) = spec.get("scopeSelector").filter(|s| !s.is_null()) else {
        return;
    };
    let path = Path::names(&["spec", "scopeSelector", "matchExpressions"]);
    let mut names_seen = Vec::new();
    for req in read::list(selector, "matchExpressions") {
        let scope = read::text(req, "scopeName");
        let operator = read::text(req, "operator");
        if !SCOPES.contains(&scope) {
            errs.push(field::invalid(
                &path.child("scopeName"),
                scope,
                "unsupported scope",
            ));
        }
        for k in &standard_hard {
            if !scope_fits(scope, k) {
                errs.push(field::invalid(
                    &path,
                    BadValue::Json(selector.clone()),
                    "unsupported scope applied to resource",
                ));
            }
        }
        let pod_scope = matches!(
            scope,
            "BestEffort"
                | "NotBestEffort"
                | "Terminating"
                | "NotTerminating"
                | "CrossNamespacePodAffinity"
        );
        if pod_scope && operator != "Exists" {
            errs.push(field::invalid(
                &path.child("operator"),
                operator,
                "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
            ));
        }
        let values = read::list(req, "values");
        match operator {
            "In" | "NotIn" if values.is_empty() => errs.push(field::required(
                &path.child("values"),
                "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
            )),
            "Exists" | "DoesNotExist" if !values.is_empty() => errs.push(field::invalid(
                &path.child("values"),
                BadValue::Json(Value::Array(values.to_vec())),
                "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
            )),
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            other => errs.push(field::invalid(
                &path.child("operator"),
                other,
                "not a valid selector operator",
            )),
        }
        names_seen.push(scope);
    }
    for _ in 0..conflicts(&names_seen) {
        errs.push(field::invalid(&path, scopes_value(), "conflicting scopes"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn quota_names() {
        let rq = json!({"metadata": {"name": "q", "namespace": "d"}, "spec": {"hard": {"foo": "1", "example.com/x": "1.5"}}});
        let errs: Vec<String> = resource_quota(&rq)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(errs.len(), 3, "{errs:?}");
    }
}
