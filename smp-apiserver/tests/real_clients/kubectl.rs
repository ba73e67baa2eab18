//! kubectl against the server over HTTP: a patch that changes nothing is `patched (no
//! change)`, a JSON patch testing for `null`, field selectors, pages (`--chunk-size`),
//! cascading deletion in the foreground and orphaning, and the server's refusals as kubectl
//! shows them. Runs with whatever kubectl is found (`SMP_KUBECTL`, `.ci/install-kubectl`'s,
//! `PATH`); without one it says so and does nothing.

use std::path::{Path, PathBuf};
use std::process::Command;

use smp_apiserver::ApiServer;
use smp_apiserver::serve::Background;

struct Kubectl {
    path: PathBuf,
    config: PathBuf,
}

impl Kubectl {
    /// Standard output on success; standard error otherwise, as an `Err`.
    fn run(&self, args: &[&str]) -> Result<String, String> {
        let out = Command::new(&self.path)
            .arg("--kubeconfig")
            .arg(&self.config)
            .args(args)
            .output()
            .expect("kubectl runs");
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        if out.status.success() {
            Ok(text(&out.stdout))
        } else {
            Err(text(&out.stderr))
        }
    }

    fn ok(&self, args: &[&str]) -> String {
        self.run(args)
            .unwrap_or_else(|e| panic!("kubectl {args:?}: {e}"))
    }

    /// `kubectl apply -f -` of `yaml` (through a file).
    fn apply(&self, dir: &Path, name: &str, yaml: &str) -> String {
        let file = dir.join(format!("{name}.yaml"));
        std::fs::write(&file, yaml).unwrap();
        self.ok(&["apply", "-f", file.to_str().unwrap()])
    }
}

fn kubectl(test: &str) -> Option<(Kubectl, Background, PathBuf)> {
    let Some(path) = smp_testdata::kubectl_candidates().find(|p| p.is_file()) else {
        eprintln!("kubectl not found (SMP_KUBECTL, .ci/install-kubectl or PATH): {test} not run");
        return None;
    };
    let server = Background::start(ApiServer::default()).expect("the server starts");
    let dir = std::env::temp_dir().join(format!("smp-real-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("kubeconfig.yaml");
    std::fs::write(&config, server.kubeconfig()).unwrap();
    Some((Kubectl { path, config }, server, dir))
}

#[test]
fn kubectl_sees_the_servers_writes() {
    let Some((k, _server, dir)) = kubectl("writes") else {
        return;
    };
    k.apply(
        &dir,
        "settings",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: \"1\"\n",
    );
    // kubectl compares the object it read with the one the patch answered.
    let patch = r#"{"data":{"a":"1"}}"#;
    assert_eq!(
        k.ok(&["patch", "configmap", "settings", "-p", patch]),
        "configmap/settings patched (no change)\n"
    );
    assert_eq!(
        k.ok(&[
            "patch",
            "configmap",
            "settings",
            "-p",
            r#"{"data":{"a":"2"}}"#
        ]),
        "configmap/settings patched\n"
    );
    // kube-runtime's first finalizer, as a JSON patch.
    let first = r#"[{"op":"test","path":"/metadata/finalizers","value":null},{"op":"add","path":"/metadata/finalizers","value":["example.com/f"]}]"#;
    assert_eq!(
        k.ok(&[
            "patch",
            "configmap",
            "settings",
            "--type",
            "json",
            "-p",
            first
        ]),
        "configmap/settings patched\n"
    );
    let refused = k
        .run(&[
            "patch",
            "configmap",
            "settings",
            "--type",
            "json",
            "-p",
            first,
        ])
        .unwrap_err();
    assert!(
        refused.contains("the server rejected our request due to an error in our request"),
        "{refused}"
    );
    let finalizers = k.ok(&[
        "get",
        "configmap",
        "settings",
        "-o",
        "jsonpath={.metadata.finalizers}",
    ]);
    assert_eq!(finalizers, r#"["example.com/f"]"#);

    // Foreground: kubectl waits until the collector deleted the ReplicaSet, then the owner.
    let deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers: [{name: app, image: app:1}]\n";
    k.apply(&dir, "web", deployment);
    let uid = k.ok(&["get", "deployment", "web", "-o", "jsonpath={.metadata.uid}"]);
    let rs = format!(
        "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: web-1\n  ownerReferences:\n  - {{apiVersion: apps/v1, kind: Deployment, name: web, uid: {uid}, controller: true, blockOwnerDeletion: true}}\nspec:\n  selector:\n    matchLabels: {{app: web}}\n  template:\n    metadata:\n      labels: {{app: web}}\n    spec:\n      containers: [{{name: app, image: app:1}}]\n"
    );
    k.apply(&dir, "web-1", &rs);
    assert_eq!(
        k.ok(&[
            "delete",
            "deployment",
            "web",
            "--cascade=foreground",
            "--timeout=20s"
        ]),
        "deployment.apps \"web\" deleted\n"
    );
    let left = k.ok(&["get", "replicasets", "-o", "name"]);
    assert_eq!(left, "");

    // Orphan: the ReplicaSet stays, without its owner.
    k.apply(&dir, "web", deployment);
    let uid = k.ok(&["get", "deployment", "web", "-o", "jsonpath={.metadata.uid}"]);
    k.apply(
        &dir,
        "web-2",
        &rs.replace("web-1", "web-2").replace(&uid_of(&rs), &uid),
    );
    k.ok(&[
        "delete",
        "deployment",
        "web",
        "--cascade=orphan",
        "--timeout=20s",
    ]);
    let owners = k.ok(&[
        "get",
        "replicaset",
        "web-2",
        "-o",
        "jsonpath={.metadata.ownerReferences}",
    ]);
    assert_eq!(owners, "");
}

/// The uid in an owner reference written by the test.
fn uid_of(rs: &str) -> String {
    let at = rs.find("uid: ").unwrap() + 5;
    rs[at..].split(',').next().unwrap().to_owned()
}

#[test]
fn kubectl_reads_with_selectors_and_pages() {
    let Some((k, _server, dir)) = kubectl("reads") else {
        return;
    };
    for n in 0..5 {
        k.apply(
            &dir,
            &format!("cm{n}"),
            &format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm{n}\n"),
        );
    }
    // Pages of two, one request each, the same objects.
    assert_eq!(
        k.ok(&["get", "configmaps", "--chunk-size=2", "-o", "name"]),
        "configmap/cm0\nconfigmap/cm1\nconfigmap/cm2\nconfigmap/cm3\nconfigmap/cm4\nconfigmap/kube-root-ca.crt\n"
    );
    assert_eq!(
        k.ok(&[
            "get",
            "configmaps",
            "--field-selector",
            "metadata.name!=cm0,metadata.name!=cm4,metadata.name!=kube-root-ca.crt",
            "-o",
            "name"
        ]),
        "configmap/cm1\nconfigmap/cm2\nconfigmap/cm3\n"
    );
    let refused = k
        .run(&["get", "configmaps", "--field-selector", "data.x=y"])
        .unwrap_err();
    assert!(
        refused.contains(
            r#""data.x" is not a known field selector: only "metadata.name", "metadata.namespace""#
        ),
        "{refused}"
    );
    // Nodes by `spec.unschedulable`, as drain lists them, after a cordon.
    k.apply(
        &dir,
        "n1",
        "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n",
    );
    k.apply(
        &dir,
        "n2",
        "apiVersion: v1\nkind: Node\nmetadata:\n  name: n2\n",
    );
    assert_eq!(k.ok(&["cordon", "n2"]), "node/n2 cordoned\n");
    assert_eq!(
        k.ok(&[
            "get",
            "nodes",
            "--field-selector",
            "spec.unschedulable=true",
            "-o",
            "name"
        ]),
        "node/n2\n"
    );
    let refused = k
        .run(&[
            "get",
            "--raw",
            "/api/v1/namespaces/default/configmaps?resourceVersionMatch=Exact",
        ])
        .unwrap_err();
    assert!(
        refused.contains("(Invalid)") || refused.contains("is invalid"),
        "{refused}"
    );
}

/// kubectl resolves a custom resource by its CRD's short name and finds it among `all`, as
/// discovery lists the CRD's `shortNames`, `categories` and `singular`.
#[test]
fn kubectl_finds_custom_resources_by_their_names() {
    let Some((k, _server, dir)) = kubectl("names") else {
        return;
    };
    let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: documents.example.com\nspec:\n  group: example.com\n  scope: Namespaced\n  names:\n    plural: documents\n    singular: document\n    kind: Document\n    shortNames: [doc]\n    categories: [all]\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        x-kubernetes-preserve-unknown-fields: true\n";
    k.apply(&dir, "crd", crd);
    k.apply(
        &dir,
        "d1",
        "apiVersion: example.com/v1\nkind: Document\nmetadata:\n  name: d1\n",
    );
    k.apply(&dir, "p1", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p1\nspec:\n  containers: [{name: c, image: busybox}]\n");
    assert_eq!(
        k.ok(&["get", "doc", "-o", "name"]),
        "document.example.com/d1\n"
    );
    assert_eq!(
        k.ok(&["get", "document", "d1", "-o", "name"]),
        "document.example.com/d1\n"
    );
    let all = k.ok(&["get", "all", "-o", "name"]);
    assert!(
        all.contains("pod/p1\n") && all.contains("document.example.com/d1\n"),
        "{all}"
    );
}
