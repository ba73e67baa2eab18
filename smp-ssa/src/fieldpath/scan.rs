//! Scanning JSON string contents a word at a time.

/// Where the first `"`, `\\` or control character of `bytes` is. Eight bytes are looked at a
/// time: keys are short, too short for a vector search to pay for setting up.
pub(crate) fn special(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        // A byte's high bit is set where the byte is zero (after the xor) or below 0x20; only
        // bytes above the first such byte can be set wrongly, so the lowest one is exact.
        let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
        let quote = zero(word ^ (ONES * u64::from(b'"')));
        let backslash = zero(word ^ (ONES * u64::from(b'\\')));
        let control = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
        let found = quote | backslash | control;
        if found != 0 {
            return Some(at + found.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    bytes[at..]
        .iter()
        .position(|b| matches!(b, b'"' | b'\\') || *b < 0x20)
        .map(|n| at + n)
}

#[cfg(test)]
mod tests {
    use super::special;

    #[test]
    fn the_word_search_finds_what_a_byte_search_finds() {
        let naive = |b: &[u8]| {
            b.iter()
                .position(|c| matches!(c, b'"' | b'\\') || *c < 0x20)
        };
        let alphabet: &[u8] = b"a\"\\\x00\x1f\x20\x21\x7f\x80\xe2\xff\x01Z";
        // Every string of up to 11 bytes over a few bytes, each special one at every place.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 20) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|i| alphabet[((seed >> (i * 3)) % alphabet.len() as u64) as usize])
                .collect();
            assert_eq!(special(&bytes), naive(&bytes), "{bytes:?}");
        }
        assert_eq!(special(b"abcdefghij\"k"), Some(10));
        assert_eq!(special(b"abcdefgh"), None);
    }
}
