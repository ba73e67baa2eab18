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

/// Every union rule an object breaks: what validation returns, one error value for all of them
/// (never empty), sorted by path so that the typed and `Value` walks report identical lists.
///
/// It is a [`std::error::Error`], so `obj.validate()?` works in any function returning
/// `Box<dyn Error>` or `anyhow::Result`; its message lists every violation, separated by `; `.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    errors: Vec<UnionError>,
}

impl ValidationError {
    /// The violations, sorted by path (at least one).
    pub fn errors(&self) -> &[UnionError] {
        &self.errors
    }

    /// The violations, consumed.
    pub fn into_errors(self) -> Vec<UnionError> {
        self.errors
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            e.fmt(f)?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.errors.first().map(|e| e as _)
    }
}

impl IntoIterator for ValidationError {
    type Item = UnionError;
    type IntoIter = std::vec::IntoIter<UnionError>;

    fn into_iter(self) -> Self::IntoIter {
        self.errors.into_iter()
    }
}

impl<'a> IntoIterator for &'a ValidationError {
    type Item = &'a UnionError;
    type IntoIter = std::slice::Iter<'a, UnionError>;

    fn into_iter(self) -> Self::IntoIter {
        self.errors.iter()
    }
}

/// Why [`apply_normalized`](super::apply_normalized) refused an update.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum UpdateError {
    /// The patch itself failed.
    Patch(PatchError),
    /// The patched, normalized object breaks union rules (every violation, sorted by path).
    Invalid(ValidationError),
}

impl fmt::Display for UpdateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UpdateError::Patch(e) => e.fmt(f),
            UpdateError::Invalid(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for UpdateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            UpdateError::Patch(e) => Some(e),
            UpdateError::Invalid(e) => Some(e),
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
pub(crate) fn finish(mut errors: Vec<UnionError>) -> Result<(), ValidationError> {
    if errors.is_empty() {
        return Ok(());
    }
    errors.sort_by_cached_key(|e| (e.path().to_string(), e.to_string()));
    Err(ValidationError { errors })
}
