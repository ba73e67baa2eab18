//! The values a path element holds (a set's value, a list-map key's field values): their order,
//! their equality and their text, as the API server has them.
//!
//! The order is the field manager's, not JSON's: numbers first (integers and floats compared by
//! value), then strings, booleans, lists, objects and `null`. Numbers read from a `FieldsV1`
//! document are floats there (it decodes every number as one), so a number is equal to the same
//! number however it is written, and prints as Go prints it (`1` for 1.0).

use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

/// The rank of a value's kind in the order.
fn rank(v: &Value) -> u8 {
    match v {
        Value::Number(_) => 0,
        Value::String(_) => 1,
        Value::Bool(_) => 2,
        Value::Array(_) => 3,
        Value::Object(_) => 4,
        Value::Null => 5,
    }
}

/// Compares two numbers by value; an integer against a float as floats.
pub(crate) fn compare_numbers(a: &Number, b: &Number) -> Ordering {
    match (a.as_i64(), b.as_i64()) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => match (a.as_u64(), b.as_u64()) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => {
                let (x, y) = (as_f64(a), as_f64(b));
                x.partial_cmp(&y).unwrap_or(Ordering::Equal)
            }
        },
    }
}

fn as_f64(n: &Number) -> f64 {
    n.as_f64().unwrap_or(0.0)
}

/// The total order of values in field sets.
pub(crate) fn compare(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare_numbers(x, y),
        (Value::String(x), Value::String(y)) => compare_bytes(x.as_bytes(), y.as_bytes()),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Array(x), Value::Array(y)) => compare_lists(x, y),
        (Value::Object(x), Value::Object(y)) => compare_maps(x, y),
        (Value::Null, Value::Null) => Ordering::Equal,
        _ => rank(a).cmp(&rank(b)),
    }
}

fn compare_lists(a: &[Value], b: &[Value]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match compare(x, y) {
            Ordering::Equal => {}
            other => return other,
        }
    }
    a.len().cmp(&b.len())
}

/// Objects are compared key by key in key order: at the first key one of them lacks, the one
/// without it is greater (or less, when it has no keys left), else at the first differing value.
fn compare_maps(a: &Map<String, Value>, b: &Map<String, Value>) -> Ordering {
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort_unstable();
    keys.dedup();
    for (i, key) in keys.into_iter().enumerate() {
        let order = if i == a.len() {
            Ordering::Less
        } else if i == b.len() {
            Ordering::Greater
        } else {
            match (a.get(key), b.get(key)) {
                (Some(x), Some(y)) => compare(x, y),
                (None, _) => Ordering::Greater,
                (_, None) => Ordering::Less,
            }
        };
        if order != Ordering::Equal {
            return order;
        }
    }
    Ordering::Equal
}

/// Whether `serde_json` keeps object keys sorted (its default map), rather than in insertion
/// order (its `preserve_order` feature, which any crate of a program may turn on).
pub(crate) use smp_core::maps_are_sorted;

/// Whether two strings are equal, compared as [`compare_bytes`] compares them (no call to
/// `memcmp` for a few bytes).
#[inline]
pub(crate) fn same_str(a: &str, b: &str) -> bool {
    a.len() == b.len() && compare_bytes(a.as_bytes(), b.as_bytes()).is_eq()
}

/// Byte strings in byte order, as `<[u8]>::cmp` orders them. Names and values are short: eight
/// bytes compared at a time here beat a call to `memcmp`.
#[inline]
pub(crate) fn compare_bytes(a: &[u8], b: &[u8]) -> Ordering {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n {
        let word = |s: &[u8]| u64::from_be_bytes(s[i..i + 8].try_into().unwrap_or_default());
        let (x, y) = (word(a), word(b));
        if x != y {
            return x.cmp(&y);
        }
        i += 8;
    }
    while i < n {
        if a[i] != b[i] {
            return a[i].cmp(&b[i]);
        }
        i += 1;
    }
    a.len().cmp(&b.len())
}

/// Appends `value` as the field manager writes it in a `FieldsV1` key: compact JSON, object
/// keys sorted, numbers in Go's shortest form, strings with Go's HTML-safe escapes.
pub(crate) fn write_json(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(n, out),
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_unstable();
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_json(&map[key], out);
            }
            out.push('}');
        }
    }
}

pub(crate) fn write_number(n: &Number, out: &mut String) {
    let mut digits = itoa::Buffer::new();
    if let Some(i) = n.as_i64() {
        out.push_str(digits.format(i));
    } else if let Some(u) = n.as_u64() {
        out.push_str(digits.format(u));
    } else {
        let f = as_f64(n);
        // Whole numbers (every number read from a key is a float) print as integers, as Go
        // prints them below 1e21; -0 and the rest take Go's general form.
        if f.fract() == 0.0 && f.abs() < 1e15 && !(f == 0.0 && f.is_sign_negative()) {
            out.push_str(digits.format(f as i64));
        } else {
            out.push_str(&smp_core::gojson::go_float(f));
        }
    }
}

/// A JSON string as the field manager's encoder writes it: `"` and `\` escaped, `\n`, `\r`
/// and `\t` by name, other control characters as `\u00XX`, and `<`, `>`, `&`, U+2028 and
/// U+2029 as `\u` escapes (Go's HTML-safe default).
pub(crate) fn write_string(s: &str, out: &mut String) {
    out.push('"');
    write_string_contents(s, out);
    out.push('"');
}

/// Whether `s` is written as it is inside a JSON string (nothing in it to escape): plain ASCII,
/// as nearly every name and value is.
pub(crate) fn is_plain(s: &str) -> bool {
    // One look-up a byte, and the bytes folded together without a branch each.
    const PLAIN: [bool; 256] = {
        let mut table = [false; 256];
        let mut b = 0x20;
        while b < 0x80 {
            table[b] = !matches!(b as u8, b'"' | b'\\' | b'<' | b'>' | b'&');
            b += 1;
        }
        table
    };
    s.bytes()
        .fold(true, |plain, b| plain & PLAIN[usize::from(b)])
}

/// [`write_string`] without the quotes.
pub(crate) fn write_string_contents(s: &str, out: &mut String) {
    if is_plain(s) {
        out.push_str(s);
        return;
    }
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let escape: Option<&str> = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            '<' => Some("\\u003c"),
            '>' => Some("\\u003e"),
            '&' => Some("\\u0026"),
            '\u{2028}' => Some("\\u2028"),
            '\u{2029}' => Some("\\u2029"),
            c if (c as u32) < 0x20 => None,
            _ => continue,
        };
        out.push_str(&s[start..i]);
        match escape {
            Some(e) => out.push_str(e),
            None => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let b = c as u32 as usize;
                out.push_str("\\u00");
                out.push(char::from(HEX[b >> 4]));
                out.push(char::from(HEX[b & 0xf]));
            }
        }
        start = i + c.len_utf8();
    }
    out.push_str(&s[start..]);
}

/// A value as the API server writes it in a field path (`%v`-style): strings quoted, numbers
/// in Go's `%v` form (`1e+06` for a million written as a float).
pub(crate) fn write_text(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) if n.is_f64() => out.push_str(&go_v_float(as_f64(n))),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => go_quote(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_text(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            for (k, v) in map {
                out.push_str(k);
                out.push('=');
                write_text(v, out);
            }
        }
    }
}

/// Go's `%q` of a string: printable characters as they are, the rest escaped.
pub(crate) fn go_quote(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            c if c.is_control() => {
                let n = c as u32;
                if n < 0x10000 {
                    out.push_str(&format!("\\u{n:04x}"));
                } else {
                    out.push_str(&format!("\\U{n:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Go's `%v` of a float (`strconv.FormatFloat(f, 'g', -1, 64)`): shortest digits, in exponent
/// form below 1e-4 and from 1e6 on (`1e+06`).
fn go_v_float(f: f64) -> String {
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.to_owned();
    }
    let sci = format!("{f:e}"); // shortest digits: `1.5e6`, `-2e-7`
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..6).contains(&exp) {
        format!("{f}")
    } else {
        with_exponent(mantissa, exp)
    }
}

fn with_exponent(mantissa: &str, exp: i32) -> String {
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.abs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bytes_compare_as_slices_do() {
        let words: [&[u8]; 9] = [
            b"",
            b"a",
            b"ab",
            b"abcdefgh",
            b"abcdefghi",
            b"abcdefgi",
            b"abcdefgh\xff",
            b"\xffbcdefgh",
            b"abcdefghabcdefgz",
        ];
        for a in words {
            for b in words {
                assert_eq!(compare_bytes(a, b), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn kinds_are_ordered_numbers_strings_bools_lists_objects_null() {
        let ordered = [
            json!(1),
            json!(2.5),
            json!("a"),
            json!(false),
            json!([1]),
            json!({"a": 1}),
            json!(null),
        ];
        for pair in ordered.windows(2) {
            assert_eq!(compare(&pair[0], &pair[1]), Ordering::Less, "{pair:?}");
            assert_eq!(compare(&pair[1], &pair[0]), Ordering::Greater, "{pair:?}");
        }
    }

    #[test]
    fn integers_and_floats_compare_by_value() {
        assert_eq!(compare(&json!(1), &json!(1.0)), Ordering::Equal);
        assert_eq!(compare(&json!(2), &json!(1.5)), Ordering::Greater);
        assert_eq!(compare(&json!(-1), &json!(u64::MAX)), Ordering::Less);
    }

    #[test]
    fn objects_compare_key_by_key() {
        assert_eq!(compare(&json!({"a": 1}), &json!({"a": 2})), Ordering::Less);
        assert_eq!(
            compare(&json!({"a": 1}), &json!({"a": 1, "b": 1})),
            Ordering::Less
        );
        // The one that lacks the next key of the other is greater.
        assert_eq!(
            compare(&json!({"b": 1}), &json!({"a": 1})),
            Ordering::Greater
        );
        assert_eq!(
            compare(&json!({"a": [1, "x"]}), &json!({"a": [1.0, "x"]})),
            Ordering::Equal
        );
    }

    #[test]
    fn json_text_is_go_s() {
        let mut out = String::new();
        write_json(
            &json!({"z": 1.0, "a": "<&>\u{1}\n", "f": 1e21, "s": 1.5e-7}),
            &mut out,
        );
        assert_eq!(
            out,
            r#"{"a":"\u003c\u0026\u003e\u0001\n","f":1e+21,"s":1.5e-7,"z":1}"#
        );
    }

    #[test]
    fn path_text_is_go_s_v() {
        let text = |v: Value| {
            let mut out = String::new();
            write_text(&v, &mut out);
            out
        };
        assert_eq!(text(json!("x\"y")), r#""x\"y""#);
        assert_eq!(text(json!(80)), "80");
        assert_eq!(text(json!(1_000_000.0)), "1e+06");
        assert_eq!(text(json!(123_456.0)), "123456");
        assert_eq!(text(json!(0.5)), "0.5");
        assert_eq!(text(json!(0.00001)), "1e-05");
        assert_eq!(text(json!(true)), "true");
    }
}
