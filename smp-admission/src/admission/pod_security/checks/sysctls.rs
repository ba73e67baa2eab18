//! Baseline `sysctls`: a pod may set only the sysctls known to be namespaced and isolated,
//! a list that grew in v1.27, v1.29 and v1.32.

use super::{Found, Pod, items, text};

const SINCE_1_0: [&str; 5] = [
    "kernel.shm_rmid_forced",
    "net.ipv4.ip_local_port_range",
    "net.ipv4.tcp_syncookies",
    "net.ipv4.ping_group_range",
    "net.ipv4.ip_unprivileged_port_start",
];
const SINCE_1_27: [&str; 1] = ["net.ipv4.ip_local_reserved_ports"];
const SINCE_1_29: [&str; 4] = [
    "net.ipv4.tcp_keepalive_time",
    "net.ipv4.tcp_fin_timeout",
    "net.ipv4.tcp_keepalive_intvl",
    "net.ipv4.tcp_keepalive_probes",
];
const SINCE_1_32: [&str; 2] = ["net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem"];

/// The pod's sysctls not in `allowed` (in the pod's order, repeats kept).
fn check(pod: &Pod<'_>, allowed: &[&[&str]]) -> Option<Found> {
    let forbidden: Vec<&str> = pod
        .security_context()
        .map(|sc| items(sc, "sysctls"))
        .unwrap_or_default()
        .iter()
        .map(|s| s.as_object().map_or("", |s| text(s, "name")))
        .filter(|name| !allowed.iter().any(|set| set.contains(name)))
        .collect();
    (!forbidden.is_empty()).then(|| Found {
        reason: "forbidden sysctls",
        detail: forbidden.join(", "),
    })
}

pub(super) fn v1_0(pod: &Pod<'_>) -> Option<Found> {
    check(pod, &[&SINCE_1_0])
}

pub(super) fn v1_27(pod: &Pod<'_>) -> Option<Found> {
    check(pod, &[&SINCE_1_0, &SINCE_1_27])
}

pub(super) fn v1_29(pod: &Pod<'_>) -> Option<Found> {
    check(pod, &[&SINCE_1_0, &SINCE_1_27, &SINCE_1_29])
}

pub(super) fn v1_32(pod: &Pod<'_>) -> Option<Found> {
    check(pod, &[&SINCE_1_0, &SINCE_1_27, &SINCE_1_29, &SINCE_1_32])
}
