//! The kinds of the shipped manifests, as Rust types: a test names the check, `dispatch` picks
//! the type from a document's `apiVersion` and `kind`.

use serde_json::Value;
use smp_core::StrategicMerge;

/// A check run with the Rust type of a document's kind.
pub trait Check {
    fn run<T: StrategicMerge + Clone + PartialEq + std::fmt::Debug>(&mut self, doc: &Value);
}

macro_rules! kinds {
    ($($api_version:literal $kind:literal => $($segment:ident)::+,)*) => {
        /// Every `(apiVersion, kind)` this file types.
        pub const KINDS: &[(&str, &str)] = &[$(($api_version, $kind)),*];

        /// Runs `check` with the type of `doc`'s kind; `false` if this file does not type it.
        pub fn dispatch<C: Check>(doc: &Value, check: &mut C) -> bool {
            let api_version = doc["apiVersion"].as_str().unwrap_or_default();
            let kind = doc["kind"].as_str().unwrap_or_default();
            match (api_version, kind) {
                $(($api_version, $kind) => check.run::<smp_types::$($segment)::+>(doc),)*
                _ => return false,
            }
            true
        }
    };
}

/// Calls `$callback!` with the table: `"apiVersion" "kind" => path::from::the::crate::root,` per
/// kind (smp-types and k8s-openapi lay their types out alike, so one table serves both).
#[macro_export]
macro_rules! with_kinds {
    ($callback:ident) => {
        $callback! {
            "admissionregistration.k8s.io/v1" "MutatingWebhookConfiguration" => api::admissionregistration::v1::MutatingWebhookConfiguration,
            "admissionregistration.k8s.io/v1" "ValidatingAdmissionPolicy" => api::admissionregistration::v1::ValidatingAdmissionPolicy,
            "admissionregistration.k8s.io/v1" "ValidatingAdmissionPolicyBinding" => api::admissionregistration::v1::ValidatingAdmissionPolicyBinding,
            "admissionregistration.k8s.io/v1" "ValidatingWebhookConfiguration" => api::admissionregistration::v1::ValidatingWebhookConfiguration,
            "apiextensions.k8s.io/v1" "CustomResourceDefinition" => apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
            "apiregistration.k8s.io/v1" "APIService" => kube_aggregator::pkg::apis::apiregistration::v1::APIService,
            "apps/v1" "ControllerRevision" => api::apps::v1::ControllerRevision,
            "apps/v1" "DaemonSet" => api::apps::v1::DaemonSet,
            "apps/v1" "Deployment" => api::apps::v1::Deployment,
            "apps/v1" "ReplicaSet" => api::apps::v1::ReplicaSet,
            "apps/v1" "StatefulSet" => api::apps::v1::StatefulSet,
            "autoscaling/v1" "HorizontalPodAutoscaler" => api::autoscaling::v1::HorizontalPodAutoscaler,
            "autoscaling/v2" "HorizontalPodAutoscaler" => api::autoscaling::v2::HorizontalPodAutoscaler,
            "batch/v1" "CronJob" => api::batch::v1::CronJob,
            "batch/v1" "Job" => api::batch::v1::Job,
            "certificates.k8s.io/v1" "CertificateSigningRequest" => api::certificates::v1::CertificateSigningRequest,
            "coordination.k8s.io/v1" "Lease" => api::coordination::v1::Lease,
            "discovery.k8s.io/v1" "EndpointSlice" => api::discovery::v1::EndpointSlice,
            "events.k8s.io/v1" "Event" => api::events::v1::Event,
            "flowcontrol.apiserver.k8s.io/v1" "FlowSchema" => api::flowcontrol::v1::FlowSchema,
            "flowcontrol.apiserver.k8s.io/v1" "PriorityLevelConfiguration" => api::flowcontrol::v1::PriorityLevelConfiguration,
            "networking.k8s.io/v1" "IPAddress" => api::networking::v1::IPAddress,
            "networking.k8s.io/v1" "Ingress" => api::networking::v1::Ingress,
            "networking.k8s.io/v1" "IngressClass" => api::networking::v1::IngressClass,
            "networking.k8s.io/v1" "NetworkPolicy" => api::networking::v1::NetworkPolicy,
            "networking.k8s.io/v1" "ServiceCIDR" => api::networking::v1::ServiceCIDR,
            "node.k8s.io/v1" "RuntimeClass" => api::node::v1::RuntimeClass,
            "policy/v1" "PodDisruptionBudget" => api::policy::v1::PodDisruptionBudget,
            "rbac.authorization.k8s.io/v1" "ClusterRole" => api::rbac::v1::ClusterRole,
            "rbac.authorization.k8s.io/v1" "ClusterRoleBinding" => api::rbac::v1::ClusterRoleBinding,
            "rbac.authorization.k8s.io/v1" "Role" => api::rbac::v1::Role,
            "rbac.authorization.k8s.io/v1" "RoleBinding" => api::rbac::v1::RoleBinding,
            "resource.k8s.io/v1" "DeviceClass" => api::resource::v1::DeviceClass,
            "resource.k8s.io/v1" "ResourceClaim" => api::resource::v1::ResourceClaim,
            "resource.k8s.io/v1" "ResourceClaimTemplate" => api::resource::v1::ResourceClaimTemplate,
            "resource.k8s.io/v1" "ResourceSlice" => api::resource::v1::ResourceSlice,
            "scheduling.k8s.io/v1" "PriorityClass" => api::scheduling::v1::PriorityClass,
            "storage.k8s.io/v1" "CSIDriver" => api::storage::v1::CSIDriver,
            "storage.k8s.io/v1" "CSINode" => api::storage::v1::CSINode,
            "storage.k8s.io/v1" "StorageClass" => api::storage::v1::StorageClass,
            "storage.k8s.io/v1" "VolumeAttachment" => api::storage::v1::VolumeAttachment,
            "storage.k8s.io/v1" "VolumeAttributesClass" => api::storage::v1::VolumeAttributesClass,
            "v1" "Binding" => api::core::v1::Binding,
            "v1" "ConfigMap" => api::core::v1::ConfigMap,
            "v1" "Endpoints" => api::core::v1::Endpoints,
            "v1" "Event" => api::core::v1::Event,
            "v1" "LimitRange" => api::core::v1::LimitRange,
            "v1" "Namespace" => api::core::v1::Namespace,
            "v1" "Node" => api::core::v1::Node,
            "v1" "PersistentVolume" => api::core::v1::PersistentVolume,
            "v1" "PersistentVolumeClaim" => api::core::v1::PersistentVolumeClaim,
            "v1" "Pod" => api::core::v1::Pod,
            "v1" "PodTemplate" => api::core::v1::PodTemplate,
            "v1" "ReplicationController" => api::core::v1::ReplicationController,
            "v1" "ResourceQuota" => api::core::v1::ResourceQuota,
            "v1" "Secret" => api::core::v1::Secret,
            "v1" "Service" => api::core::v1::Service,
            "v1" "ServiceAccount" => api::core::v1::ServiceAccount,
        }
    };
}

with_kinds!(kinds);
