//! The JSON inside `k:` and `v:` keys of a `FieldsV1` document, read as the server reads it
//! (every number a float).
//!
//! Nearly every key is a flat object of short scalars (`{"containerPort":80,"protocol":"TCP"}`)
//! or one scalar, written without escapes: those are read here directly. Anything else (nested
//! values, escapes in strings) goes through serde_json, with the same result.

use serde_json::{Number, Value};

use super::element::FieldName;
use super::key_value::KeyValue;
use super::scan;

/// The fields of a `k:` key's object, in the order written.
pub(crate) fn key_fields(text: &str) -> Result<Vec<(FieldName, KeyValue)>, serde_json::Error> {
    let mut flat = Flat::new(text);
    match flat.object().filter(|_| flat.at == text.len()) {
        Some(fields) => Ok(fields),
        None => {
            let object: KeyObject = serde_json::from_str(text)?;
            Ok(object.0)
        }
    }
}

/// [`key_fields`] for the object at the start of `text`, a key read in place in a document,
/// its quotes still escaped (`{\"name\":\"app\"}`), and how many bytes it took: `None` unless
/// it is a flat object of plain scalars, which it nearly always is (the caller then unescapes
/// the key and reads it the general way).
pub(crate) fn key_fields_escaped(text: &str) -> Option<(Vec<(FieldName, KeyValue)>, usize)> {
    let mut flat = Flat::escaped(text);
    let fields = flat.object()?;
    Some((fields, flat.at))
}

/// [`value`] for the scalar at the start of `text`, read in place, quotes escaped, and how
/// many bytes it took: `None` unless it is a plain scalar.
pub(crate) fn value_escaped(text: &str) -> Option<(Value, usize)> {
    let mut flat = Flat::escaped(text);
    let value = flat.scalar()?;
    Some((value.into_value(), flat.at))
}

/// A `v:` key's value.
pub(crate) fn value(text: &str) -> Result<Value, serde_json::Error> {
    let mut flat = Flat::new(text);
    match flat.scalar() {
        Some(v) if flat.at == text.len() => Ok(v.into_value()),
        _ => serde_json::from_str::<Value>(text).map(floats),
    }
}

/// A reader of flat JSON that gives up (`None`) at anything it does not read itself.
struct Flat<'a> {
    text: &'a str,
    at: usize,
    /// Whether strings start and end with `\"` (in a key read as it stands), not `"`.
    escaped: bool,
}

impl<'a> Flat<'a> {
    fn new(text: &'a str) -> Flat<'a> {
        Flat {
            text,
            at: 0,
            escaped: false,
        }
    }

    fn escaped(text: &'a str) -> Flat<'a> {
        Flat {
            text,
            at: 0,
            escaped: true,
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.text.as_bytes().get(self.at) == Some(&byte)).then(|| self.at += 1)
    }

    /// A flat object; the reader is left after its `}`.
    fn object(&mut self) -> Option<Vec<(FieldName, KeyValue)>> {
        self.eat(b'{')?;
        let mut fields = Vec::with_capacity(2);
        if self.eat(b'}').is_none() {
            loop {
                let name = self.string()?;
                self.eat(b':')?;
                // The field is pushed empty and its strings written in place: built apart and
                // moved in, their bytes would be read back wide just after being written
                // narrow, which stalls the processor on every key.
                const EMPTY: (FieldName, KeyValue) = (FieldName::EMPTY, KeyValue::EMPTY);
                fields.push(EMPTY);
                let (field, value) = fields.last_mut()?;
                field.push_str(name);
                match value {
                    KeyValue::String(text) if self.quote_at(self.at).is_some() => {
                        text.push_str(self.string()?);
                    }
                    _ => *value = self.scalar()?,
                }
                if self.eat(b'}').is_some() {
                    break;
                }
                self.eat(b',')?;
            }
        }
        Some(fields)
    }

    /// A string without escapes, between quotes.
    fn string(&mut self) -> Option<&'a str> {
        self.at += self.quote_at(self.at)?;
        let len = scan::special(&self.text.as_bytes()[self.at..])?;
        let end = self.quote_at(self.at + len)?;
        let s = &self.text[self.at..self.at + len];
        self.at += len + end;
        Some(s)
    }

    /// How long the quote at `at` is, if one is there (its bytes compared one by one: the
    /// quote is one or two bytes, too short to pay for a call to compare them).
    #[inline]
    fn quote_at(&self, at: usize) -> Option<usize> {
        let bytes = self.text.as_bytes();
        if self.escaped {
            (bytes.get(at..at + 2) == Some(b"\\\"")).then_some(2)
        } else {
            (bytes.get(at) == Some(&b'"')).then_some(1)
        }
    }

    fn scalar(&mut self) -> Option<KeyValue> {
        let rest = &self.text[self.at..];
        let word = |w: &str, v: KeyValue| rest.starts_with(w).then_some((w.len(), v));
        let (len, value) = match rest.as_bytes().first()? {
            b'"' | b'\\' => return self.string().map(KeyValue::from),
            b't' => word("true", KeyValue::Bool(true))?,
            b'f' => word("false", KeyValue::Bool(false))?,
            b'n' => word("null", KeyValue::Null)?,
            b'-' | b'0'..=b'9' => {
                let len = rest
                    .bytes()
                    .position(|b| !matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                    .unwrap_or(rest.len());
                // Integers only, in JSON's form (Rust reads `+1`, `01` and `1.` too); the rest,
                // and `-0`, go the long way.
                let number = &rest[..len];
                let (negative, digits) = match number.strip_prefix('-') {
                    Some(digits) => (true, digits),
                    None => (false, number),
                };
                let integer = match digits.as_bytes() {
                    [b'0'] => !negative,
                    [b'1'..=b'9', more @ ..] => more.iter().all(u8::is_ascii_digit),
                    _ => false,
                };
                if !integer {
                    return None;
                }
                // Up to 15 digits a float holds exactly: summed here; longer ones parsed.
                let float = if digits.len() <= 15 {
                    let n = digits
                        .bytes()
                        .fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
                    if negative { -(n as f64) } else { n as f64 }
                } else {
                    number.parse::<f64>().ok()?
                };
                (len, KeyValue::Number(Number::from_f64(float)?))
            }
            _ => return None,
        };
        self.at += len;
        Some(value)
    }
}

/// A key's JSON object read by serde_json, its fields in the order written, numbers as floats.
struct KeyObject(Vec<(FieldName, KeyValue)>);

impl<'de> serde::Deserialize<'de> for KeyObject {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> serde::de::Visitor<'de> for Fields {
            type Value = KeyObject;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a key's content, a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<KeyObject, A::Error> {
                let mut fields = Vec::with_capacity(map.size_hint().unwrap_or(2));
                while let Some((name, v)) = map.next_entry::<String, Value>()? {
                    fields.push((FieldName::from(name), floats(v).into()));
                }
                Ok(KeyObject(fields))
            }
        }
        deserializer.deserialize_map(Fields)
    }
}

/// Numbers read from a `FieldsV1` document become floats, as the server reads them (they
/// compare and print the same as the integers they equal).
fn floats(v: Value) -> Value {
    match v {
        Value::Number(n) if !n.is_f64() => n
            .as_f64()
            .and_then(Number::from_f64)
            .map_or(Value::Number(n), Value::Number),
        Value::Array(items) => Value::Array(items.into_iter().map(floats).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, floats(v))).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The fast path and serde_json agree, on what the fast path reads and what it leaves.
    #[test]
    fn the_fast_path_reads_as_serde_json_does() {
        for text in [
            r#"{"name":"app"}"#,
            r#"{"containerPort":80,"protocol":"TCP"}"#,
            r#"{"a":-1,"b":true,"c":null,"d":false,"e":0}"#,
            r#"{"a":1.5}"#,
            r#"{"a":1e3}"#,
            r#"{"a":"x\"y"}"#,
            r#"{"a":{"b":1}}"#,
            r#"{}"#,
            r#"{"a":18446744073709551617}"#,
            r#"{"a":-0,"b":0}"#,
        ] {
            let slow: KeyObject = serde_json::from_str(text).unwrap();
            assert_eq!(key_fields(text).unwrap(), slow.0, "{text}");
        }
        for bad in [
            r#"{"a":01}"#,
            r#"{"a":+1}"#,
            r#"{"a":1.}"#,
            r#"{"a":-}"#,
            r#"{"a":1"#,
            r#"{"a":1}x"#,
        ] {
            assert!(key_fields(bad).is_err(), "{bad}");
        }
        for text in [
            "1",
            "-2",
            "\"a\"",
            "true",
            "null",
            "1.25",
            "[1]",
            "\"a\\nb\"",
        ] {
            let slow = floats(serde_json::from_str::<Value>(text).unwrap());
            assert_eq!(value(text).unwrap(), slow, "{text}");
        }
        assert_eq!(value("3").unwrap(), json!(3.0));
        assert!(value("1 2").is_err());
    }
}
