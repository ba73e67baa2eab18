//! Annotations with meaning for pods (`ValidatePodSpecificAnnotations`,
//! `ValidatePodSpecificAnnotationUpdates`): the mirror-pod marker, tolerations, deletion cost,
//! and the legacy seccomp and AppArmor annotations, which must agree with the fields that
//! replaced them (`validateSeccompAnnotationsAndFields`,
//! `validateAppArmorAnnotationsAndFieldsMatchOnCreate`). Annotation maps are walked in key
//! order (Go's order is random).

use serde_json::Value;

use super::security::each_container;
use super::{MIRROR_ANNOTATION, PodOptions, paths, scheduling};
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::read;

pub(super) const DELETION_COST: &str = "controller.kubernetes.io/pod-deletion-cost";
const TOLERATIONS: &str = "scheduler.alpha.kubernetes.io/tolerations";
const SECCOMP_POD: &str = "seccomp.security.alpha.kubernetes.io/pod";
const SECCOMP_CONTAINER: &str = "container.seccomp.security.alpha.kubernetes.io/";
const APPARMOR_CONTAINER: &str = "container.apparmor.security.beta.kubernetes.io/";

/// Whether a deletion cost is a 32-bit integer written plainly (no `+`, no leading zeros).
pub(super) fn is_deletion_cost(value: &str) -> bool {
    let plain_start = match value.as_bytes() {
        [] => false,
        [b'-', ..] => true,
        [b'0'] => true,
        [b'1'..=b'9', ..] => true,
        _ => false,
    };
    plain_start && value.parse::<i32>().is_ok()
}

/// `ValidatePodSpecificAnnotations`; `path` is the annotations' path.
pub(crate) fn validate_pod_specific_annotations(
    annotations: Option<&Value>,
    spec: &Value,
    path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    let Some(annotations) = annotations.and_then(Value::as_object) else {
        return;
    };
    let text = |k: &str| annotations.get(k).and_then(Value::as_str);
    if let Some(mirror) = text(MIRROR_ANNOTATION)
        && read::text(spec, "nodeName").is_empty()
    {
        errs.push(field::invalid(
            &path.key(MIRROR_ANNOTATION),
            mirror,
            "must set spec.nodeName if mirror pod annotation is set",
        ));
    }
    if let Some(tolerations) = text(TOLERATIONS).filter(|t| !t.is_empty()) {
        annotation_tolerations(tolerations, path, errs);
    }
    if !options.allow_invalid_pod_deletion_cost
        && let Some(cost) = text(DELETION_COST)
        && !is_deletion_cost(cost)
    {
        errs.push(field::invalid(
            &path.key(DELETION_COST),
            cost,
            "must be a 32bit integer",
        ));
    }
    if let Some(profile) = text(SECCOMP_POD) {
        seccomp_annotation(profile, &path.child(SECCOMP_POD), errs);
    }
    for (key, value) in annotations {
        if key.starts_with(SECCOMP_CONTAINER) {
            seccomp_annotation(value.as_str().unwrap_or(""), &path.child(key), errs);
        }
    }
    for (key, value) in annotations {
        let Some(container) = key.strip_prefix(APPARMOR_CONTAINER) else {
            continue;
        };
        let at = path.key(key);
        if !has_container(spec, container) {
            errs.push(field::invalid(&at, container, "container not found"));
        }
        let profile = value.as_str().unwrap_or("");
        let known = profile.is_empty()
            || profile == "runtime/default"
            || profile == "unconfined"
            || profile.starts_with("localhost/");
        if !known {
            let mut detail = String::from("invalid AppArmor profile name: ");
            field::go_quote(profile, &mut detail);
            errs.push(field::invalid(&at, profile, &detail));
        }
    }
}

/// Tolerations kept as JSON in an annotation. A document that does not decode is reported
/// with a generic detail (the server prints Go's decoder error there).
fn annotation_tolerations(json: &str, path: &Path, errs: &mut ErrorList) {
    match serde_json::from_str::<Value>(json) {
        Ok(Value::Array(list)) => {
            let list: Vec<Value> = list.into_iter().map(lower_keys).collect();
            if !list.is_empty() {
                scheduling::validate_tolerations(&list, &path.child(TOLERATIONS), errs);
            }
        }
        Ok(Value::Null) => {}
        _ => errs.push(field::invalid(
            path,
            TOLERATIONS,
            "invalid tolerations JSON",
        )),
    }
}

/// Go decodes the internal toleration with case-insensitive member names.
fn lower_keys(v: Value) -> Value {
    let Value::Object(map) = v else {
        return v;
    };
    const MEMBERS: [&str; 5] = ["key", "operator", "value", "effect", "tolerationSeconds"];
    let mut out = serde_json::Map::new();
    for (k, v) in map {
        let canonical = MEMBERS
            .iter()
            .find(|m| m.eq_ignore_ascii_case(&k))
            .map_or(k, |m| (*m).to_owned());
        out.insert(canonical, v);
    }
    Value::Object(out)
}

/// `ValidateSeccompProfile` of an annotation value.
fn seccomp_annotation(profile: &str, path: &Path, errs: &mut ErrorList) {
    match profile {
        "runtime/default" | "docker/default" | "unconfined" => {}
        p => match p.strip_prefix("localhost/") {
            Some(local) => paths::local_descending(local, path, errs),
            None => errs.push(field::invalid(path, p, "must be a valid seccomp profile")),
        },
    }
}

fn has_container(spec: &Value, name: &str) -> bool {
    super::security::CONTAINER_LISTS
        .iter()
        .flat_map(|l| read::list(spec, l))
        .any(|c| read::text(c, "name") == name)
}

/// `ValidatePodSpecificAnnotationUpdates`: the AppArmor and mirror annotations cannot change,
/// then the new annotations are checked again.
pub(super) fn validate_annotation_updates(
    new: Option<&Value>,
    old: Option<&Value>,
    spec: &Value,
    path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    let empty = serde_json::Map::new();
    let new_map = new.and_then(Value::as_object).unwrap_or(&empty);
    let old_map = old.and_then(Value::as_object).unwrap_or(&empty);
    for (key, old_value) in old_map {
        if new_map.get(key) == Some(old_value) {
            continue;
        }
        if key.starts_with(APPARMOR_CONTAINER) {
            errs.push(field::forbidden(
                &path.key(key),
                "may not remove or update AppArmor annotations",
            ));
        }
        if key == MIRROR_ANNOTATION {
            errs.push(field::forbidden(
                &path.key(key),
                "may not remove or update mirror pod annotation",
            ));
        }
    }
    for key in new_map.keys().filter(|k| !old_map.contains_key(*k)) {
        if key.starts_with(APPARMOR_CONTAINER) {
            errs.push(field::forbidden(
                &path.key(key),
                "may not add AppArmor annotations",
            ));
        }
        if key == MIRROR_ANNOTATION {
            errs.push(field::forbidden(
                &path.key(key),
                "may not add mirror pod annotation",
            ));
        }
    }
    validate_pod_specific_annotations(new, spec, path, options, errs);
}

fn annotation<'a>(meta: Option<&'a Value>, key: &str) -> Option<&'a str> {
    meta.and_then(|m| m.get("annotations"))
        .and_then(|a| a.get(key))
        .and_then(Value::as_str)
}

/// Whether the object has an annotation whose key starts with `prefix` (the per-container
/// checks below have nothing to compare without one, and skip their walk).
fn has_annotation_prefix(meta: Option<&Value>, prefix: &str) -> bool {
    meta.and_then(|m| m.get("annotations"))
        .and_then(Value::as_object)
        .is_some_and(|a| a.keys().any(|k| k.starts_with(prefix)))
}

/// The seccomp annotations agree with the `seccompProfile` fields they stand beside.
pub(super) fn seccomp_fields_match_annotations(
    meta: Option<&Value>,
    spec: &Value,
    spec_path: &Path,
    errs: &mut ErrorList,
) {
    let pod_profile = spec
        .get("securityContext")
        .and_then(|sc| sc.get("seccompProfile"))
        .filter(|p| p.is_object());
    if let (Some(profile), Some(value)) = (pod_profile, annotation(meta, SECCOMP_POD)) {
        let sc = spec_path.child("securityContext");
        seccomp_match(value, profile, &sc.child("seccompProfile"), errs);
    }
    if !has_annotation_prefix(meta, SECCOMP_CONTAINER) {
        return;
    }
    each_container(spec, spec_path, |c, at| {
        let profile = c
            .get("securityContext")
            .and_then(|sc| sc.get("seccompProfile"))
            .filter(|p| p.is_object());
        let key = format!("{SECCOMP_CONTAINER}{}", read::text(c, "name"));
        if let (Some(profile), Some(value)) = (profile, annotation(meta, &key)) {
            let sc = at.child("securityContext");
            seccomp_match(value, profile, &sc.child("seccompProfile"), errs);
        }
    });
}

fn seccomp_match(annotation: &str, profile: &Value, path: &Path, errs: &mut ErrorList) {
    const TYPE: &str = "seccomp type in annotation and field must match";
    let type_path = path.child("type");
    match read::text(profile, "type") {
        "Unconfined" if annotation != "unconfined" => errs.push(field::forbidden(&type_path, TYPE)),
        "RuntimeDefault" if annotation != "runtime/default" && annotation != "docker/default" => {
            errs.push(field::forbidden(&type_path, TYPE));
        }
        "Localhost" => match annotation.strip_prefix("localhost/") {
            None => errs.push(field::forbidden(&type_path, TYPE)),
            Some(local) if read::opt_text(profile, "localhostProfile") != Some(local) => {
                errs.push(field::forbidden(
                    &path.child("localhostProfile"),
                    "seccomp profile in annotation and field must match",
                ));
            }
            Some(_) => {}
        },
        _ => {}
    }
}

/// The AppArmor annotations agree with each container's effective profile (skipped for
/// Windows pods).
pub(super) fn apparmor_fields_match_annotations(
    meta: Option<&Value>,
    spec: &Value,
    spec_path: &Path,
    errs: &mut ErrorList,
) {
    if spec
        .get("os")
        .is_some_and(|os| read::text(os, "name") == "windows")
    {
        return;
    }
    if !has_annotation_prefix(meta, APPARMOR_CONTAINER) {
        return;
    }
    let pod_profile = spec
        .get("securityContext")
        .and_then(|sc| sc.get("appArmorProfile"))
        .filter(|p| p.is_object());
    each_container(spec, spec_path, |c, at| {
        let own = c
            .get("securityContext")
            .and_then(|sc| sc.get("appArmorProfile"))
            .filter(|p| p.is_object());
        let Some(profile) = own.or(pod_profile) else {
            return;
        };
        let key = format!("{APPARMOR_CONTAINER}{}", read::text(c, "name"));
        let Some(value) = annotation(meta, &key) else {
            return;
        };
        let sc = at.child("securityContext");
        let path = sc.child("appArmorProfile");
        const TYPE: &str = "apparmor type in annotation and field must match";
        let type_path = path.child("type");
        match read::text(profile, "type") {
            "Unconfined" if value != "unconfined" => errs.push(field::forbidden(&type_path, TYPE)),
            "RuntimeDefault" if value != "runtime/default" => {
                errs.push(field::forbidden(&type_path, TYPE));
            }
            "Localhost" => match value.strip_prefix("localhost/") {
                None => errs.push(field::forbidden(&type_path, TYPE)),
                Some(local) if read::opt_text(profile, "localhostProfile") != Some(local) => {
                    errs.push(field::forbidden(
                        &path.child("localhostProfile"),
                        "apparmor profile in annotation and field must match",
                    ));
                }
                Some(_) => {}
            },
            _ => {}
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deletion_costs() {
        assert!(is_deletion_cost("0"));
        assert!(is_deletion_cost("-10"));
        assert!(is_deletion_cost("2147483647"));
        assert!(!is_deletion_cost("2147483648"));
        assert!(!is_deletion_cost("+10"));
        assert!(!is_deletion_cost("008"));
        assert!(!is_deletion_cost(""));
        assert!(!is_deletion_cost("abc"));
    }
}
