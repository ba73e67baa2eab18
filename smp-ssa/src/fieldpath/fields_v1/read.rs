//! Reading `FieldsV1` text: a reader for exactly this shape (objects of objects, keys that are
//! path elements), which borrows each key from the text unless it holds an escape and builds
//! the set's nodes as it goes. Values under `"."` or a key of an unknown kind are skipped,
//! whatever JSON they hold.

use serde::de::IgnoredAny;

use super::super::element::{KeyFields, PathElement};
use super::super::key_json;
use super::super::scan;
use super::super::set::{Builder, Set};
use super::{FieldsV1Error, MAX_DEPTH};

pub(super) struct Reader<'a> {
    text: &'a str,
    at: usize,
    set: Builder,
    /// Where a key with escapes is unescaped (one buffer for all of them).
    scratch: String,
}

/// A key as read: borrowed from the text, with escapes or without.
enum Key<'a> {
    Text(&'a str),
    Escaped(&'a str),
}

/// What a key opens.
enum Next {
    /// Nothing: the key and its value are read.
    Done,
    Dot,
    Open(usize),
    Skip,
}

impl<'a> Reader<'a> {
    pub(super) fn new(text: &'a str) -> Reader<'a> {
        Reader {
            text,
            at: 0,
            // About one node per 18 bytes of the server's text.
            set: Builder::with_capacity(text.len() / 16),
            scratch: String::new(),
        }
    }

    /// The whole text as one set.
    pub(super) fn document(mut self) -> Result<Set, FieldsV1Error> {
        self.space();
        self.object(0)?;
        self.space();
        if self.at != self.text.len() {
            return Err(self.error("text after the document"));
        }
        Ok(self.set.finish())
    }

    fn error(&self, what: &str) -> FieldsV1Error {
        FieldsV1Error(format!("{what} at byte {}", self.at))
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    #[inline]
    fn space(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.peek() {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8, what: &str) -> Result<(), FieldsV1Error> {
        // The server writes no space: the byte is nearly always next.
        if self.peek() == Some(byte) {
            self.at += 1;
            return Ok(());
        }
        self.space();
        if self.peek() != Some(byte) {
            return Err(self.error(what));
        }
        self.at += 1;
        Ok(())
    }

    /// An object and everything below it, its elements added to the set as one level; the
    /// reader is at its `{`. Whether it holds `"."`.
    fn object(&mut self, depth: usize) -> Result<bool, FieldsV1Error> {
        if depth > MAX_DEPTH {
            return Err(self.error(&format!("nested deeper than {MAX_DEPTH} levels")));
        }
        self.expect(b'{', "expected an object")?;
        let start = self.set.mark();
        let mut dot = false;
        self.space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(false);
        }
        loop {
            self.space();
            let key_at = self.at;
            // The server writes `".":{}` first in the object of a member with members below.
            let dot_here = self.text.as_bytes().get(self.at..self.at + 6) == Some(br#"".":{}"#);
            let next = if dot_here {
                self.at += 6;
                dot = true;
                Next::Done
            } else if let Some(at) = self.plain_key() {
                self.expect(b':', "expected `:` after a key")?;
                self.space();
                Next::Open(at)
            } else {
                self.any_key(key_at)?
            };
            match next {
                Next::Done => {}
                Next::Dot => {
                    dot = true;
                    self.skip_value()?;
                }
                // Most keys hold `{}`: a member with nothing below.
                Next::Open(at) if self.text.as_bytes().get(self.at..self.at + 2) == Some(b"{}") => {
                    self.at += 2;
                    self.set.close_member(at);
                }
                Next::Open(at) => self.below(at, depth)?,
                Next::Skip => self.skip_value()?,
            }
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    self.set.end_level(start);
                    return Ok(dot);
                }
                _ => return Err(self.error("expected `,` or `}`")),
            }
        }
    }

    /// Reads any key and its `:`, unescaped if it must be (into a buffer kept for all keys).
    fn any_key(&mut self, key_at: usize) -> Result<Next, FieldsV1Error> {
        let key = self.string()?;
        self.expect(b':', "expected `:` after a key")?;
        self.space();
        let text = match key {
            Key::Text(text) => return self.open(text, key_at),
            Key::Escaped(text) => text,
        };
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        if !unescape_into(text, &mut scratch) {
            let quoted = &self.text[key_at..key_at + text.len() + 2];
            scratch = serde_json::from_str::<String>(quoted)
                .map_err(|e| FieldsV1Error(format!("{e} in the string at byte {key_at}")))?;
        }
        let next = self.open(&scratch, key_at);
        self.scratch = scratch;
        next
    }

    /// Opens the node of a field without escapes, or of a `k:` or `v:` key of plain scalars,
    /// read in place as it stands, its quotes escaped (`"k:{\"name\":\"a\"}"`), and moves
    /// past the key; `None`, the reader where it was, for any other key. What is read ends at
    /// an unescaped `"`, so it is the whole string: its end need not be found first.
    fn plain_key(&mut self) -> Option<usize> {
        let rest = &self.text[self.at..];
        let ends = |len: usize| rest.as_bytes().get(3 + len) == Some(&b'"');
        let at = match rest.as_bytes().get(..3)? {
            b"\"f:" => {
                let len = scan::special(&rest.as_bytes()[3..])?;
                ends(len).then_some(())?;
                self.at += 4 + len;
                self.set.open_field(&rest[3..3 + len])
            }
            b"\"k:" => {
                let (fields, len) = key_json::key_fields_escaped(&rest[3..])?;
                ends(len).then_some(())?;
                self.at += 4 + len;
                self.set.open_key(KeyFields::from_vec(fields))
            }
            b"\"v:" => {
                let (value, len) = key_json::value_escaped(&rest[3..])?;
                ends(len).then_some(())?;
                self.at += 4 + len;
                self.set.open(PathElement::Value(value))
            }
            _ => return None,
        };
        Some(at)
    }

    /// What a key (unescaped) opens.
    fn open(&mut self, text: &str, key_at: usize) -> Result<Next, FieldsV1Error> {
        Ok(if let Some(name) = text.strip_prefix("f:") {
            // Fields, most keys, are read here rather than moved out of a general reader.
            Next::Open(self.set.open_field(name))
        } else if text == "." {
            Next::Dot
        } else {
            match PathElement::from_key(text)
                .map_err(|e| FieldsV1Error(format!("{e} at byte {key_at}")))?
            {
                Some(element) => Next::Open(self.set.open(element)),
                None => Next::Skip,
            }
        })
    }

    /// The object under the node opened at `at`, then the node closed: a member if the object
    /// holds `"."` or nothing known.
    fn below(&mut self, at: usize, depth: usize) -> Result<(), FieldsV1Error> {
        let dot = self.object(depth + 1)?;
        let member = dot || !self.set.has_below(at);
        self.set.close(at, member);
        Ok(())
    }

    /// A JSON string, borrowed, with its escapes as they stand; the reader is at its `"`.
    fn string(&mut self) -> Result<Key<'a>, FieldsV1Error> {
        if self.peek() != Some(b'"') {
            return Err(self.error("expected a string key"));
        }
        let start = self.at + 1;
        let bytes = self.text.as_bytes();
        let mut i = start;
        let mut escaped = false;
        loop {
            let Some(n) = scan::special(&bytes[i..]) else {
                return Err(self.error("unterminated string"));
            };
            i += n;
            match bytes[i] {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    i += 2;
                    if i > bytes.len() {
                        return Err(self.error("unterminated string"));
                    }
                }
                _ => {
                    self.at = i;
                    return Err(self.error("control character in a string"));
                }
            }
        }
        self.at = i + 1;
        let text = &self.text[start..i];
        Ok(if escaped {
            Key::Escaped(text)
        } else {
            Key::Text(text)
        })
    }

    /// Any JSON value, skipped.
    fn skip_value(&mut self) -> Result<(), FieldsV1Error> {
        if self.text[self.at..].starts_with("{}") {
            self.at += 2;
            return Ok(());
        }
        let mut values =
            serde_json::Deserializer::from_str(&self.text[self.at..]).into_iter::<IgnoredAny>();
        match values.next() {
            Some(Ok(_)) => {
                self.at += values.byte_offset();
                Ok(())
            }
            Some(Err(e)) => Err(FieldsV1Error(format!("{e} after byte {}", self.at))),
            None => Err(self.error("expected a value")),
        }
    }
}

/// Appends a string's contents with `\"` and `\\` unescaped, the only escapes in the keys the
/// server writes (`k:{\"name\":\"app\"}`); `false` at any other, which serde_json reads instead.
fn unescape_into(escaped: &str, out: &mut String) -> bool {
    let mut rest = escaped;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        match rest.as_bytes().get(at + 1) {
            Some(b'"') => out.push('"'),
            Some(b'\\') => out.push('\\'),
            _ => return false,
        }
        rest = &rest[at + 2..];
    }
    out.push_str(rest);
    true
}
