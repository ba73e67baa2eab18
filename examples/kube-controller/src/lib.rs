//! A small kube controller, tested against smp-apiserver in memory: no cluster, no mock
//! scripted by hand, the real kube `Client`, `watcher` and `Controller`.
//!
//! It watches ConfigMaps labelled `app.example.com/web=true`: for each, it keeps a Deployment
//! of the same name with `data.replicas` replicas and `data.image` as its container's image, by
//! server-side apply as the field manager `web-controller`, and records the resourceVersion of
//! the ConfigMap it acted on in an annotation.
//!
//! ```text
//! cargo test -p smp-example-kube-controller
//! ```
//!
//! [`finalizing`] is a second controller, with kube-runtime's finalizer helper.

pub mod finalizing;

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Client, ResourceExt};
use serde_json::json;

/// The label of the ConfigMaps the controller acts on.
pub const LABEL: &str = "app.example.com/web";
/// The controller's field manager.
pub const MANAGER: &str = "web-controller";
/// The annotation recording the ConfigMap's version acted on.
pub const RECONCILED: &str = "app.example.com/reconciled";

/// Why a reconcile failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The API refused a request.
    #[error("kube: {0}")]
    Kube(#[from] kube::Error),
    /// The ConfigMap says something the controller cannot use.
    #[error("{0}")]
    Invalid(String),
}

/// The Deployment a ConfigMap asks for, as the controller applies it.
pub fn desired(cm: &ConfigMap) -> Result<serde_json::Value, Error> {
    let name = cm.name_any();
    let data = cm.data.clone().unwrap_or_default();
    let replicas: i64 = data
        .get("replicas")
        .map_or(Ok(1), |r| r.parse())
        .map_err(|_| Error::Invalid(format!("{name}: replicas is not a number")))?;
    let image = data
        .get("image")
        .cloned()
        .unwrap_or_else(|| "nginx:1".into());
    Ok(json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "labels": {"app": name}},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "web", "image": image}]}
            }
        }
    }))
}

struct Context {
    client: Client,
}

async fn reconcile(cm: Arc<ConfigMap>, ctx: Arc<Context>) -> Result<Action, Error> {
    let namespace = cm.namespace().unwrap_or_else(|| "default".into());
    let deployments: Api<Deployment> = Api::namespaced(ctx.client.clone(), &namespace);
    let name = cm.name_any();
    // The controller owns what it applies: it takes it back from anyone who changed it.
    deployments
        .patch(
            &name,
            &PatchParams::apply(MANAGER).force(),
            &Patch::Apply(&desired(&cm)?),
        )
        .await?;
    let config_maps: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &namespace);
    let version = cm.resource_version().unwrap_or_default();
    if cm.annotations().get(RECONCILED) != Some(&version) {
        let note = json!({"metadata": {"annotations": {RECONCILED: version}}});
        config_maps
            .patch(&name, &PatchParams::default(), &Patch::Merge(&note))
            .await?;
    }
    Ok(Action::requeue(Duration::from_secs(300)))
}

fn error_policy(_: Arc<ConfigMap>, _: &Error, _: Arc<Context>) -> Action {
    Action::requeue(Duration::from_secs(1))
}

/// Runs the controller until the stream of ConfigMaps ends.
pub async fn run(client: Client) {
    let config_maps: Api<ConfigMap> = Api::all(client.clone());
    let config = watcher::Config::default().labels(&format!("{LABEL}=true"));
    Controller::new(config_maps, config)
        .owns(
            Api::<Deployment>::all(client.clone()),
            watcher::Config::default(),
        )
        .run(reconcile, error_policy, Arc::new(Context { client }))
        .for_each(|_| async {})
        .await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use kube::api::{PostParams, WatchEvent, WatchParams};

    fn config_map(replicas: &str) -> ConfigMap {
        serde_json::from_value(json!({
            "metadata": {"name": "web", "labels": {LABEL: "true"}},
            "data": {"replicas": replicas, "image": "web:1"}
        }))
        .unwrap()
    }

    /// Waits (up to 10 s) for the watch to show a Deployment named `web` with `replicas`.
    async fn deployment_with(
        events: &mut (impl futures_util::Stream<Item = kube::Result<WatchEvent<Deployment>>> + Unpin),
        replicas: i32,
    ) -> Deployment {
        let wait = async {
            while let Some(event) = events.next().await {
                if let Ok(WatchEvent::Added(d) | WatchEvent::Modified(d)) = event {
                    if d.spec.as_ref().and_then(|s| s.replicas) == Some(replicas) {
                        return d;
                    }
                }
            }
            panic!("the watch ended");
        };
        tokio::time::timeout(Duration::from_secs(10), wait)
            .await
            .expect("the controller acted within 10 s")
    }

    #[tokio::test]
    async fn the_controller_reconciles_against_the_in_memory_server() {
        let client = Client::new(smp_apiserver::ApiServer::default(), "default");
        let controller = tokio::spawn(run(client.clone()));
        let deployments: Api<Deployment> = Api::default_namespaced(client.clone());
        let mut events = deployments
            .watch(&WatchParams::default(), "0")
            .await
            .unwrap()
            .boxed();

        // A ConfigMap appears: the controller applies its Deployment, and a watch sees it.
        let config_maps: Api<ConfigMap> = Api::default_namespaced(client.clone());
        config_maps
            .create(&PostParams::default(), &config_map("2"))
            .await
            .unwrap();
        let d = deployment_with(&mut events, 2).await;
        let managers: Vec<_> = d
            .metadata
            .managed_fields
            .unwrap_or_default()
            .into_iter()
            .filter_map(|m| m.manager)
            .collect();
        assert_eq!(managers, [MANAGER]);

        // Someone else may not take the controller's replicas without forcing.
        let scale = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web"}, "spec": {"replicas": 9}});
        let refused = deployments
            .patch("web", &PatchParams::apply("someone"), &Patch::Apply(&scale))
            .await
            .unwrap_err();
        let kube::Error::Api(status) = refused else {
            panic!("not an API error")
        };
        assert_eq!(
            status.message,
            "Apply failed with 1 conflict: conflict with \"web-controller\": .spec.replicas"
        );

        // The ConfigMap changes: the controller follows.
        let more = json!({"data": {"replicas": "3"}});
        config_maps
            .patch("web", &PatchParams::default(), &Patch::Merge(&more))
            .await
            .unwrap();
        deployment_with(&mut events, 3).await;
        controller.abort();
    }
}
