//! Server-side apply, offline: what the Kubernetes API server computes when objects are written
//! with field management, computed here without a server.
//!
//! **Its place.** It stands on smp-core (schemas read from OpenAPI documents and CRDs); smp-apiserver
//! and smp-cli stand on it. Its own layers are listed under [Layers](#layers).
//!
//! The API server records, for each object, which manager owns which fields
//! (`metadata.managedFields`); an apply merges the applied configuration into the live object by
//! the schema's list types and map keys, removes the fields its manager stopped applying, and
//! refuses to change another manager's fields unless forced. This crate computes that beside
//! smp's strategic merge patch, from the OpenAPI documents the server builds its own types from
//! (see [`schema`]).
//!
//! # Layers
//!
//! Each layer builds on the ones before it, and none imports a layer above it:
//! - [`fieldpath`]: field paths, field sets (one flat vector per set, every operation a linear
//!   merge) and their `FieldsV1` form, read and written byte for byte as the server writes it;
//! - [`schema`]: the structured types apply merges by, converted from OpenAPI v3 documents
//!   ([`schema::from_openapi_v3`]) or CRDs ([`schema::from_crds`]) as the server converts them,
//!   or built by hand ([`schema::SchemaBuilder`]); [`builtin`] carries the v1.34 kinds';
//! - [`typed`]: values read against their type: checked, their fields ([`typed::field_set`]),
//!   merged ([`typed::merge`]), compared ([`typed::compare`]), and fields removed or extracted;
//! - [`merge`]: managers' fields through applies and updates ([`merge::Updater`]): conflicts,
//!   forced takeover, fields pruned when their manager stops applying them;
//! - [`managedfields`]: the API server's field manager ([`managedfields::FieldManager`]) over
//!   objects and their `metadata.managedFields`.
//!
//! # What is checked
//!
//! - structured-merge-diff v4.4.2's own tests, their facts written down in this crate's format
//!   (`tests/data/smd`): the typed tests (merge 64, compare 84, field sets 29, validation 84,
//!   removal and extraction 89 checks) and the merge tests (106 cases of applies and updates
//!   by several managers, with the objects, managers' fields and conflicts expected);
//! - apimachinery v0.32.13's field manager tests, as 66 tests of [`managedfields`];
//! - FieldsV1 against structured-merge-diff's golden documents, set operations and FieldsV1
//!   round trips against a plain model on random sets;
//! - all 36 official v1.34 OpenAPI v3 documents convert, and the built-in types are what they
//!   convert to;
//! - the `smp` command's server-side apply and update end to end, README's example included.
//!
//! # Speed
//!
//! `cargo bench -p smp-ssa --bench ssa`, on the Deployment of the fixture (pod3 and
//! pod50), in units of the `floor` measured in the same run (parsing the inputs as JSON without
//! building anything: 2.60 and 33.9 µs in that run), beside the Go field manager's figures in
//! the same units (apimachinery v0.32.13's `NewDefaultFieldManager`, measured on this machine
//! kind, each input copied just before its call, as here):
//!
//! | work | pod3 | Go | faster | pod50 | Go | faster |
//! |---|---|---|---|---|---|---|
//! | apply creating the object | 9.1 | 138 | 15.2x | 9.4 | 227 | 24.2x |
//! | apply, nothing changes | 25.3 | 493 | 19.5x | 28.8 | 649 | 22.5x |
//! | apply, an image changed | 26.0 | 464 | 17.8x | 29.0 | 604 | 20.8x |
//! | update, an image changed | 12.6 | 176 | 14.0x | 12.3 | 185 | 15.1x |
//! | `FieldsV1` decode + encode | 1.90 | 21 | 11.1x | 2.18 | 22 | 10.1x |
//!
//! (One run; from run to run the floor moves by up to 15% on this machine, and the ratios
//! with it.)
//!
//! Objects are `serde_json::Value`s in and out: building the output's maps and the
//! managedFields' `fieldsV1` values is a good part of each write. What did not change is
//! passed over by one walk that builds nothing, and an entry that only lost fields or got a
//! new time keeps its `fieldsV1` as read, less those fields.
//!
//! # Differences from the API server
//!
//! - No defaulting of built-in types: the server also fills in defaults (a port's `protocol`,
//!   `imagePullPolicy`, ...) after the merge; list-map keys do use the defaults the schema
//!   declares, as the server's do.
//! - One version per object: managers' fields recorded at another API version are read as if
//!   at the object's (the server would convert them).
//! - The fields each endpoint resets come from Kubernetes v1.34.9's strategies
//!   ([`builtin::reset_fields`]); a custom resource's are given with
//!   [`managedfields::FieldManager::reset_fields`].
//! - Managers' entries whose fields did not change pass through as they were read, and those
//!   that only lost fields have them taken out of the `fieldsV1` as read (when in the server's
//!   form, keys written as it writes them); the server writes every entry again, to the same
//!   text.
//! - `FieldsV1` objects held in a `serde_json::Value` print their keys in string order, not the
//!   server's element order ([`fieldpath::fields_v1::to_string`] gives the server's text).

#![warn(missing_docs)]

pub mod builtin;
pub mod fieldpath;
pub mod managedfields;
pub mod merge;
pub mod schema;
pub mod typed;

#[cfg(test)]
mod testing;
