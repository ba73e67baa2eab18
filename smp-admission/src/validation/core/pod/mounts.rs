//! A container's `volumeMounts` and `volumeDevices` (`ValidateVolumeMounts`,
//! `ValidateVolumeDevices`): each names one of the pod's valid volumes, paths are unique,
//! and a volume is used either as a mount or as a block device, not both.
//!
//! Upstream reports the sub-path, propagation and recursive read-only errors on the list's
//! path without the item's index (`volumeMounts.subPath`); that is kept.

use std::collections::{BTreeMap, HashSet};

use serde_json::Value;

use super::{Volumes, paths};
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::read;

/// Name to path of a list of mounts or devices, the last of a name winning (a Go map built
/// from the list).
fn by_name<'a>(items: &'a [Value], path_member: &str) -> BTreeMap<&'a str, &'a str> {
    items
        .iter()
        .map(|i| (read::text(i, "name"), read::text(i, path_member)))
        .collect()
}

/// `ValidateVolumeMounts`.
pub(super) fn validate_volume_mounts(
    ctr: &Value,
    volumes: &Volumes,
    path: &Path,
    errs: &mut ErrorList,
) {
    let devices = by_name(read::list(ctr, "volumeDevices"), "devicePath");
    let device_paths: HashSet<&str> = devices.values().copied().collect();
    let privileged = read::object(ctr, "securityContext")
        .and_then(|sc| sc.get("privileged"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let mut mount_points = HashSet::new();
    for (m, mount) in read::list(ctr, "volumeMounts").iter().enumerate() {
        let at = path.index(m);
        let name_path = at.child("name");
        let name = read::text(mount, "name");
        if name.is_empty() {
            errs.push(field::required(&name_path, ""));
        }
        if !volumes.contains_key(name) {
            errs.push(field::not_found(&name_path, name));
        }
        let mount_path_path = at.child("mountPath");
        let mount_path = read::text(mount, "mountPath");
        if mount_path.is_empty() {
            errs.push(field::required(&mount_path_path, ""));
        }
        if !mount_points.insert(mount_path) {
            errs.push(field::invalid(
                &mount_path_path,
                mount_path,
                "must be unique",
            ));
        }
        if devices.contains_key(name) {
            errs.push(field::invalid(
                &name_path,
                name,
                "must not already exist in volumeDevices",
            ));
        }
        if device_paths.contains(mount_path) {
            errs.push(field::invalid(
                &mount_path_path,
                mount_path,
                "must not already exist as a path in volumeDevices",
            ));
        }
        let sub_path = read::text(mount, "subPath");
        if !sub_path.is_empty() {
            paths::local_descending(sub_path, &path.child("subPath"), errs);
        }
        let expr = read::text(mount, "subPathExpr");
        if !expr.is_empty() {
            if !sub_path.is_empty() {
                errs.push(field::invalid(
                    &at.child("subPathExpr"),
                    expr,
                    "subPathExpr and subPath are mutually exclusive",
                ));
            }
            paths::local_descending(expr, &path.child("subPathExpr"), errs);
        }
        let propagation = read::opt_text(mount, "mountPropagation");
        if let Some(mode) = propagation {
            validate_mount_propagation(mode, privileged, &path.child("mountPropagation"), errs);
        }
        if let Some(rro) = read::opt_text(mount, "recursiveReadOnly") {
            let rro_path = path.child("recursiveReadOnly");
            validate_recursive_read_only(rro, mount, propagation, &rro_path, errs);
        }
    }
}

/// `validateMountPropagation` for a container: a known mode, and `Bidirectional` only in a
/// privileged container.
fn validate_mount_propagation(mode: &str, privileged: bool, path: &Path, errs: &mut ErrorList) {
    if !matches!(mode, "Bidirectional" | "HostToContainer" | "None") {
        errs.push(field::not_supported(
            path,
            mode,
            &["Bidirectional", "HostToContainer", "None"],
        ));
    }
    if mode == "Bidirectional" && !privileged {
        errs.push(field::forbidden(
            path,
            "Bidirectional mount propagation is available only to privileged containers",
        ));
    }
}

/// `validateMountRecursiveReadOnly`: `Enabled` and `IfPossible` need a read-only mount
/// without propagation.
fn validate_recursive_read_only(
    rro: &str,
    mount: &Value,
    propagation: Option<&str>,
    path: &Path,
    errs: &mut ErrorList,
) {
    match rro {
        "Disabled" => {}
        "Enabled" | "IfPossible" => {
            if !read::flag(mount, "readOnly") {
                errs.push(field::forbidden(
                    path,
                    "may only be specified when readOnly is true",
                ));
            }
            if propagation.is_some_and(|p| p != "None") {
                errs.push(field::forbidden(
                    path,
                    "may only be specified when mountPropagation is None or not specified",
                ));
            }
        }
        other => errs.push(field::not_supported(
            path,
            other,
            &["Disabled", "Enabled", "IfPossible"],
        )),
    }
}

/// Whether a volume can back a block device: a claim, or a generic ephemeral volume.
fn is_claim(volume: &Value) -> bool {
    read::is_set(volume, "persistentVolumeClaim") || read::is_set(volume, "ephemeral")
}

/// `ValidateVolumeDevices`.
pub(super) fn validate_volume_devices(
    ctr: &Value,
    volumes: &Volumes,
    path: &Path,
    errs: &mut ErrorList,
) {
    let mounts = by_name(read::list(ctr, "volumeMounts"), "mountPath");
    let mount_paths: HashSet<&str> = mounts.values().copied().collect();
    let mut device_paths = HashSet::new();
    let mut device_names = HashSet::new();
    for (d, device) in read::list(ctr, "volumeDevices").iter().enumerate() {
        let at = path.index(d);
        let name_path = at.child("name");
        let name = read::text(device, "name");
        let volume = volumes.get(name);
        if name.is_empty() {
            errs.push(field::required(&name_path, ""));
        }
        if device_names.contains(name) {
            errs.push(field::invalid(&name_path, name, "must be unique"));
        }
        match volume {
            Some(v) if !is_claim(v) => errs.push(field::invalid(
                &name_path,
                name,
                "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode",
            )),
            Some(_) => {}
            None => errs.push(field::not_found(&name_path, name)),
        }
        let device_path_path = at.child("devicePath");
        let device_path = read::text(device, "devicePath");
        if device_path.is_empty() {
            errs.push(field::required(&device_path_path, ""));
        }
        if device_paths.contains(device_path) {
            errs.push(field::invalid(
                &device_path_path,
                device_path,
                "must be unique",
            ));
        }
        if !device_path.is_empty() && paths::has_backsteps(device_path) {
            errs.push(field::invalid(
                &device_path_path,
                device_path,
                "can not contain backsteps ('..')",
            ));
        } else {
            device_paths.insert(device_path);
        }
        if mounts.contains_key(name) {
            errs.push(field::invalid(
                &name_path,
                name,
                "must not already exist in volumeMounts",
            ));
        }
        if mount_paths.contains(device_path) {
            errs.push(field::invalid(
                &device_path_path,
                device_path,
                "must not already exist as a path in volumeMounts",
            ));
        }
        if !name.is_empty() {
            device_names.insert(name);
        }
    }
}
