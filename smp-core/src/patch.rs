//! The [`Patch`] type: a parsed strategic merge patch.

use std::fmt;
use std::str::FromStr;

use serde_json::Value;

use crate::error::{DocRole, PatchError, kind_of};
use crate::input;

/// A strategic merge patch: a JSON object (or `null`, which patches nothing).
///
/// Parse it once and apply it to many objects; it is never modified by applying.
#[derive(Debug, Clone, PartialEq)]
pub struct Patch {
    value: Value,
}

impl Patch {
    /// A patch from JSON text (strict: duplicate keys and over-deep nesting are errors).
    pub fn from_json(text: &str) -> Result<Patch, PatchError> {
        Patch::from_value(input::parse_json(text, DocRole::Patch)?)
    }

    /// A patch from YAML text, read as kubectl reads it (YAML 1.1 scalars).
    pub fn from_yaml(text: &str) -> Result<Patch, PatchError> {
        let mut docs = crate::yaml::parse_yaml_documents(text, DocRole::Patch)?;
        match docs.len() {
            0 => Ok(Patch { value: Value::Null }),
            1 => Patch::from_value(docs.remove(0)),
            n => Err(PatchError::InvalidDocument {
                role: DocRole::Patch,
                detail: format!("expected one YAML document, found {n}"),
            }),
        }
    }

    /// A patch from a JSON value; it must be an object or `null`.
    pub fn from_value(value: Value) -> Result<Patch, PatchError> {
        // Everything done with a patch recurses through it (applying, printing, comparing):
        // refuse one deeper than the engine follows, as the readers do.
        if let Err(e) = crate::deep::check(&value) {
            crate::deep::dispose(value);
            return Err(e);
        }
        match value {
            Value::Object(_) | Value::Null => Ok(Patch { value }),
            other => Err(PatchError::InvalidDocument {
                role: DocRole::Patch,
                detail: format!("expected a JSON object, found {}", kind_of(&other)),
            }),
        }
    }

    /// The patch as a JSON value.
    pub fn as_value(&self) -> &Value {
        &self.value
    }

    /// The patch as a JSON value, consumed.
    pub fn into_value(self) -> Value {
        self.value
    }

    /// Compact JSON text, as sent to an API server.
    pub fn to_json(&self) -> String {
        self.value.to_string()
    }

    /// Whether the patch changes nothing (`{}` or `null`).
    pub fn is_empty(&self) -> bool {
        self.value.as_object().is_none_or(|m| m.is_empty())
    }
}

/// Parses JSON or YAML (detected as kubectl does).
impl FromStr for Patch {
    type Err = PatchError;

    fn from_str(text: &str) -> Result<Patch, PatchError> {
        Patch::from_value(input::parse_document(text, DocRole::Patch)?)
    }
}

impl fmt::Display for Patch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.value)
    }
}

impl TryFrom<Value> for Patch {
    type Error = PatchError;

    fn try_from(value: Value) -> Result<Patch, PatchError> {
        Patch::from_value(value)
    }
}

/// A patch serializes as its JSON object, so it can be sent on as it is: the body of a
/// `PATCH` request with `Content-Type: application/strategic-merge-patch+json`, or kube's
/// `Patch::Strategic(patch)`.
impl serde::Serialize for Patch {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(serializer)
    }
}

/// A patch deserializes from any format serde reads, with the checks of
/// [`Patch::from_value`] (an object or `null`, nesting bounded).
impl<'de> serde::Deserialize<'de> for Patch {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Patch, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Patch::from_value(value).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_as_its_json_object() {
        let patch = Patch::from_json(r#"{"spec":{"replicas":3}}"#).unwrap();
        assert_eq!(serde_json::to_string(&patch).unwrap(), patch.to_json());
        assert_eq!(
            serde_json::to_value(&patch).unwrap(),
            serde_json::json!({"spec": {"replicas": 3}})
        );
        let back: Patch = serde_json::from_str(&patch.to_json()).unwrap();
        assert_eq!(back, patch);
        let err = serde_json::from_str::<Patch>("[1]").unwrap_err();
        assert!(err.to_string().contains("expected a JSON object"), "{err}");
        // Inside a larger document, as a request body might hold it.
        #[derive(serde::Serialize, serde::Deserialize)]
        struct Body {
            patch: Patch,
        }
        let body: Body = serde_json::from_str(r#"{"patch": {"a": null}}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&body).unwrap(),
            r#"{"patch":{"a":null}}"#
        );
    }

    #[test]
    fn parses_json_yaml_and_values() {
        let j = Patch::from_json(r#"{"spec":{"replicas":3}}"#).unwrap();
        let y = Patch::from_yaml("spec:\n  replicas: 3\n").unwrap();
        let s: Patch = "spec: {replicas: 3}".parse().unwrap();
        assert_eq!(j, y);
        assert_eq!(j, s);
        assert_eq!(j.to_json(), r#"{"spec":{"replicas":3}}"#);
        assert!(Patch::from_json("[1]").is_err());
        assert!(Patch::from_json(r#"{"a":1,"a":2}"#).is_err());
        assert!(Patch::from_yaml("").unwrap().is_empty());
    }
}
