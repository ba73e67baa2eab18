//! Reading documents the way kubectl does, with errors that name the input they are about.
//!
//! The reader is [`smp_yaml`] (JSON, or YAML with YAML 1.1 scalar rules; see
//! [`smp_yaml::parse_document`] for what it accepts and refuses). Here each of its functions
//! takes the [`DocRole`] of the text, so that a [`PatchError::InvalidDocument`] says which
//! input of a merge was not a document.

use serde_core::de::DeserializeOwned;
use serde_json::Value;
use smp_yaml::ReadError;

use crate::error::{DocRole, PatchError};

/// Parses one document given as JSON or YAML text, as [`smp_yaml::parse_document`] does.
/// Empty/whitespace-only text and a document that is `null` yield `Value::Null` (callers treat
/// that as `{}`). A root that is a scalar is returned as is; callers check for objects.
pub fn parse_document(text: &str, role: DocRole) -> Result<Value, PatchError> {
    smp_yaml::parse_document(text).map_err(|e| read_error(role, e))
}

/// Parses a multi-document YAML stream (`---` separators) or a single JSON document, as
/// [`smp_yaml::parse_documents`] does.
///
/// Empty documents are kept as `Value::Null` so the caller decides what they mean; text with
/// no document at all (empty, or only comments) gives an empty list.
pub fn parse_documents(text: &str, role: DocRole) -> Result<Vec<Value>, PatchError> {
    smp_yaml::parse_documents(text).map_err(|e| read_error(role, e))
}

/// Reads one document of JSON or YAML text as kubectl reads a manifest ([`parse_document`]);
/// errors name the input `(document)`. Empty text or `null` gives `Value::Null`.
pub fn read(text: &str) -> Result<Value, PatchError> {
    parse_document(text, DocRole::Document)
}

/// Reads every document of a JSON document or a YAML stream ([`parse_documents`]); errors name
/// the input `(document)`. Empty documents are `Value::Null`.
pub fn read_all(text: &str) -> Result<Vec<Value>, PatchError> {
    parse_documents(text, DocRole::Document)
}

/// Reads one document of JSON or YAML text into a typed value, as kubectl reads a manifest:
/// the same reader as [`read`] (YAML 1.1 scalars, duplicate keys refused, bounded nesting),
/// then serde. A value that does not fit `T` is a [`PatchError::Deserialize`] naming the
/// JSON path where it failed (`spec.replicas: invalid type: ...`).
///
/// ```
/// use serde::Deserialize;
///
/// #[derive(Debug, Deserialize)]
/// struct Deployment { spec: Spec }
/// #[derive(Debug, Deserialize)]
/// struct Spec { replicas: u32 }
///
/// let d: Deployment = smp_core::from_str("spec:\n  replicas: 3\n").unwrap();
/// assert_eq!(d.spec.replicas, 3);
/// let e = smp_core::from_str::<Deployment>("spec: {replicas: three}").unwrap_err();
/// assert!(e.to_string().starts_with("at spec.replicas: invalid type: string"), "{e}");
/// ```
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, PatchError> {
    smp_yaml::from_str(text).map_err(|e| read_error(DocRole::Document, e))
}

/// Reads every document of a JSON document or a YAML stream into typed values, skipping empty
/// documents as kubectl does; see [`from_str`].
pub fn from_str_all<T: DeserializeOwned>(text: &str) -> Result<Vec<T>, PatchError> {
    smp_yaml::from_str_all(text).map_err(|e| read_error(DocRole::Document, e))
}

/// Strict JSON, as [`smp_yaml::parse_json`] reads it: like `serde_json::from_str`, but a
/// duplicate key in any object is an error naming the key and its JSON path (e.g.
/// `spec.containers[0]`), and nesting deeper than 128 is an error that says so.
pub fn parse_json(text: &str, role: DocRole) -> Result<Value, PatchError> {
    smp_yaml::parse_json(text).map_err(|e| read_error(role, e))
}

/// The reader's error as this crate's, naming the input it is about.
pub(crate) fn read_error(role: DocRole, error: ReadError) -> PatchError {
    match error {
        ReadError::Deserialize { path, detail } => PatchError::Deserialize { path, detail },
        ReadError::Invalid { detail } => PatchError::InvalidDocument { role, detail },
        // The reader's error is non-exhaustive; whatever it grows is still a text that could
        // not be read.
        other => PatchError::InvalidDocument {
            role,
            detail: other.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn errors_name_the_input() {
        let err = parse_document("[", DocRole::Current);
        assert!(matches!(
            err,
            Err(PatchError::InvalidDocument {
                role: DocRole::Current,
                ..
            })
        ));
        let err = parse_json("{\"a\": 1, \"a\": 2}", DocRole::Patch).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("invalid JSON document (patch): duplicate key \"a\""),
            "{err}"
        );
        let err = parse_documents("a: [", DocRole::Schema).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("invalid JSON document (schema): "),
            "{err}"
        );
        let err = read("a: 1\n---\nb: 2\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid JSON document (document): expected one document, found 2"
        );
    }

    #[test]
    fn typed_reading_keeps_the_path() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Spec {
            replicas: u32,
        }
        let err = from_str_all::<Spec>("replicas: 1\n---\n---\nreplicas: x\n").unwrap_err();
        assert!(
            matches!(&err, PatchError::Deserialize { path, .. } if path.to_string() == "replicas"),
            "{err}"
        );
        assert_eq!(
            read_all("a: 1\n---\n"),
            Ok(vec![json!({"a": 1}), Value::Null])
        );
    }
}
