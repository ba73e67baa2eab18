//! The pod's isolation: the pod-level `securityContext` (`validatePodSpecSecurityContext`)
//! with the host namespaces the v1 API keeps beside it in the spec (`hostNetwork`, `hostPID`,
//! `hostIPC`, `shareProcessNamespace`, `hostUsers`), the host-network port rule
//! (`validatePodHostNetworkDeps`), user namespaces (`validateHostUsers`), Windows host
//! processes, and what Linux and Windows pods may not set (`validateLinux`, `validateWindows`).

use std::collections::BTreeSet;

use serde_json::Value;

use super::PodOptions;
use super::security_context::{
    validate_apparmor_profile, validate_ids, validate_seccomp_profile, validate_windows_options,
};
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::names;
use crate::validation::read;

/// The container lists in the order the server visits them (`VisitContainersWithPath`).
pub(super) const CONTAINER_LISTS: [&str; 3] =
    ["initContainers", "containers", "ephemeralContainers"];

/// Each container of the spec with its path.
pub(super) fn each_container(spec: &Value, path: &Path, mut visit: impl FnMut(&Value, &Path)) {
    for list in CONTAINER_LISTS {
        let list_path = path.child(list);
        for (i, c) in read::list(spec, list).iter().enumerate() {
            visit(c, &list_path.index(i));
        }
    }
}

/// `validatePodHostNetworkDeps`: on the host network a container's host port is its container
/// port (a template may leave it 0 for defaulting).
pub(super) fn validate_host_network_ports(
    spec: &Value,
    path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    if !read::flag(spec, "hostNetwork") {
        return;
    }
    let containers = path.child("containers");
    for (i, c) in read::list(spec, "containers").iter().enumerate() {
        let at = containers.index(i);
        let ports = at.child("ports");
        for (j, port) in read::list(c, "ports").iter().enumerate() {
            let host = read::int(port, "hostPort");
            let container = read::int(port, "containerPort");
            if (options.resource_is_pod || host != 0) && host != container {
                let port_path = ports.index(j);
                errs.push(field::invalid(
                    &port_path.child("hostPort"),
                    host,
                    "must match `containerPort` when `hostNetwork` is true",
                ));
            }
        }
    }
}

/// `validatePodSpecSecurityContext`. The server's pod security context always exists (it
/// carries the host namespaces), so the checks run even without `securityContext`.
pub(super) fn validate_pod_security_context(
    spec: &Value,
    spec_path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    let sc = spec.get("securityContext").unwrap_or(&Value::Null);
    let path = spec_path.child("securityContext");
    validate_ids(sc, &path, &["fsGroup", "runAsUser", "runAsGroup"], errs);
    let groups = path.child("supplementalGroups");
    for (g, gid) in read::list(sc, "supplementalGroups").iter().enumerate() {
        let gid = gid.as_i64().unwrap_or(0);
        for msg in names::is_in_range(gid, 0, i64::from(i32::MAX)) {
            errs.push(field::invalid(&groups.index(g), gid, &msg));
        }
    }
    if read::opt_bool(spec, "shareProcessNamespace") == Some(true) && read::flag(spec, "hostPID") {
        errs.push(field::invalid(
            &path.child("shareProcessNamespace"),
            true,
            "ShareProcessNamespace and HostPID cannot both be enabled",
        ));
    }
    validate_sysctls(spec, sc, &path.child("sysctls"), options, errs);
    if let Some(policy) = read::opt_text(sc, "fsGroupChangePolicy")
        && !["OnRootMismatch", "Always"].contains(&policy)
    {
        errs.push(field::not_supported(
            &path.child("fsGroupChangePolicy"),
            policy,
            &["Always", "OnRootMismatch"],
        ));
    }
    validate_seccomp_profile(
        sc.get("seccompProfile"),
        &path.child("seccompProfile"),
        errs,
    );
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
    if let Some(policy) = read::opt_text(sc, "supplementalGroupsPolicy")
        && !["Merge", "Strict"].contains(&policy)
    {
        errs.push(field::not_supported(
            &path.child("supplementalGroupsPolicy"),
            policy,
            &["Merge", "Strict"],
        ));
    }
    if let Some(policy) = read::opt_text(sc, "seLinuxChangePolicy") {
        let at = path.child("seLinuxChangePolicy");
        if options.allow_only_recursive_selinux_change_policy {
            if policy != "Recursive" {
                errs.push(field::not_supported(&at, policy, &["Recursive"]));
            }
        } else if !["Recursive", "MountOption"].contains(&policy) {
            errs.push(field::not_supported(
                &at,
                policy,
                &["MountOption", "Recursive"],
            ));
        }
    }
}

const SYSCTL_PATTERN: &str =
    "^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$";

/// `IsValidSysctlName`: at most 253 characters, segments of `[a-z0-9-_]` joined by `.`/`/`.
fn is_sysctl_name(name: &str) -> bool {
    let segment_ok = |s: &str| {
        let b = s.as_bytes();
        let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
        match b {
            [] => false,
            [one] => alnum(*one),
            [first, middle @ .., last] => {
                alnum(*first)
                    && alnum(*last)
                    && middle.iter().all(|&c| alnum(c) || c == b'-' || c == b'_')
            }
        }
    };
    name.len() <= 253 && name.split(['.', '/']).all(segment_ok)
}

fn validate_sysctls(
    spec: &Value,
    sc: &Value,
    path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    let mut names_seen = BTreeSet::new();
    for (i, sysctl) in read::list(sc, "sysctls").iter().enumerate() {
        let at = path.index(i);
        let name_path = at.child("name");
        let name = read::text(sysctl, "name");
        if name.is_empty() {
            errs.push(field::required(&name_path, ""));
        } else if !is_sysctl_name(name) {
            errs.push(field::invalid(
                &name_path,
                name,
                &format!("must have at most 253 characters and match regex {SYSCTL_PATTERN}"),
            ));
        } else if names_seen.contains(name) {
            errs.push(field::duplicate(&name_path, name));
        }
        if !options.allow_namespaced_sysctls_for_host_net_and_host_ipc
            && let Some(detail) = host_sysctl_problem(spec, name)
        {
            errs.push(field::invalid(&name_path, name, detail));
        }
        names_seen.insert(name);
    }
}

/// The namespace a sysctl belongs to (`GetNamespace`): network, IPC, or neither. A name
/// written with `/` first is read with `.` and `/` swapped; a `*` ends a prefix.
fn sysctl_namespace(name: &str) -> Option<&'static str> {
    let slash_first = name
        .find(['.', '/'])
        .is_some_and(|i| name.as_bytes()[i] == b'/');
    let normalized: String = if slash_first {
        name.chars()
            .map(|c| match c {
                '.' => '/',
                '/' => '.',
                other => other,
            })
            .collect()
    } else {
        name.to_owned()
    };
    let name = normalized.split('*').next().unwrap_or("");
    const IPC_NAMES: [&str; 10] = [
        "kernel.sem",
        "kernel.shmall",
        "kernel.shmmax",
        "kernel.shmmni",
        "kernel.shm_rmid_forced",
        "kernel.shm",
        "kernel.msgmax",
        "kernel.msgmnb",
        "kernel.msgmni",
        "kernel.msg",
    ];
    if IPC_NAMES.contains(&name) || name.starts_with("fs.mqueue.") {
        Some("ipc")
    } else if name.starts_with("net.") {
        Some("net")
    } else {
        None
    }
}

/// `ValidateHostSysctl`: a namespaced sysctl may not be set where the namespace is the host's.
fn host_sysctl_problem(spec: &Value, name: &str) -> Option<&'static str> {
    match sysctl_namespace(name) {
        Some("net") if read::flag(spec, "hostNetwork") => {
            Some("may not be specified when 'hostNetwork' is true")
        }
        Some("ipc") if read::flag(spec, "hostIPC") => {
            Some("may not be specified when 'hostIPC' is true")
        }
        _ => None,
    }
}

/// Whether an (old) spec holds a sysctl its host namespaces forbid.
pub(super) fn has_host_namespaced_sysctl(spec: &Value) -> bool {
    let sc = spec.get("securityContext").unwrap_or(&Value::Null);
    read::list(sc, "sysctls")
        .iter()
        .any(|s| host_sysctl_problem(spec, read::text(s, "name")).is_some())
}

fn host_process(c: &Value) -> Option<bool> {
    c.get("securityContext")
        .and_then(|sc| sc.get("windowsOptions"))
        .and_then(|w| read::opt_bool(w, "hostProcess"))
}

/// `validateWindowsHostProcessPod`: host process containers all or none, with the host
/// network. (The cluster policy against privileged pods is not modelled: privileged allowed.)
pub(super) fn validate_windows_host_process(spec: &Value, path: &Path, errs: &mut ErrorList) {
    let pod = spec
        .get("securityContext")
        .and_then(|sc| sc.get("windowsOptions"))
        .and_then(|w| read::opt_bool(w, "hostProcess"));
    let (mut containers, mut host_processes) = (0, 0);
    each_container(spec, path, |c, at| {
        containers += 1;
        let own = host_process(c);
        if let (Some(p), Some(o)) = (pod, own)
            && p != o
        {
            let sc = at.child("securityContext");
            let options = sc.child("windowsOptions");
            errs.push(field::invalid(
                &options.child("hostProcess"),
                o,
                &format!("pod hostProcess value must be identical if both are specified, was {p}"),
            ));
        }
        if own == Some(true) || (own.is_none() && pod == Some(true)) {
            host_processes += 1;
        }
    });
    if host_processes == 0 {
        return;
    }
    if host_processes != containers {
        errs.push(field::invalid(
            path,
            "",
            "If pod contains any hostProcess containers then all containers must be HostProcess containers",
        ));
    }
    if !read::flag(spec, "hostNetwork") {
        errs.push(field::invalid(
            &path.child("hostNetwork"),
            false,
            "hostNetwork must be true if pod contains any hostProcess containers",
        ));
    }
}

/// `validateHostUsers`: a pod in its own user namespace shares no other host namespace and has
/// no volume devices.
pub(super) fn validate_host_users(
    spec: &Value,
    path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    if read::opt_bool(spec, "hostUsers") != Some(false) {
        return;
    }
    const DETAIL: &str = "when `hostUsers` is false";
    // Upstream names the last two paths with capitals.
    for (member, reported) in [
        ("hostNetwork", "hostNetwork"),
        ("hostPID", "HostPID"),
        ("hostIPC", "HostIPC"),
    ] {
        if read::flag(spec, member) {
            errs.push(field::forbidden(&path.child(reported), DETAIL));
        }
    }
    if !options.allow_user_namespaces_with_volume_devices {
        each_container(spec, path, |c, at| {
            if !read::list(c, "volumeDevices").is_empty() {
                errs.push(field::forbidden(&at.child("volumeDevices"), DETAIL));
            }
        });
    }
}

const LINUX_ONLY: &str = "windows options cannot be set for a linux pod";
const NOT_WINDOWS: &str = "cannot be set for a windows pod";

/// `validateLinux`: no Windows options anywhere.
pub(super) fn validate_linux(spec: &Value, path: &Path, errs: &mut ErrorList) {
    if spec
        .get("securityContext")
        .is_some_and(|sc| read::is_set(sc, "windowsOptions"))
    {
        let sc = path.child("securityContext");
        errs.push(field::forbidden(&sc.child("windowsOptions"), LINUX_ONLY));
    }
    each_container(spec, path, |c, at| {
        if c.get("securityContext")
            .is_some_and(|sc| read::is_set(sc, "windowsOptions"))
        {
            let sc = at.child("securityContext");
            errs.push(field::forbidden(&sc.child("windowsOptions"), LINUX_ONLY));
        }
    });
}

/// `validateWindows`: none of the Linux-only settings, pod-level first, then per container.
pub(super) fn validate_windows(spec: &Value, path: &Path, errs: &mut ErrorList) {
    let sc_path = path.child("securityContext");
    let sc = spec.get("securityContext").unwrap_or(&Value::Null);
    let in_sc = |member: &str| read::is_set(sc, member);
    let checks: [(bool, &Path, &str); 15] = [
        (in_sc("appArmorProfile"), &sc_path, "appArmorProfile"),
        (in_sc("seLinuxOptions"), &sc_path, "seLinuxOptions"),
        (read::is_set(spec, "hostUsers"), path, "hostUsers"),
        (read::flag(spec, "hostPID"), path, "hostPID"),
        (read::flag(spec, "hostIPC"), path, "hostIPC"),
        (in_sc("seccompProfile"), &sc_path, "seccompProfile"),
        (in_sc("fsGroup"), &sc_path, "fsGroup"),
        (
            in_sc("fsGroupChangePolicy"),
            &sc_path,
            "fsGroupChangePolicy",
        ),
        (!read::list(sc, "sysctls").is_empty(), &sc_path, "sysctls"),
        (
            read::is_set(spec, "shareProcessNamespace"),
            path,
            "shareProcessNamespace",
        ),
        (in_sc("runAsUser"), &sc_path, "runAsUser"),
        (in_sc("runAsGroup"), &sc_path, "runAsGroup"),
        (in_sc("supplementalGroups"), &sc_path, "supplementalGroups"),
        (
            in_sc("supplementalGroupsPolicy"),
            &sc_path,
            "supplementalGroupsPolicy",
        ),
        (
            in_sc("seLinuxChangePolicy"),
            &sc_path,
            "seLinuxChangePolicy",
        ),
    ];
    for (set, base, member) in checks {
        if set {
            errs.push(field::forbidden(&base.child(member), NOT_WINDOWS));
        }
    }
    const CONTAINER_MEMBERS: [&str; 10] = [
        "appArmorProfile",
        "seLinuxOptions",
        "seccompProfile",
        "capabilities",
        "readOnlyRootFilesystem",
        "privileged",
        "allowPrivilegeEscalation",
        "procMount",
        "runAsUser",
        "runAsGroup",
    ];
    each_container(spec, path, |c, at| {
        let Some(sc) = c.get("securityContext").filter(|s| s.is_object()) else {
            return;
        };
        let sc_path = at.child("securityContext");
        for member in CONTAINER_MEMBERS {
            if read::is_set(sc, member) {
                errs.push(field::forbidden(&sc_path.child(member), NOT_WINDOWS));
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sysctl_names() {
        assert!(is_sysctl_name("net.ipv4.ip_forward"));
        assert!(is_sysctl_name("kernel/shm_rmid_forced"));
        assert!(!is_sysctl_name("Bad!"));
        assert!(!is_sysctl_name("a..b"));
        assert_eq!(sysctl_namespace("net.core.somaxconn"), Some("net"));
        assert_eq!(sysctl_namespace("kernel.msgmax"), Some("ipc"));
        assert_eq!(sysctl_namespace("vm.swappiness"), None);
        assert_eq!(
            sysctl_namespace("net/ipv4/conf/eno2.100/rp_filter"),
            Some("net")
        );
    }
}
