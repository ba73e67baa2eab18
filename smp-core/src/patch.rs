//! The [`Patch`] type: a parsed strategic merge patch.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use serde_json::Value;

use crate::error::{DocRole, PatchError, kind_of};
use crate::input;

/// A strategic merge patch: a JSON object (or `null`, which patches nothing).
///
/// Parse it once and apply it to many objects; it is never modified by applying.
///
/// A patch made by a typed diff ([`crate::StrategicMerge::diff`]) is held as the JSON text it
/// will most often be sent as: [`Patch::to_json`] and `Display` give it without further work,
/// and [`Patch::as_value`] reads it once, on first use.
#[derive(Clone)]
pub struct Patch {
    /// The patch as a value: given, or read from `json` when first asked for.
    value: OnceLock<Value>,
    /// The patch as compact JSON with object keys sorted (as `serde_json::to_string` writes
    /// its value), when it was made as text.
    json: Option<Box<str>>,
}

impl Patch {
    /// A patch from JSON text (strict: duplicate keys and over-deep nesting are errors).
    pub fn from_json(text: &str) -> Result<Patch, PatchError> {
        Patch::from_value(input::parse_json(text, DocRole::Patch)?)
    }

    /// A patch from YAML text, read as kubectl reads it (YAML 1.1 scalars). Feature `yaml`.
    #[cfg(feature = "yaml")]
    pub fn from_yaml(text: &str) -> Result<Patch, PatchError> {
        let mut docs = crate::yaml::parse_yaml_documents(text, DocRole::Patch)?;
        match docs.len() {
            0 => Ok(Patch {
                value: OnceLock::from(Value::Null),
                json: None,
            }),
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
            Value::Object(_) | Value::Null => Ok(Patch {
                value: OnceLock::from(value),
                json: None,
            }),
            other => Err(PatchError::InvalidDocument {
                role: DocRole::Patch,
                detail: format!("expected a JSON object, found {}", kind_of(&other)),
            }),
        }
    }

    /// A patch from the compact JSON text of an object with keys sorted, nested at most
    /// [`crate::MAX_DEPTH`] deep, as `serde_json::to_string` writes its value: what the typed
    /// diff writes (see `typed::text`).
    pub(crate) fn from_canonical_json(json: String) -> Patch {
        debug_assert_eq!(
            read_canonical(&json).to_string(),
            json,
            "the typed diff wrote text that is not canonical JSON"
        );
        Patch {
            value: OnceLock::new(),
            json: Some(json.into_boxed_str()),
        }
    }

    /// The patch as a JSON value (read from its text on first use, when it was made as text).
    pub fn as_value(&self) -> &Value {
        self.value.get_or_init(|| match &self.json {
            Some(json) => read_canonical(json),
            None => Value::Null,
        })
    }

    /// The patch as a JSON value, consumed.
    pub fn into_value(self) -> Value {
        match (self.value.into_inner(), self.json) {
            (Some(value), _) => value,
            (None, Some(json)) => read_canonical(&json),
            (None, None) => Value::Null,
        }
    }

    /// Compact JSON text, as sent to an API server.
    pub fn to_json(&self) -> String {
        match &self.json {
            Some(json) => json.to_string(),
            None => self.as_value().to_string(),
        }
    }

    /// Whether the patch changes nothing (`{}` or `null`).
    pub fn is_empty(&self) -> bool {
        match &self.json {
            Some(json) => &**json == "{}",
            None => self.as_value().as_object().is_none_or(|m| m.is_empty()),
        }
    }
}

/// The value of text [`Patch::from_canonical_json`] holds. The text is written from strings and
/// values by serde_json's own writer, nested no deeper than the reader allows, so it always
/// reads; were it ever not to, the patch would be empty rather than a panic.
fn read_canonical(json: &str) -> Value {
    smp_yaml::json::parse_within(json, crate::deep::MAX_DEPTH).unwrap_or(Value::Null)
}

/// Patches are equal when their JSON values are.
impl PartialEq for Patch {
    fn eq(&self, other: &Patch) -> bool {
        match (&self.json, &other.json) {
            // Canonical texts are equal exactly when their values are.
            (Some(a), Some(b)) => a == b,
            _ => self.as_value() == other.as_value(),
        }
    }
}

impl fmt::Debug for Patch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Patch")
            .field("value", self.as_value())
            .finish()
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
        match &self.json {
            Some(json) => f.write_str(json),
            None => write!(f, "{}", self.as_value()),
        }
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
impl serde_core::Serialize for Patch {
    fn serialize<S: serde_core::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.as_value().serialize(serializer)
    }
}

/// A patch deserializes from any format serde reads, with the checks of
/// [`Patch::from_value`] (an object or `null`, nesting bounded).
impl<'de> serde_core::Deserialize<'de> for Patch {
    fn deserialize<D: serde_core::Deserializer<'de>>(deserializer: D) -> Result<Patch, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Patch::from_value(value).map_err(serde_core::de::Error::custom)
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

    #[test]
    fn a_patch_held_as_text_behaves_as_its_value() {
        let value = serde_json::json!({"a": {"b": [1, "x"]}, "c": null});
        let text = Patch::from_canonical_json(value.to_string());
        let held = Patch::from_value(value.clone()).unwrap();
        assert_eq!(text.to_json(), held.to_json());
        assert_eq!(text.to_string(), held.to_string());
        assert_eq!(text, held);
        assert_eq!(held, text);
        assert_eq!(text.as_value(), &value);
        assert_eq!(text.clone().into_value(), value);
        assert_eq!(serde_json::to_value(&text).unwrap(), value);
        assert_eq!(format!("{text:?}"), format!("{held:?}"));
        assert!(!text.is_empty());
        assert!(Patch::from_canonical_json("{}".to_owned()).is_empty());
        let other = Patch::from_canonical_json(r#"{"a":1}"#.to_owned());
        assert_ne!(text, other);
    }
}
