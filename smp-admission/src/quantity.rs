//! Resource quantities as the API server reads and prints them (apimachinery's `Quantity`):
//! `1000M` is stored as `1G`, `1000m` as `1`, `1.5Gi` as `1536Mi`, `0.5` as `500m`. A
//! quantity keeps the family of its suffix (binary `Ki`..`Ei`, decimal `n`..`E`, or an
//! exponent `e3`) and is printed in its shortest exact form of that family: the mantissa
//! without trailing zeros, the exponent a multiple of three (decimal) or of ten bits
//! (binary). A binary quantity under 1024 in size, or not a whole number, is printed as a
//! decimal one.

use std::borrow::Cow;
use std::fmt;

/// How a quantity's suffix is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `Ki`, `Mi`, ... `Ei`.
    BinarySi,
    /// `n`, `u`, `m`, none, `k`, `M`, ... `E`.
    DecimalSi,
    /// `e3`, `E-2`, ...
    DecimalExponent,
}

/// A quantity: `value × 10^scale`, with the format its suffix came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quantity {
    value: i128,
    scale: i32,
    format: Format,
}

/// Why a text is not a quantity.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
)]
pub struct QuantityError;

/// Decimal suffixes by their power of ten.
const DECIMAL: &[(&str, i32)] = &[
    ("n", -9),
    ("u", -6),
    ("m", -3),
    ("", 0),
    ("k", 3),
    ("M", 6),
    ("G", 9),
    ("T", 12),
    ("P", 15),
    ("E", 18),
];

/// Binary suffixes by their power of two.
const BINARY: &[(&str, u32)] = &[
    ("Ki", 10),
    ("Mi", 20),
    ("Gi", 30),
    ("Ti", 40),
    ("Pi", 50),
    ("Ei", 60),
];

/// The most digits a mantissa may carry; past it the text is kept as written.
const MAX_DIGITS: usize = 30;

impl Quantity {
    /// Zero, as Go's zero `Quantity` (what a resource list lacking a name gives).
    pub(crate) const ZERO: Quantity = Quantity {
        value: 0,
        scale: 0,
        format: Format::DecimalSi,
    };

    /// Reads a quantity as `resource.ParseQuantity` does (surrounding spaces aside).
    pub fn parse(text: &str) -> Result<Quantity, QuantityError> {
        parse(text)
    }

    /// The same quantity with the trailing zeros of its value moved into its scale.
    fn trimmed(mut self) -> Quantity {
        if self.value == 0 {
            self.scale = 0;
            return self;
        }
        // Most values fit in 64 bits, where division is an instruction, not a call.
        if let Ok(mut small) = i64::try_from(self.value) {
            while small % 10 == 0 {
                small /= 10;
                self.scale += 1;
            }
            self.value = i128::from(small);
            return self;
        }
        while self.value % 10 == 0 {
            self.value /= 10;
            self.scale += 1;
        }
        self
    }

    /// Rounds to `scale` as `Quantity.RoundUp` does for a resource list's milli scale: any
    /// digit cut makes the value one unit larger in magnitude (away from zero).
    pub fn round_up(mut self, scale: i32) -> Quantity {
        if self.scale >= scale {
            return self;
        }
        let shift = u32::try_from(scale - self.scale).unwrap_or(u32::MAX);
        let away = |q: i128| q + self.value.signum();
        self.value = match 10i128.checked_pow(shift) {
            Some(d) if self.value % d != 0 => away(self.value / d),
            Some(d) => self.value / d,
            // Smaller than any unit of `scale`: one unit, of the value's sign.
            None => self.value.signum(),
        };
        self.scale = scale;
        self.trimmed()
    }
}

/// The sum, in the format of the left quantity unless it is zero (as `Quantity.Add`).
impl std::ops::Add for Quantity {
    type Output = Quantity;

    fn add(self, other: Quantity) -> Quantity {
        let scale = self.scale.min(other.scale);
        let (Some(a), Some(b)) = (self.at_scale(scale), other.at_scale(scale)) else {
            return self;
        };
        let format = if self.value == 0 {
            other.format
        } else {
            self.format
        };
        Quantity {
            value: a.saturating_add(b),
            scale,
            format,
        }
        .trimmed()
    }
}

impl Quantity {
    /// The value in units of `10^scale`, for a `scale` at most this quantity's (`None` past
    /// what an i128 holds).
    fn at_scale(self, scale: i32) -> Option<i128> {
        10i128
            .checked_pow(u32::try_from(self.scale.checked_sub(scale)?).ok()?)
            .and_then(|p| self.value.checked_mul(p))
    }

    /// The value in units of `10^scale`, rounded up away from zero as Go's
    /// `Quantity.ScaledValue` does (`scaled_up(0)` is `Value()`, `scaled_up(-3)` is
    /// `MilliValue()`); `None` past what an i128 holds.
    pub fn scaled_up(self, scale: i32) -> Option<i128> {
        self.round_up(scale).at_scale(scale)
    }

    /// Whether the value is below zero.
    pub fn is_negative(self) -> bool {
        self.value < 0
    }

    /// How this quantity compares with `other` in value (whatever their formats).
    pub fn compare(self, other: Quantity) -> std::cmp::Ordering {
        let scale = self.scale.min(other.scale);
        let widen = |q: Quantity| {
            q.at_scale(scale)
                .unwrap_or(if q.value < 0 { i128::MIN } else { i128::MAX })
        };
        widen(self).cmp(&widen(other))
    }
}

/// The format, power of ten and power of two of an SI suffix.
fn suffix_of(suffix: &str) -> Option<(Format, i32, u32)> {
    Some(match suffix {
        "" => (Format::DecimalSi, 0, 0),
        "m" => (Format::DecimalSi, -3, 0),
        "Ki" => (Format::BinarySi, 0, 10),
        "Mi" => (Format::BinarySi, 0, 20),
        "Gi" => (Format::BinarySi, 0, 30),
        "k" => (Format::DecimalSi, 3, 0),
        "M" => (Format::DecimalSi, 6, 0),
        "G" => (Format::DecimalSi, 9, 0),
        "Ti" => (Format::BinarySi, 0, 40),
        "Pi" => (Format::BinarySi, 0, 50),
        "Ei" => (Format::BinarySi, 0, 60),
        "n" => (Format::DecimalSi, -9, 0),
        "u" => (Format::DecimalSi, -6, 0),
        "T" => (Format::DecimalSi, 12, 0),
        "P" => (Format::DecimalSi, 15, 0),
        "E" => (Format::DecimalSi, 18, 0),
        _ => return None,
    })
}

/// A quantity's text taken apart, before any arithmetic.
struct Scan<'a> {
    negative: bool,
    digits: Digits<'a>,
    format: Format,
    bits: u32,
    written_scale: i32,
}

fn scan(text: &str) -> Result<Scan<'_>, QuantityError> {
    let padded = |b: Option<&u8>| b.is_some_and(u8::is_ascii_whitespace);
    let text = if padded(text.as_bytes().first()) || padded(text.as_bytes().last()) {
        text.trim()
    } else {
        text
    };
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    // One pass over the number: where it ends, and where its one point is.
    let (mut number_end, mut point) = (unsigned.len(), None);
    for (i, b) in unsigned.bytes().enumerate() {
        match b {
            b'0'..=b'9' => {}
            b'.' if point.is_none() => point = Some(i),
            b'.' => return Err(QuantityError),
            _ => {
                number_end = i;
                break;
            }
        }
    }
    let (number, suffix) = unsigned.split_at(number_end);
    let (whole, fraction) = match point {
        Some(p) => (&number[..p], &number[p + 1..]),
        None => (number, ""),
    };
    if whole.is_empty() && fraction.is_empty() {
        return Err(QuantityError);
    }
    let whole = whole.trim_start_matches('0');
    if whole.len() + fraction.len() > MAX_DIGITS {
        return Err(QuantityError);
    }
    let fraction_digits = i32::try_from(fraction.len()).map_err(|_| QuantityError)?;
    let (format, power, bits) = match suffix_of(suffix) {
        Some(found) => found,
        None => {
            let exponent = suffix.strip_prefix(['e', 'E']).ok_or(QuantityError)?;
            let power: i32 = exponent.parse().map_err(|_| QuantityError)?;
            if !(-100..=100).contains(&power) {
                return Err(QuantityError);
            }
            (Format::DecimalExponent, power, 0)
        }
    };
    let written_scale = power - fraction_digits;
    let digits = Digits { whole, fraction };
    Ok(Scan {
        negative,
        digits,
        format,
        bits,
        written_scale,
    })
}

impl Scan<'_> {
    /// Whether the server's parser keeps the text to print it back as written.
    fn kept(&self) -> bool {
        kept_as_written(self.digits, self.format, self.written_scale, self.bits)
            && self.written_scale >= -9
    }

    /// Whether the canonical form is the text itself, known without arithmetic: a binary
    /// quantity written as a whole number that is not a multiple of 1024 (`256Mi`), with
    /// no sign or leading zero, prints its digits and suffix again (unless it is past the
    /// int64 the server holds it in).
    fn prints_as_written(&self, text: &str) -> bool {
        let digits = self.digits.whole;
        self.format == Format::BinarySi
            && self.digits.fraction.is_empty()
            && !self.negative
            && !digits.is_empty()
            && digits.len() <= 15
            && text.len() == digits.len() + 2
            && digits.parse::<u64>().is_ok_and(|n| {
                // Not a multiple of 1024, and within the int64 the server caps binary values to.
                n % 1024 != 0 && (u128::from(n) << self.bits) <= i64::MAX as u128
            })
    }
}

fn parse(text: &str) -> Result<Quantity, QuantityError> {
    let Scan {
        negative,
        digits: Digits { whole, fraction },
        format,
        bits,
        written_scale,
        ..
    } = scan(text)?;
    let mut value: i128 = 0;
    for b in whole.bytes().chain(fraction.bytes()) {
        value = value * 10 + i128::from(b - b'0');
    }
    // value × 2^bits, exactly: 2^60 × 10^30 stays within i128.
    value = value.checked_mul(1i128 << bits).ok_or(QuantityError)?;
    if format == Format::BinarySi && fraction.is_empty() && value > i128::from(i64::MAX) {
        // The server holds a binary quantity in an int64, capped.
        value = i128::from(i64::MAX);
    }
    if negative {
        value = -value;
    }
    let mut quantity = Quantity {
        value,
        scale: written_scale,
        format,
    };
    // Finer than nano is rounded away from zero on reading.
    quantity = quantity.trimmed().round_up(-9);
    Ok(quantity)
}

/// Whether the server's parser keeps `text` to print it back as written: it does when the
/// digits (`digits`: the whole part without leading zeros, or `0`, then the fraction) read
/// as what it would print anyway. For a decimal quantity, at most 18 digits, none leading or
/// trailing `000`, at a scale that is a multiple of 3; for a binary one, a whole number with
/// room to spare in an int64, not a multiple of 8. (So `100m` and `12Ki` are kept, `1000m`
/// and `1024Mi` printed anew, and `1.500` kept as it is.)
fn kept_as_written(digits: Digits<'_>, format: Format, scale: i32, bits: u32) -> bool {
    let length =
        i32::try_from(digits.whole.len().max(1) + digits.fraction.len()).unwrap_or(i32::MAX);
    match format {
        Format::BinarySi => {
            let room = 15 - length - (bits as i32 * 3 / 10) - 1;
            digits.fraction.is_empty() && room >= 0 && !digits.whole_is_multiple_of_8()
        }
        Format::DecimalSi | Format::DecimalExponent => {
            length <= 18
                && scale >= -9
                && scale % 3 == 0
                && !digits.ends_in_three_zeros()
                && !digits.whole.is_empty()
        }
    }
}

/// The digits of a quantity: its whole part without leading zeros (empty for none), then its
/// fraction.
#[derive(Clone, Copy)]
struct Digits<'a> {
    whole: &'a str,
    fraction: &'a str,
}

impl Digits<'_> {
    /// Whether the whole part is a multiple of 8, read off its last three digits (1000 is).
    fn whole_is_multiple_of_8(self) -> bool {
        let tail = &self.whole[self.whole.len().saturating_sub(3)..];
        tail.bytes().fold(0u32, |n, b| n * 10 + u32::from(b - b'0')) % 8 == 0
    }

    fn ends_in_three_zeros(self) -> bool {
        let whole = if self.whole.is_empty() {
            "0"
        } else {
            self.whole
        };
        whole
            .bytes()
            .chain(self.fraction.bytes())
            .rev()
            .take(3)
            .filter(|&b| b == b'0')
            .count()
            == 3
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.value == 0 {
            return f.write_str("0");
        }
        let mut format = self.format;
        if format == Format::BinarySi {
            let small = self.scale <= 0 && {
                let magnitude = self.value.unsigned_abs();
                self.scale < 0 || magnitude < 1024
            };
            let whole = self.scale >= 0;
            if small || !whole {
                format = Format::DecimalSi;
            }
        }
        if format == Format::BinarySi {
            let Some(mut amount) = 10i128
                .checked_pow(self.scale.unsigned_abs())
                .and_then(|p| self.value.checked_mul(p))
            else {
                return write!(f, "{}e{}", self.value, self.scale);
            };
            let mut bits = 0;
            while amount % 1024 == 0 && bits < 60 {
                amount /= 1024;
                bits += 10;
            }
            let suffix = BINARY
                .iter()
                .find(|(_, b)| *b == bits)
                .map_or("", |(s, _)| s);
            return write!(f, "{amount}{suffix}");
        }
        // The exponent a multiple of three, the mantissa scaled to match.
        let (mut amount, mut exponent) = (self.value, self.scale);
        match exponent.rem_euclid(3) {
            1 => {
                amount *= 10;
                exponent -= 1;
            }
            2 => {
                amount *= 100;
                exponent -= 2;
            }
            _ => {}
        }
        if format == Format::DecimalExponent {
            return if exponent == 0 {
                write!(f, "{amount}")
            } else {
                write!(f, "{amount}e{exponent}")
            };
        }
        match DECIMAL.iter().find(|(_, p)| *p == exponent) {
            Some((suffix, _)) => write!(f, "{amount}{suffix}"),
            // Beyond `n` and `E` the server finds no suffix and prints none (`1000E` is
            // printed `1`): its quirk, kept.
            None => write!(f, "{amount}"),
        }
    }
}

/// `text` as the server prints the quantity it reads from it (kept as written when its
/// parser keeps it, in canonical form otherwise), or `None` when it is not a quantity.
pub fn canonical(text: &str) -> Option<String> {
    printed(text).map(Cow::into_owned)
}

/// `text` as a resource list stores it: rounded up to thousandths (and then printed anew)
/// when it is finer, otherwise as [`canonical`] prints it.
pub fn canonical_milli(text: &str) -> Option<String> {
    printed_milli(text).map(Cow::into_owned)
}

/// [`canonical`], borrowing `text` when it is kept as it is (found without arithmetic).
pub(crate) fn printed(text: &str) -> Option<Cow<'_, str>> {
    let scanned = scan(text).ok()?;
    if scanned.kept() || scanned.prints_as_written(text) {
        return Some(Cow::Borrowed(text.trim()));
    }
    Some(Cow::Owned(parse(text).ok()?.to_string()))
}

/// [`canonical_milli`], borrowing `text` when it is kept as it is.
pub(crate) fn printed_milli(text: &str) -> Option<Cow<'_, str>> {
    let scanned = scan(text).ok()?;
    if scanned.written_scale >= -3 {
        return printed(text);
    }
    Some(Cow::Owned(parse(text).ok()?.round_up(-3).to_string()))
}

#[cfg(test)]
mod tests {
    use super::{canonical, canonical_milli};

    #[test]
    fn printed_as_the_server_prints_them() {
        for (text, printed) in [
            ("1000M", "1G"),
            ("1000m", "1"),
            ("0.5", "500m"),
            ("1.5Gi", "1536Mi"),
            ("1024Ki", "1Mi"),
            ("1e3", "1e3"),
            ("1E3", "1E3"), // kept as written, as its digits read canonical
            ("1.5", "1500m"),
            ("100m", "100m"),
            ("0", "0"),
            ("0Gi", "0"),
            ("+1", "+1"),
            ("01", "01"),
            ("1.500", "1.500"),
            ("0.500", "500m"),
            ("100.035k", "100.035k"),
            ("1024Mi", "1Gi"),
            ("307200Ki", "300Mi"),
            ("0.001T", "1G"),
            ("1000u", "1m"),
            (".001e12", "1e9"),
            ("0.001e0", "1e-3"),
            ("1000e-12", "1e-9"),
            ("00", "0"),
            (".001Ki", "1024m"),
            (".000000000001Ki", "2n"),
            ("-.001Ki", "-1024m"),
            (" 1", "1"),
            ("2.5P", "2500T"),
            ("1.3E+6", "1300e3"),
            ("0.05Gi", "53687091200m"),
            ("9Ei", "9223372036854775807"),
            ("3.001n", "4n"),
            ("0.00000012345", "124n"),
            ("8Ki", "8Ki"),
            ("-1", "-1"),
            ("1.0", "1"),
            ("12Mi", "12Mi"),
            ("1Ki", "1Ki"),
            ("512", "512"),
            ("1023Ki", "1023Ki"),
            ("0.5Gi", "512Mi"),
            ("1k", "1k"),
            ("1000k", "1M"),
            ("10e5", "1e6"),
            ("1000", "1k"),
            ("100", "100"),
            (".5", "500m"),
            ("5.", "5."),
            ("1n", "1n"),
            ("1000n", "1u"),
            ("1.5k", "1500"),
            ("2000Mi", "2000Mi"),
        ] {
            assert_eq!(canonical(text).as_deref(), Some(printed), "{text}");
        }
    }

    #[test]
    fn resource_lists_round_up_to_thousandths() {
        assert_eq!(canonical_milli("0.0001").as_deref(), Some("1m"));
        assert_eq!(canonical_milli("1n").as_deref(), Some("1m"));
        assert_eq!(canonical_milli("1.0001").as_deref(), Some("1001m"));
        // Away from zero, whatever the sign.
        assert_eq!(canonical_milli("-0.0001").as_deref(), Some("-1m"));
        assert_eq!(canonical_milli("-1.0001").as_deref(), Some("-1001m"));
        assert_eq!(canonical_milli("1500u").as_deref(), Some("2m"));
        assert_eq!(canonical_milli("1.500").as_deref(), Some("1.500"));
        assert_eq!(canonical_milli("1.0000").as_deref(), Some("1"));
        assert_eq!(canonical_milli("250m").as_deref(), Some("250m"));
    }

    #[test]
    fn what_is_not_a_quantity() {
        for text in [
            "", "abc", "1.2.3", "1Gib", "-", ".", "1 Gi", "1e", "Gi", "1e1000",
        ] {
            assert_eq!(canonical(text), None, "{text:?}");
        }
    }
}
