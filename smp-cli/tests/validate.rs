//! End-to-end tests of `smp validate`: the server's field errors one per line on standard
//! output, the objects named on standard error, the exit status, and `--old` updates.

mod common;

use common::{smp, temp_file};

const STREAM: &str = "\
apiVersion: v1
kind: ConfigMap
metadata: {name: Bad_Name}
data: {a/b: x}
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: settings}
  data: {mode: fast}
- apiVersion: v1
  kind: Secret
  metadata: {name: tls}
  type: kubernetes.io/tls
  data: {tls.crt: ''}
";

#[test]
fn invalid_objects_print_the_servers_lines_and_fail() {
    let out = smp(&["validate", "-f", "-"], Some(STREAM));
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(
        lines[0].starts_with(
            "metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain"
        )
    );
    assert!(lines[1].starts_with("data[a/b]: Invalid value: \"a/b\": a valid config key"));
    assert_eq!(lines[2], "data[tls.key]: Required value");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("error: <stdin> document 1: ConfigMap \"Bad_Name\" is invalid"),
        "{stderr}"
    );
    assert!(
        stderr.contains("error: <stdin> document 2 item 2: Secret \"tls\" is invalid"),
        "{stderr}"
    );
    assert!(stderr.contains("error: 2 objects are invalid"), "{stderr}");
}

#[test]
fn valid_objects_exit_zero_and_print_nothing() {
    let out = smp(
        &["validate", "-f", "-"],
        Some("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\ndata: {a: b}\n"),
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty());
}

#[test]
fn old_objects_make_updates() {
    let live = temp_file(
        "live.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: frozen, namespace: default, uid: u1, resourceVersion: '7'}\nimmutable: true\ndata: {a: '1'}\n",
    );
    let new = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: frozen}\nimmutable: true\ndata: {a: '2'}\n";
    let out = smp(&["validate", "-f", "-", "--old", &live], Some(new));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "data: Forbidden: field is immutable when `immutable` is set\n"
    );
    let same = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: frozen}\nimmutable: true\ndata: {a: '1'}\n";
    let out = smp(&["validate", "-f", "-", "--old", &live], Some(same));
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

/// The README's `smp validate` example prints the lines the README shows.
#[test]
fn the_readme_example_prints_what_the_readme_shows() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let start = readme
        .find("```text\nmetadata.name: Invalid value: \"Web\"")
        .expect("the README shows smp validate's output")
        + "```text\n".len();
    let shown = &readme[start..start + readme[start..].find("```").unwrap()];
    let file = common::root().join("examples/admission/invalid-deployment.yaml");
    let out = smp(&["validate", "-f", file.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), shown);
}
