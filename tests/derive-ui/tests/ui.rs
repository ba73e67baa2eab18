//! Compile-time behaviour of `#[derive(StrategicMerge)]`: every rejected input has a case in
//! `ui/fail` with the expected diagnostics beside it, and `ui/pass` must build and run.
//!
//! The `.stderr` files are rustc's output and change with the toolchain (this workspace pins
//! one: see `rust-version`). After an upgrade, re-bless and review the diff:
//! `TRYBUILD=overwrite cargo test -p smp-derive-ui --test ui`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
