//! `spec.volumes` (`ValidateVolumes`, `validateVolumeSource`): each volume's name and its one
//! source. A volume with any error is left out of the map containers mount from, so a mount
//! of it fails there and a repeat of its name is not reported as a duplicate.

use std::collections::BTreeSet;

use serde_json::Value;

use super::context::SourceCtx;
use super::{PodOptions, Volumes, ephemeral, projected, sources};
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::names;
use crate::validation::read;

type Check = fn(&Value, &Path, &SourceCtx) -> ErrorList;

/// The sources in the order the server looks at them: the member, the name its "more than 1"
/// error is reported under, the name its own errors are reported under, and its check.
const SOURCES: &[(&str, &str, &str, Check)] = &[
    ("emptyDir", "emptyDir", "emptyDir", sources::empty_dir),
    ("hostPath", "hostPath", "hostPath", sources::host_path),
    ("gitRepo", "gitRepo", "gitRepo", sources::git_repo),
    // Upstream reports this source's own errors under `persistentDisk`.
    (
        "gcePersistentDisk",
        "gcePersistentDisk",
        "persistentDisk",
        sources::gce_pd,
    ),
    (
        "awsElasticBlockStore",
        "awsElasticBlockStore",
        "awsElasticBlockStore",
        sources::aws_ebs,
    ),
    ("secret", "secret", "secret", sources::secret),
    ("nfs", "nfs", "nfs", sources::nfs),
    ("iscsi", "iscsi", "iscsi", sources::iscsi),
    ("glusterfs", "glusterfs", "glusterfs", sources::glusterfs),
    ("flocker", "flocker", "flocker", sources::flocker),
    (
        "persistentVolumeClaim",
        "persistentVolumeClaim",
        "persistentVolumeClaim",
        sources::pvc,
    ),
    ("rbd", "rbd", "rbd", sources::rbd),
    ("cinder", "cinder", "cinder", sources::cinder),
    ("cephfs", "cephFS", "cephfs", sources::cephfs),
    ("quobyte", "quobyte", "quobyte", sources::quobyte),
    // `downwarAPI` is how upstream spells this one's "more than 1" path.
    (
        "downwardAPI",
        "downwarAPI",
        "downwardAPI",
        projected::downward_api_volume,
    ),
    ("fc", "fc", "fc", sources::fc),
    (
        "flexVolume",
        "flexVolume",
        "flexVolume",
        sources::flex_volume,
    ),
    ("configMap", "configMap", "configMap", sources::config_map),
    ("azureFile", "azureFile", "azureFile", sources::azure_file),
    (
        "vsphereVolume",
        "vsphereVolume",
        "vsphereVolume",
        sources::vsphere,
    ),
    (
        "photonPersistentDisk",
        "photonPersistentDisk",
        "photonPersistentDisk",
        sources::photon,
    ),
    (
        "portworxVolume",
        "portworxVolume",
        "portworxVolume",
        sources::portworx,
    ),
    ("azureDisk", "azureDisk", "azureDisk", sources::azure_disk),
    ("storageos", "storageos", "storageos", sources::storageos),
    (
        "projected",
        "projected",
        "projected",
        projected::projected_volume,
    ),
    ("scaleIO", "scaleIO", "scaleIO", sources::scale_io),
    ("csi", "csi", "csi", sources::csi),
    ("ephemeral", "ephemeral", "ephemeral", ephemeral::ephemeral),
    ("image", "image", "image", sources::image),
];

/// `ValidateVolumes`: errors go to `errs`; the valid volumes come back by name.
pub(super) fn validate_volumes<'a>(
    spec: &'a Value,
    meta: Option<&'a Value>,
    spec_path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) -> Volumes<'a> {
    let pod_name = meta
        .map(|m| read::text(m, "name"))
        .filter(|n| !n.is_empty());
    let list = read::list(spec, "volumes");
    // The PVCs the server will create for ephemeral volumes: a claim must not name one.
    let generated: BTreeSet<String> = match pod_name {
        Some(pod) => list
            .iter()
            .filter(|v| read::is_set(v, "ephemeral"))
            .map(|v| format!("{pod}-{}", read::text(v, "name")))
            .collect(),
        None => BTreeSet::new(),
    };
    let volumes_path = spec_path.child("volumes");
    let mut accepted = Volumes::new();
    for (i, volume) in list.iter().enumerate() {
        let at = volumes_path.index(i);
        let name = read::text(volume, "name");
        let ctx = SourceCtx {
            volume_name: name,
            pod_name,
            options,
        };
        let mut own = validate_volume_source(volume, &at, &ctx);
        let name_path = at.child("name");
        if name.is_empty() {
            own.push(field::required(&name_path, ""));
        } else {
            for msg in names::is_dns1123_label(name) {
                own.push(field::invalid(&name_path, name, &msg));
            }
        }
        if accepted.contains_key(name) {
            own.push(field::duplicate(&name_path, name));
        }
        if own.is_empty() {
            accepted.insert(name, volume);
        } else {
            errs.extend(own);
        }
        let claim = volume
            .get("persistentVolumeClaim")
            .filter(|c| c.is_object())
            .map(|c| read::text(c, "claimName"));
        if let Some(claim) = claim.filter(|c| generated.contains(*c)) {
            let claim_path = at.child("persistentVolumeClaim");
            errs.push(field::invalid(
                &claim_path.child("claimName"),
                claim,
                "must not reference a PVC that gets created for an ephemeral volume",
            ));
        }
    }
    accepted
}

/// `validateVolumeSource`: exactly one source, checked; the others only reported.
fn validate_volume_source(volume: &Value, at: &Path, ctx: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    let mut count = 0;
    for &(member, extra_name, own_name, check) in SOURCES {
        let Some(source) = volume.get(member).filter(|s| s.is_object()) else {
            continue;
        };
        if count > 0 {
            errs.push(field::forbidden(
                &at.child(extra_name),
                "may not specify more than 1 volume type",
            ));
        } else {
            count += 1;
            errs.extend(check(source, &at.child(own_name), ctx));
            if member == "ephemeral" {
                ephemeral::generated_claim_name(at, ctx, &mut errs);
            }
        }
        if member == "iscsi" {
            sources::iscsi_name_length(source, at, ctx, &mut errs);
        }
    }
    if count == 0 {
        errs.push(field::required(at, "must specify a volume type"));
    }
    errs
}
