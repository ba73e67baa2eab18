//! Field paths and field sets: how server-side apply names the fields of an object, and the
//! sets of them each manager owns.
//!
//! A [`Path`] is a list of [`PathElement`]s: a field of an object, an item of a list map by
//! its key fields, an item of a set by its value, an item of an atomic list by its index. A
//! [`Set`] holds paths as a tree and answers union, intersection and differences in one pass
//! over both sets. [`fields_v1`] reads and writes the JSON form the API server keeps in
//! `metadata.managedFields`, byte for byte.

mod element;
pub mod fields_v1;
mod key_json;
mod key_value;
mod path;
mod scan;
pub(crate) mod set;
pub(crate) mod value;

pub use element::{ElementError, FieldName, KeyFields, PathElement};
pub use fields_v1::FieldsV1Error;
pub use key_value::KeyValue;
pub use path::Path;
pub use set::Set;
