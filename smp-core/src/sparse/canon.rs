//! The canonical text of copied values, and the placeholders that stand for it.
//!
//! Values are copied compact, in source order. An object whose members are out of key order is
//! not rewritten at each level of nesting (that would move its bytes once per enclosing object):
//! its members' order is recorded, and [`Canon::emit`] writes the members in key order when the
//! output is assembled, so each byte is copied once more in all.

use std::borrow::Cow;

use serde_json::Value;

use crate::json_text::{extend_range, plain_run};

/// Placeholders are the numbers `PLACEHOLDER_BASE + id`. The caller falls back to the reference
/// path when a real number in this range takes part.
pub(super) const PLACEHOLDER_BASE: u64 = 0xFFFF_FFFF_0000_0000;

/// At most this many placeholders fit in the reserved range.
const MAX_PLACEHOLDERS: usize = 0xFFFF_FFFF;

/// A range of the copied bytes, with the range of `records` made while copying it (the
/// objects inside it, in the order they open).
#[derive(Clone, Copy)]
pub(super) struct Span {
    start: usize,
    end: usize,
    records: (usize, usize),
}

/// An object copied. Records are made as objects open, so the records inside any span are
/// contiguous and in document order.
struct Record {
    /// Its content: after `{`, before `}`.
    start: usize,
    end: usize,
    /// The index after this record and the records inside it.
    skip: usize,
    /// Its members in key order, `order[first..first + len]`, when that is not the source
    /// order; `len == 0` when it is (the record is then only a container of records).
    first: usize,
    len: usize,
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
    pub(super) bytes: Vec<u8>,
    /// `spans[id]`: what placeholder `id` stands for.
    spans: Vec<Span>,
    records: Vec<Record>,
    order: Vec<Span>,
}

impl Canon {
    /// Room for copying a text of `bytes` bytes without growing (a copy is never longer than
    /// its text) and for the objects, placeholders and reordered members of typical
    /// documents: an object per 64 bytes of text, a member per 32 (growing costs more than the
    /// whole copy of a small document).
    pub(super) fn with_capacity(bytes: usize) -> Canon {
        let tables = bytes / 64 + 16;
        Canon {
            bytes: Vec::with_capacity(bytes),
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
            start: start.bytes,
            end: self.bytes.len(),
            records: (start.records, self.records.len()),
        }
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
        let (at, record, first) = (self.bytes.len(), self.records.len(), self.order.len());
        self.order.extend(members);
        self.records.push(Record {
            start: at,
            end: at,
            skip: record + 1,
            first,
            len: self.order.len() - first,
        });
        self.placeholder_of(Span {
            start: at,
            end: at,
            records: (record, record + 1),
        })
    }

    /// The members a placeholder from [`Canon::members_placeholder`] stands for.
    pub(super) fn members_of(&self, value: &Value) -> Option<&[Span]> {
        let span = self.span_of(value)?;
        let r = self.records.get(span.records.0)?;
        let own = span.start == span.end && span.records.1 == span.records.0 + 1 && r.len > 0;
        own.then(|| self.order.get(r.first..r.first + r.len))?
    }

    /// The key of member `span` (its `"key":value` text), unescaped.
    pub(super) fn member_key(&self, span: Span) -> Option<Cow<'_, [u8]>> {
        let text = self.bytes.get(span.start..span.end)?;
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
        let text = self.bytes.get(span.start..span.end)?;
        let len = key_token_len(text)?;
        (text.get(len) == Some(&b':')).then_some(Span {
            start: span.start + len + 1,
            ..span
        })
    }

    /// Makes the record of an object whose content starts now; returns it for
    /// [`Canon::close_object`].
    pub(super) fn open_object(&mut self) -> usize {
        let start = self.bytes.len();
        self.records.push(Record {
            start,
            end: start,
            skip: 0,
            first: 0,
            len: 0,
        });
        self.records.len() - 1
    }

    /// Completes the record of an object whose content ends now, its members being in key
    /// order. When no object inside it is out of order either, its text is emitted as it was
    /// copied, so the record is dropped: [`Canon::emit`] then steps over neither it nor the
    /// records of what it holds (those were dropped as they closed). No span refers to it yet:
    /// its own span and its parent's are taken after it closes.
    pub(super) fn close_object(&mut self, record: usize) {
        if self.records.len() == record + 1 {
            self.records.truncate(record);
            return;
        }
        self.close_object_sorted(record, std::iter::empty());
    }

    /// Completes the record of an object whose content ends now; `sorted` are its members in
    /// key order, which is not the source order.
    pub(super) fn close_object_sorted(
        &mut self,
        record: usize,
        sorted: impl Iterator<Item = Span>,
    ) {
        let first = self.order.len();
        self.order.extend(sorted);
        let (end, skip, len) = (
            self.bytes.len(),
            self.records.len(),
            self.order.len() - first,
        );
        if let Some(r) = self.records.get_mut(record) {
            (r.end, r.skip, r.first, r.len) = (end, skip, first, len);
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
        let mut at = span.start;
        let mut next = span.records.0;
        while next < span.records.1 {
            let r = self.records.get(next)?;
            if r.len == 0 {
                // In order already; the records inside it follow.
                next += 1;
                continue;
            }
            extend_range(out, &self.bytes, at, r.start)?;
            for (i, &member) in self.order.get(r.first..r.first + r.len)?.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                // Most members hold no object out of order: their bytes go as they are.
                if member.records.0 == member.records.1 {
                    extend_range(out, &self.bytes, member.start, member.end)?;
                } else {
                    self.emit(out, member)?;
                }
            }
            at = r.end;
            next = r.skip;
        }
        extend_range(out, &self.bytes, at, span.end)
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
