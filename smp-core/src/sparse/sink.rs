//! The storage of the canonical copy: bytes written at a cursor into a buffer that is always
//! initialized past it.
//!
//! The copy loop (`scan::walk`) writes most tokens as one fixed 16- or 32-byte window and then
//! moves the cursor by the token's length; the bytes past the cursor are scratch. A `Vec<u8>`
//! can only be written through `push` and `extend`, whose length lives in the vector itself:
//! every token then stored the length and loaded it again, a chain through memory that cost
//! more than the copy. Here the storage is one initialized `Vec` and the cursor a plain
//! number, so the loop takes both by value ([`Sink::into_parts`]), holds them in registers, and
//! writes windows with safe slice copies. The storage grows by value as well ([`grown`]), so no
//! reference to the loop's state ever leaves it.

/// Bytes written so far (`room[..len]`), and initialized room after them.
#[derive(Default)]
pub(super) struct Sink {
    room: Vec<u8>,
    len: usize,
}

impl Sink {
    /// A sink with `room` bytes of room, zeroed once here.
    pub(super) fn with_room(room: usize) -> Sink {
        Sink {
            room: vec![0; room],
            len: 0,
        }
    }

    /// The storage and the cursor, for a loop that writes at the cursor (see the module notes).
    pub(super) fn into_parts(self) -> (Vec<u8>, usize) {
        (self.room, self.len)
    }

    /// The sink a loop leaves: storage `room`, of which `len` bytes are written.
    pub(super) fn from_parts(room: Vec<u8>, len: usize) -> Sink {
        Sink {
            len: len.min(room.len()),
            room,
        }
    }

    /// The storage and the cursor, borrowed, for the token copies the scanner shares with the
    /// copy loop (`scan::copy`).
    #[inline(always)]
    pub(super) fn parts_mut(&mut self) -> (&mut Vec<u8>, &mut usize) {
        (&mut self.room, &mut self.len)
    }

    #[inline]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The bytes written.
    #[inline]
    pub(super) fn as_slice(&self) -> &[u8] {
        self.room.get(..self.len).unwrap_or_default()
    }

    /// Forgets what was written after the first `len` bytes.
    #[inline]
    pub(super) fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    #[inline]
    pub(super) fn push(&mut self, byte: u8) {
        self.extend_from_slice(&[byte]);
    }

    #[inline]
    pub(super) fn extend_from_slice(&mut self, bytes: &[u8]) {
        put_bytes(&mut self.room, &mut self.len, bytes);
    }
}

/// Appends `bytes` to the copy `room[..*len]`, growing the room when it is short.
#[inline(always)]
pub(super) fn put_bytes(room: &mut Vec<u8>, len: &mut usize, bytes: &[u8]) {
    let end = *len + bytes.len();
    if room.len() < end {
        *room = grown(std::mem::take(room), end);
    }
    if let Some(slot) = room.get_mut(*len..end) {
        slot.copy_from_slice(bytes);
        *len = end;
    }
}

/// Appends `src[start..end]` to the copy `room[..*len]`; `None` when the range is not in
/// `src`. Most ranges copied are short tokens: up to 32 bytes are copied as one fixed 16- or
/// 32-byte window into the room after the cursor, which then moves by the range's length (much
/// cheaper than a variable-length `memcpy` call).
#[inline(always)]
pub(super) fn put_range(
    room: &mut Vec<u8>,
    len: &mut usize,
    src: &[u8],
    start: usize,
    end: usize,
) -> Option<()> {
    let n = end.checked_sub(start)?;
    if (n <= 16 && window::<16>(room, len, src, start, n))
        || (n <= 32 && window::<32>(room, len, src, start, n))
    {
        return Some(());
    }
    put_bytes(room, len, src.get(start..end)?);
    Some(())
}

/// Copies the `W` bytes at `src[start..]` to the cursor and moves it by `n`; `false` (nothing
/// copied) when fewer than `W` bytes are left in `src` or in the room.
#[inline(always)]
fn window<const W: usize>(
    room: &mut [u8],
    len: &mut usize,
    src: &[u8],
    start: usize,
    n: usize,
) -> bool {
    let source = src.get(start..).and_then(<[u8]>::first_chunk::<W>);
    let target = room.get_mut(*len..).and_then(<[u8]>::first_chunk_mut::<W>);
    match (source, target) {
        (Some(source), Some(target)) => {
            *target = *source;
            *len += n;
            true
        }
        _ => false,
    }
}

/// `room` made at least `need` bytes long (zero-filled, at least doubling): taken and returned
/// by value, so that a loop holding its storage in registers keeps it there.
#[cold]
#[inline(never)]
fn grown(mut room: Vec<u8>, need: usize) -> Vec<u8> {
    let len = need.max(room.len().saturating_mul(2)).max(64);
    room.resize(len, 0);
    room
}
