//! Checks of the user a pod's processes run as: restricted asks for `runAsNonRoot: true` and
//! forbids `runAsUser: 0` (both waived, when relaxed, for pods in a user namespace).

use super::{Found, Pod, containers_phrase, flag, setters};

/// Restricted `runAsNonRoot` (v1.0): the pod, or else every container, sets
/// `runAsNonRoot: true`, and nothing sets it `false`.
pub(super) fn run_as_non_root(pod: &Pod<'_>) -> Option<Found> {
    if pod.relaxed_for_user_namespace() {
        return None;
    }
    let pod_setting = pod
        .security_context()
        .and_then(|sc| flag(sc, "runAsNonRoot"));
    let pod_bad = pod_setting == Some(false);
    let pod_non_root = pod_setting == Some(true);
    let mut explicit = Vec::new();
    let mut implicit = Vec::new();
    for c in pod.containers() {
        match c.security_context().and_then(|sc| flag(sc, "runAsNonRoot")) {
            Some(false) => explicit.push(c.name()),
            Some(true) => {}
            None if !pod_non_root => implicit.push(c.name()),
            None => {}
        }
    }
    let who = setters(pod_bad, &explicit);
    if !who.is_empty() {
        return Some(Found {
            reason: "runAsNonRoot != true",
            detail: format!(
                "{} must not set securityContext.runAsNonRoot=false",
                who.join(" and ")
            ),
        });
    }
    (!implicit.is_empty()).then(|| Found {
        reason: "runAsNonRoot != true",
        detail: format!(
            "pod or {} must set securityContext.runAsNonRoot=true",
            containers_phrase(&implicit)
        ),
    })
}

/// Whether a security context sets `runAsUser: 0`.
fn root(sc: Option<&serde_json::Map<String, serde_json::Value>>) -> bool {
    sc.and_then(|sc| sc.get("runAsUser"))
        .and_then(serde_json::Value::as_i64)
        == Some(0)
}

/// Restricted `runAsUser` (v1.23): nothing sets `runAsUser: 0`.
pub(super) fn run_as_user(pod: &Pod<'_>) -> Option<Found> {
    if pod.relaxed_for_user_namespace() {
        return None;
    }
    let bad: Vec<&str> = pod
        .containers()
        .filter(|c| root(c.security_context()))
        .map(|c| c.name())
        .collect();
    let who = setters(root(pod.security_context()), &bad);
    (!who.is_empty()).then(|| Found {
        reason: "runAsUser=0",
        detail: format!("{} must not set runAsUser=0", who.join(" and ")),
    })
}
