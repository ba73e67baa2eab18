//! What the server's steps after decoding cost per object, on a Deployment whose pod template
//! is `../shared/bench/pod50.json`'s spec (50 containers) and on pod3's: validation alone, and
//! defaulting then validation from the object as sent (the target: under 20 µs for
//! pod50); and on the Pods themselves, the same work as the Go harness of `tools/go-harness`
//! times with Kubernetes' own packages; and the PodSecurity plugin's checks of the Pods at
//! `restricted:latest`. Needs the shared data; says so and measures nothing without it.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn deployment(pod: &Value) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {"selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": pod["spec"]}}})
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("admission");
    for name in ["pod3", "pod50"] {
        let Some(path) = smp_testdata::file(&format!("bench/{name}.json")) else {
            eprintln!("skipped admission benchmarks: needs ../shared/bench/{name}.json");
            return;
        };
        let pod: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let object = deployment(&pod);
        let mut defaulted = object.clone();
        smp_admission::defaulting::default_object(&mut defaulted).unwrap();
        assert_eq!(
            smp_admission::validation::errors_on_create(&defaulted).unwrap(),
            vec![],
            "the benchmark's object is valid"
        );
        // The Pod itself, as the Go harness under `tools/go-harness` measures it (the scheme's
        // defaults, then ValidatePodCreate), from the object as sent.
        let mut pod_defaulted = pod.clone();
        smp_admission::defaulting::default_object(&mut pod_defaulted).unwrap();
        assert_eq!(
            smp_admission::validation::errors_on_create(&pod_defaulted).unwrap(),
            vec![],
            "the benchmark's pod is valid"
        );
        group.bench_function(format!("{name} Pod, default and validate"), |b| {
            b.iter_batched(
                || pod.clone(),
                |mut pod| {
                    smp_admission::defaulting::default_object(&mut pod).unwrap();
                    let errors = smp_admission::validation::errors_on_create(&pod);
                    black_box((pod, errors))
                },
                BatchSize::PerIteration,
            )
        });
        // The PodSecurity plugin's checks of the defaulted Pod at `restricted:latest` (every
        // check of the standards; pod50's containers fail several).
        let restricted = smp_admission::admission::pod_security::LevelVersion::new(
            smp_admission::admission::pod_security::Level::Restricted,
            smp_admission::admission::pod_security::Version::Latest,
        );
        let options = smp_admission::admission::pod_security::Options::default();
        group.bench_function(format!("{name} Pod, PodSecurity restricted"), |b| {
            b.iter(|| {
                smp_admission::admission::pod_security::evaluate(
                    restricted,
                    black_box(&pod_defaulted["metadata"]),
                    black_box(&pod_defaulted["spec"]),
                    &options,
                )
            })
        });
        group.bench_function(format!("{name} Deployment, validate"), |b| {
            b.iter(|| smp_admission::validation::errors_on_create(black_box(&defaulted)))
        });
        group.bench_function(format!("{name} Deployment, default and validate"), |b| {
            b.iter_batched(
                || object.clone(),
                |mut object| {
                    smp_admission::defaulting::default_object(&mut object).unwrap();
                    let errors = smp_admission::validation::errors_on_create(&object);
                    black_box((object, errors))
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
