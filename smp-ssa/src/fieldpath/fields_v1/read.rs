//! Reading `FieldsV1` text: a reader for exactly this shape (objects of objects, keys that are
//! path elements), which borrows each key from the text unless it holds an escape and builds
//! the set's nodes as it goes. Values under `"."` or a key of an unknown kind are skipped,
//! whatever JSON they hold.

use serde::de::IgnoredAny;

use super::super::element::PathElement;
use super::super::set::{Builder, Set};
use super::{FieldsV1Error, MAX_DEPTH};

pub(super) struct Reader<'a> {
    text: &'a str,
    at: usize,
    set: Builder,
    /// Where a key with escapes is unescaped (one buffer for all of them).
    scratch: String,
}

/// A key as read: borrowed from the text, or unescaped into the reader's scratch buffer.
enum Key<'a> {
    Text(&'a str),
    Scratch,
}

/// What a key opens.
enum Next {
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

    fn space(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.peek() {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8, what: &str) -> Result<(), FieldsV1Error> {
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
            let key = self.string()?;
            self.expect(b':', "expected `:` after a key")?;
            self.space();
            // The key is read into its element before what is below it (which may use the
            // scratch buffer again).
            let scratch = std::mem::take(&mut self.scratch);
            let text = match key {
                Key::Text(text) => text,
                Key::Scratch => scratch.as_str(),
            };
            let next = if text == "." {
                Next::Dot
            } else if let Some(name) = text.strip_prefix("f:") {
                // Fields, most keys, are read here rather than moved out of a general reader.
                Next::Open(self.set.open_field(name))
            } else {
                match PathElement::from_key(text)
                    .map_err(|e| FieldsV1Error(format!("{e} at byte {key_at}")))?
                {
                    Some(element) => Next::Open(self.set.open(element)),
                    None => Next::Skip,
                }
            };
            self.scratch = scratch;
            match next {
                Next::Dot => {
                    dot = true;
                    self.skip_value()?;
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

    /// The object under the node opened at `at`, then the node closed: a member if the object
    /// holds `"."` or nothing known.
    fn below(&mut self, at: usize, depth: usize) -> Result<(), FieldsV1Error> {
        let dot = self.object(depth + 1)?;
        let member = dot || !self.set.has_below(at);
        self.set.close(at, member);
        Ok(())
    }

    /// A JSON string, borrowed when it has no escape (else unescaped into the scratch buffer);
    /// the reader is at its `"`.
    fn string(&mut self) -> Result<Key<'a>, FieldsV1Error> {
        if self.peek() != Some(b'"') {
            return Err(self.error("expected a string key"));
        }
        let start = self.at;
        let bytes = self.text.as_bytes();
        let mut i = start + 1;
        let mut escaped = false;
        loop {
            match bytes.get(i) {
                None => return Err(self.error("unterminated string")),
                Some(b'"') => break,
                Some(b'\\') => {
                    escaped = true;
                    i += 2;
                }
                Some(b) if *b < 0x20 => {
                    self.at = i;
                    return Err(self.error("control character in a string"));
                }
                Some(_) => i += 1,
            }
        }
        self.at = i + 1;
        if !escaped {
            return Ok(Key::Text(&self.text[start + 1..i]));
        }
        self.scratch.clear();
        if !unescape_into(&self.text[start + 1..i], &mut self.scratch) {
            let full = serde_json::from_str::<String>(&self.text[start..=i])
                .map_err(|e| FieldsV1Error(format!("{e} in the string at byte {start}")))?;
            self.scratch = full;
        }
        Ok(Key::Scratch)
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
