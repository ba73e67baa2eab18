//! The `discovery.k8s.io` group: EndpointSlice (`ValidateEndpointSliceCreate`,
//! `ValidateEndpointSliceUpdate` of v1.34, as the registry strategy calls them).
//!
//! The strategy of a v1 request drops every endpoint's `deprecatedTopology` (the field is
//! read-only in v1): always on create, and on update unless the endpoints are unchanged
//! (then the stored topology stays, and is validated again). When it drops the topology of an
//! endpoint without a `nodeName`, it first moves the `kubernetes.io/hostname` label there if
//! the old slice named that node in its own topology and the name is valid: a name that
//! passes the `nodeName` check by construction, so nothing of that move shows here. The
//! `PreferSameTrafficDistribution` gate (node hints) is on in v1.34, so nothing else is
//! dropped.
//!
//! `ValidateEndpointSliceUpdate` has no metadata update check of its own: the server's
//! generic update step (`validateCommonFields` of `rest.BeforeUpdate`) runs one before the
//! strategy's checks, so the update here starts with it, as the server's answer does.
//!
//! A v1 port's name and protocol are pointers that defaulting fills (`""`, `TCP`): an absent
//! one reads here as its default.

use serde_json::Value;

use super::field::{self, ErrorList, Path};
use super::ip::{parse_ip_sloppy, validate_endpoint_ip, validate_legacy_ip};
use super::kind_rules::KindRules;
use super::meta::validate_object_meta_update;
use super::meta::{validate_immutable, validate_labels, validate_object_meta};
use super::names;
use super::read::{self, view};
use super::seen::Seen;

/// The discovery kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[KindRules {
    group: "discovery.k8s.io",
    kind: "EndpointSlice",
    namespaced: true,
    create: endpoint_slice,
    update: endpoint_slice_update,
}];

/// The address types a slice may have, sorted as the server lists them.
const ADDRESS_TYPES: [&str; 3] = ["FQDN", "IPv4", "IPv6"];
/// The port protocols, sorted as the server lists them.
const PROTOCOLS: [&str; 3] = ["SCTP", "TCP", "UDP"];

const MAX_ENDPOINTS: usize = 1000;
const MAX_ADDRESSES: usize = 100;
const MAX_PORTS: usize = 20000;
const MAX_TOPOLOGY_LABELS: usize = 16;
const MAX_ZONE_HINTS: usize = 8;
const MAX_NODE_HINTS: usize = 8;

/// The label v1 moved into `zone`: conversion removes it from the topology, so finding it
/// there means the conversion failed.
const ZONE_LABEL: &str = "topology.kubernetes.io/zone";

view! {
    /// An endpoint of a slice.
    struct Endpoint {
        addresses: "addresses",
        hostname: "hostname",
        node_name: "nodeName",
        topology: "deprecatedTopology",
        hints: "hints",
    }
}

view! {
    /// A port of a slice.
    struct Port { name: "name", protocol: "protocol", app_protocol: "appProtocol" }
}

fn endpoint_slice(obj: &Value) -> ErrorList {
    validate(obj, false)
}

fn endpoint_slice_update(new: &Value, old: &Value) -> ErrorList {
    // The strategy keeps the topology only when the endpoints are unchanged.
    let topology_kept = read::semantic_eq(new.get("endpoints"), old.get("endpoints"));
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    errs.extend(validate(new, topology_kept));
    validate_immutable(
        new.get("addressType"),
        old.get("addressType"),
        &Path::new("addressType"),
        &mut errs,
    );
    errs
}

/// `ValidateEndpointSlice`, on the slice as the strategy left it.
fn validate(obj: &Value, topology_kept: bool) -> ErrorList {
    let mut errs = validate_object_meta(
        obj.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let address_type = read::text(obj, "addressType");
    let type_path = Path::new("addressType");
    if address_type.is_empty() {
        errs.push(field::required(&type_path, ""));
    } else if !ADDRESS_TYPES.contains(&address_type) {
        errs.push(field::not_supported(
            &type_path,
            address_type,
            &ADDRESS_TYPES,
        ));
    }
    validate_endpoints(
        read::list(obj, "endpoints"),
        address_type,
        topology_kept,
        &mut errs,
    );
    validate_ports(read::list(obj, "ports"), &mut errs);
    errs
}

fn validate_endpoints(
    endpoints: &[Value],
    address_type: &str,
    topology_kept: bool,
    errs: &mut ErrorList,
) {
    let path = Path::new("endpoints");
    if endpoints.len() > MAX_ENDPOINTS {
        errs.push(too_many(&path, endpoints.len(), MAX_ENDPOINTS));
        return;
    }
    for (i, value) in endpoints.iter().enumerate() {
        let at = path.index(i);
        let endpoint = Endpoint::of(value);
        let addresses_path = at.child("addresses");
        let addresses = endpoint.addresses.list();
        if addresses.is_empty() {
            errs.push(field::required(
                &addresses_path,
                "must contain at least 1 address",
            ));
        } else if addresses.len() > MAX_ADDRESSES {
            errs.push(too_many(&addresses_path, addresses.len(), MAX_ADDRESSES));
        }
        for (j, address) in addresses.iter().enumerate() {
            let address = address.as_str().unwrap_or("");
            validate_address(address, address_type, &addresses_path.index(j), errs);
        }
        if let Some(node_name) = endpoint.node_name.opt_text() {
            let node_path = at.child("nodeName");
            for msg in names::name_is_dns_subdomain(node_name, false) {
                errs.push(field::invalid(&node_path, node_name, &msg));
            }
        }
        if topology_kept {
            validate_topology(endpoint.topology.value(), &at, errs);
        }
        if let Some(hostname) = endpoint.hostname.opt_text() {
            let hostname_path = at.child("hostname");
            for msg in names::is_dns1123_label(hostname) {
                errs.push(field::invalid(&hostname_path, hostname, &msg));
            }
        }
        if let Some(hints) = endpoint.hints.set_object() {
            validate_hints(hints, &at.child("hints"), errs);
        }
    }
}

/// The address checks of the slice's type; an unknown type (already refused) checks none.
fn validate_address(address: &str, address_type: &str, path: &Path, errs: &mut ErrorList) {
    let want_v6 = match address_type {
        "IPv4" => false,
        "IPv6" => true,
        "FQDN" => {
            validate_fqdn(address, path, errs);
            return;
        }
        _ => return,
    };
    let before = errs.len();
    validate_legacy_ip(path, address, &[], errs);
    if errs.len() > before {
        return;
    }
    // Parsed just above; a failure here cannot happen but must not panic either.
    let Some(ip) = parse_ip_sloppy(address) else {
        return;
    };
    if ip.is_v6() != want_v6 {
        let family = if want_v6 { "IPv6" } else { "IPv4" };
        errs.push(field::invalid(
            path,
            address,
            &format!("must be an {family} address"),
        ));
    }
    validate_endpoint_ip(path, address, errs);
}

/// `IsFullyQualifiedDomainName`: a subdomain (a trailing dot allowed) of two labels or more.
/// Its first failure alone is reported, with the name (or the label) that failed.
fn validate_fqdn(address: &str, path: &Path, errs: &mut ErrorList) {
    if address.is_empty() {
        errs.push(field::required(path, ""));
        return;
    }
    let name = address.strip_suffix('.').unwrap_or(address);
    let subdomain = names::is_dns1123_subdomain(name);
    if !subdomain.is_empty() {
        errs.push(field::invalid(path, name, &subdomain.join(",")));
        return;
    }
    if !name.contains('.') {
        errs.push(field::invalid(
            path,
            name,
            "should be a domain with at least two segments separated by dots",
        ));
        return;
    }
    for label in name.split('.') {
        let label_errs = names::is_dns1123_label(label);
        if !label_errs.is_empty() {
            errs.push(field::invalid(path, label, &label_errs.join(",")));
            return;
        }
    }
}

/// The checks of a topology the strategy kept: the label count and format, and the zone
/// label that v1 conversion should have taken out.
fn validate_topology(topology: Option<&Value>, at: &Path, errs: &mut ErrorList) {
    let path = at.child("deprecatedTopology");
    let Some(labels) = topology.and_then(Value::as_object) else {
        return;
    };
    if labels.len() > MAX_TOPOLOGY_LABELS {
        errs.push(too_many(&path, labels.len(), MAX_TOPOLOGY_LABELS));
    }
    validate_labels(topology, &path, errs);
    if labels.contains_key(ZONE_LABEL) {
        errs.push(field::internal(
            &path.key(ZONE_LABEL),
            "reserved key was not removed in conversion",
        ));
    }
}

/// `validateHints`: zone hints (at most 8, distinct label values), then node hints (at most
/// 8, distinct node names). Too many of either stops the checks there.
fn validate_hints(hints: &Value, path: &Path, errs: &mut ErrorList) {
    let zones_path = path.child("forZones");
    let zones = read::list(hints, "forZones");
    if zones.len() > MAX_ZONE_HINTS {
        errs.push(too_many(&zones_path, zones.len(), MAX_ZONE_HINTS));
        return;
    }
    let mut seen = Seen::new();
    for (i, zone) in zones.iter().enumerate() {
        let name = read::text(zone, "name");
        let at = zones_path.index(i);
        let name_path = at.child("name");
        if !seen.insert(name) {
            errs.push(field::duplicate(&name_path, name));
        }
        for msg in names::is_valid_label_value(name) {
            errs.push(field::invalid(&name_path, name, &msg));
        }
    }
    let nodes_path = path.child("forNodes");
    let nodes = read::list(hints, "forNodes");
    if nodes.len() > MAX_NODE_HINTS {
        errs.push(too_many(&nodes_path, nodes.len(), MAX_NODE_HINTS));
        return;
    }
    let mut seen = Seen::new();
    for (i, node) in nodes.iter().enumerate() {
        let name = read::text(node, "name");
        let at = nodes_path.index(i);
        let name_path = at.child("name");
        if !seen.insert(name) {
            errs.push(field::duplicate(&name_path, name));
        }
        for msg in names::name_is_dns_subdomain(name, false) {
            errs.push(field::invalid(&name_path, name, &msg));
        }
    }
}

fn validate_ports(ports: &[Value], errs: &mut ErrorList) {
    let path = Path::new("ports");
    if ports.len() > MAX_PORTS {
        errs.push(too_many(&path, ports.len(), MAX_PORTS));
        return;
    }
    let mut seen = Seen::new();
    for (i, value) in ports.iter().enumerate() {
        let at = path.index(i);
        let port = Port::of(value);
        let name = port.name.text();
        let name_path = at.child("name");
        if !name.is_empty() {
            for msg in names::is_dns1123_label(name) {
                errs.push(field::invalid(&name_path, name, &msg));
            }
        }
        if !seen.insert(name) {
            errs.push(field::duplicate(&name_path, name));
        }
        let protocol = port.protocol.opt_text().unwrap_or("TCP");
        if !PROTOCOLS.contains(&protocol) {
            errs.push(field::not_supported(
                &at.child("protocol"),
                protocol,
                &PROTOCOLS,
            ));
        }
        if let Some(app_protocol) = port.app_protocol.opt_text() {
            let app_path = at.child("appProtocol");
            for msg in names::is_qualified_name(app_protocol) {
                errs.push(field::invalid(&app_path, app_protocol, &msg));
            }
        }
    }
}

fn too_many(path: &Path, actual: usize, max: usize) -> field::FieldError {
    let as_i64 = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    field::too_many(path, as_i64(actual), as_i64(max))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn slice(address_type: &str, addresses: Value) -> Value {
        json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
            "metadata": {"name": "s", "namespace": "d", "resourceVersion": "1"},
            "addressType": address_type,
            "endpoints": [{"addresses": addresses}],
            "ports": [{"name": "http", "protocol": "TCP"}]})
    }

    fn texts(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn addresses_are_checked_for_the_slice_family() {
        let errs = endpoint_slice(&slice("IPv4", json!(["123.456.789.012", "::1"])));
        assert_eq!(
            texts(&errs),
            [
                "endpoints[0].addresses[0]: Invalid value: \"123.456.789.012\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
                "endpoints[0].addresses[1]: Invalid value: \"::1\": must be an IPv4 address",
                "endpoints[0].addresses[1]: Invalid value: \"::1\": may not be in the loopback range (127.0.0.0/8, ::1/128)",
            ]
        );
        let errs = endpoint_slice(&slice(
            "FQDN",
            json!(["foo.example.com.", "FOO.example.com"]),
        ));
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "endpoints[0].addresses[1]");
    }

    #[test]
    fn topology_is_kept_only_when_the_endpoints_are_unchanged() {
        let mut old = slice("IPv4", json!(["10.0.0.1"]));
        old["endpoints"][0]["deprecatedTopology"] =
            json!({"topology.kubernetes.io/zone": "a", "kubernetes.io/hostname": "Node"});
        assert!(endpoint_slice(&old).is_empty());
        let same = old.clone();
        let errs = endpoint_slice_update(&same, &old);
        assert_eq!(
            texts(&errs),
            [
                "endpoints[0].deprecatedTopology[topology.kubernetes.io/zone]: Internal error: reserved key was not removed in conversion"
            ]
        );
        let mut changed = old.clone();
        changed["endpoints"][0]["addresses"] = json!(["10.0.0.2"]);
        assert!(endpoint_slice_update(&changed, &old).is_empty());
    }

    /// `max-ports` of TestValidateEndpointSlice, here rather than in the data file, where
    /// twenty thousand ports would take a third of a megabyte.
    #[test]
    fn twenty_thousand_ports_are_the_limit() {
        let ports: Vec<Value> = (0..20_000)
            .map(|i| json!({"name": format!("http-{i}"), "protocol": "TCP"}))
            .collect();
        let mut obj = slice("IPv4", json!(["10.0.0.1"]));
        obj["ports"] = Value::from(ports);
        assert!(endpoint_slice(&obj).is_empty());
    }

    #[test]
    fn odd_members_do_not_panic() {
        let odd = json!({"metadata": 3, "addressType": 4, "endpoints": [7, {"addresses": [1]}],
            "ports": [null, {"name": 5}], "hints": "x"});
        assert!(!endpoint_slice(&odd).is_empty());
        assert!(!endpoint_slice_update(&odd, &json!([])).is_empty());
    }
}
