//! Events in both groups, as kube-apiserver stores them: core/v1 `events` and
//! `events.k8s.io/v1` `events` are one resource (the events group's storage is the core event
//! store) in two shapes, renamed field for field (`pkg/apis/events/v1/conversion.go`). kube-
//! runtime's `Recorder` writes through events.k8s.io, and a core/v1 reader (controller-rs's
//! tests, `kubectl get events`) sees what it wrote.

use std::time::Duration;

use k8s_openapi::api::core::v1::{ConfigMap, Event as CoreEvent};
use k8s_openapi::api::events::v1::Event;
use kube::Resource;
use kube::api::{Api, ListParams, PostParams};
use kube::runtime::events::{Event as Publish, EventType, Recorder, Reporter};
use serde_json::json;

use crate::support::{clients, events, raw};

#[tokio::test]
async fn events_written_through_one_group_are_read_through_the_other() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let maps: Api<ConfigMap> = Api::default_namespaced(client.clone());
        let cm = maps
            .create(
                &PostParams::default(),
                &serde_json::from_value(json!({"metadata": {"name": "cm"}})).unwrap(),
            )
            .await
            .unwrap();
        let core: Api<CoreEvent> = Api::default_namespaced(client.clone());
        let start = core
            .list(&ListParams::default())
            .await
            .unwrap()
            .metadata
            .resource_version
            .unwrap();

        let recorder = Recorder::new(
            client.clone(),
            Reporter {
                controller: "my-controller".into(),
                instance: Some("my-controller-0".into()),
            },
        );
        let published = Publish {
            type_: EventType::Normal,
            reason: "Synced".into(),
            note: Some("the note".into()),
            action: "Reconcile".into(),
            secondary: None,
        };
        recorder
            .publish(&published, &cm.object_ref(&()))
            .await
            .unwrap();
        // The same again: the recorder patches the event it made with a series.
        recorder
            .publish(&published, &cm.object_ref(&()))
            .await
            .unwrap();

        let listed = core
            .list(&ListParams::default().fields("involvedObject.name=cm"))
            .await
            .unwrap();
        assert_eq!(listed.items.len(), 1, "{how}");
        let e = &listed.items[0];
        assert_eq!(e.message.as_deref(), Some("the note"), "{how}");
        assert_eq!(
            e.reporting_component.as_deref(),
            Some("my-controller"),
            "{how}"
        );
        assert_eq!(e.series.as_ref().and_then(|s| s.count), Some(2), "{how}");
        assert_eq!(e.involved_object.name.as_deref(), Some("cm"), "{how}");
        let name = e.metadata.name.clone().unwrap();
        // The core shape as Go writes it: zero values present.
        let answer = raw(
            &client,
            "GET",
            &format!("/api/v1/namespaces/default/events/{name}"),
            "",
            None,
        )
        .await;
        assert_eq!(answer.body["apiVersion"], "v1", "{how}");
        assert_eq!(answer.body["source"], json!({}), "{how}");
        assert_eq!(answer.body["firstTimestamp"], json!(null), "{how}");
        // A core reader's watch sees it too.
        let seen = events(&core, &start, Duration::from_secs(2)).await;
        let kinds: Vec<&str> = seen.iter().map(|(kind, _, _)| kind.as_str()).collect();
        assert_eq!(kinds, ["ADDED", "MODIFIED"], "{how}");

        // Written through core/v1, read through events.k8s.io/v1.
        let legacy = json!({"metadata": {"name": "legacy"}, "involvedObject": {"kind": "ConfigMap", "name": "cm", "namespace": "default"},
            "reason": "Pulled", "message": "pulled", "type": "Normal", "count": 3,
            "source": {"component": "kubelet", "host": "node-1"},
            "firstTimestamp": "2026-01-02T03:04:05Z", "lastTimestamp": "2026-01-02T03:04:06Z"});
        core.create(
            &PostParams::default(),
            &serde_json::from_value(legacy).unwrap(),
        )
        .await
        .unwrap();
        let modern: Api<Event> = Api::default_namespaced(client.clone());
        let e = modern.get("legacy").await.unwrap();
        assert_eq!(e.note.as_deref(), Some("pulled"), "{how}");
        assert_eq!(e.deprecated_count, Some(3), "{how}");
        assert_eq!(
            e.deprecated_source.as_ref().and_then(|s| s.host.as_deref()),
            Some("node-1"),
            "{how}"
        );
        let answer = raw(
            &client,
            "GET",
            "/apis/events.k8s.io/v1/namespaces/default/events/legacy",
            "",
            None,
        )
        .await;
        assert_eq!(answer.body["apiVersion"], "events.k8s.io/v1", "{how}");
        assert_eq!(answer.body["eventTime"], json!(null), "{how}");
        assert_eq!(answer.body["regarding"]["name"], "cm", "{how}");
        let by_regarding = modern
            .list(
                &ListParams::default()
                    .fields("regarding.name=cm,reportingController=my-controller"),
            )
            .await
            .unwrap();
        assert_eq!(by_regarding.items.len(), 1, "{how}");
        // One name space: the same name through the other group is taken.
        let again = raw(&client, "POST", "/apis/events.k8s.io/v1/namespaces/default/events", "application/json",
            Some(json!({"metadata": {"name": "legacy"}, "eventTime": "2026-01-02T03:04:05.000000Z",
                "reportingController": "x", "reportingInstance": "x", "action": "A", "reason": "R", "type": "Normal"}))).await;
        assert_eq!(again.code, 409, "{how}");
    }
}
