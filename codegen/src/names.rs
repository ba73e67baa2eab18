//! Rust names for OpenAPI names: module paths for definitions (laid out as k8s-openapi lays
//! them out), snake_case field names, and serde's `camelCase` rule (to know when a field needs
//! an explicit `rename`).

use crate::error::Error;

/// The top-level modules of smp-types that the generator owns entirely (every file below them
/// is generated).
pub const GENERATED_ROOTS: &[&str] = &[
    "api",
    "apiextensions_apiserver",
    "apimachinery",
    "kube_aggregator",
];

/// Where a definition lives: its module path below the crate root and its type name.
///
/// `io.k8s.api.core.v1.Pod` is `api::core::v1::Pod`;
/// `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta` is `apimachinery::pkg::apis::meta::v1::ObjectMeta`;
/// `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps` is
/// `apiextensions_apiserver::pkg::apis::apiextensions::v1::JSONSchemaProps`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ItemPath {
    /// The module path below the crate root, one segment each.
    pub module: Vec<String>,
    /// The item's identifier.
    pub ident: String,
}

impl ItemPath {
    /// The path of a definition name.
    pub fn of_definition(name: &str) -> Result<ItemPath, Error> {
        let rest = name
            .strip_prefix("io.k8s.")
            .ok_or_else(|| Error::new(format!("definition {name} is not under io.k8s.")))?;
        let mut parts: Vec<&str> = rest.split('.').collect();
        let ident = parts.pop().unwrap_or_default();
        let module: Vec<String> = parts.iter().map(|p| p.replace('-', "_")).collect();
        let root = module.first().map(String::as_str).unwrap_or_default();
        if !GENERATED_ROOTS.contains(&root) || module.len() < 2 {
            return Err(Error::new(format!(
                "definition {name}: unknown top-level module `{root}` (known: {:?})",
                GENERATED_ROOTS
            )));
        }
        if !is_ident(ident) || module.iter().any(|m| !is_ident(m) || is_keyword(m)) {
            return Err(Error::new(format!(
                "definition {name} does not give Rust names"
            )));
        }
        Ok(ItemPath {
            module,
            ident: ident.to_owned(),
        })
    }

    /// `crate::api::core::v1::Pod`.
    pub fn crate_path(&self) -> String {
        format!("crate::{}::{}", self.module.join("::"), self.ident)
    }

    /// `smp_types::api::core::v1::Pod`.
    pub fn public_path(&self) -> String {
        format!("smp_types::{}::{}", self.module.join("::"), self.ident)
    }
}

/// The cargo feature of smp-types that holds a module's types: its API group (`apps`, `core`,
/// ...; `apiextensions` and `apiregistration` for the two API servers' own groups), or `None`
/// for apimachinery's types, which every group uses.
pub fn group_feature(module: &[String]) -> Option<String> {
    match module {
        [root, group, ..] if root == "api" => Some(group.clone()),
        [root, ..] if root == "apiextensions_apiserver" => Some("apiextensions".to_owned()),
        [root, ..] if root == "kube_aggregator" => Some("apiregistration".to_owned()),
        _ => None,
    }
}

/// `#[cfg(feature = "...")]` and a line end for a module's group, or nothing.
pub fn group_cfg(module: &[String], indent: &str) -> String {
    group_feature(module)
        .map(|f| format!("{indent}#[cfg(feature = {f:?})]\n"))
        .unwrap_or_default()
}

/// The alias a module is imported under in another module: `meta_v1`, `core_v1`, `intstr`.
///
/// The last two segments when the last is a version (`apps::v1` is `apps_v1`), else the last.
pub fn module_alias(module: &[String]) -> String {
    match module {
        [.., group, version] if is_version(version) => format!("{group}_{version}"),
        [.., last] => last.clone(),
        [] => String::new(),
    }
}

/// `v1`, `v1beta2`, `v2alpha1`.
pub fn is_version(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('v') else {
        return false;
    };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return false;
    }
    let tail = &rest[digits..];
    tail.is_empty()
        || ["alpha", "beta"].iter().any(|stage| {
            tail.strip_prefix(stage)
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        })
}

/// The Rust field name of a JSON property, as k8s-openapi spells it: snake_case that keeps
/// acronyms whole (`podIP` -> `pod_ip`, `podIPs` -> `pod_ips`, `hostIPC` -> `host_ipc`),
/// `x-kubernetes-...` with underscores, `$ref` -> `ref_path`, `$schema` -> `schema`, and a
/// trailing `_` on Rust keywords (`type` -> `type_`).
pub fn field_ident(json: &str) -> Result<String, Error> {
    let base = match json {
        "$ref" => "ref_path".to_owned(),
        "$schema" => "schema".to_owned(),
        _ => snake_case(json),
    };
    let ident = if is_keyword(&base) {
        format!("{base}_")
    } else {
        base
    };
    if !is_ident(&ident) {
        return Err(Error::new(format!(
            "property {json:?} gives no Rust name ({ident:?})"
        )));
    }
    Ok(ident)
}

fn snake_case(json: &str) -> String {
    let chars: Vec<char> = json.chars().collect();
    let mut out = String::with_capacity(json.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c == '-' || c == '_' {
            out.push('_');
            continue;
        }
        if c.is_ascii_uppercase() {
            let prev = i.checked_sub(1).map(|p| chars[p]);
            let next = chars.get(i + 1).copied();
            let after = chars.get(i + 2).copied();
            let prev_lower = prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit());
            let prev_upper = prev.is_some_and(|p| p.is_ascii_uppercase());
            // An acronym ends where an upper-case letter starts a new word (`URLPath`), but not
            // where it is followed by the plural `s` of the acronym (`IPs`, `CIDRs`).
            let plural_s = next == Some('s') && !after.is_some_and(|a| a.is_ascii_lowercase());
            let starts_word = prev_lower
                || (prev_upper && next.is_some_and(|n| n.is_ascii_lowercase()) && !plural_s);
            if starts_word && !out.is_empty() && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// serde's `rename_all = "camelCase"` of a snake_case field name: `pod_ip` -> `podIp`.
pub fn serde_camel(field: &str) -> String {
    join_words(field, &['_'], false)
}

/// A JSON name in Go style, as `#[union]` names members without an explicit value:
/// `rollingUpdate` -> `RollingUpdate` (first letter upper-cased, `_`/`-` dropped and the next
/// letter upper-cased).
pub fn go_name(json: &str) -> String {
    join_words(json, &['_', '-'], true)
}

/// Drops the separators and upper-cases the letter after each (and the first when
/// `upper_first`).
fn join_words(s: &str, separators: &[char], upper_first: bool) -> String {
    let mut out = String::with_capacity(s.len());
    let mut upper_next = upper_first;
    for c in s.chars() {
        if separators.contains(&c) {
            upper_next = true;
        } else if upper_next {
            out.extend(c.to_uppercase());
            upper_next = false;
        } else {
            out.push(c);
        }
    }
    out
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Strict and reserved keywords of Rust 2024.
pub fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "as" | "async"
            | "await"
            | "break"
            | "const"
            | "continue"
            | "crate"
            | "dyn"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "gen"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "self"
            | "Self"
            | "static"
            | "struct"
            | "super"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "abstract"
            | "become"
            | "box"
            | "do"
            | "final"
            | "macro"
            | "override"
            | "priv"
            | "try"
            | "typeof"
            | "unsized"
            | "virtual"
            | "yield"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names_keep_acronyms_whole() {
        for (json, rust) in [
            ("podIP", "pod_ip"),
            ("podIPs", "pod_ips"),
            ("hostIPC", "host_ipc"),
            ("externalIPs", "external_ips"),
            ("nonResourceURLs", "non_resource_urls"),
            (
                "serverAddressByClientCIDRs",
                "server_address_by_client_cidrs",
            ),
            ("targetWWNs", "target_wwns"),
            (
                "targetCPUUtilizationPercentage",
                "target_cpu_utilization_percentage",
            ),
            ("setHostnameAsFQDN", "set_hostname_as_fqdn"),
            ("apiVersion", "api_version"),
            ("readOnlyRootFilesystem", "read_only_root_filesystem"),
            ("x-kubernetes-list-map-keys", "x_kubernetes_list_map_keys"),
            ("$ref", "ref_path"),
            ("$schema", "schema"),
            ("type", "type_"),
            ("continue", "continue_"),
            ("enum", "enum_"),
            ("datasetUUID", "dataset_uuid"),
            ("iscsiInterface", "iscsi_interface"),
            ("ipv4", "ipv4"),
        ] {
            assert_eq!(field_ident(json).unwrap(), rust, "{json}");
        }
    }

    #[test]
    fn serde_camel_case() {
        assert_eq!(serde_camel("pod_ip"), "podIp");
        assert_eq!(serde_camel("api_version"), "apiVersion");
        assert_eq!(serde_camel("type_"), "type");
    }

    #[test]
    fn go_names() {
        assert_eq!(go_name("rollingUpdate"), "RollingUpdate");
        assert_eq!(go_name("host_path"), "HostPath");
        assert_eq!(go_name("downwardAPI"), "DownwardAPI");
    }

    #[test]
    fn definition_paths() {
        let p = ItemPath::of_definition("io.k8s.api.core.v1.Pod").unwrap();
        assert_eq!(p.crate_path(), "crate::api::core::v1::Pod");
        let p = ItemPath::of_definition(
            "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON",
        )
        .unwrap();
        assert_eq!(
            p.public_path(),
            "smp_types::apiextensions_apiserver::pkg::apis::apiextensions::v1::JSON"
        );
        assert!(ItemPath::of_definition("com.example.v1.Widget").is_err());
        assert_eq!(module_alias(&p.module), "apiextensions_v1");
        let intstr =
            ItemPath::of_definition("io.k8s.apimachinery.pkg.util.intstr.IntOrString").unwrap();
        assert_eq!(module_alias(&intstr.module), "intstr");
        assert!(is_version("v1beta2") && is_version("v2") && !is_version("version"));
    }
}
