//! Typed two-way diff: [`StrategicMerge::diff`](super::StrategicMerge::diff).
//!
//! The contract mirrors typed apply: `a.diff(&b)` gives what
//! `smp_core::diff(&to_value(a), &to_value(b), T::schema())` gives. Structs compare field by
//! field ([`PatchField::same`]) and recurse natively into struct members under the default
//! strategy; anything else that changed (lists, maps, replace and retainKeys members, ...)
//! goes through the Value engine for that one member, which keeps the result identical by
//! construction while unchanged members cost no JSON conversion.

use serde_json::{Map, Value};

use crate::apply::Path;
use crate::error::PatchError;
use crate::schema::Node;

use super::out::Out;
use super::text::Text;
use super::{PatchField, StrategicMerge, to_value};
use crate::diff::DiffOptions;
use crate::patch::Patch;

/// The typed diff from `original` to `modified` created with `options`, as the root patch
/// object: the parts the typed three-way patch is merged from.
pub(crate) fn diff_root<T: StrategicMerge>(
    original: &T,
    modified: &T,
    options: &DiffOptions,
) -> Result<Map<String, Value>, PatchError> {
    let mut out = Out::new(options);
    original.diff_members(modified, &mut out, &Path::root())?;
    Ok(out.into_map())
}

/// The typed diff from `original` to `modified` created with `options`, written as JSON text
/// (see [`super::text`]): what [`StrategicMerge::diff`] and `diff_with` return.
pub(crate) fn diff_patch<T: StrategicMerge>(
    original: &T,
    modified: &T,
    options: &DiffOptions,
) -> Result<Patch, PatchError> {
    let mut text = Text::new();
    let root = text.open_object();
    original.diff_members(modified, &mut Out::text(options, &mut text), &Path::root())?;
    Ok(Patch::from_canonical_json(text.finish(root)?))
}

/// Diffs member `name` through the Value engine: the one-member objects `{name: original}` and
/// `{name: modified}` (without the member when `None`), diffed with the parent's schema; every
/// key of the result (the member, its `$setElementOrder/…` and `$deleteFromPrimitiveList/…`)
/// goes into `out`.
pub fn diff_fallback<T: PatchField>(
    original: Option<&T>,
    modified: Option<&T>,
    name: &str,
    parent: Node<'static>,
    out: &mut Out<'_>,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    let here = path.field(name);
    let one = |v: Option<&T>| -> Result<Value, PatchError> {
        let mut map = Map::new();
        if let Some(v) = v {
            map.insert(name.to_owned(), to_value(v, &here)?);
        }
        Ok(Value::Object(map))
    };
    let (a, b) = (one(original)?, one(modified)?);
    if let (Value::Object(a), Value::Object(b)) = (&a, &b) {
        let options = out.options();
        out.extend(crate::diff::diff_at(a, b, parent, options, path)?);
    }
    Ok(())
}

/// Diffs a struct member natively when both sides are present (the field's strategy is the
/// default one, checked by the caller), through the engine otherwise.
pub fn diff_struct<T: StrategicMerge>(
    original: Option<&T>,
    modified: Option<&T>,
    name: &str,
    parent: Node<'static>,
    out: &mut Out<'_>,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    match (original, modified) {
        (Some(a), Some(b)) => {
            let here = path.field(name);
            here.check_depth()?;
            out.object(name, |sub| a.diff_members(b, sub, &here))
        }
        _ => diff_fallback(original, modified, name, parent, out, path),
    }
}

/// The whole-object diff through the engine (the default of
/// [`StrategicMerge::diff_members`]).
pub fn diff_object<T: StrategicMerge>(
    original: &T,
    modified: &T,
    out: &mut Out<'_>,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    let a = to_value(original, path)?;
    let b = to_value(modified, path)?;
    match (&a, &b) {
        (Value::Object(a), Value::Object(b)) => {
            let options = out.options();
            out.extend(crate::diff::diff_at(a, b, T::schema(), options, path)?);
        }
        // What the engine does with documents that are not objects (`null` is `{}`).
        _ => {
            let options = out.options();
            if let Value::Object(patch) = crate::diff::diff_with(&a, &b, T::schema(), options)? {
                out.extend(patch);
            }
        }
    }
    Ok(())
}

/// JSON equality of two values through their serialized forms (the exact, slow default of
/// [`PatchField::same`]). A value that does not serialize is never the same.
pub fn same_json<T: serde_core::Serialize>(a: &T, b: &T) -> bool {
    match (serde_json::to_value(a), serde_json::to_value(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Diffs one field of a derived struct. `merge_key`: `Some` for the `merge` strategy, with
/// its key. `force_engine`: the field's strategy is replace or
/// retainKeys, where the engine emits members even for equal values (`replace` objects) or
/// computes `$retainKeys` from the whole value. Generated code calls this once per field.
#[allow(clippy::too_many_arguments)]
pub fn diff_field<T: PatchField>(
    original: Option<&T>,
    modified: Option<&T>,
    force_engine: bool,
    merge_key: Option<Option<&str>>,
    name: &str,
    parent: Node<'static>,
    out: &mut Out<'_>,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    if force_engine {
        return diff_fallback(original, modified, name, parent, out, path);
    }
    match (original, modified) {
        (None, None) => Ok(()),
        (Some(a), Some(b))
            if a.same(b)
                && match merge_key {
                    Some(key) => a.merge_quiet(key),
                    None => a.quiet(),
                } =>
        {
            Ok(())
        }
        // A member only `original` has is deleted.
        (Some(_), None) => {
            if out.deletions() {
                out.insert(name, Value::Null);
            }
            Ok(())
        }
        _ => T::diff_member(original, modified, name, parent, out, path),
    }
}

/// [`PatchField::merge_quiet`] of a list: items with their merge key present (structs), or
/// primitives when there is no key.
pub fn merge_list_quiet<T: PatchField>(items: &[T], key: Option<&str>) -> bool {
    match key {
        Some(key) => items
            .iter()
            .all(|item| item.key_field(key).is_some() && item.quiet()),
        None => items.is_empty() || std::ptr::eq(T::DEF, crate::schema::TypeDef::PRIMITIVE),
    }
}
