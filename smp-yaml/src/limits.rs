//! The bounds every reader here keeps.

/// Deepest nesting of lists and objects a document may have (deeper is a
/// [`ReadError::Invalid`](crate::ReadError::Invalid)). The readers check it while parsing with
/// explicit stacks, so hostile input costs neither stack nor much time; code that walks what
/// they read may rely on it.
pub const MAX_NESTING: usize = 128;
