//! Writing the patched document as compact JSON, with each placeholder replaced by the
//! canonical bytes it stands for.
//!
//! Object members come in the map's order (sorted, as `serde_json::Map` keeps them) and
//! scalars are written by serde_json, so the output is what `serde_json::to_string` gives for
//! the document with every placeholder read in full.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use super::canon::{Canon, PLACEHOLDER_BASE, Span};
use super::guide::{REST, RUN_AFTER, RUN_BEFORE, WHOLE_ITEM, is_hidden};
use crate::json_text::write_string;

/// The document as text; `None` when a placeholder is unknown (the caller falls back).
/// `room` is a guess of its length: growing the output once costs a copy of all of it.
pub(super) fn document(doc: &Value, canon: &Canon, room: usize) -> Option<String> {
    let mut out = Vec::with_capacity(room.max(canon.bytes.len()) + 256);
    Writer { canon }.value(&mut out, doc)?;
    String::from_utf8(out).ok()
}

/// A patch created from documents read side by side (see `sides`), as compact JSON: what
/// `serde_json::to_string` prints for it. `None` when it holds a number of the placeholder
/// range, where the stand-in for what every document shares is: the caller then takes the
/// reference path.
pub(super) fn created(patch: &Value) -> Option<String> {
    // Room for a patch of some size up front, rather than grown from a few bytes.
    document(patch, &Canon::default(), 4096)
}

struct Writer<'c> {
    canon: &'c Canon,
}

impl Writer<'_> {
    fn value(&self, out: &mut Vec<u8>, value: &Value) -> Option<()> {
        match value {
            Value::Null => out.extend_from_slice(b"null"),
            Value::Bool(true) => out.extend_from_slice(b"true"),
            Value::Bool(false) => out.extend_from_slice(b"false"),
            Value::Number(n) if is_placeholder(value) => {
                self.canon.emit(out, self.canon.span_of(value)?)?;
            }
            Value::Number(n) => serde_json::to_writer(&mut *out, n).ok()?,
            Value::String(s) => write_string(out, s),
            Value::Array(items) => {
                out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    self.value(out, item)?;
                }
                out.push(b']');
            }
            Value::Object(map) if may_hide(map) => return self.hiding(out, map),
            Value::Object(map) => self.members(out, map.iter(), &[])?,
        }
        Some(())
    }

    /// An object that may carry hidden members (see `guide`): a whole item's shell is its
    /// placeholder; the members the patch did not name are merged in by key; a named item of
    /// a list read as runs has its runs written around it.
    fn hiding(&self, out: &mut Vec<u8>, map: &Map<String, Value>) -> Option<()> {
        // A hidden name holds a placeholder only when it is ours: a live member of such a
        // name is read in full.
        let hidden = |name: &str| map.get(name).filter(|v| is_placeholder(v));
        if let Some(whole) = hidden(WHOLE_ITEM) {
            return self.value(out, whole);
        }
        let (before, after) = (hidden(RUN_BEFORE), hidden(RUN_AFTER));
        let rest = match hidden(REST) {
            Some(rest) => self.canon.members_of(rest)?,
            None => &[],
        };
        if let Some(run) = before {
            self.value(out, run)?;
            out.push(b',');
        }
        let shown = |(key, value): &(&String, &Value)| !(is_hidden(key) && is_placeholder(value));
        self.members(out, map.iter().filter(shown), rest)?;
        if let Some(run) = after {
            out.push(b',');
            self.value(out, run)?;
        }
        Some(())
    }

    /// An object of `members` (in key order) and the copied members `rest` (also in key
    /// order, no key among `members`), merged by key.
    fn members<'v>(
        &self,
        out: &mut Vec<u8>,
        members: impl Iterator<Item = (&'v String, &'v Value)>,
        rest: &[Span],
    ) -> Option<()> {
        out.push(b'{');
        let mut rest = rest.iter().copied().peekable();
        let mut first = true;
        let mut comma = |out: &mut Vec<u8>| {
            if !std::mem::take(&mut first) {
                out.push(b',');
            }
        };
        for (key, item) in members {
            while let Some(copied) = rest.peek().copied() {
                match self.canon.member_key(copied)?.as_ref().cmp(key.as_bytes()) {
                    Ordering::Less => {}
                    Ordering::Greater => break,
                    // Cannot happen: the rest holds what the patch does not name.
                    Ordering::Equal => return None,
                }
                comma(out);
                self.canon.emit(out, copied)?;
                rest.next();
            }
            comma(out);
            write_string(out, key);
            out.push(b':');
            self.value(out, item)?;
        }
        for copied in rest {
            comma(out);
            self.canon.emit(out, copied)?;
        }
        out.push(b'}');
        Some(())
    }
}

/// Whether `map` may hold a hidden member: hidden names start with NUL, so only a map whose
/// first key is empty or starts with NUL can (one look at the first key instead of a search
/// per name).
fn may_hide(map: &Map<String, Value>) -> bool {
    map.keys()
        .next()
        .is_some_and(|k| k.as_bytes().first().is_none_or(|&b| b == 0))
}

fn is_placeholder(value: &Value) -> bool {
    value.as_u64().is_some_and(|u| u >= PLACEHOLDER_BASE)
}
