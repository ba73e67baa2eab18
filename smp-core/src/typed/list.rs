//! Typed lists.
//!
//! The native path covers what patches overwhelmingly do to a list merged by key: update some
//! items in place, naming each once, in live order. Then no item moves (see
//! [`crate::apply`]'s ordering rules: patch items keep their live slots when the patch lists
//! them in live order and no two live items share a key), and only the named items are
//! touched. Everything else — additions, deletions, `$setElementOrder`, replace lists,
//! malformed input — goes through the engine for this one list, which is exact by
//! construction.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::apply::Path;
use crate::error::PatchError;
use crate::hash::KeyedState;
use crate::schema::{Node, TypeDef};

use super::{Edit, KeyRef, Member, PatchField, fallback};

pub(super) fn plan<T: PatchField>(
    current: Option<&Vec<T>>,
    member: &Member<'_>,
    parent: Node<'static>,
    path: &Path<'_>,
) -> Result<Edit<Vec<T>>, PatchError> {
    match native(current, member, parent, path)? {
        Some(edit) => Ok(edit),
        None => fallback(current, member, parent, path),
    }
}

/// `Ok(None)`: not a case the native path handles.
fn native<T: PatchField>(
    current: Option<&Vec<T>>,
    member: &Member<'_>,
    parent: Node<'static>,
    path: &Path<'_>,
) -> Result<Option<Edit<Vec<T>>>, PatchError> {
    let (Some(live), Some(Value::Array(patch)), false) = (current, member.value, member.directed)
    else {
        return Ok(None);
    };
    let meta = parent.field(member.name);
    let (true, Some(merge_key), TypeDef::Struct(_)) =
        (meta.strategy.merges_lists(), meta.merge_key, T::DEF)
    else {
        return Ok(None);
    };
    if patch.is_empty() {
        return Ok(None);
    }

    // Live keys, all present and distinct (duplicates make upstream reorder the list).
    let Some(live_keys) = distinct_keys(live, merge_key) else {
        return Ok(None);
    };

    let Some(targets) = targets(&live_keys, patch, merge_key) else {
        return Ok(None);
    };
    let here = path.field(member.name);
    let mut edits: Vec<(usize, Edit<T>)> = Vec::with_capacity(targets.len());
    for (i, (pos, map)) in targets.into_iter().enumerate() {
        let Some(edit) = live[pos].plan_item(map, &here.item(Some(merge_key), &patch[i], i)) else {
            return Ok(None);
        };
        edits.push((pos, edit?));
    }
    Ok(Some(Edit::Update(Box::new(move |list: &mut Vec<T>| {
        for (pos, edit) in edits {
            if let Some(item) = list.get_mut(pos) {
                // Items are objects: merging into one never removes it.
                let _ = edit.commit_to(item);
            }
        }
    }))))
}

/// The live position each patch item updates, when the native path can take the list: every
/// item a plain object with its merge key, naming live items in live order, each once. Not
/// generic (it is the bulk of the native path, which is built once per item type).
///
/// Decided on the whole patch list before planning any item: a later `$patch` item (a
/// `replace` marker, a deletion of the same key) changes what the earlier items mean.
#[inline(never)]
fn targets<'p>(
    live_keys: &[KeyRef<'_>],
    patch: &'p [Value],
    merge_key: &str,
) -> Option<Vec<(usize, &'p Map<String, Value>)>> {
    let mut targets = Vec::with_capacity(patch.len());
    let mut last = None;
    for item in patch {
        let map = plain_item(item)?;
        let key = map.get(merge_key)?;
        // In live order, each live item named once: nothing moves. So look only after the
        // previous match (live keys are distinct, checked above); anything else (an addition,
        // a reorder) leaves the native path.
        let from = last.map_or(0, |l| l + 1);
        let pos = live_keys[from..].iter().position(|k| k.matches(key))? + from;
        last = Some(pos);
        targets.push((pos, map));
    }
    Some(targets)
}

/// A patch item with no `$patch` or `$patchMergeKey` directive.
fn plain_item(item: &Value) -> Option<&Map<String, Value>> {
    use crate::apply::directive::{PATCH, PATCH_MERGE_KEY};
    match item {
        Value::Object(map) if !map.contains_key(PATCH) && !map.contains_key(PATCH_MERGE_KEY) => {
            Some(map)
        }
        _ => None,
    }
}

/// Every item's merge key, when all have one and no two are equal.
pub(crate) fn distinct_keys<'a, T: PatchField>(list: &'a [T], mk: &str) -> Option<Vec<KeyRef<'a>>> {
    Some(Keys::of(list, mk)?.keys)
}

/// A list's merge keys, all present and distinct, and where each one is: the table that
/// proves them distinct answers the look-ups of a diff afterwards.
pub(super) struct Keys<'a> {
    pub(super) keys: Vec<KeyRef<'a>>,
    table: Table<'a>,
}

// Lives on the stack for one list: boxing the small table would cost an allocation.
#[allow(clippy::large_enum_variant)]
enum Table<'a> {
    /// Up to [`LINEAR`] keys: compared one by one.
    Linear,
    /// Up to half of [`SMALL_TABLE`] keys: see [`Keys::small`].
    Small([u8; SMALL_TABLE]),
    /// More keys: the keyed hash.
    Hashed(HashMap<HashKey<'a>, usize, KeyedState>),
}

/// Lists this short are searched one key after the other (at most 120 comparisons in all).
const LINEAR: usize = 16;

/// Slots of the small table: positions fit in a byte (the table holds at most half as many
/// keys), and the whole [`Keys`] stays small enough to move cheaply (a move copies the largest
/// variant, whichever is used).
const SMALL_TABLE: usize = 128;

impl<'a> Keys<'a> {
    /// Every item's merge key, when all have one and no two are equal.
    pub(super) fn of<T: PatchField>(list: &'a [T], mk: &str) -> Option<Keys<'a>> {
        // Sized once: collecting into `Option<Vec<_>>` cannot know the length and grows.
        let mut keys = Vec::with_capacity(list.len());
        for item in list {
            keys.push(item.key_field(mk)?);
        }
        let table = if keys.len() <= LINEAR {
            let repeated = keys.iter().enumerate().any(|(i, k)| keys[..i].contains(k));
            (!repeated).then_some(Table::Linear)?
        } else if keys.len() <= SMALL_TABLE / 2 {
            Table::Small(Keys::small(&keys)?)
        } else {
            let mut seen = HashMap::with_capacity_and_hasher(keys.len(), KeyedState::default());
            for (i, k) in keys.iter().enumerate() {
                if seen.insert(HashKey(*k), i).is_some() {
                    return None;
                }
            }
            Table::Hashed(seen)
        };
        Some(Keys { keys, table })
    }

    /// Open addressing: no hashing of whole keys, and a fingerprint that costs the same for any
    /// key length (keys that share it are told apart by equality). Unkeyed, but the table holds
    /// at most 64 keys, so colliding keys cost at most 2,016 comparisons; longer lists use the
    /// keyed hash. `None` when two keys are equal.
    fn small(keys: &[KeyRef<'_>]) -> Option<[u8; SMALL_TABLE]> {
        let mut slots = [u8::MAX; SMALL_TABLE];
        for (i, key) in keys.iter().enumerate() {
            let mut slot = fingerprint(key) as usize % SMALL_TABLE;
            loop {
                match slots[slot] {
                    u8::MAX => {
                        slots[slot] = i as u8;
                        break;
                    }
                    j if keys[usize::from(j)] == *key => return None,
                    _ => slot = (slot + 1) % SMALL_TABLE,
                }
            }
        }
        Some(slots)
    }

    /// The position of `key`.
    pub(super) fn position(&self, key: KeyRef<'_>) -> Option<usize> {
        match &self.table {
            Table::Linear => self.keys.iter().position(|k| *k == key),
            Table::Small(slots) => {
                let mut slot = fingerprint(&key) as usize % SMALL_TABLE;
                loop {
                    match slots[slot] {
                        u8::MAX => return None,
                        j if self.keys[usize::from(j)] == key => return Some(usize::from(j)),
                        _ => slot = (slot + 1) % SMALL_TABLE,
                    }
                }
            }
            Table::Hashed(map) => map.get(&HashKey(key)).copied(),
        }
    }
}

fn fingerprint(key: &KeyRef<'_>) -> u64 {
    // Loads without a variable-length copy (which stalls store forwarding).
    let word = |bytes: &[u8]| match bytes.first_chunk::<8>() {
        Some(chunk) => u64::from_le_bytes(*chunk),
        None => bytes.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b)),
    };
    let raw = match key {
        KeyRef::Str(s) => {
            let b = s.as_bytes();
            let (head, tail) = (&b[..b.len().min(8)], &b[b.len().saturating_sub(8)..]);
            word(head) ^ word(tail).rotate_left(29) ^ (b.len() as u64).rotate_left(53)
        }
        KeyRef::Int(i) => *i as u64,
        KeyRef::UInt(u) => *u,
        KeyRef::Bool(b) => u64::from(*b) + 2,
        KeyRef::Null => 1,
    };
    let h = raw.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^ (h >> 31)
}

/// Hashing for [`KeyRef`] (which holds no floats, so equality is total).
#[derive(PartialEq)]
pub(super) struct HashKey<'a>(pub(super) KeyRef<'a>);

impl Eq for HashKey<'_> {}

impl std::hash::Hash for HashKey<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self.0 {
            KeyRef::Str(s) => (0u8, s).hash(state),
            KeyRef::Int(i) => (1u8, i).hash(state),
            KeyRef::UInt(u) => (2u8, u).hash(state),
            KeyRef::Bool(b) => (3u8, b).hash(state),
            KeyRef::Null => 4u8.hash(state),
        }
    }
}
