//! Unions (KEP-1027): structs of which at most one member is set, optionally with a
//! discriminator field naming which.
//!
//! Kubernetes has many (`VolumeSource`, `DeploymentStrategy`, `EnvVar`'s `value`/`valueFrom`),
//! and clients get them wrong in predictable ways: a client that does not know all the members
//! sets a new one and leaves the old one in place; one that does not know the discriminator
//! changes the member and not the discriminator; one that changes the discriminator does not
//! know which members to clear. Normalization repairs all three by comparing the object with
//! what it was before the update (see [`rules::decide`] for the rules); validation then
//! reports what normalization could not decide.
//!
//! Two paths compute the same thing:
//! - the `Value` engine: [`normalize`], [`validate`] and [`apply_normalized`] on untyped
//!   documents, with the unions of a [`Node`] (from `x-kubernetes-unions` in OpenAPI, or from
//!   a derived type's `T::schema()`);
//! - typed values: [`Normalize`], which `#[derive(StrategicMerge)]` implements.
//!
//! Plain [`apply`](fn@crate::apply) and [`StrategicMerge::apply`](crate::StrategicMerge::apply)
//! stay what `kubectl patch` does on the client: no normalization. An API server normalizes
//! after patching; [`apply_normalized`] and [`Normalize::apply_normalized`] do that.

mod error;
/// The rules of normalization, shared by the engine and the code `#[derive(StrategicMerge)]`
/// generates. Not a public API.
#[doc(hidden)]
pub mod rules;
mod typed;
pub(crate) mod value;

use serde_json::Value;

use crate::schema::Node;

pub use crate::error::Segment;
pub use error::{UnionError, UpdateError, ValidationError};
#[doc(hidden)]
pub use rules::{Decision, check_union, decide, discriminator_accepts, key_of, member_path};
pub use typed::{Discriminator, Normalize};

/// Normalizes every union of `new` (and of everything below it: nested structs, map values,
/// list items paired with the old item by the list's merge key) against `old`, the document
/// before the update. `None` is a creation: every set member counts as newly set.
///
/// Never fails: what cannot be decided is left for [`validate`] to report.
pub fn normalize<'s>(new: &mut Value, old: Option<&Value>, schema: impl Into<Node<'s>>) {
    value::normalize_at(new, old, schema.into(), None, 0);
}

/// Checks every union of `doc`: at most one member set, and a discriminator (when set) that
/// names the member that is set. All violations, sorted by path.
pub fn validate<'s>(doc: &Value, schema: impl Into<Node<'s>>) -> Result<(), ValidationError> {
    let mut out = Vec::new();
    value::validate_at(doc, schema.into(), None, &mut Vec::new(), &mut out);
    error::finish(out)
}

/// What an API server does with a patch: apply it, normalize the result against `original`,
/// validate. [`crate::apply()`] alone is the client-side apply of `kubectl patch`.
pub fn apply_normalized<'s>(
    original: &Value,
    patch: &Value,
    schema: impl Into<Node<'s>>,
) -> Result<Value, UpdateError> {
    let node = schema.into();
    let mut new = crate::apply(original, patch, node)?;
    normalize(&mut new, Some(original), node);
    validate(&new, node).map_err(UpdateError::Invalid)?;
    Ok(new)
}
