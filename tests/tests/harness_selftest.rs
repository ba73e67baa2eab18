//! Unit tests of the conformance harness's helpers (comparison, ordering step, gap list).
//! `conformance.rs` runs without libtest, so the helpers' own `#[test]`s run here.

mod support;
