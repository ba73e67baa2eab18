//! Merging a patch object into an object.
//!
//! Per object, in this order (the order matters: `$retainKeys` clears before members are
//! merged, and a list named by `$setElementOrder` is merged and ordered once, up front):
//! 1. `$patch: replace|delete` decides the whole object;
//! 2. `$retainKeys` clears unlisted keys;
//! 3. each `$setElementOrder/<f>` merges list `<f>` and settles its order;
//! 4. every other member merges by the field's metadata.

use serde_json::{Map, Value};

use crate::deep::dispose;
use crate::error::{PatchError, kind_of};
use crate::schema::{BaseStrategy, Node};

use super::clean::{appended_item, content_of, verbatim};
use super::composite;
use super::directive::{
    self, DELETE_FROM_PRIMITIVE_LIST, Key, PATCH, PatchOp, RETAIN_KEYS, SET_ELEMENT_ORDER,
    directive_key,
};
use super::list::{self, LiveView};
use super::order::{KeyIndex, permute, settle};
use super::path::Path;

/// Merges `patch` into `target`, which the caller guarantees is an object.
pub(crate) fn merge(
    target: &mut Value,
    patch: &Map<String, Value>,
    node: Node<'_>,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    merge_item(target, patch, node, path, None)
}

/// [`merge`], where the caller knows that member `same` holds the same scalar, as the same
/// text, on both sides (a list item's merge key, by which the item was found): merging it would
/// change nothing, so it is not looked up.
pub(crate) fn merge_item(
    target: &mut Value,
    patch: &Map<String, Value>,
    node: Node<'_>,
    path: &Path<'_>,
    same: Option<&str>,
) -> Result<(), PatchError> {
    path.check_depth()?;
    if !directive::may_direct(patch) {
        if !target.is_object() {
            *target = Value::Object(Map::new());
        }
        let Value::Object(object) = target else {
            return Ok(());
        };
        let node = node.under_patch(object, patch);
        for (key, value) in patch {
            if same == Some(key.as_str()) {
                continue;
            }
            member(object, key, value, node, path)?;
        }
        return Ok(());
    }
    if let Some(op) = patch.get(PATCH) {
        let replacement = match directive::patch_op(op, &path.field(PATCH))? {
            // Upstream takes the rest of the patch object literally.
            PatchOp::Replace => {
                let mut out = Map::new();
                for (k, v) in patch.iter().filter(|(k, _)| *k != PATCH) {
                    out.insert(k.clone(), verbatim(v, &path.field(k))?);
                }
                Value::Object(out)
            }
            // An emptied object, not a removed one: `null` is the way to remove (upstream #89140).
            PatchOp::Delete => Value::Object(Map::new()),
        };
        dispose(std::mem::replace(target, replacement));
        return Ok(());
    }
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let Value::Object(object) = target else {
        return Ok(());
    };
    // An embedded resource is typed by its kind; one the patch changes, not at all.
    let node = node.under_patch(object, patch);

    retain_keys(object, patch, path)?;

    let mut ordered: Vec<&str> = Vec::new();
    for (key, value) in patch
        .iter()
        .filter(|(k, _)| k.starts_with(SET_ELEMENT_ORDER))
    {
        if let Some(field) = set_element_order(object, patch, key, value, node, path)? {
            ordered.push(field);
        }
    }
    // Sorted for lookups: a patch may order as many lists as it has members.
    ordered.sort_unstable();

    for (key, value) in patch {
        match directive::classify(key, path)? {
            Key::Handled => {}
            Key::DeleteFrom(field) => delete_from_list(object, field, key, value, path)?,
            Key::Field(name) if ordered.binary_search(&name).is_ok() => {}
            Key::Field(name) => member(object, name, value, node, path)?,
        }
    }
    Ok(())
}

/// Merges what `patch` says about member `name` alone (its value and the `$setElementOrder` /
/// `$deleteFromPrimitiveList` directives that target it) into `object`, exactly as [`merge`]
/// does for that member. The typed path uses it for members it does not patch natively; the
/// caller deals with the whole-object directives `$patch` and `$retainKeys` first.
pub(crate) fn merge_one(
    object: &mut Map<String, Value>,
    patch: &Map<String, Value>,
    name: &str,
    node: Node<'_>,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    let mut ordered = false;
    if let Some((key, value)) = patch.get_key_value(&directive_key(SET_ELEMENT_ORDER, name)) {
        ordered = set_element_order(object, patch, key, value, node, path)?.is_some();
    }
    if let Some((key, value)) =
        patch.get_key_value(&directive_key(DELETE_FROM_PRIMITIVE_LIST, name))
    {
        delete_from_list(object, name, key, value, path)?;
    }
    match patch.get(name) {
        Some(value) if !ordered => member(object, name, value, node, path),
        _ => Ok(()),
    }
}

/// Merges one member.
fn member(
    object: &mut Map<String, Value>,
    name: &str,
    value: &Value,
    node: Node<'_>,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    if value.is_null() {
        if let Some(old) = object.remove(name) {
            dispose(old);
        }
        return Ok(());
    }
    let here = path.field(name);
    let Some(current) = super::members::get_mut(object, name) else {
        if let Value::Array(items) = value {
            // New content either way; the directive is still checked, as on a live list.
            composite::keys(Some(items), None, node.field(name), &here)?;
        }
        if let Some(content) = content_of(value, &here)? {
            object.insert(name.to_owned(), content);
        }
        return Ok(());
    };
    match (&mut *current, value) {
        (Value::Object(_), Value::Object(patch)) => {
            let meta = node.field(name);
            if meta.strategy.base == BaseStrategy::Replace {
                dispose(std::mem::replace(current, verbatim(value, &here)?));
                Ok(())
            } else {
                merge(current, patch, meta.node, &here)
            }
        }
        (Value::Array(items), Value::Array(patch)) => {
            let meta = node.field(name);
            if let Some(keys) = composite::keys(Some(patch), None, meta, &here)? {
                composite::merge(items, patch, &keys, meta, &here)
            } else if meta.strategy.merges_lists() {
                list::merge(items, patch, meta, &here, None)
            } else {
                dispose(std::mem::replace(current, verbatim(value, &here)?));
                Ok(())
            }
        }
        // A scalar the patch repeats (a list item's merge key, always) stays as it is: no copy.
        (current, value) if same_scalar(current, value) => Ok(()),
        // A string over a string: written into the old one's buffer, which mostly fits.
        (Value::String(current), Value::String(new)) => {
            current.clear();
            current.push_str(new);
            Ok(())
        }
        // Scalars, and any change of JSON type, take the patch value.
        _ => {
            match content_of(value, &here)? {
                Some(content) => dispose(std::mem::replace(current, content)),
                None => {
                    if let Some(old) = object.remove(name) {
                        dispose(old);
                    }
                }
            }
            Ok(())
        }
    }
}

/// Whether two scalars are the same JSON text: strings, booleans and integers that are equal.
/// Floats are left out: `0.0` equals `-0.0` and is written differently.
pub(crate) fn same_scalar(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(a), Value::String(b)) => a == b,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Number(a), Value::Number(b)) => !a.is_f64() && !b.is_f64() && a == b,
        _ => false,
    }
}

/// `$retainKeys`: every non-null patch member must be listed; unlisted keys are cleared.
fn retain_keys(
    object: &mut Map<String, Value>,
    patch: &Map<String, Value>,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    let Some(list) = patch.get(RETAIN_KEYS) else {
        return Ok(());
    };
    let names = directive::list_value(list, RETAIN_KEYS, path)?;
    // Sorted for lookups: the list may name every key of a large object.
    let mut names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
    names.sort_unstable();
    let listed = |key: &str| names.binary_search(&key).is_ok();
    for (key, value) in patch {
        let exempt = value.is_null()
            || key == RETAIN_KEYS
            || key.starts_with(DELETE_FROM_PRIMITIVE_LIST)
            || key.starts_with(SET_ELEMENT_ORDER);
        if !exempt && !listed(key) {
            return Err(PatchError::RetainKeysMismatch {
                path: path.to_json_path(),
                key: key.clone(),
            });
        }
    }
    let kept = std::mem::take(object);
    for (key, value) in kept {
        if listed(&key) {
            object.insert(key, value);
        } else {
            dispose(value);
        }
    }
    Ok(())
}

/// `$deleteFromPrimitiveList/<field>`: removes every occurrence of the listed values, whatever
/// the field's strategy; a missing list stays missing.
fn delete_from_list(
    object: &mut Map<String, Value>,
    field: &str,
    key: &str,
    value: &Value,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    let doomed = directive::list_value(value, key, path)?;
    if let Some(Value::Array(items)) = object.get_mut(field) {
        let doomed = KeyIndex::new(doomed.iter().collect());
        items.retain(|item| !doomed.contains(item));
    }
    Ok(())
}

/// `$setElementOrder/<field>`: merges list `<field>` now and orders it by the directive.
/// Returns the field name so the member loop skips it.
fn set_element_order<'p>(
    object: &mut Map<String, Value>,
    patch: &'p Map<String, Value>,
    key: &'p str,
    value: &'p Value,
    node: Node<'_>,
    path: &Path<'_>,
) -> Result<Option<&'p str>, PatchError> {
    let field = directive::target_field(key, SET_ELEMENT_ORDER, path)?;
    let wanted_list = directive::list_value(value, key, path)?;
    let here = path.field(field);
    let live_list = list_at(object.get(field), &here)?;
    let patch_list = list_at(patch.get(field), &here)?;
    if live_list.is_none() && patch_list.is_none() {
        return Ok(None);
    }
    // Upstream reads the item type off the two lists and fails when there is none.
    if live_list.unwrap_or(&[]).is_empty() && patch_list.unwrap_or(&[]).is_empty() {
        return Err(PatchError::OrderMismatch {
            path: here.to_json_path(),
            detail: "no elements in any of the given slices: the list to order is empty".to_owned(),
        });
    }
    let meta = node.field(field);
    if let Some(keys) = composite::keys(patch_list, Some(wanted_list), meta, &here)? {
        let merged =
            ordered_by_identity(object, field, patch_list, wanted_list, &keys, meta, &here)?;
        object.insert(field.to_owned(), Value::Array(merged));
        return Ok(Some(field));
    }
    let merge_key = meta.merge_key;
    if let Some(patch_list) = patch_list {
        check_order(patch_list, wanted_list, merge_key, &here)?;
    }

    // The live order is needed after merging has rearranged the list: keep its keys.
    let mut live = LiveView::new(match live_list {
        Some(items) => keys_of(items, merge_key, &here)?
            .into_iter()
            .cloned()
            .collect(),
        None => Vec::new(),
    });
    let mut merged = match (object.remove(field), patch_list) {
        (Some(Value::Array(mut items)), Some(patch_items)) => {
            if meta.strategy.merges_lists() {
                list::merge(&mut items, patch_items, meta, &here, Some(&mut live))?;
                items
            } else {
                patch_items
                    .iter()
                    .map(|v| verbatim(v, &here))
                    .collect::<Result<_, _>>()?
            }
        }
        (Some(Value::Array(items)), None) => items,
        (_, Some(patch_items)) => patch_items
            .iter()
            .enumerate()
            .map(|(i, v)| appended_item(v, &here.index(i)))
            .filter_map(Result::transpose)
            .collect::<Result<_, _>>()?,
        (_, None) => Vec::new(),
    };

    let perm = {
        let keys = keys_of(&merged, merge_key, &here)?;
        let deletes: Vec<bool> = merged
            .iter()
            .map(|item| item.get(PATCH).and_then(Value::as_str) == Some("delete"))
            .collect();
        let wanted = KeyIndex::new(keys_of(wanted_list, merge_key, &here)?);
        let live = KeyIndex::new(live.keys.iter().collect());
        settle(&keys, Some(&deletes), &wanted, &live)
    };
    permute(&mut merged, &perm);
    object.insert(field.to_owned(), Value::Array(merged));
    Ok(Some(field))
}

/// `$setElementOrder` of a list merged by `$patchMergeKey`: merge, then order by identity.
fn ordered_by_identity(
    object: &mut Map<String, Value>,
    field: &str,
    patch_list: Option<&[Value]>,
    wanted: &[Value],
    keys: &[&str],
    meta: crate::schema::FieldMeta<'_>,
    path: &Path<'_>,
) -> Result<Vec<Value>, PatchError> {
    if let Some(patch_list) = patch_list {
        let wanted_ids: Vec<Value> = wanted
            .iter()
            .map(|v| composite::identity(v, keys))
            .collect();
        let mut next = 0;
        for item in patch_list.iter().filter(|i| i.get(PATCH).is_none()) {
            let id = composite::identity(item, keys);
            match wanted_ids[next..].iter().position(|w| *w == id) {
                Some(p) => next += p + 1,
                None => {
                    return Err(PatchError::OrderMismatch {
                        path: path.to_json_path(),
                        detail: format!(
                            "patch item {id} is missing from $setElementOrder or out of its order"
                        ),
                    });
                }
            }
        }
    }
    let (mut merged, live_ids) = match object.remove(field) {
        Some(Value::Array(mut items)) => {
            let live_ids: Vec<Value> = items
                .iter()
                .map(|v| composite::identity_key(v, keys))
                .collect();
            if let Some(patch_list) = patch_list {
                composite::merge(&mut items, patch_list, keys, meta, path)?;
            }
            (items, live_ids)
        }
        _ => {
            let mut items = Vec::new();
            for (i, v) in patch_list.unwrap_or(&[]).iter().enumerate() {
                items.extend(appended_item(v, &path.index(i))?);
            }
            (items, Vec::new())
        }
    };
    composite::order_by(&mut merged, wanted, &live_ids, keys);
    Ok(merged)
}

fn list_at<'v>(
    value: Option<&'v Value>,
    path: &Path<'_>,
) -> Result<Option<&'v [Value]>, PatchError> {
    match value {
        None => Ok(None),
        Some(Value::Array(items)) => Ok(Some(items)),
        Some(other) => Err(PatchError::WrongType {
            path: path.to_json_path(),
            expected: "a list (it has a $setElementOrder directive)",
            found: kind_of(other),
        }),
    }
}

/// The identity of each item: its merge key's value, or the item itself for primitive lists.
fn keys_of<'v>(
    items: &'v [Value],
    merge_key: Option<&str>,
    path: &Path<'_>,
) -> Result<Vec<&'v Value>, PatchError> {
    let Some(mk) = merge_key else {
        return Ok(items.iter().collect());
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| list::key_of(item, mk, &path.index(i)))
        .collect()
}

/// The patch list's items (deletions and other directives aside) must appear in the
/// `$setElementOrder` list, in the same relative order.
fn check_order(
    patch_list: &[Value],
    wanted: &[Value],
    merge_key: Option<&str>,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    if patch_list.is_empty() || wanted.is_empty() {
        return Ok(());
    }
    let identity = |item: &'_ Value, i: usize| -> Result<Value, PatchError> {
        match merge_key {
            Some(mk) => list::key_of(item, mk, &path.index(i)).cloned(),
            None => Ok(item.clone()),
        }
    };
    // Upstream's walk, quirk included: deletions are left out, and other directive items
    // (`$patch: replace`) are skipped only while `$setElementOrder` items remain, so a marker
    // after the last ordered item fails the check.
    let items: Vec<(usize, &Value)> = patch_list
        .iter()
        .enumerate()
        .filter(|(_, item)| {
            merge_key.is_none() || item.get(PATCH).and_then(Value::as_str) != Some("delete")
        })
        .collect();
    let (mut p, mut s) = (0, 0);
    while p < items.len() && s < wanted.len() {
        let (i, item) = items[p];
        if item.get(PATCH).is_some() {
            p += 1;
            continue;
        }
        if identity(item, i)? == identity(&wanted[s], s)? {
            p += 1;
        }
        s += 1;
    }
    if let Some(&(i, item)) = items.get(p) {
        let shown = match item.get(PATCH) {
            Some(_) => item.clone(),
            None => identity(item, i)?,
        };
        return Err(PatchError::OrderMismatch {
            path: path.to_json_path(),
            detail: format!(
                "patch item {shown} is missing from $setElementOrder or out of its order"
            ),
        });
    }
    Ok(())
}
