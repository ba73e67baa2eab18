//! `smp patch`: kubectl's `patch --local` contract (documents, kinds, output, errors) and the
//! documented differences from kubectl, pinned.

mod common;

use common::{assert_success, readme_example, smp, stdout_json, temp_file};
use serde_json::{Value, json};

/// The JSON objects printed one after the other, as kubectl prints them.
fn objects(stdout: &[u8]) -> Vec<Value> {
    serde_json::Deserializer::from_slice(stdout)
        .into_iter::<Value>()
        .collect::<Result<_, _>>()
        .expect("a stream of JSON objects")
}

const POD: &str = r#"{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a"},
    "spec": {"containers": [{"name": "app", "image": "a:1"}, {"name": "side", "image": "s:1"}]}}"#;

#[test]
fn readme_example_patches_the_deployment() {
    let out = readme_example();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    // kubectl's printing: four-space indent, sorted keys.
    assert!(text.starts_with("{\n    \"apiVersion\""), "{text}");
    let d = stdout_json(&out);
    assert_eq!(d["spec"]["strategy"], json!({"type": "Recreate"}));
    let containers = d["spec"]["template"]["spec"]["containers"]
        .as_array()
        .expect("containers");
    assert_eq!(containers.len(), 1, "log-shipper is deleted");
    assert_eq!(
        containers[0]["image"],
        "registry.example.com/shop/web:2.4.0"
    );
    assert_eq!(
        d["spec"]["template"]["spec"]["volumes"][1]["emptyDir"],
        json!({"medium": "Memory", "sizeLimit": "1Gi"})
    );
}

#[test]
fn kinds_choose_the_schema() {
    let pod = temp_file("patch-pod.json", POD);
    let out = smp(
        &[
            "patch",
            "-f",
            &pod,
            "-p",
            r#"{"spec":{"containers":[{"name":"app","image":"a:2"}]}}"#,
        ],
        None,
    );
    // Containers merge by name: `side` stays.
    assert_eq!(
        stdout_json(&out)["spec"]["containers"],
        json!([{"name": "app", "image": "a:2"}, {"name": "side", "image": "s:1"}])
    );
}

#[test]
fn documents_and_list_items_are_patched_one_by_one() {
    let file = temp_file(
        "patch-multi.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n---\n\
         apiVersion: v1\nkind: List\nitems:\n\
         - {apiVersion: v1, kind: Secret, metadata: {name: b}}\n\
         - {apiVersion: apps/v1, kind: Deployment, metadata: {name: c}}\n",
    );
    let out = smp(
        &["patch", "-f", &file, "-p", "metadata: {labels: {x: z}}"],
        None,
    );
    assert_success(&out);
    let docs = objects(&out.stdout);
    let names: Vec<&str> = docs
        .iter()
        .map(|d| d["metadata"]["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(names, ["a", "b", "c"]);
    assert!(
        docs.iter()
            .all(|d| d["metadata"]["labels"] == json!({"x": "z"}))
    );

    let yaml = smp(&["patch", "-f", &file, "-p", "{}", "-o", "yaml"], None);
    assert_success(&yaml);
    let text = String::from_utf8(yaml.stdout).expect("UTF-8");
    assert_eq!(text.matches("\n---\n").count(), 2, "{text}");
    let parsed = smp_core::parse_documents(&text, smp_core::DocRole::Original).expect("YAML");
    assert_eq!(parsed.len(), 3);
}

/// Every built-in kind is typed: a StatefulSet's containers merge by name (kubectl patches it
/// so; smp refused it while smp-types knew six kinds), and a CronJob's nested job template too.
#[test]
fn every_built_in_kind_is_strategic() {
    let file = common::root().join("examples/manifests/apps-v1-statefulset.yaml");
    let out = smp(
        &[
            "patch",
            "-f",
            &file.display().to_string(),
            "-p",
            r#"{"spec":{"template":{"spec":{"containers":[{"name":"postgres","image":"postgres:16"}]}}}}"#,
        ],
        None,
    );
    assert_success(&out);
    let containers = &stdout_json(&out)["spec"]["template"]["spec"]["containers"];
    let names: Vec<&str> = containers
        .as_array()
        .expect("containers")
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert!(names.len() > 1 && names[0] == "postgres", "{names:?}");
    assert_eq!(containers[0]["image"], "postgres:16");

    let cron = temp_file(
        "patch-cronjob.yaml",
        "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec:\n  schedule: '@daily'\n  \
         jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n          \
         - {name: a, image: a:1}\n          - {name: b, image: b:1}\n",
    );
    let out = smp(
        &[
            "patch",
            "-f",
            &cron,
            "-p",
            r#"{"spec":{"jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"b","image":"b:2"}]}}}}}}"#,
        ],
        None,
    );
    assert_success(&out);
    assert_eq!(
        stdout_json(&out)["spec"]["jobTemplate"]["spec"]["template"]["spec"]["containers"],
        json!([{"name": "a", "image": "a:1"}, {"name": "b", "image": "b:2"}])
    );
}

#[test]
fn unknown_kind_fails_alone() {
    let file = temp_file(
        "patch-unknown.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n\
         apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n---\n\
         apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
    );
    let out = smp(&["patch", "-f", &file, "-p", "{}"], None);
    assert_eq!(out.status.code(), Some(1));
    let names: Vec<Value> = objects(&out.stdout)
        .iter()
        .map(|d| d["metadata"]["name"].clone())
        .collect();
    assert_eq!(
        names,
        [json!("a"), json!("c")],
        "the other documents are printed"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: ")
            && stderr.contains("patch-unknown.yaml document 2")
            && stderr
                .contains("strategic merge patch is not supported for example.com/v1, Kind=Widget"),
        "{stderr}"
    );
    // A merge patch needs no schema.
    let merged = smp(&["patch", "-f", &file, "--type", "merge", "-p", "{}"], None);
    assert_success(&merged);
    assert_eq!(objects(&merged.stdout).len(), 3);
}

#[test]
fn merge_and_json_patch_types() {
    let pod = temp_file("patch-types.json", POD);
    let merged = stdout_json(&smp(
        &[
            "patch",
            "-f",
            &pod,
            "--type",
            "merge",
            "-p",
            r#"{"spec":{"containers":[{"name":"only"}]}}"#,
        ],
        None,
    ));
    assert_eq!(
        merged["spec"]["containers"],
        json!([{"name": "only"}]),
        "RFC 7386 replaces lists"
    );
    let patched = stdout_json(&smp(
        &[
            "patch",
            "-f",
            &pod,
            "--type",
            "json",
            "-p",
            r#"[{"op":"replace","path":"/spec/containers/1/image","value":"s:2"}]"#,
        ],
        None,
    ));
    assert_eq!(patched["spec"]["containers"][1]["image"], "s:2");
    let bad = smp(
        &[
            "patch",
            "-f",
            &pod,
            "--type",
            "json",
            "-p",
            r#"[{"op":"remove","path":"/nope"}]"#,
        ],
        None,
    );
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("json patch"));
    let not_ops = smp(&["patch", "-f", &pod, "--type", "json", "-p", "{}"], None);
    assert_eq!(not_ops.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&not_ops.stderr).contains("expected a list of operations"));
}

#[test]
fn json_is_printed_like_kubectl() {
    let file = temp_file(
        "patch-print.json",
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"<a&b>"},"z":1.0}"#,
    );
    let out = smp(&["patch", "-f", &file, "-p", "{}"], None);
    assert_success(&out);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\n    \"apiVersion\": \"v1\",\n    \"data\": {\n        \"k\": \"\\u003ca\\u0026b\\u003e\"\n    },\n    \"kind\": \"ConfigMap\",\n    \"metadata\": {\n        \"name\": \"a\"\n    },\n    \"z\": 1\n}\n"
    );
}

#[test]
fn usage_and_input_errors() {
    let pod = temp_file("patch-usage.json", POD);
    // -p or --patch-file, not both, not neither.
    assert_eq!(smp(&["patch", "-f", &pod], None).status.code(), Some(2));
    let p = temp_file("patch-usage-p.json", "{}");
    assert_eq!(
        smp(&["patch", "-f", &pod, "-p", "{}", "--patch-file", &p], None)
            .status
            .code(),
        Some(2)
    );
    let out = smp(&["patch", "-f", &pod, "-p", "[1]"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected an object, found list"));
    let no_kind = temp_file("patch-nokind.json", r#"{"metadata":{"name":"a"}}"#);
    let out = smp(&["patch", "-f", &no_kind, "-p", "{}"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no apiVersion and kind"));
    // A top-level `$patch: delete` leaves no kind: refused, as kubectl refuses it.
    let out = smp(&["patch", "-f", &pod, "-p", r#"{"$patch":"delete"}"#], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no `kind`"));
}

// ---- Documented differences from kubectl (guide::differences, "From kubectl").

/// kubectl fails with `unable to find api field in struct PodSpec for the json field "zzz"`
/// when an unknown field is an object on both sides; smp merges it without metadata.
#[test]
fn difference_unknown_fields_merge() {
    let pod = temp_file(
        "patch-diff-unknown.json",
        r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":{"zzz":{"a":1}}}"#,
    );
    let out = stdout_json(&smp(
        &["patch", "-f", &pod, "-p", r#"{"spec":{"zzz":{"b":2}}}"#],
        None,
    ));
    assert_eq!(out["spec"]["zzz"], json!({"a": 1, "b": 2}));
}

/// kubectl drops a `$patch: replace` map whose field the object lacks; smp keeps its content.
#[test]
fn difference_replace_in_added_content() {
    let cm = temp_file(
        "patch-diff-added.json",
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}"#,
    );
    let out = stdout_json(&smp(
        &[
            "patch",
            "-f",
            &cm,
            "-p",
            r#"{"metadata":{"annotations":{"$patch":"replace","a":"b"}}}"#,
        ],
        None,
    ));
    assert_eq!(out["metadata"]["annotations"], json!({"a": "b"}));
}

/// kubectl prints YAML documents with nothing between them (not a valid stream); smp
/// separates them with `---`.
#[test]
fn difference_yaml_documents_are_separated() {
    let file = temp_file(
        "patch-diff-yaml.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n",
    );
    let out = smp(&["patch", "-f", &file, "-p", "{}", "-o", "yaml"], None);
    assert_success(&out);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n"
    );
}

/// One value both deleted and added: kubectl's result depends on Go's map order; smp deletes
/// first, then adds.
#[test]
fn difference_delete_then_add() {
    let cm = temp_file(
        "patch-diff-delete-add.json",
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","finalizers":["a","d"]}}"#,
    );
    let out = stdout_json(&smp(
        &[
            "patch",
            "-f",
            &cm,
            "-p",
            r#"{"metadata":{"$deleteFromPrimitiveList/finalizers":["a","d"],"finalizers":["d"],"uid":"u"}}"#,
        ],
        None,
    ));
    assert_eq!(out["metadata"]["finalizers"], json!(["d"]));
}

/// kubectl prints objects without `metadata.managedFields` unless `--show-managed-fields`.
#[test]
fn managed_fields_are_hidden_as_kubectl_hides_them() {
    let file = temp_file(
        "patch-managed.json",
        r#"{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "managedFields": [
            {"manager": "m", "operation": "Update", "apiVersion": "v1", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:data": {}}}]}, "data": {"a": "b"}}"#,
    );
    let out = smp(&["patch", "-f", &file, "-p", "{}"], None);
    assert_success(&out);
    assert_eq!(stdout_json(&out)["metadata"], json!({"name": "a"}));
    let shown = smp(
        &["patch", "-f", &file, "-p", "{}", "--show-managed-fields"],
        None,
    );
    assert_success(&shown);
    assert_eq!(
        stdout_json(&shown)["metadata"]["managedFields"][0]["manager"],
        "m"
    );
}

/// Deliberate difference: a list at a key of a map of lists, in both the object and the
/// patch, is replaced; kubectl fails (`merging an object in json but data type is not struct,
/// instead is: map`), a limit of upstream's metadata lookup rather than a rule.
#[test]
fn difference_lists_in_maps_of_lists_are_replaced() {
    let file = temp_file(
        "patch-csr.json",
        r#"{"apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest",
            "metadata": {"name": "a"}, "spec": {"request": "", "signerName": "s",
            "extra": {"a": ["x"], "b": ["z"]}}}"#,
    );
    let out = smp(
        &[
            "patch",
            "-f",
            &file,
            "-p",
            r#"{"spec":{"extra":{"a":["y"]}}}"#,
        ],
        None,
    );
    assert_success(&out);
    assert_eq!(
        stdout_json(&out)["spec"]["extra"],
        json!({"a": ["y"], "b": ["z"]})
    );
}

/// A JSON List takes the fast way (each item patched from its text, in batches on every core):
/// what it prints and reports is what the same objects print as YAML documents, item after
/// item, errors included, across batch boundaries.
#[test]
fn json_lists_take_the_fast_way_alike() {
    let mut items = Vec::new();
    let mut yaml = Vec::new();
    for i in 0..100 {
        let item = match i % 10 {
            // An unknown kind, a non-object item and one without a kind fail alone.
            3 => json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": i}}),
            5 => json!("not an object"),
            7 => json!({"metadata": {"name": format!("k{i}")}}),
            // managedFields are hidden; the general way prints that item.
            8 => json!({"apiVersion": "v1", "kind": "ConfigMap",
                        "metadata": {"name": format!("m{i}"), "managedFields": [{"manager": "x"}]}}),
            _ => json!({"apiVersion": "apps/v1", "kind": "Deployment",
                        "metadata": {"name": format!("d{i}"), "labels": {"<app>": "&"}},
                        "spec": {"template": {"spec": {"containers": [
                            {"name": "a", "image": "a:1", "ports": [{"containerPort": 80}]},
                            {"name": "b", "image": "b:1.5"}]}}}}),
        };
        yaml.push(serde_json::to_string(&item).expect("JSON"));
        items.push(item);
    }
    let list = json!({"apiVersion": "v1", "kind": "List", "items": items});
    let list = temp_file(
        "patch-fast-list.json",
        &serde_json::to_string_pretty(&list).expect("JSON"),
    );
    let docs = temp_file("patch-fast-docs.yaml", &yaml.join("\n---\n"));
    let patch = r#"{"metadata": {"labels": {"x": "1.0"}}, "spec": {"template": {"spec": {"containers": [{"name": "b", "image": "b:2"}]}}}}"#;
    let fast = smp(&["patch", "-f", &list, "-p", patch], None);
    let general = smp(&["patch", "-f", &docs, "-p", patch], None);
    assert_eq!(fast.status.code(), Some(1));
    assert_eq!(fast.status.code(), general.status.code());
    assert_eq!(
        String::from_utf8_lossy(&fast.stdout),
        String::from_utf8_lossy(&general.stdout)
    );
    assert_eq!(objects(&fast.stdout).len(), 70);
    // The same messages, the place named as an item of the List.
    let errors = |out: &std::process::Output| -> Vec<String> {
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .map(|l| l.split_once(": ").map_or(l, |(_, rest)| rest).to_owned())
            .collect()
    };
    let (fast_errors, general_errors) = (errors(&fast), errors(&general));
    assert_eq!(fast_errors.len(), 30, "{fast_errors:?}");
    assert_eq!(fast_errors.len(), general_errors.len());
    for (f, g) in fast_errors.iter().zip(&general_errors) {
        let (f, g) = (
            f.split_once(": ").map(|x| x.1),
            g.split_once(": ").map(|x| x.1),
        );
        assert_eq!(f, g);
    }
    assert!(
        fast_errors[0].contains("document 1 item 4"),
        "{fast_errors:?}"
    );
}

/// A JSON `List` printed as YAML (its objects patched one at a time, in batches) prints what the
/// same objects given as a YAML stream print (read whole, the general way), with the
/// separators between the printed objects only, whichever objects fail.
#[test]
fn a_list_printed_as_yaml_is_the_streams_yaml() {
    let config_map = |name: &str| {
        json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": name}, "data": {"k": "v: 1", "n": "0755"}})
    };
    let widget =
        json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}});
    for items in [
        vec![config_map("a"), widget.clone(), config_map("c")],
        vec![widget.clone(), config_map("b")],
        vec![config_map("a")],
        vec![widget.clone()],
    ] {
        let stream: String = items
            .iter()
            .map(|o| serde_json::to_string(o).unwrap())
            .collect::<Vec<_>>()
            .join("\n---\n");
        let list = json!({"apiVersion": "v1", "kind": "List", "items": items});
        let list = temp_file("patch-list-yaml.json", &list.to_string());
        let stream = temp_file("patch-list-yaml.yaml", &stream);
        let patch = r#"{"data":{"k":"x"}}"#;
        let from_list = smp(&["patch", "-f", &list, "-p", patch, "-o", "yaml"], None);
        let from_stream = smp(&["patch", "-f", &stream, "-p", patch, "-o", "yaml"], None);
        assert_eq!(
            String::from_utf8_lossy(&from_list.stdout),
            String::from_utf8_lossy(&from_stream.stdout)
        );
        assert_eq!(from_list.status.code(), from_stream.status.code());
    }
}

/// A YAML stream in the block style of manifests is patched document by document, in batches;
/// it prints, and fails, as the same stream read whole the general way (forced here by a tab
/// in a comment, which the fast reader leaves to the full one).
#[test]
fn a_block_yaml_stream_patches_as_when_read_whole() {
    let stream = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: 'v'\n---\n\
                  apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n---\n\
                  # a list\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  \
                  metadata:\n    name: b\n- apiVersion: example.com/v1\n  kind: Widget\n  metadata:\n    \
                  name: x\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n  data: {}\n";
    assert!(smp_core::yaml::split_documents(stream).is_some());
    let fast = temp_file("patch-stream-fast.yaml", stream);
    let whole = temp_file("patch-stream-whole.yaml", &format!("{stream}#\t\n"));
    let patch = r#"{"data":{"k":"x","n":"1"}}"#;
    for format in ["json", "yaml"] {
        let run = |file: &str| smp(&["patch", "-f", file, "-p", patch, "-o", format], None);
        let (fast, whole) = (run(&fast), run(&whole));
        assert_eq!(
            String::from_utf8_lossy(&fast.stdout),
            String::from_utf8_lossy(&whole.stdout),
            "{format}"
        );
        assert_eq!(
            String::from_utf8_lossy(&fast.stderr).replace("patch-stream-fast", "F"),
            String::from_utf8_lossy(&whole.stderr).replace("patch-stream-whole", "F"),
        );
        assert_eq!(fast.status.code(), Some(1));
        // The three ConfigMaps are printed, the two Widgets refused.
        let kind = if format == "json" {
            "\"kind\": \"ConfigMap\""
        } else {
            "kind: ConfigMap"
        };
        assert_eq!(
            String::from_utf8_lossy(&fast.stdout).matches(kind).count(),
            3
        );
    }
}
