//! Shared harness for the upstream conformance corpus (`tests/conformance/upstream`, described
//! by its FORMAT.md): locating and loading the corpus, the schema variants, preparing case
//! documents, comparing documents (FORMAT §2.3), the ordering step (§7, in [`order`]), the
//! known-gaps list, and the typed twins of the test schemas ([`merge_item`]).
//!
//! Several test binaries include this module and each uses a part of it.
#![allow(dead_code)]

pub mod create;
pub mod create_typed;
pub mod docs;
pub mod merge_item;
pub mod order;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use smp_core::{DocRole, PatchError, Schema};

/// The corpus folder, `tests/conformance/upstream` (vendored test data, Apache-2.0: see its
/// NOTICE). It is part of the repository, so a missing corpus fails the test that needs it.
pub fn corpus_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/upstream");
    assert!(
        dir.join("FORMAT.md").is_file(),
        "the upstream conformance corpus is missing: {} (it is part of the repository)",
        dir.display()
    );
    dir
}

/// Reads and parses one strict-JSON corpus file. Panics with the path on failure: a broken
/// corpus is a harness error, not a conformance result.
pub fn load_json(dir: &Path, file: &str) -> Value {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("cannot parse {}: {e}", path.display()))
}

/// The cases of a case file.
pub fn cases(file: &Value) -> &[Value] {
    file.get("cases")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Reads an upstream swagger file (shared data: `../shared/conformance/upstream/<file>`) with
/// the workspace's document reader, or `None` without it (the caller skips, and it is said).
/// The reader matters for `swagger-merge-item.json`, which is not strict JSON (one trailing
/// comma, FORMAT §1): upstream reads it with a YAML-based loader, and
/// `smp_core::input::parse_document` falls back to YAML flow syntax the same way.
pub fn upstream_swagger(file: &str) -> Option<Value> {
    let path = smp_testdata::file(&format!("conformance/upstream/{file}"))?;
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    Some(
        smp_core::input::parse_document(&text, DocRole::Schema)
            .unwrap_or_else(|e| panic!("cannot parse {}: {e}", path.display())),
    )
}

/// The four test schemas: the upstream file (shared data), the definition the cases name, and
/// this repository's record of what smp reads from that file (`tests/conformance/schemas`).
pub const SCHEMA_FILES: [(&str, &str, &str); 4] = [
    (
        "swagger-merge-item.json",
        "mergeItem",
        "mergeItem.openapiV2.json",
    ),
    (
        "swagger-merge-item-v3.json",
        "mergeItem",
        "mergeItem.openapiV3.json",
    ),
    (
        "swagger-precision-item.json",
        "precisionItem",
        "precisionItem.openapiV2.json",
    ),
    (
        "swagger-precision-item-v3.json",
        "precisionItem",
        "precisionItem.openapiV3.json",
    ),
];

/// The folder of the recorded test schemas, `tests/conformance/schemas`.
pub fn schemas_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/schemas")
}

/// A recorded test schema (see [`SCHEMA_FILES`]): the document as
/// `smp_core::openapi::write` writes it, holding only facts (shapes, patch strategies, merge
/// keys), so that every case runs without the upstream files.
pub fn recorded_schema(file: &str) -> Value {
    load_json(&schemas_dir(), file)
}

/// The schema variants this implementation runs (FORMAT §2.4). The `struct` variant is covered
/// by derived Rust types elsewhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Variant {
    /// `swagger-*-item.json` (recorded as `<schema>.openapiV2.json`), definition named by the
    /// case's `schema`.
    OpenapiV2,
    /// `swagger-*-item-v3.json` (recorded as `<schema>.openapiV3.json`),
    /// `components.schemas.<schema>`.
    OpenapiV3,
}

impl Variant {
    /// Both variants, in a fixed order.
    pub const ALL: [Variant; 2] = [Variant::OpenapiV2, Variant::OpenapiV3];

    /// The corpus spelling.
    pub fn name(self) -> &'static str {
        match self {
            Variant::OpenapiV2 => "openapiV2",
            Variant::OpenapiV3 => "openapiV3",
        }
    }

    /// Whether a file or case lists this variant in `schemaVariants` (absent: all).
    pub fn listed_in(self, holder: &Value) -> bool {
        match holder.get("schemaVariants").and_then(Value::as_array) {
            Some(list) => list.iter().any(|v| v.as_str() == Some(self.name())),
            None => true,
        }
    }
}

/// The four test schemas (FORMAT §8), loaded with `smp_core::openapi` from their records.
pub struct Schemas {
    merge_item: [Schema; 2],
    precision_item: [Schema; 2],
}

impl Schemas {
    /// Loads the recorded schemas. Panics if they do not load: every case depends on them.
    pub fn load() -> Schemas {
        let [merge_v2, merge_v3, precision_v2, precision_v3] =
            SCHEMA_FILES.map(|(_, def, file)| {
                Schema::from_openapi(&recorded_schema(file), def)
                    .unwrap_or_else(|e| panic!("cannot load {def} from {file}: {e}"))
            });
        Schemas {
            merge_item: [merge_v2, merge_v3],
            precision_item: [precision_v2, precision_v3],
        }
    }

    /// The schema a case names (`schema` member), for one variant.
    pub fn get(&self, name: &str, variant: Variant) -> Option<&Schema> {
        let i = match variant {
            Variant::OpenapiV2 => 0,
            Variant::OpenapiV3 => 1,
        };
        match name {
            "mergeItem" => Some(&self.merge_item[i]),
            "precisionItem" => Some(&self.precision_item[i]),
            _ => None,
        }
    }
}

/// Whether the case's documents pass through the ordering step (FORMAT §4).
pub fn sorts_inputs(case: &Value) -> bool {
    case.get("sortInputs").and_then(Value::as_bool) == Some(true)
}

/// The prepared document `name` of a case: from `upstreamSorted` when the case sorts its
/// inputs, otherwise as stored. `None` when the case does not supply it.
pub fn prepared<'c>(case: &'c Value, name: &str) -> Option<&'c Value> {
    if sorts_inputs(case) {
        case.get("upstreamSorted").and_then(|s| s.get(name))
    } else {
        case.get(name)
    }
}

/// A prepared document used as an *input*: absent and `null` both mean `{}` (FORMAT §2.2).
pub fn input(case: &Value, name: &str) -> Value {
    match prepared(case, name) {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(doc) => doc.clone(),
    }
}

/// The expected outcome of applying the two-way patch: `twoWayResult`, else `modified`.
pub fn expected_two_way_result(case: &Value) -> Option<&Value> {
    prepared(case, "twoWayResult").or_else(|| prepared(case, "modified"))
}

/// Parses a document text with the workspace's document reader
/// (`smp_core::input::parse_document`). Whether the root is an object is `apply`'s check.
pub fn parse_text(text: &str, role: DocRole) -> Result<Value, PatchError> {
    smp_core::input::parse_document(text, role)
}

// ---------------------------------------------------------------------------------------------
// Comparing documents (FORMAT §2.3)

/// Document equality as upstream judges it: objects by key set and values, arrays in order,
/// numbers by value (an integer equals a float exactly when the float is that integer; integers
/// compare exactly, never through a float).
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => numbers_eq(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

fn as_int(n: &serde_json::Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

fn numbers_eq(x: &serde_json::Number, y: &serde_json::Number) -> bool {
    match (as_int(x), as_int(y)) {
        (Some(i), Some(j)) => i == j,
        (Some(i), None) => y.as_f64().is_some_and(|f| float_is_int(f, i)),
        (None, Some(j)) => x.as_f64().is_some_and(|f| float_is_int(f, j)),
        (None, None) => x.as_f64() == y.as_f64(),
    }
}

/// Whether float `f` is exactly the integer `i`.
fn float_is_int(f: f64, i: i128) -> bool {
    // |i| < 2^64 here, so the range check keeps the cast exact; `f.trunc() == f` rules out
    // fractions, and comparing back in i128 rules out rounding of `i`.
    f.is_finite() && f.trunc() == f && f.abs() < 1.9e19 && (f as i128) == i
}

/// A compact description of how `got` differs from `expected`: up to `limit` differing paths,
/// each with both sides, then both documents (shortened).
pub fn diff(expected: &Value, got: &Value) -> String {
    let mut lines = Vec::new();
    collect_diffs(expected, got, &mut String::new(), &mut lines, 6);
    let mut out = String::new();
    for line in &lines {
        let _ = writeln!(out, "    {line}");
    }
    let _ = writeln!(out, "    expected: {}", short(expected, 400));
    let _ = write!(out, "    got:      {}", short(got, 400));
    out
}

fn collect_diffs(
    expected: &Value,
    got: &Value,
    path: &mut String,
    out: &mut Vec<String>,
    limit: usize,
) {
    if out.len() >= limit || json_eq(expected, got) {
        return;
    }
    let at = if path.is_empty() {
        "(root)"
    } else {
        path.as_str()
    };
    match (expected, got) {
        (Value::Object(e), Value::Object(g)) => {
            let keys: BTreeSet<&String> = e.keys().chain(g.keys()).collect();
            for key in keys {
                let len = path.len();
                let _ = write!(path, "/{key}");
                match (e.get(key), g.get(key)) {
                    (Some(x), Some(y)) => collect_diffs(x, y, path, out, limit),
                    (Some(x), None) => {
                        if out.len() < limit {
                            out.push(format!("at {path}: expected {}, missing", short(x, 120)));
                        }
                    }
                    (None, Some(y)) => {
                        if out.len() < limit {
                            out.push(format!("at {path}: unexpected {}", short(y, 120)));
                        }
                    }
                    (None, None) => {}
                }
                path.truncate(len);
            }
        }
        (Value::Array(e), Value::Array(g)) if e.len() == g.len() => {
            for (i, (x, y)) in e.iter().zip(g).enumerate() {
                let len = path.len();
                let _ = write!(path, "/{i}");
                collect_diffs(x, y, path, out, limit);
                path.truncate(len);
            }
        }
        _ => out.push(format!(
            "at {at}: expected {}, got {}",
            short(expected, 120),
            short(got, 120)
        )),
    }
}

/// Compact JSON, cut to about `max` characters.
pub fn short(v: &Value, max: usize) -> String {
    let text = v.to_string();
    if text.chars().count() <= max {
        return text;
    }
    let cut: String = text.chars().take(max).collect();
    format!("{cut}…")
}

// ---------------------------------------------------------------------------------------------
// Known gaps

/// One line of `tests/conformance/known-gaps.txt`:
/// `<case-id> <variant|*> <operation|*> -- <reason>`.
#[derive(Debug, Clone)]
pub struct Gap {
    /// Case id.
    pub case: String,
    /// A variant name or `*`.
    pub variant: String,
    /// An operation name or `*`.
    pub operation: String,
    /// Why it is a gap.
    pub reason: String,
    /// Line number in the file, for messages.
    pub line: usize,
}

impl Gap {
    /// Whether this entry covers a failure.
    pub fn covers(&self, case: &str, variant: &str, operation: &str) -> bool {
        self.case == case
            && (self.variant == "*" || self.variant == variant)
            && (self.operation == "*" || self.operation == operation)
    }
}

/// The known-gaps file of this package.
pub fn known_gaps_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/known-gaps.txt")
}

/// Parses the known-gaps file. A malformed line is an error (the list must stay exact).
pub fn parse_gaps(text: &str) -> Result<Vec<Gap>, String> {
    let mut gaps = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((head, reason)) = line.split_once(" -- ") else {
            return Err(format!(
                "known-gaps line {}: expected `<case-id> <variant|*> <operation|*> -- <reason>`",
                i + 1
            ));
        };
        let parts: Vec<&str> = head.split_whitespace().collect();
        let [case, variant, operation] = parts.as_slice() else {
            return Err(format!(
                "known-gaps line {}: expected exactly three fields before ` -- `",
                i + 1
            ));
        };
        if reason.trim().is_empty() {
            return Err(format!("known-gaps line {}: the reason is empty", i + 1));
        }
        gaps.push(Gap {
            case: (*case).to_owned(),
            variant: (*variant).to_owned(),
            operation: (*operation).to_owned(),
            reason: reason.trim().to_owned(),
            line: i + 1,
        });
    }
    Ok(gaps)
}

/// Reads the known-gaps file (absent: no gaps).
pub fn load_gaps() -> Result<Vec<Gap>, String> {
    match std::fs::read_to_string(known_gaps_path()) {
        Ok(text) => parse_gaps(&text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(format!("cannot read {}: {e}", known_gaps_path().display())),
    }
}

// ---------------------------------------------------------------------------------------------
// Tallying executions

/// One failed operation of one case under one variant.
#[derive(Debug, Clone)]
pub struct Failure {
    /// Case id.
    pub case: String,
    /// Variant name.
    pub variant: &'static str,
    /// Operation name (`applyTwoWay`, `applyThreeWay`, `apply`, `sort`, ...).
    pub operation: &'static str,
    /// What went wrong, possibly several lines.
    pub detail: String,
}

/// Counts case × variant executions of one suite against the known gaps, and remembers which
/// gap entries were used.
pub struct Tally<'g> {
    /// The suite name in the summary line (`apply`, `sort`).
    pub suite: &'static str,
    gaps: &'g [Gap],
    /// Gap lines that covered at least one failure.
    pub used: BTreeSet<usize>,
    /// Executions whose operations all passed.
    pub passed: usize,
    /// Executions with a failure not covered by a gap.
    pub failed: usize,
    /// Executions whose failures are all covered by gaps.
    pub known: usize,
    /// Failures not covered by a gap, for the final report.
    pub unexpected: Vec<Failure>,
}

impl<'g> Tally<'g> {
    /// An empty tally.
    pub fn new(suite: &'static str, gaps: &'g [Gap]) -> Tally<'g> {
        Tally {
            suite,
            gaps,
            used: BTreeSet::new(),
            passed: 0,
            failed: 0,
            known: 0,
            unexpected: Vec::new(),
        }
    }

    /// Records one case × variant execution and its failures (empty: passed). Prints each
    /// failure to stderr.
    pub fn record(&mut self, failures: Vec<Failure>) {
        if failures.is_empty() {
            self.passed += 1;
            return;
        }
        let mut all_known = true;
        for f in failures {
            let gap = self
                .gaps
                .iter()
                .find(|g| g.covers(&f.case, f.variant, f.operation));
            match gap {
                Some(g) => {
                    self.used.insert(g.line);
                    eprintln!(
                        "[{}] known gap: {} {} {} ({})",
                        self.suite, f.case, f.variant, f.operation, g.reason
                    );
                }
                None => {
                    all_known = false;
                    eprintln!(
                        "[{}] FAIL {} {} {}\n{}",
                        self.suite, f.case, f.variant, f.operation, f.detail
                    );
                    self.unexpected.push(f);
                }
            }
        }
        if all_known {
            self.known += 1;
        } else {
            self.failed += 1;
        }
    }

    /// The summary line.
    pub fn summary(&self) -> String {
        format!(
            "upstream conformance ({}): {} passed, {} failed, {} known gaps",
            self.suite, self.passed, self.failed, self.known
        )
    }
}

// These run in the `integration` test binary; the conformance binary has no libtest harness, so there
// the functions below are compiled but never called and their imports look unused.
#[cfg(test)]
#[allow(unused_imports)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn numbers_compare_by_value() {
        assert!(json_eq(&json!(1), &json!(1.0)));
        assert!(json_eq(&json!({"a": [1.0, 2]}), &json!({"a": [1, 2.0]})));
        assert!(!json_eq(&json!(1), &json!(1.5)));
        assert!(!json_eq(&json!(1), &json!("1")));
        let max: Value = serde_json::from_str("9223372036854775807").unwrap();
        let below: Value = serde_json::from_str("9223372036854775806").unwrap();
        assert!(json_eq(&max, &max.clone()));
        // Through f64 these two would be equal; compared exactly they are not.
        assert!(!json_eq(&max, &below));
        assert!(!json_eq(&max, &json!(9.223372036854776e18)));
        assert!(json_eq(&json!(u64::MAX), &json!(u64::MAX)));
        assert!(!json_eq(&json!(-1), &json!(u64::MAX)));
        let big: Value = serde_json::from_str("1.7976931348623157e+308").unwrap();
        assert!(json_eq(&big, &json!(f64::MAX)));
    }

    #[test]
    fn structure_and_order_matter() {
        assert!(!json_eq(&json!([1, 2]), &json!([2, 1])));
        assert!(json_eq(&json!({"a": 1, "b": 2}), &json!({"b": 2, "a": 1})));
        assert!(!json_eq(&json!({"a": null}), &json!({})));
        assert!(!json_eq(&json!({}), &json!({"a": null})));
        let d = diff(&json!({"a": [1, 2], "b": 1}), &json!({"a": [2, 1], "c": 1}));
        assert!(d.contains("at /a/0: expected 1, got 2"), "{d}");
        assert!(d.contains("at /b: expected 1, missing"), "{d}");
        assert!(d.contains("at /c: unexpected 1"), "{d}");
    }

    #[test]
    fn gap_lines() {
        let gaps = parse_gaps("# c\n\nx-1 * apply -- because\ny-2 openapiV2 * -- why\n").unwrap();
        assert_eq!(gaps.len(), 2);
        assert!(gaps[0].covers("x-1", "openapiV3", "apply"));
        assert!(!gaps[0].covers("x-1", "openapiV3", "sort"));
        assert!(gaps[1].covers("y-2", "openapiV2", "sort"));
        assert!(!gaps[1].covers("y-2", "openapiV3", "sort"));
        assert!(parse_gaps("x-1 * apply").is_err());
        assert!(parse_gaps("x-1 * -- r").is_err());
        assert!(parse_gaps("x-1 * a --  ").is_err());
    }
}
