//! Pods and pod templates (`ValidatePodCreate`, `ValidatePodUpdate`, `ValidatePodSpec`,
//! `ValidatePodTemplate`, `ValidatePodTemplateSpec`): the pod-level half of the checks, in the
//! server's order. Containers are checked by [`containers`]; everything else (volumes,
//! scheduling, DNS, security context, resource claims, annotations) lives in the sibling
//! modules named for what they hold.

mod annotations;
mod claims;
mod container;
mod container_gates;
mod container_refs;
pub(crate) mod containers;
#[cfg(test)]
mod containers_tests;
mod context;
mod diff;
mod dns;
mod env;
mod ephemeral;
mod mounts;
mod options;
mod paths;
mod pod_level_resources;
mod pod_resources;
mod probes;
mod projected;
mod relaxed_options;
mod resources;
mod scheduling;
mod security;
mod security_context;
mod sources;
mod spec_eq;
mod status;
mod template;
mod topology;
mod update;
mod volumes;

use std::collections::BTreeMap;

use serde_json::Value;

use crate::validation::field::{self, ErrorList, Path};
use crate::validation::meta::validate_object_meta;
use crate::validation::names;
use crate::validation::read;

pub(crate) use annotations::validate_pod_specific_annotations;
pub(crate) use container_gates::drop_disabled_container_fields;
pub(crate) use diff::spec_diff;
pub(crate) use ephemeral::validate_template_object_meta;
pub(crate) use options::PodOptions;
pub(crate) use resources::{NameRule, validate_resource_requirements};
pub(crate) use scheduling::{validate_node_selector_term, validate_tolerations};
pub(crate) use sources::{
    csi_driver_name, has_known_prefix as iscsi_has_known_prefix, iscsi_name_matches,
};
pub(crate) use status::pod_status_update;
pub(crate) use template::{pod_template, pod_template_update};
// Called by the workload kinds (apps, batch, ReplicationController).
#[allow(unused_imports)]
pub(crate) use template::validate_pod_template_spec;

/// The volumes a pod declares that passed validation, by name: what container mounts may
/// refer to (upstream builds the same map while validating `spec.volumes`).
pub(crate) type Volumes<'a> = BTreeMap<&'a str, &'a Value>;

/// The check of a volume source that a PersistentVolume shares with pod volumes word for
/// word (`validateHostPathVolumeSource`, `validateNFSVolumeSource`, ... called from
/// `ValidatePersistentVolumeSpec`), by the source's member name; `None` for a source whose
/// PersistentVolume form has checks of its own. These checks read nothing of the pod.
pub(crate) fn shared_volume_source_check(
    member: &str,
    source: &Value,
    path: &Path,
) -> Option<ErrorList> {
    let check: fn(&Value, &Path, &context::SourceCtx) -> ErrorList = match member {
        "hostPath" => sources::host_path,
        "gcePersistentDisk" => sources::gce_pd,
        "awsElasticBlockStore" => sources::aws_ebs,
        "glusterfs" => sources::glusterfs,
        "flocker" => sources::flocker,
        "nfs" => sources::nfs,
        "rbd" => sources::rbd,
        "quobyte" => sources::quobyte,
        "cephfs" => sources::cephfs,
        "cinder" => sources::cinder,
        "fc" => sources::fc,
        "flexVolume" => sources::flex_volume,
        "azureFile" => sources::azure_file,
        "vsphereVolume" => sources::vsphere,
        "photonPersistentDisk" => sources::photon,
        "portworxVolume" => sources::portworx,
        "azureDisk" => sources::azure_disk,
        "scaleIO" => sources::scale_io,
        "storageos" => sources::storageos,
        _ => return None,
    };
    let options = PodOptions::default();
    let ctx = context::SourceCtx {
        volume_name: "",
        pod_name: None,
        options: &options,
    };
    Some(check(source, path, &ctx))
}

/// The annotation the kubelet puts on mirror (static) pods.
pub(crate) const MIRROR_ANNOTATION: &str = "kubernetes.io/config.mirror";

/// The Pod kind's create: `ValidatePodCreate` with the options a create of v1.34 passes, on
/// the pod as the strategy leaves it (fields of gates off in v1.34 dropped).
pub(crate) fn pod(obj: &Value) -> ErrorList {
    let options = PodOptions::for_pod(None, None);
    match without_disabled_fields(obj, None) {
        Some(dropped) => validate_pod_create(&dropped, &options),
        None => validate_pod_create(obj, &options),
    }
}

/// The Pod kind's update: `ValidatePodUpdate` with options relaxed by what the old pod uses.
pub(crate) fn pod_update(new: &Value, old: &Value) -> ErrorList {
    let options = PodOptions::for_pod(old.get("spec"), old.get("metadata"));
    match without_disabled_fields(new, old.get("spec")) {
        Some(dropped) => update::validate_pod_update(&dropped, old, &options),
        None => update::validate_pod_update(new, old, &options),
    }
}

/// A copy of `pod` without the container fields the strategy drops (`DropDisabledPodFields`),
/// or `None` when it has none of them (the common case, which costs no copy).
fn without_disabled_fields(pod: &Value, old_spec: Option<&Value>) -> Option<Value> {
    let spec = pod.get("spec")?;
    if !container_gates::anything_to_drop(spec) {
        return None;
    }
    let mut copy = pod.clone();
    if let Some(spec) = copy.get_mut("spec") {
        container_gates::drop_disabled_container_fields(spec, old_spec);
    }
    Some(copy)
}

/// `ValidatePodCreate`: the metadata and spec, then what only a create forbids.
fn validate_pod_create(obj: &Value, options: &PodOptions) -> ErrorList {
    let mut errs = validate_pod_metadata_and_spec(obj, options);
    let spec = obj.get("spec").unwrap_or(&Value::Null);
    let spec_path = Path::new("spec");
    if !read::list(spec, "ephemeralContainers").is_empty() {
        errs.push(field::forbidden(
            &spec_path.child("ephemeralContainers"),
            "cannot be set on create",
        ));
    }
    if !read::text(spec, "nodeName").is_empty() && !read::list(spec, "schedulingGates").is_empty() {
        errs.push(field::forbidden(
            &spec_path.child("nodeName"),
            "cannot be set until all schedulingGates have been cleared",
        ));
    }
    let meta = obj.get("metadata");
    annotations::seccomp_fields_match_annotations(meta, spec, &spec_path, &mut errs);
    annotations::apparmor_fields_match_annotations(meta, spec, &spec_path, &mut errs);
    errs
}

/// `validatePodMetadataAndSpec`: what a create and an update both check of a pod.
fn validate_pod_metadata_and_spec(obj: &Value, options: &PodOptions) -> ErrorList {
    let meta_path = Path::new("metadata");
    let meta = obj.get("metadata");
    let mut errs = validate_object_meta(meta, true, names::name_is_dns_subdomain, &meta_path);
    let spec = obj.get("spec").unwrap_or(&Value::Null);
    let annotations_path = meta_path.child("annotations");
    annotations::validate_pod_specific_annotations(
        meta.and_then(|m| m.get("annotations")),
        spec,
        &annotations_path,
        options,
        &mut errs,
    );
    let spec_path = Path::new("spec");
    errs.extend(validate_pod_spec(spec, meta, &spec_path, options));
    if read::text(spec, "serviceAccountName").is_empty() {
        forbid_token_projection_without_service_account(spec, &spec_path, &mut errs);
    }
    container_refs::validate_images_have_no_padding(spec, &spec_path, &mut errs);
    errs
}

/// A pod (not a template) may mount a service account token only with a service account.
fn forbid_token_projection_without_service_account(
    spec: &Value,
    spec_path: &Path,
    errs: &mut ErrorList,
) {
    let volumes_path = spec_path.child("volumes");
    for (i, volume) in read::list(spec, "volumes").iter().enumerate() {
        let Some(projected) = read::object(volume, "projected") else {
            continue;
        };
        let at = volumes_path.index(i);
        let projected_path = at.child("projected");
        let sources_path = projected_path.child("sources");
        let sources = projected.get("sources").and_then(Value::as_array);
        for (j, source) in sources.into_iter().flatten().enumerate() {
            if read::is_set(source, "serviceAccountToken") {
                let source_path = sources_path.index(j);
                errs.push(field::forbidden(
                    &source_path.child("serviceAccountToken"),
                    "must not be specified when serviceAccountName is not set",
                ));
            }
        }
    }
}

/// `ValidatePodSpec`: `spec` is the pod spec, `meta` the pod's metadata (`None` for a
/// template: then the names of generated ephemeral PVCs are not checked).
pub(crate) fn validate_pod_spec(
    spec: &Value,
    meta: Option<&Value>,
    path: &Path,
    options: &PodOptions,
) -> ErrorList {
    let mut errs = ErrorList::new();
    if !read::is_set(spec, "terminationGracePeriodSeconds") {
        errs.push(field::required(
            &path.child("terminationGracePeriodSeconds"),
            "",
        ));
    }
    let volumes = volumes::validate_volumes(spec, meta, path, options, &mut errs);
    claims::validate_resource_claims(spec, meta, path, &mut errs);
    errs.extend(containers::validate_containers(
        spec, &volumes, path, options,
    ));
    errs.extend(containers::validate_init_containers(
        spec, &volumes, path, options,
    ));
    errs.extend(containers::validate_ephemeral_containers(
        spec, &volumes, path, options,
    ));
    if options.pod_level_resources {
        pod_resources::validate_pod_resources(spec, path, options, &mut errs);
    }
    security::validate_host_network_ports(spec, path, options, &mut errs);
    validate_restart_policy(spec, path, &mut errs);
    validate_dns_policy(spec, path, &mut errs);
    crate::validation::meta::validate_labels(
        spec.get("nodeSelector"),
        &path.child("nodeSelector"),
        &mut errs,
    );
    security::validate_pod_security_context(spec, path, options, &mut errs);
    scheduling::validate_affinity(
        spec.get("affinity"),
        &path.child("affinity"),
        options,
        &mut errs,
    );
    dns::validate_dns_config(spec, path, options, &mut errs);
    validate_readiness_gates(spec, path, &mut errs);
    scheduling::validate_scheduling_gates(spec, path, &mut errs);
    topology::validate_topology_spread(spec, path, options, &mut errs);
    security::validate_windows_host_process(spec, path, &mut errs);
    security::validate_host_users(spec, path, options, &mut errs);
    dns::validate_hostname_override(spec, path, &mut errs);
    validate_names_and_limits(spec, path, options, &mut errs);
    validate_os(spec, path, &mut errs);
    container_refs::validate_file_key_ref_volumes(spec, path, &mut errs);
    errs
}

fn validate_restart_policy(spec: &Value, path: &Path, errs: &mut ErrorList) {
    let at = path.child("restartPolicy");
    match read::text(spec, "restartPolicy") {
        "Always" | "OnFailure" | "Never" => {}
        "" => errs.push(field::required(&at, "")),
        other => errs.push(field::not_supported(
            &at,
            other,
            &["Always", "OnFailure", "Never"],
        )),
    }
}

fn validate_dns_policy(spec: &Value, path: &Path, errs: &mut ErrorList) {
    let at = path.child("dnsPolicy");
    match read::text(spec, "dnsPolicy") {
        "ClusterFirstWithHostNet" | "ClusterFirst" | "Default" | "None" => {}
        "" => errs.push(field::required(&at, "")),
        other => errs.push(field::not_supported(
            &at,
            other,
            &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
        )),
    }
}

fn validate_readiness_gates(spec: &Value, path: &Path, errs: &mut ErrorList) {
    let gates = path.child("readinessGates");
    for (i, gate) in read::list(spec, "readinessGates").iter().enumerate() {
        let at = gates.index(i);
        let at = at.child("conditionType");
        let condition = read::text(gate, "conditionType");
        for msg in names::is_qualified_name(condition) {
            errs.push(field::invalid(&at, condition, &msg));
        }
    }
}

/// Each name-like member checked as the name of the object it refers to, then the deadline,
/// the host names, tolerations, host aliases, priority, runtime class, preemption, overhead.
fn validate_names_and_limits(
    spec: &Value,
    path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    subdomain_if_set(spec, "serviceAccountName", path, errs);
    subdomain_if_set(spec, "nodeName", path, errs);
    if let Some(deadline) = read::opt_int(spec, "activeDeadlineSeconds")
        && !(1..=i64::from(i32::MAX)).contains(&deadline)
    {
        errs.push(field::invalid(
            &path.child("activeDeadlineSeconds"),
            deadline,
            &names::inclusive_range_error(1, i64::from(i32::MAX)),
        ));
    }
    for member in ["hostname", "subdomain"] {
        let value = read::text(spec, member);
        if !value.is_empty() {
            let at = path.child(member);
            for msg in names::is_dns1123_label(value) {
                errs.push(field::invalid(&at, value, &msg));
            }
        }
    }
    if !read::list(spec, "tolerations").is_empty() {
        scheduling::validate_tolerations(
            read::list(spec, "tolerations"),
            &path.child("tolerations"),
            errs,
        );
    }
    dns::validate_host_aliases(spec, path, errs);
    subdomain_if_set(spec, "priorityClassName", path, errs);
    if let Some(class) = read::opt_text(spec, "runtimeClassName") {
        let at = path.child("runtimeClassName");
        for msg in names::is_dns1123_subdomain(class) {
            errs.push(field::invalid(&at, class, &msg));
        }
    }
    if let Some(policy) = read::opt_text(spec, "preemptionPolicy") {
        let at = path.child("preemptionPolicy");
        match policy {
            "PreemptLowerPriority" | "Never" => {}
            "" => errs.push(field::required(&at, "")),
            other => errs.push(field::not_supported(
                &at,
                other,
                &["PreemptLowerPriority", "Never"],
            )),
        }
    }
    if read::is_set(spec, "overhead") {
        errs.extend(pod_level_resources::validate_overhead(spec, path, options));
    }
}

fn subdomain_if_set(spec: &Value, member: &str, path: &Path, errs: &mut ErrorList) {
    let value = read::text(spec, member);
    if value.is_empty() {
        return;
    }
    let at = path.child(member);
    for msg in names::is_dns1123_subdomain(value) {
        errs.push(field::invalid(&at, value, &msg));
    }
}

/// `validateOS`, then the per-OS restrictions (`validateLinux`, `validateWindows`) when the OS
/// is one the server knows.
fn validate_os(spec: &Value, path: &Path, errs: &mut ErrorList) {
    let Some(os) = read::object(spec, "os") else {
        return;
    };
    let os_path = path.child("os");
    let name = os.get("name").and_then(Value::as_str).unwrap_or("");
    match name {
        "" => errs.push(field::required(&os_path.child("name"), "")),
        "linux" => security::validate_linux(spec, path, errs),
        "windows" => security::validate_windows(spec, path, errs),
        other => errs.push(field::not_supported(&os_path, other, &["linux", "windows"])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Members of the wrong JSON type read as absent; nothing panics.
    #[test]
    fn odd_types_do_not_panic() {
        let odd = [
            json!(null),
            json!(5),
            json!("x"),
            json!([1, "a", null]),
            json!({"a": 1}),
        ];
        let members = [
            "volumes",
            "affinity",
            "tolerations",
            "topologySpreadConstraints",
            "dnsConfig",
            "hostAliases",
            "os",
            "securityContext",
            "schedulingGates",
            "resourceClaims",
            "readinessGates",
            "nodeSelector",
            "activeDeadlineSeconds",
            "hostUsers",
        ];
        for member in members {
            for value in &odd {
                let pod = json!({"apiVersion": "v1", "kind": "Pod",
                    "metadata": {"name": "p", "namespace": "ns"},
                    "spec": {member: value}});
                let _ = super::pod(&pod);
                let _ = pod_update(&pod, &pod);
            }
        }
        let volumes = json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "namespace": "ns"},
            "spec": {"volumes": [{"name": "v", "iscsi": {"iqn": "iqn.", "initiatorName": "é"}},
                {"name": "w", "projected": {"sources": [{"downwardAPI": {"items": [{"path": "..", "fieldRef": {"apiVersion": "v1", "fieldPath": "x['"}}]}}]}},
                {"name": "q", "quobyte": {"registry": "[", "volume": "v"}}]}});
        assert!(!super::pod(&volumes).is_empty());
    }
}
