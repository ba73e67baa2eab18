//! The small pieces printers build cells from: members read leniently (an absent member is
//! empty, as a Go zero value is), labels and selectors written as kubectl shows them, and
//! lists cut short.

use serde_json::Value;

pub(crate) use crate::object::text_at as text;

/// The integer at `pointer` in `object` (`0` when absent or not an integer).
pub(crate) fn int(object: &Value, pointer: &str) -> i64 {
    object.pointer(pointer).and_then(Value::as_i64).unwrap_or(0)
}

/// The boolean at `pointer` in `object` (`false` when absent).
pub(crate) fn flag(object: &Value, pointer: &str) -> bool {
    object
        .pointer(pointer)
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

/// The items of the array at `pointer` (none when absent).
pub(crate) fn items<'v>(object: &'v Value, pointer: &str) -> &'v [Value] {
    object
        .pointer(pointer)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// `text`, or `<none>` when it is empty.
pub(crate) fn or_none(text: impl Into<String>) -> String {
    let text = text.into();
    if text.is_empty() {
        "<none>".to_owned()
    } else {
        text
    }
}

/// A map of labels as `k=v` pairs, sorted and joined by commas (`<none>` when empty).
pub(crate) fn labels(map: Option<&Value>) -> String {
    let mut pairs: Vec<String> = map
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
        .collect();
    pairs.sort_unstable();
    or_none(pairs.join(","))
}

/// A label selector (`matchLabels` and `matchExpressions`) as requirements sorted by key:
/// `app=web,tier in (a,b)`; `<none>` when it selects everything or is absent.
pub(crate) fn label_selector(selector: Option<&Value>) -> String {
    or_none(selector.map(crate::selector::print).unwrap_or_default())
}

/// The `member` of each object in `list`, joined by commas (`""` for one without it).
pub(crate) fn each(list: &[Value], member: &str) -> String {
    list.iter()
        .map(|item| item.get(member).and_then(Value::as_str).unwrap_or(""))
        .collect::<Vec<_>>()
        .join(",")
}

/// At most `keep` of `parts` joined by commas, and how many more there are
/// (`a,b,c + 2 more...`).
pub(crate) fn first_of(parts: &[String], keep: usize) -> String {
    let shown = parts[..parts.len().min(keep)].join(",");
    match parts.len().saturating_sub(keep) {
        0 => shown,
        more => format!("{shown} + {more} more..."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn labels_and_selectors_print_sorted() {
        assert_eq!(labels(Some(&json!({"b": "2", "a": "1"}))), "a=1,b=2");
        assert_eq!(labels(None), "<none>");
        assert_eq!(
            label_selector(Some(&json!({
                "matchLabels": {"app": "web"},
                "matchExpressions": [{"key": "tier", "operator": "In", "values": ["b", "a"]}]
            }))),
            "app=web,tier in (a,b)"
        );
        assert_eq!(label_selector(Some(&json!({}))), "<none>");
    }

    #[test]
    fn long_lists_are_cut_short() {
        let parts: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        assert_eq!(first_of(&parts, 3), "a,b,c + 2 more...");
        assert_eq!(first_of(&parts[..2], 3), "a,b");
    }
}
