//! Applying a strategic merge patch. (In progress.)
use serde_json::Value;

use crate::error::PatchError;
use crate::schema::Node;

/// Deepest nesting the engine follows before failing with [`PatchError::TooDeep`].
pub const MAX_DEPTH: usize = 256;

/// Applies `patch` to `original` and returns the result; the inputs are not modified.
pub fn apply<'s>(
    original: &Value,
    patch: &Value,
    schema: impl Into<Node<'s>>,
) -> Result<Value, PatchError> {
    apply_owned(original.clone(), patch, schema)
}

/// Like [`apply`], consuming `original` to avoid a copy.
pub fn apply_owned<'s>(
    original: Value,
    patch: &Value,
    schema: impl Into<Node<'s>>,
) -> Result<Value, PatchError> {
    let _ = (patch, schema.into());
    Ok(original)
}
