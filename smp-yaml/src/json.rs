//! Strict JSON: RFC 8259 as serde_json reads it, plus duplicate-key and nesting checks.
//!
//! [`crate::parse_json`] reads with the usual limit, [`MAX_NESTING`]; [`parse_within`] with
//! one of the caller's choosing. serde_json keeps the last of two equal keys without a word, and going through `serde`
//! visitors would recurse once per level. This parser walks structure with an explicit stack and
//! hands each string token to serde_json, so escapes are exactly serde_json's; numbers keep
//! serde_json's kinds (exact u64/i64, otherwise f64).

use crate::error::{ReadError, line_column};
use serde_json::{Map, Value};

use crate::limits::MAX_NESTING;
use crate::path::{JsonPath, Segment};

/// Why a text is not a JSON document: a one-line message with line and column.
#[derive(Debug)]
pub(crate) struct JsonError {
    pub(crate) message: String,
    /// The text is JSON up to the error, and what it says there cannot be read as intended (a
    /// duplicate key, a number out of range, nesting too deep): no other reading of the text
    /// may replace it. Otherwise the error is one of syntax, where the text stops being JSON.
    #[cfg_attr(not(feature = "yaml"), allow(dead_code))]
    pub(crate) definite: bool,
}

/// Parses one JSON document.
pub(crate) fn parse(text: &str) -> Result<Value, JsonError> {
    parse_limited(text, MAX_NESTING)
}

/// Parses one JSON document nested at most `limit` levels deep, as strictly as
/// [`crate::parse_json`] does (a duplicate key is an error).
///
/// ```
/// let deep = "[".repeat(200) + &"]".repeat(200);
/// assert!(smp_yaml::parse_json(&deep).is_err());
/// assert!(smp_yaml::json::parse_within(&deep, 256).is_ok());
/// ```
pub fn parse_within(text: &str, limit: usize) -> Result<Value, ReadError> {
    parse_limited(text, limit).map_err(|e| ReadError::invalid(e.message))
}

/// Parses one JSON document nested at most `limit` levels deep, saying whether another reading
/// could make sense of the text.
fn parse_limited(text: &str, limit: usize) -> Result<Value, JsonError> {
    JsonParser {
        text,
        pos: 0,
        limit,
    }
    .document()
}

/// An open array or object.
enum Open {
    Array(Vec<Value>),
    /// The object so far and the key whose value is being read.
    Object(Map<String, Value>, String),
}

struct JsonParser<'a> {
    text: &'a str,
    pos: usize,
    /// Containers may nest this deep.
    limit: usize,
}

impl JsonParser<'_> {
    fn document(mut self) -> Result<Value, JsonError> {
        let mut stack: Vec<Open> = Vec::new();
        loop {
            let mut value = self.value_or_open(&mut stack)?;
            // Place the value; every container it completes is placed in turn.
            loop {
                let Some(open) = stack.last_mut() else {
                    self.skip_ws();
                    if self.pos < self.text.len() {
                        return Err(self.error("trailing characters after the document"));
                    }
                    return Ok(value);
                };
                match open {
                    Open::Array(items) => items.push(value),
                    Open::Object(map, key) => {
                        map.insert(std::mem::take(key), value);
                    }
                }
                self.skip_ws();
                let closing = if matches!(open, Open::Array(_)) {
                    b']'
                } else {
                    b'}'
                };
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        if let Some(Open::Object(..)) = stack.last() {
                            self.key(&mut stack)?;
                        }
                        break;
                    }
                    Some(c) if c == closing => {
                        self.pos += 1;
                        value = close(stack.pop());
                    }
                    _ => {
                        let want = if closing == b']' {
                            "`,` or `]`"
                        } else {
                            "`,` or `}`"
                        };
                        return Err(self.error(&format!("expected {want}")));
                    }
                }
            }
        }
    }

    /// Reads a scalar, or opens containers until one holds a scalar or is empty; returns the
    /// first complete value.
    fn value_or_open(&mut self, stack: &mut Vec<Open>) -> Result<Value, JsonError> {
        loop {
            self.skip_ws();
            let Some(c) = self.peek() else {
                return Err(self.error("unexpected end of input, expected a value"));
            };
            match c {
                b'[' | b'{' => {
                    if stack.len() >= self.limit {
                        let message = format!(
                            "nesting deeper than {} levels at {}",
                            self.limit,
                            path(stack)
                        );
                        return Err(self.definite(&message));
                    }
                    self.pos += 1;
                    self.skip_ws();
                    let (close, empty) = if c == b'[' {
                        (b']', Value::Array(Vec::new()))
                    } else {
                        (b'}', Value::Object(Map::new()))
                    };
                    if self.peek() == Some(close) {
                        self.pos += 1;
                        return Ok(empty);
                    }
                    if c == b'[' {
                        stack.push(Open::Array(Vec::new()));
                    } else {
                        stack.push(Open::Object(Map::new(), String::new()));
                        self.key(stack)?;
                    }
                }
                b'"' => return self.string().map(Value::String),
                b'-' | b'0'..=b'9' => return self.number(),
                _ => return self.literal(),
            }
        }
    }

    /// Reads `"key":` for the innermost object, rejecting a key it already has.
    fn key(&mut self, stack: &mut [Open]) -> Result<(), JsonError> {
        self.skip_ws();
        if self.peek() != Some(b'"') {
            return Err(self.error("expected a string key"));
        }
        let start = self.pos;
        let name = self.string()?;
        let parents = stack.len().saturating_sub(1);
        if let Some(Open::Object(map, _)) = stack.last() {
            if map.contains_key(&name) {
                self.pos = start;
                let message = format!(
                    "duplicate key {} in the object at {}",
                    Value::String(name),
                    path(stack.get(..parents).unwrap_or_default())
                );
                return Err(self.definite(&message));
            }
        }
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.error("expected `:`"));
        }
        self.pos += 1;
        if let Some(Open::Object(_, key)) = stack.last_mut() {
            *key = name;
        }
        Ok(())
    }

    fn string(&mut self) -> Result<String, JsonError> {
        let start = self.pos;
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
                Some(&b) if b < 0x20 => {
                    self.pos = i;
                    let message =
                        format!("control character U+{b:04X} in a string (must be escaped)");
                    return Err(self.at(&message, false));
                }
                Some(_) => i += 1,
            }
        }
        self.pos = i + 1;
        let token = self.text.get(start..=i).unwrap_or_default();
        if !escaped {
            let inner = token.strip_prefix('"').and_then(|t| t.strip_suffix('"'));
            return Ok(inner.unwrap_or_default().to_string());
        }
        serde_json::from_str(token).map_err(|e| self.token_error(start, &e))
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let digits = |mut i: usize| {
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            i
        };
        let mut i = start + usize::from(bytes.get(start) == Some(&b'-'));
        let int_end = match bytes.get(i) {
            Some(b'0') => i + 1,
            Some(b'1'..=b'9') => digits(i),
            _ => return Err(self.error("invalid number")),
        };
        i = int_end;
        if bytes.get(i) == Some(&b'.') {
            let end = digits(i + 1);
            if end == i + 1 {
                return Err(self.error("invalid number: expected a digit after `.`"));
            }
            i = end;
        }
        if matches!(bytes.get(i), Some(b'e' | b'E')) {
            i += 1 + usize::from(matches!(bytes.get(i + 1), Some(b'+' | b'-')));
            let end = digits(i);
            if end == i {
                return Err(self.error("invalid number: expected a digit in the exponent"));
            }
            i = end;
        }
        self.pos = i;
        let token = self.text.get(start..i).unwrap_or_default();
        number_value(token).ok_or_else(|| {
            let (line, column) = line_column(self.text, start);
            JsonError {
                message: format!("number out of range at line {line}, column {column}"),
                definite: true,
            }
        })
    }

    fn literal(&mut self) -> Result<Value, JsonError> {
        let rest = self.text.get(self.pos..).unwrap_or_default();
        for (word, value) in [
            ("true", Value::Bool(true)),
            ("false", Value::Bool(false)),
            ("null", Value::Null),
        ] {
            if rest.starts_with(word) {
                self.pos += word.len();
                return Ok(value);
            }
        }
        Err(self.error("expected a value"))
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// A syntax error at the current position; a control character found there is named.
    fn error(&self, message: &str) -> JsonError {
        match self.peek() {
            Some(b) if b.is_ascii_control() => self.at(
                &format!("{message} (found control character U+{b:04X})"),
                false,
            ),
            _ => self.at(message, false),
        }
    }

    /// An error in text that is well-formed JSON up to here (see [`JsonError::definite`]).
    fn definite(&self, message: &str) -> JsonError {
        self.at(message, true)
    }

    fn at(&self, message: &str, definite: bool) -> JsonError {
        let (line, column) = line_column(self.text, self.pos);
        JsonError {
            message: format!("{message} at line {line}, column {column}"),
            definite,
        }
    }

    /// A serde_json error about one token, placed at the token's start.
    fn token_error(&self, start: usize, e: &serde_json::Error) -> JsonError {
        let message = e.to_string();
        let message = message.split(" at line ").next().unwrap_or(&message);
        let (line, column) = line_column(self.text, start);
        JsonError {
            message: format!("{message} at line {line}, column {column}"),
            definite: false,
        }
    }
}

/// The number a well-formed JSON number token stands for, with serde_json's choice of kind
/// (u64, else i64, else f64; `-0` is a float) but correctly rounded floats: serde_json's own
/// fast float parser can be off by one unit in the last place, which would break round trips.
#[inline]
pub fn number_value(token: &str) -> Option<Value> {
    let is_integer = !token.contains(['.', 'e', 'E']);
    if is_integer {
        if let Ok(u) = token.parse::<u64>() {
            return Some(Value::from(u));
        }
        if let Ok(i) = token.parse::<i64>() {
            if i != 0 {
                return Some(Value::from(i));
            }
        }
    }
    let f = token.parse::<f64>().ok()?;
    serde_json::Number::from_f64(f).map(Value::Number)
}

fn close(open: Option<Open>) -> Value {
    match open {
        Some(Open::Array(items)) => Value::Array(items),
        Some(Open::Object(map, _)) => Value::Object(map),
        None => Value::Null,
    }
}

/// The path to the innermost of `open`: each container contributes the slot being filled.
fn path(open: &[Open]) -> JsonPath {
    JsonPath(
        open.iter()
            .map(|o| match o {
                Open::Array(items) => Segment::Index(items.len()),
                Open::Object(_, key) => Segment::Field(key.clone()),
            })
            .collect(),
    )
}
