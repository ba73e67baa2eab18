//! The kinds of the shipped manifests, as Rust types: a test names the check, `dispatch` picks
//! the type from a document's `apiVersion` and `kind`.

use serde_json::Value;
use smp_core::StrategicMerge;

use smp_types::api::{
    admissionregistration, apps, autoscaling, batch, certificates, coordination, core, discovery,
    events, flowcontrol, networking, node, policy, rbac, resource, scheduling, storage,
};
use smp_types::apiextensions_apiserver::pkg::apis::apiextensions;
use smp_types::kube_aggregator::pkg::apis::apiregistration;

/// A check run with the Rust type of a document's kind.
pub trait Check {
    fn run<T: StrategicMerge + Clone + PartialEq + std::fmt::Debug>(&mut self, doc: &Value);
}

macro_rules! kinds {
    ($($api_version:literal $kind:literal => $ty:ty,)*) => {
        /// Every `(apiVersion, kind)` this file types.
        pub const KINDS: &[(&str, &str)] = &[$(($api_version, $kind)),*];

        /// Runs `check` with the type of `doc`'s kind; `false` if this file does not type it.
        pub fn dispatch<C: Check>(doc: &Value, check: &mut C) -> bool {
            let api_version = doc["apiVersion"].as_str().unwrap_or_default();
            let kind = doc["kind"].as_str().unwrap_or_default();
            match (api_version, kind) {
                $(($api_version, $kind) => check.run::<$ty>(doc),)*
                _ => return false,
            }
            true
        }
    };
}

kinds! {
    "admissionregistration.k8s.io/v1" "MutatingWebhookConfiguration" => admissionregistration::v1::MutatingWebhookConfiguration,
    "admissionregistration.k8s.io/v1" "ValidatingAdmissionPolicy" => admissionregistration::v1::ValidatingAdmissionPolicy,
    "admissionregistration.k8s.io/v1" "ValidatingAdmissionPolicyBinding" => admissionregistration::v1::ValidatingAdmissionPolicyBinding,
    "admissionregistration.k8s.io/v1" "ValidatingWebhookConfiguration" => admissionregistration::v1::ValidatingWebhookConfiguration,
    "apiextensions.k8s.io/v1" "CustomResourceDefinition" => apiextensions::v1::CustomResourceDefinition,
    "apiregistration.k8s.io/v1" "APIService" => apiregistration::v1::APIService,
    "apps/v1" "ControllerRevision" => apps::v1::ControllerRevision,
    "apps/v1" "DaemonSet" => apps::v1::DaemonSet,
    "apps/v1" "Deployment" => apps::v1::Deployment,
    "apps/v1" "ReplicaSet" => apps::v1::ReplicaSet,
    "apps/v1" "StatefulSet" => apps::v1::StatefulSet,
    "autoscaling/v1" "HorizontalPodAutoscaler" => autoscaling::v1::HorizontalPodAutoscaler,
    "autoscaling/v2" "HorizontalPodAutoscaler" => autoscaling::v2::HorizontalPodAutoscaler,
    "batch/v1" "CronJob" => batch::v1::CronJob,
    "batch/v1" "Job" => batch::v1::Job,
    "certificates.k8s.io/v1" "CertificateSigningRequest" => certificates::v1::CertificateSigningRequest,
    "coordination.k8s.io/v1" "Lease" => coordination::v1::Lease,
    "discovery.k8s.io/v1" "EndpointSlice" => discovery::v1::EndpointSlice,
    "events.k8s.io/v1" "Event" => events::v1::Event,
    "flowcontrol.apiserver.k8s.io/v1" "FlowSchema" => flowcontrol::v1::FlowSchema,
    "flowcontrol.apiserver.k8s.io/v1" "PriorityLevelConfiguration" => flowcontrol::v1::PriorityLevelConfiguration,
    "networking.k8s.io/v1" "IPAddress" => networking::v1::IPAddress,
    "networking.k8s.io/v1" "Ingress" => networking::v1::Ingress,
    "networking.k8s.io/v1" "IngressClass" => networking::v1::IngressClass,
    "networking.k8s.io/v1" "NetworkPolicy" => networking::v1::NetworkPolicy,
    "networking.k8s.io/v1" "ServiceCIDR" => networking::v1::ServiceCIDR,
    "node.k8s.io/v1" "RuntimeClass" => node::v1::RuntimeClass,
    "policy/v1" "PodDisruptionBudget" => policy::v1::PodDisruptionBudget,
    "rbac.authorization.k8s.io/v1" "ClusterRole" => rbac::v1::ClusterRole,
    "rbac.authorization.k8s.io/v1" "ClusterRoleBinding" => rbac::v1::ClusterRoleBinding,
    "rbac.authorization.k8s.io/v1" "Role" => rbac::v1::Role,
    "rbac.authorization.k8s.io/v1" "RoleBinding" => rbac::v1::RoleBinding,
    "resource.k8s.io/v1" "DeviceClass" => resource::v1::DeviceClass,
    "resource.k8s.io/v1" "ResourceClaim" => resource::v1::ResourceClaim,
    "resource.k8s.io/v1" "ResourceClaimTemplate" => resource::v1::ResourceClaimTemplate,
    "resource.k8s.io/v1" "ResourceSlice" => resource::v1::ResourceSlice,
    "scheduling.k8s.io/v1" "PriorityClass" => scheduling::v1::PriorityClass,
    "storage.k8s.io/v1" "CSIDriver" => storage::v1::CSIDriver,
    "storage.k8s.io/v1" "CSINode" => storage::v1::CSINode,
    "storage.k8s.io/v1" "StorageClass" => storage::v1::StorageClass,
    "storage.k8s.io/v1" "VolumeAttachment" => storage::v1::VolumeAttachment,
    "storage.k8s.io/v1" "VolumeAttributesClass" => storage::v1::VolumeAttributesClass,
    "v1" "Binding" => core::v1::Binding,
    "v1" "ConfigMap" => core::v1::ConfigMap,
    "v1" "Endpoints" => core::v1::Endpoints,
    "v1" "Event" => core::v1::Event,
    "v1" "LimitRange" => core::v1::LimitRange,
    "v1" "Namespace" => core::v1::Namespace,
    "v1" "Node" => core::v1::Node,
    "v1" "PersistentVolume" => core::v1::PersistentVolume,
    "v1" "PersistentVolumeClaim" => core::v1::PersistentVolumeClaim,
    "v1" "Pod" => core::v1::Pod,
    "v1" "PodTemplate" => core::v1::PodTemplate,
    "v1" "ReplicationController" => core::v1::ReplicationController,
    "v1" "ResourceQuota" => core::v1::ResourceQuota,
    "v1" "Secret" => core::v1::Secret,
    "v1" "Service" => core::v1::Service,
    "v1" "ServiceAccount" => core::v1::ServiceAccount,
}
