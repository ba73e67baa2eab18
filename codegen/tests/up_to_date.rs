//! The committed smp-types source is exactly what the generator writes from the shared v1.34
//! document and the committed overlay, and writing it twice gives the same bytes. Both tests
//! need the document (`../shared/openapi/swagger.json`) and skip, saying so, without it.
//!
//! The generator formats its output with `rustfmt` in a scratch directory and the comparison
//! reads the committed tree, so a hand edit, a stale file or a file the generator no longer
//! writes all fail here. Regenerate with `cargo run -p smp-codegen`.

use smp_codegen::{Paths, SHARED_SPEC, generate};

/// The repository's paths with the shared document, or `None` (the test skips) without it.
fn shared_paths() -> Option<Paths> {
    smp_testdata::file(SHARED_SPEC).map(Paths::with_spec)
}

#[test]
fn committed_smp_types_is_what_the_generator_writes() {
    let Some(paths) = shared_paths() else { return };
    let output = generate(&paths).expect("generates");
    let differences = output.differences(&paths.out).expect("reads smp-types/src");
    assert!(
        differences.is_empty(),
        "smp-types/src is out of date; run `cargo run -p smp-codegen`:\n{}",
        differences.join("\n")
    );
    // Not trivially: every module of the tree and the registry are there.
    assert!(output.files.len() > 70, "{} files", output.files.len());
}

#[test]
fn generation_is_deterministic() {
    let Some(paths) = shared_paths() else { return };
    let a = generate(&paths).expect("generates");
    let b = generate(&paths).expect("generates");
    assert_eq!(a.files, b.files);
}
