//! Kubernetes manifests read as kubectl reads them, and printed as kubectl and Go print them.
//!
//! **Its place.** The ground of smp: it stands on no other smp crate. smp-core reads every
//! document through it (and names its errors with its [`JsonPath`]); the CLI and the test
//! server print with it. It knows nothing of patches, schemas or kinds.
//!
//! kubectl reads a manifest with sigs.k8s.io/yaml: JSON as JSON, anything else as YAML with
//! YAML 1.1's scalar rules (`on` is `true`, `0755` is 493, `1e6` is a float), and the result as
//! JSON. [`parse_document`], [`parse_documents`] and [`from_str`] read the same way, and refuse
//! what would otherwise be read wrong or without bound: a duplicate key, a number JSON cannot
//! hold, nesting past [`MAX_NESTING`] levels, a character YAML does not allow, aliases that
//! expand a stream past its size plus a fixed allowance. Each error is a [`ReadError`] naming
//! the line and column, or the JSON path, where reading stopped. No input overflows the stack.
//!
//! - [`to_yaml_string`] prints YAML as kubectl's `-o yaml` does;
//! - [`gojson`] prints JSON as Go's `encoding/json` does (keys sorted, Go's float forms);
//! - [`split_documents`] cuts a block-style stream into texts to read one at a time;
//! - [`json`] is the strict JSON reader with a depth of the caller's choosing.
//!
//! # Features
//!
//! - `yaml` (default): the YAML reader and printer. Without it, [`parse_document`],
//!   [`parse_documents`] and [`from_str`] read JSON only (text that is not JSON is an error
//!   saying so), and the YAML functions are not there: a program that only reads the API
//!   server's JSON does not build a YAML parser.
//!
//! # Layers
//!
//! From the ground up: [`error`], [`path`], the limits and the map order; the strict [`json`] reader and
//! [`gojson`]; the YAML reader and printer (`yaml`); whole documents and typed reading
//! (`document`). Each module imports only those below it.
//!
//! ```
//! let docs = smp_yaml::parse_documents("a: yes\n---\nb: 0755\n").unwrap();
//! assert_eq!(docs, [serde_json::json!({"a": true}), serde_json::json!({"b": 493})]);
//! assert_eq!(smp_yaml::to_yaml_string(&docs[1]), "b: 493\n");
//! ```

#![warn(missing_docs)]

mod document;
pub mod error;
pub mod gojson;
pub mod json;
mod limits;
mod map_order;
pub mod path;
#[cfg(feature = "yaml")]
mod yaml;

pub use document::{
    from_str, from_str_all, from_value, parse_document, parse_documents, parse_json,
};
pub use error::ReadError;
pub use limits::MAX_NESTING;
pub use map_order::maps_are_sorted;
pub use path::{JsonPath, Segment};
#[cfg(feature = "yaml")]
pub use yaml::{parse_yaml_documents, split_documents, to_yaml_string};
