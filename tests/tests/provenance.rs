//! The repository holds only its own words: no sentence of the Kubernetes OpenAPI document's
//! descriptions, nor of the third-party CRDs', appears in any file here (generated code and
//! its doc comments included). Facts (field names, types, patch metadata) are welcome; prose is
//! not.
//!
//! Every description is cut into runs of [`RUN`] consecutive words (lower-cased, punctuation and
//! comment markers dropped, so wrapping and `///` do not hide a copy); a run that appears in a
//! file of the repository is reported with the file. Runs made mostly of numbers, single
//! letters and short words (regular expressions, lists of values) are facts and are not
//! counted, nor are runs inside the API server's own messages listed in
//! `tests/provenance-exceptions.txt` (its 422 texts, which smp must print word for word and
//! the descriptions happen to quote). The documents are shared data: without them the test
//! skips, saying so.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::Value;
use smp_core::DocRole;

/// Words in a run: long enough that a shared run is a copied phrase, not a common one.
const RUN: usize = 8;

/// Directories that are not the repository's text (build output, fuzzing state, VCS, the
/// packages' installed dependencies and caches).
const SKIPPED_DIRS: [&str; 7] = [
    "target",
    ".git",
    "corpus",
    "artifacts",
    "coverage",
    "node_modules",
    "__pycache__",
];

#[test]
fn no_upstream_description_appears_in_the_repository() {
    let Some(swagger) = smp_testdata::file("openapi/swagger.json") else {
        return;
    };
    let Some(crds) = smp_testdata::file("crds") else {
        return;
    };
    let mut descriptions = Vec::new();
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(swagger).expect("readable")).expect("JSON");
    collect_descriptions(&doc, &mut descriptions);
    for file in files_under(&crds) {
        if file.extension().is_some_and(|e| e == "yaml") {
            let text = std::fs::read_to_string(&file).expect("readable");
            if let Ok(docs) = smp_core::parse_documents(&text, DocRole::Schema) {
                for d in docs
                    .iter()
                    .filter(|d| d["kind"] == "CustomResourceDefinition")
                {
                    collect_descriptions(d, &mut descriptions);
                }
            }
        }
    }
    let mut runs: HashSet<Vec<String>> = HashSet::new();
    for d in &descriptions {
        let words = words(d);
        for run in words.windows(RUN).filter(|r| is_prose(r)) {
            runs.insert(run.to_vec());
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let exceptions = std::fs::read_to_string(root.join("tests/provenance-exceptions.txt"))
        .expect("the exceptions file");
    for line in exceptions.lines().filter(|l| !l.starts_with('#')) {
        for run in words(line).windows(RUN) {
            runs.remove(run);
        }
    }
    assert!(
        runs.len() > 50_000,
        "only {} runs: the documents changed?",
        runs.len()
    );

    let mut found: HashMap<PathBuf, (usize, String)> = HashMap::new();
    let mut scanned = 0;
    for file in files_under(&root) {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue; // not text
        };
        scanned += 1;
        for run in words(&text).windows(RUN) {
            if runs.contains(run) {
                let entry = found.entry(file.clone()).or_insert((0, run.join(" ")));
                entry.0 += 1;
            }
        }
    }
    assert!(scanned > 300, "only {scanned} files scanned");
    let mut report: Vec<String> = found
        .iter()
        .map(|(file, (n, first))| format!("{}: {n} runs, first \"{first}\"", file.display()))
        .collect();
    report.sort();
    assert!(
        report.is_empty(),
        "upstream description text in the repository:\n{}",
        report.join("\n")
    );
}

/// Every `description` string in a JSON or YAML document.
fn collect_descriptions(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("description", Value::String(s)) => out.push(s.clone()),
                    _ => collect_descriptions(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_descriptions(v, out)),
        _ => {}
    }
}

/// The words of a text, lower-cased: runs of letters, digits and apostrophes.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether a run reads as prose: most of its words are words of three letters or more.
fn is_prose(run: &[String]) -> bool {
    let words = run
        .iter()
        .filter(|w| w.chars().count() >= 3 && w.chars().all(|c| c.is_alphabetic() || c == '\''))
        .count();
    words * 4 >= run.len() * 3
}

/// Every file under `dir`, but for build output and VCS state.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if path.is_dir() {
                if !SKIPPED_DIRS.iter().any(|s| name == *s) {
                    pending.push(path);
                }
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}
