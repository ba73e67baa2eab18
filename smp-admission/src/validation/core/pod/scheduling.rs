//! Where a pod may be scheduled: `affinity` (`validateAffinity`, node selectors, pod
//! affinity terms), `tolerations` (`ValidateTolerations`) and `schedulingGates`.

use std::collections::BTreeSet;

use serde_json::Value;

use super::PodOptions;
use super::options::is_label_value;
use super::topology::validate_match_label_keys;
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::meta::{LabelSelectorOptions, validate_label_name, validate_label_selector};
use crate::validation::names;
use crate::validation::read;

const REQUIRED: &str = "requiredDuringSchedulingIgnoredDuringExecution";
const PREFERRED: &str = "preferredDuringSchedulingIgnoredDuringExecution";

/// `validateAffinity`: node affinity, pod affinity, pod anti-affinity.
pub(super) fn validate_affinity(
    affinity: Option<&Value>,
    path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    let Some(affinity) = affinity.filter(|a| a.is_object()) else {
        return;
    };
    if let Some(node) = affinity.get("nodeAffinity").filter(|n| n.is_object()) {
        validate_node_affinity(node, &path.child("nodeAffinity"), options, errs);
    }
    let selector_options = LabelSelectorOptions {
        allow_invalid_label_value: options.allow_invalid_label_value_in_selector,
    };
    for member in ["podAffinity", "podAntiAffinity"] {
        if let Some(pod) = affinity.get(member).filter(|p| p.is_object()) {
            validate_pod_affinity(pod, &path.child(member), selector_options, errs);
        }
    }
}

fn validate_node_affinity(node: &Value, path: &Path, options: &PodOptions, errs: &mut ErrorList) {
    if let Some(selector) = node.get(REQUIRED).filter(|s| s.is_object()) {
        let at = path.child(REQUIRED);
        let terms_path = at.child("nodeSelectorTerms");
        let terms = read::list(selector, "nodeSelectorTerms");
        if terms.is_empty() {
            errs.push(field::required(
                &terms_path,
                "must have at least one node selector term",
            ));
        } else {
            let allow = options.allow_invalid_label_value_in_required_node_affinity;
            for (i, term) in terms.iter().enumerate() {
                validate_node_selector_term(term, allow, &terms_path.index(i), errs);
            }
        }
    }
    let preferred_path = path.child(PREFERRED);
    for (i, term) in read::list(node, PREFERRED).iter().enumerate() {
        let at = preferred_path.index(i);
        weight(term, &at, errs);
        // Preferred terms always accept any label value.
        let preference = term.get("preference").unwrap_or(&Value::Null);
        validate_node_selector_term(preference, true, &at.child("preference"), errs);
    }
}

fn weight(term: &Value, at: &Path, errs: &mut ErrorList) {
    let weight = read::int(term, "weight");
    if !(1..=100).contains(&weight) {
        errs.push(field::invalid(
            &at.child("weight"),
            weight,
            "must be in the range 1-100",
        ));
    }
}

/// `ValidateNodeSelectorTerm`: its label requirements, then its field requirements.
pub(crate) fn validate_node_selector_term(
    term: &Value,
    allow_invalid_value: bool,
    path: &Path,
    errs: &mut ErrorList,
) {
    let expressions = path.child("matchExpressions");
    for (j, req) in read::list(term, "matchExpressions").iter().enumerate() {
        node_selector_requirement(req, allow_invalid_value, &expressions.index(j), errs);
    }
    let fields = path.child("matchFields");
    for (j, req) in read::list(term, "matchFields").iter().enumerate() {
        node_field_requirement(req, &fields.index(j), errs);
    }
}

/// `ValidateNodeSelectorRequirement`.
fn node_selector_requirement(
    req: &Value,
    allow_invalid_value: bool,
    at: &Path,
    errs: &mut ErrorList,
) {
    let values = read::list(req, "values");
    let values_path = at.child("values");
    let operator = read::text(req, "operator");
    match operator {
        "In" | "NotIn" if values.is_empty() => errs.push(field::required(
            &values_path,
            "must be specified when `operator` is 'In' or 'NotIn'",
        )),
        "Exists" | "DoesNotExist" if !values.is_empty() => errs.push(field::forbidden(
            &values_path,
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        )),
        "Gt" | "Lt" if values.len() != 1 => errs.push(field::required(
            &values_path,
            "must be specified single value when `operator` is 'Lt' or 'Gt'",
        )),
        "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt" => {}
        _ => errs.push(field::invalid(
            &at.child("operator"),
            operator,
            "not a valid selector operator",
        )),
    }
    validate_label_name(read::text(req, "key"), &at.child("key"), errs);
    if !allow_invalid_value {
        for (k, value) in values.iter().enumerate() {
            let value = value.as_str().unwrap_or("");
            for msg in names::is_valid_label_value(value) {
                errs.push(field::invalid(&values_path.index(k), value, &msg));
            }
        }
    }
}

/// `ValidateNodeFieldSelectorRequirement`: only `metadata.name`, with one value.
fn node_field_requirement(req: &Value, at: &Path, errs: &mut ErrorList) {
    let values = read::list(req, "values");
    let values_path = at.child("values");
    let operator = read::text(req, "operator");
    match operator {
        "In" | "NotIn" => {
            if values.len() != 1 {
                errs.push(field::required(
                    &values_path,
                    "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
                ));
            }
        }
        _ => errs.push(field::invalid(
            &at.child("operator"),
            operator,
            "not a valid selector operator",
        )),
    }
    let key = read::text(req, "key");
    if key != "metadata.name" {
        errs.push(field::invalid(
            &at.child("key"),
            key,
            "not a valid field selector key",
        ));
        return;
    }
    for (k, value) in values.iter().enumerate() {
        let value = value.as_str().unwrap_or("");
        for msg in names::name_is_dns_subdomain(value, false) {
            errs.push(field::invalid(&values_path.index(k), value, &msg));
        }
    }
}

fn validate_pod_affinity(
    affinity: &Value,
    path: &Path,
    options: LabelSelectorOptions,
    errs: &mut ErrorList,
) {
    let required = path.child(REQUIRED);
    for (i, term) in read::list(affinity, REQUIRED).iter().enumerate() {
        pod_affinity_term(term, &required.index(i), options, errs);
    }
    let preferred = path.child(PREFERRED);
    for (i, weighted) in read::list(affinity, PREFERRED).iter().enumerate() {
        let at = preferred.index(i);
        weight(weighted, &at, errs);
        let term = weighted.get("podAffinityTerm").unwrap_or(&Value::Null);
        pod_affinity_term(term, &at.child("podAffinityTerm"), options, errs);
    }
}

/// `validatePodAffinityTerm`.
fn pod_affinity_term(
    term: &Value,
    path: &Path,
    options: LabelSelectorOptions,
    errs: &mut ErrorList,
) {
    let selector = term.get("labelSelector").filter(|s| s.is_object());
    validate_label_selector(selector, options, &path.child("labelSelector"), errs);
    validate_label_selector(
        term.get("namespaceSelector"),
        options,
        &path.child("namespaceSelector"),
        errs,
    );
    // Upstream reports bad namespaces under `namespace`.
    let namespace_path = path.child("namespace");
    for namespace in read::strings(term, "namespaces") {
        for msg in names::name_is_dns_label(namespace, false) {
            errs.push(field::invalid(&namespace_path, namespace, &msg));
        }
    }
    validate_match_label_keys(
        path,
        read::list(term, "matchLabelKeys"),
        read::list(term, "mismatchLabelKeys"),
        selector,
        errs,
    );
    let key = read::text(term, "topologyKey");
    let key_path = path.child("topologyKey");
    if key.is_empty() {
        errs.push(field::required(&key_path, "can not be empty"));
    }
    validate_label_name(key, &key_path, errs);
}

/// `ValidateTolerations`.
pub(crate) fn validate_tolerations(tolerations: &[Value], path: &Path, errs: &mut ErrorList) {
    for (i, toleration) in tolerations.iter().enumerate() {
        let at = path.index(i);
        let key = read::text(toleration, "key");
        let operator = read::text(toleration, "operator");
        let effect = read::text(toleration, "effect");
        let value = read::text(toleration, "value");
        let operator_path = at.child("operator");
        if !key.is_empty() {
            validate_label_name(key, &at.child("key"), errs);
        }
        if key.is_empty() && operator != "Exists" {
            errs.push(field::invalid(
                &operator_path,
                operator,
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        let effect_path = at.child("effect");
        if read::is_set(toleration, "tolerationSeconds") && effect != "NoExecute" {
            errs.push(field::invalid(
                &effect_path,
                effect,
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            ));
        }
        match operator {
            "Equal" | "" => {
                let problems = names::is_valid_label_value(value);
                if !problems.is_empty() {
                    errs.push(field::invalid(&operator_path, value, &problems.join(";")));
                }
            }
            "Exists" if !value.is_empty() => errs.push(field::invalid(
                &operator_path,
                value,
                "value must be empty when `operator` is 'Exists'",
            )),
            "Exists" => {}
            other => errs.push(field::not_supported(
                &operator_path,
                other,
                &["Equal", "Exists"],
            )),
        }
        if !effect.is_empty() && !["NoSchedule", "PreferNoSchedule", "NoExecute"].contains(&effect)
        {
            errs.push(field::not_supported(
                &effect_path,
                effect,
                &["NoSchedule", "PreferNoSchedule", "NoExecute"],
            ));
        }
    }
}

/// `validateSchedulingGates`: qualified names (reported on the item), no repeats.
pub(super) fn validate_scheduling_gates(spec: &Value, path: &Path, errs: &mut ErrorList) {
    let gates_path = path.child("schedulingGates");
    let mut seen = BTreeSet::new();
    for (i, gate) in read::list(spec, "schedulingGates").iter().enumerate() {
        let at = gates_path.index(i);
        let name = read::text(gate, "name");
        for msg in names::is_qualified_name(name) {
            errs.push(field::invalid(&at, name, &msg));
        }
        if !seen.insert(name) {
            errs.push(field::duplicate(&at, name));
        }
    }
}

/// Whether the old spec has a pod (anti-)affinity selector the strict rules refuse
/// (`hasInvalidLabelValueInAffinitySelector`): then label values stay unchecked.
pub(super) fn has_invalid_affinity_selector(spec: &Value) -> bool {
    let Some(affinity) = spec.get("affinity") else {
        return false;
    };
    let terms = ["podAffinity", "podAntiAffinity"]
        .into_iter()
        .flat_map(|m| {
            let kind = affinity.get(m).unwrap_or(&Value::Null);
            let required = read::list(kind, REQUIRED).iter();
            let preferred = read::list(kind, PREFERRED)
                .iter()
                .map(|w| w.get("podAffinityTerm").unwrap_or(&Value::Null));
            required.chain(preferred)
        });
    terms.into_iter().any(|term| {
        let mut errs = ErrorList::new();
        let path = Path::new("");
        for member in ["labelSelector", "namespaceSelector"] {
            validate_label_selector(
                term.get(member),
                LabelSelectorOptions::default(),
                &path,
                &mut errs,
            );
        }
        !errs.is_empty()
    })
}

/// Whether the old spec's required node affinity holds an invalid label value.
pub(super) fn has_invalid_required_node_affinity_value(spec: &Value) -> bool {
    let terms = spec
        .get("affinity")
        .and_then(|a| a.get("nodeAffinity"))
        .and_then(|n| n.get(REQUIRED))
        .map(|s| read::list(s, "nodeSelectorTerms"))
        .unwrap_or(&[]);
    terms.iter().any(|t| {
        read::list(t, "matchExpressions")
            .iter()
            .flat_map(|r| read::strings(r, "values"))
            .any(|v| !is_label_value(v))
    })
}
