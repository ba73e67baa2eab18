//! A container's `volumeMounts` and `volumeDevices` (`ValidateVolumeMounts`,
//! `ValidateVolumeDevices`): each names one of the pod's valid volumes, paths are unique,
//! and a volume is used either as a mount or as a block device, not both.
//!
//! Upstream reports the sub-path, propagation and recursive read-only errors on the list's
//! path without the item's index (`volumeMounts.subPath`); that is kept.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{Volumes, paths};
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::read;
use crate::validation::seen::Seen;

/// Name to path of a list of mounts or devices, the last of a name winning (a Go map built
/// from the list).
fn by_name<'a>(items: &'a [Value], path_member: &str) -> BTreeMap<&'a str, &'a str> {
    items
        .iter()
        .map(|i| (read::text(i, "name"), read::text(i, path_member)))
        .collect()
}

read::view! {
    /// The members of a volume mount its checks read.
    struct Mount {
        name: "name",
        mount_path: "mountPath",
        sub_path: "subPath",
        sub_path_expr: "subPathExpr",
        mount_propagation: "mountPropagation",
        recursive_read_only: "recursiveReadOnly",
        read_only: "readOnly",
    }
}

/// `ValidateVolumeMounts`.
pub(super) fn validate_volume_mounts(
    mounts: &[Value],
    devices: &[Value],
    privileged: bool,
    volumes: &Volumes,
    path: &Path,
    errs: &mut ErrorList,
) {
    let devices = by_name(devices, "devicePath");
    let device_paths: Seen = devices.values().copied().collect();
    let mut mount_points = Seen::new();
    for (m, mount) in mounts.iter().enumerate() {
        let mount = Mount::of(mount);
        let at = path.index(m);
        let name_path = at.child("name");
        let name = mount.name.text();
        if name.is_empty() {
            errs.push(field::required(&name_path, ""));
        }
        if !volumes.contains_key(name) {
            errs.push(field::not_found(&name_path, name));
        }
        let mount_path_path = at.child("mountPath");
        let mount_path = mount.mount_path.text();
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
        let sub_path = mount.sub_path.text();
        if !sub_path.is_empty() {
            paths::local_descending(sub_path, &path.child("subPath"), errs);
        }
        let expr = mount.sub_path_expr.text();
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
        let propagation = mount.mount_propagation.opt_text();
        if let Some(mode) = propagation {
            validate_mount_propagation(mode, privileged, &path.child("mountPropagation"), errs);
        }
        if let Some(rro) = mount.recursive_read_only.opt_text() {
            let rro_path = path.child("recursiveReadOnly");
            let read_only = mount.read_only.flag();
            validate_recursive_read_only(rro, read_only, propagation, &rro_path, errs);
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
    read_only: bool,
    propagation: Option<&str>,
    path: &Path,
    errs: &mut ErrorList,
) {
    match rro {
        "Disabled" => {}
        "Enabled" | "IfPossible" => {
            if !read_only {
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
    mounts: &[Value],
    devices: &[Value],
    volumes: &Volumes,
    path: &Path,
    errs: &mut ErrorList,
) {
    if devices.is_empty() {
        return;
    }
    let mounts = by_name(mounts, "mountPath");
    let mount_paths: Seen = mounts.values().copied().collect();
    let mut device_paths = Seen::new();
    let mut device_names = Seen::new();
    for (d, device) in devices.iter().enumerate() {
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
