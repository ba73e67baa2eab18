//! Errors, each naming where in the document it happened and what was expected.

use std::fmt;

pub use smp_yaml::{JsonPath, Segment};

use serde_json::Value;

/// Which input a parse error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocRole {
    /// The document being patched.
    Original,
    /// The patch.
    Patch,
    /// The desired document (diff inputs).
    Modified,
    /// The live document (three-way inputs).
    Current,
    /// A schema document.
    Schema,
    /// A document read on its own, not as an input of a patch operation
    /// ([`crate::from_str`], [`crate::input::read`]).
    Document,
}

impl fmt::Display for DocRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DocRole::Original => "original",
            DocRole::Patch => "patch",
            DocRole::Modified => "modified",
            DocRole::Current => "current",
            DocRole::Schema => "schema",
            DocRole::Document => "document",
        })
    }
}

/// Everything that can go wrong while applying (and later creating) a patch.
///
/// Messages keep the wording of the upstream Go implementation where tools and tests match on
/// it (`does not contain declared merge key`, `doesn't match`, `invalid JSON document`), and add
/// the path, which upstream never gives.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum PatchError {
    /// A document is not valid JSON/YAML, or is not an object.
    InvalidDocument {
        /// Which input.
        role: DocRole,
        /// Parser message, with line and column.
        detail: String,
    },
    /// A value has the wrong JSON type for where it is.
    WrongType {
        /// Where.
        path: JsonPath,
        /// What was expected there.
        expected: &'static str,
        /// What was found.
        found: &'static str,
    },
    /// A `$patch` directive with a value this engine does not know.
    UnknownPatchType {
        /// Where.
        path: JsonPath,
        /// The rejected value, as JSON.
        value: String,
    },
    /// `$patch: merge` written explicitly; upstream rejects it (merging is the default).
    ExplicitMerge {
        /// Where.
        path: JsonPath,
    },
    /// An item of a merged list lacks the merge key.
    MissingMergeKey {
        /// The list item.
        path: JsonPath,
        /// The merge key.
        key: String,
    },
    /// A list merged by key holds something other than objects.
    NotAnObjectItem {
        /// The list item.
        path: JsonPath,
        /// The merge key.
        key: String,
        /// What was found.
        found: &'static str,
    },
    /// A directive whose value has the wrong shape, e.g. `$retainKeys: "a"`.
    BadDirective {
        /// Where the directive is.
        path: JsonPath,
        /// The directive key (`$retainKeys`, `$setElementOrder/ports`, ...).
        directive: String,
        /// What its value should be.
        expected: &'static str,
    },
    /// A patch key that `$retainKeys` does not list.
    RetainKeysMismatch {
        /// The object holding `$retainKeys`.
        path: JsonPath,
        /// The unlisted key.
        key: String,
    },
    /// The patch list's order disagrees with its `$setElementOrder` list.
    OrderMismatch {
        /// The list.
        path: JsonPath,
        /// Which item broke the order.
        detail: String,
    },
    /// A list directly holding lists; Kubernetes APIs have none and SMP does not define them.
    ListOfLists {
        /// The list.
        path: JsonPath,
    },
    /// A merged list whose items do not all have the same JSON type.
    MixedList {
        /// The list.
        path: JsonPath,
        /// One type found.
        first: &'static str,
        /// Another type found.
        second: &'static str,
    },
    /// A typed value could not be converted to or from JSON (typed apply only): the patch made
    /// the member something its Rust type cannot hold, or removed a required member.
    Deserialize {
        /// Where.
        path: JsonPath,
        /// The serde message.
        detail: String,
    },
    /// Nesting deeper than [`crate::MAX_DEPTH`].
    TooDeep {
        /// Where the limit was hit.
        path: JsonPath,
        /// The limit.
        limit: usize,
    },
    /// Patch creation (three-way, without overwrite): the patch changes something that was
    /// also changed, differently, between the last-applied and the live document.
    Conflict {
        /// The first conflicting place found (the root when none can be named).
        path: JsonPath,
        /// The created patch and the original-to-current changes, as compact JSON.
        detail: String,
    },
    /// Patch creation: a precondition rejected the created patch.
    PreconditionFailed {
        /// The object holding the key (`(root)` or `metadata`).
        path: JsonPath,
        /// The key the patch must not change.
        key: String,
    },
    /// Patch creation: an object or list member that the schema's struct does not declare
    /// differs between the two documents, so there is no metadata to diff it by (upstream
    /// `unable to find api field`).
    UnknownField {
        /// The member.
        path: JsonPath,
        /// Its name.
        field: String,
    },
    /// A typed patch converted to a server-side apply configuration holds what such a
    /// configuration cannot say: a deletion or a strategic-merge directive.
    NotApplyConfiguration {
        /// Where.
        path: JsonPath,
        /// What, and why.
        detail: String,
    },
    /// `$patchMergeKey`: a patch item's keys match more than one live item, so it does not say
    /// which one to merge into.
    AmbiguousMergeKey {
        /// The list.
        path: JsonPath,
        /// The patch item's identity (its merge keys), as compact JSON.
        item: String,
        /// The keys the item names.
        keys: Vec<String>,
        /// Positions of the matching live items (all of them; the message shows the first
        /// few).
        candidates: Vec<usize>,
    },
}

// Written out rather than derived: a derive would bring a proc-macro toolchain into the build of
// every program that patches, for these messages.
impl fmt::Display for PatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatchError::InvalidDocument { role, detail } => {
                write!(f, "invalid JSON document ({role}): {detail}")
            }
            PatchError::WrongType {
                path,
                expected,
                found,
            } => write!(f, "at {path}: expected {expected}, found {found}"),
            PatchError::UnknownPatchType { path, value } => write!(
                f,
                "at {path}: unknown patch type: {value} (expected `replace` or `delete`)"
            ),
            PatchError::ExplicitMerge { path } => write!(
                f,
                "at {path}: `$patch: merge` cannot be specified in a patch; merging is the default"
            ),
            PatchError::MissingMergeKey { path, key } => write!(
                f,
                "at {path}: map does not contain declared merge key: {key}"
            ),
            PatchError::NotAnObjectItem { path, key, found } => write!(
                f,
                "at {path}: list merged by key {key:?} must hold objects, found {found}"
            ),
            PatchError::BadDirective {
                path,
                directive,
                expected,
            } => write!(
                f,
                "at {path}: invalid patch format of {directive}: expected {expected}"
            ),
            PatchError::RetainKeysMismatch { path, key } => write!(
                f,
                "at {path}: patch content doesn't match retainKeys list: {key:?} is not listed in $retainKeys"
            ),
            PatchError::OrderMismatch { path, detail } => write!(
                f,
                "at {path}: the order in patch list doesn't match $setElementOrder list ({detail})"
            ),
            PatchError::ListOfLists { path } => {
                write!(f, "at {path}: lists of lists are not supported")
            }
            PatchError::MixedList {
                path,
                first,
                second,
            } => write!(
                f,
                "at {path}: list element types are not identical: found {first} and {second}"
            ),
            PatchError::Deserialize { path, detail } => write!(f, "at {path}: {detail}"),
            PatchError::TooDeep { path, limit } => {
                write!(f, "at {path}: nesting deeper than {limit} levels")
            }
            PatchError::Conflict { path, detail } => write!(f, "at {path}: conflict: {detail}"),
            PatchError::PreconditionFailed { path, key } => write!(
                f,
                "at {path}: precondition failed: the patch changes {key:?}"
            ),
            PatchError::UnknownField { path, field } => write!(
                f,
                "at {path}: unable to find api field {field:?} in the schema"
            ),
            PatchError::NotApplyConfiguration { path, detail } => {
                write!(f, "at {path}: not an apply configuration: {detail}")
            }
            PatchError::AmbiguousMergeKey {
                path,
                item,
                keys,
                candidates,
            } => write!(
                f,
                "at {path}: patch item {item} matches more than one item by $patchMergeKey {keys:?}: live items {}",
                Positions(candidates)
            ),
        }
    }
}

impl std::error::Error for PatchError {}

/// Displays list positions, the first few only, so that a message stays short whatever the
/// input: `[0, 3, 7]`, or `[0, 1, 2, 3, 4, 5, 6, 7, ... (100000 in all)]`.
struct Positions<'a>(&'a [usize]);

impl fmt::Display for Positions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 8;
        f.write_str("[")?;
        for (i, p) in self.0.iter().take(SHOWN).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{p}")?;
        }
        if self.0.len() > SHOWN {
            write!(f, ", ... ({} in all)", self.0.len())?;
        }
        f.write_str("]")
    }
}

impl PatchError {
    /// The path the error is about, when it has one.
    pub fn path(&self) -> Option<&JsonPath> {
        match self {
            PatchError::InvalidDocument { .. } => None,
            PatchError::WrongType { path, .. }
            | PatchError::UnknownPatchType { path, .. }
            | PatchError::ExplicitMerge { path }
            | PatchError::MissingMergeKey { path, .. }
            | PatchError::NotAnObjectItem { path, .. }
            | PatchError::BadDirective { path, .. }
            | PatchError::RetainKeysMismatch { path, .. }
            | PatchError::OrderMismatch { path, .. }
            | PatchError::ListOfLists { path }
            | PatchError::MixedList { path, .. }
            | PatchError::Deserialize { path, .. }
            | PatchError::TooDeep { path, .. }
            | PatchError::Conflict { path, .. }
            | PatchError::PreconditionFailed { path, .. }
            | PatchError::UnknownField { path, .. }
            | PatchError::NotApplyConfiguration { path, .. }
            | PatchError::AmbiguousMergeKey { path, .. } => Some(path),
        }
    }
}

/// The JSON type name of a value, for messages.
pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ambiguous_matches_show_a_few_positions() {
        let err = |candidates: Vec<usize>| PatchError::AmbiguousMergeKey {
            path: JsonPath::root(),
            item: r#"{"port":80}"#.to_owned(),
            keys: vec!["port".to_owned()],
            candidates,
        };
        assert!(err(vec![0, 3]).to_string().ends_with("live items [0, 3]"));
        let many = err((0..100_000).collect()).to_string();
        assert!(
            many.ends_with("live items [0, 1, 2, 3, 4, 5, 6, 7, ... (100000 in all)]"),
            "{many}"
        );
    }
}
