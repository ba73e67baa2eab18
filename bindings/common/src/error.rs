//! One error for every operation, in the terms the packages raise: a patch error with the JSON
//! path it names, a conflict with each manager and field, a schema that does not load.

use std::fmt;

use smp_core::PatchError;
use smp_core::union::ValidationError;
use smp_ssa::managedfields::FieldManagerError;

/// Why an operation failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A document or patch that cannot be merged (Python `smp.PatchError`, Node `PatchError`).
    Patch {
        /// The message.
        message: String,
        /// The JSON path it is about (`.spec.containers[0]`), when it names one.
        path: Option<String>,
    },
    /// A change that would undo another writer's (`smp.Conflict`, `Conflict`).
    Conflict {
        /// The message: for server-side apply the server's (`Apply failed with 1 conflict:
        /// conflict with "kubectl": .spec.replicas`).
        message: String,
        /// `(manager, field)` per conflicting field; no manager for a three-way conflict.
        conflicts: Vec<(Option<String>, String)>,
    },
    /// An OpenAPI document, definition or CRD that does not load (`smp.SchemaError`,
    /// `SchemaError`).
    Schema {
        /// The message.
        message: String,
    },
}

impl Error {
    /// A patch error with this message and path.
    pub fn patch(message: impl Into<String>, path: Option<String>) -> Error {
        Error::Patch {
            message: message.into(),
            path,
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        match self {
            Error::Patch { message, .. }
            | Error::Conflict { message, .. }
            | Error::Schema { message } => message,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}

/// The engine's errors: a three-way conflict is a conflict, the rest patch errors.
impl From<PatchError> for Error {
    fn from(e: PatchError) -> Error {
        let path = e.path().map(ToString::to_string);
        if let PatchError::Conflict { .. } = e {
            return Error::Conflict {
                message: e.to_string(),
                conflicts: vec![(None, path.unwrap_or_default())],
            };
        }
        Error::patch(e.to_string(), path)
    }
}

/// A union left with more than one member set: a patch error at the first union's path.
impl From<ValidationError> for Error {
    fn from(e: ValidationError) -> Error {
        let path = e.errors().first().map(|u| u.path().to_string());
        Error::patch(e.to_string(), path)
    }
}

/// The field manager's: conflicts with other managers (each by its name), the rest patch
/// errors.
impl From<FieldManagerError> for Error {
    fn from(e: FieldManagerError) -> Error {
        match e {
            FieldManagerError::Conflict(conflict) => Error::Conflict {
                message: conflict.to_string(),
                conflicts: conflict
                    .conflicts
                    .iter()
                    .map(|c| (Some(manager_name(&c.manager)), c.path.to_string()))
                    .collect(),
            },
            other => Error::patch(other.to_string(), None),
        }
    }
}

/// The manager's name in a managedFields identifier (`{"manager":"kubectl","operation":
/// "Apply"}`); the identifier itself if it is not one.
fn manager_name(identifier: &str) -> String {
    serde_json::from_str::<serde_json::Value>(identifier)
        .ok()
        .and_then(|v| v.get("manager")?.as_str().map(str::to_owned))
        .unwrap_or_else(|| identifier.to_owned())
}
