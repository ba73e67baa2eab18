//! Index mode: a document's structure in one strict pass, nothing built or copied.
//!
//! Every value gets an [`Entry`] in document order: where its text starts and ends, how many
//! entries its subtree holds (so the next sibling is `index + size`), the key it is the value of
//! and its nesting depth (to read it in full later, [`Scanner::seek`]). The checks are those of
//! copy mode: string bytes and escapes, number grammar and range, literals, nesting, repeated
//! keys.

use super::twin::Twin;
use super::{At, Invalid, Scanner, number_value};
use crate::json_text::same_bytes;

/// One value of an indexed document.
#[derive(Debug, Clone, Copy)]
pub(in crate::sparse) struct Entry {
    /// Its text: `text[start..end]`.
    pub(in crate::sparse) start: u32,
    pub(in crate::sparse) end: u32,
    /// Entries in its subtree, itself included.
    pub(in crate::sparse) size: u32,
    /// Containers open around it.
    depth: u8,
    /// Its key's bytes (unescaped), when it is an object member: `text[key.0..key.1]`, or
    /// `keys[key.0..key.1]` when the key had escapes.
    key: (u32, u32),
    escaped: bool,
}

/// An indexed document.
pub(in crate::sparse) struct Tape<'a> {
    text: &'a str,
    pub(in crate::sparse) entries: Vec<Entry>,
    /// Keys that had escapes, unescaped.
    keys: String,
    /// Whether entries are kept (`false`: the pass only checks the text).
    record: bool,
}

impl<'a> Tape<'a> {
    /// The key of member `i` (empty for a list item or the root).
    pub(in crate::sparse) fn key(&self, i: usize) -> &str {
        let e = &self.entries[i];
        self.key_span((e.key, e.escaped))
    }

    /// The text of a key as [`Scanner::index_key`] located it.
    fn key_span(&self, (span, escaped): KeySpan) -> &str {
        let source = if escaped {
            self.keys.as_str()
        } else {
            self.text
        };
        source
            .get(span.0 as usize..span.1 as usize)
            .unwrap_or_default()
    }

    /// Where the key of member `i` starts in the text (its opening quote), when it has no
    /// escapes (an escaped key's span is in `keys`).
    pub(super) fn key_quote(&self, i: usize) -> Option<usize> {
        let e = &self.entries[i];
        (!e.escaped && e.key != NO_KEY.0).then(|| (e.key.0 as usize).wrapping_sub(1))
    }

    /// Where the key of member `i` is, as [`Scanner::index_key`] located it.
    pub(super) fn key_span_of(&self, i: usize) -> KeySpan {
        let e = &self.entries[i];
        (e.key, e.escaped)
    }

    /// The whole text, as bytes.
    pub(super) fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// The nesting depth of entry `i`.
    pub(super) fn depth_of(&self, i: usize) -> usize {
        usize::from(self.entries[i].depth)
    }

    /// Appends the subtree of entry `i` of `twin`, whose text was found at `pos` of this
    /// text, as the value of key `key`: the same entries, their offsets moved. Returns the
    /// text's length.
    pub(super) fn copy_subtree(
        &mut self,
        twin: &Tape<'_>,
        i: usize,
        pos: usize,
        key: KeySpan,
    ) -> usize {
        let root = twin.entries[i];
        let size = root.size as usize;
        // Offsets move by `pos - root.start` in 32-bit arithmetic: each result is an offset in
        // this text, which fits.
        let delta = (pos as u32).wrapping_sub(root.start);
        self.entries.reserve(size);
        for (n, e) in twin.entries[i..i + size].iter().enumerate() {
            let mut copied = *e;
            copied.start = e.start.wrapping_add(delta);
            copied.end = e.end.wrapping_add(delta);
            if n == 0 {
                (copied.key, copied.escaped) = key;
            } else if e.escaped {
                let from = self.keys.len();
                self.keys.push_str(twin.key(i + n));
                copied.key = (from as u32, self.keys.len() as u32);
            } else if e.key != NO_KEY.0 {
                copied.key = (e.key.0.wrapping_add(delta), e.key.1.wrapping_add(delta));
            }
            self.entries.push(copied);
        }
        (root.end - root.start) as usize
    }

    /// The text of entry `i`.
    pub(in crate::sparse) fn text(&self, i: usize) -> &'a [u8] {
        let e = &self.entries[i];
        self.text
            .as_bytes()
            .get(e.start as usize..e.end as usize)
            .unwrap_or_default()
    }

    /// The text of entry `i`, as text.
    pub(in crate::sparse) fn text_str(&self, i: usize) -> &'a str {
        let e = &self.entries[i];
        self.text
            .get(e.start as usize..e.end as usize)
            .unwrap_or_default()
    }

    /// Where entry `i` starts, to read it with a scanner over the same text.
    pub(in crate::sparse) fn at(&self, i: usize) -> At {
        let e = &self.entries[i];
        At {
            pos: e.start as usize,
            depth: usize::from(e.depth),
        }
    }

    /// The entries of the members or items of container `i`, in document order.
    pub(in crate::sparse) fn children(&self, i: usize) -> Children<'_> {
        let end = i + self.entries[i].size as usize;
        Children {
            entries: &self.entries,
            next: i + 1,
            end,
        }
    }
}

/// See [`Tape::children`].
#[derive(Clone)]
pub(in crate::sparse) struct Children<'t> {
    entries: &'t [Entry],
    next: usize,
    end: usize,
}

impl Iterator for Children<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.next >= self.end {
            return None;
        }
        let i = self.next;
        self.next += self.entries.get(i).map_or(1, |e| e.size as usize).max(1);
        Some(i)
    }
}

/// Where a member's key is, and whether it had escapes, as in [`Entry`].
pub(super) type KeySpan = ((u32, u32), bool);

/// No key (a list item, the root).
const NO_KEY: KeySpan = ((0, 0), false);

/// Keys of the objects being indexed, innermost last.
type Keys = Vec<KeySpan>;

/// A container being indexed against its counterpart in a twin document (see `twin`).
type Guide<'t, 'g> = Option<(&'t mut Twin<'g>, usize)>;

impl<'a> Scanner<'a> {
    /// Indexes the whole text (one value, then only whitespace). `Err` when the strict reader
    /// would refuse it, or when it is larger than an index can address (4 GiB).
    pub(in crate::sparse) fn tape(self) -> Result<Tape<'a>, Invalid> {
        self.tape_guided(None)
    }

    /// [`Scanner::tape`] of a text that is mostly the same as `twin`'s: what is found byte for
    /// byte as it is there is copied from its index instead of read again (see `twin`).
    pub(in crate::sparse) fn tape_like(self, twin: &Tape<'_>) -> Result<Tape<'a>, Invalid> {
        self.tape_guided(Some(twin))
    }

    fn tape_guided(mut self, twin: Option<&Tape<'_>>) -> Result<Tape<'a>, Invalid> {
        if u32::try_from(self.bytes.len()).is_err() {
            return Err(Invalid);
        }
        let mut tape = Tape {
            text: self.text,
            // About one value per 16 bytes in pretty or compact manifests (2,683 in the
            // 62.5 KB pod50): room for them all at once, not a copy when the guess runs out.
            entries: Vec::with_capacity(self.bytes.len() / 16),
            keys: String::new(),
            record: true,
        };
        let mut open_keys = Keys::new();
        let first = self.peek_value();
        let mut twin = twin.map(|t| Twin::new(t, self.bytes.len()));
        // The roots are each other's counterparts.
        let mut guide = twin.as_mut().map(|twin| (twin, 0));
        if matches!(first, Some(b'{' | b'[')) {
            self.index_child(
                &mut tape,
                &mut open_keys,
                NO_KEY,
                first,
                &mut guide,
                Some(0),
            )?;
        } else {
            self.index_scalar(&mut tape, NO_KEY, first)?;
        }
        self.finish()?;
        Ok(tape)
    }

    /// Checks the next value as the strict reader would, keeping nothing: memory stays that of
    /// the keys of the objects open at once, whatever the value's size.
    pub(in crate::sparse) fn check_value(&mut self) -> Result<(), Invalid> {
        // Keys are located by 32-bit offsets.
        if u32::try_from(self.bytes.len()).is_err() {
            return Err(Invalid);
        }
        let mut tape = Tape {
            text: self.text,
            entries: Vec::new(),
            keys: String::new(),
            record: false,
        };
        self.index_value(&mut tape, &mut Keys::new(), NO_KEY)
    }

    fn index_value(
        &mut self,
        tape: &mut Tape<'a>,
        open_keys: &mut Keys,
        key: KeySpan,
    ) -> Result<(), Invalid> {
        let first = self.peek_value();
        if matches!(first, Some(b'{' | b'[')) {
            self.index_container(tape, open_keys, key, first, None)
        } else {
            self.index_scalar(tape, key, first)
        }
    }

    /// Records the entry of the value at `pos`; returns its index.
    #[inline(always)]
    fn enter(&self, tape: &mut Tape<'a>, key: KeySpan) -> Result<usize, Invalid> {
        let index = tape.entries.len();
        if tape.record {
            tape.entries.push(Entry {
                start: self.pos as u32,
                end: 0,
                size: 0,
                // `open` refuses nesting past MAX_NESTING (128), so the depth fits.
                depth: u8::try_from(self.depth).map_err(|_| Invalid)?,
                key: key.0,
                escaped: key.1,
            });
        }
        Ok(index)
    }

    /// Completes entry `index`, whose value ends at `pos`.
    #[inline(always)]
    fn leave(&self, tape: &mut Tape<'a>, index: usize) -> Result<(), Invalid> {
        if tape.record {
            let size = u32::try_from(tape.entries.len() - index).map_err(|_| Invalid)?;
            let entry = tape.entries.get_mut(index).ok_or(Invalid)?;
            entry.end = self.pos as u32;
            entry.size = size;
        }
        Ok(())
    }

    /// An object or list, starting with `first`. Its scalar members and items are indexed
    /// here, without a call each (most values are scalars); only containers recurse. With a
    /// guide, the container's counterpart in a twin document, each child container is looked
    /// for there first.
    fn index_container(
        &mut self,
        tape: &mut Tape<'a>,
        open_keys: &mut Keys,
        key: KeySpan,
        first: Option<u8>,
        mut guide: Guide<'_, '_>,
    ) -> Result<(), Invalid> {
        let index = self.enter(tape, key)?;
        let mut cursor = guide.as_ref().map_or(0, |(twin, at)| twin.first_child(*at));
        if first == Some(b'{') {
            if !self.open()? {
                let (base, keys_base) = (open_keys.len(), tape.keys.len());
                loop {
                    // The twin's next members, when they are the text that follows, are copied
                    // together.
                    if let Some((twin, at)) = guide.as_mut() {
                        self.skip_ws();
                        let rest = self.bytes.get(self.pos..).unwrap_or_default();
                        let run = twin.members(*at, &mut cursor, rest, (self.pos, self.depth));
                        if let Some(run) = run {
                            self.pos += twin.copy_members(run, tape, open_keys);
                            if !self.next_or_close(b'}')? {
                                break;
                            }
                            continue;
                        }
                    }
                    let key = self.index_key(tape)?;
                    open_keys.push(key);
                    let next = self.peek_value();
                    if matches!(next, Some(b'{' | b'[')) {
                        let partner = guide.as_mut().and_then(|(twin, at)| {
                            twin.member(*at, &mut cursor, tape.key_span(key))
                        });
                        self.index_child(tape, open_keys, key, next, &mut guide, partner)?;
                    } else {
                        self.index_scalar(tape, key, next)?;
                        // Members mostly come in the same order: the twin's next is likely
                        // the one after.
                        if let Some((twin, at)) = guide.as_ref() {
                            cursor = twin.after(*at, cursor);
                        }
                    }
                    if !self.next_or_close(b'}')? {
                        break;
                    }
                }
                let repeated = repeats(tape, &mut open_keys[base..]);
                open_keys.truncate(base);
                if !tape.record {
                    tape.keys.truncate(keys_base);
                }
                if repeated {
                    return Err(Invalid);
                }
            }
        } else if !self.open()? {
            loop {
                let next = self.peek_value();
                if matches!(next, Some(b'{' | b'[')) {
                    let rest = self.bytes.get(self.pos..).unwrap_or_default();
                    let partner = guide
                        .as_mut()
                        .and_then(|(twin, at)| twin.item(*at, &mut cursor, rest));
                    self.index_child(tape, open_keys, NO_KEY, next, &mut guide, partner)?;
                } else {
                    self.index_scalar(tape, NO_KEY, next)?;
                }
                if !self.next_or_close(b']')? {
                    break;
                }
            }
        }
        self.leave(tape, index)
    }

    /// A container member or item starting with `first`, with its likely counterpart
    /// `partner` in the twin: copied when it is the same text, else indexed with it as guide.
    fn index_child(
        &mut self,
        tape: &mut Tape<'a>,
        open_keys: &mut Keys,
        key: KeySpan,
        first: Option<u8>,
        guide: &mut Guide<'_, '_>,
        partner: Option<usize>,
    ) -> Result<(), Invalid> {
        let (Some((twin, _)), Some(partner)) = (guide, partner) else {
            return self.index_container(tape, open_keys, key, first, None);
        };
        if twin.first_byte(partner) != first {
            return self.index_container(tape, open_keys, key, first, None);
        }
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        if twin.is_same(partner, (self.pos, self.depth), rest) {
            self.pos += twin.copy(partner, self.pos, key, tape);
            return Ok(());
        }
        self.index_container(tape, open_keys, key, first, Some((&mut **twin, partner)))
    }

    /// A string, number or literal, starting with `first`.
    #[inline(always)]
    fn index_scalar(
        &mut self,
        tape: &mut Tape<'a>,
        key: KeySpan,
        first: Option<u8>,
    ) -> Result<(), Invalid> {
        let index = self.enter(tape, key)?;
        match first {
            Some(b'"') => {
                let start = self.pos;
                if self.string_token()? {
                    self.decode(start)?;
                }
            }
            Some(b'-' | b'0'..=b'9') => {
                let start = self.pos;
                let integer = self.number_token()?;
                let len = self.pos - start;
                let minus_zero = len == 2 && self.bytes.get(start..self.pos) == Some(b"-0");
                // Copy mode's rule: short integers are taken as they are, other numbers as
                // the reader converts them (which refuses what is out of range).
                if !(integer && len <= 18 && !minus_zero) {
                    let token = self.text.get(start..self.pos).ok_or(Invalid)?;
                    number_value(token).ok_or(Invalid)?;
                }
            }
            _ => {
                self.literal()?;
            }
        }
        self.leave(tape, index)
    }

    /// Reads `"key":`, returning where its unescaped bytes are.
    fn index_key(&mut self, tape: &mut Tape<'a>) -> Result<KeySpan, Invalid> {
        self.skip_ws();
        if self.bytes.get(self.pos) != Some(&b'"') {
            return Err(Invalid);
        }
        let token = self.pos;
        let key = if self.string_token()? {
            let decoded = self.decode(token)?;
            let from = tape.keys.len();
            tape.keys.push_str(&decoded);
            let to = u32::try_from(tape.keys.len()).map_err(|_| Invalid)?;
            ((from as u32, to), true)
        } else {
            ((token as u32 + 1, self.pos as u32 - 1), false)
        };
        self.skip_ws();
        if self.bytes.get(self.pos) != Some(&b':') {
            return Err(Invalid);
        }
        self.pos += 1;
        Ok(key)
    }
}

/// Whether two of an object's `keys` are the same (sorts them).
fn repeats(tape: &Tape<'_>, keys: &mut [KeySpan]) -> bool {
    let bytes = |key: &KeySpan| tape.key_span(*key).as_bytes();
    // Pairs compared in place are cheaper than a sort up to a few dozen pairs; the limit keeps
    // the quadratic part bounded. A span's length is its key's, so most pairs are told apart
    // without reading either key.
    if keys.len() <= 16 {
        let len = |key: &KeySpan| key.0.1.wrapping_sub(key.0.0);
        return keys.iter().enumerate().any(|(i, a)| {
            keys[..i]
                .iter()
                .any(|b| len(a) == len(b) && same_bytes(bytes(a), bytes(b)))
        });
    }
    keys.sort_unstable_by(|a, b| bytes(a).cmp(bytes(b)));
    keys.windows(2).any(|w| bytes(&w[0]) == bytes(&w[1]))
}
