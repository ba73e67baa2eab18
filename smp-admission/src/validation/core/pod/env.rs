//! A container's environment: `env` (`ValidateEnv` and its `valueFrom` sources) and
//! `envFrom` (`ValidateEnvFrom`).

use serde_json::Value;

use super::PodOptions;
use crate::quantity::{self, Quantity};
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::names;
use crate::validation::read;

/// The pod fields an environment variable may read through `fieldRef`.
const ENV_FIELD_PATHS: [&str; 9] = [
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.serviceAccountName",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];

/// The container resources an environment variable may read through `resourceFieldRef`
/// (sorted, as the server lists them).
const RESOURCE_FIELDS: [&str; 6] = [
    "limits.cpu",
    "limits.ephemeral-storage",
    "limits.memory",
    "requests.cpu",
    "requests.ephemeral-storage",
    "requests.memory",
];

/// The field labels the downward API converts for a v1 pod (`spec.host` is an alias).
const FIELD_LABELS: [&str; 14] = [
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

const HUGEPAGES_PREFIXES: [&str; 2] = ["requests.hugepages-", "limits.hugepages-"];

/// The name rule of variables and `envFrom` prefixes: printable ASCII without `=` since the
/// relaxed rule went GA, the C-identifier-like rule before.
fn env_name_messages(name: &str, options: &PodOptions) -> Vec<String> {
    if options.allow_relaxed_environment_variable_validation {
        names::is_relaxed_env_var_name(name)
    } else {
        names::is_env_var_name(name)
    }
}

/// `ValidateEnv`: each variable has a valid name and at most one way to get its value.
pub(super) fn validate_env(
    vars: &[Value],
    path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    read::view! {
        struct Var {
            name: "name",
            value: "value",
            value_from: "valueFrom",
        }
    }
    for (k, var) in vars.iter().enumerate() {
        let var = Var::of(var);
        let at = path.index(k);
        let name_path = at.child("name");
        let name = var.name.text();
        if name.is_empty() {
            errs.push(field::required(&name_path, ""));
        } else {
            for msg in env_name_messages(name, options) {
                errs.push(field::invalid(&name_path, name, &msg));
            }
        }
        if let Some(from) = var.value_from.set_object() {
            let value = var.value.text();
            validate_value_from(from, value, &at.child("valueFrom"), options, errs);
        }
    }
}

/// `validateEnvVarValueFrom`: every source present is checked, then exactly one source and
/// no literal `value` alongside it.
fn validate_value_from(
    from: &Value,
    value: &str,
    path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    read::view! {
        struct Source {
            field_ref: "fieldRef",
            resource_field_ref: "resourceFieldRef",
            config_map_key_ref: "configMapKeyRef",
            secret_key_ref: "secretKeyRef",
            file_key_ref: "fileKeyRef",
        }
    }
    let from = Source::of(from);
    let mut sources = 0;
    if let Some(r) = from.field_ref.set_object() {
        sources += 1;
        validate_field_ref(r, &path.child("fieldRef"), errs);
    }
    if let Some(r) = from.resource_field_ref.set_object() {
        sources += 1;
        validate_resource_field_ref(r, &path.child("resourceFieldRef"), errs);
    }
    if let Some(r) = from.config_map_key_ref.set_object() {
        sources += 1;
        validate_key_selector(r, &path.child("configMapKeyRef"), errs);
    }
    if let Some(r) = from.secret_key_ref.set_object() {
        sources += 1;
        validate_key_selector(r, &path.child("secretKeyRef"), errs);
    }
    if let Some(r) = from.file_key_ref.set_object() {
        sources += 1;
        validate_file_key_ref(r, &path.child("fileKeyRef"), errs);
    }
    if sources == 0 {
        let msg = if options.allow_env_files_validation {
            "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"
        } else {
            "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"
        };
        errs.push(field::invalid(path, "", msg));
    } else if !value.is_empty() {
        errs.push(field::invalid(
            path,
            "",
            "may not be specified when `value` is not empty",
        ));
    } else if sources > 1 {
        errs.push(field::invalid(
            path,
            "",
            "may not have more than one field specified at a time",
        ));
    }
}

/// `fieldpath.SplitMaybeSubscriptedPath`: `metadata.labels['key']` is the path and the key.
fn split_subscript(field_path: &str) -> Option<(&str, &str)> {
    let inner = field_path.strip_suffix("']")?;
    let (base, key) = inner.split_once("['")?;
    (!base.is_empty()).then_some((base, key))
}

/// `ConvertDownwardAPIFieldLabel` for a pod: the internal field path, or why there is none.
fn convert_field_label<'a>(api_version: &str, label: &'a str) -> Result<&'a str, String> {
    if api_version != "v1" {
        return Err(format!("unsupported pod version: {api_version}"));
    }
    if let Some((base, _)) = split_subscript(label) {
        return match base {
            "metadata.annotations" | "metadata.labels" => Ok(label),
            _ => Err(format!("field label does not support subscript: {label}")),
        };
    }
    if label == "spec.host" {
        return Ok("spec.nodeName");
    }
    if FIELD_LABELS.contains(&label) {
        Ok(label)
    } else {
        Err(format!("field label not supported: {label}"))
    }
}

/// `validateObjectFieldSelector` with the fields an environment variable may read; a
/// subscripted label or annotation key is reported on `fieldRef` itself.
fn validate_field_ref(selector: &Value, path: &Path, errs: &mut ErrorList) {
    let api_version = read::text(selector, "apiVersion");
    if api_version.is_empty() {
        errs.push(field::required(&path.child("apiVersion"), ""));
        return;
    }
    let field_path = read::text(selector, "fieldPath");
    let field_path_path = path.child("fieldPath");
    if field_path.is_empty() {
        errs.push(field::required(&field_path_path, ""));
        return;
    }
    let internal = match convert_field_label(api_version, field_path) {
        Ok(p) => p,
        Err(e) => {
            errs.push(field::invalid(
                &field_path_path,
                field_path,
                &format!("error converting fieldPath: {e}"),
            ));
            return;
        }
    };
    match split_subscript(internal) {
        Some(("metadata.annotations", key)) => qualified_name(&key.to_lowercase(), path, errs),
        Some(("metadata.labels", key)) => qualified_name(key, path, errs),
        Some((base, _)) => errs.push(field::invalid(path, base, "does not support subscript")),
        None if !ENV_FIELD_PATHS.contains(&internal) => {
            errs.push(field::not_supported(
                &field_path_path,
                internal,
                &ENV_FIELD_PATHS,
            ));
        }
        None => {}
    }
}

fn qualified_name(value: &str, path: &Path, errs: &mut ErrorList) {
    for msg in names::is_qualified_name(value) {
        errs.push(field::invalid(path, value, &msg));
    }
}

/// `validateContainerResourceFieldSelector` for a variable (no container name needed): a
/// known resource, and a divisor the resource allows.
fn validate_resource_field_ref(selector: &Value, path: &Path, errs: &mut ErrorList) {
    let resource = read::text(selector, "resource");
    if resource.is_empty() {
        errs.push(field::required(&path.child("resource"), ""));
    } else if !RESOURCE_FIELDS.contains(&resource)
        && !HUGEPAGES_PREFIXES.iter().any(|p| resource.starts_with(p))
    {
        errs.push(field::not_supported(
            &path.child("resource"),
            resource,
            &RESOURCE_FIELDS,
        ));
    }
    validate_divisor(resource, selector.get("divisor"), path, errs);
}

const BYTE_DIVISORS: [&str; 13] = [
    "1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei",
];
const BYTE_DIVISOR_LIST: &str = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei";

/// `validateContainerResourceDivisor`: an unset (zero) divisor is fine; otherwise it must be
/// one of the unit values of its resource, compared as the server prints it. The error's
/// value is the resource name, as upstream reports it.
pub(super) fn validate_divisor(
    resource: &str,
    divisor: Option<&Value>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let Some(text) = divisor.and_then(quantity_text) else {
        return;
    };
    let (Ok(parsed), Some(printed)) = (Quantity::parse(&text), quantity::canonical(&text)) else {
        return;
    };
    let unset = Quantity::parse("0").is_ok_and(|zero| parsed.compare(zero).is_eq());
    if unset {
        return;
    }
    let printed = printed.as_str();
    let divisor_path = path.child("divisor");
    let kind = match resource {
        "limits.cpu" | "requests.cpu" if !matches!(printed, "1m" | "1") => Some("cpu"),
        "limits.memory" | "requests.memory" if !BYTE_DIVISORS.contains(&printed) => Some("memory"),
        "limits.ephemeral-storage" | "requests.ephemeral-storage"
            if !BYTE_DIVISORS.contains(&printed) =>
        {
            Some("local ephemeral storage")
        }
        _ => None,
    };
    match kind {
        Some("cpu") => errs.push(field::invalid(
            &divisor_path,
            resource,
            "only divisor's values 1m and 1 are supported with the cpu resource",
        )),
        Some(kind) => errs.push(field::invalid(
            &divisor_path,
            resource,
            &format!(
                "only divisor's values {BYTE_DIVISOR_LIST} are supported with the {kind} resource"
            ),
        )),
        None => {}
    }
    if HUGEPAGES_PREFIXES.iter().any(|p| resource.starts_with(p))
        && !BYTE_DIVISORS.contains(&printed)
    {
        errs.push(field::invalid(
            &divisor_path,
            resource,
            &format!("only divisor's values {BYTE_DIVISOR_LIST} are supported with the hugepages resource"),
        ));
    }
}

/// A quantity as JSON carries it: a string, or a bare number.
pub(super) fn quantity_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// `validateConfigMapKeySelector` / `validateSecretKeySelector`: the name is checked as a
/// subdomain even when empty (no Required), the key as a config key.
fn validate_key_selector(selector: &Value, path: &Path, errs: &mut ErrorList) {
    let name = read::text(selector, "name");
    for msg in names::name_is_dns_subdomain(name, false) {
        errs.push(field::invalid(&path.child("name"), name, &msg));
    }
    let key_path = path.child("key");
    let key = read::text(selector, "key");
    if key.is_empty() {
        errs.push(field::required(&key_path, ""));
    } else {
        for msg in names::is_config_map_key(key) {
            errs.push(field::invalid(&key_path, key, &msg));
        }
    }
}

/// `validateFileKeySelector` (the `EnvFiles` gate): a variable name as key, a volume named
/// as a DNS label, and a path without `..`.
fn validate_file_key_ref(selector: &Value, path: &Path, errs: &mut ErrorList) {
    let key_path = path.child("key");
    let key = read::text(selector, "key");
    if key.is_empty() {
        errs.push(field::required(&key_path, ""));
    } else {
        for msg in names::is_relaxed_env_var_name(key) {
            errs.push(field::invalid(&key_path, key, &msg));
        }
    }
    let volume_path = path.child("volumeName");
    let volume = read::text(selector, "volumeName");
    if volume.is_empty() {
        errs.push(field::required(&volume_path, ""));
    } else {
        for msg in names::is_dns1123_label(volume) {
            errs.push(field::invalid(&volume_path, volume, &msg));
        }
    }
    let file_path = path.child("path");
    let file = read::text(selector, "path");
    if file.is_empty() {
        errs.push(field::required(&file_path, ""));
    } else if super::paths::has_backsteps(file) {
        errs.push(field::invalid(&file_path, file, "must not contain '..'"));
    }
}

/// `ValidateEnvFrom`: a valid prefix and exactly one source, whose name is checked as a
/// `generateName`-style subdomain (a trailing dash is allowed). The count errors are
/// reported on the list itself, without an index.
pub(super) fn validate_env_from(
    sources: &[Value],
    path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    for (k, source) in sources.iter().enumerate() {
        let at = path.index(k);
        let prefix = read::text(source, "prefix");
        if !prefix.is_empty() {
            for msg in env_name_messages(prefix, options) {
                errs.push(field::invalid(&at.child("prefix"), prefix, &msg));
            }
        }
        let mut count = 0;
        for member in ["configMapRef", "secretRef"] {
            if let Some(r) = read::member(source, member).set_object() {
                count += 1;
                let ref_path = at.child(member);
                let name_path = ref_path.child("name");
                let name = read::text(r, "name");
                if name.is_empty() {
                    errs.push(field::required(&name_path, ""));
                } else {
                    for msg in names::name_is_dns_subdomain(name, true) {
                        errs.push(field::invalid(&name_path, name, &msg));
                    }
                }
            }
        }
        if count == 0 {
            errs.push(field::invalid(
                path,
                "",
                "must specify one of: `configMapRef` or `secretRef`",
            ));
        } else if count > 1 {
            errs.push(field::invalid(
                path,
                "",
                "may not have more than one field specified at a time",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subscripts_split_like_the_server() {
        assert_eq!(
            split_subscript("metadata.labels['app']"),
            Some(("metadata.labels", "app"))
        );
        assert_eq!(split_subscript("['x']"), None);
        assert_eq!(split_subscript("metadata.name"), None);
    }

    #[test]
    fn field_labels_convert() {
        assert_eq!(convert_field_label("v1", "spec.host"), Ok("spec.nodeName"));
        assert_eq!(
            convert_field_label("v2", "metadata.name"),
            Err("unsupported pod version: v2".to_owned())
        );
        assert!(convert_field_label("v1", "status.phase").is_ok());
        assert!(convert_field_label("v1", "spec.foo").is_err());
    }
}
