//! Services, Endpoints and NetworkPolicies (`pkg/api/service/warnings.go`, the Endpoints and
//! NetworkPolicy strategies): addresses in forms a stricter parser refuses, fields a
//! Service's type ignores, and the deprecated topology-hints annotation.

use serde_json::Value;

use super::ip::{cidr_warnings, ip_warnings};
use super::sink::Sink;
use crate::validation::field::Path;
use crate::validation::read;

/// A Service (`GetWarningsForService`), on create and update alike.
pub(super) fn service(obj: &Value, out: &mut Sink) {
    let annotations = obj.get("metadata").and_then(|m| m.get("annotations"));
    if annotations
        .and_then(|a| a.get("service.kubernetes.io/topology-aware-hints"))
        .is_some()
    {
        out.push("annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead".to_owned());
    }
    let spec = obj.get("spec").unwrap_or(&Value::Null);
    let cluster_ip = read::text(spec, "clusterIP");
    let kind = read::text(spec, "type");
    if !cluster_ip.is_empty() && cluster_ip != "None" {
        let list = Path::names(&["spec", "clusterIPs"]);
        for (i, ip) in read::list(spec, "clusterIPs").iter().enumerate() {
            ip_warnings(&list.index(i), ip.as_str().unwrap_or(""), out);
        }
    }
    let external_ips = read::list(spec, "externalIPs");
    let load_balancer_ip = read::text(spec, "loadBalancerIP");
    if kind == "ClusterIP" && cluster_ip == "None" {
        if !load_balancer_ip.is_empty() {
            out.push("spec.loadBalancerIP is ignored for headless services".to_owned());
        }
        if !external_ips.is_empty() {
            out.push("spec.externalIPs is ignored for headless services".to_owned());
        }
        // Defaulting sets it, so every headless Service draws this one.
        if !read::text(spec, "sessionAffinity").is_empty() {
            out.push("spec.SessionAffinity is ignored for headless services".to_owned());
        }
    }
    let list = Path::names(&["spec", "externalIPs"]);
    for (i, ip) in external_ips.iter().enumerate() {
        ip_warnings(&list.index(i), ip.as_str().unwrap_or(""), out);
    }
    if !load_balancer_ip.is_empty() {
        ip_warnings(
            &Path::names(&["spec", "loadBalancerIP"]),
            load_balancer_ip,
            out,
        );
    }
    let list = Path::names(&["spec", "loadBalancerSourceRanges"]);
    for (i, cidr) in read::list(spec, "loadBalancerSourceRanges")
        .iter()
        .enumerate()
    {
        cidr_warnings(&list.index(i), cidr.as_str().unwrap_or(""), out);
    }
    if kind == "ExternalName" && !external_ips.is_empty() {
        out.push("spec.externalIPs is ignored when spec.type is \"ExternalName\"".to_owned());
    }
    if kind != "ExternalName" && !read::text(spec, "externalName").is_empty() {
        out.push("spec.externalName is ignored when spec.type is not \"ExternalName\"".to_owned());
    }
}

/// The warning every request to v1 Endpoints draws since the API was deprecated in v1.33.
pub(super) const ENDPOINTS_DEPRECATED: &str =
    "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice";

/// An Endpoints object's addresses; skipped for those the endpoints controller writes.
pub(super) fn endpoints(obj: &Value, out: &mut Sink) {
    let managed_by = obj
        .get("metadata")
        .and_then(|m| m.get("labels"))
        .and_then(|l| l.get("endpoints.kubernetes.io/managed-by"))
        .and_then(Value::as_str);
    if managed_by == Some("endpoint-controller") {
        return;
    }
    let subsets = Path::new("subsets");
    for (i, subset) in read::list(obj, "subsets").iter().enumerate() {
        let at = subsets.index(i);
        for list in ["addresses", "notReadyAddresses"] {
            let list_path = at.child(list);
            for (j, address) in read::list(subset, list).iter().enumerate() {
                let address_path = list_path.index(j);
                ip_warnings(&address_path.child("ip"), read::text(address, "ip"), out);
            }
        }
    }
}

/// A NetworkPolicy's `ipBlock` CIDR blocks, ingress peers then egress peers.
pub(super) fn network_policy(obj: &Value, out: &mut Sink) {
    let spec = obj.get("spec").unwrap_or(&Value::Null);
    for (rules, peers) in [("ingress", "from"), ("egress", "to")] {
        let rules_path = Path::names(&["spec"]);
        let rules_path = rules_path.child(rules);
        for (i, rule) in read::list(spec, rules).iter().enumerate() {
            let rule_path = rules_path.index(i);
            let peers_path = rule_path.child(peers);
            for (j, peer) in read::list(rule, peers).iter().enumerate() {
                let Some(block) = peer.get("ipBlock").filter(|b| b.is_object()) else {
                    continue;
                };
                let peer_path = peers_path.index(j);
                let block_path = peer_path.child("ipBlock");
                cidr_warnings(&block_path.child("cidr"), read::text(block, "cidr"), out);
                let except = block_path.child("except");
                for (k, cidr) in read::list(block, "except").iter().enumerate() {
                    cidr_warnings(&except.index(k), cidr.as_str().unwrap_or(""), out);
                }
            }
        }
    }
}

/// An Ingress on create: the class annotation when no `ingressClassName` is set. Updates
/// warn about nothing.
pub(super) fn ingress_create(obj: &Value, out: &mut Sink) {
    let annotated = obj
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get("kubernetes.io/ingress.class"))
        .is_some();
    let named = obj
        .get("spec")
        .is_some_and(|s| read::opt_text(s, "ingressClassName").is_some());
    if annotated && !named {
        out.push(
            "annotation \"kubernetes.io/ingress.class\" is deprecated, please use 'spec.ingressClassName' instead"
                .to_owned(),
        );
    }
}

/// An EndpointSlice: on create the FQDN address type, then (create and update) addresses in
/// non-standard forms, unless one of the endpoint-slice controllers wrote it.
pub(super) fn endpoint_slice(obj: &Value, create: bool, out: &mut Sink) {
    if create && read::text(obj, "addressType") == "FQDN" {
        out.push("spec.addressType: FQDN endpoints are deprecated".to_owned());
    }
    let managed_by = obj
        .get("metadata")
        .and_then(|m| m.get("labels"))
        .and_then(|l| l.get("endpointslice.kubernetes.io/managed-by"))
        .and_then(Value::as_str);
    if matches!(
        managed_by,
        Some("endpointslice-controller.k8s.io" | "endpointslicemirroring-controller.k8s.io")
    ) {
        return;
    }
    let endpoints = Path::new("endpoints");
    for (i, endpoint) in read::list(obj, "endpoints").iter().enumerate() {
        let at = endpoints.index(i);
        let addresses = at.child("addresses");
        for (j, address) in read::list(endpoint, "addresses").iter().enumerate() {
            ip_warnings(&addresses.index(j), address.as_str().unwrap_or(""), out);
        }
    }
}
