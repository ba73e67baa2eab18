//! `ValidatePersistentVolumeSpec` for a PersistentVolume object (not the inline form a
//! VolumeAttachment carries, which `storage::inline_volume` checks): access modes, capacity,
//! reclaim policy, node affinity, the one source, class names and volume mode.

use serde_json::{Map, Value};

use super::Options;
use super::sources::{set_object, validate_sources};
use crate::quantity::{Quantity, canonical};
use crate::validation::core::pod::validate_node_selector_term;
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::names;
use crate::validation::read;

/// `sets.List` of the supported access modes: sorted.
const ACCESS_MODES: [&str; 4] = [
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOnce",
    "ReadWriteOncePod",
];
const RECLAIM_POLICIES: [&str; 3] = ["Delete", "Recycle", "Retain"];
const VOLUME_MODES: [&str; 2] = ["Block", "Filesystem"];

/// A value Go holds in a named string type: it prints as JSON, not `%q`.
fn named(text: &str) -> BadValue {
    BadValue::Json(Value::from(text))
}

pub(super) fn validate_spec(
    spec: &Value,
    pv_name: &str,
    options: Options,
    path: &Path,
    errs: &mut ErrorList,
) {
    validate_access_modes(
        read::list(spec, "accessModes"),
        &path.child("accessModes"),
        errs,
    );
    validate_capacity(spec, &path.child("capacity"), errs);
    let policy = read::text(spec, "persistentVolumeReclaimPolicy");
    let policy_path = path.child("persistentVolumeReclaimPolicy");
    if !policy.is_empty() && !RECLAIM_POLICIES.contains(&policy) {
        errs.push(field::not_supported(
            &policy_path,
            named(policy),
            &RECLAIM_POLICIES,
        ));
    }
    let affinity = set_object(spec, "nodeAffinity");
    if let Some(affinity) = affinity {
        validate_node_affinity(affinity, options, &path.child("nodeAffinity"), errs);
    }
    if !validate_sources(spec, pv_name, affinity.is_some(), path, errs) {
        errs.push(field::required(path, "must specify a volume type"));
    }
    let host_root =
        set_object(spec, "hostPath").is_some_and(|h| cleans_to_root(read::text(h, "path")));
    if host_root && policy == "Recycle" {
        errs.push(field::forbidden(
            &policy_path,
            "may not be 'recycle' for a hostPath mount of '/'",
        ));
    }
    let class = read::text(spec, "storageClassName");
    if !class.is_empty() {
        class_name(class, &path.child("storageClassName"), errs);
    }
    if let Some(mode) = read::opt_text(spec, "volumeMode")
        && !VOLUME_MODES.contains(&mode)
    {
        errs.push(field::not_supported(
            &path.child("volumeMode"),
            named(mode),
            &VOLUME_MODES,
        ));
    }
    if let Some(class) = read::opt_text(spec, "volumeAttributesClassName") {
        let at = path.child("volumeAttributesClassName");
        if class.is_empty() {
            errs.push(field::required(&at, "an empty string is disallowed"));
        } else {
            class_name(class, &at, errs);
        }
        if set_object(spec, "csi").is_none() {
            errs.push(field::required(
                &path.child("csi"),
                "has to be specified when using volumeAttributesClassName",
            ));
        }
    }
}

/// `ValidateClassName`: a DNS subdomain.
fn class_name(class: &str, path: &Path, errs: &mut ErrorList) {
    for msg in names::name_is_dns_subdomain(class, false) {
        errs.push(field::invalid(path, class, &msg));
    }
}

/// Access modes: at least one, each supported, `ReadWriteOncePod` alone.
pub(crate) fn validate_access_modes(modes: &[Value], path: &Path, errs: &mut ErrorList) {
    if modes.is_empty() {
        errs.push(field::required(path, ""));
    }
    let (mut once_pod, mut other) = (false, false);
    for mode in modes {
        let mode = mode.as_str().unwrap_or("");
        if !ACCESS_MODES.contains(&mode) {
            errs.push(field::not_supported(path, named(mode), &ACCESS_MODES));
        } else if mode == "ReadWriteOncePod" {
            once_pod = true;
        } else {
            other = true;
        }
    }
    if once_pod && other {
        errs.push(field::forbidden(
            path,
            "may not use ReadWriteOncePod with other access modes",
        ));
    }
}

/// Capacity: required, `storage` and nothing else, each quantity above zero. The whole list
/// is reported as Go marshals it (keys sorted, quantities canonical, `null` when unset).
fn validate_capacity(spec: &Value, path: &Path, errs: &mut ErrorList) {
    let capacity = read::object(spec, "capacity");
    let entries = capacity.map_or(0, Map::len);
    if entries == 0 {
        errs.push(field::required(path, ""));
    }
    if !capacity.is_some_and(|c| c.contains_key("storage")) || entries > 1 {
        let printed = capacity.map_or(Value::Null, |c| {
            let sorted: std::collections::BTreeMap<&String, Value> = c
                .iter()
                .map(|(k, v)| {
                    let text = v.as_str().unwrap_or("");
                    (
                        k,
                        Value::from(canonical(text).unwrap_or_else(|| text.to_owned())),
                    )
                })
                .collect();
            serde_json::to_value(sorted).unwrap_or(Value::Null)
        });
        errs.push(field::not_supported(
            path,
            BadValue::Json(printed),
            &["storage"],
        ));
    }
    let mut keys: Vec<&String> = capacity.map(|c| c.keys().collect()).unwrap_or_default();
    keys.sort();
    for key in keys {
        let text = capacity
            .and_then(|c| c.get(key.as_str()))
            .and_then(Value::as_str)
            .unwrap_or("0");
        let Ok(q) = Quantity::parse(text) else {
            continue;
        };
        let at = path.key(key);
        let value = q.scaled_up(0).unwrap_or(0);
        if value < 0 {
            let value = i64::try_from(value).unwrap_or(i64::MIN);
            errs.push(field::invalid(
                &at,
                value,
                "must be a valid resource quantity",
            ));
        }
        let positive = Quantity::parse("0").is_ok_and(|zero| q.compare(zero).is_gt());
        if !positive {
            let printed = canonical(text).unwrap_or_else(|| text.to_owned());
            errs.push(field::invalid(&at, printed, "must be greater than zero"));
        }
    }
}

/// `validateVolumeNodeAffinity`: `required` must be there, with at least one term.
fn validate_node_affinity(affinity: &Value, options: Options, path: &Path, errs: &mut ErrorList) {
    let required_path = path.child("required");
    let Some(required) = set_object(affinity, "required") else {
        errs.push(field::required(
            &required_path,
            "must specify required node constraints",
        ));
        return;
    };
    let terms_path = required_path.child("nodeSelectorTerms");
    let terms = read::list(required, "nodeSelectorTerms");
    if terms.is_empty() {
        errs.push(field::required(
            &terms_path,
            "must have at least one node selector term",
        ));
        return;
    }
    for (i, term) in terms.iter().enumerate() {
        validate_node_selector_term(
            term,
            options.allow_invalid_label_value,
            &terms_path.index(i),
            errs,
        );
    }
}

/// Whether Go's `path.Clean` turns `p` into `/`: rooted, and every step cancelled out (a
/// `..` at the root stays there).
pub(crate) fn cleans_to_root(p: &str) -> bool {
    let Some(rest) = p.strip_prefix('/') else {
        return false;
    };
    let mut depth = 0usize;
    for step in rest.split('/') {
        match step {
            "" | "." => {}
            ".." => depth = depth.saturating_sub(1),
            _ => depth += 1,
        }
    }
    depth == 0
}
