//! Requests answered in memory: `get`, a small strategic merge patch, the same patch again
//! (a write that changes nothing, which the server does not write) and a server-side apply of
//! a Deployment, each through `ApiServer::handle` (what the `tower::Service` runs once the
//! body is read); then the same over HTTP on loopback (`smp serve`'s front door, on a runtime
//! thread, one keep-alive connection written and read in turn). One iteration is one request,
//! so requests a second on one core are one second over the time shown. Last, lists of 10,000
//! pods: with a field selector (half of them), and all of them in pages of 500 (one iteration
//! is the 20 requests, each page read at the first one's revision).

use std::hint::black_box;
use std::time::Duration;

use bytes::Bytes;
use criterion::{Criterion, criterion_group, criterion_main};
use http::Request;
use serde_json::json;
use smp_apiserver::ApiServer;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const PATH: &str = "/apis/apps/v1/namespaces/default/deployments/web";

fn request(
    method: &str,
    query: &str,
    content_type: &str,
    body: &serde_json::Value,
) -> Request<Bytes> {
    Request::builder()
        .method(method)
        .uri(format!("{PATH}{query}"))
        .header("content-type", content_type)
        .body(Bytes::from(serde_json::to_vec(body).unwrap()))
        .unwrap()
}

fn bench(c: &mut Criterion) {
    let server = ApiServer::default();
    let web = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
        "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "web"}}, "template": {
            "metadata": {"labels": {"app": "web"}},
            "spec": {"containers": [{"name": "app", "image": "app:1"}]}}}});
    server.create(&web).unwrap();
    let mut group = c.benchmark_group("apiserver/in memory");
    group.bench_function("get", |b| {
        b.iter(|| {
            let response = server.handle(request("GET", "", "application/json", &json!(null)));
            assert!(response.status().is_success());
        })
    });
    let mut n = 0u64;
    group.bench_function("strategic patch", |b| {
        b.iter(|| {
            n += 1;
            let patch = json!({"metadata": {"labels": {"n": n.to_string()}}});
            let response = server.handle(black_box(request(
                "PATCH",
                "",
                "application/strategic-merge-patch+json",
                &patch,
            )));
            assert!(response.status().is_success());
        })
    });
    // The same on a server that stores objects as written: what defaulting, admission and
    // validation cost a write.
    let plain = ApiServer::new(smp_apiserver::Options {
        defaulting: false,
        validation: false,
        admission: smp_admission::admission::Plugins::none(),
        ..Default::default()
    });
    plain.create(&web).unwrap();
    group.bench_function("strategic patch, no defaulting or validation", |b| {
        b.iter(|| {
            n += 1;
            let patch = json!({"metadata": {"labels": {"n": n.to_string()}}});
            let response = plain.handle(black_box(request(
                "PATCH",
                "",
                "application/strategic-merge-patch+json",
                &patch,
            )));
            assert!(response.status().is_success());
        })
    });
    let same = json!({"metadata": {"labels": {"n": "same"}}});
    server.handle(request(
        "PATCH",
        "",
        "application/strategic-merge-patch+json",
        &same,
    ));
    group.bench_function("strategic patch changing nothing", |b| {
        b.iter(|| {
            let response = server.handle(black_box(request(
                "PATCH",
                "",
                "application/strategic-merge-patch+json",
                &same,
            )));
            assert!(response.status().is_success());
        })
    });
    group.bench_function("apply", |b| {
        b.iter(|| {
            n += 1;
            let mut applied = web.clone();
            applied["spec"]["replicas"] = json!(n % 5);
            let response = server.handle(black_box(request(
                "PATCH",
                "?fieldManager=bench&force=true",
                "application/apply-patch+yaml",
                &applied,
            )));
            assert!(response.status().is_success());
        })
    });
    group.finish();
    custom_resources(c);
    lists(c);

    let mut http = Http::start(server.clone());
    let mut group = c.benchmark_group("apiserver/http");
    group.bench_function("get", |b| {
        b.iter(|| http.send("GET", PATH, "application/json", b""))
    });
    group.bench_function("strategic patch", |b| {
        b.iter(|| {
            n += 1;
            let patch = format!(r#"{{"metadata":{{"labels":{{"n":"{n}"}}}}}}"#);
            http.send(
                "PATCH",
                PATH,
                "application/strategic-merge-patch+json",
                patch.as_bytes(),
            )
        })
    });
    group.bench_function("apply", |b| {
        b.iter(|| {
            n += 1;
            let mut applied = web.clone();
            applied["spec"]["replicas"] = json!(n % 5);
            let body = serde_json::to_vec(&applied).unwrap();
            let path = format!("{PATH}?fieldManager=bench&force=true");
            http.send("PATCH", &path, "application/apply-patch+yaml", &body)
        })
    });
    group.finish();
}

/// Lists of 10,000 pods, half of them running.
/// Patches of a Gateway API `HTTPRoute` (the CRD and instance of `../shared/crds`), admitted
/// as the server admits custom resources: pruned, defaulted, validated by its schema and its
/// CEL rules. A JSON merge patch (what clients send a custom resource), and a strategic merge
/// patch on a server that takes them for custom resources
/// (`Options::custom_resource_strategic_merge`; the real server answers 415).
fn custom_resources(c: &mut Criterion) {
    let read = |relative: &str| {
        let text = std::fs::read_to_string(smp_testdata::file(relative)?).ok()?;
        smp_core::input::parse_documents(&text, smp_core::DocRole::Original).ok()
    };
    let (Some(crds), Some(routes)) = (
        read("crds/gateway-api/crds/gateway.networking.k8s.io_httproutes.yaml"),
        read("crds/gateway-api/instances/httproute-storefront.yaml"),
    ) else {
        eprintln!("skipped custom resource requests: needs ../shared/crds/gateway-api");
        return;
    };
    let server = ApiServer::new(smp_apiserver::Options {
        custom_resource_strategic_merge: true,
        ..Default::default()
    });
    server.create(&crds[0]).unwrap();
    let mut route = routes[0].clone();
    if let Some(object) = route.as_object_mut() {
        object.remove("status");
        object.insert(
            "metadata".into(),
            json!({"name": "storefront", "namespace": "default"}),
        );
    }
    server.create(&route).unwrap();
    let path = "/apis/gateway.networking.k8s.io/v1/namespaces/default/httproutes/storefront";
    let patch_request = |content_type: &str, n: u64| {
        Request::builder()
            .method("PATCH")
            .uri(path)
            .header("content-type", content_type)
            .body(Bytes::from(format!(
                r#"{{"metadata":{{"labels":{{"n":"{n}"}}}}}}"#
            )))
            .unwrap()
    };
    let mut group = c.benchmark_group("apiserver/custom resource (HTTPRoute, CEL rules)");
    let mut n = 0u64;
    for (name, content_type) in [
        ("merge patch", "application/merge-patch+json"),
        (
            "strategic merge patch",
            "application/strategic-merge-patch+json",
        ),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                n += 1;
                let response = server.handle(black_box(patch_request(content_type, n)));
                assert!(response.status().is_success(), "{:?}", response.status());
            })
        });
    }
    group.finish();
}

fn lists(c: &mut Criterion) {
    let server = ApiServer::default();
    for i in 0..10_000 {
        let name = format!("pod-{i:05}");
        let pod = json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "labels": {"app": "bench"}},
            "spec": {"nodeName": "node-1", "containers": [{"name": "app", "image": "app:1"}]}});
        server.create(&pod).unwrap();
        // A create leaves the status out: it is written through its subresource.
        let phase = if i % 2 == 0 { "Running" } else { "Pending" };
        let status = Request::patch(format!("/api/v1/namespaces/default/pods/{name}/status"))
            .header("content-type", "application/merge-patch+json")
            .body(Bytes::from(format!(
                r#"{{"status":{{"phase":"{phase}"}}}}"#
            )))
            .unwrap();
        assert!(server.handle(status).status().is_success());
    }
    let get = |query: &str| {
        let response = server.handle(
            Request::get(format!("/api/v1/namespaces/default/pods?{query}"))
                .body(Bytes::new())
                .unwrap(),
        );
        assert!(response.status().is_success());
        response
    };
    // Bodies of objects are read at once; a runtime polls them.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let read = |response: http::Response<smp_apiserver::Body>| -> serde_json::Value {
        use http_body_util::BodyExt;
        let bytes = runtime
            .block_on(response.into_body().collect())
            .unwrap()
            .to_bytes();
        serde_json::from_slice(&bytes).unwrap()
    };
    let running = read(get("fieldSelector=status.phase%3DRunning"));
    assert_eq!(running["items"].as_array().map(Vec::len), Some(5_000));
    let mut group = c.benchmark_group("apiserver/list of 10,000 pods");
    group.sample_size(10);
    group.bench_function("field selector status.phase=Running", |b| {
        b.iter(|| black_box(get("fieldSelector=status.phase%3DRunning")))
    });
    group.bench_function("pages of 500", |b| {
        b.iter(|| {
            let mut token = String::new();
            let mut pages = 0;
            loop {
                let response = get(&format!("limit=500&continue={token}"));
                let body = read(response);
                pages += 1;
                match body["metadata"]["continue"].as_str() {
                    Some(next) => token = next.to_owned(),
                    None => break,
                }
            }
            assert_eq!(pages, 20);
        })
    });
    // The same list in each form a client asks for, its body read whole: as stored, as the
    // table `kubectl get` asks for, as the metadata kube's metadata watchers ask for.
    let bytes = |accept: &str| {
        use http_body_util::BodyExt;
        let response = server.handle(
            Request::get("/api/v1/namespaces/default/pods")
                .header("accept", accept)
                .body(Bytes::new())
                .unwrap(),
        );
        assert!(response.status().is_success());
        runtime
            .block_on(response.into_body().collect())
            .unwrap()
            .to_bytes()
    };
    for (form, accept) in [
        ("as JSON", "application/json"),
        ("as Table", "application/json;as=Table;g=meta.k8s.io;v=v1"),
        (
            "as PartialObjectMetadataList",
            "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
        ),
    ] {
        group.bench_function(format!("all, {form}"), |b| {
            b.iter(|| black_box(bytes(accept)))
        });
    }
    group.finish();
}

/// A client of the server over HTTP/1.1 on loopback: one connection, kept alive.
struct Http {
    stream: std::net::TcpStream,
    reader: std::io::BufReader<std::net::TcpStream>,
    _server: smp_apiserver::serve::Background,
}

impl Http {
    fn start(server: ApiServer) -> Http {
        let running = smp_apiserver::serve::Background::start(server).unwrap();
        let address = running.address();
        let stream = std::net::TcpStream::connect(address).unwrap();
        stream.set_nodelay(true).unwrap();
        let reader = std::io::BufReader::new(stream.try_clone().unwrap());
        Http {
            stream,
            reader,
            _server: running,
        }
    }

    /// Sends a request and reads its whole response; its status.
    fn send(&mut self, method: &str, path: &str, content_type: &str, body: &[u8]) -> u16 {
        use std::io::{BufRead, Read, Write};
        let head = format!(
            "{method} {path} HTTP/1.1\r\nhost: bench\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\n\r\n",
            body.len()
        );
        self.stream.write_all(head.as_bytes()).unwrap();
        self.stream.write_all(body).unwrap();
        let mut line = String::new();
        self.reader.read_line(&mut line).unwrap();
        let status: u16 = line.split(' ').nth(1).unwrap().parse().unwrap();
        let mut length = 0;
        loop {
            line.clear();
            self.reader.read_line(&mut line).unwrap();
            if line == "\r\n" {
                break;
            }
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap();
            }
        }
        let mut response = vec![0; length];
        self.reader.read_exact(&mut response).unwrap();
        assert!(status < 300, "{}", String::from_utf8_lossy(&response));
        status
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(50)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
