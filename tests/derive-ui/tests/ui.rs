//! Compile-time behaviour of `#[derive(StrategicMerge)]`: every rejected input has a case in
//! `ui/fail` with the expected diagnostics beside it.
//!
//! Only rejected inputs go through trybuild: a project of compile-fail cases alone is
//! type-checked, not compiled to code, so its nested build of k8s-openapi and smp-types costs a
//! fraction of a full build. The inputs that must build and run (`ui/pass`) are modules of the
//! `pass` test beside this one.
//!
//! The `.stderr` files are rustc's output and change with the toolchain (this workspace pins
//! one: see `rust-version`). After an upgrade, re-bless and review the diff:
//! `TRYBUILD=overwrite cargo test -p smp-derive-ui --test ui`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
}
