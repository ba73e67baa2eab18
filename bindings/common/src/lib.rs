//! What smp's packages for other languages share (`bindings/python`, `bindings/node`): every
//! operation they offer, on `serde_json::Value`s, with the schema chosen as the `smp` command
//! chooses it, and one error type that each package turns into its language's exceptions.
//!
//! A package's own crate only converts its language's values to and from `Value` and calls
//! these functions (without its interpreter's lock where it has one); the behaviour, and its
//! tests, live here once.

mod error;
mod ops;
mod typing;

pub use error::Error;
pub use ops::{
    Ssa, apply, diff, merge, normalize, object, parse, parse_time, server_side_apply, three_way,
    update,
};
pub use smp_core::DocRole;
pub use typing::{Crds, Typing, load_schema};

/// The Kubernetes version whose built-in kinds the packages know.
pub const KUBERNETES_VERSION: &str = smp_ssa::builtin::KUBERNETES_VERSION;

/// How deep a document may nest: the engine refuses deeper documents anyway, and a package's
/// conversion stops there too.
pub const MAX_DEPTH: usize = smp_core::MAX_DEPTH;

#[cfg(test)]
mod tests;
