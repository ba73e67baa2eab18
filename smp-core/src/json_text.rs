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

/// The end of the run of bytes from `i` that are not `"`, `\` or control characters; eight
/// bytes at a time (the first flagged byte of each mask is exact).
pub(crate) fn plain_run(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let zero_byte = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    while let Some(chunk) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let x = u64::from_le_bytes(*chunk);
        let stops = zero_byte(x ^ u64::from_le_bytes([b'"'; 8]))
            | zero_byte(x ^ u64::from_le_bytes([b'\\'; 8]))
            | (x.wrapping_sub(u64::from_le_bytes([0x20; 8])) & !x & HIGH);
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

/// Appends what serde_json writes for `value`.
pub(crate) fn write_value(out: &mut Vec<u8>, value: &Value) {
    // serde_json fails only on I/O errors (none into a `Vec`) and on values it cannot write
    // (never a `Value`: its keys are strings).
    let _ = serde_json::to_writer(out, value);
}
