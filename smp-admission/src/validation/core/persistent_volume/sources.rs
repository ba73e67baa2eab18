//! The volume sources of a PersistentVolume: which one is set (exactly one), and the checks
//! of the sources whose PersistentVolume form differs from the pod volume's (`iscsi` with
//! the volume's name, `local`, `csi` with its secret references, and the secret namespaces
//! that `glusterfs`, `cinder`, `azureFile` and `storageos` add). The others run the pod
//! volume checks (`core::pod::shared_volume_source_check`).

use serde_json::Value;

use crate::validation::core::pod::{
    csi_driver_name, iscsi_has_known_prefix, iscsi_name_matches, shared_volume_source_check,
};
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::names;
use crate::validation::read;

const MORE_THAN_ONE: &str = "may not specify more than 1 volume type";

/// The sources in the order the server tries them: the member, the path segment a source
/// after the first is refused at, and the one its own errors are reported under (upstream
/// spells some of them differently). A FlexVolume is never refused: it is checked and
/// counted wherever it comes.
pub(super) const SOURCES: [(&str, &str, &str); 22] = [
    ("hostPath", "hostPath", "hostPath"),
    ("gcePersistentDisk", "gcePersistentDisk", "persistentDisk"),
    (
        "awsElasticBlockStore",
        "awsElasticBlockStore",
        "awsElasticBlockStore",
    ),
    ("glusterfs", "glusterfs", "glusterfs"),
    ("flocker", "flocker", "flocker"),
    ("nfs", "nfs", "nfs"),
    ("rbd", "rbd", "rbd"),
    ("quobyte", "quobyte", "quobyte"),
    ("cephfs", "cephFS", "cephfs"),
    ("iscsi", "iscsi", "iscsi"),
    ("cinder", "cinder", "cinder"),
    ("fc", "fc", "fc"),
    ("flexVolume", "flexVolume", "flexVolume"),
    ("azureFile", "azureFile", "azureFile"),
    ("vsphereVolume", "vsphereVolume", "vsphereVolume"),
    (
        "photonPersistentDisk",
        "photonPersistentDisk",
        "photonPersistentDisk",
    ),
    ("portworxVolume", "portworxVolume", "portworxVolume"),
    ("azureDisk", "azureDisk", "azureDisk"),
    ("scaleIO", "scaleIO", "scaleIO"),
    ("local", "local", "local"),
    ("storageos", "storageos", "storageos"),
    ("csi", "csi", "csi"),
];

/// The secret references of a CSI source, in the order the server checks them.
const CSI_SECRETS: [&str; 4] = [
    "controllerPublishSecretRef",
    "controllerExpandSecretRef",
    "nodePublishSecretRef",
    "nodeExpandSecretRef",
];

pub(super) fn set_object<'a>(spec: &'a Value, member: &str) -> Option<&'a Value> {
    spec.get(member).filter(|v| v.is_object())
}

/// Checks the sources set in `spec`: the first fully, each later one refused (a FlexVolume
/// only counted). `node_affinity` says whether the volume has node affinity, which a local
/// volume needs. Returns whether any source was set.
pub(super) fn validate_sources(
    spec: &Value,
    pv_name: &str,
    node_affinity: bool,
    path: &Path,
    errs: &mut ErrorList,
) -> bool {
    let mut count = 0;
    for (member, extra_at, own_at) in SOURCES {
        let Some(source) = set_object(spec, member) else {
            continue;
        };
        if count > 0 && member != "flexVolume" {
            errs.push(field::forbidden(&path.child(extra_at), MORE_THAN_ONE));
            continue;
        }
        count += 1;
        let at = path.child(own_at);
        match member {
            "iscsi" => iscsi(source, pv_name, &at, errs),
            "local" => {
                local(source, &at, errs);
                if !node_affinity {
                    errs.push(field::required(
                        &path.child("nodeAffinity"),
                        "Local volume requires node affinity",
                    ));
                }
            }
            "csi" => validate_csi_source(source, &at, errs),
            _ => {
                errs.extend(shared_volume_source_check(member, source, &at).unwrap_or_default());
                secret_namespaces(member, source, &at, errs);
            }
        }
    }
    count > 0
}

/// What the PersistentVolume forms of some shared sources check after the pod form: the
/// namespace of their secret or endpoints, which a volume outside any namespace must name.
fn secret_namespaces(member: &str, source: &Value, path: &Path, errs: &mut ErrorList) {
    match member {
        "glusterfs" => {
            if let Some(namespace) = read::opt_text(source, "endpointsNamespace") {
                let at = path.child("endpointsNamespace");
                if namespace.is_empty() {
                    errs.push(field::invalid(
                        &at,
                        namespace,
                        "if the endpointnamespace is set, it must be a valid namespace name",
                    ));
                } else {
                    for msg in names::name_is_dns_label(namespace, false) {
                        errs.push(field::invalid(&at, namespace, &msg));
                    }
                }
            }
        }
        "cinder" | "storageos" => {
            if let Some(secret) = set_object(source, "secretRef")
                && read::text(secret, "namespace").is_empty()
            {
                let at = path.child("secretRef");
                errs.push(field::required(&at.child("namespace"), ""));
            }
        }
        "azureFile" if read::opt_text(source, "secretNamespace") == Some("") => {
            errs.push(field::required(&path.child("secretNamespace"), ""));
        }
        _ => {}
    }
}

/// `validateISCSIPersistentVolumeSource`: as the pod's, but with the volume's own name in
/// the length rule (reported at `targetportal`), one message for any bad name, and a set
/// secret reference needing a name.
fn iscsi(source: &Value, pv_name: &str, path: &Path, errs: &mut ErrorList) {
    let portal = read::text(source, "targetPortal");
    if portal.is_empty() {
        errs.push(field::required(&path.child("targetPortal"), ""));
    }
    let initiator = read::opt_text(source, "initiatorName");
    if initiator.is_some() && pv_name.len() + 1 + portal.len() > 64 {
        errs.push(field::invalid(
            &path.child("targetportal"),
            portal,
            "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.",
        ));
    }
    let iqn = read::text(source, "iqn");
    let iqn_path = path.child("iqn");
    if iqn.is_empty() {
        errs.push(field::required(&iqn_path, ""));
    } else if !iscsi_has_known_prefix(iqn) || !iscsi_name_matches(iqn) {
        errs.push(field::invalid(&iqn_path, iqn, "must be valid format"));
    }
    let lun = read::int(source, "lun");
    if !(0..=255).contains(&lun) {
        errs.push(field::invalid(
            &path.child("lun"),
            lun,
            &names::inclusive_range_error(0, 255),
        ));
    }
    let chap = read::flag(source, "discoveryCHAPAuth") || read::flag(source, "sessionCHAPAuth");
    let secret = set_object(source, "secretRef");
    if chap && secret.is_none() {
        errs.push(field::required(&path.child("secretRef"), ""));
    }
    if let Some(secret) = secret
        && read::text(secret, "name").is_empty()
    {
        let at = path.child("secretRef");
        errs.push(field::required(&at.child("name"), ""));
    }
    if let Some(initiator) = initiator {
        // Upstream spells this path in lower case, and an unknown prefix is reported once.
        let at = path.child("initiatorname");
        if !iscsi_has_known_prefix(initiator) || !iscsi_name_matches(initiator) {
            errs.push(field::invalid(&at, initiator, "must be valid format"));
        }
    }
}

/// `validateLocalVolumeSource`: a path without `..` steps.
fn local(source: &Value, path: &Path, errs: &mut ErrorList) {
    let target = read::text(source, "path");
    let at = path.child("path");
    if target.is_empty() {
        errs.push(field::required(&at, ""));
    } else if target.split('/').any(|step| step == "..") {
        errs.push(field::invalid(&at, target, "must not contain '..'"));
    }
}

/// `validateCSIPersistentVolumeSource`: driver, volume handle, each secret reference set.
pub(crate) fn validate_csi_source(source: &Value, path: &Path, errs: &mut ErrorList) {
    csi_driver_name(read::text(source, "driver"), &path.child("driver"), errs);
    if read::text(source, "volumeHandle").is_empty() {
        errs.push(field::required(&path.child("volumeHandle"), ""));
    }
    for member in CSI_SECRETS {
        if let Some(secret) = set_object(source, member) {
            validate_pv_secret_reference(secret, &path.child(member), errs);
        }
    }
}

/// A format check of a name: the messages of what is wrong.
type NameCheck = fn(&str) -> Vec<String>;

/// `validatePVSecretReference`: a name that is a DNS subdomain and a namespace that is a
/// DNS label, both required.
fn validate_pv_secret_reference(secret: &Value, path: &Path, errs: &mut ErrorList) {
    let checks: [(&str, NameCheck); 2] = [
        ("name", names::is_dns1123_subdomain),
        ("namespace", names::is_dns1123_label),
    ];
    for (member, check) in checks {
        let value = read::text(secret, member);
        let at = path.child(member);
        if value.is_empty() {
            errs.push(field::required(&at, ""));
            continue;
        }
        for msg in check(value) {
            errs.push(field::invalid(&at, value, &msg));
        }
    }
}
