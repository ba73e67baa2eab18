//! The core group's rows (`""`: services, nodes, events, volumes, ...); pods have their own
//! file.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::Row;
use super::common::{
    access_modes, age, ago, annotation, condition, containers, ingress_points, is_set, member,
    name, pod_spec, replicated, text_if_set, with_more,
};
use super::quantity;
use crate::tables::duration::Now;
use crate::tables::format::{int, items, labels, or_none, text};

/// A PodTemplate: the containers it runs and the labels its pods get.
pub(super) fn pod_template(object: &Value, _now: Now) -> Row {
    let [names, images] = containers(pod_spec(object, "/template"));
    vec![
        name(object),
        names,
        images,
        json!(labels(object.pointer("/template/metadata/labels"))),
    ]
    .into()
}

/// A ReplicationController: desired, current and ready replicas, and what it runs.
pub(super) fn replication_controller(object: &Value, now: Now) -> Row {
    replicated(object, now, json!(labels(object.pointer("/spec/selector"))))
}

/// A Service: its type, addresses inside and outside the cluster, and ports.
pub(super) fn service(object: &Value, now: Now) -> Row {
    let kind = match text(object, "/spec/type") {
        "" => "ClusterIP",
        kind => kind,
    };
    // Stored objects may carry only the older single `clusterIP`, which the API would have
    // copied into `clusterIPs`.
    let cluster_ip = match text(object, "/spec/clusterIPs/0") {
        "" => text(object, "/spec/clusterIP"),
        ip => ip,
    };
    vec![
        name(object),
        json!(kind),
        json!(or_none(cluster_ip)),
        json!(external_ips(object, kind)),
        json!(or_none(service_ports(object))),
        age(object, now),
        json!(labels(object.pointer("/spec/selector"))),
    ]
    .into()
}

/// Where a Service is reached from outside, by its type.
fn external_ips(service: &Value, kind: &str) -> String {
    let external: Vec<String> = items(service, "/spec/externalIPs")
        .iter()
        .map(|ip| ip.as_str().unwrap_or("").to_owned())
        .collect();
    match kind {
        "ClusterIP" | "NodePort" => or_none(external.join(",")),
        "LoadBalancer" => {
            let mut addresses = ingress_points(service, "/status/loadBalancer/ingress");
            if addresses.is_empty() && external.is_empty() {
                return "<pending>".to_owned();
            }
            addresses.extend(external);
            addresses.join(",")
        }
        "ExternalName" => text(service, "/spec/externalName").to_owned(),
        _ => "<unknown>".to_owned(),
    }
}

/// A Service's ports: `80/TCP`, or `80:30080/TCP` with a node port.
fn service_ports(service: &Value) -> String {
    let ports: Vec<String> = items(service, "/spec/ports")
        .iter()
        .map(|p| {
            let (port, protocol) = (int(p, "/port"), text(p, "/protocol"));
            match int(p, "/nodePort") {
                node_port if node_port > 0 => format!("{port}:{node_port}/{protocol}"),
                _ => format!("{port}/{protocol}"),
            }
        })
        .collect();
    ports.join(",")
}

/// An Endpoints: the first few ready addresses, with their ports.
pub(super) fn endpoints(object: &Value, now: Now) -> Row {
    vec![
        name(object),
        json!(endpoint_addresses(object)),
        age(object, now),
    ]
    .into()
}

/// The first three ready `ip:port`s of all subsets, and how many more there are.
fn endpoint_addresses(object: &Value) -> String {
    let subsets = items(object, "/subsets");
    if subsets.is_empty() {
        return "<none>".to_owned();
    }
    let (mut shown, mut total) = (Vec::new(), 0_usize);
    for subset in subsets {
        let addresses = items(subset, "/addresses");
        let ports = items(subset, "/ports");
        // Headless services may list addresses without ports.
        let port_numbers: Vec<Option<i64>> = if ports.is_empty() {
            vec![None]
        } else {
            ports.iter().map(|p| Some(int(p, "/port"))).collect()
        };
        for port in port_numbers {
            total = total.saturating_add(addresses.len());
            for address in addresses.iter().take(3_usize.saturating_sub(shown.len())) {
                let ip = text(address, "/ip");
                shown.push(match port {
                    None => ip.to_owned(),
                    Some(port) if ip.contains(':') => format!("[{ip}]:{port}"),
                    Some(port) => format!("{ip}:{port}"),
                });
            }
        }
    }
    with_more(&shown, total)
}

/// A Node: whether it is ready and schedulable, its roles, and what it runs.
pub(super) fn node(object: &Value, now: Now) -> Row {
    let info = |member: &str| {
        json!(match text(object, &format!("/status/nodeInfo/{member}")) {
            "" => "<unknown>",
            value => value,
        })
    };
    vec![
        name(object),
        json!(node_status(object)),
        json!(node_roles(object)),
        age(object, now),
        json!(text(object, "/status/nodeInfo/kubeletVersion")),
        json!(node_address(object, "InternalIP")),
        json!(node_address(object, "ExternalIP")),
        info("osImage"),
        info("kernelVersion"),
        info("containerRuntimeVersion"),
    ]
    .into()
}

/// `Ready`, `NotReady` or `Unknown` from the (last) Ready condition, and whether pods may
/// still be scheduled there.
fn node_status(node: &Value) -> String {
    let ready = items(node, "/status/conditions")
        .iter()
        .rev()
        .find(|c| text(c, "/type") == "Ready");
    let mut status = match ready {
        Some(c) if text(c, "/status") == "True" => "Ready",
        Some(_) => "NotReady",
        None => "Unknown",
    }
    .to_owned();
    if node.pointer("/spec/unschedulable").and_then(Value::as_bool) == Some(true) {
        status.push_str(",SchedulingDisabled");
    }
    status
}

/// The roles a Node's labels give it.
fn node_roles(node: &Value) -> String {
    let roles: BTreeSet<&str> = node
        .pointer("/metadata/labels")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(
            |(key, value)| match key.strip_prefix("node-role.kubernetes.io/") {
                Some(role) => Some(role),
                None if key == "kubernetes.io/role" => value.as_str(),
                None => None,
            },
        )
        .filter(|role| !role.is_empty())
        .collect();
    or_none(roles.into_iter().collect::<Vec<_>>().join(","))
}

/// The first address of type `kind` a Node reports.
fn node_address(node: &Value, kind: &str) -> String {
    let address = items(node, "/status/addresses")
        .iter()
        .find(|a| text(a, "/type") == kind)
        .map_or("", |a| text(a, "/address"));
    or_none(address)
}

/// An Event: when it was last and first seen, what it is about, who reported it and how
/// often.
pub(super) fn event(object: &Value, now: Now) -> Row {
    let unknown = || "<unknown>".to_owned();
    let first = ago(now, object.get("firstTimestamp"))
        .or_else(|| ago(now, object.get("eventTime")))
        .unwrap_or_else(unknown);
    let series = object.get("series").filter(|s| !s.is_null());
    let last = match series {
        Some(series) => ago(now, series.get("lastObservedTime")).unwrap_or_else(unknown),
        None => ago(now, object.get("lastTimestamp")).unwrap_or_else(|| first.clone()),
    };
    let count = match series {
        Some(series) => int(series, "/count"),
        // Events written through events.k8s.io without a series do not count themselves.
        None => match int(object, "/count") {
            0 => 1,
            count => count,
        },
    };
    vec![
        json!(last),
        json!(text(object, "/type")),
        json!(text(object, "/reason")),
        json!(event_object(object)),
        json!(text(object, "/involvedObject/fieldPath")),
        json!(event_source(object)),
        json!(text(object, "/message").trim()),
        json!(first),
        json!(count),
        name(object),
    ]
    .into()
}

/// `kind/name` of what an Event is about, the kind in lower case.
fn event_object(event: &Value) -> String {
    let kind = text(event, "/involvedObject/kind").to_lowercase();
    match text(event, "/involvedObject/name") {
        "" => kind,
        name => format!("{kind}/{name}"),
    }
}

/// The component that reported an Event, and on which host.
fn event_source(event: &Value) -> String {
    let either = |old: &str, new: &str| match text(event, old) {
        "" => text(event, new),
        value => value,
    };
    let component = either("/source/component", "/reportingComponent");
    match either("/source/host", "/reportingInstance") {
        "" => component.to_owned(),
        instance => format!("{component}, {instance}"),
    }
}

/// A Namespace: its phase.
pub(super) fn namespace(object: &Value, now: Now) -> Row {
    vec![
        name(object),
        json!(text(object, "/status/phase")),
        age(object, now),
    ]
    .into()
}

/// A Secret: its type and how many keys it holds.
pub(super) fn secret(object: &Value, now: Now) -> Row {
    let kind = match text(object, "/type") {
        "" => "Opaque",
        kind => kind,
    };
    let keys = object
        .get("data")
        .and_then(Value::as_object)
        .map_or(0, |m| m.len());
    vec![name(object), json!(kind), json!(keys), age(object, now)].into()
}

/// A ServiceAccount: how many secrets it lists.
pub(super) fn service_account(object: &Value, now: Now) -> Row {
    vec![
        name(object),
        json!(items(object, "/secrets").len()),
        age(object, now),
    ]
    .into()
}

/// A PersistentVolume: its size, access, phase and the claim bound to it.
pub(super) fn persistent_volume(object: &Value, now: Now) -> Row {
    let claim = match object.pointer("/spec/claimRef") {
        Some(claim) if !claim.is_null() => {
            format!("{}/{}", text(claim, "/namespace"), text(claim, "/name"))
        }
        _ => String::new(),
    };
    let volume_mode = text_if_set(object, "/spec/volumeMode").unwrap_or("Filesystem");
    vec![
        name(object),
        json!(quantity::at(object, "/spec/capacity/storage")),
        json!(access_modes(items(object, "/spec/accessModes"))),
        json!(text(object, "/spec/persistentVolumeReclaimPolicy")),
        json!(volume_phase(object)),
        json!(claim),
        json!(storage_class(object)),
        json!(text_if_set(object, "/spec/volumeAttributesClassName").unwrap_or("<unset>")),
        json!(text(object, "/status/reason")),
        age(object, now),
        json!(volume_mode),
    ]
    .into()
}

/// A PersistentVolumeClaim: its phase, the volume it is bound to and what that offers.
pub(super) fn persistent_volume_claim(object: &Value, now: Now) -> Row {
    let volume = text(object, "/spec/volumeName");
    let (capacity, modes) = match volume {
        "" => (String::new(), String::new()),
        _ => (
            quantity::at(object, "/status/capacity/storage"),
            access_modes(items(object, "/status/accessModes")),
        ),
    };
    vec![
        name(object),
        json!(volume_phase(object)),
        json!(volume),
        json!(capacity),
        json!(modes),
        json!(storage_class(object)),
        json!(text_if_set(object, "/spec/volumeAttributesClassName").unwrap_or("<unset>")),
        age(object, now),
        json!(text_if_set(object, "/spec/volumeMode").unwrap_or("<unset>")),
    ]
    .into()
}

/// A volume's or claim's phase, or `Terminating` once it is being deleted.
fn volume_phase(object: &Value) -> &str {
    if is_set(object, "/metadata/deletionTimestamp") {
        "Terminating"
    } else {
        text(object, "/status/phase")
    }
}

/// The storage class: the old annotation when present, else the spec's.
fn storage_class(object: &Value) -> &str {
    annotation(object, "volume.beta.kubernetes.io/storage-class")
        .unwrap_or_else(|| text(object, "/spec/storageClassName"))
}

/// A ComponentStatus: whether the component is healthy, and what it said.
pub(super) fn component_status(object: &Value, _now: Now) -> Row {
    let healthy = condition(items(object, "/conditions"), "Healthy");
    let status = match healthy {
        Some(c) if text(c, "/status") == "True" => "Healthy",
        Some(_) => "Unhealthy",
        None => "Unknown",
    };
    let member = |m: &str| json!(healthy.map_or("", |c| text(c, m)));
    vec![
        name(object),
        json!(status),
        member("/message"),
        member("/error"),
    ]
    .into()
}

/// A ConfigMap: how many keys it holds, in `data` and `binaryData` together.
pub(super) fn config_map(object: &Value, now: Now) -> Row {
    let count = |member: &str| {
        object
            .get(member)
            .and_then(Value::as_object)
            .map_or(0, |m| m.len())
    };
    vec![
        name(object),
        json!(count("data") + count("binaryData")),
        age(object, now),
    ]
    .into()
}

/// A ResourceQuota: use against each hard limit, requests and limits apart.
pub(super) fn resource_quota(object: &Value, now: Now) -> Row {
    let mut hard: Vec<(&String, &Value)> = member(object, "/status/hard")
        .as_object()
        .into_iter()
        .flatten()
        .collect();
    hard.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let used = member(object, "/status/used");
    let (mut requests, mut limits) = (Vec::new(), Vec::new());
    for (key, limit) in hard {
        let used = used
            .get(key)
            .map_or_else(|| "0".to_owned(), quantity::canonical);
        let entry = format!("{key}: {used}/{}", quantity::canonical(limit));
        match key.split_once('.') {
            Some(("limits", _)) => limits.push(entry),
            _ => requests.push(entry),
        }
    }
    vec![
        name(object),
        json!(requests.join(", ")),
        json!(limits.join(", ")),
        age(object, now),
    ]
    .into()
}

#[cfg(test)]
mod tests {
    use super::super::common::tests::now;
    use super::*;

    fn meta(name: &str) -> Value {
        json!({"name": name, "namespace": "default", "creationTimestamp": "2026-11-28T09:00:00Z"})
    }

    #[test]
    fn pod_templates_list_containers_and_labels() {
        let t = json!({"metadata": meta("tpl"), "template": {"metadata": {"labels": {"tier": "web", "app": "x"}},
            "spec": {"containers": [{"name": "a", "image": "nginx"}, {"name": "b"}]}}});
        assert_eq!(
            pod_template(&t, now()).cells,
            vec![
                json!("tpl"),
                json!("a,b"),
                json!("nginx,"),
                json!("app=x,tier=web")
            ]
        );
    }

    #[test]
    fn replication_controllers_default_to_one_replica() {
        let rc = json!({"metadata": meta("rc"), "spec": {"selector": {"app": "x"},
            "template": {"spec": {"containers": [{"name": "a", "image": "i"}]}}},
            "status": {"replicas": 1, "readyReplicas": 1}});
        assert_eq!(
            replication_controller(&rc, now()).cells,
            vec![
                json!("rc"),
                json!(1),
                json!(1),
                json!(1),
                json!("3h"),
                json!("a"),
                json!("i"),
                json!("app=x")
            ]
        );
    }

    fn service_of(spec: Value, status: Value) -> Vec<Value> {
        service(
            &json!({"metadata": meta("svc"), "spec": spec, "status": status}),
            now(),
        )
        .cells
    }

    #[test]
    fn cluster_ip_services() {
        let spec = json!({"type": "ClusterIP", "clusterIP": "10.96.0.10", "clusterIPs": ["10.96.0.10"],
            "ports": [{"port": 53, "protocol": "UDP"}, {"port": 53, "protocol": "TCP"}],
            "selector": {"k8s-app": "kube-dns"}});
        assert_eq!(
            service_of(spec, json!({})),
            vec![
                json!("svc"),
                json!("ClusterIP"),
                json!("10.96.0.10"),
                json!("<none>"),
                json!("53/UDP,53/TCP"),
                json!("3h"),
                json!("k8s-app=kube-dns")
            ]
        );
        // No type and only the single clusterIP: what the API would have filled in.
        let bare = json!({"clusterIP": "10.96.0.11", "externalIPs": ["1.2.3.4", "5.6.7.8"]});
        assert_eq!(
            service_of(bare, json!({}))[1..5],
            [
                json!("ClusterIP"),
                json!("10.96.0.11"),
                json!("1.2.3.4,5.6.7.8"),
                json!("<none>")
            ]
        );
    }

    #[test]
    fn node_port_services_show_node_ports() {
        let spec = json!({"type": "NodePort", "clusterIPs": ["10.96.4.2"],
            "ports": [{"port": 80, "nodePort": 30080, "protocol": "TCP"}, {"port": 443, "protocol": "TCP"}]});
        assert_eq!(
            service_of(spec, json!({}))[1..5],
            [
                json!("NodePort"),
                json!("10.96.4.2"),
                json!("<none>"),
                json!("80:30080/TCP,443/TCP")
            ]
        );
    }

    #[test]
    fn load_balancers_show_their_ingress() {
        let spec = json!({"type": "LoadBalancer", "clusterIPs": ["10.96.7.7"],
            "ports": [{"port": 443, "nodePort": 31443, "protocol": "TCP"}]});
        assert_eq!(service_of(spec.clone(), json!({}))[3], json!("<pending>"));
        let status = json!({"loadBalancer": {"ingress": [{"ip": "203.0.113.9"}, {"hostname": "lb.example.com"},
            {"ip": "203.0.113.9"}, {}]}});
        assert_eq!(
            service_of(spec.clone(), status.clone())[3],
            json!("203.0.113.9,lb.example.com")
        );
        let mut with_external = spec;
        with_external["externalIPs"] = json!(["198.51.100.1"]);
        assert_eq!(
            service_of(with_external.clone(), status)[3],
            json!("203.0.113.9,lb.example.com,198.51.100.1")
        );
        assert_eq!(
            service_of(with_external, json!({}))[3],
            json!("198.51.100.1")
        );
    }

    #[test]
    fn external_name_and_headless_services() {
        let external = json!({"type": "ExternalName", "externalName": "db.example.com"});
        assert_eq!(
            service_of(external, json!({}))[1..5],
            [
                json!("ExternalName"),
                json!("<none>"),
                json!("db.example.com"),
                json!("<none>")
            ]
        );
        let headless = json!({"type": "ClusterIP", "clusterIP": "None", "clusterIPs": ["None"],
            "ports": [{"port": 5432, "protocol": "TCP"}]});
        assert_eq!(
            service_of(headless, json!({}))[2..5],
            [json!("None"), json!("<none>"), json!("5432/TCP")]
        );
        assert_eq!(
            service_of(json!({"type": "Weird"}), json!({}))[3],
            json!("<unknown>")
        );
    }

    #[test]
    fn endpoints_show_three_addresses() {
        let ep = json!({"metadata": meta("web"), "subsets": [
            {"addresses": [{"ip": "10.0.0.1"}, {"ip": "10.0.0.2"}], "notReadyAddresses": [{"ip": "10.0.0.9"}],
             "ports": [{"port": 80}, {"port": 443}]},
            {"addresses": [{"ip": "fd00::1"}], "ports": [{"port": 8080}]}]});
        assert_eq!(
            endpoints(&ep, now()).cells,
            vec![
                json!("web"),
                json!("10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 2 more..."),
                json!("3h")
            ]
        );
        let v6 = json!({"subsets": [{"addresses": [{"ip": "fd00::1"}], "ports": [{"port": 8080}]},
            {"addresses": [{"ip": "10.1.0.1"}]}]});
        assert_eq!(
            endpoints(&v6, now()).cells[1],
            json!("[fd00::1]:8080,10.1.0.1")
        );
        assert_eq!(
            endpoints(&json!({"subsets": [{}]}), now()).cells[1],
            json!("")
        );
        assert_eq!(endpoints(&json!({}), now()).cells[1], json!("<none>"));
    }

    fn node_of(spec: Value, conditions: Value, labels: Value) -> Vec<Value> {
        let mut metadata = meta("node-a");
        metadata["labels"] = labels;
        node(
            &json!({"metadata": metadata, "spec": spec, "status": {"conditions": conditions,
                "addresses": [{"type": "Hostname", "address": "node-a"}, {"type": "InternalIP", "address": "172.18.0.2"}],
                "nodeInfo": {"kubeletVersion": "v1.34.1", "osImage": "Debian GNU/Linux 12 (bookworm)",
                    "kernelVersion": "6.8.0", "containerRuntimeVersion": "containerd://2.1.3"}}}),
            now(),
        )
        .cells
    }

    #[test]
    fn nodes_show_readiness_and_roles() {
        let ready = json!([{"type": "MemoryPressure", "status": "False"}, {"type": "Ready", "status": "True"}]);
        let labels = json!({"node-role.kubernetes.io/control-plane": "", "kubernetes.io/role": "master",
            "node-role.kubernetes.io/": "x", "kubernetes.io/hostname": "node-a"});
        assert_eq!(
            node_of(json!({}), ready.clone(), labels),
            vec![
                json!("node-a"),
                json!("Ready"),
                json!("control-plane,master"),
                json!("3h"),
                json!("v1.34.1"),
                json!("172.18.0.2"),
                json!("<none>"),
                json!("Debian GNU/Linux 12 (bookworm)"),
                json!("6.8.0"),
                json!("containerd://2.1.3")
            ]
        );
        let cordoned = node_of(json!({"unschedulable": true}), ready, json!({}));
        assert_eq!(
            cordoned[1..3],
            [json!("Ready,SchedulingDisabled"), json!("<none>")]
        );
        let not_ready =
            json!([{"type": "Ready", "status": "True"}, {"type": "Ready", "status": "Unknown"}]);
        assert_eq!(
            node_of(json!({}), not_ready, json!({}))[1],
            json!("NotReady")
        );
        assert_eq!(
            node_of(json!({}), json!([]), json!({}))[1],
            json!("Unknown")
        );
        let bare = node(&json!({"metadata": {"name": "n"}}), now()).cells;
        assert_eq!(
            bare[4..],
            [
                json!(""),
                json!("<none>"),
                json!("<none>"),
                json!("<unknown>"),
                json!("<unknown>"),
                json!("<unknown>")
            ]
        );
    }

    #[test]
    fn events_with_counts_and_time_stamps() {
        let e = json!({"metadata": {"name": "web-1.18f2a", "namespace": "default"},
            "involvedObject": {"kind": "Pod", "name": "web-1", "fieldPath": "spec.containers{app}"},
            "reason": "BackOff", "message": "  Back-off restarting failed container\n", "type": "Warning",
            "source": {"component": "kubelet", "host": "node-a"},
            "firstTimestamp": "2026-11-28T11:00:00Z", "lastTimestamp": "2026-11-28T11:59:30Z", "count": 12});
        assert_eq!(
            event(&e, now()).cells,
            vec![
                json!("30s"),
                json!("Warning"),
                json!("BackOff"),
                json!("pod/web-1"),
                json!("spec.containers{app}"),
                json!("kubelet, node-a"),
                json!("Back-off restarting failed container"),
                json!("60m"),
                json!(12),
                json!("web-1.18f2a")
            ]
        );
    }

    #[test]
    fn events_with_a_series() {
        let e = json!({"metadata": {"name": "lease.1"}, "eventTime": "2026-11-28T09:00:00.000000Z",
            "series": {"count": 7, "lastObservedTime": "2026-11-28T11:58:00.000000Z"},
            "involvedObject": {"kind": "Lease"}, "reason": "LeaderElection", "message": "took over",
            "reportingComponent": "kube-controller-manager", "reportingInstance": "cp-1", "type": "Normal"});
        assert_eq!(
            event(&e, now()).cells,
            vec![
                json!("2m"),
                json!("Normal"),
                json!("LeaderElection"),
                json!("lease"),
                json!(""),
                json!("kube-controller-manager, cp-1"),
                json!("took over"),
                json!("3h"),
                json!(7),
                json!("lease.1")
            ]
        );
        let single =
            json!({"eventTime": "2026-11-28T11:59:00.000000Z", "reportingComponent": "sched"});
        let cells = event(&single, now()).cells;
        assert_eq!(
            [&cells[0], &cells[5], &cells[7], &cells[8]],
            [&json!("60s"), &json!("sched"), &json!("60s"), &json!(1)]
        );
        assert_eq!(event(&json!({}), now()).cells[0], json!("<unknown>"));
    }

    #[test]
    fn namespaces_secrets_and_service_accounts() {
        let ns = json!({"metadata": meta("team-a"), "status": {"phase": "Active"}});
        assert_eq!(
            namespace(&ns, now()).cells,
            vec![json!("team-a"), json!("Active"), json!("3h")]
        );
        let s = json!({"metadata": meta("tls"), "type": "kubernetes.io/tls", "data": {"tls.crt": "", "tls.key": ""}});
        assert_eq!(
            secret(&s, now()).cells,
            vec![
                json!("tls"),
                json!("kubernetes.io/tls"),
                json!(2),
                json!("3h")
            ]
        );
        assert_eq!(
            secret(&json!({}), now()).cells[1..3],
            [json!("Opaque"), json!(0)]
        );
        let sa = json!({"metadata": meta("default"), "secrets": [{"name": "t"}]});
        assert_eq!(
            service_account(&sa, now()).cells,
            vec![json!("default"), json!(1), json!("3h")]
        );
    }

    #[test]
    fn persistent_volumes() {
        let pv = json!({"metadata": {"name": "pv-1", "creationTimestamp": "2026-11-20T12:00:00Z",
                "annotations": {"volume.beta.kubernetes.io/storage-class": "old"}},
            "spec": {"capacity": {"storage": "1.5Gi"}, "accessModes": ["ReadWriteOnce", "ReadOnlyMany"],
                "persistentVolumeReclaimPolicy": "Retain", "storageClassName": "standard",
                "claimRef": {"namespace": "default", "name": "data"}, "volumeMode": "Block"},
            "status": {"phase": "Bound"}});
        assert_eq!(
            persistent_volume(&pv, now()).cells,
            vec![
                json!("pv-1"),
                json!("1536Mi"),
                json!("RWO,ROX"),
                json!("Retain"),
                json!("Bound"),
                json!("default/data"),
                json!("old"),
                json!("<unset>"),
                json!(""),
                json!("8d"),
                json!("Block")
            ]
        );
        let bare = persistent_volume(
            &json!({"metadata": {"deletionTimestamp": "2026-11-28T11:00:00Z"}}),
            now(),
        );
        assert_eq!(
            bare.cells[1..11],
            [
                json!("0"),
                json!(""),
                json!(""),
                json!("Terminating"),
                json!(""),
                json!(""),
                json!("<unset>"),
                json!(""),
                json!("<unknown>"),
                json!("Filesystem")
            ]
        );
    }

    #[test]
    fn persistent_volume_claims() {
        let pvc = json!({"metadata": meta("data"),
            "spec": {"volumeName": "pv-1", "storageClassName": "standard", "volumeMode": "Filesystem",
                "volumeAttributesClassName": "gold"},
            "status": {"phase": "Bound", "capacity": {"storage": "10Gi"}, "accessModes": ["ReadWriteOnce"]}});
        assert_eq!(
            persistent_volume_claim(&pvc, now()).cells,
            vec![
                json!("data"),
                json!("Bound"),
                json!("pv-1"),
                json!("10Gi"),
                json!("RWO"),
                json!("standard"),
                json!("gold"),
                json!("3h"),
                json!("Filesystem")
            ]
        );
        let pending = json!({"metadata": meta("d2"), "spec": {"storageClassName": "standard"},
            "status": {"phase": "Pending", "capacity": {"storage": "1Gi"}}});
        assert_eq!(
            persistent_volume_claim(&pending, now()).cells[1..9],
            [
                json!("Pending"),
                json!(""),
                json!(""),
                json!(""),
                json!("standard"),
                json!("<unset>"),
                json!("3h"),
                json!("<unset>")
            ]
        );
    }

    #[test]
    fn component_statuses() {
        let cs = json!({"metadata": {"name": "etcd-0"},
            "conditions": [{"type": "Healthy", "status": "True", "message": "ok"}]});
        assert_eq!(
            component_status(&cs, now()).cells,
            vec![json!("etcd-0"), json!("Healthy"), json!("ok"), json!("")]
        );
        let bad =
            json!({"conditions": [{"type": "Healthy", "status": "False", "error": "refused"}]});
        assert_eq!(
            component_status(&bad, now()).cells[1..],
            [json!("Unhealthy"), json!(""), json!("refused")]
        );
        assert_eq!(
            component_status(&json!({}), now()).cells[1],
            json!("Unknown")
        );
    }

    #[test]
    fn config_maps_count_both_kinds_of_data() {
        let cm = json!({"metadata": meta("cfg"), "data": {"a": "1", "b": "2"}, "binaryData": {"c": "AA=="}});
        assert_eq!(
            config_map(&cm, now()).cells,
            vec![json!("cfg"), json!(3), json!("3h")]
        );
    }

    #[test]
    fn resource_quotas_split_requests_and_limits() {
        let rq = json!({"metadata": meta("quota"),
            "spec": {"hard": {"pods": "10"}},
            "status": {"hard": {"pods": "10", "requests.cpu": "1", "limits.memory": "2Gi", "limits.cpu": "2000m",
                    "count/deployments.apps": "5", "limits": "3"},
                "used": {"pods": "3", "requests.cpu": "500m", "limits.memory": "1024Mi"}}});
        assert_eq!(
            resource_quota(&rq, now()).cells,
            vec![
                json!("quota"),
                json!("count/deployments.apps: 0/5, limits: 0/3, pods: 3/10, requests.cpu: 500m/1"),
                json!("limits.cpu: 0/2, limits.memory: 1Gi/2Gi"),
                json!("3h")
            ]
        );
        assert_eq!(
            resource_quota(&json!({"spec": {"hard": {"pods": "1"}}}), now()).cells[1..3],
            [json!(""), json!("")]
        );
    }
}
