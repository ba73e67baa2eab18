//! Why an object breaks a union's rules, and why an API-server-like update failed.

use std::fmt;

use crate::error::{JsonPath, PatchError};

/// A union whose state normalization could not (or was not asked to) make valid.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnionError {
    /// More than one member is set: normalization leaves this when it cannot tell which one
    /// the client meant (several newly set, or several set and none new).
    MultipleMembers {
        /// The object holding the union.
        path: JsonPath,
        /// The members that are set, in declaration order.
        members: Vec<String>,
    },
    /// The discriminator names another member than the one set (structured-merge-diff's
    /// "discriminator and field don't match", reported by validation instead of refusing to
    /// normalize).
    Mismatch {
        /// The object holding the union.
        path: JsonPath,
        /// The discriminator field.
        discriminator: String,
        /// Its value.
        value: String,
        /// The member that is set.
        member: String,
    },
}

impl UnionError {
    /// The object holding the union.
    pub fn path(&self) -> &JsonPath {
        match self {
            UnionError::MultipleMembers { path, .. } | UnionError::Mismatch { path, .. } => path,
        }
    }
}

impl fmt::Display for UnionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnionError::MultipleMembers { path, members } => {
                write!(f, "at {path}: more than one member of a union is set: ")?;
                for (i, m) in members.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "`{m}`")?;
                }
                Ok(())
            }
            UnionError::Mismatch {
                path,
                discriminator,
                value,
                member,
            } => write!(
                f,
                "at {path}: discriminator `{discriminator}` is {value:?} but member `{member}` is set"
            ),
        }
    }
}

impl std::error::Error for UnionError {}

/// Why [`apply_normalized`](super::apply_normalized) refused an update.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum UpdateError {
    /// The patch itself failed.
    Patch(PatchError),
    /// The patched, normalized object breaks union rules (every violation, sorted by path).
    Invalid(Vec<UnionError>),
}

impl fmt::Display for UpdateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UpdateError::Patch(e) => e.fmt(f),
            UpdateError::Invalid(errors) => {
                for (i, e) in errors.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    e.fmt(f)?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for UpdateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            UpdateError::Patch(e) => Some(e),
            UpdateError::Invalid(errors) => errors.first().map(|e| e as _),
        }
    }
}

impl From<PatchError> for UpdateError {
    fn from(e: PatchError) -> UpdateError {
        UpdateError::Patch(e)
    }
}

/// Errors in a stable order (by path, then message), so the typed and `Value` walks, which
/// visit fields in different orders, report identical lists.
pub(crate) fn finish(mut errors: Vec<UnionError>) -> Result<(), Vec<UnionError>> {
    if errors.is_empty() {
        return Ok(());
    }
    errors.sort_by_cached_key(|e| (e.path().to_string(), e.to_string()));
    Err(errors)
}
