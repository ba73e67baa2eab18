//! End-to-end tests of server-side apply: `smp apply-config --server-side` and `smp update`,
//! the worked example of the `recipes` guide checked against the output the guide shows.

mod common;

use common::{assert_success, assert_usage_error, root, smp, stdout_json, temp_file};
use serde_json::{Value, json};

/// The fenced block after `<!-- server-side: NAME -->` in the `recipes` guide.
fn guide_block(name: &str) -> String {
    let readme = std::fs::read_to_string(root().join("smp-core/src/guide/recipes.md"))
        .expect("the recipes guide");
    let marker = format!("<!-- server-side: {name} -->\n");
    let at = readme.find(&marker).expect("the marker") + marker.len();
    let block = &readme[at..];
    let body = &block[block.find('\n').expect("a fence") + 1..];
    body[..body.find("```").expect("a closing fence")].to_owned()
}

fn text(out: &std::process::Output) -> (String, String) {
    (
        String::from_utf8(out.stdout.clone()).unwrap(),
        String::from_utf8(out.stderr.clone()).unwrap(),
    )
}

#[test]
fn the_guides_example_gives_the_output_it_shows() {
    let created = smp(
        &[
            "apply-config",
            "--server-side",
            "-f",
            "examples/server-side/web.yaml",
            "--now",
            "2026-11-26T12:00:00Z",
            "-o",
            "yaml",
        ],
        None,
    );
    assert_success(&created);
    let live = temp_file("ssa-live.yaml", &text(&created).0);

    let refused = smp(
        &[
            "apply-config",
            "--server-side",
            "--field-manager",
            "autoscaler",
            "--live",
            &live,
            "-f",
            "examples/server-side/scale.yaml",
        ],
        None,
    );
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(text(&refused), (String::new(), guide_block("conflict")));

    let scaled = smp(
        &[
            "apply-config",
            "--server-side",
            "--field-manager",
            "autoscaler",
            "--force-conflicts",
            "--live",
            &live,
            "-f",
            "examples/server-side/scale.yaml",
            "--now",
            "2026-11-26T12:01:00Z",
            "-o",
            "yaml",
        ],
        None,
    );
    assert_success(&scaled);
    let scaled = temp_file("ssa-scaled.yaml", &text(&scaled).0);

    let last = smp(
        &[
            "apply-config",
            "--server-side",
            "--live",
            &scaled,
            "-f",
            "examples/server-side/web-v2.yaml",
            "--now",
            "2026-11-26T12:02:00Z",
            "-o",
            "yaml",
        ],
        None,
    );
    assert_success(&last);
    assert_eq!(text(&last).0, guide_block("result"));
}

#[test]
fn an_update_takes_what_it_changed_and_names_its_version_in_conflicts() {
    let created = smp(
        &[
            "apply-config",
            "--server-side",
            "-f",
            "examples/server-side/web.yaml",
            "--now",
            "2026-11-26T12:00:00Z",
        ],
        None,
    );
    assert_success(&created);
    let mut object = stdout_json(&created);
    object["spec"]["template"]["spec"]["containers"][0]["image"] = json!("nginx:1.28");
    let live = temp_file("ssa-update-live.json", &text(&created).0);
    let new = temp_file("ssa-update-new.json", &object.to_string());
    let updated = smp(
        &[
            "update",
            "--field-manager",
            "ctrl",
            "--live",
            &live,
            "-f",
            &new,
            "--now",
            "2026-11-26T12:05:00Z",
        ],
        None,
    );
    assert_success(&updated);
    let updated_object = stdout_json(&updated);
    let entries = updated_object["metadata"]["managedFields"]
        .as_array()
        .unwrap();
    let ctrl = entries
        .iter()
        .find(|e| e["manager"] == "ctrl")
        .expect("ctrl's entry");
    assert_eq!(ctrl["operation"], "Update");
    assert_eq!(ctrl["apiVersion"], "apps/v1");
    assert_eq!(ctrl["time"], "2026-11-26T12:05:00Z");
    assert_eq!(
        ctrl["fieldsV1"],
        json!({"f:spec": {"f:template": {"f:spec": {"f:containers": {"k:{\"name\":\"app\"}": {"f:image": {}}}}}}})
    );
    // kubectl applying its old image now conflicts with the controller.
    let after = temp_file("ssa-update-after.json", &text(&updated).0);
    let refused = smp(
        &[
            "apply-config",
            "--server-side",
            "--live",
            &after,
            "-f",
            "examples/server-side/web.yaml",
        ],
        None,
    );
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(
        text(&refused).1,
        "error: Apply failed with 1 conflict: conflict with \"ctrl\" using apps/v1: .spec.template.spec.containers[name=\"app\"].image\n"
    );
}

#[test]
fn creating_without_live_or_with_an_empty_one_is_the_same() {
    let args = |live: Option<&str>| {
        let mut a = vec![
            "apply-config",
            "--server-side",
            "-f",
            "examples/server-side/web.yaml",
            "--now",
            "2026-11-26T12:00:00Z",
        ];
        if let Some(live) = live {
            a.extend(["--live", live]);
        }
        stdout_json(&smp(&a, None))
    };
    let empty = temp_file("ssa-empty.yaml", "");
    let braces = temp_file("ssa-braces.json", "{}");
    let none = args(None);
    assert_eq!(args(Some(&empty)), none);
    assert_eq!(args(Some(&braces)), none);
    assert_eq!(none["metadata"]["managedFields"][0]["manager"], "kubectl");
}

#[test]
fn custom_resources_are_typed_by_their_crds() {
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"kind": "Widget", "plural": "widgets"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "apiVersion": {"type": "string"}, "kind": {"type": "string"},
                    "metadata": {"type": "object"},
                    "spec": {"type": "object", "properties": {"ports": {
                        "type": "array", "x-kubernetes-list-type": "map",
                        "x-kubernetes-list-map-keys": ["port"],
                        "items": {"type": "object", "properties": {"port": {"type": "integer"}, "name": {"type": "string"}}}
                    }}}
                }}}
            }]}
    });
    let crd = temp_file("ssa-widget-crd.json", &crd.to_string());
    let widget = temp_file(
        "ssa-widget.json",
        &json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                "spec": {"ports": [{"port": 80, "name": "http"}]}})
        .to_string(),
    );
    let out = smp(
        &[
            "apply-config",
            "--server-side",
            "--crd",
            &crd,
            "-f",
            &widget,
        ],
        None,
    );
    assert_success(&out);
    let object: Value = stdout_json(&out);
    assert_eq!(
        object["metadata"]["managedFields"][0]["fieldsV1"]["f:spec"]["f:ports"],
        json!({"k:{\"port\":80}": {".": {}, "f:name": {}, "f:port": {}}})
    );
    // Without the CRD the kind is unknown, and the error says what to do.
    let unknown = smp(&["apply-config", "--server-side", "-f", &widget], None);
    assert_eq!(unknown.status.code(), Some(1));
    assert!(
        text(&unknown)
            .1
            .contains("give its CustomResourceDefinition with --crd"),
        "{:?}",
        text(&unknown)
    );
}

#[test]
fn options_that_do_not_go_together_are_usage_errors() {
    let web = "examples/server-side/web.yaml";
    assert_usage_error(&smp(&["apply-config", "-f", web], None));
    assert_usage_error(&smp(
        &[
            "apply-config",
            "--server-side",
            "-f",
            web,
            "--print",
            "patch",
        ],
        None,
    ));
    assert_usage_error(&smp(
        &[
            "apply-config",
            "--force-conflicts",
            "--live",
            web,
            "-f",
            web,
        ],
        None,
    ));
    assert_usage_error(&smp(
        &[
            "apply-config",
            "--now",
            "2026-11-26T12:00:00Z",
            "--live",
            web,
            "-f",
            web,
        ],
        None,
    ));
    assert_usage_error(&smp(
        &[
            "apply-config",
            "--server-side",
            "--now",
            "yesterday",
            "-f",
            web,
        ],
        None,
    ));
    assert_usage_error(&smp(&["update", "-f", web], None));
}

#[test]
fn a_custom_resources_status_is_written_through_its_subresource() {
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "gadgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"kind": "Gadget", "plural": "gadgets"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "subresources": {"status": {}},
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "apiVersion": {"type": "string"}, "kind": {"type": "string"},
                    "metadata": {"type": "object"},
                    "spec": {"type": "object", "properties": {"size": {"type": "integer"}}},
                    "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}}
                }}}
            }]}
    });
    let crd = temp_file("ssa-gadget-crd.json", &crd.to_string());
    let gadget = |spec: Value, status: Value| {
        json!({"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": {"name": "g"},
               "spec": spec, "status": status})
        .to_string()
    };
    // The main resource keeps no status a configuration brings.
    let first = temp_file(
        "ssa-gadget-1.json",
        &gadget(json!({"size": 1}), json!({"ready": true})),
    );
    let created = smp(
        &["apply-config", "--server-side", "--crd", &crd, "-f", &first],
        None,
    );
    assert_success(&created);
    let live_object = stdout_json(&created);
    assert!(live_object.get("status").is_none(), "{live_object}");
    // The status subresource writes the status and keeps the spec.
    let live = temp_file("ssa-gadget-live.json", &live_object.to_string());
    let report = temp_file(
        "ssa-gadget-2.json",
        &gadget(json!({"size": 9}), json!({"ready": true})),
    );
    let reported = smp(
        &[
            "apply-config",
            "--server-side",
            "--crd",
            &crd,
            "--subresource",
            "status",
            "--field-manager",
            "ctrl",
            "--live",
            &live,
            "-f",
            &report,
        ],
        None,
    );
    assert_success(&reported);
    let object = stdout_json(&reported);
    assert_eq!(object["status"], json!({"ready": true}));
    assert_eq!(object["spec"], json!({"size": 1}));
}

/// A create records what the manager wrote with the defaults the server gives it (owned by
/// the writer of an update, as on the server), then the kind's create-time status (no one's);
/// `--no-defaulting` leaves both out.
#[test]
fn updates_are_defaulted_as_the_server_defaults_them() {
    let pod = temp_file(
        "update-default-pod.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: app:1}]\n",
    );
    let args = [
        "update",
        "--field-manager",
        "me",
        "--now",
        "2026-11-26T12:00:00Z",
        "-f",
        &pod,
    ];
    let out = smp(&args, None);
    let object = stdout_json(&out);
    assert_eq!(
        object["spec"]["containers"][0]["imagePullPolicy"],
        "IfNotPresent"
    );
    assert_eq!(
        object["status"],
        serde_json::json!({"phase": "Pending", "qosClass": "BestEffort"})
    );
    let fields = &object["metadata"]["managedFields"][0]["fieldsV1"];
    assert!(fields["f:spec"]["f:dnsPolicy"].is_object(), "{fields}");
    assert!(fields.get("f:status").is_none(), "{fields}");
    let mut plain = args.to_vec();
    plain.push("--no-defaulting");
    let object = stdout_json(&smp(&plain, None));
    assert!(object["spec"].get("dnsPolicy").is_none());
    assert!(
        object
            .get("status")
            .is_none_or(|s| s.get("phase").is_none())
    );
}

/// What the server refuses is refused here too, with its 422 message: an apply that would
/// create an invalid object, and an update that changes an immutable ConfigMap's data; the
/// objects they would store are not printed.
#[test]
fn invalid_results_are_refused_with_the_servers_message() {
    let bad = temp_file(
        "ssa-bad.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: Bad_Name}\ndata: {a: b}\n",
    );
    let out = smp(&["apply-config", "--server-side", "-f", &bad], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let (_, stderr) = text(&out);
    assert!(
        stderr.starts_with(
            "error: ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\""
        ),
        "{stderr}"
    );
    // Its own file names: the tests run in parallel, and another writes `ssa-live.yaml`.
    let live = temp_file(
        "ssa-frozen-live.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: frozen, namespace: default, resourceVersion: '3'}\nimmutable: true\ndata: {a: '1'}\n",
    );
    let new = temp_file(
        "ssa-frozen-new.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: frozen, namespace: default}\nimmutable: true\ndata: {a: '2'}\n",
    );
    let out = smp(
        &[
            "update",
            "--field-manager",
            "ctl",
            "--live",
            &live,
            "-f",
            &new,
        ],
        None,
    );
    let (_, stderr) = text(&out);
    assert_eq!(
        stderr,
        "error: ConfigMap \"frozen\" is invalid: data: Forbidden: field is immutable when `immutable` is set\n"
    );
    let out = smp(
        &[
            "update",
            "--field-manager",
            "ctl",
            "--live",
            &live,
            "-f",
            &new,
            "--no-defaulting",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}
