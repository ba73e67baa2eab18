//! ValidatingAdmissionPolicyBinding (`ValidateValidatingAdmissionPolicyBinding`; its update
//! runs the same checks on the new object).
//!
//! The strategy also asks the authorizer whether the requester may read the policy and its
//! parameters; that needs the cluster's authorization and is not done here.

use std::collections::HashSet;

use serde_json::Value;

use super::match_resources::validate_match_resources;
use super::{list_value, string_list};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::{
    LabelSelectorOptions, validate_generic_object_meta, validate_label_selector,
};
use crate::validation::names;
use crate::validation::read;

/// The supported validation actions, sorted.
const ACTIONS: [&str; 3] = ["Audit", "Deny", "Warn"];
/// What a binding may do when its parameter is missing, in the server's order.
const NOT_FOUND_ACTIONS: [&str; 2] = ["Deny", "Allow"];
const EXCLUSIVE: &str = "name and selector are mutually exclusive";

pub(super) fn binding(obj: &Value) -> ErrorList {
    let mut errs = validate_generic_object_meta(
        obj.get("metadata"),
        false,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let spec = obj.get("spec").unwrap_or(&Value::Null);
    let path = Path::new("spec");
    let policy = read::text(spec, "policyName");
    if policy.is_empty() {
        errs.push(field::required(&path.child("policyName"), ""));
    } else {
        for msg in names::name_is_dns_subdomain(policy, false) {
            errs.push(field::invalid(&path.child("policyName"), policy, &msg));
        }
    }
    if let Some(param_ref) = read::member(spec, "paramRef").set_object() {
        validate_param_ref(param_ref, &path.child("paramRef"), &mut errs);
    }
    if let Some(resources) = read::member(spec, "matchResources").set_object() {
        validate_match_resources(resources, &path.child("matchResources"), &mut errs);
    }
    validate_actions(
        &string_list(spec, "validationActions"),
        &path.child("validationActions"),
        &mut errs,
    );
    errs
}

pub(super) fn binding_update(new: &Value, _old: &Value) -> ErrorList {
    binding(new)
}

/// `validateParamRef`: a name or a selector, not both, and what to do when none is found.
fn validate_param_ref(param_ref: &Value, path: &Path, errs: &mut ErrorList) {
    let name = read::text(param_ref, "name");
    let selector = read::member(param_ref, "selector").set_object();
    if !name.is_empty() {
        for msg in names::name_is_path_segment(name, false) {
            errs.push(field::invalid(&path.child("name"), name, &msg));
        }
        if selector.is_some() {
            errs.push(field::forbidden(&path.child("name"), EXCLUSIVE));
        }
    }
    if selector.is_some() {
        validate_label_selector(
            selector,
            LabelSelectorOptions::default(),
            &path.child("selector"),
            errs,
        );
        if !name.is_empty() {
            errs.push(field::forbidden(&path.child("selector"), EXCLUSIVE));
        }
    }
    if name.is_empty() && selector.is_none() {
        errs.push(field::required(
            path,
            "one of name or selector must be specified",
        ));
    }
    match read::opt_text(param_ref, "parameterNotFoundAction") {
        None | Some("") => errs.push(field::required(&path.child("parameterNotFoundAction"), "")),
        Some(action) if !NOT_FOUND_ACTIONS.contains(&action) => errs.push(field::not_supported(
            &path.child("parameterNotFoundAction"),
            BadValue::Json(Value::from(action)),
            &NOT_FOUND_ACTIONS,
        )),
        Some(_) => {}
    }
}

/// `validateValidationActions`: supported ones, each once, not both Deny and Warn, at
/// least one.
fn validate_actions(actions: &[&str], path: &Path, errs: &mut ErrorList) {
    let mut seen = HashSet::new();
    for (i, action) in actions.iter().enumerate() {
        if !ACTIONS.contains(action) {
            errs.push(field::not_supported(
                &path.index(i),
                BadValue::Json(Value::from(*action)),
                &ACTIONS,
            ));
        }
        if !seen.insert(*action) {
            errs.push(field::duplicate(
                &path.index(i),
                BadValue::Json(Value::from(*action)),
            ));
        }
    }
    if seen.contains("Deny") && seen.contains("Warn") {
        errs.push(field::invalid(
            path,
            list_value(actions),
            "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
        ));
    }
    if seen.is_empty() {
        errs.push(field::required(
            path,
            "at least one validation action is required",
        ));
    }
}
