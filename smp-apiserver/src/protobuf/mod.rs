//! Objects sent in Kubernetes' protobuf encoding (`application/vnd.kubernetes.protobuf`), as
//! client-go's typed clients send them, and with them kubectl's generator commands (`kubectl
//! create deployment`, `kubectl run`, ...), which do not fall back to JSON.
//!
//! A body is the four bytes `k8s\0` and a `runtime.Unknown` message: the object's
//! `apiVersion` and `kind`, and the object's own message. That message is read by the layout
//! of its type in Kubernetes v1.34 ([`table`], generated from the `generated.proto` files and
//! Go types) to the JSON the API server would hold after decoding it: what Go's JSON encoding
//! of the decoded object gives ([`decode`] says how empty values come out).
//!
//! Nothing in the body is trusted: lengths are checked before use, nesting is bounded, and
//! anything malformed is a [`DecodeError`] naming the byte offset and the field, never a panic.
//! Custom resources have no protobuf form; the caller refuses it for them, as the server does.

mod decode;
mod table;
mod text;
mod wire;

use std::fmt;

use serde_json::Value;

use wire::{Slice, each_field};

/// The media type of Kubernetes' protobuf encoding.
pub(crate) const MEDIA_TYPE: &str = "application/vnd.kubernetes.protobuf";

/// The bytes every body in the encoding starts with.
const MAGIC: &[u8] = b"k8s\0";

/// Why a body could not be read: what was wrong, where (the offset in the body), and in which
/// field of the object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DecodeError {
    pub(crate) offset: usize,
    pub(crate) message: String,
    /// The fields from the innermost out.
    path: Vec<Segment>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Field(String),
    Index(usize),
    Key(String),
}

impl DecodeError {
    fn at(offset: usize, message: impl Into<String>) -> DecodeError {
        DecodeError {
            offset,
            message: message.into(),
            path: Vec::new(),
        }
    }

    /// The error, inside `field` (an embedded struct adds no name).
    fn field(mut self, field: &table::Field) -> DecodeError {
        if !field.inline {
            self.path.push(Segment::Field(field.json.clone()));
        }
        self
    }

    /// The error, inside element `index` of a list.
    fn index(mut self, index: usize) -> DecodeError {
        self.path.push(Segment::Index(index));
        self
    }

    /// The error, inside the value of a map's `key`.
    fn key(mut self, key: &str) -> DecodeError {
        self.path.push(Segment::Key(key.to_owned()));
        self
    }

    /// The field path, as `spec.template.spec.containers[0].ports[1]`.
    pub(crate) fn path(&self) -> String {
        let mut text = String::new();
        for segment in self.path.iter().rev() {
            match segment {
                Segment::Field(name) if text.is_empty() => text.push_str(name),
                Segment::Field(name) => {
                    text.push('.');
                    text.push_str(name);
                }
                Segment::Index(i) => text.push_str(&format!("[{i}]")),
                Segment::Key(k) => text.push_str(&format!("[{k:?}]")),
            }
        }
        text
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.message, self.offset)?;
        let path = self.path();
        if !path.is_empty() {
            write!(f, " (in {path})")?;
        }
        Ok(())
    }
}

/// Whether objects of `apiVersion` and `kind` have a protobuf form (built-in kinds do; custom
/// resources do not).
pub(crate) fn has_protobuf(api_version: &str, kind: &str) -> bool {
    table::table().is_ok_and(|t| t.kind(api_version, kind).is_some())
}

/// The object a protobuf body holds, as JSON with its `apiVersion` and `kind`. The envelope
/// names them; where it leaves them empty, those of the endpoint (`api_version`, `kind`) are
/// taken, as the server does.
pub(crate) fn decode(body: &[u8], api_version: &str, kind: &str) -> Result<Value, DecodeError> {
    let Some(message) = body.strip_prefix(MAGIC) else {
        return Err(DecodeError::at(
            0,
            "the body does not start with the protobuf encoding's prefix k8s\\0",
        ));
    };
    let envelope = envelope(Slice {
        bytes: message,
        offset: MAGIC.len(),
    })?;
    if !envelope.content_encoding.is_empty() {
        return Err(DecodeError::at(
            MAGIC.len(),
            format!(
                "the content encoding {:?} is not supported",
                envelope.content_encoding
            ),
        ));
    }
    let api_version = some_or(&envelope.api_version, api_version);
    let kind = some_or(&envelope.kind, kind);
    let table = table::table().map_err(|e| DecodeError::at(0, e))?;
    let Some(ty) = table.kind(api_version, kind) else {
        return Err(DecodeError::at(
            MAGIC.len(),
            format!("no kind {kind:?} is registered for version {api_version:?}"),
        ));
    };
    let decoder = decode::Decoder { table };
    let parts: Vec<Slice<'_>> = envelope.raw.into_iter().collect();
    let mut object = decoder.message(ty, &parts, 0)?;
    if nests_deeper_than(&object, decode::MAX_NESTING) {
        return Err(DecodeError::at(
            MAGIC.len(),
            format!(
                "the object nests deeper than {} levels",
                decode::MAX_NESTING
            ),
        ));
    }
    if let Value::Object(map) = &mut object {
        map.insert("apiVersion".into(), Value::String(api_version.to_owned()));
        map.insert("kind".into(), Value::String(kind.to_owned()));
    }
    Ok(object)
}

fn some_or<'a>(given: &'a str, default: &'a str) -> &'a str {
    if given.is_empty() { default } else { given }
}

/// What `runtime.Unknown` holds: the type (field 1: apiVersion 1, kind 2), the object's
/// message (field 2), its content encoding (field 3); its content type (field 4) is not needed.
#[derive(Default)]
struct Envelope<'a> {
    api_version: String,
    kind: String,
    raw: Option<Slice<'a>>,
    content_encoding: String,
}

fn envelope(message: Slice<'_>) -> Result<Envelope<'_>, DecodeError> {
    let mut envelope = Envelope::default();
    let text = |f: wire::WireField<'_>| match f.value {
        wire::WireValue::Bytes(s) => Ok(String::from_utf8_lossy(s.bytes).into_owned()),
        other => Err(DecodeError::at(
            f.offset,
            format!(
                "field {} of the envelope should be length-delimited, not {}",
                f.number,
                other.describe()
            ),
        )),
    };
    each_field(&[message], |f| {
        match f.number {
            1 => {
                let wire::WireValue::Bytes(type_meta) = f.value else {
                    return Err(DecodeError::at(
                        f.offset,
                        "the envelope's type is no message",
                    ));
                };
                each_field(&[type_meta], |t| {
                    match t.number {
                        1 => envelope.api_version = text(t)?,
                        2 => envelope.kind = text(t)?,
                        _ => {}
                    }
                    Ok(())
                })?;
            }
            2 => match f.value {
                wire::WireValue::Bytes(raw) => envelope.raw = Some(raw),
                _ => {
                    return Err(DecodeError::at(
                        f.offset,
                        "the envelope's object is no message",
                    ));
                }
            },
            3 => envelope.content_encoding = text(f)?,
            4 => {
                text(f)?;
            }
            _ => {}
        }
        Ok(())
    })?;
    Ok(envelope)
}

/// Whether `value` nests deeper than `limit` (arrays and objects), found without recursion.
fn nests_deeper_than(value: &Value, limit: usize) -> bool {
    let mut stack = vec![(value, 0usize)];
    while let Some((value, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(map) => Box::new(map.values()),
            _ => continue,
        };
        if depth >= limit {
            return true;
        }
        stack.extend(children.map(|c| (c, depth + 1)));
    }
    false
}

#[cfg(test)]
mod tests;
