//! autoscaling's defaults (`pkg/apis/autoscaling/v1` and `v2`).

use serde_json::{Value, json};

use crate::value::{Object, child, child_or_new, default_nil, is_empty_collection};

/// An autoscaling/v1 HorizontalPodAutoscaler: at least one replica; with no target, 80% CPU
/// (which the conversion to the internal form adds when there are no metrics at all).
pub(super) fn horizontal_pod_autoscaler_v1(hpa: &mut Object) {
    let annotated = child(hpa, "metadata")
        .and_then(|m| child(m, "annotations"))
        .is_some_and(|a| a.contains_key("autoscaling.alpha.kubernetes.io/metrics"));
    let Some(spec) = child_or_new(hpa, "spec") else {
        return;
    };
    default_nil(spec, "minReplicas", json!(1));
    if !annotated {
        default_nil(spec, "targetCPUUtilizationPercentage", json!(80));
    }
}

/// An autoscaling/v2 HorizontalPodAutoscaler: at least one replica, 80% CPU when it has no
/// metrics, and, when it has a behavior, each direction's defaults under what it says.
pub(super) fn horizontal_pod_autoscaler_v2(hpa: &mut Object) {
    // The conversion to the internal form drops the annotations that carry v2's fields in
    // v1 objects; an autoscaler written through v2 never keeps them.
    if let Some(metadata) = child(hpa, "metadata") {
        if let Some(annotations) = child(metadata, "annotations") {
            for key in [
                "metrics",
                "behavior",
                "scale-down-tolerance",
                "scale-up-tolerance",
                "current-metrics",
                "conditions",
            ] {
                annotations.remove(&format!("autoscaling.alpha.kubernetes.io/{key}"));
            }
        }
        if is_empty_collection(metadata, "annotations") {
            metadata.remove("annotations");
        }
    }
    let Some(spec) = child_or_new(hpa, "spec") else {
        return;
    };
    default_nil(spec, "minReplicas", json!(1));
    if is_empty_collection(spec, "metrics") {
        spec.insert(
            "metrics".into(),
            json!([{"type": "Resource", "resource": {"name": "cpu",
                "target": {"type": "Utilization", "averageUtilization": 80}}}]),
        );
    }
    let Some(behavior) = child(spec, "behavior") else {
        return;
    };
    let up = json!({"stabilizationWindowSeconds": 0, "selectPolicy": "Max", "policies": [
        {"type": "Pods", "value": 4, "periodSeconds": 15},
        {"type": "Percent", "value": 100, "periodSeconds": 15}]});
    // Scaling down keeps no stabilization window: the controller's flag gives it.
    let down = json!({"selectPolicy": "Max", "policies": [
        {"type": "Percent", "value": 100, "periodSeconds": 15}]});
    for (direction, default) in [("scaleUp", up), ("scaleDown", down)] {
        let Value::Object(mut merged) = default else {
            continue;
        };
        if let Some(given) = child(behavior, direction) {
            for (key, value) in given.iter() {
                if !value.is_null() {
                    merged.insert(key.clone(), value.clone());
                }
            }
        }
        behavior.insert(direction.into(), Value::Object(merged));
    }
}
