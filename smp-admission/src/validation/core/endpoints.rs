//! Endpoints (`ValidateEndpointsCreate`, `ValidateEndpointsUpdate`): each subset has addresses,
//! each address a usable IP, each port a number and protocol. On update, subsets that did not
//! change are not judged again (older servers accepted them).

use serde_json::Value;

use super::service::validate_protocol;
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::ip::{validate_endpoint_ip, validate_legacy_ip};
use crate::validation::meta::{validate_object_meta, validate_object_meta_update};
use crate::validation::names;
use crate::validation::read;

pub(super) fn endpoints(ep: &Value) -> ErrorList {
    validate_endpoints(ep, None)
}

pub(super) fn endpoints_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    errs.extend(validate_endpoints(new, Some(old)));
    errs
}

/// `ValidateEndpoints`.
fn validate_endpoints(ep: &Value, old: Option<&Value>) -> ErrorList {
    let mut errs = validate_object_meta(
        ep.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let mut subset_errs = ErrorList::new();
    let path = Path::new("subsets");
    for (i, subset) in read::list(ep, "subsets").iter().enumerate() {
        validate_subset(subset, &path.index(i), &mut subset_errs);
    }
    let unchanged = old.is_some_and(|o| read::semantic_eq(o.get("subsets"), ep.get("subsets")));
    if !unchanged {
        errs.extend(subset_errs);
    }
    errs
}

fn validate_subset(subset: &Value, path: &Path, errs: &mut ErrorList) {
    let addresses = read::list(subset, "addresses");
    let not_ready = read::list(subset, "notReadyAddresses");
    if addresses.is_empty() && not_ready.is_empty() {
        errs.push(field::required(
            path,
            "must specify `addresses` or `notReadyAddresses`",
        ));
    }
    for (member, list) in [("addresses", addresses), ("notReadyAddresses", not_ready)] {
        let list_path = path.child(member);
        for (j, address) in list.iter().enumerate() {
            validate_address(address, &list_path.index(j), errs);
        }
    }
    let ports = read::list(subset, "ports");
    let ports_path = path.child("ports");
    for (k, port) in ports.iter().enumerate() {
        validate_port(port, ports.len() > 1, &ports_path.index(k), errs);
    }
}

fn validate_address(address: &Value, path: &Path, errs: &mut ErrorList) {
    let ip = read::text(address, "ip");
    let ip_path = path.child("ip");
    validate_legacy_ip(&ip_path, ip, &[], errs);
    let hostname = read::text(address, "hostname");
    if !hostname.is_empty() {
        for msg in names::is_dns1123_label(hostname) {
            errs.push(field::invalid(&path.child("hostname"), hostname, &msg));
        }
    }
    if let Some(node) = read::opt_text(address, "nodeName") {
        for msg in names::name_is_dns_subdomain(node, false) {
            errs.push(field::invalid(&path.child("nodeName"), node, &msg));
        }
    }
    validate_endpoint_ip(&ip_path, ip, errs);
}

/// `validateEndpointPort`: names are not checked for uniqueness here.
fn validate_port(port: &Value, require_name: bool, path: &Path, errs: &mut ErrorList) {
    let name = read::text(port, "name");
    if require_name && name.is_empty() {
        errs.push(field::required(&path.child("name"), ""));
    } else if !name.is_empty() {
        for msg in names::is_dns1123_label(name) {
            errs.push(field::invalid(&path.child("name"), name, &msg));
        }
    }
    let number = read::int(port, "port");
    for msg in names::is_valid_port_num(number) {
        errs.push(field::invalid(&path.child("port"), number, &msg));
    }
    validate_protocol(port, path, errs);
    if let Some(app) = read::opt_text(port, "appProtocol") {
        for msg in names::is_qualified_name(app) {
            errs.push(field::invalid(&path.child("appProtocol"), app, &msg));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_unparsable_ip_is_reported_twice() {
        let ep = json!({"metadata": {"name": "e", "namespace": "d"},
            "subsets": [{"addresses": [{"ip": "nope"}]}]});
        let errs: Vec<String> = endpoints(&ep).iter().map(|e| e.detail.clone()).collect();
        assert_eq!(
            errs,
            vec![
                "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
                "must be a valid IP address"
            ]
        );
    }
}
