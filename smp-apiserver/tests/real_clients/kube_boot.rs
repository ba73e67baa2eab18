//! What a new cluster has before anyone writes (kube-apiserver's post-start hooks and the
//! controllers every cluster runs), found by kube as kube-rs's own cluster tests look for it.

use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Service, ServiceAccount};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding};
use k8s_openapi::api::scheduling::v1::PriorityClass;
use kube::api::{Api, DeleteParams, PostParams};
use serde_json::json;

use crate::support::{clients, raw};

#[tokio::test]
async fn a_new_cluster_has_what_the_server_creates() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let services: Api<Service> = Api::default_namespaced(client.clone());
        let kubernetes = services.get("kubernetes").await.unwrap();
        let spec = kubernetes.spec.unwrap();
        assert_eq!(spec.cluster_ip.as_deref(), Some("10.96.0.1"), "{how}");
        assert_eq!(spec.ports.unwrap()[0].port, 443, "{how}");
        let slices: Api<EndpointSlice> = Api::default_namespaced(client.clone());
        assert!(
            slices.get_opt("kubernetes").await.unwrap().is_some(),
            "{how}"
        );

        let roles: Api<ClusterRole> = Api::all(client.clone());
        let admin = roles.get("cluster-admin").await.unwrap();
        assert_eq!(admin.rules.unwrap()[0].verbs, ["*"], "{how}");
        // Aggregated by the controller from the `aggregate-to-*` roles.
        let count = |r: ClusterRole| r.rules.map_or(0, |r| r.len());
        assert_eq!(count(roles.get("view").await.unwrap()), 11, "{how}");
        assert_eq!(count(roles.get("edit").await.unwrap()), 25, "{how}");
        assert_eq!(count(roles.get("admin").await.unwrap()), 27, "{how}");
        let bindings: Api<ClusterRoleBinding> = Api::all(client.clone());
        let binding = bindings.get("cluster-admin").await.unwrap();
        assert_eq!(binding.subjects.unwrap()[0].name, "system:masters", "{how}");
        let classes: Api<PriorityClass> = Api::all(client.clone());
        assert_eq!(
            classes.get("system-node-critical").await.unwrap().value,
            2_000_001_000,
            "{how}"
        );

        // Every namespace, and one made now, gets its default ServiceAccount and root CA.
        let namespaces: Api<Namespace> = Api::all(client.clone());
        namespaces
            .create(
                &PostParams::default(),
                &serde_json::from_value(json!({"metadata": {"name": "fresh"}})).unwrap(),
            )
            .await
            .unwrap();
        for namespace in [
            "default",
            "kube-system",
            "kube-public",
            "kube-node-lease",
            "fresh",
        ] {
            let accounts: Api<ServiceAccount> = Api::namespaced(client.clone(), namespace);
            assert!(
                accounts.get_opt("default").await.unwrap().is_some(),
                "{how}: {namespace}"
            );
            let maps: Api<ConfigMap> = Api::namespaced(client.clone(), namespace);
            let ca = maps.get("kube-root-ca.crt").await.unwrap();
            let pem = &ca.data.unwrap()["ca.crt"];
            assert!(pem.starts_with("-----BEGIN CERTIFICATE-----"), "{how}");
        }
        // Deleted, they come back; changed, the ConfigMap is put back.
        let accounts: Api<ServiceAccount> = Api::namespaced(client.clone(), "fresh");
        let before = accounts.get("default").await.unwrap().metadata.uid;
        accounts
            .delete("default", &DeleteParams::default())
            .await
            .unwrap();
        let after = accounts.get("default").await.unwrap().metadata.uid;
        assert_ne!(before, after, "{how}");
        let maps: Api<ConfigMap> = Api::namespaced(client.clone(), "fresh");
        let patch = json!({"data": {"ca.crt": "nothing"}});
        maps.patch(
            "kube-root-ca.crt",
            &Default::default(),
            &kube::api::Patch::Merge(&patch),
        )
        .await
        .unwrap();
        let ca = maps.get("kube-root-ca.crt").await.unwrap();
        assert!(
            ca.data.unwrap()["ca.crt"].starts_with("-----BEGIN"),
            "{how}"
        );

        // ComponentStatuses: computed on read; nothing answers for the scheduler here.
        let answer = raw(&client, "GET", "/api/v1/componentstatuses", "", None).await;
        let items = answer.body["items"].as_array().unwrap();
        let names: Vec<&str> = items
            .iter()
            .map(|c| c["metadata"]["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            ["controller-manager", "scheduler", "etcd-0"],
            "{how}"
        );
        assert_eq!(items[2]["conditions"][0]["status"], "True", "{how}");
        assert_eq!(
            answer.headers["warning"], "299 - \"v1 ComponentStatus is deprecated in v1.19+\"",
            "{how}"
        );
    }
}
