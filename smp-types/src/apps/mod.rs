//! The `apps` API group, `apps/v1`.

pub mod deployment;

pub use deployment::*;
