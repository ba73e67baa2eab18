//! Shared by the smp-types tests: the shipped manifests, their kinds and a random patch
//! generator.

pub mod kinds;
pub mod manifests;
pub mod patches;
