//! kube's real `Client`, on the in-memory server through its `tower::Service`: every verb and
//! every patch type, and the server's errors as kube reports them.

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use smp_apiserver::ApiServer;

fn client() -> kube::Client {
    kube::Client::new(ApiServer::default(), "default")
}

fn deployment() -> Deployment {
    serde_json::from_value(json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "labels": {"app": "web"}},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "app", "image": "app:1"}]}
            }
        }
    }))
    .unwrap()
}

/// The status code and reason of kube's error for a refused request.
fn refusal(e: kube::Error) -> (u16, String) {
    match e {
        kube::Error::Api(status) => (status.code, status.reason),
        other => panic!("not an API error: {other}"),
    }
}

fn images(d: &Deployment) -> Vec<String> {
    let value = serde_json::to_value(d).unwrap();
    value["spec"]["template"]["spec"]["containers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{}={}",
                c["name"].as_str().unwrap(),
                c["image"].as_str().unwrap()
            )
        })
        .collect()
}

#[tokio::test]
async fn create_get_list_update_delete() {
    let api: Api<Deployment> = Api::default_namespaced(client());
    let created = api
        .create(&PostParams::default(), &deployment())
        .await
        .unwrap();
    let meta = &created.metadata;
    assert!(meta.uid.as_deref().is_some_and(|u| u.len() == 36));
    assert!(meta.creation_timestamp.is_some());
    assert_eq!(meta.generation, Some(1));
    assert_eq!(meta.namespace.as_deref(), Some("default"));
    let managed = meta.managed_fields.as_ref().unwrap();
    assert_eq!(managed[0].operation.as_deref(), Some("Update"));

    let again = api
        .create(&PostParams::default(), &deployment())
        .await
        .unwrap_err();
    assert_eq!(refusal(again), (409, "AlreadyExists".into()));

    let got = api.get("web").await.unwrap();
    assert_eq!(
        got.metadata.resource_version,
        created.metadata.resource_version
    );
    assert_eq!(
        refusal(api.get("nothing").await.unwrap_err()),
        (404, "NotFound".into())
    );

    let listed = api
        .list(&ListParams::default().labels("app=web"))
        .await
        .unwrap();
    assert_eq!(listed.items.len(), 1);
    let none = api
        .list(&ListParams::default().labels("app=db"))
        .await
        .unwrap();
    assert!(none.items.is_empty());

    // An update from the version read; then one from the old version is refused.
    let mut scaled = got.clone();
    scaled.spec.as_mut().unwrap().replicas = Some(3);
    let updated = api
        .replace("web", &PostParams::default(), &scaled)
        .await
        .unwrap();
    assert_eq!(updated.metadata.generation, Some(2));
    let stale = api
        .replace("web", &PostParams::default(), &scaled)
        .await
        .unwrap_err();
    assert_eq!(refusal(stale), (409, "Conflict".into()));

    api.delete("web", &DeleteParams::default()).await.unwrap();
    assert_eq!(refusal(api.get("web").await.unwrap_err()).0, 404);
}

#[tokio::test]
async fn the_four_patch_types() {
    let client = client();
    let api: Api<Deployment> = Api::default_namespaced(client.clone());
    api.create(&PostParams::default(), &deployment())
        .await
        .unwrap();

    // Strategic merge: containers merge by name, the sidecar joins the app (first: without a
    // `$setElementOrder`, the server puts the patch's new items before the others).
    let sidecar = json!({"spec": {"template": {"spec": {"containers": [
        {"name": "sidecar", "image": "sidecar:1"}]}}}});
    let d = api
        .patch("web", &PatchParams::default(), &Patch::Strategic(&sidecar))
        .await
        .unwrap();
    assert_eq!(images(&d), ["sidecar=sidecar:1", "app=app:1"]);

    // JSON patch: one operation at a path (sent as kube sends it, with its content type).
    let ops = json!([
        {"op": "replace", "path": "/spec/template/spec/containers/1/image", "value": "app:2"}
    ]);
    let request = http::Request::patch("/apis/apps/v1/namespaces/default/deployments/web")
        .header("content-type", "application/json-patch+json")
        .body(serde_json::to_vec(&ops).unwrap())
        .unwrap();
    let d: Deployment = client.request(request).await.unwrap();
    assert_eq!(images(&d), ["sidecar=sidecar:1", "app=app:2"]);

    // JSON merge: a list is replaced whole.
    let merge = json!({"spec": {"template": {"spec": {"containers": [
        {"name": "app", "image": "app:3"}]}}}});
    let d = api
        .patch("web", &PatchParams::default(), &Patch::Merge(&merge))
        .await
        .unwrap();
    assert_eq!(images(&d), ["app=app:3"]);

    // Server-side apply by two managers: the second may not take the first's field unless
    // it forces. (The first takes `replicas` from the creator, which wrote it by an update
    // under no name, as the server names a client that sends neither a field manager nor a
    // user agent: it forces too.)
    let mine = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web"}, "spec": {"replicas": 2}});
    let refused = api
        .patch("web", &PatchParams::apply("deployer"), &Patch::Apply(&mine))
        .await
        .unwrap_err();
    assert_eq!(refusal(refused), (409, "Conflict".into()));
    api.patch(
        "web",
        &PatchParams::apply("deployer").force(),
        &Patch::Apply(&mine),
    )
    .await
    .unwrap();
    let theirs = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web"}, "spec": {"replicas": 5}});
    let refused = api
        .patch(
            "web",
            &PatchParams::apply("autoscaler"),
            &Patch::Apply(&theirs),
        )
        .await
        .unwrap_err();
    let kube::Error::Api(status) = refused else {
        panic!("not an API error")
    };
    assert_eq!((status.code, status.reason.as_str()), (409, "Conflict"));
    assert_eq!(
        status.message,
        "Apply failed with 1 conflict: conflict with \"deployer\": .spec.replicas"
    );
    let forced = api
        .patch(
            "web",
            &PatchParams::apply("autoscaler").force(),
            &Patch::Apply(&theirs),
        )
        .await
        .unwrap();
    assert_eq!(forced.spec.unwrap().replicas, Some(5));
}

#[tokio::test]
async fn apply_creates_and_custom_forms_are_refused() {
    let api: Api<ConfigMap> = Api::default_namespaced(client());
    let config = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "settings"}, "data": {"a": "1"}});
    let created = api
        .patch(
            "settings",
            &PatchParams::apply("me"),
            &Patch::Apply(&config),
        )
        .await
        .unwrap();
    assert_eq!(created.data.unwrap()["a"], "1");
    let managed = created.metadata.managed_fields.unwrap();
    assert_eq!(
        (
            managed[0].manager.as_deref(),
            managed[0].operation.as_deref()
        ),
        (Some("me"), Some("Apply"))
    );

    // A namespace that does not exist.
    let elsewhere: Api<ConfigMap> = Api::namespaced(client(), "nowhere");
    let refused = elsewhere
        .create(
            &PostParams::default(),
            &serde_json::from_value(config).unwrap(),
        )
        .await
        .unwrap_err();
    assert_eq!(refusal(refused), (404, "NotFound".into()));
}

#[tokio::test]
async fn finalizers_hold_a_deleted_object() {
    let api: Api<ConfigMap> = Api::default_namespaced(client());
    let held: ConfigMap = serde_json::from_value(json!({"metadata": {"name": "held",
        "finalizers": ["example.com/keep"]}}))
    .unwrap();
    api.create(&PostParams::default(), &held).await.unwrap();
    api.delete("held", &DeleteParams::default()).await.unwrap();
    let marked = api.get("held").await.unwrap();
    assert!(marked.metadata.deletion_timestamp.is_some());
    let release = json!({"metadata": {"finalizers": null}});
    api.patch("held", &PatchParams::default(), &Patch::Merge(&release))
        .await
        .unwrap();
    assert_eq!(refusal(api.get("held").await.unwrap_err()).0, 404);
}

#[tokio::test]
async fn discovery_lists_the_builtin_resources() {
    let client = client();
    let groups: Value = client
        .request(http::Request::get("/apis").body(Vec::new()).unwrap())
        .await
        .unwrap();
    assert!(
        groups["groups"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["name"] == "apps")
    );
    let core: Value = client
        .request(http::Request::get("/api/v1").body(Vec::new()).unwrap())
        .await
        .unwrap();
    let pods = core["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "pods")
        .unwrap();
    assert_eq!(pods["shortNames"], json!(["po"]));
    assert_eq!(pods["namespaced"], true);
}

#[tokio::test]
async fn lists_page_and_collections_delete() {
    let api: Api<ConfigMap> = Api::default_namespaced(client());
    for i in 0..5 {
        let cm: ConfigMap = serde_json::from_value(json!({"metadata": {"name": format!("cm-{i}"),
            "labels": {"even": (i % 2 == 0).to_string()}}}))
        .unwrap();
        api.create(&PostParams::default(), &cm).await.unwrap();
    }
    // Two at a time, each page continuing where the last stopped.
    let mut names = Vec::new();
    let mut params = ListParams::default().limit(2);
    loop {
        let page = api.list(&params).await.unwrap();
        names.extend(page.items.iter().filter_map(|c| c.metadata.name.clone()));
        match page.metadata.continue_ {
            Some(token) if !token.is_empty() => params = params.continue_token(&token),
            _ => break,
        }
    }
    // With the root CA ConfigMap every namespace has.
    assert_eq!(
        names,
        ["cm-0", "cm-1", "cm-2", "cm-3", "cm-4", "kube-root-ca.crt"]
    );

    // A dry run answers without storing.
    let dry: ConfigMap = serde_json::from_value(json!({"metadata": {"name": "dry"}})).unwrap();
    api.create(
        &PostParams {
            dry_run: true,
            ..PostParams::default()
        },
        &dry,
    )
    .await
    .unwrap();
    assert_eq!(refusal(api.get("dry").await.unwrap_err()).0, 404);

    api.delete_collection(
        &DeleteParams::default(),
        &ListParams::default().labels("even=true"),
    )
    .await
    .unwrap();
    let left: Vec<_> = api
        .list(&ListParams::default())
        .await
        .unwrap()
        .items
        .into_iter()
        .filter_map(|c| c.metadata.name)
        .collect();
    assert_eq!(left, ["cm-1", "cm-3", "kube-root-ca.crt"]);
}

#[tokio::test]
async fn the_status_subresource_writes_the_status_alone() {
    let api: Api<Deployment> = Api::default_namespaced(client());
    api.create(&PostParams::default(), &deployment())
        .await
        .unwrap();
    let status = json!({"status": {"replicas": 1, "readyReplicas": 1}, "spec": {"replicas": 7}});
    let d = api
        .patch_status("web", &PatchParams::default(), &Patch::Merge(&status))
        .await
        .unwrap();
    let (spec, st) = (d.spec.unwrap(), d.status.unwrap());
    assert_eq!((spec.replicas, st.ready_replicas), (Some(1), Some(1)));
    // And the main resource keeps the status as it is.
    let main = json!({"status": {"readyReplicas": 0}, "spec": {"replicas": 2}});
    let d = api
        .patch("web", &PatchParams::default(), &Patch::Merge(&main))
        .await
        .unwrap();
    assert_eq!(
        (d.spec.unwrap().replicas, d.status.unwrap().ready_replicas),
        (Some(2), Some(1))
    );
}

#[tokio::test]
async fn deletes_check_preconditions_and_namespaces_take_their_objects() {
    use k8s_openapi::api::core::v1::Namespace;
    use kube::api::Preconditions;
    let client = client();
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let team: Namespace = serde_json::from_value(json!({"metadata": {"name": "team"}})).unwrap();
    namespaces
        .create(&PostParams::default(), &team)
        .await
        .unwrap();
    let api: Api<ConfigMap> = Api::namespaced(client.clone(), "team");
    let cm: ConfigMap = serde_json::from_value(json!({"metadata": {"name": "a"}})).unwrap();
    api.create(&PostParams::default(), &cm).await.unwrap();

    let wrong = DeleteParams {
        preconditions: Some(Preconditions {
            uid: Some("not-its-uid".into()),
            resource_version: None,
        }),
        ..DeleteParams::default()
    };
    assert_eq!(
        refusal(api.delete("a", &wrong).await.unwrap_err()),
        (409, "Conflict".into())
    );

    namespaces
        .delete("team", &DeleteParams::default())
        .await
        .unwrap();
    assert_eq!(refusal(api.get("a").await.unwrap_err()).0, 404);
}

/// A deleted namespace whose object a finalizer holds stays `Terminating`, refuses new objects,
/// and goes when the finalizer does.
#[tokio::test]
async fn a_namespace_terminates_until_its_last_object_goes() {
    use k8s_openapi::api::core::v1::Namespace;
    let client = client();
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let team: Namespace = serde_json::from_value(json!({"metadata": {"name": "team"}})).unwrap();
    let created = namespaces
        .create(&PostParams::default(), &team)
        .await
        .unwrap();
    assert_eq!(
        created.spec.unwrap().finalizers,
        Some(vec!["kubernetes".to_owned()])
    );
    assert_eq!(created.status.unwrap().phase.as_deref(), Some("Active"));
    assert_eq!(
        created.metadata.labels.unwrap()["kubernetes.io/metadata.name"],
        "team"
    );
    let api: Api<ConfigMap> = Api::namespaced(client.clone(), "team");
    let held: ConfigMap = serde_json::from_value(
        json!({"metadata": {"name": "held", "finalizers": ["example.com/keep"]}}),
    )
    .unwrap();
    api.create(&PostParams::default(), &held).await.unwrap();
    let free: ConfigMap = serde_json::from_value(json!({"metadata": {"name": "free"}})).unwrap();
    api.create(&PostParams::default(), &free).await.unwrap();

    namespaces
        .delete("team", &DeleteParams::default())
        .await
        .unwrap();
    let terminating = namespaces.get("team").await.unwrap();
    assert_eq!(
        terminating.status.unwrap().phase.as_deref(),
        Some("Terminating")
    );
    assert!(terminating.metadata.deletion_timestamp.is_some());
    assert_eq!(refusal(api.get("free").await.unwrap_err()).0, 404);
    assert!(
        api.get("held")
            .await
            .unwrap()
            .metadata
            .deletion_timestamp
            .is_some()
    );
    let late: ConfigMap = serde_json::from_value(json!({"metadata": {"name": "late"}})).unwrap();
    let Err(kube::Error::Api(status)) = api.create(&PostParams::default(), &late).await else {
        panic!("a terminating namespace took a new object");
    };
    assert_eq!((status.code, status.reason.as_str()), (403, "Forbidden"));
    assert_eq!(
        status.message,
        "configmaps \"late\" is forbidden: unable to create new content in namespace team \
         because it is being terminated"
    );

    // The finalizer goes: the object, and with it the namespace.
    let release = json!({"metadata": {"finalizers": null}});
    api.patch("held", &PatchParams::default(), &Patch::Merge(&release))
        .await
        .unwrap();
    assert_eq!(refusal(api.get("held").await.unwrap_err()).0, 404);
    assert_eq!(refusal(namespaces.get("team").await.unwrap_err()).0, 404);
}

/// The `scale` subresource reads and writes the replica count: kube's `get_scale`,
/// `patch_scale` and `replace_scale`, with a stale resourceVersion refused and a negative
/// count invalid.
#[tokio::test]
async fn the_scale_subresource_writes_the_replica_count() {
    let api: Api<Deployment> = Api::namespaced(client(), "default");
    api.create(&PostParams::default(), &deployment())
        .await
        .unwrap();
    let scale = api.get_scale("web").await.unwrap();
    assert_eq!(scale.spec.as_ref().unwrap().replicas, Some(1));
    let status = scale.status.as_ref().unwrap();
    assert_eq!(
        (status.replicas, status.selector.as_deref()),
        (0, Some("app=web"))
    );

    let patch = json!({"spec": {"replicas": 3}});
    let scaled = api
        .patch_scale("web", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
    assert_eq!(scaled.spec.unwrap().replicas, Some(3));
    let d = api.get("web").await.unwrap();
    assert_eq!(d.spec.as_ref().unwrap().replicas, Some(3));
    assert_eq!(d.metadata.generation, Some(2));
    let entry = d
        .metadata
        .managed_fields
        .unwrap()
        .into_iter()
        .find(|m| m.subresource.as_deref() == Some("scale"))
        .unwrap();
    assert_eq!(
        entry.fields_v1.unwrap().0,
        json!({"f:spec": {"f:replicas": {}}})
    );

    // An update names the version it was based on.
    let mut stale = scale.clone();
    stale.spec.as_mut().unwrap().replicas = Some(5);
    assert_eq!(
        refusal(
            api.replace_scale("web", &PostParams::default(), &stale)
                .await
                .unwrap_err()
        ),
        (409, "Conflict".into())
    );
    let mut fresh = api.get_scale("web").await.unwrap();
    fresh.spec.as_mut().unwrap().replicas = Some(5);
    let replaced = api
        .replace_scale("web", &PostParams::default(), &fresh)
        .await
        .unwrap();
    assert_eq!(replaced.spec.unwrap().replicas, Some(5));

    let negative = json!({"spec": {"replicas": -1}});
    assert_eq!(
        refusal(
            api.patch_scale("web", &PatchParams::default(), &Patch::Merge(&negative))
                .await
                .unwrap_err()
        ),
        (422, "Invalid".into())
    );
}
