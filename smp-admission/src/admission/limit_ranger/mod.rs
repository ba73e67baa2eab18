//! LimitRanger's defaults (`plugin/pkg/admission/limitranger`): each container and init
//! container of a new Pod takes, for every resource it does not set, the `default` limit and
//! `defaultRequest` of the namespace's LimitRanges of type `Container`, and the pod is
//! annotated with what was set (`kubernetes.io/limit-ranger`). Its checks of the ranges'
//! `min`, `max` and `maxLimitRequestRatio` run with the validating plugins ([`limits`]).

pub(super) mod limits;

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::Cluster;

const ANNOTATION: &str = "kubernetes.io/limit-ranger";

pub(super) fn admit_pod(pod: &mut Value, namespace: &str, cluster: &dyn Cluster) {
    for range in cluster.list("/limitranges", namespace) {
        let (requests, limits) = container_defaults(&range);
        let mut notes = Vec::new();
        for (list, prefix) in [
            ("containers", "container"),
            ("initContainers", "init container"),
        ] {
            let Some(containers) = pod
                .pointer_mut(&format!("/spec/{list}"))
                .and_then(Value::as_array_mut)
            else {
                continue;
            };
            for container in containers.iter_mut().filter_map(Value::as_object_mut) {
                merge(container, &requests, &limits, prefix, &mut notes);
            }
        }
        if notes.is_empty() {
            continue;
        }
        let Some(meta) = pod.get_mut("metadata").and_then(Value::as_object_mut) else {
            continue;
        };
        let annotations = meta
            .entry("annotations")
            .or_insert_with(|| Value::Object(Map::new()));
        if !annotations.is_object() {
            *annotations = Value::Object(Map::new());
        }
        if let Some(annotations) = annotations.as_object_mut() {
            let text = format!("LimitRanger plugin set: {}", notes.join("; "));
            annotations.insert(ANNOTATION.into(), text.into());
        }
    }
}

type Resources = BTreeMap<String, Value>;

/// The requests and limits a LimitRange's `Container` items give by default (later items
/// overriding earlier ones).
fn container_defaults(range: &Value) -> (Resources, Resources) {
    let (mut requests, mut limits) = (Resources::new(), Resources::new());
    let items = range
        .pointer("/spec/limits")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|l| l.get("type").and_then(Value::as_str) == Some("Container"));
    for item in items {
        for (member, into) in [("defaultRequest", &mut requests), ("default", &mut limits)] {
            if let Some(values) = item.get(member).and_then(Value::as_object) {
                for (k, v) in values {
                    into.insert(k.clone(), v.clone());
                }
            }
        }
    }
    (requests, limits)
}

fn merge(
    container: &mut Map<String, Value>,
    requests: &Resources,
    limits: &Resources,
    prefix: &str,
    notes: &mut Vec<String>,
) {
    let name = container
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let resources = container
        .entry("resources")
        .or_insert_with(|| Value::Object(Map::new()));
    if !resources.is_object() {
        *resources = Value::Object(Map::new());
    }
    let Some(resources) = resources.as_object_mut() else {
        return;
    };
    let set_limits = fill(resources, "limits", limits);
    let set_requests = fill(resources, "requests", requests);
    // Keys of a Go map come out sorted here, as the plugin sorts them.
    if !set_requests.is_empty() {
        notes.push(format!(
            "{} request for {prefix} {name}",
            set_requests.join(", ")
        ));
    }
    if !set_limits.is_empty() {
        notes.push(format!(
            "{} limit for {prefix} {name}",
            set_limits.join(", ")
        ));
    }
}

/// Sets each of `defaults` the list `member` lacks; the names set, sorted.
fn fill(resources: &mut Map<String, Value>, member: &str, defaults: &Resources) -> Vec<String> {
    if defaults.is_empty() {
        return Vec::new();
    }
    let list = resources
        .entry(member)
        .or_insert_with(|| Value::Object(Map::new()));
    if !list.is_object() {
        *list = Value::Object(Map::new());
    }
    let Some(list) = list.as_object_mut() else {
        return Vec::new();
    };
    let mut set = Vec::new();
    for (k, v) in defaults {
        if !list.contains_key(k) {
            list.insert(k.clone(), v.clone());
            set.push(k.clone());
        }
    }
    set
}
