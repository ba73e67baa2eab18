//! The cells of each built-in kind's rows, as kube-apiserver's printers compute them (the
//! printers of k8s.io/kubernetes `pkg/printers/internalversion`, always wide): one function a
//! resource, over the object as stored (v1 member names). Each file holds one API group's.

mod admissionregistration;
mod apps;
mod autoscaling;
mod batch;
mod certificates;
mod common;
mod coordination;
mod core;
mod discovery;
mod flowcontrol;
mod misc;
mod networking;
mod pod;
mod policy;
mod quantity;
mod rbac;
mod resource;
mod storage;

use serde_json::Value;

use super::duration::Now;

/// One row: its cells, in the order of the table's columns, and the row's conditions (only
/// a finished pod's has one).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Row {
    pub(crate) cells: Vec<Value>,
    pub(crate) conditions: Vec<Value>,
}

impl From<Vec<Value>> for Row {
    fn from(cells: Vec<Value>) -> Row {
        Row {
            cells,
            conditions: Vec::new(),
        }
    }
}

/// Computes a row of an object.
pub(crate) type Cells = fn(&Value, Now) -> Row;

/// The cells of `group`'s `resource` (`""`, `pods`), if a printer writes them; `scale` is the
/// Scale subresource's.
pub(crate) fn of(group: &str, resource: &str) -> Option<Cells> {
    let cells: Cells = match (group, resource) {
        ("", "pods") => pod::pod,
        ("", "podtemplates") => core::pod_template,
        ("", "replicationcontrollers") => core::replication_controller,
        ("", "services") => core::service,
        ("", "endpoints") => core::endpoints,
        ("", "nodes") => core::node,
        // One store serves both groups' events, in core/v1's shape.
        ("" | "events.k8s.io", "events") => core::event,
        ("", "namespaces") => core::namespace,
        ("", "secrets") => core::secret,
        ("", "serviceaccounts") => core::service_account,
        ("", "persistentvolumes") => core::persistent_volume,
        ("", "persistentvolumeclaims") => core::persistent_volume_claim,
        ("", "componentstatuses") => core::component_status,
        ("", "configmaps") => core::config_map,
        ("", "resourcequotas") => core::resource_quota,
        ("apps", "deployments") => apps::deployment,
        ("apps", "replicasets") => apps::replica_set,
        ("apps", "daemonsets") => apps::daemon_set,
        ("apps", "statefulsets") => apps::stateful_set,
        ("apps", "controllerrevisions") => apps::controller_revision,
        ("batch", "jobs") => batch::job,
        ("batch", "cronjobs") => batch::cron_job,
        ("autoscaling", "horizontalpodautoscalers") => autoscaling::horizontal_pod_autoscaler,
        ("autoscaling", "scale") => autoscaling::scale,
        ("policy", "poddisruptionbudgets") => policy::pod_disruption_budget,
        ("networking.k8s.io", "ingresses") => networking::ingress,
        ("networking.k8s.io", "ingressclasses") => networking::ingress_class,
        ("networking.k8s.io", "networkpolicies") => networking::network_policy,
        ("networking.k8s.io", "servicecidrs") => networking::service_cidr,
        ("networking.k8s.io", "ipaddresses") => networking::ip_address,
        ("rbac.authorization.k8s.io", "rolebindings" | "clusterrolebindings") => rbac::binding,
        ("certificates.k8s.io", "certificatesigningrequests") => {
            certificates::certificate_signing_request
        }
        ("certificates.k8s.io", "clustertrustbundles") => certificates::cluster_trust_bundle,
        ("certificates.k8s.io", "podcertificaterequests") => certificates::pod_certificate_request,
        ("coordination.k8s.io", "leases") => coordination::lease,
        ("coordination.k8s.io", "leasecandidates") => coordination::lease_candidate,
        ("storage.k8s.io", "storageclasses") => storage::storage_class,
        ("storage.k8s.io", "volumeattributesclasses") => storage::volume_attributes_class,
        ("storage.k8s.io", "volumeattachments") => storage::volume_attachment,
        ("storage.k8s.io", "csinodes") => storage::csi_node,
        ("storage.k8s.io", "csidrivers") => storage::csi_driver,
        ("storage.k8s.io", "csistoragecapacities") => storage::csi_storage_capacity,
        ("discovery.k8s.io", "endpointslices") => discovery::endpoint_slice,
        (
            "admissionregistration.k8s.io",
            "mutatingwebhookconfigurations" | "validatingwebhookconfigurations",
        ) => admissionregistration::webhook_configuration,
        ("admissionregistration.k8s.io", "validatingadmissionpolicies") => {
            admissionregistration::validating_admission_policy
        }
        ("admissionregistration.k8s.io", "mutatingadmissionpolicies") => {
            admissionregistration::mutating_admission_policy
        }
        (
            "admissionregistration.k8s.io",
            "validatingadmissionpolicybindings" | "mutatingadmissionpolicybindings",
        ) => admissionregistration::policy_binding,
        ("flowcontrol.apiserver.k8s.io", "flowschemas") => flowcontrol::flow_schema,
        ("flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations") => {
            flowcontrol::priority_level_configuration
        }
        ("resource.k8s.io", "deviceclasses" | "resourceclaimtemplates") => resource::name_and_age,
        ("resource.k8s.io", "resourceclaims") => resource::resource_claim,
        ("resource.k8s.io", "resourceslices") => resource::resource_slice,
        ("resource.k8s.io", "devicetaintrules") => resource::device_taint_rule,
        ("scheduling.k8s.io", "priorityclasses") => misc::priority_class,
        ("node.k8s.io", "runtimeclasses") => misc::runtime_class,
        ("internal.apiserver.k8s.io", "storageversions") => misc::storage_version,
        ("storagemigration.k8s.io", "storageversionmigrations") => misc::storage_version_migration,
        ("apiregistration.k8s.io", "apiservices") => misc::api_service,
        _ => return None,
    };
    Some(cells)
}

/// Whether rows of `group`'s `resource` are sorted, not in list order: FlowSchemas, by
/// matching precedence and then name (the printer sorts them).
pub(crate) fn sort(group: &str, resource: &str, rows: &mut [(Row, &Value)]) {
    if (group, resource) == ("flowcontrol.apiserver.k8s.io", "flowschemas") {
        rows.sort_by(|(_, a), (_, b)| {
            let precedence = |o: &Value| super::format::int(o, "/spec/matchingPrecedence");
            precedence(a).cmp(&precedence(b)).then_with(|| {
                super::format::text(a, "/metadata/name")
                    .cmp(super::format::text(b, "/metadata/name"))
            })
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every table the framework serves, by `group/resource`, with its columns.
    fn tables() -> Vec<(String, String, usize)> {
        let columns: Value = serde_json::from_str(include_str!("../columns.json")).unwrap();
        let tables = columns["tables"].as_object().unwrap();
        tables
            .iter()
            // The default table (Name, Created At) is built by the framework.
            .filter(|(key, _)| key.as_str() != "default")
            .map(|(key, columns)| {
                let (group, resource) = key.split_once('/').unwrap();
                (
                    group.to_owned(),
                    resource.to_owned(),
                    columns.as_array().unwrap().len(),
                )
            })
            .collect()
    }

    /// The cells a row of `resource` has: one per column, and IPAddress's undeclared Age.
    fn expected_cells(resource: &str, columns: usize) -> usize {
        columns + usize::from(resource == "ipaddresses")
    }

    #[test]
    fn every_table_has_a_printer_with_a_cell_per_column() {
        let now = Now(smp_ssa::managedfields::read_time("2026-11-28T12:00:00Z").unwrap());
        let tables = tables();
        assert!(tables.len() > 60);
        for (group, resource, columns) in tables {
            let printer = of(&group, &resource)
                .unwrap_or_else(|| panic!("no printer for {group}/{resource}"));
            let row = printer(&json!({"metadata": {"name": "x"}}), now);
            assert_eq!(
                row.cells.len(),
                expected_cells(&resource, columns),
                "{group}/{resource}"
            );
            assert!(row.cells.contains(&json!("x")), "{group}/{resource}");
        }
        assert!(of("events.k8s.io", "events").is_some());
        assert!(of("rbac.authorization.k8s.io", "roles").is_none());
    }

    #[test]
    fn odd_objects_never_panic() {
        let now = Now(i64::MAX);
        let odd = [
            json!(null),
            json!([]),
            json!("pod"),
            json!({"metadata": 5, "spec": [], "status": "x"}),
            json!({"metadata": {"name": [], "creationTimestamp": "soon", "deletionTimestamp": 1,
                    "labels": {"node-role.kubernetes.io/": 3}, "annotations": []},
                "spec": {"replicas": u64::MAX, "containers": {"a": 1}, "initContainers": [1, null],
                    "ports": [{"port": -1e308, "nodePort": u64::MAX}], "selector": {"matchExpressions": [7]},
                    "metrics": [null, {"type": "Resource"}, {"type": "Pods", "pods": 1}, {"type": "Object"}],
                    "taint": {"timeAdded": "9999-99-99T99:99:99Z"}, "paramRef": {"selector": {"matchLabels": 4}},
                    "capacity": {"storage": "1e99999999999999999999"}, "limited": {"limitResponse": {"queuing": 1}},
                    "rules": [{"host": 1}, {}, {}, {}], "completions": "x", "expirationSeconds": i64::MIN},
                "status": {"hard": {"cpu": -1.5, "limits.x": "9999999999999999999999999999999999999999Ei"},
                    "used": {"cpu": true}, "conditions": [null, {"type": "Ready"}],
                    "containerStatuses": [{"restartCount": i64::MAX, "state": {"terminated": {"exitCode": "1"}}},
                        {"restartCount": i64::MAX, "lastState": {"terminated": {"finishedAt": "1-1-1"}}}],
                    "initContainerStatuses": [{"state": {"waiting": {"reason": 5}}}],
                    "currentMetrics": [{"resource": {"current": {"averageValue": []}}}],
                    "startTime": "2026-11-28T11:00:00Z", "completionTime": "1970-01-01T00:00:00Z"},
                "subsets": [{"addresses": [{"ip": 1}], "ports": [{}]}], "series": {"count": "3"},
                "count": -5, "firstTimestamp": "0001-01-01T00:00:00Z", "endpoints": [{"addresses": [1]}],
                "ports": [{"port": "80"}], "webhooks": {}, "capacity": [], "data": [1], "secrets": {}}),
        ];
        for (group, resource, columns) in tables() {
            let printer = of(&group, &resource).unwrap();
            for object in &odd {
                for now in [now, Now(i64::MIN), Now(0)] {
                    let row = printer(object, now);
                    assert_eq!(
                        row.cells.len(),
                        expected_cells(&resource, columns),
                        "{group}/{resource}"
                    );
                }
            }
        }
    }
}
