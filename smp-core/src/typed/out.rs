//! Where a typed diff writes its patch: a map of `Value`s (the typed three-way patch merges
//! its parts as `Value`s), or JSON text (a two-way patch, which is mostly sent on as text: see
//! [`super::text`]). Both give the same patch; the diff code writes through [`Out`] and does
//! not know which.

use serde_json::{Map, Value};

use crate::diff::DiffOptions;

use super::KeyRef;
use super::text::{Array, Mark, MemberAt, Text};

/// The patch object of one level of a typed diff, and the options the whole patch is created
/// with. Generated code passes it on. Not a public API.
#[doc(hidden)]
pub struct Out<'o> {
    sink: Sink<'o>,
    options: &'o DiffOptions,
    /// A list item's merge-key member, not written yet: it goes in before the first member
    /// whose key sorts after it, or last (see [`Out::push_object`]).
    item_key: Option<(&'o str, KeyRef<'o>)>,
    /// The merge-key member has been written.
    item_key_written: bool,
}

enum Sink<'o> {
    Map(Map<String, Value>),
    /// Members go into the innermost open object of the text.
    Text(&'o mut Text),
}

/// What [`Out::retract`] needs to take back an early `$setElementOrder`.
pub(crate) struct Retract {
    mark: Option<Mark>,
}

/// A list member being written: see [`Out::begin_list`].
pub(crate) enum ListOut {
    Values(Vec<Value>),
    Text {
        mark: Mark,
        member: MemberAt,
        array: Array,
    },
}

impl ListOut {
    /// Whether no item has been written.
    pub(crate) fn is_empty(&self) -> bool {
        match self {
            ListOut::Values(items) => items.is_empty(),
            ListOut::Text { array, .. } => array.is_empty(),
        }
    }
}

impl<'o> Out<'o> {
    /// An empty patch object created with `options`, as a map.
    pub(crate) fn new(options: &'o DiffOptions) -> Out<'o> {
        Out {
            sink: Sink::Map(Map::new()),
            options,
            item_key: None,
            item_key_written: false,
        }
    }

    /// The patch object written into the open object of `text`.
    pub(crate) fn text(options: &'o DiffOptions, text: &'o mut Text) -> Out<'o> {
        Out {
            sink: Sink::Text(text),
            options,
            item_key: None,
            item_key_written: false,
        }
    }

    /// Writes the pending merge-key member when member `key`, about to be written, sorts after
    /// it; members then come in key order as they are written and the item's object needs no
    /// sorting when it closes. (A member with the merge key's own key leaves it pending: the
    /// last member of a key is the one kept, and the merge key's must be.)
    #[inline]
    fn before(&mut self, key: &str) {
        let Some((name, value)) = self.item_key else {
            return;
        };
        // Keys mostly differ in their first byte.
        let (k, n) = (key.as_bytes(), name.as_bytes());
        let after = match k.first().cmp(&n.first()) {
            std::cmp::Ordering::Equal => k > n,
            first => first.is_gt(),
        };
        if after {
            self.item_key = None;
            self.item_key_written = true;
            if let Sink::Text(text) = &mut self.sink {
                text.key_member(name, value);
            }
        }
    }

    /// The map written (empty for text).
    pub(crate) fn into_map(self) -> Map<String, Value> {
        match self.sink {
            Sink::Map(map) => map,
            Sink::Text(_) => Map::new(),
        }
    }

    /// The options the patch is created with.
    pub(crate) fn options(&self) -> &'o DiffOptions {
        self.options
    }

    /// Whether changed and added values are written (not a patch of deletions only).
    pub(crate) fn changes(&self) -> bool {
        !self.options.ignore_changes_and_additions
    }

    /// Whether removed values are written (not a patch of changes and additions only).
    pub(crate) fn deletions(&self) -> bool {
        !self.options.ignore_deletions
    }

    /// Sets member `key` to `value`.
    pub(crate) fn insert(&mut self, key: &str, value: Value) {
        self.before(key);
        match &mut self.sink {
            Sink::Map(map) => {
                map.insert(key.to_owned(), value);
            }
            Sink::Text(text) => text.member(key, &value),
        }
    }

    /// Sets member `key` to the JSON form of `value`.
    pub(crate) fn insert_key(&mut self, key: &str, value: KeyRef<'_>) {
        self.before(key);
        match &mut self.sink {
            Sink::Map(map) => {
                map.insert(key.to_owned(), value.to_value());
            }
            Sink::Text(text) => text.key_member(key, value),
        }
    }

    /// Sets every member of `members`.
    pub(crate) fn extend(&mut self, members: Map<String, Value>) {
        match &mut self.sink {
            Sink::Map(map) => map.extend(members),
            Sink::Text(_) => {
                for (key, value) in members {
                    self.insert(&key, value);
                }
            }
        }
    }

    /// Member `key` as the object `fill` writes, left out when it writes nothing.
    pub(crate) fn object<R>(&mut self, key: &str, fill: impl FnOnce(&mut Out<'_>) -> R) -> R {
        self.before(key);
        let options = self.options;
        match &mut self.sink {
            Sink::Map(map) => {
                let mut sub = Out::new(options);
                let result = fill(&mut sub);
                let sub = sub.into_map();
                if !sub.is_empty() {
                    map.insert(key.to_owned(), Value::Object(sub));
                }
                result
            }
            Sink::Text(text) => {
                let at = text.begin_member(key);
                let object = text.open_object();
                let result = fill(&mut Out::text(options, text));
                if text.close_object(object) {
                    text.end_member(at, key);
                } else {
                    text.cancel_member(at);
                }
                result
            }
        }
    }

    /// Starts list member `key`, whose items are written with [`Out::push_item`] and
    /// [`Out::push_object`] and which [`Out::end_list`] or [`Out::abandon_list`] ends.
    pub(crate) fn begin_list(&mut self, key: &str) -> ListOut {
        // Before the mark: abandoning the list keeps the merge key written.
        self.before(key);
        match &mut self.sink {
            Sink::Map(_) => ListOut::Values(Vec::new()),
            Sink::Text(text) => {
                let mark = text.mark();
                let member = text.begin_member(key);
                let array = text.open_array();
                ListOut::Text {
                    mark,
                    member,
                    array,
                }
            }
        }
    }

    /// Appends `value` to `list`.
    pub(crate) fn push_item(&mut self, list: &mut ListOut, value: Value) {
        match (&mut self.sink, list) {
            (Sink::Text(text), ListOut::Text { array, .. }) => {
                text.begin_item(array);
                text.value(&value);
                array.item_written();
            }
            (_, ListOut::Values(items)) => items.push(value),
            // A list begun on one sink is ended on the same one.
            (Sink::Map(_), ListOut::Text { .. }) => {}
        }
    }

    /// Appends `value` to `list` without making it a `Value` first, when the text sink can
    /// write it so (see [`Text::serialized`]); `false` when nothing was written, and the
    /// caller appends its `Value` instead.
    pub(crate) fn push_serialized<T: serde_core::Serialize>(
        &mut self,
        list: &mut ListOut,
        value: &T,
    ) -> bool {
        let (Sink::Text(text), ListOut::Text { array, .. }) = (&mut self.sink, list) else {
            return false;
        };
        let at = text.begin_item(array);
        if !text.serialized(value) {
            text.cancel_item(at);
            return false;
        }
        array.item_written();
        true
    }

    /// Appends to `list` the object `fill` writes, with member `key: value` (an item's merge
    /// key) added; left out when `fill` writes nothing.
    pub(crate) fn push_object<R>(
        &mut self,
        list: &mut ListOut,
        (key, value): (&str, KeyRef<'_>),
        fill: impl FnOnce(&mut Out<'_>) -> R,
    ) -> R {
        let options = self.options;
        match (&mut self.sink, list) {
            (Sink::Text(text), ListOut::Text { array, .. }) => {
                let at = text.begin_item(array);
                let object = text.open_object();
                let mut sub = Out::text(options, text);
                sub.item_key = Some((key, value));
                let result = fill(&mut sub);
                let (pending, written) = (sub.item_key.is_some(), sub.item_key_written);
                let others = text
                    .members_of(&object)
                    .saturating_sub(usize::from(written));
                if others == 0 {
                    // An item with no member but its merge key says nothing: it is dropped.
                    text.clear_object(&object);
                } else if pending {
                    text.key_member(key, value);
                }
                if text.close_object(object) {
                    array.item_written();
                } else {
                    text.cancel_item(at);
                }
                result
            }
            (_, ListOut::Values(items)) => {
                let mut sub = Out::new(options);
                let result = fill(&mut sub);
                let mut sub = sub.into_map();
                if !sub.is_empty() {
                    sub.insert(key.to_owned(), value.to_value());
                    items.push(Value::Object(sub));
                }
                result
            }
            (Sink::Map(_), ListOut::Text { .. }) => fill(&mut Out::new(options)),
        }
    }

    /// Ends list member `key`, left out when it has no items.
    pub(crate) fn end_list(&mut self, key: &str, list: ListOut) {
        match (&mut self.sink, list) {
            (Sink::Map(map), ListOut::Values(items)) if !items.is_empty() => {
                map.insert(key.to_owned(), Value::Array(items));
            }
            (Sink::Text(text), ListOut::Text { member, array, .. }) => {
                if text.close_array(array) {
                    text.end_member(member, key);
                } else {
                    text.cancel_member(member);
                }
            }
            _ => {}
        }
    }

    /// Forgets `list` and everything written since it began.
    pub(crate) fn abandon_list(&mut self, list: ListOut) {
        if let (Sink::Text(text), ListOut::Text { mark, .. }) = (&mut self.sink, list) {
            text.reset(mark);
        }
    }

    /// Member `key` as the list `[{mk: k}, ...]` of `keys` (a `$setElementOrder`), written
    /// before the list it orders (its key sorts first) when that list may turn out to need
    /// none: [`Out::retract`] takes it back.
    pub(crate) fn early_key_list(&mut self, key: &str, mk: &str, keys: &[KeyRef<'_>]) -> Retract {
        self.before(key);
        let mark = match &self.sink {
            Sink::Text(text) => Some(text.mark()),
            Sink::Map(_) => None,
        };
        self.key_list(key, mk, keys);
        Retract { mark }
    }

    /// Takes back the list [`Out::early_key_list`] wrote, with everything written since.
    pub(crate) fn retract(&mut self, key: &str, retract: Retract) {
        match (&mut self.sink, retract.mark) {
            (Sink::Map(map), _) => {
                map.remove(key);
            }
            (Sink::Text(text), Some(mark)) => text.reset(mark),
            (Sink::Text(_), None) => {}
        }
    }

    /// Member `key` as the list `[{mk: k}, ...]` of `keys` (a `$setElementOrder`).
    pub(crate) fn key_list(&mut self, key: &str, mk: &str, keys: &[KeyRef<'_>]) {
        self.before(key);
        match &mut self.sink {
            Sink::Map(map) => {
                let items = keys
                    .iter()
                    .map(|k| {
                        let mut m = Map::new();
                        m.insert(mk.to_owned(), k.to_value());
                        Value::Object(m)
                    })
                    .collect();
                map.insert(key.to_owned(), Value::Array(items));
            }
            Sink::Text(text) => text.key_list(key, mk, keys),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_items_merge_key_goes_where_it_sorts_and_alone_says_nothing() {
        let options = DiffOptions::default();
        let mut text = Text::new();
        let root = text.open_object();
        let mut out = Out::text(&options, &mut text);
        let mut list = out.begin_list("l");
        out.push_object(&mut list, ("name", KeyRef::Str("x")), |sub| {
            sub.insert("a", json!(1));
            // The merge key's own key: the merge key's value is the one kept.
            sub.insert("name", json!("other"));
            sub.insert("z", json!(2));
        });
        out.push_object(&mut list, ("name", KeyRef::Str("y")), |_| {});
        // Written before an empty member that is then dropped: the item is dropped too.
        out.push_object(&mut list, ("name", KeyRef::Str("w")), |sub| {
            sub.object("q", |_| {});
        });
        out.end_list("l", list);
        assert_eq!(
            text.finish(root).unwrap(),
            r#"{"l":[{"a":1,"name":"x","z":2}]}"#
        );
    }

    #[test]
    fn an_early_set_element_order_is_taken_back_with_what_followed() {
        let options = DiffOptions::default();
        let mut text = Text::new();
        let root = text.open_object();
        let mut out = Out::text(&options, &mut text);
        out.insert("a", json!(1));
        let early = out.early_key_list("$setElementOrder/l", "k", &[KeyRef::Int(1)]);
        let list = out.begin_list("l");
        out.abandon_list(list);
        out.retract("$setElementOrder/l", early);
        out.insert("m", json!(2));
        assert_eq!(text.finish(root).unwrap(), r#"{"a":1,"m":2}"#);

        let mut out = Out::new(&options);
        out.insert("a", json!(1));
        let early = out.early_key_list("$setElementOrder/l", "k", &[KeyRef::Int(1)]);
        out.retract("$setElementOrder/l", early);
        assert_eq!(Value::Object(out.into_map()), json!({"a": 1}));
    }
}
