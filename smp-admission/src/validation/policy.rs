//! The `policy` group: PodDisruptionBudget (`ValidatePodDisruptionBudget` and its strategy).
//!
//! The type's validation looks at the spec only. The metadata is checked by the generic
//! registry code, with names as path segments: on create after the spec passed (a second
//! 422 otherwise never reached), on update before the spec. Both are folded in here, since no
//! other check covers a PodDisruptionBudget's metadata.

use serde_json::{Map, Value};

use super::field::{self, BadValue, ErrorList, Path};
use super::kind_rules::{KindRules, StatusRules};
use super::meta::{
    IS_NEGATIVE, LabelSelectorOptions, validate_conditions, validate_label_selector,
    validate_object_meta, validate_object_meta_update,
};
use super::names;
use super::read;

/// The policy kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[KindRules {
    group: "policy",
    kind: "PodDisruptionBudget",
    namespaced: true,
    create: pod_disruption_budget,
    update: pod_disruption_budget_update,
}];

fn spec_of(obj: &Value) -> &Value {
    obj.get("spec").unwrap_or(&Value::Null)
}

fn pod_disruption_budget(pdb: &Value) -> ErrorList {
    let errs = validate_spec(spec_of(pdb), LabelSelectorOptions::default());
    if !errs.is_empty() {
        return errs;
    }
    validate_object_meta(
        pdb.get("metadata"),
        true,
        names::name_is_path_segment,
        &Path::new("metadata"),
    )
}

/// Metadata (generic checks) first, then the spec with invalid selector values allowed when
/// the old selector already had one (`hasInvalidLabelValueInLabelSelector`).
fn pod_disruption_budget_update(new: &Value, old: &Value) -> ErrorList {
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
    let mut probe = ErrorList::new();
    validate_label_selector(
        spec_of(old).get("selector"),
        LabelSelectorOptions::default(),
        &Path::new("spec"),
        &mut probe,
    );
    let options = LabelSelectorOptions {
        allow_invalid_label_value: !probe.is_empty(),
    };
    errs.extend(validate_spec(spec_of(new), options));
    errs
}

/// `ValidatePodDisruptionBudgetSpec`.
fn validate_spec(spec: &Value, selector_options: LabelSelectorOptions) -> ErrorList {
    let mut errs = ErrorList::new();
    let path = Path::new("spec");
    let min = spec.get("minAvailable").filter(|v| !v.is_null());
    let max = spec.get("maxUnavailable").filter(|v| !v.is_null());
    if min.is_some() && max.is_some() {
        errs.push(field::invalid(
            &path,
            BadValue::Json(internal_spec(spec)),
            "minAvailable and maxUnavailable cannot be both set",
        ));
    }
    for (key, value) in [("minAvailable", min), ("maxUnavailable", max)] {
        if let Some(value) = value {
            let at = path.child(key);
            validate_positive_int_or_percent(value, &at, &mut errs);
            is_not_more_than_100_percent(value, &at, &mut errs);
        }
    }
    validate_label_selector(
        spec.get("selector"),
        selector_options,
        &path.child("selector"),
        &mut errs,
    );
    if let Some(policy) = read::opt_text(spec, "unhealthyPodEvictionPolicy")
        && policy != "IfHealthyBudget"
        && policy != "AlwaysAllow"
    {
        errs.push(field::not_supported(
            &path.child("unhealthyPodEvictionPolicy"),
            policy,
            &["AlwaysAllow", "IfHealthyBudget"],
        ));
    }
    errs
}

/// The spec as Go prints the internal struct: its field names, every field present. (Go
/// keeps the struct's field order; a JSON map here sorts them.)
fn internal_spec(spec: &Value) -> Value {
    let mut out = Map::new();
    for (go, json) in [
        ("MinAvailable", "minAvailable"),
        ("Selector", "selector"),
        ("MaxUnavailable", "maxUnavailable"),
        ("UnhealthyPodEvictionPolicy", "unhealthyPodEvictionPolicy"),
    ] {
        out.insert(
            go.to_owned(),
            spec.get(json).cloned().unwrap_or(Value::Null),
        );
    }
    Value::Object(out)
}

/// apps' `ValidatePositiveIntOrPercent`: a percent string, or a non-negative integer.
pub(crate) fn validate_positive_int_or_percent(value: &Value, path: &Path, errs: &mut ErrorList) {
    match value {
        Value::String(s) => {
            for msg in names::is_valid_percent(s) {
                errs.push(field::invalid(path, s.as_str(), &msg));
            }
        }
        Value::Number(n) => {
            let n = n.as_i64().unwrap_or(0);
            if n < 0 {
                errs.push(field::invalid(path, n, IS_NEGATIVE));
            }
        }
        _ => {}
    }
}

/// apps' `IsNotMoreThan100Percent`: a valid percent string above 100 is refused.
pub(crate) fn is_not_more_than_100_percent(value: &Value, path: &Path, errs: &mut ErrorList) {
    let Some(s) = value.as_str() else {
        return;
    };
    if !names::is_valid_percent(s).is_empty() {
        return;
    }
    let digits = &s[..s.len() - 1];
    // Only digits are left, so a failed parse is an overflow, which Go's Atoi clamps to
    // its largest value.
    let percent: i64 = digits.parse().unwrap_or(i64::MAX);
    if percent > 100 {
        errs.push(field::invalid(path, s, "must not be greater than 100%"));
    }
}

/// The status endpoint's rules.
pub(crate) static STATUS: &[StatusRules] = &[StatusRules {
    group: "policy",
    kind: "PodDisruptionBudget",
    update: pod_disruption_budget_status_update,
}];

/// The generic metadata checks, then `ValidatePodDisruptionBudgetStatusUpdate` (policy/v1:
/// its conditions, and counts not negative).
fn pod_disruption_budget_status_update(new: &Value, old: &Value) -> ErrorList {
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
    let status = new.get("status").unwrap_or(&Value::Null);
    let path = Path::new("status");
    validate_conditions(
        read::list(status, "conditions"),
        &path.child("conditions"),
        &mut errs,
    );
    for name in [
        "disruptionsAllowed",
        "currentHealthy",
        "desiredHealthy",
        "expectedPods",
    ] {
        let value = read::int(status, name);
        if value < 0 {
            errs.push(field::invalid(&path.child(name), value, IS_NEGATIVE));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pdb(spec: Value) -> Value {
        json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
               "metadata": {"name": "p", "namespace": "default", "resourceVersion": "1"},
               "spec": spec})
    }

    #[test]
    fn both_bounds_print_the_internal_spec() {
        let errs = pod_disruption_budget(&pdb(json!({"minAvailable": 1, "maxUnavailable": "10%"})));
        assert_eq!(errs.len(), 1);
        assert!(errs[0].to_string().contains("\"MinAvailable\":1"));
        assert!(errs[0].to_string().contains("\"Selector\":null"));
    }

    #[test]
    fn percents() {
        let mut errs = ErrorList::new();
        let p = Path::new("x");
        is_not_more_than_100_percent(&json!("99999999999999999999999%"), &p, &mut errs);
        is_not_more_than_100_percent(&json!("100%"), &p, &mut errs);
        validate_positive_int_or_percent(&json!(0), &p, &mut errs);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].detail, "must not be greater than 100%");
    }

    #[test]
    fn metadata_is_checked_as_path_segments_after_the_spec() {
        let mut obj = pdb(json!({}));
        obj["metadata"]["name"] = json!("..");
        assert_eq!(pod_disruption_budget(&obj)[0].detail, "may not be '..'");
        obj["spec"]["minAvailable"] = json!(-1);
        assert_eq!(pod_disruption_budget(&obj)[0].field, "spec.minAvailable");
    }
}
