//! Reading `FieldsV1` text: a reader for exactly this shape (objects of objects, keys that are
//! path elements), which borrows each key from the text unless it holds an escape and builds
//! the set's nodes as it goes. Values under `"."` or a key of an unknown kind are skipped,
//! whatever JSON they hold.

use serde::de::IgnoredAny;

use super::super::element::{KeyFields, PathElement};
use super::super::key_json;
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
            let key = self.string()?;
            self.expect(b':', "expected `:` after a key")?;
            self.space();
            let next = match key {
                Key::Text(text) => self.open(text, key_at)?,
                // A `k:` or `v:` key holds JSON, its quotes escaped: plain ones are read as they
                // stand, the rest unescaped first (into a buffer kept for all of them).
                Key::Escaped(text) => match self.open_escaped(text) {
                    Some(at) => Next::Open(at),
                    None => {
                        let mut scratch = std::mem::take(&mut self.scratch);
                        scratch.clear();
                        if !unescape_into(text, &mut scratch) {
                            let quoted = &self.text[key_at..key_at + text.len() + 2];
                            scratch = serde_json::from_str::<String>(quoted).map_err(|e| {
                                FieldsV1Error(format!("{e} in the string at byte {key_at}"))
                            })?;
                        }
                        let next = self.open(&scratch, key_at);
                        self.scratch = scratch;
                        next?
                    }
                },
            };
            match next {
                Next::Dot => {
                    dot = true;
                    self.skip_value()?;
                }
                // Most keys hold `{}`: a member with nothing below.
                Next::Open(at) if self.text.as_bytes().get(self.at..self.at + 2) == Some(b"{}") => {
                    self.at += 2;
                    self.set.close(at, true);
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

    /// Opens the node of a `k:` or `v:` key of plain scalars read as it stands, quotes escaped
    /// (`k:{\"name\":\"a\"}`); `None` (nothing opened) for any other key.
    fn open_escaped(&mut self, text: &str) -> Option<usize> {
        if let Some(content) = text.strip_prefix("k:") {
            let fields = key_json::key_fields_escaped(content)?;
            Some(self.set.open_key(KeyFields::new(fields)))
        } else {
            let value = key_json::value_escaped(text.strip_prefix("v:")?)?;
            Some(self.set.open(PathElement::Value(value)))
        }
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
            let Some(n) = special(&bytes[i..]) else {
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

/// Where the first `"`, `\\` or control character of `bytes` is. Eight bytes are looked at a
/// time: keys are short, too short for a vector search to pay for setting up.
fn special(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        // A byte's high bit is set where the byte is zero (after the xor) or below 0x20; only
        // bytes above the first such byte can be set wrongly, so the lowest one is exact.
        let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
        let quote = zero(word ^ (ONES * u64::from(b'"')));
        let backslash = zero(word ^ (ONES * u64::from(b'\\')));
        let control = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
        let found = quote | backslash | control;
        if found != 0 {
            return Some(at + found.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    bytes[at..]
        .iter()
        .position(|b| matches!(b, b'"' | b'\\') || *b < 0x20)
        .map(|n| at + n)
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

#[cfg(test)]
mod tests {
    use super::special;

    #[test]
    fn the_word_search_finds_what_a_byte_search_finds() {
        let naive = |b: &[u8]| {
            b.iter()
                .position(|c| matches!(c, b'"' | b'\\') || *c < 0x20)
        };
        let alphabet: &[u8] = b"a\"\\\x00\x1f\x20\x21\x7f\x80\xe2\xff\x01Z";
        // Every string of up to 11 bytes over a few bytes, each special one at every place.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 20) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|i| alphabet[((seed >> (i * 3)) % alphabet.len() as u64) as usize])
                .collect();
            assert_eq!(special(&bytes), naive(&bytes), "{bytes:?}");
        }
        assert_eq!(special(b"abcdefghij\"k"), Some(10));
        assert_eq!(special(b"abcdefgh"), None);
    }
}
