//! structured-merge-diff's typed tests (merge, compare, field sets, validation, removal and
//! extraction), their facts written down in `tests/data/smd/typed_*.json`, run against this
//! crate. Each check that fails is reported with its case and position; all are run.

mod support;

use serde_json::Value;
use smp_ssa::fieldpath::{Set, fields_v1};
use smp_ssa::schema::{Schema, TypeRef};
use smp_ssa::typed::{
    ReadOptions, compare, extract_items, field_set, merge, remove_items, validate,
};

fn show(set: &Set) -> String {
    fields_v1::to_string(set)
}

/// Runs one check; a description of the failure, if it fails.
fn check(schema: &Schema, root: TypeRef, section: &str, c: &Value) -> Option<String> {
    match section {
        "merge" => {
            let got = merge(schema, root, &c["lhs"], &c["rhs"]);
            match (got, c.get("out")) {
                (Ok(got), Some(out)) if got == *out => None,
                (Err(_), None) if c["error"] == true => None,
                (got, _) => Some(format!("got {got:?}")),
            }
        }
        "compare" => match compare(schema, root, &c["lhs"], &c["rhs"]) {
            Ok(got) => {
                let want = [
                    support::set(&c["removed"]),
                    support::set(&c["modified"]),
                    support::set(&c["added"]),
                ];
                let got = [got.removed, got.modified, got.added];
                (got != want).then(|| {
                    format!(
                        "removed/modified/added: got {} {} {}, want {} {} {}",
                        show(&got[0]),
                        show(&got[1]),
                        show(&got[2]),
                        show(&want[0]),
                        show(&want[1]),
                        show(&want[2])
                    )
                })
            }
            Err(e) => Some(format!("error {e}")),
        },
        "fieldSet" => {
            let options = ReadOptions {
                allow_duplicates: c["allowDuplicates"] == true,
            };
            match field_set(schema, root, &c["object"], options) {
                Ok(got) => {
                    let want = support::set(&c["set"]);
                    (got != want).then(|| format!("got {}, want {}", show(&got), show(&want)))
                }
                Err(e) => Some(format!("error {e}")),
            }
        }
        "validate" => {
            let options = ReadOptions {
                allow_duplicates: c["allowDuplicates"] == true,
            };
            let got = validate(schema, root, &c["object"], options);
            (got.is_ok() != (c["valid"] == true)).then(|| format!("got {got:?}"))
        }
        "remove" | "extract" => {
            let set = support::set(&c["set"]);
            let got = if section == "remove" {
                remove_items(schema, root, &c["object"], &set)
            } else {
                extract_items(schema, root, &c["object"], &set)
            };
            if c["out"] == "unparseable" {
                let invalid = validate(schema, root, &got, ReadOptions::default()).is_err();
                return (!invalid).then(|| format!("got {got}, which is valid"));
            }
            (got != c["out"]).then(|| format!("got {got}"))
        }
        _ => panic!("unknown section {section}"),
    }
}

#[test]
fn structured_merge_diff_typed_cases() {
    let mut failures = Vec::new();
    let mut counts: Vec<(String, usize)> = Vec::new();
    for (file, data) in support::case_files("smd") {
        if !file.starts_with("typed_") {
            continue;
        }
        let mut checks = 0;
        for case in data["cases"].as_array().expect("cases") {
            let (schema, root) = support::schema(case);
            let name = case["name"].as_str().unwrap_or("?");
            for section in [
                "merge", "compare", "fieldSet", "validate", "remove", "extract",
            ] {
                for (i, c) in case
                    .get(section)
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .enumerate()
                {
                    checks += 1;
                    if let Some(failure) = check(&schema, root, section, c) {
                        failures.push(format!(
                            "{file} / {name} / {section}[{i}]: {failure}\n    {c}"
                        ));
                    }
                }
            }
        }
        counts.push((file, checks));
    }
    println!("checks run: {counts:?}");
    assert!(
        failures.is_empty(),
        "{} checks failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
