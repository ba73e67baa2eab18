//! The unit tests of apiextensions-apiserver v0.34.0 (Kubernetes 1.34) for custom resources,
//! written down as data in `tests/data/customresource/` (each file names its source and the
//! call each case stands for): pruning, defaulting, the drop of nulls, set and map lists, the
//! OpenAPI checks, ratcheting and CEL rules. Every case runs; those the library does not yet
//! agree with are listed, each with its reason, in `tests/data/customresource/gaps.txt`, and
//! the test fails both when a listed case passes (the list must shrink) and when an unlisted
//! one fails.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use smp_admission::customresource::structural::Structural;
use smp_admission::customresource::{cel, defaulting, listtype, openapi, pruning};

fn data(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/customresource")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("JSON")
}

fn schema(case: &Value) -> Option<Structural> {
    match &case["schema"] {
        Value::Null => None,
        s => Some(Structural::from_schema(s).expect("a schema")),
    }
}

fn lines(errors: &[smp_admission::validation::FieldError]) -> Vec<String> {
    errors.iter().map(ToString::to_string).collect()
}

/// Whether one case agrees with upstream; `Err` says how it does not.
fn run(kind: &str, case: &Value) -> Result<(), String> {
    let s = schema(case);
    let empty = Structural::default();
    let sref = s.as_ref().unwrap_or(&empty);
    match kind {
        "pruning" => {
            let mut object = case["object"].clone();
            let root = case["isResourceRoot"].as_bool().unwrap_or(false);
            let unknown = pruning::prune_with(&mut object, s.as_ref(), root);
            if object != case["expected"] {
                return Err(format!("object {object}"));
            }
            let expected: Vec<String> =
                serde_json::from_value(case["unknown"].clone()).unwrap_or_default();
            if unknown != expected {
                return Err(format!("unknown {unknown:?}"));
            }
        }
        "defaulting" | "prunenulls" => {
            let mut object = case["object"].clone();
            if let Some(s) = &s {
                if kind == "defaulting" {
                    defaulting::default(&mut object, s);
                } else {
                    defaulting::prune_non_nullable_nulls(&mut object, s);
                }
            }
            if object != case["expected"] {
                return Err(format!("object {object}"));
            }
        }
        "listtype" => {
            let errors = listtype::validate_at(&case["object"], sref, "root");
            let got: BTreeSet<(String, String)> = errors
                .iter()
                .map(|e| (e.kind.reason().to_owned(), e.field.clone()))
                .collect();
            let types: Vec<String> =
                serde_json::from_value(case["expected_types"].clone()).unwrap();
            let fields: Vec<String> =
                serde_json::from_value(case["expected_fields"].clone()).unwrap();
            let want: BTreeSet<(String, String)> = types.into_iter().zip(fields).collect();
            if got != want {
                return Err(format!("errors {got:?}"));
            }
        }
        "openapi" => {
            let mut got: BTreeSet<String> = lines(&openapi::validate(&case["object"], sref))
                .into_iter()
                .collect();
            let old = case.get("old").filter(|o| !o.is_null());
            got.extend(lines(&cel::validate_at(
                &case["object"],
                old,
                sref,
                "",
                false,
            )));
            let want: BTreeSet<String> = serde_json::from_value(case["expected"].clone()).unwrap();
            if got != want {
                return Err(format!("errors {got:?}"));
            }
        }
        "ratcheting" => {
            let errors = openapi::validate_update(&case["object"], &case["old"], sref);
            let valid = errors.is_empty();
            if Some(valid) != case["expected_valid"].as_bool() {
                return Err(format!("valid {valid}: {:?}", lines(&errors)));
            }
        }
        "cel" => {
            let old = case.get("old").filter(|o| !o.is_null());
            let root = case["isRoot"].as_bool().unwrap_or(false);
            let errors = cel::validate_at(&case["object"], old, sref, "root", root);
            if let Some(types) = case.get("expected_types") {
                let types: Vec<String> = serde_json::from_value(types.clone()).unwrap();
                let fields: Vec<String> =
                    serde_json::from_value(case["expected_fields"].clone()).unwrap();
                let got: Vec<(String, String)> = errors
                    .iter()
                    .map(|e| (e.kind.reason().to_owned(), e.field.clone()))
                    .collect();
                let want: Vec<(String, String)> = types.into_iter().zip(fields).collect();
                if got != want {
                    return Err(format!("errors {got:?}"));
                }
                return Ok(());
            }
            let got = lines(&errors);
            let want: Vec<String> = serde_json::from_value(case["expected"].clone()).unwrap();
            let ok = if case["match"] == "contains" {
                got.len() == want.len() && want.iter().all(|w| got.iter().any(|g| g.contains(w)))
            } else {
                let got: BTreeSet<&String> = got.iter().collect();
                let want: BTreeSet<&String> = want.iter().collect();
                got == want
            };
            if !ok {
                return Err(format!("errors {got:?}"));
            }
        }
        other => panic!("unknown kind {other}"),
    }
    Ok(())
}

#[test]
fn upstream_custom_resource_cases() {
    let gaps = common::gaps("customresource/gaps.txt");
    let mut failures = Vec::new();
    let mut newly_passing = Vec::new();
    let mut counts = Vec::new();
    // `SMP_DUMP_FAILURES=FILE` writes the unlisted failures there, one JSON object a line (to
    // sort them into gaps.txt).
    let mut dumped = Vec::new();
    for file in [
        "pruning",
        "defaulting",
        "prunenulls",
        "listtype",
        "openapi",
        "ratcheting",
        "cel",
    ] {
        let doc = data(&format!("{file}.json"));
        let kind = file.to_owned();
        let cases = doc["cases"].as_array().expect("cases");
        let (mut passed, mut gapped) = (0, 0);
        for case in cases {
            let name = format!("{file}: {}", case["name"].as_str().unwrap_or("?"));
            let outcome = std::panic::catch_unwind(|| run(&kind, case))
                .unwrap_or_else(|_| Err("panicked".to_owned()));
            match (outcome, gaps.contains_key(&name)) {
                (Ok(()), false) => passed += 1,
                (Ok(()), true) => newly_passing.push(name),
                (Err(_), true) => gapped += 1,
                (Err(e), false) => {
                    dumped.push(serde_json::json!({"case": name, "got": e}));
                    failures.push(format!("{name}\n    {e}"));
                }
            }
        }
        counts.push(format!(
            "{file}: {} cases, {passed} pass, {gapped} listed gaps",
            cases.len()
        ));
    }
    eprintln!("{}", counts.join("\n"));
    if let Ok(path) = std::env::var("SMP_DUMP_FAILURES") {
        let text: Vec<String> = dumped.iter().map(Value::to_string).collect();
        std::fs::write(path, text.join("\n")).expect("writable");
    }
    assert!(
        failures.is_empty(),
        "{} unlisted failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        newly_passing.is_empty(),
        "listed as gaps but passing (take them off gaps.txt):\n{}",
        newly_passing.join("\n")
    );
}
