//! The create side of the upstream corpus (FORMAT §5.1–§5.5, §5.7, §5.8): two-way and
//! three-way patch creation with `smp_core::diff`, the created patches applied with
//! `smp_core::apply`, and the schema-less conflict predicate.

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::Value;
use smp_core::{Node, PatchError, Schema};

use super::{Failure, Schemas, Tally, Variant};

/// Runs `f`, turning a panic into a failure description.
fn guarded<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|panic| {
        let msg = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(non-string panic)".to_owned());
        format!("    {what} panicked: {msg}")
    })
}

fn id(case: &Value) -> &str {
    case.get("id").and_then(Value::as_str).unwrap_or("(no id)")
}

fn lists(case: &Value, operation: &str) -> bool {
    case.get("operations")
        .and_then(Value::as_array)
        .is_some_and(|ops| ops.iter().any(|o| o.as_str() == Some(operation)))
}

fn schema<'s>(case: &Value, schemas: &'s Schemas, variant: Variant) -> &'s Schema {
    let name = case.get("schema").and_then(Value::as_str).unwrap_or("");
    schemas
        .get(name, variant)
        .unwrap_or_else(|| panic!("{}: unknown schema {name:?}", id(case)))
}

fn fail(case: &Value, variant: &'static str, operation: &'static str, detail: String) -> Failure {
    Failure {
        case: id(case).to_owned(),
        variant,
        operation,
        detail,
    }
}

/// Compares a created document with the expectation.
fn same(want: &Value, got: &Value) -> Result<(), String> {
    if super::json_eq(want, got) {
        Ok(())
    } else {
        Err(super::diff(want, got))
    }
}

/// What creates and applies the patches of a suite.
#[derive(Debug, Clone, Copy)]
pub enum Maker {
    /// `smp_core::diff` / `three_way` / `apply` with one variant's swagger schema.
    Engine(Variant),
    /// `StrategicMerge::diff` / `three_way` / `apply` on the typed twin of the case's schema,
    /// once per case (the twin's schema equals every variant's, `typed_twin.rs`).
    Typed,
}

/// The Value suites: once per OpenAPI variant.
pub const ENGINE: [Maker; 2] = [
    Maker::Engine(Variant::OpenapiV2),
    Maker::Engine(Variant::OpenapiV3),
];

/// The typed suites.
pub const TYPED: [Maker; 1] = [Maker::Typed];

type Outcome = Result<Result<Value, PatchError>, String>;

impl Maker {
    /// The `variant` column of failures and known gaps.
    fn name(self) -> &'static str {
        match self {
            Maker::Engine(variant) => variant.name(),
            Maker::Typed => "typed",
        }
    }

    fn listed_in(self, holder: &Value) -> bool {
        match self {
            Maker::Engine(variant) => variant.listed_in(holder),
            Maker::Typed => Variant::ALL.iter().any(|v| v.listed_in(holder)),
        }
    }

    fn two_way(
        self,
        case: &Value,
        schemas: &Schemas,
        original: &Value,
        modified: &Value,
    ) -> Outcome {
        match self {
            Maker::Engine(variant) => {
                let schema = schema(case, schemas, variant);
                guarded("diff", || {
                    smp_core::diff(original, modified, Node::from(schema))
                })
            }
            Maker::Typed => guarded("typed diff", || {
                super::create_typed::two_way(schema_name(case), original, modified)
            })?,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn three_way(
        self,
        case: &Value,
        schemas: &Schemas,
        original: &Value,
        modified: &Value,
        current: &Value,
        overwrite: bool,
    ) -> Outcome {
        match self {
            Maker::Engine(variant) => {
                let schema = schema(case, schemas, variant);
                guarded("three_way", || {
                    smp_core::three_way(
                        original,
                        modified,
                        current,
                        Node::from(schema),
                        &smp_core::ThreeWayOptions::with_conflicts(
                            smp_core::Conflicts::from_overwrite_flag(overwrite),
                        ),
                    )
                })
            }
            Maker::Typed => guarded("typed three_way", || {
                super::create_typed::three_way(
                    schema_name(case),
                    original,
                    modified,
                    current,
                    overwrite,
                )
            })?,
        }
    }

    /// Applies a created patch; an error of the apply itself is `Ok(Err(_))`.
    fn apply_raw(self, case: &Value, schemas: &Schemas, doc: &Value, patch: &Value) -> Outcome {
        match self {
            Maker::Engine(variant) => {
                let schema = schema(case, schemas, variant);
                guarded("apply", || smp_core::apply(doc, patch, Node::from(schema)))
            }
            Maker::Typed => guarded("typed apply", || {
                super::create_typed::apply(schema_name(case), doc, patch)
            })?,
        }
    }

    /// Applies a created patch that must apply.
    fn apply(
        self,
        case: &Value,
        schemas: &Schemas,
        doc: &Value,
        patch: &Value,
    ) -> Result<Value, String> {
        self.apply_raw(case, schemas, doc, patch)?
            .map_err(|e| format!("    applying the created patch failed: {e}"))
    }
}

fn schema_name(case: &Value) -> &str {
    case.get("schema").and_then(Value::as_str).unwrap_or("")
}

/// `two-and-three-way.json`, `raw-cases.json`, `raw-extension.json`.
pub fn run_tables(
    dir: &std::path::Path,
    file: &str,
    schemas: &Schemas,
    makers: &[Maker],
    diff_tally: &mut Tally<'_>,
    three_tally: &mut Tally<'_>,
) {
    let doc = super::load_json(dir, file);
    for case in super::cases(&doc) {
        for &maker in makers {
            if !maker.listed_in(&doc) {
                continue;
            }
            let v = maker.name();
            let original = super::input(case, "original");
            let modified = super::input(case, "modified");
            let current = super::input(case, "current");
            let error = case.get("expectedError").and_then(Value::as_str);

            // Two-way.
            let mut failures = Vec::new();
            if lists(case, "createTwoWay") {
                let created = match maker.two_way(case, schemas, &original, &modified) {
                    Ok(Ok(p)) => Some(p),
                    Ok(Err(e)) => {
                        failures.push(fail(case, v, "createTwoWay", format!("    error: {e}")));
                        None
                    }
                    Err(panic) => {
                        failures.push(fail(case, v, "createTwoWay", panic));
                        None
                    }
                };
                if let Some(patch) = &created {
                    match super::prepared(case, "twoWay") {
                        Some(want) => {
                            if let Err(d) = same(want, patch) {
                                failures.push(fail(case, v, "createTwoWay", d));
                            }
                        }
                        None => failures.push(fail(
                            case,
                            v,
                            "createTwoWay",
                            "    malformed case: no twoWay".to_owned(),
                        )),
                    }
                }
                if let (Some(patch), true) = (&created, lists(case, "applyTwoWay")) {
                    let verdict = match (error, super::expected_two_way_result(case)) {
                        (Some(text), _) => match maker.apply_raw(case, schemas, &original, patch) {
                            Ok(Err(e)) if e.to_string().contains(text) => Ok(()),
                            Ok(Err(e)) => Err(format!("    expected error {text:?}, got {e}")),
                            Ok(Ok(got)) => Err(format!(
                                "    expected error {text:?}, got {}",
                                super::short(&got, 300)
                            )),
                            Err(p) => Err(p),
                        },
                        (None, Some(want)) => maker
                            .apply(case, schemas, &original, patch)
                            .and_then(|got| same(want, &got)),
                        (None, None) => Err("    malformed case: no expectation".to_owned()),
                    };
                    if let Err(d) = verdict {
                        failures.push(fail(case, v, "applyTwoWay", d));
                    }
                }
            }
            diff_tally.record(failures);

            // Three-way.
            let mut failures = Vec::new();
            if lists(case, "createThreeWay") {
                let conflict = case.get("expectConflict").and_then(Value::as_bool) == Some(true);
                let mut created = None;
                match maker.three_way(case, schemas, &original, &modified, &current, false) {
                    Err(p) => failures.push(fail(case, v, "createThreeWay", p)),
                    Ok(Err(PatchError::Conflict { .. })) if conflict => {}
                    Ok(Err(e)) => {
                        failures.push(fail(case, v, "createThreeWay", format!("    error: {e}")))
                    }
                    Ok(Ok(p)) if conflict => failures.push(fail(
                        case,
                        v,
                        "createThreeWay",
                        format!("    expected a conflict, got {}", super::short(&p, 300)),
                    )),
                    Ok(Ok(p)) => created = Some(p),
                }
                if conflict && lists(case, "createThreeWayOverwrite") {
                    match maker.three_way(case, schemas, &original, &modified, &current, true) {
                        Err(p) => failures.push(fail(case, v, "createThreeWayOverwrite", p)),
                        Ok(Err(e)) => failures.push(fail(
                            case,
                            v,
                            "createThreeWayOverwrite",
                            format!("    error: {e}"),
                        )),
                        Ok(Ok(p)) => created = Some(p),
                    }
                }
                let op = if conflict {
                    "createThreeWayOverwrite"
                } else {
                    "createThreeWay"
                };
                if let Some(patch) = &created {
                    match super::prepared(case, "threeWay") {
                        Some(want) => {
                            if let Err(d) = same(want, patch) {
                                failures.push(fail(case, v, op, d));
                            }
                        }
                        None => failures.push(fail(
                            case,
                            v,
                            op,
                            "    malformed case: no threeWay".to_owned(),
                        )),
                    }
                    if lists(case, "applyThreeWay") {
                        let verdict = match super::prepared(case, "result") {
                            Some(want) => maker
                                .apply(case, schemas, &current, patch)
                                .and_then(|got| same(want, &got)),
                            None => Err("    malformed case: no result".to_owned()),
                        };
                        if let Err(d) = verdict {
                            failures.push(fail(case, v, "applyThreeWay", d));
                        }
                    }
                }
            }
            three_tally.record(failures);
        }
    }
}

/// `number-conversion.json` and `unknown-field.json` (§5.7): documents from `text.*`.
pub fn run_exact_text(
    dir: &std::path::Path,
    file: &str,
    schemas: &Schemas,
    makers: &[Maker],
    diff_tally: &mut Tally<'_>,
    three_tally: &mut Tally<'_>,
) {
    let doc = super::load_json(dir, file);
    let parse = |case: &Value, name: &str| -> Option<Value> {
        let text = case.get("text")?.get(name)?.as_str()?;
        Some(
            serde_json::from_str(text)
                .unwrap_or_else(|e| panic!("{}: text.{name} does not parse: {e}", id(case))),
        )
    };
    for case in super::cases(&doc) {
        for &maker in makers {
            if !maker.listed_in(&doc) {
                continue;
            }
            let v = maker.name();
            let empty = Value::Object(serde_json::Map::new());
            let original = parse(case, "original").unwrap_or_else(|| empty.clone());
            let modified = parse(case, "modified").unwrap_or_else(|| empty.clone());
            let current = parse(case, "current").unwrap_or_else(|| empty.clone());
            let steps: [(&'static str, bool, &str, &str, &str, &Value); 2] = [
                (
                    "createTwoWay",
                    false,
                    "expectedTwoWayError",
                    "twoWay",
                    "twoWayResult",
                    &original,
                ),
                (
                    "createThreeWay",
                    true,
                    "expectedThreeWayError",
                    "threeWay",
                    "result",
                    &current,
                ),
            ];
            for (operation, three, error_field, patch_name, result_name, base) in steps {
                if !lists(case, operation) {
                    continue;
                }
                let outcome = if three {
                    maker.three_way(case, schemas, &original, &modified, &current, false)
                } else {
                    maker.two_way(case, schemas, &original, &modified)
                };
                let error = case.get(error_field).and_then(Value::as_str);
                let verdict = match outcome {
                    Err(p) => Err(p),
                    Ok(Err(e)) => match error {
                        Some(text) if e.to_string().contains(text) => Ok(()),
                        _ => Err(format!("    error: {e}")),
                    },
                    Ok(Ok(patch)) => match (parse(case, patch_name), parse(case, result_name)) {
                        (Some(want), Some(result)) => same(&want, &patch).and_then(|()| {
                            maker
                                .apply(case, schemas, base, &patch)
                                .and_then(|got| same(&result, &got))
                        }),
                        _ => Err(format!(
                            "    creation succeeded but the case gives no text.{patch_name}: {}",
                            super::short(&patch, 300)
                        )),
                    },
                };
                let failures = match verdict {
                    Ok(()) => Vec::new(),
                    Err(d) => vec![fail(case, v, operation, d)],
                };
                if three {
                    three_tally.record(failures);
                } else {
                    diff_tally.record(failures);
                }
            }
        }
    }
}

/// `has-conflicts.json` (§5.8): both argument orders.
pub fn run_has_conflicts(dir: &std::path::Path, tally: &mut Tally<'_>) {
    let doc = super::load_json(dir, "has-conflicts.json");
    for case in super::cases(&doc) {
        let (Some(a), Some(b), Some(want)) = (
            case.get("a"),
            case.get("b"),
            case.get("expected").and_then(Value::as_bool),
        ) else {
            tally.record(vec![fail(
                case,
                "none",
                "hasConflicts",
                "    malformed case".to_owned(),
            )]);
            continue;
        };
        let mut failures = Vec::new();
        for (x, y, order) in [(a, b, "a, b"), (b, a, "b, a")] {
            match guarded("has_conflicts", || smp_core::has_conflicts(x, y)) {
                Ok(got) if got == want => {}
                Ok(got) => failures.push(fail(
                    case,
                    "none",
                    "hasConflicts",
                    format!("    has_conflicts({order}) = {got}, expected {want}"),
                )),
                Err(p) => failures.push(fail(case, "none", "hasConflicts", p)),
            }
        }
        tally.record(failures);
    }
}
