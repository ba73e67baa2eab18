//! What a handler answers: an object, a list, a status or a watch's stream, before the
//! response's form (JSON, table, protobuf) is chosen.

use http::StatusCode;
use serde_json::Value;

use super::list;
use crate::store::Stored;
use crate::watch::Watch;

/// What a request is answered with: an object (or list, or status), or a watch's stream.
pub(crate) enum Answer {
    Object(StatusCode, Value),
    /// An object, with `Warning` headers.
    Warned(StatusCode, Value, Vec<String>),
    Watch(Box<Watch>),
    /// An aggregated discovery document (its own media type).
    Discovery(Value),
    /// A list of objects.
    List(list::ObjectList),
    /// A stored object, written out as its JSON text is kept, with `Warning` headers.
    Stored(StatusCode, Stored, Vec<String>),
    /// Plain text (a log).
    Text(StatusCode, Vec<u8>),
}

impl Answer {
    /// The answer's object (a watch has none).
    pub(crate) fn into_value(self) -> Option<Value> {
        match self {
            Answer::Object(_, value) | Answer::Warned(_, value, _) | Answer::Discovery(value) => {
                Some(value)
            }
            Answer::Stored(_, stored, _) => Some((*stored.object).clone()),
            Answer::List(list) => Some(list.into_value()),
            Answer::Watch(_) | Answer::Text(..) => None,
        }
    }
}
