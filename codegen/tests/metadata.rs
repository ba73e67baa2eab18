//! Every generated type's patch metadata is the document's.
//!
//! For each of the document's definitions, the schema of the generated Rust type
//! (`T::schema()`, built by `#[derive(StrategicMerge)]` from the generated attributes) must
//! equal the schema `smp_core::openapi` loads for that definition from the document with the
//! overlay applied (`smp_core::schema::compare`: shapes, fields, strategies, merge keys,
//! recommended keys, unions, recursively). And each overlay entry must be a real difference
//! from the document alone: leaving it out makes exactly its definition differ, at the property
//! it names. Together: the overlay's entries are the only differences, each one asserted.
//!
//! The document is shared data (`../shared/openapi/swagger.json`); without it each test skips
//! and says so.

use serde_json::Value;
use smp_codegen::overlay::Overlay;
use smp_codegen::{Paths, SHARED_SPEC, overlaid_document};
use smp_core::openapi;
use smp_core::schema::compare;

/// The repository's paths with the shared document, or `None` (the test skips) without it.
fn shared_paths() -> Option<Paths> {
    smp_testdata::file(SHARED_SPEC).map(Paths::with_spec)
}

fn document(paths: &Paths) -> Value {
    let text = std::fs::read_to_string(&paths.spec).expect("swagger.json");
    serde_json::from_str(&text).expect("parses")
}

#[test]
fn every_definition_has_a_type() {
    let Some(paths) = shared_paths() else { return };
    let doc = document(&paths);
    let names: Vec<&String> = doc["definitions"]
        .as_object()
        .expect("definitions")
        .keys()
        .collect();
    let generated: Vec<&str> = smp_types::DEFINITIONS.iter().map(|d| d.name()).collect();
    assert_eq!(names.len(), 730);
    assert_eq!(names, generated);
}

#[test]
fn every_type_matches_the_document_with_the_overlay() {
    let Some(paths) = shared_paths() else { return };
    let doc = overlaid_document(&paths).expect("overlay applies");
    let mut failures = Vec::new();
    for d in smp_types::DEFINITIONS {
        let loaded = openapi::load(&doc, d.name()).expect("loads");
        if let Err(e) = compare(d.schema(), loaded.root()) {
            failures.push(format!("{}: {e}", d.name()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} types differ from the document:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn each_overlay_entry_is_a_difference_from_the_document() {
    let Some(paths) = shared_paths() else { return };
    let raw = document(&paths);
    let overlay = Overlay::read(&paths.overlay).expect("overlay.toml");
    let entries = overlay.entries();
    assert!(entries.len() >= 30, "{} entries", entries.len());
    for id in entries {
        let (definition, property) = overlay.target(id);
        let mut doc = raw.clone();
        overlay
            .without(id)
            .apply(&mut doc)
            .expect("the rest applies");
        let d = smp_types::definition(definition).expect("generated");
        let loaded = openapi::load(&doc, definition).expect("loads");
        let error = compare(d.schema(), loaded.root())
            .expect_err(&format!("{id:?} ({definition}) makes no difference"));
        let ident = d.type_name().rsplit("::").next().expect("a name");
        let at = match property {
            Some(p) => format!("{ident}.{p}: "),
            None => format!("{ident}: unions differ"),
        };
        assert!(
            error.starts_with(&at),
            "{id:?}: without it, {definition} differs elsewhere: {error}"
        );
    }
}

/// The recommended keys that extend a merge key are not a choice: every property whose
/// `x-kubernetes-list-map-keys` extend its merge key has them, equal to the list-map keys.
#[test]
fn every_extended_list_map_key_is_a_recommended_key() {
    let Some(paths) = shared_paths() else { return };
    let raw = document(&paths);
    let doc = overlaid_document(&paths).expect("overlay applies");
    let mut checked = 0;
    for (name, def) in raw["definitions"].as_object().expect("definitions") {
        let Some(props) = def["properties"].as_object() else {
            continue;
        };
        for (prop, schema) in props {
            let (Some(key), Some(keys)) = (
                schema["x-kubernetes-patch-merge-key"].as_str(),
                schema["x-kubernetes-list-map-keys"].as_array(),
            ) else {
                continue;
            };
            if keys.len() < 2 || keys[0] != key {
                continue;
            }
            let expected: Vec<&str> = keys.iter().filter_map(Value::as_str).collect();
            let got = doc["definitions"][name]["properties"][prop]
                ["x-kubernetes-recommended-patch-merge-key"]
                .as_str();
            assert_eq!(got, Some(expected.join(",").as_str()), "{name}.{prop}");
            checked += 1;
        }
    }
    assert_eq!(
        checked, 4,
        "Container/EphemeralContainer ports, ServiceSpec ports, PodSpec topologySpreadConstraints"
    );
}
