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

use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};

use serde_json::{Map, Value};

use crate::error::{PatchError, kind_of};
use crate::hash::{HashedKey, KeyedState};
use crate::schema::FieldMeta;

use super::clean::{appended_item, verbatim};
use super::directive::{self, PATCH, PATCH_MERGE_KEY, PatchOp};
use super::object;
use super::order::{KeyIndex, permute, settle};
use super::path::Path;

/// The most fields `$patchMergeKey` may list. Identities of real lists have two to four
/// (`port,protocol`; a device's `driver,device,pool,shareID`); the bound keeps matching linear:
/// patch items whose keys are `null` (wildcards) need an index per set of wildcards, and there
/// are at most 2^8 of those.
const MAX_KEYS: usize = 8;

/// The keys a list patch names with `$patchMergeKey`, or `None` when it does not use the
/// directive. `order` is the list's `$setElementOrder`, if any.
///
/// A list whose schema declares its identity ([`FieldMeta::composite`], a CRD's
/// `x-kubernetes-list-map-keys` of several fields) is merged by those keys whether or not the
/// patch carries the directive; a directive there must name the same keys.
pub(crate) fn keys<'p>(
    patch: Option<&'p [Value]>,
    order: Option<&'p [Value]>,
    meta: FieldMeta<'p>,
    path: &Path<'_>,
) -> Result<Option<Vec<&'p str>>, PatchError> {
    let patch = patch.unwrap_or(&[]);
    let order = order.unwrap_or(&[]);
    let carries = |v: &Value| {
        v.as_object()
            .is_some_and(|m| super::members::get(m, PATCH_MERGE_KEY).is_some())
    };
    let declared = meta.composite && meta.strategy.merges_lists();
    if !patch.iter().chain(order).any(carries) {
        return Ok(declared.then(|| meta.recommended.iter().map(|k| &**k).collect()));
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
    if declared {
        let mut named = keys.clone();
        let mut own: Vec<&str> = meta.recommended.iter().map(|k| &**k).collect();
        named.sort_unstable();
        own.sort_unstable();
        if named != own {
            return Err(bad(
                path.index(0).field(PATCH_MERGE_KEY),
                "the list's own keys (x-kubernetes-list-map-keys), or no directive",
            ));
        }
    }
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
    if names.len() > MAX_KEYS {
        return Err(bad("a list of at most 8 field names"));
    }
    let mut sorted = names.clone();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
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

/// An item's identity as an index key: its values at the listed keys, in their order, `null`
/// where absent or `null`. Equal exactly when [`identity`]s are, and cheaper to build and hash
/// (no field names); [`identity`] is the form shown in messages and sent in patches.
pub(crate) fn identity_key<K: AsRef<str>>(item: &Value, keys: &[K]) -> Value {
    Value::Array(
        keys.iter()
            .map(|k| item.get(k.as_ref()).cloned().unwrap_or(Value::Null))
            .collect(),
    )
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

/// Finds the items a patch item names without comparing it with each.
///
/// A patch item names an item when they agree on every listed key the patch item does not set
/// to `null`: so, per set of such wildcard keys (a bit mask), the items are indexed by the hash
/// of their values at the other keys, and a lookup checks the few candidates with [`matches`].
/// The index of a mask is built on first use; items added or changed later are indexed in every
/// mask built so far. With at most [`MAX_KEYS`] keys there are at most 2^8 masks, each O(n).
struct Matcher<'k> {
    keys: &'k [&'k str],
    /// How many items are indexed (positions `0..len` of the list).
    len: usize,
    masks: HashMap<u16, Buckets>,
    state: KeyedState,
}

/// One mask's index: chains of positions per hash, in an arena (no allocation per bucket).
/// The hashes are keyed SipHash outputs, which nobody can steer, so the table itself need not
/// hash them again.
#[derive(Default)]
struct Buckets {
    head: HashMap<u64, usize, BuildHasherDefault<Prehashed>>,
    /// `(position, next entry)`, `usize::MAX` ending a chain.
    entries: Vec<(usize, usize)>,
}

impl Buckets {
    fn add(&mut self, hash: u64, position: usize) {
        let entry = self.entries.len();
        let next = self.head.insert(hash, entry).unwrap_or(usize::MAX);
        self.entries.push((position, next));
    }

    fn positions(&self, hash: u64, out: &mut Vec<usize>) {
        let mut e = self.head.get(&hash).copied().unwrap_or(usize::MAX);
        while let Some(&(p, next)) = self.entries.get(e) {
            out.push(p);
            e = next;
        }
    }
}

/// The identity hash of a `u64` that already is a keyed hash.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = i;
    }
}

impl<'k> Matcher<'k> {
    fn new(keys: &'k [&'k str]) -> Matcher<'k> {
        Matcher {
            keys,
            len: 0,
            masks: HashMap::new(),
            state: KeyedState::default(),
        }
    }

    /// The hash of an item's values at the keys `mask` does not cover (`null` and absent
    /// alike).
    fn hash(&self, item: &Value, mask: u16) -> u64 {
        self.hash_with(|k| item.get(k), mask)
    }

    fn hash_with<'v>(&self, get: impl Fn(&str) -> Option<&'v Value>, mask: u16) -> u64 {
        let mut h = self.state.build_hasher();
        for (i, k) in self.keys.iter().enumerate() {
            if mask & (1 << i) == 0 {
                match get(k).filter(|v| !v.is_null()) {
                    Some(v) => {
                        h.write_u8(1);
                        HashedKey(v).hash(&mut h);
                    }
                    None => h.write_u8(0),
                }
            }
        }
        h.finish()
    }

    fn extend(&mut self, items: &[Value]) {
        for (p, item) in items.iter().enumerate() {
            self.push(p, item);
        }
    }

    /// Indexes a new item at position `p` (the next one).
    fn push(&mut self, p: usize, item: &Value) {
        self.changed(p, item);
        self.len = self.len.max(p + 1);
    }

    /// Indexes item `p` again after it changed. Its old entries stay: every candidate is
    /// checked with [`matches`] anyway, so a stale entry costs one check, and removing it
    /// could cost a scan of its bucket.
    fn changed(&mut self, p: usize, item: &Value) {
        let masks: Vec<u16> = self.masks.keys().copied().collect();
        for m in masks {
            let h = self.hash(item, m);
            if let Some(buckets) = self.masks.get_mut(&m) {
                buckets.add(h, p);
            }
        }
    }

    /// The positions of the items `patch` names, in order, into `out`.
    fn find(&mut self, patch: &Map<String, Value>, items: &[Value], out: &mut Vec<usize>) {
        out.clear();
        let mut mask = 0u16;
        for (i, k) in self.keys.iter().enumerate() {
            if patch.get(*k).is_some_and(Value::is_null) {
                mask |= 1 << i;
            }
        }
        if !self.masks.contains_key(&mask) {
            let mut buckets = Buckets::default();
            for (p, item) in items.iter().enumerate().take(self.len) {
                buckets.add(self.hash(item, mask), p);
            }
            self.masks.insert(mask, buckets);
        }
        // The patch item's own values hash like an item's: `null` ones are masked.
        let h = self.hash_with(|k| patch.get(k), mask);
        if let Some(buckets) = self.masks.get(&mask) {
            buckets.positions(h, out);
        }
        out.retain(|&p| {
            items
                .get(p)
                .is_some_and(|item| matches(patch, item, self.keys))
        });
        out.sort_unstable();
        out.dedup();
    }
}

/// The patch items as objects, once the depth is checked and every live item is an object.
fn objects<'p>(
    target: &[Value],
    patch: &'p [Value],
    keys: &[&str],
    path: &Path<'_>,
) -> Result<Vec<&'p Map<String, Value>>, PatchError> {
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
    Ok(patch.iter().filter_map(Value::as_object).collect())
}

/// Merges `patch` into `target` with the identity `keys`.
pub(crate) fn merge(
    target: &mut Vec<Value>,
    patch: &[Value],
    keys: &[&str],
    meta: FieldMeta<'_>,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    let items = objects(target, patch, keys, path)?;

    // Directive items first: deletions act on the live list, `replace` discards it.
    let mut replace = false;
    let mut regular: Vec<usize> = Vec::with_capacity(items.len());
    let mut doomed: Vec<usize> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Some(op) = item.get(PATCH) else {
            regular.push(i);
            continue;
        };
        match directive::patch_op(op, &path.index(i).field(PATCH))? {
            PatchOp::Delete => doomed.push(i),
            PatchOp::Replace => replace = true,
        }
    }
    if !doomed.is_empty() {
        // Every live item some deletion names goes.
        let mut index = Matcher::new(keys);
        index.extend(target);
        let mut gone = vec![false; target.len()];
        let mut found = Vec::new();
        for &i in &doomed {
            index.find(items[i], target, &mut found);
            for &p in &found {
                gone[p] = true;
            }
        }
        let mut gone = gone.into_iter();
        super::list::retain_disposing(target, |_| !gone.next().unwrap_or(false));
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
        crate::deep::dispose(Value::Array(std::mem::replace(target, out)));
        regular.clear();
    }

    let live_len = target.len();
    let live_ids: Vec<Value> = target.iter().map(|v| identity_key(v, keys)).collect();
    let mut index = Matcher::new(keys);
    index.extend(target);
    let mut positions: Vec<Option<usize>> = Vec::with_capacity(regular.len());
    let mut found = Vec::new();
    for &i in &regular {
        let item = items[i];
        let here = path.index(i);
        index.find(item, target, &mut found);
        let candidates: Vec<usize> = found.iter().copied().filter(|&p| p < live_len).collect();
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
            .or_else(|| found.first().copied());
        match found {
            Some(pos) => {
                let item: Map<String, Value> = item
                    .iter()
                    .filter(|(k, _)| *k != PATCH_MERGE_KEY)
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                object::merge(&mut target[pos], &item, meta.node.items(), &here)?;
                index.changed(pos, &target[pos]);
            }
            None => {
                if let Some(content) = appended_item(&patch[i], &here)? {
                    index.push(target.len(), &content);
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
    let wanted_ids: Vec<Value> = regular
        .iter()
        .map(|&i| identity_key(&patch[i], keys))
        .collect();
    let ids: Vec<Value> = target.iter().map(|v| identity_key(v, keys)).collect();
    let perm = settle(
        &ids.iter().collect::<Vec<_>>(),
        None,
        &KeyIndex::new(wanted_ids.iter().collect()),
        &live,
    );
    permute(target, &perm);
    Ok(())
}

/// Orders a merged list by its `$setElementOrder` list, comparing identities (`live_ids` are
/// the live items' [`identity_key`]s).
pub(crate) fn order_by(
    merged: &mut Vec<Value>,
    order: &[Value],
    live_ids: &[Value],
    keys: &[&str],
) {
    let wanted: Vec<Value> = order.iter().map(|v| identity_key(v, keys)).collect();
    let ids: Vec<Value> = merged.iter().map(|v| identity_key(v, keys)).collect();
    let perm = settle(
        &ids.iter().collect::<Vec<_>>(),
        None,
        &KeyIndex::new(wanted.iter().collect()),
        &KeyIndex::new(live_ids.iter().collect()),
    );
    permute(merged, &perm);
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Map, Value, json};

    use super::*;
    use crate::apply::order::{KeyIndex, permute, settle};

    /// The merge before matching was indexed: every patch item compared with every item. The
    /// indexed [`merge`] must give exactly what it gives.
    fn reference_merge(
        target: &mut Vec<Value>,
        patch: &[Value],
        keys: &[&str],
        meta: FieldMeta<'_>,
        path: &Path<'_>,
    ) -> Result<(), PatchError> {
        let items = objects(target, patch, keys, path)?;

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

    fn schema() -> crate::Schema {
        let doc = json!({"definitions": {
            "S": {"properties": {"ports": {"type": "array", "items": {"$ref": "#/definitions/P"}}}},
            "P": {"properties": {"port": {"type": "integer"}, "protocol": {"type": "string"},
                                 "name": {"type": "string"}}}}});
        crate::Schema::from_openapi(&doc, "S").expect("schema")
    }

    /// A value for a listed key: absent, `null`, or one of a few values (so that items collide).
    fn key_value() -> impl Strategy<Value = Option<Value>> {
        prop_oneof![
            1 => Just(None),
            1 => Just(Some(Value::Null)),
            4 => (0i64..3).prop_map(|v| Some(json!(v))),
        ]
    }

    fn item(live: bool) -> impl Strategy<Value = Value> {
        (key_value(), key_value(), 0u8..3, 0u8..8).prop_map(move |(port, protocol, name, op)| {
            let mut m = Map::new();
            if let Some(v) = port {
                m.insert("port".into(), v);
            }
            if let Some(v) = protocol {
                m.insert("protocol".into(), v);
            }
            m.insert("name".into(), json!(format!("n{name}")));
            if !live {
                m.insert("$patchMergeKey".into(), json!(["port", "protocol"]));
                match op {
                    0 => {
                        m.insert("$patch".into(), json!("delete"));
                    }
                    1 if name == 0 => {
                        m.insert("$patch".into(), json!("replace"));
                    }
                    _ => {}
                }
            }
            Value::Object(m)
        })
    }

    proptest! {
        #[test]
        fn indexed_matching_equals_comparing_every_pair(
            live in prop::collection::vec(item(true), 0..8),
            patch in prop::collection::vec(item(false), 1..6),
        ) {
            let schema = schema();
            let meta = schema.root().field("ports");
            let keys = ["port", "protocol"];
            let path = Path::root();
            let mut fast = live.clone();
            let mut slow = live.clone();
            let a = merge(&mut fast, &patch, &keys, meta, &path);
            let b = reference_merge(&mut slow, &patch, &keys, meta, &path);
            match (a, b) {
                (Ok(()), Ok(())) => prop_assert_eq!(fast, slow),
                (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
                (a, b) => prop_assert!(false, "indexed {:?}, reference {:?}", a, b),
            }
        }
    }
}
