//! Fields of features whose gates are off in kube-apiserver v1.34 are dropped from what is
//! stored, as the registry strategies drop them (kubernetes/kubernetes `pkg/api/pod`
//! `DropDisabledPodFields` and `DropDisabledTemplateFields`, called by each strategy's
//! `PrepareForCreate` and `PrepareForUpdate`): gone on create, kept on update only when the
//! old object already used them.

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use smp_apiserver::ApiServer;

fn client() -> kube::Client {
    kube::Client::new(ApiServer::default(), "default")
}

#[tokio::test]
async fn a_containers_gated_restart_policy_is_dropped_on_create() {
    let api: Api<Pod> = Api::namespaced(client(), "default");
    let pod: Pod = serde_json::from_value(json!({"metadata": {"name": "p"},
        "spec": {"containers": [{"name": "c", "image": "busybox", "restartPolicy": "Always",
            "lifecycle": {"stopSignal": "SIGUSR1"}}]}}))
    .unwrap();
    let stored = api.create(&PostParams::default(), &pod).await.unwrap();
    let container = serde_json::to_value(&stored.spec.unwrap().containers[0]).unwrap();
    assert_eq!(container.get("restartPolicy"), None);
    assert_eq!(container.get("lifecycle"), None);
}

#[tokio::test]
async fn a_template_loses_gated_fields_its_old_object_did_not_have() {
    let api: Api<Deployment> = Api::namespaced(client(), "default");
    let deployment: Deployment = serde_json::from_value(json!({"metadata": {"name": "web"},
        "spec": {"selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}}))
    .unwrap();
    api.create(&PostParams::default(), &deployment)
        .await
        .unwrap();
    let patch = json!({"spec": {"template": {"spec": {"containers": [
        {"name": "web", "lifecycle": {"stopSignal": "SIGUSR1"}}]}}}});
    let stored = api
        .patch("web", &PatchParams::default(), &Patch::Strategic(&patch))
        .await
        .unwrap();
    let stored: Value = serde_json::to_value(stored).unwrap();
    assert_eq!(
        stored["spec"]["template"]["spec"]["containers"][0].get("lifecycle"),
        None
    );
    // Nothing but the dropped field changed, so the spec did not change.
    assert_eq!(stored["metadata"]["generation"], 1);
}
