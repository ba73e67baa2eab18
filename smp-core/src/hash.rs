//! A fast hasher for the short keys the engine indexes.

use std::hash::Hasher;

/// A multiply-rotate hash over 8-byte words: keys are short strings, where SipHash's setup
/// cost dominates, and not attacker-sensitive (a collision only costs a comparison).
#[derive(Default)]
pub(crate) struct WordHasher(u64);

impl WordHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        // Multiplication only carries entropy upwards; hash tables index by the low bits.
        let h = self.0 ^ (self.0 >> 33);
        h.wrapping_mul(0xff51_afd7_ed55_8ccd) ^ (h >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 56));
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
}

/// A `HashSet`/`HashMap` builder using [`WordHasher`].
pub(crate) type BuildWordHasher = std::hash::BuildHasherDefault<WordHasher>;
