//! The union rules of KEP-1027 and their work on JSON documents: which member of a union is
//! set, what its discriminator says, the errors, and [`normalize`], [`validate`] and
//! [`apply_normalized`] of a `Value`. The typed layer applies the same rules to Rust values
//! (`typed::unions`); the public face of both is [`crate::union`].

mod error;
/// The rules of normalization, shared by the engine and the code `#[derive(StrategicMerge)]`
/// generates. Not a public API.
#[doc(hidden)]
pub mod rules;
pub(crate) mod value;

use serde_json::Value;

use crate::schema::Node;

pub(crate) use error::finish;
pub use error::{UnionError, UpdateError, ValidationError};
pub(crate) use rules::key_of;

/// Normalizes every union of `new` (and of everything below it: nested structs, map values,
/// list items paired with the old item by the list's merge key) against `old`, the document
/// before the update. `None` is a creation: every set member counts as newly set.
///
/// Never fails: what cannot be decided is left for [`validate`] to report.
pub fn normalize<'s>(new: &mut Value, old: Option<&Value>, schema: impl Into<Node<'s>>) {
    value::normalize_at(new, old, schema.into(), None, 0);
}

/// Checks every union of `doc`: at most one member set, and a discriminator (when set) that
/// names the member that is set. All violations, sorted by path.
pub fn validate<'s>(doc: &Value, schema: impl Into<Node<'s>>) -> Result<(), ValidationError> {
    let mut out = Vec::new();
    value::validate_at(doc, schema.into(), None, &mut Vec::new(), &mut out);
    error::finish(out)
}

/// What an API server does with a patch: apply it, normalize the result against `original`,
/// validate. [`crate::apply()`] alone is the client-side apply of `kubectl patch`.
pub fn apply_normalized<'s>(
    original: &Value,
    patch: &Value,
    schema: impl Into<Node<'s>>,
) -> Result<Value, UpdateError> {
    let node = schema.into();
    let mut new = crate::apply(original, patch, node)?;
    normalize(&mut new, Some(original), node);
    validate(&new, node).map_err(UpdateError::Invalid)?;
    Ok(new)
}
