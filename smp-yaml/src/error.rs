//! Why a text could not be read, or a document could not become the Rust value asked for.

use crate::path::JsonPath;

/// An error of the reader: the text is not a document, or the document does not fit the type
/// it was read into.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadError {
    /// The text is not a JSON or YAML document this reader accepts: its syntax, a duplicate
    /// key, nesting past the limit, a character YAML does not allow, aliases that expand too
    /// far, or more than one document where one was asked for.
    Invalid {
        /// One line, with the line and column (or the JSON path) where reading stopped.
        detail: String,
    },
    /// The document was read, but a value in it does not fit the Rust type ([`crate::from_str`]).
    Deserialize {
        /// Where the value that did not fit is.
        path: JsonPath,
        /// serde's message.
        detail: String,
    },
}

// Written out rather than derived: a derive would bring a proc-macro toolchain into the build
// of every program that reads a manifest, for two messages.
impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Invalid { detail } => f.write_str(detail),
            ReadError::Deserialize { path, detail } => write!(f, "at {path}: {detail}"),
        }
    }
}

impl std::error::Error for ReadError {}

impl ReadError {
    pub(crate) fn invalid(detail: String) -> ReadError {
        ReadError::Invalid { detail }
    }
}

/// 1-based line and column (in characters) of a byte offset: where a reader's error points.
pub(crate) fn line_column(text: &str, pos: usize) -> (usize, usize) {
    let before = text.get(..pos).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before.get(line_start..).map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
