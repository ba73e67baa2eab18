//! The validation tests of Kubernetes v1.34, as data (`tests/data/validation/*.json`): each
//! case's object is validated (as an update of `old` when it has one) and the field errors
//! compared with the expected ones, in order: type and field always, the message when the case
//! gives it. A case with `"subresource": "status"` is a write to the status endpoint. A case
//! with a `gap` names what is not done yet and is counted, not run.

use crate::common;

use std::path::Path;

use serde_json::Value;
use smp_admission::validation::{
    ErrorType, errors_on_create, errors_on_status_update, errors_on_update,
};

fn run(file: &Path) -> (usize, usize, Vec<String>) {
    let data: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let (mut ran, mut gaps) = (0, 0);
    let mut failures = Vec::new();
    for case in data["cases"].as_array().expect("cases") {
        let name = case["name"].as_str().unwrap_or("?");
        if let Some(gap) = case.get("gap").and_then(Value::as_str) {
            eprintln!("{name}: not run: {gap}");
            gaps += 1;
            continue;
        }
        let object = &case["object"];
        let status_write = case.get("subresource").and_then(Value::as_str) == Some("status");
        let found = match case.get("old").filter(|o| !o.is_null()) {
            Some(old) if status_write => errors_on_status_update(object, old),
            Some(old) => errors_on_update(object, old),
            None => errors_on_create(object),
        }
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected = case["errors"].as_array().expect("errors");
        let mismatch = found.len() != expected.len()
            || found.iter().zip(expected).any(|(f, e)| {
                ErrorType::from_reason(e["type"].as_str().unwrap_or("")) != Some(f.kind)
                    || e["field"].as_str() != Some(f.field.as_str())
                    || e.get("detail")
                        .and_then(Value::as_str)
                        .is_some_and(|d| d != f.detail)
            });
        if mismatch {
            let found: Vec<String> = found
                .iter()
                .map(|f| format!("{} {}: {}", f.kind.reason(), f.field, f.detail))
                .collect();
            failures.push(format!(
                "{name}:\n  expected {}\n  found    {found:#?}",
                serde_json::to_string(expected).unwrap()
            ));
        }
        ran += 1;
    }
    (ran, gaps, failures)
}

#[test]
fn upstream_validation_cases() {
    common::run_data_files("validation", "validation", run);
}
