//! A Job's pod failure policy and success policy (`validatePodFailurePolicy`,
//! `validateSuccessPolicy`), and the index-interval lists the success policy names
//! (`validateIndexesFormat`).

use std::collections::HashSet;

use serde_json::Value;

use crate::validation::apps::shared::{member, non_negative};
use crate::validation::field::{self, BadValue, ErrorList, Path, go_quote};
use crate::validation::names;
use crate::validation::read;

const MAX_RULES: usize = 20;
const MAX_EXIT_CODE_VALUES: usize = 255;
const MAX_POD_CONDITION_PATTERNS: usize = 20;
const MAX_SUCCEEDED_INDEXES_LENGTH: usize = 64 * 1024;
const MAX_SUCCESS_RULES: usize = 20;

const ACTIONS: [&str; 4] = ["Count", "FailIndex", "FailJob", "Ignore"];
const OPERATORS: [&str; 2] = ["In", "NotIn"];
const STATUSES: [&str; 3] = ["False", "True", "Unknown"];

/// Go's `%q` of a sorted string list: `["A" "B"]`.
fn quoted_list(values: &[&str]) -> String {
    let mut out = String::from("[");
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        go_quote(v, &mut out);
    }
    out.push(']');
    out
}

/// `validatePodFailurePolicy`; `path` is `spec.podFailurePolicy`.
pub(super) fn pod_failure_policy(spec: &Value, policy: &Value, path: &Path, errs: &mut ErrorList) {
    let rules = read::list(policy, "rules");
    let rules_path = path.child("rules");
    if rules.len() > MAX_RULES {
        errs.push(field::too_many(
            &rules_path,
            rules.len() as i64,
            MAX_RULES as i64,
        ));
    }
    let pod = spec
        .get("template")
        .and_then(|t| t.get("spec"))
        .unwrap_or(&Value::Null);
    let containers: HashSet<&str> = read::list(pod, "containers")
        .iter()
        .chain(read::list(pod, "initContainers"))
        .map(|c| read::text(c, "name"))
        .collect();
    let has_backoff_per_index = member(spec, "backoffLimitPerIndex").is_some();
    for (i, rule) in rules.iter().enumerate() {
        let at = rules_path.index(i);
        failure_rule(rule, has_backoff_per_index, &containers, &at, errs);
    }
}

fn failure_rule(
    rule: &Value,
    has_backoff_per_index: bool,
    containers: &HashSet<&str>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let action_path = path.child("action");
    match read::text(rule, "action") {
        "" => errs.push(field::required(
            &action_path,
            &format!("valid values: {}", quoted_list(&ACTIONS)),
        )),
        "FailIndex" => {
            if !has_backoff_per_index {
                errs.push(field::invalid(
                    &action_path,
                    "FailIndex",
                    "requires the backoffLimitPerIndex to be set",
                ));
            }
        }
        a if ACTIONS.contains(&a) => {}
        other => errs.push(field::not_supported(&action_path, other, &ACTIONS)),
    }
    let exit_codes = member(rule, "onExitCodes");
    if let Some(codes) = exit_codes {
        on_exit_codes(codes, containers, &path.child("onExitCodes"), errs);
    }
    let conditions = read::list(rule, "onPodConditions");
    if !conditions.is_empty() {
        on_pod_conditions(conditions, &path.child("onPodConditions"), errs);
    }
    match (exit_codes.is_some(), conditions.is_empty()) {
        (true, false) => errs.push(field::invalid(
            path,
            BadValue::Omit,
            "specifying both OnExitCodes and OnPodConditions is not supported",
        )),
        (false, true) => errs.push(field::invalid(
            path,
            BadValue::Omit,
            "specifying one of OnExitCodes and OnPodConditions is required",
        )),
        _ => {}
    }
}

fn on_exit_codes(codes: &Value, containers: &HashSet<&str>, path: &Path, errs: &mut ErrorList) {
    let operator = read::text(codes, "operator");
    let operator_path = path.child("operator");
    if operator.is_empty() {
        errs.push(field::required(
            &operator_path,
            &format!("valid values: {}", quoted_list(&OPERATORS)),
        ));
    } else if !OPERATORS.contains(&operator) {
        errs.push(field::not_supported(&operator_path, operator, &OPERATORS));
    }
    if let Some(name) = member(codes, "containerName") {
        let name = name.as_str().unwrap_or("");
        if !containers.contains(name) {
            errs.push(field::invalid(
                &path.child("containerName"),
                name,
                "must be one of the container or initContainer names in the pod template",
            ));
        }
    }
    let values = read::list(codes, "values");
    let values_path = path.child("values");
    let as_list = || BadValue::Json(Value::Array(values.to_vec()));
    if values.is_empty() {
        errs.push(field::invalid(
            &values_path,
            as_list(),
            "at least one value is required",
        ));
    } else if values.len() > MAX_EXIT_CODE_VALUES {
        errs.push(field::too_many(
            &values_path,
            values.len() as i64,
            MAX_EXIT_CODE_VALUES as i64,
        ));
    }
    let mut ordered = true;
    let mut seen: HashSet<i64> = HashSet::new();
    let mut previous: Option<i64> = None;
    for (j, value) in values.iter().enumerate() {
        let code = value.as_i64().unwrap_or(0);
        let at = values_path.index(j);
        if operator == "In" && code == 0 {
            errs.push(field::invalid(
                &at,
                code,
                "must not be 0 for the In operator",
            ));
        }
        if !seen.insert(code) {
            errs.push(field::duplicate(&at, code));
        }
        if previous.is_some_and(|p| p > code) {
            ordered = false;
        }
        previous = Some(code);
    }
    if !ordered {
        errs.push(field::invalid(&values_path, as_list(), "must be ordered"));
    }
}

fn on_pod_conditions(patterns: &[Value], path: &Path, errs: &mut ErrorList) {
    if patterns.len() > MAX_POD_CONDITION_PATTERNS {
        errs.push(field::too_many(
            path,
            patterns.len() as i64,
            MAX_POD_CONDITION_PATTERNS as i64,
        ));
    }
    for (j, pattern) in patterns.iter().enumerate() {
        let at = path.index(j);
        let kind = read::text(pattern, "type");
        let type_path = at.child("type");
        for msg in names::is_qualified_name(kind) {
            errs.push(field::invalid(&type_path, kind, &msg));
        }
        let status_path = at.child("status");
        match read::text(pattern, "status") {
            "" => errs.push(field::required(
                &status_path,
                &format!("valid values: {}", quoted_list(&STATUSES)),
            )),
            s if STATUSES.contains(&s) => {}
            other => errs.push(field::not_supported(&status_path, other, &STATUSES)),
        }
    }
}

/// `validateSuccessPolicy` of an Indexed Job; `path` is `spec.successPolicy`.
pub(super) fn success_policy(spec: &Value, policy: &Value, path: &Path, errs: &mut ErrorList) {
    let rules = read::list(policy, "rules");
    let rules_path = path.child("rules");
    if rules.is_empty() {
        errs.push(field::required(
            &rules_path,
            "at least one rules must be specified when the successPolicy is specified",
        ));
    }
    if rules.len() > MAX_SUCCESS_RULES {
        errs.push(field::too_many(
            &rules_path,
            rules.len() as i64,
            MAX_SUCCESS_RULES as i64,
        ));
    }
    // Go reads completions through a pointer here; an Indexed Job without completions is
    // already reported, and is read as 0.
    let completions = read::int(spec, "completions");
    for (i, rule) in rules.iter().enumerate() {
        success_rule(rule, completions, &rules_path.index(i), errs);
    }
}

fn success_rule(rule: &Value, completions: i64, path: &Path, errs: &mut ErrorList) {
    let indexes = member(rule, "succeededIndexes");
    let count = read::opt_int(rule, "succeededCount");
    if indexes.is_none() && count.is_none() {
        errs.push(field::required(
            path,
            "at least one of succeededCount or succeededIndexes must be specified",
        ));
    }
    let mut total = 0;
    if let Some(indexes) = indexes {
        let text = indexes.as_str().unwrap_or("");
        let indexes_path = path.child("succeededIndexes");
        if text.len() > MAX_SUCCEEDED_INDEXES_LENGTH {
            errs.push(field::too_long(
                &indexes_path,
                MAX_SUCCEEDED_INDEXES_LENGTH as i64,
            ));
        }
        match indexes_total(text, completions) {
            Ok(n) => total = n,
            Err(e) => errs.push(field::invalid(
                &indexes_path,
                text,
                &format!("error parsing succeededIndexes: {e}"),
            )),
        }
    }
    if let Some(count) = count {
        let count_path = path.child("succeededCount");
        non_negative(count, &count_path, errs);
        if count > completions {
            errs.push(field::invalid(
                &count_path,
                count,
                &format!(
                    "must be less than or equal to {completions} (the number of specified completions)"
                ),
            ));
        }
        if indexes.is_some() && count > total {
            errs.push(field::invalid(
                &count_path,
                count,
                &format!(
                    "must be less than or equal to {total} (the number of indexes in the specified succeededIndexes field)"
                ),
            ));
        }
    }
}

/// `validateIndexesFormat`: comma-separated indexes or `a-b` intervals below `completions`,
/// strictly increasing; the number of indexes they cover.
pub(super) fn indexes_total(text: &str, completions: i64) -> Result<i64, String> {
    if text.is_empty() {
        return Ok(0);
    }
    let mut last: Option<i64> = None;
    let mut total = 0i64;
    for interval in text.split(',') {
        let (x, y) = interval_bounds(interval, completions)?;
        if let Some(l) = last.filter(|l| *l >= x) {
            return Err(format!("non-increasing order, previous: {l}, current: {x}"));
        }
        total += y - x + 1;
        last = Some(y);
    }
    Ok(total)
}

/// `parseIndexInterval`.
pub(super) fn interval_bounds(interval: &str, completions: i64) -> Result<(i64, i64), String> {
    let parts: Vec<&str> = interval.split('-').collect();
    if parts.len() > 2 {
        let mut quoted = String::new();
        go_quote(interval, &mut quoted);
        return Err(format!(
            "the fragment {quoted} violates the requirement that an index interval can have at most two parts separated by '-'"
        ));
    }
    let number = |s: &str| -> Result<i64, String> {
        let mut quoted = String::new();
        go_quote(s, &mut quoted);
        let (n, ok) = crate::validation::apps::shared::go_atoi(s);
        if ok.is_err() {
            return Err(format!(
                "cannot convert string to integer for index: {quoted}"
            ));
        }
        if n >= completions {
            return Err(format!("too large index: {quoted}"));
        }
        Ok(n)
    };
    let x = number(parts[0])?;
    if parts.len() == 1 {
        return Ok((x, x));
    }
    let y = number(parts[1])?;
    if x >= y {
        return Err(format!("non-increasing order, previous: {x}, current: {y}"));
    }
    Ok((x, y))
}

/// The supported pod replacement policies, sorted.
pub(super) const REPLACEMENT_POLICIES: [&str; 2] = ["Failed", "TerminatingOrFailed"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_lists() {
        assert_eq!(indexes_total("0-2,4", 5), Ok(4));
        assert_eq!(indexes_total("", 5), Ok(0));
        assert!(
            indexes_total("3,1", 5)
                .unwrap_err()
                .contains("previous: 3, current: 1")
        );
        assert!(indexes_total("2-2", 5).is_err());
        assert_eq!(quoted_list(&OPERATORS), "[\"In\" \"NotIn\"]");
    }
}
