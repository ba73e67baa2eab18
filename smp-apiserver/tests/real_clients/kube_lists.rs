//! kube's `Client`, in memory and over HTTP: lists at a resourceVersion and in pages, the
//! options a list or an apply is refused for, and field selectors, each as kube-apiserver
//! v1.34 answers.

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Event, Node, Pod, Secret};
use kube::api::{
    Api, ListParams, Patch, PatchParams, PostParams, VersionMatch, WatchEvent, WatchParams,
};
use serde_json::{Value, json};

use crate::support::{clients, raw, status};

const CONFIGMAPS: &str = "/api/v1/namespaces/default/configmaps";

fn typed<K: serde::de::DeserializeOwned>(value: Value) -> K {
    serde_json::from_value(value).unwrap()
}

async fn config_maps(api: &Api<ConfigMap>, names: &[&str]) {
    for name in names {
        api.create(
            &PostParams::default(),
            &typed(json!({"metadata": {"name": name}})),
        )
        .await
        .unwrap();
    }
}

fn names(list: &kube::core::ObjectList<ConfigMap>) -> Vec<String> {
    list.items
        .iter()
        .map(|c| c.metadata.name.clone().unwrap())
        .collect()
}

/// Pages are read at the first page's resourceVersion: an object created between pages does
/// not appear, and each page says it was read then; `remainingItemCount` counts the rest when
/// no selector left objects out. An exact list shows the store as it was. (The
/// `kube-root-ca.crt` ConfigMap every namespace has is listed last.)
#[tokio::test]
async fn pages_are_read_at_the_first_pages_version() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let api: Api<ConfigMap> = Api::default_namespaced(client.clone());
        config_maps(&api, &["a", "c", "e", "g", "i"]).await;
        let first = api.list(&ListParams::default().limit(2)).await.unwrap();
        assert_eq!(names(&first), ["a", "c"], "{how}");
        assert_eq!(first.metadata.remaining_item_count, Some(4), "{how}");
        let at = first.metadata.resource_version.clone().unwrap();
        // Between the pages: one created, one deleted.
        config_maps(&api, &["d"]).await;
        api.delete("g", &Default::default()).await.unwrap();
        let token = first.metadata.continue_.clone().unwrap();
        let second = api
            .list(&ListParams::default().limit(2).continue_token(&token))
            .await
            .unwrap();
        assert_eq!(names(&second), ["e", "g"], "{how}");
        assert_eq!(
            second.metadata.resource_version.as_deref(),
            Some(at.as_str()),
            "{how}"
        );
        assert_eq!(second.metadata.remaining_item_count, Some(2), "{how}");
        let token = second.metadata.continue_.clone().unwrap();
        let last = api
            .list(&ListParams::default().limit(2).continue_token(&token))
            .await
            .unwrap();
        assert_eq!(names(&last), ["i", "kube-root-ca.crt"], "{how}");
        assert_eq!(last.metadata.continue_, None, "{how}");

        let exact = ListParams::default().at(&at).matching(VersionMatch::Exact);
        let then = api.list(&exact).await.unwrap();
        assert_eq!(
            names(&then),
            ["a", "c", "e", "g", "i", "kube-root-ca.crt"],
            "{how}"
        );
        assert_eq!(
            then.metadata.resource_version.as_deref(),
            Some(at.as_str()),
            "{how}"
        );
        let now = api.list(&ListParams::default()).await.unwrap();
        assert_eq!(
            names(&now),
            ["a", "c", "d", "e", "i", "kube-root-ca.crt"],
            "{how}"
        );
        // `resourceVersion=0`: any state the cache holds, and the cache does not page.
        // (kube leaves `resourceVersion=0` out of a list with a limit: sent raw.)
        let any = raw(
            &client,
            "GET",
            &format!("{CONFIGMAPS}?limit=1&resourceVersion=0"),
            "",
            None,
        )
        .await;
        assert_eq!(any.body["items"].as_array().map(Vec::len), Some(6), "{how}");
        assert_eq!(any.body["metadata"].get("continue"), None, "{how}");
        // With a selector, no count.
        let selected = api
            .list(&ListParams::default().limit(1).fields("metadata.name!=zzz"))
            .await
            .unwrap();
        assert_eq!(selected.metadata.remaining_item_count, None, "{how}");
        assert!(selected.metadata.continue_.is_some(), "{how}");
    }
}

/// A token whose revision the server no longer keeps is refused with 410 and the server's
/// words, and a token in the `Status` goes on from the same place at the latest revision
/// (`handleCompactedErrorForPaging`); an exact list at such a revision is 410 too.
#[tokio::test]
async fn expired_tokens_and_versions_are_410() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let api: Api<ConfigMap> = Api::default_namespaced(client.clone());
        config_maps(&api, &["a", "b", "c"]).await;
        let first = api.list(&ListParams::default().limit(1)).await.unwrap();
        let old = first.metadata.resource_version.clone().unwrap();
        let token = first.metadata.continue_.clone().unwrap();
        // More writes than the server keeps.
        for n in 0..4200 {
            let data = json!({"data": {"n": n.to_string()}});
            api.patch("c", &PatchParams::default(), &Patch::Merge(&data))
                .await
                .unwrap();
        }
        let answer = raw(
            &client,
            "GET",
            &format!("{CONFIGMAPS}?limit=1&continue={token}"),
            "",
            None,
        )
        .await;
        assert_eq!(
            status(&answer),
            (
                410,
                "Expired",
                "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list."
            ),
            "{how}"
        );
        let fresh = answer.body["metadata"]["continue"]
            .as_str()
            .unwrap()
            .to_owned();
        let rest = api
            .list(&ListParams::default().continue_token(&fresh))
            .await
            .unwrap();
        assert_eq!(names(&rest), ["b", "c", "kube-root-ca.crt"], "{how}");
        let exact = raw(
            &client,
            "GET",
            &format!("{CONFIGMAPS}?resourceVersion={old}&resourceVersionMatch=Exact"),
            "",
            None,
        )
        .await;
        assert_eq!(
            status(&exact),
            (
                410,
                "Expired",
                "The resourceVersion for the provided list is too old."
            ),
            "{how}"
        );
    }
}

/// Options refused as the server refuses them: `ValidateListOptions` (422), the storage
/// layer's token rules (400), `ValidatePatchOptions` for an apply without field manager (422).
#[tokio::test]
async fn options_are_refused_as_the_server_refuses_them() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let get = |query: &str| {
            let (client, path) = (client.clone(), format!("{CONFIGMAPS}?{query}"));
            async move { raw(&client, "GET", &path, "", None).await }
        };
        let answer = get("resourceVersionMatch=NotOlderThan").await;
        assert_eq!(
            status(&answer),
            (
                422,
                "Invalid",
                "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided"
            ),
            "{how}"
        );
        assert_eq!(
            answer.body["details"],
            json!({"group": "meta.k8s.io", "kind": "ListOptions", "causes": [{"reason": "FieldValueForbidden",
                "message": "Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided",
                "field": "resourceVersionMatch"}]}),
            "{how}"
        );
        let answer = get("resourceVersion=1&resourceVersionMatch=Exactly").await;
        assert_eq!(
            status(&answer).2,
            "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Unsupported value: \"Exactly\": supported values: \"Exact\", \"NotOlderThan\", \"\"",
            "{how}"
        );
        let api: Api<ConfigMap> = Api::default_namespaced(client.clone());
        config_maps(&api, &["x", "y"]).await;
        let page = api.list(&ListParams::default().limit(1)).await.unwrap();
        let token = page.metadata.continue_.unwrap();
        let answer = get(&format!("continue={token}&resourceVersion=1")).await;
        assert_eq!(
            status(&answer),
            (
                400,
                "BadRequest",
                "specifying resource version is not allowed when using continue"
            ),
            "{how}"
        );
        let answer = get("continue=!!").await;
        assert_eq!(
            status(&answer),
            (
                400,
                "BadRequest",
                "invalid continue token: continue key is not valid: illegal base64 data at input byte 0"
            ),
            "{how}"
        );
        let answer = get("limit=ten").await;
        assert_eq!(
            status(&answer),
            (
                400,
                "BadRequest",
                "strconv.ParseInt: parsing \"ten\": invalid syntax"
            ),
            "{how}"
        );

        let config = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}});
        let answer = raw(
            &client,
            "PATCH",
            &format!("{CONFIGMAPS}/x"),
            "application/apply-patch+yaml",
            Some(config),
        )
        .await;
        assert_eq!(
            status(&answer),
            (
                422,
                "Invalid",
                "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"
            ),
            "{how}"
        );
        let answer = raw(
            &client,
            "PATCH",
            &format!("{CONFIGMAPS}/x?force=true"),
            "application/merge-patch+json",
            Some(json!({})),
        )
        .await;
        assert_eq!(
            status(&answer).2,
            "PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified for non-apply patch",
            "{how}"
        );
        let answer = raw(
            &client,
            "POST",
            &format!("{CONFIGMAPS}?dryRun=Some"),
            "application/json",
            Some(json!({"metadata": {"name": "z"}})),
        )
        .await;
        assert_eq!(
            status(&answer).2,
            "CreateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: [\"Some\"]: supported values: \"All\"",
            "{how}"
        );
    }
}

/// A resourceVersion beyond the newest: the server waits for it (3 seconds, the watch
/// cache's), then answers 504 with the cause and `Retry-After: 1` (which kube's default
/// client honours, trying again 15 times: the client over HTTP here has no retries).
#[tokio::test]
async fn a_version_from_the_future_times_out() {
    let clients = clients().await;
    for (how, client) in [
        ("in memory", clients.memory.clone()),
        ("over HTTP", clients.http_once.clone()),
    ] {
        let started = Instant::now();
        let answer = raw(
            &client,
            "GET",
            &format!("{CONFIGMAPS}?resourceVersion=99999&resourceVersionMatch=NotOlderThan"),
            "",
            None,
        )
        .await;
        assert!(
            started.elapsed() >= Duration::from_millis(2900),
            "{how}: waited"
        );
        assert_eq!(answer.code, 504, "{how}");
        assert_eq!(answer.body["reason"], "Timeout", "{how}");
        assert!(
            status(&answer)
                .2
                .starts_with("Timeout: Too large resource version: 99999, current: "),
            "{how}"
        );
        assert_eq!(
            answer.body["details"],
            json!({"causes": [{"reason": "ResourceVersionTooLarge", "message": "Too large resource version"}], "retryAfterSeconds": 1}),
            "{how}"
        );
        assert_eq!(answer.headers["retry-after"], "1", "{how}");
    }
}

/// Field selectors by each kind's selectable fields: pods by phase and node (with `=`, `==`,
/// `!=` and commas), nodes by `spec.unschedulable` (what `kubectl drain` lists), secrets by
/// type, events by the object they are about; an unknown label refused in the kind's words;
/// a watcher whose selector stops matching gets DELETED.
#[tokio::test]
async fn field_selectors_by_each_kinds_fields() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let pods: Api<Pod> = Api::default_namespaced(client.clone());
        for (name, phase, node) in [
            ("p1", "Running", "n1"),
            ("p2", "Pending", ""),
            ("p3", "Running", "n2"),
        ] {
            let mut pod = json!({"metadata": {"name": name},
                "spec": {"containers": [{"name": "c", "image": "i"}]}});
            if !node.is_empty() {
                pod["spec"]["nodeName"] = json!(node);
            }
            pods.create(&PostParams::default(), &typed(pod))
                .await
                .unwrap();
            pods.patch_status(
                name,
                &PatchParams::default(),
                &Patch::Merge(&json!({"status": {"phase": phase}})),
            )
            .await
            .unwrap();
        }
        let pick = |s: &'static str| {
            let pods = pods.clone();
            async move {
                let list = pods.list(&ListParams::default().fields(s)).await.unwrap();
                list.items
                    .into_iter()
                    .map(|p| p.metadata.name.unwrap())
                    .collect::<Vec<_>>()
            }
        };
        assert_eq!(pick("status.phase=Running").await, ["p1", "p3"], "{how}");
        assert_eq!(
            pick("status.phase==Running,spec.nodeName!=n1").await,
            ["p3"],
            "{how}"
        );
        assert_eq!(pick("spec.nodeName=").await, ["p2"], "{how}: unscheduled");
        assert_eq!(
            pick("spec.hostNetwork=false,metadata.name=p2").await,
            ["p2"],
            "{how}"
        );
        let refused = pods
            .list(&ListParams::default().fields("spec.containers=c"))
            .await
            .unwrap_err();
        let kube::Error::Api(e) = refused else {
            panic!()
        };
        assert_eq!(
            (e.code, e.message.as_str()),
            (400, "field label not supported: spec.containers"),
            "{how}"
        );
        let maps: Api<ConfigMap> = Api::default_namespaced(client.clone());
        let refused = maps
            .list(&ListParams::default().fields("data.k=v"))
            .await
            .unwrap_err();
        let kube::Error::Api(e) = refused else {
            panic!()
        };
        assert_eq!(
            e.message,
            r#""data.k" is not a known field selector: only "metadata.name", "metadata.namespace""#,
            "{how}"
        );

        let nodes: Api<Node> = Api::all(client.clone());
        nodes
            .create(
                &PostParams::default(),
                &typed(json!({"metadata": {"name": "n1"}})),
            )
            .await
            .unwrap();
        nodes
            .create(
                &PostParams::default(),
                &typed(json!({"metadata": {"name": "n2"}, "spec": {"unschedulable": true}})),
            )
            .await
            .unwrap();
        let cordoned = nodes
            .list(&ListParams::default().fields("spec.unschedulable=true"))
            .await
            .unwrap();
        assert_eq!(cordoned.items.len(), 1, "{how}");
        let open = nodes
            .list(&ListParams::default().fields("spec.unschedulable=false"))
            .await
            .unwrap();
        assert_eq!(open.items[0].metadata.name.as_deref(), Some("n1"), "{how}");

        let secrets: Api<Secret> = Api::default_namespaced(client.clone());
        secrets.create(&PostParams::default(), &typed(json!({"metadata": {"name": "tls"}, "type": "kubernetes.io/tls", "data": {"tls.crt": "", "tls.key": ""}}))).await.unwrap();
        secrets
            .create(
                &PostParams::default(),
                &typed(json!({"metadata": {"name": "plain"}, "type": "Opaque"})),
            )
            .await
            .unwrap();
        let tls = secrets
            .list(&ListParams::default().fields("type=kubernetes.io/tls"))
            .await
            .unwrap();
        assert_eq!(tls.items.len(), 1, "{how}");

        let events: Api<Event> = Api::default_namespaced(client.clone());
        let event = json!({"metadata": {"name": "e1"}, "involvedObject": {"kind": "Pod", "name": "p1"},
            "reason": "Started", "type": "Normal", "source": {"component": "kubelet"}});
        events
            .create(&PostParams::default(), &typed(event))
            .await
            .unwrap();
        let about = events
            .list(
                &ListParams::default().fields("involvedObject.name=p1,source=kubelet,type=Normal"),
            )
            .await
            .unwrap();
        assert_eq!(about.items.len(), 1, "{how}");

        // A running pod that finishes leaves a watch of running pods.
        let running = pods
            .list(&ListParams::default().fields("status.phase=Running"))
            .await
            .unwrap();
        let from = running.metadata.resource_version.unwrap();
        let mut watch = pods
            .watch(
                &WatchParams::default()
                    .fields("status.phase=Running")
                    .timeout(2),
                &from,
            )
            .await
            .unwrap()
            .boxed();
        pods.patch_status(
            "p1",
            &PatchParams::default(),
            &Patch::Merge(&json!({"status": {"phase": "Succeeded"}})),
        )
        .await
        .unwrap();
        let event = tokio::time::timeout(Duration::from_secs(3), watch.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        let WatchEvent::Deleted(gone) = event else {
            panic!("{how}: {event:?}")
        };
        assert_eq!(gone.metadata.name.as_deref(), Some("p1"), "{how}");
        assert_eq!(
            gone.status.unwrap().phase.as_deref(),
            Some("Running"),
            "{how}: as it was"
        );
    }
}

/// A custom resource's field selectors are its CRD's `selectableFields` for the version asked
/// (labels without the leading dot; a missing field reads as empty), with `metadata.name` and,
/// for a namespaced one, `metadata.namespace` (apiextensions-apiserver's `crConverter`); its
/// generation moves with anything but metadata and, with a status subresource, status.
#[tokio::test]
async fn custom_resources_select_and_count_by_their_crd() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let crd = json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced",
                "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "subresources": {"status": {}},
                    "selectableFields": [{"jsonPath": ".spec.color"}, {"jsonPath": ".spec.size"}],
                    "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                        "spec": {"type": "object", "properties": {
                            "color": {"type": "string"}, "size": {"type": "integer"}}},
                        "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}}}}}}]}});
        let crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
        assert_eq!(
            raw(&client, "POST", crds, "application/json", Some(crd))
                .await
                .code,
            201,
            "{how}"
        );
        let widgets = "/apis/example.com/v1/namespaces/default/widgets";
        for (name, spec) in [
            ("w1", json!({"color": "red", "size": 3})),
            ("w2", json!({"color": "blue"})),
        ] {
            let widget = json!({"apiVersion": "example.com/v1", "kind": "Widget",
                "metadata": {"name": name}, "spec": spec});
            let created = raw(&client, "POST", widgets, "application/json", Some(widget)).await;
            assert_eq!(created.body["metadata"]["generation"], 1, "{how}");
        }
        let pick = |selector: &str| {
            let (client, path) = (
                client.clone(),
                format!("{widgets}?fieldSelector={selector}"),
            );
            async move {
                let answer = raw(&client, "GET", &path, "", None).await;
                let names: Vec<String> = answer.body["items"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|w| w["metadata"]["name"].as_str().unwrap().to_owned())
                    .collect();
                (answer, names)
            }
        };
        assert_eq!(pick("spec.color=red").await.1, ["w1"], "{how}");
        assert_eq!(pick("spec.size=3").await.1, ["w1"], "{how}");
        assert_eq!(
            pick("spec.size=").await.1,
            ["w2"],
            "{how}: missing reads as empty"
        );
        assert_eq!(
            pick("metadata.namespace=default,spec.color!=red").await.1,
            ["w2"],
            "{how}"
        );
        let (refused, _) = pick("spec.shape=round").await;
        assert_eq!(
            status(&refused),
            (400, "BadRequest", "field label not supported: spec.shape"),
            "{how}"
        );

        let w1 = format!("{widgets}/w1");
        let merge = "application/merge-patch+json";
        let status_write = raw(
            &client,
            "PATCH",
            &format!("{w1}/status"),
            merge,
            Some(json!({"status": {"ready": true}})),
        )
        .await;
        assert_eq!(status_write.body["metadata"]["generation"], 1, "{how}");
        let labelled = raw(
            &client,
            "PATCH",
            &w1,
            merge,
            Some(json!({"metadata": {"labels": {"a": "b"}}})),
        )
        .await;
        assert_eq!(labelled.body["metadata"]["generation"], 1, "{how}");
        let respec = raw(
            &client,
            "PATCH",
            &w1,
            merge,
            Some(json!({"spec": {"size": 4}})),
        )
        .await;
        assert_eq!(respec.body["metadata"]["generation"], 2, "{how}");
    }
}
