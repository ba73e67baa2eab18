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
use super::super::canon::{Extent, Span};
use super::{Invalid, Scanner, number_value};
use crate::json_text::{extend_range, prefix_of};

/// A member of an object being copied.
///
/// Every field is a word, written by one store each: a member built with narrower fields was
/// written piecewise and then copied into the list as 16-byte words, and each of those reads
/// waited for the stores it overlapped (a stall that cost more than copying the member's text).
#[derive(Clone, Copy)]
pub(in crate::sparse) struct Member {
    /// The key's first 8 bytes, big-endian, zero-padded: orders most keys without a `memcmp`.
    prefix: u64,
    /// The unescaped key, in one address space: `text[from..to]` below `text.len()`, and
    /// `keys[from - text.len()..to - text.len()]` (a key that had escapes) from there on.
    pub(super) key: (usize, usize),
    /// Its `"key":value` bytes.
    pub(super) span: Span,
}

/// A member's key as copied (with the `:` after it): where its copy starts, and the key
/// placed and ordered as in [`Member`].
#[derive(Clone, Copy)]
pub(in crate::sparse) struct CopiedKey {
    pub(super) start: Extent,
    pub(super) range: (usize, usize),
    prefix: u64,
}

/// What to learn about a copied object's members besides copying them.
pub(in crate::sparse) enum Capture<'k, 'm> {
    /// The members `names`, read in full into `found`.
    Values {
        names: [&'k str; 2],
        found: &'m mut Map<String, Value>,
    },
    /// The range of member `name`'s value, when it is a plain token
    /// ([`Scanner::plain_token`]).
    Token {
        name: &'k str,
        found: Option<(usize, usize)>,
    },
}

/// Whether a number token (`integer`: without fraction or exponent) is written by serde_json
/// as it is: an integer of at most 18 digits other than `-0`.
pub(super) fn verbatim_integer(token: &[u8], integer: bool) -> bool {
    integer && token.len() <= 18 && token != b"-0"
}

/// Key order (`String` order) of two members; `text` and `keys` hold their keys.
#[inline]
fn cmp_members(text: &[u8], keys: &[u8], a: &Member, b: &Member) -> Ordering {
    cmp_keys(text, keys, (a.prefix, a.key), (b.prefix, b.key))
}

/// Key order of two keys given as `(prefix, place)`, as in [`Member`].
#[inline]
fn cmp_keys(
    text: &[u8],
    keys: &[u8],
    a: (u64, (usize, usize)),
    b: (u64, (usize, usize)),
) -> Ordering {
    a.0.cmp(&b.0)
        .then_with(|| key_bytes(text, keys, a.1).cmp(key_bytes(text, keys, b.1)))
}

/// [`prefix_of`] the key `text[from..to]`: read as one word from the text when 8 bytes are
/// there (a key is followed by at least `":` and a value), and cut to the key's length, which
/// costs a few instructions where the byte-by-byte form of a short key costs dozens.
#[inline]
fn key_prefix(text: &[u8], (from, to): (usize, usize)) -> u64 {
    let len = to.saturating_sub(from);
    match text.get(from..).and_then(<[u8]>::first_chunk::<8>) {
        Some(word) if len < 8 => u64::from_be_bytes(*word) & !(u64::MAX >> (8 * len)),
        Some(word) => u64::from_be_bytes(*word),
        None => prefix_of(text.get(from..to).unwrap_or_default()),
    }
}

/// The bytes of a key placed as in [`Member`].
#[inline]
pub(super) fn key_bytes<'t>(
    text: &'t [u8],
    keys: &'t [u8],
    (from, to): (usize, usize),
) -> &'t [u8] {
    match from.checked_sub(text.len()) {
        Some(at) => keys.get(at..to - text.len()),
        None => text.get(from..to),
    }
    .unwrap_or_default()
}

impl Scanner<'_> {
    /// Appends the canonical JSON of the next value to `canon`.
    ///
    /// Strings (most values) are copied here, inlined into the loops over members and items;
    /// everything else goes through [`Scanner::copy_other`].
    #[inline]
    pub(in crate::sparse) fn copy_value(&mut self) -> Result<(), Invalid> {
        if self.peek_value() != Some(b'"') {
            return self.copy_other();
        }
        let start = self.pos;
        if self.string_token()? {
            return self.copy_escaped(start);
        }
        // No escapes: the token is already what serde_json writes.
        self.copy_text(start, self.pos)
    }

    /// Copies the string token from `start` to the scanner, which has escapes: decoded as the
    /// reader decodes it, written as serde_json writes it.
    #[inline(never)]
    fn copy_escaped(&mut self, start: usize) -> Result<(), Invalid> {
        let decoded = self.decode(start)?;
        write_json(&mut self.canon.bytes, &decoded)
    }

    /// [`Scanner::copy_value`] of anything but a string.
    #[inline(never)]
    fn copy_other(&mut self) -> Result<(), Invalid> {
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
            Some(b'-' | b'0'..=b'9') => {
                let start = self.pos;
                let integer = self.number_token()?;
                let token = self.bytes.get(start..self.pos).ok_or(Invalid)?;
                if verbatim_integer(token, integer) {
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
        mut capture: Option<&mut Capture<'_, '_>>,
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
            let key = self.copy_key()?;
            if let Some(capture) = capture.as_deref_mut() {
                self.capture(capture, key.range)?;
            }
            self.copy_value()?;
            self.push_member(key, base, &mut in_order);
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

    /// Copies the next member's key and the `:` after it (for an object read as the patch
    /// guides, in case its value joins the rest: [`Scanner::uncopy_key`] forgets the copy
    /// when it does not).
    #[inline(always)]
    pub(in crate::sparse) fn copy_key(&mut self) -> Result<CopiedKey, Invalid> {
        self.skip_ws();
        if self.bytes.get(self.pos) != Some(&b'"') {
            return Err(Invalid);
        }
        let token = self.pos;
        let escaped = self.string_token()?;
        let start = self.canon.extent();
        if escaped {
            let key = self.decode(token)?;
            write_json(&mut self.canon.bytes, &key)?;
            let at = self.bytes.len() + self.keys.len();
            self.keys.extend_from_slice(key.as_bytes());
            self.colon()?;
            self.canon.bytes.push(b':');
            return Ok(CopiedKey {
                start,
                range: (at, self.bytes.len() + self.keys.len()),
                prefix: prefix_of(key.as_bytes()),
            });
        }
        // No escapes: the quoted token is what serde_json writes, and so is the `:` when it
        // follows at once (one copy for both).
        let range = (token + 1, self.pos - 1);
        if self.bytes.get(self.pos) == Some(&b':') {
            self.pos += 1;
            self.copy_text(token, self.pos)?;
        } else {
            self.copy_text(token, self.pos)?;
            self.colon()?;
            self.canon.bytes.push(b':');
        }
        Ok(CopiedKey {
            start,
            range,
            prefix: key_prefix(self.bytes, range),
        })
    }

    /// Adds the member of `key`, whose value was just copied, to the members from `base`,
    /// noting whether they are still `in_order`.
    #[inline(always)]
    pub(super) fn push_member(&mut self, key: CopiedKey, base: usize, in_order: &mut bool) {
        if *in_order {
            if let Some(last) = self.members.get(base..).and_then(<[Member]>::last) {
                *in_order = cmp_keys(
                    self.bytes,
                    &self.keys,
                    (last.prefix, last.key),
                    (key.prefix, key.range),
                )
                .is_lt();
            }
        }
        self.members.push(Member {
            prefix: key.prefix,
            key: key.range,
            span: self.canon.span_since(key.start),
        });
    }

    /// Learns what `capture` asks about the member whose key is at `range` and whose value is
    /// at the scanner, which does not move.
    fn capture(
        &mut self,
        capture: &mut Capture<'_, '_>,
        range: (usize, usize),
    ) -> Result<(), Invalid> {
        let key = key_bytes(self.bytes, &self.keys, range);
        let (pos, depth) = (self.pos, self.depth);
        match capture {
            Capture::Values { names, found } => {
                if names.iter().any(|n| n.as_bytes() == key) {
                    let name = String::from_utf8(key.to_vec()).map_err(|_| Invalid)?;
                    let value = self.value_full()?;
                    found.insert(name, value);
                }
            }
            Capture::Token { name, found } => {
                if name.as_bytes() == key {
                    *found = self.plain_token();
                }
            }
        }
        (self.pos, self.depth) = (pos, depth);
        Ok(())
    }

    /// Completes the object's `record`: its members (from `base`) in key order, unless they are
    /// `in_order` already. A repeated key is an error.
    fn close_object(&mut self, record: usize, base: usize, in_order: bool) -> Result<(), Invalid> {
        if in_order {
            self.canon.close_object(record);
            return Ok(());
        }
        self.sort_members(base)?;
        let members = self.members.get(base..).unwrap_or_default();
        self.canon
            .close_object_sorted(record, members.iter().map(|m| m.span));
        Ok(())
    }

    /// Sorts the members from `base` by key; a repeated key is an error.
    pub(super) fn sort_members(&mut self, base: usize) -> Result<(), Invalid> {
        let (text, keys) = (self.bytes, self.keys.as_slice());
        let members = self.members.get_mut(base..).unwrap_or_default();
        members.sort_unstable_by(|a, b| cmp_members(text, keys, a, b));
        if members
            .windows(2)
            .any(|w| cmp_members(text, keys, &w[0], &w[1]).is_eq())
        {
            return Err(Invalid);
        }
        Ok(())
    }

    /// Moves past the `:` after a key (and the whitespace before it).
    #[inline]
    fn colon(&mut self) -> Result<(), Invalid> {
        self.skip_ws();
        if self.bytes.get(self.pos) != Some(&b':') {
            return Err(Invalid);
        }
        self.pos += 1;
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
