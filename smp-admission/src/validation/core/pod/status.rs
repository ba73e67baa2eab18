//! `ValidatePodStatusUpdate`: what a write to `pods/status` (the kubelet's, the scheduler's, or
//! a test's) may not do. The spec is the old one by then (the status strategy puts it back), so
//! the checks are of the metadata, the conditions, the addresses, and the containers' states:
//! a container that ended for good (its pod's restart policy does not restart it) stays ended.
//!
//! v1.34's gates shape it: `ContainerRestartRules` and `ClearingNominatedNodeNameAfterBinding`
//! are off, so the restart policy alone decides, and a bound pod may still be nominated.
//! `extendedResourceClaimStatus` (`DRAExtendedResource`, off) is dropped by the strategy
//! unless the old pod had it, and not checked here. The containers' `allocatedResourcesStatus`
//! (`ResourceHealthStatus`, off) is always dropped by the strategy, so its checks below only
//! matter to a caller that validates without it.

use std::collections::{HashMap, HashSet};

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
    // How many of the new entries of each name are not terminated: the server reports the
    // old entry once for each of them (the kubelet never sends two, but a client may).
    let mut not_terminated: HashMap<&str, usize> = HashMap::new();
    for entry in read::list(status, list) {
        if !entry
            .get("state")
            .is_some_and(|st| read::is_set(st, "terminated"))
        {
            *not_terminated.entry(read::text(entry, "name")).or_default() += 1;
        }
    }
    if not_terminated.is_empty() {
        return;
    }
    for (i, old) in read::list(old_status, list).iter().enumerate() {
        let Some(state) = old.get("state").filter(|st| read::is_set(st, "terminated")) else {
            continue;
        };
        let name = read::text(old, "name");
        let count = not_terminated.get(name).copied().unwrap_or(0);
        if count > 0 && ended(name, state) {
            for _ in 0..count {
                errs.push(field::forbidden(
                    &path.child(list).index(i).child("state"),
                    STAYS_TERMINATED,
                ));
            }
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
    // `IsDualStackIPStrings` (k8s.io/utils of v1.34) names the first address that does not
    // parse, by its index and text.
    let unparsed = parsed.iter().position(Option::is_none);
    let dual = if let Some(i) = unparsed {
        let text = new.get(i).copied().unwrap_or("");
        errs.push(field::internal(
            &path,
            &format!("failed to check for dual stack with error:invalid IP[{i}]: {text}"),
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The status strategy drops `allocatedResourcesStatus` in v1.34, so the data cases never
    /// reach these checks; the cases of upstream's
    /// `TestValidateContainerStatusAllocatedResourcesStatus` and
    /// `TestValidateContainerStatusNoAllocatedResourcesStatus` run here on the rules alone.
    fn errors(containers: Value, statuses: Value) -> Vec<(String, String)> {
        let pod = |status: Value| {
            json!({"apiVersion": "v1", "kind": "Pod",
                   "metadata": {"name": "p", "namespace": "ns", "resourceVersion": "1"},
                   "spec": {"containers": containers, "restartPolicy": "Always"},
                   "status": status})
        };
        pod_status_update(
            &pod(json!({"containerStatuses": statuses})),
            &pod(json!({})),
        )
        .into_iter()
        .map(|e| (e.field, e.detail))
        .collect()
    }

    fn device(name: &str, health: &str) -> Value {
        json!({"resourceID": name, "health": health})
    }

    #[test]
    fn allocated_resources_status_of_containers() {
        let requests = json!([{"name": "container-1",
            "resources": {"requests": {"test.device/test": "1"}}}]);
        let healthy = json!([{"name": "container-1", "allocatedResourcesStatus": [
            {"name": "test.device/test", "resources": [device("resource-1", "Healthy")]}]}]);
        assert!(errors(requests.clone(), healthy.clone()).is_empty());
        // A status of a container the spec lacks is let be, and so is one without devices.
        let other = json!([{"name": "container-2",
            "resources": {"requests": {"test.device/test": "1"}}}]);
        assert!(errors(other.clone(), healthy).is_empty());
        assert!(errors(other.clone(), json!([{"name": "container-1"}])).is_empty());
        let twice = json!([{"name": "container-1", "allocatedResourcesStatus": [
            {"name": "test.device/test", "resources": [
                device("resource-1", "Healthy"), device("resource-1", "Unhealthy")]}]}]);
        let at = "status.containerStatuses[0].allocatedResourcesStatus";
        assert_eq!(
            errors(other, twice),
            [(format!("{at}[0].resources[1].resourceID"), String::new())]
        );
        let unknown = json!([{"name": "container-1", "allocatedResourcesStatus": [
            {"name": "test.device/test", "resources": [device("resource-1", "Healthy")]},
            {"name": "test.device/test2", "resources": []}]}]);
        assert_eq!(
            errors(requests.clone(), unknown),
            [(
                format!("{at}[1].name"),
                "must match one of the container's resource requests".to_owned()
            )]
        );
        let sick = json!([{"name": "container-1", "allocatedResourcesStatus": [
            {"name": "test.device/test", "resources": [device("resource-1", "invalid-health-value")]}]}]);
        assert_eq!(
            errors(requests, sick),
            [(
                format!("{at}[0].resources[0].health"),
                "supported values: \"Healthy\", \"Unhealthy\", \"Unknown\"".to_owned()
            )]
        );
    }

    #[test]
    fn allocated_resources_status_of_claims() {
        let claimed = |claim: Value| json!([{"name": "container-1", "resources": claim}]);
        let status = |name: &str| {
            json!([{"name": "container-1", "allocatedResourcesStatus": [
                {"name": name, "resources": [device("driver/pool/device-name", "Healthy")]}]}])
        };
        let with_request =
            claimed(json!({"claims": [{"name": "claim.name", "request": "request.name"}]}));
        assert!(errors(with_request, status("claim:claim.name/request.name")).is_empty());
        let bare = claimed(json!({"claims": [{"name": "claim.name"}]}));
        assert!(errors(bare, status("claim:claim.name")).is_empty());
        let other = claimed(json!({"claims": [{"name": "other-claim.name"}],
                                   "requests": {"claim.name": "1"}}));
        assert_eq!(
            errors(other, status("claim:claim.name")),
            [(
                "status.containerStatuses[0].allocatedResourcesStatus[0].name".to_owned(),
                "must match one of the container's resource claims in a format 'claim:<claimName>/<request>' or 'claim:<claimName>' if request is empty".to_owned()
            )]
        );
    }

    #[test]
    fn ephemeral_containers_report_no_allocated_resources() {
        let pod = |status: Value| {
            json!({"apiVersion": "v1", "kind": "Pod",
                   "metadata": {"name": "p", "namespace": "ns", "resourceVersion": "1"},
                   "spec": {"containers": [{"name": "c"}]}, "status": status})
        };
        let new = pod(json!({"ephemeralContainerStatuses": [
            {"name": "container-1"},
            {"name": "container-2", "allocatedResourcesStatus": [{"name": "test.device/test"}]},
            {"name": "container-3", "allocatedResourcesStatus": [{"name": "test.device/test",
                "resources": [device("resource-1", "Healthy")]}]}]}));
        let found: Vec<_> = pod_status_update(&new, &pod(json!({})))
            .into_iter()
            .map(|e| (e.field, e.detail))
            .collect();
        let detail = "must not be specified in container status".to_owned();
        assert_eq!(
            found,
            [
                (
                    "status.ephemeralContainerStatuses[1].allocatedResourcesStatus".to_owned(),
                    detail.clone()
                ),
                (
                    "status.ephemeralContainerStatuses[2].allocatedResourcesStatus".to_owned(),
                    detail
                ),
            ]
        );
    }
}
