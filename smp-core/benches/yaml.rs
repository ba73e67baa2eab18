//! YAML read and written, next to JSON read and written by serde_json, on the same documents in
//! the same run (the yardstick the YAML paths are measured against):
//! - `yaml/podN/read`: `smp_core::yaml::parse_yaml_documents` of the Pod as YAML (kubectl's
//!   layout, as `to_yaml_string` writes it), and `serde_json` (`from_str::<Value>`) of it as
//!   JSON;
//! - `yaml/podN/write`: `smp_core::yaml::to_yaml_string` of the parsed Pod, and `serde_json`
//!   (`to_string_pretty`) of it;
//! - `yaml/stream/split`: `smp_core::yaml::split_documents` of a stream of 200 pod3 documents,
//!   which reads every document to know that each reads on its own (one core: the stream is
//!   under the size from which it uses every core).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::Value;
use smp_core::DocRole;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const PODS: [(&str, &str); 2] = [
    ("pod3", include_str!("fixtures/pod3.json")),
    ("pod50", include_str!("fixtures/pod50.json")),
];

fn bench(c: &mut Criterion) {
    for (name, json) in PODS {
        let value: Value = serde_json::from_str(json).expect("a fixture");
        let yaml = smp_core::yaml::to_yaml_string(&value);
        assert_eq!(
            smp_core::yaml::parse_yaml_documents(&yaml, DocRole::Original).expect("YAML"),
            std::slice::from_ref(&value)
        );
        let mut group = c.benchmark_group(format!("yaml/{name}/read"));
        group.bench_function("smp yaml", |b| {
            b.iter(|| smp_core::yaml::parse_yaml_documents(black_box(&yaml), DocRole::Original))
        });
        group.bench_function("serde_json", |b| {
            b.iter(|| serde_json::from_str::<Value>(black_box(json)))
        });
        group.finish();
        let mut group = c.benchmark_group(format!("yaml/{name}/write"));
        group.bench_function("smp yaml", |b| {
            b.iter(|| smp_core::yaml::to_yaml_string(black_box(&value)))
        });
        group.bench_function("serde_json", |b| {
            b.iter(|| serde_json::to_string_pretty(black_box(&value)))
        });
        group.finish();
    }
    let pod: Value = serde_json::from_str(PODS[0].1).expect("a fixture");
    let one = smp_core::yaml::to_yaml_string(&pod);
    let stream = vec![one.as_str(); 200].join("---\n");
    assert_eq!(
        smp_core::yaml::split_documents(&stream).map(|d| d.len()),
        Some(200)
    );
    c.bench_function("yaml/stream/split", |b| {
        b.iter(|| smp_core::yaml::split_documents(black_box(&stream)))
    });
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
