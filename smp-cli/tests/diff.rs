//! End-to-end tests of `smp diff` and `smp three-way`: round trips through `smp apply`,
//! conflicts, and the shared error contract (one `error: ` line and status 1; usage errors 2).

mod common;

use common::{
    SCHEMA, assert_error, assert_success, assert_usage_error, pod_example, smp, stdout_json,
    temp_file,
};
use serde_json::{Value, json};

/// `examples/pod.yaml` with `from` replaced by `to` (which must occur), in a scratch file.
fn edited_pod(name: &str, from: &str, to: &str) -> String {
    let pod = std::fs::read_to_string(common::root().join("examples/pod.yaml")).expect("pod.yaml");
    assert!(pod.contains(from), "{from:?} not in pod.yaml");
    temp_file(name, &pod.replacen(from, to, 1))
}

/// Parses a document the way `smp` does.
fn parse(path: &str) -> Value {
    let text = std::fs::read_to_string(common::root().join(path)).expect("read document");
    smp_core::input::parse_document(&text, smp_core::DocRole::Original).expect("parses")
}

/// `smp diff ORIGINAL MODIFIED` then `smp apply ORIGINAL <patch>` must print MODIFIED.
#[track_caller]
fn assert_round_trip(schema: Option<&str>, original: &str, modified: &str, name: &str) {
    let with_schema = |cmd: &'static str, rest: [&str; 2]| -> Vec<String> {
        let mut args = vec![cmd.to_owned()];
        if let Some(s) = schema {
            args.extend(["--schema".to_owned(), s.to_owned()]);
        }
        args.extend(rest.iter().map(|s| (*s).to_owned()));
        args
    };
    let args = with_schema("diff", [original, modified]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let patch = stdout_json(&smp(&args, None));
    let patch_file = temp_file(name, &patch.to_string());
    let args = with_schema("merge", [original, &patch_file]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(
        stdout_json(&smp(&args, None)),
        parse(modified),
        "patch: {patch}"
    );
}

#[test]
fn diff_round_trips_the_example() {
    // The modified document is the README example's output.
    let out = pod_example();
    let modified = temp_file("diff-modified.json", &stdout_json(&out).to_string());
    assert_round_trip(
        Some(SCHEMA),
        "examples/pod.yaml",
        &modified,
        "diff-rt-1.json",
    );
    assert_round_trip(None, "examples/pod.yaml", &modified, "diff-rt-2.json");
    // And back.
    assert_round_trip(
        Some(SCHEMA),
        &modified,
        "examples/pod.yaml",
        "diff-rt-3.json",
    );

    let patch = stdout_json(&smp(
        &["diff", "--schema", SCHEMA, "examples/pod.yaml", &modified],
        None,
    ));
    // Typed: containers merge by name, so the dropped one is deleted by key.
    assert!(
        patch["spec"]["containers"]
            .as_array()
            .expect("containers")
            .contains(&json!({"name": "log-shipper", "$patch": "delete"})),
        "{patch}"
    );
}

#[test]
fn diff_round_trips_small_edits() {
    let edits = [
        ("image: registry.example.com/web:1.4.0", "image: web:2"),
        ("    app: web\n", "    app: web\n    tier: front\n"),
        ("  labels:\n    app: web\n", ""),
        (
            "      operator: Equal\n      value: web\n",
            "      operator: Exists\n",
        ),
        (
            "    - example.com/protect\n",
            "    - example.com/a\n    - example.com/protect\n",
        ),
    ];
    for (i, (from, to)) in edits.into_iter().enumerate() {
        let modified = edited_pod(&format!("diff-edit-{i}.yaml"), from, to);
        for (j, schema) in [Some(SCHEMA), None].into_iter().enumerate() {
            let name = format!("diff-edit-{i}-{j}.json");
            assert_round_trip(schema, "examples/pod.yaml", &modified, &name);
        }
    }
}

#[test]
fn diff_of_identical_documents_is_empty() {
    let out = smp(
        &[
            "diff",
            "--schema",
            SCHEMA,
            "examples/pod.yaml",
            "examples/pod.yaml",
        ],
        None,
    );
    assert_eq!(stdout_json(&out), json!({}));
    let yaml = smp(
        &[
            "diff",
            "examples/pod.yaml",
            "examples/pod.yaml",
            "-o",
            "yaml",
        ],
        None,
    );
    assert_success(&yaml);
    assert_eq!(String::from_utf8_lossy(&yaml.stdout), "{}\n");
}

#[test]
fn diff_reads_stdin_and_treats_empty_as_empty_object() {
    let out = smp(
        &["diff", "examples/pod.yaml", "-"],
        Some("apiVersion: v1\nkind: Pod\n"),
    );
    assert_eq!(stdout_json(&out), json!({"metadata": null, "spec": null}));
    let empty = temp_file("diff-empty.yaml", "");
    let out = smp(&["diff", &empty, "-"], Some(r#"{"a": {"b": 1}}"#));
    assert_eq!(stdout_json(&out), json!({"a": {"b": 1}}));
    let out = smp(&["diff", "-", &empty], Some("null\n"));
    assert_eq!(stdout_json(&out), json!({}));
}

#[test]
fn diff_errors() {
    let list = temp_file("diff-list.json", "[1]");
    assert_error(
        &smp(&["diff", "examples/pod.yaml", &list], None),
        &["modified", "diff-list.json", "found list"],
    );
    assert_error(
        &smp(&["diff", "examples/pod.yaml", "-"], Some("{\"a\": [}")),
        &["modified", "<stdin>"],
    );
    // A changed object the schema's struct does not declare cannot be diffed.
    let a = temp_file(
        "diff-unknown-a.json",
        r#"{"metadata": {"bogus": {"x": 1}}}"#,
    );
    let b = temp_file(
        "diff-unknown-b.json",
        r#"{"metadata": {"bogus": {"x": 2}}}"#,
    );
    assert_error(
        &smp(&["diff", "--schema", SCHEMA, &a, &b], None),
        &[
            "creating a patch",
            "metadata.bogus",
            "unable to find api field",
        ],
    );
    assert_error(
        &smp(
            &["diff", "examples/no-such.yaml", "examples/pod.yaml"],
            None,
        ),
        &["original", "examples/no-such.yaml"],
    );
}

/// Original: the example pod; modified: app's image 1.5.0; current: app's image set to 1.6.0
/// by someone else. `tag` keeps the scratch files of tests running in parallel apart.
fn conflicting_inputs(tag: &str) -> (String, String) {
    let web = "image: registry.example.com/web:1.4.0";
    let modified = edited_pod(
        &format!("tw-{tag}-modified.yaml"),
        web,
        "image: registry.example.com/web:1.5.0",
    );
    let current = edited_pod(
        &format!("tw-{tag}-current.yaml"),
        web,
        "image: registry.example.com/web:1.6.0",
    );
    (modified, current)
}

#[test]
fn three_way_conflict_exits_1() {
    let (modified, current) = conflicting_inputs("conflict");
    let out = smp(
        &[
            "three-way",
            "--schema",
            SCHEMA,
            "--overwrite=false",
            "examples/pod.yaml",
            &modified,
            &current,
        ],
        None,
    );
    assert_error(&out, &["conflict", "spec.containers", "three-way"]);

    // Untyped, the whole containers list is the conflicting member.
    let out = smp(
        &[
            "three-way",
            "--overwrite=false",
            "examples/pod.yaml",
            &modified,
            &current,
        ],
        None,
    );
    assert_error(&out, &["conflict", "spec.containers"]);

    let out = smp(
        &["three-way", "--overwrite=false", "-", "-o", "yaml", "-"],
        None,
    );
    assert_usage_error(&out);
}

#[test]
fn three_way_overwrite_wins_by_default() {
    let (modified, current) = conflicting_inputs("overwrite");
    for flag in [None, Some("--overwrite"), Some("--overwrite=true")] {
        let mut args = vec!["three-way", "--schema", SCHEMA];
        args.extend(flag);
        args.extend(["examples/pod.yaml", modified.as_str(), current.as_str()]);
        let patch = stdout_json(&smp(&args, None));
        assert_eq!(
            patch["spec"]["containers"],
            json!([{"name": "app", "image": "registry.example.com/web:1.5.0"}]),
            "{flag:?}: {patch}"
        );
        // Applied to the live object, the patch gives the new configuration.
        let patch_file = temp_file("tw-patch.json", &patch.to_string());
        let applied = stdout_json(&smp(
            &["merge", "--schema", SCHEMA, &current, &patch_file],
            None,
        ));
        assert_eq!(applied, parse(&modified));
    }
}

#[test]
fn three_way_keeps_changes_made_by_others() {
    // Others added a label; the new configuration drops a finalizer and changes the image.
    let current = edited_pod(
        "tw-others.yaml",
        "    app: web\n",
        "    app: web\n    owner: ops\n",
    );
    let modified = temp_file(
        "tw-new.json",
        r#"{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web",
            "labels": {"app": "web"}}, "spec": {"containers": [{"name": "app", "image": "web:2"}]}}"#,
    );
    let out = smp(
        &[
            "three-way",
            "--schema",
            SCHEMA,
            "--overwrite=false",
            "examples/pod.yaml",
            &modified,
            &current,
        ],
        None,
    );
    let patch = stdout_json(&out);
    assert_eq!(patch["metadata"]["finalizers"], Value::Null, "{patch}");
    assert!(patch["metadata"].get("labels").is_none(), "{patch}");
    let patch_file = temp_file("tw-others-patch.json", &patch.to_string());
    let live = stdout_json(&smp(
        &["merge", "--schema", SCHEMA, &current, &patch_file],
        None,
    ));
    assert_eq!(
        live["metadata"],
        json!({"name": "web", "labels": {"app": "web", "owner": "ops"}})
    );
    assert_eq!(
        live["spec"]["containers"],
        json!([{"name": "app", "image": "web:2"}])
    );
}

#[test]
fn three_way_reads_stdin_and_checks_documents() {
    let out = smp(
        &["three-way", "-", "examples/pod.yaml", "examples/pod.yaml"],
        Some(""),
    );
    assert_eq!(stdout_json(&out), json!({}));
    let scalar = temp_file("tw-scalar.yaml", "7\n");
    assert_error(
        &smp(
            &[
                "three-way",
                "examples/pod.yaml",
                "examples/pod.yaml",
                &scalar,
            ],
            None,
        ),
        &["current", "tw-scalar.yaml", "found number"],
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_usage_error(&smp(&["diff"], None));
    assert_usage_error(&smp(&["diff", "examples/pod.yaml"], None));
    assert_usage_error(&smp(
        &["diff", "examples/pod.yaml", "examples/pod.yaml", "extra"],
        None,
    ));
    assert_usage_error(&smp(&["diff", "-", "-"], Some("{}")));
    assert_usage_error(&smp(
        &["diff", "--schema", "examples/pod-schema.json", "a", "b"],
        None,
    ));
    assert_usage_error(&smp(
        &[
            "diff",
            "examples/pod.yaml",
            "examples/pod.yaml",
            "-o",
            "xml",
        ],
        None,
    ));
    assert_usage_error(&smp(
        &["three-way", "examples/pod.yaml", "examples/pod.yaml"],
        None,
    ));
    let three = [
        "examples/pod.yaml",
        "examples/pod.yaml",
        "examples/pod.yaml",
    ];
    for bad in ["--overwrite=maybe", "--overwrite=", "--no-overwrite"] {
        let mut args = vec!["three-way", bad];
        args.extend(three);
        assert_usage_error(&smp(&args, None));
    }
    // The value must be attached with `=`: a separate `false` is a fourth document.
    let mut args = vec!["three-way", "--overwrite", "false"];
    args.extend(three);
    assert_usage_error(&smp(&args, None));
    assert_usage_error(&smp(
        &["three-way", "-", "examples/pod.yaml", "-"],
        Some("{}"),
    ));
}

#[test]
fn help_shows_examples() {
    for (cmd, needles) in [
        ("diff", &["Example", "--schema", "MODIFIED", "untyped"][..]),
        (
            "three-way",
            &["Example", "--overwrite", "CURRENT", "conflict"][..],
        ),
    ] {
        let help = smp(&["help", cmd], None);
        assert_success(&help);
        let text = String::from_utf8_lossy(&help.stdout);
        for needle in needles {
            assert!(
                text.contains(needle),
                "{needle:?} missing from help:\n{text}"
            );
        }
    }
}
