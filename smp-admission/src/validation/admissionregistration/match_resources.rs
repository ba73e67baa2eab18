//! The resources a policy or binding matches (`validateMatchResources`,
//! `validateNamedRuleWithOperations`): match policy and both selectors required (the v1
//! defaults fill them), selectors checked strictly, and rules that may name resources.

use std::collections::HashSet;

use serde_json::Value;

use super::rules::validate_rule_with_operations;
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::{LabelSelectorOptions, validate_label_selector};
use crate::validation::names;
use crate::validation::read;

const MATCH_POLICIES: [&str; 2] = ["Equivalent", "Exact"];

/// `validateMatchResources` of a set `matchConstraints` or `matchResources`.
pub(super) fn validate_match_resources(resources: &Value, path: &Path, errs: &mut ErrorList) {
    match read::opt_text(resources, "matchPolicy") {
        None => errs.push(field::required(&path.child("matchPolicy"), "")),
        Some(policy) if !MATCH_POLICIES.contains(&policy) => errs.push(field::not_supported(
            &path.child("matchPolicy"),
            BadValue::Json(Value::from(policy)),
            &MATCH_POLICIES,
        )),
        Some(_) => {}
    }
    for key in ["namespaceSelector", "objectSelector"] {
        match read::member(resources, key).set_object() {
            None => errs.push(field::required(&path.child(key), "")),
            // This type came after label values in selectors were made strict.
            selector => validate_label_selector(
                selector,
                LabelSelectorOptions::default(),
                &path.child(key),
                errs,
            ),
        }
    }
    for key in ["resourceRules", "excludeResourceRules"] {
        let at = path.child(key);
        for (i, rule) in read::list(resources, key).iter().enumerate() {
            validate_named_rule(rule, &at.index(i), errs);
        }
    }
}

/// `validateNamedRuleWithOperations`: resource names are path segments, each once, then the
/// rule.
fn validate_named_rule(rule: &Value, path: &Path, errs: &mut ErrorList) {
    let at = path.child("resourceNames");
    let mut seen = HashSet::new();
    for (i, name) in read::list(rule, "resourceNames").iter().enumerate() {
        let name = name.as_str().unwrap_or("");
        for msg in names::name_is_path_segment(name, false) {
            errs.push(field::invalid(&at.index(i), name, &msg));
        }
        if !seen.insert(name) {
            errs.push(field::duplicate(&at.index(i), name));
        }
    }
    validate_rule_with_operations(rule, path, errs);
}
