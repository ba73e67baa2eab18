//! The capabilities checks: baseline allows adding only the container runtime's default set;
//! restricted asks every container to drop `ALL` and add nothing but `NET_BIND_SERVICE`.

use serde_json::Value;

use super::{Found, Pod, child, containers_phrase, items, join_quote, sorted_set};

/// The capabilities a container runtime grants by default, which baseline lets a container
/// add (v1.0).
const DEFAULT_SET: [&str; 13] = [
    "AUDIT_WRITE",
    "CHOWN",
    "DAC_OVERRIDE",
    "FOWNER",
    "FSETID",
    "KILL",
    "MKNOD",
    "NET_BIND_SERVICE",
    "SETFCAP",
    "SETGID",
    "SETPCAP",
    "SETUID",
    "SYS_CHROOT",
];

/// The names in a capability list (a non-string entry reads as Go's empty string).
fn names(list: &[Value]) -> impl Iterator<Item = &str> {
    list.iter().map(|c| c.as_str().unwrap_or(""))
}

/// Baseline `capabilities_baseline` (v1.0).
pub(super) fn baseline(pod: &Pod<'_>) -> Option<Found> {
    let mut bad = Vec::new();
    let mut added = Vec::new();
    for c in pod.containers() {
        let Some(caps) = c
            .security_context()
            .and_then(|sc| child(sc, "capabilities"))
        else {
            continue;
        };
        let mut valid = true;
        for cap in names(items(caps, "add")) {
            if !DEFAULT_SET.contains(&cap) {
                valid = false;
                added.push(cap.to_owned());
            }
        }
        if !valid {
            bad.push(c.name());
        }
    }
    (!bad.is_empty()).then(|| Found {
        reason: "non-default capabilities",
        detail: format!(
            "{} must not include {} in securityContext.capabilities.add",
            containers_phrase(&bad),
            join_quote(&sorted_set(added))
        ),
    })
}

/// Restricted `capabilities_restricted` (v1.22).
pub(super) fn restricted(pod: &Pod<'_>) -> Option<Found> {
    let mut missing_drop_all = Vec::new();
    let mut adding = Vec::new();
    let mut forbidden = Vec::new();
    for c in pod.containers() {
        let Some(caps) = c
            .security_context()
            .and_then(|sc| child(sc, "capabilities"))
        else {
            missing_drop_all.push(c.name());
            continue;
        };
        if !names(items(caps, "drop")).any(|cap| cap == "ALL") {
            missing_drop_all.push(c.name());
        }
        let mut added_forbidden = false;
        for cap in names(items(caps, "add")) {
            if cap != "NET_BIND_SERVICE" {
                added_forbidden = true;
                forbidden.push(cap.to_owned());
            }
        }
        if added_forbidden {
            adding.push(c.name());
        }
    }
    let mut details = Vec::new();
    if !missing_drop_all.is_empty() {
        details.push(format!(
            r#"{} must set securityContext.capabilities.drop=["ALL"]"#,
            containers_phrase(&missing_drop_all)
        ));
    }
    if !adding.is_empty() {
        details.push(format!(
            "{} must not include {} in securityContext.capabilities.add",
            containers_phrase(&adding),
            join_quote(&sorted_set(forbidden))
        ));
    }
    (!details.is_empty()).then(|| Found {
        reason: "unrestricted capabilities",
        detail: details.join("; "),
    })
}

/// Restricted `capabilities_restricted` (v1.25): as before, except for Windows pods.
pub(super) fn restricted_unless_windows(pod: &Pod<'_>) -> Option<Found> {
    if pod.is_windows() {
        return None;
    }
    restricted(pod)
}
