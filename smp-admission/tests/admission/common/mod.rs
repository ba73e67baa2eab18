//! What the tests that run upstream cases as data share. Each test crate uses a part.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;

/// The listed gaps of a gaps file (`tests/data/<path>`): each case's line, to the reason of
/// the `# reason: ` line above it. A missing file lists none.
pub fn gaps(relative: &str) -> BTreeMap<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(relative);
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut gaps = BTreeMap::new();
    let mut reason = String::new();
    for line in text.lines() {
        if let Some(r) = line.strip_prefix("# reason: ") {
            reason = r.to_owned();
        } else if !line.trim().is_empty() && !line.starts_with('#') {
            gaps.insert(line.to_owned(), reason.clone());
        }
    }
    gaps
}

/// Runs `run` over each `.json` file of `tests/data/<dir>`, in name order: `run` gives a
/// file's cases run, cases listed as gaps, and its failures. Prints each file's counts, and
/// fails when no case ran or any differed, each file's failures under a line naming it.
pub fn run_data_files(dir: &str, what: &str, run: impl Fn(&Path) -> (usize, usize, Vec<String>)) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut total = 0;
    let mut failures = Vec::new();
    for file in &files {
        let (ran, gaps, failed) = run(file);
        eprintln!("{}: {ran} cases, {gaps} gaps", file.display());
        total += ran;
        if !failed.is_empty() {
            failures.push(format!(
                "{}: {} of {ran} cases differ:",
                file.display(),
                failed.len()
            ));
            failures.extend(failed);
        }
    }
    assert!(total > 0, "no {what} cases ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// JSON trees of `leaf` values, at most `depth` levels deep: arrays of up to three items and
/// objects of up to five members named by the pattern `keys` (the members a test's code
/// reads, and others).
pub fn json_tree(
    leaf: proptest::strategy::BoxedStrategy<serde_json::Value>,
    keys: &'static str,
    depth: u32,
) -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
    use proptest::prelude::*;
    use serde_json::Value;
    leaf.prop_recursive(depth, 96, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(keys, inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}
