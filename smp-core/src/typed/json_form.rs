//! Strategic merge patch on any serde type, through its JSON form, with a schema given at run
//! time.
//!
//! This is the typed contract taken literally: serialize, run the `Value` engine with the
//! schema, deserialize. It serves types that cannot derive `StrategicMerge` because they belong
//! to another crate (k8s-openapi's, through smp-types' `k8s-openapi` feature, which supplies the
//! schema of the same definition) and types whose schema is only known at run time (a custom
//! resource described by its CRD). Each call converts the whole value, so it costs what a
//! round trip costs; a derived type touches only what the patch names.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{from_value, to_value};
use crate::apply::Path;
use crate::error::PatchError;
use crate::patch::Patch;
use crate::schema::Node;
use crate::union_rules::UpdateError;

/// Applies `patch` to `value`: exactly `from_value(smp_core::apply(to_value(value), patch,
/// schema))`. On error `value` is unchanged.
pub fn apply<'s, T>(
    value: &mut T,
    patch: &Patch,
    schema: impl Into<Node<'s>>,
) -> Result<(), PatchError>
where
    T: Serialize + DeserializeOwned,
{
    let at = Path::root();
    let json = to_value(value, &at)?;
    let patched = crate::apply::apply_owned(json, patch.as_value(), schema)?;
    *value = from_value(patched, &at)?;
    Ok(())
}

/// The two-way patch from `original` to `modified`: `smp_core::diff` of their JSON forms.
pub fn diff<'s, T: Serialize>(
    original: &T,
    modified: &T,
    schema: impl Into<Node<'s>>,
    options: &crate::diff::DiffOptions,
) -> Result<Patch, PatchError> {
    let at = Path::root();
    let patch = crate::diff::diff_with(
        &to_value(original, &at)?,
        &to_value(modified, &at)?,
        schema,
        options,
    )?;
    Patch::from_value(patch)
}

/// The three-way patch (`kubectl apply`'s): `smp_core::three_way` of the JSON forms.
pub fn three_way<'s, T: Serialize>(
    last_applied: &T,
    desired: &T,
    live: &T,
    schema: impl Into<Node<'s>>,
    options: &crate::diff::ThreeWayOptions,
) -> Result<Patch, PatchError> {
    let at = Path::root();
    let patch = crate::diff::three_way(
        &to_value(last_applied, &at)?,
        &to_value(desired, &at)?,
        &to_value(live, &at)?,
        schema,
        options,
    )?;
    Patch::from_value(patch)
}

/// Normalizes the unions of `value` against `old` (KEP-1027), as
/// [`normalize`](crate::union::normalize) does on the JSON form. A value that no longer fits
/// its type after normalization (which only clears members) is an error, and leaves `value`
/// unchanged.
pub fn normalize<'s, T>(
    value: &mut T,
    old: Option<&T>,
    schema: impl Into<Node<'s>>,
) -> Result<(), PatchError>
where
    T: Serialize + DeserializeOwned,
{
    let at = Path::root();
    let mut json = to_value(value, &at)?;
    let old = old.map(|o| to_value(o, &at)).transpose()?;
    crate::union_rules::normalize(&mut json, old.as_ref(), schema);
    *value = from_value(json, &at)?;
    Ok(())
}

/// Checks the unions of `value`, as [`validate`](crate::union::validate) does on its JSON form.
pub fn validate<'s, T: Serialize>(
    value: &T,
    schema: impl Into<Node<'s>>,
) -> Result<(), UpdateError> {
    let json = to_value(value, &Path::root())?;
    crate::union_rules::validate(&json, schema).map_err(UpdateError::Invalid)
}

/// What an API server does with a patch: apply, normalize against the value before, validate.
/// On error `value` is unchanged.
pub fn apply_normalized<'s, T>(
    value: &mut T,
    patch: &Patch,
    schema: impl Into<Node<'s>>,
) -> Result<(), UpdateError>
where
    T: Serialize + DeserializeOwned,
{
    let at = Path::root();
    let before = to_value(value, &at)?;
    let after = crate::union_rules::apply_normalized(&before, patch.as_value(), schema)?;
    *value = from_value(after, &at)?;
    Ok(())
}

/// Normalization of a member whose schema is `node` (the `Normalize` impl of a value patched
/// through its JSON form). Values that do not convert are left as they are: normalization
/// never fails, and validation reports what it could not repair.
#[doc(hidden)]
pub fn normalize_member<T>(value: &mut T, old: Option<&T>, node: Node<'_>, merge_key: Option<&str>)
where
    T: Serialize + DeserializeOwned,
{
    let (Ok(mut json), Ok(old)) = (
        serde_json::to_value(&*value),
        old.map(serde_json::to_value).transpose(),
    ) else {
        return;
    };
    crate::union_rules::value::normalize_at(&mut json, old.as_ref(), node, merge_key, 0);
    if let Ok(new) = T::deserialize(json) {
        *value = new;
    }
}

/// Validation of a member whose schema is `node`, at `path`.
#[doc(hidden)]
pub fn validate_member<T: Serialize>(
    value: &T,
    node: Node<'_>,
    merge_key: Option<&str>,
    path: &mut Vec<crate::error::Segment>,
    out: &mut Vec<crate::union_rules::UnionError>,
) {
    if let Ok(json) = serde_json::to_value(value) {
        crate::union_rules::value::validate_at(&json, node, merge_key, path, out);
    }
}

/// The JSON form of `value`'s field `name`, to pair list items by merge key.
#[doc(hidden)]
pub fn key_of<T: Serialize>(value: &T, name: &str) -> Option<Value> {
    match serde_json::to_value(value) {
        Ok(Value::Object(mut map)) => map.remove(name),
        _ => None,
    }
}

/// Whether the JSON form of `value` is `null`.
#[doc(hidden)]
pub fn is_null<T: Serialize>(value: &T) -> bool {
    matches!(serde_json::to_value(value), Ok(Value::Null))
}
