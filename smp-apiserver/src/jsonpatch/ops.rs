//! The six operations as gopkg.in/evanphx/json-patch.v4 (v4.12.0, the version kube-apiserver
//! v1.34 builds with) carries them out, and its error messages word for word.
//!
//! What differs from RFC 6902, and what clients rely on or trip over:
//! - a member that is `null` reads as missing, and a missing member as `null`: `test` of a
//!   missing path against `null` passes (kube-runtime's `finalizer()` helper adds its first
//!   finalizer that way), and `replace` or `copy` from a missing member does not fail;
//! - `replace` of a missing member of an object adds it; `copy` from one adds `null`;
//! - array indices may be negative (counted from the end), and `-` appends for `add` only;
//! - `move` does not check that the target lies outside the source: it removes, then adds;
//! - the path's first segment is whatever precedes the first `/` (`a/b` reads as `/b`);
//! - scalars compare by their text: `1` is not `1.0`;
//! - the sizes of all `copy` values together are limited.
//!
//! A few inputs crash the Go library (a `test` without `value`, a walk into a value that an
//! earlier operation set to `null`, arrays holding `null` compared by `test`); the API server
//! then answers 500, and so does this server, without crashing.

use std::collections::BTreeMap;

use super::node::Node;

/// Why the operations stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The library's error, in its words.
    Error(String),
    /// The library would have crashed.
    Crash,
}

type Result<T> = std::result::Result<T, Failure>;

fn error(message: String) -> Failure {
    Failure::Error(message)
}

/// `ErrMissing`, the library's "missing value", after a message.
fn missing(message: String) -> Failure {
    error(format!("{message}: missing value"))
}

/// One operation: its members as the library decodes them, each a node or `None` for `null`.
pub(crate) struct Operation(pub(crate) BTreeMap<String, Option<Node>>);

impl Operation {
    /// A member that must hold a string: `Ok(None)` when missing or `null`.
    fn text(&self, member: &str) -> std::result::Result<Option<String>, String> {
        match self.0.get(member) {
            None | Some(None) => Ok(None),
            Some(Some(Node::Scalar(t))) if t.starts_with('"') => Ok(Some(super::node::unquote(t))),
            Some(Some(node)) => Err(format!(
                "json: cannot unmarshal {} into Go value of type string",
                go_kind(node)
            )),
        }
    }

    fn kind(&self) -> String {
        match self.text("op") {
            Ok(Some(op)) => op,
            _ => "unknown".into(),
        }
    }

    /// The path: `Err` holds the library's own error text.
    fn path(&self) -> std::result::Result<String, String> {
        self.text("path")?
            .ok_or_else(|| "operation missing path field: missing value".into())
    }

    fn from(&self) -> std::result::Result<String, String> {
        self.text("from")?
            .ok_or_else(|| "operation, missing from field: missing value".into())
    }

    /// The `value` member: `None` without one, [`Node::NoText`] for `null`.
    fn value(&self) -> Option<Node> {
        match self.0.get("value") {
            None => None,
            Some(None) => Some(Node::NoText),
            Some(Some(node)) => Some(node.clone()),
        }
    }
}

/// Go's name for the JSON kind of a value that is not a string.
fn go_kind(node: &Node) -> &'static str {
    match node {
        Node::Object(_) => "object",
        Node::Array(_) => "array",
        Node::Scalar(t) if matches!(&**t, "true" | "false") => "bool",
        _ => "number",
    }
}

/// Applies `operations` to `doc` in order; `copy_limit` bounds the bytes all copies add
/// (0: no bound).
pub(crate) fn apply(doc: &mut Node, operations: &[Operation], copy_limit: u64) -> Result<()> {
    let mut copied = 0u64;
    for op in operations {
        match op.kind().as_str() {
            "add" => add(doc, op)?,
            "remove" => remove(doc, op)?,
            "replace" => replace(doc, op)?,
            "move" => move_(doc, op)?,
            "test" => test(doc, op)?,
            "copy" => copy(doc, op, &mut copied, copy_limit)?,
            other => return Err(error(format!("Unexpected kind: {other}"))),
        }
    }
    Ok(())
}

/// `~1` is `/` and `~0` is `~`, read left to right.
fn decode_key(key: &str) -> String {
    if !key.contains('~') {
        return key.to_owned();
    }
    let mut out = String::with_capacity(key.len());
    let mut rest = key;
    while let Some(at) = rest.find('~') {
        out.push_str(&rest[..at]);
        match rest.as_bytes().get(at + 1) {
            Some(b'1') => {
                out.push('/');
                rest = &rest[at + 2..];
            }
            Some(b'0') => {
                out.push('~');
                rest = &rest[at + 2..];
            }
            _ => {
                out.push('~');
                rest = &rest[at + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Go's `strconv.Atoi`: an optional sign and decimal digits that fit 64 bits; its error text.
fn atoi(key: &str) -> std::result::Result<i64, String> {
    let digits = key.strip_prefix(['+', '-']).unwrap_or(key);
    let quoted = go_quote(key);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("strconv.Atoi: parsing {quoted}: invalid syntax"));
    }
    key.strip_prefix('+')
        .unwrap_or(key)
        .parse::<i64>()
        .map_err(|_| format!("strconv.Atoi: parsing {quoted}: value out of range"))
}

/// A string as Go's `strconv.Quote` writes it.
fn go_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn invalid_index(index: i64) -> String {
    format!("Unable to access invalid index: {index}: invalid index referenced")
}

/// The index `key` names in an array of `len` items, for reading, replacing or removing.
fn existing_index(key: &str, len: usize) -> std::result::Result<usize, String> {
    let index = atoi(key)?;
    let len = len as i64;
    let at = if index < 0 {
        if index < -len {
            return Err(invalid_index(index));
        }
        index + len
    } else {
        index
    };
    if at >= len {
        return Err(invalid_index(index));
    }
    Ok(at as usize)
}

/// A container the path leads to, and the last segment of the path, decoded.
struct Found<'a> {
    container: &'a mut Node,
    key: String,
}

/// Follows `path` to the container of its last segment. `Ok(None)`: the path leads nowhere
/// (a missing or `null` member, an index out of range, a scalar on the way).
fn find<'a>(doc: &'a mut Node, path: &str) -> Result<Option<Found<'a>>> {
    let segments: Vec<&str> = path.split('/').collect();
    if segments.len() < 2 {
        return Ok(None);
    }
    let mut at = doc;
    for part in &segments[1..segments.len() - 1] {
        let next = match at {
            Node::Object(members) => members.get_mut(&decode_key(part)),
            Node::Array(items) => match existing_index(&decode_key(part), items.len()) {
                Ok(i) => items.get_mut(i),
                Err(_) => None,
            },
            _ => None,
        };
        let Some(next) = next else { return Ok(None) };
        match next {
            Node::Nil => return Ok(None),
            Node::NoText => return Err(Failure::Crash),
            // The text `null` read as an object: one with no members.
            Node::Scalar(t) if &**t == "null" => *next = Node::NullObject,
            Node::Scalar(_) => return Ok(None),
            _ => {}
        }
        at = next;
    }
    Ok(Some(Found {
        container: at,
        key: decode_key(segments[segments.len() - 1]),
    }))
}

impl Found<'_> {
    /// The node at the key: `Ok(None)` for a missing or `null` member (no error for objects).
    fn get(&self) -> std::result::Result<Option<&Node>, String> {
        match &*self.container {
            Node::Object(members) => Ok(members.get(&self.key).filter(|n| !n.is_nil())),
            Node::Array(items) => {
                let i = existing_index(&self.key, items.len())?;
                Ok(Some(&items[i]).filter(|n| !n.is_nil()))
            }
            _ => Ok(None),
        }
    }

    /// Sets an object's member, or inserts into an array (`-` appends).
    fn add(&mut self, node: Node) -> Result<std::result::Result<(), String>> {
        Ok(match self.container {
            Node::Object(members) => {
                members.insert(self.key.clone(), node);
                Ok(())
            }
            Node::NullObject => return Err(Failure::Crash),
            Node::Array(items) if self.key == "-" => {
                items.push(node);
                Ok(())
            }
            Node::Array(items) => insert(items, &self.key, node),
            _ => Ok(()),
        })
    }

    /// Replaces a member or an existing item.
    fn set(&mut self, node: Node) -> Result<std::result::Result<(), String>> {
        Ok(match self.container {
            Node::Object(members) => {
                members.insert(self.key.clone(), node);
                Ok(())
            }
            Node::NullObject => return Err(Failure::Crash),
            Node::Array(items) => existing_index(&self.key, items.len()).map(|i| items[i] = node),
            _ => Ok(()),
        })
    }

    fn remove(&mut self) -> std::result::Result<Node, String> {
        match self.container {
            Node::Object(members) => members.remove(&self.key).ok_or_else(|| {
                format!(
                    "Unable to remove nonexistent key: {}: missing value",
                    self.key
                )
            }),
            Node::NullObject => Err(format!(
                "Unable to remove nonexistent key: {}: missing value",
                self.key
            )),
            Node::Array(items) => {
                let i = existing_index(&self.key, items.len())?;
                Ok(items.remove(i))
            }
            _ => Ok(Node::Nil),
        }
    }
}

fn insert(items: &mut Vec<Node>, key: &str, node: Node) -> std::result::Result<(), String> {
    let index =
        atoi(key).map_err(|e| format!("value was not a proper array index: '{key}': {e}"))?;
    let size = items.len() as i64 + 1;
    if index >= size {
        return Err(invalid_index(index));
    }
    let at = if index < 0 {
        if index < -size {
            return Err(invalid_index(index));
        }
        index + size
    } else {
        index
    };
    items.insert(at as usize, node);
    Ok(())
}

/// The node an operation adds when it has no `value` member: nothing (`null` when printed).
fn value_or_nil(op: &Operation) -> Node {
    op.value().unwrap_or(Node::Nil)
}

fn add(doc: &mut Node, op: &Operation) -> Result<()> {
    let path = op
        .path()
        .map_err(|_| missing("add operation failed to decode path".into()))?;
    let Some(mut found) = find(doc, &path)? else {
        return Err(missing(format!(
            "add operation does not apply: doc is missing path: \"{path}\""
        )));
    };
    found
        .add(value_or_nil(op))?
        .map_err(|e| error(format!("error in add for path: '{path}': {e}")))
}

fn remove(doc: &mut Node, op: &Operation) -> Result<()> {
    let path = op
        .path()
        .map_err(|_| missing("remove operation failed to decode path".into()))?;
    let Some(mut found) = find(doc, &path)? else {
        return Err(missing(format!(
            "remove operation does not apply: doc is missing path: \"{path}\""
        )));
    };
    found
        .remove()
        .map(|_| ())
        .map_err(|e| error(format!("error in remove for path: '{path}': {e}")))
}

fn replace(doc: &mut Node, op: &Operation) -> Result<()> {
    let path = op
        .path()
        .map_err(|e| error(format!("replace operation failed to decode path: {e}")))?;
    if path.is_empty() {
        // The whole document, by an object or an array; any other value changes nothing.
        match op.value() {
            None => return Err(Failure::Crash),
            Some(value @ (Node::Object(_) | Node::Array(_))) => *doc = value,
            Some(_) => {}
        }
        return Ok(());
    }
    let Some(mut found) = find(doc, &path)? else {
        return Err(missing(format!(
            "replace operation does not apply: doc is missing path: {path}"
        )));
    };
    if found.get().is_err() {
        return Err(missing(format!(
            "replace operation does not apply: doc is missing key: {path}"
        )));
    }
    found
        .set(value_or_nil(op))?
        .map_err(|e| error(format!("error in remove for path: '{path}': {e}")))
}

fn move_(doc: &mut Node, op: &Operation) -> Result<()> {
    let from = op
        .from()
        .map_err(|e| error(format!("move operation failed to decode from: {e}")))?;
    let Some(mut found) = find(doc, &from)? else {
        return Err(missing(format!(
            "move operation does not apply: doc is missing from path: {from}"
        )));
    };
    let key = found.key.clone();
    if let Err(e) = found.get() {
        return Err(error(format!("error in move for path: '{key}': {e}")));
    }
    // What was there ("nothing" for a `null` member) goes to the target.
    let node = found
        .remove()
        .map_err(|e| error(format!("error in move for path: '{key}': {e}")))?;
    let path = op
        .path()
        .map_err(|e| error(format!("move operation failed to decode path: {e}")))?;
    let Some(mut target) = find(doc, &path)? else {
        return Err(missing(format!(
            "move operation does not apply: doc is missing destination path: {path}"
        )));
    };
    target
        .add(node)?
        .map_err(|e| error(format!("error in move for path: '{path}': {e}")))
}

fn test(doc: &mut Node, op: &Operation) -> Result<()> {
    let path = op
        .path()
        .map_err(|e| error(format!("test operation failed to decode path: {e}")))?;
    let failed = || error(format!("testing value {path} failed: test failed"));
    if path.is_empty() {
        let Some(value) = op.value() else {
            return Err(Failure::Crash);
        };
        return if equal(doc, &value)? {
            Ok(())
        } else {
            Err(failed())
        };
    }
    let Some(found) = find(doc, &path)? else {
        return Err(missing(format!(
            "test operation does not apply: is missing path: {path}"
        )));
    };
    let current = found
        .get()
        .map_err(|e| error(format!("error in test for path: '{path}': {e}")))?;
    let value = op.value();
    match (current, value) {
        // Missing or `null` equals `"value": null` and nothing else.
        (None, None) => Err(Failure::Crash),
        (None, Some(Node::NoText)) => Ok(()),
        (None, Some(_)) | (Some(_), None) => Err(failed()),
        (Some(current), Some(value)) => {
            if equal(current, &value)? {
                Ok(())
            } else {
                Err(failed())
            }
        }
    }
}

fn copy(doc: &mut Node, op: &Operation, copied: &mut u64, limit: u64) -> Result<()> {
    let from = op
        .from()
        .map_err(|e| error(format!("copy operation failed to decode from: {e}")))?;
    let Some(found) = find(doc, &from)? else {
        return Err(missing(format!(
            "copy operation does not apply: doc is missing from path: {from}"
        )));
    };
    // A copy is the value printed and read back: its size is the printed text's.
    let (node, size) = match found
        .get()
        .map_err(|e| error(format!("error in copy for from: '{from}': {e}")))?
    {
        None => (Node::Nil, 0),
        Some(value) => {
            let mut text = String::new();
            value.marshal(&mut text);
            let node = match super::node::parse(&text) {
                Ok(Node::Nil) => Node::Scalar("null".into()),
                Ok(node) => node,
                Err(_) => return Err(Failure::Crash),
            };
            (node, text.len() as u64)
        }
    };
    let path = op
        .path()
        .map_err(|_| missing("copy operation failed to decode path".into()))?;
    let Some(mut target) = find(doc, &path)? else {
        return Err(missing(format!(
            "copy operation does not apply: doc is missing destination path: {path}"
        )));
    };
    *copied += size;
    if limit > 0 && *copied > limit {
        return Err(error(format!(
            "Unable to complete the copy, the accumulated size increase of copy is {copied}, \
             exceeding the limit {limit}"
        )));
    }
    target
        .add(node)?
        .map_err(|e| error(format!("error while adding value during copy: {e}")))
}

/// The library's equality of a node of the document (`n`) and one of the patch (`o`): objects
/// by their members whatever the order, arrays item by item, scalars by their text. A `null`
/// item of an array compared this way crashes it.
pub(crate) fn equal(n: &Node, o: &Node) -> Result<bool> {
    if o.is_nil() {
        return Err(Failure::Crash);
    }
    match n {
        Node::Nil => Err(Failure::Crash),
        Node::NoText => Ok(matches!(o, Node::NoText)),
        Node::Scalar(t) if &**t != "null" => Ok(matches!(o, Node::Scalar(u) if u == t)),
        // An object, or the text `null`, which reads as an object without members.
        Node::Scalar(_) | Node::NullObject | Node::Object(_) => {
            let empty = BTreeMap::new();
            let mine = match n {
                Node::Object(m) => m,
                _ => &empty,
            };
            let theirs = match o {
                Node::Object(m) => m,
                Node::Scalar(t) if &**t == "null" => &empty,
                _ => return Ok(false),
            };
            if mine.len() != theirs.len() {
                return Ok(false);
            }
            for (key, mine) in mine {
                let Some(theirs) = theirs.get(key) else {
                    return Ok(false);
                };
                match (mine.is_nil(), theirs.is_nil()) {
                    (true, true) => continue,
                    (false, false) => {}
                    _ => return Ok(false),
                }
                if !equal(mine, theirs)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        Node::Array(mine) => {
            let Node::Array(theirs) = o else {
                return Ok(false);
            };
            if mine.len() != theirs.len() {
                return Ok(false);
            }
            for (mine, theirs) in mine.iter().zip(theirs) {
                if !equal(mine, theirs)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
    }
}
