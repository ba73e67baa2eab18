//! ValidatingWebhookConfiguration and MutatingWebhookConfiguration
//! (`ValidateValidatingWebhookConfiguration`, `ValidateMutatingWebhookConfiguration` and their
//! `...Update`, as the strategies call them).
//!
//! A create holds every webhook to the strictest rules. An update holds the new object to a
//! rule only when the old one already kept it, so that configurations stored before the
//! rule was tightened can still be edited:
//! - side effects must be `None` or `NoneOnDryRun` only if every old webhook's were;
//! - an accepted AdmissionReview version (`v1`, `v1beta1`) is required only if every old
//!   webhook with versions had one;
//! - names must be unique only if the old ones were;
//! - selector values may be invalid label values if an old selector had one;
//! - the match conditions are not checked at all when no webhook's changed (same count of
//!   webhooks, each with the same conditions as the old one at its place).

use std::collections::HashSet;

use serde_json::Value;

use super::client::validate_client_config;
use super::conditions::validate_match_conditions;
use super::rules::validate_rule_with_operations;
use super::{list_value, string_list};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::{
    LabelSelectorOptions, validate_generic_object_meta, validate_label_selector,
};
use crate::validation::names;
use crate::validation::read;

/// The AdmissionReview versions the previous server release understands.
const ACCEPTED_REVIEW_VERSIONS: [&str; 2] = ["v1", "v1beta1"];
const FAILURE_POLICIES: [&str; 2] = ["Fail", "Ignore"];
const MATCH_POLICIES: [&str; 2] = ["Equivalent", "Exact"];
const REINVOCATION_POLICIES: [&str; 2] = ["IfNeeded", "Never"];
const NO_SIDE_EFFECTS: [&str; 2] = ["None", "NoneOnDryRun"];
const SIDE_EFFECTS: [&str; 4] = ["None", "NoneOnDryRun", "Some", "Unknown"];

/// What a validation holds the webhooks to (upstream's `validationOptions`).
#[derive(Debug, Clone, Copy)]
struct Options {
    ignore_match_conditions: bool,
    require_no_side_effects: bool,
    require_recognized_review_version: bool,
    require_unique_names: bool,
    allow_invalid_label_value: bool,
}

/// A create's options: every rule applies.
const STRICT: Options = Options {
    ignore_match_conditions: false,
    require_no_side_effects: true,
    require_recognized_review_version: true,
    require_unique_names: true,
    allow_invalid_label_value: false,
};

pub(super) fn validating_configuration(obj: &Value) -> ErrorList {
    configuration(obj, false, STRICT)
}

pub(super) fn validating_configuration_update(new: &Value, old: &Value) -> ErrorList {
    configuration(new, false, update_options(new, old))
}

pub(super) fn mutating_configuration(obj: &Value) -> ErrorList {
    configuration(obj, true, STRICT)
}

pub(super) fn mutating_configuration_update(new: &Value, old: &Value) -> ErrorList {
    configuration(new, true, update_options(new, old))
}

/// The options of an update, from what the old object already had.
fn update_options(new: &Value, old: &Value) -> Options {
    let old_hooks = read::list(old, "webhooks");
    let new_hooks = read::list(new, "webhooks");
    let same_conditions = new_hooks.len() == old_hooks.len()
        && new_hooks
            .iter()
            .zip(old_hooks)
            .all(|(n, o)| read::semantic_eq(n.get("matchConditions"), o.get("matchConditions")));
    let mut names = HashSet::new();
    Options {
        ignore_match_conditions: same_conditions,
        require_no_side_effects: old_hooks.iter().all(|h| {
            read::opt_text(h, "sideEffects").is_some_and(|s| NO_SIDE_EFFECTS.contains(&s))
        }),
        require_recognized_review_version: old_hooks.iter().all(|h| {
            let versions = string_list(h, "admissionReviewVersions");
            versions.is_empty()
                || versions
                    .iter()
                    .any(|v| ACCEPTED_REVIEW_VERSIONS.contains(v))
        }),
        require_unique_names: old_hooks
            .iter()
            .all(|h| names.insert(read::text(h, "name"))),
        allow_invalid_label_value: old_hooks.iter().any(has_invalid_selector),
    }
}

/// Whether a webhook's selectors fail the strict selector rules.
fn has_invalid_selector(hook: &Value) -> bool {
    ["namespaceSelector", "objectSelector"].iter().any(|key| {
        let mut errs = ErrorList::new();
        validate_label_selector(
            read::member(hook, key).set_object(),
            LabelSelectorOptions::default(),
            &Path::new(""),
            &mut errs,
        );
        !errs.is_empty()
    })
}

/// `validate{Validating,Mutating}WebhookConfiguration`: the metadata, then each webhook, its
/// AdmissionReview versions and the uniqueness of its name.
fn configuration(obj: &Value, mutating: bool, options: Options) -> ErrorList {
    let mut errs = validate_generic_object_meta(
        obj.get("metadata"),
        false,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let hooks = Path::new("webhooks");
    let mut seen = HashSet::new();
    for (i, hook) in read::list(obj, "webhooks").iter().enumerate() {
        let at = hooks.index(i);
        validate_webhook(hook, mutating, options, &at, &mut errs);
        validate_review_versions(
            &string_list(hook, "admissionReviewVersions"),
            options.require_recognized_review_version,
            &at.child("admissionReviewVersions"),
            &mut errs,
        );
        let name = read::text(hook, "name");
        if options.require_unique_names && !name.is_empty() && !seen.insert(name) {
            errs.push(field::duplicate(&at.child("name"), name));
        }
    }
    errs
}

/// `validate{Validating,Mutating}Webhook`.
fn validate_webhook(
    hook: &Value,
    mutating: bool,
    options: Options,
    path: &Path,
    errs: &mut ErrorList,
) {
    validate_fully_qualified_name(read::text(hook, "name"), &path.child("name"), errs);
    let rules = path.child("rules");
    for (i, rule) in read::list(hook, "rules").iter().enumerate() {
        validate_rule_with_operations(rule, &rules.index(i), errs);
    }
    one_of(hook, "failurePolicy", &FAILURE_POLICIES, path, errs);
    one_of(hook, "matchPolicy", &MATCH_POLICIES, path, errs);
    let allowed: &[&str] = if options.require_no_side_effects {
        &NO_SIDE_EFFECTS
    } else {
        &SIDE_EFFECTS
    };
    match read::opt_text(hook, "sideEffects") {
        None => errs.push(field::required(
            &path.child("sideEffects"),
            &format!("must specify one of {}", allowed.join(", ")),
        )),
        Some(effects) if !allowed.contains(&effects) => errs.push(field::not_supported(
            &path.child("sideEffects"),
            BadValue::Json(Value::from(effects)),
            allowed,
        )),
        Some(_) => {}
    }
    if let Some(timeout) = read::opt_int(hook, "timeoutSeconds")
        && !(1..=30).contains(&timeout)
    {
        errs.push(field::invalid(
            &path.child("timeoutSeconds"),
            timeout,
            "the timeout value must be between 1 and 30 seconds",
        ));
    }
    let selector_options = LabelSelectorOptions {
        allow_invalid_label_value: options.allow_invalid_label_value,
    };
    for key in ["namespaceSelector", "objectSelector"] {
        validate_label_selector(
            read::member(hook, key).set_object(),
            selector_options,
            &path.child(key),
            errs,
        );
    }
    if mutating {
        one_of(
            hook,
            "reinvocationPolicy",
            &REINVOCATION_POLICIES,
            path,
            errs,
        );
    }
    validate_client_config(hook, path, errs);
    if !options.ignore_match_conditions {
        validate_match_conditions(
            read::list(hook, "matchConditions"),
            &path.child("matchConditions"),
            errs,
        );
    }
}

/// An optional enumeration: when set, one of `supported`.
fn one_of(holder: &Value, key: &str, supported: &[&str], path: &Path, errs: &mut ErrorList) {
    if let Some(value) = read::opt_text(holder, key)
        && !supported.contains(&value)
    {
        errs.push(field::not_supported(
            &path.child(key),
            BadValue::Json(Value::from(value)),
            supported,
        ));
    }
}

/// `IsFullyQualifiedName`: a DNS subdomain of at least three labels.
fn validate_fully_qualified_name(name: &str, path: &Path, errs: &mut ErrorList) {
    if name.is_empty() {
        errs.push(field::required(path, ""));
        return;
    }
    let problems = names::is_dns1123_subdomain(name);
    if !problems.is_empty() {
        errs.push(field::invalid(path, name, &problems.join(",")));
    } else if name.split('.').count() < 3 {
        errs.push(field::invalid(
            path,
            name,
            "should be a domain with at least three segments separated by dots",
        ));
    }
}

/// `validateAdmissionReviewVersions`: at least one, no repeat, each a DNS-1035 label, and one
/// the server accepts when `require_recognized`.
fn validate_review_versions(
    versions: &[&str],
    require_recognized: bool,
    path: &Path,
    errs: &mut ErrorList,
) {
    let accepted = ACCEPTED_REVIEW_VERSIONS.join(", ");
    if versions.is_empty() {
        errs.push(field::required(
            path,
            &format!("must specify one of {accepted}"),
        ));
        return;
    }
    let mut seen = HashSet::new();
    let mut has_accepted = false;
    for (i, version) in versions.iter().enumerate() {
        if !seen.insert(*version) {
            errs.push(field::invalid(
                &path.index(i),
                *version,
                "duplicate version",
            ));
            continue;
        }
        for msg in names::is_dns1035_label(version) {
            errs.push(field::invalid(&path.index(i), *version, &msg));
        }
        has_accepted |= ACCEPTED_REVIEW_VERSIONS.contains(version);
    }
    if require_recognized && !has_accepted {
        errs.push(field::invalid(
            path,
            list_value(versions),
            &format!("must include at least one of {accepted}"),
        ));
    }
}
