//! Server-side apply, offline: what the Kubernetes API server computes when objects are written
//! with field management, computed here without a server.
//!
//! The API server records, for each object, which manager owns which fields
//! (`metadata.managedFields`); an apply merges the applied configuration into the live object by
//! the schema's list types and map keys, removes the fields its manager stopped applying, and
//! refuses to change another manager's fields unless forced. This crate computes that beside
//! smp's strategic merge patch, from the OpenAPI documents the server builds its own types from
//! (see [`schema`]).
//!
//! It grows in layers, each on the one before:
//! - [`fieldpath`]: field paths, field sets, and their `FieldsV1` form;
//! - [`schema`]: the structured types apply merges by, from OpenAPI v3 as the server builds them;
//! - [`typed`]: values read against their type: checked, and the fields they hold.

#![warn(missing_docs)]

pub mod builtin;
pub mod fieldpath;
pub mod managedfields;
pub mod merge;
pub mod schema;
pub mod typed;
