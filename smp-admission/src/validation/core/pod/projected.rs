//! Volumes of projected files: `downwardAPI` (`validateDownwardAPIVolumeSource`,
//! `validateDownwardAPIVolumeFile`) and `projected` (`validateProjectedVolumeSource`), whose
//! sources share one set of file paths.

use std::collections::BTreeSet;

use serde_json::Value;

use super::context::SourceCtx;
use super::paths;
use super::sources::key_to_path;
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::names;
use crate::validation::read;

const VOLUME_FIELD_PATHS: [&str; 5] = [
    "metadata.annotations",
    "metadata.labels",
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
];

const RESOURCE_FIELD_PATHS: [&str; 6] = [
    "limits.cpu",
    "limits.ephemeral-storage",
    "limits.memory",
    "requests.cpu",
    "requests.ephemeral-storage",
    "requests.memory",
];

/// The fields the downward API converts (`ConvertDownwardAPIFieldLabel` of v1).
const CONVERTIBLE: [&str; 14] = [
    "metadata.annotations",
    "metadata.labels",
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.serviceAccountName",
    "spec.schedulerName",
    "status.phase",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];

pub(super) fn downward_api_volume(source: &Value, path: &Path, _: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    paths::file_mode(source, "defaultMode", path, &mut errs);
    // Upstream reports the items' errors without their index.
    for item in read::list(source, "items") {
        downward_api_file(item, path, &mut errs);
    }
    errs
}

/// `validateDownwardAPIVolumeFile`.
fn downward_api_file(file: &Value, path: &Path, errs: &mut ErrorList) {
    let target = read::text(file, "path");
    let path_path = path.child("path");
    if target.is_empty() {
        errs.push(field::required(&path_path, ""));
    }
    paths::local_non_reserved(target, &path_path, errs);
    let field_ref = file.get("fieldRef").filter(|f| f.is_object());
    let resource_ref = file.get("resourceFieldRef").filter(|f| f.is_object());
    if let Some(field_ref) = field_ref {
        object_field_selector(field_ref, &path.child("fieldRef"), errs);
        if resource_ref.is_some() {
            errs.push(field::invalid(
                path,
                "resource",
                "fieldRef and resourceFieldRef can not be specified simultaneously",
            ));
        }
    } else if let Some(resource_ref) = resource_ref {
        resource_field_selector(resource_ref, &path.child("resourceFieldRef"), errs);
    } else {
        errs.push(field::required(
            path,
            "one of fieldRef and resourceFieldRef is required",
        ));
    }
    paths::file_mode(file, "mode", path, errs);
}

/// `subject['key']` split into `subject` and `key`, as `SplitMaybeSubscriptedPath` does.
fn split_subscript(field_path: &str) -> Option<(&str, &str)> {
    let inner = field_path.strip_suffix("']")?;
    let (subject, key) = inner.split_once("['")?;
    (!subject.is_empty()).then_some((subject, key))
}

/// `validateObjectFieldSelector` with the fields a volume may project.
fn object_field_selector(selector: &Value, path: &Path, errs: &mut ErrorList) {
    let version = read::text(selector, "apiVersion");
    if version.is_empty() {
        errs.push(field::required(&path.child("apiVersion"), ""));
        return;
    }
    let field_path = read::text(selector, "fieldPath");
    let field_path_path = path.child("fieldPath");
    if field_path.is_empty() {
        errs.push(field::required(&field_path_path, ""));
        return;
    }
    if let Some(problem) = conversion_problem(version, field_path) {
        errs.push(field::invalid(
            &field_path_path,
            field_path,
            &format!("error converting fieldPath: {problem}"),
        ));
        return;
    }
    // `spec.host` is the old name of `spec.nodeName`; the check sees the converted name.
    let field_path = if field_path == "spec.host" {
        "spec.nodeName"
    } else {
        field_path
    };
    match split_subscript(field_path) {
        Some(("metadata.annotations", key)) => {
            let key = key.to_lowercase();
            for msg in names::is_qualified_name(&key) {
                errs.push(field::invalid(path, key.as_str(), &msg));
            }
        }
        Some(("metadata.labels", key)) => {
            for msg in names::is_qualified_name(key) {
                errs.push(field::invalid(path, key, &msg));
            }
        }
        Some((subject, _)) => {
            errs.push(field::invalid(path, subject, "does not support subscript"))
        }
        None if !VOLUME_FIELD_PATHS.contains(&field_path) => errs.push(field::not_supported(
            &field_path_path,
            field_path,
            &VOLUME_FIELD_PATHS,
        )),
        None => {}
    }
}

/// Why the downward API could not convert the field, if it could not.
fn conversion_problem(version: &str, field_path: &str) -> Option<String> {
    if version != "v1" {
        return Some(format!("unsupported pod version: {version}"));
    }
    if let Some((subject, _)) = split_subscript(field_path) {
        return (!matches!(subject, "metadata.annotations" | "metadata.labels"))
            .then(|| format!("field label does not support subscript: {field_path}"));
    }
    (!CONVERTIBLE.contains(&field_path) && field_path != "spec.host")
        .then(|| format!("field label not supported: {field_path}"))
}

/// `validateContainerResourceFieldSelector` for a volume: the container is named, and the
/// resource is a known one or a hugepages one.
fn resource_field_selector(selector: &Value, path: &Path, errs: &mut ErrorList) {
    let resource = read::text(selector, "resource");
    if read::text(selector, "containerName").is_empty() {
        errs.push(field::required(&path.child("containerName"), ""));
    } else if resource.is_empty() {
        errs.push(field::required(&path.child("resource"), ""));
    } else if !RESOURCE_FIELD_PATHS.contains(&resource)
        && !resource.starts_with("requests.hugepages-")
        && !resource.starts_with("limits.hugepages-")
    {
        errs.push(field::not_supported(
            &path.child("resource"),
            resource,
            &RESOURCE_FIELD_PATHS,
        ));
    }
    divisor(selector, resource, path, errs);
}

const SIZES: [&str; 13] = [
    "1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei",
];
const SIZES_TEXT: &str = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei";

/// `validateContainerResourceDivisor`: a divisor, when set, is one the resource allows.
fn divisor(selector: &Value, resource: &str, path: &Path, errs: &mut ErrorList) {
    let Some(text) = read::opt_text(selector, "divisor") else {
        return;
    };
    let Some(printed) = crate::quantity::canonical(text) else {
        return;
    };
    if printed == "0" {
        return;
    }
    let at = path.child("divisor");
    let bad =
        |what: &str| format!("only divisor's values {SIZES_TEXT} are supported with the {what}");
    match resource {
        "limits.cpu" | "requests.cpu" if !["1m", "1"].contains(&printed.as_str()) => {
            errs.push(field::invalid(
                &at,
                resource,
                "only divisor's values 1m and 1 are supported with the cpu resource",
            ));
        }
        "limits.memory" | "requests.memory" if !SIZES.contains(&printed.as_str()) => {
            errs.push(field::invalid(&at, resource, &bad("memory resource")));
        }
        "limits.ephemeral-storage" | "requests.ephemeral-storage"
            if !SIZES.contains(&printed.as_str()) =>
        {
            errs.push(field::invalid(
                &at,
                resource,
                &bad("local ephemeral storage resource"),
            ));
        }
        _ => {}
    }
    let hugepages =
        resource.starts_with("requests.hugepages-") || resource.starts_with("limits.hugepages-");
    if hugepages && !SIZES.contains(&printed.as_str()) {
        errs.push(field::invalid(&at, resource, &bad("hugepages resource")));
    }
}

/// `validateProjectedVolumeSource`: the default mode, then each source.
pub(super) fn projected_volume(source: &Value, path: &Path, ctx: &SourceCtx) -> ErrorList {
    let mut errs = ErrorList::new();
    paths::file_mode(source, "defaultMode", path, &mut errs);
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let sources_path = path.child("sources");
    for (i, projection) in read::list(source, "sources").iter().enumerate() {
        let at = sources_path.index(i);
        let mut kinds = 0;
        if let Some(secret) = projection.get("secret").filter(|s| s.is_object()) {
            kinds += 1;
            key_projection(secret, &at.child("secret"), path, &mut seen, &mut errs);
        }
        if let Some(config_map) = projection.get("configMap").filter(|s| s.is_object()) {
            kinds += 1;
            key_projection(
                config_map,
                &at.child("configMap"),
                path,
                &mut seen,
                &mut errs,
            );
        }
        if let Some(downward) = projection.get("downwardAPI").filter(|s| s.is_object()) {
            kinds += 1;
            let downward_path = at.child("downwardAPI");
            for item in read::list(downward, "items") {
                downward_api_file(item, &downward_path, &mut errs);
                let target = read::text(item, "path");
                if !target.is_empty() && !seen.insert(target) {
                    errs.push(duplicate_path(path, target));
                }
            }
        }
        if let Some(token) = projection
            .get("serviceAccountToken")
            .filter(|s| s.is_object())
        {
            kinds += 1;
            token_projection(
                token,
                &at.child("serviceAccountToken"),
                path,
                ctx,
                &mut errs,
            );
        }
        // clusterTrustBundle and podCertificate sources are dropped before validation while
        // their features are off (v1.34), so they are neither checked nor counted.
        if kinds > 1 {
            errs.push(field::forbidden(
                &at,
                "may not specify more than 1 volume type per source",
            ));
        }
    }
    errs
}

fn duplicate_path(volume_path: &Path, value: &str) -> field::FieldError {
    field::invalid(volume_path, value, "conflicting duplicate paths")
}

/// A secret or config map projection: its name, its items, and no item path used twice in
/// the volume (reported on the volume with the object's name).
fn key_projection<'a>(
    source: &'a Value,
    path: &Path,
    volume_path: &Path,
    seen: &mut BTreeSet<&'a str>,
    errs: &mut ErrorList,
) {
    let name = read::text(source, "name");
    if name.is_empty() {
        errs.push(field::required(&path.child("name"), ""));
    }
    let items = path.child("items");
    for (j, item) in read::list(source, "items").iter().enumerate() {
        key_to_path(item, &items.index(j), errs);
        let target = read::text(item, "path");
        if !target.is_empty() && !seen.insert(target) {
            errs.push(duplicate_path(volume_path, name));
        }
    }
}

/// A service account token: at least ten minutes and at most 2^32 seconds; its path is
/// reported under the volume's `path` (upstream's choice).
fn token_projection(
    token: &Value,
    path: &Path,
    volume_path: &Path,
    ctx: &SourceCtx,
    errs: &mut ErrorList,
) {
    let expiration = read::int(token, "expirationSeconds");
    let expiration_path = path.child("expirationSeconds");
    if expiration < 600 {
        errs.push(field::invalid(
            &expiration_path,
            expiration,
            "may not specify a duration less than 10 minutes",
        ));
    }
    if expiration > 1 << 32 {
        errs.push(field::invalid(
            &expiration_path,
            expiration,
            "may not specify a duration larger than 2^32 seconds",
        ));
    }
    let target = read::text(token, "path");
    let path_path = volume_path.child("path");
    if target.is_empty() {
        errs.push(field::required(&path_path, ""));
    } else if !ctx.options.allow_non_local_projected_token_path {
        paths::local_non_reserved(target, &path_path, errs);
    }
}
