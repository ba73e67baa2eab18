//! The autoscaling group's rows: HorizontalPodAutoscalers, and the Scale subresource of the
//! built-in workloads.

use std::borrow::Cow;

use serde_json::{Value, json};

use super::Row;
use super::common::{age, int_if_set, name};
use super::quantity;
use crate::tables::duration::Now;
use crate::tables::format::{int, items, text};

/// The CPU utilization the API aims for when an autoscaler names no metric.
const DEFAULT_CPU_UTILIZATION: i64 = 80;

/// A HorizontalPodAutoscaler: what it scales, each metric against its target, its bounds
/// and how many replicas there are now.
pub(super) fn horizontal_pod_autoscaler(object: &Value, now: Now) -> Row {
    let (specs, statuses) = metrics(object);
    let min = int_if_set(object, "/spec/minReplicas").unwrap_or(1);
    let reference = format!(
        "{}/{}",
        text(object, "/spec/scaleTargetRef/kind"),
        text(object, "/spec/scaleTargetRef/name")
    );
    vec![
        name(object),
        json!(reference),
        json!(targets(&specs, &statuses)),
        json!(min.to_string()),
        json!(int(object, "/spec/maxReplicas")),
        json!(int(object, "/status/currentReplicas")),
        age(object, now),
    ]
    .into()
}

/// The autoscaler's metrics and their current values in autoscaling/v2's shape; an
/// autoscaling/v1 object's CPU target and utilization become a cpu Resource metric.
fn metrics(object: &Value) -> (Cow<'_, [Value]>, Cow<'_, [Value]>) {
    let v1 = text(object, "/apiVersion") == "autoscaling/v1"
        || object
            .pointer("/spec/targetCPUUtilizationPercentage")
            .is_some()
        || object
            .pointer("/status/currentCPUUtilizationPercentage")
            .is_some();
    if !v1 {
        let specs = items(object, "/spec/metrics");
        if !specs.is_empty() {
            return (
                Cow::Borrowed(specs),
                Cow::Borrowed(items(object, "/status/currentMetrics")),
            );
        }
    }
    let target = int_if_set(object, "/spec/targetCPUUtilizationPercentage")
        .unwrap_or(DEFAULT_CPU_UTILIZATION);
    let spec = json!({"type": "Resource",
        "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": target}}});
    let status = match int_if_set(object, "/status/currentCPUUtilizationPercentage") {
        Some(current) => vec![json!({"type": "Resource",
            "resource": {"name": "cpu", "current": {"averageUtilization": current}}})],
        None if v1 => Vec::new(),
        None => items(object, "/status/currentMetrics").to_vec(),
    };
    (Cow::Owned(vec![spec]), Cow::Owned(status))
}

/// Each metric's current value against its target, the first two of them.
fn targets(specs: &[Value], statuses: &[Value]) -> String {
    if specs.is_empty() {
        return "<none>".to_owned();
    }
    let shown: Vec<String> = specs
        .iter()
        .take(2)
        .enumerate()
        .map(|(i, spec)| target(spec, statuses.get(i)))
        .collect();
    let joined = shown.join(", ");
    match specs.len().saturating_sub(2) {
        0 => joined,
        more => format!("{joined} + {more} more..."),
    }
}

/// One metric against its target; the status at the same index gives its current value.
fn target(spec: &Value, status: Option<&Value>) -> String {
    // The status's member for this source, when the status has one.
    let current_of = |source: &str| status.and_then(|s| s.get(source)).filter(|c| !c.is_null());
    match text(spec, "/type") {
        kind @ ("Resource" | "ContainerResource") => {
            let source = if kind == "Resource" {
                "resource"
            } else {
                "containerResource"
            };
            let target = spec.get(source).and_then(|s| s.get("target"));
            let name = text(spec, &format!("/{source}/name"));
            let current = current_of(source);
            if let Some(average) = target
                .and_then(|t| t.get("averageValue"))
                .filter(|v| !v.is_null())
            {
                let current =
                    current.map_or_else(unknown, |c| value_at(c, "/current/averageValue"));
                return format!("{name}: {current}/{}", quantity::canonical(average));
            }
            let current = current
                .and_then(|c| int_if_set(c, "/current/averageUtilization"))
                .map_or_else(unknown, |u| format!("{u}%"));
            let goal = target
                .and_then(|t| int_if_set(t, "/averageUtilization"))
                .map_or_else(|| "<auto>".to_owned(), |u| format!("{u}%"));
            format!("{name}: {current}/{goal}")
        }
        "Pods" => {
            let current =
                current_of("pods").map_or_else(unknown, |c| value_at(c, "/current/averageValue"));
            format!("{current}/{}", value_at(spec, "/pods/target/averageValue"))
        }
        kind @ ("Object" | "External") => {
            let source = if kind == "Object" {
                "object"
            } else {
                "external"
            };
            let current = current_of(source);
            let target = format!("/{source}/target");
            if spec
                .pointer(&format!("{target}/averageValue"))
                .is_some_and(|v| !v.is_null())
            {
                let current =
                    current.map_or_else(unknown, |c| value_at(c, "/current/averageValue"));
                return format!(
                    "{current}/{} (avg)",
                    value_at(spec, &format!("{target}/averageValue"))
                );
            }
            let current = current.map_or_else(unknown, |c| value_at(c, "/current/value"));
            format!("{current}/{}", value_at(spec, &format!("{target}/value")))
        }
        _ => "<unknown type>".to_owned(),
    }
}

fn unknown() -> String {
    "<unknown>".to_owned()
}

/// The quantity at `pointer`, canonical; `<nil>` when it is missing (a nil pointer printed).
fn value_at(object: &Value, pointer: &str) -> String {
    object
        .pointer(pointer)
        .filter(|v| !v.is_null())
        .map_or_else(|| "<nil>".to_owned(), quantity::canonical)
}

/// A workload's Scale: desired and current replicas.
pub(super) fn scale(object: &Value, now: Now) -> Row {
    vec![
        name(object),
        json!(int(object, "/spec/replicas")),
        json!(int(object, "/status/replicas")),
        age(object, now),
    ]
    .into()
}

#[cfg(test)]
mod tests {
    use super::super::common::tests::now;
    use super::*;

    fn hpa(api_version: &str, spec: Value, status: Value) -> Value {
        let mut spec = spec;
        spec["scaleTargetRef"] =
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"});
        spec["maxReplicas"] = json!(10);
        json!({"apiVersion": api_version, "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": "web", "creationTimestamp": "2026-11-28T09:00:00Z"}, "spec": spec, "status": status})
    }

    #[test]
    fn autoscaling_v1_objects() {
        let measured = hpa(
            "autoscaling/v1",
            json!({"minReplicas": 2, "targetCPUUtilizationPercentage": 60}),
            json!({"currentReplicas": 3, "desiredReplicas": 3, "currentCPUUtilizationPercentage": 45}),
        );
        assert_eq!(
            horizontal_pod_autoscaler(&measured, now()).cells,
            vec![
                json!("web"),
                json!("Deployment/web"),
                json!("cpu: 45%/60%"),
                json!("2"),
                json!(10),
                json!(3),
                json!("3h")
            ]
        );
        let fresh = hpa("autoscaling/v1", json!({}), json!({"currentReplicas": 0}));
        assert_eq!(
            horizontal_pod_autoscaler(&fresh, now()).cells[2..6],
            [json!("cpu: <unknown>/80%"), json!("1"), json!(10), json!(0)]
        );
    }

    #[test]
    fn autoscaling_v2_objects() {
        let spec = json!({"minReplicas": 1, "metrics": [
            {"type": "Resource", "resource": {"name": "memory", "target": {"type": "AverageValue", "averageValue": "1.5Gi"}}},
            {"type": "Pods", "pods": {"metric": {"name": "rps"}, "target": {"type": "AverageValue", "averageValue": "100"}}},
            {"type": "External", "external": {"metric": {"name": "queue"}, "target": {"type": "Value", "value": "30"}}}]});
        let status = json!({"currentReplicas": 4, "currentMetrics": [
            {"type": "Resource", "resource": {"name": "memory", "current": {"averageValue": "700Mi"}}},
            {"type": "Pods", "pods": {"metric": {"name": "rps"}, "current": {"averageValue": "85500m"}}}]});
        assert_eq!(
            horizontal_pod_autoscaler(&hpa("autoscaling/v2", spec, status), now()).cells,
            vec![
                json!("web"),
                json!("Deployment/web"),
                json!("memory: 700Mi/1536Mi, 85500m/100 + 1 more..."),
                json!("1"),
                json!(10),
                json!(4),
                json!("3h")
            ]
        );
    }

    #[test]
    fn each_kind_of_metric() {
        let one = |spec: Value, status: Value| target(&spec, Some(&status));
        let cpu = json!({"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization"}}});
        assert_eq!(one(cpu.clone(), json!({})), "cpu: <unknown>/<auto>");
        let cpu_now = json!({"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": 12}}});
        assert_eq!(one(cpu, cpu_now), "cpu: 12%/<auto>");
        let container = json!({"type": "ContainerResource", "containerResource": {"name": "cpu", "container": "app",
            "target": {"type": "Utilization", "averageUtilization": 70}}});
        let container_now = json!({"type": "ContainerResource", "containerResource": {"name": "cpu",
            "container": "app", "current": {"averageUtilization": 91}}});
        assert_eq!(one(container, container_now), "cpu: 91%/70%");
        let object_avg = json!({"type": "Object", "object": {"target": {"type": "AverageValue", "averageValue": "2k"}}});
        let object_now = json!({"type": "Object", "object": {"current": {"averageValue": "1500"}}});
        assert_eq!(one(object_avg, object_now), "1500/2k (avg)");
        let object_value =
            json!({"type": "Object", "object": {"target": {"type": "Value", "value": "10"}}});
        assert_eq!(
            one(
                object_value,
                json!({"type": "Object", "object": {"current": {}}})
            ),
            "<nil>/10"
        );
        let external = json!({"type": "External", "external": {"target": {"type": "Value"}}});
        assert_eq!(target(&external, None), "<unknown>/<nil>");
        let memory = json!({"type": "Resource", "resource": {"name": "memory", "target": {"averageValue": "1Gi"}}});
        assert_eq!(
            one(memory, json!({"type": "Pods"})),
            "memory: <unknown>/1Gi"
        );
        assert_eq!(one(json!({"type": "Mystery"}), json!({})), "<unknown type>");
        assert_eq!(targets(&[], &[]), "<none>");
    }

    #[test]
    fn scales() {
        let s = json!({"apiVersion": "autoscaling/v1", "kind": "Scale",
            "metadata": {"name": "web", "namespace": "default", "creationTimestamp": "2026-11-28T11:59:00Z"},
            "spec": {"replicas": 3}, "status": {"replicas": 2, "selector": "app=web"}});
        assert_eq!(
            scale(&s, now()).cells,
            vec![json!("web"), json!(3), json!(2), json!("60s")]
        );
    }
}
