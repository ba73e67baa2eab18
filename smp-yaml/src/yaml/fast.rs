//! A fast reader for the YAML manifests are written in: block mappings and sequences, one-line
//! plain, single- and double-quoted scalars, comments, `{}`, `[]` and `---` between documents.
//!
//! It reads a line at a time, with no tokens or events in between, and resolves scalars with
//! the same table as the full loader ([`super::resolve`]). At anything else (anchors, tags,
//! block scalars, flow collections with content, multi-line scalars, tabs, a key given twice, a
//! scalar the table refuses, ...) it gives up, and the caller reads the whole stream with the
//! full loader, which gives the same documents or the error. So it decides nothing the full
//! loader would decide otherwise: a test holds the two to the same documents on generated
//! streams.

use serde_json::{Map, Value};

use std::borrow::Cow;

use super::resolve::{resolve_plain, resolve_word};

/// Below the full loader's nesting limit: deeper documents go to it, which refuses them past its
/// limit.
const MAX_DEPTH: usize = 100;

/// The reader gave up: the full loader reads the stream.
struct GiveUp;

type Read<T> = Result<T, GiveUp>;

/// Every document of `text` (without a byte order mark), if the whole stream is in the style
/// this reader knows; `None` otherwise.
pub(crate) fn load_documents(text: &str) -> Option<Vec<Value>> {
    if !plain_text(text) {
        return None;
    }
    Reader {
        text,
        pos: 0,
        inline: None,
        build: true,
        keys: Vec::new(),
        next: None,
    }
    .stream()
    .ok()
}

/// The documents of a stream as texts of their own, split at its `---` lines, if every one is
/// in the style this reader knows; `None` otherwise. Each text reads as one document, the one
/// the stream holds there: the reader reads the stream as these texts one after another. (A
/// stream of a megabyte or more is read on every core, to know that.)
pub(crate) fn split_documents(text: &str) -> Option<Vec<&str>> {
    if !plain_text(text) {
        return None;
    }
    let bytes = text.as_bytes();
    let mut parts = Vec::new();
    let (mut start, mut line) = (0, 0);
    while line < bytes.len() {
        let end = memchr_newline(bytes, line);
        if &bytes[line..end] == b"---" {
            parts.push(&text[start..line]);
            start = (end + 1).min(bytes.len());
        }
        line = end + 1;
    }
    parts.push(&text[start..]);
    // How many documents each part reads as; a large stream is read on every core.
    let counts = |parts: &[&str]| -> Option<Vec<usize>> {
        parts.iter().map(|part| documents_in(part)).collect()
    };
    let threads = if text.len() < PARALLEL_FROM {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    };
    let chunk = parts.len().div_ceil(threads).max(1);
    let counts: Vec<usize> = if threads == 1 {
        counts(&parts)?
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = parts
                .chunks(chunk)
                .map(|chunk| scope.spawn(move || counts(chunk)))
                .collect();
            let mut all = Vec::with_capacity(parts.len());
            for handle in handles {
                all.extend(handle.join().ok()??);
            }
            Some(all)
        })?
    };
    let mut documents = Vec::with_capacity(parts.len());
    for (i, (part, count)) in parts.into_iter().zip(counts).enumerate() {
        match count {
            // Only before the first `---` may there be no document.
            0 if i == 0 => {}
            1 => documents.push(part),
            _ => return None,
        }
    }
    Some(documents)
}

/// From what size a stream is read on every core.
const PARALLEL_FROM: usize = 1 << 20;

/// How many documents a part reads as, if it is in the style this reader knows.
fn documents_in(part: &str) -> Option<usize> {
    let mut reader = Reader {
        text: part,
        pos: 0,
        inline: None,
        build: false,
        keys: Vec::new(),
        next: None,
    };
    reader.stream().ok().map(|docs| docs.len())
}

/// Whether the text holds nothing this reader leaves to the full loader wherever it is: tabs,
/// carriage returns, characters YAML does not allow, and the line breaks of YAML 1.1 beyond
/// `\n` (U+0085, U+2028, U+2029) and a byte order mark inside the stream.
fn plain_text(text: &str) -> bool {
    let bytes = text.as_bytes();
    let ascii = bytes.iter().fold(true, |ok, &b| {
        ok & ((b >= 0x20 && b != 0x7f) | (b == b'\n')) & (b < 0x80)
    });
    ascii
        || text.chars().all(|c| {
            matches!(c, '\n' | ' '..='~' | '\u{a0}'..='\u{2027}' | '\u{202a}'..='\u{d7ff}')
                || matches!(c, '\u{e000}'..='\u{fefe}' | '\u{ff00}'..='\u{fffd}' | '\u{10000}'..)
        })
}

/// A line's content: where it starts (after the indentation) and ends (before the `\n`), and
/// its column.
#[derive(Clone, Copy)]
struct Line {
    indent: usize,
    start: usize,
    end: usize,
}

struct Reader<'a> {
    text: &'a str,
    /// Where the next line starts.
    pos: usize,
    /// The rest of the current line, read as a line of its own at its column: the mapping that
    /// starts after a sequence's `- `.
    inline: Option<Line>,
    /// Whether values are built; otherwise the text is only read, to know that it reads (every
    /// value null, mappings holding their keys to find one given twice).
    build: bool,
    /// When not building: the keys of the mappings being read, innermost last.
    keys: Vec<Cow<'a, str>>,
    /// The next line with content, once found (asked for again and again before it is read).
    next: Option<Line>,
}

impl<'a> Reader<'a> {
    fn stream(&mut self) -> Read<Vec<Value>> {
        let mut docs = Vec::new();
        // Whether a `---` opened the document being read.
        let mut marked = false;
        loop {
            let Some(line) = self.peek()? else {
                if marked {
                    // An empty document at the end: left to the full loader.
                    return Err(GiveUp);
                }
                return Ok(docs);
            };
            match self.content(line) {
                "---" if line.indent == 0 => {
                    if marked {
                        return Err(GiveUp);
                    }
                    self.consume(line);
                    marked = true;
                    continue;
                }
                c if line.indent == 0 && (c.starts_with("---") || c.starts_with("...")) => {
                    return Err(GiveUp);
                }
                c if c.starts_with('%') => return Err(GiveUp),
                _ => {}
            }
            docs.push(self.node(line, 0)?);
            // A document ends at the next `---` or at the end.
            match self.peek()? {
                None => return Ok(docs),
                Some(next) if next.indent == 0 && self.content(next) == "---" => {
                    self.consume(next);
                    marked = true;
                }
                Some(_) => return Err(GiveUp),
            }
        }
    }

    fn content(&self, line: Line) -> &'a str {
        &self.text[line.start..line.end]
    }

    /// The next line with content (blank and comment lines skipped), not consumed.
    fn peek(&mut self) -> Read<Option<Line>> {
        if let Some(line) = self.inline.or(self.next) {
            return Ok(Some(line));
        }
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() {
            let end = memchr_newline(bytes, self.pos);
            let indent = bytes[self.pos..end]
                .iter()
                .position(|&b| b != b' ')
                .unwrap_or(end - self.pos);
            let start = self.pos + indent;
            if start == end || bytes[start] == b'#' {
                self.pos = (end + 1).min(bytes.len());
                continue;
            }
            self.next = Some(Line { indent, start, end });
            return Ok(self.next);
        }
        Ok(None)
    }

    /// Moves past `line`.
    fn consume(&mut self, line: Line) {
        self.inline = None;
        self.next = None;
        self.pos = (line.end + 1).min(self.text.len());
    }

    /// The node that starts on `line`: a sequence, a mapping or a scalar alone on its line.
    fn node(&mut self, line: Line, depth: usize) -> Read<Value> {
        if depth > MAX_DEPTH {
            return Err(GiveUp);
        }
        let content = self.content(line);
        if is_item(content) {
            return self.sequence(line.indent, depth);
        }
        if key_end(content)?.is_some() {
            return self.mapping(line.indent, depth);
        }
        // A line below it that goes on with it (a multi-line scalar) is not read by the caller.
        let value = self.scalar(line)?;
        self.consume(line);
        Ok(value)
    }

    /// A block sequence whose `-` are at column `indent`.
    fn sequence(&mut self, indent: usize, depth: usize) -> Read<Value> {
        let mut items = Vec::new();
        while let Some(line) = self.peek()? {
            if line.indent != indent || !is_item(self.content(line)) {
                // Deeper: the rest of a multi-line scalar, or not YAML.
                if line.indent > indent {
                    return Err(GiveUp);
                }
                break;
            }
            // What follows `- ` on the line.
            let bytes = self.text.as_bytes();
            let mut start = line.start + 1;
            while start < line.end && bytes[start] == b' ' {
                start += 1;
            }
            let rest = Line {
                indent: line.indent + (start - line.start),
                start,
                end: line.end,
            };
            let after = self.content(rest);
            if after.is_empty() || after.starts_with('#') {
                self.consume(line);
                let item = self.nested(indent, false, depth)?;
                self.keep(&mut items, item);
            } else if is_item(after) {
                // `- - a`: left to the full loader.
                return Err(GiveUp);
            } else if key_end(after)?.is_some() {
                self.inline = Some(rest);
                let item = self.mapping(rest.indent, depth + 1)?;
                self.keep(&mut items, item);
            } else {
                let item = self.scalar(rest)?;
                self.keep(&mut items, item);
                self.consume(line);
            }
        }
        Ok(Value::Array(items))
    }

    /// Adds an item to a sequence being built.
    fn keep(&self, items: &mut Vec<Value>, item: Value) {
        if self.build {
            items.push(item);
        }
    }

    /// A block mapping whose keys are at column `indent`.
    fn mapping(&mut self, indent: usize, depth: usize) -> Read<Value> {
        let mut map = Map::new();
        let first_key = self.keys.len();
        while let Some(line) = self.peek()? {
            if line.indent != indent {
                // Deeper: the rest of a multi-line scalar, or not YAML.
                if line.indent > indent {
                    return Err(GiveUp);
                }
                break;
            }
            let content = self.content(line);
            if line.indent == 0 && (content == "---" || content.starts_with("...")) {
                break;
            }
            let Some((key, colon)) = self.key(line)? else {
                return Err(GiveUp);
            };
            let rest = Line {
                indent: line.indent + (colon + 1 - line.start),
                start: colon + 1,
                end: line.end,
            };
            let after = self.content(rest).trim_start_matches(' ');
            let value = if after.is_empty() || after.starts_with('#') {
                self.consume(line);
                self.nested(indent, true, depth)?
            } else {
                let start = rest.end - after.len();
                let value = self.scalar(Line { start, ..rest })?;
                self.consume(line);
                value
            };
            if !self.build {
                self.keys.push(key);
            } else if map.insert(key.into_owned(), value).is_some() {
                // A key given twice: the full loader says so.
                return Err(GiveUp);
            }
        }
        if self.build {
            return Ok(Value::Object(map));
        }
        // The keys sorted, to find one given twice.
        let keys = &mut self.keys[first_key..];
        keys.sort_unstable();
        if keys.windows(2).any(|pair| pair[0] == pair[1]) {
            return Err(GiveUp);
        }
        self.keys.truncate(first_key);
        Ok(Value::Null)
    }

    /// The value of a key or item with nothing after it on its line: the block below it (for
    /// a key, a sequence may also start at the key's own column), or null.
    fn nested(&mut self, indent: usize, of_key: bool, depth: usize) -> Read<Value> {
        match self.peek()? {
            Some(next) if next.indent > indent => self.node(next, depth + 1),
            Some(next) if of_key && next.indent == indent && is_item(self.content(next)) => {
                self.sequence(indent, depth + 1)
            }
            _ => Ok(Value::Null),
        }
    }

    /// The key that starts `line` and where its `:` is, if the line holds a key.
    fn key(&self, line: Line) -> Read<Option<(Cow<'a, str>, usize)>> {
        let content = self.content(line);
        let Some(at) = key_end(content)? else {
            return Ok(None);
        };
        let text = content[..at].trim_end_matches(' ');
        let key = match text.as_bytes().first() {
            Some(b'\'') => single_quoted(text)
                .filter(|(_, n)| *n == text.len())
                .map(|(s, _)| Cow::Owned(s)),
            Some(b'"') => double_quoted(text)
                .filter(|(_, n)| *n == text.len())
                .map(|(s, _)| Cow::Owned(s)),
            _ if text == "<<" || !plain_start(text) => None,
            // Nearly every key: a word that is no number, boolean or null is itself.
            Some(first) if first.is_ascii_alphabetic() && resolve_word(text).is_none() => {
                Some(Cow::Borrowed(text))
            }
            _ => resolve_plain(text)
                .ok()
                .and_then(|scalar| scalar.into_key().ok())
                .map(Cow::Owned),
        };
        Ok(key.map(|key| (key, line.start + at)))
    }

    /// The scalar that fills the rest of `line` (a comment may follow it).
    fn scalar(&self, line: Line) -> Read<Value> {
        let content = self.content(line);
        let (value, used) = match content.as_bytes().first() {
            Some(b'\'') => single_quoted(content)
                .map(|(s, n)| (Value::String(s), n))
                .ok_or(GiveUp)?,
            Some(b'"') => double_quoted(content)
                .map(|(s, n)| (Value::String(s), n))
                .ok_or(GiveUp)?,
            Some(b'{') | Some(b'[') => {
                let empty = if content.starts_with("{}") {
                    Value::Object(Map::new())
                } else if content.starts_with("[]") {
                    Value::Array(Vec::new())
                } else {
                    return Err(GiveUp);
                };
                (empty, 2)
            }
            _ => {
                // Up to a comment; a `:` before a space or the end would make it a key.
                let bytes = content.as_bytes();
                let mut end = bytes.len();
                for (at, &b) in bytes.iter().enumerate() {
                    match b {
                        b'#' if at > 0 && bytes[at - 1] == b' ' => {
                            end = at;
                            break;
                        }
                        b':' if matches!(bytes.get(at + 1), None | Some(b' ')) => {
                            return Err(GiveUp);
                        }
                        _ => {}
                    }
                }
                let text = content[..end].trim_end_matches(' ');
                if !plain_start(text) {
                    return Err(GiveUp);
                }
                if !self.build && text.as_bytes().first().is_some_and(u8::is_ascii_alphabetic) {
                    // A string, a boolean or null: it reads, whatever it is.
                    return Ok(Value::Null);
                }
                let value = resolve_plain(text)
                    .ok()
                    .and_then(|s| s.into_value().ok())
                    .ok_or(GiveUp)?;
                return Ok(value);
            }
        };
        // Only a comment after a quoted scalar or `{}`.
        let tail = content[used..].trim_start_matches(' ');
        if tail.is_empty() || (tail.starts_with('#') && tail.len() < content.len() - used) {
            Ok(value)
        } else {
            Err(GiveUp)
        }
    }
}

/// Where the `\n` ending the line that starts at `from` is (the end of the text if none).
fn memchr_newline(bytes: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &bytes[from..]).map_or(bytes.len(), |n| from + n)
}

/// Whether a line's content is a sequence item (`- ...` or `-` alone).
fn is_item(content: &str) -> bool {
    content == "-" || content.starts_with("- ")
}

/// Whether a plain scalar may start so (no indicator that would make it something else).
fn plain_start(text: &str) -> bool {
    match text.as_bytes() {
        [] => true,
        [b'-' | b'?' | b':', next, ..] => *next != b' ',
        [b'-' | b'?' | b':'] => false,
        [first, ..] => !matches!(
            first,
            b',' | b'['
                | b']'
                | b'{'
                | b'}'
                | b'#'
                | b'&'
                | b'*'
                | b'!'
                | b'|'
                | b'>'
                | b'\''
                | b'"'
                | b'%'
                | b'@'
                | b'`'
        ),
    }
}

/// Where the `:` ending a line's key is: after a quoted scalar, or the first `: ` (or `:` at the
/// end) before a comment. `None`: the line holds no key.
fn key_end(content: &str) -> Read<Option<usize>> {
    let bytes = content.as_bytes();
    let after_quote = match bytes.first() {
        Some(b'\'') => Some(single_quoted(content).ok_or(GiveUp)?.1),
        Some(b'"') => Some(double_quoted(content).ok_or(GiveUp)?.1),
        _ => None,
    };
    if let Some(end) = after_quote {
        let rest = content[end..].trim_start_matches(' ');
        let colon = content.len() - rest.len();
        return Ok(match rest.as_bytes() {
            [b':'] | [b':', b' ', ..] => Some(colon),
            _ => None,
        });
    }
    for (at, &b) in bytes.iter().enumerate() {
        match b {
            b'#' if at > 0 && bytes[at - 1] == b' ' => return Ok(None),
            b':' if matches!(bytes.get(at + 1), None | Some(b' ')) => return Ok(Some(at)),
            _ => {}
        }
    }
    Ok(None)
}

/// A single-quoted scalar at the start of `text` (`''` is a quote), and its length; `None` if
/// it does not end on this line.
fn single_quoted(text: &str) -> Option<(String, usize)> {
    let body = &text[1..];
    let mut out = String::new();
    let mut from = 0;
    loop {
        let at = from + body[from..].find('\'')?;
        out.push_str(&body[from..at]);
        if body.as_bytes().get(at + 1) == Some(&b'\'') {
            out.push('\'');
            from = at + 2;
        } else {
            return Some((out, at + 2));
        }
    }
}

/// A double-quoted scalar at the start of `text`, and its length; `None` if it does not end on
/// this line or holds an escape other than `\\`, `\"`, `\/`, `\n`, `\t`, `\r` and `\uXXXX`.
fn double_quoted(text: &str) -> Option<(String, usize)> {
    let body = &text[1..];
    let mut out = String::new();
    let mut from = 0;
    loop {
        let at = from + body[from..].find(['"', '\\'])?;
        out.push_str(&body[from..at]);
        if body.as_bytes()[at] == b'"' {
            return Some((out, at + 2));
        }
        let escape = body.as_bytes().get(at + 1)?;
        from = at + 2;
        match escape {
            b'\\' => out.push('\\'),
            b'"' => out.push('"'),
            b'/' => out.push('/'),
            b'n' => out.push('\n'),
            b't' => out.push('\t'),
            b'r' => out.push('\r'),
            b'u' => {
                let hex = body.get(from..from + 4)?;
                if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return None;
                }
                out.push(u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)?);
                from += 4;
            }
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::tests::arb_value;
    use crate::yaml::load::load_documents_in_full as full;
    use crate::yaml::to_yaml_string;
    use proptest::prelude::*;
    use serde_json::json;

    /// What the fast reader reads, the full loader reads the same; `true` if the fast reader
    /// read it.
    fn same(text: &str) -> bool {
        let Some(fast) = load_documents(text) else {
            return false;
        };
        let slow = full(text, false)
            .unwrap_or_else(|e| panic!("{text:?}: the full loader refuses it: {}", e.message));
        assert_eq!(fast, slow, "{text:?}");
        true
    }

    #[test]
    fn manifests_are_read_fast() {
        for text in [
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  labels: {}\nspec:\n  containers:\n  - name: c\n    image: 'x:1'\n    args: [] # none\n    ports:\n    - containerPort: 80\n      protocol: TCP\n",
            "---\na: 1\n---\nb: [] \n",
            "# c\nkey:  \"a\\\"b\\u00e9\"   # c\nother:\n- - x\n",
            "a:\n- 1\n- -2\n- 0x1F\n- on\n- ~\n- 1.5e3\nb: c: d\n",
            "- a: 1\n  b:\n    c: 2\n-\n  x\n- y\n",
            "list:\n- name: a\n  value: 'it''s'\n- name: b\n",
            "plain words here\n",
            "url: http://example.com:80/x # c\n",
            "a: 1\na: 2\n",
            "a: |\n  x\n",
            "a: &x 1\nb: *x\n",
            "a: b\n  c\n",
            "'q': 1\n\"r\": 2\n3: x\ntrue: y\n1.5: z\n",
            "",
            "# only\n",
        ] {
            same(text);
        }
        // The common cases are read by the fast reader.
        assert!(same("a:\n  b: [] # c\n  c:\n  - 'x'\n  - \"y\"\n"));
        assert!(same("- a: 1\n  b: 2\n- c\n"));
        assert!(!same("a: &x 1\n"));
    }

    #[test]
    fn a_stream_of_the_emitters_documents_is_read_fast() {
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p",
            "labels": {"app": "x", "size": "3"}},
            "spec": {"containers": [{"name": "c", "image": "i:1", "args": ["--a", "8000"],
                "ports": [{"containerPort": 80}], "env": [], "resources": {}}]}});
        let one = to_yaml_string(&pod);
        let stream = format!("{one}---\n{one}---\n{one}");
        assert!(same(&stream));
        assert_eq!(load_documents(&stream).map(|d| d.len()), Some(3));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1500))]

        /// Whatever the emitter writes, the fast reader reads as the full loader does.
        #[test]
        fn the_emitters_yaml_is_read_alike(value in arb_value()) {
            same(&to_yaml_string(&value));
        }

        /// Lines made of YAML's pieces, in any order and indentation: what the fast reader
        /// reads, the full loader reads the same (and does not refuse).
        #[test]
        fn pieces_of_yaml_are_read_alike(
            lines in prop::collection::vec(
                (0usize..6, prop::sample::select(PIECES), prop::sample::select(PIECES)),
                1..12,
            )
        ) {
            let text: String = lines
                .iter()
                .map(|(indent, a, b)| format!("{}{a}{b}\n", " ".repeat(*indent)))
                .collect();
            same(&text);
        }
    }

    /// A stream split into its documents reads, one text at a time, as it reads whole.
    fn split_alike(text: &str) {
        let Some(parts) = split_documents(text) else {
            return;
        };
        let whole = full(text, false).unwrap_or_else(|e| panic!("{text:?}: {}", e.message));
        let mut read = Vec::new();
        for part in &parts {
            let docs = full(part, false).unwrap_or_else(|e| panic!("{part:?}: {}", e.message));
            assert_eq!(docs.len(), 1, "{part:?}");
            read.extend(docs);
        }
        assert_eq!(read, whole, "{text:?}");
    }

    #[test]
    fn streams_split_where_they_should() {
        assert_eq!(
            split_documents("a: 1\n---\nb: 2\n"),
            Some(vec!["a: 1\n", "b: 2\n"])
        );
        assert_eq!(split_documents("# c\n---\nb: 2"), Some(vec!["b: 2"]));
        // An empty document, and `--- ` with something after it: read whole.
        assert_eq!(split_documents("a: 1\n---\n---\nb: 2\n"), None);
        assert_eq!(split_documents("a: 1\n---\n"), None);
        assert_eq!(split_documents("a: 1\n--- b\n"), None);
        // A key given twice, however written, is left to the full loader (which refuses it).
        for twice in [
            "a: 1\na: 2\n",
            "a: 1\n'a': 2\n",
            "1: x\n0x1: y\n",
            "b:\n  a: 1\n  \"a\": 2\n",
        ] {
            assert_eq!(split_documents(twice), None, "{twice:?}");
            assert!(full(twice, false).is_err(), "{twice:?}");
        }
        for text in ["a: 1\n---\nb: 2\n", "---\na: 1\n", "", "- x\n---\n'q'\n"] {
            split_alike(text);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(800))]

        /// Streams of the emitter's documents and of YAML's pieces, split at `---` lines, read
        /// as they read whole.
        #[test]
        fn split_streams_read_alike(
            values in prop::collection::vec(arb_value(), 1..4),
            lines in prop::collection::vec(
                (0usize..4, prop::sample::select(PIECES), prop::sample::select(PIECES)),
                1..12,
            ),
        ) {
            let emitted: Vec<String> = values.iter().map(to_yaml_string).collect();
            split_alike(&emitted.join("---\n"));
            let pieces: String = lines
                .iter()
                .map(|(indent, a, b)| format!("{}{a}{b}\n", " ".repeat(*indent)))
                .collect();
            split_alike(&pieces);
        }
    }

    const PIECES: &[&str] = &[
        "",
        "- ",
        "-",
        "a:",
        "a: ",
        "b: ",
        "a: 1",
        " # c",
        "#",
        "'q'",
        "'q':",
        "\"d\\\"q\"",
        "\"d\": ",
        "x",
        "x y",
        "{}",
        "[]",
        "{a: 1}",
        "---",
        "...",
        "? ",
        "&a ",
        "*a",
        "!!str ",
        "|",
        ">",
        "~",
        "null",
        "yes",
        "0755",
        "1e3",
        "1_000",
        "-1",
        ".5",
        "<<: ",
        "a:b",
        "http://h:1",
        "é",
        "'it''s'",
        ": x",
        "- - ",
        "  ",
        "1: ",
        "true: ",
        "1.5: ",
        "\"\\u00e9\"",
        "\"\\x41\"",
    ];
}
