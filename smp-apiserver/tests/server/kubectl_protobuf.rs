//! kubectl's generator commands against the server over HTTP: `kubectl create deployment`,
//! `create configmap`, `create secret generic` and `create service` send their objects in
//! Kubernetes' protobuf encoding, and each object is stored as kubectl says it sent it
//! (`--dry-run=client -o json`). `kubectl run` (which sends JSON) is there too.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

/// The first kubectl found ([`smp_testdata::kubectl_candidates`]).
fn kubectl() -> Option<PathBuf> {
    smp_testdata::kubectl_candidates().find(|p| p.is_file())
}

/// The server on a loopback port (stopped when dropped), and a kubeconfig for it.
fn start(dir: &Path) -> (smp_apiserver::serve::Background, PathBuf) {
    let running = smp_apiserver::serve::Background::start(smp_apiserver::ApiServer::default())
        .expect("the server starts");
    let config = dir.join("kubeconfig.yaml");
    std::fs::write(&config, running.kubeconfig()).unwrap();
    (running, config)
}

/// What the server sets on create (metadata, and the status, which a create resets), and
/// kubectl v1.33's `creationTimestamp: null` (v1.34's types leave a zero time out), taken away
/// to compare with what kubectl sent.
fn without_server_fields(mut object: Value) -> Value {
    object.as_object_mut().unwrap().remove("status");
    let metadata = object["metadata"].as_object_mut().unwrap();
    for key in [
        "uid",
        "resourceVersion",
        "creationTimestamp",
        "generation",
        "namespace",
        "managedFields",
    ] {
        metadata.remove(key);
    }
    if let Some(template) = object.pointer_mut("/spec/template/metadata") {
        template
            .as_object_mut()
            .unwrap()
            .remove("creationTimestamp");
    }
    object
}

#[test]
fn kubectl_create_sends_protobuf_and_it_is_stored() {
    let Some(kubectl) = kubectl() else {
        eprintln!("kubectl not found (SMP_KUBECTL, .ci/install-kubectl or PATH): not run");
        return;
    };
    let dir = std::env::temp_dir().join(format!("smp-protobuf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (_server, config) = start(&dir);
    let k = |args: &[&str]| {
        let out = Command::new(&kubectl)
            .arg("--kubeconfig")
            .arg(&config)
            .args(args)
            .output()
            .expect("kubectl runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "kubectl {args:?}: {stderr}");
        String::from_utf8(out.stdout).unwrap()
    };
    let json = |args: &[&str]| -> Value { serde_json::from_str(&k(args)).unwrap() };

    let created = [
        (
            &["create", "deployment", "web", "--image=nginx"][..],
            "deployment.apps/web created\n",
            &["get", "deployment", "web", "-o", "json"][..],
        ),
        (
            &["create", "configmap", "settings", "--from-literal=a=1"],
            "configmap/settings created\n",
            &["get", "configmap", "settings", "-o", "json"],
        ),
        (
            &[
                "create",
                "secret",
                "generic",
                "creds",
                "--from-literal=user=admin",
            ],
            "secret/creds created\n",
            &["get", "secret", "creds", "-o", "json"],
        ),
        (
            &["create", "service", "clusterip", "api", "--tcp=80:8080"],
            "service/api created\n",
            &["get", "service", "api", "-o", "json"],
        ),
    ];
    for (create, said, get) in created {
        let mut dry_run = create.to_vec();
        dry_run.extend(["--dry-run=client", "-o", "json"]);
        // What kubectl sends, with the defaults the server gives it on decoding.
        let mut sent = json(&dry_run);
        smp_admission::defaulting::default_object(&mut sent).unwrap();
        let mut sent = without_server_fields(sent);
        assert_eq!(k(create), said);
        let stored = without_server_fields(json(get));
        if sent["kind"] == "Service" {
            // The service registry allocates a cluster IP (10.96.0.0/12) and settles the IP
            // families of a single-stack cluster (`pkg/registry/core/service/storage`).
            let ip = stored["spec"]["clusterIP"]
                .as_str()
                .unwrap_or("")
                .to_owned();
            let octets: Vec<u8> = ip.split('.').filter_map(|o| o.parse().ok()).collect();
            assert!(
                octets.len() == 4 && octets[0] == 10 && (96..112).contains(&octets[1]),
                "{ip}"
            );
            sent["spec"]["clusterIP"] = json!(ip);
            sent["spec"]["clusterIPs"] = json!([ip]);
            sent["spec"]["ipFamilies"] = json!(["IPv4"]);
            sent["spec"]["ipFamilyPolicy"] = json!("SingleStack");
        }
        assert_eq!(stored, sent, "{create:?}");
    }

    let secret = json(&["get", "secret", "creds", "-o", "json"]);
    assert_eq!(secret["data"], json!({"user": "YWRtaW4="}));
    let service = json(&["get", "service", "api", "-o", "json"]);
    assert_eq!(service["spec"]["ports"][0]["targetPort"], 8080);

    assert_eq!(
        k(&["run", "nginx", "--image=nginx", "--restart=Never"]),
        "pod/nginx created\n"
    );
    let pod = json(&["get", "pod", "nginx", "-o", "json"]);
    assert_eq!(pod["spec"]["containers"][0]["image"], "nginx");
    assert_eq!(pod["spec"]["restartPolicy"], "Never");
    let _ = std::fs::remove_dir_all(&dir);
}
