//! Unit tests of the container half, through the three entry points as pod-spec calls them,
//! checking whole messages (value included) as the server prints them.

use serde_json::{Value, json};

use super::container_refs::validate_images_have_no_padding;
use super::containers::{
    validate_containers, validate_ephemeral_containers, validate_init_containers,
};
use super::{PodOptions, Volumes};
use crate::validation::field::{ErrorList, Path};

fn ctr(extra: Value) -> Value {
    let mut c = json!({"name": "ctr", "image": "image", "imagePullPolicy": "IfNotPresent",
        "terminationMessagePolicy": "File"});
    if let (Some(c), Some(extra)) = (c.as_object_mut(), extra.as_object()) {
        c.extend(extra.clone());
    }
    c
}

/// A small `pod(&Value)`: the three lists and the pod-only image check, as a Pod's create
/// runs them.
fn pod(spec: &Value) -> Vec<String> {
    let options = PodOptions {
        resource_is_pod: true,
        ..PodOptions::default()
    };
    let volume_list = spec["volumes"].as_array().cloned().unwrap_or_default();
    let volumes: Volumes = volume_list
        .iter()
        .filter_map(|v| v["name"].as_str().map(|n| (n, v)))
        .collect();
    let path = Path::new("spec");
    let mut errs = ErrorList::new();
    errs.extend(validate_containers(spec, &volumes, &path, &options));
    errs.extend(validate_init_containers(spec, &volumes, &path, &options));
    errs.extend(validate_ephemeral_containers(
        spec, &volumes, &path, &options,
    ));
    validate_images_have_no_padding(spec, &path, &mut errs);
    errs.iter().map(ToString::to_string).collect()
}

fn spec(containers: Vec<Value>) -> Value {
    json!({"containers": containers, "restartPolicy": "Always", "dnsPolicy": "ClusterFirst",
        "terminationGracePeriodSeconds": 30})
}

#[test]
fn a_valid_container_has_no_errors() {
    assert!(pod(&spec(vec![ctr(json!({}))])).is_empty());
}

#[test]
fn ports_print_numbers_bare_and_keys_quoted() {
    let s = spec(vec![ctr(json!({"ports": [
        {"containerPort": 65536, "protocol": "TCP"},
        {"containerPort": 80, "hostPort": 80, "protocol": "TCP"},
        {"containerPort": 81, "hostPort": 80, "protocol": "TCP"}]}))]);
    assert_eq!(
        pod(&s),
        [
            "spec.containers[0].ports[0].containerPort: Invalid value: 65536: must be between 1 and 65535, inclusive",
            "spec.containers[0].ports[2].hostPort: Duplicate value: \"TCP//80\"",
        ]
    );
}

#[test]
fn resources_print_quantities_as_stored() {
    let s = spec(vec![ctr(json!({"resources": {
        "requests": {"cpu": "6000m", "example.com/a": "500m"},
        "limits": {"cpu": 5, "example.com/a": "500m"}}}))]);
    assert_eq!(
        pod(&s),
        [
            "spec.containers[0].resources.limits[example.com/a]: Invalid value: \"500m\": must be an integer",
            "spec.containers[0].resources.requests: Invalid value: \"6\": must be less than or equal to cpu limit of 5",
            "spec.containers[0].resources.requests[example.com/a]: Invalid value: \"500m\": must be an integer",
        ]
    );
}

#[test]
fn sleep_uses_the_pod_grace_period_and_negative_grace_is_one_for_pods() {
    let mut s = spec(vec![ctr(
        json!({"lifecycle": {"preStop": {"sleep": {"seconds": 2}}}}),
    )]);
    s["terminationGracePeriodSeconds"] = json!(-5);
    assert_eq!(
        pod(&s),
        [
            "spec.containers[0].lifecycle.preStop.sleep: Invalid value: 2: must be non-negative and less than terminationGracePeriodSeconds (1)"
        ]
    );
}

#[test]
fn env_value_from_messages() {
    let s = spec(vec![ctr(json!({"env": [
        {"name": "A", "valueFrom": {}},
        {"name": "B", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.annotations['Bad~Key']"}}}]}))]);
    assert_eq!(
        pod(&s),
        [
            "spec.containers[0].env[0].valueFrom: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
            "spec.containers[0].env[1].valueFrom.fieldRef: Invalid value: \"bad~key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        ]
    );
}

#[test]
fn init_and_ephemeral_names_collide_with_regular_ones() {
    let mut s = spec(vec![ctr(json!({}))]);
    s["initContainers"] = json!([ctr(json!({}))]);
    s["ephemeralContainers"] = json!([ctr(json!({"ports": []}))]);
    assert_eq!(
        pod(&s),
        [
            "spec.initContainers[0].name: Duplicate value: \"ctr\"",
            "spec.ephemeralContainers[0].name: Duplicate value: \"ctr\"",
            "spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container",
        ]
    );
}

#[test]
fn wrong_json_types_read_as_absent_without_panicking() {
    let s = json!({"containers": [{"name": 3, "ports": "x", "env": [{"name": "A", "valueFrom": 7}],
        "resources": {"limits": {"cpu": "lots"}}, "livenessProbe": [], "securityContext": "no"}],
        "initContainers": {"a": 1}, "ephemeralContainers": [null]});
    let errs = pod(&s);
    assert_eq!(
        &errs[..4],
        [
            "spec.containers[0].name: Required value",
            "spec.containers[0].image: Required value",
            "spec.containers[0].terminationMessagePolicy: Required value",
            "spec.containers[0].imagePullPolicy: Required value",
        ]
    );
}
