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
//!   documents, with the unions of a [`Node`](crate::Node) (from `x-kubernetes-unions` in OpenAPI, or from
//!   a derived type's `T::schema()`);
//! - typed values: [`Normalize`], which `#[derive(StrategicMerge)]` implements.
//!
//! Plain [`apply`](fn@crate::apply) and [`StrategicMerge::apply`](crate::StrategicMerge::apply)
//! stay what `kubectl patch` does on the client: no normalization. An API server normalizes
//! after patching; [`apply_normalized`] and [`Normalize::apply_normalized`] do that.
//!
//! This module gathers the two: the `Value` engine stands in `union_rules`, below the typed
//! layer, and the typed traits in `typed::unions`.

pub use crate::error::Segment;
pub use crate::typed::unions::{Discriminator, Normalize};
#[doc(hidden)]
pub use crate::union_rules::rules;
#[doc(hidden)]
pub use crate::union_rules::rules::{
    Decision, check_union, decide, discriminator_accepts, key_of, member_path,
};
pub use crate::union_rules::{
    UnionError, UpdateError, ValidationError, apply_normalized, normalize, validate,
};
