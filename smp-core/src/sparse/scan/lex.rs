//! Tokens, with the strict reader's rules: whitespace, strings (raw bytes checked here,
//! escapes decoded by serde_json as the reader decodes them), numbers (grammar and kinds) and
//! literals.

use std::borrow::Cow;

use super::{Invalid, Scanner};
use crate::json_text::plain_run;

impl<'a> Scanner<'a> {
    /// Moves past the string token at `pos` (which holds `"`) with the reader's rules for raw
    /// bytes; returns whether the token has escapes (unchecked: see [`Scanner::decode`]).
    #[inline]
    pub(super) fn string_token(&mut self) -> Result<bool, Invalid> {
        let (end, escaped) = string_end(self.bytes, self.pos)?;
        self.pos = end;
        Ok(escaped)
    }

    /// The string the token `text[start..pos]` stands for, escapes decoded by serde_json as
    /// the reader has them decoded.
    pub(super) fn decode(&self, start: usize) -> Result<String, Invalid> {
        decode(self.text, start, self.pos)
    }

    /// Reads the string token at `pos`; borrowed when it has no escapes.
    #[inline]
    pub(in crate::sparse) fn string(&mut self) -> Result<Cow<'a, str>, Invalid> {
        let start = self.pos;
        if self.string_token()? {
            return self.decode(start).map(Cow::Owned);
        }
        let text = self.text;
        text.get(start + 1..self.pos - 1)
            .map(Cow::Borrowed)
            .ok_or(Invalid)
    }

    /// Moves past a number token with the reader's grammar; returns whether it is an integer
    /// (no fraction, no exponent).
    #[inline]
    pub(super) fn number_token(&mut self) -> Result<bool, Invalid> {
        let (end, integer) = number_end(self.bytes, self.pos)?;
        self.pos = end;
        Ok(integer)
    }

    /// Reads a number token; returns its text.
    pub(super) fn number(&mut self) -> Result<&'a str, Invalid> {
        let start = self.pos;
        self.number_token()?;
        let text = self.text;
        text.get(start..self.pos).ok_or(Invalid)
    }

    #[inline]
    pub(super) fn literal(&mut self) -> Result<&'static str, Invalid> {
        let word = literal_at(self.bytes, self.pos)?;
        self.pos += word.len();
        Ok(word)
    }

    #[inline]
    pub(super) fn skip_ws(&mut self) {
        self.pos = ws_end(self.bytes, self.pos);
    }
}

/// The end of the whitespace from `i`.
#[inline(always)]
pub(super) fn ws_end(bytes: &[u8], mut i: usize) -> usize {
    while matches!(bytes.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// The position after the `:` that follows `i` (after whitespace).
#[inline(always)]
pub(super) fn colon_end(bytes: &[u8], i: usize) -> Result<usize, Invalid> {
    let i = ws_end(bytes, i);
    if bytes.get(i) != Some(&b':') {
        return Err(Invalid);
    }
    Ok(i + 1)
}

/// The end of the string token at `i` (which holds `"`), read with the reader's rules for raw
/// bytes, and whether it has escapes (unchecked: see [`decode`]).
#[inline(always)]
pub(super) fn string_end(bytes: &[u8], start: usize) -> Result<(usize, bool), Invalid> {
    let mut i = start + 1;
    let mut escaped = false;
    loop {
        i = plain_run(bytes, i);
        match bytes.get(i) {
            Some(b'"') => return Ok((i + 1, escaped)),
            Some(b'\\') => {
                escaped = true;
                i += 2;
            }
            // The end of the text, or a raw control character.
            _ => return Err(Invalid),
        }
    }
}

/// The string the token `text[start..end]` stands for, escapes decoded by serde_json as the
/// reader has them decoded.
pub(super) fn decode(text: &str, start: usize, end: usize) -> Result<String, Invalid> {
    let token = text.get(start..end).ok_or(Invalid)?;
    serde_json::from_str(token).map_err(|_| Invalid)
}

/// The end of the number token at `start`, read with the reader's grammar, and whether it is
/// an integer (no fraction, no exponent).
#[inline(always)]
pub(super) fn number_end(bytes: &[u8], start: usize) -> Result<(usize, bool), Invalid> {
    let digits = |mut i: usize| {
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let mut i = start + usize::from(bytes.get(start) == Some(&b'-'));
    i = match bytes.get(i) {
        Some(b'0') => i + 1,
        Some(b'1'..=b'9') => digits(i),
        _ => return Err(Invalid),
    };
    let mut integer = true;
    if bytes.get(i) == Some(&b'.') {
        let end = digits(i + 1);
        if end == i + 1 {
            return Err(Invalid);
        }
        (i, integer) = (end, false);
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1 + usize::from(matches!(bytes.get(i + 1), Some(b'+' | b'-')));
        let end = digits(i);
        if end == i {
            return Err(Invalid);
        }
        (i, integer) = (end, false);
    }
    Ok((i, integer))
}

/// The literal (`true`, `false`, `null`) at `i`.
#[inline(always)]
pub(super) fn literal_at(bytes: &[u8], i: usize) -> Result<&'static str, Invalid> {
    let word = match bytes.get(i) {
        Some(b't') => "true",
        Some(b'f') => "false",
        Some(b'n') => "null",
        _ => return Err(Invalid),
    };
    let rest = bytes.get(i..).unwrap_or_default();
    if !rest.starts_with(word.as_bytes()) {
        return Err(Invalid);
    }
    Ok(word)
}

/// The number a well-formed token stands for: exactly the strict reader's conversion, which
/// the canonical copy must reproduce byte for byte.
pub(super) use smp_yaml::json::number_value;
