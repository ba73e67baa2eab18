//! Node (`ValidateNode`, `ValidateNodeUpdate`) as the node strategy runs them for the main
//! endpoint: the update runs the create rules, then the update's. A Node is created with
//! whatever status it is sent (its strategy keeps it), so the status's quantities are
//! checked; on update the strategy keeps the old status, so `status` here is the old one.
//! The strategy drops `spec.configSource` and `status.config` on create, and a new
//! `spec.configSource` on an update of a node without one, so the config source rules only
//! meet sources kept from before.
//!
//! Some paths are the server's as it spells them, under `metadata` although the fields are
//! the spec's or status's (`metadata.taints`, `metadata.nodeSwapStatus.capacity`).

use std::collections::{BTreeMap, HashSet};

use serde_json::Value;

use super::resources::validate_quantity_value;
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::ip::{parse_cidr_sloppy, validate_legacy_cidr};
use crate::validation::meta::{
    validate_label_name, validate_object_meta, validate_object_meta_update,
};
use crate::validation::names;
use crate::validation::read;

const TAINTS_ANNOTATION: &str = "scheduler.alpha.kubernetes.io/taints";
const AVOID_PODS_ANNOTATION: &str = "scheduler.alpha.kubernetes.io/preferAvoidPods";
const TAINT_EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];
const POD_CIDR_CHANGE: &str = "node updates may not change podCIDR except from \"\" to valid";

fn member<'a>(obj: &'a Value, key: &str) -> &'a Value {
    obj.get(key).unwrap_or(&Value::Null)
}

/// The pod CIDRs as the server holds them after conversion from v1: `podCIDR`, when set
/// and not the first of `podCIDRs`, replaces the list.
fn pod_cidrs(spec: &Value) -> Vec<&str> {
    let single = read::text(spec, "podCIDR");
    let list: Vec<&str> = read::strings(spec, "podCIDRs").collect();
    if !single.is_empty() && list.first() != Some(&single) {
        vec![single]
    } else {
        list
    }
}

pub(super) fn node(node: &Value) -> ErrorList {
    let meta_path = Path::new("metadata");
    let mut errs = validate_object_meta(
        node.get("metadata"),
        false,
        names::name_is_dns_subdomain,
        &meta_path,
    );
    node_annotations(node, &meta_path.child("annotations"), &mut errs);
    let spec = member(node, "spec");
    let taints = read::list(spec, "taints");
    if !taints.is_empty() {
        validate_taints(taints, &meta_path.child("taints"), &mut errs);
    }
    validate_resources(node, &mut errs);
    let swap = member(member(member(node, "status"), "nodeInfo"), "swap");
    if let Some(capacity) = read::opt_int(swap, "capacity")
        && capacity <= 0
    {
        let at = meta_path.child("nodeSwapStatus");
        errs.push(field::invalid(
            &at.child("capacity"),
            capacity,
            "must be greater than zero",
        ));
    }
    validate_pod_cidrs(&pod_cidrs(spec), &mut errs);
    errs
}

pub(super) fn node_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = node(new);
    let meta_path = Path::new("metadata");
    errs.extend(validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &meta_path,
    ));
    node_annotations(new, &meta_path.child("annotations"), &mut errs);
    validate_resources(new, &mut errs);
    let status = member(new, "status");
    let addresses_path = Path::new("status");
    let addresses_path = addresses_path.child("addresses");
    let mut seen = HashSet::new();
    for (i, address) in read::list(status, "addresses").iter().enumerate() {
        let kind = read::text(address, "type");
        let text = read::text(address, "address");
        if !seen.insert((kind, text)) {
            // Go marshals the struct's members in declaration order: type, then address.
            let printed = format!(
                "{{\"type\":{},\"address\":{}}}",
                Value::from(kind),
                Value::from(text)
            );
            errs.push(field::duplicate(
                &addresses_path.index(i),
                BadValue::Printed(printed),
            ));
        }
    }
    let spec = member(new, "spec");
    let old_spec = member(old, "spec");
    let spec_path = Path::new("spec");
    let old_cidrs = pod_cidrs(old_spec);
    if !old_cidrs.is_empty() {
        let new_cidrs = pod_cidrs(spec);
        let cidrs_path = spec_path.child("podCIDRs");
        if old_cidrs.len() != new_cidrs.len() {
            errs.push(field::forbidden(&cidrs_path, POD_CIDR_CHANGE));
        } else {
            for (a, b) in old_cidrs.iter().zip(&new_cidrs) {
                if a != b {
                    errs.push(field::forbidden(&cidrs_path, POD_CIDR_CHANGE));
                }
            }
        }
    }
    let old_provider = read::text(old_spec, "providerID");
    if !old_provider.is_empty() && old_provider != read::text(spec, "providerID") {
        errs.push(field::forbidden(
            &spec_path.child("providerID"),
            "node updates may not change providerID except from \"\" to valid",
        ));
    }
    if let Some(source) = spec.get("configSource").filter(|v| !v.is_null()) {
        validate_config_source(source, &spec_path.child("configSource"), true, &mut errs);
    }
    if let Some(config) = status.get("config").filter(|v| v.is_object()) {
        let config_path = Path::new("status");
        let config_path = config_path.child("config");
        for member in ["assigned", "active", "lastKnownGood"] {
            if let Some(source) = config.get(member).filter(|v| !v.is_null()) {
                validate_config_source(source, &config_path.child(member), false, &mut errs);
            }
        }
    }
    let taints = read::list(spec, "taints");
    if !taints.is_empty() {
        validate_taints(taints, &meta_path.child("taints"), &mut errs);
    }
    if read::text(spec, "externalID") != read::text(old_spec, "externalID") {
        errs.push(field::forbidden(
            &spec_path.child("externalID"),
            "may not be updated",
        ));
    }
    errs
}

/// `ValidateNodeSpecificAnnotations`: the taints and the pods to avoid that the scheduler
/// once read from annotations, when set and not empty.
fn node_annotations(node: &Value, path: &Path, errs: &mut ErrorList) {
    let annotations = node
        .get("metadata")
        .and_then(|m| read::object(m, "annotations"));
    let get = |key: &str| {
        annotations
            .and_then(|a| a.get(key))
            .and_then(Value::as_str)
            .unwrap_or("")
    };
    let taints = get(TAINTS_ANNOTATION);
    if !taints.is_empty() {
        match serde_json::from_str::<Vec<Value>>(taints) {
            Ok(list) => {
                if !list.is_empty() {
                    validate_taints(&list, &path.child(TAINTS_ANNOTATION), errs);
                }
            }
            Err(e) => errs.push(field::invalid(path, TAINTS_ANNOTATION, &e.to_string())),
        }
    }
    let avoids = get(AVOID_PODS_ANNOTATION);
    if !avoids.is_empty() {
        match serde_json::from_str::<Value>(avoids) {
            Ok(avoids) => {
                let list_path = path.child(AVOID_PODS_ANNOTATION);
                for (i, entry) in read::list(&avoids, "preferAvoidPods").iter().enumerate() {
                    validate_avoid_pods_entry(entry, &list_path.index(i), errs);
                }
            }
            Err(e) => errs.push(field::invalid(
                &path.child("AvoidPods"),
                AVOID_PODS_ANNOTATION,
                &e.to_string(),
            )),
        }
    }
}

/// `validatePreferAvoidPodsEntry`: the pod signature names a controller (reported under the
/// Go names of the members).
fn validate_avoid_pods_entry(entry: &Value, path: &Path, errs: &mut ErrorList) {
    let signature_path = path.child("PodSignature");
    let controller = member(entry, "podSignature")
        .get("podController")
        .filter(|v| !v.is_null());
    match controller {
        None => errs.push(field::required(&signature_path, "")),
        Some(owner) => {
            let is_controller = read::flag(owner, "controller");
            if !is_controller {
                let at = signature_path.child("PodController");
                errs.push(field::invalid(
                    &at.child("Controller"),
                    false,
                    "must point to a controller",
                ));
            }
        }
    }
}

/// `validateNodeTaints`: each key a label name, each value a label value, each effect one of
/// the three, and no two taints of the same key and effect.
fn validate_taints(taints: &[Value], path: &Path, errs: &mut ErrorList) {
    let mut seen: HashSet<(&str, &str)> = HashSet::new();
    for (i, taint) in taints.iter().enumerate() {
        let at = path.index(i);
        let key = read::text(taint, "key");
        let value = read::text(taint, "value");
        let effect = read::text(taint, "effect");
        validate_label_name(key, &at.child("key"), errs);
        let problems = names::is_valid_label_value(value);
        if !problems.is_empty() {
            errs.push(field::invalid(
                &at.child("value"),
                value,
                &problems.join(";"),
            ));
        }
        let effect_path = at.child("effect");
        if effect.is_empty() {
            errs.push(field::required(&effect_path, ""));
        } else if !TAINT_EFFECTS.contains(&effect) {
            errs.push(field::not_supported(
                &effect_path,
                BadValue::Json(Value::from(effect)),
                &TAINT_EFFECTS,
            ));
        }
        if !seen.insert((effect, key)) {
            let mut error = field::duplicate(&at, BadValue::Printed(taint_json(taint)));
            error.detail = "taints must be unique by key and effect pair".to_owned();
            errs.push(error);
        }
    }
}

/// A taint as Go marshals its struct: key, value (left out when empty), effect, timeAdded
/// (left out when unset).
fn taint_json(taint: &Value) -> String {
    let quoted = |s: &str| Value::from(s).to_string();
    let mut out = format!("{{\"key\":{}", quoted(read::text(taint, "key")));
    let value = read::text(taint, "value");
    if !value.is_empty() {
        out.push_str(&format!(",\"value\":{}", quoted(value)));
    }
    out.push_str(&format!(
        ",\"effect\":{}",
        quoted(read::text(taint, "effect"))
    ));
    if let Some(added) = read::opt_text(taint, "timeAdded") {
        out.push_str(&format!(",\"timeAdded\":{}", quoted(added)));
    }
    out.push('}');
    out
}

/// `ValidateNodeResources`: each quantity of `status.capacity` and `status.allocatable`
/// not negative, and whole for the resources counted in units (in key order here; Go's map
/// order is random).
fn validate_resources(node: &Value, errs: &mut ErrorList) {
    let status = member(node, "status");
    for list in ["capacity", "allocatable"] {
        let entries: BTreeMap<&str, &str> = read::string_map(status, list).collect();
        let base = Path::new("status");
        let list_path = base.child(list);
        for (name, text) in entries {
            validate_quantity_value(name, text, &list_path.child(name), errs);
        }
    }
}

/// The pod CIDRs: each a CIDR, and two at most, of two families.
fn validate_pod_cidrs(cidrs: &[&str], errs: &mut ErrorList) {
    if cidrs.is_empty() {
        return;
    }
    let spec_path = Path::new("spec");
    let path = spec_path.child("podCIDRs");
    for (i, cidr) in cidrs.iter().enumerate() {
        validate_legacy_cidr(&path.index(i), cidr, &[], errs);
    }
    if cidrs.len() < 2 {
        return;
    }
    let mut families = (false, false);
    let mut parsed_all = true;
    for (i, cidr) in cidrs.iter().enumerate() {
        match parse_cidr_sloppy(cidr) {
            Some(block) if block.ip.len() == 4 => families.0 = true,
            Some(_) => families.1 = true,
            None => {
                // `ParseCIDRs` of k8s.io/utils, wrapped by the server.
                errs.push(field::internal(
                    &path,
                    &format!(
                        "invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[{i}]: <nil> (invalid CIDR address: {cidr})"
                    ),
                ));
                parsed_all = false;
                break;
            }
        }
    }
    let dual_stack = parsed_all && families.0 && families.1;
    if !dual_stack || cidrs.len() > 2 {
        let list = Value::from(cidrs.to_vec());
        errs.push(field::invalid(
            &path,
            BadValue::Json(list),
            "may specify no more than one CIDR for each IP family",
        ));
    }
}

/// A node config source (`spec.configSource`, or one of `status.config`): exactly one
/// reference, a ConfigMap, whose uid and resourceVersion the spec must not set and the
/// status must.
fn validate_config_source(source: &Value, path: &Path, in_spec: bool, errs: &mut ErrorList) {
    let config_map = source.get("configMap").filter(|v| !v.is_null());
    if let Some(config_map) = config_map {
        let at = path.child("configMap");
        for (member, name) in [("uid", "uid"), ("resourceVersion", "resourceVersion")] {
            let set = !read::text(config_map, member).is_empty();
            if in_spec && set {
                errs.push(field::forbidden(
                    &at.child(member),
                    &format!("{name} must not be set in spec"),
                ));
            } else if !in_spec && !set {
                errs.push(field::required(&at.child(member), ""));
            }
        }
        for (member, check) in [
            (
                "namespace",
                names::name_is_dns_label as fn(&str, bool) -> Vec<String>,
            ),
            ("name", names::name_is_dns_subdomain),
        ] {
            let value = read::text(config_map, member);
            let member_path = at.child(member);
            if value.is_empty() {
                errs.push(field::required(&member_path, ""));
            } else {
                for msg in check(value, false) {
                    errs.push(field::invalid(&member_path, value, &msg));
                }
            }
        }
        let key = read::text(config_map, "kubeletConfigKey");
        let key_path = at.child("kubeletConfigKey");
        if key.is_empty() {
            errs.push(field::required(&key_path, ""));
        } else {
            for msg in names::is_config_map_key(key) {
                errs.push(field::invalid(&key_path, key, &msg));
            }
        }
    } else {
        errs.push(field::invalid(
            path,
            BadValue::Json(source.clone()),
            "exactly one reference subfield must be non-nil",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn bodies(errs: &ErrorList) -> Vec<String> {
        errs.iter()
            .map(|e| format!("{}: {}", e.field, e.body()))
            .collect()
    }

    #[test]
    fn repeated_taints_and_addresses_print_as_go_marshals_them() {
        let new = json!({"metadata": {"name": "n", "resourceVersion": "1"},
            "spec": {"taints": [{"key": "a", "effect": "NoSchedule"},
                {"key": "a", "value": "v", "effect": "NoSchedule"}]},
            "status": {"addresses": [{"type": "InternalIP", "address": "10.0.0.1"},
                {"type": "InternalIP", "address": "10.0.0.1"}]}});
        let errs = node_update(&new, &new);
        assert_eq!(
            bodies(&errs),
            [
                r#"metadata.taints[1]: Duplicate value: {"key":"a","value":"v","effect":"NoSchedule"}: taints must be unique by key and effect pair"#,
                r#"status.addresses[1]: Duplicate value: {"type":"InternalIP","address":"10.0.0.1"}"#,
                r#"metadata.taints[1]: Duplicate value: {"key":"a","value":"v","effect":"NoSchedule"}: taints must be unique by key and effect pair"#,
            ]
        );
    }

    #[test]
    fn pod_cidrs_of_one_family_print_as_a_list() {
        let created = json!({"metadata": {"name": "n"},
            "spec": {"podCIDRs": ["10.0.0.0/16", "10.1.0.0/16"]}});
        assert_eq!(
            bodies(&node(&created)),
            [
                r#"spec.podCIDRs: Invalid value: ["10.0.0.0/16","10.1.0.0/16"]: may specify no more than one CIDR for each IP family"#
            ]
        );
    }
}
