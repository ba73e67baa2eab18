//! The scheme's defaults: what decoding fills in before the server admits an object.
//!
//! Every group of Kubernetes v1.34 that has defaulting functions:
//!
//! | group/version | kinds defaulted |
//! |---|---|
//! | v1 | Pod, PodTemplate, ReplicationController, Service, Endpoints, Namespace, Secret, PersistentVolume, PersistentVolumeClaim, LimitRange, ResourceQuota, Node |
//! | apps/v1 | Deployment, StatefulSet, DaemonSet, ReplicaSet |
//! | batch/v1 | Job, CronJob |
//! | autoscaling/v1, v2 | HorizontalPodAutoscaler |
//! | networking.k8s.io/v1 | NetworkPolicy, IngressClass |
//! | rbac.authorization.k8s.io/v1 | RoleBinding, ClusterRoleBinding |
//! | storage.k8s.io/v1 | StorageClass, CSIDriver, VolumeAttachment |
//! | scheduling.k8s.io/v1 | PriorityClass |
//! | discovery.k8s.io/v1 | EndpointSlice |
//! | flowcontrol.apiserver.k8s.io/v1 | FlowSchema, PriorityLevelConfiguration |
//! | admissionregistration.k8s.io/v1 | ValidatingWebhookConfiguration, MutatingWebhookConfiguration, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding |
//! | resource.k8s.io/v1 | ResourceClaim, ResourceClaimTemplate |
//! | apiextensions.k8s.io/v1 | CustomResourceDefinition |
//! | apiregistration.k8s.io/v1 | APIService |
//!
//! The other kinds (Role, ConfigMap, PodDisruptionBudget, Lease, Event...) have none, on the
//! server as here. A resource list's quantities are rounded up to thousandths and written as
//! the server prints them ([`crate::quantity`]), as is an emptyDir's `sizeLimit`. Not yet
//! done: the other quantity members' printing, and a ResourceSlice taint's `timeAdded` (the server's clock; its gate
//! is off in v1.34).

mod admissionregistration;
mod apiextensions;
mod apps;
mod autoscaling;
mod batch;
mod core;
mod flowcontrol;
mod networking;
mod pod_resources;
mod rbac;
mod resource;
mod scheduling;
mod storage;

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
    /// A typed value did not become JSON, or its defaulted JSON did not become the type again.
    #[error("the typed value does not round-trip through JSON: {0}")]
    Typed(String),
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
        ("v1", "ResourceQuota") => core::resource_quota,
        ("apps/v1", "Deployment") => apps::deployment,
        ("apps/v1", "StatefulSet") => apps::stateful_set,
        ("apps/v1", "DaemonSet") => apps::daemon_set,
        ("apps/v1", "ReplicaSet") => apps::replica_set,
        ("batch/v1", "Job") => batch::job,
        ("batch/v1", "CronJob") => batch::cron_job,
        ("autoscaling/v1", "HorizontalPodAutoscaler") => autoscaling::horizontal_pod_autoscaler_v1,
        ("autoscaling/v2", "HorizontalPodAutoscaler") => autoscaling::horizontal_pod_autoscaler_v2,
        ("networking.k8s.io/v1", "NetworkPolicy") => networking::network_policy,
        ("networking.k8s.io/v1", "IngressClass") => networking::ingress_class,
        ("rbac.authorization.k8s.io/v1", "RoleBinding" | "ClusterRoleBinding") => rbac::binding,
        ("storage.k8s.io/v1", "StorageClass") => storage::storage_class,
        ("storage.k8s.io/v1", "CSIDriver") => storage::csi_driver,
        ("storage.k8s.io/v1", "VolumeAttachment") => storage::volume_attachment,
        ("scheduling.k8s.io/v1", "PriorityClass") => scheduling::priority_class,
        ("discovery.k8s.io/v1", "EndpointSlice") => scheduling::endpoint_slice,
        ("flowcontrol.apiserver.k8s.io/v1", "FlowSchema") => flowcontrol::flow_schema,
        ("flowcontrol.apiserver.k8s.io/v1", "PriorityLevelConfiguration") => {
            flowcontrol::priority_level
        }
        ("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration") => {
            admissionregistration::validating_webhooks
        }
        ("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration") => {
            admissionregistration::mutating_webhooks
        }
        ("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy") => {
            admissionregistration::validating_policy
        }
        ("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding") => {
            admissionregistration::validating_policy_binding
        }
        ("resource.k8s.io/v1", "ResourceClaim") => resource::claim,
        ("resource.k8s.io/v1", "ResourceClaimTemplate") => resource::claim_template,
        ("apiextensions.k8s.io/v1", "CustomResourceDefinition") => {
            apiextensions::custom_resource_definition
        }
        ("apiregistration.k8s.io/v1", "APIService") => apiextensions::api_service,
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

/// A typed object (an smp-types or k8s-openapi value, or any type that serializes as the
/// kind's JSON) with the defaults of the kind `api_version`/`kind` filled in. Types that leave
/// `apiVersion` and `kind` out of their JSON are told them here; the returned value holds
/// them as the input did.
///
/// ```
/// use k8s_openapi::Resource;
/// use k8s_openapi::api::apps::v1::Deployment;
///
/// let web: Deployment = serde_json::from_value(serde_json::json!({
///     "metadata": {"name": "web"},
///     "spec": {"selector": {}, "template": {"spec": {"containers": [{"name": "app", "image": "app:1"}]}}}}))?;
/// let web = smp_admission::defaulting::default_typed(&web, Deployment::API_VERSION, Deployment::KIND)?;
/// assert_eq!(web.spec.unwrap().revision_history_limit, Some(10));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn default_typed<T>(object: &T, api_version: &str, kind: &str) -> Result<T, DefaultError>
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    let typed = |e: serde_json::Error| DefaultError::Typed(e.to_string());
    let mut value = serde_json::to_value(object).map_err(typed)?;
    let Value::Object(map) = &mut value else {
        return Err(DefaultError::NotAnObject);
    };
    let mut added = Vec::new();
    for (key, given) in [("apiVersion", api_version), ("kind", kind)] {
        if !map.contains_key(key) {
            map.insert(key.to_owned(), Value::from(given));
            added.push(key);
        }
    }
    default_object(&mut value)?;
    if let Value::Object(map) = &mut value {
        for key in added {
            map.remove(key);
        }
    }
    serde_json::from_value(value).map_err(typed)
}

#[cfg(test)]
mod tests;
