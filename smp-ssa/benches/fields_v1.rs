//! `FieldsV1` of the field manager's entry for "kubectl" applying Deployment `web` (apps/v1,
//! replicas 3, selector and labels `app: web`) whose pod template spec is the spec of
//! `../shared/bench/pod3.json` or `pod50.json`: decoded and encoded again, beside the floor of
//! smp-core's `apply/<pod>/bytes/floor` measured on the same machine in the same run (both
//! texts of the pod's image patch checked as JSON without building anything, the original
//! copied out), so that the ratio in floors compares like with like.
//!
//! Needs the shared data (the OpenAPI v3 documents and the pods); says so and measures nothing
//! without it.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use smp_ssa::fieldpath::{Set, fields_v1};
use smp_ssa::schema::{Gvk, from_openapi_v3};
use smp_ssa::typed::{ReadOptions, field_set};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn read(relative: &str) -> Option<Vec<u8>> {
    let path = smp_testdata::file(relative)?;
    Some(std::fs::read(path).expect("readable"))
}

fn v3_documents() -> Option<Vec<Value>> {
    let dir = smp_testdata::file("openapi/v3")?;
    let mut docs = Vec::new();
    for entry in std::fs::read_dir(dir).expect("readable") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "json") {
            docs.push(
                serde_json::from_slice(&std::fs::read(path).expect("readable")).expect("JSON"),
            );
        }
    }
    Some(docs)
}

/// The Deployment of the fixture, around a pod's spec.
fn deployment(pod: &Value) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "labels": {"app": "web"}},
        "spec": {
            "replicas": 3,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": pod["spec"].clone()}
        }
    })
}

/// The applied configuration's fields without those the server never tracks.
fn entry(set: &Set) -> Set {
    let untracked = Set::from_paths([
        smp_ssa::fieldpath::Path::fields(["apiVersion"]),
        smp_ssa::fieldpath::Path::fields(["kind"]),
        smp_ssa::fieldpath::Path::fields(["metadata", "name"]),
    ]);
    set.difference(&untracked)
}

fn bench(c: &mut Criterion) {
    let Some(docs) = v3_documents() else {
        return;
    };
    let schema = from_openapi_v3(&docs).expect("the v3 documents convert");
    let ty = schema
        .kind(&Gvk::of("apps/v1", "Deployment"))
        .expect("Deployment");
    for pod in ["pod3", "pod50"] {
        let (Some(original), Some(patch)) = (
            read(&format!("bench/{pod}.json")),
            read(&format!("bench/{pod}-image-patch.json")),
        ) else {
            return;
        };
        let object = deployment(&serde_json::from_slice(&original).expect("JSON"));
        let set = field_set(&schema, ty, &object, ReadOptions::default()).expect("fits");
        let text = fields_v1::to_string(&entry(&set));
        assert_eq!(
            fields_v1::to_string(&fields_v1::from_str(&text).unwrap()),
            text
        );

        let mut group = c.benchmark_group(format!("ssa/{pod}"));
        group.bench_function("fields_v1 decode+encode", |b| {
            b.iter(|| fields_v1::to_string(&fields_v1::from_str(black_box(&text)).unwrap()))
        });
        group.bench_function("floor", |b| {
            b.iter(|| -> Result<String, Box<dyn std::error::Error>> {
                let original = std::str::from_utf8(black_box(&original))?;
                let patch = std::str::from_utf8(black_box(&patch))?;
                serde_json::from_str::<serde::de::IgnoredAny>(original)?;
                serde_json::from_str::<serde::de::IgnoredAny>(patch)?;
                Ok(original.to_owned())
            })
        });
        group.finish();
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
