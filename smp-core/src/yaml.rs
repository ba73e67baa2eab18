//! YAML read and written the way kubectl does: [`smp_yaml`]'s reader and printer, with errors
//! that name the input of a merge they are about.

use serde_json::Value;

use crate::error::{DocRole, PatchError};
use crate::input::read_error;

pub use smp_yaml::{split_documents, to_yaml_string};

/// Parses every document of a YAML stream, as [`smp_yaml::parse_yaml_documents`] does. Empty
/// documents are `Value::Null`.
///
/// Limits, each an error naming the position: characters outside YAML's printable set (a NUL,
/// other control characters), nesting deeper than 128 levels, and aliases that expand the
/// stream by more than its own size in bytes plus 1,000,000 units.
pub fn parse_yaml_documents(text: &str, role: DocRole) -> Result<Vec<Value>, PatchError> {
    smp_yaml::parse_yaml_documents(text).map_err(|e| read_error(role, e))
}
