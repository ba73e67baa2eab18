//! The structured types of the built-in Kubernetes kinds (v1.34), as the API server builds them
//! from its OpenAPI v3 documents, carried by the crate in its compact form
//! ([`crate::schema::to_compact_json`]): no document needed at run time.
//!
//! `kubernetes.json` is generated from the official documents by `cargo run -p smp-codegen --
//! --ssa` and checked against them by this crate's tests where the documents are present.
//!
//! ```
//! use smp_ssa::schema::Gvk;
//!
//! let schema = smp_ssa::builtin::schema();
//! assert!(schema.kind(&Gvk::of("apps/v1", "Deployment")).is_some());
//! ```

use std::sync::OnceLock;

use crate::schema::{Schema, from_compact_json};

/// The compact text, as generated.
pub const KUBERNETES: &str = include_str!("kubernetes.json");

/// The Kubernetes version the types are of.
pub const KUBERNETES_VERSION: &str = "1.34";

/// The built-in kinds' types (read once, on first use).
pub fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    // The text is generated and tested to read; were it not to, no kind would be found (and
    // errors would name the kind) rather than the process stopping.
    SCHEMA.get_or_init(|| {
        from_compact_json(KUBERNETES)
            .unwrap_or_else(|_| crate::schema::SchemaBuilder::new().build())
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_text_reads() {
        crate::schema::from_compact_json(super::KUBERNETES).unwrap();
    }
}
