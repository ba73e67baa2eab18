//! What a kind's rules are to the dispatch: the functions of its create, update and status
//! update, which each group's module lists and [`super`] looks up by group and kind.

use serde_json::Value;

use super::field::ErrorList;

/// The rules of one kind: what its create and its update check.
pub(crate) struct KindRules {
    /// The API group (`""` for core).
    pub group: &'static str,
    /// The kind.
    pub kind: &'static str,
    /// Whether its objects live in a namespace.
    pub namespaced: bool,
    /// `Validate<Kind>`.
    pub create: fn(&Value) -> ErrorList,
    /// `Validate<Kind>Update`, given the new object and the old.
    pub update: fn(&Value, &Value) -> ErrorList,
}

/// The rules of a kind's status endpoint: `Validate<Kind>StatusUpdate`, which its status
/// strategy runs instead of the main endpoint's update rules.
pub(crate) struct StatusRules {
    /// The API group (`""` for core).
    pub group: &'static str,
    /// The kind.
    pub kind: &'static str,
    /// The status update's rules, given the new object and the old.
    pub update: fn(&Value, &Value) -> ErrorList,
}
