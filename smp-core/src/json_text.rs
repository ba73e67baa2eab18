//! Canonical JSON text written piece by piece: the bytes `serde_json::to_string` gives for the
//! same `Value` (compact, object members in key order, strings and numbers as serde_json writes
//! them). The sparse apply and the typed diff assemble their output from these pieces.

use serde_json::Value;

/// Bytes that end the plain run of a string: `"`, `\` and control characters.
static STOPS: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

const ONES: u64 = u64::from_le_bytes([0x01; 8]);
const HIGH: u64 = u64::from_le_bytes([0x80; 8]);

/// The high bit of each of the 8 bytes of `x` that is `"`, `\` or a control character: the
/// first flagged byte is exact (a byte after it may be flagged wrongly), and so is whether any
/// byte is flagged.
#[inline]
fn stops(x: u64) -> u64 {
    let zero_byte = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    zero_byte(x ^ u64::from_le_bytes([b'"'; 8]))
        | zero_byte(x ^ u64::from_le_bytes([b'\\'; 8]))
        | (x.wrapping_sub(u64::from_le_bytes([0x20; 8])) & !x & HIGH)
}

/// The end of the run of bytes from `i` that are not `"`, `\` or control characters; eight
/// bytes at a time.
pub(crate) fn plain_run(bytes: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let stops = stops(u64::from_le_bytes(*chunk));
        if stops != 0 {
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while bytes.get(i).is_some_and(|&b| !STOPS[usize::from(b)]) {
        i += 1;
    }
    i
}

/// Appends `src[start..end]` to `out`; `None` when the range is not in `src`. Most ranges
/// copied are short tokens and members: up to 32 bytes are copied as a fixed 16- or 32-byte
/// window, then cut, which is much cheaper than a variable-length `memcpy` call. Always
/// inlined: the copy's hot loops call it for every token, and a call costs more than the copy.
#[cfg(feature = "sparse")]
#[inline(always)]
pub(crate) fn extend_range(out: &mut Vec<u8>, src: &[u8], start: usize, end: usize) -> Option<()> {
    let len = end.checked_sub(start)?;
    let copied = match len {
        0..=16 => through_window::<16>(out, src, start, len),
        // Image names, paths and annotation keys.
        17..=32 => through_window::<32>(out, src, start, len),
        _ => false,
    };
    if !copied {
        out.extend_from_slice(src.get(start..end)?);
    }
    Some(())
}

/// Appends the `len` bytes at `src[start..]` (`len <= W`) by copying a fixed `W`-byte window
/// and cutting it; `false` (nothing appended) when fewer than `W` bytes follow `start`.
#[inline(always)]
#[cfg(feature = "sparse")]
fn through_window<const W: usize>(out: &mut Vec<u8>, src: &[u8], start: usize, len: usize) -> bool {
    let Some(window) = src.get(start..).and_then(<[u8]>::first_chunk::<W>) else {
        return false;
    };
    let keep = out.len() + len;
    out.extend_from_slice(window);
    out.truncate(keep);
    true
}

pub use smp_yaml::maps_are_sorted;

/// Whether `a` and `b` are the same bytes. Texts of up to 16 bytes (most keys, names and
/// labels) are compared in place (as two overlapping words, or byte by byte when shorter
/// than 4), without a `memcmp` call, which costs more than the comparison itself.
#[inline]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    fn word<const W: usize>(head: Option<&[u8; W]>, tail: Option<&[u8; W]>) -> ([u8; W], [u8; W]) {
        (
            head.copied().unwrap_or([0; W]),
            tail.copied().unwrap_or([0; W]),
        )
    }
    match n {
        8..=16 => {
            word(a.first_chunk::<8>(), a.last_chunk::<8>())
                == word(b.first_chunk::<8>(), b.last_chunk::<8>())
        }
        4..=7 => {
            word(a.first_chunk::<4>(), a.last_chunk::<4>())
                == word(b.first_chunk::<4>(), b.last_chunk::<4>())
        }
        // The first, middle and last byte cover every length up to 3.
        1..=3 => [0, n / 2, n - 1].iter().all(|&i| a.get(i) == b.get(i)),
        0 => true,
        _ => a == b,
    }
}

/// The first 8 bytes of `key`, big-endian, zero-padded: orders most keys without a `memcmp`.
#[inline]
pub(crate) fn prefix_of(key: &[u8]) -> u64 {
    match key.first_chunk::<8>() {
        Some(head) => u64::from_be_bytes(*head),
        None => key
            .iter()
            .enumerate()
            .fold(0, |acc, (i, &b)| acc | u64::from(b) << (56 - 8 * i)),
    }
}

/// Appends `s` as a JSON string, as serde_json writes it: text without `"`, `\` or control
/// characters goes as it is; the rest is escaped by serde_json itself.
pub(crate) fn write_string(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    if bytes.len() <= SHORT_STRING && write_short(out, bytes) {
        return;
    }
    if plain_run(bytes, 0) == bytes.len() {
        out.reserve(bytes.len() + 2);
        out.push(b'"');
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    // serde_json fails only on I/O errors (none into a `Vec`) and on values it cannot write
    // (never a `str`).
    let _ = serde_json::to_writer(out, s);
}

/// Strings of at most this many bytes (most keys, names and short values) are written by
/// [`write_short`].
const SHORT_STRING: usize = 16;

/// Appends `bytes` (at most [`SHORT_STRING`] long) quoted when it needs no escape, and returns
/// whether it did. The bytes are read as two overlapping words (or a few single bytes) and
/// checked for stops in those words, then the words are appended one after the other, the
/// second overlapping the first: no byte-by-byte loop and no `memcpy` call, which cost more
/// than such a string. (Assembling the string in a buffer on the stack and appending that made
/// each append wait for the narrower stores it read back.)
#[inline]
fn write_short(out: &mut Vec<u8>, bytes: &[u8]) -> bool {
    let n = bytes.len();
    match n {
        8..=SHORT_STRING => {
            let (Some(head), Some(tail)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>())
            else {
                return false;
            };
            if stops(u64::from_le_bytes(*head)) | stops(u64::from_le_bytes(*tail)) != 0 {
                return false;
            }
            push_overlapping(out, head, tail, n);
        }
        4..=7 => {
            let (Some(head), Some(tail)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>())
            else {
                return false;
            };
            // Both halves checked in one word.
            let word =
                u64::from(u32::from_le_bytes(*head)) | u64::from(u32::from_le_bytes(*tail)) << 32;
            if stops(word) != 0 {
                return false;
            }
            push_overlapping(out, head, tail, n);
        }
        _ => {
            if bytes.iter().any(|&b| STOPS[usize::from(b)]) {
                return false;
            }
            out.reserve(n + 2);
            out.push(b'"');
            for &b in bytes {
                out.push(b);
            }
            out.push(b'"');
        }
    }
    true
}

/// Appends `"`, the `n` bytes whose first and last `W` bytes are `head` and `tail`
/// (`W <= n <= 2 * W`), and `"`.
#[inline(always)]
fn push_overlapping<const W: usize>(out: &mut Vec<u8>, head: &[u8; W], tail: &[u8; W], n: usize) {
    out.reserve(n + 2);
    out.push(b'"');
    let start = out.len();
    out.extend_from_slice(head);
    out.truncate(start + n - W);
    out.extend_from_slice(tail);
    out.push(b'"');
}

/// Appends what serde_json writes for `value`.
pub(crate) fn write_value(out: &mut Vec<u8>, value: &Value) {
    // serde_json fails only on I/O errors (none into a `Vec`) and on values it cannot write
    // (never a `Value`: its keys are strings).
    let _ = serde_json::to_writer(out, value);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length around the short paths, plain and with a byte to escape at each place.
    fn samples() -> Vec<String> {
        let mut all = Vec::new();
        for len in 0..=20 {
            let plain: String = (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect();
            all.push(plain.clone());
            for at in 0..len {
                for stop in ['"', '\\', '\u{1}', '\u{1f}', 'é', '\u{7f}'] {
                    let mut s: Vec<char> = plain.chars().collect();
                    s[at] = stop;
                    all.push(s.into_iter().collect());
                }
            }
        }
        all
    }

    #[test]
    fn strings_are_written_as_serde_json_writes_them() {
        for s in samples() {
            let mut out = b"x".to_vec();
            write_string(&mut out, &s);
            let want = format!("x{}", serde_json::to_string(&s).unwrap());
            assert_eq!(String::from_utf8(out).unwrap(), want, "{s:?}");
        }
    }

    #[test]
    fn same_bytes_is_equality() {
        let all = samples();
        for a in &all {
            for b in all.iter().filter(|b| b.len() == a.len()) {
                assert_eq!(
                    same_bytes(a.as_bytes(), b.as_bytes()),
                    a == b,
                    "{a:?} {b:?}"
                );
            }
        }
    }
}
