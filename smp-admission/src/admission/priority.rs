//! Priority (`plugin/pkg/admission/priority`): a Pod's `priority` is its PriorityClass's
//! value (the global default class's when it names none, 0 when there is none), and its
//! `preemptionPolicy` the class's (`PreemptLowerPriority` without one). A class that does not
//! exist, or a priority or policy given that differs from the class's, is refused.

use serde_json::Value;

use super::Cluster;

const RESOURCE: &str = "scheduling.k8s.io/priorityclasses";

pub(super) fn admit_pod(pod: &mut Value, cluster: &dyn Cluster) -> Result<(), String> {
    let Some(spec) = pod.get_mut("spec").and_then(Value::as_object_mut) else {
        return Ok(());
    };
    let class_name = spec
        .get("priorityClassName")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let (name, priority, policy) = if class_name.is_empty() {
        default_priority(cluster)
    } else {
        let Some(class) = cluster.get(RESOURCE, "", &class_name) else {
            return Err(format!("no PriorityClass with name {class_name} was found"));
        };
        let value = class.get("value").and_then(Value::as_i64).unwrap_or(0);
        let policy = class
            .get("preemptionPolicy")
            .and_then(Value::as_str)
            .map(str::to_owned);
        (class_name.clone(), value, policy)
    };
    if !name.is_empty() {
        spec.insert("priorityClassName".into(), name.into());
    }
    if let Some(given) = spec.get("priority").and_then(Value::as_i64)
        && given != priority
    {
        return Err(format!(
            "the integer value of priority ({given}) must not be provided in pod spec; priority admission controller computed {priority} from the given PriorityClass name"
        ));
    }
    spec.insert("priority".into(), priority.into());
    if let Some(policy) = policy {
        if let Some(given) = spec.get("preemptionPolicy").and_then(Value::as_str)
            && given != policy
        {
            return Err(format!(
                "the string value of PreemptionPolicy ({given}) must not be provided in pod spec; priority admission controller computed {policy} from the given PriorityClass name"
            ));
        }
        spec.insert("preemptionPolicy".into(), policy.into());
    }
    Ok(())
}

/// The class marked `globalDefault` (the lowest valued, should a race have made two), or
/// none: priority 0 and `PreemptLowerPriority`.
fn default_priority(cluster: &dyn Cluster) -> (String, i64, Option<String>) {
    let defaults = cluster.list(RESOURCE, "");
    let global = defaults
        .iter()
        .filter(|c| c.get("globalDefault").and_then(Value::as_bool) == Some(true))
        .min_by_key(|c| c.get("value").and_then(Value::as_i64).unwrap_or(0));
    match global {
        Some(class) => (
            class
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            class.get("value").and_then(Value::as_i64).unwrap_or(0),
            Some(
                class
                    .get("preemptionPolicy")
                    .and_then(Value::as_str)
                    .unwrap_or("PreemptLowerPriority")
                    .to_owned(),
            ),
        ),
        None => (String::new(), 0, Some("PreemptLowerPriority".to_owned())),
    }
}
