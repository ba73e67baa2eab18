//! Lists merged by key where the patch names a few items: only those become `Value`s.
//!
//! The engine leaves a merged list's order and its other items alone when (see
//! `apply::list::merge_objects`) every patch item is an object without `$patch` that finds a
//! live item by its merge key, the patch names those items in live order, and no live key
//! repeats. It then merges each patch item into its live item and returns the list, and what
//! the other items hold does not matter, as long as each is an object with the merge key (it
//! checks that every item has one).
//!
//! So when the text shows exactly that case, the tree holds only the named items. The items
//! between them are copied, comma-separated, as *runs* of canonical text, and each run rides
//! on the named item after it (or, for the last run, before it) as a hidden member whose value
//! is the run's placeholder; the writer puts the runs back around the item. The engine never
//! looks at a member the patch does not name, so the hidden members come through unchanged.
//!
//! Keys are compared as text: a plain token (a string without escapes, an integer written as
//! serde_json writes it) is its canonical JSON, so two are equal `Value`s exactly when their
//! texts are equal, and a patch key is compared by its canonical JSON. Any other live key, or
//! any departure from the case above, and the list is read again the general way (`guide`).

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::apply::directive::{PATCH, RETAIN_KEYS};
use crate::hash::KeyedState;
use crate::schema::Node;

use super::guide::{self, RUN_AFTER, RUN_BEFORE, is_hidden};
use super::scan::{Invalid, Scanner};

/// Lists of at most this many items compare keys pairwise to find a repeat; longer ones hash.
const SHORT: usize = 8;

/// Reads the list at the scanner, to be merged by `merge_key` with `patch`, as runs and named
/// items; `None` (the scanner back where it was) when the engine's result could depend on
/// more than the named items.
pub(super) fn list(
    sc: &mut Scanner<'_>,
    patch: &[Value],
    merge_key: &str,
    node: Node<'_>,
) -> Result<Option<Value>, Invalid> {
    let Some(wanted) = Wanted::of(patch, merge_key) else {
        return Ok(None);
    };
    let Some(all) = wanted.keys() else {
        return Ok(None);
    };
    let mark = sc.mark();
    let read = read(sc, &wanted, &all, merge_key, node)?;
    if read.is_none() {
        sc.reset(mark);
    }
    Ok(read)
}

/// The patch items, each with its merge key as canonical JSON.
struct Wanted<'p> {
    items: Vec<(Vec<u8>, &'p Map<String, Value>)>,
}

/// Where a live key stands in the patch list.
enum Found {
    /// It is the key of the next patch item not yet matched.
    Next,
    /// It is the key of another patch item: the engine would reorder the list.
    Elsewhere,
    Nowhere,
}

impl<'p> Wanted<'p> {
    /// The patch list's items, when the case of the module documentation can hold: at least
    /// one item, each an object with a string or number merge key, and no `$patch` (which
    /// deletes or replaces), `$retainKeys` (which would clear the hidden members) or hidden
    /// member in any.
    fn of(patch: &'p [Value], merge_key: &str) -> Option<Wanted<'p>> {
        if patch.is_empty() {
            return None;
        }
        let mut items = Vec::with_capacity(patch.len());
        for item in patch {
            let map = item.as_object()?;
            let key = match map.get(merge_key)? {
                key @ (Value::String(_) | Value::Number(_)) => serde_json::to_vec(key).ok()?,
                _ => return None,
            };
            if map.contains_key(PATCH)
                || map.contains_key(RETAIN_KEYS)
                || map.keys().any(|k| is_hidden(k))
            {
                return None;
            }
            items.push((key, map));
        }
        Some(Wanted { items })
    }

    /// The patch items' keys, each once (`None` when one repeats: the engine merges it twice).
    fn keys(&self) -> Option<Keys<'_>> {
        let mut keys = Keys::default();
        self.items
            .iter()
            .all(|(key, _)| keys.insert(key))
            .then_some(keys)
    }

    /// Where live key `key` stands, `next` patch items having been matched; `all` holds every
    /// patch item's key.
    fn find(&self, key: &[u8], next: usize, all: &Keys<'_>) -> Found {
        if self.items.get(next).is_some_and(|(k, _)| k == key) {
            Found::Next
        } else if all.contains(key) {
            Found::Elsewhere
        } else {
            Found::Nowhere
        }
    }
}

/// A set of keys: searched while few, hashed once more come.
enum Keys<'k> {
    Few(Vec<&'k [u8]>),
    Many(HashSet<&'k [u8], KeyedState>),
}

impl Default for Keys<'_> {
    fn default() -> Self {
        Keys::Few(Vec::new())
    }
}

impl<'k> Keys<'k> {
    fn contains(&self, key: &[u8]) -> bool {
        match self {
            Keys::Few(keys) => keys.contains(&key),
            Keys::Many(set) => set.contains(key),
        }
    }

    /// Adds `key`; `false` when it was there already.
    fn insert(&mut self, key: &'k [u8]) -> bool {
        match self {
            Keys::Few(keys) if keys.len() < SHORT => {
                if keys.contains(&key) {
                    return false;
                }
                keys.push(key);
                true
            }
            Keys::Few(keys) => {
                // Lists this long are usually much longer: room for a few growths at once.
                let mut set: HashSet<&[u8], KeyedState> =
                    HashSet::with_capacity_and_hasher(keys.len() * 8, KeyedState::default());
                set.extend(keys.iter().copied());
                let fresh = set.insert(key);
                *self = Keys::Many(set);
                fresh
            }
            Keys::Many(set) => set.insert(key),
        }
    }
}

/// The copy in progress of the unnamed items since the last named one.
#[derive(Default)]
struct Run {
    start: Option<super::canon::Extent>,
}

impl Run {
    /// Gets ready to copy one more item into the run.
    fn extend(&mut self, sc: &mut Scanner<'_>) {
        match self.start {
            Some(_) => sc.copy_separator(),
            None => self.start = Some(sc.copied()),
        }
    }

    /// The placeholder of the run so far, if it holds any item; the next run starts empty.
    fn close(&mut self, sc: &mut Scanner<'_>) -> Option<Value> {
        self.start.take().map(|start| sc.span_from(start))
    }
}

/// [`list`] past the patch's conditions: reads the items, or gives up (`None`).
fn read(
    sc: &mut Scanner<'_>,
    wanted: &Wanted<'_>,
    all: &Keys<'_>,
    merge_key: &str,
    node: Node<'_>,
) -> Result<Option<Value>, Invalid> {
    if sc.peek_value() != Some(b'[') || sc.open()? {
        // Not a list, or an empty one: the patch items are appended.
        return Ok(None);
    }
    let mut named: Vec<Value> = Vec::with_capacity(wanted.items.len());
    let mut run = Run::default();
    let mut live = Keys::default();
    loop {
        if sc.peek_value() != Some(b'{') {
            return Ok(None);
        }
        let before_item = (sc.mark(), run.start);
        // The key usually comes first; otherwise the item is copied into the run to find it,
        // and read again if it is named.
        let (token, copied) = match sc.first_plain_member(merge_key) {
            Some(token) => (Some(token), false),
            None => {
                run.extend(sc);
                (sc.copy_object_finding(merge_key)?, true)
            }
        };
        let Some(token) = token else {
            // No merge key, or one that is not a plain token.
            return Ok(None);
        };
        let key = sc.text_of(token);
        if !live.insert(key) {
            return Ok(None);
        }
        match wanted.find(key, named.len(), all) {
            Found::Next => {
                if copied {
                    sc.reset(before_item.0);
                    run.start = before_item.1;
                }
                let before = run.close(sc);
                let guide = wanted.items[named.len()].1;
                let mut item = guide::object(sc, guide, node, Some(merge_key))?;
                if let Some(before) = before {
                    if !attach(&mut item, RUN_BEFORE, before) {
                        return Ok(None);
                    }
                }
                named.push(item);
            }
            Found::Elsewhere => return Ok(None),
            Found::Nowhere if copied => {}
            Found::Nowhere => {
                run.extend(sc);
                sc.copy_object(None)?;
            }
        }
        if !sc.next_or_close(b']')? {
            break;
        }
    }
    if named.len() < wanted.items.len() {
        // A patch item finds no live item: it is appended, and the engine reorders.
        return Ok(None);
    }
    if let Some(after) = run.close(sc) {
        let Some(last) = named.last_mut() else {
            return Ok(None);
        };
        if !attach(last, RUN_AFTER, after) {
            return Ok(None);
        }
    }
    Ok(Some(Value::Array(named)))
}

/// Adds hidden member `name` to a named item; `false` when the item cannot take it.
fn attach(item: &mut Value, name: &str, run: Value) -> bool {
    match item {
        Value::Object(map) => map.insert(name.to_owned(), run).is_none(),
        _ => false,
    }
}
