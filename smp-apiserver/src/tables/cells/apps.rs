//! The apps group's rows: workloads and their revisions.

use serde_json::{Value, json};

use super::Row;
use super::common::{
    age, containers, name, pod_spec, replicas, replicated, selector, selector_cell,
};
use crate::tables::duration::Now;
use crate::tables::format::{int, items, labels, text};

/// A Deployment: ready of desired replicas, how many run the latest template and are
/// available, and what it runs.
pub(super) fn deployment(object: &Value, now: Now) -> Row {
    let [names, images] = containers(pod_spec(object, "/spec/template"));
    let ready = format!(
        "{}/{}",
        int(object, "/status/readyReplicas"),
        replicas(object, "/spec/replicas")
    );
    vec![
        name(object),
        json!(ready),
        json!(int(object, "/status/updatedReplicas")),
        json!(int(object, "/status/availableReplicas")),
        age(object, now),
        names,
        images,
        // Unlike the other workloads, an empty selector is left blank here.
        json!(selector(object.pointer("/spec/selector")).unwrap_or_else(|| "<invalid>".to_owned())),
    ]
    .into()
}

/// A ReplicaSet: desired, current and ready replicas, and what it runs.
pub(super) fn replica_set(object: &Value, now: Now) -> Row {
    replicated(object, now, selector_cell(object.pointer("/spec/selector")))
}

/// A DaemonSet: how many nodes should run its pod, run it, are ready, up to date and
/// available; where it runs and what.
pub(super) fn daemon_set(object: &Value, now: Now) -> Row {
    let [names, images] = containers(pod_spec(object, "/spec/template"));
    let count = |member: &str| json!(int(object, &format!("/status/{member}")));
    vec![
        name(object),
        count("desiredNumberScheduled"),
        count("currentNumberScheduled"),
        count("numberReady"),
        count("updatedNumberScheduled"),
        count("numberAvailable"),
        json!(labels(object.pointer("/spec/template/spec/nodeSelector"))),
        age(object, now),
        names,
        images,
        selector_cell(object.pointer("/spec/selector")),
    ]
    .into()
}

/// A StatefulSet: ready of desired replicas, and what it runs.
pub(super) fn stateful_set(object: &Value, now: Now) -> Row {
    let [names, images] = containers(pod_spec(object, "/spec/template"));
    let ready = format!(
        "{}/{}",
        int(object, "/status/readyReplicas"),
        replicas(object, "/spec/replicas")
    );
    vec![name(object), json!(ready), age(object, now), names, images].into()
}

/// A ControllerRevision: the controller that owns it and its revision number.
pub(super) fn controller_revision(object: &Value, now: Now) -> Row {
    vec![
        name(object),
        json!(controller(object)),
        json!(int(object, "/revision")),
        age(object, now),
    ]
    .into()
}

/// `kind.group/name` of an object's controller, in lower case.
fn controller(object: &Value) -> String {
    let owner = items(object, "/metadata/ownerReferences")
        .iter()
        .find(|o| o.get("controller").and_then(Value::as_bool) == Some(true));
    let Some(owner) = owner else {
        return "<none>".to_owned();
    };
    // The group is what precedes the version (`apps/v1`); a core `v1` has none.
    let group = text(owner, "/apiVersion")
        .split_once('/')
        .map_or("", |(group, _)| group);
    let owner_name = text(owner, "/name");
    let kind = match (text(owner, "/kind"), group) {
        ("", "") => return owner_name.to_owned(),
        (kind, "") => kind.to_owned(),
        (kind, group) => format!("{kind}.{group}"),
    };
    format!("{}/{owner_name}", kind.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::super::common::tests::now;
    use super::*;

    fn workload(spec: Value, status: Value) -> Value {
        json!({"metadata": {"name": "web", "namespace": "default", "creationTimestamp": "2026-11-25T12:00:00Z"},
            "spec": spec, "status": status})
    }

    fn template() -> Value {
        json!({"metadata": {"labels": {"app": "web"}},
            "spec": {"containers": [{"name": "nginx", "image": "nginx:1.27"}, {"name": "log", "image": "busybox"}]}})
    }

    #[test]
    fn deployments() {
        let d = workload(
            json!({"replicas": 3, "selector": {"matchLabels": {"app": "web"}}, "template": template()}),
            json!({"replicas": 3, "readyReplicas": 2, "updatedReplicas": 3, "availableReplicas": 2}),
        );
        assert_eq!(
            deployment(&d, now()).cells,
            vec![
                json!("web"),
                json!("2/3"),
                json!(3),
                json!(2),
                json!("3d"),
                json!("nginx,log"),
                json!("nginx:1.27,busybox"),
                json!("app=web")
            ]
        );
        let fresh = workload(json!({"selector": {}}), json!({}));
        assert_eq!(
            deployment(&fresh, now()).cells[1..4],
            [json!("0/1"), json!(0), json!(0)]
        );
        assert_eq!(
            deployment(&fresh, now()).cells[5..],
            [json!(""), json!(""), json!("")]
        );
        let bad = workload(
            json!({"selector": {"matchExpressions": [{"key": "a", "operator": "Bogus"}]}}),
            json!({}),
        );
        assert_eq!(deployment(&bad, now()).cells[7], json!("<invalid>"));
    }

    #[test]
    fn replica_sets() {
        let rs = workload(
            json!({"selector": {"matchLabels": {"app": "web", "pod-template-hash": "5d4f"}}, "template": template()}),
            json!({"replicas": 1, "readyReplicas": 1}),
        );
        assert_eq!(
            replica_set(&rs, now()).cells,
            vec![
                json!("web"),
                json!(1),
                json!(1),
                json!(1),
                json!("3d"),
                json!("nginx,log"),
                json!("nginx:1.27,busybox"),
                json!("app=web,pod-template-hash=5d4f")
            ]
        );
        assert_eq!(
            replica_set(&workload(json!({"replicas": 0}), json!({})), now()).cells[1],
            json!(0)
        );
    }

    #[test]
    fn daemon_sets() {
        let mut t = template();
        t["spec"]["nodeSelector"] = json!({"kubernetes.io/os": "linux"});
        let ds = workload(
            json!({"selector": {"matchExpressions": [{"key": "app", "operator": "In", "values": ["web", "api"]}]},
                "template": t}),
            json!({"desiredNumberScheduled": 3, "currentNumberScheduled": 3, "numberReady": 2,
                "updatedNumberScheduled": 1, "numberAvailable": 2}),
        );
        assert_eq!(
            daemon_set(&ds, now()).cells,
            vec![
                json!("web"),
                json!(3),
                json!(3),
                json!(2),
                json!(1),
                json!(2),
                json!("kubernetes.io/os=linux"),
                json!("3d"),
                json!("nginx,log"),
                json!("nginx:1.27,busybox"),
                json!("app in (api,web)")
            ]
        );
    }

    #[test]
    fn stateful_sets() {
        let sts = workload(
            json!({"replicas": 5, "template": template()}),
            json!({"readyReplicas": 4}),
        );
        assert_eq!(
            stateful_set(&sts, now()).cells,
            vec![
                json!("web"),
                json!("4/5"),
                json!("3d"),
                json!("nginx,log"),
                json!("nginx:1.27,busybox")
            ]
        );
    }

    #[test]
    fn controller_revisions() {
        let owned = |api_version: &str, kind: &str| {
            json!({"metadata": {"name": "web-7c9", "ownerReferences": [
                {"apiVersion": "v1", "kind": "Pod", "name": "other"},
                {"apiVersion": api_version, "kind": kind, "name": "web", "controller": true}]},
                "revision": 4})
        };
        assert_eq!(
            controller_revision(&owned("apps/v1", "StatefulSet"), now()).cells,
            vec![
                json!("web-7c9"),
                json!("statefulset.apps/web"),
                json!(4),
                json!("<unknown>")
            ]
        );
        assert_eq!(
            controller_revision(&owned("v1", "Pod"), now()).cells[1],
            json!("pod/web")
        );
        assert_eq!(
            controller_revision(&owned("v1", ""), now()).cells[1],
            json!("web")
        );
        assert_eq!(
            controller_revision(&json!({}), now()).cells[1],
            json!("<none>")
        );
    }
}
