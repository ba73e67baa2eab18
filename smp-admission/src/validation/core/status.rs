//! What the core kinds' status endpoints check (`Validate<Kind>StatusUpdate` of
//! `pkg/apis/core/validation/validation.go`, as `pkg/registry/core/<kind>` status strategies
//! call them): a Service's load-balancer addresses, a ReplicationController's counters, a
//! Namespace's phase against its deletion, a ResourceQuota's and a claim's resource lists.
//! The Pod's are in `pod::status`.
//!
//! The status strategies of ResourceQuota and PersistentVolumeClaim ask for a
//! `resourceVersion`; the test server fills in the stored one for an unconditional write, as
//! the server's store does before validation.

use std::collections::HashSet;

use serde_json::Value;

use super::resources::{is_native, validate_quantity_value, validate_quota_resource_name};
use crate::quantity::Quantity;
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::ip::{parse_ip_sloppy, validate_legacy_ip};
use crate::validation::meta::{IS_NEGATIVE, validate_object_meta_update_of};
use crate::validation::names;
use crate::validation::read;

fn status_of(obj: &Value) -> &Value {
    obj.get("status").unwrap_or(&Value::Null)
}

fn needs_resource_version(new: &Value, errs: &mut ErrorList) {
    let version = new
        .get("metadata")
        .map_or("", |m| read::text(m, "resourceVersion"));
    if version.is_empty() {
        errs.push(field::required(&Path::new("resourceVersion"), ""));
    }
}

/// The load-balancer address modes a Service's status may give (`LoadBalancerIPMode`, GA).
const IP_MODES: [&str; 2] = ["Proxy", "VIP"];

/// `ValidateServiceStatusUpdate`: the metadata, then `ValidateLoadBalancerStatus`. With
/// `AllowServiceLBStatusOnNonLB` off (v1.34), only a LoadBalancer has ingress points.
pub(super) fn service_status_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update_of(new, old);
    let path = Path::names(&["status", "loadBalancer", "ingress"]);
    let ingress = |obj: &Value| -> Vec<Value> {
        obj.pointer("/status/loadBalancer/ingress")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let points = ingress(new);
    let is_lb = new.pointer("/spec/type").and_then(Value::as_str) == Some("LoadBalancer");
    if !is_lb && !points.is_empty() {
        errs.push(field::forbidden(
            &path,
            "may only be used when `spec.type` is 'LoadBalancer'",
        ));
        return errs;
    }
    let old_points = ingress(old);
    let old_ips: Vec<&str> = old_points
        .iter()
        .map(|p| read::text(p, "ip"))
        .filter(|ip| !ip.is_empty())
        .collect();
    for (i, point) in points.iter().enumerate() {
        let at = path.index(i);
        let ip = read::text(point, "ip");
        if !ip.is_empty() {
            validate_legacy_ip(&at.child("ip"), ip, &old_ips, &mut errs);
        }
        match read::opt_text(point, "ipMode") {
            None if !ip.is_empty() => errs.push(field::required(
                &at.child("ipMode"),
                "must be specified when `ip` is set",
            )),
            Some(_) if ip.is_empty() => errs.push(field::forbidden(
                &at.child("ipMode"),
                "may not be specified when `ip` is not set",
            )),
            Some(mode) if !IP_MODES.contains(&mode) => {
                errs.push(field::not_supported(&at.child("ipMode"), mode, &IP_MODES));
            }
            _ => {}
        }
        load_balancer_hostname(point, &at, &mut errs);
    }
    errs
}

/// A load-balancer ingress point's `hostname`: a DNS name, and not an address. Services and
/// Ingresses share it.
pub(crate) fn load_balancer_hostname(point: &Value, at: &Path, errs: &mut ErrorList) {
    let hostname = read::text(point, "hostname");
    if hostname.is_empty() {
        return;
    }
    for message in names::is_dns1123_subdomain(hostname) {
        errs.push(field::invalid(&at.child("hostname"), hostname, &message));
    }
    if parse_ip_sloppy(hostname).is_some() {
        errs.push(field::invalid(
            &at.child("hostname"),
            hostname,
            "must be a DNS name, not an IP address",
        ));
    }
}

/// `ValidateReplicationControllerStatusUpdate`.
pub(super) fn replication_controller_status_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update_of(new, old);
    let (status, path) = (status_of(new), Path::new("status"));
    for name in [
        "replicas",
        "fullyLabeledReplicas",
        "readyReplicas",
        "availableReplicas",
        "observedGeneration",
    ] {
        let value = read::int(status, name);
        if value < 0 {
            errs.push(field::invalid(&path.child(name), value, IS_NEGATIVE));
        }
    }
    let replicas = read::int(status, "replicas");
    for name in ["fullyLabeledReplicas", "readyReplicas", "availableReplicas"] {
        let value = read::int(status, name);
        if value > replicas {
            errs.push(field::invalid(
                &path.child(name),
                value,
                "cannot be greater than status.replicas",
            ));
        }
    }
    let available = read::int(status, "availableReplicas");
    if available > read::int(status, "readyReplicas") {
        errs.push(field::invalid(
            &path.child("availableReplicas"),
            available,
            "cannot be greater than readyReplicas",
        ));
    }
    errs
}

/// `ValidateNamespaceStatusUpdate`: `Active` while not being deleted, `Terminating` once it
/// is (reported at `status.Phase`, as the server spells it).
pub(super) fn namespace_status_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update_of(new, old);
    let deleting = new
        .get("metadata")
        .is_some_and(|m| !read::text(m, "deletionTimestamp").is_empty());
    let phase = read::text(status_of(new), "phase");
    let (wanted, detail) = if deleting {
        (
            "Terminating",
            "may only be 'Terminating' if `deletionTimestamp` is not empty",
        )
    } else {
        (
            "Active",
            "may only be 'Active' if `deletionTimestamp` is empty",
        )
    };
    if phase != wanted {
        errs.push(field::invalid(
            &Path::names(&["status", "Phase"]),
            phase,
            detail,
        ));
    }
    errs
}

/// `ValidateResourceQuotaStatusUpdate`: each resource of `hard` and `used` a quota resource
/// with a valid amount.
pub(super) fn resource_quota_status_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update_of(new, old);
    needs_resource_version(new, &mut errs);
    let status = status_of(new);
    for member in ["hard", "used"] {
        let names = ["status", member];
        let path = Path::names(&names);
        for (name, amount) in read::object_or_empty(status, member) {
            let at = path.key(name);
            validate_quota_resource_name(name, &at, &mut errs);
            validate_quantity_value(name, amount.as_str().unwrap_or("0"), &at, &mut errs);
        }
    }
    errs
}

/// The states a claim's resize may be in (`allocatedResourceStatuses`).
const RESIZE_STATUSES: [&str; 5] = [
    "ControllerResizeInProgress",
    "ControllerResizeInfeasible",
    "NodeResizeInProgress",
    "NodeResizeInfeasible",
    "NodeResizePending",
];

/// `validatePersistentVolumeClaimResourceKey`: a qualified name, and of the native ones only
/// `storage`.
fn claim_resource_key(key: &str, path: &Path, errs: &mut ErrorList) -> bool {
    let before = errs.len();
    for message in names::is_qualified_name(key) {
        errs.push(field::invalid(path, key, &message));
    }
    if errs.len() == before && is_native(key) && key != "storage" {
        errs.push(field::not_supported(path, key, &["storage"]));
    }
    errs.len() == before
}

/// `validateBasicResource`: a quantity whose value is not below zero.
fn basic_resource(amount: &Value, path: &Path, errs: &mut ErrorList) -> bool {
    let Some(q) = amount.as_str().and_then(|t| Quantity::parse(t).ok()) else {
        return true;
    };
    if !q.is_negative() {
        return true;
    }
    let value = q
        .scaled_up(0)
        .and_then(|v| i64::try_from(v).ok())
        .unwrap_or(i64::MIN);
    errs.push(field::invalid(
        path,
        value,
        "must be a valid resource quantity",
    ));
    false
}

/// `ValidatePersistentVolumeClaimStatusUpdate`, with `RecoverVolumeExpansionFailure` (GA in
/// v1.34) on. Go walks the maps in random order; here they go in key order.
pub(super) fn claim_status_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update_of(new, old);
    needs_resource_version(new, &mut errs);
    let spec = new.get("spec").unwrap_or(&Value::Null);
    if read::list(spec, "accessModes").is_empty() {
        errs.push(field::required(&Path::names(&["Spec", "accessModes"]), ""));
    }
    let status = status_of(new);
    let capacity = Path::names(&["status", "capacity"]);
    for (name, amount) in read::object_or_empty(status, "capacity") {
        basic_resource(amount, &capacity.key(name), &mut errs);
    }
    let resize = Path::names(&["status", "allocatedResourceStatuses"]);
    let known: HashSet<&str> = RESIZE_STATUSES.into_iter().collect();
    for (key, state) in read::object_or_empty(status, "allocatedResourceStatuses") {
        claim_resource_key(key, &resize, &mut errs);
        if !known.contains(state.as_str().unwrap_or("")) {
            errs.push(field::not_supported(
                &resize,
                key.as_str(),
                &RESIZE_STATUSES,
            ));
        }
    }
    let allocated = Path::names(&["status", "allocatedResources"]);
    for (name, amount) in read::object_or_empty(status, "allocatedResources") {
        if !claim_resource_key(name, &allocated, &mut errs) {
            continue;
        }
        let at = allocated.key(name);
        if basic_resource(amount, &at, &mut errs) {
            validate_quantity_value("storage", amount.as_str().unwrap_or("0"), &at, &mut errs);
        }
    }
    errs
}
