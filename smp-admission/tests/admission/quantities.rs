//! Quantities as apimachinery v0.34.0 reads and prints them (`tests/data/quantities.json`:
//! its tests' expectations, and what its code does, as data).

use serde_json::Value;
use smp_admission::quantity::{canonical, canonical_milli};

#[test]
fn quantities_print_as_the_server_prints_them() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/quantities.json");
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut failures = Vec::new();
    for (list, print) in [
        ("canonical", canonical as fn(&str) -> Option<String>),
        ("milli", canonical_milli),
    ] {
        for case in data[list].as_array().expect(list) {
            let text = case["text"].as_str().unwrap();
            let expected = case["printed"].as_str().unwrap();
            let found = print(text);
            if found.as_deref() != Some(expected) {
                failures.push(format!(
                    "{list} {text:?}: expected {expected:?}, found {found:?}"
                ));
            }
        }
    }
    for text in data["invalid"].as_array().expect("invalid") {
        let text = text.as_str().unwrap();
        if let Some(found) = canonical(text) {
            failures.push(format!("invalid {text:?} read as {found:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
