//! kube's `Client`, in memory and over HTTP: JSON patch, writes that change nothing,
//! `generation`, deletion and garbage collection, each as kube-apiserver v1.34 answers.

use std::time::Duration;

use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet};
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{ConfigMap, Pod, Service};
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use serde_json::{Value, json};

use crate::support::{self, clients, deployment, events, raw, replica_set, status};

const CONFIGMAPS: &str = "/api/v1/namespaces/default/configmaps";
const JSON_PATCH: &str = "application/json-patch+json";

fn typed<K: serde::de::DeserializeOwned>(value: Value) -> K {
    serde_json::from_value(value).unwrap()
}

fn value(object: &impl serde::Serialize) -> Value {
    serde_json::to_value(object).unwrap()
}

fn version(object: &impl kube::Resource) -> String {
    object.meta().resource_version.clone().unwrap_or_default()
}

/// The Deployments and ReplicaSets of `client`'s default namespace, a Deployment `name`, and a
/// ReplicaSet `<name>-rs` it owns (blocking it if `block`): the owner, as created.
async fn owner_and_dependent(
    client: &kube::Client,
    name: &str,
    block: bool,
) -> (Api<Deployment>, Api<ReplicaSet>, Value) {
    let deployments: Api<Deployment> = Api::default_namespaced(client.clone());
    let sets: Api<ReplicaSet> = Api::default_namespaced(client.clone());
    let owner = deployments
        .create(&PostParams::default(), &typed(deployment(name)))
        .await
        .unwrap();
    let owner = value(&owner);
    sets.create(
        &PostParams::default(),
        &typed(replica_set(&format!("{name}-rs"), &owner, block)),
    )
    .await
    .unwrap();
    (deployments, sets, owner)
}

/// kube-runtime's `finalizer()` adds the first finalizer after testing the list for `null`,
/// which the server's JSON patch library passes for a missing member; the library's errors
/// reach the client as one 422 without their words (the patch handler's
/// `NewGenericServerResponse`); past 10,000 operations is 413; a `test` without `value` of a
/// missing member crashes the library, and the server answers 500.
#[tokio::test]
async fn json_patch_as_the_server_applies_it() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let maps: Api<ConfigMap> = Api::default_namespaced(client.clone());
        maps.create(
            &PostParams::default(),
            &typed(json!({"metadata": {"name": "f"}})),
        )
        .await
        .unwrap();
        let first = json!([
            {"op": "test", "path": "/metadata/finalizers", "value": null},
            {"op": "add", "path": "/metadata/finalizers", "value": ["example.com/cleanup"]},
        ]);
        let path = format!("{CONFIGMAPS}/f");
        let added = raw(&client, "PATCH", &path, JSON_PATCH, Some(first.clone())).await;
        assert_eq!(added.code, 200, "{how}: {}", added.body);
        assert_eq!(
            added.body["metadata"]["finalizers"],
            json!(["example.com/cleanup"])
        );

        let again = raw(&client, "PATCH", &path, JSON_PATCH, Some(first)).await;
        assert_eq!(
            again.body,
            json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                "message": "the server rejected our request due to an error in our request",
                "reason": "Invalid", "details": {}, "code": 422}),
            "{how}"
        );

        let many: Vec<Value> = (0..10_001)
            .map(|_| json!({"op": "test", "path": "/metadata/name", "value": "f"}))
            .collect();
        let refused = raw(&client, "PATCH", &path, JSON_PATCH, Some(json!(many))).await;
        assert_eq!(
            status(&refused),
            (
                413,
                "RequestEntityTooLarge",
                "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001"
            ),
            "{how}"
        );

        let crash = json!([{"op": "test", "path": "/metadata/labels"}]);
        let crashed = raw(&client, "PATCH", &path, JSON_PATCH, Some(crash)).await;
        assert_eq!(crashed.code, 500, "{how}");

        // Negative indices count from the end; `replace` of a missing member adds it.
        let edits = json!([
            {"op": "add", "path": "/metadata/finalizers/-1", "value": "example.com/last"},
            {"op": "replace", "path": "/data", "value": {"k": "v"}},
        ]);
        let edited = raw(&client, "PATCH", &path, JSON_PATCH, Some(edits)).await;
        assert_eq!(
            (&edited.body["metadata"]["finalizers"], &edited.body["data"]),
            (
                &json!(["example.com/cleanup", "example.com/last"]),
                &json!({"k": "v"})
            ),
            "{how}"
        );
    }
}

/// Writes whose result is the object as stored write nothing: the same resourceVersion and no
/// watch event (the etcd3 store's `GuaranteedUpdate` skips them; the field manager keeps a
/// manager's time when its fields did not change). Only the three real changes are seen.
#[tokio::test]
async fn writes_that_change_nothing_write_nothing() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let api: Api<Deployment> = Api::default_namespaced(client.clone());
        let created = api
            .create(&PostParams::default(), &typed(deployment("web")))
            .await
            .unwrap();
        let start = version(&created);
        let same = |d: &Deployment| assert_eq!(version(d), start, "{how}");

        let labels = json!({"metadata": {"labels": {"app": "web"}}});
        same(
            &api.patch("web", &PatchParams::default(), &Patch::Merge(&labels))
                .await
                .unwrap(),
        );
        let image = json!({"spec": {"template": {"spec": {"containers": [
            {"name": "app", "image": "app:1"}]}}}});
        same(
            &api.patch("web", &PatchParams::default(), &Patch::Strategic(&image))
                .await
                .unwrap(),
        );
        let replicas = json!([{"op": "replace", "path": "/spec/replicas", "value": 1}]);
        let answer = raw(
            &client,
            "PATCH",
            "/apis/apps/v1/namespaces/default/deployments/web",
            JSON_PATCH,
            Some(replicas),
        )
        .await;
        assert_eq!(
            answer.body["metadata"]["resourceVersion"],
            json!(start),
            "{how}"
        );
        let read = api.get("web").await.unwrap();
        same(
            &api.replace("web", &PostParams::default(), &read)
                .await
                .unwrap(),
        );

        // A first apply records its manager (a change); the same apply again does not.
        let config = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web"}, "spec": {"replicas": 1}});
        let apply = PatchParams::apply("deployer");
        let applied = api
            .patch("web", &apply, &Patch::Apply(&config))
            .await
            .unwrap();
        let after_apply = version(&applied);
        assert_ne!(after_apply, start, "{how}");
        let again = api
            .patch("web", &apply, &Patch::Apply(&config))
            .await
            .unwrap();
        assert_eq!(version(&again), after_apply, "{how}: a repeated apply");

        // A first status write changes the status; the same one again does not.
        let observed = json!({"status": {"observedGeneration": 1, "replicas": 0}});
        let written = api
            .patch_status("web", &PatchParams::default(), &Patch::Merge(&observed))
            .await
            .unwrap();
        let after_status = version(&written);
        assert_ne!(after_status, after_apply, "{how}");
        let rewritten = api
            .patch_status("web", &PatchParams::default(), &Patch::Merge(&observed))
            .await
            .unwrap();
        assert_eq!(version(&rewritten), after_status, "{how}: the same status");

        // A scale write with the replicas there are.
        let scale = json!({"spec": {"replicas": 1}});
        let scaled = api
            .patch_scale("web", &PatchParams::default(), &Patch::Merge(&scale))
            .await
            .unwrap();
        assert_eq!(
            scaled.metadata.resource_version.as_deref(),
            Some(after_status.as_str()),
            "{how}"
        );

        let change = json!({"metadata": {"labels": {"tier": "front"}}});
        let changed = api
            .patch("web", &PatchParams::default(), &Patch::Merge(&change))
            .await
            .unwrap();
        let seen = events(&api, &start, Duration::from_secs(3)).await;
        let modified = |v: &str| ("MODIFIED".to_owned(), "web".to_owned(), v.to_owned());
        assert_eq!(
            seen,
            [
                modified(&after_apply),
                modified(&after_status),
                modified(&version(&changed))
            ],
            "{how}: the watch sees the real changes only"
        );
    }
}

/// `generation` moves as each kind's strategy moves it: a Deployment's on a change of its spec
/// or of its annotations (`PrepareForUpdate` of `pkg/registry/apps/deployment/strategy.go`),
/// a ReplicaSet's on its spec only, never on a status write; a ConfigMap has none.
#[tokio::test]
async fn generation_moves_as_each_strategy_moves_it() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let deployments: Api<Deployment> = Api::default_namespaced(client.clone());
        let mut sent = deployment("gen");
        sent["metadata"]["generation"] = json!(7);
        let d = deployments
            .create(&PostParams::default(), &typed(sent))
            .await
            .unwrap();
        assert_eq!(d.metadata.generation, Some(1), "{how}: set to 1 on create");
        let note = json!({"metadata": {"annotations": {"note": "x"}}});
        let d = deployments
            .patch("gen", &PatchParams::default(), &Patch::Merge(&note))
            .await
            .unwrap();
        assert_eq!(
            d.metadata.generation,
            Some(2),
            "{how}: an annotation moves it"
        );
        let label = json!({"metadata": {"labels": {"x": "y"}}, "status": {"replicas": 3}});
        let d = deployments
            .patch("gen", &PatchParams::default(), &Patch::Merge(&label))
            .await
            .unwrap();
        assert_eq!(d.metadata.generation, Some(2), "{how}: a label does not");
        let d = deployments
            .patch_status(
                "gen",
                &PatchParams::default(),
                &Patch::Merge(&json!({"status": {"replicas": 1}})),
            )
            .await
            .unwrap();
        assert_eq!(
            d.metadata.generation,
            Some(2),
            "{how}: a status write does not"
        );

        let owner = value(&d);
        let sets: Api<ReplicaSet> = Api::default_namespaced(client.clone());
        sets.create(
            &PostParams::default(),
            &typed(replica_set("gen-rs", &owner, false)),
        )
        .await
        .unwrap();
        let rs = sets
            .patch("gen-rs", &PatchParams::default(), &Patch::Merge(&note))
            .await
            .unwrap();
        assert_eq!(
            rs.metadata.generation,
            Some(1),
            "{how}: a ReplicaSet's annotation does not"
        );
        let rs = sets
            .patch(
                "gen-rs",
                &PatchParams::default(),
                &Patch::Merge(&json!({"spec": {"replicas": 2}})),
            )
            .await
            .unwrap();
        assert_eq!(rs.metadata.generation, Some(2), "{how}: its spec does");

        let maps: Api<ConfigMap> = Api::default_namespaced(client.clone());
        let cm = maps
            .create(
                &PostParams::default(),
                &typed(json!({"metadata": {"name": "gen"}, "data": {"a": "1"}})),
            )
            .await
            .unwrap();
        assert_eq!(cm.metadata.generation, None, "{how}");
        let cm = maps
            .patch(
                "gen",
                &PatchParams::default(),
                &Patch::Merge(&json!({"data": {"a": "2"}})),
            )
            .await
            .unwrap();
        assert_eq!(cm.metadata.generation, None, "{how}");
    }
}

/// Foreground deletion: the owner is answered marked, with `foregroundDeletion`; the
/// collector deletes its dependents, and the owner goes once no dependent that blocks it is
/// left (here a blocking dependent held by a finalizer of its own holds the owner).
#[tokio::test]
async fn foreground_deletion_waits_for_blocking_dependents() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let deployments: Api<Deployment> = Api::default_namespaced(client.clone());
        let sets: Api<ReplicaSet> = Api::default_namespaced(client.clone());
        let owner = value(
            &deployments
                .create(&PostParams::default(), &typed(deployment("fg")))
                .await
                .unwrap(),
        );
        let mut held = replica_set("fg-held", &owner, true);
        held["metadata"]["finalizers"] = json!(["example.com/hold"]);
        sets.create(&PostParams::default(), &typed(held))
            .await
            .unwrap();
        sets.create(
            &PostParams::default(),
            &typed(replica_set("fg-free", &owner, false)),
        )
        .await
        .unwrap();

        let answer = deployments
            .delete("fg", &DeleteParams::foreground())
            .await
            .unwrap();
        let marked = answer.left().expect("the Deployment, not a Status");
        assert_eq!(
            marked.metadata.finalizers,
            Some(vec!["foregroundDeletion".into()]),
            "{how}"
        );
        assert!(marked.metadata.deletion_timestamp.is_some(), "{how}");
        assert_eq!(
            marked.metadata.deletion_grace_period_seconds,
            Some(0),
            "{how}"
        );
        assert_eq!(
            marked.metadata.generation,
            Some(2),
            "{how}: markAsDeleting moves it"
        );

        // The free dependent is gone; the held one is marked, and holds the owner.
        assert!(sets.get_opt("fg-free").await.unwrap().is_none(), "{how}");
        let rs = sets.get("fg-held").await.unwrap();
        assert!(rs.metadata.deletion_timestamp.is_some(), "{how}");
        assert!(
            deployments.get_opt("fg").await.unwrap().is_some(),
            "{how}: held"
        );

        let release = json!({"metadata": {"finalizers": null}});
        sets.patch("fg-held", &PatchParams::default(), &Patch::Merge(&release))
            .await
            .unwrap();
        assert!(sets.get_opt("fg-held").await.unwrap().is_none(), "{how}");
        assert!(
            deployments.get_opt("fg").await.unwrap().is_none(),
            "{how}: released"
        );
    }
}

/// Orphan deletion takes the owner's references off its dependents, which stay; background
/// deletion (the default) deletes them after the owner, whose DELETE answers a `Status` (a
/// Deployment's registry does not return the deleted object).
#[tokio::test]
async fn orphan_and_background_deletion() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let (deployments, sets, _) = owner_and_dependent(&client, "or", true).await;
        let marked = deployments
            .delete("or", &DeleteParams::orphan())
            .await
            .unwrap()
            .left()
            .expect("the Deployment");
        assert_eq!(
            marked.metadata.finalizers,
            Some(vec!["orphan".into()]),
            "{how}"
        );
        assert!(deployments.get_opt("or").await.unwrap().is_none(), "{how}");
        let rs = sets.get("or-rs").await.unwrap();
        assert_eq!(rs.metadata.owner_references, None, "{how}: orphaned");

        let (_, _, owner) = owner_and_dependent(&client, "bg", true).await;
        let answer = raw(
            &client,
            "DELETE",
            "/apis/apps/v1/namespaces/default/deployments/bg",
            "application/json",
            None,
        )
        .await;
        assert_eq!(
            answer.body,
            json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
                "details": {"name": "bg", "group": "apps", "kind": "deployments", "uid": owner["metadata"]["uid"]}}),
            "{how}"
        );
        assert!(
            sets.get_opt("bg-rs").await.unwrap().is_none(),
            "{how}: collected"
        );
    }
}

/// A dependent created with an owner that does not exist (or another object by its name, with
/// another uid) is collected at once; one with an owner left loses only the dangling reference.
#[tokio::test]
async fn dangling_owner_references_are_collected() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let maps: Api<ConfigMap> = Api::default_namespaced(client.clone());
        let owner = value(
            &maps
                .create(
                    &PostParams::default(),
                    &typed(json!({"metadata": {"name": "owner"}})),
                )
                .await
                .unwrap(),
        );
        let ghost = json!({"apiVersion": "v1", "kind": "ConfigMap", "name": "ghost", "uid": "00000000-0000-4000-8000-000000000000"});
        let wrong_uid = json!({"apiVersion": "v1", "kind": "ConfigMap", "name": "owner", "uid": "00000000-0000-4000-8000-000000000001"});
        for (name, refs) in [("lonely", json!([ghost])), ("stale", json!([wrong_uid]))] {
            let created = maps
                .create(
                    &PostParams::default(),
                    &typed(json!({"metadata": {"name": name, "ownerReferences": refs}})),
                )
                .await
                .unwrap();
            assert!(created.metadata.uid.is_some(), "{how}");
            assert!(
                maps.get_opt(name).await.unwrap().is_none(),
                "{how}: {name} collected"
            );
        }
        let both = json!([support::owner_reference(&owner, false), ghost]);
        maps.create(
            &PostParams::default(),
            &typed(json!({"metadata": {"name": "kept", "ownerReferences": both}})),
        )
        .await
        .unwrap();
        let kept = maps.get("kept").await.unwrap();
        let refs = kept.metadata.owner_references.unwrap();
        assert_eq!(refs.len(), 1, "{how}");
        assert_eq!(refs[0].name, "owner", "{how}");
        // Events take no part: an owner reference to an Event's kind is not followed.
        let unserved =
            json!({"apiVersion": "example.com/v1", "kind": "Nothing", "name": "x", "uid": "u"});
        maps.create(
            &PostParams::default(),
            &typed(json!({"metadata": {"name": "unresolved", "ownerReferences": [unserved]}})),
        )
        .await
        .unwrap();
        assert!(
            maps.get_opt("unresolved").await.unwrap().is_some(),
            "{how}: a kind not served is left alone"
        );
    }
}

/// With the garbage collector off (`Options::garbage_collection`), dependents outlive their
/// owners and the collector's finalizers are not added.
#[tokio::test]
async fn the_collector_can_be_turned_off() {
    let clients = support::clients_with(|| smp_apiserver::Options {
        garbage_collection: false,
        ..Default::default()
    })
    .await;
    for (how, client) in clients.each() {
        let (deployments, sets, _) = owner_and_dependent(&client, "off", true).await;
        let answer = deployments
            .delete("off", &DeleteParams::foreground())
            .await
            .unwrap();
        assert!(answer.is_right(), "{how}: deleted at once, a Status");
        assert!(sets.get_opt("off-rs").await.unwrap().is_some(), "{how}");
    }
}

/// A Job deleted with no propagation policy orphans its pods (the batch/v1 strategy's default,
/// with its warning); a pod bound to a node is deleted gracefully (its 30 seconds, then a
/// deletion with grace 0), one on no node at once; pods and services answer DELETE with the
/// object, ConfigMaps with a `Status`; an object being deleted takes no new finalizer.
#[tokio::test]
async fn deletion_as_each_registry_answers_it() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let jobs: Api<Job> = Api::default_namespaced(client.clone());
        let job = json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "once"},
            "spec": {"template": {"spec": {"restartPolicy": "Never",
                "containers": [{"name": "c", "image": "busybox"}]}}}});
        let job = value(
            &jobs
                .create(&PostParams::default(), &typed(job))
                .await
                .unwrap(),
        );
        let pods: Api<Pod> = Api::default_namespaced(client.clone());
        let pod = |name: &str, node: Option<&str>| {
            let mut pod = json!({"metadata": {"name": name},
                "spec": {"containers": [{"name": "c", "image": "busybox"}]}});
            if let Some(node) = node {
                pod["spec"]["nodeName"] = json!(node);
            }
            pod
        };
        let mut worker = pod("once-x", None);
        worker["metadata"]["ownerReferences"] = json!([support::owner_reference(&job, true)]);
        pods.create(&PostParams::default(), &typed(worker))
            .await
            .unwrap();
        let answer = raw(
            &client,
            "DELETE",
            "/apis/batch/v1/namespaces/default/jobs/once",
            "application/json",
            None,
        )
        .await;
        assert_eq!(answer.code, 200, "{how}");
        assert_eq!(
            answer.body["metadata"]["finalizers"],
            json!(["orphan"]),
            "{how}"
        );
        assert_eq!(
            answer.headers["warning"],
            "299 - \"child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning\"",
            "{how}"
        );
        assert!(jobs.get_opt("once").await.unwrap().is_none(), "{how}");
        let orphan = pods.get("once-x").await.unwrap();
        assert_eq!(orphan.metadata.owner_references, None, "{how}");

        // Bound: Terminating for its grace period, until deleted with grace 0.
        pods.create(&PostParams::default(), &typed(pod("bound", Some("node-1"))))
            .await
            .unwrap();
        let first = pods
            .delete("bound", &DeleteParams::default())
            .await
            .unwrap()
            .left()
            .unwrap();
        assert_eq!(
            first.metadata.deletion_grace_period_seconds,
            Some(30),
            "{how}"
        );
        assert_eq!(first.metadata.generation, Some(2), "{how}");
        let again = pods
            .delete("bound", &DeleteParams::default())
            .await
            .unwrap()
            .left()
            .unwrap();
        assert_eq!(
            version(&again),
            version(&first),
            "{how}: pending, nothing written"
        );
        assert!(
            pods.get_opt("bound").await.unwrap().is_some(),
            "{how}: Terminating"
        );
        let gone = pods
            .delete("bound", &DeleteParams::default().grace_period(0))
            .await
            .unwrap()
            .left()
            .expect("the deleted pod");
        assert_eq!(
            gone.metadata.deletion_grace_period_seconds,
            Some(0),
            "{how}"
        );
        assert!(pods.get_opt("bound").await.unwrap().is_none(), "{how}");

        // Unbound: marked, then deleted in the same request (a MODIFIED, then a DELETED).
        let created = pods
            .create(&PostParams::default(), &typed(pod("free", None)))
            .await
            .unwrap();
        let deleted = pods
            .delete("free", &DeleteParams::default())
            .await
            .unwrap()
            .left()
            .unwrap();
        assert_eq!(
            deleted.metadata.deletion_grace_period_seconds,
            Some(0),
            "{how}"
        );
        let seen: Vec<String> = events(&pods, &version(&created), Duration::from_secs(2))
            .await
            .into_iter()
            .filter(|(_, name, _)| name == "free")
            .map(|(kind, _, _)| kind)
            .collect();
        assert_eq!(seen, ["MODIFIED", "DELETED"], "{how}");

        let services: Api<Service> = Api::default_namespaced(client.clone());
        services
            .create(
                &PostParams::default(),
                &typed(json!({"metadata": {"name": "svc"}, "spec": {"ports": [{"port": 80}]}})),
            )
            .await
            .unwrap();
        let svc = services
            .delete("svc", &DeleteParams::default())
            .await
            .unwrap();
        assert!(svc.is_left(), "{how}: a Service answers with itself");

        let maps: Api<ConfigMap> = Api::default_namespaced(client.clone());
        let held = json!({"metadata": {"name": "held", "finalizers": ["example.com/a"]}});
        maps.create(&PostParams::default(), &typed(held))
            .await
            .unwrap();
        maps.delete("held", &DeleteParams::default()).await.unwrap();
        let more = json!({"metadata": {"finalizers": ["example.com/a", "example.com/b"]}});
        let refused = maps
            .patch("held", &PatchParams::default(), &Patch::Merge(&more))
            .await
            .unwrap_err();
        let kube::Error::Api(refusal) = refused else {
            panic!("{how}: not an API error")
        };
        assert_eq!(
            (refusal.code, refusal.message.as_str()),
            (
                422,
                "ConfigMap \"held\" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{\"example.com/b\"}"
            ),
            "{how}"
        );
        let none = json!({"metadata": {"finalizers": []}});
        maps.patch("held", &PatchParams::default(), &Patch::Merge(&none))
            .await
            .unwrap();
        assert!(
            maps.get_opt("held").await.unwrap().is_none(),
            "{how}: the last finalizer gone"
        );
    }
}

/// DeleteOptions are refused as `ValidateDeleteOptions` refuses them.
#[tokio::test]
async fn delete_options_are_checked() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let maps: Api<ConfigMap> = Api::default_namespaced(client.clone());
        maps.create(
            &PostParams::default(),
            &typed(json!({"metadata": {"name": "o"}})),
        )
        .await
        .unwrap();
        let both = raw(
            &client,
            "DELETE",
            &format!("{CONFIGMAPS}/o"),
            "application/json",
            Some(json!({"orphanDependents": true, "propagationPolicy": "Foreground"})),
        )
        .await;
        assert_eq!(
            status(&both),
            (
                422,
                "Invalid",
                "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Invalid value: \"Foreground\": orphanDependents and deletionPropagation cannot be both set"
            ),
            "{how}"
        );
        let bad = raw(
            &client,
            "DELETE",
            &format!("{CONFIGMAPS}/o?propagationPolicy=background"),
            "application/json",
            None,
        )
        .await;
        assert_eq!(
            status(&bad),
            (
                422,
                "Invalid",
                "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"background\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\""
            ),
            "{how}"
        );
        let uid = raw(
            &client,
            "DELETE",
            &format!("{CONFIGMAPS}/o"),
            "application/json",
            Some(json!({"preconditions": {"uid": "x"}})),
        )
        .await;
        assert_eq!(uid.code, 409, "{how}");
        assert!(status(&uid).2.starts_with("Operation cannot be fulfilled on ConfigMap \"o\": the UID in the precondition (x) does not match the UID in record ("), "{how}: {}", uid.body);
    }
}

/// Two objects that own each other, blocking: deleted in the foreground, the collector breaks
/// the cycle (the dependent stops blocking its owner, `attemptToDeleteItem`) and both go.
#[tokio::test]
async fn a_foreground_cycle_is_broken() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let maps: Api<ConfigMap> = Api::default_namespaced(client.clone());
        let a = value(
            &maps
                .create(
                    &PostParams::default(),
                    &typed(json!({"metadata": {"name": "a"}})),
                )
                .await
                .unwrap(),
        );
        let b = json!({"metadata": {"name": "b", "ownerReferences": [support::owner_reference(&a, true)]}});
        let b = value(
            &maps
                .create(&PostParams::default(), &typed(b))
                .await
                .unwrap(),
        );
        let back = json!({"metadata": {"ownerReferences": [support::owner_reference(&b, true)]}});
        maps.patch("a", &PatchParams::default(), &Patch::Merge(&back))
            .await
            .unwrap();
        maps.delete("a", &DeleteParams::foreground()).await.unwrap();
        assert!(maps.get_opt("a").await.unwrap().is_none(), "{how}");
        assert!(maps.get_opt("b").await.unwrap().is_none(), "{how}");
    }
}

/// Built-in objects are stored with the defaults decoding gives them (kube-apiserver's
/// scheme defaults, `pkg/apis/apps/v1/defaults.go` and core/v1's): a Deployment written with
/// none reads back with its strategy, history and deadline, and its pod template's; the
/// field manager of its creator owns them, as on a cluster. `Options::defaulting` off stores
/// it as written.
#[tokio::test]
async fn built_in_objects_are_stored_defaulted() {
    use k8s_openapi::api::apps::v1::Deployment;
    let web = serde_json::json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web"},
        "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": {
            "metadata": {"labels": {"app": "web"}},
            "spec": {"containers": [{"name": "app", "image": "nginx:1.27",
                "resources": {"requests": {"memory": "1000M"}}}]}}}});
    let deployment: Deployment = serde_json::from_value(web).unwrap();
    let clients = crate::support::clients().await;
    for (how, client) in clients.each() {
        let api: kube::Api<Deployment> = kube::Api::default_namespaced(client.clone());
        let created = api.create(&Default::default(), &deployment).await.unwrap();
        let spec = created.spec.unwrap();
        assert_eq!(spec.replicas, Some(1), "{how}");
        assert_eq!(spec.revision_history_limit, Some(10));
        assert_eq!(spec.progress_deadline_seconds, Some(600));
        let strategy = spec.strategy.unwrap();
        assert_eq!(strategy.type_.as_deref(), Some("RollingUpdate"));
        let pod = spec.template.spec.unwrap();
        assert_eq!(pod.dns_policy.as_deref(), Some("ClusterFirst"));
        assert_eq!(pod.termination_grace_period_seconds, Some(30));
        let container = &pod.containers[0];
        assert_eq!(container.image_pull_policy.as_deref(), Some("IfNotPresent"));
        let requests = container
            .resources
            .as_ref()
            .unwrap()
            .requests
            .as_ref()
            .unwrap();
        assert_eq!(
            requests["memory"].0, "1G",
            "quantities as the server prints them"
        );
        let fields = serde_json::to_value(&created.metadata.managed_fields.unwrap()[0]).unwrap();
        assert!(
            fields["fieldsV1"]["f:spec"]["f:strategy"].is_object(),
            "{how}: the creator owns the defaults: {fields}"
        );
        api.delete("web", &Default::default()).await.unwrap();
    }
    // Without defaults a Deployment is invalid (no strategy type, no restart policy), as it
    // would be on a server that skipped decoding's defaults; storing objects as written needs
    // validation off too.
    let plain = crate::support::clients_with(|| smp_apiserver::Options {
        defaulting: false,
        validation: false,
        ..Default::default()
    })
    .await;
    let api: kube::Api<Deployment> = kube::Api::default_namespaced(plain.memory.clone());
    let created = api.create(&Default::default(), &deployment).await.unwrap();
    assert_eq!(created.spec.unwrap().strategy, None);
}

/// A Pod starts `Pending` with its QoS class, whatever status it was sent with, as the pod
/// strategy's `PrepareForCreate` sets them (`pkg/registry/core/pod/strategy.go`); the status
/// is no manager's. Its containers' limits became their requests, so it is `Guaranteed`.
#[tokio::test]
async fn a_pod_starts_pending_with_its_qos_class() {
    use k8s_openapi::api::core::v1::Pod;
    let pod: Pod = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "p"},
        "spec": {"containers": [{"name": "c", "image": "app:1",
            "resources": {"limits": {"cpu": "1", "memory": "1Gi"}}}]},
        "status": {"phase": "Running"}}))
    .unwrap();
    let clients = crate::support::clients().await;
    for (how, client) in clients.each() {
        let api: kube::Api<Pod> = kube::Api::default_namespaced(client.clone());
        let created = api.create(&Default::default(), &pod).await.unwrap();
        let status = created.status.unwrap();
        assert_eq!(status.phase.as_deref(), Some("Pending"), "{how}");
        assert_eq!(status.qos_class.as_deref(), Some("Guaranteed"));
        let fields = serde_json::to_value(created.metadata.managed_fields.unwrap()).unwrap();
        assert!(fields[0]["fieldsV1"].get("f:status").is_none(), "{fields}");
        api.delete("p", &Default::default()).await.unwrap();
    }
}

/// An invalid object is refused with the server's 422, word for word, and nothing is
/// stored: a ConfigMap named `Bad_Name` with a key `a/b` (`ValidateConfigMap`,
/// `pkg/apis/core/validation/validation.go`); an update that changes an immutable ConfigMap's
/// data is refused too (`ValidateConfigMapUpdate`). With validation off, both are stored.
#[tokio::test]
async fn invalid_objects_are_refused_with_the_servers_422() {
    use k8s_openapi::api::core::v1::ConfigMap;
    let bad: ConfigMap = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "Bad_Name"}, "data": {"a/b": "x"}}))
    .unwrap();
    let clients = crate::support::clients().await;
    for (how, client) in clients.each() {
        let api: kube::Api<ConfigMap> = kube::Api::default_namespaced(client.clone());
        let Err(kube::Error::Api(status)) = api.create(&Default::default(), &bad).await else {
            panic!("{how}: an invalid ConfigMap was taken");
        };
        assert_eq!(status.code, 422, "{how}");
        assert_eq!(status.reason, "Invalid");
        assert_eq!(
            status.message,
            "ConfigMap \"Bad_Name\" is invalid: [metadata.name: Invalid value: \"Bad_Name\": a \
             lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \
             '-' or '.', and must start and end with an alphanumeric character (e.g. \
             'example.com', regex used for validation is \
             '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), data[a/b]: \
             Invalid value: \"a/b\": a valid config key must consist of alphanumeric \
             characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', \
             regex used for validation is '[-._a-zA-Z0-9]+')]"
        );
        assert!(api.get_opt("Bad_Name").await.unwrap().is_none(), "{how}");

        let frozen: ConfigMap = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "frozen"}, "immutable": true, "data": {"a": "1"}}))
        .unwrap();
        let mut created = api.create(&Default::default(), &frozen).await.unwrap();
        created.data = Some([("a".to_owned(), "2".to_owned())].into());
        let Err(kube::Error::Api(status)) =
            api.replace("frozen", &Default::default(), &created).await
        else {
            panic!("{how}: an immutable ConfigMap was changed");
        };
        assert_eq!(
            status.message,
            "ConfigMap \"frozen\" is invalid: data: Forbidden: field is immutable when \
             `immutable` is set"
        );
        api.delete("frozen", &Default::default()).await.unwrap();
    }
    let plain = crate::support::clients_with(|| smp_apiserver::Options {
        validation: false,
        ..Default::default()
    })
    .await;
    let api: kube::Api<ConfigMap> = kube::Api::default_namespaced(plain.memory.clone());
    api.create(&Default::default(), &bad).await.unwrap();
}

/// The default admission plugins run on create (`plugin/pkg/admission/*`): a Pod gets the
/// `default` service account, its `kube-api-access-*` token volume mounted in its container,
/// priority 0 with `PreemptLowerPriority`, and the two 300-second tolerations; a Pod whose
/// service account does not exist is forbidden (403), as the ServiceAccount plugin refuses it.
#[tokio::test]
async fn the_admission_plugins_complete_a_new_pod() {
    use k8s_openapi::api::core::v1::Pod;
    let pod: Pod = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "p"},
        "spec": {"containers": [{"name": "c", "image": "app:1"}]}}))
    .unwrap();
    let clients = crate::support::clients().await;
    for (how, client) in clients.each() {
        let api: kube::Api<Pod> = kube::Api::default_namespaced(client.clone());
        let created = api.create(&Default::default(), &pod).await.unwrap();
        let spec = created.spec.unwrap();
        assert_eq!(
            spec.service_account_name.as_deref(),
            Some("default"),
            "{how}"
        );
        let volume = &spec.volumes.unwrap()[0];
        assert!(
            volume.name.starts_with("kube-api-access-"),
            "{}",
            volume.name
        );
        let mount = &spec.containers[0].volume_mounts.as_ref().unwrap()[0];
        assert_eq!(mount.name, volume.name);
        assert_eq!(
            mount.mount_path,
            "/var/run/secrets/kubernetes.io/serviceaccount"
        );
        assert_eq!(spec.priority, Some(0));
        assert_eq!(
            spec.preemption_policy.as_deref(),
            Some("PreemptLowerPriority")
        );
        let tolerations = spec.tolerations.unwrap();
        assert_eq!(tolerations.len(), 2);
        assert_eq!(tolerations[1].toleration_seconds, Some(300));
        api.delete("p", &Default::default()).await.unwrap();

        let mut stranger = pod.clone();
        stranger.metadata.name = Some("q".into());
        stranger.spec.as_mut().unwrap().service_account_name = Some("nobody".into());
        let Err(kube::Error::Api(status)) = api.create(&Default::default(), &stranger).await else {
            panic!("{how}: a pod of a missing service account was taken");
        };
        assert_eq!(status.code, 403);
        assert_eq!(
            status.message,
            "pods \"q\" is forbidden: error looking up service account default/nobody: \
             serviceaccount \"nobody\" not found"
        );
    }
}

/// A Service is given what the registry allocates on create (`pkg/registry/core/service`):
/// a cluster IP from 10.96.0.0/12 recorded as an IPAddress naming it, its IP families, node
/// ports from 30000-32767 for a NodePort service; an address already taken is refused with
/// the allocator's words; deleting the service releases its address.
#[tokio::test]
async fn services_get_their_addresses_and_ports() {
    use k8s_openapi::api::core::v1::Service;
    use k8s_openapi::api::networking::v1::IPAddress;
    let service = |name: &str, spec: serde_json::Value| -> Service {
        serde_json::from_value(serde_json::json!({"metadata": {"name": name}, "spec": spec}))
            .unwrap()
    };
    let clients = crate::support::clients().await;
    for (how, client) in clients.each() {
        let api: kube::Api<Service> = kube::Api::default_namespaced(client.clone());
        let addresses: kube::Api<IPAddress> = kube::Api::all(client.clone());
        let web = api
            .create(
                &Default::default(),
                &service(
                    "web",
                    serde_json::json!({
                "type": "NodePort", "selector": {"app": "web"}, "ports": [{"port": 80}]}),
                ),
            )
            .await
            .unwrap();
        let spec = web.spec.unwrap();
        let ip = spec.cluster_ip.unwrap();
        let parsed: std::net::Ipv4Addr = ip.parse().unwrap();
        let [a, b, ..] = parsed.octets();
        assert!(
            a == 10 && (96..112).contains(&b),
            "{how}: {ip} is not in 10.96.0.0/12"
        );
        assert_eq!(spec.cluster_ips, Some(vec![ip.clone()]));
        assert_eq!(spec.ip_families, Some(vec!["IPv4".to_owned()]));
        assert_eq!(spec.ip_family_policy.as_deref(), Some("SingleStack"));
        let node_port = spec.ports.unwrap()[0].node_port.unwrap();
        assert!((30000..=32767).contains(&node_port), "{node_port}");
        let address = addresses.get(&ip).await.unwrap();
        assert_eq!(address.spec.unwrap().parent_ref.name, "web");

        let headless = api
            .create(
                &Default::default(),
                &service(
                    "headless",
                    serde_json::json!({
                "clusterIP": "None", "ports": [{"port": 80}]}),
                ),
            )
            .await
            .unwrap()
            .spec
            .unwrap();
        assert_eq!(headless.cluster_ips, Some(vec!["None".to_owned()]));
        assert_eq!(
            headless.ip_family_policy.as_deref(),
            Some("RequireDualStack")
        );
        assert_eq!(
            headless.ip_families,
            Some(vec!["IPv4".to_owned(), "IPv6".to_owned()])
        );

        let Err(kube::Error::Api(status)) = api
            .create(
                &Default::default(),
                &service(
                    "taken",
                    serde_json::json!({
                "clusterIP": "10.96.0.1", "ports": [{"port": 80}]}),
                ),
            )
            .await
        else {
            panic!("{how}: a taken address was given again");
        };
        assert_eq!(
            status.message,
            "Service \"taken\" is invalid: spec.clusterIPs: Invalid value: [\"10.96.0.1\"]: \
             failed to allocate IP 10.96.0.1: provided IP is already allocated"
        );

        api.delete("web", &Default::default()).await.unwrap();
        api.delete("headless", &Default::default()).await.unwrap();
        assert!(
            addresses.get_opt(&ip).await.unwrap().is_none(),
            "{how}: {ip} was kept"
        );
    }
}

/// An object reads back as the server's Go structs print it: a container without resources
/// has `resources: {}` (a struct held by value), a new Deployment `status: {}`, and the
/// creator's managedFields own `f:resources` as on a cluster (printing happens with decoding).
#[tokio::test]
async fn objects_read_back_as_the_go_structs_print_them() {
    let clients = crate::support::clients().await;
    for (how, client) in clients.each() {
        let web = crate::support::deployment("printed");
        let created = crate::support::raw(
            &client,
            "POST",
            "/apis/apps/v1/namespaces/default/deployments",
            "application/json",
            Some(web),
        )
        .await;
        assert_eq!(created.code, 201, "{how}: {}", created.text);
        let object = &created.body;
        assert_eq!(object["status"], serde_json::json!({}), "{how}");
        let container = &object["spec"]["template"]["spec"]["containers"][0];
        assert_eq!(container["resources"], serde_json::json!({}), "{how}");
        let fields = &object["metadata"]["managedFields"][0]["fieldsV1"];
        let text = fields.to_string();
        assert!(text.contains("\"f:resources\":{}"), "{how}: {text}");
    }
}
