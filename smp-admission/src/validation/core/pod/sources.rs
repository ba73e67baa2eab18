//! The checks of each volume source but the projected, downward API and ephemeral ones
//! (`validateHostPathVolumeSource`, `validateSecretVolumeSource`, `validateISCSIVolumeSource`,
//! ...). Each gets the source object and the path its errors are reported under.

use serde_json::Value;

use super::context::SourceCtx;
use super::paths;
use crate::quantity::Quantity;
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::names;
use crate::validation::read;

fn require(source: &Value, member: &str, path: &Path, errs: &mut ErrorList) {
    if read::text(source, member).is_empty() {
        errs.push(field::required(&path.child(member), ""));
    }
}

fn require_list(source: &Value, member: &str, path: &Path, errs: &mut ErrorList) {
    if read::list(source, member).is_empty() {
        errs.push(field::required(&path.child(member), ""));
    }
}

pub(super) fn empty_dir(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    let negative = read::opt_text(source, "sizeLimit")
        .and_then(|q| Quantity::parse(q).ok())
        .zip(Quantity::parse("0").ok())
        .is_some_and(|(q, zero)| q.compare(zero).is_lt());
    if negative {
        errs.push(field::forbidden(
            &path.child("sizeLimit"),
            "SizeLimit field must be a valid resource quantity",
        ));
    }
    errs
}

const HOST_PATH_TYPES: [&str; 8] = [
    "",
    "BlockDevice",
    "CharDevice",
    "Directory",
    "DirectoryOrCreate",
    "File",
    "FileOrCreate",
    "Socket",
];

pub(super) fn host_path(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    let target = read::text(source, "path");
    if target.is_empty() {
        errs.push(field::required(&path.child("path"), ""));
        return errs;
    }
    paths::no_backsteps(target, &path.child("path"), &mut errs);
    if let Some(kind) = read::opt_text(source, "type")
        && !HOST_PATH_TYPES.contains(&kind)
    {
        errs.push(field::not_supported(
            &path.child("type"),
            kind,
            &HOST_PATH_TYPES,
        ));
    }
    errs
}

pub(super) fn git_repo(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require(source, "repository", path, &mut errs);
    paths::local_descending(
        read::text(source, "directory"),
        &path.child("directory"),
        &mut errs,
    );
    errs
}

/// Upstream's message for a partition says 1..255 although it accepts 0.
fn partition(source: &Value, path: &Path, errs: &mut ErrorList) {
    let partition = read::int(source, "partition");
    if !(0..=255).contains(&partition) {
        errs.push(field::invalid(
            &path.child("partition"),
            partition,
            &names::inclusive_range_error(1, 255),
        ));
    }
}

pub(super) fn gce_pd(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require(source, "pdName", path, &mut errs);
    partition(source, path, &mut errs);
    errs
}

pub(super) fn aws_ebs(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require(source, "volumeID", path, &mut errs);
    partition(source, path, &mut errs);
    errs
}

pub(super) fn secret(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require(source, "secretName", path, &mut errs);
    paths::file_mode(source, "defaultMode", path, &mut errs);
    items(source, path, &mut errs);
    errs
}

pub(super) fn config_map(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require(source, "name", path, &mut errs);
    paths::file_mode(source, "defaultMode", path, &mut errs);
    items(source, path, &mut errs);
    errs
}

fn items(source: &Value, path: &Path, errs: &mut ErrorList) {
    let items = path.child("items");
    for (i, item) in read::list(source, "items").iter().enumerate() {
        key_to_path(item, &items.index(i), errs);
    }
}

/// `validateKeyToPath`: a key, a relative path below the volume, a file mode.
pub(super) fn key_to_path(item: &Value, path: &Path, errs: &mut ErrorList) {
    require(item, "key", path, errs);
    require(item, "path", path, errs);
    paths::local_non_reserved(read::text(item, "path"), &path.child("path"), errs);
    paths::file_mode(item, "mode", path, errs);
}

pub(super) fn nfs(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require(source, "server", path, &mut errs);
    require(source, "path", path, &mut errs);
    let target = read::text(source, "path");
    if !target.starts_with('/') {
        errs.push(field::invalid(
            &path.child("path"),
            target,
            "must be an absolute path",
        ));
    }
    errs
}

const STARTS_WITH_KNOWN: &str = "must be valid format starting with iqn, eui, or naa";
const BAD_FORMAT: &str = "must be valid format";

pub(super) fn iscsi(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require(source, "targetPortal", path, &mut errs);
    let iqn = read::text(source, "iqn");
    let iqn_path = path.child("iqn");
    if iqn.is_empty() {
        errs.push(field::required(&iqn_path, ""));
    } else if !has_known_prefix(iqn) {
        errs.push(field::invalid(&iqn_path, iqn, STARTS_WITH_KNOWN));
    } else if !iscsi_name_matches(iqn) {
        errs.push(field::invalid(&iqn_path, iqn, BAD_FORMAT));
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
    if chap && !read::is_set(source, "secretRef") {
        errs.push(field::required(&path.child("secretRef"), ""));
    }
    if let Some(initiator) = read::opt_text(source, "initiatorName") {
        // Upstream spells this path in lower case.
        let at = path.child("initiatorname");
        if !has_known_prefix(initiator) {
            errs.push(field::invalid(&at, initiator, STARTS_WITH_KNOWN));
        } else if !iscsi_name_matches(initiator) {
            errs.push(field::invalid(&at, initiator, BAD_FORMAT));
        }
    }
    errs
}

/// With an initiator name set, `<volume name>:<targetPortal>` must fit in 64 characters; the
/// server checks this even when iscsi is not the volume's first source.
pub(super) fn iscsi_name_length(source: &Value, at: &Path, ctx: &SourceCtx, errs: &mut ErrorList) {
    let portal = read::text(source, "targetPortal");
    if read::is_set(source, "initiatorName") && ctx.volume_name.len() + 1 + portal.len() > 64 {
        errs.push(field::invalid(
            &at.child("name"),
            ctx.volume_name,
            "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.",
        ));
    }
}

pub(crate) fn has_known_prefix(name: &str) -> bool {
    ["iqn", "eui", "naa"].iter().any(|p| name.starts_with(p))
}

/// The format of an iSCSI qualified name by its prefix: `iqn.YYYY-MM.<alnum.->:<anything but
/// ,;*&$| and spaces>` (found anywhere, anchored at the end), or `eui.` with 16 and `naa.`
/// with 32 alphanumerics.
pub(crate) fn iscsi_name_matches(name: &str) -> bool {
    if name.starts_with("iqn") {
        (0..name.len()).any(|start| name.is_char_boundary(start) && iqn_at(&name[start..]))
    } else if let Some(rest) = name.strip_prefix("eui") {
        any_char_then_alnum(rest, 16)
    } else if let Some(rest) = name.strip_prefix("naa") {
        any_char_then_alnum(rest, 32)
    } else {
        false
    }
}

fn iqn_at(s: &str) -> bool {
    let b = s.as_bytes();
    let date_ok = b.len() > 12
        && s.starts_with("iqn.")
        && b[4..8].iter().all(u8::is_ascii_digit)
        && b[8] == b'-'
        && b[9..11].iter().all(u8::is_ascii_digit)
        && b[11] == b'.';
    if !date_ok {
        return false;
    }
    let rest = &b[12..];
    let run = rest
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'-' || c == b'.')
        .count();
    if run == 0 || rest.get(run) != Some(&b':') {
        return false;
    }
    let tail = &rest[run + 1..];
    !tail.is_empty()
        && tail
            .iter()
            .all(|c| !b",;*&$|".contains(c) && !b" \t\n\r\x0c".contains(c))
}

fn any_char_then_alnum(rest: &str, count: usize) -> bool {
    let mut chars = rest.chars();
    match chars.next() {
        Some(c) if c != '\n' => {
            let tail = chars.as_str();
            tail.len() == count && tail.bytes().all(|c| c.is_ascii_alphanumeric())
        }
        _ => false,
    }
}

pub(super) fn glusterfs(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require(source, "endpoints", path, &mut errs);
    require(source, "path", path, &mut errs);
    errs
}

pub(super) fn flocker(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    let name = read::text(source, "datasetName");
    let uuid = read::text(source, "datasetUUID");
    if name.is_empty() && uuid.is_empty() {
        errs.push(field::required(
            path,
            "one of datasetName and datasetUUID is required",
        ));
    }
    if !name.is_empty() && !uuid.is_empty() {
        errs.push(field::invalid(
            path,
            "resource",
            "datasetName and datasetUUID can not be specified simultaneously",
        ));
    }
    if name.contains('/') {
        errs.push(field::invalid(
            &path.child("datasetName"),
            name,
            "must not contain '/'",
        ));
    }
    errs
}

pub(super) fn pvc(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require(source, "claimName", path, &mut errs);
    errs
}

pub(super) fn rbd(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require_list(source, "monitors", path, &mut errs);
    require(source, "image", path, &mut errs);
    errs
}

pub(super) fn cinder(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require(source, "volumeID", path, &mut errs);
    if let Some(secret) = source.get("secretRef").filter(|s| s.is_object()) {
        let at = path.child("secretRef");
        require(secret, "name", &at, &mut errs);
    }
    errs
}

pub(super) fn cephfs(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require_list(source, "monitors", path, &mut errs);
    errs
}

const HOST_PORT_PAIRS: &str = "must be a host:port pair or multiple pairs separated by commas";

pub(super) fn quobyte(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    let registry = read::text(source, "registry");
    let registry_path = path.child("registry");
    if registry.is_empty() {
        errs.push(field::required(&registry_path, HOST_PORT_PAIRS));
    } else if read::text(source, "tenant").len() >= 65 {
        errs.push(field::required(
            &path.child("tenant"),
            "must be a UUID and may not exceed a length of 64 characters",
        ));
    } else {
        for pair in registry.split(',') {
            if !splits_host_port(pair) {
                errs.push(field::invalid(&registry_path, registry, HOST_PORT_PAIRS));
            }
        }
    }
    require(source, "volume", path, &mut errs);
    errs
}

/// Whether Go's `net.SplitHostPort` accepts `s` (a port may be empty; brackets only around
/// the host, once).
fn splits_host_port(s: &str) -> bool {
    let Some(colon) = s.rfind(':') else {
        return false;
    };
    let (open_from, close_from) = if s.starts_with('[') {
        let Some(end) = s.find(']') else {
            return false;
        };
        if end + 1 != colon {
            return false;
        }
        (1, end + 1)
    } else {
        if s[..colon].contains(':') {
            return false;
        }
        (0, 0)
    };
    !s[open_from..].contains('[') && !s[close_from..].contains(']')
}

pub(super) fn fc(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    let wwns = read::list(source, "targetWWNs");
    let wwids = read::list(source, "wwids");
    let wwns_path = path.child("targetWWNs");
    if wwns.is_empty() && wwids.is_empty() {
        errs.push(field::required(
            &wwns_path,
            "must specify either targetWWNs or wwids, but not both",
        ));
    }
    if !wwns.is_empty() && !wwids.is_empty() {
        errs.push(field::invalid(
            &wwns_path,
            BadValue::Json(Value::Array(wwns.to_vec())),
            "targetWWNs and wwids can not be specified simultaneously",
        ));
    }
    if !wwns.is_empty() {
        let lun_path = path.child("lun");
        match read::opt_int(source, "lun") {
            None => errs.push(field::required(
                &lun_path,
                "lun is required if targetWWNs is specified",
            )),
            Some(lun) if !(0..=255).contains(&lun) => errs.push(field::invalid(
                &lun_path,
                lun,
                &names::inclusive_range_error(0, 255),
            )),
            Some(_) => {}
        }
    }
    errs
}

pub(super) fn flex_volume(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require(source, "driver", path, &mut errs);
    let options = path.child("options");
    for (key, _) in read::object_or_empty(source, "options") {
        let namespace = key.split_once('/').map_or(key.as_str(), |(ns, _)| ns);
        let normalized = format!(".{}", namespace.to_lowercase());
        if normalized.ends_with(".kubernetes.io") || normalized.ends_with(".k8s.io") {
            errs.push(field::invalid(
                &options.key(key),
                key.as_str(),
                "kubernetes.io and k8s.io namespaces are reserved",
            ));
        }
    }
    errs
}

pub(super) fn azure_file(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require(source, "secretName", path, &mut errs);
    require(source, "shareName", path, &mut errs);
    errs
}

pub(super) fn vsphere(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require(source, "volumePath", path, &mut errs);
    errs
}

pub(super) fn photon(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require(source, "pdID", path, &mut errs);
    errs
}

pub(super) fn portworx(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require(source, "volumeID", path, &mut errs);
    errs
}

const MANAGED_URI: &str = "/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}";
const BLOB_URI: &str =
    "https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd";

pub(super) fn azure_disk(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    require(source, "diskName", path, &mut errs);
    require(source, "diskURI", path, &mut errs);
    if let Some(mode) = read::opt_text(source, "cachingMode")
        && !["None", "ReadOnly", "ReadWrite"].contains(&mode)
    {
        errs.push(field::not_supported(
            &path.child("cachingMode"),
            mode,
            &["None", "ReadOnly", "ReadWrite"],
        ));
    }
    let kind = read::opt_text(source, "kind");
    if let Some(kind) = kind
        && !["Shared", "Dedicated", "Managed"].contains(&kind)
    {
        errs.push(field::not_supported(
            &path.child("kind"),
            kind,
            &["Dedicated", "Managed", "Shared"],
        ));
    }
    let uri = read::text(source, "diskURI");
    let uri_path = path.child("diskURI");
    if kind == Some("Managed") && !uri.starts_with("/subscriptions/") {
        errs.push(field::not_supported(&uri_path, uri, &[MANAGED_URI]));
    }
    if kind.is_some_and(|k| k != "Managed") && !uri.starts_with("https://") {
        errs.push(field::not_supported(&uri_path, uri, &[BLOB_URI]));
    }
    errs
}

pub(super) fn storageos(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    let volume = read::text(source, "volumeName");
    if volume.is_empty() {
        errs.push(field::required(&path.child("volumeName"), ""));
    } else {
        label(volume, &path.child("volumeName"), &mut errs);
    }
    let namespace = read::text(source, "volumeNamespace");
    if !namespace.is_empty() {
        label(namespace, &path.child("volumeNamespace"), &mut errs);
    }
    if let Some(secret) = source.get("secretRef").filter(|s| s.is_object()) {
        let at = path.child("secretRef");
        require(secret, "name", &at, &mut errs);
    }
    errs
}

fn label(value: &str, path: &Path, errs: &mut ErrorList) {
    for msg in names::is_dns1123_label(value) {
        errs.push(field::invalid(path, value, &msg));
    }
}

pub(super) fn scale_io(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    for member in ["gateway", "system", "volumeName"] {
        require(source, member, path, &mut errs);
    }
    errs
}

pub(super) fn csi(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    csi_driver_name(
        read::text(source, "driver"),
        &path.child("driver"),
        &mut errs,
    );
    if let Some(secret) = source.get("nodePublishSecretRef").filter(|s| s.is_object()) {
        let name = read::text(secret, "name");
        if name.is_empty() {
            let at = path.child("nodePublishSecretRef");
            errs.push(field::required(&at.child("name"), ""));
        } else {
            // Upstream reports a bad secret name under `csi.name`.
            let at = path.child("name");
            for msg in names::is_dns1123_subdomain(name) {
                errs.push(field::invalid(&at, name, &msg));
            }
        }
    }
    errs
}

/// `ValidateCSIDriverName`: required, at most 63 characters, a subdomain once lowercased.
pub(crate) fn csi_driver_name(driver: &str, path: &Path, errs: &mut ErrorList) {
    if driver.is_empty() {
        errs.push(field::required(path, ""));
    }
    if driver.len() > 63 {
        errs.push(field::too_long(path, 63));
    }
    for msg in names::is_dns1123_subdomain(&driver.to_lowercase()) {
        errs.push(field::invalid(path, driver, &msg));
    }
}

/// An image volume; its reference may be left for a controller to fill only in templates.
pub(super) fn image(source: &Value, path: &Path, ctx: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    if ctx.options.resource_is_pod {
        require(source, "reference", path, &mut errs);
    }
    let at = path.child("pullPolicy");
    match read::text(source, "pullPolicy") {
        "Always" | "IfNotPresent" | "Never" => {}
        "" => errs.push(field::required(&at, "")),
        other => errs.push(field::not_supported(
            &at,
            other,
            &["Always", "IfNotPresent", "Never"],
        )),
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iscsi_names() {
        assert!(iscsi_name_matches("iqn.2015-02.example.com:test"));
        assert!(!iscsi_name_matches("iqn.2015-02.example.com:test;ls;"));
        assert!(iscsi_name_matches("eui.0123456789ABCDEF"));
        assert!(!iscsi_name_matches("eui.0123456789ABCDEFGHIJ"));
        assert!(iscsi_name_matches("naa.62004567BA64678D0123456789ABCDEF"));
        assert!(!iscsi_name_matches("naa.62004567BA_4-78D.123456789ABCDEF"));
    }

    #[test]
    fn host_port_pairs() {
        assert!(splits_host_port("registry:7861"));
        assert!(splits_host_port("host:"));
        assert!(splits_host_port("[::1]:80"));
        assert!(!splits_host_port("reg2"));
        assert!(!splits_host_port("a:b:c"));
        assert!(!splits_host_port("[::1]"));
    }
}
