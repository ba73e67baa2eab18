//! Watches through kube's `Api::watch`: events in order, selections entered and left, and a
//! watch from a version the window no longer holds answered with 410 Gone.

use std::time::Duration;

use futures_util::{Stream, StreamExt};
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams, WatchEvent, WatchParams};
use serde_json::json;
use smp_apiserver::ApiServer;

fn config_map(name: &str, app: &str) -> ConfigMap {
    serde_json::from_value(json!({"metadata": {"name": name, "labels": {"app": app}}})).unwrap()
}

/// The next event's type and object name.
async fn next(
    stream: &mut (impl Stream<Item = kube::Result<WatchEvent<ConfigMap>>> + Unpin),
) -> (String, String) {
    let event = tokio::time::timeout(Duration::from_secs(5), stream.next())
        .await
        .expect("an event within 5 s")
        .expect("the stream goes on")
        .expect("an event");
    let name = |cm: &ConfigMap| cm.metadata.name.clone().unwrap_or_default();
    match event {
        WatchEvent::Added(cm) => ("ADDED".into(), name(&cm)),
        WatchEvent::Modified(cm) => ("MODIFIED".into(), name(&cm)),
        WatchEvent::Deleted(cm) => ("DELETED".into(), name(&cm)),
        WatchEvent::Bookmark(_) => ("BOOKMARK".into(), String::new()),
        WatchEvent::Error(e) => ("ERROR".into(), e.code.to_string()),
    }
}

#[tokio::test]
async fn a_watch_sees_every_write_in_order() {
    let api: Api<ConfigMap> =
        Api::default_namespaced(kube::Client::new(ApiServer::default(), "default"));
    api.create(&PostParams::default(), &config_map("a", "x"))
        .await
        .unwrap();
    let mut events = api
        .watch(&WatchParams::default(), "0")
        .await
        .unwrap()
        .boxed();
    assert_eq!(next(&mut events).await, ("ADDED".into(), "a".into()));
    // The root CA ConfigMap every namespace has.
    assert_eq!(
        next(&mut events).await,
        ("ADDED".into(), "kube-root-ca.crt".into())
    );
    let label = json!({"metadata": {"labels": {"tier": "1"}}});
    api.patch("a", &PatchParams::default(), &Patch::Merge(&label))
        .await
        .unwrap();
    api.create(&PostParams::default(), &config_map("b", "y"))
        .await
        .unwrap();
    api.delete("a", &DeleteParams::default()).await.unwrap();
    assert_eq!(next(&mut events).await, ("MODIFIED".into(), "a".into()));
    assert_eq!(next(&mut events).await, ("ADDED".into(), "b".into()));
    assert_eq!(next(&mut events).await, ("DELETED".into(), "a".into()));
}

#[tokio::test]
async fn a_selected_watch_sees_objects_come_and_go() {
    let api: Api<ConfigMap> =
        Api::default_namespaced(kube::Client::new(ApiServer::default(), "default"));
    let created = api
        .create(&PostParams::default(), &config_map("a", "x"))
        .await
        .unwrap();
    let version = created.metadata.resource_version.unwrap();
    let mut events = api
        .watch(&WatchParams::default().labels("app=x"), &version)
        .await
        .unwrap()
        .boxed();
    api.create(&PostParams::default(), &config_map("b", "y"))
        .await
        .unwrap();
    let away = json!({"metadata": {"labels": {"app": "y"}}});
    api.patch("a", &PatchParams::default(), &Patch::Merge(&away))
        .await
        .unwrap();
    let back = json!({"metadata": {"labels": {"app": "x"}}});
    api.patch("b", &PatchParams::default(), &Patch::Merge(&back))
        .await
        .unwrap();
    // "b" was not selected when created; "a" leaves the selection, "b" enters it.
    assert_eq!(next(&mut events).await, ("DELETED".into(), "a".into()));
    assert_eq!(next(&mut events).await, ("ADDED".into(), "b".into()));
}

#[tokio::test]
async fn a_watch_from_too_old_a_version_is_gone() {
    let api: Api<ConfigMap> =
        Api::default_namespaced(kube::Client::new(ApiServer::default(), "default"));
    api.create(&PostParams::default(), &config_map("a", "x"))
        .await
        .unwrap();
    // More writes than the server's window keeps.
    for i in 0..5000 {
        let data = json!({"data": {"i": i.to_string()}});
        api.patch("a", &PatchParams::default(), &Patch::Merge(&data))
            .await
            .unwrap();
    }
    let mut events = api
        .watch(&WatchParams::default(), "2")
        .await
        .unwrap()
        .boxed();
    assert_eq!(next(&mut events).await, ("ERROR".into(), "410".into()));
}

#[tokio::test]
async fn a_watcher_that_does_not_read_holds_no_writer_back() {
    let api: Api<ConfigMap> =
        Api::default_namespaced(kube::Client::new(ApiServer::default(), "default"));
    api.create(&PostParams::default(), &config_map("a", "x"))
        .await
        .unwrap();
    let mut events = api
        .watch(&WatchParams::default(), "0")
        .await
        .unwrap()
        .boxed();
    // Nobody reads the watch while more writes than it can hold go by: they all land.
    for i in 0..5000 {
        let data = json!({"data": {"i": i.to_string()}});
        api.patch("a", &PatchParams::default(), &Patch::Merge(&data))
            .await
            .unwrap();
    }
    // The watcher then learns it fell behind, and would list again.
    let mut last = next(&mut events).await;
    while last.0 != "ERROR" {
        last = next(&mut events).await;
    }
    assert_eq!(last, ("ERROR".into(), "410".into()));
}

/// kube's `watcher` in both of its ways to start: a list then a watch, and a streaming list
/// (`sendInitialEvents`, which waits for the bookmark that ends the initial events).
#[tokio::test]
async fn kubes_watcher_starts_either_way() {
    use kube::runtime::{WatchStreamExt, watcher};
    for streaming in [false, true] {
        let api: Api<ConfigMap> =
            Api::default_namespaced(kube::Client::new(ApiServer::default(), "default"));
        api.create(&PostParams::default(), &config_map("a", "x"))
            .await
            .unwrap();
        let config = if streaming {
            watcher::Config::default().streaming_lists()
        } else {
            watcher::Config::default()
        };
        let mut objects = watcher(api.clone(), config).applied_objects().boxed();
        let first = tokio::time::timeout(Duration::from_secs(5), objects.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        assert_eq!(first.metadata.name.as_deref(), Some("a"));
        // The root CA ConfigMap every namespace has.
        let ca = tokio::time::timeout(Duration::from_secs(5), objects.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        assert_eq!(ca.metadata.name.as_deref(), Some("kube-root-ca.crt"));
        api.create(&PostParams::default(), &config_map("b", "x"))
            .await
            .unwrap();
        let second = tokio::time::timeout(Duration::from_secs(5), objects.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        assert_eq!(
            second.metadata.name.as_deref(),
            Some("b"),
            "streaming: {streaming}"
        );
    }
}

/// A watch that allows bookmarks gets one every `bookmark_interval`, with the latest revision
/// (writes it does not select included), and a watch with `timeoutSeconds` ends then.
#[tokio::test(start_paused = true)]
async fn bookmarks_come_at_their_interval_and_a_watch_ends_at_its_timeout() {
    let server = ApiServer::new(smp_apiserver::Options {
        bookmark_interval: Duration::from_secs(10),
        ..Default::default()
    });
    let api: Api<ConfigMap> = Api::default_namespaced(kube::Client::new(server, "default"));
    // kube allows bookmarks unless told not to.
    let params = WatchParams::default().labels("app=x").timeout(25);
    assert!(params.bookmarks);
    let mut events = api.watch(&params, "0").await.unwrap().boxed();
    let other = api
        .create(&PostParams::default(), &config_map("b", "y"))
        .await
        .unwrap();
    let started = tokio::time::Instant::now();
    let Some(Ok(WatchEvent::Bookmark(bookmark))) = events.next().await else {
        panic!("no bookmark");
    };
    assert_eq!(
        Some(bookmark.metadata.resource_version),
        other.metadata.resource_version
    );
    assert_eq!(started.elapsed().as_secs(), 10);
    assert!(matches!(
        events.next().await,
        Some(Ok(WatchEvent::Bookmark(_)))
    ));
    assert_eq!(started.elapsed().as_secs(), 20);
    // The timeout comes before a third bookmark.
    assert!(events.next().await.is_none());
    assert_eq!(started.elapsed().as_secs(), 25);
}
