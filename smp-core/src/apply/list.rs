//! Merging lists whose strategy is `merge`.
//!
//! Objects merge by merge key (each patch item updates the first live item with the same key
//! or is added; `$patch: delete` items remove every match; a `$patch: replace` item makes the
//! other patch items the whole list). Primitives form a set: the union, de-duplicated. The
//! order is then settled as [`super::order`] describes.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::deep::dispose;
use crate::error::{PatchError, kind_of};
use crate::hash::{HashedKey, KeyedState};
use crate::schema::FieldMeta;

use super::clean::{appended_item, verbatim};
use super::directive::{self, PATCH, PatchOp};
use super::object;
use super::order::{KeyIndex, LINEAR_LIMIT, permute, same_key, settle};
use super::path::Path;

/// Upstream's idea of the live order when a `$setElementOrder` list is applied.
///
/// Upstream deletes list items by shifting the rest left inside the live list's storage and
/// appends new items into the slots that frees, while still reading the live order through the
/// old, full-length view of that storage. So after deleting `1` from `[1 2 4]` and adding `3`,
/// the "live order" it sorts by is `[2 4 3]`, and the result keeps `4` before `3`. Clients (and
/// the conformance corpus) see that order, so we reproduce it: this is the full-length view,
/// updated the same way as the list is.
pub(crate) struct LiveView {
    pub(crate) keys: Vec<Value>,
    len: usize,
}

impl LiveView {
    pub(crate) fn new(keys: Vec<Value>) -> LiveView {
        let len = keys.len();
        LiveView { keys, len }
    }

    /// Removes every match of each key in turn, as upstream's deletions do: each removal shifts
    /// the rest left, and the slot that falls off the end keeps the value it held, the last
    /// live key at that moment. Computed in one pass rather than by shifting: O(n + deletions).
    fn delete_all(&mut self, doomed: &[&Value]) {
        if doomed.is_empty() {
            return;
        }
        let live = &self.keys[..self.len];
        // Where each key occurs among the live slots, first occurrence first.
        let mut at: HashMap<HashedKey<'_>, Vec<usize>, KeyedState> =
            HashMap::with_capacity_and_hasher(live.len(), KeyedState::default());
        for (i, k) in live.iter().enumerate() {
            at.entry(HashedKey(k)).or_default().push(i);
        }
        let mut alive = vec![true; live.len()];
        let mut last = live.len().checked_sub(1);
        let mut len = live.len();
        let mut fallen: Vec<(usize, usize)> = Vec::new();
        for key in doomed {
            let Some(positions) = at.remove(&HashedKey(key)) else {
                continue;
            };
            for i in positions {
                // The slot that falls off keeps the last live key.
                if let Some(l) = last {
                    fallen.push((len - 1, l));
                }
                alive[i] = false;
                len -= 1;
                while let Some(l) = last.filter(|&l| !alive[l]) {
                    last = l.checked_sub(1);
                }
            }
        }
        let mut keys: Vec<Value> = live
            .iter()
            .zip(&alive)
            .filter(|(_, a)| **a)
            .map(|(k, _)| k.clone())
            .collect();
        // Slots from the new length up, as they fell off (the highest first).
        fallen.sort_unstable();
        keys.extend(fallen.into_iter().map(|(_, from)| self.keys[from].clone()));
        keys.extend(self.keys[self.len..].iter().cloned());
        self.keys = keys;
        self.len = len;
    }

    fn append(&mut self, key: &Value) {
        if let Some(slot) = self.keys.get_mut(self.len) {
            *slot = key.clone();
            self.len += 1;
        }
    }
}

/// Merges `patch` into `target` under a `merge` strategy. `view`, when given, follows the
/// list's storage as upstream's `$setElementOrder` handling sees it (see [`LiveView`]).
pub(crate) fn merge(
    target: &mut Vec<Value>,
    patch: &[Value],
    meta: FieldMeta<'_>,
    path: &Path<'_>,
    view: Option<&mut LiveView>,
) -> Result<(), PatchError> {
    path.check_depth()?;
    if target.is_empty() && patch.is_empty() {
        return Ok(());
    }
    if element_kind(target, patch, path)? != Kind::Object {
        merge_primitives(target, patch);
        return Ok(());
    }
    let Some(merge_key) = meta.merge_key else {
        return Err(PatchError::WrongType {
            path: path.to_json_path(),
            expected: "a declared merge key for a merged list of objects",
            found: "none in the schema",
        });
    };
    merge_objects(target, patch, merge_key, meta, path, view)
}

/// The merge keys of a live list's items, in order. Sized once: collecting into a `Result`
/// cannot know the length, and growing a long list's keys costs more than reading them.
fn live_keys_of<'v>(
    items: &'v [Value],
    merge_key: &str,
    path: &Path<'_>,
) -> Result<Vec<&'v Value>, PatchError> {
    let mut keys = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        keys.push(key_of(item, merge_key, &path.index(i))?);
    }
    Ok(keys)
}

/// The merge key's value of a list item.
pub(crate) fn key_of<'v>(
    item: &'v Value,
    merge_key: &str,
    path: &Path<'_>,
) -> Result<&'v Value, PatchError> {
    match item {
        Value::Object(map) => match super::members::get(map, merge_key) {
            // Keys are compared and copied whole: one deeper than the engine follows (a
            // document built in code) is refused rather than recursed into.
            Some(key) => {
                crate::deep::check_at(key, || path.field(merge_key).to_json_path())?;
                Ok(key)
            }
            None => Err(PatchError::MissingMergeKey {
                path: path.to_json_path(),
                key: merge_key.to_owned(),
            }),
        },
        other => Err(PatchError::NotAnObjectItem {
            path: path.to_json_path(),
            key: merge_key.to_owned(),
            found: kind_of(other),
        }),
    }
}

fn merge_objects(
    target: &mut Vec<Value>,
    patch: &[Value],
    merge_key: &str,
    meta: FieldMeta<'_>,
    path: &Path<'_>,
    mut view: Option<&mut LiveView>,
) -> Result<(), PatchError> {
    // Directive items first: deletions act on the live list, `replace` discards it.
    let mut replace = false;
    let mut regular: Vec<(usize, &Map<String, Value>)> = Vec::with_capacity(patch.len());
    let mut doomed: Vec<&Value> = Vec::new();
    for (i, item) in patch.iter().enumerate() {
        let Value::Object(map) = item else { continue };
        let Some(op) = super::members::get(map, PATCH) else {
            regular.push((i, map));
            continue;
        };
        let here = path.item(Some(merge_key), item, i);
        match directive::patch_op(op, &here.field(PATCH))? {
            PatchOp::Delete => doomed.push(key_of(item, merge_key, &here)?),
            PatchOp::Replace => replace = true,
        }
    }
    if !doomed.is_empty() {
        let gone = KeyIndex::new(doomed.clone());
        retain_disposing(target, |live| {
            live.get(merge_key).is_none_or(|k| !gone.contains(k))
        });
        if let Some(view) = view.as_deref_mut() {
            view.delete_all(&doomed);
        }
    }
    if replace {
        let replacement = regular
            .iter()
            .map(|&(i, _)| verbatim(&patch[i], &path.index(i)))
            .collect::<Result<_, _>>()?;
        dispose(Value::Array(std::mem::replace(target, replacement)));
        regular.clear();
    }

    if let [(i, item)] = regular[..] {
        if doomed.is_empty() && view.is_none() {
            if let Some((pos, live, key)) = single_match(target, &patch[i], merge_key, path, i)? {
                let here = path.keyed(merge_key, key);
                let same = object::same_scalar(live, key).then_some(merge_key);
                return object::merge_item(&mut target[pos], item, meta.node.items(), &here, same);
            }
        }
    }

    // Each patch item updates the first live item with its key, or is appended.
    let live_len = target.len();
    let mut wanted_keys: Vec<&Value> = Vec::with_capacity(regular.len());
    for &(i, _) in &regular {
        wanted_keys.push(key_of(
            &patch[i],
            merge_key,
            &path.item(None, &patch[i], i),
        )?);
    }
    let (matches, settled) = {
        let live_keys = live_keys_of(target, merge_key, path)?;
        let live = KeyIndex::new(live_keys);
        let matches: Vec<Option<usize>> = wanted_keys.iter().map(|k| live.position(k)).collect();
        // Nothing moves when every patch item updates a distinct live item, named in live
        // order, and no live key repeats: the ordering step would give the live order back.
        let mut last = None;
        let in_live_order = matches.iter().all(|m| match (*m, last) {
            (Some(p), Some(l)) if p <= l => false,
            (Some(p), _) => {
                last = Some(p);
                true
            }
            (None, _) => false,
        });
        (matches, in_live_order && !live.has_duplicates())
    };
    // Where each key the patch appends went, so that a repeated key in the patch merges into
    // the item its first occurrence appended.
    let mut appended: HashMap<HashedKey<'_>, usize, KeyedState> = HashMap::default();
    for ((&(i, item), key), found) in regular.iter().zip(&wanted_keys).zip(matches) {
        let here = path.keyed(merge_key, key);
        match found.or_else(|| appended.get(&HashedKey(key)).copied()) {
            Some(pos) => object::merge(&mut target[pos], item, meta.node.items(), &here)?,
            None => {
                if let Some(content) = appended_item(&patch[i], &here)? {
                    // Found again by the key the appended item holds (cleaning an item can drop
                    // a `null` key).
                    if content.get(merge_key) == Some(*key) {
                        appended.insert(HashedKey(key), target.len());
                    }
                    target.push(content);
                    if let Some(view) = view.as_deref_mut() {
                        view.append(key);
                    }
                }
            }
        }
    }
    if settled {
        return Ok(());
    }

    let perm = {
        let keys = live_keys_of(target, merge_key, path)?;
        let wanted = KeyIndex::new(wanted_keys);
        let live = KeyIndex::new(keys[..live_len].to_vec());
        settle(&keys, None, &wanted, &live)
    };
    permute(target, &perm);
    Ok(())
}

/// Where the one item of a patch list goes when the general merge would only update it in
/// place: a short live list whose keys are all distinct and one of which is the item's. The
/// general merge then leaves the order as it is, so the item is merged there, without the key
/// lists and indexes the general merge builds. `None` sends the caller the general way (it
/// reports the errors this finds as well, in the same order).
fn single_match<'t, 'v>(
    target: &'t [Value],
    item: &'v Value,
    merge_key: &str,
    path: &Path<'_>,
    i: usize,
) -> Result<Option<(usize, &'t Value, &'v Value)>, PatchError> {
    if target.len() > LINEAR_LIMIT {
        return Ok(None);
    }
    let wanted = key_of(item, merge_key, &path.item(None, item, i))?;
    let mut keys: [Option<&Value>; LINEAR_LIMIT] = [None; LINEAR_LIMIT];
    let mut found = None;
    for (j, live) in target.iter().enumerate() {
        let key = key_of(live, merge_key, &path.index(j))?;
        if keys[..j].iter().flatten().any(|seen| same_key(seen, key)) {
            return Ok(None);
        }
        keys[j] = Some(key);
        if found.is_none() && same_key(key, wanted) {
            found = Some((j, key, wanted));
        }
    }
    Ok(found)
}

/// `Vec::retain`, dropping what goes without recursion (see [`crate::deep`]).
pub(crate) fn retain_disposing(items: &mut Vec<Value>, mut keep: impl FnMut(&Value) -> bool) {
    // A stable partition in place: kept items move to the front in order.
    let mut kept = 0;
    for read in 0..items.len() {
        if keep(&items[read]) {
            items.swap(kept, read);
            kept += 1;
        }
    }
    items.drain(kept..).for_each(dispose);
}

/// Set union of primitives: live items, then new patch items, without duplicates (also
/// duplicates the live list already had), ordered as the patch and live lists say.
fn merge_primitives(target: &mut Vec<Value>, patch: &[Value]) {
    let live_len = target.len();
    let sources: Vec<usize> = {
        let all: Vec<&Value> = target.iter().chain(patch).collect();
        let first = KeyIndex::new(all.clone());
        let unique: Vec<usize> = (0..all.len())
            .filter(|&i| first.position(all[i]) == Some(i))
            .collect();
        let unique_refs: Vec<&Value> = unique.iter().map(|&i| all[i]).collect();
        let wanted = KeyIndex::new(patch.iter().collect());
        let live = KeyIndex::new(target.iter().collect());
        settle(&unique_refs, None, &wanted, &live)
            .into_iter()
            .map(|n| unique[n])
            .collect()
    };
    let mut out = Vec::with_capacity(sources.len());
    for s in sources {
        match s.checked_sub(live_len) {
            None => out.push(std::mem::take(&mut target[s])),
            Some(p) => out.push(patch[p].clone()),
        }
    }
    *target = out;
}

/// The JSON type of list items, as upstream distinguishes them (integers and floats differ).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Null,
    Bool,
    Int,
    Float,
    String,
    Object,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "boolean",
            Kind::Int => "integer",
            Kind::Float => "float",
            Kind::String => "string",
            Kind::Object => "object",
        }
    }
}

/// All items of both lists must share one kind; lists of lists are not supported.
fn element_kind(target: &[Value], patch: &[Value], path: &Path<'_>) -> Result<Kind, PatchError> {
    let mut seen: Option<Kind> = None;
    for item in target.iter().chain(patch) {
        let kind = match item {
            Value::Array(_) => {
                return Err(PatchError::ListOfLists {
                    path: path.to_json_path(),
                });
            }
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Number(n) if n.is_f64() => Kind::Float,
            Value::Number(_) => Kind::Int,
            Value::String(_) => Kind::String,
            Value::Object(_) => Kind::Object,
        };
        match seen {
            None => seen = Some(kind),
            Some(first) if first != kind => {
                return Err(PatchError::MixedList {
                    path: path.to_json_path(),
                    first: first.name(),
                    second: kind.name(),
                });
            }
            Some(_) => {}
        }
    }
    Ok(seen.unwrap_or(Kind::Null))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::LiveView;

    /// Upstream's deletions one at a time, as `LiveView::delete_all` must reproduce them: each
    /// match is removed by shifting the rest left, and the slot that falls off keeps its value.
    fn reference(keys: &[Value], len: usize, doomed: &[Value]) -> (Vec<Value>, usize) {
        let (mut keys, mut len) = (keys.to_vec(), len);
        for key in doomed {
            while let Some(i) = keys[..len].iter().position(|k| k == key) {
                for j in i..len - 1 {
                    keys[j] = keys[j + 1].clone();
                }
                len -= 1;
            }
        }
        (keys, len)
    }

    proptest! {
        #[test]
        fn batch_deletion_equals_one_at_a_time(
            live in prop::collection::vec(0u8..6, 0..12),
            doomed in prop::collection::vec(0u8..7, 0..6),
        ) {
            let keys: Vec<Value> = live.iter().map(|k| json!(k)).collect();
            let doomed: Vec<Value> = doomed.iter().map(|k| json!(k)).collect();
            let mut view = LiveView::new(keys.clone());
            view.delete_all(&doomed.iter().collect::<Vec<_>>());
            let (want, len) = reference(&keys, keys.len(), &doomed);
            prop_assert_eq!(&view.keys, &want);
            prop_assert_eq!(view.len, len);
        }
    }
}
