//! The warning tests of Kubernetes v1.34, as data (`tests/data/warnings/*.json`): each case's
//! object is created (or, with an `old`, updated) and the warnings compared with the
//! expected texts. A file's `"order"` says how: `"server"` compares them in order, `"sorted"`
//! as sorted lists (where the server's order follows Go's random map order); a case may set
//! its own `"order"`. A case with a `gap` names what is not done yet and is counted, not run.

use crate::common;

use std::path::Path;

use serde_json::Value;
use smp_admission::warnings::{warnings_on_create, warnings_on_update};

fn run(file: &Path) -> (usize, usize, Vec<String>) {
    let data: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let file_order = data["order"].as_str().unwrap_or("server");
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
        let mut found = match case.get("old").filter(|o| !o.is_null()) {
            Some(old) => warnings_on_update(object, old),
            None => warnings_on_create(object),
        };
        let mut expected: Vec<String> = case["warnings"]
            .as_array()
            .expect("warnings")
            .iter()
            .map(|w| w.as_str().expect("a warning is a string").to_owned())
            .collect();
        if case["order"].as_str().unwrap_or(file_order) == "sorted" {
            found.sort();
            expected.sort();
        }
        if found != expected {
            failures.push(format!(
                "{name}:\n  expected {expected:#?}\n  found    {found:#?}"
            ));
        }
        ran += 1;
    }
    (ran, gaps, failures)
}

#[test]
fn upstream_warning_cases() {
    common::run_data_files("warnings", "warning", run);
}
