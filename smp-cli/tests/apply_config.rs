//! End-to-end tests of `smp apply-config`: `kubectl apply` (client-side) on the shipped example,
//! the annotation round trip, conflicts and errors.

mod common;

use common::{assert_error, assert_success, assert_usage_error, smp, stdout_json, temp_file};
use serde_json::{Value, json};

const LIVE: &str = "examples/apply-config/live.yaml";
const DESIRED: &str = "examples/apply-config/desired.yaml";
const ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";

fn names(containers: &Value) -> Vec<&str> {
    containers
        .as_array()
        .expect("list")
        .iter()
        .map(|c| c["name"].as_str().expect("name"))
        .collect()
}

#[test]
fn the_example_deletes_what_the_last_configuration_had_and_keeps_the_rest() {
    let out = smp(&["apply-config", "--live", LIVE, "-f", DESIRED], None);
    assert_success(&out);
    let object = stdout_json(&out);
    let spec = &object["spec"]["template"]["spec"];
    // `debug` was applied last time and is gone from the configuration: deleted. The injected
    // `istio-proxy` was never in a configuration: kept. Defaults stay.
    assert_eq!(names(&spec["containers"]), ["app", "istio-proxy"]);
    assert_eq!(spec["containers"][0]["image"], json!("shop/web:1.5"));
    assert_eq!(
        spec["containers"][0]["imagePullPolicy"],
        json!("IfNotPresent")
    );
    assert_eq!(object["spec"]["replicas"], json!(3));
    assert_eq!(object["metadata"]["labels"], json!({"app": "web"}));
    assert_eq!(
        object["metadata"]["annotations"]["deployment.kubernetes.io/revision"],
        json!("3")
    );
    // The annotation now holds the desired configuration, as kubectl writes it.
    let text = object["metadata"]["annotations"][ANNOTATION]
        .as_str()
        .expect("annotation");
    assert!(text.ends_with("}\n"), "{text:?}");
    assert!(text.starts_with(
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"annotations\":{},"
    ));

    // The patch: the label and the container deleted, the new annotation set.
    let out = smp(
        &[
            "apply-config",
            "--live",
            LIVE,
            "-f",
            DESIRED,
            "--print",
            "patch",
        ],
        None,
    );
    assert_success(&out);
    let patch = stdout_json(&out);
    assert_eq!(patch["metadata"]["labels"], json!({"tier": null}));
    assert_eq!(
        patch["spec"]["template"]["spec"]["containers"],
        json!([{"name": "app", "image": "shop/web:1.5"}, {"name": "debug", "$patch": "delete"}])
    );
    assert_eq!(patch["metadata"]["annotations"][ANNOTATION], json!(text));

    // Applying the same configuration to the result changes nothing. (The patch is not `{}`:
    // the live list holds a container the configuration lacks, so it carries the order of the
    // configuration's containers, `$setElementOrder/containers`, as kubectl's does.)
    let applied = temp_file("apply-config-result.json", &object.to_string());
    let out = smp(&["apply-config", "--live", &applied, "-f", DESIRED], None);
    assert_success(&out);
    assert_eq!(stdout_json(&out), object);
    let out = smp(
        &[
            "apply-config",
            "--live",
            &applied,
            "-f",
            DESIRED,
            "--print",
            "patch",
        ],
        None,
    );
    assert_success(&out);
    assert_eq!(
        stdout_json(&out),
        json!({"spec": {"template": {"spec": {"$setElementOrder/containers": [{"name": "app"}]}}}})
    );
}

#[test]
fn without_the_annotation_nothing_is_deleted() {
    let live = std::fs::read_to_string(common::root().join(LIVE)).expect("live");
    let start = live.find("    kubectl.kubernetes.io").expect("annotation");
    let end = live[start..].find("\nspec:").expect("spec") + start;
    let bare = temp_file(
        "apply-config-bare.yaml",
        &format!("{}{}", &live[..start], &live[end + 1..]),
    );
    let out = smp(&["apply-config", "--live", &bare, "-f", DESIRED], None);
    assert_success(&out);
    let object = stdout_json(&out);
    assert_eq!(
        names(&object["spec"]["template"]["spec"]["containers"]),
        ["app", "debug", "istio-proxy"]
    );
    assert_eq!(object["metadata"]["labels"]["tier"], json!("web"));
}

#[test]
fn conflicts_without_overwrite_are_errors() {
    // Someone scaled the live object to 5 since the last apply; the configuration says 3.
    let live = std::fs::read_to_string(common::root().join(LIVE)).expect("live");
    let scaled = temp_file(
        "apply-config-scaled.yaml",
        &live.replacen(
            "  replicas: 2\n  progressDeadlineSeconds",
            "  replicas: 5\n  progressDeadlineSeconds",
            1,
        ),
    );
    let out = smp(
        &[
            "apply-config",
            "--live",
            &scaled,
            "-f",
            DESIRED,
            "--overwrite=false",
        ],
        None,
    );
    assert_error(&out, &["conflict", "spec.replicas"]);
    // A new configuration for an object nobody else touched: --overwrite=false succeeds. The
    // annotation itself, which changes at every apply, is not a conflict (upstream's check
    // alone would say it is; guide::differences).
    let first = smp(&["apply-config", "--live", LIVE, "-f", DESIRED], None);
    assert_success(&first);
    let applied = temp_file("apply-config-first.json", &stdout_json(&first).to_string());
    let desired = std::fs::read_to_string(common::root().join(DESIRED)).expect("desired");
    let four = temp_file(
        "apply-config-four.yaml",
        &desired.replacen("replicas: 3", "replicas: 4", 1),
    );
    let out = smp(
        &[
            "apply-config",
            "--live",
            &applied,
            "-f",
            &four,
            "--overwrite=false",
        ],
        None,
    );
    assert_success(&out);
    assert_eq!(stdout_json(&out)["spec"]["replicas"], json!(4));
    // With overwrite (kubectl's default) the configuration wins.
    let out = smp(&["apply-config", "--live", &scaled, "-f", DESIRED], None);
    assert_success(&out);
    assert_eq!(stdout_json(&out)["spec"]["replicas"], json!(3));
}

#[test]
fn bad_annotations_and_usage_are_errors() {
    let live = temp_file(
        "apply-config-bad.json",
        &json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a",
                "annotations": {ANNOTATION: "{oops"}}})
        .to_string(),
    );
    let desired = temp_file(
        "apply-config-cm.json",
        &json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}).to_string(),
    );
    let out = smp(&["apply-config", "--live", &live, "-f", &desired], None);
    assert_error(&out, &[ANNOTATION]);
    assert_usage_error(&smp(&["apply-config", "-f", &desired], None));
    assert_usage_error(&smp(&["apply-config", "--live", "-", "-f", "-"], None));
}
