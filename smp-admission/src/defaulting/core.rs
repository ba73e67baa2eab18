//! core/v1's defaults (`pkg/apis/core/v1/defaults.go`), at the positions the generated
//! walkers (`zz_generated.defaults.go`) visit, in their order.

use serde_json::{Value, json};

use crate::image;
use crate::value::{
    Object, child, child_or_new, default_nil, default_string, default_zero, is_empty_collection,
    is_empty_string, is_nil, items, quantity, requirements, resource_list, text,
};

/// The mode of files a secret, config map, downward API or projected volume writes: 0644.
const DEFAULT_MODE: i64 = 0o644;

/// A Pod: the pod's own defaults, then its spec's.
pub(super) fn pod(pod: &mut Object) {
    if let Some(spec) = child_or_new(pod, "spec") {
        requests_from_limits(spec);
        super::pod_resources::pod_level(spec);
        default_nil(spec, "enableServiceLinks", json!(true));
        if spec.get("hostNetwork") == Some(&json!(true)) {
            for list in ["containers", "initContainers"] {
                for container in items(spec, list) {
                    for port in items(container, "ports") {
                        if crate::value::is_zero(port, "hostPort") {
                            let container_port = port.get("containerPort").cloned();
                            if let Some(container_port) = container_port {
                                port.insert("hostPort".into(), container_port);
                            }
                        }
                    }
                }
            }
        }
    }
    if let Some(spec) = child_or_new(pod, "spec") {
        pod_spec(spec);
    }
    if let Some(status) = child(pod, "status") {
        for list in [
            "initContainerStatuses",
            "containerStatuses",
            "ephemeralContainerStatuses",
        ] {
            for container in items(status, list) {
                resource_list(container, "allocatedResources");
                requirements(container, "resources");
            }
        }
    }
}

/// A container without requests gets its limits as requests, each resource it limits and
/// does not request (a Pod's alone: templates keep what they say).
fn requests_from_limits(spec: &mut Object) {
    for list in ["containers", "initContainers"] {
        for container in items(spec, list) {
            let Some(resources) = child(container, "resources") else {
                continue;
            };
            let Some(limits) = resources
                .get("limits")
                .and_then(Value::as_object)
                .filter(|l| !l.is_empty())
                .cloned()
            else {
                continue;
            };
            let Some(requests) = child_or_new(resources, "requests") else {
                continue;
            };
            for (name, quantity) in limits {
                requests.entry(name).or_insert(quantity);
            }
        }
    }
}

/// A pod template: its spec's defaults (not the Pod's own).
pub(super) fn pod_template_spec(template: &mut Object) {
    if let Some(spec) = child_or_new(template, "spec") {
        pod_spec(spec);
    }
}

/// A PodSpec and everything in it.
pub(super) fn pod_spec(spec: &mut Object) {
    default_string(spec, "dnsPolicy", "ClusterFirst");
    default_string(spec, "restartPolicy", "Always");
    default_nil(spec, "securityContext", json!({}));
    default_nil(spec, "terminationGracePeriodSeconds", json!(30));
    default_string(spec, "schedulerName", "default-scheduler");
    for volume in items(spec, "volumes") {
        self::volume(volume);
    }
    for list in ["initContainers", "containers", "ephemeralContainers"] {
        for container in items(spec, list) {
            self::container(container);
        }
    }
    resource_list(spec, "overhead");
    requirements(spec, "resources");
}

/// A volume: an empty one is an emptyDir; each source's own defaults.
fn volume(volume: &mut Object) {
    const SOURCES: &[&str] = &[
        "hostPath",
        "emptyDir",
        "gcePersistentDisk",
        "awsElasticBlockStore",
        "gitRepo",
        "secret",
        "nfs",
        "iscsi",
        "glusterfs",
        "persistentVolumeClaim",
        "rbd",
        "flexVolume",
        "cinder",
        "cephfs",
        "flocker",
        "downwardAPI",
        "fc",
        "azureFile",
        "configMap",
        "vsphereVolume",
        "quobyte",
        "azureDisk",
        "photonPersistentDisk",
        "projected",
        "portworxVolume",
        "scaleIO",
        "storageos",
        "csi",
        "ephemeral",
        "image",
    ];
    // A volume has a name and its source: its few members are checked against the sources.
    let has_source = volume
        .iter()
        .any(|(key, value)| !value.is_null() && SOURCES.contains(&key.as_str()));
    if !has_source {
        volume.insert("emptyDir".into(), json!({}));
    }
    if let Some(host_path) = child(volume, "hostPath") {
        default_nil(host_path, "type", json!(""));
    }
    if let Some(empty_dir) = child(volume, "emptyDir") {
        quantity(empty_dir, "sizeLimit");
    }
    for source in ["secret", "configMap"] {
        if let Some(source) = child(volume, source) {
            default_nil(source, "defaultMode", json!(DEFAULT_MODE));
        }
    }
    if let Some(downward) = child(volume, "downwardAPI") {
        default_nil(downward, "defaultMode", json!(DEFAULT_MODE));
        downward_api_items(downward);
    }
    if let Some(projected) = child(volume, "projected") {
        default_nil(projected, "defaultMode", json!(DEFAULT_MODE));
        for source in items(projected, "sources") {
            if let Some(downward) = child(source, "downwardAPI") {
                downward_api_items(downward);
            }
            if let Some(token) = child(source, "serviceAccountToken") {
                default_nil(token, "expirationSeconds", json!(3600));
            }
        }
    }
    if let Some(iscsi) = child(volume, "iscsi") {
        default_string(iscsi, "iscsiInterface", "default");
    }
    if let Some(rbd) = child(volume, "rbd") {
        rbd_defaults(rbd);
    }
    if let Some(azure) = child(volume, "azureDisk") {
        azure_disk_defaults(azure);
    }
    if let Some(scale_io) = child(volume, "scaleIO") {
        scale_io_defaults(scale_io);
    }
    if let Some(template) = child(volume, "ephemeral").and_then(|e| child(e, "volumeClaimTemplate"))
        && let Some(spec) = child(template, "spec")
    {
        claim_spec(spec);
    }
    // An image volume's pull policy is defaulted only under the ImageVolume gate, which
    // v1.34 leaves off.
}

fn downward_api_items(downward: &mut Object) {
    for item in items(downward, "items") {
        if let Some(field) = child(item, "fieldRef") {
            default_string(field, "apiVersion", "v1");
        }
    }
}

fn rbd_defaults(rbd: &mut Object) {
    default_string(rbd, "pool", "rbd");
    default_string(rbd, "user", "admin");
    default_string(rbd, "keyring", "/etc/ceph/keyring");
}

fn azure_disk_defaults(azure: &mut Object) {
    default_nil(azure, "cachingMode", json!("ReadWrite"));
    default_nil(azure, "fsType", json!("ext4"));
    default_nil(azure, "readOnly", json!(false));
    default_nil(azure, "kind", json!("Shared"));
}

fn scale_io_defaults(scale_io: &mut Object) {
    default_string(scale_io, "storageMode", "ThinProvisioned");
    default_string(scale_io, "fsType", "xfs");
}

/// `Always` for an image tagged (or defaulting to) `latest`, `IfNotPresent` otherwise.
fn pull_policy(image: &str) -> &'static str {
    if image::tag(image) == Some("latest") {
        "Always"
    } else {
        "IfNotPresent"
    }
}

/// A container (or init or ephemeral container) and its ports, env, probes and hooks.
fn container(container: &mut Object) {
    // One pass over the members (a container is visited for every pod of every template,
    // and looking each member up costs more than walking them all).
    let (mut policy, mut path, mut message) = (false, false, false);
    let given = |value: &Value| !matches!(value, Value::Null) && value != "";
    for (key, value) in container.iter_mut() {
        match key.as_str() {
            "imagePullPolicy" => policy = given(value),
            "terminationMessagePath" => path = given(value),
            "terminationMessagePolicy" => message = given(value),
            "ports" => {
                for port in value.as_array_mut().into_iter().flatten() {
                    if let Some(port) = port.as_object_mut() {
                        default_string(port, "protocol", "TCP");
                    }
                }
            }
            "env" => {
                for env in value.as_array_mut().into_iter().flatten() {
                    if let Some(from) = env.get_mut("valueFrom").and_then(Value::as_object_mut) {
                        env_source(from);
                    }
                }
            }
            "resources" => {
                if let Some(resources) = value.as_object_mut() {
                    resource_list(resources, "limits");
                    resource_list(resources, "requests");
                }
            }
            "livenessProbe" | "readinessProbe" | "startupProbe" => {
                if let Some(probe) = value.as_object_mut() {
                    self::probe(probe);
                }
            }
            "lifecycle" => {
                for hook in ["postStart", "preStop"] {
                    if let Some(get) = value
                        .get_mut(hook)
                        .and_then(|h| h.get_mut("httpGet"))
                        .and_then(Value::as_object_mut)
                    {
                        http_get(get);
                    }
                }
            }
            _ => {}
        }
    }
    if !policy {
        let policy = pull_policy(text(container, "image"));
        container.insert("imagePullPolicy".into(), json!(policy));
    }
    if !path {
        container.insert(
            "terminationMessagePath".into(),
            json!("/dev/termination-log"),
        );
    }
    if !message {
        container.insert("terminationMessagePolicy".into(), json!("File"));
    }
}

/// An environment variable's source: a field reference's API version, and a file key's
/// `optional` (a type marker, with no feature gate).
fn env_source(from: &mut Object) {
    if let Some(field) = child(from, "fieldRef") {
        default_string(field, "apiVersion", "v1");
    }
    if let Some(file) = child(from, "fileKeyRef") {
        default_nil(file, "optional", json!(false));
    }
}

fn probe(probe: &mut Object) {
    default_zero(probe, "timeoutSeconds", 1);
    default_zero(probe, "periodSeconds", 10);
    default_zero(probe, "successThreshold", 1);
    default_zero(probe, "failureThreshold", 3);
    if let Some(get) = child(probe, "httpGet") {
        http_get(get);
    }
    if let Some(grpc) = child(probe, "grpc") {
        default_nil(grpc, "service", json!(""));
    }
}

fn http_get(get: &mut Object) {
    default_string(get, "path", "/");
    default_string(get, "scheme", "HTTP");
}

/// A claim's spec (a PersistentVolumeClaim's, or an ephemeral volume's template's).
fn claim_spec(spec: &mut Object) {
    default_nil(spec, "volumeMode", json!("Filesystem"));
    requirements(spec, "resources");
}

/// A PodTemplate object.
pub(super) fn pod_template(object: &mut Object) {
    if let Some(template) = child_or_new(object, "template") {
        pod_template_spec(template);
    }
}

/// A ReplicationController: selector and labels from the template's labels, one replica.
pub(super) fn replication_controller(rc: &mut Object) {
    let labels = child(rc, "spec")
        .and_then(|s| child(s, "template"))
        .and_then(|t| child(t, "metadata"))
        .and_then(|m| m.get("labels"))
        .filter(|l| l.is_object())
        .cloned();
    if let Some(labels) = labels {
        if let Some(spec) = child(rc, "spec")
            && is_empty_collection(spec, "selector")
        {
            spec.insert("selector".into(), labels.clone());
        }
        if let Some(metadata) = child_or_new(rc, "metadata")
            && is_empty_collection(metadata, "labels")
        {
            metadata.insert("labels".into(), labels);
        }
    }
    if let Some(spec) = child_or_new(rc, "spec") {
        default_nil(spec, "replicas", json!(1));
        if let Some(template) = child(spec, "template") {
            pod_template_spec(template);
        }
    }
}

/// A Service: session affinity, type, ports' protocol and target port, traffic policies.
pub(super) fn service(service: &mut Object) {
    let Some(spec) = child_or_new(service, "spec") else {
        return;
    };
    default_string(spec, "sessionAffinity", "None");
    match text(spec, "sessionAffinity") {
        "None" => {
            spec.remove("sessionAffinityConfig");
        }
        "ClientIP" => {
            let has_timeout = child(spec, "sessionAffinityConfig")
                .and_then(|c| child(c, "clientIP"))
                .is_some_and(|c| !is_nil(c, "timeoutSeconds"));
            if !has_timeout {
                spec.insert(
                    "sessionAffinityConfig".into(),
                    json!({"clientIP": {"timeoutSeconds": 10800}}),
                );
            }
        }
        _ => {}
    }
    default_string(spec, "type", "ClusterIP");
    for port in items(spec, "ports") {
        default_string(port, "protocol", "TCP");
        let unset = match port.get("targetPort") {
            None | Some(Value::Null) => true,
            Some(Value::String(s)) => s.is_empty(),
            Some(Value::Number(n)) => n.as_i64() == Some(0),
            Some(_) => false,
        };
        if unset && let Some(number) = port.get("port").cloned() {
            port.insert("targetPort".into(), number);
        }
    }
    let kind = text(spec, "type").to_owned();
    let external = matches!(kind.as_str(), "NodePort" | "LoadBalancer")
        || !is_empty_collection(spec, "externalIPs");
    if external {
        default_string(spec, "externalTrafficPolicy", "Cluster");
    }
    if matches!(kind.as_str(), "NodePort" | "LoadBalancer" | "ClusterIP") {
        default_nil(spec, "internalTrafficPolicy", json!("Cluster"));
    }
    if kind == "LoadBalancer" {
        default_nil(spec, "allocateLoadBalancerNodePorts", json!(true));
        if let Some(ingress) = child(service, "status")
            .and_then(|s| child(s, "loadBalancer"))
            .and_then(|l| l.get_mut("ingress"))
            .and_then(Value::as_array_mut)
        {
            for entry in ingress.iter_mut().filter_map(Value::as_object_mut) {
                if !is_empty_string(entry, "ip") {
                    default_nil(entry, "ipMode", json!("VIP"));
                }
            }
        }
    }
}

/// Endpoints: every port's protocol.
pub(super) fn endpoints(endpoints: &mut Object) {
    for subset in items(endpoints, "subsets") {
        for port in items(subset, "ports") {
            default_string(port, "protocol", "TCP");
        }
    }
}

/// A Namespace: the `kubernetes.io/metadata.name` label, the phase.
pub(super) fn namespace(namespace: &mut Object) {
    let name = child(namespace, "metadata")
        .map(|m| text(m, "name").to_owned())
        .unwrap_or_default();
    if !name.is_empty()
        && let Some(metadata) = child(namespace, "metadata")
        && let Some(labels) = child_or_new(metadata, "labels")
    {
        labels.insert("kubernetes.io/metadata.name".into(), json!(name));
    }
    if let Some(status) = child_or_new(namespace, "status") {
        default_string(status, "phase", "Active");
    }
}

/// A Secret: `Opaque`.
pub(super) fn secret(secret: &mut Object) {
    // Decoding writes `stringData` into `data`; the stored Secret has no `stringData`.
    crate::conversion::merge_string_data(secret);
    default_string(secret, "type", "Opaque");
}

/// A PersistentVolume: `Pending`, `Retain`, `Filesystem`, and its sources' defaults.
pub(super) fn persistent_volume(volume: &mut Object) {
    if let Some(status) = child_or_new(volume, "status") {
        default_string(status, "phase", "Pending");
    }
    if let Some(spec) = child_or_new(volume, "spec") {
        default_string(spec, "persistentVolumeReclaimPolicy", "Retain");
        default_nil(spec, "volumeMode", json!("Filesystem"));
        persistent_volume_sources(spec);
    }
}

/// The defaults of a persistent volume spec's sources (a PersistentVolume's, or one inline in
/// a VolumeAttachment).
pub(super) fn persistent_volume_sources(spec: &mut Object) {
    resource_list(spec, "capacity");
    {
        if let Some(host_path) = child(spec, "hostPath") {
            default_nil(host_path, "type", json!(""));
        }
        if let Some(iscsi) = child(spec, "iscsi") {
            default_string(iscsi, "iscsiInterface", "default");
        }
        if let Some(rbd) = child(spec, "rbd") {
            rbd_defaults(rbd);
        }
        if let Some(azure) = child(spec, "azureDisk") {
            azure_disk_defaults(azure);
        }
        if let Some(scale_io) = child(spec, "scaleIO") {
            scale_io_defaults(scale_io);
        }
    }
}

/// A PersistentVolumeClaim: `Pending`, `Filesystem`.
pub(super) fn persistent_volume_claim(claim: &mut Object) {
    if let Some(spec) = child_or_new(claim, "spec") {
        claim_spec(spec);
    }
    if let Some(status) = child_or_new(claim, "status") {
        default_string(status, "phase", "Pending");
        resource_list(status, "capacity");
        resource_list(status, "allocatedResources");
    }
}

/// A LimitRange: a container limit's default limit from its max, its default request from
/// its default limit, then from its min.
pub(super) fn limit_range(range: &mut Object) {
    let Some(spec) = child(range, "spec") else {
        return;
    };
    for item in items(spec, "limits") {
        if text(item, "type") != "Container" {
            continue;
        }
        let max = item.get("max").and_then(Value::as_object).cloned();
        let min = item.get("min").and_then(Value::as_object).cloned();
        let Some(default) = child_or_new(item, "default") else {
            continue;
        };
        for (name, quantity) in max.into_iter().flatten() {
            default.entry(name).or_insert(quantity);
        }
        let default = default.clone();
        let Some(request) = child_or_new(item, "defaultRequest") else {
            continue;
        };
        for (name, quantity) in default.into_iter().chain(min.into_iter().flatten()) {
            request.entry(name).or_insert(quantity);
        }
        for key in [
            "max",
            "min",
            "default",
            "defaultRequest",
            "maxLimitRequestRatio",
        ] {
            resource_list(item, key);
        }
        // Empty maps print as nothing (`omitempty`).
        for key in ["default", "defaultRequest"] {
            if is_empty_collection(item, key) {
                item.remove(key);
            }
        }
    }
}

/// A Node: allocatable is capacity when it is not given.
pub(super) fn node(node: &mut Object) {
    if let Some(status) = child(node, "status")
        && is_nil(status, "allocatable")
        && let Some(capacity) = status.get("capacity").filter(|c| c.is_object()).cloned()
    {
        status.insert("allocatable".into(), capacity);
    }
    if let Some(status) = child(node, "status") {
        resource_list(status, "capacity");
        resource_list(status, "allocatable");
    }
}

/// A ResourceQuota: its quantities.
pub(super) fn resource_quota(quota: &mut Object) {
    if let Some(spec) = child(quota, "spec") {
        resource_list(spec, "hard");
    }
    if let Some(status) = child(quota, "status") {
        resource_list(status, "hard");
        resource_list(status, "used");
    }
}
