//! JSON printed byte for byte as Go's `encoding/json` prints a map: what `kubectl ... -o json`
//! shows ([`to_string_pretty`]) and what `kubectl apply` stores in the last-applied annotation
//! ([`to_string`]).
//!
//! Keys are sorted (Go sorts map keys; a `serde_json::Map` is sorted too, unless serde_json's
//! `preserve_order` feature is on, when the keys are sorted here); `<`, `>`, `&`, U+2028 and
//! U+2029 are escaped as `\u003c`-style sequences (Go's HTML-safe default); floats are in Go's
//! shortest form: `1` for 1.0, exponent form only below 1e-6 or from 1e21 on (`1e+21`,
//! `1e-7`).

use std::io::{self, Write};

use serde_core::ser::{SerializeMap, SerializeSeq};
use serde_core::{Serialize, Serializer};
use serde_json::Value;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter, PrettyFormatter};

/// `value` as `kubectl -o json` prints it (four-space indent), with a final newline.
pub fn to_string_pretty(value: &Value) -> String {
    let mut out = Vec::new();
    write_pretty(value, &mut out);
    String::from_utf8(out).unwrap_or_else(|_| pretty_by_serializer(value))
}

/// [`to_string_pretty`] appended to `out` (a program printing many objects into one buffer).
pub fn write_pretty(value: &Value, out: &mut Vec<u8>) {
    // serde_json's compact text laid out again in one pass ([`pretty_from_compact`]) is faster
    // than a pretty serializer with Go's formatter; it needs the keys in order, as serde_json's
    // default map holds them.
    if crate::map_order::maps_are_sorted() {
        if let Ok(compact) = serde_json::to_string(value) {
            let start = out.len();
            if pretty_from_compact(&compact, out).is_some() {
                return;
            }
            out.truncate(start);
        }
    }
    out.extend_from_slice(pretty_by_serializer(value).as_bytes());
}

/// [`to_string_pretty`] through serde_json's pretty serializer with Go's formatter.
fn pretty_by_serializer(value: &Value) -> String {
    print(value, GoFormatter(PrettyFormatter::with_indent(b"    ")))
}

/// `value` as Go's `json.Encoder` writes it: compact, with a final newline (the text of the
/// `kubectl.kubernetes.io/last-applied-configuration` annotation).
pub fn to_string(value: &Value) -> String {
    print(value, GoFormatter(CompactFormatter))
}

fn print<F: Formatter>(value: &Value, formatter: GoFormatter<F>) -> String {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    // Serializing a `Value` into memory cannot fail: keys are strings, numbers are finite.
    if Sorted(value).serialize(&mut ser).is_err() {
        out.clear();
        out.extend_from_slice(b"null");
    }
    out.push(b'\n');
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A value whose objects serialize with their keys in byte order, as Go's do. A sorted map
/// (serde_json's default) is written as it is; only an unsorted one is sorted.
struct Sorted<'a>(&'a Value);

impl Serialize for Sorted<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Object(map) => {
                let mut out = serializer.serialize_map(Some(map.len()))?;
                if map.keys().zip(map.keys().skip(1)).all(|(a, b)| a <= b) {
                    for (key, value) in map {
                        out.serialize_entry(key, &Sorted(value))?;
                    }
                } else {
                    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
                    for (key, value) in entries {
                        out.serialize_entry(key, &Sorted(value))?;
                    }
                }
                out.end()
            }
            Value::Array(items) => {
                let mut out = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    out.serialize_element(&Sorted(item))?;
                }
                out.end()
            }
            scalar => scalar.serialize(serializer),
        }
    }
}

/// serde_json's formatter `F` with Go's string escapes and float forms.
struct GoFormatter<F>(F);

impl<F: Formatter> Formatter for GoFormatter<F> {
    fn write_f64<W: ?Sized + Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        writer.write_all(go_float(value).as_bytes())
    }

    fn write_f32<W: ?Sized + Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        writer.write_all(go_float(f64::from(value)).as_bytes())
    }

    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // Go's extra escapes are of `<`, `>`, `&` and two characters whose UTF-8 starts with
        // 0xE2: a fragment without these bytes, nearly every one, is written as it is.
        if !fragment
            .bytes()
            .any(|b| matches!(b, b'<' | b'>' | b'&' | 0xE2))
        {
            return writer.write_all(fragment.as_bytes());
        }
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            let Some(escape) = go_escape(c) else {
                continue;
            };
            writer.write_all(&fragment.as_bytes()[start..i])?;
            writer.write_all(escape.as_bytes())?;
            start = i + c.len_utf8();
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }

    fn write_char_escape<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        char_escape: CharEscape,
    ) -> io::Result<()> {
        self.0.write_char_escape(writer, char_escape)
    }

    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_array(writer)
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array(writer)
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array_value(writer)
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object(writer)
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object(writer)
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object_value(writer)
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_value(writer)
    }
}

/// [`to_string_pretty`] of the document whose compact text `compact` is, as
/// `serde_json::to_string` writes a `Value` (no whitespace, keys sorted, serde_json's string
/// escapes and number forms; what smp-core's `apply_json` returns), appended to `out`, without
/// building the value: a linear pass that indents, adds Go's HTML-safe escapes and rewrites
/// floats in Go's form. `None` when `compact` is not such a text (then nothing useful is in
/// `out`; print the parsed value instead).
pub fn pretty_from_compact(compact: &str, out: &mut Vec<u8>) -> Option<()> {
    let bytes = compact.as_bytes();
    out.reserve(bytes.len() + bytes.len() / 2);
    let mut depth = 0usize;
    let mut i = 0;
    let newline = |out: &mut Vec<u8>, depth: usize| {
        // A newline and four spaces per level (the table covers the nesting smp reads).
        match NEWLINE_INDENTS.get(..1 + 4 * depth) {
            Some(run) => out.extend_from_slice(run),
            None => {
                out.push(b'\n');
                out.extend(std::iter::repeat_n(b' ', 4 * depth));
            }
        }
    };
    while let Some(&b) = bytes.get(i) {
        match b {
            b'{' | b'[' => {
                let close = if b == b'{' { b'}' } else { b']' };
                if bytes.get(i + 1) == Some(&close) {
                    out.extend_from_slice(&[b, close]);
                    i += 2;
                    continue;
                }
                out.push(b);
                depth += 1;
                newline(out, depth);
            }
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                newline(out, depth);
                out.push(b);
            }
            b',' => {
                out.push(b',');
                newline(out, depth);
            }
            b':' => out.extend_from_slice(b": "),
            b'"' => {
                i = go_string(compact, i, out)?;
                continue;
            }
            b'-' | b'0'..=b'9' => {
                let end = bytes[i..]
                    .iter()
                    .position(|b| !matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                    .map_or(bytes.len(), |n| i + n);
                let token = compact.get(i..end)?;
                if token.contains(['.', 'e', 'E']) {
                    out.extend_from_slice(go_float(token.parse().ok()?).as_bytes());
                } else {
                    out.extend_from_slice(token.as_bytes());
                }
                i = end;
                continue;
            }
            b't' | b'f' | b'n' => {
                let word: &[u8] = match b {
                    b't' => b"true",
                    b'f' => b"false",
                    _ => b"null",
                };
                if !bytes[i..].starts_with(word) {
                    return None;
                }
                out.extend_from_slice(word);
                i += word.len();
                continue;
            }
            _ => return None,
        }
        i += 1;
    }
    (depth == 0).then(|| out.push(b'\n'))
}

/// A newline and the indentation of 128 levels (the deepest nesting smp reads), to slice from.
static NEWLINE_INDENTS: [u8; 1 + 4 * 128] = {
    let mut run = [b' '; 1 + 4 * 128];
    run[0] = b'\n';
    run
};

/// The escape Go's encoder writes for `c` where serde_json writes `c` itself (Go's HTML-safe
/// default); `None` for every other character.
fn go_escape(c: char) -> Option<&'static str> {
    match c {
        '<' => Some("\\u003c"),
        '>' => Some("\\u003e"),
        '&' => Some("\\u0026"),
        '\u{2028}' => Some("\\u2028"),
        '\u{2029}' => Some("\\u2029"),
        _ => None,
    }
}

/// Writes the string token of serde_json's starting at `start` of `text` with Go's extra
/// escapes ([`go_escape`]); returns the end of the token.
fn go_string(text: &str, start: usize, out: &mut Vec<u8>) -> Option<usize> {
    let bytes = text.as_bytes();
    out.push(b'"');
    let mut i = start + 1;
    loop {
        let run = special_run(bytes, i);
        out.extend_from_slice(bytes.get(i..run)?);
        i = run;
        match *bytes.get(i)? {
            b'"' => {
                out.push(b'"');
                return Some(i + 1);
            }
            b'\\' => {
                out.extend_from_slice(bytes.get(i..i + 2)?);
                i += 2;
            }
            // `<`, `>`, `&`, or the first byte of a character from U+2000 to U+2FFF.
            _ => {
                let c = text.get(i..)?.chars().next()?;
                match go_escape(c) {
                    Some(escape) => out.extend_from_slice(escape.as_bytes()),
                    None => out.extend_from_slice(text.get(i..i + c.len_utf8())?.as_bytes()),
                }
                i += c.len_utf8();
            }
        }
    }
}

/// The end of the run of bytes from `i` that a Go string writes as they are: not `"`, `\`,
/// `<`, `>`, `&` or 0xE2; eight bytes at a time.
fn special_run(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let has = |x: u64, b: u8| {
        let v = x ^ u64::from_le_bytes([b; 8]);
        v.wrapping_sub(ONES) & !v & HIGH
    };
    while let Some(chunk) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let x = u64::from_le_bytes(*chunk);
        let stops = has(x, b'"')
            | has(x, b'\\')
            | has(x, b'<')
            | has(x, b'>')
            | has(x, b'&')
            | has(x, 0xE2);
        if stops != 0 {
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while bytes
        .get(i)
        .is_some_and(|b| !matches!(b, b'"' | b'\\' | b'<' | b'>' | b'&' | 0xE2))
    {
        i += 1;
    }
    i
}

/// Go's `encoding/json` float form (`strconv.FormatFloat` with `'f'` or `'e'`, shortest): `1`
/// for 1.0, `1e+21`, `1e-7`.
pub fn go_float(f: f64) -> String {
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        // Rust prints `1e21` / `1e-7`; Go prints `1e+21` / `1e-07`, then trims the `0`.
        let text = format!("{f:e}");
        match text.split_once('e') {
            Some((mantissa, exp)) if !exp.starts_with('-') => format!("{mantissa}e+{exp}"),
            _ => text,
        }
    } else {
        // Shortest round-trip digits without an exponent; `1.0` prints as `1`, as in Go.
        format!("{f}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn prints_like_go() {
        let v = json!({"b": [1, {}], "a": "<x&y>\u{2028}", "c": [], "d": "tab\there\u{1}"});
        assert_eq!(
            to_string_pretty(&v),
            "{\n    \"a\": \"\\u003cx\\u0026y\\u003e\\u2028\",\n    \"b\": [\n        1,\n        {}\n    ],\n    \"c\": [],\n    \"d\": \"tab\\there\\u0001\"\n}\n"
        );
    }

    #[test]
    fn compact_like_go_encoder() {
        let v = json!({"b": 1.0, "a": ["<&>"], "c": {}});
        assert_eq!(
            to_string(&v),
            "{\"a\":[\"\\u003c\\u0026\\u003e\"],\"b\":1,\"c\":{}}\n"
        );
    }

    #[test]
    fn pretty_from_compact_is_the_value_printed() {
        let docs = [
            json!({"b": [1, {}], "a": "<x&y>\u{2028}\u{2029}", "c": [], "d": "tab\there\u{1}\"q\"\\"}),
            json!({"n": [1.0, -0.25, 1e21, 1.5e-7, 0.000001, -0.0, 12345678901234567890u64, -5, 1e300]}),
            json!([[], [[]], {"": {"": null}}, true, false, "é€😀", "\u{7f}"]),
            json!("just a string"),
            json!(3),
        ];
        for doc in docs {
            let compact = serde_json::to_string(&doc).unwrap();
            let mut out = Vec::new();
            pretty_from_compact(&compact, &mut out).expect("compact JSON");
            assert_eq!(
                String::from_utf8(out).unwrap(),
                pretty_by_serializer(&doc),
                "{compact}"
            );
            assert_eq!(to_string_pretty(&doc), pretty_by_serializer(&doc));
        }
        let mut out = Vec::new();
        assert!(pretty_from_compact("{\"a\":1", &mut out).is_none());
        assert!(pretty_from_compact("{\"a\": 1}", &mut out).is_none());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]

        /// Printed through the compact text, any value prints as the serializer prints it.
        #[test]
        fn both_ways_of_printing_agree(value in crate::document::tests::arb_value()) {
            proptest::prop_assert_eq!(to_string_pretty(&value), pretty_by_serializer(&value));
        }
    }

    #[test]
    fn floats_like_go() {
        for (f, go) in [
            (1.0, "1"),
            (1.5, "1.5"),
            (-0.25, "-0.25"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (0.0, "0"),
        ] {
            assert_eq!(go_float(f), go, "{f}");
        }
    }
}
