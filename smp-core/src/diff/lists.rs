//! The two-way diff of two `merge`-strategy lists.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use crate::apply::Path;
use crate::apply::order::KeyIndex;
use crate::error::{PatchError, kind_of};
use crate::schema::FieldMeta;

use super::DiffOptions;
use super::printed::{Kind, Pairing, dedup, item_kind, pairing, sort_by_pairing};
use super::two_way::{PATCH, diff_maps};

/// What a merged list contributes to the patch.
#[derive(Default)]
pub(crate) struct ListDiff {
    /// The list itself: changes and additions, then `$patch: delete` items.
    pub(crate) patch: Vec<Value>,
    /// `$deleteFromPrimitiveList/<f>`.
    pub(crate) deletions: Vec<Value>,
    /// `$setElementOrder/<f>`.
    pub(crate) order: Vec<Value>,
}

pub(crate) fn diff_lists(
    original: &[Value],
    modified: &[Value],
    meta: FieldMeta<'_>,
    options: &DiffOptions,
    path: &Path<'_>,
) -> Result<ListDiff, PatchError> {
    path.check_depth()?;
    if original.is_empty() {
        for (i, item) in modified.iter().enumerate() {
            path.index(i).check_nesting(item)?;
        }
        if modified.is_empty() || options.ignore_changes_and_additions {
            return Ok(ListDiff::default());
        }
        // The list is sent whole; apply still merges it, so what apply refuses (objects
        // without a declared merge key, mixed kinds) is refused here too, as with an original.
        if item_kind(&[modified], path)? == Some(Kind::Object) {
            merge_key(meta, path)?;
        }
        return Ok(ListDiff {
            patch: modified.to_vec(),
            ..ListDiff::default()
        });
    }
    match item_kind(&[original, modified], path)? {
        Some(Kind::Object) => objects(original, modified, meta, options, path),
        Some(Kind::Number) => {
            one_number_kind(original, modified, path)?;
            Ok(scalars(original, modified, options))
        }
        _ => Ok(scalars(original, modified, options)),
    }
}

/// Apply refuses to merge a list of numbers that mixes integers and floats (upstream's tables
/// type numbers as Go does YAML: `1` an int, `1.0` a float64), so diff refuses to create the
/// patch that would need it, with apply's error.
fn one_number_kind(
    original: &[Value],
    modified: &[Value],
    path: &Path<'_>,
) -> Result<(), PatchError> {
    let is_float = |v: &Value| matches!(v, Value::Number(n) if n.is_f64());
    let mut items = original.iter().chain(modified);
    let Some(first) = items.next() else {
        return Ok(());
    };
    let name = |float: bool| if float { "float" } else { "integer" };
    match items.find(|v| is_float(v) != is_float(first)) {
        None => Ok(()),
        Some(other) => Err(PatchError::MixedList {
            path: path.to_json_path(),
            first: name(is_float(first)),
            second: name(is_float(other)),
        }),
    }
}

/// The merge key's value of an item, with the item as an object, its nesting checked (the key
/// is compared, printed and copied whole).
fn keyed_checked<'v>(
    item: &'v Value,
    merge_key: &str,
    path: &Path<'_>,
    index: usize,
) -> Result<Keyed<'v>, PatchError> {
    let found = keyed(item, merge_key, path, index)?;
    if matches!(found.1, Value::Object(_) | Value::Array(_)) {
        path.index(index).field(merge_key).check_nesting(found.1)?;
    }
    Ok(found)
}

/// The merge key's value of an item, with the item as an object.
pub(crate) fn keyed<'v>(
    item: &'v Value,
    merge_key: &str,
    path: &Path<'_>,
    index: usize,
) -> Result<(&'v Map<String, Value>, &'v Value), PatchError> {
    match item {
        Value::Object(map) => match map.get(merge_key) {
            Some(k) => Ok((map, k)),
            None => Err(PatchError::MissingMergeKey {
                path: path.index(index).to_json_path(),
                key: merge_key.to_owned(),
            }),
        },
        other => Err(PatchError::NotAnObjectItem {
            path: path.index(index).to_json_path(),
            key: merge_key.to_owned(),
            found: kind_of(other),
        }),
    }
}

/// The declared merge key of a merged list of objects.
pub(crate) fn merge_key<'s>(meta: FieldMeta<'s>, path: &Path<'_>) -> Result<&'s str, PatchError> {
    meta.merge_key.ok_or_else(|| PatchError::WrongType {
        path: path.to_json_path(),
        expected: "a declared merge key for a merged list of objects",
        found: "none in the schema",
    })
}

/// An item as an object, with its merge key's value.
type Keyed<'v> = (&'v Map<String, Value>, &'v Value);

fn objects(
    original: &[Value],
    modified: &[Value],
    meta: FieldMeta<'_>,
    options: &DiffOptions,
    path: &Path<'_>,
) -> Result<ListDiff, PatchError> {
    let mk = merge_key(meta, path)?;
    let (old, new, aligned) = keys(original, modified, mk, path)?;
    if aligned {
        return same_keys(&old, &new, mk, meta, options, path);
    }
    walk(&old, &new, mk, meta, options, path)
}

/// Every item's merge key, each looked up once, and whether both lists hold the same keys in
/// the same order. The items are checked in the order the engine has always reported their
/// errors: side by side while the keys agree, then the rest of `original`, then of `modified`.
#[allow(clippy::type_complexity)]
fn keys<'v>(
    original: &'v [Value],
    modified: &'v [Value],
    mk: &str,
    path: &Path<'_>,
) -> Result<(Vec<Keyed<'v>>, Vec<Keyed<'v>>, bool), PatchError> {
    let mut old = Vec::with_capacity(original.len());
    let mut new = Vec::with_capacity(modified.len());
    let mut aligned = original.len() == modified.len();
    if aligned {
        for (i, (a, b)) in original.iter().zip(modified).enumerate() {
            old.push(keyed_checked(a, mk, path, i)?);
            new.push(keyed_checked(b, mk, path, i)?);
            if old[i].1 != new[i].1 {
                aligned = false;
                break;
            }
        }
    }
    for (i, item) in original.iter().enumerate().skip(old.len()) {
        old.push(keyed_checked(item, mk, path, i)?);
    }
    for (i, item) in modified.iter().enumerate().skip(new.len()) {
        new.push(keyed_checked(item, mk, path, i)?);
    }
    Ok((old, new, aligned))
}

/// Upstream's general algorithm: items sorted by key ([`Pairing`]: printed form first), walked
/// in step.
fn walk<'v>(
    original: &[Keyed<'v>],
    modified: &[Keyed<'v>],
    mk: &str,
    meta: FieldMeta<'_>,
    options: &DiffOptions,
    path: &Path<'_>,
) -> Result<ListDiff, PatchError> {
    let sorted = |list: &[Keyed<'v>]| {
        let mut out: Vec<(Pairing<'v>, usize)> = list
            .iter()
            .enumerate()
            .map(|(i, &(_, k))| (pairing(k), i))
            .collect();
        out.sort();
        out
    };
    let old = sorted(original);
    let new = sorted(modified);
    let items = meta.node.items();

    // (position in `modified`, patch item) so the patch can follow `modified`'s order.
    let mut changed: Vec<(usize, Value)> = Vec::new();
    let mut deleted: Vec<Value> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        let ord = heads(old.get(i).map(|o| &o.0), new.get(j).map(|m| &m.0));
        match ord {
            Ordering::Equal => {
                let (oi, mi) = (old[i].1, new[j].1);
                let (a, _) = original[oi];
                let (b, key) = modified[mi];
                let here = path.keyed(mk, key);
                let mut sub = diff_maps(a, b, items, options, meta.strategy.retain_keys, &here)?;
                if !sub.is_empty() {
                    sub.insert(mk.to_owned(), key.clone());
                    changed.push((mi, Value::Object(sub)));
                }
                i += 1;
                j += 1;
            }
            Ordering::Greater => {
                let mi = new[j].1;
                let (item, key) = modified[mi];
                path.keyed(mk, key).check_object_nesting(item)?;
                if !options.ignore_changes_and_additions {
                    changed.push((mi, Value::Object(item.clone())));
                }
                j += 1;
            }
            Ordering::Less => {
                let oi = old[i].1;
                let (item, key) = original[oi];
                path.keyed(mk, key).check_object_nesting(item)?;
                if !options.ignore_deletions {
                    let mut d = Map::new();
                    d.insert(mk.to_owned(), key.clone());
                    d.insert(PATCH.to_owned(), Value::String("delete".to_owned()));
                    deleted.push(Value::Object(d));
                }
                i += 1;
            }
        }
    }
    // Follow `modified`'s order: by the first item of `modified` with the same key. Equal keys
    // print alike and sort next to each other: when no two neighbours print alike, each item
    // is its key's first.
    if changed.len() > 1 {
        if new.windows(2).any(|w| w[0].0.prints_like(&w[1].0)) {
            let firsts = first_positions(modified);
            changed.sort_by_cached_key(|&(mi, _)| {
                firsts.position(modified[mi].1).unwrap_or(usize::MAX)
            });
        } else {
            changed.sort_unstable_by_key(|&(mi, _)| mi);
        }
    }
    let mut patch: Vec<Value> = changed.into_iter().map(|(_, v)| v).collect();

    let order_same =
        original.len() == modified.len() && original.iter().zip(modified).all(|(a, b)| a.1 == b.1);
    patch.extend(deleted);
    let mut order = Vec::new();
    let changes = !options.ignore_changes_and_additions;
    if options.set_element_order
        && ((changes && (!patch.is_empty() || !order_same))
            || (!options.ignore_deletions && !patch.is_empty()))
    {
        order = order_list(modified, mk);
    }
    Ok(ListDiff {
        patch,
        deletions: Vec::new(),
        order,
    })
}

/// The common case, without printing and sorting keys: both lists hold the same keys in the
/// same order. Upstream pairs items by (printed key, position) in sorted order, which for equal
/// key sequences is pairing by position, so the result is the general walk's: changes in
/// `modified`'s order, no deletions, and an order list only when something changed.
fn same_keys(
    original: &[Keyed<'_>],
    modified: &[Keyed<'_>],
    mk: &str,
    meta: FieldMeta<'_>,
    options: &DiffOptions,
    path: &Path<'_>,
) -> Result<ListDiff, PatchError> {
    let items = meta.node.items();
    let mut patch = Vec::new();
    for (i, (&(a, _), &(b, key))) in original.iter().zip(modified).enumerate() {
        let here = path.keyed(mk, key);
        let mut sub = diff_maps(a, b, items, options, meta.strategy.retain_keys, &here)?;
        if !sub.is_empty() {
            sub.insert(mk.to_owned(), key.clone());
            patch.push((i, Value::Object(sub)));
        }
    }
    // Items with equal keys (duplicates) go to the first item with that key, as in the walk;
    // without duplicates they are in `modified`'s order already.
    if patch.len() > 1 {
        let firsts = first_positions(modified);
        if firsts.has_duplicates() {
            patch
                .sort_by_cached_key(|(i, _)| firsts.position(modified[*i].1).unwrap_or(usize::MAX));
        }
    }
    let patch: Vec<Value> = patch.into_iter().map(|(_, v)| v).collect();
    let mut order = Vec::new();
    let changes = !options.ignore_changes_and_additions;
    if options.set_element_order && !patch.is_empty() && (changes || !options.ignore_deletions) {
        order = order_list(modified, mk);
    }
    Ok(ListDiff {
        patch,
        deletions: Vec::new(),
        order,
    })
}

/// The first position of each merge key's value in a list.
fn first_positions<'v>(list: &[Keyed<'v>]) -> KeyIndex<'v> {
    KeyIndex::new(list.iter().map(|&(_, k)| k).collect())
}

/// `$setElementOrder` of a list merged by key: `{key: value}` for each modified item.
fn order_list(modified: &[Keyed<'_>], mk: &str) -> Vec<Value> {
    modified
        .iter()
        .map(|&(_, key)| {
            let mut m = Map::new();
            m.insert(mk.to_owned(), key.clone());
            Value::Object(m)
        })
        .collect()
}

fn scalars(original: &[Value], modified: &[Value], options: &DiffOptions) -> ListDiff {
    let mut old = original.to_vec();
    let mut new = modified.to_vec();
    sort_by_pairing(&mut old);
    sort_by_pairing(&mut new);
    let old: Vec<(Pairing<'static>, Value)> = old
        .into_iter()
        .map(|v| (pairing(&v).into_owned(), v))
        .collect();
    let new: Vec<(Pairing<'static>, Value)> = new
        .into_iter()
        .map(|v| (pairing(&v).into_owned(), v))
        .collect();
    let mut added = Vec::new();
    let mut deleted = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        let ord = heads(old.get(i).map(|o| &o.0), new.get(j).map(|m| &m.0));
        match ord {
            Ordering::Equal => {
                i += 1;
                j += 1;
            }
            Ordering::Greater => {
                if !options.ignore_changes_and_additions {
                    added.push(new[j].1.clone());
                }
                j += 1;
            }
            Ordering::Less => {
                if !options.ignore_deletions {
                    deleted.push(old[i].1.clone());
                }
                i += 1;
            }
        }
    }
    let firsts = KeyIndex::new(modified.iter().collect());
    added.sort_by_cached_key(|v| firsts.position(v).unwrap_or(usize::MAX));
    let deletions = dedup(deleted);
    let mut order = Vec::new();
    if options.set_element_order
        && ((!options.ignore_deletions && !deletions.is_empty())
            || (!options.ignore_changes_and_additions && original != modified))
    {
        order = modified.to_vec();
    }
    ListDiff {
        patch: added,
        deletions,
        order,
    }
}

/// Which side a walk over two lists sorted by [`Pairing`] takes next: `Equal` when both heads
/// match, `Less` for the original's head (an item only it has), `Greater` for the modified's.
fn heads(old: Option<&Pairing>, new: Option<&Pairing>) -> Ordering {
    match (old, new) {
        (Some(o), Some(m)) => o.cmp(m),
        (None, _) => Ordering::Greater,
        (_, None) => Ordering::Less,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::schema::{FieldDef, Node, StructDef, TypeDef, TypeRef};

    static ITEM_FIELDS: [FieldDef; 1] = [FieldDef::new(
        "kids",
        TypeRef::Static(|| &ITEMS),
        crate::Strategy::MERGE,
        Some("k"),
    )];
    static ITEM: TypeDef = TypeDef::Struct(StructDef::new("item", &ITEM_FIELDS));
    static ITEMS: TypeDef = TypeDef::List(TypeRef::Static(|| &ITEM));

    /// The walk's changes follow `modified`'s order by the first item with an equal key, also
    /// where keys print alike without being equal (`0`, `0.0`, `-0.0`) or are equal without
    /// being the same text.
    #[test]
    fn walk_orders_changes_by_first_equal_key() {
        let lists = [
            json!([{"k": 0.0, "v": 1}, {"k": -0.0, "v": 2}, {"k": "z", "v": 3}]),
            json!([{"k": "z", "v": 4}, {"k": 0, "v": 1}, {"k": -0.0, "v": 5}, {"k": 0.0, "v": 6}]),
            json!([{"k": "1", "v": 1}, {"k": 1, "v": 2}, {"k": {"a": -0.0}, "v": 3}]),
            json!([{"k": {"a": 0.0}, "v": 9}, {"k": 1, "v": 8}, {"k": {"a": -0.0}}, {"k": "1"}]),
            json!([{"k": "b", "v": 1}, {"k": "a", "v": 2}, {"k": "b", "v": 3}]),
        ];
        let meta = Node::of_static(&ITEM).field("kids");
        let path = Path::root();
        let options = DiffOptions::default();
        for a in &lists {
            for b in &lists {
                let (a, b) = (a.as_array().unwrap(), b.as_array().unwrap());
                let (old, new, _) = keys(a, b, "k", &path).unwrap();
                let diff = walk(&old, &new, "k", meta, &options, &path).unwrap();
                let first = |key: &Value| b.iter().position(|item| &item["k"] == key).unwrap();
                let positions: Vec<usize> = diff
                    .patch
                    .iter()
                    .filter(|item| item.get("$patch").is_none())
                    .map(|item| first(&item["k"]))
                    .collect();
                assert!(positions.is_sorted(), "{a:?} -> {b:?}: {positions:?}");
            }
        }
    }

    /// The shortcut for equal key sequences gives exactly what the sorted walk gives, with
    /// duplicates, keys that print alike (`1` and `"1"`), nested lists and every option.
    #[test]
    fn same_keys_shortcut_equals_the_walk() {
        let lists = [
            json!([{"k": "a", "v": 1}, {"k": "b", "v": 2}]),
            json!([{"k": "a", "v": 1}, {"k": "b", "v": 3}]),
            json!([{"k": "a", "v": 9}, {"k": "b", "v": 2}, {"k": "a", "v": 1}]),
            json!([{"k": "a", "v": 1}, {"k": "b", "v": 2}, {"k": "a", "v": 5}]),
            json!([{"k": 1, "v": 1}, {"k": "1", "v": 2}]),
            json!([{"k": 1, "v": 2}, {"k": "1", "v": 2}]),
            json!([{"k": "a", "kids": [{"k": "x", "v": 1}]}, {"k": "b"}]),
            json!([{"k": "a", "kids": [{"k": "x", "v": 2}, {"k": "y"}]}, {"k": "b", "w": null}]),
        ];
        let meta = Node::of_static(&ITEM).field("kids");
        let path = Path::root();
        for (ic, id, so) in [
            (false, false, true),
            (true, false, true),
            (false, true, true),
            (false, false, false),
        ] {
            let options = DiffOptions {
                ignore_changes_and_additions: ic,
                ignore_deletions: id,
                set_element_order: so,
                ..DiffOptions::default()
            };
            for a in &lists {
                for b in &lists {
                    let (a, b) = (a.as_array().unwrap(), b.as_array().unwrap());
                    let (old, new, aligned) = keys(a, b, "k", &path).unwrap();
                    if !aligned {
                        continue;
                    }
                    let fast = same_keys(&old, &new, "k", meta, &options, &path).unwrap();
                    let slow = walk(&old, &new, "k", meta, &options, &path).unwrap();
                    assert_eq!(fast.patch, slow.patch, "{a:?} -> {b:?}");
                    assert_eq!(fast.order, slow.order, "{a:?} -> {b:?}");
                    assert_eq!(fast.deletions, slow.deletions);
                }
            }
        }
    }
}
