//! Checks of what a pod shares with its node: host namespaces, host ports, probes and
//! lifecycle handlers aimed at another host, and Windows host processes.

use super::{
    Container, Found, Pod, child, containers_phrase, flag, items, join_quote, pluralize, setters,
    sorted_set, text,
};

/// Baseline `hostNamespaces` (v1.0): no `hostNetwork`, `hostPID` or `hostIPC`.
pub(super) fn namespaces(pod: &Pod<'_>) -> Option<Found> {
    let spec = pod.spec()?;
    let shared: Vec<&str> = [
        ("hostNetwork", "hostNetwork=true"),
        ("hostPID", "hostPID=true"),
        ("hostIPC", "hostIPC=true"),
    ]
    .into_iter()
    .filter(|(key, _)| flag(spec, key).unwrap_or(false))
    .map(|(_, said)| said)
    .collect();
    (!shared.is_empty()).then(|| Found {
        reason: "host namespaces",
        detail: shared.join(", "),
    })
}

/// Baseline `hostPorts` (v1.0): no container port sets a `hostPort`.
pub(super) fn ports(pod: &Pod<'_>) -> Option<Found> {
    let mut bad = Vec::new();
    let mut host_ports = Vec::new();
    for c in pod.containers() {
        let mut valid = true;
        for port in items(c.0, "ports").iter().filter_map(|p| p.as_object()) {
            let host_port = port.get("hostPort").and_then(|p| p.as_i64()).unwrap_or(0);
            if host_port != 0 {
                valid = false;
                host_ports.push(host_port.to_string());
            }
        }
        if !valid {
            bad.push(c.name());
        }
    }
    if bad.is_empty() {
        return None;
    }
    let host_ports = sorted_set(host_ports);
    Some(Found {
        reason: "hostPort",
        detail: format!(
            "{} {} {} {}",
            containers_phrase(&bad),
            pluralize("uses", "use", bad.len()),
            pluralize("hostPort", "hostPorts", host_ports.len()),
            host_ports.join(", ")
        ),
    })
}

/// The hosts an HTTP or TCP handler (of a probe or a lifecycle hook) names.
fn handler_hosts(
    handler: Option<&serde_json::Map<String, serde_json::Value>>,
) -> impl Iterator<Item = &str> {
    handler.into_iter().flat_map(|h| {
        ["httpGet", "tcpSocket"]
            .into_iter()
            .filter_map(move |kind| child(h, kind))
            .map(|action| text(action, "host"))
            .filter(|host| !host.is_empty())
    })
}

/// The hosts a container's probes and lifecycle hooks name.
fn container_hosts<'a>(c: Container<'a>) -> impl Iterator<Item = &'a str> {
    let probes = ["livenessProbe", "readinessProbe", "startupProbe"]
        .into_iter()
        .flat_map(move |probe| handler_hosts(child(c.0, probe)));
    let lifecycle = child(c.0, "lifecycle");
    let hooks = ["postStart", "preStop"]
        .into_iter()
        .flat_map(move |hook| handler_hosts(lifecycle.and_then(|l| child(l, hook))));
    probes.chain(hooks)
}

/// Baseline `hostProbesAndHostLifecycle` (v1.34): probes and lifecycle handlers leave
/// `host` empty.
pub(super) fn probes_and_lifecycle(pod: &Pod<'_>) -> Option<Found> {
    let mut bad = Vec::new();
    let mut hosts = Vec::new();
    for c in pod.containers() {
        let before = hosts.len();
        hosts.extend(container_hosts(c).map(str::to_owned));
        if hosts.len() > before {
            bad.push(c.name().to_owned());
        }
    }
    if bad.is_empty() {
        return None;
    }
    // Both are sets on the server, listed sorted.
    let (bad, hosts) = (sorted_set(bad), sorted_set(hosts));
    Some(Found {
        reason: "probe or lifecycle host",
        detail: format!(
            "{} {} {} {}",
            containers_phrase(&bad),
            pluralize("uses", "use", bad.len()),
            pluralize(
                "probe or lifecycle host",
                "probe or lifecycle hosts",
                hosts.len()
            ),
            join_quote(&hosts)
        ),
    })
}

/// Whether a security context sets `windowsOptions.hostProcess: true`.
fn host_process(sc: Option<&serde_json::Map<String, serde_json::Value>>) -> bool {
    sc.and_then(|sc| child(sc, "windowsOptions"))
        .and_then(|w| flag(w, "hostProcess"))
        .unwrap_or(false)
}

/// Baseline `windowsHostProcess` (v1.0): neither the pod nor a container asks for a Windows
/// host process.
pub(super) fn windows_host_process(pod: &Pod<'_>) -> Option<Found> {
    let bad: Vec<&str> = pod
        .containers()
        .filter(|c| host_process(c.security_context()))
        .map(|c| c.name())
        .collect();
    let who = setters(host_process(pod.security_context()), &bad);
    (!who.is_empty()).then(|| Found {
        reason: "hostProcess",
        detail: format!(
            "{} must not set securityContext.windowsOptions.hostProcess=true",
            who.join(" and ")
        ),
    })
}
