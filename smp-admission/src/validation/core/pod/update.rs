//! `ValidatePodUpdate`: a pod's spec is fixed once created except for container images, a
//! shorter `activeDeadlineSeconds`, added tolerations (and their seconds), removed scheduling
//! gates, a negative grace period set to 1, and, while the pod is still gated, additions to its
//! node selector and required node affinity.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::spec_eq::{members_equal, pod_specs_equal};
use super::{PodOptions, annotations, validate_pod_metadata_and_spec};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::validate_object_meta_update;
use crate::validation::names;
use crate::validation::read;

const UPDATABLE: &str = "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

pub(super) fn validate_pod_update(new: &Value, old: &Value, options: &PodOptions) -> ErrorList {
    let meta_path = Path::new("metadata");
    let mut errs =
        validate_object_meta_update(new.get("metadata"), old.get("metadata"), &meta_path);
    errs.extend(validate_pod_metadata_and_spec(new, options));
    let new_spec = new.get("spec").unwrap_or(&Value::Null);
    let old_spec = old.get("spec").unwrap_or(&Value::Null);
    annotations::validate_annotation_updates(
        new.get("metadata").and_then(|m| m.get("annotations")),
        old.get("metadata").and_then(|m| m.get("annotations")),
        new_spec,
        &meta_path.child("annotations"),
        options,
        &mut errs,
    );
    let spec_path = Path::new("spec");
    for list in ["containers", "initContainers"] {
        if container_updates(new_spec, old_spec, list, &spec_path, &mut errs) {
            return errs;
        }
    }
    if deadline_update(new_spec, old_spec, &spec_path, &mut errs) {
        return errs;
    }
    tolerations_only_added(new_spec, old_spec, &spec_path, &mut errs);
    gates_only_removed(new_spec, old_spec, &spec_path, &mut errs);
    if pod_specs_equal(Some(new_spec), Some(old_spec)) {
        return errs;
    }
    let mut munged = munge(new_spec, old_spec);
    if !read::list(old_spec, "schedulingGates").is_empty() {
        gated_node_selector(&mut munged, old_spec, &spec_path, &mut errs);
        gated_node_affinity(&mut munged, old_spec, &spec_path, &mut errs);
    }
    let munged = Value::Object(munged);
    if !pod_specs_equal(Some(&munged), Some(old_spec)) {
        let detail = format!("{UPDATABLE}\n{}", super::diff::spec_diff(old_spec, &munged));
        errs.push(field::forbidden(&spec_path, &detail));
    }
    errs
}

/// `ValidateContainerUpdates`; true when the count changed (the update stops there).
fn container_updates(
    new: &Value,
    old: &Value,
    list: &str,
    spec_path: &Path,
    errs: &mut ErrorList,
) -> bool {
    let (new_list, old_list) = (read::list(new, list), read::list(old, list));
    let list_path = spec_path.child(list);
    if new_list.len() != old_list.len() {
        errs.push(field::forbidden(
            &list_path,
            "pod updates may not add or remove containers",
        ));
        return true;
    }
    for (i, c) in new_list.iter().enumerate() {
        let at = list_path.index(i);
        let image_path = at.child("image");
        let image = read::text(c, "image");
        if image.is_empty() {
            errs.push(field::required(&image_path, ""));
        }
        if image.trim() != image {
            errs.push(field::invalid(
                &image_path,
                image,
                "must not have leading or trailing whitespace",
            ));
        }
    }
    false
}

/// The deadline may be set, or lowered; true when the update stops there.
fn deadline_update(new: &Value, old: &Value, spec_path: &Path, errs: &mut ErrorList) -> bool {
    let at = spec_path.child("activeDeadlineSeconds");
    let old_deadline = read::opt_int(old, "activeDeadlineSeconds");
    match read::opt_int(new, "activeDeadlineSeconds") {
        Some(deadline) => {
            if !(0..=i64::from(i32::MAX)).contains(&deadline) {
                errs.push(field::invalid(
                    &at,
                    deadline,
                    &names::inclusive_range_error(0, i64::from(i32::MAX)),
                ));
                return true;
            }
            if old_deadline.is_some_and(|o| o < deadline) {
                errs.push(field::invalid(
                    &at,
                    deadline,
                    "must be less than or equal to previous value",
                ));
                return true;
            }
        }
        None if old_deadline.is_some() => errs.push(field::invalid(
            &at,
            BadValue::Json(Value::Null),
            "must not update from a positive integer to nil value",
        )),
        None => {}
    }
    false
}

fn toleration_key(t: &Value) -> [&str; 4] {
    ["key", "operator", "value", "effect"].map(|m| read::text(t, m))
}

/// `validateOnlyAddedTolerations`: every old toleration is still there (its seconds may
/// change), then the new list is checked again.
fn tolerations_only_added(new: &Value, old: &Value, spec_path: &Path, errs: &mut ErrorList) {
    let path = spec_path.child("tolerations");
    let new_list = read::list(new, "tolerations");
    let present: std::collections::BTreeSet<[&str; 4]> =
        new_list.iter().map(toleration_key).collect();
    if read::list(old, "tolerations")
        .iter()
        .any(|t| !present.contains(&toleration_key(t)))
    {
        errs.push(field::forbidden(
            &path,
            "existing toleration can not be modified except its tolerationSeconds",
        ));
        return;
    }
    super::scheduling::validate_tolerations(new_list, &path, errs);
}

/// `validateOnlyDeletedSchedulingGates`: no gate the old pod lacked.
fn gates_only_removed(new: &Value, old: &Value, spec_path: &Path, errs: &mut ErrorList) {
    let new_gates = read::list(new, "schedulingGates");
    if new_gates.is_empty() {
        return;
    }
    // Each name at its last index, as upstream's map keeps it.
    let mut added: BTreeMap<&str, usize> = new_gates
        .iter()
        .enumerate()
        .map(|(i, g)| (read::text(g, "name"), i))
        .collect();
    for gate in read::list(old, "schedulingGates") {
        added.remove(read::text(gate, "name"));
    }
    let mut added: Vec<(usize, &str)> = added.into_iter().map(|(n, i)| (i, n)).collect();
    added.sort_unstable();
    let gates_path = spec_path.child("schedulingGates");
    for (i, name) in added {
        let at = gates_path.index(i);
        errs.push(field::forbidden(
            &at.child("name"),
            &format!("only deletion is allowed, but found new scheduling gate '{name}'"),
        ));
    }
}

/// The new spec with the fields an update may change put back to the old values.
fn munge(new: &Value, old: &Value) -> Map<String, Value> {
    let mut munged = new.as_object().cloned().unwrap_or_default();
    for list in ["containers", "initContainers"] {
        if let Some(Value::Array(items)) = munged.get_mut(list) {
            for (item, old_item) in items.iter_mut().zip(read::list(old, list)) {
                if let Value::Object(c) = item {
                    set(c, "image", old_item.get("image"));
                }
            }
        }
    }
    for member in ["activeDeadlineSeconds", "schedulingGates", "tolerations"] {
        set(&mut munged, member, old.get(member));
    }
    let old_grace = read::opt_int(old, "terminationGracePeriodSeconds");
    let new_grace = munged
        .get("terminationGracePeriodSeconds")
        .and_then(Value::as_i64);
    if old_grace.is_some_and(|g| g < 0) && new_grace == Some(1) {
        set(
            &mut munged,
            "terminationGracePeriodSeconds",
            old.get("terminationGracePeriodSeconds"),
        );
    }
    munged
}

fn set(obj: &mut Map<String, Value>, member: &str, value: Option<&Value>) {
    match value {
        Some(v) => {
            obj.insert(member.to_owned(), v.clone());
        }
        None => {
            obj.remove(member);
        }
    }
}

/// A gated pod may add node selector entries but not change or remove any.
fn gated_node_selector(
    munged: &mut Map<String, Value>,
    old: &Value,
    spec_path: &Path,
    errs: &mut ErrorList,
) {
    let new_selector = munged.get("nodeSelector").cloned();
    if members_equal(
        "nodeSelector",
        new_selector.as_ref(),
        old.get("nodeSelector"),
    ) {
        return;
    }
    let new_map = new_selector.as_ref().and_then(Value::as_object);
    let changed = read::string_map(old, "nodeSelector").any(|(k, v)| {
        new_map
            .and_then(|m| m.get(k))
            .and_then(Value::as_str)
            .is_none_or(|n| n != v)
    });
    if changed {
        errs.push(field::invalid(
            &spec_path.child("nodeSelector"),
            BadValue::Json(new_selector.unwrap_or(Value::Null)),
            "only additions to spec.nodeSelector are allowed (no mutations or deletions)",
        ));
    }
    set(munged, "nodeSelector", old.get("nodeSelector"));
}

fn node_affinity(spec: Option<&Value>) -> Option<&Value> {
    spec?.get("nodeAffinity").filter(|n| !n.is_null())
}

/// A gated pod may add requirements to its required node selector terms.
fn gated_node_affinity(
    munged: &mut Map<String, Value>,
    old: &Value,
    spec_path: &Path,
    errs: &mut ErrorList,
) {
    let old_affinity = old.get("affinity").filter(|a| !a.is_null());
    let old_node = node_affinity(old_affinity).cloned();
    let munged_affinity = munged.get("affinity").filter(|a| !a.is_null()).cloned();
    let new_node = node_affinity(munged_affinity.as_ref()).cloned();
    if members_equal("nodeAffinity", new_node.as_ref(), old_node.as_ref()) {
        return;
    }
    node_affinity_mutation(new_node.as_ref(), old_node.as_ref(), spec_path, errs);
    match (munged_affinity, old_node) {
        (None, None) => {}
        (None, Some(old_node)) => {
            let mut affinity = Map::new();
            affinity.insert("nodeAffinity".to_owned(), old_node);
            munged.insert("affinity".to_owned(), Value::Object(affinity));
        }
        (Some(affinity), old_node) => {
            let only_node = ["podAffinity", "podAntiAffinity"]
                .iter()
                .all(|m| !read::is_set(&affinity, m));
            if old_affinity.is_none() && only_node {
                munged.remove("affinity");
            } else if let Some(Value::Object(a)) = munged.get_mut("affinity") {
                set(a, "nodeAffinity", old_node.as_ref());
            }
        }
    }
}

const REQUIRED: &str = "requiredDuringSchedulingIgnoredDuringExecution";

/// `validateNodeAffinityMutation`.
fn node_affinity_mutation(
    new: Option<&Value>,
    old: Option<&Value>,
    spec_path: &Path,
    errs: &mut ErrorList,
) {
    let Some(old_required) = old.and_then(|o| o.get(REQUIRED)).filter(|r| r.is_object()) else {
        return;
    };
    let old_terms = read::list(old_required, "nodeSelectorTerms");
    let new_terms = new
        .and_then(|n| n.get(REQUIRED))
        .filter(|r| r.is_object())
        .map_or(&[][..], |r| read::list(r, "nodeSelectorTerms"));
    let affinity = spec_path.child("affinity");
    let node = affinity.child("nodeAffinity");
    let required = node.child(REQUIRED);
    let terms_path = required.child("nodeSelectorTerms");
    if !old_terms.is_empty() && old_terms.len() != new_terms.len() {
        errs.push(field::invalid(
            &terms_path,
            BadValue::Json(Value::Array(new_terms.to_vec())),
            "no additions/deletions to non-empty NodeSelectorTerms list are allowed",
        ));
        return;
    }
    for (i, (new_term, old_term)) in new_terms.iter().zip(old_terms).enumerate() {
        if !term_only_adds(new_term, old_term) {
            errs.push(field::invalid(
                &terms_path.index(i),
                BadValue::Json(new_term.clone()),
                "only additions are allowed (no mutations or deletions)",
            ));
        }
    }
}

/// `validateNodeSelectorTermHasOnlyAdditions`: the old requirements are a prefix of the new.
/// (An old term without requirements may not gain any: upstream refuses that too.)
fn term_only_adds(new: &Value, old: &Value) -> bool {
    let lists = ["matchExpressions", "matchFields"];
    let old_empty = lists.iter().all(|l| read::list(old, l).is_empty());
    if old_empty && lists.iter().any(|l| !read::list(new, l).is_empty()) {
        return false;
    }
    lists.iter().all(|l| {
        let (o, n) = (read::list(old, l), read::list(new, l));
        o.is_empty()
            || (n.len() >= o.len()
                && members_equal(
                    l,
                    Some(&Value::Array(n[..o.len()].to_vec())),
                    Some(&Value::Array(o.to_vec())),
                ))
    })
}
