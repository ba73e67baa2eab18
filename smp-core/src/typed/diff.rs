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

use super::{PatchField, StrategicMerge, to_value};
use crate::diff::DiffOptions;

/// Where a typed diff writes: the patch object of one level, and the options the whole patch is
/// created with (the default ones for [`StrategicMerge::diff`], others for the diffs a typed
/// three-way patch is made of). Generated code passes it on. Not a public API.
#[doc(hidden)]
pub struct Out<'o> {
    /// The patch object of this level.
    pub map: Map<String, Value>,
    options: &'o DiffOptions,
}

impl<'o> Out<'o> {
    /// An empty patch object created with `options`.
    pub(crate) fn new(options: &'o DiffOptions) -> Out<'o> {
        Out {
            map: Map::new(),
            options,
        }
    }

    /// An empty patch object one level down.
    pub(crate) fn below(&self) -> Out<'o> {
        Out::new(self.options)
    }

    /// The options the patch is created with.
    pub(crate) fn options(&self) -> &'o DiffOptions {
        self.options
    }

    /// Whether changed and added values are written (not a patch of deletions only).
    pub(crate) fn changes(&self) -> bool {
        !self.options.ignore_changes_and_additions
    }

    /// Whether removed values are written (not a patch of changes and additions only).
    pub(crate) fn deletions(&self) -> bool {
        !self.options.ignore_deletions
    }
}

/// The typed diff from `original` to `modified` created with `options`, as the root patch
/// object: what [`StrategicMerge::diff`], `diff_with` and the typed three-way start from.
pub(crate) fn diff_root<T: StrategicMerge>(
    original: &T,
    modified: &T,
    options: &DiffOptions,
) -> Result<Map<String, Value>, PatchError> {
    let mut out = Out::new(options);
    original.diff_members(modified, &mut out, &Path::root())?;
    Ok(out.map)
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
        out.map
            .extend(crate::diff::diff_at(a, b, parent, options, path)?);
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
            let mut sub = out.below();
            a.diff_members(b, &mut sub, &here)?;
            if !sub.map.is_empty() {
                out.map.insert(name.to_owned(), Value::Object(sub.map));
            }
            Ok(())
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
            out.map
                .extend(crate::diff::diff_at(a, b, T::schema(), options, path)?);
        }
        // What the engine does with documents that are not objects (`null` is `{}`).
        _ => {
            let options = out.options();
            if let Value::Object(patch) = crate::diff::diff_with(&a, &b, T::schema(), options)? {
                out.map.extend(patch);
            }
        }
    }
    Ok(())
}

/// JSON equality of two values through their serialized forms (the exact, slow default of
/// [`PatchField::same`]). A value that does not serialize is never the same.
pub fn same_json<T: serde::Serialize>(a: &T, b: &T) -> bool {
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
                out.map.insert(name.to_owned(), Value::Null);
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
