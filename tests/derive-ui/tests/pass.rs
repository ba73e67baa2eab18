//! Inputs `#[derive(StrategicMerge)]` must accept: each file of `ui/pass` is a module here, built
//! with the crates a user has (smp-core with `derive`, serde, serde_json) under its own lints
//! (`pod.rs` denies every warning, so the derive's output must be lint-clean), and its `main`
//! runs as a test. smp-tests' typed tests share `pod.rs`'s types.

#[path = "../ui/pass/generic.rs"]
mod generic;
#[path = "../ui/pass/pod.rs"]
mod pod;

#[test]
fn generic_struct_builds_and_patches() {
    generic::main();
}

#[test]
fn pod_like_types_build_lint_clean_and_patch() {
    pod::main();
}
