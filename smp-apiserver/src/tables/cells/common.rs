//! Pieces several groups' rows share: names and ages, time stamps, pod templates' containers,
//! conditions, selectors as the printers check and write them, lists cut after a few items.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::tables::duration::Now;
use crate::tables::format::{each, items, label_selector, text};

/// Go's zero `metav1.Time` (0001-01-01T00:00:00Z) in Unix seconds: a stamp written as that
/// counts as unset, as it does once the server has decoded it.
const ZERO_TIME: i64 = -62_135_596_800;

/// The `metadata.name` cell.
pub(super) fn name(object: &Value) -> Value {
    json!(text(object, "/metadata/name"))
}

/// The `Age` cell: how long ago the object was created.
pub(super) fn age(object: &Value, now: Now) -> Value {
    json!(now.age(object))
}

/// Whether `pointer` names a member that is present and not `null` (a non-nil Go pointer).
pub(super) fn is_set(object: &Value, pointer: &str) -> bool {
    object.pointer(pointer).is_some_and(|v| !v.is_null())
}

/// The value at `pointer`, or `null`: reading through it gives zero values.
pub(super) fn member<'v>(object: &'v Value, pointer: &str) -> &'v Value {
    static NONE: Value = Value::Null;
    object.pointer(pointer).unwrap_or(&NONE)
}

/// The string at `pointer` when present (even empty), as a Go `*string` is.
pub(super) fn text_if_set<'v>(object: &'v Value, pointer: &str) -> Option<&'v str> {
    object.pointer(pointer).and_then(Value::as_str)
}

/// The integer at `pointer` when present, as a Go `*int32` is.
pub(super) fn int_if_set(object: &Value, pointer: &str) -> Option<i64> {
    object.pointer(pointer).and_then(Value::as_i64)
}

/// A time stamp's instant in Unix seconds, when it is set (and reads, as stored ones do).
pub(super) fn instant(stamp: Option<&Value>) -> Option<i64> {
    stamp
        .and_then(Value::as_str)
        .and_then(smp_ssa::managedfields::read_time)
        .filter(|&at| at != ZERO_TIME)
}

/// How long ago the time stamp `stamp` was, when it is set. Fractions of a second (event
/// times carry microseconds) count as Go counts them: the whole seconds elapsed, truncated.
pub(super) fn ago(now: Now, stamp: Option<&Value>) -> Option<String> {
    let at = instant(stamp)?;
    let mut seconds = now.0.saturating_sub(at);
    let fraction = stamp
        .and_then(Value::as_str)
        .and_then(|s| s.get(19..))
        .and_then(|s| s.strip_prefix('.'));
    let past_the_second =
        fraction.is_some_and(|f| f.bytes().take_while(u8::is_ascii_digit).any(|d| d != b'0'));
    if past_the_second && seconds >= 1 {
        seconds -= 1;
    }
    Some(crate::tables::duration::human(seconds))
}

/// `spec.replicas` and the like: the count at `pointer`, 1 when absent (the API's default).
pub(super) fn replicas(object: &Value, pointer: &str) -> i64 {
    match object.pointer(pointer) {
        None | Some(Value::Null) => 1,
        Some(value) => value.as_i64().unwrap_or(0),
    }
}

/// The pod spec of the pod template at `template`.
pub(super) fn pod_spec<'v>(object: &'v Value, template: &str) -> &'v Value {
    member(object, &format!("{template}/spec"))
}

/// The Containers and Images cells of a pod spec: its containers' names and images.
pub(super) fn containers(pod_spec: &Value) -> [Value; 2] {
    let containers = items(pod_spec, "/containers");
    [
        json!(each(containers, "name")),
        json!(each(containers, "image")),
    ]
}

/// The row of a ReplicaSet or a ReplicationController: desired, current and ready replicas,
/// what it runs, and its `selector` cell (each writes its selector its own way).
pub(super) fn replicated(object: &Value, now: Now, selector: Value) -> super::Row {
    let [names, images] = containers(pod_spec(object, "/spec/template"));
    vec![
        name(object),
        json!(replicas(object, "/spec/replicas")),
        json!(crate::tables::format::int(object, "/status/replicas")),
        json!(crate::tables::format::int(object, "/status/readyReplicas")),
        age(object, now),
        names,
        images,
        selector,
    ]
    .into()
}

/// The first entry of `conditions` of type `kind`.
pub(super) fn condition<'v>(conditions: &'v [Value], kind: &str) -> Option<&'v Value> {
    conditions.iter().find(|c| text(c, "/type") == kind)
}

/// Whether the first condition of type `kind` has status `True`.
pub(super) fn is_true(conditions: &[Value], kind: &str) -> bool {
    condition(conditions, kind).is_some_and(|c| text(c, "/status") == "True")
}

/// A load balancer's ingress points (ip, else hostname), sorted without repeats.
pub(super) fn ingress_points(object: &Value, pointer: &str) -> Vec<String> {
    let points: BTreeSet<&str> = items(object, pointer)
        .iter()
        .map(|point| match text(point, "/ip") {
            "" => text(point, "/hostname"),
            ip => ip,
        })
        .filter(|point| !point.is_empty())
        .collect();
    points.into_iter().map(str::to_owned).collect()
}

/// `shown` joined by commas, then how many of `total` items were left out
/// (`a,b,c + 2 more...`).
pub(super) fn with_more(shown: &[String], total: usize) -> String {
    let joined = shown.join(",");
    match total.saturating_sub(shown.len()) {
        0 => joined,
        more => format!("{joined} + {more} more..."),
    }
}

/// Persistent volume access modes abbreviated, in their fixed order, each once.
pub(super) fn access_modes(modes: &[Value]) -> String {
    let present: BTreeSet<&str> = modes.iter().filter_map(Value::as_str).collect();
    [
        ("ReadWriteOnce", "RWO"),
        ("ReadOnlyMany", "ROX"),
        ("ReadWriteMany", "RWX"),
        ("ReadWriteOncePod", "RWOP"),
    ]
    .iter()
    .filter(|(mode, _)| present.contains(mode))
    .map(|(_, short)| *short)
    .collect::<Vec<_>>()
    .join(",")
}

/// An int-or-string member (`2`, `"50%"`), when set.
pub(super) fn int_or_string(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::Number(n) => Some(n.as_i64().unwrap_or(0).to_string()),
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// The annotation `key`, when present.
pub(super) fn annotation<'v>(object: &'v Value, key: &str) -> Option<&'v str> {
    object
        .pointer("/metadata/annotations")
        .and_then(|a| a.get(key))
        .and_then(Value::as_str)
}

/// A label selector (`matchLabels`, `matchExpressions`) as requirements sorted by key,
/// `""` when it selects everything or is absent; `None` when it does not make a selector
/// (a bad key, value or operator, or values where none belong).
pub(super) fn selector(selector: Option<&Value>) -> Option<String> {
    selector_members(selector).map(|only| crate::selector::print(&only))
}

/// FormatLabelSelector: the selector, `<none>` when empty, `<error>` when it is not one.
pub(super) fn selector_cell(selector: Option<&Value>) -> Value {
    json!(
        selector_members(selector)
            .map_or_else(|| "<error>".to_owned(), |only| label_selector(Some(&only)))
    )
}

/// The selector's own two members, once checked: the shared printer would read any other
/// map as plain labels.
fn selector_members(selector: Option<&Value>) -> Option<Value> {
    let mut only = serde_json::Map::new();
    let Some(selector) = selector.filter(|s| !s.is_null()) else {
        return Some(Value::Object(only));
    };
    for (key, value) in selector
        .get("matchLabels")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        if !is_label_key(key) || !value.as_str().is_some_and(is_label_value) {
            return None;
        }
    }
    if !items(selector, "/matchExpressions")
        .iter()
        .all(is_requirement)
    {
        return None;
    }
    for member in ["matchLabels", "matchExpressions"] {
        if let Some(value) = selector.get(member) {
            only.insert(member.to_owned(), value.clone());
        }
    }
    Some(Value::Object(only))
}

/// Whether a match expression makes a requirement: a valid key, a known operator, and
/// values exactly when the operator takes them.
fn is_requirement(expression: &Value) -> bool {
    let values = items(expression, "/values");
    let valid_values = values
        .iter()
        .all(|v| v.as_str().is_some_and(is_label_value));
    is_label_key(text(expression, "/key"))
        && valid_values
        && match text(expression, "/operator") {
            "In" | "NotIn" => !values.is_empty(),
            "Exists" | "DoesNotExist" => values.is_empty(),
            _ => false,
        }
}

/// A label key: an optional DNS-subdomain prefix and `/`, then a name.
fn is_label_key(key: &str) -> bool {
    match key.split_once('/') {
        Some((prefix, name)) => is_dns_subdomain(prefix) && is_label_name(name),
        None => is_label_name(key),
    }
}

/// A label value: empty, or a name.
fn is_label_value(value: &str) -> bool {
    value.is_empty() || is_label_name(value)
}

/// Up to 63 alphanumerics, `-`, `_`, `.`, beginning and ending alphanumeric.
fn is_label_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 63
        && bytes[0].is_ascii_alphanumeric()
        && bytes[bytes.len() - 1].is_ascii_alphanumeric()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// Up to 253 characters of dot-separated lowercase labels.
fn is_dns_subdomain(name: &str) -> bool {
    name.len() <= 253
        && name.split('.').all(|label| {
            let bytes = label.as_bytes();
            !bytes.is_empty()
                && bytes[0].is_ascii_alphanumeric()
                && bytes[bytes.len() - 1].is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
        })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The clock every test reads: 2026-11-28T12:00:00Z.
    pub(crate) fn now() -> Now {
        Now(smp_ssa::managedfields::read_time("2026-11-28T12:00:00Z").unwrap())
    }

    #[test]
    fn selectors_are_checked_before_they_are_printed() {
        let s = json!({"matchLabels": {"app": "web"},
            "matchExpressions": [{"key": "tier", "operator": "NotIn", "values": ["b", "a"]}]});
        assert_eq!(
            selector(Some(&s)).as_deref(),
            Some("app=web,tier notin (a,b)")
        );
        assert_eq!(selector(None).as_deref(), Some(""));
        assert_eq!(selector(Some(&json!({}))).as_deref(), Some(""));
        let bad_operator =
            json!({"matchExpressions": [{"key": "a", "operator": "Gt", "values": ["1"]}]});
        assert_eq!(selector_cell(Some(&bad_operator)), json!("<error>"));
        let no_values = json!({"matchExpressions": [{"key": "a", "operator": "In"}]});
        assert_eq!(selector(Some(&no_values)), None);
        let bad_key = json!({"matchLabels": {"-a": "b"}});
        assert_eq!(selector(Some(&bad_key)), None);
        let prefixed = json!({"matchLabels": {"app.kubernetes.io/name": "x"}});
        assert_eq!(
            selector_cell(Some(&prefixed)),
            json!("app.kubernetes.io/name=x")
        );
        assert_eq!(selector_cell(Some(&json!({}))), json!("<none>"));
    }

    #[test]
    fn access_modes_keep_their_order() {
        let modes = json!(["ReadWriteMany", "ReadWriteOnce", "ReadWriteOnce", "Bogus"]);
        assert_eq!(access_modes(modes.as_array().unwrap()), "RWO,RWX");
    }

    #[test]
    fn zero_time_stamps_are_unset() {
        assert_eq!(instant(Some(&json!("0001-01-01T00:00:00Z"))), None);
        assert_eq!(instant(Some(&json!(null))), None);
        assert!(instant(Some(&json!("2026-11-28T11:00:00Z"))).is_some());
        let ago_of = |stamp: &str| ago(now(), Some(&json!(stamp)));
        assert_eq!(ago_of("2026-11-28T11:58:00.000000Z").as_deref(), Some("2m"));
        assert_eq!(
            ago_of("2026-11-28T11:58:00.250000Z").as_deref(),
            Some("119s")
        );
        assert_eq!(ago_of("2026-11-28T12:00:00.500000Z").as_deref(), Some("0s"));
        assert_eq!(ago(now(), None), None);
    }
}
