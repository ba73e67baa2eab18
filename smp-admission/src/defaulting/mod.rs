//! The scheme's defaults: what decoding fills in before the server admits an object.
//!
//! Covered so far (Kubernetes v1.34): core/v1 Pod, PodTemplate, ReplicationController,
//! Service, Endpoints, Namespace, Secret, PersistentVolume, PersistentVolumeClaim,
//! LimitRange, Node; apps/v1 Deployment, StatefulSet, DaemonSet, ReplicaSet; batch/v1 Job,
//! CronJob. Every other built-in kind is left as it is, which for kinds without defaulting
//! functions is what the server does too.

mod apps;
mod batch;
mod core;

use serde_json::Value;

use crate::value::Object;

/// Why an object could not be defaulted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DefaultError {
    /// The document is not a JSON object.
    #[error("the object is not a JSON object")]
    NotAnObject,
    /// The object has no `apiVersion` or no `kind`.
    #[error("the object has no {0}")]
    MissingType(&'static str),
}

type Defaulter = fn(&mut Object);

/// The defaulting function of a kind.
fn defaulter(api_version: &str, kind: &str) -> Option<Defaulter> {
    Some(match (api_version, kind) {
        ("v1", "Pod") => core::pod,
        ("v1", "PodTemplate") => core::pod_template,
        ("v1", "ReplicationController") => core::replication_controller,
        ("v1", "Service") => core::service,
        ("v1", "Endpoints") => core::endpoints,
        ("v1", "Namespace") => core::namespace,
        ("v1", "Secret") => core::secret,
        ("v1", "PersistentVolume") => core::persistent_volume,
        ("v1", "PersistentVolumeClaim") => core::persistent_volume_claim,
        ("v1", "LimitRange") => core::limit_range,
        ("v1", "Node") => core::node,
        ("apps/v1", "Deployment") => apps::deployment,
        ("apps/v1", "StatefulSet") => apps::stateful_set,
        ("apps/v1", "DaemonSet") => apps::daemon_set,
        ("apps/v1", "ReplicaSet") => apps::replica_set,
        ("batch/v1", "Job") => batch::job,
        ("batch/v1", "CronJob") => batch::cron_job,
        _ => return None,
    })
}

/// Fills in the defaults of `object`'s kind, as decoding it on kube-apiserver v1.34 does.
/// Defaulting twice changes nothing more. Members of the wrong JSON type are left as they
/// are (decoding refuses them; validation names them).
pub fn default_object(object: &mut Value) -> Result<(), DefaultError> {
    let Value::Object(map) = object else {
        return Err(DefaultError::NotAnObject);
    };
    let api_version = map
        .get("apiVersion")
        .and_then(Value::as_str)
        .ok_or(DefaultError::MissingType("apiVersion"))?;
    let kind = map
        .get("kind")
        .and_then(Value::as_str)
        .ok_or(DefaultError::MissingType("kind"))?;
    if let Some(defaulter) = defaulter(api_version, kind) {
        defaulter(map);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
