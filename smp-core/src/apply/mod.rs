//! Applying a strategic merge patch to a JSON document.
//!
//! This is the server side of SMP, with upstream's semantics (kubernetes apimachinery
//! `StrategicMergePatch`): directive lists are consumed, and `null`s with nothing to delete are
//! dropped. The engine mutates the document in place and never clones what the patch does not
//! touch, so its cost follows the size of the patch, not of the document.

mod clean;
pub(crate) mod directive;
mod list;
pub(crate) mod object;
mod order;
pub(crate) mod path;

use serde_json::{Map, Value};

use crate::error::{DocRole, PatchError, kind_of};
use crate::schema::Node;

pub use path::Path;

/// Deepest nesting the engine follows before failing with [`PatchError::TooDeep`].
///
/// Recursion depth is what bounds stack use, so hostile input gets an error instead of a stack
/// overflow. Documents read by [`crate::input`] are limited to 128 levels already.
pub const MAX_DEPTH: usize = 256;

/// Applies `patch` to `original` and returns the result; the inputs are not modified, so a
/// failed apply leaves nothing half-done.
///
/// `null` for either document means `{}`; anything else that is not an object is an error.
pub fn apply<'s>(
    original: &Value,
    patch: &Value,
    schema: impl Into<Node<'s>>,
) -> Result<Value, PatchError> {
    check_roots(original, patch)?;
    // Cloning recurses without bound, so refuse what the engine would refuse anyway first.
    if nests_deeper_than(original, MAX_DEPTH) {
        return Err(PatchError::TooDeep {
            path: crate::JsonPath::root(),
            limit: MAX_DEPTH,
        });
    }
    apply_owned(original.clone(), patch, schema)
}

/// Whether `value` has containers nested more than `limit` deep. Iterative, so it is safe on
/// any input.
pub(crate) fn nests_deeper_than(value: &Value, limit: usize) -> bool {
    let mut stack = vec![(value, 0usize)];
    while let Some((v, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match v {
            Value::Object(m) => Box::new(m.values()),
            Value::Array(a) => Box::new(a.iter()),
            _ => continue,
        };
        if depth >= limit {
            return true;
        }
        stack.extend(children.map(|c| (c, depth + 1)));
    }
    false
}

/// Like [`apply`], consuming `original` instead of copying it. On error the partly patched
/// document is dropped: use this when the caller owns a throw-away copy (a freshly parsed
/// document), [`apply`] otherwise.
pub fn apply_owned<'s>(
    original: Value,
    patch: &Value,
    schema: impl Into<Node<'s>>,
) -> Result<Value, PatchError> {
    check_roots(&original, patch)?;
    let mut target = match original {
        Value::Null => Value::Object(Map::new()),
        object => object,
    };
    if let Value::Object(patch) = patch {
        object::merge(&mut target, patch, schema.into(), &Path::root())?;
    }
    Ok(target)
}

fn check_roots(original: &Value, patch: &Value) -> Result<(), PatchError> {
    for (doc, role) in [(original, DocRole::Original), (patch, DocRole::Patch)] {
        if !matches!(doc, Value::Null | Value::Object(_)) {
            return Err(PatchError::InvalidDocument {
                role,
                detail: format!("expected a JSON object, found {}", kind_of(doc)),
            });
        }
    }
    Ok(())
}
