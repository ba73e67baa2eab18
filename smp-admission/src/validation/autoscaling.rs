//! The `autoscaling` group: HorizontalPodAutoscaler of `autoscaling/v2` and `autoscaling/v1`
//! (`ValidateHorizontalPodAutoscaler`, `ValidateHorizontalPodAutoscalerUpdate`, with the
//! options and field dropping of its registry strategy).
//!
//! A v1 object is first brought to the internal (v2) shape, as conversion does, so its errors
//! carry v2 paths: `targetCPUUtilizationPercentage` becomes a cpu Resource metric, and with no
//! metric at all a cpu metric of 80% is added. (v1's metrics and behavior carried in
//! annotations are not decoded here.)

use std::borrow::Cow;

use serde_json::{Value, json};

use super::core::resources::validate_container_resource_name;
use super::field::{self, BadValue, ErrorList, Path};
use super::kind_rules::{KindRules, StatusRules};
use super::meta::{IS_NEGATIVE, validate_object_meta, validate_object_meta_update};
use super::names;
use super::read;
use crate::quantity::{self, Quantity};

/// The autoscaling kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[KindRules {
    group: "autoscaling",
    kind: "HorizontalPodAutoscaler",
    namespaced: true,
    create: hpa,
    update: hpa_update,
}];

const MAX_PERIOD_SECONDS: i64 = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS: i64 = 3600;
/// The CPU utilization v1 conversion assumes when no metric is given.
const DEFAULT_CPU_UTILIZATION: i64 = 80;
const SOURCE_TYPES: [&str; 5] = [
    "ContainerResource",
    "External",
    "Object",
    "Pods",
    "Resource",
];
/// The metric sources in the order upstream looks at them (the first one set is validated).
const SOURCES: [(&str, &str); 5] = [
    ("object", "Object"),
    ("external", "External"),
    ("pods", "Pods"),
    ("resource", "Resource"),
    ("containerResource", "ContainerResource"),
];

/// `CrossVersionObjectReferenceValidationOptions`.
#[derive(Default, Clone, Copy)]
struct RefOptions {
    allow_empty_group: bool,
    allow_invalid_api_version: bool,
}

/// `HorizontalPodAutoscalerSpecValidationOptions`, plus whether the strategy kept the
/// `tolerance` fields (the `HPAConfigurableTolerance` gate is off in v1.34).
#[derive(Clone, Copy)]
struct Options {
    min_replicas_lower_bound: i64,
    target_ref: RefOptions,
    object_ref: RefOptions,
    keep_tolerance: bool,
}

/// The spec in the internal shape: a v2 spec as it is, a v1 spec converted.
fn internal_spec(obj: &Value) -> Cow<'_, Value> {
    let spec = obj.get("spec").unwrap_or(&Value::Null);
    if read::text(obj, "apiVersion") != "autoscaling/v1" {
        return Cow::Borrowed(spec);
    }
    let utilization =
        read::opt_int(spec, "targetCPUUtilizationPercentage").unwrap_or(DEFAULT_CPU_UTILIZATION);
    let mut converted = json!({
        "metrics": [{"type": "Resource", "resource": {"name": "cpu",
            "target": {"type": "Utilization", "averageUtilization": utilization}}}],
    });
    for key in ["scaleTargetRef", "minReplicas", "maxReplicas"] {
        if let Some(v) = spec.get(key) {
            converted[key] = v.clone();
        }
    }
    Cow::Owned(converted)
}

fn hpa(obj: &Value) -> ErrorList {
    let spec = internal_spec(obj);
    let target_kind = read::text(spec.get("scaleTargetRef").unwrap_or(&Value::Null), "kind");
    let options = Options {
        min_replicas_lower_bound: 1,
        target_ref: RefOptions {
            allow_empty_group: target_kind == "ReplicationController",
            allow_invalid_api_version: false,
        },
        object_ref: RefOptions {
            allow_empty_group: true,
            allow_invalid_api_version: false,
        },
        keep_tolerance: false,
    };
    let mut errs = validate_object_meta(
        obj.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    validate_spec(&spec, options, &mut errs);
    errs
}

/// The strategy's options for an update (`validationOptionsForHorizontalPodAutoscaler`),
/// then the metadata update and the spec.
fn hpa_update(new: &Value, old: &Value) -> ErrorList {
    let spec = internal_spec(new);
    let old_spec = internal_spec(old);
    let empty = Value::Null;
    let new_ref = spec.get("scaleTargetRef").unwrap_or(&empty);
    let old_ref = old_spec.get("scaleTargetRef").unwrap_or(&empty);
    let same_target = read::text(new_ref, "apiVersion") == read::text(old_ref, "apiVersion")
        && read::text(new_ref, "kind") == read::text(old_ref, "kind");
    let object_ref = RefOptions {
        allow_empty_group: true,
        allow_invalid_api_version: false,
    };
    let old_object_metrics_invalid = read::list(&old_spec, "metrics").iter().any(|m| {
        read::text(m, "type") == "Object"
            && m.get("object").is_some_and(|o| {
                let described = o.get("describedObject").unwrap_or(&Value::Null);
                api_version_error(read::text(described, "apiVersion"), object_ref).is_some()
            })
    });
    let options = Options {
        min_replicas_lower_bound: if read::opt_int(&old_spec, "minReplicas") == Some(0) {
            0
        } else {
            1
        },
        target_ref: RefOptions {
            allow_invalid_api_version: same_target,
            allow_empty_group: !same_target
                && read::text(new_ref, "kind") == "ReplicationController",
        },
        object_ref: RefOptions {
            allow_invalid_api_version: old_object_metrics_invalid,
            ..object_ref
        },
        keep_tolerance: uses_tolerance(&old_spec),
    };
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    validate_spec(&spec, options, &mut errs);
    errs
}

/// Whether a spec sets a scaling rule's tolerance (`toleranceInUse`).
fn uses_tolerance(spec: &Value) -> bool {
    spec.get("behavior").is_some_and(|b| {
        ["scaleDown", "scaleUp"].iter().any(|k| {
            b.get(k)
                .is_some_and(|rules| read::is_set(rules, "tolerance"))
        })
    })
}

/// `validateHorizontalPodAutoscalerSpec`.
fn validate_spec(spec: &Value, options: Options, errs: &mut ErrorList) {
    let path = Path::new("spec");
    let min = read::opt_int(spec, "minReplicas");
    let max = read::int(spec, "maxReplicas");
    if let Some(min) = min
        && min < options.min_replicas_lower_bound
    {
        errs.push(field::invalid(
            &path.child("minReplicas"),
            min,
            &format!(
                "must be greater than or equal to {}",
                options.min_replicas_lower_bound
            ),
        ));
    }
    let max_path = path.child("maxReplicas");
    if max < 1 {
        errs.push(field::invalid(&max_path, max, "must be greater than 0"));
    }
    if min.is_some_and(|min| max < min) {
        errs.push(field::invalid(
            &max_path,
            max,
            "must be greater than or equal to `minReplicas`",
        ));
    }
    validate_reference(
        spec.get("scaleTargetRef").unwrap_or(&Value::Null),
        &path.child("scaleTargetRef"),
        options.target_ref,
        errs,
    );
    let metrics_path = path.child("metrics");
    let metrics = read::list(spec, "metrics");
    for (i, metric) in metrics.iter().enumerate() {
        validate_metric(metric, &metrics_path.index(i), options.object_ref, errs);
    }
    if min == Some(0)
        && !metrics
            .iter()
            .any(|m| matches!(read::text(m, "type"), "Object" | "External"))
    {
        errs.push(field::forbidden(
            &metrics_path,
            "must specify at least one Object or External metric to support scaling to zero replicas",
        ));
    }
    if let Some(behavior) = spec.get("behavior").filter(|b| !b.is_null()) {
        let behavior_path = path.child("behavior");
        for key in ["scaleUp", "scaleDown"] {
            if let Some(rules) = behavior.get(key).filter(|r| !r.is_null()) {
                validate_scaling_rules(rules, &behavior_path.child(key), options, errs);
            }
        }
    }
}

/// `ParseGroupVersion` and the group requirement of `ValidateAPIVersion`.
fn api_version_error(api_version: &str, options: RefOptions) -> Option<String> {
    if options.allow_invalid_api_version {
        return None;
    }
    let group = if api_version.is_empty() || api_version == "/" {
        ""
    } else {
        match api_version.matches('/').count() {
            0 => "",
            1 => api_version.split_once('/').map_or("", |(g, _)| g),
            _ => return Some(format!("unexpected GroupVersion string: {api_version}")),
        }
    };
    (!options.allow_empty_group && group.is_empty())
        .then(|| "apiVersion must specify API group".to_owned())
}

/// `ValidateCrossVersionObjectReference`.
fn validate_reference(reference: &Value, path: &Path, options: RefOptions, errs: &mut ErrorList) {
    for key in ["kind", "name"] {
        let value = read::text(reference, key);
        if value.is_empty() {
            errs.push(field::required(&path.child(key), ""));
        } else {
            for msg in names::name_is_path_segment(value, false) {
                errs.push(field::invalid(&path.child(key), value, &msg));
            }
        }
    }
    let api_version = read::text(reference, "apiVersion");
    if let Some(msg) = api_version_error(api_version, options) {
        errs.push(field::invalid(&path.child("apiVersion"), api_version, &msg));
    }
}

/// `validateScalingRules` and `validateScalingPolicy`.
fn validate_scaling_rules(rules: &Value, path: &Path, options: Options, errs: &mut ErrorList) {
    if let Some(window) = read::opt_int(rules, "stabilizationWindowSeconds") {
        let at = path.child("stabilizationWindowSeconds");
        if window < 0 {
            errs.push(field::invalid(
                &at,
                window,
                "must be greater than or equal to zero",
            ));
        }
        if window > MAX_STABILIZATION_WINDOW_SECONDS {
            errs.push(field::invalid(
                &at,
                window,
                &format!("must be less than or equal to {MAX_STABILIZATION_WINDOW_SECONDS}"),
            ));
        }
    }
    if let Some(select) = read::opt_text(rules, "selectPolicy")
        && !matches!(select, "Max" | "Min" | "Disabled")
    {
        errs.push(field::not_supported(
            &path.child("selectPolicy"),
            select,
            &["Disabled", "Max", "Min"],
        ));
    }
    let policies_path = path.child("policies");
    let policies = read::list(rules, "policies");
    if policies.is_empty() {
        errs.push(field::required(
            &policies_path,
            "must specify at least one Policy",
        ));
    }
    for (j, policy) in policies.iter().enumerate() {
        let at = policies_path.index(j);
        let kind = read::text(policy, "type");
        if kind != "Pods" && kind != "Percent" {
            errs.push(field::not_supported(
                &at.child("type"),
                kind,
                &["Percent", "Pods"],
            ));
        }
        let value = read::int(policy, "value");
        if value <= 0 {
            errs.push(field::invalid(
                &at.child("value"),
                value,
                "must be greater than zero",
            ));
        }
        let period = read::int(policy, "periodSeconds");
        let period_path = at.child("periodSeconds");
        if period <= 0 {
            errs.push(field::invalid(
                &period_path,
                period,
                "must be greater than zero",
            ));
        }
        if period > MAX_PERIOD_SECONDS {
            errs.push(field::invalid(
                &period_path,
                period,
                &format!("must be less than or equal to {MAX_PERIOD_SECONDS}"),
            ));
        }
    }
    if options.keep_tolerance
        && let Some((text, q)) = read_quantity(rules, "tolerance")
        && sign(q).is_lt()
    {
        errs.push(field::invalid(
            &path.child("tolerance"),
            printed(&text),
            IS_NEGATIVE,
        ));
    }
}

/// How a quantity compares with zero.
fn sign(q: Quantity) -> std::cmp::Ordering {
    Quantity::parse("0").map_or(std::cmp::Ordering::Equal, |zero| q.compare(zero))
}

/// A quantity member (a string, or a bare number as the JSON decoder also takes), with its
/// text; `None` when absent or not a quantity (decoding would have refused it).
fn read_quantity(obj: &Value, key: &str) -> Option<(String, Quantity)> {
    let text = match obj.get(key)? {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    let q = Quantity::parse(&text).ok()?;
    Some((text, q))
}

/// A quantity's bad value: Go marshals the `*Quantity`, a JSON string of its canonical form.
fn printed(text: &str) -> BadValue {
    BadValue::Str(quantity::canonical(text).unwrap_or_else(|| text.to_owned()))
}

/// `validateMetricSpec`.
fn validate_metric(metric: &Value, path: &Path, object_ref: RefOptions, errs: &mut ErrorList) {
    let kind = read::text(metric, "type");
    let type_path = path.child("type");
    if kind.is_empty() {
        errs.push(field::required(
            &type_path,
            "must specify a metric source type",
        ));
    }
    if !SOURCE_TYPES.contains(&kind) {
        errs.push(field::not_supported(&type_path, kind, &SOURCE_TYPES));
    }
    let present: Vec<&str> = SOURCES
        .iter()
        .filter(|(key, _)| read::is_set(metric, key))
        .map(|(key, _)| *key)
        .collect();
    if let Some(first) = present.first() {
        let source = metric.get(*first).unwrap_or(&Value::Null);
        let at = path.child(first);
        match *first {
            "object" => validate_object_source(source, &at, object_ref, errs),
            "external" => validate_external_source(source, &at, errs),
            "pods" => validate_pods_source(source, &at, errs),
            "resource" => validate_resource_source(source, &at, false, errs),
            _ => validate_resource_source(source, &at, true, errs),
        }
    }
    let expected = SOURCES
        .iter()
        .find(|(_, t)| *t == kind)
        .map(|(key, _)| *key);
    match expected {
        Some(key) => {
            if !read::is_set(metric, key) {
                errs.push(field::required(
                    &path.child(key),
                    "must populate information for the given metric source",
                ));
            }
        }
        None => errs.push(field::not_supported(&type_path, kind, &SOURCE_TYPES)),
    }
    if present.len() != 1 {
        // Upstream walks a set here (random order when several); sorted is one of its orders.
        let mut extra: Vec<&str> = present
            .iter()
            .copied()
            .filter(|key| Some(*key) != expected)
            .collect();
        extra.sort_unstable();
        for key in extra {
            errs.push(field::forbidden(
                &path.child(key),
                "must populate the given metric source only",
            ));
        }
    }
}

fn target_of(source: &Value) -> &Value {
    source.get("target").unwrap_or(&Value::Null)
}

fn validate_object_source(
    source: &Value,
    path: &Path,
    object_ref: RefOptions,
    errs: &mut ErrorList,
) {
    validate_reference(
        source.get("describedObject").unwrap_or(&Value::Null),
        &path.child("describedObject"),
        object_ref,
        errs,
    );
    validate_metric_identifier(source, path, errs);
    let target = target_of(source);
    let target_path = path.child("target");
    validate_target(target, &target_path, errs);
    if !read::is_set(target, "value") && !read::is_set(target, "averageValue") {
        errs.push(field::required(
            &target_path.child("averageValue"),
            "must set either a target value or averageValue",
        ));
    }
}

fn validate_external_source(source: &Value, path: &Path, errs: &mut ErrorList) {
    validate_metric_identifier(source, path, errs);
    let target = target_of(source);
    let target_path = path.child("target");
    validate_target(target, &target_path, errs);
    let value = read::is_set(target, "value");
    let average = read::is_set(target, "averageValue");
    if !value && !average {
        errs.push(field::required(
            &target_path.child("averageValue"),
            "must set either a target value for metric or a per-pod target",
        ));
    }
    if value && average {
        errs.push(field::forbidden(
            &target_path.child("value"),
            "may not set both a target value for metric and a per-pod target",
        ));
    }
}

fn validate_pods_source(source: &Value, path: &Path, errs: &mut ErrorList) {
    validate_metric_identifier(source, path, errs);
    let target = target_of(source);
    let target_path = path.child("target");
    validate_target(target, &target_path, errs);
    if !read::is_set(target, "averageValue") {
        errs.push(field::required(
            &target_path.child("averageValue"),
            "must specify a positive target averageValue",
        ));
    }
}

/// `validateResourceSource`, or `validateContainerResourceSource` when `container` (which
/// also checks the resource name and the container).
fn validate_resource_source(source: &Value, path: &Path, container: bool, errs: &mut ErrorList) {
    let name = read::text(source, "name");
    let name_path = path.child("name");
    if name.is_empty() {
        errs.push(field::required(&name_path, "must specify a resource name"));
    } else if container {
        validate_container_resource_name(name, &name_path, errs);
    }
    if container {
        let container_name = read::text(source, "container");
        let container_path = path.child("container");
        if container_name.is_empty() {
            errs.push(field::required(&container_path, "must specify a container"));
        } else {
            for msg in names::is_dns1123_label(container_name) {
                errs.push(field::invalid(&container_path, container_name, &msg));
            }
        }
    }
    let target = target_of(source);
    let target_path = path.child("target");
    validate_target(target, &target_path, errs);
    let utilization = read::is_set(target, "averageUtilization");
    let average = read::is_set(target, "averageValue");
    if !utilization && !average {
        errs.push(field::required(
            &target_path.child("averageUtilization"),
            "must set either a target raw value or a target utilization",
        ));
    }
    if utilization && average {
        errs.push(field::forbidden(
            &target_path.child("averageValue"),
            "may not set both a target raw value and a target utilization",
        ));
    }
}

/// `validateMetricIdentifier` of `<source>.metric`.
fn validate_metric_identifier(source: &Value, path: &Path, errs: &mut ErrorList) {
    let metric = source.get("metric").unwrap_or(&Value::Null);
    let metric_path = path.child("metric");
    let name_path = metric_path.child("name");
    let name = read::text(metric, "name");
    if name.is_empty() {
        errs.push(field::required(&name_path, "must specify a metric name"));
    } else {
        for msg in names::name_is_path_segment(name, false) {
            errs.push(field::invalid(&name_path, name, &msg));
        }
    }
}

/// `validateMetricTarget`.
fn validate_target(target: &Value, path: &Path, errs: &mut ErrorList) {
    let kind = read::text(target, "type");
    let type_path = path.child("type");
    if kind.is_empty() {
        errs.push(field::required(
            &type_path,
            "must specify a metric target type",
        ));
    }
    if !matches!(kind, "Utilization" | "Value" | "AverageValue") {
        errs.push(field::invalid(
            &type_path,
            kind,
            "must be either Utilization, Value, or AverageValue",
        ));
    }
    for key in ["value", "averageValue"] {
        if let Some((text, q)) = read_quantity(target, key)
            && !sign(q).is_gt()
        {
            errs.push(field::invalid(
                &path.child(key),
                printed(&text),
                "must be positive",
            ));
        }
    }
    if let Some(utilization) = read::opt_int(target, "averageUtilization")
        && utilization < 1
    {
        errs.push(field::invalid(
            &path.child("averageUtilization"),
            utilization,
            "must be greater than 0",
        ));
    }
}

/// The status endpoint's rules (`ValidateHorizontalPodAutoscalerStatusUpdate`), for both
/// versions.
pub(crate) static STATUS: &[StatusRules] = &[StatusRules {
    group: "autoscaling",
    kind: "HorizontalPodAutoscaler",
    update: status_update,
}];

/// `ValidateHorizontalPodAutoscalerStatusUpdate`: the metadata, and replica counts not
/// negative.
fn status_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    let status = new.get("status").unwrap_or(&Value::Null);
    for name in ["currentReplicas", "desiredReplicas"] {
        let value = read::int(status, name);
        if value < 0 {
            errs.push(field::invalid(
                &Path::names(&["status", name]),
                value,
                IS_NEGATIVE,
            ));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn v2(spec: Value) -> Value {
        json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
               "metadata": {"name": "h", "namespace": "d", "resourceVersion": "1"}, "spec": spec})
    }

    #[test]
    fn quantities_print_in_canonical_form() {
        let obj = v2(
            json!({"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "w"},
            "maxReplicas": 1,
            "metrics": [{"type": "Pods", "pods": {"metric": {"name": "m"},
                "target": {"type": "AverageValue", "averageValue": "-1000m"}}}]}),
        );
        let errs = hpa(&obj);
        assert_eq!(errs.len(), 1);
        assert_eq!(
            errs[0].to_string(),
            "spec.metrics[0].pods.target.averageValue: Invalid value: \"-1\": must be positive"
        );
    }

    #[test]
    fn api_versions() {
        let strict = RefOptions::default();
        assert!(api_version_error("apps/v1", strict).is_none());
        assert_eq!(
            api_version_error("v1", strict).as_deref(),
            Some("apiVersion must specify API group")
        );
        assert_eq!(
            api_version_error("/", strict).as_deref(),
            Some("apiVersion must specify API group")
        );
        assert_eq!(
            api_version_error(
                "a/b/c",
                RefOptions {
                    allow_empty_group: true,
                    ..strict
                }
            )
            .as_deref(),
            Some("unexpected GroupVersion string: a/b/c")
        );
        assert!(
            api_version_error(
                "a/b/c",
                RefOptions {
                    allow_invalid_api_version: true,
                    ..strict
                }
            )
            .is_none()
        );
    }

    #[test]
    fn container_resource_names() {
        let p = Path::new("n");
        let run = |name: &str| {
            let mut errs = ErrorList::new();
            validate_container_resource_name(name, &p, &mut errs);
            errs.into_iter().map(|e| e.detail).collect::<Vec<_>>()
        };
        assert!(run("cpu").is_empty());
        assert!(run("hugepages-2Mi").is_empty());
        assert!(run("example.com/gpu").is_empty());
        assert!(run("kubernetes.io/foo").is_empty());
        assert_eq!(
            run("requests.example.com/x"),
            vec!["doesn't follow extended resource name standard"]
        );
        assert_eq!(
            run("storage"),
            vec!["must be a standard resource for containers"]
        );
        assert_eq!(run("a b").len(), 2);
    }

    #[test]
    fn v1_converts_the_cpu_target() {
        let obj = json!({"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": "h", "namespace": "d"},
            "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "w"},
                     "maxReplicas": 2, "targetCPUUtilizationPercentage": -3}});
        let errs = hpa(&obj);
        assert_eq!(
            errs[0].to_string(),
            "spec.metrics[0].resource.target.averageUtilization: Invalid value: -3: must be greater than 0"
        );
    }
}
