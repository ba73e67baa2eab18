//! The upstream Kubernetes strategic-merge-patch corpus, apply side (FORMAT.md §5–§7).
//!
//! Runs every apply-side operation of the corpus once per OpenAPI schema variant, using the
//! *stored* patches (patch creation is tested elsewhere), plus the ordering step of the
//! upstream test suite against `sort-merge-list.json` and the precomputed `upstreamSorted`
//! documents. Prints one summary line per suite. Fails on any failure that
//! `tests/conformance/known-gaps.txt` does not list, and on any listed gap that no longer
//! fails.
//!
//! What is compared, as upstream does (its `testPatchApplication`, FORMAT §5.2, §5.5, §5.6):
//! the output of `apply` *as it is* against the *prepared* expectation. For `sortInputs` cases
//! the inputs and expectations are the ordered documents of `upstreamSorted`, but the output of
//! the function under test is never reordered, so list order produced by `apply` counts. A
//! failure that would pass after ordering is flagged as an order-only difference.
//!
//! This is a `harness = false` test so that its summary lines are printed by a plain
//! `cargo test` (libtest would capture them).

mod support;

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::Value;
use smp_core::{DocRole, Node, PatchError, Schema};
use support::{Failure, Schemas, Tally, Variant};

fn main() {
    let outcome = catch_unwind(|| {
        lenient_reader_reads_swagger_v2_as_meant();
        upstream_conformance();
    });
    if outcome.is_err() {
        std::process::exit(1);
    }
}

fn upstream_conformance() {
    let Some(dir) = support::corpus_dir() else {
        println!("upstream conformance (apply): skipped, ../shared/conformance not found");
        println!("upstream conformance (sort): skipped, ../shared/conformance not found");
        return;
    };
    let gaps = support::load_gaps().unwrap_or_else(|e| panic!("{e}"));
    let schemas = Schemas::load(&dir);

    let mut sort = Tally::new("sort", &gaps);
    run_sort_file(&dir, &schemas, &mut sort);
    for file in ["two-and-three-way.json", "custom-apply.json"] {
        run_prepare_check(&dir, file, &schemas, &mut sort);
    }

    let mut apply = Tally::new("apply", &gaps);
    for file in [
        "two-and-three-way.json",
        "raw-cases.json",
        "raw-extension.json",
    ] {
        run_create_tables(&dir, file, &schemas, &mut apply);
    }
    run_custom_apply(&dir, &schemas, &mut apply);
    run_exact_text(&dir, "number-conversion.json", &schemas, &mut apply);
    run_exact_text(&dir, "unknown-field.json", &schemas, &mut apply);
    run_bad_arguments(&dir, &schemas, &mut apply);

    println!("{}", sort.summary());
    println!("{}", apply.summary());

    let mut problems = Vec::new();
    for f in sort.unexpected.iter().chain(&apply.unexpected) {
        problems.push(format!(
            "unlisted failure: {} {} {}",
            f.case, f.variant, f.operation
        ));
    }
    for gap in &gaps {
        if !sort.used.contains(&gap.line) && !apply.used.contains(&gap.line) {
            problems.push(format!(
                "stale known gap (line {}): {} {} {} now passes or matches nothing; remove it",
                gap.line, gap.case, gap.variant, gap.operation
            ));
        }
    }
    let shown: Vec<&str> = problems.iter().take(40).map(String::as_str).collect();
    assert!(
        problems.is_empty(),
        "{} problem(s) (details above on stderr){}:\n{}",
        problems.len(),
        if problems.len() > shown.len() {
            ", first 40"
        } else {
            ""
        },
        shown.join("\n")
    );
}

/// The v2 merge-item schema is not strict JSON; the harness reads it with the workspace's
/// lenient reader. Check that this reads exactly what the file means: the same value as strict
/// JSON once its one trailing comma is dropped.
fn lenient_reader_reads_swagger_v2_as_meant() {
    let Some(dir) = support::corpus_dir() else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("swagger-merge-item.json")).unwrap();
    let bad = "\"description\": \"JSON field\",";
    assert_eq!(text.matches(bad).count(), 1, "the corpus file changed");
    let strict: Value =
        serde_json::from_str(&text.replacen(bad, "\"description\": \"JSON field\"", 1)).unwrap();
    assert!(serde_json::from_str::<Value>(&text).is_err());
    assert_eq!(
        support::load_swagger(&dir, "swagger-merge-item.json"),
        strict
    );
}

// ---------------------------------------------------------------------------------------------
// One apply step

/// What an apply step must produce.
enum Expect<'c> {
    /// Success with this document.
    Doc(&'c Value),
    /// Failure whose message contains this text.
    ErrorContaining(&'c str),
    /// Failure whose message starts with this text (upstream's exact message is a prefix of
    /// ours, which adds the role and the parser's detail; see known-gaps.txt).
    ErrorStartingWith(&'c str),
}

/// Runs `smp_core::apply`, turning a panic into an error message so one bad case cannot hide
/// the others.
fn run_apply(
    original: &Value,
    patch: &Value,
    schema: &Schema,
) -> Result<Result<Value, PatchError>, String> {
    catch_unwind(AssertUnwindSafe(|| {
        smp_core::apply(original, patch, Node::from(schema))
    }))
    .map_err(|panic| {
        let msg = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(non-string panic)".to_owned());
        format!("apply panicked: {msg}")
    })
}

/// Judges one apply step; `Err` holds the failure description.
fn judge(
    outcome: Result<Result<Value, PatchError>, String>,
    expect: &Expect<'_>,
    reorder: Option<Node<'_>>,
) -> Result<(), String> {
    let result = outcome?;
    match (expect, result) {
        (Expect::Doc(want), Ok(got)) => {
            if support::json_eq(want, &got) {
                return Ok(());
            }
            let mut detail = support::diff(want, &got);
            // Diagnostic only: does ordering the output make it pass?
            if let Some(node) = reorder {
                if let Ok(sorted) = support::order::order(&got, node) {
                    if support::json_eq(want, &sorted) {
                        detail.push_str(
                            "\n    (order-only difference: the output equals the expectation after the ordering step)",
                        );
                    }
                }
            }
            Err(detail)
        }
        (Expect::Doc(want), Err(e)) => Err(format!(
            "    unexpected error: {e}\n    expected: {}",
            support::short(want, 400)
        )),
        (Expect::ErrorContaining(text), Err(e)) => {
            let msg = e.to_string();
            if msg.contains(text) {
                Ok(())
            } else {
                Err(format!(
                    "    expected an error containing {text:?}, got error: {msg}"
                ))
            }
        }
        (Expect::ErrorStartingWith(text), Err(e)) => {
            let msg = e.to_string();
            if msg.starts_with(text) {
                Ok(())
            } else {
                Err(format!(
                    "    expected an error starting with {text:?}, got error: {msg}"
                ))
            }
        }
        (Expect::ErrorContaining(text) | Expect::ErrorStartingWith(text), Ok(got)) => Err(format!(
            "    expected an error ({text:?}), got success: {}",
            support::short(&got, 400)
        )),
    }
}

fn failure(case: &Value, variant: Variant, operation: &'static str, detail: String) -> Failure {
    Failure {
        case: case_id(case).to_owned(),
        variant: variant.name(),
        operation,
        detail,
    }
}

fn case_id(case: &Value) -> &str {
    case.get("id").and_then(Value::as_str).unwrap_or("(no id)")
}

fn lists(case: &Value, operation: &str) -> bool {
    case.get("operations")
        .and_then(Value::as_array)
        .is_some_and(|ops| ops.iter().any(|o| o.as_str() == Some(operation)))
}

fn schema_of<'s>(case: &Value, schemas: &'s Schemas, variant: Variant) -> &'s Schema {
    let name = case.get("schema").and_then(Value::as_str).unwrap_or("");
    schemas
        .get(name, variant)
        .unwrap_or_else(|| panic!("{}: unknown schema {name:?}", case_id(case)))
}

// ---------------------------------------------------------------------------------------------
// Suites

/// `two-and-three-way.json`, `raw-cases.json`, `raw-extension.json`: the stored two-way patch
/// applied to `original`, the stored three-way patch applied to `current` (§5.2, §5.5).
fn run_create_tables(dir: &std::path::Path, file: &str, schemas: &Schemas, tally: &mut Tally<'_>) {
    let doc = support::load_json(dir, file);
    for case in support::cases(&doc) {
        for variant in Variant::ALL {
            if !variant.listed_in(&doc) {
                continue;
            }
            let schema = schema_of(case, schemas, variant);
            let reorder = support::sorts_inputs(case).then(|| schema.root());
            let error = case.get("expectedError").and_then(Value::as_str);
            let mut failures = Vec::new();

            if lists(case, "applyTwoWay") {
                let expect = match (error, support::expected_two_way_result(case)) {
                    (Some(text), _) => Some(Expect::ErrorContaining(text)),
                    (None, Some(want)) => Some(Expect::Doc(want)),
                    (None, None) => None,
                };
                let verdict = match (support::prepared(case, "twoWay"), expect) {
                    (Some(patch), Some(expect)) => {
                        let original = support::input(case, "original");
                        judge(run_apply(&original, patch, schema), &expect, reorder)
                    }
                    _ => {
                        Err("    malformed case: no stored twoWay patch or expectation".to_owned())
                    }
                };
                if let Err(detail) = verdict {
                    failures.push(failure(case, variant, "applyTwoWay", detail));
                }
            }

            if lists(case, "applyThreeWay") {
                let expect = match (error, support::prepared(case, "result")) {
                    (Some(text), _) => Some(Expect::ErrorContaining(text)),
                    (None, Some(want)) => Some(Expect::Doc(want)),
                    (None, None) => None,
                };
                let verdict = match (support::prepared(case, "threeWay"), expect) {
                    (Some(patch), Some(expect)) => {
                        let current = support::input(case, "current");
                        judge(run_apply(&current, patch, schema), &expect, reorder)
                    }
                    _ => Err("    malformed case: no stored threeWay patch or result".to_owned()),
                };
                if let Err(detail) = verdict {
                    failures.push(failure(case, variant, "applyThreeWay", detail));
                }
            }
            tally.record(failures);
        }
    }
}

/// `custom-apply.json`: hand-written patches, some of which must fail (§5.6).
fn run_custom_apply(dir: &std::path::Path, schemas: &Schemas, tally: &mut Tally<'_>) {
    let doc = support::load_json(dir, "custom-apply.json");
    for case in support::cases(&doc) {
        for variant in Variant::ALL {
            if !variant.listed_in(&doc) || !lists(case, "apply") {
                continue;
            }
            let schema = schema_of(case, schemas, variant);
            let reorder = support::sorts_inputs(case).then(|| schema.root());
            let expect = match case.get("expectedError").and_then(Value::as_str) {
                Some(text) => Some(Expect::ErrorContaining(text)),
                None => support::expected_two_way_result(case).map(Expect::Doc),
            };
            let original = support::input(case, "original");
            let patch = support::input(case, "patch");
            let verdict = match expect {
                Some(expect) => judge(run_apply(&original, &patch, schema), &expect, reorder),
                None => Err("    malformed case: no expectation".to_owned()),
            };
            let failures = match verdict {
                Ok(()) => Vec::new(),
                Err(detail) => vec![failure(case, variant, "apply", detail)],
            };
            tally.record(failures);
        }
    }
}

/// `number-conversion.json` and `unknown-field.json` (§5.7), apply side: the stored patches
/// applied to the parsed `text.*` documents (parsed with serde_json, which keeps int64 exact).
/// A case with neither stored patch (creation must fail) has no apply step and is not counted.
fn run_exact_text(dir: &std::path::Path, file: &str, schemas: &Schemas, tally: &mut Tally<'_>) {
    let doc = support::load_json(dir, file);
    let parse = |case: &Value, name: &str| -> Option<Value> {
        let text = case.get("text")?.get(name)?.as_str()?;
        Some(
            serde_json::from_str(text)
                .unwrap_or_else(|e| panic!("{}: text.{name} does not parse: {e}", case_id(case))),
        )
    };
    for case in support::cases(&doc) {
        for variant in Variant::ALL {
            if !variant.listed_in(&doc) {
                continue;
            }
            let schema = schema_of(case, schemas, variant);
            let mut failures = Vec::new();
            let mut ran = false;
            let steps: [(&'static str, &str, &str, &str); 2] = [
                ("applyTwoWay", "original", "twoWay", "twoWayResult"),
                ("applyThreeWay", "current", "threeWay", "result"),
            ];
            for (operation, base, patch, result) in steps {
                if !lists(case, operation) {
                    continue;
                }
                let Some(patch) = parse(case, patch) else {
                    continue;
                };
                ran = true;
                let verdict = match (parse(case, base), parse(case, result)) {
                    (Some(base), Some(want)) => {
                        judge(run_apply(&base, &patch, schema), &Expect::Doc(&want), None)
                    }
                    _ => Err(format!(
                        "    malformed case: text.{base} or text.{result} missing"
                    )),
                };
                if let Err(detail) = verdict {
                    failures.push(failure(case, variant, operation, detail));
                }
            }
            if ran {
                tally.record(failures);
            }
        }
    }
}

/// `bad-arguments.json`: invalid JSON input must fail with `invalid JSON document`. The
/// Go-specific cases (no schema value, a non-struct schema value) cannot be expressed here.
fn run_bad_arguments(dir: &std::path::Path, schemas: &Schemas, tally: &mut Tally<'_>) {
    let doc = support::load_json(dir, "bad-arguments.json");
    for case in support::cases(&doc) {
        if case.get("goSpecific").and_then(Value::as_bool) == Some(true) {
            continue;
        }
        let text = |name: &str| {
            case.get("text")
                .and_then(|t| t.get(name))
                .and_then(Value::as_str)
                .unwrap_or("")
        };
        let Some(expected) = case.get("expectedError").and_then(Value::as_str) else {
            panic!("{}: no expectedError", case_id(case));
        };
        for variant in Variant::ALL {
            if !variant.listed_in(case) {
                continue;
            }
            let schema = schema_of(case, schemas, variant);
            let outcome = match (
                support::parse_text(text("original"), DocRole::Original),
                support::parse_text(text("patch"), DocRole::Patch),
            ) {
                (Ok(original), Ok(patch)) => run_apply(&original, &patch, schema),
                (Err(e), _) | (_, Err(e)) => Ok(Err(e)),
            };
            let kind_ok = match &outcome {
                Ok(Err(PatchError::InvalidDocument { .. })) | Ok(Ok(_)) | Err(_) => true,
                Ok(Err(_)) => false,
            };
            let mut verdict = judge(outcome.clone(), &Expect::ErrorStartingWith(expected), None);
            if verdict.is_ok() && !kind_ok {
                verdict = Err(format!(
                    "    expected PatchError::InvalidDocument, got {:?}",
                    outcome.ok().and_then(Result::err)
                ));
            }
            let failures = match verdict {
                Ok(()) => Vec::new(),
                Err(detail) => vec![failure(case, variant, "apply", detail)],
            };
            tally.record(failures);
        }
    }
}

/// `sort-merge-list.json`: the ordering step itself (§5.9).
fn run_sort_file(dir: &std::path::Path, schemas: &Schemas, tally: &mut Tally<'_>) {
    let doc = support::load_json(dir, "sort-merge-list.json");
    for case in support::cases(&doc) {
        for variant in Variant::ALL {
            if !variant.listed_in(&doc) {
                continue;
            }
            let schema = schema_of(case, schemas, variant);
            let original = support::input(case, "original");
            let verdict = match (
                support::order::order(&original, schema.root()),
                case.get("sorted"),
            ) {
                (Ok(got), Some(want)) if support::json_eq(want, &got) => Ok(()),
                (Ok(got), Some(want)) => Err(support::diff(want, &got)),
                (Err(e), _) => Err(format!("    ordering failed: {e}")),
                (Ok(_), None) => Err("    malformed case: no `sorted` document".to_owned()),
            };
            let failures = match verdict {
                Ok(()) => Vec::new(),
                Err(detail) => vec![failure(case, variant, "sort", detail)],
            };
            tally.record(failures);
        }
    }
}

/// Every `upstreamSorted` document must be what the ordering step makes of the stored one;
/// this checks the harness's ordering step on all the data upstream ordered.
fn run_prepare_check(dir: &std::path::Path, file: &str, schemas: &Schemas, tally: &mut Tally<'_>) {
    let doc = support::load_json(dir, file);
    for case in support::cases(&doc) {
        if !support::sorts_inputs(case) {
            continue;
        }
        let Some(Value::Object(sorted)) = case.get("upstreamSorted") else {
            panic!("{}: sortInputs without upstreamSorted", case_id(case));
        };
        for variant in Variant::ALL {
            if !variant.listed_in(&doc) {
                continue;
            }
            let schema = schema_of(case, schemas, variant);
            let mut failures = Vec::new();
            for (name, want) in sorted {
                let Some(stored) = case.get(name) else {
                    failures.push(failure(
                        case,
                        variant,
                        "prepare",
                        format!("    upstreamSorted.{name} has no stored document"),
                    ));
                    continue;
                };
                match support::order::order(stored, schema.root()) {
                    Ok(got) if support::json_eq(want, &got) => {}
                    Ok(got) => failures.push(failure(
                        case,
                        variant,
                        "prepare",
                        format!("    document {name}:\n{}", support::diff(want, &got)),
                    )),
                    Err(e) => failures.push(failure(
                        case,
                        variant,
                        "prepare",
                        format!("    document {name}: ordering failed: {e}"),
                    )),
                }
            }
            tally.record(failures);
        }
    }
}
