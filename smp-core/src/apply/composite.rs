//! Lists merged by multi-field keys: the `$patchMergeKey` directive.
//!
//! The proposal ("Support Sending Merge Key in the Patch by Clients") lets a client name, on
//! each item of a list patch, the fields that identify the item. No implementation of SMP ever
//! shipped it, so where the proposal is silent the rules here are ours, chosen so that a
//! client can always say exactly what it means and the server never guesses:
//!
//! - The directive is on every object item of the list patch, with the same keys (and may be on
//!   the items of the list's `$setElementOrder`). The field's default merge key, if it has one,
//!   must be among them. With the directive the list merges, whatever its declared strategy.
//! - A patch item matches a live item when, for each listed key, the values are equal, or the
//!   key is absent from both (a listed key missing from the patch matches only live items
//!   without it). A listed key whose patch value is `null` matches any value and is then
//!   removed from the matched item (the proposal's "delete a field which is a merge key").
//! - Merging into more than one match is an error naming the candidates
//!   ([`PatchError::AmbiguousMergeKey`]); no match adds the item. `$patch: delete` removes every
//!   match, as a single-key deletion removes every item with the key.
//! - The result is ordered as a single-key list is (see [`super::order`]), with an item's
//!   identity (its listed keys and their values) in place of the key's value. Upstream's
//!   emulation of Go slice aliasing under `$setElementOrder` does not apply: there is no
//!   upstream behaviour to match.
//! - `$patchMergeKey` never reaches the result.

use serde_json::{Map, Value};

use crate::error::{PatchError, kind_of};
use crate::schema::FieldMeta;

use super::clean::{appended_item, verbatim};
use super::directive::{self, PATCH, PATCH_MERGE_KEY, PatchOp};
use super::object;
use super::order::{KeyIndex, permute, settle};
use super::path::Path;

/// The keys a list patch names with `$patchMergeKey`, or `None` when it does not use the
/// directive. `order` is the list's `$setElementOrder`, if any.
pub(crate) fn keys<'p>(
    patch: Option<&'p [Value]>,
    order: Option<&'p [Value]>,
    meta: FieldMeta<'_>,
    path: &Path<'_>,
) -> Result<Option<Vec<&'p str>>, PatchError> {
    let patch = patch.unwrap_or(&[]);
    let order = order.unwrap_or(&[]);
    let carries = |v: &Value| v.get(PATCH_MERGE_KEY).is_some();
    if !patch.iter().chain(order).any(carries) {
        return Ok(None);
    }
    let bad = |at: Path<'_>, expected: &'static str| PatchError::BadDirective {
        path: at.to_json_path(),
        directive: PATCH_MERGE_KEY.to_owned(),
        expected,
    };
    let mut keys: Option<Vec<&'p str>> = None;
    for (i, item) in patch.iter().enumerate() {
        let at = path.index(i);
        let Value::Object(map) = item else {
            return Err(PatchError::NotAnObjectItem {
                path: at.to_json_path(),
                key: PATCH_MERGE_KEY.to_owned(),
                found: kind_of(item),
            });
        };
        let Some(value) = map.get(PATCH_MERGE_KEY) else {
            return Err(bad(
                at,
                "a list of field names on every item of the list, or on none",
            ));
        };
        agree(&mut keys, value, &at.field(PATCH_MERGE_KEY))?;
    }
    for (i, item) in order.iter().enumerate() {
        if let Some(value) = item.get(PATCH_MERGE_KEY) {
            agree(&mut keys, value, &path.index(i).field(PATCH_MERGE_KEY))?;
        }
    }
    let Some(keys) = keys else {
        return Ok(None);
    };
    if let Some(default) = meta.merge_key {
        if !keys.contains(&default) {
            return Err(bad(
                path.index(0).field(PATCH_MERGE_KEY),
                "a list of field names that includes the field's merge key",
            ));
        }
    }
    Ok(Some(keys))
}

/// Reads one `$patchMergeKey` value and checks it names the same keys as the others.
fn agree<'p>(
    keys: &mut Option<Vec<&'p str>>,
    value: &'p Value,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    let bad = |expected: &'static str| PatchError::BadDirective {
        path: path.to_json_path(),
        directive: PATCH_MERGE_KEY.to_owned(),
        expected,
    };
    let Value::Array(items) = value else {
        return Err(bad("a list of field names"));
    };
    let names: Vec<&str> = items
        .iter()
        .map(Value::as_str)
        .collect::<Option<_>>()
        .ok_or_else(|| bad("a list of field names"))?;
    if names.is_empty() {
        return Err(bad("a non-empty list of field names"));
    }
    if names
        .iter()
        .enumerate()
        .any(|(i, n)| names[..i].contains(n))
    {
        return Err(bad("a list of distinct field names"));
    }
    match keys {
        None => *keys = Some(names),
        Some(first) if *first == names => {}
        Some(_) => {
            return Err(bad(
                "the same list of field names on every item of the list",
            ));
        }
    }
    Ok(())
}

/// The identity of an item: its listed keys that have a non-null value. Patch creation
/// (`diff::composite`) identifies items the same way.
pub(crate) fn identity<K: AsRef<str>>(item: &Value, keys: &[K]) -> Value {
    let mut id = Map::new();
    for k in keys {
        let k = k.as_ref();
        if let Some(v) = item.get(k).filter(|v| !v.is_null()) {
            id.insert(k.to_owned(), v.clone());
        }
    }
    Value::Object(id)
}

/// Whether patch item `patch` names live item `live` (see the module documentation).
fn matches(patch: &Map<String, Value>, live: &Value, keys: &[&str]) -> bool {
    keys.iter().all(|&k| {
        let have = live.get(k).filter(|v| !v.is_null());
        match patch.get(k) {
            Some(Value::Null) => true,
            Some(want) => have == Some(want),
            None => have.is_none(),
        }
    })
}

/// Merges `patch` into `target` with the identity `keys`.
pub(crate) fn merge(
    target: &mut Vec<Value>,
    patch: &[Value],
    keys: &[&str],
    meta: FieldMeta<'_>,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    path.check_depth()?;
    for (i, item) in target.iter().enumerate() {
        if !item.is_object() {
            return Err(PatchError::NotAnObjectItem {
                path: path.index(i).to_json_path(),
                key: keys.join(","),
                found: kind_of(item),
            });
        }
    }
    // `keys` checked that every patch item is an object.
    let items: Vec<&Map<String, Value>> = patch.iter().filter_map(Value::as_object).collect();

    // Directive items first: deletions act on the live list, `replace` discards it.
    let mut replace = false;
    let mut regular: Vec<usize> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let Some(op) = item.get(PATCH) else {
            regular.push(i);
            continue;
        };
        match directive::patch_op(op, &path.index(i).field(PATCH))? {
            PatchOp::Delete => target.retain(|live| !matches(item, live, keys)),
            PatchOp::Replace => replace = true,
        }
    }
    if replace {
        let mut out = Vec::with_capacity(regular.len());
        for &i in &regular {
            let mut item = verbatim(&patch[i], &path.index(i))?;
            if let Value::Object(map) = &mut item {
                map.remove(PATCH_MERGE_KEY);
            }
            out.push(item);
        }
        *target = out;
        regular.clear();
    }

    let live_len = target.len();
    let live_ids: Vec<Value> = target.iter().map(|v| identity(v, keys)).collect();
    let mut positions: Vec<Option<usize>> = Vec::with_capacity(regular.len());
    for &i in &regular {
        let item = items[i];
        let here = path.index(i);
        let candidates: Vec<usize> = (0..live_len)
            .filter(|&p| matches(item, &target[p], keys))
            .collect();
        if candidates.len() > 1 {
            return Err(PatchError::AmbiguousMergeKey {
                path: path.to_json_path(),
                item: identity(&patch[i], keys).to_string(),
                keys: keys.iter().map(|k| (*k).to_owned()).collect(),
                candidates,
            });
        }
        // A repeated identity in the patch merges into the item its first occurrence added.
        let found = candidates
            .first()
            .copied()
            .or_else(|| (live_len..target.len()).find(|&p| matches(item, &target[p], keys)));
        match found {
            Some(pos) => {
                let item: Map<String, Value> = item
                    .iter()
                    .filter(|(k, _)| *k != PATCH_MERGE_KEY)
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                object::merge(&mut target[pos], &item, meta.node.items(), &here)?;
            }
            None => {
                if let Some(content) = appended_item(&patch[i], &here)? {
                    target.push(content);
                }
            }
        }
        positions.push(found);
    }

    // Nothing moves when every patch item updated a distinct live item, in live order.
    let mut last = None;
    let in_live_order = positions.iter().all(|p| match (*p, last) {
        (Some(p), Some(l)) if p <= l => false,
        (Some(p), _) if p < live_len => {
            last = Some(p);
            true
        }
        _ => false,
    });
    let live = KeyIndex::new(live_ids.iter().collect());
    if in_live_order && !live.has_duplicates() {
        return Ok(());
    }
    let wanted_ids: Vec<Value> = regular.iter().map(|&i| identity(&patch[i], keys)).collect();
    let ids: Vec<Value> = target.iter().map(|v| identity(v, keys)).collect();
    let perm = settle(
        &ids.iter().collect::<Vec<_>>(),
        None,
        &KeyIndex::new(wanted_ids.iter().collect()),
        &live,
    );
    permute(target, &perm);
    Ok(())
}

/// Orders a merged list by its `$setElementOrder` list, comparing identities.
pub(crate) fn order_by(
    merged: &mut Vec<Value>,
    order: &[Value],
    live_ids: &[Value],
    keys: &[&str],
) {
    let wanted: Vec<Value> = order.iter().map(|v| identity(v, keys)).collect();
    let ids: Vec<Value> = merged.iter().map(|v| identity(v, keys)).collect();
    let perm = settle(
        &ids.iter().collect::<Vec<_>>(),
        None,
        &KeyIndex::new(wanted.iter().collect()),
        &KeyIndex::new(live_ids.iter().collect()),
    );
    permute(merged, &perm);
}
