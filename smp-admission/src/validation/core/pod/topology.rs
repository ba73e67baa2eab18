//! `topologySpreadConstraints` (`validateTopologySpreadConstraints`) and the `matchLabelKeys`
//! rules they share with pod affinity terms (`ValidateMatchLabelKeysAndMismatchLabelKeys`,
//! and the pre-v1.34 `ValidateMatchLabelKeysInTopologySpread`).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::PodOptions;
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::meta::{LabelSelectorOptions, validate_label_name, validate_label_selector};
use crate::validation::read;

/// `validateTopologySpreadConstraints`.
pub(super) fn validate_topology_spread(
    spec: &Value,
    path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    let constraints = read::list(spec, "topologySpreadConstraints");
    let list_path = path.child("topologySpreadConstraints");
    // How many constraints from each index on use each (topologyKey, whenUnsatisfiable):
    // the pair is a duplicate when a later constraint repeats it.
    let mut later: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for c in constraints {
        *later.entry(pair(c)).or_default() += 1;
    }
    for (i, constraint) in constraints.iter().enumerate() {
        let at = list_path.index(i);
        let this = pair(constraint);
        if let Some(n) = later.get_mut(&this) {
            *n -= 1;
        }
        one_constraint(
            constraint,
            &at,
            later.get(&this).copied().unwrap_or(0) > 0,
            options,
            errs,
        );
    }
}

fn pair(c: &Value) -> (&str, &str) {
    (
        read::text(c, "topologyKey"),
        read::text(c, "whenUnsatisfiable"),
    )
}

fn one_constraint(
    c: &Value,
    at: &Path,
    repeated_later: bool,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    let skew = read::int(c, "maxSkew");
    if skew <= 0 {
        errs.push(field::invalid(
            &at.child("maxSkew"),
            skew,
            "must be greater than zero",
        ));
    }
    let (key, action) = pair(c);
    if key.is_empty() {
        errs.push(field::required(
            &at.child("topologyKey"),
            "can not be empty",
        ));
    }
    if !["DoNotSchedule", "ScheduleAnyway"].contains(&action) {
        errs.push(field::not_supported(
            &at.child("whenUnsatisfiable"),
            action,
            &["DoNotSchedule", "ScheduleAnyway"],
        ));
    }
    if repeated_later {
        errs.push(field::duplicate(
            &at.child("{topologyKey, whenUnsatisfiable}"),
            format!("{{{key}, {action}}}"),
        ));
    }
    if let Some(min) = read::opt_int(c, "minDomains") {
        let min_path = at.child("minDomains");
        if min <= 0 {
            errs.push(field::invalid(&min_path, min, "must be greater than zero"));
        }
        if action != "DoNotSchedule" {
            errs.push(field::invalid(
                &min_path,
                min,
                &format!(
                    "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {action}"
                ),
            ));
        }
    }
    for member in ["nodeAffinityPolicy", "nodeTaintsPolicy"] {
        if let Some(policy) = read::opt_text(c, member)
            && !["Honor", "Ignore"].contains(&policy)
        {
            errs.push(field::not_supported(
                &at.child(member),
                policy,
                &["Honor", "Ignore"],
            ));
        }
    }
    let selector = c.get("labelSelector").filter(|s| s.is_object());
    let keys = read::list(c, "matchLabelKeys");
    if uses_v134_rules(options) {
        validate_match_label_keys(at, keys, &[], selector, errs);
    } else {
        validate_match_label_keys_legacy(&at.child("matchLabelKeys"), keys, selector, errs);
    }
    if !options.allow_invalid_topology_spread_constraint_label_selector {
        validate_label_selector(
            selector,
            LabelSelectorOptions::default(),
            &at.child("labelSelector"),
            errs,
        );
    }
}

/// Which `matchLabelKeys` rules apply: the v1.34 ones when keys are merged into the selector
/// and the old pod passes them, or when they are not merged but the old pod fails the old rules.
fn uses_v134_rules(options: &PodOptions) -> bool {
    if !options.allow_match_label_keys_in_pod_topology_spread {
        return false;
    }
    if options.allow_match_label_keys_in_pod_topology_spread_selector_merge {
        !options.old_pod_violates_match_label_keys_validation
    } else {
        options.old_pod_violates_legacy_match_label_keys_validation
    }
}

/// Whether an (old) constraint fails the v1.34 `matchLabelKeys` rules.
pub(super) fn violates_match_label_keys_rules(constraint: &Value) -> bool {
    let mut errs = ErrorList::new();
    validate_match_label_keys(
        &Path::new(""),
        read::list(constraint, "matchLabelKeys"),
        &[],
        constraint.get("labelSelector").filter(|s| s.is_object()),
        &mut errs,
    );
    !errs.is_empty()
}

/// `ValidateMatchLabelKeysAndMismatchLabelKeys`: keys are label names and need a selector; a
/// matchLabelKeys key the selector uses twice (once from the server's merge) is a duplicate,
/// reported as `<path>[i]`; a key may not be in both lists.
pub(super) fn validate_match_label_keys(
    path: &Path,
    match_keys: &[Value],
    mismatch_keys: &[Value],
    selector: Option<&Value>,
    errs: &mut ErrorList,
) {
    label_keys(&path.child("matchLabelKeys"), match_keys, selector, errs);
    label_keys(
        &path.child("mismatchLabelKeys"),
        mismatch_keys,
        selector,
        errs,
    );
    let text = |v: &Value| v.as_str().unwrap_or("").to_owned();
    if let Some(selector) = selector {
        // The last index of each key, as upstream's map keeps it.
        let index: BTreeMap<String, usize> = match_keys
            .iter()
            .enumerate()
            .map(|(i, k)| (text(k), i))
            .collect();
        let mut seen: BTreeSet<String> = read::object_or_empty(selector, "matchLabels")
            .keys()
            .cloned()
            .collect();
        for expression in read::list(selector, "matchExpressions") {
            let key = read::text(expression, "key");
            if let Some(&i) = index.get(key)
                && seen.contains(key)
            {
                errs.push(field::invalid(
                    &path.index(i),
                    key,
                    "exists in both matchLabelKeys and labelSelector",
                ));
            }
            seen.insert(key.to_owned());
        }
    }
    let mismatch: BTreeSet<String> = mismatch_keys.iter().map(text).collect();
    let match_path = path.child("matchLabelKeys");
    for (i, key) in match_keys.iter().enumerate() {
        let key = text(key);
        if mismatch.contains(&key) {
            errs.push(field::invalid(
                &match_path.index(i),
                key.as_str(),
                "exists in both matchLabelKeys and mismatchLabelKeys",
            ));
        }
    }
}

fn label_keys(path: &Path, keys: &[Value], selector: Option<&Value>, errs: &mut ErrorList) {
    if keys.is_empty() {
        return;
    }
    if selector.is_none() {
        errs.push(field::forbidden(
            path,
            "must not be specified when labelSelector is not set",
        ));
        return;
    }
    for (i, key) in keys.iter().enumerate() {
        validate_label_name(key.as_str().unwrap_or(""), &path.index(i), errs);
    }
}

/// `ValidateMatchLabelKeysInTopologySpread`, the rules before v1.34: a key may not be one the
/// selector already uses.
fn validate_match_label_keys_legacy(
    path: &Path,
    keys: &[Value],
    selector: Option<&Value>,
    errs: &mut ErrorList,
) {
    if keys.is_empty() {
        return;
    }
    let mut used: BTreeSet<&str> = BTreeSet::new();
    match selector {
        Some(selector) => {
            used.extend(
                read::object_or_empty(selector, "matchLabels")
                    .keys()
                    .map(String::as_str),
            );
            used.extend(
                read::list(selector, "matchExpressions")
                    .iter()
                    .map(|e| read::text(e, "key")),
            );
        }
        None => errs.push(field::forbidden(
            path,
            "must not be specified when labelSelector is not set",
        )),
    }
    for (i, key) in keys.iter().enumerate() {
        let key = key.as_str().unwrap_or("");
        let at = path.index(i);
        validate_label_name(key, &at, errs);
        if used.contains(key) {
            errs.push(field::invalid(
                &at,
                key,
                "exists in both matchLabelKeys and labelSelector",
            ));
        }
    }
}
