//! Pieces several apps kinds use: non-negative numbers, int-or-percent values, what a label
//! selector selects once converted (`metav1.LabelSelectorAsSelector`), and the pod options
//! a template gets.

use serde_json::Value;

use crate::validation::core::pod::PodOptions;
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::{self, IS_NEGATIVE, LabelSelectorOptions};
use crate::validation::names;
use crate::validation::read;

/// Stands in for an absent member.
pub(crate) static NULL: Value = Value::Null;

/// The template labels do not satisfy the selector.
pub(crate) const NO_MATCH: &str = "`selector` does not match template `labels`";

/// `ValidateNonnegativeField`.
pub(crate) fn non_negative(value: i64, path: &Path, errs: &mut ErrorList) {
    if value < 0 {
        errs.push(field::invalid(path, value, IS_NEGATIVE));
    }
}

/// `obj.spec`, or null.
pub(crate) fn spec_of(obj: &Value) -> &Value {
    obj.get("spec").unwrap_or(&NULL)
}

/// A present, non-null member.
pub(crate) fn member<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.get(key).filter(|m| !m.is_null())
}

/// `template.metadata.labels`.
pub(crate) fn template_labels(template: Option<&Value>) -> Option<&Value> {
    template
        .and_then(|t| t.get("metadata"))
        .and_then(|m| m.get("labels"))
}

/// The options `GetValidationOptionsFromPodTemplate` gives a template (`old` on update).
pub(crate) fn template_options(new: Option<&Value>, old: Option<&Value>) -> PodOptions {
    let _ = new;
    let old_spec = old.and_then(|t| t.get("spec"));
    let old_meta = old.and_then(|t| t.get("metadata"));
    PodOptions::for_template(old_spec, old_meta)
}

/// Go's `strconv.Atoi` result as the apps helpers use it: the value, clamped on overflow,
/// and whether it parsed cleanly.
pub(crate) fn go_atoi(s: &str) -> (i64, Result<(), AtoiError>) {
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return (0, Err(AtoiError::Syntax));
    }
    let mut value: i128 = 0;
    for b in digits.bytes() {
        value = value * 10 + i128::from(b - b'0');
        if value > i128::from(i64::MAX) + 1 {
            break;
        }
    }
    let value = if negative { -value } else { value };
    if value > i128::from(i64::MAX) {
        (i64::MAX, Err(AtoiError::Range))
    } else if value < i128::from(i64::MIN) {
        (i64::MIN, Err(AtoiError::Range))
    } else {
        (value as i64, Ok(()))
    }
}

/// Why `strconv.Atoi` failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AtoiError {
    /// `invalid syntax`.
    Syntax,
    /// `value out of range`.
    Range,
}

impl AtoiError {
    /// The tail Go prints.
    pub(crate) fn text(self) -> &'static str {
        match self {
            AtoiError::Syntax => "invalid syntax",
            AtoiError::Range => "value out of range",
        }
    }
}

/// A valid percent string's number (`getPercentValue`).
fn percent(value: Option<&Value>) -> Option<i64> {
    let s = value?.as_str()?;
    if !names::is_valid_percent(s).is_empty() {
        return None;
    }
    Some(go_atoi(&s[..s.len() - 1]).0)
}

/// `getIntOrPercentValue`: a percent's number, an int's value, or a non-percent string
/// read as an integer (0 when it is not one); absent is the zero int.
pub(crate) fn int_or_percent_value(value: Option<&Value>) -> i64 {
    if let Some(p) = percent(value) {
        return p;
    }
    match value {
        Some(Value::Number(n)) => n.as_i64().unwrap_or(0),
        Some(Value::String(s)) => go_atoi(s).0,
        _ => 0,
    }
}

/// `ValidatePositiveIntOrPercent`.
pub(crate) fn validate_int_or_percent(value: Option<&Value>, path: &Path, errs: &mut ErrorList) {
    match value {
        Some(Value::String(s)) => {
            for msg in names::is_valid_percent(s) {
                errs.push(field::invalid(
                    path,
                    BadValue::Json(Value::String(s.clone())),
                    &msg,
                ));
            }
        }
        Some(Value::Number(n)) => non_negative(n.as_i64().unwrap_or(0), path, errs),
        _ => {}
    }
}

/// `IsNotMoreThan100Percent`.
pub(crate) fn not_more_than_100(value: Option<&Value>, path: &Path, errs: &mut ErrorList) {
    if let (Some(p), Some(v)) = (percent(value), value)
        && p > 100
    {
        errs.push(field::invalid(
            path,
            BadValue::Json(v.clone()),
            "must not be greater than 100%",
        ));
    }
}

/// What a `LabelSelector` selects once converted.
pub(crate) enum Selection<'a> {
    /// No selector: selects nothing (and is not "empty").
    Nothing,
    /// A selector without requirements: selects everything.
    Everything,
    /// A selector that converts.
    Some(&'a Value),
    /// A selector the conversion rejects.
    Broken,
}

impl Selection<'_> {
    /// `labels.Selector.Empty()`.
    pub(crate) fn is_empty(&self) -> bool {
        matches!(self, Selection::Everything)
    }

    /// Whether the labels are selected (a broken selector selects nothing).
    pub(crate) fn matches(&self, labels: Option<&Value>) -> bool {
        match self {
            Selection::Nothing | Selection::Broken => false,
            Selection::Everything => true,
            Selection::Some(sel) => meta::selector_matches(sel, labels),
        }
    }
}

/// Whether a selector has no matchLabels and no matchExpressions.
pub(crate) fn selector_is_empty(selector: &Value) -> bool {
    read::object_or_empty(selector, "matchLabels").is_empty()
        && read::list(selector, "matchExpressions").is_empty()
}

/// `metav1.LabelSelectorAsSelector`, keeping only what validation needs.
pub(crate) fn selection(selector: Option<&Value>) -> Selection<'_> {
    let Some(selector) = selector.filter(|s| !s.is_null()) else {
        return Selection::Nothing;
    };
    if selector_is_empty(selector) {
        return Selection::Everything;
    }
    let key_ok = |k: &str| names::is_qualified_name(k).is_empty();
    let value_ok = |v: &Value| {
        v.as_str()
            .is_some_and(|v| names::is_valid_label_value(v).is_empty())
    };
    for (k, v) in read::object_or_empty(selector, "matchLabels") {
        if !key_ok(k) || !value_ok(v) {
            return Selection::Broken;
        }
    }
    for req in read::list(selector, "matchExpressions") {
        let values = read::list(req, "values");
        let count_ok = match read::text(req, "operator") {
            "In" | "NotIn" => !values.is_empty(),
            "Exists" | "DoesNotExist" => values.is_empty(),
            _ => false,
        };
        if !count_ok || !key_ok(read::text(req, "key")) || !values.iter().all(value_ok) {
            return Selection::Broken;
        }
    }
    Selection::Some(selector)
}

/// `LabelSelectorHasInvalidLabelValue`: some matchExpressions value is not a label value.
pub(crate) fn selector_has_invalid_value(selector: Option<&Value>) -> bool {
    let Some(selector) = selector else {
        return false;
    };
    read::list(selector, "matchExpressions").iter().any(|req| {
        read::list(req, "values")
            .iter()
            .any(|v| !names::is_valid_label_value(v.as_str().unwrap_or("")).is_empty())
    })
}

/// The selector checks of Deployment, ReplicaSet and StatefulSet: required, validated
/// strictly, and not empty (`empty selector is invalid for <kind>`).
pub(crate) fn required_selector(spec: &Value, kind: &str, path: &Path, errs: &mut ErrorList) {
    let selector_path = path.child("selector");
    match member(spec, "selector") {
        None => errs.push(field::required(&selector_path, "")),
        Some(selector) => {
            let strict = LabelSelectorOptions::default();
            meta::validate_label_selector(Some(selector), strict, &selector_path, errs);
            if selector_is_empty(selector) {
                errs.push(field::invalid(
                    &selector_path,
                    BadValue::Json(selector.clone()),
                    &format!("empty selector is invalid for {kind}"),
                ));
            }
        }
    }
}

/// The template labels do not satisfy a non-empty selection: `<template>.metadata.labels` Invalid.
pub(crate) fn check_template_match(
    selection: &Selection,
    template: Option<&Value>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let labels = template_labels(template);
    if !selection.is_empty() && !selection.matches(labels) {
        let metadata = path.child("metadata");
        errs.push(field::invalid(
            &metadata.child("labels"),
            BadValue::Json(labels.cloned().unwrap_or(Value::Null)),
            NO_MATCH,
        ));
    }
}

/// restartPolicy must be `Always` and activeDeadlineSeconds absent (`owner` names the kind
/// in the message). `path` is the template's path.
pub(crate) fn always_restart(
    template: Option<&Value>,
    owner: &str,
    path: &Path,
    errs: &mut ErrorList,
) {
    let spec = template.and_then(|t| t.get("spec")).unwrap_or(&NULL);
    let spec_path = path.child("spec");
    let policy = read::text(spec, "restartPolicy");
    if policy != "Always" {
        errs.push(field::not_supported(
            &spec_path.child("restartPolicy"),
            policy,
            &["Always"],
        ));
    }
    if member(spec, "activeDeadlineSeconds").is_some() {
        errs.push(field::forbidden(
            &spec_path.child("activeDeadlineSeconds"),
            &format!("activeDeadlineSeconds in {owner} is not Supported"),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn atoi_follows_go() {
        assert_eq!(go_atoi("+5").0, 5);
        assert_eq!(go_atoi("-5").0, -5);
        assert_eq!(go_atoi("").1, Err(AtoiError::Syntax));
        assert_eq!(go_atoi("5x").1, Err(AtoiError::Syntax));
        assert_eq!(
            go_atoi("99999999999999999999"),
            (i64::MAX, Err(AtoiError::Range))
        );
    }

    #[test]
    fn int_or_percent_values() {
        assert_eq!(int_or_percent_value(Some(&json!("25%"))), 25);
        assert_eq!(int_or_percent_value(Some(&json!(3))), 3);
        assert_eq!(int_or_percent_value(Some(&json!("7"))), 7);
        assert_eq!(int_or_percent_value(Some(&json!("abc"))), 0);
        assert_eq!(int_or_percent_value(None), 0);
    }

    #[test]
    fn selections() {
        assert!(matches!(selection(None), Selection::Nothing));
        assert!(matches!(selection(Some(&json!({}))), Selection::Everything));
        let broken = json!({"matchExpressions": [{"key": "a", "operator": "In"}]});
        assert!(matches!(selection(Some(&broken)), Selection::Broken));
        let ok = json!({"matchLabels": {"a": "b"}});
        assert!(selection(Some(&ok)).matches(Some(&json!({"a": "b", "c": "d"}))));
        assert!(!Selection::Nothing.matches(Some(&json!({"a": "b"}))));
        assert!(selector_has_invalid_value(Some(
            &json!({"matchExpressions": [{"key": "a", "operator": "In", "values": ["bad value"]}]})
        )));
    }
}
