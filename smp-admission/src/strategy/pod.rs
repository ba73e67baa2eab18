//! A Pod's create-time status (`podStrategy.PrepareForCreate`) and its quality of service
//! class (`pkg/apis/core/helper/qos`'s `ComputePodQOS`).

use serde_json::{Value, json};

use crate::quantity::Quantity;
use crate::value::{Object, child};

/// The status a new pod starts with, whatever it was sent with: `Pending`, its QoS class,
/// and, when it has scheduling gates, the condition saying they hold it.
pub(super) fn prepare_for_create(pod: &mut Object) {
    let class = qos_class_of(pod);
    let gated = child(pod, "spec")
        .and_then(|s| s.get("schedulingGates"))
        .and_then(Value::as_array)
        .is_some_and(|g| !g.is_empty());
    let mut status = json!({"phase": "Pending", "qosClass": class});
    if gated {
        status["conditions"] = json!([{"type": "PodScheduled", "status": "False",
            "lastProbeTime": null, "lastTransitionTime": null, "reason": "SchedulingGated",
            "message": "Scheduling is blocked due to non-empty scheduling gates"}]);
    }
    pod.insert("status".into(), status);
}

/// The QoS class of a pod (`Guaranteed`, `Burstable` or `BestEffort`), from its cpu and
/// memory: the pod's own resources when it has them (PodLevelResources, on in v1.34),
/// otherwise its containers' and init containers'.
pub fn qos_class(pod: &Value) -> &'static str {
    pod.as_object().map_or("BestEffort", qos_class_of)
}

fn positive(value: &Value) -> Option<Quantity> {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    let quantity = Quantity::parse(&text).ok()?;
    let zero = Quantity::parse("0").ok()?;
    quantity.compare(zero).is_gt().then_some(quantity)
}

/// The cpu and memory of a set of resource lists, summed.
#[derive(Default)]
struct CpuMemory {
    cpu: Option<Quantity>,
    memory: Option<Quantity>,
}

impl CpuMemory {
    /// Adds the positive cpu and memory of `list`; whether it has both.
    fn gather(&mut self, list: Option<&Value>) -> bool {
        let mut found = (false, false);
        for (name, value) in list.and_then(Value::as_object).into_iter().flatten() {
            let (slot, seen) = match name.as_str() {
                "cpu" => (&mut self.cpu, &mut found.0),
                "memory" => (&mut self.memory, &mut found.1),
                _ => continue,
            };
            let Some(quantity) = positive(value) else {
                continue;
            };
            *seen = true;
            *slot = Some(slot.map_or(quantity, |sum| quantity + sum));
        }
        found.0 && found.1
    }

    fn is_empty(&self) -> bool {
        self.cpu.is_none() && self.memory.is_none()
    }
}

/// Whether every request has an equal limit, and nothing else is limited.
fn requests_are_limits(requests: &CpuMemory, limits: &CpuMemory) -> bool {
    let same = |request: Option<Quantity>, limit: Option<Quantity>| match (request, limit) {
        (Some(r), Some(l)) => r.compare(l).is_eq(),
        (None, None) => true,
        _ => false,
    };
    same(requests.cpu, limits.cpu) && same(requests.memory, limits.memory)
}

fn qos_class_of(pod: &Object) -> &'static str {
    let mut requests = CpuMemory::default();
    let mut limits = CpuMemory::default();
    let mut guaranteed = true;
    let spec = pod.get("spec");
    let pod_level = spec
        .and_then(|s| s.get("resources"))
        .filter(|r| r.is_object());
    if let Some(resources) = pod_level {
        requests.gather(resources.get("requests"));
        let limited = resources
            .get("limits")
            .and_then(Value::as_object)
            .is_some_and(|l| !l.is_empty());
        if limited && !limits.gather(resources.get("limits")) {
            guaranteed = false;
        }
    } else {
        for list in ["containers", "initContainers"] {
            let containers = spec
                .and_then(|s| s.get(list))
                .and_then(Value::as_array)
                .into_iter()
                .flatten();
            for container in containers {
                let resources = container.get("resources");
                requests.gather(resources.and_then(|r| r.get("requests")));
                if !limits.gather(resources.and_then(|r| r.get("limits"))) {
                    guaranteed = false;
                }
            }
        }
    }
    if requests.is_empty() && limits.is_empty() {
        return "BestEffort";
    }
    if guaranteed && requests_are_limits(&requests, &limits) {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::qos_class;

    fn pod(containers: serde_json::Value) -> serde_json::Value {
        json!({"apiVersion": "v1", "kind": "Pod", "spec": {"containers": containers}})
    }

    #[test]
    fn quality_of_service_classes() {
        let both = json!({"cpu": "1", "memory": "1Gi"});
        assert_eq!(qos_class(&pod(json!([{"name": "a"}]))), "BestEffort");
        assert_eq!(
            qos_class(&pod(
                json!([{"name": "a", "resources": {"limits": both, "requests": both}}])
            )),
            "Guaranteed"
        );
        assert_eq!(
            qos_class(&pod(
                json!([{"name": "a", "resources": {"requests": {"cpu": "1"}}}])
            )),
            "Burstable"
        );
        // Each container needs both limits.
        assert_eq!(
            qos_class(&pod(json!([
                {"name": "a", "resources": {"limits": both, "requests": both}},
                {"name": "b", "resources": {"limits": {"cpu": "1"}, "requests": {"cpu": "1"}}}]))),
            "Burstable"
        );
        // Zero counts as nothing; other resources do not count.
        assert_eq!(
            qos_class(&pod(
                json!([{"name": "a", "resources": {"requests": {"cpu": "0", "ephemeral-storage": "1Gi"}}}])
            )),
            "BestEffort"
        );
        // Pod-level resources decide when the pod has them.
        let pod_level = json!({"apiVersion": "v1", "kind": "Pod", "spec": {
            "resources": {"limits": both, "requests": both},
            "containers": [{"name": "a", "resources": {"requests": {"cpu": "100m"}}}]}});
        assert_eq!(qos_class(&pod_level), "Guaranteed");
    }
}
