//! Kubernetes API types with their strategic-merge-patch metadata.
//!
//! Each type derives [`StrategicMerge`](smp_core::StrategicMerge) with the `patchStrategy` and
//! `patchMergeKey` that k8s.io/api declares (containers merge by `name`, volumes
//! `merge,retainKeys` by `name`, ports by `containerPort`, conditions by `type`, ...), plus
//! `retainKeys` on the unions the seeds name (`DeploymentSpec.strategy`,
//! `ContainerStatus.state`/`lastState`). Field names are the API's; every optional field is an
//! `Option` omitted when `None`, so a manifest round-trips unchanged (an explicit `[]` or
//! `{}` stays, an absent field stays absent).
//!
//! Unknown fields: the structs ignore them when deserializing (serde's default), so
//! `Pod` → JSON loses them. `smp patch` never goes through the structs: it patches the JSON
//! with the [`Kind::schema`] of the document's kind and keeps unknown fields, as
//! `kubectl patch --local` does.
//!
//! [`lookup`] finds the kind of a document from its `apiVersion` and `kind`.
//!
//! Besides Kubernetes' own patch metadata, the types carry what the design documents add:
//! recommended merge keys (`port,protocol` on Service ports, `containerPort,protocol` on
//! container ports, `key` on taints, tolerations and node selector requirements) and the
//! KEP-1027 unions (DeploymentStrategy, VolumeSource, the probe and lifecycle handlers,
//! ContainerState, EnvVarSource, EnvVar's `value`/`valueFrom`, SeccompProfile), so
//! [`smp_core::Normalize`] repairs them as an API server would.

pub mod apps;
pub mod core;
pub mod int_or_string;
pub mod meta;
pub mod quantity;
mod scalar;

pub use int_or_string::IntOrString;
pub use quantity::Quantity;

use smp_core::{Node, PatchField, TypeDef};

/// A kind of object: its `apiVersion`, `kind`, Rust type and patch schema.
#[derive(Debug, Clone, Copy)]
pub struct Kind {
    api_version: &'static str,
    kind: &'static str,
    type_name: &'static str,
    def: &'static TypeDef,
}

impl Kind {
    const fn of<T: PatchField>(
        api_version: &'static str,
        kind: &'static str,
        type_name: &'static str,
    ) -> Kind {
        Kind {
            api_version,
            kind,
            type_name,
            def: T::DEF,
        }
    }

    /// `apiVersion`, e.g. `apps/v1`.
    pub fn api_version(&self) -> &'static str {
        self.api_version
    }

    /// `kind`, e.g. `Deployment`.
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// The Rust type, e.g. `smp_types::apps::Deployment`.
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }

    /// The patch schema, for `smp_core::apply(&value, &patch, kind.schema())`.
    pub fn schema(&self) -> Node<'static> {
        Node::of_static(self.def)
    }
}

/// Every kind this crate types, in `apiVersion`, `kind` order.
pub const KINDS: &[Kind] = &[
    Kind::of::<apps::Deployment>("apps/v1", "Deployment", "smp_types::apps::Deployment"),
    Kind::of::<core::ConfigMap>("v1", "ConfigMap", "smp_types::core::ConfigMap"),
    Kind::of::<core::Node>("v1", "Node", "smp_types::core::Node"),
    Kind::of::<core::Pod>("v1", "Pod", "smp_types::core::Pod"),
    Kind::of::<core::Secret>("v1", "Secret", "smp_types::core::Secret"),
    Kind::of::<core::Service>("v1", "Service", "smp_types::core::Service"),
];

/// The kind with this `apiVersion` and `kind` (both exact, as the API server matches them).
pub fn lookup(api_version: &str, kind: &str) -> Option<&'static Kind> {
    KINDS
        .iter()
        .find(|k| k.api_version == api_version && k.kind == kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_is_exact() {
        let d = lookup("apps/v1", "Deployment").expect("known");
        assert_eq!(d.type_name(), "smp_types::apps::Deployment");
        assert_eq!(d.schema().def().name(), "Deployment");
        assert!(lookup("v1", "Deployment").is_none());
        assert!(lookup("v1", "pod").is_none());
        assert!(lookup("example.com/v1", "Widget").is_none());
    }
}
