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

/// The cells of `kubectl get`'s row for `name` (the line that starts with it), split at
/// runs of spaces, the header's columns first.
fn row(output: &str, name: &str) -> (Vec<String>, Vec<String>) {
    let split = |line: &str| -> Vec<String> {
        line.split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let header = split(output.lines().next().unwrap_or(""));
    let line = output
        .lines()
        .find(|l| l.starts_with(name))
        .unwrap_or_else(|| panic!("no row {name} in\n{output}"));
    (header, split(line))
}

/// `kubectl get` prints the server's tables: a pod's READY, STATUS and RESTARTS (and with
/// `-o wide` its IP and NODE), a deployment's READY, UP-TO-DATE and AVAILABLE, a service's
/// TYPE, CLUSTER-IP, EXTERNAL-IP and PORT(S), a custom resource's printer columns. (The
/// server sends every column; kubectl hides those of priority 1 unless `-o wide`.)
#[test]
fn kubectl_get_prints_the_servers_columns() {
    let Some((k, _server, dir)) = kubectl("tables") else {
        return;
    };
    k.apply(&dir, "pod", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-1\nspec:\n  nodeName: node-a\n  containers: [{name: app, image: app:1}, {name: proxy, image: proxy:1}]\n");
    let status = r#"{"status": {"phase": "Running", "podIP": "10.244.0.7",
        "conditions": [{"type": "Ready", "status": "False"}],
        "containerStatuses": [
          {"name": "app", "ready": true, "restartCount": 0, "image": "app:1", "imageID": "",
           "state": {"running": {"startedAt": "2026-11-28T12:00:00Z"}}},
          {"name": "proxy", "ready": false, "restartCount": 0, "image": "proxy:1", "imageID": "",
           "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]}}"#;
    k.ok(&[
        "patch",
        "pod",
        "web-1",
        "--subresource=status",
        "--type=merge",
        "-p",
        status,
    ]);
    let (header, cells) = row(&k.ok(&["get", "pods"]), "web-1");
    assert_eq!(header, ["NAME", "READY", "STATUS", "RESTARTS", "AGE"]);
    assert_eq!(cells[..4], ["web-1", "1/2", "CrashLoopBackOff", "0"]);
    let (header, cells) = row(&k.ok(&["get", "pods", "-o", "wide"]), "web-1");
    assert_eq!(
        header,
        [
            "NAME",
            "READY",
            "STATUS",
            "RESTARTS",
            "AGE",
            "IP",
            "NODE",
            "NOMINATED NODE",
            "READINESS GATES"
        ]
    );
    assert_eq!(cells[5..], ["10.244.0.7", "node-a", "<none>", "<none>"]);

    k.apply(&dir, "deployment", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers: [{name: app, image: app:1}]\n");
    let status = r#"{"status": {"replicas": 3, "readyReplicas": 2, "updatedReplicas": 3, "availableReplicas": 2}}"#;
    k.ok(&[
        "patch",
        "deployment",
        "web",
        "--subresource=status",
        "--type=merge",
        "-p",
        status,
    ]);
    let (header, cells) = row(&k.ok(&["get", "deployments", "-o", "wide"]), "web");
    assert_eq!(
        header,
        [
            "NAME",
            "READY",
            "UP-TO-DATE",
            "AVAILABLE",
            "AGE",
            "CONTAINERS",
            "IMAGES",
            "SELECTOR"
        ]
    );
    assert_eq!(cells[..4], ["web", "2/3", "3", "2"]);
    assert_eq!(cells[5..], ["app", "app:1", "app=web"]);

    k.apply(&dir, "service", "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  type: NodePort\n  clusterIP: 10.96.0.20\n  selector: {app: web}\n  ports: [{port: 80, nodePort: 30080, protocol: TCP}]\n");
    let (header, cells) = row(&k.ok(&["get", "services"]), "web");
    assert_eq!(
        header,
        [
            "NAME",
            "TYPE",
            "CLUSTER-IP",
            "EXTERNAL-IP",
            "PORT(S)",
            "AGE"
        ]
    );
    assert_eq!(
        cells[..5],
        ["web", "NodePort", "10.96.0.20", "<none>", "80:30080/TCP"]
    );

    let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: documents.example.com\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {plural: documents, singular: document, kind: Document}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        x-kubernetes-preserve-unknown-fields: true\n    additionalPrinterColumns:\n    - {name: Pages, type: integer, jsonPath: .spec.pages}\n    - {name: Author, type: string, jsonPath: .spec.author, priority: 1}\n";
    k.apply(&dir, "crd", crd);
    k.apply(&dir, "doc", "apiVersion: example.com/v1\nkind: Document\nmetadata:\n  name: guide\nspec:\n  pages: 12\n  author: ada\n");
    let (header, cells) = row(&k.ok(&["get", "documents"]), "guide");
    assert_eq!(header, ["NAME", "PAGES"]);
    assert_eq!(cells, ["guide", "12"]);
    let (header, cells) = row(&k.ok(&["get", "documents", "-o", "wide"]), "guide");
    assert_eq!(header, ["NAME", "PAGES", "AUTHOR"]);
    assert_eq!(cells, ["guide", "12", "ada"]);
}

/// kubectl's commands that post to subresources and reviews: `create token` (a TokenRequest),
/// `auth can-i` (SelfSubjectAccessReview, and SelfSubjectRulesReview with `--list`), `auth
/// whoami` (SelfSubjectReview), `logs` of a pod on no node (empty), `exec` into it (the
/// server's 400, as kubectl prints it).
#[test]
fn kubectl_uses_the_subresources() {
    let Some((k, _server, dir)) = kubectl("subresources") else {
        return;
    };
    let token = k.ok(&["create", "token", "default", "--duration=1h"]);
    assert_eq!(token.trim().split('.').count(), 3, "a JWT: {token}");
    assert_eq!(k.ok(&["auth", "can-i", "delete", "pods"]).trim(), "yes");
    let rules = k.ok(&["auth", "can-i", "--list"]);
    assert!(
        rules.lines().any(|l| l.starts_with("*.*")),
        "every resource: {rules}"
    );
    let me = k.ok(&[
        "auth",
        "whoami",
        "-o",
        "jsonpath={.status.userInfo.username}",
    ]);
    assert_eq!(me, "system:anonymous");
    k.apply(
        &dir,
        "pod",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers: [{name: app, image: app:1}]\n",
    );
    assert_eq!(k.ok(&["logs", "p"]), "");
    let refused = k.run(&["exec", "p", "--", "ls"]).unwrap_err();
    assert!(
        refused.contains("pod p does not have a host assigned"),
        "{refused}"
    );
}
