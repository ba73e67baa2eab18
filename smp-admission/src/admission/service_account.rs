//! The ServiceAccount plugin (`plugin/pkg/admission/serviceaccount`): a Pod runs as a service
//! account that exists (`default` unless it names one), gets the account's API credentials as
//! a projected `kube-api-access-<5 random>` volume mounted read-only in every container at
//! `/var/run/secrets/kubernetes.io/serviceaccount` (unless the pod or the account turns
//! automounting off, or a container already mounts something there), and the account's image
//! pull secrets when it has none of its own. Mirror pods are left alone.

use serde_json::{Value, json};

use super::Cluster;

const MOUNT_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";
const VOLUME_PREFIX: &str = "kube-api-access-";

pub(super) fn admit_pod(
    pod: &mut Value,
    namespace: &str,
    cluster: &dyn Cluster,
) -> Result<(), String> {
    let mirror = pod
        .pointer("/metadata/annotations/kubernetes.io~1config.mirror")
        .is_some();
    if mirror {
        return Ok(());
    }
    let Some(spec) = pod.get_mut("spec").and_then(Value::as_object_mut) else {
        return Ok(());
    };
    let named = spec
        .get("serviceAccountName")
        .and_then(Value::as_str)
        .filter(|n| !n.is_empty())
        .unwrap_or("default")
        .to_owned();
    spec.insert("serviceAccountName".into(), named.clone().into());
    let Some(account) = cluster.get("/serviceaccounts", namespace, &named) else {
        return Err(format!(
            "error looking up service account {namespace}/{named}: serviceaccount \"{named}\" not found"
        ));
    };
    let automount = spec
        .get("automountServiceAccountToken")
        .and_then(Value::as_bool)
        .or_else(|| {
            account
                .get("automountServiceAccountToken")
                .and_then(Value::as_bool)
        })
        .unwrap_or(true);
    if automount {
        mount_token(spec);
    }
    let has_pull_secrets = spec
        .get("imagePullSecrets")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty());
    if !has_pull_secrets
        && let Some(secrets) = account
            .get("imagePullSecrets")
            .and_then(Value::as_array)
            .filter(|a| !a.is_empty())
    {
        spec.insert("imagePullSecrets".into(), Value::Array(secrets.clone()));
    }
    Ok(())
}

fn mount_token(spec: &mut serde_json::Map<String, Value>) {
    let existing = spec
        .get("volumes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.get("name").and_then(Value::as_str))
        .find(|n| n.starts_with(VOLUME_PREFIX))
        .map(str::to_owned);
    let volume_name = existing
        .clone()
        .unwrap_or_else(|| format!("{VOLUME_PREFIX}{}", super::random_suffix()));
    let mount = json!({"name": volume_name, "readOnly": true, "mountPath": MOUNT_PATH});
    let mut needs_volume = false;
    for list in ["initContainers", "containers"] {
        let Some(containers) = spec.get_mut(list).and_then(Value::as_array_mut) else {
            continue;
        };
        for container in containers.iter_mut().filter_map(Value::as_object_mut) {
            let mounted = container
                .get("volumeMounts")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .any(|m| m.get("mountPath").and_then(Value::as_str) == Some(MOUNT_PATH));
            if mounted {
                continue;
            }
            let mounts = container
                .entry("volumeMounts")
                .or_insert_with(|| Value::Array(Vec::new()));
            if !mounts.is_array() {
                *mounts = Value::Array(Vec::new());
            }
            if let Some(mounts) = mounts.as_array_mut() {
                mounts.push(mount.clone());
                needs_volume = true;
            }
        }
    }
    if existing.is_none() && needs_volume {
        let volumes = spec
            .entry("volumes")
            .or_insert_with(|| Value::Array(Vec::new()));
        if !volumes.is_array() {
            *volumes = Value::Array(Vec::new());
        }
        if let Some(volumes) = volumes.as_array_mut() {
            volumes.push(json!({"name": volume_name, "projected": token_source()}));
        }
    }
}

/// The projected source of a pod's API credentials: a bound token that lives 3607 s, the
/// cluster's CA from `kube-root-ca.crt`, and the namespace from the downward API.
fn token_source() -> Value {
    json!({
        "sources": [
            {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
            {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
            {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}}
        ],
        "defaultMode": 420
    })
}
