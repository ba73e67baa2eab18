//! The committed smp-types source is exactly what the generator writes from the committed
//! document and overlay, and writing it twice gives the same bytes.
//!
//! The generator formats its output with `rustfmt` in a scratch directory and the comparison
//! reads the committed tree, so a hand edit, a stale file or a file the generator no longer
//! writes all fail here. Regenerate with `cargo run -p smp-codegen`.

use smp_codegen::{Paths, generate};

#[test]
fn committed_smp_types_is_what_the_generator_writes() {
    let paths = Paths::default();
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
    let paths = Paths::default();
    let a = generate(&paths).expect("generates");
    let b = generate(&paths).expect("generates");
    assert_eq!(a.files, b.files);
}
