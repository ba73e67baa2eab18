//! The unit tests of apiextensions-apiserver v0.34.1 for CustomResourceDefinition validation
//! (`pkg/apis/apiextensions/validation/validation_test.go`), written down as data in
//! `tests/data/customresourcedefinition/validation.json`: each case's CRD as a user sends it
//! (v1 JSON), and the errors kube-apiserver's own functions gave for it, recorded by running
//! them. Every case runs; those the library does not yet agree with are listed, each with its
//! reason, in `tests/data/customresourcedefinition/gaps.txt`, and the test fails both when a
//! listed case passes (the list must shrink) and when an unlisted one fails.
//!
//! Errors are compared in order, except for the cases upstream's own order varies (Go walks
//! maps in random order), compared as sets. `SMP_DUMP_FAILURES=1` prints each disagreement.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;
use smp_admission::customresourcedefinition::{validate_create, validate_update};

fn data() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/customresourcedefinition/validation.json");
    serde_json::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("JSON")
}

/// Whether one case agrees with upstream; `Err` says how it does not.
fn run(case: &Value) -> Result<(), String> {
    let errors = match case["op"].as_str() {
        Some("update") => validate_update(&case["crd"], &case["old"]),
        _ => validate_create(&case["crd"]),
    };
    let mut found: Vec<String> = errors.iter().map(ToString::to_string).collect();
    let mut expected: Vec<String> = case["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| e["message"].as_str().expect("message").to_owned())
        .collect();
    if case["order_stable"] == Value::Bool(false) {
        found.sort();
        expected.sort();
    }
    if found == expected {
        Ok(())
    } else {
        Err(format!("expected {expected:#?}\nfound {found:#?}"))
    }
}

#[test]
fn upstream_crd_validation_cases() {
    let data = data();
    let gaps = common::gaps("customresourcedefinition/gaps.txt");
    let dump = std::env::var_os("SMP_DUMP_FAILURES").is_some();
    let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, case) in data["cases"].as_array().expect("cases").iter().enumerate() {
        let test = case["test"].as_str().expect("test");
        let key = format!("{test} #{i}: {}", case["name"].as_str().unwrap_or(""));
        seen.insert(key.clone());
        let outcome = run(case);
        let entry = counts.entry(test.to_owned()).or_default();
        entry.0 += 1;
        match (&outcome, gaps.contains_key(&key)) {
            (Ok(()), false) => entry.1 += 1,
            (Ok(()), true) => fixed.push(key),
            (Err(why), false) => {
                if dump {
                    eprintln!("--- {key}\n{why}");
                }
                unexpected.push(key);
            }
            (Err(why), true) => {
                if dump {
                    eprintln!("--- (listed) {key}\n{why}");
                }
            }
        }
    }
    for (test, (total, agree)) in &counts {
        eprintln!("{test}: {agree}/{total} agree");
    }
    let stale: Vec<&String> = gaps.keys().filter(|k| !seen.contains(*k)).collect();
    assert!(stale.is_empty(), "gaps naming no case: {stale:#?}");
    assert!(
        fixed.is_empty(),
        "listed as gaps but now agree (take them off): {fixed:#?}"
    );
    assert!(
        unexpected.is_empty(),
        "disagree with upstream: {unexpected:#?}"
    );
}
