//! A refused object as the API server answers it: the 422 `Status` of `errors.NewInvalid`,
//! whose message lists the field errors once each, in order (`Deployment.apps "web" is
//! invalid: [spec.selector: Required value, ...]`).

use std::collections::HashSet;
use std::fmt;

use serde_json::{Map, Value, json};

use super::field::ErrorList;

/// An object the server would refuse with 422 Unprocessable Entity.
#[derive(Debug, Clone, PartialEq)]
pub struct Invalid {
    /// The API group (`""` for the core group).
    pub group: String,
    /// The kind.
    pub kind: String,
    /// The object's name (may be empty).
    pub name: String,
    /// The field errors, in the order the checks found them.
    pub errors: ErrorList,
}

impl Invalid {
    /// The errors as the message lists them: each text once, in order (Go's `ToAggregate`).
    pub fn lines(&self) -> Vec<String> {
        let mut seen = HashSet::new();
        self.errors
            .iter()
            .map(ToString::to_string)
            .filter(|line| seen.insert(line.clone()))
            .collect()
    }

    /// `Kind.group` as Go's `GroupKind.String` prints it (`Deployment.apps`, `Pod`).
    pub fn qualified_kind(&self) -> String {
        if self.group.is_empty() {
            self.kind.clone()
        } else {
            format!("{}.{}", self.kind, self.group)
        }
    }

    /// The `Status` the server sends with the 422.
    pub fn to_status(&self) -> Value {
        let causes: Vec<Value> = self
            .errors
            .iter()
            .map(|e| {
                let mut cause = Map::new();
                cause.insert("reason".into(), e.kind.reason().into());
                cause.insert("message".into(), e.body().into());
                if !e.field.is_empty() {
                    cause.insert("field".into(), e.field.clone().into());
                }
                Value::Object(cause)
            })
            .collect();
        // `StatusDetails` leaves out its empty members.
        let mut details = Map::new();
        for (key, value) in [
            ("name", &self.name),
            ("group", &self.group),
            ("kind", &self.kind),
        ] {
            if !value.is_empty() {
                details.insert(key.into(), value.clone().into());
            }
        }
        if !causes.is_empty() {
            details.insert("causes".into(), causes.into());
        }
        json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.to_string(),
            "reason": "Invalid",
            "details": details,
            "code": 422
        })
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut name = String::new();
        super::field::go_quote(&self.name, &mut name);
        write!(f, "{} {} is invalid", self.qualified_kind(), name)?;
        let lines = self.lines();
        match lines.len() {
            0 => Ok(()),
            1 => write!(f, ": {}", lines[0]),
            _ => write!(f, ": [{}]", lines.join(", ")),
        }
    }
}

impl std::error::Error for Invalid {}
