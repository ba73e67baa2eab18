//! What the real-client tests share: the server reached both ways kube reaches it, raw
//! requests for what a typed call hides (codes, headers, `Status` bodies), and objects.

use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt;
use http::{HeaderMap, Request};
use http_body_util::BodyExt;
use kube::api::{Api, WatchEvent, WatchParams};
use serde_json::{Value, json};
use smp_apiserver::serve::Background;
use smp_apiserver::{ApiServer, Options};

/// kube's `Client` on a new server: in memory (`tower::Service`), and over HTTP (a loopback
/// port served by a thread of its own, kept while the `Background` lives).
pub struct Clients {
    pub memory: kube::Client,
    pub http: kube::Client,
    /// Over HTTP, without kube's default retries (it tries a 429, 503 or 504 again, up to 15
    /// times, honouring `Retry-After`), to see such an answer.
    pub http_once: kube::Client,
    _server: Background,
}

/// A client of each kind, each on a server of its own made with `options`.
pub async fn clients_with(options: impl Fn() -> Options) -> Clients {
    let memory = kube::Client::new(ApiServer::new(options()), "default");
    let server = Background::start(ApiServer::new(options())).expect("the server starts");
    let config = kube::Config::new(server.url().parse().expect("a URL"));
    let http = kube::Client::try_from(config.clone()).expect("a client over HTTP");
    let mut once = config;
    once.default_retry = false;
    let http_once = kube::Client::try_from(once).expect("a client over HTTP");
    Clients {
        memory,
        http,
        http_once,
        _server: server,
    }
}

/// A client of each kind, on servers with the default options.
pub async fn clients() -> Clients {
    clients_with(Options::default).await
}

impl Clients {
    /// Both clients, named.
    pub fn each(&self) -> [(&'static str, kube::Client); 2] {
        [
            ("in memory", self.memory.clone()),
            ("over HTTP", self.http.clone()),
        ]
    }
}

/// What a raw request is answered with.
pub struct Answer {
    pub code: u16,
    pub headers: HeaderMap,
    pub body: Value,
    /// The body as sent.
    pub text: String,
}

/// A raw request through `client`, its body JSON (or nothing).
pub async fn raw(
    client: &kube::Client,
    method: &str,
    path: &str,
    content_type: &str,
    body: Option<Value>,
) -> Answer {
    let body = body.map_or_else(Vec::new, |b| serde_json::to_vec(&b).unwrap());
    raw_bytes(client, method, path, content_type, body).await
}

/// A raw request asking for its answer in the media types of `accept`.
pub async fn raw_accept(
    client: &kube::Client,
    method: &str,
    path: &str,
    accept: &str,
    content_type: &str,
    body: Option<Value>,
) -> Answer {
    let body = body.map_or_else(Vec::new, |b| serde_json::to_vec(&b).unwrap());
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header("accept", accept)
        .header("content-type", content_type)
        .body(body)
        .unwrap();
    send(client, request).await
}

/// A raw request with a body of bytes.
pub async fn raw_bytes(
    client: &kube::Client,
    method: &str,
    path: &str,
    content_type: &str,
    body: Vec<u8>,
) -> Answer {
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", content_type)
        .body(body)
        .unwrap();
    send(client, request).await
}

async fn send(client: &kube::Client, request: Request<Vec<u8>>) -> Answer {
    let response = client
        .send(request.map(Into::into))
        .await
        .expect("an answer");
    let code = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes: Bytes = response.into_body().collect().await.unwrap().to_bytes();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Answer {
        code,
        headers,
        body,
        text: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

/// A `Status` body's code, reason and message.
pub fn status(answer: &Answer) -> (u16, &str, &str) {
    (
        answer.code,
        answer.body["reason"].as_str().unwrap_or(""),
        answer.body["message"].as_str().unwrap_or(""),
    )
}

/// The events a watch of `api` from `version` sends within `wait`, as (type, name, RV).
pub async fn events<K>(api: &Api<K>, version: &str, wait: Duration) -> Vec<(String, String, String)>
where
    K: kube::Resource + Clone + serde::de::DeserializeOwned + std::fmt::Debug + 'static,
{
    let mut stream = api
        .watch(&WatchParams::default().timeout(1), version)
        .await
        .expect("a watch")
        .boxed();
    let mut seen = Vec::new();
    let collect = async {
        while let Some(event) = stream.next().await {
            let (kind, object) = match event.expect("an event") {
                WatchEvent::Added(o) => ("ADDED", o),
                WatchEvent::Modified(o) => ("MODIFIED", o),
                WatchEvent::Deleted(o) => ("DELETED", o),
                WatchEvent::Bookmark(_) | WatchEvent::Error(_) => continue,
            };
            let meta = object.meta();
            seen.push((
                kind.to_owned(),
                meta.name.clone().unwrap_or_default(),
                meta.resource_version.clone().unwrap_or_default(),
            ));
        }
    };
    let _ = tokio::time::timeout(wait, collect).await;
    seen
}

/// A Deployment `name` with one container, labelled `app: name`.
pub fn deployment(name: &str) -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": name, "labels": {"app": name}},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "app", "image": "app:1"}]}
            }
        }
    })
}

/// An owner reference to `owner` (as the API answered it).
pub fn owner_reference(owner: &Value, block: bool) -> Value {
    json!({
        "apiVersion": owner["apiVersion"], "kind": owner["kind"],
        "name": owner["metadata"]["name"], "uid": owner["metadata"]["uid"],
        "controller": true, "blockOwnerDeletion": block,
    })
}

/// A ReplicaSet `name` owned by `owner`.
pub fn replica_set(name: &str, owner: &Value, block: bool) -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "ReplicaSet",
        "metadata": {"name": name, "ownerReferences": [owner_reference(owner, block)]},
        "spec": {
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "app", "image": "app:1"}]}
            }
        }
    })
}
