//! structured-merge-diff's merge tests (sequences of applies and updates by several managers,
//! with the live object, the managers' fields and the conflicts expected), their facts written
//! down in `tests/data/smd/merge_*.json`, run against [`smp_ssa::merge::Updater`].
//!
//! The state starts with a `null` live object and no managers. Operations: `apply` (conflicts
//! expected when the case lists them, and then compared as sets), `forceApply`, `update`,
//! `extractApply` (the manager's fields extracted from the live object, the object merged over
//! them, and applied with force) and `changeSchema`.

mod support;

use serde_json::Value;
use smp_ssa::fieldpath::fields_v1;
use smp_ssa::merge::{Conflict, ManagedFields, MergeError, Updater, VersionedSet};
use smp_ssa::schema::{Schema, TypeRef};
use smp_ssa::typed::{extract_items, merge};

struct State {
    live: Value,
    managers: ManagedFields,
}

fn text(v: &Value, key: &str) -> String {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} in {v}"))
        .to_owned()
}

/// Runs one operation; an error message when it does not do what the case expects.
fn run(
    types: &mut (Schema, TypeRef),
    state: &mut State,
    case: &Value,
    op: &Value,
) -> Result<(), String> {
    let (kind, args) = op
        .as_object()
        .and_then(|o| o.iter().next())
        .ok_or("bad op")?;
    if kind == "changeSchema" {
        *types = support::schema(args);
        return Ok(());
    }
    let manager = text(args, "manager");
    let version = text(args, "apiVersion");
    let object = &args["object"];
    let ignored = case["ignored"].get(&version).map(support::set);
    let (schema, root) = (&types.0, types.1);
    let mut updater = Updater::new(schema, root);
    if let Some(ignored) = &ignored {
        updater = updater.ignoring(ignored);
    }
    match kind.as_str() {
        "update" => {
            let managers = updater
                .update(
                    &state.live,
                    object,
                    &version,
                    state.managers.clone(),
                    &manager,
                )
                .map_err(|e| format!("update failed: {e}"))?;
            state.live = object.clone();
            state.managers = managers;
            Ok(())
        }
        "forceApply" => apply(state, updater, object, &version, &manager, true),
        "extractApply" => {
            if state.live.is_null() && state.managers.is_empty() {
                return apply(state, updater, object, &version, &manager, true);
            }
            let set = state
                .managers
                .get(&manager)
                .map(|m| m.set.leaves())
                .unwrap_or_default();
            let extracted = extract_items(schema, root, &state.live, &set);
            let config = merge(schema, root, &extracted, object)
                .map_err(|e| format!("merge failed: {e}"))?;
            apply(state, updater, &config, &version, &manager, true)
        }
        "apply" => {
            let Some(expected) = args.get("conflicts") else {
                return apply(state, updater, object, &version, &manager, false);
            };
            let expected: Vec<Conflict> = expected
                .as_array()
                .ok_or("conflicts")?
                .iter()
                .map(|c| Conflict {
                    manager: text(c, "manager"),
                    path: support::path(&c["path"]),
                })
                .collect();
            let got = match updater.apply(
                &state.live,
                object,
                &version,
                state.managers.clone(),
                &manager,
                false,
            ) {
                Ok((live, managers)) => {
                    state.live = live;
                    state.managers = managers;
                    Vec::new()
                }
                Err(MergeError::Conflicts(c)) => c.0,
                Err(e) => return Err(format!("apply failed: {e}")),
            };
            let key = |c: &Conflict| (c.manager.clone(), c.path.to_string());
            let mut got: Vec<_> = got.iter().map(key).collect();
            let mut expected: Vec<_> = expected.iter().map(key).collect();
            got.sort();
            expected.sort();
            (got == expected)
                .then_some(())
                .ok_or_else(|| format!("conflicts: got {got:?}, want {expected:?}"))
        }
        other => Err(format!("unknown op {other}")),
    }
}

fn apply(
    state: &mut State,
    updater: Updater<'_>,
    config: &Value,
    version: &str,
    manager: &str,
    force: bool,
) -> Result<(), String> {
    let (live, managers) = updater
        .apply(
            &state.live,
            config,
            version,
            state.managers.clone(),
            manager,
            force,
        )
        .map_err(|e| format!("apply failed: {e}"))?;
    state.live = live;
    state.managers = managers;
    Ok(())
}

fn show(managers: &ManagedFields) -> String {
    managers
        .iter()
        .map(|(m, s)| {
            format!(
                "{m} ({}, applied {}): {}",
                s.api_version,
                s.applied,
                fields_v1::to_string(&s.set)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Runs a case; the first way it fails.
fn case(case: &Value) -> Result<(), String> {
    let mut types = support::schema(case);
    let mut state = State {
        live: Value::Null,
        managers: ManagedFields::new(),
    };
    for (i, op) in case["ops"].as_array().ok_or("ops")?.iter().enumerate() {
        run(&mut types, &mut state, case, op).map_err(|e| format!("op {i}: {e}"))?;
    }
    if let Some(object) = case.get("object") {
        if state.live != *object {
            return Err(format!("live object: got {}, want {object}", state.live));
        }
    }
    if let Some(managed) = case.get("managed") {
        let want: ManagedFields = managed
            .as_object()
            .ok_or("managed")?
            .iter()
            .map(|(m, v)| {
                (
                    m.clone(),
                    VersionedSet {
                        set: support::set(&v["set"]),
                        api_version: text(v, "apiVersion"),
                        applied: v["applied"] == true,
                    },
                )
            })
            .collect();
        // As structured-merge-diff compares managers: sets and versions (not how they were
        // written).
        let same = want.len() == state.managers.len()
            && want.iter().all(|(m, w)| {
                state
                    .managers
                    .get(m)
                    .is_some_and(|g| g.set == w.set && g.api_version == w.api_version)
            });
        if !same {
            return Err(format!(
                "managers: got {}\n    want {}",
                show(&state.managers),
                show(&want)
            ));
        }
    }
    if let Some((m, _)) = state.managers.iter().find(|(_, s)| s.set.is_empty()) {
        return Err(format!("manager {m} has an empty set"));
    }
    Ok(())
}

/// Cases this crate does not pass, by file and name, each with the reason (README's known
/// differences say the same).
const KNOWN: &[(&str, &str, &str)] = &[];

#[test]
fn structured_merge_diff_merge_cases() {
    let mut failures = Vec::new();
    let mut counts = Vec::new();
    for (file, data) in support::case_files("smd") {
        if !file.starts_with("merge_") {
            continue;
        }
        let cases = data["cases"].as_array().expect("cases");
        counts.push((file.clone(), cases.len()));
        for c in cases {
            let name = c["name"].as_str().unwrap_or("?");
            let known = KNOWN.iter().find(|(f, n, _)| *f == file && *n == name);
            match (self::case(c), known) {
                (Ok(()), None) => {}
                (Ok(()), Some(_)) => {
                    failures.push(format!("{file} / {name}: passes; take it off KNOWN"))
                }
                (Err(e), None) => failures.push(format!("{file} / {name}: {e}")),
                (Err(_), Some(_)) => {}
            }
        }
    }
    println!("cases run: {counts:?}");
    assert!(
        failures.is_empty(),
        "{} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
