//! Rows of the small groups: scheduling (PriorityClass), node (RuntimeClass),
//! internal.apiserver (StorageVersion), storagemigration (StorageVersionMigration) and the
//! aggregator's APIService.

use serde_json::{Value, json};

use super::Row;
use super::common::{age, condition, name};
use crate::tables::duration::Now;
use crate::tables::format::{first_of, flag, int, items, text};

/// A PriorityClass: its priority, whether it is the default, and whether its pods preempt.
pub(super) fn priority_class(object: &Value, now: Now) -> Row {
    let preemption = match text(object, "/preemptionPolicy") {
        // What the API fills in when none is given.
        "" => "PreemptLowerPriority",
        policy => policy,
    };
    vec![
        name(object),
        json!(int(object, "/value")),
        json!(flag(object, "/globalDefault")),
        age(object, now),
        json!(preemption),
    ]
    .into()
}

/// A RuntimeClass: the container runtime handler it selects.
pub(super) fn runtime_class(object: &Value, now: Now) -> Row {
    vec![
        name(object),
        json!(text(object, "/handler")),
        age(object, now),
    ]
    .into()
}

/// A StorageVersion: the version every API server encodes the resource in, and each
/// server's own.
pub(super) fn storage_version(object: &Value, now: Now) -> Row {
    let common = object
        .pointer("/status/commonEncodingVersion")
        .and_then(Value::as_str)
        .unwrap_or("<unset>");
    let versions: Vec<String> = items(object, "/status/storageVersions")
        .iter()
        .map(|v| {
            format!(
                "{}={}",
                text(v, "/apiServerID"),
                text(v, "/encodingVersion")
            )
        })
        .collect();
    let versions = if versions.is_empty() {
        "<unset>".to_owned()
    } else {
        first_of(&versions, 3)
    };
    vec![
        name(object),
        json!(common),
        json!(versions),
        age(object, now),
    ]
    .into()
}

/// A StorageVersionMigration: the resource it rewrites, as `resource.version.group`.
pub(super) fn storage_version_migration(object: &Value, _now: Now) -> Row {
    let part = |member: &str| text(object, &format!("/spec/resource/{member}"));
    let resource = format!("{}.{}.{}", part("resource"), part("version"), part("group"));
    vec![name(object), json!(resource)].into()
}

/// An APIService: the service that serves the group version (or `Local`), and whether it is
/// available.
pub(super) fn api_service(object: &Value, now: Now) -> Row {
    let service = match object.pointer("/spec/service") {
        Some(s) if !s.is_null() => format!("{}/{}", text(s, "/namespace"), text(s, "/name")),
        _ => "Local".to_owned(),
    };
    let available = match condition(items(object, "/status/conditions"), "Available") {
        None => "Unknown".to_owned(),
        Some(c) => match (text(c, "/status"), text(c, "/reason")) {
            ("True", _) => "True".to_owned(),
            (status, "") => status.to_owned(),
            (status, reason) => format!("{status} ({reason})"),
        },
    };
    vec![
        name(object),
        json!(service),
        json!(available),
        age(object, now),
    ]
    .into()
}

#[cfg(test)]
mod tests {
    use super::super::common::tests::now;
    use super::*;

    #[test]
    fn priority_classes() {
        let pc = json!({"metadata": {"name": "system-node-critical", "creationTimestamp": "2026-11-28T11:00:00Z"},
            "value": 2000001000, "globalDefault": false, "preemptionPolicy": "Never"});
        assert_eq!(
            priority_class(&pc, now()).cells,
            vec![
                json!("system-node-critical"),
                json!(2000001000),
                json!(false),
                json!("60m"),
                json!("Never")
            ]
        );
        let default = json!({"metadata": {"name": "normal"}, "value": 1000, "globalDefault": true});
        assert_eq!(
            priority_class(&default, now()).cells[2..],
            [
                json!(true),
                json!("<unknown>"),
                json!("PreemptLowerPriority")
            ]
        );
    }

    #[test]
    fn runtime_classes() {
        let rc = json!({"metadata": {"name": "gvisor", "creationTimestamp": "2026-11-28T11:00:00Z"}, "handler": "runsc"});
        assert_eq!(
            runtime_class(&rc, now()).cells,
            vec![json!("gvisor"), json!("runsc"), json!("60m")]
        );
    }

    #[test]
    fn storage_versions() {
        let server = |id: &str| json!({"apiServerID": id, "encodingVersion": "apps/v1", "decodableVersions": []});
        let sv = json!({"metadata": {"name": "apps.deployments"}, "status": {"commonEncodingVersion": "apps/v1",
            "storageVersions": [server("a"), server("b"), server("c"), server("d")]}});
        assert_eq!(
            storage_version(&sv, now()).cells,
            vec![
                json!("apps.deployments"),
                json!("apps/v1"),
                json!("a=apps/v1,b=apps/v1,c=apps/v1 + 1 more..."),
                json!("<unknown>")
            ]
        );
        assert_eq!(
            storage_version(&json!({}), now()).cells[1..3],
            [json!("<unset>"), json!("<unset>")]
        );
    }

    #[test]
    fn storage_version_migrations() {
        let m = json!({"metadata": {"name": "secrets-migration"},
            "spec": {"resource": {"group": "", "version": "v1", "resource": "secrets"}}});
        assert_eq!(
            storage_version_migration(&m, now()).cells,
            vec![json!("secrets-migration"), json!("secrets.v1.")]
        );
    }

    #[test]
    fn api_services() {
        let local = json!({"metadata": {"name": "v1.apps", "creationTimestamp": "2026-11-28T11:00:00Z"},
            "spec": {"group": "apps", "version": "v1"},
            "status": {"conditions": [{"type": "Available", "status": "True", "reason": "Local"}]}});
        assert_eq!(
            api_service(&local, now()).cells,
            vec![
                json!("v1.apps"),
                json!("Local"),
                json!("True"),
                json!("60m")
            ]
        );
        let remote = json!({"metadata": {"name": "v1beta1.metrics.k8s.io"},
            "spec": {"service": {"namespace": "kube-system", "name": "metrics-server"}},
            "status": {"conditions": [{"type": "Available", "status": "False", "reason": "MissingEndpoints"}]}});
        assert_eq!(
            api_service(&remote, now()).cells[1..3],
            [
                json!("kube-system/metrics-server"),
                json!("False (MissingEndpoints)")
            ]
        );
        let quiet = json!({"status": {"conditions": [{"type": "Available", "status": "Unknown"}]}});
        assert_eq!(api_service(&quiet, now()).cells[2], json!("Unknown"));
        assert_eq!(api_service(&json!({}), now()).cells[2], json!("Unknown"));
    }
}
