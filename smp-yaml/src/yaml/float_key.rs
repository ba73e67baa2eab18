//! Float mapping keys, named the way sigs.k8s.io/yaml names them.
//!
//! It formats a float key with Go's `strconv.FormatFloat(f, 'g', -1, 32)`: float32 precision,
//! shortest digits, `%g` layout. Matching that keeps `1.5: x` and `1e6: x` naming the same
//! members as in kubectl (`"1.5"`, `"1e+06"`), odd as the second one looks.

/// A float key as sigs.k8s.io/yaml names it: `strconv.FormatFloat(f, 'g', -1, 32)`, with Go's
/// `+Inf`/`-Inf`/`NaN` spelled the YAML way.
pub(crate) fn float_key(f: f64) -> String {
    // Go converts to float32 first (rounding to nearest), exactly like `as`.
    let narrow = f as f32;
    if narrow.is_nan() {
        return ".nan".into();
    }
    if narrow.is_infinite() {
        return if narrow > 0.0 { ".inf" } else { "-.inf" }.into();
    }
    // `{:e}` gives the shortest digits that round-trip as f32, e.g. `-1.5e-7`.
    let sci = format!("{narrow:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    format!("{sign}{}", go_g_layout(&digits, exp))
}

/// Go's `%g` layout for shortest digits: exponent form when the exponent is below -4 or at
/// least 6 (`1e+06`, `1.5e-05`), positional otherwise.
fn go_g_layout(digits: &str, exp: i32) -> String {
    let (first, rest) = digits.split_at_checked(1).unwrap_or((digits, ""));
    if !(-4..6).contains(&exp) {
        let dot = if rest.is_empty() { "" } else { "." };
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{first}{dot}{rest}e{sign}{:02}", exp.unsigned_abs());
    }
    let point = exp + 1; // digits before the decimal point
    let len = i32::try_from(digits.len()).unwrap_or(i32::MAX);
    if point <= 0 {
        let zeros = "0".repeat(usize::try_from(-point).unwrap_or(0));
        format!("0.{zeros}{digits}")
    } else if point >= len {
        let zeros = "0".repeat(usize::try_from(point - len).unwrap_or(0));
        format!("{digits}{zeros}")
    } else {
        let split = usize::try_from(point)
            .ok()
            .and_then(|p| digits.split_at_checked(p));
        let (int, frac) = split.unwrap_or((digits, ""));
        format!("{int}.{frac}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_g_format_at_float32_precision() {
        let cases = [
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (1.5, "1.5"),
            (-1.5, "-1.5"),
            (100.0, "100"),
            (123_456.0, "123456"),
            (1e6, "1e+06"),
            (1_234_567.0, "1.234567e+06"),
            (0.1, "0.1"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.25e-7, "1.25e-07"),
            (1.234_567_891_234, "1.2345679"),
            (1e38, "1e+38"),
            (1e100, ".inf"),
            (-1e100, "-.inf"),
            (f64::NAN, ".nan"),
        ];
        for (f, want) in cases {
            assert_eq!(float_key(f), want, "{f}");
        }
    }
}
