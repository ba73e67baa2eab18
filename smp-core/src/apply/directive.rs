//! The directive vocabulary of strategic merge patch.

use serde_json::{Map, Value};

use crate::error::PatchError;

use super::path::Path;

/// `$patch`: `replace` or `delete` an object or list item.
pub(crate) const PATCH: &str = "$patch";
/// `$retainKeys`: keys of the object to keep; the others are cleared.
pub(crate) const RETAIN_KEYS: &str = "$retainKeys";
/// `$setElementOrder/<field>`: the wanted order of list `<field>`.
pub(crate) const SET_ELEMENT_ORDER: &str = "$setElementOrder";
/// `$deleteFromPrimitiveList/<field>`: values to remove from list `<field>`.
pub(crate) const DELETE_FROM_PRIMITIVE_LIST: &str = "$deleteFromPrimitiveList";
/// `$patchMergeKey`: on list items, the fields that identify the item (multi-field merge keys).
pub(crate) const PATCH_MERGE_KEY: &str = "$patchMergeKey";

/// Whether any key of a patch object could be a directive (they all start with `$`). Most
/// patch objects carry none: one pass over their keys, comparing a byte each, costs less than
/// the searches for each directive it saves.
pub(crate) fn may_direct(map: &Map<String, Value>) -> bool {
    map.keys().any(|k| k.starts_with('$'))
}

/// What a `$patch` value asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PatchOp {
    Replace,
    Delete,
}

/// Reads a `$patch` value; `merge` and anything unknown are errors, as upstream has them.
pub(crate) fn patch_op(value: &Value, path: &Path<'_>) -> Result<PatchOp, PatchError> {
    match value.as_str() {
        Some("replace") => Ok(PatchOp::Replace),
        Some("delete") => Ok(PatchOp::Delete),
        Some("merge") => Err(PatchError::ExplicitMerge {
            path: path.to_json_path(),
        }),
        _ => Err(PatchError::UnknownPatchType {
            path: path.to_json_path(),
            value: value.to_string(),
        }),
    }
}

/// A member key of a patch object, classified.
pub(crate) enum Key<'a> {
    /// `$patch`, `$retainKeys`, `$setElementOrder/...`: handled before the members.
    Handled,
    /// `$deleteFromPrimitiveList/<field>`.
    DeleteFrom(&'a str),
    /// A field (including unknown `$`-prefixed names, which upstream treats as fields).
    Field(&'a str),
}

/// Classifies `key`; a prefix directive without `/<field>` is an error.
pub(crate) fn classify<'a>(key: &'a str, path: &Path<'_>) -> Result<Key<'a>, PatchError> {
    if !key.starts_with('$') {
        return Ok(Key::Field(key));
    }
    if key == PATCH || key == RETAIN_KEYS || key.starts_with(SET_ELEMENT_ORDER) {
        return Ok(Key::Handled);
    }
    // Lists strip it from their items before merging them: anywhere else it is misplaced.
    if key == PATCH_MERGE_KEY {
        return Err(PatchError::BadDirective {
            path: path.to_json_path(),
            directive: key.to_owned(),
            expected: "to be on items of a list of objects only",
        });
    }
    if key.starts_with(DELETE_FROM_PRIMITIVE_LIST) {
        return target_field(key, DELETE_FROM_PRIMITIVE_LIST, path).map(Key::DeleteFrom);
    }
    Ok(Key::Field(key))
}

/// The key `<prefix>/<field>` of a list directive (what [`target_field`] reads back). Sized
/// once: diff writes one for each changed list and apply looks up two for each member it merges.
pub(crate) fn directive_key(prefix: &str, field: &str) -> String {
    let mut key = String::with_capacity(prefix.len() + 1 + field.len());
    key.push_str(prefix);
    key.push('/');
    key.push_str(field);
    key
}

/// The `<field>` of `<prefix>/<field>`.
pub(crate) fn target_field<'a>(
    key: &'a str,
    prefix: &str,
    path: &Path<'_>,
) -> Result<&'a str, PatchError> {
    match key.split_once('/') {
        Some((p, field)) if p == prefix => Ok(field),
        _ => Err(PatchError::BadDirective {
            path: path.to_json_path(),
            directive: key.to_owned(),
            expected: "a key of the form `<directive>/<field>`",
        }),
    }
}

/// The value of a list directive, which must be an array.
pub(crate) fn list_value<'v>(
    value: &'v Value,
    key: &str,
    path: &Path<'_>,
) -> Result<&'v [Value], PatchError> {
    match value {
        Value::Array(items) => Ok(items),
        _ => Err(PatchError::BadDirective {
            path: path.to_json_path(),
            directive: key.to_owned(),
            expected: if key == RETAIN_KEYS {
                "a list of field names"
            } else {
                "a list"
            },
        }),
    }
}
