//! Copying patch values into the document.
//!
//! A patch value that lands where the original has nothing (or something of another type) is
//! taken as the new content, but a patch is not content: `null` members mean "delete" and have
//! nothing to delete there, and objects carrying `$patch` are instructions with nothing to act
//! on. Upstream drops both (kubernetes#107705); so do we, while copying, with two differences
//! that keep us from losing data silently: an invalid `$patch` value is an error (upstream
//! ignores it there), and `$patch: replace` yields its content (upstream drops the object,
//! which loses what the client asked to write).

use serde_json::{Map, Value};

use crate::error::PatchError;

use super::directive::{self, PATCH, PATCH_MERGE_KEY, PatchOp};
use super::path::Path;

/// Copies `value` without null members and without `$patch: delete` objects. Returns `None`
/// when the value itself is such an object (the member is then left out).
pub(crate) fn content_of(value: &Value, path: &Path<'_>) -> Result<Option<Value>, PatchError> {
    copy(value, path, false, false)
}

/// A patch item appended to a merged list (one whose key the live list lacks, or any item of a
/// `$setElementOrder` list with no live list). Upstream appends such items as they are, so
/// their `null` members stay (kubectl prints `"reason": null`); directives are handled as in
/// [`content_of`]. `None` for an item carrying `$patch` (a list directive, not content).
pub(crate) fn appended_item(value: &Value, path: &Path<'_>) -> Result<Option<Value>, PatchError> {
    copy(value, path, true, true)
}

/// `in_list`: list items carrying `$patch` are list directives (`replace` marks the list,
/// `delete` names an item), never content. `keep_nulls`: `null` members are content too.
fn copy(
    value: &Value,
    path: &Path<'_>,
    in_list: bool,
    keep_nulls: bool,
) -> Result<Option<Value>, PatchError> {
    path.check_depth()?;
    Ok(match value {
        Value::Object(map) => {
            if let Some(op) = map.get(PATCH) {
                let op = directive::patch_op(op, &path.field(PATCH))?;
                if in_list || op == PatchOp::Delete {
                    return Ok(None);
                }
            }
            let mut out = Map::new();
            for (k, v) in map {
                // `$patchMergeKey` identifies an item; it is never content.
                if (v.is_null() && !keep_nulls) || k == PATCH || k == PATCH_MERGE_KEY {
                    continue;
                }
                if let Some(v) = copy(v, &path.field(k), false, keep_nulls)? {
                    out.insert(k.clone(), v);
                }
            }
            Some(Value::Object(out))
        }
        Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (i, v) in items.iter().enumerate() {
                if let Some(v) = copy(v, &path.index(i), true, keep_nulls)? {
                    out.push(v);
                }
            }
            Some(Value::Array(out))
        }
        scalar => Some(scalar.clone()),
    })
}

/// Copies `value` as it is, with the depth limit enforced, for places where upstream takes
/// patch values verbatim (`replace` strategy, `$patch: replace`).
pub(crate) fn verbatim(value: &Value, path: &Path<'_>) -> Result<Value, PatchError> {
    // Verbatim copies are bounded by the patch's own depth; check it once, cheaply, instead of
    // cloning through serde_json's unbounded recursion.
    check_nesting(value, path.depth(), path)?;
    Ok(value.clone())
}

fn check_nesting(value: &Value, depth: usize, path: &Path<'_>) -> Result<(), PatchError> {
    if depth > super::MAX_DEPTH {
        return Err(PatchError::TooDeep {
            path: path.to_json_path(),
            limit: super::MAX_DEPTH,
        });
    }
    match value {
        Value::Object(map) => map
            .values()
            .try_for_each(|v| check_nesting(v, depth + 1, path)),
        Value::Array(items) => items
            .iter()
            .try_for_each(|v| check_nesting(v, depth + 1, path)),
        _ => Ok(()),
    }
}
