//! Shared by the smp-types tests: the kinds of the shipped manifests and a random patch
//! generator.

pub mod kinds;
pub mod patches;
