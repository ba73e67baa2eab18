//! The warnings of a pod's containers (init, regular, then ephemeral, as the server visits
//! them): legacy seccomp and AppArmor annotations, fractional byte sizes, environment
//! variables hidden by a later one of the same name, and ports that overlap or share a name.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::sink::Sink;
use super::storage::fractional_bytes;
use crate::validation::field::{Path, go_quote};
use crate::validation::read;

pub(super) const SECCOMP_CONTAINER: &str = "container.seccomp.security.alpha.kubernetes.io/";
pub(super) const APPARMOR_CONTAINER: &str = "container.apparmor.security.beta.kubernetes.io/";

/// Every container of `spec` with its path, in the server's order.
pub(super) fn each<'a>(spec: &'a Value, at: &'a Path<'a>) -> Vec<(&'a Value, String)> {
    let mut all = Vec::new();
    for list in ["initContainers", "containers", "ephemeralContainers"] {
        let path = at.child(list);
        for (i, c) in read::list(spec, list).iter().enumerate() {
            all.push((c, path.index(i).render()));
        }
    }
    all
}

fn annotation<'a>(meta: Option<&'a Value>, key: &str) -> Option<&'a Value> {
    meta.and_then(|m| m.get("annotations"))
        .and_then(|a| a.get(key))
}

fn security_member<'a>(c: &'a Value, key: &str) -> Option<&'a Value> {
    c.get("securityContext")
        .and_then(|sc| sc.get(key))
        .filter(|v| v.is_object())
}

/// The profile a legacy AppArmor annotation names (`ApparmorFieldForAnnotation`), as
/// (type, localhost profile); `None` for a value it does not recognise.
pub(super) fn apparmor_for_annotation(value: &str) -> Option<(&'static str, Option<&str>)> {
    match value {
        "unconfined" => Some(("Unconfined", None)),
        "runtime/default" => Some(("RuntimeDefault", None)),
        _ => match value.strip_prefix("localhost/") {
            Some(name) if !name.is_empty() => Some(("Localhost", Some(name))),
            _ => None,
        },
    }
}

/// Whether the profile object `profile` is the one an annotation names.
pub(super) fn same_profile(profile: Option<&Value>, named: Option<(&str, Option<&str>)>) -> bool {
    match (profile, named) {
        (None, None) => true,
        (Some(p), Some((kind, local))) => {
            read::text(p, "type") == kind && read::opt_text(p, "localhostProfile") == local
        }
        _ => false,
    }
}

/// The per-container warnings of one container at `at` (its rendered path).
pub(super) fn container(
    c: &Value,
    at: &str,
    template: Option<&Path>,
    meta: Option<&Value>,
    pod_apparmor: Option<&Value>,
    out: &mut Sink,
) {
    let name = read::text(c, "name");
    let prefix = template.map(|t| t.render());
    let annotation_path = |key: &str| match &prefix {
        Some(p) => format!("{p}.metadata.annotations[{key}]"),
        None => format!("metadata.annotations[{key}]"),
    };
    if security_member(c, "seccompProfile").is_none() {
        let key = format!("{SECCOMP_CONTAINER}{name}");
        if annotation(meta, &key).is_some() {
            out.push(format!(
                r#"{}: non-functional in v1.27+; use the "seccompProfile" field instead"#,
                annotation_path(&key)
            ));
        }
    }
    // For a pod this warning comes from the strategy's AppArmor sync instead.
    if template.is_some() && security_member(c, "appArmorProfile").is_none() {
        let key = format!("{APPARMOR_CONTAINER}{name}");
        if let Some(value) = annotation(meta, &key) {
            let named = apparmor_for_annotation(value.as_str().unwrap_or(""));
            if pod_apparmor.is_none() || !same_profile(pod_apparmor, named) {
                out.push(format!(
                    r#"{}: deprecated since v1.30; use the "appArmorProfile" field instead"#,
                    annotation_path(&key)
                ));
            }
        }
    }
    let resources = c.get("resources");
    let limits = resources.and_then(|r| r.get("limits"));
    let requests = resources.and_then(|r| r.get("requests"));
    let res = format!("{at}.resources");
    let limits_path = Path::new(&res);
    let limits_path = limits_path.child("limits");
    let requests_path = Path::new(&res);
    let requests_path = requests_path.child("requests");
    fractional_bytes(limits, "memory", &limits_path, out);
    fractional_bytes(requests, "memory", &requests_path, out);
    fractional_bytes(limits, "ephemeral-storage", &limits_path, out);
    fractional_bytes(requests, "ephemeral-storage", &requests_path, out);
    hidden_env(c, at, out);
}

/// A variable that repeats an earlier name hides it (and apply may drop one of the two),
/// unless it is a plain value that refers to the earlier one, as `X=$(X):more` does.
fn hidden_env(c: &Value, at: &str, out: &mut Sink) {
    let env = read::list(c, "env");
    if env.len() < 2 {
        return;
    }
    let mut seen = HashSet::new();
    for (i, item) in env.iter().enumerate() {
        let name = read::text(item, "name");
        if seen.insert(name) {
            continue;
        }
        let reference = format!("$({name})");
        let value = read::text(item, "value");
        let hides =
            read::is_set(item, "valueFrom") || value == reference || !value.contains(&reference);
        if hides {
            let mut quoted = String::new();
            go_quote(name, &mut quoted);
            out.push(format!(
                "{at}.env[{i}]: hides previous definition of {quoted}, which may be dropped when using apply"
            ));
        }
    }
}

/// A container port as the checks read it.
struct Port<'a> {
    name: &'a str,
    host_port: i64,
    container_port: i64,
    protocol: &'a str,
    host_ip: &'a str,
    path: String,
}

/// The earlier ports with the same container port and protocol, indexed so that the ports a
/// new one conflicts with are found without comparing it with every earlier one.
#[derive(Default)]
struct Group<'a> {
    all: Vec<usize>,
    by_host_port: HashMap<i64, Vec<usize>>,
    by_host: HashMap<(i64, &'a str), Vec<usize>>,
}

#[derive(Clone, Copy)]
enum Clash {
    Duplicate,
    Overlapping,
    Ambiguous,
}

/// Ports across all containers: a host IP without a host port, the same container port and
/// protocol declared twice in ways that clash, and port names used twice.
pub(super) fn ports(containers: &[(&Value, String)], out: &mut Sink) {
    let mut all: Vec<Port> = Vec::new();
    let mut groups: HashMap<(i64, &str), Group> = HashMap::new();
    for (c, at) in containers {
        for (i, p) in read::list(c, "ports").iter().enumerate() {
            // Past the recorder's budget nothing more is sent; clashing ports could
            // otherwise make this quadratic.
            if out.is_full() {
                return;
            }
            let port = Port {
                name: read::text(p, "name"),
                host_port: read::int(p, "hostPort"),
                container_port: read::int(p, "containerPort"),
                protocol: read::text(p, "protocol"),
                host_ip: read::text(p, "hostIP"),
                path: format!("{at}.ports[{i}]"),
            };
            if !port.host_ip.is_empty() && port.host_port == 0 {
                out.push(format!(
                    "{}: hostIP set without hostPort: {{Name:{} HostPort:{} ContainerPort:{} Protocol:{} HostIP:{}}}",
                    port.path, port.name, port.host_port, port.container_port, port.protocol, port.host_ip
                ));
            }
            let index = all.len();
            let group = groups
                .entry((port.container_port, port.protocol))
                .or_default();
            for (earlier, clash) in clashes(&port, group, &all) {
                if out.is_full() {
                    break;
                }
                let Some(other) = all.get(earlier) else {
                    continue;
                };
                let what = match clash {
                    Clash::Duplicate => "duplicate",
                    Clash::Overlapping => "overlapping",
                    Clash::Ambiguous => "dangerously ambiguous",
                };
                out.push(format!(
                    "{}: {what} port definition with {}",
                    port.path, other.path
                ));
            }
            group.all.push(index);
            group
                .by_host_port
                .entry(port.host_port)
                .or_default()
                .push(index);
            group
                .by_host
                .entry((port.host_port, port.host_ip))
                .or_default()
                .push(index);
            all.push(port);
        }
    }
    let mut names: HashMap<&str, &str> = HashMap::new();
    for port in &all {
        if port.name.is_empty() {
            continue;
        }
        match names.get(port.name) {
            Some(first) => {
                let mut quoted = String::new();
                go_quote(port.name, &mut quoted);
                out.push(format!(
                    "{}: duplicate port name {quoted} with {first}, services and probes that select ports by name will use {first}",
                    port.path
                ));
            }
            None => {
                names.insert(port.name, &port.path);
            }
        }
    }
}

/// The earlier ports of `group` that `port` clashes with, in the order declared.
fn clashes(port: &Port, group: &Group, all: &[Port]) -> Vec<(usize, Clash)> {
    let mut found: Vec<(usize, Clash)> = Vec::new();
    let same_host = |i: usize| {
        all.get(i)
            .is_some_and(|o| o.host_ip == port.host_ip && o.host_port == port.host_port)
    };
    if port.host_port == 0 {
        // A port without a host port clashes with every other: exactly, or by overlap.
        for &i in &group.all {
            let clash = if same_host(i) {
                Clash::Duplicate
            } else {
                Clash::Overlapping
            };
            found.push((i, clash));
        }
        return found;
    }
    for &i in indices(group.by_host_port.get(&0)) {
        found.push((i, Clash::Overlapping));
    }
    for &i in indices(group.by_host.get(&(port.host_port, port.host_ip))) {
        found.push((i, Clash::Duplicate));
    }
    if port.host_ip.is_empty() {
        // Every earlier one on this host port with an address set.
        for &i in indices(group.by_host_port.get(&port.host_port)) {
            if all.get(i).is_some_and(|o| !o.host_ip.is_empty()) {
                found.push((i, Clash::Ambiguous));
            }
        }
    } else {
        for &i in indices(group.by_host.get(&(port.host_port, ""))) {
            found.push((i, Clash::Ambiguous));
        }
    }
    found.sort_unstable_by_key(|(i, _)| *i);
    found
}

/// The indices of an index entry, or none.
fn indices(entry: Option<&Vec<usize>>) -> &[usize] {
    entry.map(Vec::as_slice).unwrap_or(&[])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Many copies of one port clash pairwise upstream; only what fits the recorder's
    /// budget is worked out.
    #[test]
    fn many_identical_ports_are_cheap() {
        let list: Vec<Value> = (0..50_000)
            .map(|_| json!({"containerPort": 80, "protocol": "TCP"}))
            .collect();
        let container = json!({"name": "c", "ports": list});
        let all = vec![(&container, "spec.containers[0]".to_owned())];
        let mut out = Sink::default();
        let start = std::time::Instant::now();
        ports(&all, &mut out);
        assert!(out.is_full());
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }
}
