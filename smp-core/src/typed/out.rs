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
}

enum Sink<'o> {
    Map(Map<String, Value>),
    /// Members go into the innermost open object of the text.
    Text(&'o mut Text),
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
        }
    }

    /// The patch object written into the open object of `text`.
    pub(crate) fn text(options: &'o DiffOptions, text: &'o mut Text) -> Out<'o> {
        Out {
            sink: Sink::Text(text),
            options,
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
        match &mut self.sink {
            Sink::Map(map) => {
                map.insert(key.to_owned(), value);
            }
            Sink::Text(text) => text.member(key, &value),
        }
    }

    /// Sets member `key` to the JSON form of `value`.
    pub(crate) fn insert_key(&mut self, key: &str, value: KeyRef<'_>) {
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
            Sink::Text(text) => {
                for (key, value) in &members {
                    text.member(key, value);
                }
            }
        }
    }

    /// Member `key` as the object `fill` writes, left out when it writes nothing.
    pub(crate) fn object<R>(&mut self, key: &str, fill: impl FnOnce(&mut Out<'_>) -> R) -> R {
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
                let result = fill(&mut Out::text(options, text));
                if text.has_members(&object) {
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

    /// Member `key` as the list `[{mk: k}, ...]` of `keys` (a `$setElementOrder`).
    pub(crate) fn key_list(&mut self, key: &str, mk: &str, keys: &[KeyRef<'_>]) {
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
