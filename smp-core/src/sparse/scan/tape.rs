//! Index mode: a document's structure in one strict pass, nothing built or copied.
//!
//! Every value gets an [`Entry`] in document order: where its text starts and ends, how many
//! entries its subtree holds (so the next sibling is `index + size`), the key it is the value of
//! and its nesting depth (to read it in full later, [`Scanner::seek`]). The checks are those of
//! copy mode: string bytes and escapes, number grammar and range, literals, nesting, repeated
//! keys.

use super::{At, Invalid, Scanner, number_value};

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
        let (from, to) = (e.key.0 as usize, e.key.1 as usize);
        let source = if e.escaped {
            self.keys.as_str()
        } else {
            self.text
        };
        source.get(from..to).unwrap_or_default()
    }

    /// The text of entry `i`.
    pub(in crate::sparse) fn text(&self, i: usize) -> &'a [u8] {
        let e = &self.entries[i];
        self.text
            .as_bytes()
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

/// No key (a list item, the root).
const NO_KEY: ((u32, u32), bool) = ((0, 0), false);

/// Keys of the objects being indexed, innermost last: `(key, escaped)` as in [`Entry`].
type Keys = Vec<((u32, u32), bool)>;

impl<'a> Scanner<'a> {
    /// Indexes the whole text (one value, then only whitespace). `Err` when the strict reader
    /// would refuse it, or when it is larger than an index can address (4 GiB).
    pub(in crate::sparse) fn tape(mut self) -> Result<Tape<'a>, Invalid> {
        if u32::try_from(self.bytes.len()).is_err() {
            return Err(Invalid);
        }
        let mut tape = Tape {
            text: self.text,
            entries: Vec::with_capacity(self.bytes.len() / 24),
            keys: String::new(),
            record: true,
        };
        let mut open_keys = Keys::new();
        self.index_value(&mut tape, &mut open_keys, NO_KEY)?;
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
        key: ((u32, u32), bool),
    ) -> Result<(), Invalid> {
        let first = self.peek_value();
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
        match first {
            Some(b'{') => {
                if !self.open()? {
                    let (base, keys_base) = (open_keys.len(), tape.keys.len());
                    loop {
                        let key = self.index_key(tape)?;
                        open_keys.push(key);
                        self.index_value(tape, open_keys, key)?;
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
            }
            Some(b'[') => {
                if !self.open()? {
                    loop {
                        self.index_value(tape, open_keys, NO_KEY)?;
                        if !self.next_or_close(b']')? {
                            break;
                        }
                    }
                }
            }
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
        if tape.record {
            let size = tape.entries.len() - index;
            let entry = &mut tape.entries[index];
            entry.end = self.pos as u32;
            entry.size = u32::try_from(size).map_err(|_| Invalid)?;
        }
        Ok(())
    }

    /// Reads `"key":`, returning where its unescaped bytes are.
    fn index_key(&mut self, tape: &mut Tape<'a>) -> Result<((u32, u32), bool), Invalid> {
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
fn repeats(tape: &Tape<'_>, keys: &mut [((u32, u32), bool)]) -> bool {
    let bytes = |&((from, to), escaped): &((u32, u32), bool)| {
        let source = if escaped {
            tape.keys.as_str()
        } else {
            tape.text
        };
        source
            .as_bytes()
            .get(from as usize..to as usize)
            .unwrap_or_default()
    };
    if keys.len() <= 8 {
        return keys
            .iter()
            .enumerate()
            .any(|(i, a)| keys[..i].iter().any(|b| bytes(a) == bytes(b)));
    }
    keys.sort_unstable_by(|a, b| bytes(a).cmp(bytes(b)));
    keys.windows(2).any(|w| bytes(&w[0]) == bytes(&w[1]))
}
