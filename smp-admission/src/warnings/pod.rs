//! The warnings of a pod spec with its metadata (`GetWarningsForPod`,
//! `GetWarningsForPodTemplate` of `pkg/api/pod/warnings.go`), in the server's order, and the
//! Pod strategy's own: a name that is not a DNS label, and the AppArmor annotations the
//! strategy copies into fields on create.

use std::collections::HashSet;

use serde_json::Value;

use super::containers::{self, APPARMOR_CONTAINER, apparmor_for_annotation, same_profile};
use super::ip::ip_warnings;
use super::node_labels::{self, sorted_keys};
use super::sink::Sink;
use super::storage::fractional_bytes;
use super::volumes;
use crate::validation::field::{Path, go_quote};
use crate::validation::read;

const SECCOMP_POD: &str = "seccomp.security.alpha.kubernetes.io/pod";

/// Annotations that once configured what fields now do.
const DEPRECATED_ANNOTATIONS: &[(&str, &str)] = &[
    (
        "scheduler.alpha.kubernetes.io/critical-pod",
        r#"non-functional in v1.16+; use the "priorityClassName" field instead"#,
    ),
    (
        "security.alpha.kubernetes.io/sysctls",
        r#"non-functional in v1.11+; use the "sysctls" field instead"#,
    ),
    (
        "security.alpha.kubernetes.io/unsafe-sysctls",
        r#"non-functional in v1.11+; use the "sysctls" field instead"#,
    ),
];

const NULL_SELECTOR: &str = "a null labelSelector results in matching no pod";

/// The pod spec `spec` with its metadata `meta`, under `template` (`None` for a Pod itself,
/// whose paths start at `spec`/`metadata`).
pub(super) fn spec_and_meta(
    spec: &Value,
    meta: Option<&Value>,
    template: Option<&Path>,
    out: &mut Sink,
) {
    let prefix = template.map(Path::render);
    let rooted = |rest: &str| match &prefix {
        Some(p) => format!("{p}.{rest}"),
        None => rest.to_owned(),
    };
    let spec_text = rooted("spec");
    let spec_path = Path::new(&spec_text);
    let annotation = |key: &str| format!("{}[{key}]", rooted("metadata.annotations"));
    let annotations = meta.and_then(|m| m.get("annotations"));
    let has_annotation = |key: &str| annotations.and_then(|a| a.get(key)).is_some();

    let selector = spec_path.child("nodeSelector");
    for key in sorted_keys(spec.get("nodeSelector")) {
        if let Some(msg) = node_labels::deprecated(key) {
            out.push(format!("{}: {msg}", selector.key(key)));
        }
    }
    let affinity = spec.get("affinity").filter(|a| a.is_object());
    if let Some(node) = affinity
        .and_then(|a| a.get("nodeAffinity"))
        .filter(|n| n.is_object())
    {
        let node_path = spec_path.child("affinity");
        let node_path = node_path.child("nodeAffinity");
        if let Some(required) = node
            .get("requiredDuringSchedulingIgnoredDuringExecution")
            .filter(|r| r.is_object())
        {
            let required_path = node_path.child("requiredDuringSchedulingIgnoredDuringExecution");
            let terms = required_path.child("nodeSelectorTerms");
            for (i, term) in read::list(required, "nodeSelectorTerms").iter().enumerate() {
                node_labels::selector_term(term, false, &terms.index(i), out);
            }
        }
        let preferred = node_path.child("preferredDuringSchedulingIgnoredDuringExecution");
        let list = read::list(node, "preferredDuringSchedulingIgnoredDuringExecution");
        for (i, term) in list.iter().enumerate() {
            let at = preferred.index(i);
            let preference = term.get("preference").unwrap_or(&Value::Null);
            node_labels::selector_term(preference, true, &at.child("preference"), out);
        }
    }
    let spread = spec_path.child("topologySpreadConstraints");
    for (i, constraint) in read::list(spec, "topologySpreadConstraints")
        .iter()
        .enumerate()
    {
        let at = spread.index(i);
        let key = read::text(constraint, "topologyKey");
        if let Some(msg) = node_labels::deprecated(key) {
            out.push(format!("{}: {key} is {msg}", at.child("topologyKey")));
        }
        if !read::is_set(constraint, "labelSelector") {
            out.push(format!("{}: {NULL_SELECTOR}", at.child("labelSelector")));
        }
    }
    for (key, msg) in DEPRECATED_ANNOTATIONS {
        if has_annotation(key) {
            out.push(format!("{}: {msg}", annotation(key)));
        }
    }
    volumes::volumes(read::list(spec, "volumes"), &spec_path, out);
    duplicates(spec, &spec_path, out);
    let overhead = spec.get("overhead");
    let overhead_path = spec_path.child("overhead");
    fractional_bytes(overhead, "memory", &overhead_path, out);
    fractional_bytes(overhead, "ephemeral-storage", &overhead_path, out);

    let pod_context = spec.get("securityContext").filter(|sc| sc.is_object());
    let pod_seccomp = pod_context
        .and_then(|sc| sc.get("seccompProfile"))
        .filter(|p| p.is_object());
    if pod_seccomp.is_none() && has_annotation(SECCOMP_POD) {
        out.push(format!(
            r#"{}: non-functional in v1.27+; use the "seccompProfile" field instead"#,
            annotation(SECCOMP_POD)
        ));
    }
    let pod_apparmor = pod_context
        .and_then(|sc| sc.get("appArmorProfile"))
        .filter(|p| p.is_object());
    let all = containers::each(spec, &spec_path);
    for (c, at) in &all {
        containers::container(c, at, template, meta, pod_apparmor, out);
    }
    containers::ports(&all, out);

    if read::opt_int(spec, "terminationGracePeriodSeconds").is_some_and(|s| s < 0) {
        out.push(format!(
            "{}: must be >= 0; negative values are invalid and will be treated as 1",
            spec_path.child("terminationGracePeriodSeconds")
        ));
    }
    if let Some(affinity) = affinity {
        let affinity_path = spec_path.child("affinity");
        for kind in ["podAffinity", "podAntiAffinity"] {
            let Some(terms) = affinity.get(kind).filter(|a| a.is_object()) else {
                continue;
            };
            let kind_path = affinity_path.child(kind);
            let required = kind_path.child("requiredDuringSchedulingIgnoredDuringExecution");
            let list = read::list(terms, "requiredDuringSchedulingIgnoredDuringExecution");
            for (i, term) in list.iter().enumerate() {
                if !read::is_set(term, "labelSelector") {
                    out.push(format!(
                        "{}: {NULL_SELECTOR}",
                        required.index(i).child("labelSelector")
                    ));
                }
            }
            let preferred = kind_path.child("preferredDuringSchedulingIgnoredDuringExecution");
            let list = read::list(terms, "preferredDuringSchedulingIgnoredDuringExecution");
            for (i, term) in list.iter().enumerate() {
                let selector = term
                    .get("podAffinityTerm")
                    .and_then(|t| t.get("labelSelector"));
                if selector.is_none_or(Value::is_null) {
                    let at = preferred.index(i);
                    let at = at.child("podAffinityTerm");
                    out.push(format!("{}: {NULL_SELECTOR}", at.child("labelSelector")));
                }
            }
        }
    }
    if let Some(dns) = spec.get("dnsConfig").filter(|d| d.is_object()) {
        let dns_path = spec_path.child("dnsConfig");
        let servers = dns_path.child("nameservers");
        for (i, server) in read::list(dns, "nameservers").iter().enumerate() {
            ip_warnings(&servers.index(i), server.as_str().unwrap_or(""), out);
        }
    }
    let aliases = spec_path.child("hostAliases");
    for (i, alias) in read::list(spec, "hostAliases").iter().enumerate() {
        let at = aliases.index(i);
        ip_warnings(&at.child("ip"), read::text(alias, "ip"), out);
    }
}

/// Host aliases with the same address, image pull secrets with the same name, and image
/// pull secrets without a name.
fn duplicates(spec: &Value, spec_path: &Path, out: &mut Sink) {
    let quoted = |s: &str| {
        let mut q = String::new();
        go_quote(s, &mut q);
        q
    };
    let aliases = read::list(spec, "hostAliases");
    if aliases.len() > 1 {
        let list = spec_path.child("hostAliases");
        let mut seen = HashSet::new();
        for (i, alias) in aliases.iter().enumerate() {
            let ip = read::text(alias, "ip");
            if !seen.insert(ip) {
                let at = list.index(i);
                out.push(format!("{}: duplicate ip {}", at.child("ip"), quoted(ip)));
            }
        }
    }
    let secrets = read::list(spec, "imagePullSecrets");
    let list = spec_path.child("imagePullSecrets");
    if secrets.len() > 1 {
        let mut seen = HashSet::new();
        for (i, secret) in secrets.iter().enumerate() {
            let name = read::text(secret, "name");
            if !seen.insert(name) {
                let at = list.index(i);
                out.push(format!(
                    "{}: duplicate name {}",
                    at.child("name"),
                    quoted(name)
                ));
            }
        }
    }
    for (i, secret) in secrets.iter().enumerate() {
        if read::text(secret, "name").is_empty() {
            let at = list.index(i);
            out.push(format!("{}: invalid empty name \"\"", at.child("name")));
        }
    }
}

/// The Pod strategy's AppArmor sync on create (`applyAppArmorVersionSkew`), which warns for
/// each container that has a legacy annotation and no profile of its own, unless the
/// annotation names a valid profile equal to the pod's (then nothing is copied). Read on the
/// pod as sent: this crate's strategy step does not copy the annotations into fields.
pub(super) fn apparmor_skew(pod: &Value, out: &mut Sink) {
    let spec = pod.get("spec").unwrap_or(&Value::Null);
    if spec
        .get("os")
        .is_some_and(|os| read::text(os, "name") == "windows")
    {
        return;
    }
    let annotations = pod.get("metadata").and_then(|m| m.get("annotations"));
    let pod_profile = spec
        .get("securityContext")
        .and_then(|sc| sc.get("appArmorProfile"))
        .filter(|p| p.is_object());
    let root = Path::new("spec");
    for (c, _) in containers::each(spec, &root) {
        let key = format!("{APPARMOR_CONTAINER}{}", read::text(c, "name"));
        let Some(value) = annotations.and_then(|a| a.get(&key)) else {
            continue;
        };
        let own = c
            .get("securityContext")
            .and_then(|sc| sc.get("appArmorProfile"))
            .filter(|p| p.is_object());
        if own.is_some() {
            continue;
        }
        let named = apparmor_for_annotation(value.as_str().unwrap_or("")).filter(valid_profile);
        let copied_or_invalid = match named {
            None => true,
            Some(_) => !same_profile(pod_profile, named),
        };
        if copied_or_invalid {
            out.push(format!(
                r#"metadata.annotations[{key}]: deprecated since v1.30; use the "appArmorProfile" field instead"#
            ));
        }
    }
}

/// `ValidateAppArmorProfileField` on a profile named by an annotation: a localhost profile
/// name must not be padded with whitespace nor longer than 4095 bytes.
fn valid_profile(named: &(&str, Option<&str>)) -> bool {
    match named.1 {
        Some(local) => local.trim() == local && !local.is_empty() && local.len() <= 4095,
        None => true,
    }
}

/// The Pod strategy's name warning, shared by the workload kinds whose names become pod
/// names (`this is used in …`): a name that is not a DNS label. A name the server generates
/// is its `generateName` (cut to 58 bytes) and five random lowercase letters and digits,
/// which is a DNS label exactly when the prefix followed by letters is one.
pub(super) fn name_warning(obj: &Value, used_in: &str, out: &mut Sink) {
    let meta = obj.get("metadata").unwrap_or(&Value::Null);
    let name = read::text(meta, "name");
    let generated;
    let name = if !name.is_empty() {
        name
    } else {
        let base = read::text(meta, "generateName");
        if base.is_empty() {
            // Validation refuses an object without a name before warnings are sent.
            return;
        }
        let mut cut = base.len().min(GENERATED_BASE_MAX);
        while !base.is_char_boundary(cut) {
            cut -= 1;
        }
        generated = format!("{}xxxxx", base.get(..cut).unwrap_or(""));
        generated.as_str()
    };
    let msgs = crate::validation::names::is_dns1123_label(name);
    if !msgs.is_empty() {
        out.push(format!(
            "metadata.name: this is used in {used_in}, which can result in surprising behavior; a DNS label is recommended: [{}]",
            msgs.join(" ")
        ));
    }
}

/// How much of `generateName` a generated name keeps (`maxGeneratedNameLength`).
const GENERATED_BASE_MAX: usize = 58;
