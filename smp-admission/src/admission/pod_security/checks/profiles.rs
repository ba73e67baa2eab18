//! Checks of the security profiles a pod asks for: AppArmor, SELinux and seccomp, set in the
//! security contexts or, for older versions, in annotations.

use serde_json::{Map, Value};

use super::{
    Found, Pod, child, containers_phrase, join_quote, pluralize, setters, sorted_set, text,
};
use crate::validation::field::go_quote;

/// `key="value"` as the server prints a forbidden annotation (Go's `%s=%q`).
fn annotation(key: &str, value: &str) -> String {
    let mut out = format!("{key}=");
    go_quote(value, &mut out);
    out
}

/// The profile type set under `profile` of a security context, if the profile is set.
fn profile_type<'a>(sc: Option<&'a Map<String, Value>>, profile: &str) -> Option<&'a str> {
    sc.and_then(|sc| child(sc, profile))
        .map(|p| text(p, "type"))
}

const APP_ARMOR_ANNOTATION_PREFIX: &str = "container.apparmor.security.beta.kubernetes.io/";

/// Baseline `appArmorProfile` (v1.0): profiles of type `RuntimeDefault` or `Localhost` only,
/// in the fields and in the deprecated annotations (`runtime/default`, `localhost/*`).
pub(super) fn app_armor(pod: &Pod<'_>) -> Option<Found> {
    let allowed = |t: &str| matches!(t, "RuntimeDefault" | "Localhost");
    let mut who = Vec::new();
    let mut values = Vec::new();
    if let Some(t) = profile_type(pod.security_context(), "appArmorProfile").filter(|t| !allowed(t))
    {
        who.push("pod".to_owned());
        values.push(t.to_owned());
    }
    let mut bad = Vec::new();
    for c in pod.containers() {
        if let Some(t) =
            profile_type(c.security_context(), "appArmorProfile").filter(|t| !allowed(t))
        {
            bad.push(c.name());
            values.push(t.to_owned());
        }
    }
    if !bad.is_empty() {
        who.push(containers_phrase(&bad));
    }
    let mut values = sorted_set(values);
    let mut annotations: Vec<String> = pod
        .annotations()
        .into_iter()
        .flatten()
        .filter(|(k, _)| k.starts_with(APP_ARMOR_ANNOTATION_PREFIX))
        .filter_map(|(k, v)| Some((k, v.as_str()?)))
        .filter(|(_, v)| !(v.is_empty() || *v == "runtime/default" || v.starts_with("localhost/")))
        .map(|(k, v)| annotation(k, v))
        .collect();
    if !annotations.is_empty() {
        annotations.sort_unstable();
        who.push(pluralize("annotation", "annotations", annotations.len()).to_owned());
        values.extend(annotations);
    }
    (!who.is_empty()).then(|| Found {
        reason: pluralize(
            "forbidden AppArmor profile",
            "forbidden AppArmor profiles",
            values.len(),
        ),
        detail: format!(
            "{} must not set AppArmor profile type to {}",
            who.join(" and "),
            join_quote(&values)
        ),
    })
}

/// The SELinux types baseline allows up to v1.30.
const SE_LINUX_TYPES_1_0: &[&str] = &["", "container_t", "container_init_t", "container_kvm_t"];
/// From v1.31, `container_engine_t` too.
const SE_LINUX_TYPES_1_31: &[&str] = &[
    "",
    "container_t",
    "container_init_t",
    "container_kvm_t",
    "container_engine_t",
];

/// Baseline `seLinuxOptions`: an allowed type, and no user or role.
fn se_linux(pod: &Pod<'_>, types: &[&str]) -> Option<Found> {
    let mut bad_types = Vec::new();
    let (mut set_user, mut set_role) = (false, false);
    let mut valid = |sc: Option<&Map<String, Value>>| -> bool {
        let Some(options) = sc.and_then(|sc| child(sc, "seLinuxOptions")) else {
            return true;
        };
        let mut ok = true;
        let t = text(options, "type");
        if !types.contains(&t) {
            ok = false;
            bad_types.push(t.to_owned());
        }
        if !text(options, "user").is_empty() {
            ok = false;
            set_user = true;
        }
        if !text(options, "role").is_empty() {
            ok = false;
            set_role = true;
        }
        ok
    };
    let pod_bad = !valid(pod.security_context());
    let bad: Vec<&str> = pod
        .containers()
        .filter(|c| !valid(c.security_context()))
        .map(|c| c.name())
        .collect();
    let who = setters(pod_bad, &bad);
    if who.is_empty() {
        return None;
    }
    let bad_types = sorted_set(bad_types);
    let mut said = Vec::new();
    if !bad_types.is_empty() {
        said.push(format!(
            "{} {}",
            pluralize("type", "types", bad_types.len()),
            join_quote(&bad_types)
        ));
    }
    if set_user {
        said.push("user may not be set".to_owned());
    }
    if set_role {
        said.push("role may not be set".to_owned());
    }
    Some(Found {
        reason: "seLinuxOptions",
        detail: format!(
            "{} set forbidden securityContext.seLinuxOptions: {}",
            who.join(" and "),
            said.join("; ")
        ),
    })
}

pub(super) fn se_linux_1_0(pod: &Pod<'_>) -> Option<Found> {
    se_linux(pod, SE_LINUX_TYPES_1_0)
}

pub(super) fn se_linux_1_31(pod: &Pod<'_>) -> Option<Found> {
    se_linux(pod, SE_LINUX_TYPES_1_31)
}

const SECCOMP_POD_ANNOTATION: &str = "seccomp.security.alpha.kubernetes.io/pod";
const SECCOMP_CONTAINER_ANNOTATION_PREFIX: &str = "container.seccomp.security.alpha.kubernetes.io/";

/// A seccomp profile type the standards allow.
fn valid_seccomp(t: &str) -> bool {
    matches!(t, "Localhost" | "RuntimeDefault")
}

/// Baseline `seccompProfile_baseline` (v1.0 to v1.18): the seccomp annotations name the
/// runtime's default or a local profile.
pub(super) fn seccomp_annotations(pod: &Pod<'_>) -> Option<Found> {
    let annotations = pod.annotations();
    let value = |key: &str| {
        annotations
            .and_then(|a| a.get(key))
            .map(|v| v.as_str().unwrap_or(""))
    };
    let valid =
        |v: &str| v == "runtime/default" || v == "docker/default" || v.starts_with("localhost/");
    let mut forbidden = Vec::new();
    if let Some(v) = value(SECCOMP_POD_ANNOTATION).filter(|v| !valid(v)) {
        forbidden.push(annotation(SECCOMP_POD_ANNOTATION, v));
    }
    for c in pod.containers() {
        let key = format!("{SECCOMP_CONTAINER_ANNOTATION_PREFIX}{}", c.name());
        if let Some(v) = value(&key).filter(|v| !valid(v)) {
            forbidden.push(annotation(&key, v));
        }
    }
    if forbidden.is_empty() {
        return None;
    }
    let forbidden = sorted_set(forbidden);
    Some(Found {
        reason: "seccompProfile",
        detail: format!(
            "forbidden {} {}",
            pluralize("annotation", "annotations", forbidden.len()),
            forbidden.join(", ")
        ),
    })
}

/// The explicitly forbidden seccomp types (pod, then containers), and the containers that
/// set none.
struct Seccomp<'a> {
    pod_bad: bool,
    pod_set: bool,
    explicit: Vec<&'a str>,
    implicit: Vec<&'a str>,
    values: Vec<String>,
}

fn seccomp<'a>(pod: &Pod<'a>) -> Seccomp<'a> {
    let mut found = Seccomp {
        pod_bad: false,
        pod_set: false,
        explicit: Vec::new(),
        implicit: Vec::new(),
        values: Vec::new(),
    };
    if let Some(t) = profile_type(pod.security_context(), "seccompProfile") {
        if valid_seccomp(t) {
            found.pod_set = true;
        } else {
            found.pod_bad = true;
            found.values.push(t.to_owned());
        }
    }
    for c in pod.containers() {
        match profile_type(c.security_context(), "seccompProfile") {
            Some(t) if !valid_seccomp(t) => {
                found.explicit.push(c.name());
                found.values.push(t.to_owned());
            }
            Some(_) => {}
            None => found.implicit.push(c.name()),
        }
    }
    found
}

/// `pod and containers "a" must not set securityContext.seccompProfile.type to "..."`.
fn explicitly_forbidden(found: Seccomp<'_>) -> Option<Found> {
    let who = setters(found.pod_bad, &found.explicit);
    (!who.is_empty()).then(|| Found {
        reason: "seccompProfile",
        detail: format!(
            "{} must not set securityContext.seccompProfile.type to {}",
            who.join(" and "),
            join_quote(&sorted_set(found.values))
        ),
    })
}

/// Baseline `seccompProfile_baseline` (v1.19): a profile that is set is `RuntimeDefault` or
/// `Localhost`.
pub(super) fn seccomp_baseline(pod: &Pod<'_>) -> Option<Found> {
    explicitly_forbidden(seccomp(pod))
}

/// Restricted `seccompProfile_restricted` (v1.19): besides, the pod or else each container
/// sets one.
pub(super) fn seccomp_restricted(pod: &Pod<'_>) -> Option<Found> {
    let found = seccomp(pod);
    let implicit = if found.pod_set {
        Vec::new()
    } else {
        found.implicit.clone()
    };
    if let Some(violation) = explicitly_forbidden(found) {
        return Some(violation);
    }
    (!implicit.is_empty()).then(|| Found {
        reason: "seccompProfile",
        detail: format!(
            r#"pod or {} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost""#,
            containers_phrase(&implicit)
        ),
    })
}

/// Restricted `seccompProfile_restricted` (v1.25): as before, except for Windows pods.
pub(super) fn seccomp_restricted_unless_windows(pod: &Pod<'_>) -> Option<Found> {
    if pod.is_windows() {
        return None;
    }
    seccomp_restricted(pod)
}
