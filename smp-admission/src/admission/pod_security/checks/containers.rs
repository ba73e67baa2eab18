//! Checks of each container's own security context: `privileged`, `procMount` and
//! `allowPrivilegeEscalation`.

use super::{Found, Pod, containers_phrase, flag, sorted_set, text};

/// Baseline `privileged` (v1.0): no container sets `privileged: true`.
pub(super) fn privileged(pod: &Pod<'_>) -> Option<Found> {
    let bad: Vec<&str> = pod
        .containers()
        .filter(|c| {
            c.security_context()
                .and_then(|sc| flag(sc, "privileged"))
                .unwrap_or(false)
        })
        .map(|c| c.name())
        .collect();
    (!bad.is_empty()).then(|| Found {
        reason: "privileged",
        detail: format!(
            "{} must not set securityContext.privileged=true",
            containers_phrase(&bad)
        ),
    })
}

/// Baseline `procMount` (v1.0): a container's `procMount` is unset or `Default` (any value in
/// a user namespace, when the standards are relaxed for those).
pub(super) fn proc_mount(pod: &Pod<'_>) -> Option<Found> {
    if pod.relaxed_for_user_namespace() {
        return None;
    }
    let mut bad = Vec::new();
    let mut types = Vec::new();
    for c in pod.containers() {
        let Some(sc) = c.security_context() else {
            continue;
        };
        if sc.get("procMount").is_none_or(|v| v.is_null()) {
            continue;
        }
        let mount = text(sc, "procMount");
        if mount != "Default" {
            bad.push(c.name());
            types.push(mount.to_owned());
        }
    }
    (!bad.is_empty()).then(|| Found {
        reason: "procMount",
        detail: format!(
            "{} must not set securityContext.procMount to {}",
            containers_phrase(&bad),
            super::join_quote(&sorted_set(types))
        ),
    })
}

/// Restricted `allowPrivilegeEscalation` (v1.8): every container sets it to `false`.
pub(super) fn allow_privilege_escalation(pod: &Pod<'_>) -> Option<Found> {
    let bad: Vec<&str> = pod
        .containers()
        .filter(|c| {
            c.security_context()
                .and_then(|sc| flag(sc, "allowPrivilegeEscalation"))
                .is_none_or(|allowed| allowed)
        })
        .map(|c| c.name())
        .collect();
    (!bad.is_empty()).then(|| Found {
        reason: "allowPrivilegeEscalation != false",
        detail: format!(
            "{} must set securityContext.allowPrivilegeEscalation=false",
            containers_phrase(&bad)
        ),
    })
}

/// Restricted `allowPrivilegeEscalation` (v1.25): as before, except for Windows pods.
pub(super) fn allow_privilege_escalation_unless_windows(pod: &Pod<'_>) -> Option<Found> {
    if pod.is_windows() {
        return None;
    }
    allow_privilege_escalation(pod)
}
