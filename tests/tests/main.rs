//! The integration tests, one module per subject, in one test binary: each file a binary of its
//! own instantiated and linked smp-types' typed code, kube and smp-ssa again, which cost the
//! workspace's test build more than the tests take to run. `conformance` (its own harness) and
//! `scaling` (its own allocator) stay binaries of their own.

// The conformance harness's helpers; their own `#[test]`s run here, since `conformance` runs
// without libtest.
mod support;
mod union_types;

// The Pod-like types of a trybuild pass case, shared by the typed tests.
#[path = "../derive-ui/ui/pass/pod.rs"]
mod pod;

// smp-types' test support: the shipped manifests, their kinds, random patches.
#[path = "../../smp-types/tests/support/mod.rs"]
#[allow(dead_code)]
mod types_support;

mod crds;
mod derive_behaviour;
mod diff_properties;
mod embedded_resources;
mod generics;
mod k8s_openapi;
mod newtypes;
mod opaque_fields;
mod openapi_write;
mod patch_merge_key;
mod properties;
mod provenance;
mod schema_only;
mod seeds;
mod server_side_apply_typed;
mod sparse_differential;
mod typed_crd;
mod typed_diff;
mod typed_differential;
mod typed_manual;
mod typed_patch;
mod typed_twin;
mod union_differential;
mod unions;
mod upstream_schemas;
