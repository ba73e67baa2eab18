//! smp-types' tests, one binary (each module built only with the features it needs): the
//! registry, the serde forms written by hand, every schema against its listing, k8s-openapi's
//! values patched by the schemas alone, and, with the types, the shipped manifests and typed
//! patches against the `Value` engine.

#[cfg(feature = "types")]
#[path = "../support/mod.rs"]
mod support;

mod examples;
mod k8s_openapi_schemas;
mod registry;
mod schemas;
mod serde_forms;
mod typed_patches;
