//! Whether two pod specs are equal as the server compares them after decoding
//! (`apiequality.Semantic.DeepEqual` of the internal `PodSpec`): an absent member is its Go
//! zero value, so `false`, `0`, `""`, `[]`, `{}` equal absence for plain fields, while a
//! pointer field set to a zero value differs from an absent one; empty lists and maps equal
//! absent ones; quantities compare by value.

use serde_json::{Map, Value};

use crate::quantity::Quantity;

/// Members that are Go pointers in the internal pod types (set-but-zero is not absent).
/// `restartPolicy` and `securityContext` are pointers only below the pod spec itself, and
/// `resources` only in it (a container's resources are a plain struct). Lists are never
/// pointers: an empty list equals an absent one.
const POINTERS: &[&str] = &[
    // PodSpec
    "terminationGracePeriodSeconds",
    "activeDeadlineSeconds",
    "automountServiceAccountToken",
    "setHostnameAsFQDN",
    "affinity",
    "priority",
    "preemptionPolicy",
    "dnsConfig",
    "runtimeClassName",
    "enableServiceLinks",
    "os",
    "hostnameOverride",
    "shareProcessNamespace",
    "hostUsers",
    // security contexts
    "seLinuxOptions",
    "windowsOptions",
    "runAsUser",
    "runAsGroup",
    "runAsNonRoot",
    "supplementalGroupsPolicy",
    "fsGroup",
    "fsGroupChangePolicy",
    "seccompProfile",
    "appArmorProfile",
    "seLinuxChangePolicy",
    "capabilities",
    "privileged",
    "readOnlyRootFilesystem",
    "allowPrivilegeEscalation",
    "procMount",
    "localhostProfile",
    "gmsaCredentialSpecName",
    "gmsaCredentialSpec",
    "runAsUserName",
    "hostProcess",
    // containers, probes, lifecycle, env
    "livenessProbe",
    "readinessProbe",
    "startupProbe",
    "lifecycle",
    "postStart",
    "preStop",
    "exec",
    "httpGet",
    "tcpSocket",
    "grpc",
    "sleep",
    "service",
    "stopSignal",
    "valueFrom",
    "fieldRef",
    "resourceFieldRef",
    "configMapKeyRef",
    "secretKeyRef",
    "fileKeyRef",
    "configMapRef",
    "secretRef",
    "optional",
    "mountPropagation",
    "recursiveReadOnly",
    // volumes
    "emptyDir",
    "hostPath",
    "gitRepo",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "secret",
    "nfs",
    "iscsi",
    "glusterfs",
    "flocker",
    "persistentVolumeClaim",
    "rbd",
    "cinder",
    "cephfs",
    "quobyte",
    "downwardAPI",
    "fc",
    "flexVolume",
    "configMap",
    "azureFile",
    "vsphereVolume",
    "photonPersistentDisk",
    "portworxVolume",
    "azureDisk",
    "storageos",
    "projected",
    "scaleIO",
    "csi",
    "ephemeral",
    "image",
    "sizeLimit",
    "type",
    "defaultMode",
    "mode",
    "lun",
    "initiatorName",
    "nodePublishSecretRef",
    "volumeClaimTemplate",
    "serviceAccountToken",
    "clusterTrustBundle",
    "podCertificate",
    "cachingMode",
    "kind",
    "endpointsNamespace",
    "storageClassName",
    "volumeMode",
    "dataSource",
    "dataSourceRef",
    "volumeAttributesClassName",
    "selector",
    // scheduling
    "nodeAffinity",
    "podAffinity",
    "podAntiAffinity",
    "requiredDuringSchedulingIgnoredDuringExecution",
    "labelSelector",
    "namespaceSelector",
    "tolerationSeconds",
    "minDomains",
    "nodeAffinityPolicy",
    "nodeTaintsPolicy",
    "resourceClaimName",
    "resourceClaimTemplateName",
];

/// Members that are Go maps: their entries count even when empty strings.
const MAPS: &[&str] = &[
    "nodeSelector",
    "matchLabels",
    "limits",
    "requests",
    "overhead",
    "options",
    "volumeAttributes",
    "labels",
    "annotations",
];

/// Members whose strings are resource quantities.
const QUANTITIES: &[&str] = &["limits", "requests", "overhead", "sizeLimit", "divisor"];

/// Whether two pod specs (the `spec` members) are semantically equal.
pub(super) fn pod_specs_equal(a: Option<&Value>, b: Option<&Value>) -> bool {
    let (a, b) = (top(a), top(b));
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => same(&a, &b, ""),
        _ => false,
    }
}

/// Two parts of specs (members named `key` of equal specs) compared the same way.
pub(super) fn members_equal(key: &str, a: Option<&Value>, b: Option<&Value>) -> bool {
    let a = a.and_then(|v| member(key, v, false));
    let b = b.and_then(|v| member(key, v, false));
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => same(&a, &b, key),
        _ => false,
    }
}

fn top(spec: Option<&Value>) -> Option<Value> {
    let obj = spec?.as_object()?;
    let mut out = Map::new();
    for (k, v) in obj {
        if let Some(n) = member(k, v, true) {
            out.insert(k.clone(), n);
        }
    }
    (!out.is_empty()).then_some(Value::Object(out))
}

fn is_pointer(key: &str, top_level: bool) -> bool {
    match key {
        "restartPolicy" | "securityContext" => !top_level,
        "resources" => top_level,
        k => POINTERS.contains(&k),
    }
}

/// A struct member normalized: `None` when it reads as absent.
fn member(key: &str, v: &Value, top_level: bool) -> Option<Value> {
    if v.is_null() {
        return None;
    }
    if is_pointer(key, top_level) && !v.is_array() {
        return Some(inner(key, v).unwrap_or_else(|| zero_of(v)));
    }
    inner(key, v)
}

fn zero_of(v: &Value) -> Value {
    match v {
        Value::Object(_) => Value::Object(Map::new()),
        Value::Array(_) => Value::Array(Vec::new()),
        other => other.clone(),
    }
}

fn inner(key: &str, v: &Value) -> Option<Value> {
    match v {
        Value::Null | Value::Bool(false) => None,
        Value::String(s) if s.is_empty() => None,
        Value::Number(n) if n.as_f64() == Some(0.0) => None,
        Value::Array(items) if items.is_empty() => None,
        Value::Array(items) => Some(Value::Array(
            items
                .iter()
                .map(|item| inner(key, item).unwrap_or_else(|| zero_of(item)))
                .collect(),
        )),
        Value::Object(map) if MAPS.contains(&key) => (!map.is_empty()).then(|| v.clone()),
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, child) in map {
                if let Some(n) = member(k, child, false) {
                    out.insert(k.clone(), n);
                }
            }
            (!out.is_empty()).then_some(Value::Object(out))
        }
        other => Some(other.clone()),
    }
}

fn same(a: &Value, b: &Value, key: &str) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let is_map = MAPS.contains(&key);
            x.len() == y.len()
                && x.iter().all(|(k, v)| {
                    let child_key = if is_map { key } else { k.as_str() };
                    y.get(k).is_some_and(|w| same(v, w, child_key))
                })
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q, key))
        }
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::String(x), Value::String(y)) if x != y && QUANTITIES.contains(&key) => {
            match (Quantity::parse(x), Quantity::parse(y)) {
                (Ok(p), Ok(q)) => p.compare(q).is_eq(),
                _ => false,
            }
        }
        (x, y) => x == y,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn eq(a: Value, b: Value) -> bool {
        pod_specs_equal(Some(&a), Some(&b))
    }

    #[test]
    fn zero_values_follow_go_types() {
        assert!(eq(json!({"hostNetwork": false}), json!({})));
        assert!(eq(json!({"securityContext": {}}), json!({})));
        assert!(eq(json!({"tolerations": []}), json!({})));
        assert!(!eq(json!({"activeDeadlineSeconds": 0}), json!({})));
        assert!(!eq(json!({"affinity": {}}), json!({})));
        assert!(!eq(
            json!({"containers": [{"name": "c", "securityContext": {}}]}),
            json!({"containers": [{"name": "c"}]})
        ));
        assert!(eq(
            json!({"containers": [{"name": "c", "resources": {"limits": {"memory": "1Gi"}}}]}),
            json!({"containers": [{"name": "c", "resources": {"limits": {"memory": "1073741824"}}}]})
        ));
        assert!(!eq(json!({"nodeSelector": {"a": ""}}), json!({})));
    }
}
