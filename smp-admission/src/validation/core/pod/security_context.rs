//! A container's `securityContext` (`ValidateSecurityContext`) and the profile and Windows
//! option checks it shares with the pod's `securityContext` (`validateSeccompProfileField`,
//! `ValidateAppArmorProfileField`, `validateWindowsSecurityContextOptions`), which pod-spec
//! calls for the pod level.

use serde_json::Value;

use super::PodOptions;
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::names;
use crate::validation::read;

/// `ValidateSecurityContext`: privileged only where the cluster allows it, user and group ids
/// in range, a known proc mount (unmasked only in a user namespace), valid profiles, and no
/// privilege escalation switched off next to what implies it.
pub(super) fn validate_container_security_context(
    sc: Option<&Value>,
    path: &Path,
    host_users: bool,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    let Some(sc) = sc.filter(|s| s.is_object()) else {
        return;
    };
    let privileged = read::opt_bool(sc, "privileged");
    if privileged == Some(true) && !options.allow_privileged {
        errs.push(field::forbidden(
            &path.child("privileged"),
            "disallowed by cluster policy",
        ));
    }
    validate_ids(sc, path, &["runAsUser", "runAsGroup"], errs);
    if let Some(proc_mount) = read::opt_text(sc, "procMount") {
        let at = path.child("procMount");
        if !matches!(proc_mount, "Default" | "Unmasked") {
            errs.push(field::not_supported(
                &at,
                proc_mount,
                &["Default", "Unmasked"],
            ));
        }
        if host_users && proc_mount == "Unmasked" {
            errs.push(field::invalid(
                &at,
                proc_mount,
                "`hostUsers` must be false to use `Unmasked`",
            ));
        }
    }
    validate_seccomp_profile(
        sc.get("seccompProfile"),
        &path.child("seccompProfile"),
        errs,
    );
    if read::opt_bool(sc, "allowPrivilegeEscalation") == Some(false) {
        // Upstream reports the whole (internal) security context as the value.
        if privileged == Some(true) {
            errs.push(field::invalid(
                path,
                BadValue::Json(sc.clone()),
                "cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
            ));
        }
        let added = read::object(sc, "capabilities")
            .and_then(|c| c.get("add"))
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        for cap in added {
            if cap.as_str() == Some("CAP_SYS_ADMIN") {
                errs.push(field::invalid(
                    path,
                    BadValue::Json(sc.clone()),
                    "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
                ));
            }
        }
    }
    validate_windows_options(
        sc.get("windowsOptions"),
        &path.child("windowsOptions"),
        errs,
    );
    validate_apparmor_profile(
        sc.get("appArmorProfile"),
        &path.child("appArmorProfile"),
        errs,
    );
}

/// User and group ids in `0..=2147483647` (`IsValidUserID`, `IsValidGroupID`).
pub(crate) fn validate_ids(sc: &Value, path: &Path, members: &[&str], errs: &mut ErrorList) {
    for &member in members {
        if let Some(id) = read::opt_int(sc, member) {
            for msg in names::is_valid_user_id(id) {
                errs.push(field::invalid(&path.child(member), id, &msg));
            }
        }
    }
}

const PROFILE_TYPES: [&str; 3] = ["Localhost", "RuntimeDefault", "Unconfined"];

/// `validateSeccompProfileField`: a known type, and a relative local profile exactly when the
/// type is `Localhost`.
pub(crate) fn validate_seccomp_profile(profile: Option<&Value>, path: &Path, errs: &mut ErrorList) {
    let Some(profile) = profile.filter(|p| p.is_object()) else {
        return;
    };
    let kind = read::text(profile, "type");
    match kind {
        "Localhost" | "RuntimeDefault" | "Unconfined" => {}
        "" => errs.push(field::required(
            &path.child("type"),
            "type is required when seccompProfile is set",
        )),
        other => errs.push(field::not_supported(
            &path.child("type"),
            other,
            &PROFILE_TYPES,
        )),
    }
    let local_path = path.child("localhostProfile");
    let local = read::opt_text(profile, "localhostProfile");
    if kind == "Localhost" {
        match local {
            None => errs.push(field::required(
                &local_path,
                "must be set when seccomp type is Localhost",
            )),
            Some(local) => super::paths::local_descending(local, &local_path, errs),
        }
    } else if local.is_some() {
        // Upstream reports the whole profile as the value.
        errs.push(field::invalid(
            &local_path,
            BadValue::Json(profile.clone()),
            "can only be set when seccomp type is Localhost",
        ));
    }
}

/// The longest local AppArmor profile name (`PATH_MAX - 1`).
const MAX_APPARMOR_PROFILE: i64 = 4095;

/// `ValidateAppArmorProfileField`: a known type, and for `Localhost` a non-empty profile
/// name without surrounding white space.
pub(crate) fn validate_apparmor_profile(
    profile: Option<&Value>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let Some(profile) = profile.filter(|p| p.is_object()) else {
        return;
    };
    let local_path = path.child("localhostProfile");
    let local = read::opt_text(profile, "localhostProfile");
    match read::text(profile, "type") {
        "Localhost" => {
            let Some(local) = local else {
                errs.push(field::required(
                    &local_path,
                    "must be set when AppArmor type is Localhost",
                ));
                return;
            };
            if local.trim() != local {
                errs.push(field::invalid(
                    &local_path,
                    local,
                    "must not be padded with whitespace",
                ));
            } else if local.is_empty() {
                errs.push(field::required(
                    &local_path,
                    "must be set when AppArmor type is Localhost",
                ));
            }
            if i64::try_from(local.len()).unwrap_or(i64::MAX) > MAX_APPARMOR_PROFILE {
                errs.push(field::too_long(&local_path, MAX_APPARMOR_PROFILE));
            }
        }
        "RuntimeDefault" | "Unconfined" => {
            if let Some(local) = local {
                errs.push(field::invalid(
                    &local_path,
                    local,
                    "can only be set when AppArmor type is Localhost",
                ));
            }
        }
        "" => errs.push(field::required(
            &path.child("type"),
            "type is required when appArmorProfile is set",
        )),
        other => errs.push(field::not_supported(
            &path.child("type"),
            other,
            &PROFILE_TYPES,
        )),
    }
}

/// The largest GMSA credential spec, in bytes (64 KiB).
const MAX_GMSA_SPEC: usize = 64 * 1024;
const MAX_DOMAIN: usize = 256;
const MAX_USER: usize = 104;

/// `validateWindowsSecurityContextOptions`: the GMSA credential spec's name and size, and the
/// shape of `runAsUserName` (`DOMAIN\USER`).
pub(crate) fn validate_windows_options(options: Option<&Value>, path: &Path, errs: &mut ErrorList) {
    let Some(options) = options.filter(|o| o.is_object()) else {
        return;
    };
    if let Some(name) = read::opt_text(options, "gmsaCredentialSpecName") {
        for msg in names::is_dns1123_subdomain(name) {
            errs.push(field::invalid(
                &path.child("gmsaCredentialSpecName"),
                name,
                &msg,
            ));
        }
    }
    if let Some(spec) = read::opt_text(options, "gmsaCredentialSpec") {
        let at = path.child("gmsaCredentialSpec");
        if spec.is_empty() {
            errs.push(field::invalid(
                &at,
                spec,
                "gmsaCredentialSpec cannot be an empty string",
            ));
        } else if spec.len() > MAX_GMSA_SPEC {
            errs.push(field::invalid(
                &at,
                spec,
                "gmsaCredentialSpec size must be under 64 KiB",
            ));
        }
    }
    if let Some(user_name) = read::opt_text(options, "runAsUserName") {
        let at = path.child("runAsUserName");
        for msg in run_as_user_name_messages(user_name) {
            errs.push(field::invalid(&at, user_name, msg));
        }
    }
}

/// Why a Windows `runAsUserName` is not valid, in upstream order.
fn run_as_user_name_messages(value: &str) -> Vec<&'static str> {
    if value.is_empty() {
        return vec!["runAsUserName cannot be an empty string"];
    }
    if value.chars().any(|c| c.is_ascii_control()) {
        return vec!["runAsUserName cannot contain control characters"];
    }
    let parts: Vec<&str> = value.split('\\').collect();
    let (domain, user) = match parts.as_slice() {
        [user] => (None, *user),
        [domain, user] => (Some(*domain), *user),
        _ => return vec!["runAsUserName cannot contain more than one backslash"],
    };
    let mut msgs = Vec::new();
    if domain.is_some_and(|d| d.len() >= MAX_DOMAIN) {
        msgs.push("runAsUserName's Domain length must be under 256 characters");
    }
    if let Some(domain) = domain
        && !is_netbios_name(domain)
        && !is_dns_domain(domain)
    {
        msgs.push("runAsUserName's Domain doesn't match the NetBios nor the DNS format");
    }
    if user.is_empty() {
        msgs.push("runAsUserName's User cannot be empty");
    } else if user.len() > MAX_USER {
        msgs.push("runAsUserName's User length must not be longer than 104 characters");
    }
    if !user.is_empty() && user.chars().all(|c| c == '.' || c == ' ') {
        msgs.push("runAsUserName's User cannot contain only periods or spaces");
    }
    if user.chars().any(|c| "\"/\\:;|=,+*?<>@[]".contains(c)) {
        msgs.push(
            r#"runAsUserName's User cannot contain the following characters: "/\:;|=,+*?<>@[]"#,
        );
    }
    msgs
}

/// A NetBIOS domain: 1 to 15 characters, none of `\ / : * ? " < > |`, not starting with a dot.
fn is_netbios_name(domain: &str) -> bool {
    let forbidden = |c: char| "\\/:*?\"<>|".contains(c);
    let mut chars = domain.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    !forbidden(first)
        && first != '.'
        && domain.chars().count() <= 15
        && chars.all(|c| !forbidden(c))
}

/// A DNS domain: dot-separated labels of letters, digits and inner dashes, 1 to 63 long.
fn is_dns_domain(domain: &str) -> bool {
    domain.split('.').all(|label| {
        let b = label.as_bytes();
        !b.is_empty()
            && b.len() <= 63
            && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
            && b[0] != b'-'
            && b[b.len() - 1] != b'-'
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_user_names() {
        assert!(run_as_user_name_messages("user").is_empty());
        assert!(run_as_user_name_messages("DOMAIN\\user").is_empty());
        assert!(run_as_user_name_messages("example.com\\user").is_empty());
        assert_eq!(
            run_as_user_name_messages("a\\b\\c"),
            vec!["runAsUserName cannot contain more than one backslash"]
        );
        assert_eq!(
            run_as_user_name_messages(".."),
            vec!["runAsUserName's User cannot contain only periods or spaces"]
        );
        assert_eq!(
            run_as_user_name_messages("dom\\"),
            vec!["runAsUserName's User cannot be empty"]
        );
    }
}
