//! Copy mode: a value's canonical JSON into [`Canon`](crate::sparse::canon::Canon), checked as
//! strictly as the reader checks it.
//!
//! Strings without escapes and integers of at most 18 digits are copied as they are (that is
//! what serde_json writes for them); other strings and numbers are decoded as the reader decodes
//! them and written by serde_json. Objects are copied in source order; their keys are compared
//! to find repeats and, when out of order, the key order is recorded for
//! [`Canon::emit`](crate::sparse::canon::Canon::emit).
//!
//! Strings and keys are copied by [`put_string`] and [`put_key`], which the scanner (for the
//! members of an object read as the patch guides) and the copy loop of `walk` (for objects and
//! lists) share.

use std::cmp::Ordering;

use serde_json::{Map, Value};

#[cfg(test)]
use super::super::canon::Canon;
use super::super::canon::{Extent, Span};
use super::super::sink::{put_bytes, put_range};
use super::lex::{colon_end, decode, string_end};
use super::walk::Walk;
use super::{Invalid, Scanner, number_value};
use crate::json_text::prefix_of;

/// A member of an object being copied.
///
/// Every field is a word or two 32-bit halves, written by one store each: a member built with
/// narrower fields was written piecewise and then copied into the list as 16-byte words, and
/// each of those reads waited for the stores it overlapped (a stall that cost more than copying
/// the member's text). Sorting an object moves its members, so they are kept small.
#[derive(Clone, Copy)]
pub(in crate::sparse) struct Member {
    /// The key's first 8 bytes, big-endian, zero-padded: orders most keys without a `memcmp`.
    pub(super) prefix: u64,
    /// The unescaped key, see [`KeyAt`].
    pub(super) key: KeyAt,
    /// Its `"key":value` bytes.
    pub(super) span: Span,
}

/// Where a key's unescaped bytes are, in one address space: `text[from..to]` below
/// `text.len()`, and `keys[from - text.len()..to - text.len()]` (a key that had escapes) from
/// there on. 32-bit, as the sparse path reads texts of at most [`super::super::canon::MAX_TEXT`]
/// bytes.
pub(in crate::sparse) type KeyAt = (u32, u32);

/// [`KeyAt`] of `from..to`.
#[inline(always)]
pub(super) fn key_at(from: usize, to: usize) -> KeyAt {
    debug_assert!(
        u32::try_from(to).is_ok(),
        "the sparse path's size limit was not checked"
    );
    (from as u32, to as u32)
}

/// A member's key as copied (with the `:` after it): where its copy starts, and the key
/// placed and ordered as in [`Member`].
#[derive(Clone, Copy)]
pub(in crate::sparse) struct CopiedKey {
    pub(super) start: Extent,
    pub(super) range: KeyAt,
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
pub(super) fn cmp_keys(text: &[u8], keys: &[u8], a: (u64, KeyAt), b: (u64, KeyAt)) -> Ordering {
    a.0.cmp(&b.0)
        .then_with(|| key_bytes(text, keys, a.1).cmp(key_bytes(text, keys, b.1)))
}

/// [`prefix_of`] the key `text[from..to]`: read as one word from the text when 8 bytes are
/// there (a key is followed by at least `":` and a value), and cut to the key's length, which
/// costs a few instructions where the byte-by-byte form of a short key costs dozens.
#[inline(always)]
pub(super) fn key_prefix(text: &[u8], from: usize, to: usize) -> u64 {
    let len = to.saturating_sub(from);
    match text.get(from..).and_then(<[u8]>::first_chunk::<8>) {
        Some(word) if len < 8 => u64::from_be_bytes(*word) & !(u64::MAX >> (8 * len)),
        Some(word) => u64::from_be_bytes(*word),
        None => prefix_of(text.get(from..to).unwrap_or_default()),
    }
}

/// The bytes of a key placed as in [`Member`].
#[inline]
pub(super) fn key_bytes<'t>(text: &'t [u8], keys: &'t [u8], (from, to): KeyAt) -> &'t [u8] {
    let (from, to) = (from as usize, to as usize);
    match from.checked_sub(text.len()) {
        Some(at) => keys.get(at..to - text.len()),
        None => text.get(from..to),
    }
    .unwrap_or_default()
}

/// Sorts `members` by key; a repeated key is an error.
pub(super) fn sort_members(
    text: &[u8],
    keys: &[u8],
    members: &mut [Member],
) -> Result<(), Invalid> {
    members.sort_unstable_by(|a, b| cmp_members(text, keys, a, b));
    if members
        .windows(2)
        .any(|w| cmp_members(text, keys, &w[0], &w[1]).is_eq())
    {
        return Err(Invalid);
    }
    Ok(())
}

impl Scanner<'_> {
    /// Appends the canonical JSON of the next value to `canon`.
    ///
    /// Strings (most values) are copied here, inlined into the loops over members and items;
    /// everything else goes through a walk (see `walk`).
    #[inline]
    pub(in crate::sparse) fn copy_value(&mut self) -> Result<(), Invalid> {
        if self.peek_value() != Some(b'"') {
            return self.walk(None);
        }
        let (room, len) = self.canon.bytes.parts_mut();
        self.pos = put_string(self.text, self.pos, room, len)?;
        Ok(())
    }

    /// Copies the object at the scanner; the members `capture` names are read in full as well.
    pub(in crate::sparse) fn copy_object(
        &mut self,
        capture: Option<&mut Capture<'_, '_>>,
    ) -> Result<(), Invalid> {
        self.walk(capture)
    }

    /// Copies the next value with the copy loop (see `walk`).
    #[inline(never)]
    fn walk(&mut self, capture: Option<&mut Capture<'_, '_>>) -> Result<(), Invalid> {
        Walk::copy(self, capture)
    }

    /// Copies the next member's key and the `:` after it (for an object read as the patch
    /// guides, in case its value joins the rest: [`Scanner::uncopy_key`] forgets the copy
    /// when it does not).
    #[inline(always)]
    pub(in crate::sparse) fn copy_key(&mut self) -> Result<CopiedKey, Invalid> {
        self.skip_ws();
        let start = self.canon.extent();
        let (room, len) = self.canon.bytes.parts_mut();
        let (pos, range, prefix) = put_key(self.text, self.pos, room, len, &mut self.keys)?;
        self.pos = pos;
        Ok(CopiedKey {
            start,
            range,
            prefix,
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

    /// Sorts the members from `base` by key; a repeated key is an error.
    pub(super) fn sort_members(&mut self, base: usize) -> Result<(), Invalid> {
        let members = self.members.get_mut(base..).unwrap_or_default();
        sort_members(self.bytes, &self.keys, members)
    }
}

/// Copies the string token at `start` into the copy `room[..*len]` as serde_json writes it, and
/// returns where the token ends. Shared by the scanner (a string member of an object read as
/// the patch guides) and the copy loop of `walk`, which holds the copy's storage in registers
/// (see `sink`), hence the storage passed as parts.
#[inline(always)]
pub(super) fn put_string(
    text: &str,
    start: usize,
    room: &mut Vec<u8>,
    len: &mut usize,
) -> Result<usize, Invalid> {
    let (end, escaped) = string_end(text.as_bytes(), start)?;
    if escaped {
        let (json, _) = string_json(text, start, end)?;
        put_bytes(room, len, &json);
    } else {
        // No escapes: the token is already what serde_json writes.
        put_range(room, len, text.as_bytes(), start, end).ok_or(Invalid)?;
    }
    Ok(end)
}

/// Copies the key token at `token` and the `:` after it into the copy `room[..*len]`; a key
/// with escapes goes unescaped onto `keys`. Returns the position after the `:`, where the key's
/// bytes are and its prefix (see [`Member`]). Shared as [`put_string`] is.
#[inline(always)]
pub(super) fn put_key(
    text: &str,
    token: usize,
    room: &mut Vec<u8>,
    len: &mut usize,
    keys: &mut Vec<u8>,
) -> Result<(usize, KeyAt, u64), Invalid> {
    let bytes = text.as_bytes();
    if bytes.get(token) != Some(&b'"') {
        return Err(Invalid);
    }
    let (end, escaped) = string_end(bytes, token)?;
    if escaped {
        let (json, key) = string_json(text, token, end)?;
        put_bytes(room, len, &json);
        let from = bytes.len() + keys.len();
        keys.extend_from_slice(key.as_bytes());
        let pos = colon_end(bytes, end)?;
        put_bytes(room, len, b":");
        let to = bytes.len() + keys.len();
        return Ok((pos, key_at(from, to), prefix_of(key.as_bytes())));
    }
    // No escapes: the quoted token is what serde_json writes, and so is the `:` when it
    // follows at once (one copy for both).
    let pos = if bytes.get(end) == Some(&b':') {
        put_range(room, len, bytes, token, end + 1).ok_or(Invalid)?;
        end + 1
    } else {
        put_range(room, len, bytes, token, end).ok_or(Invalid)?;
        put_bytes(room, len, b":");
        colon_end(bytes, end)?
    };
    let (from, to) = (token + 1, end - 1);
    Ok((pos, key_at(from, to), key_prefix(bytes, from, to)))
}

/// What serde_json writes for the number token `text[start..end]`, converted as the reader
/// converts it.
#[inline(never)]
pub(super) fn number_json(text: &str, start: usize, end: usize) -> Result<Vec<u8>, Invalid> {
    let token = text.get(start..end).ok_or(Invalid)?;
    serde_json::to_vec(&number_value(token).ok_or(Invalid)?).map_err(|_| Invalid)
}

/// What serde_json writes for the string token `text[start..end]`, which has escapes, and the
/// string itself.
#[inline(never)]
pub(super) fn string_json(
    text: &str,
    start: usize,
    end: usize,
) -> Result<(Vec<u8>, String), Invalid> {
    let string = decode(text, start, end)?;
    let json = serde_json::to_vec(&string).map_err(|_| Invalid)?;
    Ok((json, string))
}

/// A copy of `canon` as it would be emitted, for tests.
#[cfg(test)]
pub(in crate::sparse) fn emitted(canon: &Canon, span: Span) -> Result<String, Invalid> {
    let mut out = Vec::new();
    canon.emit(&mut out, span).ok_or(Invalid)?;
    String::from_utf8(out).map_err(|_| Invalid)
}
