//! `ValidatePodStatusUpdate`: what a write to `pods/status` (the kubelet's, the scheduler's, or
//! a test's) may not do. The spec is the old one by then (the status strategy puts it back), so
//! the checks are of the metadata, the conditions, the addresses, and the containers' states:
//! a container that ended for good (its pod's restart policy does not restart it) stays ended.
//!
//! v1.34's gates shape it: `ContainerRestartRules` and `ClearingNominatedNodeNameAfterBinding`
//! are off, so the restart policy alone decides, and a bound pod may still be nominated.
//! `extendedResourceClaimStatus` (`DRAExtendedResource`, off) is dropped by the strategy
//! unless the old pod had it, and not checked here.

use std::collections::HashSet;

use serde_json::Value;

use super::PodOptions;
use super::annotations;
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::ip::{parse_ip_sloppy, validate_legacy_ip};
use crate::validation::meta::{IMMUTABLE, validate_label_name, validate_object_meta_update};
use crate::validation::names;
use crate::validation::read;

/// The conditions whose types the system owns; any other type must be a qualified name.
const SYSTEM_CONDITIONS: [&str; 3] = ["PodScheduled", "Ready", "Initialized"];

const NON_NEGATIVE: &str = "must be a non-negative integer";

const STAYS_TERMINATED: &str = "may not be transitioned to non-terminated state";

/// The health values a device of a container's allocated resources may report.
const HEALTH_VALUES: [&str; 3] = ["Healthy", "Unhealthy", "Unknown"];

/// `ValidatePodStatusUpdate` for `new` (as the status strategy leaves it) over `old`.
pub(crate) fn pod_status_update(new: &Value, old: &Value) -> ErrorList {
    let meta_path = Path::new("metadata");
    let mut errs =
        validate_object_meta_update(new.get("metadata"), old.get("metadata"), &meta_path);
    let null = Value::Null;
    let (spec, old_spec) = (
        new.get("spec").unwrap_or(&null),
        old.get("spec").unwrap_or(&null),
    );
    let options = PodOptions::for_pod(old.get("spec"), old.get("metadata"));
    annotations::validate_annotation_updates(
        new.get("metadata").and_then(|m| m.get("annotations")),
        old.get("metadata").and_then(|m| m.get("annotations")),
        spec,
        &meta_path.child("annotations"),
        &options,
        &mut errs,
    );

    let (status, old_status) = (
        new.get("status").unwrap_or(&null),
        old.get("status").unwrap_or(&null),
    );
    let path = Path::new("status");
    conditions(status, &path.child("conditions"), &mut errs);
    if read::text(spec, "nodeName") != read::text(old_spec, "nodeName") {
        errs.push(field::forbidden(
            &path.child("nodeName"),
            "may not be changed directly",
        ));
    }
    let nominated = read::text(status, "nominatedNodeName");
    if !nominated.is_empty() && nominated != read::text(old_status, "nominatedNodeName") {
        for message in names::name_is_dns_subdomain(nominated, false) {
            errs.push(field::invalid(
                &path.child("nominatedNodeName"),
                nominated,
                &message,
            ));
        }
    }
    let generation = read::int(status, "observedGeneration");
    if generation < 0 {
        errs.push(field::invalid(
            &path.child("observedGeneration"),
            generation,
            NON_NEGATIVE,
        ));
    }
    let qos = read::text(status, "qosClass");
    if qos != read::text(old_status, "qosClass") {
        errs.push(field::invalid(&path.child("qosClass"), qos, IMMUTABLE));
    }

    let restart_policy = read::text(old_spec, "restartPolicy");
    let always = restart_policy == "Always";
    let on_failure = restart_policy == "OnFailure";
    // A container ended with exit code 0 under OnFailure, or any under Never, is done.
    let done = |state: &Value| {
        let code = state
            .get("terminated")
            .map_or(0, |t| read::int(t, "exitCode"));
        !(on_failure && code != 0)
    };
    if !always {
        stay_terminated(
            status,
            old_status,
            "containerStatuses",
            &path,
            |_, state| done(state),
            &mut errs,
        );
        let restartable: HashSet<&str> = read::list(old_spec, "initContainers")
            .iter()
            .filter(|c| read::text(c, "restartPolicy") == "Always")
            .map(|c| read::text(c, "name"))
            .collect();
        stay_terminated(
            status,
            old_status,
            "initContainerStatuses",
            &path,
            |name, state| done(state) && !restartable.contains(name),
            &mut errs,
        );
    }
    stay_terminated(
        status,
        old_status,
        "ephemeralContainerStatuses",
        &path,
        |_, _| true,
        &mut errs,
    );
    claim_statuses(
        status,
        spec,
        &path.child("resourceClaimStatuses"),
        &mut errs,
    );
    pod_ips(status, old_status, &path, &mut errs);
    host_ips(status, old_status, &path, &mut errs);

    let windows = spec
        .get("os")
        .is_some_and(|os| read::text(os, "name") == "windows");
    for list in [
        "containerStatuses",
        "initContainerStatuses",
        "ephemeralContainerStatuses",
    ] {
        users(status, list, windows, &path.child(list), &mut errs);
    }
    for (list, containers) in [
        ("containerStatuses", "containers"),
        ("initContainerStatuses", "initContainers"),
    ] {
        allocated_resources_status(
            status,
            list,
            read::list(spec, containers),
            &path.child(list),
            &mut errs,
        );
    }
    for (i, s) in read::list(status, "ephemeralContainerStatuses")
        .iter()
        .enumerate()
    {
        if !read::list(s, "allocatedResourcesStatus").is_empty() {
            errs.push(field::forbidden(
                &path
                    .child("ephemeralContainerStatuses")
                    .index(i)
                    .child("allocatedResourcesStatus"),
                "must not be specified in container status",
            ));
        }
    }
    errs
}

/// `validatePodConditions`: generations not negative, and custom types qualified names (at
/// `Type`, capitalised as the Go field is).
fn conditions(status: &Value, path: &Path, errs: &mut ErrorList) {
    for (i, condition) in read::list(status, "conditions").iter().enumerate() {
        let generation = read::int(condition, "observedGeneration");
        if generation < 0 {
            errs.push(field::invalid(
                &path.index(i).child("observedGeneration"),
                generation,
                NON_NEGATIVE,
            ));
        }
        let kind = read::text(condition, "type");
        if !SYSTEM_CONDITIONS.contains(&kind) {
            validate_label_name(kind, &path.index(i).child("Type"), errs);
        }
    }
}

/// A container the old status shows terminated, and `ended(name, state)` says may not run
/// again, must not be shown otherwise now. The error names the old status's index, as the
/// server's does.
fn stay_terminated(
    status: &Value,
    old_status: &Value,
    list: &str,
    path: &Path,
    ended: impl Fn(&str, &Value) -> bool,
    errs: &mut ErrorList,
) {
    let not_terminated: HashSet<&str> = read::list(status, list)
        .iter()
        .filter(|s| {
            !s.get("state")
                .is_some_and(|st| read::is_set(st, "terminated"))
        })
        .map(|s| read::text(s, "name"))
        .collect();
    if not_terminated.is_empty() {
        return;
    }
    for (i, old) in read::list(old_status, list).iter().enumerate() {
        let Some(state) = old.get("state").filter(|st| read::is_set(st, "terminated")) else {
            continue;
        };
        let name = read::text(old, "name");
        if ended(name, state) && not_terminated.contains(name) {
            errs.push(field::forbidden(
                &path.child(list).index(i).child("state"),
                STAYS_TERMINATED,
            ));
        }
    }
}

/// `validatePodResourceClaimStatuses`: each names one of the spec's claims, once, and the
/// claim it was given a valid name.
fn claim_statuses(status: &Value, spec: &Value, path: &Path, errs: &mut ErrorList) {
    let claims: HashSet<&str> = read::list(spec, "resourceClaims")
        .iter()
        .map(|c| read::text(c, "name"))
        .collect();
    let mut seen = HashSet::new();
    for (i, entry) in read::list(status, "resourceClaimStatuses")
        .iter()
        .enumerate()
    {
        let name = read::text(entry, "name");
        let entry_path = path.index(i);
        let at = entry_path.child("name");
        if !claims.contains(name) {
            errs.push(field::invalid(
                &at,
                name,
                "must match the name of an entry in `spec.resourceClaims`",
            ));
        }
        if !seen.insert(name) {
            errs.push(field::duplicate(&at, name));
        }
        if let Some(claim) = read::opt_text(entry, "resourceClaimName") {
            for message in names::name_is_dns_subdomain(claim, false) {
                errs.push(field::invalid(&at, claim, &message));
            }
        }
    }
}

/// The `ip` of each entry of `list`.
fn ips<'a>(status: &'a Value, list: &str) -> Vec<&'a str> {
    read::list(status, list)
        .iter()
        .map(|e| read::text(e, "ip"))
        .collect()
}

/// New addresses parse (old ones may stay as they were), and more than one is a pair of one
/// IPv4 and one IPv6 address.
fn addresses(status: &Value, old_status: &Value, list: &str, path: &Path, errs: &mut ErrorList) {
    let old = ips(old_status, list);
    let new = ips(status, list);
    let path = path.child(list);
    for (i, ip) in new.iter().enumerate() {
        validate_legacy_ip(&path.index(i), ip, &old, errs);
    }
    if new.len() < 2 {
        return;
    }
    let parsed: Vec<_> = new.iter().map(|ip| parse_ip_sloppy(ip)).collect();
    let dual = if parsed.iter().any(Option::is_none) {
        errs.push(field::internal(
            &path,
            "failed to check for dual stack with error:ip <nil> is invalid",
        ));
        false
    } else {
        let v6 = parsed.iter().flatten().filter(|ip| ip.is_v6()).count();
        v6 > 0 && v6 < parsed.len()
    };
    if !dual || new.len() > 2 {
        let value = status.get(list).unwrap_or(&Value::Null);
        errs.push(field::invalid(
            &path,
            value,
            "may specify no more than one IP for each IP family",
        ));
    }
}

/// `validatePodIPs`.
fn pod_ips(status: &Value, old_status: &Value, path: &Path, errs: &mut ErrorList) {
    addresses(status, old_status, "podIPs", path, errs);
}

/// `validateHostIPs`: the first is `hostIP`, then as the pod's addresses.
fn host_ips(status: &Value, old_status: &Value, path: &Path, errs: &mut ErrorList) {
    let host_ips = read::list(status, "hostIPs");
    let Some(first) = host_ips.first() else {
        return;
    };
    let first_ip = read::text(first, "ip");
    if read::text(status, "hostIP") != first_ip {
        errs.push(field::invalid(
            &path.child("hostIPs").index(0).child("ip"),
            first_ip,
            "must be equal to `hostIP`",
        ));
    }
    addresses(status, old_status, "hostIPs", path, errs);
}

/// `validateContainerStatusUsers`: a Windows pod reports no Linux identity; a Linux one's ids
/// are in range.
fn users(status: &Value, list: &str, windows: bool, path: &Path, errs: &mut ErrorList) {
    for (i, entry) in read::list(status, list).iter().enumerate() {
        let Some(linux) = entry.get("user").and_then(|u| u.get("linux")) else {
            continue;
        };
        if linux.is_null() {
            continue;
        }
        let entry_path = path.index(i);
        let user = entry_path.child("user");
        let at = user.child("linux");
        if windows {
            errs.push(field::forbidden(&at, "cannot be set for a windows pod"));
            continue;
        }
        for key in ["uid", "gid"] {
            let id = read::int(linux, key);
            for message in names::is_valid_user_id(id) {
                errs.push(field::invalid(&at.child(key), id, &message));
            }
        }
        for (g, gid) in read::list(linux, "supplementalGroups").iter().enumerate() {
            let id = gid.as_i64().unwrap_or(0);
            for message in names::is_valid_user_id(id) {
                errs.push(field::invalid(
                    &at.child("supplementalGroups").index(g),
                    id,
                    &message,
                ));
            }
        }
    }
}

/// `validateContainerStatusAllocatedResourcesStatus`: each entry names a request or claim of
/// its container (a status of a container the spec lacks is let be), with known health values
/// and distinct device ids.
fn allocated_resources_status(
    status: &Value,
    list: &str,
    containers: &[Value],
    path: &Path,
    errs: &mut ErrorList,
) {
    for (i, entry) in read::list(status, list).iter().enumerate() {
        let allocated = read::list(entry, "allocatedResourcesStatus");
        if allocated.is_empty() {
            continue;
        }
        let entry_path = path.index(i);
        let list_path = entry_path.child("allocatedResourcesStatus");
        let name = read::text(entry, "name");
        let container = containers.iter().find(|c| read::text(c, "name") == name);
        let resources = container.and_then(|c| c.get("resources"));
        let claims: HashSet<String> = resources
            .map(|r| read::list(r, "claims"))
            .unwrap_or_default()
            .iter()
            .map(|c| match read::text(c, "request") {
                "" => format!("claim:{}", read::text(c, "name")),
                request => format!("claim:{}/{request}", read::text(c, "name")),
            })
            .collect();
        let requests = resources
            .and_then(|r| read::object(r, "requests"))
            .cloned()
            .unwrap_or_default();
        for (j, resource) in allocated.iter().enumerate() {
            let at = list_path.index(j);
            let resource_name = read::text(resource, "name");
            if container.is_some() {
                let (found, detail) = if resource_name.starts_with("claim:") {
                    (
                        claims.contains(resource_name),
                        "must match one of the container's resource claims in a format 'claim:<claimName>/<request>' or 'claim:<claimName>' if request is empty",
                    )
                } else {
                    (
                        requests.contains_key(resource_name),
                        "must match one of the container's resource requests",
                    )
                };
                if !found {
                    errs.push(field::invalid(&at.child("name"), resource_name, detail));
                }
            }
            let devices = at.child("resources");
            let mut ids = HashSet::new();
            for (k, device) in read::list(resource, "resources").iter().enumerate() {
                let device_at = devices.index(k);
                let health = read::text(device, "health");
                if !HEALTH_VALUES.contains(&health) {
                    errs.push(field::not_supported(
                        &device_at.child("health"),
                        health,
                        &HEALTH_VALUES,
                    ));
                }
                let id = read::text(device, "resourceID");
                if !ids.insert(id) {
                    errs.push(field::duplicate(&device_at.child("resourceID"), id));
                }
            }
        }
    }
}
