//! The typed diff's patch written straight to canonical JSON text.
//!
//! A patch built as a `Value` costs an allocation per string, per key and per object (a whole
//! B-tree node even for `{"name":"c1"}`), and as much again to drop; for a patch of a few
//! hundred members that is most of the diff. Here members go into one buffer as `"key":value`
//! in the order the diff finds them, and an object puts its members in key order when it
//! closes, so the text is what `serde_json::to_string` gives for the `Value` the map-building
//! diff makes (see [`super::Out`]). An object whose members came in key order already is left
//! as written; one that did not is rewritten once, when it closes. (Recording the order and
//! assembling the text at the end, as the sparse apply does for copied originals, measured
//! slower here: patches are small and their objects few.)

use serde_json::Value;

use crate::deep::MAX_DEPTH;
use crate::error::{JsonPath, PatchError};
use crate::json_text::{prefix_of, write_string, write_value};

use super::KeyRef;

mod serialize;

/// The writer. Containers nest as the diff recurses; [`Object`], [`Array`] and [`MemberAt`]
/// are the caller's handles on what is open.
pub(crate) struct Text {
    /// The text so far.
    buf: Vec<u8>,
    /// The keys of the members of open objects, unescaped.
    keys: Vec<u8>,
    /// The members of open objects, innermost object last.
    members: Vec<Entry>,
    /// Where the members of the innermost open object start in `members`.
    base: usize,
    /// Containers open around the write position.
    depth: usize,
    /// A container kept in the patch sits deeper than [`MAX_DEPTH`].
    too_deep: bool,
    /// Reused when an object's members are put in key order.
    order: Vec<usize>,
    scratch: Vec<u8>,
}

/// A member of an open object: its key in `keys` and its `"key":value` text in `buf`.
#[derive(Clone, Copy)]
struct Entry {
    /// The key's first 8 bytes, big-endian, zero-padded: orders most keys without a `memcmp`.
    prefix: u64,
    key: (usize, usize),
    span: (usize, usize),
}

impl Entry {
    /// Key order (`String` order) of two members whose keys are in `keys`.
    fn cmp(&self, other: &Entry, keys: &[u8]) -> std::cmp::Ordering {
        self.prefix.cmp(&other.prefix).then_with(|| {
            let key = |e: &Entry| keys.get(e.key.0..e.key.1).unwrap_or_default();
            key(self).cmp(key(other))
        })
    }
}

/// An open object.
pub(crate) struct Object {
    /// Where its `{` is.
    start: usize,
    /// Where its members start in `members`.
    base: usize,
    /// The enclosing object's `base`.
    outer: usize,
    /// Its nesting level (the root object is 0).
    depth: usize,
}

/// An open array.
pub(crate) struct Array {
    start: usize,
    depth: usize,
    len: usize,
}

impl Array {
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Counts an item written since [`Text::begin_item`].
    pub(crate) fn item_written(&mut self) {
        self.len += 1;
    }
}

/// A member whose value is being written.
pub(crate) struct MemberAt {
    /// Before its separating comma: where the text goes back to if the member is dropped.
    at: usize,
    /// At its key.
    span: usize,
}

/// A point to go back to, forgetting everything written since.
pub(crate) struct Mark {
    buf: usize,
    keys: usize,
    members: usize,
    base: usize,
    depth: usize,
    too_deep: bool,
}

impl Text {
    pub(crate) fn new() -> Text {
        Text {
            buf: Vec::with_capacity(1024),
            keys: Vec::with_capacity(256),
            members: Vec::with_capacity(32),
            base: 0,
            depth: 0,
            too_deep: false,
            order: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Closes `root` and gives the text (`{}` when it has no members), or the error
    /// [`crate::Patch::from_value`] gives for the same patch as a `Value` when it nests too
    /// deep.
    pub(crate) fn finish(mut self, root: Object) -> Result<String, PatchError> {
        if !self.close_object(root) {
            self.buf.extend_from_slice(b"{}");
        }
        if self.too_deep {
            return Err(PatchError::TooDeep {
                path: JsonPath::root(),
                limit: MAX_DEPTH,
            });
        }
        String::from_utf8(self.buf).map_err(|e| PatchError::Deserialize {
            path: JsonPath::root(),
            detail: e.to_string(),
        })
    }

    pub(crate) fn mark(&self) -> Mark {
        Mark {
            buf: self.buf.len(),
            keys: self.keys.len(),
            members: self.members.len(),
            base: self.base,
            depth: self.depth,
            too_deep: self.too_deep,
        }
    }

    /// Goes back to `mark`, with everything opened since then abandoned.
    pub(crate) fn reset(&mut self, mark: Mark) {
        self.buf.truncate(mark.buf);
        self.keys.truncate(mark.keys);
        self.members.truncate(mark.members);
        self.base = mark.base;
        self.depth = mark.depth;
        self.too_deep = mark.too_deep;
    }

    /// Opens an object (as a member's value, an array item or the root).
    pub(crate) fn open_object(&mut self) -> Object {
        let object = Object {
            start: self.buf.len(),
            base: self.members.len(),
            outer: self.base,
            depth: self.depth,
        };
        self.buf.push(b'{');
        self.base = self.members.len();
        self.depth += 1;
        object
    }

    /// Closes `object`: `false` when it has no members, and then its text is gone; otherwise
    /// its members are in key order (the last one written wins for a repeated key, as in a
    /// map).
    pub(crate) fn close_object(&mut self, object: Object) -> bool {
        self.depth = object.depth;
        self.base = object.outer;
        let Some(first) = self.members.get(object.base).copied() else {
            self.buf.truncate(object.start);
            return false;
        };
        self.put_in_order(object.start + 1, object.base);
        self.buf.push(b'}');
        self.members.truncate(object.base);
        self.keys.truncate(first.key.0);
        self.keep_container(object.depth);
        true
    }

    /// Forgets the members written in `object`, which stays open.
    pub(crate) fn clear_object(&mut self, object: &Object) {
        if let Some(first) = self.members.get(object.base) {
            self.keys.truncate(first.key.0);
        }
        self.members.truncate(object.base);
        self.buf.truncate(object.start + 1);
    }

    /// Starts member `key` of the innermost open object; its value is written next.
    pub(crate) fn begin_member(&mut self, key: &str) -> MemberAt {
        let at = self.buf.len();
        if self.members.len() > self.base {
            self.buf.push(b',');
        }
        let span = self.buf.len();
        write_string(&mut self.buf, key);
        self.buf.push(b':');
        MemberAt { at, span }
    }

    /// Ends the member begun with `at`, whose value is written.
    pub(crate) fn end_member(&mut self, at: MemberAt, key: &str) {
        let start = self.keys.len();
        self.keys.extend_from_slice(key.as_bytes());
        self.members.push(Entry {
            prefix: prefix_of(key.as_bytes()),
            key: (start, self.keys.len()),
            span: (at.span, self.buf.len()),
        });
    }

    /// Drops the member begun with `at` (its value turned out empty).
    pub(crate) fn cancel_member(&mut self, at: MemberAt) {
        self.buf.truncate(at.at);
    }

    /// Writes member `key` with `value`.
    pub(crate) fn member(&mut self, key: &str, value: &Value) {
        let at = self.begin_member(key);
        self.value(value);
        self.end_member(at, key);
    }

    /// How many members of `object` have been written.
    pub(crate) fn members_of(&self, object: &Object) -> usize {
        self.members.len().saturating_sub(object.base)
    }

    /// Writes member `key` with the JSON form of `value`.
    pub(crate) fn key_member(&mut self, key: &str, value: KeyRef<'_>) {
        let at = self.begin_member(key);
        self.key(value);
        self.end_member(at, key);
    }

    /// Writes `key` (its JSON form, as [`KeyRef::to_value`] has it) where a value goes.
    pub(crate) fn key(&mut self, key: KeyRef<'_>) {
        match key {
            KeyRef::Str(s) => write_string(&mut self.buf, s),
            other => write_value(&mut self.buf, &other.to_value()),
        }
    }

    /// Writes `value` where a value goes.
    pub(crate) fn value(&mut self, value: &Value) {
        if matches!(value, Value::Object(_) | Value::Array(_)) {
            // As `Patch::from_value` checks the whole patch: the value's containers start at
            // this level.
            let deep = match MAX_DEPTH.checked_sub(self.depth) {
                Some(room) => crate::deep::nests_deeper_than(value, room),
                None => true,
            };
            self.too_deep |= deep;
        }
        write_value(&mut self.buf, value);
    }

    /// Opens an array (as a member's value).
    pub(crate) fn open_array(&mut self) -> Array {
        let array = Array {
            start: self.buf.len(),
            depth: self.depth,
            len: 0,
        };
        self.buf.push(b'[');
        self.depth += 1;
        array
    }

    /// Starts an item of `array`; returns where to go back to if it is dropped.
    pub(crate) fn begin_item(&mut self, array: &Array) -> usize {
        let at = self.buf.len();
        if array.len > 0 {
            self.buf.push(b',');
        }
        at
    }

    /// Drops the item begun at `at`.
    pub(crate) fn cancel_item(&mut self, at: usize) {
        self.buf.truncate(at);
    }

    /// Closes `array`: `false` when it has no items, and then its text is gone.
    pub(crate) fn close_array(&mut self, array: Array) -> bool {
        self.depth = array.depth;
        if array.len == 0 {
            self.buf.truncate(array.start);
            return false;
        }
        self.buf.push(b']');
        self.keep_container(array.depth);
        true
    }

    /// Writes member `key` as the list `[{mk: k}, ...]` of `keys` (a `$setElementOrder`).
    pub(crate) fn key_list(&mut self, key: &str, mk: &str, keys: &[KeyRef<'_>]) {
        let at = self.begin_member(key);
        self.buf.push(b'[');
        // `{"mk":` written once, then copied for each item.
        let mut head = 0..0;
        for (i, &k) in keys.iter().enumerate() {
            if i == 0 {
                let start = self.buf.len();
                self.buf.push(b'{');
                write_string(&mut self.buf, mk);
                self.buf.push(b':');
                head = start..self.buf.len();
            } else {
                self.buf.push(b',');
                self.buf.extend_from_within(head.clone());
            }
            self.key(k);
            self.buf.push(b'}');
        }
        self.buf.push(b']');
        if !keys.is_empty() {
            // The array at this level, its objects one below.
            self.keep_container(self.depth + 1);
        }
        self.keep_container(self.depth);
        self.end_member(at, key);
    }

    /// Notes that a container at nesting level `depth` stays in the patch.
    fn keep_container(&mut self, depth: usize) {
        self.too_deep |= depth >= MAX_DEPTH;
    }

    /// Puts the members `members[base..]`, written from `buf[start..]` on with a comma between
    /// them, in key order, keeping only the last of members with the same key.
    fn put_in_order(&mut self, start: usize, base: usize) {
        let entries = self.members.get(base..).unwrap_or_default();
        let keys = self.keys.as_slice();
        if entries.windows(2).all(|w| w[0].cmp(&w[1], keys).is_lt()) {
            return;
        }
        self.order.clear();
        self.order.extend(0..entries.len());
        // Stable: of members with the same key, the last written ends up last.
        self.order
            .sort_by(|&a, &b| entries[a].cmp(&entries[b], keys));
        self.scratch.clear();
        for (n, &i) in self.order.iter().enumerate() {
            let repeated = self.order.get(n + 1);
            if repeated.is_some_and(|&next| entries[next].cmp(&entries[i], keys).is_eq()) {
                continue;
            }
            if !self.scratch.is_empty() {
                self.scratch.push(b',');
            }
            let span = entries[i].span;
            self.scratch
                .extend_from_slice(self.buf.get(span.0..span.1).unwrap_or_default());
        }
        self.buf.truncate(start);
        self.buf.extend_from_slice(&self.scratch);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn finished(text: Text, root: Object) -> String {
        text.finish(root).unwrap()
    }

    #[test]
    fn members_come_out_in_key_order_and_the_last_of_a_key_wins() {
        let mut text = Text::new();
        let root = text.open_object();
        text.member("b", &json!(1));
        text.member("$setElementOrder/b", &json!([{"k": 1}]));
        text.member("a", &json!({"z": 1, "y": [2]}));
        text.member("b", &json!(2));
        text.member("é", &json!("\u{1}\"\\"));
        let out = finished(text, root);
        let want = json!({"$setElementOrder/b": [{"k": 1}], "a": {"y": [2], "z": 1}, "b": 2,
            "é": "\u{1}\"\\"});
        assert_eq!(out, want.to_string());
    }

    #[test]
    fn empty_objects_and_lists_are_left_out() {
        let mut text = Text::new();
        let root = text.open_object();
        let at = text.begin_member("empty");
        let inner = text.open_object();
        assert!(!text.close_object(inner));
        text.cancel_member(at);
        let at = text.begin_member("list");
        let array = text.open_array();
        assert!(array.is_empty());
        assert!(!text.close_array(array));
        text.cancel_member(at);
        text.member("x", &Value::Null);
        assert_eq!(finished(text, root), r#"{"x":null}"#);
        let mut text = Text::new();
        let root = text.open_object();
        assert_eq!(finished(text, root), "{}");
    }

    #[test]
    fn a_list_can_be_abandoned() {
        let mut text = Text::new();
        let root = text.open_object();
        text.member("a", &json!(1));
        text.key_list("$setElementOrder/l", "name", &[KeyRef::Str("x")]);
        let mark = text.mark();
        let _list = text.begin_member("l");
        let mut array = text.open_array();
        text.begin_item(&array);
        text.value(&json!({"name": "x"}));
        array.item_written();
        text.reset(mark);
        text.member("c", &json!(3));
        assert_eq!(
            finished(text, root),
            r#"{"$setElementOrder/l":[{"name":"x"}],"a":1,"c":3}"#
        );
    }

    #[test]
    fn key_lists_write_every_key_kind() {
        let mut text = Text::new();
        let root = text.open_object();
        let keys = [
            KeyRef::Str("a\"b"),
            KeyRef::Int(-1),
            KeyRef::UInt(u64::MAX),
            KeyRef::Bool(true),
            KeyRef::Null,
        ];
        text.key_list("$setElementOrder/l", "k", &keys);
        let want = json!({"$setElementOrder/l": [{"k": "a\"b"}, {"k": -1}, {"k": u64::MAX},
            {"k": true}, {"k": null}]});
        assert_eq!(finished(text, root), want.to_string());
    }

    #[test]
    fn nesting_past_the_limit_is_the_error_a_value_patch_gives() {
        // Containers at levels 0 ..= MAX_DEPTH - 1 are allowed, as `Patch::from_value` has it.
        let nested = |levels: usize| {
            let mut v = json!(1);
            for _ in 0..levels {
                v = json!({ "a": v });
            }
            v
        };
        for (levels, ok) in [(MAX_DEPTH, true), (MAX_DEPTH + 1, false)] {
            let mut text = Text::new();
            let root = text.open_object();
            text.member("a", &nested(levels - 1));
            let by_value = crate::Patch::from_value(nested(levels));
            assert_eq!(by_value.is_ok(), ok, "{levels} levels");
            assert_eq!(text.finish(root).is_ok(), ok, "{levels} levels");
        }
    }
}
