//! A typed value's JSON form and back, through serde, each failure a [`PatchError`] naming
//! where in the document it happened. The typed layer and client-side apply of typed objects
//! both convert this way.

use serde_core::Serialize;
use serde_core::de::DeserializeOwned;
use serde_json::Value;

use crate::apply::Path;
use crate::error::PatchError;

/// `value`'s JSON form.
pub(crate) fn to_value<T: Serialize>(value: &T, path: &Path<'_>) -> Result<Value, PatchError> {
    match serde_json::to_value(value) {
        Ok(v) => Ok(v),
        Err(e) => Err(conversion_error(
            path,
            "cannot serialize the current value",
            &e,
        )),
    }
}

pub(crate) fn from_value<T: DeserializeOwned>(
    value: Value,
    path: &Path<'_>,
) -> Result<T, PatchError> {
    patched(T::deserialize(value), path)
}

/// A deserialized patch result, its error with the path.
fn patched<T>(result: Result<T, serde_json::Error>, path: &Path<'_>) -> Result<T, PatchError> {
    match result {
        Ok(v) => Ok(v),
        Err(e) => Err(conversion_error(
            path,
            "the patched value does not fit the Rust type",
            &e,
        )),
    }
}

/// The error of a conversion between a typed value and JSON; out of line, so that the generic
/// conversions above stay small.
#[cold]
#[inline(never)]
fn conversion_error(path: &Path<'_>, what: &str, e: &serde_json::Error) -> PatchError {
    PatchError::Deserialize {
        path: path.to_json_path(),
        detail: format!("{what}: {e}"),
    }
}

/// Deserializes a borrowed patch value (primitives: no intermediate copy of the JSON).
pub(crate) fn from_ref<T: DeserializeOwned>(
    value: &Value,
    path: &Path<'_>,
) -> Result<T, PatchError> {
    patched(T::deserialize(value), path)
}
