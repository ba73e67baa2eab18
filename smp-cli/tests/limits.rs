//! Hostile input through the binary: every input is bounded (`--max-input-size`), text is never
//! cut or turned into something else without an error, and expansions (YAML aliases, JSON patch
//! `copy`) are bounded by the size of the input.

mod common;

use std::time::{Duration, Instant};

use common::{assert_error, assert_success, smp, stdout_json, temp_file};
use serde_json::json;

const CONFIG_MAP: &str = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}"#;

/// `/dev/zero` used to grow memory until the process was killed.
#[test]
fn endless_input_is_cut_at_the_limit() {
    let object = temp_file("limits-object.json", "{}");
    let start = Instant::now();
    let out = smp(&["merge", "/dev/zero", &object], None);
    assert_error(
        &out,
        &[
            "cannot read original /dev/zero",
            "larger than the input size limit of 64 MiB (--max-input-size)",
        ],
    );
    assert!(start.elapsed() < Duration::from_secs(60));
    // A pipe that never ends.
    let endless = "a".repeat(3000);
    let out = smp(
        &["merge", "--max-input-size", "2K", &object, "-"],
        Some(&endless),
    );
    assert_error(&out, &["cannot read patch <stdin>", "limit of 2 KiB"]);
}

/// Every subcommand and every kind of input (file, stdin, `-p`, `--schema`) has the limit.
#[test]
fn every_input_has_the_limit() {
    let big = format!("{{\"data\": {{\"k\": \"{}\"}}}}", "v".repeat(2000));
    let big = temp_file("limits-big.json", &big);
    let small = temp_file("limits-small.json", CONFIG_MAP);
    let limit = ["--max-input-size", "1K"];
    let runs: Vec<Vec<&str>> = vec![
        vec!["merge", &big, &small],
        vec!["merge", &small, &big],
        vec!["diff", &small, &big],
        vec!["three-way", &small, &small, &big],
        vec!["normalize", &big],
        vec!["normalize", &small, &big],
        vec!["patch", "-f", &big, "-p", "{}"],
        vec!["patch", "-f", &small, "--patch-file", &big],
        vec![
            "merge",
            "--schema",
            "examples/pod-schema.json#Pod",
            &small,
            &small,
        ],
    ];
    for run in runs {
        let args: Vec<&str> = run.iter().copied().chain(limit).collect();
        let out = smp(&args, None);
        assert_error(&out, &["cannot read", "limit of 1 KiB"]);
    }
    let inline = format!("{{\"data\": {{\"k\": \"{}\"}}}}", "v".repeat(2000));
    let out = smp(
        &[
            "patch",
            "-f",
            &small,
            "-p",
            &inline,
            "--max-input-size",
            "1K",
        ],
        None,
    );
    assert_error(
        &out,
        &["patch (-p): larger than the input size limit of 1 KiB"],
    );
    // Raised, the same inputs are fine.
    let out = smp(&["merge", &small, &big, "--max-input-size", "3000"], None);
    assert_eq!(
        stdout_json(&out)["data"]["k"].as_str().map(str::len),
        Some(2000)
    );
    let out = smp(&["merge", "--max-input-size", "1x", &small, &small], None);
    assert_eq!(out.status.code(), Some(2), "a bad size is a usage error");
}

/// A NUL in document 2 of 3 used to end the input there: document 3 was dropped, exit 0.
#[test]
fn control_characters_are_errors_not_the_end_of_the_input() {
    let doc = |name: &str| format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n");
    let text = format!(
        "{}---\n{}data:\n  k: x\0y\n---\n{}",
        doc("a"),
        doc("b"),
        doc("c")
    );
    let file = temp_file("limits-nul.yaml", &text);
    let out = smp(&["patch", "-f", &file, "-p", "{}"], None);
    assert_error(
        &out,
        &["non-printable character U+0000 at line 11, column 7"],
    );
    let json_text = format!("{CONFIG_MAP}\0{CONFIG_MAP}");
    let out = smp(&["merge", "-", "examples/patch.yaml"], Some(&json_text));
    assert_error(&out, &["original <stdin>", "U+0000 at line 1, column 63"]);
    let out = smp(&["patch", "-f", &file, "-p", "{\"a\": \"\u{1b}\"}"], None);
    assert_error(&out, &["patch (-p)", "U+001B at line 1, column 8"]);
}

/// Text that starts like JSON used to fall back to YAML and turn `1e400`, `NaN` or a comment
/// into strings.
#[test]
fn json_like_input_never_becomes_strings() {
    let deployment = temp_file(
        "limits-deploy.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: 1}\n",
    );
    for (patch, want) in [
        (
            r#"{"spec": {"replicas": 1e400}}"#,
            "number out of range at line 1, column 23",
        ),
        (r#"{"spec": {"replicas": -1e400}}"#, "number out of range"),
        (
            r#"{"spec": {"replicas": NaN}}"#,
            "`NaN` is not a JSON number",
        ),
        (
            r#"{"spec": {"replicas": 1 /* c */}}"#,
            "JSON has no comments",
        ),
        (
            "{spec: {replicas: 1, replicas: 2}}",
            "mapping key \"replicas\" already defined",
        ),
        ("spec: {replicas: 1e400}", "number out of range"),
    ] {
        let out = smp(&["patch", "-f", &deployment, "-p", patch], None);
        assert_error(&out, &["patch (-p)", want]);
    }
    // YAML flow that starts with `{` is still YAML.
    let out = smp(
        &["patch", "-f", &deployment, "-p", "{spec: {replicas: 3}}"],
        None,
    );
    assert_eq!(stdout_json(&out)["spec"]["replicas"], json!(3));
}

/// 1 MB behind 1,000 aliases used to print 1 GB after 13 s and 2.9 GB of memory.
#[test]
fn alias_expansion_is_bounded_by_the_input() {
    let bomb = format!(
        "{{apiVersion: v1, kind: ConfigMap, metadata: {{name: x}}}}\n---\nbig: &b {}\nrefs: [{}]\n",
        "x".repeat(1 << 20),
        vec!["*b"; 1000].join(", ")
    );
    let file = temp_file("limits-alias.yaml", &bomb);
    let start = Instant::now();
    let out = smp(&["patch", "-f", &file, "-p", "{}"], None);
    assert_error(&out, &["aliases expand to more than"]);
    assert!(start.elapsed() < Duration::from_secs(30));
}

/// 40 `copy` operations of `/data` into itself used to double memory each.
#[test]
fn json_patch_copies_are_bounded() {
    let object = format!(
        r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"x"}},"data":{{"k":"{}"}}}}"#,
        "v".repeat(1000)
    );
    let file = temp_file("limits-copy.json", &object);
    let ops: Vec<_> = (0..40)
        .map(|i| json!({"op": "copy", "from": "/data", "path": format!("/data/c{i}")}))
        .collect();
    let patch = temp_file("limits-copy-patch.json", &json!(ops).to_string());
    let out = smp(
        &[
            "patch",
            "-f",
            &file,
            "--type",
            "json",
            "--patch-file",
            &patch,
        ],
        None,
    );
    // Copy i copies 2^i entries of 1,000 bytes; the budget (about 1,000,000 units) is passed by
    // the tenth.
    assert_error(
        &out,
        &[
            "document 1: json patch: operation '/9' (copy from '/data')",
            "would exceed",
        ],
    );
    let few = temp_file("limits-copy-few.json", &json!(ops[..5]).to_string());
    let out = smp(
        &["patch", "-f", &file, "--type", "json", "--patch-file", &few],
        None,
    );
    let data = stdout_json(&out)["data"].clone();
    assert_eq!(data.as_object().map(|m| m.len()), Some(6));
    assert_eq!(
        data["c4"]["c3"]["c2"]["c1"]["c0"]["k"],
        json!("v".repeat(1000))
    );
    // Other errors still name the operation that failed.
    let out = smp(
        &[
            "patch",
            "-f",
            &file,
            "--type",
            "json",
            "-p",
            r#"[{"op":"test","path":"/kind","value":"ConfigMap"},{"op":"remove","path":"/nope"}]"#,
        ],
        None,
    );
    assert_error(
        &out,
        &["json patch: operation '/1' failed at path '/nope': path is invalid"],
    );
}

/// The budget is for the whole run: the objects of one file cannot each copy up to it.
#[test]
fn json_patch_copy_budget_is_per_run() {
    let item = |i: usize| {
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": format!("m{i}")},
               "data": {"k": "v".repeat(1000)}})
    };
    let list =
        json!({"apiVersion": "v1", "kind": "List", "items": (0..40).map(item).collect::<Vec<_>>()});
    let file = temp_file("limits-copy-list.json", &list.to_string());
    // Each item copies about (2^6 - 1) * 1,003 = 63,189 units: 16 items fit the budget of
    // 1,043,556 units (the file's size and the patch's plus 1,000,000), the 17th does not.
    let ops: Vec<_> = (0..6)
        .map(|i| json!({"op": "copy", "from": "/data", "path": format!("/data/c{i}")}))
        .collect();
    let out = smp(
        &[
            "patch",
            "-f",
            &file,
            "--type",
            "json",
            "-p",
            &json!(ops).to_string(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: "), "{stderr}");
    let first = stderr.lines().next().unwrap_or_default();
    assert!(
        first.contains("document 1 item 17: json patch: operation '/4'"),
        "{first}"
    );
    assert!(first.contains("would exceed 1043556 units"), "{first}");
    let printed =
        serde_json::Deserializer::from_slice(&out.stdout).into_iter::<serde_json::Value>();
    assert_eq!(printed.count(), 16);
    let fits = smp(
        &[
            "patch",
            "-f",
            &file,
            "--type",
            "json",
            "-p",
            &json!(ops[..2]).to_string(),
        ],
        None,
    );
    assert_success(&fits);
}
