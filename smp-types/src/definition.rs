//! What the generated registry lists: each definition of the OpenAPI document with its Rust
//! type and patch schema, and each kind with its definition.

use smp_core::{Node, PatchSchema, TypeDef};

/// One definition of the OpenAPI document: its name, Rust type and patch schema.
#[derive(Debug)]
pub struct Definition {
    pub(crate) name: &'static str,
    pub(crate) type_name: &'static str,
    pub(crate) def: &'static TypeDef,
}

impl Definition {
    pub(crate) const fn of<T: PatchSchema>(
        name: &'static str,
        type_name: &'static str,
    ) -> Definition {
        Definition {
            name,
            type_name,
            def: T::DEF,
        }
    }

    /// The OpenAPI definition name, e.g. `io.k8s.api.apps.v1.Deployment`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The Rust type, e.g. `smp_types::api::apps::v1::Deployment`.
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }

    /// The patch schema, for `smp_core::apply(&value, &patch, definition.schema())`.
    pub fn schema(&self) -> Node<'static> {
        Node::of_static(self.def)
    }
}

/// A kind of object: its `apiVersion`, `kind` and definition.
#[derive(Debug)]
pub struct Kind {
    pub(crate) api_version: &'static str,
    pub(crate) kind: &'static str,
    pub(crate) definition: &'static Definition,
}

impl Kind {
    pub(crate) const fn new(
        api_version: &'static str,
        kind: &'static str,
        definition: &'static Definition,
    ) -> Kind {
        Kind {
            api_version,
            kind,
            definition,
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

    /// The definition of the kind's objects.
    pub fn definition(&self) -> &'static Definition {
        self.definition
    }

    /// The Rust type, e.g. `smp_types::api::apps::v1::Deployment`.
    pub fn type_name(&self) -> &'static str {
        self.definition.type_name
    }

    /// The patch schema, for `smp_core::apply(&value, &patch, kind.schema())`.
    pub fn schema(&self) -> Node<'static> {
        self.definition.schema()
    }
}
