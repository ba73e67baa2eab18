//! Documents read side by side, for creating patches from text (see [`super::create`]).
//!
//! Creating a patch compares documents that are mostly the same. Here each document is scanned
//! strictly once, and a value becomes a `Value` only where the engine could find something in
//! it; everything else is one shared stand-in in every document's tree:
//! - a container (object or list) is *the same* when it is present at the same place in every
//!   document with byte-identical text, holds no `$` (so no directive key), and its type is
//!   *inert*: the engine, walking equal values of that type, can neither write anything nor
//!   fail. A type is inert when no list below it is merged (merging checks keys and kinds even
//!   of equal lists), no object below it is replaced (upstream sends a replaced object even
//!   when it did not change), no recommended or composite keys and no embedded resource lie
//!   below it. Or, for a value of a type that is not inert, when the value itself holds
//!   nothing the engine would check or write (its merged lists have items of one kind, each
//!   with the merge key; no replaced object). So is a scalar other than `null` with the same
//!   text everywhere, unless its key starts with `$` or is the merge key its item is paired by.
//!   A member that is the same is left out of every tree, or, in an object whose field keeps
//!   its keys (`retainKeys`, where the patch lists the modified object's members), is the
//!   number [`SAME`] in every tree;
//! - an object present in every document is read member by member, each as above;
//! - a list merged by one key is read item by item: an item whose key occurs once in every
//!   document and that is the same in all is a shell `{key: …}` in each, one
//!   present in all as an object is read member by member, the others in full;
//! - everything else is read in full, exactly as the strict reader reads it.
//!
//! Equal stand-ins at equal places, and members absent everywhere, diff to nothing, so the
//! engine's patch on these trees is its patch on the full documents, and it fails exactly
//! where it would fail on them.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hash, Hasher};

use serde_json::{Map, Number, Value};

use crate::hash::{HashedKey, KeyedState};
use crate::json_text::same_bytes;
use crate::schema::{BaseStrategy, FieldMeta, Node, TypeDef};

use super::scan::{Children, Invalid, Scanner, Tape};

/// What stands for a value that is the same in every document: a number no created patch can
/// hold, since a stand-in sits only where every document agrees (the caller checks anyway,
/// and takes the reference path if a document holds the number itself).
///
/// It is the last number of the placeholder range, which the writer of created patches refuses
/// (see `write::created`).
pub(super) const SAME: u64 = u64::MAX;

/// How every document's value for one place is read (with the member's metadata, where the
/// reading needs it).
enum How<'s> {
    Same,
    Members(FieldMeta<'s>),
    Items(FieldMeta<'s>),
    Full,
}

/// Lists at most this long are searched for keys instead of indexed.
const SHORT: usize = 16;

/// Reads `texts` (each a JSON object; the caller checked the first byte) into one tree per
/// text, typed by `node`. `Err` when a text is not what the strict reader accepts.
pub(super) fn read<const N: usize>(
    texts: &[&str; N],
    node: Node<'_>,
) -> Result<[Value; N], Invalid> {
    // The first document is indexed in full, the others against it: what they share with it
    // is copied from its index (see `scan::twin`).
    let first = Scanner::checking(texts[0]).tape()?;
    let mut others = Vec::with_capacity(N - 1);
    for t in &texts[1..] {
        others.push(Scanner::checking(t).tape_like(&first)?);
    }
    let mut tapes = Vec::with_capacity(N);
    tapes.push(first);
    tapes.extend(others);
    let mut sides = Sides {
        readers: texts.map(Scanner::checking),
        tapes: &tapes,
        inert: HashMap::default(),
        recent: [((std::ptr::null(), false), false); RECENT],
    };
    sides.objects([0; N], node, None, false)
}

/// Hashes schema addresses (not input: no keyed hash needed).
#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.0 = (self.0.rotate_left(5) ^ n as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type TypeId = (*const TypeDef, bool);

/// Entries of [`Sides::recent`].
const RECENT: usize = 16;

/// Where type `id` is remembered in [`Sides::recent`] (null, which no type has, marks a free
/// entry).
fn recent_slot((def, embedded): TypeId) -> usize {
    ((def as usize >> 4) ^ usize::from(embedded)) % RECENT
}

struct Sides<'a, 't, const N: usize> {
    /// One per document, to read values in full.
    readers: [Scanner<'a>; N],
    tapes: &'t [Tape<'a>],
    /// Whether a type is inert (see the module documentation), by definition and embeddedness.
    inert: HashMap<TypeId, bool, BuildHasherDefault<AddressHasher>>,
    /// The last answers of `inert`, by a few bits of the address: a document asks about the
    /// same few types over and over (see [`recent_slot`]).
    recent: [(TypeId, bool); RECENT],
}

impl<'t, const N: usize> Sides<'_, 't, N> {
    /// Entry `i` of document `d`, read in full.
    fn full(&mut self, d: usize, i: usize) -> Result<Value, Invalid> {
        // Most values read in full are names and other strings without escapes, and those are
        // their text (which the index checked) without the quotes.
        let plain = (self.tapes[d].text_str(i).strip_prefix('"'))
            .and_then(|text| text.strip_suffix('"'))
            .filter(|text| !text.as_bytes().contains(&b'\\'));
        if let Some(plain) = plain {
            return Ok(Value::String(plain.to_owned()));
        }
        let at = self.tapes[d].at(i);
        let reader = &mut self.readers[d];
        reader.seek(at);
        reader.value_full()
    }

    /// Entries `at` (one per document), each read in full.
    fn all_full(&mut self, at: [usize; N]) -> Result<[Value; N], Invalid> {
        let mut out = [const { Value::Null }; N];
        for (d, slot) in out.iter_mut().enumerate() {
            *slot = self.full(d, at[d])?;
        }
        Ok(out)
    }

    /// Whether entries `at` (one per document) are the same text: a container with no `$`, or
    /// a scalar other than `null` (which the engine tells from absent in places).
    fn same(&self, at: [usize; N]) -> bool {
        let first = self.tapes[0].text(at[0]);
        (1..N).all(|d| self.tapes[d].text(at[d]) == first)
            && match first.first() {
                Some(b'{' | b'[') => !first.contains(&b'$'),
                Some(b'n') | None => false,
                Some(_) => true,
            }
    }

    /// The first byte of entry `i` of document `d`.
    fn first(&self, d: usize, i: usize) -> Option<u8> {
        self.tapes[d].text(i).first().copied()
    }

    /// One object per document (entry `at[d]` of document `d`), typed by `node`. Member
    /// `keep` (an item's merge key, by which the engine pairs items) is read in full. Members
    /// that are the same are left out, unless the object's field keeps its keys (`retain`:
    /// `$retainKeys` lists the modified object's members, so they stay, as stand-ins).
    fn objects(
        &mut self,
        at: [usize; N],
        node: Node<'_>,
        keep: Option<&str>,
        retain: bool,
    ) -> Result<[Value; N], Invalid> {
        let tapes: &'t [Tape<'_>] = self.tapes;
        let mut maps: [Map<String, Value>; N] = std::array::from_fn(|_| Map::new());
        // Mostly every document has the same keys in the same order: then the members pair up
        // as they come, row by row (one member per document), with no sorting. From the first
        // row whose keys differ on, members are paired by key (keys do not repeat within an
        // object, so none of those is in a row before).
        let mut kids: [Children<'t>; N] = std::array::from_fn(|d| tapes[d].children(at[d]));
        loop {
            let rest = kids.clone();
            let row: [Option<usize>; N] = std::array::from_fn(|d| kids[d].next());
            let Some(first) = row[0] else {
                if row.iter().all(Option::is_none) {
                    return Ok(maps.map(Value::Object));
                }
                kids = rest;
                break;
            };
            let key = tapes[0].key(first);
            let paired = row[1..].iter().enumerate().all(|(d, c)| {
                c.is_some_and(|c| same_bytes(tapes[d + 1].key(c).as_bytes(), key.as_bytes()))
            });
            if !paired {
                kids = rest;
                break;
            }
            self.member(&mut maps, key, row, node, keep, retain)?;
        }
        // The other members of every document by key: (key, document, entry).
        let mut all: Vec<(&'t str, usize, usize)> = Vec::new();
        for (d, rest) in kids.into_iter().enumerate() {
            all.extend(rest.map(|c| (tapes[d].key(c), d, c)));
        }
        all.sort_unstable();
        for group in all.chunk_by(|a, b| a.0 == b.0) {
            let mut entries = [None; N];
            for &(_, d, c) in group {
                entries[d] = Some(c);
            }
            self.member(&mut maps, group[0].0, entries, node, keep, retain)?;
        }
        Ok(maps.map(Value::Object))
    }

    /// Member `key` of the objects [`Sides::objects`] reads, into `maps`: entry `entries[d]` of
    /// document `d`, where it has one.
    fn member(
        &mut self,
        maps: &mut [Map<String, Value>; N],
        key: &str,
        entries: [Option<usize>; N],
        node: Node<'_>,
        keep: Option<&str>,
        retain: bool,
    ) -> Result<(), Invalid> {
        // A `$` key may be a directive, which the engine reads whatever the others hold.
        let everywhere = entries.iter().all(Option::is_some);
        if everywhere && !key.starts_with('$') && keep != Some(key) {
            let entries = entries.map(Option::unwrap_or_default);
            let how = self.how(entries, node, key);
            if matches!(how, How::Same) && !retain {
                return Ok(());
            }
            let read = self.read(entries, how)?;
            for (map, value) in maps.iter_mut().zip(read) {
                map.insert(key.to_owned(), value);
            }
        } else {
            for (d, entry) in entries.into_iter().enumerate() {
                if let Some(c) = entry {
                    let value = self.full(d, c)?;
                    maps[d].insert(key.to_owned(), value);
                }
            }
        }
        Ok(())
    }

    /// How entries `at` (one per document) of member `key` of an object of type `node` are
    /// read.
    fn how<'s>(&mut self, at: [usize; N], node: Node<'s>, key: &str) -> How<'s> {
        // A scalar is quiet whatever its field, and only containers are read member by member
        // or item by item: the schema is not asked.
        if !matches!(self.first(0, at[0]), Some(b'{' | b'[')) {
            return if self.same(at) { How::Same } else { How::Full };
        }
        let meta = node.field(key);
        let all = |b: u8| (0..N).all(|d| self.first(d, at[d]) == Some(b));
        let (objects, lists) = (all(b'{'), all(b'['));
        if self.same(at) && self.quiet_field(at[0], &meta) {
            How::Same
        } else if objects && meta.strategy.base != BaseStrategy::Replace && !meta.node.is_embedded()
        {
            How::Members(meta)
        } else if lists
            && meta.strategy.merges_lists()
            && meta.merge_key.is_some()
            && meta.recommended.is_empty()
            && !meta.composite
            && !meta.node.items().is_embedded()
        {
            How::Items(meta)
        } else {
            How::Full
        }
    }

    /// The values of entries `at` (one per document), read as [`Sides::how`] says.
    fn read(&mut self, at: [usize; N], how: How<'_>) -> Result<[Value; N], Invalid> {
        match how {
            How::Same => Ok(std::array::from_fn(|_| Value::Number(Number::from(SAME)))),
            How::Members(meta) => self.objects(at, meta.node, None, meta.strategy.retain_keys),
            How::Items(meta) => self.lists(at, meta),
            How::Full => self.all_full(at),
        }
    }

    /// The items of one list per document (entries `at`), merged by `meta`'s one key.
    fn lists(&mut self, at: [usize; N], meta: FieldMeta<'_>) -> Result<[Value; N], Invalid> {
        let tapes: &'t [Tape<'_>] = self.tapes;
        let mk = meta.merge_key.ok_or(Invalid)?;
        let node = meta.node.items();
        // Per document: its items, and the entry of each object item's key.
        let mut items: [Vec<usize>; N] = [const { Vec::new() }; N];
        let mut found: [Vec<Option<usize>>; N] = [const { Vec::new() }; N];
        for d in 0..N {
            items[d] = tapes[d].children(at[d]).collect();
            found[d] = items[d]
                .iter()
                .map(|&item| match self.first(d, item) {
                    Some(b'{') => tapes[d].children(item).find(|&c| tapes[d].key(c) == mk),
                    _ => None,
                })
                .collect();
        }
        // Keys are mostly strings without escapes, equal exactly when their texts are: then
        // they are compared as text, and no key is read until a shell needs it.
        let plain = (0..N).all(|d| {
            found[d].iter().flatten().all(|&c| {
                let text = tapes[d].text(c);
                text.first() == Some(&b'"') && !text.contains(&b'\\')
            })
        });
        let (places, keys) = if plain {
            let texts: [Vec<Option<&[u8]>>; N] = std::array::from_fn(|d| {
                found[d]
                    .iter()
                    .map(|c| c.map(|c| tapes[d].text(c)))
                    .collect()
            });
            (once_in_each(&texts), None)
        } else {
            let mut keys: [Vec<Option<Value>>; N] = [const { Vec::new() }; N];
            for d in 0..N {
                for &c in &found[d] {
                    let key = match c {
                        Some(c) => Some(self.full(d, c)?),
                        None => None,
                    };
                    keys[d].push(key);
                }
            }
            let hashed: [Vec<Option<HashedKey<'_>>>; N] = std::array::from_fn(|d| {
                keys[d].iter().map(|k| k.as_ref().map(HashedKey)).collect()
            });
            (once_in_each(&hashed), Some(keys))
        };
        let mut values: [Vec<Option<Value>>; N] = [const { Vec::new() }; N];
        for d in 0..N {
            values[d].resize_with(items[d].len(), || None);
        }
        for place in places {
            let entries: [usize; N] = std::array::from_fn(|d| items[d][place[d]]);
            let read = if self.same(entries) && self.quiet_object(entries[0], node) {
                let key = match &keys {
                    Some(keys) => keys[0][place[0]].clone().ok_or(Invalid)?,
                    None => {
                        let c = found[0][place[0]].ok_or(Invalid)?;
                        self.full(0, c)?
                    }
                };
                // A copy of the key for all but the last document, which takes the key itself.
                let mut key = Some(key);
                std::array::from_fn(|d| {
                    let key = if d + 1 < N { key.clone() } else { key.take() };
                    let mut shell = Map::new();
                    shell.insert(mk.to_owned(), key.unwrap_or_default());
                    Value::Object(shell)
                })
            } else {
                // Every item has the key, so every item is an object.
                self.objects(entries, node, Some(mk), meta.strategy.retain_keys)?
            };
            for (d, value) in read.into_iter().enumerate() {
                values[d][place[d]] = Some(value);
            }
        }
        let mut out = [const { Value::Null }; N];
        for d in 0..N {
            let mut read = Vec::with_capacity(items[d].len());
            for (&item, v) in items[d].iter().zip(std::mem::take(&mut values[d])) {
                read.push(match v {
                    Some(v) => v,
                    None => self.full(d, item)?,
                });
            }
            out[d] = Value::Array(read);
        }
        Ok(out)
    }

    /// Whether the engine, given entry `i` of the first document (a member with metadata `meta`)
    /// on every side, writes nothing and fails nowhere: the type is inert, or this value holds
    /// nothing that makes the engine check or write (the checks of `diff::lists` on a merged
    /// list: kinds, merge keys; a replaced object, which upstream sends unchanged).
    fn quiet_field(&mut self, i: usize, meta: &FieldMeta<'_>) -> bool {
        if self.inert_field(meta) {
            return true;
        }
        match self.first(0, i) {
            Some(b'{') => {
                meta.strategy.base != BaseStrategy::Replace && self.quiet_object(i, meta.node)
            }
            Some(b'[') if meta.strategy.merges_lists() => {
                meta.recommended.is_empty() && !meta.composite && self.quiet_list(i, meta)
            }
            // Lists compared whole, scalars.
            _ => true,
        }
    }

    /// [`Sides::quiet_field`] of the members of object `i` (of the first document).
    fn quiet_object(&mut self, i: usize, node: Node<'_>) -> bool {
        if self.inert_node(node) {
            return true;
        }
        if node.is_embedded() {
            return false;
        }
        // Scalars are quiet whatever their fields.
        let tape: &'t Tape<'_> = &self.tapes[0];
        tape.children(i).all(|c| {
            !matches!(self.first(0, c), Some(b'{' | b'['))
                || self.quiet_field(c, &node.field(tape.key(c)))
        })
    }

    /// Whether the engine passes merged list `i` (of the first document) on every side: items
    /// of one kind (numbers excluded: integers and floats may not mix, which the text does not
    /// tell cheaply), objects each with the merge key and quiet.
    fn quiet_list(&mut self, i: usize, meta: &FieldMeta<'_>) -> bool {
        let tape: &'t Tape<'_> = &self.tapes[0];
        let kind = |c: usize| match tape.text(c).first() {
            Some(b't' | b'f') => b'b',
            Some(b'-' | b'0'..=b'9') => b'0',
            Some(&b) => b,
            None => 0,
        };
        let mut items = tape.children(i).peekable();
        let Some(&first) = items.peek() else {
            return true;
        };
        let kind_of_all = kind(first);
        if !tape.children(i).all(|c| kind(c) == kind_of_all) {
            return false;
        }
        match kind_of_all {
            b'"' | b'b' | b'n' => true,
            b'{' => {
                let Some(mk) = meta.merge_key else {
                    return false;
                };
                let node = meta.node.items();
                tape.children(i).all(|item| {
                    tape.children(item).any(|c| tape.key(c) == mk) && self.quiet_object(item, node)
                })
            }
            _ => false,
        }
    }

    /// Whether a member with metadata `meta` is inert when equal everywhere.
    fn inert_field(&mut self, meta: &FieldMeta<'_>) -> bool {
        !meta.strategy.merges_lists()
            && meta.strategy.base != BaseStrategy::Replace
            && meta.recommended.is_empty()
            && !meta.composite
            && self.inert_node(meta.node)
    }

    /// Whether values of type `node` are inert (see the module documentation). A search of
    /// the types reachable from `node`: when none is a problem, none of them is.
    fn inert_node<'s>(&mut self, node: Node<'s>) -> bool {
        let id = |n: Node<'s>| (std::ptr::from_ref(n.def()), n.is_embedded());
        let slot = recent_slot(id(node));
        if self.recent[slot].0 == id(node) {
            return self.recent[slot].1;
        }
        if let Some(&known) = self.inert.get(&id(node)) {
            self.recent[slot] = (id(node), known);
            return known;
        }
        let mut seen: HashSet<TypeId> = HashSet::from([id(node)]);
        let mut stack = vec![node];
        let mut inert = true;
        'search: while let Some(n) = stack.pop() {
            if n.is_embedded() || self.inert.get(&id(n)) == Some(&false) {
                inert = false;
                break;
            }
            let mut next = |child: Node<'s>, stack: &mut Vec<Node<'s>>| {
                if seen.insert(id(child)) && self.inert.get(&id(child)) != Some(&true) {
                    stack.push(child);
                }
            };
            match n.def() {
                TypeDef::Struct(s) => {
                    for f in s.fields.iter() {
                        if f.strategy.merges_lists()
                            || f.strategy.base == BaseStrategy::Replace
                            || !f.recommended.is_empty()
                            || f.composite
                        {
                            inert = false;
                            break 'search;
                        }
                        next(n.follow(f.ty), &mut stack);
                    }
                    for r in s.inlined.iter() {
                        next(n.follow(*r), &mut stack);
                    }
                }
                TypeDef::Map(v) => next(n.follow(*v), &mut stack),
                // A list reached here is not merged: compared whole, its items never walked.
                TypeDef::List(_) | TypeDef::Primitive | TypeDef::Opaque | TypeDef::Embedded(_) => {}
            }
        }
        if inert {
            for s in seen {
                self.inert.insert(s, true);
            }
        } else {
            self.inert.insert(id(node), false);
        }
        inert
    }
}

/// The positions, one per list, of every key that occurs exactly once in each of `keys`, in
/// the first list's order.
fn once_in_each<K: Hash + Eq, const N: usize>(keys: &[Vec<Option<K>>; N]) -> Vec<[usize; N]> {
    if keys.iter().all(|k| k.len() <= SHORT) {
        let once = |list: &[Option<K>], k: &K| {
            let mut found = list
                .iter()
                .enumerate()
                .filter(|(_, x)| x.as_ref() == Some(k));
            match (found.next(), found.next()) {
                (Some((p, _)), None) => Some(p),
                _ => None,
            }
        };
        return keys[0]
            .iter()
            .flatten()
            .filter_map(|k| {
                let mut place = [0; N];
                for d in 0..N {
                    place[d] = once(&keys[d], k)?;
                }
                Some(place)
            })
            .collect();
    }
    // One table for all the lists: each distinct key of the first list gets a slot holding,
    // per list, how often the key occurs and where it first does; the other lists' keys only
    // count where they match a slot. One hash per item.
    let mut slots: HashMap<&K, usize, KeyedState> = HashMap::default();
    let mut seen: Vec<[(usize, usize); N]> = Vec::new();
    let mut first_slots: Vec<Option<usize>> = Vec::with_capacity(keys[0].len());
    for (d, list) in keys.iter().enumerate() {
        for (p, k) in list.iter().enumerate() {
            let slot = match k {
                Some(k) if d == 0 => Some(*slots.entry(k).or_insert_with(|| {
                    seen.push([(0, 0); N]);
                    seen.len() - 1
                })),
                Some(k) => slots.get(k).copied(),
                None => None,
            };
            if d == 0 {
                first_slots.push(slot);
            }
            if let Some(slot) = slot {
                let (count, at) = &mut seen[slot][d];
                if *count == 0 {
                    *at = p;
                }
                *count += 1;
            }
        }
    }
    first_slots
        .into_iter()
        .flatten()
        .filter_map(|slot| {
            let counts = &seen[slot];
            counts
                .iter()
                .all(|&(count, _)| count == 1)
                .then(|| counts.map(|(_, at)| at))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::once_in_each;

    /// The table for long lists finds what counting each key in each list finds: keys once in
    /// every list, in the first list's order, none that repeat anywhere.
    #[test]
    fn once_in_each_counts_every_list() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut roll = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        for _ in 0..300 {
            let range = 5 + roll(40);
            let lists: [Vec<Option<u64>>; 3] = std::array::from_fn(|_| {
                let len = roll(40) as usize;
                (0..len)
                    .map(|_| (roll(8) != 0).then(|| roll(range)))
                    .collect()
            });
            let count =
                |list: &[Option<u64>], k: u64| list.iter().filter(|x| **x == Some(k)).count();
            let want: Vec<[usize; 3]> = lists[0]
                .iter()
                .flatten()
                .filter(|&&k| lists.iter().all(|l| count(l, k) == 1))
                .map(|&k| {
                    std::array::from_fn(|d| {
                        lists[d].iter().position(|x| *x == Some(k)).unwrap_or(0)
                    })
                })
                .collect();
            assert_eq!(once_in_each(&lists), want, "{lists:?}");
            let two = [lists[0].clone(), lists[1].clone()];
            let want_two: Vec<[usize; 2]> = want.iter().map(|p| [p[0], p[1]]).collect();
            let found = once_in_each(&two);
            // With two lists, keys the third list repeated or lacked may be found too.
            assert!(want_two.iter().all(|p| found.contains(p)), "{two:?}");
        }
    }
}
