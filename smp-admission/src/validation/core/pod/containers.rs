//! The containers of a pod spec: regular, init (including restartable "sidecar" init
//! containers) and ephemeral ones, as `validateContainers`, `validateInitContainers`,
//! `validateEphemeralContainers` and their shared `validateContainerCommon` check them.
//!
//! Each list is read from the whole pod spec, because a container's checks depend on the pod
//! around it: the termination grace period (sleep hooks), the pod's restart policy (resize
//! policies), its resource claims, whether it shares the host's user namespace, its OS, and
//! the volumes that mounts may name.

use std::collections::HashSet;

use serde_json::Value;

use super::container::Container;
use super::context::PodContext;
use super::{PodOptions, Volumes, env, mounts, probes, resources, security_context};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::names;
use crate::validation::read;
use crate::validation::seen::Seen;

impl<'a> PodContext<'a> {
    fn new(spec: &'a Value, volumes: &'a Volumes<'a>, options: &'a PodOptions) -> Self {
        // A Pod (not a template) has a negative grace period turned into 1 when it is read.
        let grace_period = read::opt_int(spec, "terminationGracePeriodSeconds").map(|g| {
            if options.resource_is_pod && g < 0 {
                1
            } else {
                g
            }
        });
        PodContext {
            grace_period,
            restart_policy: read::text(spec, "restartPolicy"),
            claim_names: read::list(spec, "resourceClaims")
                .iter()
                .map(|c| read::text(c, "name"))
                .collect(),
            host_users: read::opt_bool(spec, "hostUsers").unwrap_or(true),
            os: read::object(spec, "os")
                .map(|os| os.get("name").and_then(Value::as_str).unwrap_or_default()),
            volumes,
            options,
        }
    }
}

/// `validateContainers`: `spec.containers` must not be empty; names are unique among the
/// regular containers; probes and hooks are checked; host ports must not collide across all
/// of them (reported after every container's own errors).
pub(crate) fn validate_containers(
    spec: &Value,
    volumes: &Volumes,
    path: &Path,
    options: &PodOptions,
) -> ErrorList {
    let ctx = PodContext::new(spec, volumes, options);
    let list_path = path.child("containers");
    let containers = read::list(spec, "containers");
    let mut errs = ErrorList::new();
    if containers.is_empty() {
        errs.push(field::required(&list_path, ""));
        return errs;
    }
    let mut seen = Seen::new();
    for (i, ctr) in containers.iter().enumerate() {
        let at = list_path.index(i);
        let ctr = Container::of(ctr);
        validate_container_common(&ctr, &at, &ctx, &mut errs);
        let name = ctr.name.text();
        if !seen.insert(name) {
            errs.push(field::duplicate(&at.child("name"), name));
        }
        probes::validate_hooks_and_probes(&ctr, &at, &ctx, &mut errs);
        if options.allow_container_restart_policy_rules {
            validate_container_restart_policy(&ctr, &at, &mut errs);
        } else if ctr.restart_policy.opt_text().is_some() {
            errs.push(field::forbidden(
                &at.child("restartPolicy"),
                "may not be set for non-init containers",
            ));
        }
    }
    host_port_conflicts(containers.iter(), &list_path, &mut errs);
    errs
}

const INIT_ONLY: &str = "may not be set for init containers without restartPolicy=Always";

/// `validateInitContainers`: names are unique among regular and init containers; an init
/// container may carry hooks and probes only when it is restartable (`restartPolicy:
/// Always`); host ports are checked one container at a time, since init containers run one
/// after another.
pub(crate) fn validate_init_containers(
    spec: &Value,
    volumes: &Volumes,
    path: &Path,
    options: &PodOptions,
) -> ErrorList {
    let ctx = PodContext::new(spec, volumes, options);
    let list_path = path.child("initContainers");
    let mut errs = ErrorList::new();
    let mut seen: Seen = read::list(spec, "containers")
        .iter()
        .map(|c| read::text(c, "name"))
        .collect();
    for (i, value) in read::list(spec, "initContainers").iter().enumerate() {
        let at = list_path.index(i);
        let ctr = Container::of(value);
        validate_container_common(&ctr, &at, &ctx, &mut errs);
        let restartable = match ctr.restart_policy.opt_text() {
            Some(policy) => {
                validate_init_restart_policy(&ctr, policy, &at, options, &mut errs);
                policy == "Always"
            }
            None => false,
        };
        let name = ctr.name.text();
        if seen.contains(name) {
            errs.push(field::duplicate(&at.child("name"), name));
        } else if !name.is_empty() {
            seen.insert(name);
        }
        // Upstream passes the container alone, so the path always says `initContainers[0]`.
        host_port_conflicts(std::iter::once(value), &list_path, &mut errs);
        if restartable {
            probes::validate_hooks_and_probes(&ctr, &at, &ctx, &mut errs);
        } else {
            for (member, value) in [
                ("lifecycle", ctr.lifecycle),
                ("livenessProbe", ctr.liveness_probe),
                ("readinessProbe", ctr.readiness_probe),
                ("startupProbe", ctr.startup_probe),
            ] {
                if value.is_set() {
                    errs.push(field::forbidden(&at.child(member), INIT_ONLY));
                }
            }
        }
        if !options.allow_sidecar_resize_policy && !ctr.resize_policy.list().is_empty() {
            errs.push(field::invalid(
                &at.child("resizePolicy"),
                BadValue::Json(ctr.resize_policy.value().cloned().unwrap_or(Value::Null)),
                "must not be set for init containers",
            ));
        }
    }
    errs
}

/// The members of an ephemeral container that may not be set, in the order of the Go struct
/// (the allow-list of `validateEphemeralContainers`).
const NOT_FOR_EPHEMERAL: [&str; 9] = [
    "ports",
    "resources",
    "resizePolicy",
    "restartPolicy",
    "restartPolicyRules",
    "livenessProbe",
    "readinessProbe",
    "startupProbe",
    "lifecycle",
];

const EPHEMERAL_ONLY: &str = "cannot be set for an Ephemeral Container";

/// `validateEphemeralContainers`: the common checks and the pod-only image check, a name
/// unique across every kind of container, a target that is a regular or init container, and
/// none of the members an ephemeral container may not have (sub-paths of mounts included).
pub(crate) fn validate_ephemeral_containers(
    spec: &Value,
    volumes: &Volumes,
    path: &Path,
    options: &PodOptions,
) -> ErrorList {
    let mut errs = ErrorList::new();
    let ephemeral = read::list(spec, "ephemeralContainers");
    if ephemeral.is_empty() {
        return errs;
    }
    let ctx = PodContext::new(spec, volumes, options);
    let list_path = path.child("ephemeralContainers");
    let others: HashSet<&str> = read::list(spec, "containers")
        .iter()
        .chain(read::list(spec, "initContainers"))
        .map(|c| read::text(c, "name"))
        .collect();
    let mut seen = others.clone();
    for (i, ctr) in ephemeral.iter().enumerate() {
        let at = list_path.index(i);
        validate_container_common(&Container::of(ctr), &at, &ctx, &mut errs);
        image_whitespace(ctr, &at, &mut errs);
        let name = read::text(ctr, "name");
        if !seen.insert(name) {
            errs.push(field::duplicate(&at.child("name"), name));
        }
        let target = read::text(ctr, "targetContainerName");
        if !target.is_empty() && !others.contains(target) {
            errs.push(field::not_found(&at.child("targetContainerName"), target));
        }
        for member in NOT_FOR_EPHEMERAL {
            if is_non_zero(ctr, member) {
                errs.push(field::forbidden(&at.child(member), EPHEMERAL_ONLY));
            }
        }
        let mounts_path = at.child("volumeMounts");
        for (m, mount) in read::list(ctr, "volumeMounts").iter().enumerate() {
            let mount_path = mounts_path.index(m);
            for member in ["subPath", "subPathExpr"] {
                if !read::text(mount, member).is_empty() {
                    errs.push(field::forbidden(&mount_path.child(member), EPHEMERAL_ONLY));
                }
            }
        }
    }
    errs
}

/// Whether a member differs from its Go zero value: set and not null, and for `resources`
/// (a struct, not a pointer) with one of its own members set.
fn is_non_zero(ctr: &Value, member: &str) -> bool {
    if member == "resources" {
        return read::object(ctr, member).is_some_and(|r| r.values().any(|v| !v.is_null()));
    }
    read::is_set(ctr, member)
}

fn image_whitespace(ctr: &Value, at: &Path, errs: &mut ErrorList) {
    let image = read::text(ctr, "image");
    if image.trim().len() != image.len() {
        errs.push(field::invalid(
            &at.child("image"),
            image,
            "must not have leading or trailing whitespace",
        ));
    }
}

/// `validateContainerCommon`: what every kind of container checks, in upstream order.
fn validate_container_common(ctr: &Container, at: &Path, ctx: &PodContext, errs: &mut ErrorList) {
    let name_path = at.child("name");
    let name = ctr.name.text();
    if name.is_empty() {
        errs.push(field::required(&name_path, ""));
    } else {
        for msg in names::is_dns1123_label(name) {
            errs.push(field::invalid(&name_path, name, &msg));
        }
    }
    if ctr.image.text().is_empty() {
        errs.push(field::required(&at.child("image"), ""));
    }
    let policy_path = at.child("terminationMessagePolicy");
    match ctr.termination_message_policy.text() {
        "File" | "FallbackToLogsOnError" => {}
        "" => errs.push(field::required(&policy_path, "")),
        other => errs.push(field::not_supported(
            &policy_path,
            other,
            &["File", "FallbackToLogsOnError"],
        )),
    }
    validate_ports(ctr.ports.list(), &at.child("ports"), errs);
    env::validate_env(ctr.env.list(), &at.child("env"), ctx.options, errs);
    env::validate_env_from(ctr.env_from.list(), &at.child("envFrom"), ctx.options, errs);
    let (mounts, devices) = (ctr.volume_mounts.list(), ctr.volume_devices.list());
    let privileged = ctr
        .security_context
        .object()
        .and_then(|sc| sc.get("privileged"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    mounts::validate_volume_mounts(
        mounts,
        devices,
        privileged,
        ctx.volumes,
        &at.child("volumeMounts"),
        errs,
    );
    mounts::validate_volume_devices(
        mounts,
        devices,
        ctx.volumes,
        &at.child("volumeDevices"),
        errs,
    );
    let pull_path = at.child("imagePullPolicy");
    match ctr.image_pull_policy.text() {
        "Always" | "IfNotPresent" | "Never" => {}
        "" => errs.push(field::required(&pull_path, "")),
        other => errs.push(field::not_supported(
            &pull_path,
            other,
            &["Always", "IfNotPresent", "Never"],
        )),
    }
    resources::validate_container_resources(
        ctr.resources.value(),
        &ctx.claim_names,
        &at.child("resources"),
        ctx.options,
        errs,
    );
    resources::validate_resize_policy(
        ctr.resize_policy.list(),
        &at.child("resizePolicy"),
        ctx.restart_policy,
        errs,
    );
    security_context::validate_container_security_context(
        ctr.security_context.value(),
        &at.child("securityContext"),
        ctx.host_users,
        ctx.options,
        errs,
    );
}

/// `validateContainerPorts`: IANA names unique within the container, port numbers in range,
/// and a known protocol.
fn validate_ports(ports: &[Value], path: &Path, errs: &mut ErrorList) {
    read::view! {
        struct Port {
            name: "name",
            container_port: "containerPort",
            host_port: "hostPort",
            protocol: "protocol",
        }
    }
    let mut names_seen = Seen::new();
    for (j, port) in ports.iter().enumerate() {
        let port = Port::of(port);
        let at = path.index(j);
        let name = port.name.text();
        if !name.is_empty() {
            let msgs = names::is_valid_port_name(name);
            let name_path = at.child("name");
            if !msgs.is_empty() {
                for msg in msgs {
                    errs.push(field::invalid(&name_path, name, &msg));
                }
            } else if !names_seen.insert(name) {
                errs.push(field::duplicate(&name_path, name));
            }
        }
        let container_port = port.container_port.int();
        let container_path = at.child("containerPort");
        if container_port == 0 {
            errs.push(field::required(&container_path, ""));
        } else {
            for msg in names::is_valid_port_num(container_port) {
                errs.push(field::invalid(&container_path, container_port, &msg));
            }
        }
        let host_port = port.host_port.int();
        if host_port != 0 {
            for msg in names::is_valid_port_num(host_port) {
                errs.push(field::invalid(&at.child("hostPort"), host_port, &msg));
            }
        }
        let protocol_path = at.child("protocol");
        match port.protocol.text() {
            "" => errs.push(field::required(&protocol_path, "")),
            "TCP" | "UDP" | "SCTP" => {}
            other => errs.push(field::not_supported(
                &protocol_path,
                other,
                &["SCTP", "TCP", "UDP"],
            )),
        }
    }
}

/// `AccumulateUniqueHostPorts`: a host port may be used once per protocol and host IP among
/// the given containers, indexed from 0 under `list_path`.
fn host_port_conflicts<'a>(
    containers: impl Iterator<Item = &'a Value>,
    list_path: &Path,
    errs: &mut ErrorList,
) {
    let mut seen = HashSet::new();
    for (i, ctr) in containers.enumerate() {
        let ports_path = list_path.index(i);
        let ports_path = ports_path.child("ports");
        for (j, port) in read::list(ctr, "ports").iter().enumerate() {
            let host_port = read::int(port, "hostPort");
            if host_port == 0 {
                continue;
            }
            let key = format!(
                "{}/{}/{}",
                read::text(port, "protocol"),
                read::text(port, "hostIP"),
                host_port
            );
            if seen.contains(&key) {
                errs.push(field::duplicate(
                    &ports_path.index(j).child("hostPort"),
                    key,
                ));
            } else {
                seen.insert(key);
            }
        }
    }
}

/// `validateInitContainerRestartPolicy`: only `Always` unless container restart rules are
/// allowed; with them, a restartable init container may not have rules, and any other
/// policy is checked as a regular container's.
fn validate_init_restart_policy(
    ctr: &Container,
    policy: &str,
    at: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    if !options.allow_container_restart_policy_rules {
        if policy != "Always" {
            errs.push(field::not_supported(
                &at.child("restartPolicy"),
                policy,
                &["Always"],
            ));
        }
        return;
    }
    if policy == "Always" {
        if !ctr.restart_policy_rules.list().is_empty() {
            errs.push(field::forbidden(
                &at.child("restartPolicyRules"),
                "restartPolicyRules are not allowed for init containers with restart policy Always",
            ));
        }
    } else {
        validate_container_restart_policy(ctr, at, errs);
    }
}

/// `validateContainerRestartPolicy` (only with the `ContainerRestartRules` gate): a known
/// policy, required once rules are given, and at most 20 rules, each restarting on a set of
/// at most 255 exit codes.
fn validate_container_restart_policy(ctr: &Container, at: &Path, errs: &mut ErrorList) {
    let rules = ctr.restart_policy_rules.list();
    let policy_path = at.child("restartPolicy");
    match ctr.restart_policy.opt_text() {
        None if rules.is_empty() => return,
        None => errs.push(field::required(
            &policy_path,
            "must specify restartPolicy when restart rules are used",
        )),
        Some("Always" | "Never" | "OnFailure") => {}
        Some(other) => errs.push(field::not_supported(
            &policy_path,
            other,
            &["Always", "Never", "OnFailure"],
        )),
    }
    let rules_path = at.child("restartPolicyRules");
    if rules.len() > 20 {
        errs.push(field::too_long(&rules_path, 20));
    }
    for (i, rule) in rules.iter().enumerate() {
        let rule_path = rules_path.index(i);
        let action = read::text(rule, "action");
        if action != "Restart" {
            errs.push(field::not_supported(
                &rule_path.child("action"),
                action,
                &["Restart"],
            ));
        }
        let codes_path = rule_path.child("exitCodes");
        match rule.get("exitCodes").filter(|c| c.is_object()) {
            Some(codes) => {
                let operator = read::text(codes, "operator");
                if !matches!(operator, "In" | "NotIn") {
                    errs.push(field::not_supported(
                        &codes_path.child("operator"),
                        operator,
                        &["In", "NotIn"],
                    ));
                }
                if read::list(codes, "values").len() > 255 {
                    errs.push(field::too_long(&codes_path.child("values"), 255));
                }
            }
            None => errs.push(field::required(&codes_path, "must be specified")),
        }
    }
}
