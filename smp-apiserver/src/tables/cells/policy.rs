//! The policy group's rows: PodDisruptionBudgets.

use serde_json::{Value, json};

use super::Row;
use super::common::{age, int_or_string, name};
use crate::tables::duration::Now;
use crate::tables::format::int;

/// A PodDisruptionBudget: the bound it sets and how many pods may go now.
pub(super) fn pod_disruption_budget(object: &Value, now: Now) -> Row {
    let bound = |member: &str| {
        json!(int_or_string(object.pointer(member)).unwrap_or_else(|| "N/A".to_owned()))
    };
    vec![
        name(object),
        bound("/spec/minAvailable"),
        bound("/spec/maxUnavailable"),
        json!(int(object, "/status/disruptionsAllowed")),
        age(object, now),
    ]
    .into()
}

#[cfg(test)]
mod tests {
    use super::super::common::tests::now;
    use super::*;

    #[test]
    fn pod_disruption_budgets() {
        let pdb = json!({"metadata": {"name": "web", "creationTimestamp": "2026-11-28T11:00:00Z"},
            "spec": {"minAvailable": 2, "selector": {"matchLabels": {"app": "web"}}},
            "status": {"disruptionsAllowed": 1, "currentHealthy": 3, "desiredHealthy": 2}});
        assert_eq!(
            pod_disruption_budget(&pdb, now()).cells,
            vec![
                json!("web"),
                json!("2"),
                json!("N/A"),
                json!(1),
                json!("60m")
            ]
        );
        let percent = json!({"spec": {"maxUnavailable": "25%"}});
        assert_eq!(
            pod_disruption_budget(&percent, now()).cells[1..4],
            [json!("N/A"), json!("25%"), json!(0)]
        );
    }
}
