//! A controller with a finalizer, as most kube-rs controllers are written: for each `Widget`
//! (a custom resource, `widgets.example.com`), kube-runtime's [`finalizer`] helper adds the
//! controller's finalizer first; then every reconcile applies the same `ConfigMap` (owned by
//! the Widget) and writes the same status. Deleting a Widget runs the cleanup, the helper takes
//! its finalizer off, and the garbage collector deletes the ConfigMap with it.
//!
//! Against a server that writes what changes nothing, such a controller would wake itself up
//! with every status write, forever; against kube-apiserver (and smp-apiserver) it reconciles a
//! few times and then stays quiet, which the tests check.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures_util::StreamExt;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind, Patch, PatchParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::finalizer::{Event, finalizer};
use kube::runtime::watcher;
use kube::{Client, ResourceExt};
use serde_json::{Value, json};

/// The controller's finalizer.
pub const FINALIZER: &str = "widgets.example.com/cleanup";
/// Its field manager.
pub const MANAGER: &str = "widget-controller";

/// The CRD of `Widget` (namespaced, with a status subresource).
pub fn crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com", "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "subresources": {"status": {}},
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "properties": {"size": {"type": "integer"}}},
                    "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}}
                }}}
            }]
        }
    })
}

/// How `Widget` is reached.
pub fn resource() -> ApiResource {
    ApiResource::from_gvk(&GroupVersionKind::gvk("example.com", "v1", "Widget"))
}

/// What the controller has done, for the tests to count.
#[derive(Debug, Default)]
pub struct Counts {
    /// Reconciles of a Widget that is not being deleted.
    pub applies: AtomicUsize,
    /// Cleanups of Widgets being deleted.
    pub cleanups: AtomicUsize,
}

struct Context {
    client: Client,
    counts: Arc<Counts>,
}

/// Why a reconcile failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The API refused a request.
    #[error("kube: {0}")]
    Kube(#[from] kube::Error),
}

async fn apply(widget: Arc<DynamicObject>, ctx: &Context) -> Result<Action, Error> {
    ctx.counts.applies.fetch_add(1, Ordering::SeqCst);
    let namespace = widget.namespace().unwrap_or_else(|| "default".into());
    let name = widget.name_any();
    let owner = json!({
        "apiVersion": "example.com/v1", "kind": "Widget", "name": name,
        "uid": widget.uid().unwrap_or_default(), "controller": true, "blockOwnerDeletion": true,
    });
    let settings = json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": format!("{name}-settings"), "ownerReferences": [owner]},
        "data": {"size": widget.data["spec"]["size"].to_string()},
    });
    let config_maps: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &namespace);
    config_maps
        .patch(
            &format!("{name}-settings"),
            &PatchParams::apply(MANAGER).force(),
            &Patch::Apply(&settings),
        )
        .await?;
    let widgets: Api<DynamicObject> =
        Api::namespaced_with(ctx.client.clone(), &namespace, &resource());
    let status = json!({"status": {"ready": true}});
    widgets
        .patch_status(&name, &PatchParams::default(), &Patch::Merge(&status))
        .await?;
    Ok(Action::await_change())
}

async fn reconcile(
    widget: Arc<DynamicObject>,
    ctx: Arc<Context>,
) -> Result<Action, kube::runtime::finalizer::Error<Error>> {
    let namespace = widget.namespace().unwrap_or_else(|| "default".into());
    let widgets: Api<DynamicObject> =
        Api::namespaced_with(ctx.client.clone(), &namespace, &resource());
    finalizer(&widgets, FINALIZER, widget, |event| async {
        match event {
            Event::Apply(widget) => apply(widget, &ctx).await,
            Event::Cleanup(_) => {
                ctx.counts.cleanups.fetch_add(1, Ordering::SeqCst);
                Ok(Action::await_change())
            }
        }
    })
    .await
}

fn error_policy(
    _: Arc<DynamicObject>,
    _: &kube::runtime::finalizer::Error<Error>,
    _: Arc<Context>,
) -> Action {
    Action::requeue(std::time::Duration::from_millis(200))
}

/// Runs the controller until the stream of Widgets ends, counting in `counts`.
pub async fn run(client: Client, counts: Arc<Counts>) {
    let widgets: Api<DynamicObject> = Api::all_with(client.clone(), &resource());
    Controller::new_with(widgets, watcher::Config::default(), resource())
        .owns(
            Api::<ConfigMap>::all(client.clone()),
            watcher::Config::default(),
        )
        .run(
            reconcile,
            error_policy,
            Arc::new(Context { client, counts }),
        )
        .for_each(|_| async {})
        .await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use kube::api::{DeleteParams, PostParams};
    use std::time::Duration;

    /// Waits (up to 10 s) for `done`.
    async fn until<F: std::future::Future<Output = bool>>(mut done: impl FnMut() -> F) {
        let wait = async {
            while !done().await {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(10), wait)
            .await
            .expect("within 10 s");
    }

    #[tokio::test]
    async fn a_finalizing_controller_settles_and_cleans_up() {
        let server = smp_apiserver::ApiServer::default();
        server.create(&crd()).unwrap();
        let client = Client::new(server, "default");
        let counts = Arc::new(Counts::default());
        let controller = tokio::spawn(run(client.clone(), counts.clone()));

        let widgets: Api<DynamicObject> = Api::default_namespaced_with(client.clone(), &resource());
        let widget: DynamicObject = serde_json::from_value(json!({
            "apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": "w"}, "spec": {"size": 3},
        }))
        .unwrap();
        widgets
            .create(&PostParams::default(), &widget)
            .await
            .unwrap();
        let config_maps: Api<ConfigMap> = Api::default_namespaced(client.clone());
        until(|| async {
            let w = widgets.get("w").await.unwrap();
            w.finalizers() == [FINALIZER]
                && w.data["status"]["ready"] == true
                && config_maps.get_opt("w-settings").await.unwrap().is_some()
        })
        .await;

        // Quiet: the same ConfigMap and the same status write nothing, so nothing wakes the
        // controller again.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let settled = counts.applies.load(Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(
            counts.applies.load(Ordering::SeqCst),
            settled,
            "still reconciling"
        );
        assert!(settled <= 5, "{settled} reconciles to settle");

        // Deleted: the cleanup runs, the finalizer goes, the Widget and its ConfigMap with it.
        widgets.delete("w", &DeleteParams::default()).await.unwrap();
        until(|| async {
            widgets.get_opt("w").await.unwrap().is_none()
                && config_maps.get_opt("w-settings").await.unwrap().is_none()
        })
        .await;
        assert_eq!(counts.cleanups.load(Ordering::SeqCst), 1);
        controller.abort();
    }
}
