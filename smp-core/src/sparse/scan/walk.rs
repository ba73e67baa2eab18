//! The copy loop: one value copied as canonical JSON, objects and lists by a loop over an
//! explicit stack of the containers open rather than by a call per value.
//!
//! Copy mode's rules are `copy`'s; this is how they run fast. The loop holds the position in
//! the text and the copy's storage and cursor by value ([`Walk`]), in fields the compiler keeps
//! in registers. That holds only while no reference to the walk leaves the loop: its methods
//! are inlined into it, the storage grows by value (see `sink`), and the slow paths (escapes,
//! numbers serde_json writes differently, captures) are out of line and take plain values.
//! Methods of the scanner instead wrote the position and the copy's length back to it and read
//! them again at every token, a chain of stores and loads that cost more than the copy (pod50:
//! the copy of the whole document went from about 46 to 42 µs).

use std::mem;

use super::copy::{
    Capture, Member, cmp_keys, key_bytes, number_json, put_key, put_string, sort_members,
    verbatim_integer,
};
use super::lex::{literal_at, number_end, ws_end};
use super::{At, Invalid, Scanner};
use crate::deep::MAX_NESTING;
use crate::sparse::canon::Canon;
use crate::sparse::sink::{Sink, put_bytes, put_range};

/// An object or list open in a [`Walk`].
#[derive(Clone, Copy)]
pub(in crate::sparse) struct Frame {
    /// An object: keys follow its `{` and `,`, and `}` closes it.
    object: bool,
    /// Whether its members so far came in key order.
    in_order: bool,
    /// For an object: its record ([`Canon::open_object`]), and where its members and its
    /// unescaped keys start on the member and key stacks.
    record: usize,
    members: usize,
    keys: usize,
}

/// A value being copied: where it is read and where its copy is written.
///
/// The walk holds the position and the copy's storage and cursor by value, and no reference
/// to it ever leaves the copy loop (its methods are inlined into it, the storage grows by
/// value (see `sink`), and the slow paths take plain values), so the compiler keeps these
/// fields in registers. Everything touched once per member or object is in [`Stacks`].
pub(super) struct Walk<'t> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
    /// Containers open around `pos`.
    depth: usize,
    /// The copy: `room[..len]`, with initialized room after it (see `sink`).
    room: Vec<u8>,
    len: usize,
}

/// The scanner's other buffers, which a walk touches once per member or object: borrowed,
/// since only the walk itself needs to stay in registers.
pub(super) struct Stacks<'s> {
    /// The copy's records and placeholders (its bytes are in the [`Walk`] while it runs).
    canon: &'s mut Canon,
    /// The members of the objects open, innermost last; their keys that had escapes.
    members: &'s mut Vec<Member>,
    keys: &'s mut Vec<u8>,
    /// The containers opened by the walk, innermost last.
    frames: &'s mut Vec<Frame>,
}

impl<'t> Walk<'t> {
    /// Copies the value at the scanner into its canonical copy, then moves the scanner past
    /// it. The members of the outermost object that `capture` names are read in full as well.
    pub(super) fn copy(
        sc: &mut Scanner<'t>,
        capture: Option<&mut Capture<'_, '_>>,
    ) -> Result<(), Invalid> {
        let (room, len) = mem::take(&mut sc.canon.bytes).into_parts();
        let mut walk = Walk {
            text: sc.text,
            bytes: sc.bytes,
            pos: sc.pos,
            depth: sc.depth,
            room,
            len,
        };
        let mut stacks = Stacks {
            canon: &mut sc.canon,
            members: &mut sc.members,
            keys: &mut sc.keys,
            frames: &mut sc.frames,
        };
        let mut collision = false;
        let result = walk.value(&mut stacks, capture, &mut collision);
        // Whether the walk copied its value or failed, the scanner gets its buffers back.
        stacks.frames.clear();
        sc.canon.bytes = Sink::from_parts(walk.room, walk.len);
        (sc.pos, sc.depth) = (walk.pos, walk.depth);
        sc.collision |= collision;
        result
    }

    /// Copies the value at `pos`. The members of the outermost object that `capture` names
    /// are read in full as well; `collision` is set when one of them holds a number in the
    /// placeholder range.
    #[inline(always)]
    fn value(
        &mut self,
        st: &mut Stacks<'_>,
        mut capture: Option<&mut Capture<'_, '_>>,
        collision: &mut bool,
    ) -> Result<(), Invalid> {
        'value: loop {
            self.pos = ws_end(self.bytes, self.pos);
            match self.bytes.get(self.pos).copied() {
                Some(b'"') => self.string()?,
                Some(open @ (b'{' | b'[')) => {
                    if self.open(st, open)? {
                        if let (Some(capture), 1) = (capture.as_deref_mut(), st.frames.len()) {
                            self.capture(st, capture, collision)?;
                        }
                        continue 'value;
                    }
                }
                Some(b'-' | b'0'..=b'9') => self.number()?,
                Some(_) => {
                    let word = literal_at(self.bytes, self.pos)?;
                    self.pos += word.len();
                    self.put_slice(word.as_bytes());
                }
                None => return Err(Invalid),
            }
            // A value is copied: close the containers it ends, or go on to the next value.
            while let Some(&frame) = st.frames.last() {
                if frame.object {
                    if let Some(member) = st.members.last_mut() {
                        st.canon.end_span(&mut member.span, self.len);
                    }
                }
                self.pos = ws_end(self.bytes, self.pos);
                match self.bytes.get(self.pos) {
                    Some(b',') => {
                        self.pos += 1;
                        self.put_byte(b',');
                        if frame.object {
                            self.key(st)?;
                            if let (Some(capture), 1) = (capture.as_deref_mut(), st.frames.len()) {
                                self.capture(st, capture, collision)?;
                            }
                        }
                        continue 'value;
                    }
                    Some(b'}') if frame.object => self.close_object(st, frame)?,
                    Some(b']') if !frame.object => self.put_byte(b']'),
                    _ => return Err(Invalid),
                }
                self.pos += 1;
                self.depth -= 1;
                st.frames.pop();
            }
            return Ok(());
        }
    }

    /// Opens the container at `pos` (`open` is `{` or `[`): `false` when it is empty (and
    /// then copied whole), `true` when it is open (for an object, with its first key read).
    #[inline(always)]
    fn open(&mut self, st: &mut Stacks<'_>, open: u8) -> Result<bool, Invalid> {
        if self.depth >= MAX_NESTING {
            return Err(Invalid);
        }
        self.pos = ws_end(self.bytes, self.pos + 1);
        // `}` follows `{` by two in ASCII, and `]` follows `[`.
        let close = open + 2;
        if self.bytes.get(self.pos) == Some(&close) {
            self.pos += 1;
            self.put_slice(&[open, close]);
            return Ok(false);
        }
        self.depth += 1;
        self.put_byte(open);
        let object = open == b'{';
        st.frames.push(Frame {
            object,
            in_order: true,
            record: if object {
                st.canon.open_object(self.len)
            } else {
                0
            },
            members: st.members.len(),
            keys: st.keys.len(),
        });
        if object {
            self.key(st)?;
        }
        Ok(true)
    }

    /// Copies the next member's key and the `:` after it, and starts its member.
    #[inline(always)]
    fn key(&mut self, st: &mut Stacks) -> Result<(), Invalid> {
        self.pos = ws_end(self.bytes, self.pos);
        let span = st.canon.span_at(self.len);
        let (pos, key, prefix) =
            put_key(self.text, self.pos, &mut self.room, &mut self.len, st.keys)?;
        self.pos = pos;
        let Some(frame) = st.frames.last_mut() else {
            return Err(Invalid);
        };
        if frame.in_order && st.members.len() > frame.members {
            if let Some(last) = st.members.last() {
                frame.in_order =
                    cmp_keys(self.bytes, st.keys, (last.prefix, last.key), (prefix, key)).is_lt();
            }
        }
        st.members.push(Member { prefix, key, span });
        Ok(())
    }

    /// Closes the object of `frame`, whose members are all copied (the walk is at its `}`):
    /// records its key order unless the members came in order. A repeated key is an error.
    #[inline(always)]
    fn close_object(&mut self, st: &mut Stacks<'_>, frame: Frame) -> Result<(), Invalid> {
        if frame.in_order {
            st.canon.close_object(frame.record, self.len);
        } else {
            let members = st.members.get_mut(frame.members..).unwrap_or_default();
            sort_members(self.bytes, st.keys, members)?;
            st.canon
                .close_object_sorted(frame.record, self.len, members.iter().map(|m| m.span));
        }
        st.members.truncate(frame.members);
        st.keys.truncate(frame.keys);
        self.put_byte(b'}');
        Ok(())
    }

    #[inline(always)]
    fn string(&mut self) -> Result<(), Invalid> {
        self.pos = put_string(self.text, self.pos, &mut self.room, &mut self.len)?;
        Ok(())
    }

    #[inline(always)]
    fn number(&mut self) -> Result<(), Invalid> {
        let start = self.pos;
        let (end, integer) = number_end(self.bytes, start)?;
        self.pos = end;
        if verbatim_integer(self.bytes.get(start..end).unwrap_or_default(), integer) {
            // An integer of at most 18 digits: serde_json writes it as it is.
            return self.put(start, end);
        }
        let json = number_json(self.text, start, end)?;
        self.put_slice(&json);
        Ok(())
    }

    /// Appends the token `text[start..end]` (see [`put_range`]).
    #[inline(always)]
    fn put(&mut self, start: usize, end: usize) -> Result<(), Invalid> {
        put_range(&mut self.room, &mut self.len, self.bytes, start, end).ok_or(Invalid)
    }

    #[inline(always)]
    fn put_byte(&mut self, byte: u8) {
        match self.room.get_mut(self.len) {
            Some(slot) => {
                *slot = byte;
                self.len += 1;
            }
            None => self.put_slice(&[byte]),
        }
    }

    #[inline(always)]
    fn put_slice(&mut self, bytes: &[u8]) {
        put_bytes(&mut self.room, &mut self.len, bytes);
    }

    /// Learns what `capture` asks about the member whose key was just copied.
    #[inline(always)]
    fn capture(
        &self,
        st: &Stacks<'_>,
        capture: &mut Capture<'_, '_>,
        collision: &mut bool,
    ) -> Result<(), Invalid> {
        let Some(member) = st.members.last() else {
            return Ok(());
        };
        let key = key_bytes(self.bytes, st.keys, member.key);
        let at = At {
            pos: self.pos,
            depth: self.depth,
        };
        capture_at(self.text, at, key, capture, collision)
    }
}

/// Learns what `capture` asks about the member `key` whose value is at `at` in `text`, reading
/// it apart. Out of line, and given plain values: a reference to the walk would keep its fields
/// out of registers.
#[inline(never)]
fn capture_at(
    text: &str,
    at: At,
    key: &[u8],
    capture: &mut Capture<'_, '_>,
    collision: &mut bool,
) -> Result<(), Invalid> {
    let mut reader = Scanner::checking(text);
    reader.seek(at);
    match capture {
        Capture::Values { names, found } => {
            if names.iter().any(|n| n.as_bytes() == key) {
                let name = String::from_utf8(key.to_vec()).map_err(|_| Invalid)?;
                let value = reader.value_full()?;
                *collision |= reader.collision;
                found.insert(name, value);
            }
        }
        Capture::Token { name, found } => {
            if name.as_bytes() == key {
                *found = reader.plain_token();
            }
        }
    }
    Ok(())
}
