//! The order of a merged list.
//!
//! Upstream settles the order of a merged list in three steps, and clients depend on the exact
//! outcome (kubectl sends `$setElementOrder` and expects the server to honour it, while old
//! clients send none and expect the live order to survive):
//! 1. split the merged items into those named by the wanted order (the patch list, or the
//!    `$setElementOrder` list) and the "server-only" rest;
//! 2. order the first group by the wanted order and the second by the live list, with items
//!    that carry `$patch: delete` moved to the end of their group;
//! 3. interleave the two groups: a server-only item goes first only when both it and the next
//!    patch item are in the live list and it comes earlier there.
//!
//! Items are compared by key: the merge key's value for objects, the value itself for
//! primitives, always the *first* occurrence in a list. Upstream finds positions by linear
//! search inside a sort comparator (quadratic); here they come from a [`KeyIndex`], whose hash
//! is keyed (see [`crate::hash`]).

use std::collections::HashMap;
use std::hash::Hash;

use serde_json::Value;

use crate::hash::{HashedKey, KeyedState};

/// First positions of keys in a list.
pub(crate) struct KeyIndex<'a> {
    keys: Vec<&'a Value>,
    map: Option<HashMap<HashedKey<'a>, usize, KeyedState>>,
    duplicates: bool,
}

/// Lists shorter than this are searched linearly; building a hash map costs more.
pub(crate) const LINEAR_LIMIT: usize = 12;

impl<'a> KeyIndex<'a> {
    pub(crate) fn new(keys: Vec<&'a Value>) -> KeyIndex<'a> {
        let mut duplicates = false;
        let map = if keys.len() > LINEAR_LIMIT {
            let mut map = HashMap::with_capacity_and_hasher(keys.len(), Default::default());
            for (i, k) in keys.iter().enumerate() {
                let fresh = map.try_insert_or_keep(HashedKey(k), i);
                duplicates |= !fresh;
            }
            Some(map)
        } else {
            duplicates = keys
                .iter()
                .enumerate()
                .any(|(i, k)| keys[..i].iter().any(|seen| same_key(seen, k)));
            None
        };
        KeyIndex {
            keys,
            map,
            duplicates,
        }
    }

    /// Whether some key occurs more than once (upstream then reorders the list by first
    /// occurrences, so no shortcut applies).
    pub(crate) fn has_duplicates(&self) -> bool {
        self.duplicates
    }

    pub(crate) fn position(&self, key: &Value) -> Option<usize> {
        match &self.map {
            Some(map) => map.get(&HashedKey(key)).copied(),
            None => self.keys.iter().position(|k| same_key(k, key)),
        }
    }

    pub(crate) fn contains(&self, key: &Value) -> bool {
        self.position(key).is_some()
    }
}

/// `a == b`, with strings (most keys are names) compared in place rather than by a `memcmp`
/// call.
pub(crate) fn same_key(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(a), Value::String(b)) => {
            crate::json_text::same_bytes(a.as_bytes(), b.as_bytes())
        }
        _ => a == b,
    }
}

/// Computes the final order of a merged list as a permutation: `result[n]` is the index in
/// `merged` of the item that goes to position `n`.
///
/// `deletes[i]` marks items carrying `$patch: delete` (possible only when a raw patch list is
/// taken as is); pass `None` when there are none.
pub(crate) fn settle(
    merged: &[&Value],
    deletes: Option<&[bool]>,
    wanted: &KeyIndex<'_>,
    live: &KeyIndex<'_>,
) -> Vec<usize> {
    let is_delete = |i: usize| deletes.and_then(|d| d.get(i).copied()).unwrap_or(false);
    // Each item's position in both orders, looked up once (sorting would look them up
    // n·log n times).
    let in_wanted: Vec<Option<usize>> = merged.iter().map(|k| wanted.position(k)).collect();
    let in_live: Vec<Option<usize>> = merged.iter().map(|k| live.position(k)).collect();
    let (mut patch_items, mut server_only): (Vec<usize>, Vec<usize>) =
        (0..merged.len()).partition(|&i| in_wanted[i].is_some());

    // Deletions go last in their group, in their existing relative order.
    let sort_key = |positions: &[Option<usize>], i: usize| {
        if is_delete(i) {
            (true, 0)
        } else {
            (false, positions[i].unwrap_or(usize::MAX))
        }
    };
    patch_items.sort_by_key(|&i| sort_key(&in_wanted, i));
    server_only.sort_by_key(|&i| sort_key(&in_live, i));

    let mut out = Vec::with_capacity(merged.len());
    let (mut left, mut right) = (
        server_only.into_iter().peekable(),
        patch_items.into_iter().peekable(),
    );
    loop {
        let take_left = match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(&l), Some(&r)) => {
                matches!((in_live[l], in_live[r]), (Some(a), Some(b)) if a < b)
            }
        };
        let next = if take_left { left.next() } else { right.next() };
        out.extend(next);
    }
    out
}

/// Reorders `items` by a permutation from [`settle`].
pub(crate) fn permute(items: &mut Vec<Value>, order: &[usize]) {
    if order.iter().enumerate().all(|(n, &i)| n == i) {
        return;
    }
    let mut taken: Vec<Value> = order
        .iter()
        .map(|&i| std::mem::take(&mut items[i]))
        .collect();
    std::mem::swap(items, &mut taken);
}

/// `HashMap::entry(..).or_insert(..)` reporting whether the key was new.
trait InsertOrKeep<K, V> {
    fn try_insert_or_keep(&mut self, key: K, value: V) -> bool;
}

impl<K: Hash + Eq, V, S: std::hash::BuildHasher> InsertOrKeep<K, V> for HashMap<K, V, S> {
    fn try_insert_or_keep(&mut self, key: K, value: V) -> bool {
        match self.entry(key) {
            std::collections::hash_map::Entry::Occupied(_) => false,
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(value);
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn order_of(merged: &[Value], wanted: &[Value], live: &[Value]) -> Vec<Value> {
        let refs: Vec<&Value> = merged.iter().collect();
        let perm = settle(
            &refs,
            None,
            &KeyIndex::new(wanted.iter().collect()),
            &KeyIndex::new(live.iter().collect()),
        );
        let mut items = merged.to_vec();
        permute(&mut items, &perm);
        items
    }

    #[test]
    fn new_patch_items_come_before_later_live_items() {
        // live [a b c], patch [b d]: a stays first, b keeps its slot, d follows the patch item
        // it was sent after, c (server only, after b) comes last.
        let merged = [json!("a"), json!("b"), json!("c"), json!("d")];
        let got = order_of(
            &merged,
            &[json!("b"), json!("d")],
            &[json!("a"), json!("b"), json!("c")],
        );
        assert_eq!(got, vec![json!("a"), json!("b"), json!("d"), json!("c")]);
    }

    #[test]
    fn wanted_order_wins_among_patch_items_only() {
        // Patch items follow the wanted order [3 1]; the server-only 2 is placed by comparing
        // live positions with the next patch item (3), which comes after it.
        let merged = [json!(1), json!(2), json!(3)];
        let got = order_of(
            &merged,
            &[json!(3), json!(1)],
            &[json!(1), json!(2), json!(3)],
        );
        assert_eq!(got, vec![json!(2), json!(3), json!(1)]);
    }

    #[test]
    fn float_zeros_are_one_key_in_the_hash_index() {
        let live: Vec<Value> = (0..20)
            .map(|i| json!(f64::from(i) + 0.5))
            .chain([json!(0.0)])
            .collect();
        let index = KeyIndex::new(live.iter().collect());
        assert_eq!(index.position(&json!(-0.0)), Some(20));
    }

    #[test]
    fn large_lists_use_the_hash_index() {
        let live: Vec<Value> = (0..100).map(|i| json!(format!("c{i}"))).collect();
        let index = KeyIndex::new(live.iter().collect());
        assert_eq!(index.position(&json!("c57")), Some(57));
        assert_eq!(index.position(&json!("x")), None);
        assert_eq!(index.position(&json!(57)), None);
    }
}
