//! A strict JSON scanner over the original document, accepting exactly what
//! [`crate::input::parse_json`] accepts.
//!
//! Each value it reads is either *materialized* into a [`Value`] (same strings, same number
//! kinds, duplicate keys and nesting past 128 rejected) or *copied* as canonical JSON into a side
//! buffer: the bytes `serde_json::to_string` would write for the `Value` the strict reader builds
//! (compact, object members sorted by key, numbers and strings as serde_json writes them). A
//! copied value stands in the materialized tree as a placeholder number, see [`PLACEHOLDER_BASE`].
//!
//! Errors carry no detail: the caller asks the strict reader for its message.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::deep::MAX_NESTING;

use super::canon::{Canon, Extent, PLACEHOLDER_BASE};

mod copy;
mod lex;
mod rest;
mod tape;
mod twin;
mod walk;

use copy::{Capture, Member, verbatim_integer};
use lex::number_value;
pub(super) use tape::{Children, Tape};
use walk::Frame;

/// The original is not a document the strict reader accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Invalid;

/// A position in the text and the containers open around it.
#[derive(Debug, Clone, Copy)]
pub(super) struct At {
    pub(super) pos: usize,
    pub(super) depth: usize,
}

/// Where the scanner is, to read a value again differently.
#[derive(Clone, Copy)]
pub(super) struct Mark {
    pos: usize,
    depth: usize,
    canon: Extent,
}

pub(super) struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    /// Containers open around `pos`.
    depth: usize,
    /// Copied values.
    pub(super) canon: Canon,
    /// A materialized number fell in the placeholder range, or placeholders ran out.
    pub(super) collision: bool,
    /// The members of the objects being copied, innermost last.
    members: Vec<Member>,
    /// Their keys that had escapes, unescaped.
    keys: Vec<u8>,
    /// The containers open in a copy (see `walk`), kept between copies for their room.
    frames: Vec<Frame>,
}

impl<'a> Scanner<'a> {
    pub(super) fn new(text: &'a str) -> Scanner<'a> {
        Scanner {
            canon: Canon::with_capacity(text.len()),
            members: Vec::with_capacity(64),
            frames: Vec::with_capacity(16),
            ..Scanner::checking(text)
        }
    }

    /// A scanner for checking and reading values in full: what it copies is scratch (see
    /// [`Scanner::skip_value`]), so its buffer starts empty.
    pub(super) fn checking(text: &'a str) -> Scanner<'a> {
        Scanner {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            depth: 0,
            canon: Canon::default(),
            collision: false,
            members: Vec::new(),
            keys: Vec::new(),
            frames: Vec::new(),
        }
    }

    pub(super) fn mark(&self) -> Mark {
        Mark {
            pos: self.pos,
            depth: self.depth,
            canon: self.canon.extent(),
        }
    }

    /// Goes back to `mark`, forgetting what was copied since.
    pub(super) fn reset(&mut self, mark: Mark) {
        self.pos = mark.pos;
        self.depth = mark.depth;
        self.canon.truncate(mark.canon);
    }

    /// Where the scanner is.
    pub(super) fn at(&self) -> At {
        At {
            pos: self.pos,
            depth: self.depth,
        }
    }

    /// Moves past the next value of a text checked before (its brackets match, its strings
    /// are closed): a cheaper walk than checking it again.
    pub(super) fn skip_checked(&mut self) -> Result<(), Invalid> {
        match self.peek_value() {
            Some(b'{' | b'[') => {
                let mut open = 0usize;
                loop {
                    match self.bytes.get(self.pos) {
                        Some(b'"') => {
                            self.string_token()?;
                            continue;
                        }
                        Some(b'{' | b'[') => open += 1,
                        Some(b'}' | b']') => {
                            open -= 1;
                            if open == 0 {
                                self.pos += 1;
                                return Ok(());
                            }
                        }
                        Some(_) => {}
                        None => return Err(Invalid),
                    }
                    self.pos += 1;
                }
            }
            Some(b'"') => self.string_token().map(drop),
            Some(_) => {
                while !matches!(
                    self.bytes.get(self.pos),
                    None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
                ) {
                    self.pos += 1;
                }
                Ok(())
            }
            None => Err(Invalid),
        }
    }

    /// Goes to `at` (a value's first byte, as [`Tape::at`] gives it).
    #[inline]
    pub(super) fn seek(&mut self, at: At) {
        self.pos = at.pos;
        self.depth = at.depth;
    }

    /// The first byte of the next value, after whitespace.
    #[inline]
    pub(super) fn peek_value(&mut self) -> Option<u8> {
        self.skip_ws();
        self.bytes.get(self.pos).copied()
    }

    /// Only whitespace may follow the document.
    pub(super) fn finish(&mut self) -> Result<(), Invalid> {
        self.skip_ws();
        if self.pos == self.bytes.len() {
            Ok(())
        } else {
            Err(Invalid)
        }
    }

    /// Opens the container at `pos` (`{` or `[`); `true` when it is empty (and then closed).
    #[inline]
    pub(super) fn open(&mut self) -> Result<bool, Invalid> {
        let Some(&open) = self.bytes.get(self.pos) else {
            return Err(Invalid);
        };
        if self.depth >= MAX_NESTING {
            return Err(Invalid);
        }
        self.depth += 1;
        self.pos += 1;
        self.skip_ws();
        let close = if open == b'[' { b']' } else { b'}' };
        if self.bytes.get(self.pos) == Some(&close) {
            self.pos += 1;
            self.depth -= 1;
            return Ok(true);
        }
        Ok(false)
    }

    /// After a member or item: `true` at `,` (more follow), `false` at `close` (closed).
    #[inline]
    pub(super) fn next_or_close(&mut self, close: u8) -> Result<bool, Invalid> {
        self.skip_ws();
        match self.bytes.get(self.pos) {
            Some(b',') => {
                self.pos += 1;
                Ok(true)
            }
            Some(&c) if c == close => {
                self.pos += 1;
                self.depth -= 1;
                Ok(false)
            }
            _ => Err(Invalid),
        }
    }

    /// Reads `"key":` and returns the key unescaped.
    #[inline]
    pub(super) fn key(&mut self) -> Result<Cow<'a, str>, Invalid> {
        self.skip_ws();
        if self.bytes.get(self.pos) != Some(&b'"') {
            return Err(Invalid);
        }
        let key = self.string()?;
        self.skip_ws();
        if self.bytes.get(self.pos) != Some(&b':') {
            return Err(Invalid);
        }
        self.pos += 1;
        Ok(key)
    }

    /// Reads the next value into a `Value`, exactly as the strict reader would.
    pub(super) fn value_full(&mut self) -> Result<Value, Invalid> {
        match self.peek_value() {
            Some(b'{') => {
                let mut map = Map::new();
                if self.open()? {
                    return Ok(Value::Object(map));
                }
                loop {
                    let key = self.key()?.into_owned();
                    let value = self.value_full()?;
                    if map.insert(key, value).is_some() {
                        return Err(Invalid);
                    }
                    if !self.next_or_close(b'}')? {
                        return Ok(Value::Object(map));
                    }
                }
            }
            Some(b'[') => {
                let mut items = Vec::new();
                if self.open()? {
                    return Ok(Value::Array(items));
                }
                loop {
                    items.push(self.value_full()?);
                    if !self.next_or_close(b']')? {
                        return Ok(Value::Array(items));
                    }
                }
            }
            Some(b'"') => Ok(Value::String(self.string()?.into_owned())),
            Some(b'-' | b'0'..=b'9') => {
                let value = number_value(self.number()?).ok_or(Invalid)?;
                if value.as_u64().is_some_and(|u| u >= PLACEHOLDER_BASE) {
                    self.collision = true;
                }
                Ok(value)
            }
            _ => Ok(match self.literal()? {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => Value::Null,
            }),
        }
    }

    /// The value of the first member of the object at the scanner when that member is `name`;
    /// the scanner does not move.
    pub(super) fn first_member(&mut self, name: &str) -> Option<Value> {
        self.at_first_member(name, |sc| sc.value_full().ok())
    }

    /// The range of the first member's value of the object at the scanner, when that member
    /// is `name` and its value is a plain token (see [`Scanner::plain_token`]); the scanner
    /// does not move.
    pub(super) fn first_plain_member(&mut self, name: &str) -> Option<(usize, usize)> {
        self.at_first_member(name, Scanner::plain_token)
    }

    /// `read` at the value of the first member of the object at the scanner, when that member
    /// is `name`; then the scanner goes back where it was.
    fn at_first_member<T>(
        &mut self,
        name: &str,
        read: impl FnOnce(&mut Self) -> Option<T>,
    ) -> Option<T> {
        let (pos, depth) = (self.pos, self.depth);
        let mut open = || {
            if self.peek_value() != Some(b'{') || self.open().ok()? {
                return None;
            }
            (self.key().ok()? == name).then_some(())
        };
        let found = open().and_then(|()| read(self));
        (self.pos, self.depth) = (pos, depth);
        found
    }

    /// Moves past the next value when it is a plain token, one whose text is its canonical
    /// JSON and tells it apart from any other value (a string without escapes, an integer
    /// serde_json writes as it is); returns its range. `None` for any other value, the
    /// scanner then somewhere inside it.
    pub(super) fn plain_token(&mut self) -> Option<(usize, usize)> {
        let first = self.peek_value()?;
        let start = self.pos;
        let plain = match first {
            b'"' => !self.string_token().ok()?,
            b'-' | b'0'..=b'9' => {
                let integer = self.number_token().ok()?;
                verbatim_integer(self.bytes.get(start..self.pos)?, integer)
            }
            _ => false,
        };
        plain.then_some((start, self.pos))
    }

    /// The text `range` of the document (a range the scanner gave).
    pub(super) fn text_of(&self, (start, end): (usize, usize)) -> &'a [u8] {
        self.bytes.get(start..end).unwrap_or_default()
    }

    /// How much has been copied: copies made from here on are the span of a later
    /// [`Scanner::span_from`].
    pub(super) fn copied(&self) -> Extent {
        self.canon.extent()
    }

    /// Appends the `,` between two values copied into one span.
    pub(super) fn copy_separator(&mut self) {
        self.canon.bytes.push(b',');
    }

    /// Copies the object at the scanner and returns the range of its member `name`'s value
    /// when that is a plain token (see [`Scanner::plain_token`]).
    pub(super) fn copy_object_finding(
        &mut self,
        name: &str,
    ) -> Result<Option<(usize, usize)>, Invalid> {
        let mut capture = Capture::Token { name, found: None };
        self.copy_object(Some(&mut capture))?;
        Ok(match capture {
            Capture::Token { found, .. } => found,
            Capture::Values { .. } => None,
        })
    }

    /// Copies the next value as canonical JSON and returns its placeholder.
    pub(super) fn placeholder(&mut self) -> Result<Value, Invalid> {
        let start = self.canon.extent();
        self.copy_value()?;
        Ok(self.span_from(start))
    }

    /// The placeholder for what was copied since `start`.
    pub(super) fn span_from(&mut self, start: Extent) -> Value {
        let placeholder = self.canon.placeholder(start);
        self.or_collision(placeholder)
    }

    /// `placeholder`, or (placeholders having run out) `null` and the fall-back noted.
    fn or_collision(&mut self, placeholder: Option<Value>) -> Value {
        placeholder.unwrap_or_else(|| {
            self.collision = true;
            Value::Null
        })
    }

    /// Copies the object at the scanner as one placeholder, reading the members `names` in
    /// full as well, into `found`. Returns the placeholder.
    pub(super) fn whole_object(
        &mut self,
        names: [&str; 2],
        found: &mut Map<String, Value>,
    ) -> Result<Value, Invalid> {
        let start = self.canon.extent();
        self.copy_object(Some(&mut Capture::Values { names, found }))?;
        Ok(self.span_from(start))
    }

    /// Checks the next value and forgets it.
    pub(super) fn skip_value(&mut self) -> Result<(), Invalid> {
        let extent = self.canon.extent();
        self.copy_value()?;
        self.canon.truncate(extent);
        Ok(())
    }
}

/// The canonical JSON of a whole document (for tests).
#[cfg(test)]
pub(super) fn canonical(text: &str) -> Result<String, Invalid> {
    let mut scanner = Scanner::new(text);
    let start = scanner.canon.extent();
    scanner.copy_value()?;
    scanner.finish()?;
    copy::emitted(&scanner.canon, scanner.canon.span_since(start))
}
