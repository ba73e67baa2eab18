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

#[test]
fn group_features_in_the_manifest_are_the_generated_codes() {
    let Some(paths) = shared_paths() else { return };
    let doc = smp_codegen::overlaid_document(&paths).expect("reads the document");
    let overlay = smp_codegen::overlay::Overlay::read(&paths.overlay).expect("reads the overlay");
    let api = smp_codegen::model::Api::read(&doc, &overlay).expect("models the document");
    let want = smp_codegen::features::group_features(&api).expect("groups");
    let manifest =
        std::fs::read_to_string(paths.out.join("../Cargo.toml")).expect("smp-types' manifest");
    let manifest: toml::Table = toml::from_str(&manifest).expect("a manifest");
    let features = manifest["features"].as_table().expect("a [features] table");
    let list = |name: &str| -> std::collections::BTreeSet<String> {
        features[name]
            .as_array()
            .unwrap_or_else(|| panic!("feature {name}"))
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect()
    };
    for (group, needs) in &want {
        assert!(
            features.contains_key(group),
            "smp-types has no feature `{group}`"
        );
        assert_eq!(&list(group), needs, "feature `{group}`");
    }
    let groups: std::collections::BTreeSet<String> = want.keys().cloned().collect();
    assert_eq!(list("all-groups"), groups, "`all-groups` lists every group");
    assert_eq!(
        list("default"),
        ["all-groups".to_owned()].into(),
        "the default"
    );
}
