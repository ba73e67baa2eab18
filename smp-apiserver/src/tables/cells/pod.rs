//! Pod rows: READY, STATUS and RESTARTS summarise the containers' states the way
//! `kubectl get pods` does, init containers and sidecars included.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::Row;
use super::common::{age, condition, instant, is_set, name};
use crate::tables::duration::{Now, human};
use crate::tables::format::{items, or_none, text};

/// A pod: how many containers are ready, its aggregate status, its restarts, and where it
/// runs.
pub(super) fn pod(object: &Value, now: Now) -> Row {
    let summary = Summary::of(object);
    let restarts = match (summary.restarts, summary.last_restart) {
        (0, _) | (_, None) => summary.restarts.to_string(),
        (count, Some(at)) => format!("{count} ({} ago)", human(now.0.saturating_sub(at))),
    };
    Row {
        cells: vec![
            name(object),
            json!(format!("{}/{}", summary.ready, summary.total)),
            json!(summary.reason),
            json!(restarts),
            age(object, now),
            json!(or_none(first_ip(object))),
            json!(or_none(text(object, "/spec/nodeName"))),
            json!(or_none(text(object, "/status/nominatedNodeName"))),
            json!(readiness_gates(object)),
        ],
        conditions: completion(text(object, "/status/phase")),
    }
}

/// What the containers' statuses add up to.
struct Summary {
    ready: usize,
    total: usize,
    reason: String,
    restarts: i64,
    last_restart: Option<i64>,
}

/// Restarts counted over some containers, and when the latest of them ended.
#[derive(Default, Clone, Copy)]
struct Restarts {
    count: i64,
    last: Option<i64>,
}

impl Restarts {
    fn add(&mut self, status: &Value) {
        self.count = self.count.saturating_add(
            status
                .get("restartCount")
                .and_then(Value::as_i64)
                .unwrap_or(0),
        );
        let ended = instant(status.pointer("/lastState/terminated/finishedAt"));
        self.last = self.last.max(ended);
    }
}

impl Summary {
    fn of(pod: &Value) -> Summary {
        let init_specs = items(pod, "/spec/initContainers");
        // Sidecars: init containers that keep running beside the main ones.
        let sidecars: HashMap<&str, bool> = init_specs
            .iter()
            .map(|c| (text(c, "/name"), text(c, "/restartPolicy") == "Always"))
            .collect();
        let sidecar_count = init_specs
            .iter()
            .filter(|c| text(c, "/restartPolicy") == "Always")
            .count();
        let conditions = items(pod, "/status/conditions");
        let mut summary = Summary {
            ready: 0,
            total: items(pod, "/spec/containers").len() + sidecar_count,
            reason: base_reason(pod, conditions),
            restarts: 0,
            last_restart: None,
        };

        let (walked, sidecar_restarts, initializing) =
            summary.walk_init_containers(pod, init_specs.len(), &sidecars);
        let initialized =
            condition(conditions, "Initialized").is_some_and(|c| text(c, "/status") == "True");
        // Once the main containers count, of the init containers only the sidecars still do.
        let restarts = if !initializing || initialized {
            let mut restarts = sidecar_restarts;
            summary.walk_containers(pod, conditions, &mut restarts);
            restarts
        } else {
            walked
        };
        (summary.restarts, summary.last_restart) = (restarts.count, restarts.last);

        if is_set(pod, "/metadata/deletionTimestamp") {
            if text(pod, "/status/reason") == "NodeLost" {
                summary.reason = "Unknown".to_owned();
            } else if !matches!(text(pod, "/status/phase"), "Succeeded" | "Failed") {
                summary.reason = "Terminating".to_owned();
            }
        }
        summary
    }

    /// Walks the init containers until one blocks the pod, which then names the status.
    /// Returns the restarts of all containers walked, those of the sidecars among them, and
    /// whether the pod is still initializing.
    fn walk_init_containers(
        &mut self,
        pod: &Value,
        declared: usize,
        sidecars: &HashMap<&str, bool>,
    ) -> (Restarts, Restarts, bool) {
        let (mut all, mut of_sidecars) = (Restarts::default(), Restarts::default());
        for (index, status) in items(pod, "/status/initContainerStatuses")
            .iter()
            .enumerate()
        {
            all.add(status);
            let sidecar = sidecars
                .get(text(status, "/name"))
                .copied()
                .unwrap_or(false);
            if sidecar {
                of_sidecars.add(status);
            }
            let terminated = status
                .pointer("/state/terminated")
                .filter(|t| t.is_object());
            let waiting_reason = text(status, "/state/waiting/reason");
            match terminated {
                Some(t) if exit_code(t) == 0 => continue,
                _ if sidecar && flag_of(status, "started") => {
                    self.ready += usize::from(flag_of(status, "ready"));
                    continue;
                }
                Some(t) => self.reason = format!("Init:{}", ended_reason(t)),
                None if !waiting_reason.is_empty() && waiting_reason != "PodInitializing" => {
                    self.reason = format!("Init:{waiting_reason}");
                }
                None => self.reason = format!("Init:{index}/{declared}"),
            }
            return (all, of_sidecars, true);
        }
        (all, of_sidecars, false)
    }

    /// Walks the main containers from last to first, so the first one that is waiting or
    /// has ended names the status; counts the ready ones.
    fn walk_containers(&mut self, pod: &Value, conditions: &[Value], restarts: &mut Restarts) {
        let mut running = false;
        for status in items(pod, "/status/containerStatuses").iter().rev() {
            restarts.add(status);
            let waiting_reason = text(status, "/state/waiting/reason");
            let terminated = status
                .pointer("/state/terminated")
                .filter(|t| t.is_object());
            if !waiting_reason.is_empty() {
                self.reason = waiting_reason.to_owned();
            } else if let Some(t) = terminated {
                self.reason = ended_reason(t);
            } else if flag_of(status, "ready")
                && status
                    .pointer("/state/running")
                    .is_some_and(Value::is_object)
            {
                running = true;
                self.ready += 1;
            }
        }
        // A pod whose finished containers sit beside running ones is not done yet.
        if self.reason == "Completed" && running {
            let ready = conditions
                .iter()
                .any(|c| text(c, "/type") == "Ready" && text(c, "/status") == "True");
            self.reason = if ready { "Running" } else { "NotReady" }.to_owned();
        }
    }
}

/// The pod's own reason, else its phase; a pod held back by scheduling gates says so.
fn base_reason(pod: &Value, conditions: &[Value]) -> String {
    let gated = conditions
        .iter()
        .any(|c| text(c, "/type") == "PodScheduled" && text(c, "/reason") == "SchedulingGated");
    if gated {
        return "SchedulingGated".to_owned();
    }
    match text(pod, "/status/reason") {
        "" => text(pod, "/status/phase").to_owned(),
        reason => reason.to_owned(),
    }
}

/// Why a container ended: its reason, else the signal or exit code that ended it.
fn ended_reason(terminated: &Value) -> String {
    let signal = terminated
        .get("signal")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    match text(terminated, "/reason") {
        "" if signal != 0 => format!("Signal:{signal}"),
        "" => format!("ExitCode:{}", exit_code(terminated)),
        reason => reason.to_owned(),
    }
}

/// A terminated container's exit code (0 when absent).
fn exit_code(terminated: &Value) -> i64 {
    terminated
        .get("exitCode")
        .and_then(Value::as_i64)
        .unwrap_or(0)
}

/// A container status's `ready` or `started`.
fn flag_of(status: &Value, member: &str) -> bool {
    status.get(member).and_then(Value::as_bool).unwrap_or(false)
}

/// The pod's IP: `podIP`, else the first of `podIPs`.
fn first_ip(pod: &Value) -> &str {
    match text(pod, "/status/podIP") {
        "" => text(pod, "/status/podIPs/0/ip"),
        ip => ip,
    }
}

/// How many readiness gates hold, of how many there are.
fn readiness_gates(pod: &Value) -> String {
    let gates = items(pod, "/spec/readinessGates");
    if gates.is_empty() {
        return "<none>".to_owned();
    }
    let mut first_status: HashMap<&str, &str> = HashMap::new();
    for c in items(pod, "/status/conditions") {
        first_status
            .entry(text(c, "/type"))
            .or_insert_with(|| text(c, "/status"));
    }
    let holding = gates
        .iter()
        .filter(|g| first_status.get(text(g, "/conditionType")) == Some(&"True"))
        .count();
    format!("{holding}/{}", gates.len())
}

/// A finished pod's row condition.
fn completion(phase: &str) -> Vec<Value> {
    let message = match phase {
        "Succeeded" => "The pod has completed successfully.",
        "Failed" => "The pod failed.",
        _ => return Vec::new(),
    };
    vec![json!({"type": "Completed", "status": "True", "reason": phase, "message": message})]
}

#[cfg(test)]
mod tests {
    use super::super::common::tests::now;
    use super::*;

    fn cells(pod_json: Value) -> Vec<Value> {
        pod(&pod_json, now()).cells
    }

    fn pod_with(spec: Value, status: Value) -> Value {
        json!({"metadata": {"name": "web-1", "namespace": "default",
            "creationTimestamp": "2026-11-28T11:55:00Z"}, "spec": spec, "status": status})
    }

    fn one_container() -> Value {
        json!({"containers": [{"name": "app", "image": "nginx:1.27"}]})
    }

    #[test]
    fn a_new_pod_is_pending() {
        let row = pod(
            &pod_with(one_container(), json!({"phase": "Pending"})),
            now(),
        );
        assert_eq!(
            row.cells,
            vec![
                json!("web-1"),
                json!("0/1"),
                json!("Pending"),
                json!("0"),
                json!("5m"),
                json!("<none>"),
                json!("<none>"),
                json!("<none>"),
                json!("<none>")
            ]
        );
        assert!(row.conditions.is_empty());
    }

    #[test]
    fn a_container_being_created_names_the_status() {
        let status = json!({"phase": "Pending", "containerStatuses": [{"name": "app", "ready": false,
            "restartCount": 0, "state": {"waiting": {"reason": "ContainerCreating"}}}]});
        let mut spec = one_container();
        spec["nodeName"] = json!("node-a");
        let cells = cells(pod_with(spec, status));
        assert_eq!(
            cells[1..4],
            [json!("0/1"), json!("ContainerCreating"), json!("0")]
        );
        assert_eq!(cells[6], json!("node-a"));
    }

    fn two_init_containers() -> Value {
        json!({"initContainers": [{"name": "migrate", "image": "m"}, {"name": "seed", "image": "s"}],
            "containers": [{"name": "app", "image": "nginx"}]})
    }

    #[test]
    fn init_containers_count_up() {
        let status = json!({"phase": "Pending",
            "conditions": [{"type": "Initialized", "status": "False"}],
            "initContainerStatuses": [
                {"name": "migrate", "restartCount": 0, "state": {"running": {"startedAt": "2026-11-28T11:59:00Z"}}},
                {"name": "seed", "restartCount": 0, "state": {"waiting": {"reason": "PodInitializing"}}}],
            "containerStatuses": [{"name": "app", "restartCount": 0,
                "state": {"waiting": {"reason": "PodInitializing"}}}]});
        assert_eq!(
            cells(pod_with(two_init_containers(), status))[1..4],
            [json!("0/1"), json!("Init:0/2"), json!("0")]
        );
    }

    #[test]
    fn a_crash_looping_init_container_names_the_status() {
        let status = json!({"phase": "Pending",
            "initContainerStatuses": [
                {"name": "migrate", "restartCount": 4,
                 "lastState": {"terminated": {"exitCode": 1, "reason": "Error",
                    "finishedAt": "2026-11-28T11:59:22Z"}},
                 "state": {"waiting": {"reason": "CrashLoopBackOff"}}},
                {"name": "seed", "restartCount": 0, "state": {"waiting": {"reason": "PodInitializing"}}}]});
        assert_eq!(
            cells(pod_with(two_init_containers(), status))[1..4],
            [
                json!("0/1"),
                json!("Init:CrashLoopBackOff"),
                json!("4 (38s ago)")
            ]
        );
    }

    #[test]
    fn a_failed_init_container_names_the_status() {
        let status = json!({"phase": "Pending", "initContainerStatuses": [
            {"name": "migrate", "restartCount": 0,
             "state": {"terminated": {"exitCode": 1, "reason": "Error"}}}]});
        assert_eq!(
            cells(pod_with(two_init_containers(), status))[2],
            json!("Init:Error")
        );
        let signalled = json!({"phase": "Pending", "initContainerStatuses": [
            {"name": "migrate", "state": {"terminated": {"exitCode": 137, "signal": 9}}}]});
        assert_eq!(
            cells(pod_with(two_init_containers(), signalled))[2],
            json!("Init:Signal:9")
        );
        let exited = json!({"phase": "Pending", "initContainerStatuses": [
            {"name": "migrate", "state": {"terminated": {"exitCode": 2}}}]});
        assert_eq!(
            cells(pod_with(two_init_containers(), exited))[2],
            json!("Init:ExitCode:2")
        );
    }

    #[test]
    fn a_finished_job_pod_is_completed() {
        let status = json!({"phase": "Succeeded", "podIP": "10.244.1.7",
            "conditions": [{"type": "Ready", "status": "False", "reason": "PodCompleted"}],
            "containerStatuses": [{"name": "app", "ready": false, "restartCount": 0,
                "state": {"terminated": {"exitCode": 0, "reason": "Completed",
                    "finishedAt": "2026-11-28T11:58:00Z"}}}]});
        let row = pod(&pod_with(one_container(), status), now());
        assert_eq!(
            row.cells[1..4],
            [json!("0/1"), json!("Completed"), json!("0")]
        );
        assert_eq!(row.cells[5], json!("10.244.1.7"));
        assert_eq!(
            row.conditions,
            vec![
                json!({"type": "Completed", "status": "True", "reason": "Succeeded",
                "message": "The pod has completed successfully."})
            ]
        );
        let failed = pod(
            &pod_with(one_container(), json!({"phase": "Failed"})),
            now(),
        );
        assert_eq!(
            failed.conditions,
            vec![
                json!({"type": "Completed", "status": "True", "reason": "Failed", "message": "The pod failed."})
            ]
        );
    }

    fn running() -> Value {
        json!({"phase": "Running", "podIPs": [{"ip": "10.244.0.5"}, {"ip": "fd00::5"}],
            "conditions": [{"type": "Ready", "status": "True"}],
            "containerStatuses": [{"name": "app", "ready": true, "started": true, "restartCount": 3,
                "lastState": {"terminated": {"exitCode": 1, "finishedAt": "2026-11-28T11:59:22Z"}},
                "state": {"running": {"startedAt": "2026-11-28T11:59:23Z"}}}]})
    }

    #[test]
    fn a_running_pod_shows_its_restarts_and_first_ip() {
        let cells = cells(pod_with(one_container(), running()));
        assert_eq!(
            cells[1..6],
            [
                json!("1/1"),
                json!("Running"),
                json!("3 (38s ago)"),
                json!("5m"),
                json!("10.244.0.5")
            ]
        );
    }

    #[test]
    fn a_pod_being_deleted_is_terminating() {
        let mut object = pod_with(one_container(), running());
        object["metadata"]["deletionTimestamp"] = json!("2026-11-28T12:00:30Z");
        assert_eq!(cells(object.clone())[2], json!("Terminating"));
        object["status"]["reason"] = json!("NodeLost");
        assert_eq!(cells(object.clone())[2], json!("Unknown"));
        object["status"] = json!({"phase": "Succeeded"});
        assert_eq!(cells(object)[2], json!("Succeeded"));
    }

    #[test]
    fn a_gated_pod_says_so() {
        let status = json!({"phase": "Pending", "conditions": [
            {"type": "PodScheduled", "status": "False", "reason": "SchedulingGated"}]});
        let mut spec = one_container();
        spec["schedulingGates"] = json!([{"name": "example.com/quota"}]);
        assert_eq!(
            cells(pod_with(spec, status))[1..4],
            [json!("0/1"), json!("SchedulingGated"), json!("0")]
        );
    }

    #[test]
    fn sidecars_count_towards_ready_and_total() {
        let spec = json!({"initContainers": [
                {"name": "proxy", "image": "envoy", "restartPolicy": "Always"},
                {"name": "setup", "image": "busybox"}],
            "containers": [{"name": "app", "image": "nginx"}],
            "readinessGates": [{"conditionType": "example.com/lb"}, {"conditionType": "example.com/dns"}]});
        let status = json!({"phase": "Running",
            "conditions": [{"type": "Initialized", "status": "True"}, {"type": "Ready", "status": "True"},
                {"type": "example.com/lb", "status": "True"}],
            "initContainerStatuses": [
                {"name": "proxy", "ready": true, "started": true, "restartCount": 1,
                 "lastState": {"terminated": {"exitCode": 1, "finishedAt": "2026-11-28T10:00:00Z"}},
                 "state": {"running": {}}},
                {"name": "setup", "restartCount": 0, "state": {"terminated": {"exitCode": 0, "reason": "Completed"}}}],
            "containerStatuses": [{"name": "app", "ready": true, "restartCount": 0, "state": {"running": {}}}]});
        let cells = cells(pod_with(spec, status));
        assert_eq!(
            cells[1..4],
            [json!("2/2"), json!("Running"), json!("1 (120m ago)")]
        );
        assert_eq!(cells[8], json!("1/2"));
    }

    #[test]
    fn a_completed_container_beside_a_running_one_is_not_ready() {
        let spec = json!({"containers": [{"name": "a"}, {"name": "b"}]});
        let status = json!({"phase": "Running", "conditions": [{"type": "Ready", "status": "False"}],
            "containerStatuses": [
                {"name": "a", "state": {"terminated": {"exitCode": 0, "reason": "Completed"}}},
                {"name": "b", "ready": true, "state": {"running": {}}}]});
        assert_eq!(
            cells(pod_with(spec, status))[1..3],
            [json!("1/2"), json!("NotReady")]
        );
    }

    #[test]
    fn odd_pods_do_not_panic() {
        let odd = json!({"metadata": {"name": 5}, "spec": {"containers": "x", "initContainers": [null, 3]},
            "status": {"initContainerStatuses": [{"restartCount": i64::MAX, "state": {"terminated": 7}},
                {"restartCount": i64::MAX}], "containerStatuses": [null]}});
        assert_eq!(
            cells(odd)[1..4],
            [json!("0/0"), json!("Init:0/2"), json!(i64::MAX.to_string())]
        );
        assert_eq!(
            cells(json!({}))[1..5],
            [json!("0/0"), json!(""), json!("0"), json!("<unknown>")]
        );
    }
}
