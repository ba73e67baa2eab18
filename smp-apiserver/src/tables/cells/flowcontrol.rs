//! The flowcontrol.apiserver.k8s.io group's rows: FlowSchemas and priority levels.

use serde_json::{Value, json};

use super::Row;
use super::common::{age, condition, int_if_set, is_set, name};
use crate::tables::duration::Now;
use crate::tables::format::{int, items, text};

/// The share of concurrency a limited priority level gets when none is given.
const DEFAULT_NOMINAL_CONCURRENCY_SHARES: i64 = 30;

/// A FlowSchema: the priority level it sends requests to, its precedence, how it splits
/// requests into flows, and whether its priority level is missing.
pub(super) fn flow_schema(object: &Value, now: Now) -> Row {
    let distinguisher = match object.pointer("/spec/distinguisherMethod") {
        Some(method) if !method.is_null() => text(method, "/type").to_owned(),
        _ => "<none>".to_owned(),
    };
    let dangling = condition(items(object, "/status/conditions"), "Dangling")
        .map_or("?", |c| text(c, "/status"));
    vec![
        name(object),
        json!(text(object, "/spec/priorityLevelConfiguration/name")),
        json!(int(object, "/spec/matchingPrecedence")),
        json!(distinguisher),
        age(object, now),
        json!(dangling),
    ]
    .into()
}

/// A PriorityLevelConfiguration: its type and, for a limited level, its share of
/// concurrency and how it queues.
pub(super) fn priority_level_configuration(object: &Value, now: Now) -> Row {
    let none = || json!("<none>");
    let shares = if is_set(object, "/spec/limited") {
        let shares = int_if_set(object, "/spec/limited/nominalConcurrencyShares");
        json!(shares.unwrap_or(DEFAULT_NOMINAL_CONCURRENCY_SHARES))
    } else {
        none()
    };
    let queuing = object
        .pointer("/spec/limited/limitResponse/queuing")
        .filter(|q| !q.is_null());
    let queue = |member: &str| queuing.map_or_else(none, |q| json!(int(q, member)));
    vec![
        name(object),
        json!(text(object, "/spec/type")),
        shares,
        queue("/queues"),
        queue("/handSize"),
        queue("/queueLengthLimit"),
        age(object, now),
    ]
    .into()
}

#[cfg(test)]
mod tests {
    use super::super::common::tests::now;
    use super::*;

    #[test]
    fn flow_schemas() {
        let fs = json!({"metadata": {"name": "system-leader-election", "creationTimestamp": "2026-11-28T11:00:00Z"},
            "spec": {"priorityLevelConfiguration": {"name": "leader-election"}, "matchingPrecedence": 100,
                "distinguisherMethod": {"type": "ByUser"}},
            "status": {"conditions": [{"type": "Dangling", "status": "False", "reason": "Found"}]}});
        assert_eq!(
            flow_schema(&fs, now()).cells,
            vec![
                json!("system-leader-election"),
                json!("leader-election"),
                json!(100),
                json!("ByUser"),
                json!("60m"),
                json!("False")
            ]
        );
        let bare = json!({"spec": {"priorityLevelConfiguration": {"name": "exempt"}, "matchingPrecedence": 1}});
        assert_eq!(
            flow_schema(&bare, now()).cells[3..],
            [json!("<none>"), json!("<unknown>"), json!("?")]
        );
    }

    #[test]
    fn priority_levels() {
        let limited = json!({"metadata": {"name": "workload-low", "creationTimestamp": "2026-11-28T11:00:00Z"},
            "spec": {"type": "Limited", "limited": {"nominalConcurrencyShares": 100, "lendablePercent": 90,
                "limitResponse": {"type": "Queue", "queuing": {"queues": 128, "handSize": 6, "queueLengthLimit": 50}}}}});
        assert_eq!(
            priority_level_configuration(&limited, now()).cells,
            vec![
                json!("workload-low"),
                json!("Limited"),
                json!(100),
                json!(128),
                json!(6),
                json!(50),
                json!("60m")
            ]
        );
        let rejecting =
            json!({"spec": {"type": "Limited", "limited": {"limitResponse": {"type": "Reject"}}}});
        assert_eq!(
            priority_level_configuration(&rejecting, now()).cells[1..6],
            [
                json!("Limited"),
                json!(30),
                json!("<none>"),
                json!("<none>"),
                json!("<none>")
            ]
        );
        let exempt =
            json!({"metadata": {"name": "exempt"}, "spec": {"type": "Exempt", "exempt": {}}});
        assert_eq!(
            priority_level_configuration(&exempt, now()).cells[1..6],
            [
                json!("Exempt"),
                json!("<none>"),
                json!("<none>"),
                json!("<none>"),
                json!("<none>")
            ]
        );
    }
}
