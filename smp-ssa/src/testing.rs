//! What the unit tests share.

/// A small random source (xorshift), so that random tests need no crate and run the same
/// every time.
pub(crate) struct Random(pub(crate) u64);

impl Random {
    /// A number below `n` (0 when `n` is 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}
