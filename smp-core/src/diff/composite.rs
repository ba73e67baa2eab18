//! Creating patches for lists with recommended (multi-field) merge keys.
//!
//! Such a list is diffed like any list merged by key, with the item's identity — its
//! recommended keys that have a value — as the key: items are tagged with their identity
//! under a private member ([`id`]) that serves as the merge key for the whole computation
//! (two-way, three-way merging of patches, conflict detection), and [`finish`] turns each tag
//! in the created patch into the identity's fields plus `$patchMergeKey` listing every
//! recommended key, as the proposal asks. A change of a key field changes the identity, so it
//! comes out as `$patch: delete` of the old item plus the new item.
//!
//! Lists whose recommended keys "moved" there (no merge strategy: Taints, Tolerations) keep
//! being sent whole when they change, so that a server that ignores the directive (and
//! replaces the list) gets the same result; the items carry `$patchMergeKey` (and a new server
//! merges them) only when that is equivalent: no item of the original disappears.

use serde_json::Value;

use crate::apply::order::KeyIndex;

use crate::apply::composite::identity;
use crate::apply::directive::PATCH_MERGE_KEY;
use crate::schema::{FieldMeta, Node, Str};

/// The name of the member holding an item's identity while a patch is computed; [`finish`]
/// removes every member of that name from the patch.
///
/// JSON allows any member name, so a fixed name could be in a document, and its member would
/// vanish from the patch. The name ends with a random number drawn once per process (from
/// std's `RandomState`, as the keyed hashes are): a document cannot hold it unless its author
/// guesses 64 random bits.
pub(crate) fn id() -> &'static str {
    static ID: std::sync::OnceLock<Box<str>> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        use std::hash::BuildHasher;
        let nonce = std::collections::hash_map::RandomState::new().hash_one(0u8);
        format!("\u{0}smp:identity:{nonce:016x}").into_boxed_str()
    })
}

/// Whether member `meta` is diffed by identity.
pub(crate) fn by_identity(meta: &FieldMeta<'_>) -> bool {
    meta.strategy.merges_lists() && !meta.recommended.is_empty()
}

/// `meta` with the identity as merge key, for lists diffed by identity.
pub(crate) fn effective(meta: FieldMeta<'_>) -> FieldMeta<'_> {
    if by_identity(&meta) {
        FieldMeta {
            merge_key: Some(id()),
            ..meta
        }
    } else {
        meta
    }
}

/// The list with each object item tagged with its identity; `None` when an item is not an
/// object (the list is then diffed as it is, and fails or not as any list does).
/// `directive`: whether [`finish`] puts `$patchMergeKey` on the created items (a composite
/// identity of the schema's own needs only the key fields).
pub(crate) fn tag(list: &[Value], keys: &[Str], directive: bool) -> Option<Vec<Value>> {
    TAGGED.with(|n| n.set(n.get().wrapping_add(1)));
    list.iter()
        .map(|item| {
            let Value::Object(map) = item else {
                return None;
            };
            let mut tagged = map.clone();
            tagged.insert(id().to_owned(), tag_value(item, keys, directive));
            Some(Value::Object(tagged))
        })
        .collect()
}

/// `[keys, identity]`: what [`finish`] needs to write the item's key fields and directive
/// (`keys` is `null` when no directive is wanted).
fn tag_value(item: &Value, keys: &[Str], directive: bool) -> Value {
    let names = if directive {
        Value::Array(keys.iter().map(|k| Value::String(k.to_string())).collect())
    } else {
        Value::Null
    };
    Value::Array(vec![names, identity(item, keys)])
}

thread_local! {
    /// How many lists this thread has tagged: a patch computed while the count stayed the same
    /// holds no tag, and [`Tagging::finish`] need not walk it.
    static TAGGED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The tagging done while one patch is computed (on one thread, as the engine runs).
pub(crate) struct Tagging(u64);

impl Tagging {
    pub(crate) fn start() -> Tagging {
        Tagging(TAGGED.with(std::cell::Cell::get))
    }

    /// [`finish`], when a list was tagged since [`Tagging::start`].
    pub(crate) fn finish(self, patch: &mut Value) {
        if TAGGED.with(std::cell::Cell::get) != self.0 {
            finish(patch);
        }
    }
}

/// Replaces every identity tag in a created patch by the identity's fields and
/// `$patchMergeKey`.
fn finish(patch: &mut Value) {
    match patch {
        Value::Object(map) => {
            // The tag's name starts with NUL, so in a sorted map it can only be among the
            // first keys: a map whose first key does not start so has none, found without a
            // search.
            let may_hold = !crate::json_text::maps_are_sorted()
                || map.keys().next().is_some_and(|k| k.starts_with('\u{0}'));
            let tag = if may_hold { map.remove(id()) } else { None };
            if let Some(Value::Array(mut tag)) = tag {
                if let (Some(Value::Object(id)), Some(keys)) = (tag.pop(), tag.pop()) {
                    for (k, v) in id {
                        map.entry(k).or_insert(v);
                    }
                    if !keys.is_null() {
                        map.insert(PATCH_MERGE_KEY.to_owned(), keys);
                    }
                }
            }
            map.values_mut().for_each(finish);
        }
        Value::Array(items) => items.iter_mut().for_each(finish),
        _ => {}
    }
}

/// A changed list with moved recommended keys, sent whole: its items carry `$patchMergeKey`
/// when merging them gives what replacing the list gives: identities are distinct in both
/// lists, every original identity is still there, and merging each modified item into its
/// original gives the modified item (nothing is removed from it).
pub(crate) fn whole(
    original: &[Value],
    modified: &[Value],
    keys: &[Str],
    items: Node<'_>,
) -> Value {
    let ids = |list: &[Value]| -> Option<Vec<Value>> {
        list.iter()
            .map(|v| v.is_object().then(|| tag_value(v, keys, true)))
            .collect()
    };
    let mergeable = match (ids(original), ids(modified)) {
        (Some(old), Some(new)) => {
            let new_index = KeyIndex::new(new.iter().collect());
            // Apply refuses to merge into a live list whose identities repeat (ambiguous).
            !new_index.has_duplicates()
                && !KeyIndex::new(old.iter().collect()).has_duplicates()
                && old.iter().zip(original).all(|(id, o)| {
                    new_index.position(id).is_some_and(|p| {
                        crate::apply::apply(o, &modified[p], items).is_ok_and(|m| m == modified[p])
                    })
                })
        }
        _ => false,
    };
    if !mergeable {
        return Value::Array(modified.to_vec());
    }
    let names: Vec<Value> = keys.iter().map(|k| Value::String(k.to_string())).collect();
    Value::Array(
        modified
            .iter()
            .map(|item| {
                let mut item = item.clone();
                if let Value::Object(map) = &mut item {
                    map.insert(PATCH_MERGE_KEY.to_owned(), Value::Array(names.clone()));
                }
                item
            })
            .collect(),
    )
}
