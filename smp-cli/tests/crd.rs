//! End-to-end tests of `--crd`: custom resources patched, diffed and three-way merged by the
//! markers of their CRDs, and refused without it as kubectl refuses them. The Gateway API CRDs
//! are shared data (`../shared/crds/gateway-api/crds`): the tests that load them skip, saying
//! so, without them; the instance and its patches are this repository's (`tests/crds`).

mod common;

use common::{assert_error, assert_success, smp, stdout_json, temp_file};
use serde_json::json;

/// The Gateway API CRDs, relative to the shared data directory.
const CRDS: &str = "crds/gateway-api/crds";
const GATEWAY: &str = "tests/crds/gateway-api/instances/gateway-prod-web.yaml";
const ADD: &str = "tests/crds/gateway-api/patches/gateway-prod-web.02-add-listener.yaml";

fn listener_names(doc: &serde_json::Value) -> Vec<String> {
    doc["spec"]["listeners"]
        .as_array()
        .expect("listeners")
        .iter()
        .map(|l| l["name"].as_str().expect("name").to_owned())
        .collect()
}

/// The shared Gateway API CRDs directory, or `None` (the test skips, saying so).
fn gateway_crds() -> Option<String> {
    smp_testdata::file(CRDS).map(|p| p.to_str().expect("a UTF-8 path").to_owned())
}

#[test]
fn patch_merges_a_gateways_listeners_by_name() {
    let Some(crds) = gateway_crds() else { return };
    let out = smp(
        &["patch", "--crd", &crds, "-f", GATEWAY, "--patch-file", ADD],
        None,
    );
    assert_success(&out);
    let names = listener_names(&stdout_json(&out));
    assert_eq!(names.len(), 8, "{names:?}");
    assert_eq!(names[0], "https-admin");
    assert!(names.contains(&"https-wildcard".to_owned()));
    // One CRD file works as well as the directory.
    let file = format!("{crds}/gateway.networking.k8s.io_gateways.yaml");
    let out = smp(
        &["patch", "--crd", &file, "-f", GATEWAY, "--patch-file", ADD],
        None,
    );
    assert_success(&out);
    // Without --crd: kubectl's refusal, which now names the option.
    let out = smp(&["patch", "-f", GATEWAY, "--patch-file", ADD], None);
    assert_error(
        &out,
        &[
            "strategic merge patch is not supported for gateway.networking.k8s.io/v1, Kind=Gateway locally",
            "--crd",
        ],
    );
}

#[test]
fn diff_and_three_way_use_the_crd() {
    let Some(crds) = gateway_crds() else { return };
    let original = smp(&["patch", "--crd", &crds, "-f", GATEWAY, "-p", "{}"], None);
    assert_success(&original);
    let patched = smp(
        &["patch", "--crd", &crds, "-f", GATEWAY, "--patch-file", ADD],
        None,
    );
    assert_success(&patched);
    let a = temp_file("crd-gateway-a.json", &stdout_json(&original).to_string());
    let b = temp_file("crd-gateway-b.json", &stdout_json(&patched).to_string());
    // The two-way patch sends the new listener only (merged by key; the unchanged atomic
    // `namespaces.selector` objects of the others stay out), with the order. `smp apply` of
    // it gives the patched Gateway.
    let out = smp(&["diff", "--crd", &crds, &a, &b], None);
    assert_success(&out);
    let patch = stdout_json(&out);
    let items = patch["spec"]["listeners"].as_array().expect("listeners");
    assert_eq!(items.len(), 1, "{patch}");
    assert_eq!(items[0]["name"], json!("https-admin"));
    assert_eq!(items[0]["port"], json!(443));
    assert!(patch["spec"]["$setElementOrder/listeners"].is_array());
    let patch_file = temp_file("crd-gateway-patch.json", &patch.to_string());
    let out = smp(&["merge", "--crd", &crds, &a, &patch_file], None);
    assert_success(&out);
    assert_eq!(stdout_json(&out), stdout_json(&patched));
    // Three-way with original == current is the two-way patch.
    let out = smp(&["three-way", "--crd", &crds, &a, &b, &a], None);
    assert_success(&out);
    assert_eq!(stdout_json(&out), patch);
    // Untyped, the listeners list would be sent whole.
    let out = smp(&["diff", &a, &b], None);
    assert_success(&out);
    assert_eq!(
        stdout_json(&out)["spec"]["listeners"]
            .as_array()
            .map(Vec::len),
        Some(8)
    );
}

#[test]
fn bad_crd_paths_are_errors() {
    let out = smp(
        &["patch", "--crd", "no/such/dir", "-f", GATEWAY, "-p", "{}"],
        None,
    );
    assert_error(&out, &["no/such/dir"]);
    let out = smp(
        &[
            "patch",
            "--crd",
            "examples/apply-config",
            "-f",
            GATEWAY,
            "-p",
            "{}",
        ],
        None,
    );
    assert_error(&out, &["no CustomResourceDefinition"]);
    let bad = temp_file(
        "crd-bad.yaml",
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: w.example.com}\nspec:\n  group: example.com\n  names: {kind: W}\n  versions:\n  - name: v1\n    served: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          l: {type: array, x-kubernetes-list-type: map}\n",
    );
    let out = smp(&["patch", "--crd", &bad, "-f", GATEWAY, "-p", "{}"], None);
    assert_error(&out, &["w.example.com", "x-kubernetes-list-map-keys"]);
}

/// A CRD whose `spec.template` is an embedded resource (`x-kubernetes-embedded-resource`).
const EMBEDDING_CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              template:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
"#;

#[test]
fn embedded_resources_are_typed_by_their_own_kind() {
    let crd = temp_file("crd-embedding.yaml", EMBEDDING_CRD);
    let widget = |image: &str| {
        json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
               "spec": {"template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
                   "spec": {"containers": [{"name": "a", "image": image}, {"name": "b", "image": "b"}]}}}})
    };
    let a = temp_file("crd-embedding-a.json", &widget("a").to_string());
    let b = temp_file("crd-embedding-b.json", &widget("a2").to_string());
    // The embedded Pod's containers merge by name: the patch names container `a` only.
    let patch =
        r#"{"spec": {"template": {"spec": {"containers": [{"name": "a", "image": "a2"}]}}}}"#;
    let out = smp(&["patch", "--crd", &crd, "-f", &a, "-p", patch], None);
    assert_success(&out);
    assert_eq!(stdout_json(&out), widget("a2"));
    let out = smp(&["diff", "--crd", &crd, &a, &b], None);
    assert_success(&out);
    assert_eq!(
        stdout_json(&out),
        json!({"spec": {"template": {"apiVersion": "v1", "kind": "Pod", "spec": {
            "$setElementOrder/containers": [{"name": "a"}, {"name": "b"}],
            "containers": [{"name": "a", "image": "a2"}]}}}})
    );
}

/// The custom_resources guide's example, on this repository's own CRD (`examples/manifests`):
/// `domains` merged by `host`, `routes` by `path` and `method` together, `paymentProviders` as a
/// set.
#[test]
fn readme_storefront_example() {
    let out = smp(
        &[
            "patch",
            "--crd",
            "examples/manifests/apiextensions.k8s.io-v1-customresourcedefinition.yaml",
            "-f",
            "examples/custom-resource/storefront.yaml",
            "--patch-file",
            "examples/custom-resource/storefront-patch.yaml",
        ],
        None,
    );
    assert_success(&out);
    let spec = &stdout_json(&out)["spec"];
    assert_eq!(
        spec["domains"],
        json!([
            {"host": "books.example.com", "tlsSecretName": "books-tls-2027"},
            {"host": "livres.example.com"},
            {"host": "www.books.example.com", "redirectWww": true},
        ])
    );
    assert_eq!(
        spec["routes"],
        json!([
            {"path": "/api", "method": "GET", "backend": {"service": "catalog", "port": 8080}},
            {"path": "/api", "method": "POST", "backend": {"service": "orders-v2", "port": 8080}},
        ])
    );
    assert_eq!(spec["paymentProviders"], json!(["adyen", "stripe"]));
}
