//! Service (`ValidateServiceCreate`, `ValidateServiceUpdate` and the shared `validateService`):
//! ports, selector, session affinity, addresses, external IPs, type-specific fields and the
//! traffic policies, in the order the server checks them. The checks run on the object as
//! given: the server allocates cluster IPs, node ports and the health-check port before it
//! validates, so a created Service normally arrives here with them filled in.

use std::collections::{BTreeSet, HashSet};

use serde_json::{Value, json};

use super::service_ips::{self, Addresses};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::ip::{validate_endpoint_ip, validate_legacy_cidr, validate_legacy_ip};
use crate::validation::meta::{validate_labels, validate_object_meta, validate_object_meta_update};
use crate::validation::names;
use crate::validation::read;

const SOURCE_RANGES_ANNOTATION: &str = "service.beta.kubernetes.io/load-balancer-source-ranges";
const TOPOLOGY_MODE: &str = "service.kubernetes.io/topology-mode";
const TOPOLOGY_HINTS: &str = "service.kubernetes.io/topology-aware-hints";
const ONLY_LOAD_BALANCER: &str = "may only be used when `type` is 'LoadBalancer'";
const PROTOCOLS: &[&str] = &["SCTP", "TCP", "UDP"];
const MAX_AFFINITY_SECONDS: i64 = 86400;

pub(super) fn service(svc: &Value) -> ErrorList {
    let mut errs = validate_object_meta(
        svc.get("metadata"),
        true,
        names::name_is_dns1035_label,
        &Path::new("metadata"),
    );
    validate_service(svc, None, &mut errs);
    errs
}

pub(super) fn service_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    let (new_spec, old_spec) = (spec_of(new), spec_of(old));
    let (n, o) = (Addresses::of(new_spec), Addresses::of(old_spec));
    service_ips::validate_cluster_ips_change(&n, &o, &mut errs);
    service_ips::validate_families_change(&n, &o, &mut errs);
    validate_load_balancer_class(new_spec, Some(old_spec), &mut errs);
    if needs_health_check(new_spec)
        && needs_health_check(old_spec)
        && read::int(new_spec, "healthCheckNodePort") != read::int(old_spec, "healthCheckNodePort")
    {
        errs.push(field::forbidden(
            &Path::names(&["spec", "healthCheckNodePort"]),
            "field is immutable",
        ));
    }
    validate_service(new, Some(old), &mut errs);
    errs
}

fn spec_of(svc: &Value) -> &Value {
    svc.get("spec").unwrap_or(&Value::Null)
}

/// `ExternallyAccessible`: LoadBalancer, NodePort, or ClusterIP with external IPs.
fn externally_accessible(spec: &Value) -> bool {
    match read::text(spec, "type") {
        "LoadBalancer" | "NodePort" => true,
        "ClusterIP" => !read::list(spec, "externalIPs").is_empty(),
        _ => false,
    }
}

/// `NeedsHealthCheck`: a LoadBalancer that keeps external traffic on the local node.
fn needs_health_check(spec: &Value) -> bool {
    read::text(spec, "type") == "LoadBalancer"
        && read::text(spec, "externalTrafficPolicy") == "Local"
}

/// `validateService`.
fn validate_service(svc: &Value, old: Option<&Value>, errs: &mut ErrorList) {
    let spec = spec_of(svc);
    let old_spec = old.map(spec_of);
    let addresses = Addresses::of(spec);
    validate_topology_annotations(svc, errs);
    let spec_path = Path::new("spec");
    let ports = read::list(spec, "ports");
    let kind = addresses.kind;
    if ports.is_empty() && !addresses.headless() && kind != "ExternalName" {
        errs.push(field::required(&spec_path.child("ports"), ""));
    }
    validate_type_specifics(spec, &addresses, errs);
    let ports_path = spec_path.child("ports");
    let mut names = HashSet::new();
    for (i, port) in ports.iter().enumerate() {
        validate_port(
            port,
            ports.len() > 1,
            &mut names,
            &ports_path.index(i),
            errs,
        );
    }
    validate_labels(spec.get("selector"), &spec_path.child("selector"), errs);
    validate_session_affinity(spec, errs);
    let old_addresses = old_spec.map(Addresses::of);
    service_ips::validate_related_fields(&addresses, old_addresses.as_ref(), errs);
    validate_external_ips(spec, old_spec, errs);
    match kind {
        "" => errs.push(field::required(&spec_path.child("type"), "")),
        "ClusterIP" | "NodePort" | "LoadBalancer" | "ExternalName" => {}
        other => errs.push(field::not_supported(
            &spec_path.child("type"),
            other,
            &["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"],
        )),
    }
    validate_port_uniqueness(spec, ports, errs);
    validate_source_ranges(svc, old, errs);
    let lb = kind == "LoadBalancer";
    match (read::opt_bool(spec, "allocateLoadBalancerNodePorts"), lb) {
        (Some(_), false) => errs.push(field::forbidden(
            &spec_path.child("allocateLoadBalancerNodePorts"),
            ONLY_LOAD_BALANCER,
        )),
        // Upstream reports this one without the `spec.` prefix.
        (None, true) => errs.push(field::required(
            &Path::new("allocateLoadBalancerNodePorts"),
            "",
        )),
        _ => {}
    }
    validate_load_balancer_class(spec, None, errs);
    validate_traffic_policies(spec, errs);
}

fn validate_topology_annotations(svc: &Value, errs: &mut ErrorList) {
    let annotations = svc
        .pointer("/metadata/annotations")
        .and_then(Value::as_object);
    let get = |k: &str| {
        annotations
            .and_then(|a| a.get(k))
            .map(|v| v.as_str().unwrap_or(""))
    };
    if let (Some(mode), Some(hints)) = (get(TOPOLOGY_MODE), get(TOPOLOGY_HINTS))
        && mode != hints
    {
        let path = Path::names(&["metadata", "annotations"]);
        errs.push(field::invalid(
            &path.key(TOPOLOGY_MODE),
            mode,
            &format!("must match annotations[{TOPOLOGY_HINTS}] when both are specified"),
        ));
    }
}

fn validate_type_specifics(spec: &Value, addresses: &Addresses, errs: &mut ErrorList) {
    let spec_path = Path::new("spec");
    let first_ip = spec_path.child("clusterIPs");
    let first_ip = first_ip.index(0);
    match addresses.kind {
        "LoadBalancer" | "NodePort" if addresses.headless() => {
            errs.push(field::invalid(
                &first_ip,
                "None",
                &format!("may not be set to 'None' for {} services", addresses.kind),
            ));
        }
        "ExternalName" => {
            let not_here = "may not be set for ExternalName services";
            if !addresses.cluster_ips.is_empty() {
                errs.push(field::forbidden(&spec_path.child("clusterIPs"), not_here));
            }
            if !addresses.families.is_empty() {
                errs.push(field::forbidden(&spec_path.child("ipFamilies"), not_here));
            }
            if addresses.policy.is_some() {
                errs.push(field::forbidden(
                    &spec_path.child("ipFamilyPolicy"),
                    not_here,
                ));
            }
            let path = spec_path.child("externalName");
            let name = read::text(spec, "externalName");
            let name = name.strip_suffix('.').unwrap_or(name);
            if name.is_empty() {
                errs.push(field::required(&path, ""));
            } else {
                for msg in names::is_dns1123_subdomain(name) {
                    errs.push(field::invalid(&path, name, &msg));
                }
            }
        }
        _ => {}
    }
}

/// `validateServicePort`.
fn validate_port<'a>(
    port: &'a Value,
    require_name: bool,
    seen: &mut HashSet<&'a str>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let name = read::text(port, "name");
    let name_path = path.child("name");
    if require_name && name.is_empty() {
        errs.push(field::required(&name_path, ""));
    } else if !name.is_empty() {
        for msg in names::is_dns1123_label(name) {
            errs.push(field::invalid(&name_path, name, &msg));
        }
        if !seen.insert(name) {
            errs.push(field::duplicate(&name_path, name));
        }
    }
    let number = read::int(port, "port");
    for msg in names::is_valid_port_num(number) {
        errs.push(field::invalid(&path.child("port"), number, &msg));
    }
    validate_protocol(port, path, errs);
    validate_port_num_or_name(port.get("targetPort"), &path.child("targetPort"), errs);
    if let Some(app) = read::opt_text(port, "appProtocol") {
        for msg in names::is_qualified_name(app) {
            errs.push(field::invalid(&path.child("appProtocol"), app, &msg));
        }
    }
}

/// A port's `protocol`: required, one of TCP, UDP, SCTP (Service and Endpoints ports).
pub(super) fn validate_protocol(port: &Value, path: &Path, errs: &mut ErrorList) {
    let protocol = read::text(port, "protocol");
    let at = path.child("protocol");
    if protocol.is_empty() {
        errs.push(field::required(&at, ""));
    } else if !PROTOCOLS.contains(&protocol) {
        errs.push(field::not_supported(&at, protocol, PROTOCOLS));
    }
}

/// `ValidatePortNumOrName`: an absent value is the integer 0.
fn validate_port_num_or_name(value: Option<&Value>, path: &Path, errs: &mut ErrorList) {
    match value {
        Some(Value::String(name)) => {
            for msg in names::is_valid_port_name(name) {
                errs.push(field::invalid(path, name.as_str(), &msg));
            }
        }
        other => {
            let number = other.and_then(Value::as_i64).unwrap_or(0);
            for msg in names::is_valid_port_num(number) {
                errs.push(field::invalid(path, number, &msg));
            }
        }
    }
}

fn validate_session_affinity(spec: &Value, errs: &mut ErrorList) {
    let spec_path = Path::new("spec");
    let affinity = read::text(spec, "sessionAffinity");
    let path = spec_path.child("sessionAffinity");
    match affinity {
        "" => errs.push(field::required(&path, "")),
        "ClientIP" | "None" => {}
        other => errs.push(field::not_supported(&path, other, &["ClientIP", "None"])),
    }
    let config_path = spec_path.child("sessionAffinityConfig");
    let config = spec.get("sessionAffinityConfig").filter(|c| !c.is_null());
    if affinity == "ClientIP" {
        let why = "when session affinity type is ClientIP";
        let Some(config) = config else {
            errs.push(field::required(&config_path, why));
            return;
        };
        let client_path = config_path.child("clientIP");
        let Some(client) = config.get("clientIP").filter(|c| !c.is_null()) else {
            errs.push(field::required(&client_path, why));
            return;
        };
        let timeout_path = client_path.child("timeoutSeconds");
        let Some(timeout) = read::opt_int(client, "timeoutSeconds") else {
            errs.push(field::required(&timeout_path, why));
            return;
        };
        if timeout <= 0 || timeout > MAX_AFFINITY_SECONDS {
            errs.push(field::invalid(
                &timeout_path,
                timeout,
                &format!("must be greater than 0 and less than {MAX_AFFINITY_SECONDS}"),
            ));
        }
    } else if affinity == "None" && config.is_some() {
        errs.push(field::forbidden(
            &config_path,
            "must not be set when session affinity is None",
        ));
    }
}

fn validate_external_ips(spec: &Value, old_spec: Option<&Value>, errs: &mut ErrorList) {
    let existing: Vec<&str> = old_spec
        .map(|o| read::strings(o, "externalIPs").collect())
        .unwrap_or_default();
    let path = Path::names(&["spec", "externalIPs"]);
    for (i, ip) in read::list(spec, "externalIPs").iter().enumerate() {
        let ip = ip.as_str().unwrap_or("");
        let at = path.index(i);
        let before = errs.len();
        validate_legacy_ip(&at, ip, &existing, errs);
        if errs.len() == before {
            validate_endpoint_ip(&at, ip, errs);
        }
    }
}

/// Node ports only where they mean something, and no (protocol, port) or (protocol, node
/// port) twice.
fn validate_port_uniqueness(spec: &Value, ports: &[Value], errs: &mut ErrorList) {
    let ports_path = Path::names(&["spec", "ports"]);
    if read::text(spec, "type") == "ClusterIP" {
        for (i, port) in ports.iter().enumerate() {
            if read::int(port, "nodePort") != 0 {
                let at = ports_path.index(i);
                errs.push(field::forbidden(
                    &at.child("nodePort"),
                    "may not be used when `type` is 'ClusterIP'",
                ));
            }
        }
    }
    let mut node_ports = BTreeSet::new();
    for (i, port) in ports.iter().enumerate() {
        let node_port = read::int(port, "nodePort");
        if node_port != 0 && !node_ports.insert((read::text(port, "protocol"), node_port)) {
            let at = ports_path.index(i);
            errs.push(field::duplicate(&at.child("nodePort"), node_port));
        }
    }
    let mut numbers = BTreeSet::new();
    for (i, port) in ports.iter().enumerate() {
        let protocol = read::text(port, "protocol");
        let number = read::int(port, "port");
        if !numbers.insert((protocol, number)) {
            // Go prints the internal ServicePort holding only the protocol and port.
            let value = json!({"Name": "", "Protocol": protocol, "AppProtocol": null,
                "Port": number, "TargetPort": 0, "NodePort": 0});
            errs.push(field::duplicate(
                &ports_path.index(i),
                BadValue::Json(value),
            ));
        }
    }
}

/// `loadBalancerSourceRanges` (path spelled `LoadBalancerSourceRanges` upstream), or else the
/// older annotation; only for LoadBalancers, and each entry a CIDR (space padding allowed).
fn validate_source_ranges(svc: &Value, old: Option<&Value>, errs: &mut ErrorList) {
    let spec = spec_of(svc);
    let lb = read::text(spec, "type") == "LoadBalancer";
    let ranges = read::list(spec, "loadBalancerSourceRanges");
    if !ranges.is_empty() {
        let path = Path::names(&["spec", "LoadBalancerSourceRanges"]);
        if !lb {
            errs.push(field::forbidden(&path, ONLY_LOAD_BALANCER));
        }
        let existing: Vec<&str> = old
            .map(|o| {
                read::strings(spec_of(o), "loadBalancerSourceRanges")
                    .map(str::trim)
                    .collect()
            })
            .unwrap_or_default();
        for (i, range) in ranges.iter().enumerate() {
            let range = range.as_str().unwrap_or("").trim();
            validate_legacy_cidr(&path.index(i), range, &existing, errs);
        }
        return;
    }
    let annotation = |o: &Value| {
        o.pointer("/metadata/annotations")
            .and_then(|a| a.get(SOURCE_RANGES_ANNOTATION))
            .map(|v| v.as_str().unwrap_or("").to_owned())
    };
    let Some(value) = annotation(svc) else {
        return;
    };
    let path = Path::names(&["metadata", "annotations"]);
    let path = path.key(SOURCE_RANGES_ANNOTATION);
    if !lb {
        errs.push(field::forbidden(&path, ONLY_LOAD_BALANCER));
    }
    let unchanged = old.is_some_and(|o| annotation(o).unwrap_or_default() == value);
    let value = value.trim();
    if !unchanged && !value.is_empty() {
        for cidr in value.split(',') {
            validate_legacy_cidr(&path, cidr.trim(), &[], errs);
        }
    }
}

/// `validateLoadBalancerClassField`: fixed once set on a LoadBalancer, a qualified name, and
/// only on LoadBalancers.
fn validate_load_balancer_class(spec: &Value, old_spec: Option<&Value>, errs: &mut ErrorList) {
    let path = Path::names(&["spec", "loadBalancerClass"]);
    let class = read::opt_text(spec, "loadBalancerClass");
    let lb = |s: &Value| read::text(s, "type") == "LoadBalancer";
    if let Some(old_spec) = old_spec
        && lb(old_spec)
        && lb(spec)
        && read::opt_text(old_spec, "loadBalancerClass") != class
    {
        let value = class.map_or(BadValue::Json(Value::Null), BadValue::from);
        errs.push(field::invalid(&path, value, "may not change once set"));
    }
    match (class, lb(spec)) {
        (Some(class), true) => {
            for msg in names::is_qualified_name(class) {
                errs.push(field::invalid(&path, class, &msg));
            }
        }
        (Some(_), false) => errs.push(field::forbidden(&path, ONLY_LOAD_BALANCER)),
        (None, _) => {}
    }
}

/// External traffic policy and health-check port, internal traffic policy, traffic
/// distribution.
fn validate_traffic_policies(spec: &Value, errs: &mut ErrorList) {
    let spec_path = Path::new("spec");
    let policy_path = spec_path.child("externalTrafficPolicy");
    let external = read::text(spec, "externalTrafficPolicy");
    if !externally_accessible(spec) {
        if !external.is_empty() {
            errs.push(field::invalid(
                &policy_path,
                external,
                "may only be set for externally-accessible services",
            ));
        }
    } else if external.is_empty() {
        errs.push(field::required(&policy_path, ""));
    } else if !matches!(external, "Cluster" | "Local") {
        errs.push(field::not_supported(
            &policy_path,
            external,
            &["Cluster", "Local"],
        ));
    }
    let hc_path = spec_path.child("healthCheckNodePort");
    let hc = read::int(spec, "healthCheckNodePort");
    if !needs_health_check(spec) {
        if hc != 0 {
            errs.push(field::invalid(
                &hc_path,
                hc,
                "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
            ));
        }
    } else if hc == 0 {
        errs.push(field::required(&hc_path, ""));
    } else {
        for msg in names::is_valid_port_num(hc) {
            errs.push(field::invalid(&hc_path, hc, &msg));
        }
    }
    let internal_path = spec_path.child("internalTrafficPolicy");
    match read::opt_text(spec, "internalTrafficPolicy") {
        None if matches!(
            read::text(spec, "type"),
            "NodePort" | "LoadBalancer" | "ClusterIP"
        ) =>
        {
            errs.push(field::required(&internal_path, ""));
        }
        Some(p) if !matches!(p, "Cluster" | "Local") => {
            errs.push(field::not_supported(
                &internal_path,
                p,
                &["Cluster", "Local"],
            ));
        }
        _ => {}
    }
    // PreferSameTrafficDistribution is on by default in v1.34: three values, in this order.
    if let Some(d) = read::opt_text(spec, "trafficDistribution") {
        let supported = ["PreferClose", "PreferSameZone", "PreferSameNode"];
        if !supported.contains(&d) {
            errs.push(field::not_supported(
                &spec_path.child("trafficDistribution"),
                d,
                &supported,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Value {
        json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s", "namespace": "d"},
            "spec": {"type": "ClusterIP", "sessionAffinity": "None", "internalTrafficPolicy": "Cluster",
                "ports": [{"name": "a", "protocol": "TCP", "port": 80, "targetPort": 80}]}})
    }

    #[test]
    fn a_defaulted_service_is_valid() {
        assert!(service(&base()).is_empty());
    }

    #[test]
    fn duplicate_ports_print_the_go_struct() {
        let mut svc = base();
        svc["spec"]["ports"] = json!([{"name": "a", "protocol": "TCP", "port": 80, "targetPort": 80},
            {"name": "b", "protocol": "TCP", "port": 80, "targetPort": 81}]);
        let errs = service(&svc);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "spec.ports[1]");
        assert!(errs[0].body().starts_with("Duplicate value: {"));
    }

    #[test]
    fn a_load_balancer_needs_its_allocated_health_check_port() {
        let mut svc = base();
        svc["spec"]["type"] = json!("LoadBalancer");
        svc["spec"]["externalTrafficPolicy"] = json!("Local");
        svc["spec"]["allocateLoadBalancerNodePorts"] = json!(true);
        let errs = service(&svc);
        assert_eq!(errs.len(), 1);
        assert_eq!(
            errs[0].to_string(),
            "spec.healthCheckNodePort: Required value"
        );
        svc["spec"]["healthCheckNodePort"] = json!(30000);
        assert!(service(&svc).is_empty());
    }

    #[test]
    fn ports_without_values_read_as_zero() {
        let mut svc = base();
        svc["spec"]["ports"] = json!([{"name": "a", "protocol": "TCP"}]);
        let fields: Vec<String> = service(&svc).iter().map(|e| e.field.clone()).collect();
        assert_eq!(
            fields,
            vec!["spec.ports[0].port", "spec.ports[0].targetPort"]
        );
    }

    #[test]
    fn garbage_does_not_panic() {
        for v in [
            json!(null),
            json!({}),
            json!({"spec": []}),
            json!({"spec": {"ports": [1, "x", null]}}),
        ] {
            let _ = service(&v);
            let _ = service_update(&v, &v);
        }
    }
}
