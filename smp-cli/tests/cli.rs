//! End-to-end tests of the `smp` binary: output formats, stdin, and the error contract (one
//! `error: ` line on stderr and status 1; usage errors status 2).

mod common;

use common::{
    SCHEMA, assert_error, assert_success, assert_usage_error, pod_example, readme_example, root,
    smp, stdout_json, temp_file,
};
use serde_json::json;

#[test]
fn pod_example_patches_the_pod() {
    let out = pod_example();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let pod = stdout_json(&out);
    assert!(
        text.starts_with("{\n  \"") && text.ends_with("}\n"),
        "{text}"
    );

    let containers = &pod["spec"]["containers"];
    assert_eq!(containers.as_array().map(Vec::len), Some(1), "{containers}");
    let app = &containers[0];
    assert_eq!(app["name"], "app");
    assert_eq!(app["image"], "registry.example.com/web:1.5.0");
    // Order follows upstream's rule for merged lists.
    let env = app["env"].as_array().expect("env list");
    assert_eq!(env.len(), 2, "{env:?}");
    assert!(env.contains(&json!({"name": "LOG_LEVEL", "value": "info"})));
    assert!(env.contains(&json!({"name": "FEATURE_FLAGS", "value": "fast-path"})));
    assert_eq!(
        app["ports"],
        json!([{"name": "http", "containerPort": 8080}])
    );
    let finalizers = pod["metadata"]["finalizers"].as_array().expect("list");
    assert!(finalizers.contains(&json!("example.com/protect")));
    assert!(finalizers.contains(&json!("example.com/audit")));
    assert_eq!(finalizers.len(), 2);
    assert_eq!(pod["spec"]["volumes"].as_array().map(Vec::len), Some(2));
}

/// The README shows the example's output after a marker comment, shortened: its first lines,
/// a `...` line, and its last lines, each exactly as printed.
#[test]
fn readme_shows_the_real_output() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let marker = "<!-- output of the first set-up command -->\n```json\n";
    let start = readme.find(marker).expect("marker in README") + marker.len();
    let len = readme[start..].find("```\n").expect("closing fence");
    let (head, tail) = readme[start..start + len]
        .split_once("...\n")
        .expect("a `...` line where the output is shortened");
    let out = readme_example();
    assert_success(&out);
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(head.lines().count() >= 5 && tail.lines().count() >= 5);
    assert!(printed.starts_with(head), "README's first lines:\n{head}");
    assert!(printed.ends_with(tail), "README's last lines:\n{tail}");
}

#[test]
fn yaml_out_has_the_same_content() {
    let json_out = stdout_json(&pod_example());
    let yaml = smp(
        &[
            "merge",
            "--schema",
            SCHEMA,
            "examples/pod.yaml",
            "examples/patch.yaml",
            "-o",
            "yaml",
        ],
        None,
    );
    assert_success(&yaml);
    let text = String::from_utf8(yaml.stdout).expect("UTF-8");
    assert!(!text.trim_start().starts_with('{'), "not YAML: {text}");
    assert!(text.ends_with('\n'));
    let parsed =
        smp_core::input::parse_document(&text, smp_core::DocRole::Original).expect("output parses");
    assert_eq!(parsed, json_out);
}

#[test]
fn json_and_yaml_inputs_mix() {
    let original = temp_file("mix-original.json", r#"{"a": {"b": 1, "c": [1, 2]}}"#);
    let patch = temp_file("mix-patch.yaml", "a:\n  b: 2\n  c: [3]\n  d: x\n");
    let out = smp(&["merge", &original, &patch], None);
    assert_eq!(
        stdout_json(&out),
        json!({"a": {"b": 2, "c": [3], "d": "x"}})
    );
}

#[test]
fn stdin_as_patch_or_original() {
    let from_stdin = smp(
        &["merge", "examples/pod.yaml", "-"],
        Some(r#"{"metadata": {"labels": {"tier": "web"}}}"#),
    );
    let pod = stdout_json(&from_stdin);
    assert_eq!(
        pod["metadata"]["labels"],
        json!({"app": "web", "tier": "web"})
    );

    let patch = temp_file("stdin-patch.json", r#"{"kind": "Other"}"#);
    let original_from_stdin = smp(&["merge", "-", &patch], Some("kind: Pod\nx: 1\n"));
    assert_eq!(
        stdout_json(&original_from_stdin),
        json!({"kind": "Other", "x": 1})
    );
}

#[test]
fn empty_and_null_documents_are_empty_objects() {
    let empty = temp_file("empty.yaml", "");
    let null = temp_file("null.json", "null");
    let patch = temp_file("small-patch.json", r#"{"a": 1, "b": null}"#);
    assert_eq!(
        stdout_json(&smp(&["merge", &empty, &patch], None)),
        json!({"a": 1})
    );
    assert_eq!(
        stdout_json(&smp(&["merge", &null, &patch], None)),
        json!({"a": 1})
    );
    assert_eq!(
        stdout_json(&smp(&["merge", &patch, &empty], None)),
        json!({"a": 1, "b": null})
    );
    let out = smp(&["merge", &patch, "-"], Some("null\n"));
    assert_eq!(stdout_json(&out), json!({"a": 1, "b": null}));
}

#[test]
fn non_object_documents_are_errors() {
    let list = temp_file("list.json", "[1, 2]");
    let scalar = temp_file("scalar.yaml", "just a string\n");
    let object = temp_file("object.json", "{}");
    assert_error(
        &smp(&["merge", &list, &object], None),
        &["original", "list.json", "found list"],
    );
    assert_error(
        &smp(&["merge", &object, &scalar], None),
        &["patch", "scalar.yaml", "found string"],
    );
}

#[test]
fn bad_json_original() {
    let bad = temp_file("bad-original.json", r#"{"metadata": {"name": "x",}"#);
    assert_error(
        &smp(&["merge", &bad, "examples/patch.yaml"], None),
        &["original", "bad-original.json"],
    );
}

#[test]
fn bad_patch() {
    let out = smp(
        &["merge", "examples/pod.yaml", "-"],
        Some("{\"spec\": [}\n"),
    );
    assert_error(&out, &["patch", "<stdin>"]);
}

#[test]
fn unknown_patch_directive_value() {
    let out = smp(
        &["merge", "--schema", SCHEMA, "examples/pod.yaml", "-"],
        Some(r#"{"spec": {"$patch": "bogus"}}"#),
    );
    assert_error(&out, &["bogus", "spec"]);
}

#[test]
fn retain_keys_list_missing_a_patch_key() {
    let patch = r#"{"spec": {"volumes": [
        {"name": "logs", "$retainKeys": ["name"], "emptyDir": {}}
    ]}}"#;
    let out = smp(
        &["merge", "--schema", SCHEMA, "examples/pod.yaml", "-"],
        Some(patch),
    );
    assert_error(&out, &["retainKeys", "spec.volumes"]);
}

fn deep_json(depth: usize) -> String {
    format!("{}{{}}{}", r#"{"a":"#.repeat(depth), "}".repeat(depth))
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = deep_json(10_000);
    let deep_file = temp_file("deep.json", &deep);
    let object = temp_file("deep-other.json", "{}");
    assert_error(&smp(&["merge", &deep_file, &object], None), &["original"]);
    assert_error(&smp(&["merge", &object, "-"], Some(&deep)), &["patch"]);
    let deep_yaml = format!("a: {}{}\n", "[".repeat(10_000), "]".repeat(10_000));
    assert_error(&smp(&["merge", &object, "-"], Some(&deep_yaml)), &["patch"]);
}

#[test]
fn missing_file() {
    assert_error(
        &smp(
            &["merge", "examples/no-such-pod.yaml", "examples/patch.yaml"],
            None,
        ),
        &["examples/no-such-pod.yaml", "original"],
    );
    assert_error(
        &smp(
            &[
                "merge",
                "--schema",
                "no-such-schema.json#Pod",
                "examples/pod.yaml",
                "examples/patch.yaml",
            ],
            None,
        ),
        &["no-such-schema.json", "schema"],
    );
}

#[test]
fn unknown_definition() {
    let out = smp(
        &[
            "merge",
            "--schema",
            "examples/pod-schema.json#io.k8s.api.core.v1.NoSuchKind",
            "examples/pod.yaml",
            "examples/patch.yaml",
        ],
        None,
    );
    assert_error(&out, &["io.k8s.api.core.v1.NoSuchKind"]);
}

#[test]
fn usage_errors_exit_2() {
    assert_usage_error(&smp(&[], None));
    assert_usage_error(&smp(&["merge"], None));
    assert_usage_error(&smp(&["merge", "examples/pod.yaml"], None));
    assert_usage_error(&smp(&["frobnicate"], None));
    assert_usage_error(&smp(
        &[
            "merge",
            "--schema",
            "examples/pod-schema.json",
            "examples/pod.yaml",
            "examples/patch.yaml",
        ],
        None,
    ));
    assert_usage_error(&smp(
        &[
            "merge",
            "examples/pod.yaml",
            "examples/patch.yaml",
            "-o",
            "xml",
        ],
        None,
    ));
    assert_usage_error(&smp(&["merge", "-", "-"], Some("{}")));
}

#[test]
fn version_and_help() {
    let version = smp(&["--version"], None);
    assert_success(&version);
    assert_eq!(
        String::from_utf8_lossy(&version.stdout),
        format!("smp {}\n", env!("CARGO_PKG_VERSION"))
    );

    let help = smp(&["help", "merge"], None);
    assert_success(&help);
    let text = String::from_utf8_lossy(&help.stdout);
    for needle in [
        "--schema",
        "FILE#DEFINITION",
        "Example",
        "examples/pod.yaml",
        "untyped",
    ] {
        assert!(
            text.contains(needle),
            "{needle:?} missing from help:\n{text}"
        );
    }
}
