//! The canonical text of copied values, and the placeholders that stand for it.
//!
//! Values are copied compact, in source order. An object whose members are out of key order is
//! not rewritten at each level of nesting (that would move its bytes once per enclosing object):
//! its members' order is recorded, and [`Canon::emit`] writes the members in key order when the
//! output is assembled, so each byte is copied once more in all.

use std::borrow::Cow;

use serde_json::Value;

use super::sink::Sink;
use crate::json_text::{extend_range, plain_run};

/// Placeholders are the numbers `PLACEHOLDER_BASE + id`. The caller falls back to the reference
/// path when a real number in this range takes part.
pub(super) const PLACEHOLDER_BASE: u64 = 0xFFFF_FFFF_0000_0000;

/// At most this many placeholders fit in the reserved range.
const MAX_PLACEHOLDERS: usize = 0xFFFF_FFFF;

/// A range of the copied bytes, with the range of `records` made while copying it (the
/// objects inside it, in the order they open).
///
/// Positions are 32-bit: spans and records are made by the thousand, and sorting an object's
/// members moves its spans, so their size counts. The sparse path takes originals of at most
/// [`MAX_TEXT`] bytes, whose copy, records and placeholders all stay below 2^32.
#[derive(Clone, Copy)]
pub(super) struct Span {
    start: u32,
    end: u32,
    records: (u32, u32),
}

/// The longest original the sparse path reads (1 GiB): its canonical copy is at most four
/// times as long (a number such as `1E9` is written `1000000000.0`), so every position in the
/// copy, and every count of records, fits in a [`Span`]'s 32 bits.
pub(super) const MAX_TEXT: usize = 1 << 30;

/// An object copied. Records are made as objects open, so the records inside any span are
/// contiguous and in document order.
struct Record {
    /// Its content: after `{`, before `}`.
    start: u32,
    end: u32,
    /// The index after this record and the records inside it.
    skip: u32,
    /// Its members in key order, `order[first..first + len]`, when that is not the source
    /// order; `len == 0` when it is (the record is then only a container of records).
    first: u32,
    len: u32,
}

/// A position or count in the copy, as [`Span`] and [`Record`] hold it (see [`MAX_TEXT`]).
#[inline(always)]
fn at(n: usize) -> u32 {
    debug_assert!(
        u32::try_from(n).is_ok(),
        "the sparse path's size limit was not checked"
    );
    n as u32
}

/// A position or count held as `u32`, as an index.
#[inline(always)]
fn ix(n: u32) -> usize {
    n as usize
}

/// How much has been copied, to forget what is copied after.
#[derive(Clone, Copy)]
pub(super) struct Extent {
    bytes: usize,
    spans: usize,
    records: usize,
    order: usize,
}

#[derive(Default)]
pub(super) struct Canon {
    /// Copied values, compact, members in source order.
    pub(super) bytes: Sink,
    /// `spans[id]`: what placeholder `id` stands for.
    spans: Vec<Span>,
    records: Vec<Record>,
    order: Vec<Span>,
}

impl Canon {
    /// Room for copying a text of `bytes` bytes without growing (a copy is only longer than
    /// its text where a number is written longer, and the copy loop writes tokens as windows
    /// of up to 32 bytes) and for the objects, placeholders and reordered members of typical
    /// documents: an object per 64 bytes of text, a member per 32 (growing costs more than the
    /// whole copy of a small document).
    pub(super) fn with_capacity(bytes: usize) -> Canon {
        let tables = bytes / 64 + 16;
        Canon {
            bytes: Sink::with_room(bytes + 64),
            spans: Vec::with_capacity(tables),
            records: Vec::with_capacity(tables),
            order: Vec::with_capacity(bytes / 32 + 16),
        }
    }

    pub(super) fn extent(&self) -> Extent {
        Extent {
            bytes: self.bytes.len(),
            spans: self.spans.len(),
            records: self.records.len(),
            order: self.order.len(),
        }
    }

    /// Forgets everything copied after `extent` was taken.
    pub(super) fn truncate(&mut self, extent: Extent) {
        self.bytes.truncate(extent.bytes);
        self.spans.truncate(extent.spans);
        self.records.truncate(extent.records);
        self.order.truncate(extent.order);
    }

    /// The span from `start` (taken with [`Canon::extent`]) to what is copied now.
    pub(super) fn span_since(&self, start: Extent) -> Span {
        Span {
            start: at(start.bytes),
            end: at(self.bytes.len()),
            records: (at(start.records), at(self.records.len())),
        }
    }

    /// An empty span at byte `here` of the copy, for [`Canon::end_span`] to extend. (The copy
    /// loop holds the copy's bytes while it runs, so it says where they end.)
    #[inline(always)]
    pub(super) fn span_at(&self, here: usize) -> Span {
        let (bytes, records) = (at(here), at(self.records.len()));
        Span {
            start: bytes,
            end: bytes,
            records: (records, records),
        }
    }

    /// Extends `span` (from [`Canon::span_at`]) to byte `end` and the records made so far.
    #[inline(always)]
    pub(super) fn end_span(&self, span: &mut Span, end: usize) {
        span.end = at(end);
        span.records.1 = at(self.records.len());
    }

    /// The placeholder for the bytes copied since `start`; `None` when the range is full.
    pub(super) fn placeholder(&mut self, start: Extent) -> Option<Value> {
        self.placeholder_of(self.span_since(start))
    }

    /// A placeholder for `span`, a span taken before.
    pub(super) fn placeholder_of(&mut self, span: Span) -> Option<Value> {
        let id = self.spans.len();
        self.spans.push(span);
        (id < MAX_PLACEHOLDERS).then(|| Value::from(PLACEHOLDER_BASE + id as u64))
    }

    /// A placeholder for `members` (spans of `"key":value`, in key order, at least one):
    /// emitted comma-separated, and listed by [`Canon::members_of`]. Its span holds no bytes
    /// of its own, only a record whose order is the members.
    pub(super) fn members_placeholder(
        &mut self,
        members: impl Iterator<Item = Span>,
    ) -> Option<Value> {
        let (here, record, first) = (
            at(self.bytes.len()),
            at(self.records.len()),
            self.order.len(),
        );
        self.order.extend(members);
        self.records.push(Record {
            start: here,
            end: here,
            skip: record + 1,
            first: at(first),
            len: at(self.order.len() - first),
        });
        self.placeholder_of(Span {
            start: here,
            end: here,
            records: (record, record + 1),
        })
    }

    /// The members a placeholder from [`Canon::members_placeholder`] stands for.
    pub(super) fn members_of(&self, value: &Value) -> Option<&[Span]> {
        let span = self.span_of(value)?;
        let r = self.records.get(ix(span.records.0))?;
        let own = span.start == span.end && span.records.1 == span.records.0 + 1 && r.len > 0;
        own.then(|| self.order.get(ix(r.first)..ix(r.first) + ix(r.len)))?
    }

    /// The key of member `span` (its `"key":value` text), unescaped.
    pub(super) fn member_key(&self, span: Span) -> Option<Cow<'_, [u8]>> {
        let text = self.bytes.as_slice().get(ix(span.start)..ix(span.end))?;
        let token = text.get(..key_token_len(text)?)?;
        let body = token.get(1..token.len() - 1)?;
        if !body.contains(&b'\\') {
            return Some(Cow::Borrowed(body));
        }
        let key: String = serde_json::from_slice(token).ok()?;
        Some(Cow::Owned(key.into_bytes()))
    }

    /// The value of member `span` (its `"key":value` text): the span after the key and `:`.
    pub(super) fn value_of(&self, span: Span) -> Option<Span> {
        let text = self.bytes.as_slice().get(ix(span.start)..ix(span.end))?;
        let len = key_token_len(text)?;
        (text.get(len) == Some(&b':')).then_some(Span {
            start: at(ix(span.start) + len + 1),
            ..span
        })
    }

    /// Makes the record of an object whose content starts at byte `start` of the copy; returns
    /// it for [`Canon::close_object`].
    #[inline]
    pub(super) fn open_object(&mut self, start: usize) -> usize {
        let start = at(start);
        self.records.push(Record {
            start,
            end: start,
            skip: 0,
            first: 0,
            len: 0,
        });
        self.records.len() - 1
    }

    /// Completes the record of an object whose content ends at byte `end` of the copy, its
    /// members being in key order. When no object inside it is out of order either, its text
    /// is emitted as it was copied, so the record is dropped: [`Canon::emit`] then steps over
    /// neither it nor the records of what it holds (those were dropped as they closed). No
    /// span refers to it yet: its own span and its parent's are taken after it closes.
    #[inline]
    pub(super) fn close_object(&mut self, record: usize, end: usize) {
        if self.records.len() == record + 1 {
            self.records.truncate(record);
            return;
        }
        self.close_object_sorted(record, end, std::iter::empty());
    }

    /// Completes the record of an object whose content ends at byte `end` of the copy;
    /// `sorted` are its members in key order, which is not the source order.
    pub(super) fn close_object_sorted(
        &mut self,
        record: usize,
        end: usize,
        sorted: impl Iterator<Item = Span>,
    ) {
        let first = self.order.len();
        self.order.extend(sorted);
        let (end, skip, len) = (
            at(end),
            at(self.records.len()),
            at(self.order.len() - first),
        );
        if let Some(r) = self.records.get_mut(record) {
            (r.end, r.skip, r.first, r.len) = (end, skip, at(first), len);
        }
    }

    /// The span placeholder `value` stands for, if it is one.
    pub(super) fn span_of(&self, value: &Value) -> Option<Span> {
        let id = value.as_u64()?.checked_sub(PLACEHOLDER_BASE)?;
        self.spans.get(usize::try_from(id).ok()?).copied()
    }

    /// Appends the canonical text of `span`: the copied bytes, with the members of each object
    /// inside it in key order.
    pub(super) fn emit(&self, out: &mut Vec<u8>, span: Span) -> Option<()> {
        let bytes = self.bytes.as_slice();
        let mut from = ix(span.start);
        let mut next = ix(span.records.0);
        while next < ix(span.records.1) {
            let r = self.records.get(next)?;
            if r.len == 0 {
                // In order already; the records inside it follow.
                next += 1;
                continue;
            }
            extend_range(out, bytes, from, ix(r.start))?;
            let members = self.order.get(ix(r.first)..ix(r.first) + ix(r.len))?;
            for (i, &member) in members.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                // Most members hold no object out of order: their bytes go as they are.
                if member.records.0 == member.records.1 {
                    extend_range(out, bytes, ix(member.start), ix(member.end))?;
                } else {
                    self.emit(out, member)?;
                }
            }
            from = ix(r.end);
            next = ix(r.skip);
        }
        extend_range(out, bytes, from, ix(span.end))
    }
}

/// The length of the string token `text` starts with, as serde_json writes strings: escapes
/// are `\x` or `\uXXXX`, never a raw `"`.
fn key_token_len(text: &[u8]) -> Option<usize> {
    let mut i = 1;
    loop {
        i = plain_run(text, i);
        match text.get(i)? {
            b'"' => return Some(i + 1),
            _ => i += 2,
        }
    }
}
