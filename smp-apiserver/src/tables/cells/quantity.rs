//! Resource quantities written in the canonical form the server gives them once parsed
//! (`1.5Gi` is `1536Mi`, `0.5` is `500m`, `1000m` is `1`): stored objects keep the text a
//! client wrote, but the printers show the parsed value.

use serde_json::Value;

/// How a quantity's value is written: the family of the suffix it was given with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// Powers of 1024: `Ki` ... `Ei`.
    Binary,
    /// Powers of 1000: `n` ... `E`, or none.
    Decimal,
    /// `e<n>`.
    Exponent,
}

/// The canonical text of a quantity member (a string, or a number as some clients write it);
/// text that is not a quantity, or too large to work with, is shown as it was written.
pub(super) fn canonical(quantity: &Value) -> String {
    let written = match quantity {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return "0".to_owned(),
    };
    parse(&written).map_or(written, |(nanos, form)| write(nanos, form))
}

/// The quantity at `pointer`, canonical; `0` when it is absent (a zero `Quantity`).
pub(super) fn at(object: &Value, pointer: &str) -> String {
    object
        .pointer(pointer)
        .map_or_else(|| "0".to_owned(), canonical)
}

/// The value in billionths, rounded away from zero to a whole one as the server keeps it,
/// and the form of its suffix.
fn parse(text: &str) -> Option<(i128, Form)> {
    let (negative, rest) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let number_end = rest
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(rest.len());
    let (number, suffix) = rest.split_at(number_end);
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty() || fraction.contains('.') {
        return None;
    }
    let mut digits: i128 = 0;
    for d in whole.bytes().chain(fraction.bytes()) {
        digits = digits.checked_mul(10)?.checked_add(i128::from(d - b'0'))?;
    }
    let (mut power_of_ten, power_of_1024, form) = suffix_value(suffix)?;
    power_of_ten = power_of_ten.checked_sub(i64::try_from(fraction.len()).ok()?)?;
    let mut nanos = digits.checked_mul(1024_i128.checked_pow(power_of_1024)?)?;
    let shift = power_of_ten.checked_add(9)?;
    if shift >= 0 {
        nanos = nanos.checked_mul(10_i128.checked_pow(u32::try_from(shift).ok()?)?)?;
    } else {
        nanos = match u32::try_from(shift.unsigned_abs())
            .ok()
            .and_then(|s| 10_i128.checked_pow(s))
        {
            Some(divisor) => nanos / divisor + i128::from(nanos % divisor != 0),
            // Smaller than a billionth: the rounding makes it one, unless it is zero.
            None => i128::from(nanos != 0),
        };
    }
    Some((if negative { -nanos } else { nanos }, form))
}

/// A suffix's power of ten, power of 1024 and form.
fn suffix_value(suffix: &str) -> Option<(i64, u32, Form)> {
    let decimal = |power| Some((power, 0, Form::Decimal));
    let binary = |power| Some((0, power, Form::Binary));
    match suffix {
        "n" => decimal(-9),
        "u" => decimal(-6),
        "m" => decimal(-3),
        "" => decimal(0),
        "k" => decimal(3),
        "M" => decimal(6),
        "G" => decimal(9),
        "T" => decimal(12),
        "P" => decimal(15),
        "E" => decimal(18),
        "Ki" => binary(1),
        "Mi" => binary(2),
        "Gi" => binary(3),
        "Ti" => binary(4),
        "Pi" => binary(5),
        "Ei" => binary(6),
        _ => {
            let exponent = suffix.strip_prefix(['e', 'E'])?;
            let digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some((exponent.parse().ok()?, 0, Form::Exponent))
        }
    }
}

/// The canonical text of `nanos` billionths given in `form`.
fn write(nanos: i128, form: Form) -> String {
    const BILLION: i128 = 1_000_000_000;
    if nanos == 0 {
        return "0".to_owned();
    }
    // Binary suffixes only suit whole numbers of at least 1024; others are written decimal.
    if form == Form::Binary && nanos % BILLION == 0 && nanos.abs() >= 1024 * BILLION {
        let mut value = nanos / BILLION;
        let mut power = 0;
        while power < 6 && value % 1024 == 0 {
            value /= 1024;
            power += 1;
        }
        return format!("{value}{}", ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][power]);
    }
    let (mut mantissa, mut exponent) = (nanos, -9_i64);
    while mantissa % 10 == 0 {
        mantissa /= 10;
        exponent += 1;
    }
    while exponent.rem_euclid(3) != 0 {
        mantissa *= 10;
        exponent -= 1;
    }
    if form == Form::Exponent {
        return match exponent {
            0 => mantissa.to_string(),
            _ => format!("{mantissa}e{exponent}"),
        };
    }
    // Past exa there is no suffix: the mantissa takes the rest.
    while exponent > 18 {
        mantissa *= 1000;
        exponent -= 3;
    }
    let suffix = match exponent {
        -9 => "n",
        -6 => "u",
        -3 => "m",
        3 => "k",
        6 => "M",
        9 => "G",
        12 => "T",
        15 => "P",
        18 => "E",
        _ => "",
    };
    format!("{mantissa}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn quantities_are_written_canonically() {
        for (written, shown) in [
            ("10Gi", "10Gi"),
            ("1.5Gi", "1536Mi"),
            ("0.5Gi", "512Mi"),
            ("0.5Ki", "512"),
            ("1025Ki", "1025Ki"),
            ("1000m", "1"),
            ("0.5", "500m"),
            ("100m", "100m"),
            ("1500m", "1500m"),
            ("2000", "2k"),
            ("1e3", "1e3"),
            ("1.5e3", "1500"),
            ("12e6", "12e6"),
            ("1E", "1E"),
            ("1000E", "1000E"),
            ("0.0000000001", "1n"),
            ("-1.5", "-1500m"),
            ("+5", "5"),
            ("0", "0"),
            ("0Gi", "0"),
            ("500Mi", "500Mi"),
            ("junk", "junk"),
            ("1e-9223372036854775808", "1e-9"),
            ("1.5e-12", "1e-9"),
            ("1.5n", "2n"),
            ("-1.5n", "-2n"),
            ("1.2.3", "1.2.3"),
            ("", ""),
            (
                "99999999999999999999999999999999999999999E",
                "99999999999999999999999999999999999999999E",
            ),
        ] {
            assert_eq!(canonical(&json!(written)), shown, "{written}");
        }
        assert_eq!(canonical(&json!(2)), "2");
        assert_eq!(canonical(&json!(0.25)), "250m");
    }
}
