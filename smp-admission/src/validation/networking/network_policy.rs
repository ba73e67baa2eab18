//! NetworkPolicy (`ValidateNetworkPolicy`, `ValidateNetworkPolicyUpdate` and the strategy that
//! runs both on update, so a spec error of an update is reported twice).

use std::collections::HashSet;

use serde_json::Value;

use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::ip::parse_cidr_sloppy;
use crate::validation::meta::{
    LabelSelectorOptions, validate_label_selector, validate_object_meta,
    validate_object_meta_update,
};
use crate::validation::names;
use crate::validation::read;

const CIDR_MESSAGE: &str = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

/// What the spec checks are given (`NetworkPolicyValidationOptions`).
struct Options<'a> {
    selectors: LabelSelectorOptions,
    /// CIDR values of the old object, accepted again without being checked.
    allowed_cidrs: HashSet<&'a str>,
}

pub(super) fn network_policy(np: &Value) -> ErrorList {
    let options = Options {
        selectors: LabelSelectorOptions::default(),
        allowed_cidrs: HashSet::new(),
    };
    validate(np, &options)
}

/// The strategy's update: the create validation with options taken from the old object,
/// then `ValidateNetworkPolicyUpdate` (metadata update and the spec again, this time
/// accepting the old object's CIDR values).
pub(super) fn network_policy_update(new: &Value, old: &Value) -> ErrorList {
    let mut options = Options {
        selectors: options_from_old(old),
        allowed_cidrs: HashSet::new(),
    };
    let mut errs = validate(new, &options);
    options.allowed_cidrs = old_cidrs(old);
    errs.extend(validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    ));
    errs.extend(validate_spec(spec_of(new), &options));
    errs
}

/// `ValidationOptionsForNetworking`: invalid label values are let through when the old
/// podSelector (and only it) already failed the strict check.
fn options_from_old(old: &Value) -> LabelSelectorOptions {
    let mut probe = ErrorList::new();
    validate_label_selector(
        spec_of(old).get("podSelector"),
        LabelSelectorOptions::default(),
        &Path::new("spec"),
        &mut probe,
    );
    LabelSelectorOptions {
        allow_invalid_label_value: !probe.is_empty(),
    }
}

/// Every `ipBlock.cidr` and `ipBlock.except` value of the old ingress and egress peers.
fn old_cidrs(old: &Value) -> HashSet<&str> {
    let spec = spec_of(old);
    let mut cidrs = HashSet::new();
    let peers = read::list(spec, "ingress")
        .iter()
        .flat_map(|rule| read::list(rule, "from"))
        .chain(
            read::list(spec, "egress")
                .iter()
                .flat_map(|rule| read::list(rule, "to")),
        );
    for peer in peers {
        if let Some(block) = peer.get("ipBlock").filter(|b| b.is_object()) {
            cidrs.insert(read::text(block, "cidr"));
            cidrs.extend(read::strings(block, "except"));
        }
    }
    cidrs
}

fn spec_of(np: &Value) -> &Value {
    np.get("spec").unwrap_or(&Value::Null)
}

fn validate(np: &Value, options: &Options) -> ErrorList {
    let mut errs = validate_object_meta(
        np.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    errs.extend(validate_spec(spec_of(np), options));
    errs
}

/// `ValidateNetworkPolicySpec`.
fn validate_spec(spec: &Value, options: &Options) -> ErrorList {
    let mut errs = ErrorList::new();
    let path = Path::new("spec");
    validate_label_selector(
        spec.get("podSelector"),
        options.selectors,
        &path.child("podSelector"),
        &mut errs,
    );
    for (direction, peers_key) in [("ingress", "from"), ("egress", "to")] {
        let rules_path = path.child(direction);
        for (i, rule) in read::list(spec, direction).iter().enumerate() {
            let rule_path = rules_path.index(i);
            let ports_path = rule_path.child("ports");
            for (j, port) in read::list(rule, "ports").iter().enumerate() {
                validate_port(port, &ports_path.index(j), &mut errs);
            }
            let peers_path = rule_path.child(peers_key);
            for (j, peer) in read::list(rule, peers_key).iter().enumerate() {
                validate_peer(peer, options, &peers_path.index(j), &mut errs);
            }
        }
    }
    let types_path = path.child("policyTypes");
    let types = read::list(spec, "policyTypes");
    if types.len() > 2 {
        errs.push(field::invalid(
            &types_path,
            BadValue::Json(Value::Array(types.to_vec())),
            "may not specify more than two policyTypes",
        ));
        return errs;
    }
    for (i, t) in types.iter().enumerate() {
        let t = t.as_str().unwrap_or("");
        if t != "Ingress" && t != "Egress" {
            errs.push(field::not_supported(
                &types_path.index(i),
                t,
                &["Ingress", "Egress"],
            ));
        }
    }
    errs
}

/// `ValidateNetworkPolicyPort`.
fn validate_port(port: &Value, path: &Path, errs: &mut ErrorList) {
    if let Some(protocol) = read::opt_text(port, "protocol")
        && !matches!(protocol, "TCP" | "UDP" | "SCTP")
    {
        errs.push(field::not_supported(
            &path.child("protocol"),
            protocol,
            &["TCP", "UDP", "SCTP"],
        ));
    }
    let end_port = read::opt_int(port, "endPort");
    let end_path = path.child("endPort");
    let port_path = path.child("port");
    match port.get("port") {
        Some(Value::Number(n)) => {
            let number = n.as_i64().unwrap_or(0);
            for msg in names::is_valid_port_num(number) {
                errs.push(field::invalid(&port_path, number, &msg));
            }
            if let Some(end) = end_port {
                if end < number {
                    // v1.34 reports the port, not the endPort, as the bad value.
                    errs.push(field::invalid(
                        &end_path,
                        number,
                        "must be greater than or equal to `port`",
                    ));
                }
                for msg in names::is_valid_port_num(end) {
                    errs.push(field::invalid(&end_path, end, &msg));
                }
            }
        }
        Some(Value::String(name)) => {
            if let Some(end) = end_port {
                errs.push(field::invalid(
                    &end_path,
                    end,
                    "may not be specified when `port` is non-numeric",
                ));
            }
            for msg in names::is_valid_port_name(name) {
                errs.push(field::invalid(&port_path, name.as_str(), &msg));
            }
        }
        _ => {
            if let Some(end) = end_port {
                errs.push(field::invalid(
                    &end_path,
                    end,
                    "may not be specified when `port` is not specified",
                ));
            }
        }
    }
}

/// `ValidateNetworkPolicyPeer`: at least one of the three, and an ipBlock alone.
fn validate_peer(peer: &Value, options: &Options, path: &Path, errs: &mut ErrorList) {
    let mut count = 0;
    for key in ["podSelector", "namespaceSelector"] {
        if read::is_set(peer, key) {
            count += 1;
            validate_label_selector(peer.get(key), options.selectors, &path.child(key), errs);
        }
    }
    let block = peer.get("ipBlock").filter(|b| !b.is_null());
    if let Some(block) = block {
        count += 1;
        validate_ip_block(block, options, &path.child("ipBlock"), errs);
    }
    if count == 0 {
        errs.push(field::required(path, "must specify a peer"));
    } else if count > 1 && block.is_some() {
        errs.push(field::forbidden(
            path,
            "may not specify both ipBlock and another peer",
        ));
    }
}

/// `IsValidCIDRForLegacyField` with strict validation off (its v1.34 default): only a value
/// that does not parse is refused, and not even that when the old object had it.
fn legacy_cidr(value: &str, options: &Options, path: &Path, errs: &mut ErrorList) {
    if options.allowed_cidrs.contains(&value) {
        return;
    }
    if parse_cidr_sloppy(value).is_none() {
        errs.push(field::invalid(path, value, CIDR_MESSAGE));
    }
}

/// `ValidateIPBlock`.
fn validate_ip_block(block: &Value, options: &Options, path: &Path, errs: &mut ErrorList) {
    let cidr_text = read::text(block, "cidr");
    let cidr_path = path.child("cidr");
    if cidr_text.is_empty() {
        errs.push(field::required(&cidr_path, ""));
        return;
    }
    legacy_cidr(cidr_text, options, &cidr_path, errs);
    let Some(cidr) = parse_cidr_sloppy(cidr_text) else {
        return;
    };
    let except_path = path.child("except");
    for (i, except_text) in read::list(block, "except").iter().enumerate() {
        let except_text = except_text.as_str().unwrap_or("");
        let at = except_path.index(i);
        legacy_cidr(except_text, options, &at, errs);
        let Some(except) = parse_cidr_sloppy(except_text) else {
            continue;
        };
        if !cidr.contains(&except.ip) || cidr.ones >= except.ones {
            errs.push(field::invalid(
                &at,
                except_text,
                "must be a strict subset of `cidr`",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn policy(spec: Value) -> Value {
        json!({"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
               "metadata": {"name": "np", "namespace": "default", "resourceVersion": "1"},
               "spec": spec})
    }

    #[test]
    fn end_port_below_port_reports_the_port() {
        let np = policy(json!({"ingress": [{"ports": [{"port": 80, "endPort": 70}]}]}));
        let errs = network_policy(&np);
        assert_eq!(errs.len(), 1);
        assert_eq!(
            errs[0].to_string(),
            "spec.ingress[0].ports[0].endPort: Invalid value: 80: must be greater than or equal to `port`"
        );
    }

    #[test]
    fn too_many_policy_types_print_the_list() {
        let np = policy(json!({"policyTypes": ["Ingress", "Egress", "Ingress"]}));
        assert_eq!(
            network_policy(&np)[0].to_string(),
            "spec.policyTypes: Invalid value: [\"Ingress\",\"Egress\",\"Ingress\"]: may not specify more than two policyTypes"
        );
    }

    #[test]
    fn updates_report_spec_errors_twice_but_grandfather_old_cidrs_once() {
        let old = policy(
            json!({"egress": [{"to": [{"ipBlock": {"cidr": "bad", "except": ["worse"]}}]}]}),
        );
        let new = old.clone();
        let errs = network_policy_update(&new, &old);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "spec.egress[0].to[0].ipBlock.cidr");
        let mut changed = old.clone();
        changed["spec"]["egress"][0]["to"][0]["ipBlock"]["cidr"] = json!("10.0.0.0/8");
        let errs = network_policy_update(&changed, &old);
        // `worse` is checked in the first pass only; `10.0.0.0/8` parses.
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "spec.egress[0].to[0].ipBlock.except[0]");
    }

    #[test]
    fn wrong_json_types_do_not_panic() {
        let np = policy(
            json!({"ingress": "x", "egress": [{"ports": [{"port": true}], "to": [7]}],
                               "podSelector": 3, "policyTypes": [1]}),
        );
        let errs = network_policy(&np);
        assert!(errs.iter().any(|e| e.field == "spec.egress[0].to[0]"));
    }
}
