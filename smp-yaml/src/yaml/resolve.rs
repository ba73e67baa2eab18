//! Scalar resolution with go-yaml v2 (YAML 1.1) rules.
//!
//! kubectl reads YAML with sigs.k8s.io/yaml on top of go-yaml v2, so `on` is `true`, `0755` is
//! 493 and `1.0` is the integer 1 once it reaches JSON. `yaml-rust2` only tokenizes; every
//! scalar's meaning is decided here, so reading and writing (see `emit`) agree on one table.

use serde_json::{Number, Value};
use yaml_rust2::parser::Tag;
use yaml_rust2::scanner::TScalarStyle;

use super::float_key::float_key;

/// A resolved scalar, before it becomes JSON.
///
/// Keys and values turn into JSON differently (a float key is formatted the way Go formats a
/// float32, a float value may become an integer), so resolution stops one step short of JSON.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Scalar {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
}

/// The core tags this module honours; any other tag is ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CoreTag {
    Str,
    Int,
    Float,
    Bool,
    Null,
    Map,
    Seq,
    /// The non-specific tag `!`, which forces a string.
    NonSpecific,
}

const YAML_ORG: &str = "tag:yaml.org,2002:";

impl CoreTag {
    /// The core tag a parser tag stands for; `None` for tags that are ignored.
    pub(crate) fn of(tag: Option<&Tag>) -> Option<CoreTag> {
        let tag = tag?;
        if tag.handle.is_empty() && tag.suffix == "!" {
            return Some(CoreTag::NonSpecific);
        }
        let full = format!("{}{}", tag.handle, tag.suffix);
        match full.strip_prefix(YAML_ORG)? {
            "str" => Some(CoreTag::Str),
            "int" => Some(CoreTag::Int),
            "float" => Some(CoreTag::Float),
            "bool" => Some(CoreTag::Bool),
            "null" => Some(CoreTag::Null),
            "map" => Some(CoreTag::Map),
            "seq" => Some(CoreTag::Seq),
            _ => None,
        }
    }

    /// The short form used in messages, as go-yaml prints it.
    pub(crate) fn short(self) -> &'static str {
        match self {
            CoreTag::Str => "!!str",
            CoreTag::Int => "!!int",
            CoreTag::Float => "!!float",
            CoreTag::Bool => "!!bool",
            CoreTag::Null => "!!null",
            CoreTag::Map => "!!map",
            CoreTag::Seq => "!!seq",
            CoreTag::NonSpecific => "!",
        }
    }
}

impl Scalar {
    fn short_tag(&self) -> &'static str {
        match self {
            Scalar::Null => "!!null",
            Scalar::Bool(_) => "!!bool",
            Scalar::Int(_) | Scalar::UInt(_) => "!!int",
            Scalar::Float(_) => "!!float",
            Scalar::Str(_) => "!!str",
        }
    }

    /// The JSON value, as sigs.k8s.io/yaml followed by Go's JSON decoder produces it.
    ///
    /// Go prints the float 1.0 as `1`, so an integral float that fits i64 becomes an integer.
    pub(crate) fn into_value(self) -> Result<Value, String> {
        Ok(match self {
            Scalar::Null => Value::Null,
            Scalar::Bool(b) => Value::Bool(b),
            Scalar::Int(i) => Value::from(i),
            Scalar::UInt(u) => Value::from(u),
            Scalar::Str(s) => Value::String(s),
            Scalar::Float(f) => float_value(f)?,
        })
    }

    /// The JSON member name for a mapping key, following sigs.k8s.io/yaml: booleans and numbers
    /// are printed, floats the way Go's `FormatFloat(f, 'g', -1, 32)` does (so `1e6` becomes
    /// `1e+06`), and a null key is rejected because JSON has no way to write it.
    pub(crate) fn into_key(self) -> Result<String, String> {
        match self {
            Scalar::Str(s) => Ok(s),
            Scalar::Bool(b) => Ok(b.to_string()),
            Scalar::Int(i) => Ok(i.to_string()),
            Scalar::UInt(u) => Ok(u.to_string()),
            Scalar::Float(f) => Ok(float_key(f)),
            Scalar::Null => Err("a null mapping key cannot become a JSON member name \
                 (quote it to mean the string \"null\")"
                .to_string()),
        }
    }
}

/// An integral float that fits i64 is an integer; infinities and NaN have no JSON form.
fn float_value(f: f64) -> Result<Value, String> {
    // 2^63 is exactly representable, so these bounds are exact.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    if f.is_finite() && f.fract() == 0.0 && (-LIMIT..LIMIT).contains(&f) {
        // In range and integral: the conversion is exact.
        return Ok(Value::from(f as i64));
    }
    Number::from_f64(f)
        .map(Value::Number)
        .ok_or_else(|| format!("the value {} is not representable in JSON", go_special(f)))
}

fn go_special(f: f64) -> &'static str {
    if f.is_nan() {
        ".nan"
    } else if f > 0.0 {
        ".inf"
    } else {
        "-.inf"
    }
}

/// Resolves one scalar event.
///
/// Quoted and block scalars are strings unless explicitly tagged, as in go-yaml; an explicit core
/// tag re-resolves the text and must agree with it (`!!int abc` is an error, `!!float 1` is 1.0).
pub(crate) fn resolve_scalar(
    text: String,
    style: TScalarStyle,
    tag: Option<CoreTag>,
) -> Result<Scalar, String> {
    let plain = style == TScalarStyle::Plain;
    match tag {
        None if plain => resolve_plain(&text),
        None | Some(CoreTag::Str | CoreTag::NonSpecific) => Ok(Scalar::Str(text)),
        Some(CoreTag::Map | CoreTag::Seq) => Err(format!(
            "cannot use {} on the scalar `{text}`",
            tag.map_or("", CoreTag::short)
        )),
        Some(wanted) => {
            let resolved = resolve_plain(&text)?;
            coerce(resolved, wanted).ok_or_else(|| {
                format!(
                    "cannot decode {} `{text}` as a {}",
                    shortest_tag(&text),
                    wanted.short()
                )
            })
        }
    }
}

fn shortest_tag(text: &str) -> &'static str {
    resolve_plain(text).map_or("!!str", |s| s.short_tag())
}

/// Checks a resolved scalar against an explicit tag; go-yaml also widens `!!float` integers.
fn coerce(resolved: Scalar, wanted: CoreTag) -> Option<Scalar> {
    match (wanted, resolved) {
        (CoreTag::Null, s @ Scalar::Null) | (CoreTag::Bool, s @ Scalar::Bool(_)) => Some(s),
        (CoreTag::Int, s @ (Scalar::Int(_) | Scalar::UInt(_))) => Some(s),
        (CoreTag::Float, s @ Scalar::Float(_)) => Some(s),
        (CoreTag::Float, Scalar::Int(i)) => Some(Scalar::Float(i as f64)),
        (CoreTag::Float, Scalar::UInt(u)) => Some(Scalar::Float(u as f64)),
        _ => None,
    }
}

/// Resolves a plain (unquoted, untagged) scalar.
///
/// Mirrors go-yaml v2: a fixed table of words, then, for text starting with a digit or sign,
/// an integer (underscores ignored, `0x`/`0o`/`0b`/leading-0 prefixes), then a float. The one
/// departure: a well-formed number that does not fit is an error instead of silently changing
/// type (an integer outside u64/i64 becomes a rounded float in go-yaml, a float literal that
/// overflows f64, `1e400`, the string `"1e400"`).
pub(crate) fn resolve_plain(text: &str) -> Result<Scalar, String> {
    if let Some(word) = resolve_word(text) {
        return Ok(word);
    }
    match text.as_bytes().first() {
        Some(b'0'..=b'9' | b'+' | b'-') => resolve_number(text),
        Some(b'.') => Ok(parse_dot_float(text)?.unwrap_or_else(|| Scalar::Str(text.to_string()))),
        _ => Ok(Scalar::Str(text.to_string())),
    }
}

pub(crate) fn resolve_word(text: &str) -> Option<Scalar> {
    Some(match text {
        "" | "~" | "null" | "Null" | "NULL" => Scalar::Null,
        "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" | "true" | "True" | "TRUE" => {
            Scalar::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" | "false" | "False" | "FALSE" => {
            Scalar::Bool(false)
        }
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Scalar::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Scalar::Float(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => Scalar::Float(f64::NAN),
        _ => return None,
    })
}

/// `.5`, `.5e3`: what Go's `ParseFloat` accepts for text starting with a dot.
fn parse_dot_float(text: &str) -> Result<Option<Scalar>, String> {
    let Some(rest) = text.strip_prefix('.') else {
        return Ok(None);
    };
    let (digits, exponent) = split_exponent(rest);
    if !is_digits(digits) || !exponent.is_none_or(is_signed_digits) {
        return Ok(None);
    }
    float_literal(text, text).map(Some)
}

fn resolve_number(text: &str) -> Result<Scalar, String> {
    let plain: String = text.chars().filter(|&c| c != '_').collect();
    match parse_int(&plain) {
        IntParse::Value(s) => return Ok(s),
        IntParse::OutOfRange => {
            return Err(format!("integer out of range: {}", excerpt(text)));
        }
        IntParse::NotInt => {}
    }
    if is_yaml_float(&plain) {
        return float_literal(&plain, text);
    }
    Ok(Scalar::Str(text.to_string()))
}

/// The value of a well-formed float literal (`plain`: `text` without underscores).
///
/// A literal whose value overflows an f64 (`1e400`) is an error. Go's `ParseFloat` rejects
/// it too, and go-yaml then keeps the text as a string, so that a number becomes the string
/// `"1e400"` without a word (kubectl's JSON reader rejects the same number); like integers out
/// of range, smp reports it instead. Underflow is not an error: `1e-400` is 0, as in Go.
fn float_literal(plain: &str, text: &str) -> Result<Scalar, String> {
    match plain.parse::<f64>() {
        Ok(f) if f.is_finite() => Ok(Scalar::Float(f)),
        Ok(_) => Err(format!(
            "number out of range (it does not fit a 64-bit float): {}",
            excerpt(text)
        )),
        Err(_) => Ok(Scalar::Str(text.to_string())),
    }
}

/// `text` for a message: at most 40 characters, then `...`.
pub(crate) fn excerpt(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        None => text.to_string(),
        Some((end, _)) => format!("{}...", text.get(..end).unwrap_or_default()),
    }
}

/// go-yaml's float pattern: `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
fn is_yaml_float(text: &str) -> bool {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (mantissa, exponent) = split_exponent(unsigned);
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", frac)) => is_digits(frac),
        Some((int, frac)) => is_digits(int) && (frac.is_empty() || is_digits(frac)),
        None => is_digits(mantissa),
    };
    mantissa_ok && exponent.is_none_or(is_signed_digits)
}

/// Go's base prefixes: `0x`, `0b`, `0o` (any case), and a bare leading `0` for octal.
fn split_radix(text: &str) -> (u32, &str) {
    let prefixed = |prefix: &str| {
        text.get(..2)
            .filter(|head| head.eq_ignore_ascii_case(prefix))
            .and_then(|_| text.get(2..))
    };
    if let Some(digits) = prefixed("0x") {
        (16, digits)
    } else if let Some(digits) = prefixed("0b") {
        (2, digits)
    } else if let Some(digits) = prefixed("0o") {
        (8, digits)
    } else if let Some(digits) = text.strip_prefix('0').filter(|d| !d.is_empty()) {
        (8, digits)
    } else {
        (10, text)
    }
}

fn split_exponent(text: &str) -> (&str, Option<&str>) {
    match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (text, None),
    }
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn is_signed_digits(s: &str) -> bool {
    is_digits(s.strip_prefix(['+', '-']).unwrap_or(s))
}

enum IntParse {
    Value(Scalar),
    OutOfRange,
    NotInt,
}

/// Go's `strconv.ParseInt(s, 0, 64)`, widened to u64 like go-yaml's `ParseUint` fallback.
/// Digits are accumulated in u128, so no value is ever routed through a float.
fn parse_int(text: &str) -> IntParse {
    let (negative, unsigned) = match (text.strip_prefix('-'), text.strip_prefix('+')) {
        (Some(rest), _) => (true, rest),
        (None, Some(rest)) => (false, rest),
        (None, None) => (false, text),
    };
    let Some(magnitude) = parse_magnitude(unsigned) else {
        return IntParse::NotInt;
    };
    let Some(magnitude) = magnitude else {
        return IntParse::OutOfRange;
    };
    if negative {
        match i64::try_from(magnitude) {
            Ok(m) => IntParse::Value(Scalar::Int(-m)),
            Err(_) if magnitude == 1u128 << 63 => IntParse::Value(Scalar::Int(i64::MIN)),
            Err(_) => IntParse::OutOfRange,
        }
    } else if let Ok(i) = i64::try_from(magnitude) {
        IntParse::Value(Scalar::Int(i))
    } else if let Ok(u) = u64::try_from(magnitude) {
        IntParse::Value(Scalar::UInt(u))
    } else {
        IntParse::OutOfRange
    }
}

/// `None`: not an integer literal; `Some(None)`: a literal too large for u64.
fn parse_magnitude(text: &str) -> Option<Option<u128>> {
    let (radix, digits) = split_radix(text);
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let mut value: u128 = 0;
    for c in digits.chars() {
        let digit = u128::from(c.to_digit(radix)?);
        match value
            .checked_mul(u128::from(radix))
            .and_then(|v| v.checked_add(digit))
        {
            // Anything past u64 is out of range; stop before u128 could overflow too.
            Some(v) if v <= u128::from(u64::MAX) => value = v,
            _ => return Some(None),
        }
    }
    Some(Some(value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plain(s: &str) -> Value {
        match resolve_plain(s).and_then(Scalar::into_value) {
            Ok(v) => v,
            Err(e) => panic!("{s:?}: {e}"),
        }
    }

    #[test]
    fn null_words() {
        for s in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(plain(s), Value::Null, "{s:?}");
        }
        for s in ["nULL", "nil", "None"] {
            assert_eq!(plain(s), json!(s), "{s:?}");
        }
    }

    #[test]
    fn bool_words() {
        for s in [
            "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE",
        ] {
            assert_eq!(plain(s), json!(true), "{s:?}");
        }
        for s in [
            "n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE",
        ] {
            assert_eq!(plain(s), json!(false), "{s:?}");
        }
        for s in ["yES", "oN", "tRUE", "yess", "t", "f"] {
            assert_eq!(plain(s), json!(s), "{s:?}");
        }
    }

    #[test]
    fn integers() {
        let cases: &[(&str, Value)] = &[
            ("0", json!(0)),
            ("-0", json!(0)),
            ("+12", json!(12)),
            ("-12", json!(-12)),
            ("1_000_000", json!(1_000_000)),
            ("0x1F", json!(31)),
            ("0X1f", json!(31)),
            ("-0x10", json!(-16)),
            ("0b101", json!(5)),
            ("-0b11", json!(-3)),
            ("0755", json!(493)),
            ("0o17", json!(15)),
            ("0O17", json!(15)),
            ("00", json!(0)),
            ("9223372036854775807", json!(i64::MAX)),
            ("-9223372036854775808", json!(i64::MIN)),
            ("18446744073709551615", json!(u64::MAX)),
            ("0xFFFFFFFFFFFFFFFF", json!(u64::MAX)),
            // Not octal: go-yaml falls back to a float, which is integral.
            ("0789", json!(789)),
        ];
        for (s, want) in cases {
            assert_eq!(&plain(s), want, "{s:?}");
        }
        assert_eq!(plain("9223372036854775807").as_i64(), Some(i64::MAX));
        assert_eq!(plain("18446744073709551615").as_u64(), Some(u64::MAX));
    }

    #[test]
    fn integers_out_of_range_are_errors() {
        for s in [
            "18446744073709551616",
            "-9223372036854775809",
            "0x1FFFFFFFFFFFFFFFF",
            "99999999999999999999999999999999999999999999",
        ] {
            let err = resolve_plain(s).err().unwrap_or_default();
            assert!(err.contains("integer out of range"), "{s:?}: {err:?}");
        }
    }

    #[test]
    fn floats() {
        let cases: &[(&str, Value)] = &[
            ("1.5", json!(1.5)),
            (".5", json!(0.5)),
            ("-.5", json!(-0.5)),
            ("+1.5", json!(1.5)),
            ("1e3", json!(1000)),
            ("-1.5E+3", json!(-1500)),
            ("1.5e-3", json!(0.0015)),
            ("1.0", json!(1)),
            ("1.", json!(1)),
            ("2.50", json!(2.5)),
            ("1e20", json!(1e20)),
            ("1_0.5", json!(10.5)),
        ];
        for (s, want) in cases {
            assert_eq!(&plain(s), want, "{s:?}");
        }
        assert!(plain("1.0").is_i64());
        assert!(plain("1.5").is_f64());
        // Underflow rounds to zero, as in Go.
        assert_eq!(plain("1e-400"), json!(0));
    }

    /// go-yaml keeps an overflowing float literal as text (`"1e400"`), turning a number into a
    /// string without a word; smp reports it, as it reports integers out of range.
    #[test]
    fn floats_out_of_range_are_errors() {
        for s in [
            "1e400",
            "-1e400",
            "+1.5E+400",
            "1_0e400",
            ".5e400",
            "-.5e999999999999",
        ] {
            let err = resolve_plain(s).err().unwrap_or_default();
            assert!(err.contains("number out of range"), "{s:?}: {err:?}");
        }
        let long = format!("{}e400", "1".repeat(1000));
        let err = resolve_plain(&long).err().unwrap_or_default();
        assert!(err.len() < 120, "the message shows an excerpt: {err}");
        // Quoted or tagged as a string, the text stays a string.
        let quoted = resolve_scalar("1e400".into(), TScalarStyle::DoubleQuoted, None);
        assert_eq!(quoted, Ok(Scalar::Str("1e400".into())));
        let tagged = resolve_scalar("1e400".into(), TScalarStyle::Plain, Some(CoreTag::Str));
        assert_eq!(tagged, Ok(Scalar::Str("1e400".into())));
    }

    #[test]
    fn non_json_floats_are_errors() {
        for s in [".inf", "-.Inf", "+.INF", ".nan", ".NaN"] {
            let err = resolve_plain(s).and_then(Scalar::into_value).err();
            assert!(
                err.is_some_and(|e| e.contains("not representable in JSON")),
                "{s:?}"
            );
        }
    }

    #[test]
    fn strings() {
        for s in [
            "abc",
            "1.2.3",
            "1-2",
            "0x",
            "0b2",
            "0o8",
            "-",
            "+",
            ".",
            ".e3",
            "1e",
            "1e+",
            "_1",
            "1:20",
            "2001-12-14",
            ".Nan",
            "<<",
            "e3",
            "- 1",
            "0x1p3",
            "inf",
            "nan",
        ] {
            assert_eq!(plain(s), json!(s), "{s:?}");
        }
    }

    fn tagged(text: &str, style: TScalarStyle, tag: CoreTag) -> Result<Value, String> {
        resolve_scalar(text.to_string(), style, Some(tag)).and_then(Scalar::into_value)
    }

    #[test]
    fn quoted_are_strings() {
        for style in [
            TScalarStyle::SingleQuoted,
            TScalarStyle::DoubleQuoted,
            TScalarStyle::Literal,
            TScalarStyle::Folded,
        ] {
            for s in ["yes", "1", "~", "", "1.5"] {
                let v = resolve_scalar(s.into(), style, None).and_then(Scalar::into_value);
                assert_eq!(v, Ok(json!(s)));
            }
        }
    }

    #[test]
    fn explicit_tags() {
        use TScalarStyle::{DoubleQuoted, Plain};
        assert_eq!(tagged("123", Plain, CoreTag::Str), Ok(json!("123")));
        assert_eq!(tagged("yes", Plain, CoreTag::NonSpecific), Ok(json!("yes")));
        assert_eq!(tagged("0x1F", DoubleQuoted, CoreTag::Int), Ok(json!(31)));
        assert_eq!(tagged("1", Plain, CoreTag::Float), Ok(json!(1)));
        assert_eq!(tagged("1.5", Plain, CoreTag::Float), Ok(json!(1.5)));
        assert_eq!(tagged("yes", DoubleQuoted, CoreTag::Bool), Ok(json!(true)));
        assert_eq!(tagged("~", Plain, CoreTag::Null), Ok(Value::Null));
        assert_eq!(tagged("", Plain, CoreTag::Null), Ok(Value::Null));
        for (text, tag) in [
            ("abc", CoreTag::Int),
            ("1.5", CoreTag::Int),
            ("1", CoreTag::Bool),
            ("x", CoreTag::Null),
            ("x", CoreTag::Float),
            ("x", CoreTag::Map),
            ("x", CoreTag::Seq),
        ] {
            let err = tagged(text, Plain, tag).err().unwrap_or_default();
            assert!(err.contains(tag.short()), "{text} {tag:?}: {err}");
        }
        assert_eq!(
            tagged("abc", Plain, CoreTag::Int),
            Err("cannot decode !!str `abc` as a !!int".into())
        );
    }

    fn key(s: &str) -> Result<String, String> {
        resolve_plain(s).and_then(Scalar::into_key)
    }

    #[test]
    fn keys_follow_sigs_k8s_yaml() {
        let cases = [
            ("a", "a"),
            ("1", "1"),
            ("0x1F", "31"),
            ("yes", "true"),
            ("off", "false"),
            ("1.0", "1"),
            ("1.5", "1.5"),
            ("1e6", "1e+06"),
            ("123456.0", "123456"),
            ("0.0001", "0.0001"),
            ("0.00001", "1e-05"),
            ("1.234567891234", "1.2345679"),
            ("-2.5e-7", "-2.5e-07"),
            ("1e300", ".inf"),
            (".inf", ".inf"),
            ("-.inf", "-.inf"),
            (".nan", ".nan"),
            ("18446744073709551615", "18446744073709551615"),
        ];
        for (text, want) in cases {
            assert_eq!(key(text).as_deref(), Ok(want), "{text:?}");
        }
        assert!(key("~").is_err());
        assert!(key("").is_err());
    }
}
