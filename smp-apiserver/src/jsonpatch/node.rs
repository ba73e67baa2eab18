//! The tree the patch library works on, with the distinctions its results depend on.
//!
//! kube-apiserver hands the library the object as Go's `encoding/json` printed it and the
//! patch as the client sent it. The library keeps every scalar as its text (so `1` and `1.0`,
//! or `"<"` and `"\u003c"`, are different values to `test`), reads a JSON `null` member or
//! item as "nothing there" (so a `null` member and a missing one look the same to `test`, but
//! not to `remove`), and gives an operation's `"value": null` a node of its own that has no
//! text. [`Node`] keeps exactly these cases apart.

use std::collections::BTreeMap;

use serde_json::Value;

/// How deep a patch's values may nest (objects and arrays), counting the patch's own array and
/// operation objects. Go's decoder stops at 10,000 levels; smp stops earlier, at the engine's
/// limit, so that no walk over a value can exhaust the stack.
pub(crate) const MAX_NESTING: usize = smp_core::MAX_DEPTH;

/// A JSON value as the library holds it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    /// A `null` member or item: the library holds no node for it.
    Nil,
    /// An operation's `"value": null`: a node without text. It prints as `null`, but it is a
    /// node, not "nothing there", and walking into it crashes the library.
    NoText,
    /// A string, number or boolean, as its text with no whitespace around it.
    Scalar(Box<str>),
    /// The text `null` of a copied `"value": null` node, or an object read from it: the library
    /// reads it as an object with no members into which nothing can be written.
    NullObject,
    Object(BTreeMap<String, Node>),
    Array(Vec<Node>),
}

/// What went wrong reading a JSON text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError(pub(crate) String);

impl Node {
    /// Whether this is "nothing there" (a nil node in the library).
    pub(crate) fn is_nil(&self) -> bool {
        matches!(self, Node::Nil)
    }

    /// The value as the object it becomes after the patch (`null` for every kind of nothing).
    pub(crate) fn to_value(&self) -> Result<Value, String> {
        Ok(match self {
            Node::Nil | Node::NoText | Node::NullObject => Value::Null,
            Node::Scalar(text) => serde_json::from_str(text).map_err(|e| {
                format!("the patched object cannot be read: {text} is not a JSON value ({e})")
            })?,
            Node::Object(members) => {
                let mut map = serde_json::Map::new();
                for (key, node) in members {
                    map.insert(key.clone(), node.to_value()?);
                }
                Value::Object(map)
            }
            Node::Array(items) => {
                Value::Array(items.iter().map(Node::to_value).collect::<Result<_, _>>()?)
            }
        })
    }

    /// The stored object as the API server hands it to the library: every scalar as Go's
    /// `encoding/json` prints it, every `null` "nothing there".
    pub(crate) fn from_value(value: &Value) -> Node {
        match value {
            Value::Null => Node::Nil,
            Value::Object(map) => Node::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), Node::from_value(v)))
                    .collect(),
            ),
            Value::Array(items) => Node::Array(items.iter().map(Node::from_value).collect()),
            scalar => Node::Scalar(go_text(scalar).into()),
        }
    }

    /// The text Go's `json.Marshal` gives the node: compact, object members sorted by key,
    /// `<`, `>`, `&`, U+2028 and U+2029 in strings escaped. Its length is what a `copy` counts.
    pub(crate) fn marshal(&self, out: &mut String) {
        match self {
            Node::Nil | Node::NoText | Node::NullObject => out.push_str("null"),
            Node::Scalar(text) => escape_html(text, out),
            Node::Object(members) => {
                out.push('{');
                for (i, (key, node)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(go_text(&Value::String(key.clone())).as_str());
                    out.push(':');
                    node.marshal(out);
                }
                out.push('}');
            }
            Node::Array(items) => {
                out.push('[');
                for (i, node) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    node.marshal(out);
                }
                out.push(']');
            }
        }
    }
}

/// A scalar as Go prints it.
fn go_text(scalar: &Value) -> String {
    let mut text = smp_core::gojson::to_string(scalar);
    // `to_string` ends the text with the newline of Go's `Encoder`.
    text.truncate(text.trim_end().len());
    text
}

/// A scalar's text with the characters Go escapes when it prints a raw value escaped (the
/// escapes already in the text stay as they are).
fn escape_html(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
}

/// Reads a JSON text as the library's tree: scalars keep their text, `null`s are [`Node::Nil`].
pub(crate) fn parse(text: &str) -> Result<Node, SyntaxError> {
    let mut reader = Reader {
        text: text.as_bytes(),
        source: text,
        pos: 0,
    };
    let node = reader.value(0)?;
    reader.skip_ws();
    if reader.pos < reader.text.len() {
        return Err(reader.unexpected("after top-level value"));
    }
    Ok(node)
}

struct Reader<'a> {
    text: &'a [u8],
    source: &'a str,
    pos: usize,
}

impl Reader<'_> {
    fn skip_ws(&mut self) {
        while self
            .text
            .get(self.pos)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.pos += 1;
        }
    }

    fn unexpected(&self, context: &str) -> SyntaxError {
        match self.source[self.pos.min(self.source.len())..]
            .chars()
            .next()
        {
            None => SyntaxError("unexpected end of JSON input".into()),
            Some(c) => SyntaxError(format!("invalid character {c:?} {context}")),
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        self.skip_ws();
        match self.text.get(self.pos) {
            Some(b'{') | Some(b'[') if depth >= MAX_NESTING => Err(SyntaxError(format!(
                "exceeded max depth: values nest more than {MAX_NESTING} levels"
            ))),
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => {
                let start = self.pos;
                self.string()?;
                Ok(Node::Scalar(self.source[start..self.pos].into()))
            }
            Some(b'n') => self.word("null").map(|()| Node::Nil),
            Some(b't') => self.word("true").map(|()| Node::Scalar("true".into())),
            Some(b'f') => self.word("false").map(|()| Node::Scalar("false".into())),
            Some(b'-' | b'0'..=b'9') => {
                let start = self.pos;
                self.number()?;
                Ok(Node::Scalar(self.source[start..self.pos].into()))
            }
            _ => Err(self.unexpected("looking for beginning of value")),
        }
    }

    fn word(&mut self, word: &str) -> Result<(), SyntaxError> {
        for &b in word.as_bytes() {
            if self.text.get(self.pos) != Some(&b) {
                return Err(self.unexpected("in literal (expecting a keyword)"));
            }
            self.pos += 1;
        }
        Ok(())
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while self.text.get(self.pos).is_some_and(u8::is_ascii_digit) {
            self.pos += 1;
        }
        self.pos - start
    }

    /// A number as JSON has it: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    fn number(&mut self) -> Result<(), SyntaxError> {
        if self.text.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        match self.text.get(self.pos) {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.unexpected("in numeric literal")),
        }
        if self.text.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return Err(self.unexpected("after decimal point in numeric literal"));
            }
        }
        if matches!(self.text.get(self.pos), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.text.get(self.pos), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.unexpected("in exponent of numeric literal"));
            }
        }
        Ok(())
    }

    /// Moves past a string, checking its escapes; its text is the source between the quotes.
    fn string(&mut self) -> Result<(), SyntaxError> {
        self.pos += 1;
        loop {
            match self.text.get(self.pos) {
                None => return Err(self.unexpected("in string literal")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    self.pos += 1;
                    match self.text.get(self.pos) {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                            self.pos += 1
                        }
                        Some(b'u') => {
                            self.pos += 1;
                            for _ in 0..4 {
                                if !self.text.get(self.pos).is_some_and(u8::is_ascii_hexdigit) {
                                    return Err(
                                        self.unexpected("in \\u hexadecimal character escape")
                                    );
                                }
                                self.pos += 1;
                            }
                        }
                        _ => return Err(self.unexpected("in string escape code")),
                    }
                }
                Some(b) if *b < 0x20 => return Err(self.unexpected("in string literal")),
                Some(_) => self.pos += 1,
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        self.pos += 1;
        let mut members = BTreeMap::new();
        self.skip_ws();
        if self.text.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            return Ok(Node::Object(members));
        }
        loop {
            self.skip_ws();
            if self.text.get(self.pos) != Some(&b'"') {
                return Err(self.unexpected("looking for beginning of object key string"));
            }
            let start = self.pos;
            self.string()?;
            let key = unquote(&self.source[start..self.pos]);
            self.skip_ws();
            if self.text.get(self.pos) != Some(&b':') {
                return Err(self.unexpected("after object key"));
            }
            self.pos += 1;
            // A repeated key: the last one counts, as when Go reads into a map.
            members.insert(key, self.value(depth + 1)?);
            self.skip_ws();
            match self.text.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Node::Object(members));
                }
                _ => return Err(self.unexpected("after object key:value pair")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.text.get(self.pos) == Some(&b']') {
            self.pos += 1;
            return Ok(Node::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.skip_ws();
            match self.text.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Node::Array(items));
                }
                _ => return Err(self.unexpected("after array element")),
            }
        }
    }
}

/// The string a checked string token (quotes included) stands for; an escaped lone surrogate
/// reads as U+FFFD, as Go reads it.
pub(crate) fn unquote(token: &str) -> String {
    let inner = &token[1..token.len() - 1];
    if !inner.contains('\\') {
        return inner.to_owned();
    }
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('u') => {
                let unit = hex4(&mut chars);
                if (0xD800..0xDC00).contains(&unit) {
                    // A high surrogate counts only with a low one right after it.
                    let rest = chars.as_str();
                    let low = rest
                        .strip_prefix("\\u")
                        .and_then(|r| u32::from_str_radix(r.get(..4)?, 16).ok())
                        .filter(|low| (0xDC00..0xE000).contains(low));
                    match low {
                        Some(low) => {
                            chars = rest[6..].chars();
                            let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                            out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                        }
                        None => out.push('\u{FFFD}'),
                    }
                } else {
                    out.push(char::from_u32(unit).unwrap_or('\u{FFFD}'));
                }
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

fn hex4(chars: &mut std::str::Chars<'_>) -> u32 {
    let mut unit = 0;
    for _ in 0..4 {
        unit = unit * 16 + chars.next().and_then(|c| c.to_digit(16)).unwrap_or(0);
    }
    unit
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scalars_keep_their_text() {
        let node = parse(r#"{"a": 1.0, "b": "\u0041<", "c": null, "d": [true, null]}"#).unwrap();
        let Node::Object(m) = &node else { panic!() };
        assert_eq!(m["a"], Node::Scalar("1.0".into()));
        assert_eq!(m["b"], Node::Scalar(r#""\u0041<""#.into()));
        assert_eq!(m["c"], Node::Nil);
        let mut out = String::new();
        node.marshal(&mut out);
        assert_eq!(
            out,
            r#"{"a":1.0,"b":"\u0041\u003c","c":null,"d":[true,null]}"#
        );
        assert_eq!(
            node.to_value().unwrap(),
            json!({"a": 1.0, "b": "A<", "c": null, "d": [true, null]})
        );
    }

    #[test]
    fn stored_objects_read_as_go_prints_them() {
        let node = Node::from_value(&json!({"a": 1.0, "b": "<", "c": 1e21}));
        let Node::Object(m) = &node else { panic!() };
        assert_eq!(m["a"], Node::Scalar("1".into()));
        assert_eq!(m["b"], Node::Scalar(r#""\u003c""#.into()));
        assert_eq!(m["c"], Node::Scalar("1e+21".into()));
    }

    #[test]
    fn syntax_errors_and_depth() {
        for bad in [
            "",
            "[1,]",
            "{\"a\" 1}",
            "01",
            "1.",
            "\"\\x\"",
            "nul",
            "[1] x",
            "\"a\u{1}\"",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        let deep = "[".repeat(MAX_NESTING + 1) + &"]".repeat(MAX_NESTING + 1);
        assert!(parse(&deep).unwrap_err().0.contains("max depth"));
        let ok = "[".repeat(MAX_NESTING) + &"]".repeat(MAX_NESTING);
        assert!(parse(&ok).is_ok());
        assert_eq!(unquote(r#""\ud83d\ude00 \ud800x""#), "😀 \u{FFFD}x");
    }
}
