//! The upstream Kubernetes strategic-merge-patch corpus (FORMAT.md §5–§7).
//!
//! Apply side: runs every apply-side operation of the corpus once per OpenAPI schema variant,
//! using the *stored* patches, plus the ordering step of the
//! upstream test suite against `sort-merge-list.json` and the precomputed `upstreamSorted`
//! documents. The same apply steps run once more through the typed path: the original is
//! deserialized into the typed twin of its schema (`support/merge_item.rs`), patched with
//! `StrategicMerge::apply`, and serialized (suite `typed apply`, variant `typed`).
//!
//! Create side (`support/create.rs`), once per OpenAPI variant: `createTwoWay` and
//! `applyTwoWay` with the *created* patch (suite `diff`, including the §5.7 rules of
//! `number-conversion.json` and `unknown-field.json`); `createThreeWay` (with the conflict
//! expectation), `createThreeWayOverwrite` and `applyThreeWay` with the created patch (suite
//! `three-way`); and `has-conflicts.json` in both argument orders (suite `has-conflicts`,
//! variant `none`). Prints one summary line per suite. Fails on any failure that
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

use serde::Serialize;
use serde_json::Value;
use smp_core::{DocRole, Node, Patch, PatchError, Schema, StrategicMerge};
use support::create;
use support::merge_item::{MergeItem, PrecisionItem};
use support::{Failure, Schemas, Tally, Variant};

fn main() {
    let outcome = catch_unwind(|| {
        upstream_conformance();
    });
    if outcome.is_err() {
        std::process::exit(1);
    }
}

fn upstream_conformance() {
    let dir = support::corpus_dir();
    let gaps = support::load_gaps().unwrap_or_else(|e| panic!("{e}"));
    let schemas = Schemas::load();

    let mut sort = Tally::new("sort", &gaps);
    run_sort_file(&dir, &schemas, &mut sort);
    for file in ["two-and-three-way.json", "custom-apply.json"] {
        run_prepare_check(&dir, file, &schemas, &mut sort);
    }

    let mut apply = Tally::new("apply", &gaps);
    let mut typed = Tally::new("typed apply", &gaps);
    for (runners, tally) in [(&ENGINE[..], &mut apply), (&TYPED[..], &mut typed)] {
        for file in [
            "two-and-three-way.json",
            "raw-cases.json",
            "raw-extension.json",
        ] {
            run_create_tables(&dir, file, &schemas, runners, tally);
        }
        run_custom_apply(&dir, &schemas, runners, tally);
        run_exact_text(&dir, "number-conversion.json", &schemas, runners, tally);
        run_exact_text(&dir, "unknown-field.json", &schemas, runners, tally);
        run_bad_arguments(&dir, &schemas, runners, tally);
    }

    // The create side: patches created with `smp_core::diff` / `three_way`, then applied.
    // The same creation steps through the typed twins: `StrategicMerge::diff` / `three_way`.
    let mut diff = Tally::new("diff", &gaps);
    let mut three = Tally::new("three-way", &gaps);
    let mut typed_diff = Tally::new("typed diff", &gaps);
    let mut typed_three = Tally::new("typed three-way", &gaps);
    let mut conflicts = Tally::new("has-conflicts", &gaps);
    for (makers, diff, three) in [
        (&create::ENGINE[..], &mut diff, &mut three),
        (&create::TYPED[..], &mut typed_diff, &mut typed_three),
    ] {
        for file in [
            "two-and-three-way.json",
            "raw-cases.json",
            "raw-extension.json",
        ] {
            create::run_tables(&dir, file, &schemas, makers, diff, three);
        }
        for file in ["number-conversion.json", "unknown-field.json"] {
            create::run_exact_text(&dir, file, &schemas, makers, diff, three);
        }
    }
    support::create::run_has_conflicts(&dir, &mut conflicts);

    println!("{}", sort.summary());
    println!("{}", apply.summary());
    println!("{}", typed.summary());
    println!("{}", diff.summary());
    println!("{}", three.summary());
    println!("{}", typed_diff.summary());
    println!("{}", typed_three.summary());
    println!("{}", conflicts.summary());

    let tallies = [
        &sort,
        &apply,
        &typed,
        &diff,
        &three,
        &typed_diff,
        &typed_three,
        &conflicts,
    ];
    let mut problems = Vec::new();
    for f in tallies.iter().flat_map(|t| t.unexpected.iter()) {
        problems.push(format!(
            "unlisted failure: {} {} {}",
            f.case, f.variant, f.operation
        ));
    }
    for gap in &gaps {
        if tallies.iter().all(|tally| !tally.used.contains(&gap.line)) {
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

/// Runs a typed apply (see [`typed_apply`]), turning a panic into an error message.
fn run_typed<T: StrategicMerge>(
    original: &Value,
    patch: &Value,
) -> Result<Result<Value, PatchError>, String> {
    catch_unwind(AssertUnwindSafe(|| typed_apply::<T>(original, patch))).unwrap_or_else(|panic| {
        let msg = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(non-string panic)".to_owned());
        Err(format!("    typed apply panicked: {msg}"))
    })
}

/// The typed path: `original` deserialized into `T`, patched with `StrategicMerge::apply`,
/// serialized. `Err` (a failure of the step) when `T` cannot hold `original` exactly (it would
/// not read back as the same document), or when a failed apply changed the object.
fn typed_apply<T: StrategicMerge>(
    original: &Value,
    patch: &Value,
) -> Result<Result<Value, PatchError>, String> {
    let not_representable = |why: String| {
        format!(
            "    original not representable in the typed twin: {why}\n    original: {}",
            support::short(original, 400)
        )
    };
    // The documents' roots are checked as the engine checks them (`null` is `{}`, anything else
    // that is not an object is an invalid document): a string or a list is no struct, and the
    // typed API could not be handed one. `PatchError` is non-exhaustive, so the error is the
    // engine's own, from a call that does nothing but that check.
    let original = match original {
        Value::Null => &Value::Object(serde_json::Map::new()),
        Value::Object(_) => original,
        other => return Ok(smp_core::apply(other, &Value::Null, Node::opaque())),
    };
    let patch = match Patch::from_value(patch.clone()) {
        Ok(patch) => patch,
        Err(e) => return Ok(Err(e)),
    };
    let mut object: T =
        serde_json::from_value(original.clone()).map_err(|e| not_representable(e.to_string()))?;
    let before = to_json(&object)?;
    if !support::json_eq(original, &before) {
        return Err(not_representable(format!(
            "it reads back as {}",
            support::short(&before, 400)
        )));
    }
    match object.apply(&patch) {
        Ok(()) => Ok(Ok(to_json(&object)?)),
        Err(e) => {
            let after = to_json(&object)?;
            if !support::json_eq(&before, &after) {
                return Err(format!(
                    "    the failed typed apply ({e}) changed the object\n    before: {}\n    after:  {}",
                    support::short(&before, 400),
                    support::short(&after, 400)
                ));
            }
            Ok(Err(e))
        }
    }
}

fn to_json<T: Serialize>(object: &T) -> Result<Value, String> {
    serde_json::to_value(object).map_err(|e| format!("    cannot serialize the typed object: {e}"))
}

// ---------------------------------------------------------------------------------------------
// What runs an apply step

/// What executes the apply steps of a suite.
#[derive(Debug, Clone, Copy)]
enum Runner {
    /// `smp_core::apply` with the schema loaded from one variant's swagger file.
    Engine(Variant),
    /// `StrategicMerge::apply` on the typed twin of the case's schema. The twin's derived
    /// schema equals every OpenAPI variant's (`typed_twin.rs`), so it runs once per case.
    Typed,
}

/// The Value suite: once per OpenAPI variant.
const ENGINE: [Runner; 2] = [
    Runner::Engine(Variant::OpenapiV2),
    Runner::Engine(Variant::OpenapiV3),
];

/// The typed suite.
const TYPED: [Runner; 1] = [Runner::Typed];

impl Runner {
    /// The `variant` column of failures and known gaps.
    fn name(self) -> &'static str {
        match self {
            Runner::Engine(variant) => variant.name(),
            Runner::Typed => "typed",
        }
    }

    /// Whether a file or case is run: the typed twin stands for every OpenAPI variant.
    fn listed_in(self, holder: &Value) -> bool {
        match self {
            Runner::Engine(variant) => variant.listed_in(holder),
            Runner::Typed => Variant::ALL.iter().any(|v| v.listed_in(holder)),
        }
    }

    /// Applies `patch` to `original` under the case's schema.
    fn run(
        self,
        case: &Value,
        schemas: &Schemas,
        original: &Value,
        patch: &Value,
    ) -> Result<Result<Value, PatchError>, String> {
        match self {
            Runner::Engine(variant) => {
                run_apply(original, patch, schema_of(case, schemas, variant))
            }
            Runner::Typed => match schema_name(case) {
                "mergeItem" => run_typed::<MergeItem>(original, patch),
                "precisionItem" => run_typed::<PrecisionItem>(original, patch),
                other => panic!("{}: no typed twin for schema {other:?}", case_id(case)),
            },
        }
    }

    /// The schema the order-only diagnostic orders by.
    fn node<'s>(self, case: &Value, schemas: &'s Schemas) -> Node<'s> {
        match self {
            Runner::Engine(variant) => schema_of(case, schemas, variant).root(),
            Runner::Typed => match schema_name(case) {
                "precisionItem" => PrecisionItem::schema(),
                _ => MergeItem::schema(),
            },
        }
    }
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

fn failure(case: &Value, runner: Runner, operation: &'static str, detail: String) -> Failure {
    Failure {
        case: case_id(case).to_owned(),
        variant: runner.name(),
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

fn schema_name(case: &Value) -> &str {
    case.get("schema").and_then(Value::as_str).unwrap_or("")
}

fn schema_of<'s>(case: &Value, schemas: &'s Schemas, variant: Variant) -> &'s Schema {
    let name = schema_name(case);
    schemas
        .get(name, variant)
        .unwrap_or_else(|| panic!("{}: unknown schema {name:?}", case_id(case)))
}

// ---------------------------------------------------------------------------------------------
// Suites

/// `two-and-three-way.json`, `raw-cases.json`, `raw-extension.json`: the stored two-way patch
/// applied to `original`, the stored three-way patch applied to `current` (§5.2, §5.5).
fn run_create_tables(
    dir: &std::path::Path,
    file: &str,
    schemas: &Schemas,
    runners: &[Runner],
    tally: &mut Tally<'_>,
) {
    let doc = support::load_json(dir, file);
    for case in support::cases(&doc) {
        for &runner in runners {
            if !runner.listed_in(&doc) {
                continue;
            }
            let reorder = support::sorts_inputs(case).then(|| runner.node(case, schemas));
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
                        judge(
                            runner.run(case, schemas, &original, patch),
                            &expect,
                            reorder,
                        )
                    }
                    _ => {
                        Err("    malformed case: no stored twoWay patch or expectation".to_owned())
                    }
                };
                if let Err(detail) = verdict {
                    failures.push(failure(case, runner, "applyTwoWay", detail));
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
                        judge(runner.run(case, schemas, &current, patch), &expect, reorder)
                    }
                    _ => Err("    malformed case: no stored threeWay patch or result".to_owned()),
                };
                if let Err(detail) = verdict {
                    failures.push(failure(case, runner, "applyThreeWay", detail));
                }
            }
            tally.record(failures);
        }
    }
}

/// `custom-apply.json`: hand-written patches, some of which must fail (§5.6).
fn run_custom_apply(
    dir: &std::path::Path,
    schemas: &Schemas,
    runners: &[Runner],
    tally: &mut Tally<'_>,
) {
    let doc = support::load_json(dir, "custom-apply.json");
    for case in support::cases(&doc) {
        for &runner in runners {
            if !runner.listed_in(&doc) || !lists(case, "apply") {
                continue;
            }
            let reorder = support::sorts_inputs(case).then(|| runner.node(case, schemas));
            let expect = match case.get("expectedError").and_then(Value::as_str) {
                Some(text) => Some(Expect::ErrorContaining(text)),
                None => support::expected_two_way_result(case).map(Expect::Doc),
            };
            let original = support::input(case, "original");
            let patch = support::input(case, "patch");
            let verdict = match expect {
                Some(expect) => judge(
                    runner.run(case, schemas, &original, &patch),
                    &expect,
                    reorder,
                ),
                None => Err("    malformed case: no expectation".to_owned()),
            };
            let failures = match verdict {
                Ok(()) => Vec::new(),
                Err(detail) => vec![failure(case, runner, "apply", detail)],
            };
            tally.record(failures);
        }
    }
}

/// `number-conversion.json` and `unknown-field.json` (§5.7), apply side: the stored patches
/// applied to the parsed `text.*` documents (parsed with serde_json, which keeps int64 exact).
/// A case with neither stored patch (creation must fail) has no apply step and is not counted.
fn run_exact_text(
    dir: &std::path::Path,
    file: &str,
    schemas: &Schemas,
    runners: &[Runner],
    tally: &mut Tally<'_>,
) {
    let doc = support::load_json(dir, file);
    let parse = |case: &Value, name: &str| -> Option<Value> {
        let text = case.get("text")?.get(name)?.as_str()?;
        Some(
            serde_json::from_str(text)
                .unwrap_or_else(|e| panic!("{}: text.{name} does not parse: {e}", case_id(case))),
        )
    };
    for case in support::cases(&doc) {
        for &runner in runners {
            if !runner.listed_in(&doc) {
                continue;
            }
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
                    (Some(base), Some(want)) => judge(
                        runner.run(case, schemas, &base, &patch),
                        &Expect::Doc(&want),
                        None,
                    ),
                    _ => Err(format!(
                        "    malformed case: text.{base} or text.{result} missing"
                    )),
                };
                if let Err(detail) = verdict {
                    failures.push(failure(case, runner, operation, detail));
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
fn run_bad_arguments(
    dir: &std::path::Path,
    schemas: &Schemas,
    runners: &[Runner],
    tally: &mut Tally<'_>,
) {
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
        for &runner in runners {
            if !runner.listed_in(case) {
                continue;
            }
            let outcome = match (
                support::parse_text(text("original"), DocRole::Original),
                support::parse_text(text("patch"), DocRole::Patch),
            ) {
                (Ok(original), Ok(patch)) => runner.run(case, schemas, &original, &patch),
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
                Err(detail) => vec![failure(case, runner, "apply", detail)],
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
                Err(detail) => vec![failure(case, Runner::Engine(variant), "sort", detail)],
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
                        Runner::Engine(variant),
                        "prepare",
                        format!("    upstreamSorted.{name} has no stored document"),
                    ));
                    continue;
                };
                match support::order::order(stored, schema.root()) {
                    Ok(got) if support::json_eq(want, &got) => {}
                    Ok(got) => failures.push(failure(
                        case,
                        Runner::Engine(variant),
                        "prepare",
                        format!("    document {name}:\n{}", support::diff(want, &got)),
                    )),
                    Err(e) => failures.push(failure(
                        case,
                        Runner::Engine(variant),
                        "prepare",
                        format!("    document {name}: ordering failed: {e}"),
                    )),
                }
            }
            tally.record(failures);
        }
    }
}
