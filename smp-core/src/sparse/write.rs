//! Writing the patched document as compact JSON, with each placeholder replaced by the
//! canonical bytes it stands for.
//!
//! Object members come in the map's order (sorted, as `serde_json::Map` keeps them) and
//! scalars are written by serde_json, so the output is what `serde_json::to_string` gives for
//! the document with every placeholder read in full.

use serde_json::Value;

use super::canon::{Canon, PLACEHOLDER_BASE};
use super::guide::WHOLE_ITEM;
use crate::json_text::write_string;

/// The document as text; `None` when a placeholder is unknown (the caller falls back).
/// `room` is a guess of its length: growing the output once costs a copy of all of it.
pub(super) fn document(doc: &Value, canon: &Canon, room: usize) -> Option<String> {
    let mut out = Vec::with_capacity(room.max(canon.bytes.len()) + 256);
    Writer { canon }.value(&mut out, doc)?;
    String::from_utf8(out).ok()
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
            Value::Object(map) => {
                if let Some(whole) = map.get(WHOLE_ITEM).filter(|v| is_placeholder(v)) {
                    return self.value(out, whole);
                }
                out.push(b'{');
                for (i, (key, item)) in map.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    write_string(out, key);
                    out.push(b':');
                    self.value(out, item)?;
                }
                out.push(b'}');
            }
        }
        Some(())
    }
}

fn is_placeholder(value: &Value) -> bool {
    value.as_u64().is_some_and(|u| u >= PLACEHOLDER_BASE)
}
