//! The three-way patch (`kubectl apply`), and the patch-to-patch merge it is built with.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::apply::Path;
use crate::apply::order::KeyIndex;
use crate::error::{DocRole, PatchError};
use crate::hash::{HashedKey, KeyedState};
use crate::schema::{BaseStrategy, FieldMeta, Node};

use super::lists::{keyed, merge_key};
use super::printed::{Kind, dedup, item_kind, same_kind};
use super::two_way::{
    DELETE_FROM_PRIMITIVE_LIST, PATCH, RETAIN_KEYS, SET_ELEMENT_ORDER, diff_maps,
};
use super::{Conflicts, DiffOptions, PatchMergeKey, Tagging, ThreeWayOptions, conflicts, root};

/// The patch that makes the live object `current` what `modified` asks for (upstream
/// `CreateThreeWayMergePatch`): additions and changes from `current` to `modified`, plus
/// deletions of what `original` (the last-applied configuration) had and `modified` dropped.
///
/// The options' preconditions run on the created patch. With [`Conflicts::Refuse`] the patch
/// is checked against the changes made by others (the diff from `original` to `current`) with
/// [`super::merging_maps_have_conflicts`]; if they disagree the call fails with
/// [`PatchError::Conflict`].
///
/// ```
/// use serde_json::json;
/// use smp_core::{Schema, ThreeWayOptions, three_way};
///
/// let schema = Schema::untyped();
/// let last_applied = json!({"replicas": 2, "paused": true});
/// let desired = json!({"replicas": 3});
/// let live = json!({"replicas": 2, "paused": true, "status": "ok"});
/// let patch = three_way(&last_applied, &desired, &live, &schema, &ThreeWayOptions::default());
/// assert_eq!(patch, Ok(json!({"replicas": 3, "paused": null})));
/// ```
pub fn three_way<'s>(
    original: &Value,
    modified: &Value,
    current: &Value,
    schema: impl Into<Node<'s>>,
    options: &ThreeWayOptions,
) -> Result<Value, PatchError> {
    let original = root(original, DocRole::Original)?;
    let modified = root(modified, DocRole::Modified)?;
    let current = root(current, DocRole::Current)?;
    let node = options.patch_merge_key.view(schema.into());
    let at = Path::root();
    let tagging = Tagging::start();
    let delta = diff_maps(current, modified, node, &DELTA, false, &at)?;
    let deletions = diff_maps(original, modified, node, &DELETIONS, false, &at)?;
    assemble(tagging, deletions, &delta, node, options, || {
        diff_maps(original, current, node, &CHANGES, false, &at)
    })
}

/// The options of the patch of changes and additions from the live object to the desired one.
pub(crate) const DELTA: DiffOptions = DiffOptions {
    ignore_changes_and_additions: false,
    ignore_deletions: true,
    set_element_order: true,
    patch_merge_key: PatchMergeKey::Omit,
};

/// The options of the patch of deletions from the last-applied object to the desired one.
pub(crate) const DELETIONS: DiffOptions = DiffOptions {
    ignore_changes_and_additions: true,
    ignore_deletions: false,
    set_element_order: true,
    patch_merge_key: PatchMergeKey::Omit,
};

/// The options of the patch of what others changed (last-applied to live), for conflicts.
pub(crate) const CHANGES: DiffOptions = DiffOptions {
    ignore_changes_and_additions: false,
    ignore_deletions: false,
    set_element_order: false,
    patch_merge_key: PatchMergeKey::Omit,
};

/// The three-way patch from its parts (upstream `CreateThreeWayMergePatch` after the diffs):
/// the deletions merged with the delta, the preconditions, and under [`Conflicts::Refuse`] the
/// conflict check against `changed` (what others changed, computed only then). The typed
/// three-way creates the parts with the typed diff. `tagging` started before the parts were
/// created.
pub(crate) fn assemble(
    tagging: Tagging,
    deletions: Map<String, Value>,
    delta: &Map<String, Value>,
    node: Node<'_>,
    options: &ThreeWayOptions,
    changed: impl FnOnce() -> Result<Map<String, Value>, PatchError>,
) -> Result<Value, PatchError> {
    let at = Path::root();
    let patch = merge_map(deletions, delta, node, &at)?;

    for p in &options.preconditions {
        p.check(&patch)?;
    }

    if options.conflicts == Conflicts::Refuse {
        let changed = Value::Object(changed()?);
        if let Some(found) = conflicts::first_conflict(&patch, &changed, node)? {
            return Err(PatchError::Conflict {
                path: found.path,
                detail: format!(
                    "the patch sets {} where the changes from original to current made {}",
                    found.left, found.right
                ),
            });
        }
    }
    let mut patch = patch;
    tagging.finish(&mut patch);
    Ok(patch)
}

/// Merges patch `patch` into patch `base`, keeping nulls and directive lists (upstream
/// `mergeMap` with `MergeParallelList` and `IgnoreUnmatchedNulls` off).
fn merge_map(
    mut base: Map<String, Value>,
    patch: &Map<String, Value>,
    node: Node<'_>,
    path: &Path<'_>,
) -> Result<Value, PatchError> {
    path.check_depth()?;
    if let Some(op) = patch.get(PATCH) {
        return match op.as_str() {
            Some("replace") => {
                let mut out = patch.clone();
                out.remove(PATCH);
                Ok(Value::Object(out))
            }
            Some("delete") => Ok(Value::Object(Map::new())),
            _ => Err(PatchError::UnknownPatchType {
                path: path.field(PATCH).to_json_path(),
                value: op.to_string(),
            }),
        };
    }
    // An embedded resource is typed by the kind the patches carry (diff stamps them).
    let node = node.for_patches(patch, &base);
    if let Some(keys) = patch.get(RETAIN_KEYS) {
        copy_directive(&mut base, RETAIN_KEYS, keys, path)?;
    }

    let mut consumed: Vec<&str> = Vec::new();
    for (key, order) in patch
        .iter()
        .filter(|(k, _)| k.starts_with(SET_ELEMENT_ORDER))
    {
        copy_directive(&mut base, key, order, path)?;
        let field = match key.split_once('/') {
            Some((prefix, field)) if prefix == SET_ELEMENT_ORDER => field,
            _ => {
                return Err(PatchError::BadDirective {
                    path: path.to_json_path(),
                    directive: key.clone(),
                    expected: "a key of the form $setElementOrder/<field>",
                });
            }
        };
        consumed.push(field);
        let here = path.field(field);
        let order = as_list(Some(order), key, &here)?.unwrap_or(&[]);
        let base_list = as_list(base.get(field), field, &here)?;
        let patch_list = as_list(patch.get(field), field, &here)?;
        let meta = super::composite::effective(node.field(field));
        let merged = match (base_list, patch_list) {
            (Some(b), None) => b.to_vec(),
            // A list only the delta has is taken as upstream takes new content: without
            // directive items.
            (None, Some(p)) => p.iter().filter_map(without_directives).collect(),
            (Some(b), Some(p)) if meta.strategy.merges_lists() => merge_slice(b, p, meta, &here)?,
            (Some(_), Some(p)) => p.to_vec(),
            (None, None) => continue,
        };
        let base_list = base_list.unwrap_or(&[]);
        let kind = item_kind(&[base_list, patch_list.unwrap_or(&[])], &here)?;
        let mk = match kind {
            Some(Kind::Object) => Some(merge_key(meta, &here)?),
            _ => None,
        };
        let (in_order, others) = partition(merged, order, mk, &here)?;
        let both = normalize(in_order, others, order, base_list, mk, &here)?;
        base.insert(field.to_owned(), Value::Array(both));
    }

    // Sorted for lookups: a patch may order as many lists as it has members.
    consumed.sort_unstable();
    for (key, value) in patch {
        if key == RETAIN_KEYS
            || key.starts_with(SET_ELEMENT_ORDER)
            || consumed.binary_search(&key.as_str()).is_ok()
        {
            continue;
        }
        if key.starts_with(DELETE_FROM_PRIMITIVE_LIST) || value.is_null() {
            base.insert(key.clone(), value.clone());
            continue;
        }
        let Some(current) = base.remove(key) else {
            if let Some(value) = without_directives(value) {
                base.insert(key.clone(), value);
            }
            continue;
        };
        let here = path.field(key);
        let merged = match (current, value) {
            (cur, new) if !same_kind(&cur, new) => match without_directives(new) {
                Some(new) => new,
                None => continue,
            },
            (Value::Object(cur), Value::Object(new)) => {
                let meta = super::composite::effective(node.field(key));
                if meta.strategy.base == BaseStrategy::Replace {
                    Value::Object(new.clone())
                } else {
                    merge_map(cur, new, meta.node, &here)?
                }
            }
            (Value::Array(cur), Value::Array(new)) => {
                let meta = super::composite::effective(node.field(key));
                if meta.strategy.merges_lists() {
                    Value::Array(merge_slice(&cur, new, meta, &here)?)
                } else {
                    Value::Array(new.clone())
                }
            }
            (_, new) => new.clone(),
        };
        base.insert(key.clone(), merged);
    }
    Ok(Value::Object(base))
}

/// A value taken whole from the delta, as upstream takes it: objects carrying `$patch` (at any
/// depth, list items included) are dropped, nulls are kept (they are deletions to send).
/// `None` when the value itself carries `$patch`.
fn without_directives(value: &Value) -> Option<Value> {
    match value {
        Value::Object(map) if map.contains_key(PATCH) => None,
        Value::Object(map) => Some(Value::Object(
            map.iter()
                .filter_map(|(k, v)| without_directives(v).map(|v| (k.clone(), v)))
                .collect(),
        )),
        Value::Array(items) => Some(Value::Array(
            items.iter().filter_map(without_directives).collect(),
        )),
        scalar => Some(scalar.clone()),
    }
}

/// A directive present in both patches must be the same; one only in `patch` is copied.
fn copy_directive(
    base: &mut Map<String, Value>,
    key: &str,
    value: &Value,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    match base.get(key) {
        Some(existing) if existing != value => Err(PatchError::BadDirective {
            path: path.to_json_path(),
            directive: key.to_owned(),
            expected: "the same list in both patches being combined",
        }),
        Some(_) => Ok(()),
        None => {
            base.insert(key.to_owned(), value.clone());
            Ok(())
        }
    }
}

fn as_list<'v>(
    value: Option<&'v Value>,
    name: &str,
    path: &Path<'_>,
) -> Result<Option<&'v [Value]>, PatchError> {
    match value {
        None => Ok(None),
        Some(Value::Array(items)) => Ok(Some(items)),
        Some(other) => Err(PatchError::WrongType {
            path: path.to_json_path(),
            expected: if name.starts_with('$') {
                "a list (directive value)"
            } else {
                "a list (it has a $setElementOrder directive)"
            },
            found: crate::error::kind_of(other),
        }),
    }
}

/// Merges two `merge`-strategy lists of patches.
fn merge_slice(
    base: &[Value],
    patch: &[Value],
    meta: FieldMeta<'_>,
    path: &Path<'_>,
) -> Result<Vec<Value>, PatchError> {
    path.check_depth()?;
    if base.is_empty() && patch.is_empty() {
        return Ok(Vec::new());
    }
    if item_kind(&[base, patch], path)? != Some(Kind::Object) {
        let merged = dedup(base.iter().chain(patch).cloned().collect());
        let (in_patch, others) = partition(merged, patch, None, path)?;
        return normalize(in_patch, others, patch, base, None, path);
    }
    let mk = merge_key(meta, path)?;
    let mut live: Vec<Value> = base.to_vec();
    let mut regular: Vec<Value> = Vec::with_capacity(patch.len());
    let mut replace = false;
    let mut doomed: Vec<&Value> = Vec::new();
    for (i, item) in patch.iter().enumerate() {
        // `item_kind` checked that every item is an object.
        let Value::Object(map) = item else { continue };
        match map.get(PATCH) {
            None => regular.push(item.clone()),
            Some(op) => match op.as_str() {
                Some("delete") => {
                    let (_, key) = keyed(item, mk, path, i)?;
                    doomed.push(key);
                }
                Some("replace") => replace = true,
                Some("merge") => {
                    return Err(PatchError::ExplicitMerge {
                        path: path.index(i).field(PATCH).to_json_path(),
                    });
                }
                _ => {
                    return Err(PatchError::UnknownPatchType {
                        path: path.index(i).field(PATCH).to_json_path(),
                        value: op.to_string(),
                    });
                }
            },
        }
    }
    if !doomed.is_empty() {
        let gone = KeyIndex::new(doomed);
        live.retain(|l| l.get(mk).is_none_or(|k| !gone.contains(k)));
    }
    if replace {
        live = std::mem::take(&mut regular);
    }
    let mut merged = live.clone();
    let items = meta.node.items();
    // The first merged item with each key; items without one are never matched.
    let mut at: HashMap<HashedKey<'_>, usize, KeyedState> = HashMap::default();
    for (p, m) in live.iter().enumerate() {
        if let Some(k) = m.get(mk) {
            at.entry(HashedKey(k)).or_insert(p);
        }
    }
    for (i, item) in regular.iter().enumerate() {
        let (map, key) = keyed(item, mk, path, i)?;
        match at.get(&HashedKey(key)) {
            Some(&p) => {
                let here = path.item(Some(mk), item, i);
                let target = match std::mem::take(&mut merged[p]) {
                    Value::Object(t) => t,
                    _ => Map::new(),
                };
                merged[p] = merge_map(target, map, items, &here)?;
            }
            None => {
                at.insert(HashedKey(key), merged.len());
                merged.push(item.clone());
            }
        }
    }
    let (in_patch, others) = partition(merged, &regular, Some(mk), path)?;
    normalize(in_patch, others, &regular, &live, Some(mk), path)
}

/// The identity an item is matched by: its merge key's value, or itself.
fn identity<'v>(item: &'v Value, mk: Option<&str>) -> Option<&'v Value> {
    match mk {
        Some(k) => item.get(k),
        None => Some(item),
    }
}

/// The first position of each identity in a list (see [`identity`]): what upstream finds by
/// linear search, in O(1).
struct Positions<'v> {
    mk: Option<&'v str>,
    first: HashMap<HashedKey<'v>, usize, KeyedState>,
    /// The first item without the merge key.
    first_without: Option<usize>,
}

impl<'v> Positions<'v> {
    fn new(list: &'v [Value], mk: Option<&'v str>) -> Positions<'v> {
        let mut first = HashMap::with_capacity_and_hasher(list.len(), KeyedState::default());
        let mut first_without = None;
        for (p, item) in list.iter().enumerate() {
            match identity(item, mk) {
                Some(id) => {
                    first.entry(HashedKey(id)).or_insert(p);
                }
                None => {
                    first_without.get_or_insert(p);
                }
            }
        }
        Positions {
            mk,
            first,
            first_without,
        }
    }

    fn of(&self, item: &Value) -> Option<usize> {
        match identity(item, self.mk) {
            Some(id) => self.first.get(&HashedKey(id)).copied(),
            None => self.first_without,
        }
    }
}

/// Splits `items` into those present in `by` and the others, keeping their order.
fn partition(
    items: Vec<Value>,
    by: &[Value],
    mk: Option<&str>,
    path: &Path<'_>,
) -> Result<(Vec<Value>, Vec<Value>), PatchError> {
    let mut present = Vec::new();
    let mut others = Vec::new();
    let by = Positions::new(by, mk);
    for (i, item) in items.into_iter().enumerate() {
        if let Some(k) = mk {
            keyed(&item, k, path, i)?;
        }
        if by.of(&item).is_some() {
            present.push(item);
        } else {
            others.push(item);
        }
    }
    Ok((present, others))
}

/// Orders the patch items by `patch_order` and the others by `base_order`, then interleaves
/// them (upstream `normalizeElementOrder` and `mergeSortedSlice`).
fn normalize(
    patch_items: Vec<Value>,
    others: Vec<Value>,
    patch_order: &[Value],
    base_order: &[Value],
    mk: Option<&str>,
    path: &Path<'_>,
) -> Result<Vec<Value>, PatchError> {
    let right = sort_by_order(patch_items, patch_order, mk, path)?;
    let left = sort_by_order(others, base_order, mk, path)?;
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut left = left.into_iter().peekable();
    let mut right = right.into_iter().peekable();
    let base = Positions::new(base_order, mk);
    loop {
        let take_left = match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(l), Some(r)) => matches!(
                (base.of(l), base.of(r)),
                (Some(li), Some(ri)) if li < ri
            ),
        };
        let next = if take_left { left.next() } else { right.next() };
        out.extend(next);
    }
    Ok(out)
}

/// Stable sort by position in `order`; for objects, `$patch: delete` items go last.
fn sort_by_order(
    items: Vec<Value>,
    order: &[Value],
    mk: Option<&str>,
    path: &Path<'_>,
) -> Result<Vec<Value>, PatchError> {
    let mut deletes = Vec::new();
    let mut keep = Vec::with_capacity(items.len());
    if let Some(k) = mk {
        for (i, item) in items.iter().chain(order).enumerate() {
            keyed(item, k, path, i)?;
        }
        for item in items {
            if item.get(PATCH).and_then(Value::as_str) == Some("delete") {
                deletes.push(item);
            } else {
                keep.push(item);
            }
        }
    } else {
        keep = items;
    }
    let order = Positions::new(order, mk);
    keep.sort_by_cached_key(|item| order.of(item).unwrap_or(usize::MAX));
    keep.extend(deletes);
    Ok(keep)
}
