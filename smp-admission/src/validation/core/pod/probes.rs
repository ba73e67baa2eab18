//! Probes (`validateLivenessProbe`, `validateReadinessProbe`, `validateStartupProbe`,
//! `validateProbe`), lifecycle hooks (`validateLifecycle`, `validateStopSignal`) and the
//! handler both use (`validateHandler`): exactly one action, each action's own checks.

use serde_json::Value;

use super::container::Container;
use super::context::PodContext;
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::IS_NEGATIVE;
use crate::validation::names;
use crate::validation::read::{self, Member};

read::view! {
    /// The members of a probe its checks read.
    struct Probe {
        exec: "exec",
        http_get: "httpGet",
        tcp_socket: "tcpSocket",
        grpc: "grpc",
        initial_delay_seconds: "initialDelaySeconds",
        timeout_seconds: "timeoutSeconds",
        period_seconds: "periodSeconds",
        success_threshold: "successThreshold",
        failure_threshold: "failureThreshold",
        termination_grace_period_seconds: "terminationGracePeriodSeconds",
    }
}

read::view! {
    /// The members of a lifecycle hook's handler its checks read.
    struct Hook {
        exec: "exec",
        http_get: "httpGet",
        tcp_socket: "tcpSocket",
        sleep: "sleep",
    }
}

/// The hooks and the three probes of a regular or restartable init container, in upstream
/// order.
pub(super) fn validate_hooks_and_probes(
    ctr: &Container,
    at: &Path,
    ctx: &PodContext,
    errs: &mut ErrorList,
) {
    if let Some(lifecycle) = ctr.lifecycle.set_object() {
        validate_lifecycle(lifecycle, &at.child("lifecycle"), ctx, errs);
    }
    if let Some(probe) = ctr.liveness_probe.set_object() {
        let path = at.child("livenessProbe");
        let probe = Probe::of(probe);
        validate_probe(&probe, &path, ctx, errs);
        success_threshold_one(&probe, &path, errs);
    }
    if let Some(probe) = ctr.readiness_probe.set_object() {
        let path = at.child("readinessProbe");
        let probe = Probe::of(probe);
        validate_probe(&probe, &path, ctx, errs);
        if let Some(grace) = probe.termination_grace_period_seconds.opt_int() {
            errs.push(field::invalid(
                &path.child("terminationGracePeriodSeconds"),
                grace,
                "must not be set for readinessProbes",
            ));
        }
    }
    if let Some(probe) = ctr.startup_probe.set_object() {
        let path = at.child("startupProbe");
        let probe = Probe::of(probe);
        validate_probe(&probe, &path, ctx, errs);
        success_threshold_one(&probe, &path, errs);
    }
}

/// Liveness and startup probes succeed on the first success.
fn success_threshold_one(probe: &Probe, path: &Path, errs: &mut ErrorList) {
    let threshold = probe.success_threshold.int();
    if threshold != 1 {
        errs.push(field::invalid(
            &path.child("successThreshold"),
            threshold,
            "must be 1",
        ));
    }
}

/// `validateProbe`: its handler, then no negative timing, and a positive grace period when
/// one is given.
fn validate_probe(probe: &Probe, path: &Path, ctx: &PodContext, errs: &mut ErrorList) {
    let actions = [
        ("exec", probe.exec),
        ("httpGet", probe.http_get),
        ("tcpSocket", probe.tcp_socket),
        ("grpc", probe.grpc),
    ];
    validate_handler(&actions, path, ctx, errs);
    for (member, value) in [
        ("initialDelaySeconds", probe.initial_delay_seconds),
        ("timeoutSeconds", probe.timeout_seconds),
        ("periodSeconds", probe.period_seconds),
        ("successThreshold", probe.success_threshold),
        ("failureThreshold", probe.failure_threshold),
    ] {
        let value = value.int();
        if value < 0 {
            errs.push(field::invalid(&path.child(member), value, IS_NEGATIVE));
        }
    }
    if let Some(grace) = probe.termination_grace_period_seconds.opt_int()
        && grace <= 0
    {
        errs.push(field::invalid(
            &path.child("terminationGracePeriodSeconds"),
            grace,
            "must be greater than 0",
        ));
    }
}

/// `validateLifecycle`: each hook's handler, and the stop signal for the pod's OS.
fn validate_lifecycle(lifecycle: &Value, path: &Path, ctx: &PodContext, errs: &mut ErrorList) {
    for hook in ["postStart", "preStop"] {
        if let Some(handler) = lifecycle.get(hook).filter(|h| h.is_object()) {
            let handler = Hook::of(handler);
            let actions = [
                ("exec", handler.exec),
                ("httpGet", handler.http_get),
                ("tcpSocket", handler.tcp_socket),
                ("sleep", handler.sleep),
            ];
            validate_handler(&actions, &path.child(hook), ctx, errs);
        }
    }
    if let Some(signal) = read::opt_text(lifecycle, "stopSignal") {
        validate_stop_signal(signal, &path.child("stopSignal"), ctx.os, errs);
    }
}

/// `validateHandler`: the first action set is checked, each further one is forbidden, and
/// none at all is required. `actions` are the handler's, in the order upstream considers
/// them.
fn validate_handler(
    actions: &[(&str, Member); 4],
    path: &Path,
    ctx: &PodContext,
    errs: &mut ErrorList,
) {
    let mut found = false;
    for &(action, member) in actions {
        let Some(spec) = member.set_object() else {
            continue;
        };
        let at = path.child(action);
        if found {
            errs.push(field::forbidden(
                &at,
                "may not specify more than 1 handler type",
            ));
            continue;
        }
        found = true;
        match action {
            "exec" => {
                if read::list(spec, "command").is_empty() {
                    errs.push(field::required(&at.child("command"), ""));
                }
            }
            "httpGet" => validate_http_get(spec, &at, errs),
            "tcpSocket" => validate_port_num_or_name(spec.get("port"), &at.child("port"), errs),
            "grpc" => {
                let port = read::int(spec, "port");
                for msg in names::is_valid_port_num(port) {
                    errs.push(field::invalid(&at.child("port"), port, &msg));
                }
            }
            _ => validate_sleep(spec, &at, ctx, errs),
        }
    }
    if !found {
        errs.push(field::required(path, "must specify a handler type"));
    }
}

/// `validateHTTPGetAction`: a path, a port, a known scheme and valid header names (reported
/// on `httpHeaders` without an index).
fn validate_http_get(action: &Value, path: &Path, errs: &mut ErrorList) {
    if read::text(action, "path").is_empty() {
        errs.push(field::required(&path.child("path"), ""));
    }
    validate_port_num_or_name(action.get("port"), &path.child("port"), errs);
    let scheme = read::text(action, "scheme");
    if !matches!(scheme, "HTTP" | "HTTPS") {
        errs.push(field::not_supported(
            &path.child("scheme"),
            scheme,
            &["HTTP", "HTTPS"],
        ));
    }
    let headers_path = path.child("httpHeaders");
    for header in read::list(action, "httpHeaders") {
        let name = read::text(header, "name");
        for msg in names::is_http_header_name(name) {
            errs.push(field::invalid(&headers_path, name, &msg));
        }
    }
}

/// `ValidatePortNumOrName`: a number in range, or an IANA service name; an absent port is
/// the number 0.
pub(super) fn validate_port_num_or_name(port: Option<&Value>, path: &Path, errs: &mut ErrorList) {
    match port {
        Some(Value::String(name)) => {
            for msg in names::is_valid_port_name(name) {
                errs.push(field::invalid(path, name.as_str(), &msg));
            }
        }
        other => {
            let number = other.and_then(Value::as_i64).unwrap_or(0);
            for msg in names::is_valid_port_num(number) {
                errs.push(field::invalid(path, number, &msg));
            }
        }
    }
}

/// `validateSleepAction`: within the pod's grace period (zero allowed once the
/// `PodLifecycleSleepActionAllowZero` gate is on); reported on `sleep`, not `sleep.seconds`.
fn validate_sleep(action: &Value, path: &Path, ctx: &PodContext, errs: &mut ErrorList) {
    let Some(grace) = ctx.grace_period else {
        return;
    };
    let seconds = read::int(action, "seconds");
    if ctx.options.allow_pod_lifecycle_sleep_action_zero_value {
        if seconds < 0 || seconds > grace {
            errs.push(field::invalid(
                path,
                seconds,
                &format!(
                    "must be non-negative and less than terminationGracePeriodSeconds ({grace})"
                ),
            ));
        }
    } else if seconds <= 0 || seconds > grace {
        errs.push(field::invalid(
            path,
            seconds,
            &format!("must be greater than 0 and less than terminationGracePeriodSeconds ({grace}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep."),
        ));
    }
}

const WINDOWS_SIGNALS: [&str; 2] = ["SIGKILL", "SIGTERM"];

const LINUX_SIGNALS: [&str; 65] = [
    "SIGABRT",
    "SIGALRM",
    "SIGBUS",
    "SIGCHLD",
    "SIGCLD",
    "SIGCONT",
    "SIGFPE",
    "SIGHUP",
    "SIGILL",
    "SIGINT",
    "SIGIO",
    "SIGIOT",
    "SIGKILL",
    "SIGPIPE",
    "SIGPOLL",
    "SIGPROF",
    "SIGPWR",
    "SIGQUIT",
    "SIGSEGV",
    "SIGSTKFLT",
    "SIGSTOP",
    "SIGSYS",
    "SIGTERM",
    "SIGTRAP",
    "SIGTSTP",
    "SIGTTIN",
    "SIGTTOU",
    "SIGURG",
    "SIGUSR1",
    "SIGUSR2",
    "SIGVTALRM",
    "SIGWINCH",
    "SIGXCPU",
    "SIGXFSZ",
    "SIGRTMIN",
    "SIGRTMIN+1",
    "SIGRTMIN+2",
    "SIGRTMIN+3",
    "SIGRTMIN+4",
    "SIGRTMIN+5",
    "SIGRTMIN+6",
    "SIGRTMIN+7",
    "SIGRTMIN+8",
    "SIGRTMIN+9",
    "SIGRTMIN+10",
    "SIGRTMIN+11",
    "SIGRTMIN+12",
    "SIGRTMIN+13",
    "SIGRTMIN+14",
    "SIGRTMIN+15",
    "SIGRTMAX-14",
    "SIGRTMAX-13",
    "SIGRTMAX-12",
    "SIGRTMAX-11",
    "SIGRTMAX-10",
    "SIGRTMAX-9",
    "SIGRTMAX-8",
    "SIGRTMAX-7",
    "SIGRTMAX-6",
    "SIGRTMAX-5",
    "SIGRTMAX-4",
    "SIGRTMAX-3",
    "SIGRTMAX-2",
    "SIGRTMAX-1",
    "SIGRTMAX",
];

/// `validateStopSignal` (the `ContainerStopSignals` gate, off in v1.34, drops the field
/// before validation unless the old pod had it): needs `spec.os`, and a signal of that OS.
fn validate_stop_signal(signal: &str, path: &Path, os: Option<&str>, errs: &mut ErrorList) {
    let allowed: &[&str] = match os {
        None => {
            errs.push(field::forbidden(
                path,
                "may not be set for containers with empty `spec.os.name`",
            ));
            return;
        }
        Some("windows") => &WINDOWS_SIGNALS,
        Some("linux") => &LINUX_SIGNALS,
        Some(_) => return,
    };
    if !allowed.contains(&signal) {
        let mut sorted = allowed.to_vec();
        sorted.sort_unstable();
        errs.push(field::not_supported(path, BadValue::from(signal), &sorted));
    }
}
