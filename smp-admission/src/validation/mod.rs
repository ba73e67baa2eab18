//! Validation of built-in objects as kube-apiserver v1.34 validates them on create and update,
//! with its answers word for word: each kind's `Validate*` and `Validate*Update` of
//! `pkg/apis/<group>/validation`, run on the object as the server holds it after defaulting.
//!
//! ```
//! use serde_json::json;
//! use smp_admission::validation::{validate_create, ValidationError};
//!
//! let config = json!({"apiVersion": "v1", "kind": "ConfigMap",
//!     "metadata": {"name": "Bad_Name", "namespace": "default"}, "data": {"a/b": "x"}});
//! let Err(ValidationError::Invalid(invalid)) = validate_create(&config) else { panic!() };
//! assert_eq!(invalid.errors[0].field, "metadata.name");
//! assert!(invalid.to_string().starts_with(r#"ConfigMap "Bad_Name" is invalid: [metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain"#));
//! assert_eq!(invalid.to_status()["code"], 422);
//! ```
//!
//! [`covered`] says which kinds have their rules here; a kind without them validates as
//! valid. The field errors are [`field::FieldError`]s; [`Invalid`] is the 422 they make.
//!
//! # Kinds covered
//!
//! - core: Pod (create and update, with the options the strategy derives from the old pod and
//!   the fields of gates off in v1.34 dropped first), PodTemplate, ReplicationController,
//!   Service, ConfigMap, Secret, Namespace, ServiceAccount, PersistentVolumeClaim,
//!   PersistentVolume, Node (main endpoint), Event, Endpoints, LimitRange, ResourceQuota;
//! - apps: Deployment, ReplicaSet, DaemonSet, StatefulSet, ControllerRevision; batch: Job,
//!   CronJob (schedule parser and time zones included);
//! - networking.k8s.io: Ingress, IngressClass, NetworkPolicy, ServiceCIDR, IPAddress; policy:
//!   PodDisruptionBudget;
//!   rbac.authorization.k8s.io: Role, ClusterRole, RoleBinding, ClusterRoleBinding;
//!   coordination.k8s.io: Lease; autoscaling v1 and v2: HorizontalPodAutoscaler;
//!   events.k8s.io: Event;
//! - scheduling.k8s.io: PriorityClass; storage.k8s.io: StorageClass, VolumeAttributesClass,
//!   CSIDriver, CSINode, VolumeAttachment, CSIStorageCapacity;
//! - discovery.k8s.io: EndpointSlice; node.k8s.io: RuntimeClass; certificates.k8s.io:
//!   CertificateSigningRequest (the PEM layer of its request, not the PKCS#10 inside);
//!   apiregistration.k8s.io: APIService.
//! - flowcontrol.apiserver.k8s.io: FlowSchema, PriorityLevelConfiguration (the mandatory
//!   `exempt` and `catch-all` objects' fixed specs included); admissionregistration.k8s.io:
//!   ValidatingWebhookConfiguration, MutatingWebhookConfiguration, ValidatingAdmissionPolicy,
//!   ValidatingAdmissionPolicyBinding (CEL expressions parsed, not type-checked; the policy
//!   strategies' authorization checks left out).
//! - resource.k8s.io: DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice
//!   (create and update), and a ResourceClaim's status writes.
//!
//! # Status writes
//!
//! [`errors_on_status_update`] runs a kind's `Validate<Kind>StatusUpdate`, which its status
//! strategy runs instead of the update's rules, on the object as the strategy leaves it
//! ([`crate::strategy::prepare_for_status_update`] after the endpoint's reset fields are put
//! back). Covered: Pod, Service, ReplicationController, Namespace, ResourceQuota,
//! PersistentVolumeClaim; Deployment, ReplicaSet, StatefulSet, DaemonSet; Ingress;
//! PodDisruptionBudget; HorizontalPodAutoscaler; ResourceClaim; Job (with the strict checks
//! `JobManagedBy` brings), CronJob (whose strategy adds nothing to the generic metadata
//! checks).
//!
//! The upstream cases are data in `tests/data/validation/` (2,585 of them, each with its
//! source; 32 listed as gaps), run by `tests/admission/upstream_validation.rs`.
//!
//! # Where the answers differ from the server's
//!
//! - Go walks maps in random order: errors of several bad keys of one map (labels,
//!   annotations, resource lists) come here in key order.
//! - A value Go prints from an internal struct (a Service's duplicate port, a Pod's
//!   `allowPrivilegeEscalation`) is printed here from the v1 JSON: same facts, other spelling.
//! - A Pod update's refusal ends with a diff of the two specs: the server's is of its internal
//!   structs, this one of the v1 JSON; the line before it is the server's.
//! - The server's flags are its defaults, except `--allow-privileged`, taken as true (kubeadm
//!   and kind run with it).
//!
//! Layout: [`field`] (errors and paths), [`names`] (string formats), [`meta`] (ObjectMeta,
//! labels, selectors), [`read`] (JSON read as the Go structs read), then one module per API
//! group with its kinds, and the table below that maps a group and kind to its rules.

#[cfg(test)]
mod arbitrary;
pub mod field;
mod kind_rules;
pub mod meta;
pub mod names;
pub mod read;
mod seen;
mod status;

mod admissionregistration;
mod apiregistration;
mod apps;
mod autoscaling;
mod batch;
mod certificates;
mod coordination;
mod core;
mod discovery;
mod flowcontrol;
pub(crate) mod ip;
mod ip_strict;
mod networking;
mod node;
mod pem;
mod policy;
mod rbac;
mod resource;
mod scheduling;
mod storage;

pub use field::{ErrorList, ErrorType, FieldError, Path};
pub use status::Invalid;

use kind_rules::{KindRules, StatusRules};

pub(crate) use core::pod::drop_disabled_container_fields;

use serde_json::Value;

fn status_rules(group: &str, kind: &str) -> Option<&'static StatusRules> {
    core::STATUS
        .iter()
        .chain(apps::STATUS)
        .chain(networking::STATUS)
        .chain(policy::STATUS)
        .chain(autoscaling::STATUS)
        .chain(batch::STATUS)
        .chain(resource::STATUS)
        .find(|r| r.group == group && r.kind == kind)
}

fn rules(group: &str, kind: &str) -> Option<&'static KindRules> {
    core::KINDS
        .iter()
        .chain(apps::KINDS)
        .chain(batch::KINDS)
        .chain(networking::KINDS)
        .chain(policy::KINDS)
        .chain(rbac::KINDS)
        .chain(coordination::KINDS)
        .chain(autoscaling::KINDS)
        .chain(scheduling::KINDS)
        .chain(storage::KINDS)
        .chain(discovery::KINDS)
        .chain(node::KINDS)
        .chain(certificates::KINDS)
        .chain(apiregistration::KINDS)
        .chain(flowcontrol::KINDS)
        .chain(admissionregistration::KINDS)
        .chain(resource::KINDS)
        .find(|r| r.group == group && r.kind == kind)
}

/// Why an object could not be validated, or that it is invalid.
#[derive(Debug, thiserror::Error)]
pub enum ValidationError {
    /// The value is not a JSON object.
    #[error("an object must be a JSON object")]
    NotAnObject,
    /// `apiVersion` or `kind` is missing.
    #[error("an object must have apiVersion and kind")]
    MissingType,
    /// The object is invalid: the server's 422.
    #[error(transparent)]
    Invalid(Invalid),
}

fn group_and_kind(obj: &Value) -> Result<(&str, &str), ValidationError> {
    if !obj.is_object() {
        return Err(ValidationError::NotAnObject);
    }
    let api_version = read::text(obj, "apiVersion");
    let kind = read::text(obj, "kind");
    if api_version.is_empty() || kind.is_empty() {
        return Err(ValidationError::MissingType);
    }
    let group = api_version.split_once('/').map_or("", |(g, _)| g);
    Ok((group, kind))
}

/// Whether the rules of `kind` in the group of `api_version` are here.
pub fn covered(api_version: &str, kind: &str) -> bool {
    let group = api_version.split_once('/').map_or("", |(g, _)| g);
    rules(group, kind).is_some()
}

fn outcome(group: &str, kind: &str, obj: &Value, errors: ErrorList) -> Result<(), ValidationError> {
    if errors.is_empty() {
        return Ok(());
    }
    Err(ValidationError::Invalid(Invalid {
        group: group.to_owned(),
        kind: kind.to_owned(),
        name: obj
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
        errors,
    }))
}

/// Whether objects of `kind` live in a namespace, for the kinds whose rules are here.
pub fn namespaced(api_version: &str, kind: &str) -> Option<bool> {
    let group = api_version.split_once('/').map_or("", |(g, _)| g);
    rules(group, kind).map(|r| r.namespaced)
}

/// The field errors of creating `obj` (empty when it is valid or its kind is not covered).
pub fn errors_on_create(obj: &Value) -> Result<ErrorList, ValidationError> {
    let (group, kind) = group_and_kind(obj)?;
    Ok(rules(group, kind).map_or_else(Vec::new, |r| (r.create)(obj)))
}

/// The field errors of updating `old` to `new`.
pub fn errors_on_update(new: &Value, old: &Value) -> Result<ErrorList, ValidationError> {
    let (group, kind) = group_and_kind(new)?;
    Ok(rules(group, kind).map_or_else(Vec::new, |r| (r.update)(new, old)))
}

/// Whether the rules of the status endpoint of `kind` in the group of `api_version` are here.
pub fn covers_status(api_version: &str, kind: &str) -> bool {
    let group = api_version.split_once('/').map_or("", |(g, _)| g);
    status_rules(group, kind).is_some()
}

/// The field errors of a write to the status endpoint that turns `old` into `new` (empty when
/// it is valid or the kind's status rules are not here). `new` is the object as the status
/// strategy leaves it: written status, the old spec (`strategy::prepare_for_status_update`).
pub fn errors_on_status_update(new: &Value, old: &Value) -> Result<ErrorList, ValidationError> {
    let (group, kind) = group_and_kind(new)?;
    Ok(status_rules(group, kind).map_or_else(Vec::new, |r| (r.update)(new, old)))
}

/// Validates a write to the status endpoint as the server does.
pub fn validate_status_update(new: &Value, old: &Value) -> Result<(), ValidationError> {
    let errors = errors_on_status_update(new, old)?;
    let (group, kind) = group_and_kind(new)?;
    outcome(group, kind, new, errors)
}

/// Validates `obj` as the server does on create: `Ok` when it would be stored, the 422's
/// contents when it would be refused.
pub fn validate_create(obj: &Value) -> Result<(), ValidationError> {
    let errors = errors_on_create(obj)?;
    let (group, kind) = group_and_kind(obj)?;
    outcome(group, kind, obj, errors)
}

/// Validates `new` as the server does when it replaces `old`.
pub fn validate_update(new: &Value, old: &Value) -> Result<(), ValidationError> {
    let errors = errors_on_update(new, old)?;
    let (group, kind) = group_and_kind(new)?;
    outcome(group, kind, new, errors)
}

/// Validates an smp-types or k8s-openapi value (or any `Serialize` with the wire form) as
/// created; `api_version` and `kind` are used when its JSON lacks them, as typed values do.
pub fn validate_typed<T: serde::Serialize>(
    value: &T,
    api_version: &str,
    kind: &str,
) -> Result<(), TypedValidationError> {
    let mut obj = serde_json::to_value(value).map_err(TypedValidationError::Serialize)?;
    if let Value::Object(map) = &mut obj {
        map.entry("apiVersion")
            .or_insert_with(|| api_version.into());
        map.entry("kind").or_insert_with(|| kind.into());
    }
    validate_create(&obj).map_err(TypedValidationError::Validation)
}

/// Why a typed value could not be validated, or that it is invalid.
#[derive(Debug, thiserror::Error)]
pub enum TypedValidationError {
    /// The value did not serialize to JSON.
    #[error("the value did not serialize: {0}")]
    Serialize(serde_json::Error),
    /// The object is invalid (or not an object).
    #[error(transparent)]
    Validation(ValidationError),
}
