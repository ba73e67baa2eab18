//! Defaulting a Deployment whose pod template is `../shared/bench/pod50.json`'s spec (50
//! containers, their volumes, probes and resources), and the same with pod3's: what decoding
//! a write costs the test server and `smp default` per object. Needs the shared data (the
//! pods); says so and measures nothing without it.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn deployment(pod: &Value) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
        "spec": {"selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": pod["spec"]}}})
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("defaulting");
    for name in ["pod3", "pod50"] {
        let Some(path) = smp_testdata::file(&format!("bench/{name}.json")) else {
            eprintln!("skipped defaulting benchmarks: needs ../shared/bench/{name}.json");
            return;
        };
        let pod: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let object = deployment(&pod);
        group.bench_function(format!("{name} Deployment"), |b| {
            b.iter_batched(
                || object.clone(),
                |mut object| {
                    smp_admission::defaulting::default_object(&mut object).unwrap();
                    black_box(object)
                },
                // One object at a time, as the server defaults the body it has just read.
                BatchSize::PerIteration,
            )
        });
        // An object defaulted already, in a warm cache: the walk alone.
        let mut again = object.clone();
        smp_admission::defaulting::default_object(&mut again).unwrap();
        group.bench_function(format!("{name} Deployment, defaulted again"), |b| {
            b.iter(|| smp_admission::defaulting::default_object(black_box(&mut again)).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
