//! Copy mode: a value's canonical JSON into [`Canon`], checked as strictly as the reader
//! checks it.
//!
//! Strings without escapes and integers of at most 18 digits are copied as they are (that is
//! what serde_json writes for them); other strings and numbers are decoded as the reader decodes
//! them and written by serde_json. Objects are copied in source order; their keys are compared
//! to find repeats and, when out of order, the key order is recorded for [`Canon::emit`].

use std::cmp::Ordering;

use serde_json::{Map, Value};

#[cfg(test)]
use super::super::canon::Canon;
use super::super::canon::Span;
use super::{Invalid, Scanner, number_value};
use crate::json_text::{extend_range, prefix_of};

/// A member of an object being copied.
pub(super) struct Member {
    /// The key's first 8 bytes, big-endian, zero-padded: orders most keys without a `memcmp`.
    prefix: u64,
    /// The unescaped key: `text[key.0..key.1]`, or `keys[key.0..key.1]` when it was escaped.
    key: (usize, usize),
    escaped: bool,
    /// Its `"key":value` bytes.
    span: Span,
}

/// Members of a copied object that are also read in full.
pub(in crate::sparse) struct Capture<'k> {
    pub(in crate::sparse) names: [&'k str; 2],
    pub(in crate::sparse) found: Map<String, Value>,
}

/// Key order (`String` order) of two members; `text` and `keys` hold their keys.
#[inline]
fn cmp_members(text: &[u8], keys: &[u8], a: &Member, b: &Member) -> Ordering {
    a.prefix.cmp(&b.prefix).then_with(|| {
        let bytes = |m: &Member| {
            let source = if m.escaped { keys } else { text };
            source.get(m.key.0..m.key.1).unwrap_or_default()
        };
        bytes(a).cmp(bytes(b))
    })
}

impl Scanner<'_> {
    /// Appends the canonical JSON of the next value to `canon`.
    pub(in crate::sparse) fn copy_value(&mut self) -> Result<(), Invalid> {
        match self.peek_value() {
            Some(b'{') => self.copy_object(None),
            Some(b'[') => {
                if self.open()? {
                    self.canon.bytes.extend_from_slice(b"[]");
                    return Ok(());
                }
                self.canon.bytes.push(b'[');
                loop {
                    self.copy_value()?;
                    if !self.next_or_close(b']')? {
                        self.canon.bytes.push(b']');
                        return Ok(());
                    }
                    self.canon.bytes.push(b',');
                }
            }
            Some(b'"') => {
                let start = self.pos;
                if self.string_token()? {
                    let decoded = self.decode(start)?;
                    write_json(&mut self.canon.bytes, &decoded)
                } else {
                    // No escapes: the token is already what serde_json writes.
                    self.copy_text(start, self.pos)
                }
            }
            Some(b'-' | b'0'..=b'9') => {
                let start = self.pos;
                let integer = self.number_token()?;
                let len = self.pos - start;
                let minus_zero = len == 2 && self.bytes.get(start..self.pos) == Some(b"-0");
                if integer && len <= 18 && !minus_zero {
                    // An integer of at most 18 digits: serde_json writes it as it is.
                    return self.copy_text(start, self.pos);
                }
                let token = self.text.get(start..self.pos).ok_or(Invalid)?;
                write_json(&mut self.canon.bytes, &number_value(token).ok_or(Invalid)?)
            }
            _ => {
                let word = self.literal()?;
                self.canon.bytes.extend_from_slice(word.as_bytes());
                Ok(())
            }
        }
    }

    /// Copies the object at the scanner; the members `capture` names are read in full as well.
    pub(in crate::sparse) fn copy_object(
        &mut self,
        mut capture: Option<&mut Capture<'_>>,
    ) -> Result<(), Invalid> {
        if self.open()? {
            self.canon.bytes.extend_from_slice(b"{}");
            return Ok(());
        }
        self.canon.bytes.push(b'{');
        let record = self.canon.open_object();
        let (base, keys_base) = (self.members.len(), self.keys.len());
        let mut in_order = true;
        loop {
            self.skip_ws();
            if self.bytes.get(self.pos) != Some(&b'"') {
                return Err(Invalid);
            }
            let token = self.pos;
            let escaped = self.string_token()?;
            let start = self.canon.extent();
            let range = if escaped {
                let key = self.decode(token)?;
                write_json(&mut self.canon.bytes, &key)?;
                let at = self.keys.len();
                self.keys.extend_from_slice(key.as_bytes());
                (at, self.keys.len())
            } else {
                // No escapes: the quoted token is what serde_json writes.
                self.copy_text(token, self.pos)?;
                (token + 1, self.pos - 1)
            };
            self.skip_ws();
            if self.bytes.get(self.pos) != Some(&b':') {
                return Err(Invalid);
            }
            self.pos += 1;
            self.canon.bytes.push(b':');
            let source = if escaped { &self.keys } else { self.bytes };
            let key = source.get(range.0..range.1).unwrap_or_default();
            let prefix = prefix_of(key);
            if let Some(capture) = capture.as_deref_mut() {
                if capture.names.iter().any(|n| n.as_bytes() == key) {
                    let name = String::from_utf8(key.to_vec()).map_err(|_| Invalid)?;
                    let (pos, depth) = (self.pos, self.depth);
                    let value = self.value_full()?;
                    capture.found.insert(name, value);
                    (self.pos, self.depth) = (pos, depth);
                }
            }
            self.copy_value()?;
            let member = Member {
                prefix,
                key: range,
                escaped,
                span: self.canon.span_since(start),
            };
            if in_order {
                if let Some(last) = self.members.get(base..).and_then(<[Member]>::last) {
                    in_order = cmp_members(self.bytes, &self.keys, last, &member).is_lt();
                }
            }
            self.members.push(member);
            if !self.next_or_close(b'}')? {
                break;
            }
            self.canon.bytes.push(b',');
        }
        self.close_object(record, base, in_order)?;
        self.members.truncate(base);
        self.keys.truncate(keys_base);
        self.canon.bytes.push(b'}');
        Ok(())
    }

    /// Completes the object's `record`: its members (from `base`) in key order, unless they are
    /// `in_order` already. A repeated key is an error.
    fn close_object(&mut self, record: usize, base: usize, in_order: bool) -> Result<(), Invalid> {
        if in_order {
            self.canon.close_object(record);
            return Ok(());
        }
        let (text, keys) = (self.bytes, self.keys.as_slice());
        let members = self.members.get_mut(base..).unwrap_or_default();
        members.sort_unstable_by(|a, b| cmp_members(text, keys, a, b));
        if members
            .windows(2)
            .any(|w| cmp_members(text, keys, &w[0], &w[1]).is_eq())
        {
            return Err(Invalid);
        }
        self.canon
            .close_object_sorted(record, members.iter().map(|m| m.span));
        Ok(())
    }

    /// Appends `text[start..end]` (a token: see [`extend_range`]).
    #[inline]
    fn copy_text(&mut self, start: usize, end: usize) -> Result<(), Invalid> {
        extend_range(&mut self.canon.bytes, self.bytes, start, end).ok_or(Invalid)
    }
}

/// Appends what serde_json writes for `value`.
fn write_json<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), Invalid> {
    serde_json::to_writer(out, value).map_err(|_| Invalid)
}

/// A copy of `canon` as it would be emitted, for tests.
#[cfg(test)]
pub(in crate::sparse) fn emitted(canon: &Canon, span: Span) -> Result<String, Invalid> {
    let mut out = Vec::new();
    canon.emit(&mut out, span).ok_or(Invalid)?;
    String::from_utf8(out).map_err(|_| Invalid)
}
