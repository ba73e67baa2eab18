//! PersistentVolume (`ValidatePersistentVolume`, `ValidatePersistentVolumeUpdate`) as its
//! registry strategy runs them in v1.34, with the options `ValidationOptionsForPersistentVolume`
//! derives (VolumeAttributesClass is GA and on, so its class name is always checked), and the
//! volume plugins' own rule (`pkg/volume/validation`: mount options only for the sources
//! that take them).
//!
//! The strategy's update check runs the create rules, the plugin rule, then
//! `ValidatePersistentVolumeUpdate`, which runs the create rules a second time: an invalid
//! spec is reported twice on update, as the server does.

mod sources;
mod spec;

use serde_json::Value;

use crate::validation::core::pod::spec_diff;
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::{validate_immutable, validate_object_meta};
use crate::validation::names;
use crate::validation::read;

pub(crate) use sources::validate_csi_source;
pub(crate) use spec::{cleans_to_root, validate_access_modes};

const MOUNT_OPTIONS_ANNOTATION: &str = "volume.beta.kubernetes.io/mount-options";

/// The sources whose plugins take mount options.
const TAKE_MOUNT_OPTIONS: [&str; 13] = [
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "glusterfs",
    "nfs",
    "rbd",
    "quobyte",
    "iscsi",
    "cinder",
    "cephfs",
    "azureFile",
    "vsphereVolume",
    "azureDisk",
    "photonPersistentDisk",
];

/// What the strategy derives from the old volume.
#[derive(Default, Clone, Copy)]
struct Options {
    /// The old volume's required node affinity holds a value that is not a label value:
    /// values are then not checked.
    allow_invalid_label_value: bool,
}

fn spec_of(pv: &Value) -> &Value {
    pv.get("spec").unwrap_or(&Value::Null)
}

pub(super) fn persistent_volume(pv: &Value) -> ErrorList {
    let mut errs = validate_pv(pv, Options::default());
    check_mount_options(pv, &mut errs);
    errs
}

pub(super) fn persistent_volume_update(new: &Value, old: &Value) -> ErrorList {
    let options = Options {
        allow_invalid_label_value: has_invalid_required_value(spec_of(old)),
    };
    // Upstream's update rules do not compare the metadata with the old (the registry's
    // common checks of every kind do, before the strategy): nor do they here.
    let mut errs = validate_pv(new, options);
    check_mount_options(new, &mut errs);
    errs.extend(validate_pv(new, options));
    validate_update(spec_of(new), spec_of(old), &mut errs);
    errs
}

/// `ValidatePersistentVolume`: cluster-scoped metadata, a DNS subdomain name, the spec.
fn validate_pv(pv: &Value, options: Options) -> ErrorList {
    let mut errs = validate_object_meta(
        pv.get("metadata"),
        false,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let name = pv.get("metadata").map_or("", |m| read::text(m, "name"));
    spec::validate_spec(spec_of(pv), name, options, &Path::new("spec"), &mut errs);
    errs
}

/// `checkMountOption` of the volume plugins: the mount-options annotation only on a source
/// that takes mount options.
fn check_mount_options(pv: &Value, errs: &mut ErrorList) {
    let spec = spec_of(pv);
    if TAKE_MOUNT_OPTIONS
        .iter()
        .any(|m| sources::set_object(spec, m).is_some())
    {
        return;
    }
    let annotated = pv
        .get("metadata")
        .and_then(|m| read::object(m, "annotations"))
        .is_some_and(|a| a.contains_key(MOUNT_OPTIONS_ANNOTATION));
    if annotated {
        let annotations = Path::new("metadata");
        let annotations = annotations.child("annotations");
        errs.push(field::forbidden(
            &annotations.child(MOUNT_OPTIONS_ANNOTATION),
            "may not specify mount options for this volume type",
        ));
    }
}

/// `HasInvalidLabelValueInNodeSelectorTerms` of the old volume's required node affinity.
fn has_invalid_required_value(spec: &Value) -> bool {
    let terms = spec
        .get("nodeAffinity")
        .and_then(|a| a.get("required"))
        .map_or(&[][..], |r| read::list(r, "nodeSelectorTerms"));
    terms.iter().any(|t| {
        read::list(t, "matchExpressions")
            .iter()
            .flat_map(|r| read::strings(r, "values"))
            .any(|v| !names::is_valid_label_value(v).is_empty())
    })
}

/// The rest of `ValidatePersistentVolumeUpdate`: the source is fixed at creation (but a
/// CSI source may gain a `controllerExpandSecretRef`), so is the volume mode; node affinity,
/// once set, may only move a requirement from a beta label to its GA one; a volume
/// attributes class, once set, may not be removed.
fn validate_update(new: &Value, old: &Value, errs: &mut ErrorList) {
    let new_source = source_of(new, old);
    let old_source = source_of(old, &Value::Null);
    if !read::semantic_eq(Some(&new_source), Some(&old_source)) {
        let message = format!(
            "spec.persistentvolumesource is immutable after creation\n{}",
            spec_diff(&old_source, &new_source)
        );
        let spec = Path::new("spec");
        errs.push(field::forbidden(
            &spec.child("persistentvolumesource"),
            &message,
        ));
    }
    validate_immutable(
        new.get("volumeMode"),
        old.get("volumeMode"),
        &Path::new("volumeMode"),
        errs,
    );
    if let Some(old_affinity) = sources::set_object(old, "nodeAffinity") {
        let new_affinity = new.get("nodeAffinity").filter(|v| !v.is_null());
        if !affinity_equal_but_ga_keys(new_affinity, old_affinity) {
            let value =
                new_affinity.map_or(BadValue::Json(Value::Null), |v| BadValue::Json(v.clone()));
            errs.push(field::invalid(
                &Path::new("nodeAffinity"),
                value,
                "field is immutable, except for updating from beta label to GA",
            ));
        }
    }
    let old_class = old
        .get("volumeAttributesClassName")
        .filter(|v| !v.is_null());
    let new_class = new
        .get("volumeAttributesClassName")
        .filter(|v| !v.is_null());
    if old_class.is_some() && new_class.is_none() {
        let spec = Path::new("spec");
        errs.push(field::forbidden(
            &spec.child("volumeAttributesClassName"),
            "update from non-nil value to nil is forbidden",
        ));
    }
}

/// The members of a spec that make its source (`PersistentVolumeSource`), as one object. A
/// CSI `controllerExpandSecretRef` is left out when `old` has a CSI source without one: it
/// may be added after creation.
fn source_of(spec: &Value, old: &Value) -> Value {
    let mut source = serde_json::Map::new();
    for (member, _, _) in sources::SOURCES {
        if let Some(value) = spec.get(member).filter(|v| !v.is_null()) {
            source.insert(member.to_owned(), value.clone());
        }
    }
    let old_lacks_expand_ref = sources::set_object(old, "csi").is_some_and(|csi| {
        csi.get("controllerExpandSecretRef")
            .is_none_or(Value::is_null)
    });
    if old_lacks_expand_ref && let Some(csi) = source.get_mut("csi").and_then(Value::as_object_mut)
    {
        csi.remove("controllerExpandSecretRef");
    }
    Value::Object(source)
}

/// The beta node labels and the GA labels a requirement may move to.
const BETA_TO_GA: [(&str, &str); 5] = [
    (
        "failure-domain.beta.kubernetes.io/zone",
        "topology.kubernetes.io/zone",
    ),
    (
        "failure-domain.beta.kubernetes.io/region",
        "topology.kubernetes.io/region",
    ),
    ("beta.kubernetes.io/os", "kubernetes.io/os"),
    ("beta.kubernetes.io/arch", "kubernetes.io/arch"),
    (
        "beta.kubernetes.io/instance-type",
        "node.kubernetes.io/instance-type",
    ),
];

/// Semantic equality of two node affinities in which each label requirement of the new one
/// may use the GA key of the old one's beta key.
fn affinity_equal_but_ga_keys(new: Option<&Value>, old: &Value) -> bool {
    let Some(new) = new else {
        return false;
    };
    let masked = mask_ga_keys(new, old);
    read::semantic_eq(Some(&masked), Some(old))
}

/// `new` with the key of each requirement put back to the old one's beta key where the new
/// one moved it to the matching GA key (requirements paired by position).
fn mask_ga_keys(new: &Value, old: &Value) -> Value {
    let mut masked = new.clone();
    let old_terms = old
        .get("required")
        .map_or(&[][..], |r| read::list(r, "nodeSelectorTerms"));
    let Some(terms) = masked
        .get_mut("required")
        .and_then(|r| r.get_mut("nodeSelectorTerms"))
        .and_then(Value::as_array_mut)
    else {
        return masked;
    };
    for (term, old_term) in terms.iter_mut().zip(old_terms) {
        let old_reqs = read::list(old_term, "matchExpressions");
        let Some(reqs) = term
            .get_mut("matchExpressions")
            .and_then(Value::as_array_mut)
        else {
            continue;
        };
        for (req, old_req) in reqs.iter_mut().zip(old_reqs) {
            let old_key = read::text(old_req, "key");
            let moved = BETA_TO_GA.iter().any(|(beta, ga)| {
                *beta == old_key && Some(*ga) == req.get("key").and_then(Value::as_str)
            });
            if moved && let Some(obj) = req.as_object_mut() {
                obj.insert("key".to_owned(), Value::from(old_key));
            }
        }
    }
    masked
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn beta_keys_may_move_to_ga() {
        let old = json!({"required": {"nodeSelectorTerms": [{"matchExpressions": [
            {"key": "failure-domain.beta.kubernetes.io/zone", "operator": "In", "values": ["a"]}]}]}});
        let ga = json!({"required": {"nodeSelectorTerms": [{"matchExpressions": [
            {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["a"]}]}]}});
        let other = json!({"required": {"nodeSelectorTerms": [{"matchExpressions": [
            {"key": "topology.kubernetes.io/region", "operator": "In", "values": ["a"]}]}]}});
        assert!(affinity_equal_but_ga_keys(Some(&ga), &old));
        assert!(!affinity_equal_but_ga_keys(Some(&other), &old));
        assert!(!affinity_equal_but_ga_keys(Some(&old), &ga));
        assert!(!affinity_equal_but_ga_keys(None, &old));
    }

    #[test]
    fn a_csi_source_may_gain_an_expand_secret() {
        let old = json!({"csi": {"driver": "d", "volumeHandle": "h"}});
        let new = json!({"csi": {"driver": "d", "volumeHandle": "h",
            "controllerExpandSecretRef": {"name": "s", "namespace": "n"}}});
        let mut errs = ErrorList::new();
        validate_update(&new, &old, &mut errs);
        assert!(errs.is_empty());
        validate_update(&old, &new, &mut errs);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "spec.persistentvolumesource");
    }

    #[test]
    fn capacity_and_node_affinity_print_as_go_marshals_them() {
        let pv = json!({"metadata": {"name": "v"}, "spec": {"accessModes": ["ReadWriteOnce"],
            "capacity": {"storage": "1024Mi", "cpu": "1000m"}, "nfs": {"server": "s", "path": "/p"}}});
        let errs = persistent_volume(&pv);
        assert_eq!(
            errs[0].body(),
            r#"Unsupported value: {"cpu":"1","storage":"1Gi"}: supported values: "storage""#
        );
        let old = json!({"metadata": {"name": "v"}, "spec": {"accessModes": ["ReadWriteOnce"],
            "capacity": {"storage": "1Gi"}, "nfs": {"server": "s", "path": "/p"},
            "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
                {"key": "a", "operator": "Exists"}]}]}}}});
        let mut new = old.clone();
        new["spec"]["nodeAffinity"] = Value::Null;
        let errs = persistent_volume_update(&new, &old);
        assert_eq!(
            errs.iter()
                .map(|e| format!("{}: {}", e.field, e.body()))
                .collect::<Vec<_>>(),
            [
                "nodeAffinity: Invalid value: null: field is immutable, except for updating from beta label to GA"
            ]
        );
    }
}
