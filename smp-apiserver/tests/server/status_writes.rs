//! Writes to built-in kinds' status endpoints as kube-apiserver v1.34 answers them, through
//! kube's real `Client` on the in-memory server. Upstream (kubernetes/kubernetes), each kind's
//! `statusStrategy` in `pkg/registry/<group>/<resource>/strategy.go` puts back what the status
//! endpoint may not change (`PrepareForUpdate`, the same fields as `GetResetFields`) and runs
//! `Validate<Kind>StatusUpdate` of `pkg/apis/<group>/validation`.

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{Namespace, Pod};
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use smp_apiserver::ApiServer;

fn client() -> kube::Client {
    kube::Client::new(ApiServer::default(), "default")
}

fn deployment() -> Deployment {
    serde_json::from_value(json!({
        "metadata": {"name": "web", "labels": {"app": "web"}},
        "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}
    }))
    .unwrap()
}

fn pod(name: &str, restart_policy: &str) -> Pod {
    serde_json::from_value(json!({
        "metadata": {"name": name},
        "spec": {"restartPolicy": restart_policy,
            "containers": [{"name": "main", "image": "busybox"}]}
    }))
    .unwrap()
}

fn invalid(e: kube::Error) -> kube::core::Status {
    match e {
        kube::Error::Api(status) => *status,
        other => panic!("expected the server's refusal, got {other}"),
    }
}

#[tokio::test]
async fn a_deployment_status_write_keeps_the_spec_and_labels_and_takes_the_rest() {
    let api: Api<Deployment> = Api::namespaced(client(), "default");
    api.create(&PostParams::default(), &deployment())
        .await
        .unwrap();
    let mut written = serde_json::to_value(api.get("web").await.unwrap()).unwrap();
    written["spec"]["replicas"] = json!(9);
    written["metadata"]["labels"]["app"] = json!("other");
    written["metadata"]["annotations"] = json!({"note": "kept"});
    written["status"] = json!({"replicas": 2, "readyReplicas": 1, "observedGeneration": 1});
    let stored = api
        .replace_status(
            "web",
            &PostParams::default(),
            &serde_json::from_value(written).unwrap(),
        )
        .await
        .unwrap();
    let stored = serde_json::to_value(stored).unwrap();
    // `spec` and `metadata.labels` are the Deployment status strategy's resets; annotations
    // are not.
    assert_eq!(stored["spec"]["replicas"], 2);
    assert_eq!(stored["metadata"]["labels"], json!({"app": "web"}));
    assert_eq!(stored["metadata"]["annotations"], json!({"note": "kept"}));
    assert_eq!(stored["status"]["readyReplicas"], 1);
    assert_eq!(stored["metadata"]["generation"], 1);
}

#[tokio::test]
async fn an_invalid_deployment_status_is_refused_with_the_servers_causes() {
    let api: Api<Deployment> = Api::namespaced(client(), "default");
    api.create(&PostParams::default(), &deployment())
        .await
        .unwrap();
    let patch = json!({"status": {"replicas": 1, "readyReplicas": 3, "collisionCount": -1}});
    let e = api
        .patch_status("web", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap_err();
    let status = invalid(e);
    assert_eq!(status.code, 422);
    assert_eq!(
        status.message,
        "Deployment.apps \"web\" is invalid: [status.collisionCount: Invalid value: -1: must be \
         greater than or equal to 0, status.readyReplicas: Invalid value: 3: cannot be greater \
         than status.replicas]"
    );
    // Nothing was stored.
    let stored = api.get("web").await.unwrap();
    assert!(stored.status.is_none_or(|s| s.ready_replicas.is_none()));
}

#[tokio::test]
async fn a_pod_status_write_may_change_labels_but_not_its_spec_or_qos_class() {
    let api: Api<Pod> = Api::namespaced(client(), "default");
    api.create(&PostParams::default(), &pod("p", "Always"))
        .await
        .unwrap();
    let patch = json!({
        "metadata": {"labels": {"ready": "yes"}},
        "spec": {"activeDeadlineSeconds": 5},
        "status": {"phase": "Running", "podIP": "10.0.0.5", "podIPs": [{"ip": "10.0.0.5"}],
            "conditions": [{"type": "Ready", "status": "True"}]}
    });
    let stored = api
        .patch_status("p", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
    let stored = serde_json::to_value(stored).unwrap();
    assert_eq!(stored["metadata"]["labels"], json!({"ready": "yes"}));
    assert_eq!(stored["spec"].get("activeDeadlineSeconds"), None);
    assert_eq!(stored["status"]["phase"], "Running");
    assert_eq!(stored["status"]["qosClass"], "BestEffort");

    let patch = json!({"status": {"qosClass": "Guaranteed"}});
    let e = api
        .patch_status("p", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap_err();
    assert_eq!(
        invalid(e).message,
        "Pod \"p\" is invalid: status.qosClass: Invalid value: \"Guaranteed\": field is immutable"
    );
}

#[tokio::test]
async fn a_container_that_ended_for_good_stays_ended() {
    let api: Api<Pod> = Api::namespaced(client(), "default");
    api.create(&PostParams::default(), &pod("job", "Never"))
        .await
        .unwrap();
    let ended = json!({"status": {"containerStatuses": [{"name": "main", "image": "busybox",
        "imageID": "", "ready": false, "restartCount": 0,
        "state": {"terminated": {"exitCode": 0}}}]}});
    api.patch_status("job", &PatchParams::default(), &Patch::Merge(&ended))
        .await
        .unwrap();
    let running = json!({"status": {"containerStatuses": [{"name": "main", "image": "busybox",
        "imageID": "", "ready": true, "restartCount": 0,
        "state": {"running": {}}}]}});
    let e = api
        .patch_status("job", &PatchParams::default(), &Patch::Merge(&running))
        .await
        .unwrap_err();
    assert_eq!(
        invalid(e).message,
        "Pod \"job\" is invalid: status.containerStatuses[0].state: Forbidden: may not be \
         transitioned to non-terminated state"
    );
}

#[tokio::test]
async fn a_namespace_status_must_agree_with_its_deletion() {
    let api: Api<Namespace> = Api::all(client());
    let ns: Namespace = serde_json::from_value(json!({"metadata": {"name": "team"}})).unwrap();
    api.create(&PostParams::default(), &ns).await.unwrap();
    let patch = json!({"status": {"phase": "Terminating"}});
    let e = api
        .patch_status("team", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap_err();
    assert_eq!(
        invalid(e).message,
        "Namespace \"team\" is invalid: status.Phase: Invalid value: \"Terminating\": may only \
         be 'Active' if `deletionTimestamp` is empty"
    );
}

#[tokio::test]
async fn without_validation_a_status_write_is_stored_as_given() {
    let server = ApiServer::new(smp_apiserver::Options {
        validation: false,
        ..Default::default()
    });
    let api: Api<Deployment> = Api::namespaced(kube::Client::new(server, "default"), "default");
    api.create(&PostParams::default(), &deployment())
        .await
        .unwrap();
    let patch = json!({"status": {"replicas": -1}});
    let stored: Value = serde_json::to_value(
        api.patch_status("web", &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .unwrap(),
    )
    .unwrap();
    assert_eq!(stored["status"]["replicas"], -1);
}

#[tokio::test]
async fn a_volume_records_when_its_phase_last_changed() {
    use k8s_openapi::api::core::v1::PersistentVolume;
    let api: Api<PersistentVolume> = Api::all(client());
    let pv: PersistentVolume = serde_json::from_value(json!({"metadata": {"name": "pv"},
        "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"],
            "hostPath": {"path": "/data"}}}))
    .unwrap();
    let created =
        serde_json::to_value(api.create(&PostParams::default(), &pv).await.unwrap()).unwrap();
    assert_eq!(created["status"]["phase"], "Pending");
    assert!(
        created["status"]["lastPhaseTransitionTime"].is_string(),
        "{created}"
    );
    let patch = json!({"status": {"phase": "Available"}});
    let available = serde_json::to_value(
        api.patch_status("pv", &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .unwrap(),
    )
    .unwrap();
    assert_eq!(available["status"]["phase"], "Available");
    assert!(available["status"]["lastPhaseTransitionTime"].is_string());
}
