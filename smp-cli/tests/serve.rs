//! `smp serve` with the real kubectl: client-side apply twice, server-side apply by two field
//! managers (a conflict, then forced), `kubectl patch` of each type, get, replace, diff and
//! delete, each output checked.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The server, stopped when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The first kubectl found ([`smp_testdata::kubectl_candidates`]).
fn kubectl() -> Option<PathBuf> {
    smp_testdata::kubectl_candidates().find(|p| p.is_file())
}

/// kubectl's exit status, standard output and standard error.
fn run(kubectl: &Path, config: &Path, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(kubectl)
        .arg("--kubeconfig")
        .arg(config)
        .args(args)
        .output()
        .expect("kubectl runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `smp serve` started with `args` besides `--kubeconfig`, in a scratch directory named after
/// `name`: the server, the directory and the kubeconfig, once the server said where it listens.
fn start(name: &str, args: &[&std::ffi::OsStr]) -> (Server, PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("smp-serve-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("kubeconfig.yaml");
    let mut child = Command::new(env!("CARGO_BIN_EXE_smp"))
        .args(["serve", "--kubeconfig"])
        .arg(&config)
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(
        first.starts_with("listening on http://127.0.0.1:"),
        "{first}"
    );
    (Server(child), dir, config)
}

#[test]
fn kubectl_against_smp_serve() {
    let Some(kubectl) = kubectl() else {
        eprintln!("kubectl not found (SMP_KUBECTL, .ci/install-kubectl or PATH): not run");
        return;
    };
    let (_server, dir, config) = start("test", &[]);

    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    };
    let k = |args: &[&str]| run(&kubectl, &config, args);
    let ok = |args: &[&str]| {
        let (success, out, err) = k(args);
        assert!(success, "kubectl {args:?}: {err}");
        out
    };

    // Client-side apply, twice: created, then configured, the annotation kept.
    let cm = |a: &str| {
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\ndata:\n  a: \"{a}\"\n")
    };
    let file = write("cm.yaml", &cm("1"));
    assert_eq!(ok(&["apply", "-f", &file]), "configmap/demo created\n");
    let file = write("cm.yaml", &cm("2"));
    assert_eq!(ok(&["apply", "-f", &file]), "configmap/demo configured\n");
    assert_eq!(ok(&["get", "cm", "demo", "-o", "jsonpath={.data.a}"]), "2");
    let annotation = ok(&[
        "get",
        "cm",
        "demo",
        "-o",
        "jsonpath={.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}",
    ]);
    assert!(annotation.contains(r#""data":{"a":"2"}"#), "{annotation}");

    // Server-side apply by two managers.
    let deployment = |replicas: u32| {
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: {replicas}\n  \
             selector:\n    matchLabels: {{app: web}}\n  template:\n    metadata:\n      labels: {{app: web}}\n    \
             spec:\n      containers:\n      - name: app\n        image: app:1\n"
        )
    };
    let mine = write("web.yaml", &deployment(2));
    let theirs = write("web-5.yaml", &deployment(5));
    assert_eq!(
        ok(&["apply", "--server-side", "-f", &mine]),
        "deployment.apps/web serverside-applied\n"
    );
    let (success, _, err) = k(&[
        "apply",
        "--server-side",
        "--field-manager",
        "other",
        "-f",
        &theirs,
    ]);
    assert!(!success);
    assert!(
        err.starts_with(
            "error: Apply failed with 1 conflict: conflict with \"kubectl\": .spec.replicas"
        ),
        "{err}"
    );
    ok(&[
        "apply",
        "--server-side",
        "--field-manager",
        "other",
        "--force-conflicts",
        "-f",
        &theirs,
    ]);
    assert_eq!(
        ok(&["get", "deploy", "web", "-o", "jsonpath={.spec.replicas}"]),
        "5"
    );

    // `kubectl scale` goes through the scale subresource, with and without a precondition.
    assert_eq!(
        ok(&["scale", "deploy", "web", "--replicas", "6"]),
        "deployment.apps/web scaled\n"
    );
    let (success, _, err) = k(&[
        "scale",
        "deploy",
        "web",
        "--replicas",
        "7",
        "--current-replicas",
        "5",
    ]);
    assert!(
        !success && err.contains("Expected replicas to be 5, was 6"),
        "{err}"
    );
    ok(&[
        "scale",
        "deploy",
        "web",
        "--replicas",
        "5",
        "--current-replicas",
        "6",
    ]);
    assert_eq!(
        ok(&["get", "deploy", "web", "-o", "jsonpath={.spec.replicas}"]),
        "5"
    );

    // Each patch type.
    assert_eq!(
        ok(&[
            "patch",
            "deploy",
            "web",
            "--type",
            "merge",
            "-p",
            r#"{"spec":{"replicas":3}}"#
        ]),
        "deployment.apps/web patched\n"
    );
    ok(&[
        "patch",
        "deploy",
        "web",
        "--type",
        "json",
        "-p",
        r#"[{"op":"replace","path":"/spec/replicas","value":4}]"#,
    ]);
    ok(&[
        "patch",
        "deploy",
        "web",
        "-p",
        r#"{"spec":{"template":{"spec":{"containers":[{"name":"side","image":"s:1"}]}}}}"#,
    ]);
    assert_eq!(
        ok(&[
            "get",
            "deploy",
            "web",
            "-o",
            "jsonpath={.spec.replicas} {.spec.template.spec.containers[*].name}"
        ]),
        "4 side app"
    );
    let yaml = ok(&["get", "deploy", "web", "-o", "yaml"]);
    assert!(
        yaml.contains("kind: Deployment") && yaml.contains("generation:"),
        "{yaml}"
    );

    // Diff: the file says 2 replicas, the server has 4 (exit status 1: differences).
    let (same, out, _) = k(&["diff", "-f", &mine]);
    assert!(!same);
    assert!(
        out.contains("-  replicas: 4") && out.contains("+  replicas: 2"),
        "{out}"
    );

    // Replace, then delete.
    assert_eq!(
        ok(&["replace", "-f", &mine]),
        "deployment.apps/web replaced\n"
    );
    assert_eq!(
        ok(&["get", "deploy", "web", "-o", "jsonpath={.spec.replicas}"]),
        "2"
    );
    // (kubectl v1.34 adds " from default namespace".)
    let deleted = ok(&["delete", "deploy", "web"]);
    assert!(
        deleted.starts_with("deployment.apps \"web\" deleted"),
        "{deleted}"
    );
    let (found, _, err) = k(&["get", "deploy", "web"]);
    assert!(!found);
    assert!(err.contains("deployments.apps \"web\" not found"), "{err}");

    // A CRD created through the API, then one of its objects.
    let crd = write("crd.yaml", CRD);
    assert_eq!(
        ok(&["create", "-f", &crd]),
        "customresourcedefinition.apiextensions.k8s.io/widgets.example.com created\n"
    );
    let widget = write(
        "widget.yaml",
        "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 3\n",
    );
    assert_eq!(
        ok(&["create", "-f", &widget]),
        "widget.example.com/w created\n"
    );
    assert_eq!(
        ok(&["get", "widgets", "w", "-o", "jsonpath={.spec.size}"]),
        "3"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

const CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
";

/// `--crd` serves a CRD's kind from the start; `--crd-strategic-merge` lets its objects take
/// strategic merge patches.
#[test]
fn crds_given_at_start_are_served() {
    let Some(kubectl) = kubectl() else {
        eprintln!("kubectl not found (SMP_KUBECTL, .ci/install-kubectl or PATH): not run");
        return;
    };
    let crd = std::env::temp_dir().join(format!("smp-serve-crd-{}.yaml", std::process::id()));
    std::fs::write(&crd, CRD).unwrap();
    let widget = std::env::temp_dir().join(format!("smp-serve-w-{}.yaml", std::process::id()));
    std::fs::write(
        &widget,
        "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 1\n",
    )
    .unwrap();
    let strategic = [
        "patch",
        "widget",
        "w",
        "--type",
        "strategic",
        "-p",
        r#"{"spec":{"size":2}}"#,
    ];
    // Strategic merge of a custom resource: refused as the API server refuses it, and taken
    // with `--crd-strategic-merge`.
    for (flag, answer) in [
        (
            None,
            Err("the body of the request was in an unknown format"),
        ),
        (
            Some("--crd-strategic-merge"),
            Ok("widget.example.com/w patched\n"),
        ),
    ] {
        let mut args = vec!["--crd".as_ref(), crd.as_os_str()];
        args.extend(flag.map(std::ffi::OsStr::new));
        let (_server, dir, config) = start("crd", &args);
        let (success, out, err) = run(&kubectl, &config, &["get", "widgets", "-o", "name"]);
        assert!(success, "{err}");
        assert_eq!(out, "");
        let (success, _, err) = run(
            &kubectl,
            &config,
            &["create", "-f", widget.to_str().unwrap()],
        );
        assert!(success, "{err}");
        let (success, out, err) = run(&kubectl, &config, &strategic);
        match answer {
            Ok(expected) => assert_eq!((success, out.as_str()), (true, expected), "{err}"),
            Err(reason) => assert!(!success && err.contains(reason), "{out} {err}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    let _ = std::fs::remove_file(&crd);
    let _ = std::fs::remove_file(&widget);
}

/// kubectl reads the published schemas: `kubectl explain` of a built-in kind and of a CRD's,
/// and client-side apply's strategic merge patch computed from the v3 document (a container
/// another writer added survives the second apply).
#[test]
fn kubectl_reads_the_published_schemas() {
    let Some(kubectl) = kubectl() else {
        eprintln!("kubectl not found (SMP_KUBECTL, .ci/install-kubectl or PATH): not run");
        return;
    };
    let crd = std::env::temp_dir().join(format!("smp-serve-oa-{}.yaml", std::process::id()));
    std::fs::write(&crd, CRD).unwrap();
    let (_server, dir, config) = start("openapi", &[]);
    let k = |args: &[&str]| run(&kubectl, &config, args);
    let ok = |args: &[&str]| {
        let (success, out, err) = k(args);
        assert!(success, "kubectl {args:?}: {err}");
        (out, err)
    };
    let (out, _) = ok(&["explain", "deployment.spec.replicas"]);
    assert!(out.contains("FIELD: replicas <integer>"), "{out}");
    let (out, _) = ok(&["explain", "pods.spec.containers.ports"]);
    assert!(out.contains("containerPort\t<integer> -required-"), "{out}");

    let deployment = |image: &str| {
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  \
             selector:\n    matchLabels: {{app: web}}\n  template:\n    metadata:\n      labels: {{app: web}}\n    \
             spec:\n      containers:\n      - name: app\n        image: {image}\n"
        )
    };
    let file = dir.join("web.yaml");
    let file_arg = file.to_str().unwrap();
    std::fs::write(&file, deployment("app:1")).unwrap();
    ok(&["apply", "-f", file_arg]);
    ok(&[
        "patch",
        "deploy",
        "web",
        "-p",
        r#"{"spec":{"template":{"spec":{"containers":[{"name":"side","image":"side:1"}]}}}}"#,
    ]);
    std::fs::write(&file, deployment("app:2")).unwrap();
    let (out, err) = ok(&["apply", "-f", file_arg, "-v=6"]);
    assert_eq!(out, "deployment.apps/web configured\n");
    assert!(err.contains("/openapi/v3/apis/apps/v1"), "{err}");
    let (images, _) = ok(&[
        "get",
        "deploy",
        "web",
        "-o",
        "jsonpath={range .spec.template.spec.containers[*]}{.name}={.image} {end}",
    ]);
    assert_eq!(images, "side=side:1 app=app:2 ");

    ok(&["apply", "-f", crd.to_str().unwrap()]);
    let (out, _) = ok(&["explain", "widget.spec"]);
    assert!(out.contains("size\t<integer>"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&crd);
}

/// README's kubectl lines print, each first, the lines README says.
#[test]
fn the_readmes_kubectl_lines_print_what_it_says() {
    let Some(kubectl) = kubectl() else {
        eprintln!("kubectl not found (SMP_KUBECTL, .ci/install-kubectl or PATH): not run");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let block = |marker: &str, fence: &str| -> Vec<String> {
        let after = &readme[readme.find(marker).expect("the marker") + marker.len()..];
        let body = &after[after.find(fence).expect("the block") + fence.len()..];
        body[..body.find("```").expect("the fence")]
            .lines()
            .map(str::to_owned)
            .collect()
    };
    let commands = block("<!-- apiserver: kubectl -->", "```sh\n");
    let expected = block("<!-- apiserver: kubectl output -->", "```text\n");
    assert_eq!(commands[0], "smp serve --kubeconfig kubeconfig.yaml &");

    let (_server, dir, config) = start("readme", &[]);
    let mut printed = Vec::new();
    for line in &commands[1..] {
        let args = line
            .strip_prefix("kubectl --kubeconfig kubeconfig.yaml ")
            .unwrap_or_else(|| panic!("not a kubectl line: {line}"));
        // Words, with single quotes taken off (no word of these lines has a space).
        let args: Vec<String> = args.split(' ').map(|w| w.replace('\'', "")).collect();
        let out = Command::new(&kubectl)
            .arg("--kubeconfig")
            .arg(&config)
            .args(&args)
            .current_dir(&root)
            .output()
            .unwrap();
        let text = if out.stdout.is_empty() {
            out.stderr
        } else {
            out.stdout
        };
        let text = String::from_utf8_lossy(&text);
        printed.push(text.lines().next().unwrap_or("").to_owned());
    }
    assert_eq!(printed, expected);
    let _ = std::fs::remove_dir_all(&dir);
}
