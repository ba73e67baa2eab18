//! PersistentVolumeClaim (`ValidatePersistentVolumeClaim`, `ValidatePersistentVolumeClaimSpec`
//! and `ValidatePersistentVolumeClaimUpdate`) with the options its strategy passes in v1.34
//! (recovery from expansion failure and volume attributes classes on). The update runs the
//! create checks twice, as the strategy does.

use serde_json::Value;

use crate::quantity::Quantity;
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::meta::{
    IMMUTABLE, LabelSelectorOptions, validate_label_selector, validate_object_meta,
    validate_object_meta_update,
};
use crate::validation::names;
use crate::validation::read;

const ACCESS_MODES: &[&str] = &[
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOnce",
    "ReadWriteOncePod",
];
const STORAGE_CLASS_ANNOTATION: &str = "volume.beta.kubernetes.io/storage-class";

/// What the strategy derives from the old claim (`ValidationOptionsForPersistentVolumeClaim`).
#[derive(Default, Clone, Copy)]
struct Options {
    allow_invalid_api_group: bool,
    allow_invalid_label_value: bool,
}

pub(super) fn pvc(claim: &Value) -> ErrorList {
    validate_claim(claim, Options::default())
}

pub(super) fn pvc_update(new: &Value, old: &Value) -> ErrorList {
    let old_spec = spec_of(old);
    let has_group = |member: &str| {
        old_spec
            .get(member)
            .is_some_and(|r| read::opt_text(r, "apiGroup").is_some())
    };
    let mut selector_errs = ErrorList::new();
    validate_label_selector(
        old_spec.get("selector"),
        LabelSelectorOptions::default(),
        &Path::new("selector"),
        &mut selector_errs,
    );
    let options = Options {
        allow_invalid_api_group: has_group("dataSource") || has_group("dataSourceRef"),
        allow_invalid_label_value: !selector_errs.is_empty(),
    };
    let mut errs = validate_claim(new, options);
    errs.extend(validate_update(new, old, options));
    errs
}

fn spec_of(claim: &Value) -> &Value {
    claim.get("spec").unwrap_or(&Value::Null)
}

fn validate_claim(claim: &Value, options: Options) -> ErrorList {
    let mut errs = validate_object_meta(
        claim.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    validate_spec(spec_of(claim), &Path::new("spec"), options, &mut errs);
    errs
}

/// The spec rules of a claim's create, run on a StatefulSet's claim template spec
/// (`ValidatePersistentVolumeClaimSpec` with `ValidationOptionsForPersistentVolumeClaimCreate`).
pub(crate) fn validate_claim_spec_for_create(spec: &Value, path: &Path) -> ErrorList {
    let mut errs = ErrorList::new();
    validate_spec(spec, path, Options::default(), &mut errs);
    errs
}

/// `ValidatePersistentVolumeClaimSpec`.
fn validate_spec(spec: &Value, path: &Path, options: Options, errs: &mut ErrorList) {
    let modes_path = path.child("accessModes");
    let modes: Vec<&str> = read::list(spec, "accessModes")
        .iter()
        .map(|m| m.as_str().unwrap_or(""))
        .collect();
    if modes.is_empty() {
        errs.push(field::required(
            &modes_path,
            "at least 1 access mode is required",
        ));
    }
    validate_label_selector(
        spec.get("selector"),
        LabelSelectorOptions {
            allow_invalid_label_value: options.allow_invalid_label_value,
        },
        &path.child("selector"),
        errs,
    );
    let (mut once_pod, mut other) = (false, false);
    for mode in &modes {
        if !ACCESS_MODES.contains(mode) {
            errs.push(field::not_supported(&modes_path, *mode, ACCESS_MODES));
        } else if *mode == "ReadWriteOncePod" {
            once_pod = true;
        } else {
            other = true;
        }
    }
    if once_pod && other {
        errs.push(field::forbidden(
            &modes_path,
            "may not use ReadWriteOncePod with other access modes",
        ));
    }
    validate_storage_request(spec, path, errs);
    validate_class(spec, "storageClassName", path, errs);
    validate_volume_mode_and_sources(spec, path, options, errs);
    validate_class(spec, "volumeAttributesClassName", path, errs);
}

/// A class name, when set and not empty, is a DNS subdomain.
fn validate_class(spec: &Value, member: &str, path: &Path, errs: &mut ErrorList) {
    let class = read::text(spec, member);
    for msg in if class.is_empty() {
        Vec::new()
    } else {
        names::name_is_dns_subdomain(class, false)
    } {
        errs.push(field::invalid(&path.child(member), class, &msg));
    }
}

/// `resources.requests.storage`: present and above zero (reported at `resources[storage]`).
fn validate_storage_request(spec: &Value, path: &Path, errs: &mut ErrorList) {
    let resources = path.child("resources");
    let at = resources.key("storage");
    let request = spec
        .get("resources")
        .and_then(|r| r.get("requests"))
        .and_then(|r| r.get("storage"));
    let Some(request) = request else {
        errs.push(field::required(&at, ""));
        return;
    };
    let text = request.as_str().unwrap_or("0");
    let positive = Quantity::parse(text)
        .ok()
        .zip(Quantity::parse("0").ok())
        .is_some_and(|(q, zero)| q.compare(zero).is_gt());
    if !positive {
        let printed = crate::quantity::canonical(text).unwrap_or_else(|| text.to_owned());
        errs.push(field::invalid(&at, printed, "must be greater than zero"));
    }
}

/// `volumeMode`, `dataSource`, `dataSourceRef` and how the two sources agree.
fn validate_volume_mode_and_sources(
    spec: &Value,
    path: &Path,
    options: Options,
    errs: &mut ErrorList,
) {
    if let Some(mode) = read::opt_text(spec, "volumeMode")
        && !matches!(mode, "Block" | "Filesystem")
    {
        errs.push(field::not_supported(
            &path.child("volumeMode"),
            mode,
            &["Block", "Filesystem"],
        ));
    }
    let source = spec.get("dataSource").filter(|v| !v.is_null());
    let source_ref = spec.get("dataSourceRef").filter(|v| !v.is_null());
    if let Some(source) = source {
        validate_source(source, &path.child("dataSource"), options, errs);
    }
    if let Some(source_ref) = source_ref {
        let ref_path = path.child("dataSourceRef");
        validate_source(source_ref, &ref_path, options, errs);
        let namespace = read::text(source_ref, "namespace");
        if !namespace.is_empty() {
            for msg in names::name_is_dns_label(namespace, false) {
                errs.push(field::invalid(
                    &ref_path.child("namespace"),
                    namespace,
                    &msg,
                ));
            }
        }
    }
    // Upstream passes the path object as the value; Go prints it as `{}`.
    let path_value = field::BadValue::Json(Value::Object(serde_json::Map::new()));
    match (source, source_ref) {
        (Some(_), Some(r)) if !read::text(r, "namespace").is_empty() => errs.push(field::invalid(
            path,
            path_value,
            "may not be specified when dataSourceRef.namespace is specified",
        )),
        (Some(s), Some(r)) => {
            let same = read::opt_text(s, "apiGroup") == read::opt_text(r, "apiGroup")
                && read::text(s, "kind") == read::text(r, "kind")
                && read::text(s, "name") == read::text(r, "name");
            if !same {
                errs.push(field::invalid(path, path_value, "must match dataSourceRef"));
            }
        }
        _ => {}
    }
}

/// `validateDataSource` and the common part of `validateDataSourceRef`.
fn validate_source(source: &Value, path: &Path, options: Options, errs: &mut ErrorList) {
    let kind = read::text(source, "kind");
    if read::text(source, "name").is_empty() {
        errs.push(field::required(&path.child("name"), ""));
    }
    if kind.is_empty() {
        errs.push(field::required(&path.child("kind"), ""));
    }
    let group = read::text(source, "apiGroup");
    if group.is_empty() && kind != "PersistentVolumeClaim" {
        errs.push(field::invalid(
            path,
            kind,
            "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
        ));
    }
    if !group.is_empty() && !options.allow_invalid_api_group {
        for msg in names::is_dns1123_subdomain(group) {
            errs.push(field::invalid(&path.child("apiGroup"), group, &msg));
        }
    }
}

/// `ValidatePersistentVolumeClaimUpdate`.
fn validate_update(new: &Value, old: &Value, options: Options) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    errs.extend(validate_claim(new, options));
    let (new_spec, old_spec) = (spec_of(new), spec_of(old));
    fn annotation(c: &Value) -> Option<&str> {
        c.pointer("/metadata/annotations")
            .and_then(|a| a.get(STORAGE_CLASS_ANNOTATION))
            .map(|v| v.as_str().unwrap_or(""))
    }
    let (new_class, old_class) = (
        read::opt_text(new_spec, "storageClassName"),
        read::opt_text(old_spec, "storageClassName"),
    );
    let from_annotation = annotation(old).is_some_and(|old_sc| {
        old_class.is_none()
            && new_class == Some(old_sc)
            && annotation(new).is_none_or(|n| n == old_sc)
    });
    let ignore_class = if from_annotation {
        true
    } else {
        let (n, o) = (annotation(new).unwrap_or(""), annotation(old).unwrap_or(""));
        if n != o {
            let path = Path::names(&["metadata", "annotations", STORAGE_CLASS_ANNOTATION]);
            errs.push(field::invalid(&path, n, IMMUTABLE));
        }
        new_class.is_some()
            && old_class.is_none()
            && annotation(old).is_none_or(|a| Some(a) == new_class)
    };
    let bound = new.pointer("/status/phase").and_then(Value::as_str) == Some("Bound");
    if !specs_equal(new_spec, old_spec, ignore_class, bound) {
        // Upstream appends a Go object diff of the two specs; only its first line is ours.
        errs.push(field::forbidden(
            &Path::new("spec"),
            "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n",
        ));
    }
    validate_shrink(new_spec, old, &mut errs);
    if !read::semantic_eq(new_spec.get("volumeMode"), old_spec.get("volumeMode")) {
        let value = new_spec
            .get("volumeMode")
            .map_or(field::BadValue::Json(Value::Null), field::BadValue::from);
        errs.push(field::invalid(&Path::new("volumeMode"), value, IMMUTABLE));
    }
    let (new_vac, old_vac) = (
        read::opt_text(new_spec, "volumeAttributesClassName"),
        read::opt_text(old_spec, "volumeAttributesClassName"),
    );
    let applied = old
        .pointer("/status/currentVolumeAttributesClassName")
        .is_some_and(|v| !v.is_null());
    if new_vac != old_vac && applied {
        let path = Path::names(&["spec", "volumeAttributesClassName"]);
        match new_vac {
            None => errs.push(field::forbidden(
                &path,
                "update to nil is forbidden when status.currentVolumeAttributesClassName is not nil",
            )),
            Some("") => errs.push(field::forbidden(
                &path,
                "update to empty string is forbidden when status.currentVolumeAttributesClassName is not nil",
            )),
            Some(_) => {}
        }
    }
    errs
}

/// The specs compared as the update compares them: `volumeName` may be set once, the storage
/// class may be adopted, and a bound claim may change its storage request and volume
/// attributes class.
fn specs_equal(new: &Value, old: &Value, ignore_class: bool, bound: bool) -> bool {
    let (Some(new), Some(old)) = (new.as_object(), old.as_object()) else {
        return read::semantic_eq(Some(new), Some(old));
    };
    let mut new = new.clone();
    let mut old = old.clone();
    if read::text(&Value::Object(old.clone()), "volumeName").is_empty() {
        old.remove("volumeName");
        new.remove("volumeName");
    }
    if ignore_class {
        new.remove("storageClassName");
        old.remove("storageClassName");
    }
    if bound {
        new.remove("volumeAttributesClassName");
        old.remove("volumeAttributesClassName");
        for spec in [&mut new, &mut old] {
            if let Some(requests) = spec
                .get_mut("resources")
                .and_then(|r| r.get_mut("requests"))
                .and_then(Value::as_object_mut)
            {
                requests.remove("storage");
            }
        }
    }
    quantity_aware_eq(&Value::Object(new), &Value::Object(old))
}

/// Semantic equality where quantity strings under `resources` compare by value.
fn quantity_aware_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) if x != y => {
            matches!((Quantity::parse(x), Quantity::parse(y)), (Ok(p), Ok(q)) if p.compare(q).is_eq())
        }
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().all(|k| match (x.get(k), y.get(k)) {
                (Some(p), Some(q)) => quantity_aware_eq(p, q),
                (p, q) => read::semantic_eq(p, q),
            })
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| quantity_aware_eq(p, q))
        }
        _ => read::semantic_eq(Some(a), Some(b)),
    }
}

/// A smaller request is allowed down to (not onto) the capacity the old claim reports.
fn validate_shrink(new_spec: &Value, old: &Value, errs: &mut ErrorList) {
    let storage = |v: Option<&Value>| {
        v.and_then(Value::as_str)
            .and_then(|t| Quantity::parse(t).ok())
            .or_else(|| Quantity::parse("0").ok())
    };
    let new_size = storage(new_spec.pointer("/resources/requests/storage"));
    let old_size = storage(old.pointer("/spec/resources/requests/storage"));
    let capacity = storage(old.pointer("/status/capacity/storage"));
    let (Some(new_size), Some(old_size), Some(capacity)) = (new_size, old_size, capacity) else {
        return;
    };
    if new_size.compare(old_size).is_lt() && new_size.compare(capacity).is_le() {
        errs.push(field::forbidden(
            &Path::names(&["spec", "resources", "requests", "storage"]),
            "field can not be less than status.capacity",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn claim() -> Value {
        json!({"metadata": {"name": "c", "namespace": "d", "resourceVersion": "1"},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10Gi"}}}})
    }

    #[test]
    fn a_claim_needs_modes_and_storage() {
        let errs: Vec<String> = pvc(&json!({"metadata": {"name": "c", "namespace": "d"}}))
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            errs,
            vec![
                "spec.accessModes: Required value: at least 1 access mode is required",
                "spec.resources[storage]: Required value"
            ]
        );
    }

    #[test]
    fn equal_quantities_are_not_a_change() {
        let old = claim();
        let mut new = claim();
        new["spec"]["resources"]["requests"]["storage"] = json!("10240Mi");
        assert!(pvc_update(&new, &old).is_empty());
    }
}
