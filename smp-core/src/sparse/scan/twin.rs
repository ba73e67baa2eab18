//! Indexing a document against a similar one indexed already (its *twin*): the documents a
//! patch is created from are mostly the same text.
//!
//! While a container is indexed, each member or item that is itself a container is matched
//! with its likely counterpart in the twin: the member of the same key, or, in a list, the
//! item among the next few whose text starts most like it (items come and go, so positions
//! shift). When the counterpart's text is found byte for byte at the current position, the
//! value is that same JSON value, valid as it was there (at the same depth, so under the same
//! nesting limit): its entries are copied, shifted to this text, instead of read again. When
//! it is not, the value is indexed with the counterpart as its own guide. In an object, the text
//! from each member on is first compared in one go with the counterpart's, from the member
//! expected next: the members found byte for byte (each with the byte after it, so that its
//! last token ends there too), scalars included, are copied together, keys and all, without
//! reading their keys or matching them one by one.
//!
//! Matching is a hint: only byte equality decides, so a bad match costs time, never
//! correctness. The bytes compared for matches that fail are counted, and once they pass
//! twice the text's length (plus a constant) the rest is indexed without the twin, so the
//! pass stays linear whatever the documents hold.

use super::tape::{KeySpan, Tape};

/// Members of a twin object searched for a key that is not the next one.
const SEARCH: usize = 16;

/// Items of a twin list considered for an item.
const CANDIDATES: usize = 3;

/// Bytes of each candidate item compared to choose one.
const PROBE: usize = 64;

/// The twin and what matching has cost so far.
pub(super) struct Twin<'g> {
    tape: &'g Tape<'g>,
    spent: usize,
    budget: usize,
    /// A twin member, and where its value would start in this text, found different by
    /// [`Twin::members`]: [`Twin::is_same`] need not compare them again.
    differs: Option<(usize, usize)>,
}

impl<'g> Twin<'g> {
    pub(super) fn new(tape: &'g Tape<'g>, text_len: usize) -> Twin<'g> {
        Twin {
            tape,
            spent: 0,
            budget: text_len.saturating_mul(2).saturating_add(1 << 16),
            differs: None,
        }
    }

    fn spend(&mut self, bytes: usize) {
        self.spent = self.spent.saturating_add(bytes);
    }

    fn exhausted(&self) -> bool {
        self.spent > self.budget
    }

    /// The first child of twin container `parent`, where a cursor over its children starts.
    pub(super) fn first_child(&self, parent: usize) -> usize {
        parent + 1
    }

    fn end_of(&self, parent: usize) -> usize {
        parent + self.tape.entries[parent].size as usize
    }

    fn next_sibling(&self, child: usize) -> usize {
        child + (self.tape.entries[child].size as usize).max(1)
    }

    /// The member of twin object `parent` with key `key`: the one at `cursor` (members mostly
    /// come in the same order), else one of the first [`SEARCH`]. Moves `cursor` past it.
    pub(super) fn member(&mut self, parent: usize, cursor: &mut usize, key: &str) -> Option<usize> {
        if self.exhausted() {
            return None;
        }
        let end = self.end_of(parent);
        let found = if *cursor < end && self.tape.key(*cursor) == key {
            Some(*cursor)
        } else {
            let mut child = self.first_child(parent);
            let mut found = None;
            for _ in 0..SEARCH {
                if child >= end {
                    break;
                }
                if self.tape.key(child) == key {
                    found = Some(child);
                    break;
                }
                child = self.next_sibling(child);
            }
            found
        };
        if let Some(child) = found {
            *cursor = self.next_sibling(child);
        }
        found
    }

    /// The member after `cursor` in twin object `parent` (or the object's end).
    pub(super) fn after(&self, parent: usize, cursor: usize) -> usize {
        if cursor < self.end_of(parent) {
            self.next_sibling(cursor)
        } else {
            cursor
        }
    }

    /// The members of twin object `parent` from `cursor` on that `rest` (the text at `pos`,
    /// nesting `depth`, where a member starts) holds byte for byte, each with the byte after
    /// it (so its last token ends there too): the first and one past the last, when there is
    /// one. Moves `cursor` past them.
    pub(super) fn members(
        &mut self,
        parent: usize,
        cursor: &mut usize,
        rest: &[u8],
        (pos, depth): (usize, usize),
    ) -> Option<Run> {
        let end = self.end_of(parent);
        if self.exhausted() || *cursor >= end || self.tape.depth_of(*cursor) != depth {
            return None;
        }
        let start = self.tape.key_quote(*cursor)?;
        let limit = self.tape.entries[parent].end as usize;
        let twin = self.tape.bytes().get(start..limit).unwrap_or_default();
        let shared = start + common_prefix(twin, rest, twin.len());
        let first = *cursor;
        let (mut past, mut found) = (first, start);
        while past < end
            && self.tape.key_quote(past).is_some()
            && (self.tape.entries[past].end as usize) < shared
        {
            found = self.tape.entries[past].end as usize;
            past = self.next_sibling(past);
        }
        // What was compared beyond the members found counts, as for any failed match. When
        // it went past the next member's key into its value, that value differs.
        self.spend(shared - found);
        if past < end {
            let value = self.tape.entries[past].start as usize;
            if self.tape.key_quote(past).is_some() && value < shared {
                self.differs = Some((past, pos + (value - start)));
            }
        }
        if past == first {
            return None;
        }
        *cursor = past;
        Some(Run {
            first,
            past,
            start,
            pos,
        })
    }

    /// Copies the members of `run` into `out`, their keys into `keys`; returns the length of
    /// their text (to the end of the last value).
    pub(super) fn copy_members(
        &self,
        run: Run,
        out: &mut Tape<'_>,
        keys: &mut Vec<KeySpan>,
    ) -> usize {
        // Offsets move from the twin's text to this one's (both fit in 32 bits).
        let moved = |at: u32| (at as usize).wrapping_sub(run.start).wrapping_add(run.pos) as u32;
        let mut member = run.first;
        let mut last_end = run.start;
        while member < run.past {
            let e = self.tape.entries[member];
            let key = self.tape.key_span_of(member);
            let key = ((moved(key.0.0), moved(key.0.1)), false);
            out.copy_subtree(self.tape, member, moved(e.start) as usize, key);
            keys.push(key);
            last_end = e.end as usize;
            member = self.next_sibling(member);
        }
        last_end - run.start
    }

    /// The item of twin list `parent` most like the text at `rest`: of the [`CANDIDATES`] from
    /// `cursor`, the one whose text shares the longest start with it. Moves `cursor` past it.
    pub(super) fn item(&mut self, parent: usize, cursor: &mut usize, rest: &[u8]) -> Option<usize> {
        if self.exhausted() {
            return None;
        }
        let end = self.end_of(parent);
        let mut best: Option<(usize, usize)> = None;
        let mut child = *cursor;
        for _ in 0..CANDIDATES {
            if child >= end {
                break;
            }
            let text = self.tape.text(child);
            let limit = text.len().min(PROBE);
            let shared = common_prefix(text, rest, limit);
            self.spend(shared);
            if best.is_none_or(|(_, s)| shared > s) {
                best = Some((child, shared));
            }
            if shared == limit {
                break;
            }
            child = self.next_sibling(child);
        }
        let (found, _) = best?;
        *cursor = self.next_sibling(found);
        Some(found)
    }

    /// The first byte of twin entry `i`.
    pub(super) fn first_byte(&self, i: usize) -> Option<u8> {
        self.tape.text(i).first().copied()
    }

    /// Whether twin entry `i` is the text that starts `rest` (at `pos`, nesting `depth`); the
    /// bytes compared count against the budget when it is not.
    pub(super) fn is_same(&mut self, i: usize, (pos, depth): (usize, usize), rest: &[u8]) -> bool {
        if self.tape.depth_of(i) != depth || self.differs == Some((i, pos)) {
            return false;
        }
        let text = self.tape.text(i);
        let shared = common_prefix(text, rest, text.len());
        if shared == text.len() {
            return true;
        }
        self.spend(shared);
        false
    }

    /// Copies twin entry `i` and its subtree into `out`, for the same text found at `pos` and
    /// held as the value of key `key`. Returns the text's length.
    pub(super) fn copy(&self, i: usize, pos: usize, key: KeySpan, out: &mut Tape<'_>) -> usize {
        out.copy_subtree(self.tape, i, pos, key)
    }
}

/// Members of a twin object found byte for byte (see [`Twin::members`]).
pub(super) struct Run {
    first: usize,
    past: usize,
    /// Where the first member's key starts in the twin's text, and in this one.
    start: usize,
    pos: usize,
}

/// How many leading bytes `a` and `b` share, looking at no more than `limit`.
fn common_prefix(a: &[u8], b: &[u8], limit: usize) -> usize {
    let limit = limit.min(a.len()).min(b.len());
    let mut i = 0;
    // Whole blocks first: a fixed-size comparison is a few vector instructions.
    while i + 32 <= limit {
        if a[i..i + 32] != b[i..i + 32] {
            break;
        }
        i += 32;
    }
    while i < limit && a[i] == b[i] {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::super::{Scanner, Tape};
    use super::common_prefix;

    /// Everything an index says about each value, keys as text.
    fn summary(tape: &Tape<'_>) -> Vec<(u32, u32, u32, usize, String)> {
        (0..tape.entries.len())
            .map(|i| {
                let e = tape.entries[i];
                (
                    e.start,
                    e.end,
                    e.size,
                    tape.depth_of(i),
                    tape.key(i).to_owned(),
                )
            })
            .collect()
    }

    /// Indexing against a twin gives exactly the index (or the refusal) of indexing alone,
    /// whatever the two texts share: copied subtrees, shifted items, escaped keys, values that
    /// look alike at other depths, invalid parts.
    #[test]
    fn indexing_against_a_twin_is_indexing() {
        let nest = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
        let docs: Vec<String> = [
            r#"{"a": {"b": [1, 2, {"c": "d"}]}, "e": [{"k": 1, "v": {"x": 1}}, {"k": 2}]}"#,
            r#"{"a": {"b": [1, 2, {"c": "d"}]}, "e": [{"k": 2}, {"k": 1, "v": {"x": 1}}]}"#,
            r#"{"e": [{"k": 0}, {"k": 1, "v": {"x": 1}}, {"k": 2}], "a": {"b": [1, 2, {"c": "d"}]}}"#,
            r#"{"a": {"b": [1, 2, {"c": "d"}]}, "e": [{"k": 1, "v": {"x": 1}}, {"k": 2}], "a": 1}"#,
            r#"{"a": {"b": [1, 2, {"c": "d"}], "b": 0}, "e": []}"#,
            r#"{"a": [{"b": [1, 2, {"c": "d"}]}], "e": {"k": 1, "v": {"x": 1}}}"#,
            r#"{"a\u0062": {"\u0063": [{"d\n": 1}]}, "e": [{"k\"": {"x": [12]}}]}"#,
            r#"{"a\u0062": {"\u0063": [{"d\n": 1}]}, "e": [{"k\"": {"x": [123]}}]}"#,
            r#"{"ab": {"\u0063": [{"d\n": 1}]}, "e": [{"k\"": {"x": [12]}}], "x": {}}"#,
            r#"{"a": {"b": [1, 2, {"c": "d"}]}, "e": [{"k": 1, "v": {"x": 1e999}}, {"k": 2}]}"#,
            r#"{"a": {"b": [1, 2, {"c": "d"}]}, "e": [{"k": 1, "v": {"x": 1}}, {"k": 2}]"#,
            // Runs of members: one that ends where a token goes on, escaped keys, other
            // spacing, a repeated key, a value that differs after its key matched.
            r#"{"a": 1, "b": 12, "c": {"x": [1, {"y": 2}]}, "d": "s", "e": true}"#,
            r#"{"a": 1, "b": 123, "c": {"x": [1, {"y": 2}]}, "d": "s", "e": true}"#,
            r#"{"a": 1, "b": 12e5, "c": {"x": [1, {"y": 2}]}, "d": "s", "e": true}"#,
            r#"{"a": 1, "b": 12, "\u0063": {"x": [1, {"y": 2}]}, "d": "s", "e": true}"#,
            r#"{"a": 1, "b": 12, "c": {"x": [1, {"y": 2}]}, "d": "s\u0041", "e": true}"#,
            r#"{"a": 1,"b": 12, "c":{"x": [1, {"y": 2}]}, "d": "s", "e": true}"#,
            r#"{"a": 1, "b": 12, "c": {"x": [1, {"y": 3}]}, "d": "s", "e": true}"#,
            r#"{"a": 1, "b": 12, "c": {"x": [1, {"y": 2}]}, "d": "s", "a": 1}"#,
            r#"{"a": 1, "b": 12, "c": {"x": [1, {"y": 2}]}, "d": "s", "e": truex}"#,
            r#"{"o": {"a": 1, "b": 12, "c": {"x": [1, {"y": 2}]}, "d": "s", "e": true}}"#,
            r#"[{"a": 1}, [{"a": 1}], {"b": [{"a": 1}]}]"#,
            r#"[[{"a": 1}], {"a": 1}, {"b": [{"a": 1}]}]"#,
            r#"{}"#,
            r#"[]"#,
            r#"1"#,
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .chain([
            format!(r#"{{"deep": {}}}"#, nest(126)),
            format!(r#"{{"deep": {}}}"#, nest(127)),
            format!(r#"{{"deep": [{}]}}"#, nest(126)),
            format!(r#"[{}]"#, nest(126)),
        ])
        .collect();
        for a in &docs {
            let Ok(twin) = Scanner::checking(a).tape() else {
                continue;
            };
            for b in &docs {
                let alone = Scanner::checking(b).tape().map(|t| summary(&t));
                let guided = Scanner::checking(b).tape_like(&twin).map(|t| summary(&t));
                assert_eq!(guided, alone, "{b} against {a}");
            }
        }
    }

    /// The benchmark's documents, against each other.
    #[test]
    fn pods_against_each_other() {
        let texts = [
            include_str!("../../../benches/fixtures/pod50.json"),
            include_str!("../../../benches/fixtures/pod50-many-modified.json"),
            include_str!("../../../benches/fixtures/pod50-image-modified.json"),
            include_str!("../../../benches/fixtures/pod50-current.json"),
        ];
        for a in texts {
            let twin = Scanner::checking(a).tape().expect("fixture is JSON");
            for b in texts {
                let alone = summary(&Scanner::checking(b).tape().expect("fixture is JSON"));
                let guided = summary(&Scanner::checking(b).tape_like(&twin).expect("JSON"));
                assert_eq!(guided, alone);
            }
        }
    }

    #[test]
    fn common_prefix_counts_shared_bytes() {
        let a = b"0123456789abcdefghijklmnopqrstuvwxyz0123456789";
        let mut b = *a;
        assert_eq!(common_prefix(a, &b, a.len()), a.len());
        assert_eq!(common_prefix(a, &b, 5), 5);
        b[40] = b'!';
        assert_eq!(common_prefix(a, &b, a.len()), 40);
        b[3] = b'!';
        assert_eq!(common_prefix(a, &b, a.len()), 3);
        assert_eq!(common_prefix(a, &a[..10], 99), 10);
        assert_eq!(common_prefix(b"", a, 9), 0);
    }
}
