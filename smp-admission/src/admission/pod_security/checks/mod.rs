//! The checks of the Pod Security Standards, each in the versions the standards have had
//! (`k8s.io/pod-security-admission` `policy`, v1.34), as functions of a pod's metadata and spec
//! read as JSON: a member that is absent or `null` is Go's nil or zero value.
//!
//! The registry ([`for_level`]) gives a level's checks at a version in the server's order:
//! the baseline checks by ID, then the restricted ones by ID, a restricted check replacing
//! the baseline one it tightens.

mod capabilities;
mod containers;
mod host;
mod profiles;
mod sysctls;
mod users;
mod volumes;

use serde_json::{Map, Value};

use super::api::{Level, LevelVersion, Version};

/// A failed check: which, its short reason and the detail the server prints after it in
/// parentheses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The check's ID (`allowPrivilegeEscalation`, `seccompProfile_restricted`).
    pub check: &'static str,
    /// The check's reason (`allowPrivilegeEscalation != false`).
    pub reason: &'static str,
    /// What in the pod fails it (`container "app" must set ...`); may be empty.
    pub detail: String,
}

/// What a check function finds wrong.
struct Found {
    reason: &'static str,
    detail: String,
}

/// Switches a check reads besides the pod.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Relax {
    /// `UserNamespacesPodSecurityStandards` (alpha, off in v1.34): a pod with
    /// `hostUsers: false` passes the checks of its user and `/proc` mount.
    pub user_namespace_pods: bool,
}

/// A pod (or a pod template) as the checks read it.
pub(crate) struct Pod<'a> {
    pub metadata: &'a Value,
    pub spec: &'a Value,
    pub relax: Relax,
}

type CheckFn = fn(&Pod<'_>) -> Option<Found>;

/// One version of a check: from `since` (a v1 minor) until the next version's.
struct Versioned {
    since: u32,
    check: CheckFn,
}

/// A check of a level, with its versions oldest first and the baseline check it replaces at
/// the restricted level.
struct Check {
    id: &'static str,
    level: Level,
    versions: &'static [Versioned],
    overrides: Option<&'static str>,
}

/// The newest version any check has; `latest` and newer versions are held to it.
pub(crate) const NEWEST_MINOR: u32 = 34;

const fn v(since: u32, check: CheckFn) -> Versioned {
    Versioned { since, check }
}

/// Every check, baseline then restricted, each level's in the byte order of the IDs (the
/// order of the server's messages).
const CHECKS: &[Check] = &[
    Check {
        id: "appArmorProfile",
        level: Level::Baseline,
        versions: &[v(0, profiles::app_armor)],
        overrides: None,
    },
    Check {
        id: "capabilities_baseline",
        level: Level::Baseline,
        versions: &[v(0, capabilities::baseline)],
        overrides: None,
    },
    Check {
        id: "hostNamespaces",
        level: Level::Baseline,
        versions: &[v(0, host::namespaces)],
        overrides: None,
    },
    Check {
        id: "hostPathVolumes",
        level: Level::Baseline,
        versions: &[v(0, volumes::host_path)],
        overrides: None,
    },
    Check {
        id: "hostPorts",
        level: Level::Baseline,
        versions: &[v(0, host::ports)],
        overrides: None,
    },
    Check {
        id: "hostProbesAndHostLifecycle",
        level: Level::Baseline,
        versions: &[v(34, host::probes_and_lifecycle)],
        overrides: None,
    },
    Check {
        id: "privileged",
        level: Level::Baseline,
        versions: &[v(0, containers::privileged)],
        overrides: None,
    },
    Check {
        id: "procMount",
        level: Level::Baseline,
        versions: &[v(0, containers::proc_mount)],
        overrides: None,
    },
    Check {
        id: "seLinuxOptions",
        level: Level::Baseline,
        versions: &[v(0, profiles::se_linux_1_0), v(31, profiles::se_linux_1_31)],
        overrides: None,
    },
    Check {
        id: "seccompProfile_baseline",
        level: Level::Baseline,
        versions: &[
            v(0, profiles::seccomp_annotations),
            v(19, profiles::seccomp_baseline),
        ],
        overrides: None,
    },
    Check {
        id: "sysctls",
        level: Level::Baseline,
        versions: &[
            v(0, sysctls::v1_0),
            v(27, sysctls::v1_27),
            v(29, sysctls::v1_29),
            v(32, sysctls::v1_32),
        ],
        overrides: None,
    },
    Check {
        id: "windowsHostProcess",
        level: Level::Baseline,
        versions: &[v(0, host::windows_host_process)],
        overrides: None,
    },
    Check {
        id: "allowPrivilegeEscalation",
        level: Level::Restricted,
        versions: &[
            v(8, containers::allow_privilege_escalation),
            v(25, containers::allow_privilege_escalation_unless_windows),
        ],
        overrides: None,
    },
    Check {
        id: "capabilities_restricted",
        level: Level::Restricted,
        versions: &[
            v(22, capabilities::restricted),
            v(25, capabilities::restricted_unless_windows),
        ],
        overrides: Some("capabilities_baseline"),
    },
    Check {
        id: "restrictedVolumes",
        level: Level::Restricted,
        versions: &[v(0, volumes::restricted)],
        overrides: Some("hostPathVolumes"),
    },
    Check {
        id: "runAsNonRoot",
        level: Level::Restricted,
        versions: &[v(0, users::run_as_non_root)],
        overrides: None,
    },
    Check {
        id: "runAsUser",
        level: Level::Restricted,
        versions: &[v(23, users::run_as_user)],
        overrides: None,
    },
    Check {
        id: "seccompProfile_restricted",
        level: Level::Restricted,
        versions: &[
            v(19, profiles::seccomp_restricted),
            v(25, profiles::seccomp_restricted_unless_windows),
        ],
        overrides: Some("seccompProfile_baseline"),
    },
];

/// The version of `check` in force at `minor`, if the check existed then.
fn at(check: &Check, minor: u32) -> Option<CheckFn> {
    check
        .versions
        .iter()
        .rev()
        .find(|v| v.since <= minor)
        .map(|v| v.check)
}

/// The minor version whose checks hold pods to `version`.
fn minor_of(version: Version) -> u32 {
    match version {
        Version::V1(minor) => minor.min(NEWEST_MINOR),
        Version::Latest => NEWEST_MINOR,
    }
}

/// The checks of `lv` with their IDs, in the server's order (none for `privileged`).
fn for_level(lv: LevelVersion) -> Vec<(&'static str, CheckFn)> {
    if lv.level == Level::Privileged {
        return Vec::new();
    }
    let minor = minor_of(lv.version);
    let restricted = lv.level == Level::Restricted;
    // The baseline checks a restricted check in force replaces (at most three).
    let overridden: Vec<&str> = if restricted {
        CHECKS
            .iter()
            .filter(|c| c.level == Level::Restricted && at(c, minor).is_some())
            .filter_map(|c| c.overrides)
            .collect()
    } else {
        Vec::new()
    };
    CHECKS
        .iter()
        .filter(|c| c.level == Level::Baseline || restricted)
        .filter(|c| !overridden.contains(&c.id))
        .filter_map(|c| at(c, minor).map(|f| (c.id, f)))
        .collect()
}

/// The violations of `pod` under `lv`, in the server's order.
pub(crate) fn evaluate(lv: LevelVersion, pod: &Pod<'_>) -> Vec<Violation> {
    for_level(lv)
        .into_iter()
        .filter_map(|(id, check)| {
            check(pod).map(|found| Violation {
                check: id,
                reason: found.reason,
                detail: found.detail,
            })
        })
        .collect()
}

// Reading the pod as Go's typed struct reads it.

/// The object under `key`, if there is one (`null` is Go's nil pointer).
fn obj<'a>(v: &'a Value, key: &str) -> Option<&'a Map<String, Value>> {
    v.get(key).and_then(Value::as_object)
}

/// The object member `key` of an object, if set.
fn child<'a>(v: &'a Map<String, Value>, key: &str) -> Option<&'a Map<String, Value>> {
    v.get(key).and_then(Value::as_object)
}

/// Whether `key` holds something (a non-nil pointer).
fn present(v: &Map<String, Value>, key: &str) -> bool {
    v.get(key).is_some_and(|x| !x.is_null())
}

/// A `*bool` member: `None` when nil.
fn flag(v: &Map<String, Value>, key: &str) -> Option<bool> {
    v.get(key).and_then(Value::as_bool)
}

/// A string member, `""` when absent.
fn text<'a>(v: &'a Map<String, Value>, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// A list member, empty when absent.
fn items<'a>(v: &'a Map<String, Value>, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

impl<'a> Pod<'a> {
    fn spec(&self) -> Option<&'a Map<String, Value>> {
        self.spec.as_object()
    }

    /// The pod's `securityContext`, if set.
    fn security_context(&self) -> Option<&'a Map<String, Value>> {
        obj(self.spec, "securityContext")
    }

    /// The init containers, the containers and the ephemeral containers, in that order.
    fn containers(&self) -> impl Iterator<Item = Container<'a>> + use<'a> {
        let spec = self.spec;
        ["initContainers", "containers", "ephemeralContainers"]
            .into_iter()
            .flat_map(move |key| {
                spec.get(key)
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
            })
            .filter_map(Value::as_object)
            .map(Container)
    }

    /// The pod's annotations.
    fn annotations(&self) -> Option<&'a Map<String, Value>> {
        obj(self.metadata, "annotations")
    }

    /// `spec.os.name: windows`.
    fn is_windows(&self) -> bool {
        obj(self.spec, "os").is_some_and(|os| text(os, "name") == "windows")
    }

    /// A pod in a user namespace when the standards are relaxed for them.
    fn relaxed_for_user_namespace(&self) -> bool {
        self.relax.user_namespace_pods
            && self
                .spec()
                .and_then(|s| flag(s, "hostUsers"))
                .is_some_and(|host_users| !host_users)
    }
}

/// A container (or an ephemeral one, whose common members are the same).
#[derive(Clone, Copy)]
struct Container<'a>(&'a Map<String, Value>);

impl<'a> Container<'a> {
    fn name(self) -> &'a str {
        text(self.0, "name")
    }

    fn security_context(self) -> Option<&'a Map<String, Value>> {
        self.0.get("securityContext").and_then(Value::as_object)
    }
}

// The server's phrasing.

fn pluralize(singular: &'static str, plural: &'static str, count: usize) -> &'static str {
    if count == 1 { singular } else { plural }
}

/// `"a", "b"` (Go's `joinQuote`: the items as they are, no escaping).
fn join_quote<S: AsRef<str>>(items: &[S]) -> String {
    if items.is_empty() {
        return String::new();
    }
    let mut out = String::from('"');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str("\", \"");
        }
        out.push_str(item.as_ref());
    }
    out.push('"');
    out
}

/// `container "a"` or `containers "a", "b"`.
fn containers_phrase<S: AsRef<str>>(names: &[S]) -> String {
    format!(
        "{} {}",
        pluralize("container", "containers", names.len()),
        join_quote(names)
    )
}

/// The sorted, de-duplicated values of a Go `sets.String`'s `List()`.
fn sorted_set(mut values: Vec<String>) -> Vec<String> {
    values.sort_unstable();
    values.dedup();
    values
}

/// Who set a forbidden value: `pod`, then `container(s) "..."`, joined with ` and `.
fn setters(pod: bool, containers: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    if pod {
        out.push("pod".to_owned());
    }
    if !containers.is_empty() {
        out.push(containers_phrase(containers));
    }
    out
}

#[cfg(test)]
mod tests;
