//! Requests answered in memory: `get`, a small strategic merge patch and a server-side apply
//! of a Deployment, each through `ApiServer::handle` (what the `tower::Service` runs once the
//! body is read). One iteration is one request, so requests a second on one core are one
//! second over the time shown.

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
