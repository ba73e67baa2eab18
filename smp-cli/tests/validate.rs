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

    // The custom resource of the third command: its CEL rule, after the default `max: 10`.
    let line = r#"spec: Invalid value: "object": replicas must not exceed max"#;
    let prose: String = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(prose.contains(&format!("the third prints `{line}`")));
    let crd = common::root().join("examples/admission/widgets-crd.yaml");
    let widget = common::root().join("examples/admission/invalid-widget.yaml");
    let out = smp(
        &[
            "validate",
            "--crd",
            crd.to_str().unwrap(),
            "-f",
            widget.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("{line}\n"));
}

/// Custom resources of real CRDs (from the shared data): a Gateway API HTTPRoute its schema
/// refuses gets the server's lines (kube-openapi's messages as apiextensions-apiserver turns
/// them into field errors), its unknown field a warning; one its CEL rules refuse gets theirs;
/// every shared instance of the three projects' CRDs is valid.
#[test]
fn custom_resources_are_validated_by_their_crds() {
    let Some(crds) = smp_testdata::file("crds") else {
        return;
    };
    let gateway_api = crds.join("gateway-api/crds");
    let route = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web}
spec:
  colour: red
  parentRefs: [{name: gw, port: 70000}]
  hostnames: [Bad_Host]
  rules:
  - backendRefs: [{name: web, port: 80, weight: -1}]
";
    let out = smp(
        &[
            "validate",
            "-f",
            "-",
            "--crd",
            gateway_api.to_str().unwrap(),
        ],
        Some(route),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        r#"spec.hostnames[0]: Invalid value: "Bad_Host": spec.hostnames[0] in body should match '^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'
spec.parentRefs[0].port: Invalid value: 70000: spec.parentRefs[0].port in body should be less than or equal to 65535
spec.rules[0].backendRefs[0].weight: Invalid value: -1: spec.rules[0].backendRefs[0].weight in body should be greater than or equal to 0
"#
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("Warning: <stdin> document 1: unknown field \"spec.colour\"\n"));
    assert!(stderr.contains("HTTPRoute.gateway.networking.k8s.io \"web\" is invalid"));

    // Its x-kubernetes-validations rules, evaluated with Kubernetes' CEL libraries: each
    // failed rule at its node, the value the node's schema type.
    let route = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: default}
spec:
  parentRefs: [{name: gw}]
  rules:
  - backendRefs: [{name: web}]
    filters:
    - {type: RequestRedirect, requestRedirect: {scheme: https}}
    - {type: URLRewrite, urlRewrite: {hostname: example.com}}
";
    let out = smp(
        &[
            "validate",
            "-f",
            "-",
            "--crd",
            gateway_api.to_str().unwrap(),
        ],
        Some(route),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        r#"spec.rules[0]: Invalid value: "object": RequestRedirect filter must not be used together with backendRefs
spec.rules[0].backendRefs[0]: Invalid value: "object": Must have port for Service reference
spec.rules[0].filters: Invalid value: "array": May specify either httpRouteFilterRequestRedirect or httpRouteFilterRequestRewrite, but not both
"#
    );

    for project in ["gateway-api", "cert-manager", "argo-cd"] {
        let definitions = crds.join(project).join("crds");
        for entry in std::fs::read_dir(crds.join(project).join("instances")).unwrap() {
            let path = entry.unwrap().path();
            let out = smp(
                &[
                    "validate",
                    "-f",
                    path.to_str().unwrap(),
                    "--crd",
                    definitions.to_str().unwrap(),
                ],
                None,
            );
            assert_eq!(
                (out.status.code(), out.stdout.len(), out.stderr.len()),
                (Some(0), 0, 0),
                "{}: {}",
                path.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// A CustomResourceDefinition is checked as the server's CRD strategy checks it: its schema
/// structural, its rules compiling.
#[test]
fn crds_are_validated_as_the_server_validates_them() {
    let crd = "\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
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
              size: {description: how big}
";
    let out = smp(&["validate", "-f", "-"], Some(crd));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields\n"
    );
    let valid = crd.replace("{description: how big}", "{type: integer}");
    let out = smp(&["validate", "-f", "-"], Some(&valid));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_valid_object_the_server_warns_about_exits_zero_with_the_warning_on_stderr() {
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n\
               spec:\n  nodeSelector: {beta.kubernetes.io/os: linux}\n  \
               containers: [{name: c, image: busybox}]\n";
    let out = smp(&["validate", "-f", "-"], Some(pod));
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "Warning: <stdin> document 1: spec.nodeSelector[beta.kubernetes.io/os]: deprecated \
         since v1.14; use \"kubernetes.io/os\" instead\n"
    );
}

/// With `--cluster`, valid objects go through the validating admission plugins over what the
/// cluster holds: PodSecurity by the namespace's labels, the cluster's admission policies;
/// each refusal is the server's message on one line, and a warning goes to standard error.
#[test]
fn a_cluster_brings_the_validating_admission_plugins() {
    let cluster = temp_file(
        "validate-cluster.yaml",
        "\
apiVersion: v1
kind: Namespace
metadata: {name: secure, labels: {pod-security.kubernetes.io/enforce: baseline, pod-security.kubernetes.io/warn: restricted}}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replicas}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
  validations:
  - {expression: object.spec.replicas <= 5, message: at most 5 replicas}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: replicas}
spec: {policyName: replicas, validationActions: [Deny]}
",
    );
    let objects = "\
apiVersion: v1
kind: Pod
metadata: {name: net, namespace: secure}
spec:
  hostNetwork: true
  containers: [{name: app, image: app:1}]
---
apiVersion: v1
kind: Pod
metadata: {name: plain, namespace: secure}
spec:
  containers: [{name: app, image: app:1}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: secure}
spec:
  replicas: 9
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: app:1}]}
";
    let out = smp(
        &["validate", "-f", "-", "--cluster", &cluster],
        Some(objects),
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            r#"pods "net" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true)"#,
            r#"deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'replicas' with binding 'replicas' denied request: at most 5 replicas"#,
        ]
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("<stdin> document 2: would violate PodSecurity \"restricted:latest\": allowPrivilegeEscalation != false"),
        "{stderr}"
    );
    // Without the cluster, the same objects are valid.
    let out = smp(&["validate", "-f", "-"], Some(objects));
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}
